#!/usr/bin/env python3
"""A deliberately faulty engine for the referee's tests: `fake_engine.py MODE`.

It speaks just enough of ply's protocol to play tic-tac-toe and Connect Four (it picks the
first legal move in a fixed order) and misbehaves the way MODE says:

  good      plays legal moves, nothing else
  crash     exits (status 3) at its second `go` of a game, mid-game
  hang      stops answering at its first `go`: no bestmove, ignores stop and isready
  illegal   plays an occupied cell / a full column as soon as one exists
  garbage   prints junk (binary bytes, a huge line, nonsense info) and a malformed bestmove
  nouciok   answers `uci` with its id but never `uciok`
  flood     plays legal moves while writing ~1 MB to stderr per move
  slow      plays legal moves, each after sleeping 400 ms (loses to a short clock)
  hugeinfo  plays legal moves, each after a 40 MB info line
  hugeoption answers `uci` with a 64 MB option line, then plays legal moves
  spam      plays legal moves, each followed by 1,000,000 short info lines (about 32 MB),
            printed while the opponent thinks
  plainuci  plays legal moves, but declares no UCI_Variant (a plain UCI engine is taken for
            a chess engine)

Every mode but plainuci declares the two games it plays in its UCI_Variant option.

Python, not Rust: it needs no build step, it cannot share code with ply's protocol by
accident, and python3 is on every machine that builds ply.
"""

import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "good"
out = sys.stdout


def say(line):
    out.write(line + "\n")
    out.flush()


game = "tictactoe"
moves = []
gos_this_game = 0


def legal_moves():
    if game == "connect4":
        heights = [0] * 7
        for m in moves:
            heights[int(m) - 1] += 1
        return [str(c + 1) for c in [3, 2, 4, 1, 5, 0, 6] if heights[c] < 6]
    cells = [f + r for r in "123" for f in "abc"]
    return [c for c in cells if c not in moves]


def illegal_move():
    if game == "connect4":
        heights = [0] * 7
        for m in moves:
            heights[int(m) - 1] += 1
        full = [str(c + 1) for c in range(7) if heights[c] >= 6]
        return full[0] if full else None
    return moves[0] if moves else None


for raw in sys.stdin:
    line = raw.strip()
    words = line.split()
    if not words:
        continue
    cmd = words[0]
    if cmd == "uci":
        say("id name fake-" + MODE)
        say("id author the ply tests")
        if MODE != "plainuci":
            say("option name UCI_Variant type combo default tictactoe var tictactoe var connect4")
        if MODE == "garbage":
            sys.stdout.buffer.write(b"\xff\xfe\x00garbage\x80\n")
            sys.stdout.flush()
            say("option name Broken type")
        if MODE == "hugeoption":
            say("option name Big type string default " + "o" * (64 << 20))
        if MODE != "nouciok":
            say("uciok")
    elif cmd == "isready":
        say("readyok")
    elif cmd == "newgame" and len(words) > 1:
        game = words[1]
        gos_this_game = 0
    elif cmd == "setoption" and "UCI_Variant" in words and "value" in words:
        game = words[words.index("value") + 1]
    elif cmd == "ucinewgame":
        gos_this_game = 0
    elif cmd == "position":
        moves = words[words.index("moves") + 1:] if "moves" in words else []
    elif cmd == "go":
        gos_this_game += 1
        if MODE == "crash" and gos_this_game >= 2:
            sys.stderr.write("fake-crash: exiting mid-game\n")
            sys.stderr.flush()
            sys.exit(3)
        if MODE == "hang":
            while True:
                time.sleep(3600)
        if MODE == "flood":
            chunk = ("flooding stderr " * 64 + "\n") * 1024
            sys.stderr.write(chunk)
            sys.stderr.flush()
        if MODE == "slow":
            time.sleep(0.4)
        if MODE == "hugeinfo":
            say("info string " + "i" * (40 << 20))
        if MODE == "garbage":
            sys.stdout.buffer.write(bytes(range(1, 256)) + b"\n")
            say("x" * 200000)
            say("info depth banana score cp nodes -1 pv")
            say("bestmovez 4")
            say("bestmove ~~garbage~~")
            continue
        if MODE == "illegal":
            bad = illegal_move()
            if bad is not None:
                say("bestmove " + bad)
                continue
        legal = legal_moves()
        say("info depth 1 score cp 0 nodes 1")
        say("bestmove " + (legal[0] if legal else "(none)"))
        if MODE == "spam":
            out.write("info depth 1 score cp 0 nodes 1\n" * 1000000)
            out.flush()
    elif cmd == "quit":
        break
