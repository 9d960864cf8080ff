#!/usr/bin/env python3
"""pydraughts (PyPI, MIT; its English variant) as an independent oracle of ply's checkers
rules, move for move (see tests/checkers_pydraughts.rs).

ply runs as an engine; this script asks it, through the protocol only, for the legal moves
(`query legalmoves`), the position (`query fen`) and the result (`query result`) and compares
them with pydraughts:

  * random games from the start, to their end: at every ply the same set of legal moves
    (every capture with its whole path, so the order in which a king takes the same pieces
    counts, as in pydraughts), the same pieces on the same squares after the move (crowning
    included), and the same result when the game ends: a side that cannot move loses, three
    repetitions or 40 moves each without a man's move or a capture draw;
  * random positions with many kings (long and circular captures): the same legal moves,
    the same position after each move, for a few plies of random play;
  * random endings of kings (and a man or two) played to their end, which is mostly a draw:
    by threefold repetition or by the no-progress rule, at the same ply in both.

Exit status 77 when pydraughts is missing (the Rust test then says it is skipped).

    python3 tests/checkers_pydraughts.py --ply target/release/ply [--games 40] [--positions 300]
"""

import argparse
import random
import subprocess
import sys

try:
    from draughts import Board, WHITE, BLACK
except ImportError as e:  # pragma: no cover - depends on the machine
    print(f"pydraughts is not installed ({e}); pip install pydraughts")
    sys.exit(77)


class Ply:
    """One ply engine process, in checkers."""

    def __init__(self, exe):
        self.p = subprocess.Popen(
            [exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("newgame checkers")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def ask(self, query):
        self.send(query)
        self.p.stdin.flush()
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise AssertionError(f"ply exited while answering {query!r}")
            line = line.rstrip("\n")
            if line.startswith("info string error"):
                raise AssertionError(f"ply refused: {line}")
            if line.startswith("response"):
                return line[len("response"):].strip()

    def quit(self):
        self.send("quit")
        self.p.stdin.close()
        self.p.wait(timeout=10)
        self.p.stdout.close()


def move_text(move):
    sep = "x" if move.captures else "-"
    return sep.join(str(s) for s in move.steps_move)


def pieces(fen):
    """{square: 'b'|'B'|'w'|'W'} from a PDN FEN (either field order, ranges not used)."""
    out = {}
    for field in fen.split(":")[1:]:
        colour, rest = field[0], field[1:]
        if colour not in "WB":
            continue
        for tok in filter(None, rest.split(",")):
            king = tok.startswith("K")
            out[int(tok.lstrip("K"))] = colour.upper() if king else colour.lower()
    return out


def result_of(board):
    w = board.winner()
    if w is None:
        return "none"
    return {BLACK: "p1win", WHITE: "p2win", 0: "draw"}[w]


def compare(ply, board, where):
    """The same result; while the game goes on, the same legal moves, pieces and side to
    move. Returns pydraughts' moves by text (none once the game is over). (Once a position
    occurs the third time the game is drawn, but ply still lists the moves there, as for
    chess: a player may play on until the draw is claimed.)"""
    ours = ply.ask("query result")
    if ours != result_of(board):
        raise AssertionError(f"{where}: result ply {ours}, pydraughts {result_of(board)}")
    fen = ply.ask("query fen")
    if pieces(fen) != pieces(board.fen) or fen[0] != board.fen[0]:
        raise AssertionError(f"{where}: positions differ: ply {fen}, pydraughts {board.fen}")
    if ours != "none":
        return {}
    theirs = {move_text(m): m for m in board.legal_moves()}
    ours = set(ply.ask("query legalmoves").split())
    if ours != set(theirs):
        raise AssertionError(
            f"{where}: legal moves differ at {board.fen}\n  ply only: {sorted(ours - set(theirs))}"
            f"\n  pydraughts only: {sorted(set(theirs) - ours)}"
        )
    return theirs


def random_game(ply, rng, n):
    board = Board(variant="english")
    played = []
    while True:
        where = f"game {n} after {' '.join(played) or 'the start'}"
        ply.send("position startpos moves " + " ".join(played))
        theirs = compare(ply, board, where)
        if not theirs:
            return result_of(board), len(played)
        text = rng.choice(sorted(theirs))
        board.push(theirs[text])
        played.append(text)


def random_fen(rng):
    """A position with kings and men of both sides, men never on their crowning row."""
    squares = list(range(1, 33))
    rng.shuffle(squares)
    n = rng.randint(2, 12)
    black, white = [], []
    for i, s in enumerate(squares[:n]):
        side = black if i % 2 == 0 else white
        crown = 29 <= s <= 32 if side is black else s <= 4
        king = crown or rng.random() < 0.6
        side.append(f"K{s}" if king else str(s))
    turn = rng.choice("BW")
    return f"{turn}:W{','.join(white)}:B{','.join(black)}"


def random_ending(rng):
    """A king or two a side, sometimes a man: long games that mostly end in draws."""
    squares = rng.sample(range(5, 29), 4)
    n = rng.randint(1, 2)
    black = [f"K{s}" for s in squares[:n]]
    white = [f"K{s}" for s in squares[2:2 + n]]
    if rng.random() < 0.3:
        white[0] = white[0][1:]
    return f"{rng.choice('BW')}:W{','.join(white)}:B{','.join(black)}"


def safe_choice(rng, board, theirs):
    """A random move after which the opponent has no capture, when there is one."""
    texts = sorted(theirs)
    rng.shuffle(texts)
    for text in texts:
        # On a copy: pydraughts' pop() does not restore its no-progress count.
        after = board.copy()
        after.push(theirs[text])
        if not any(m.captures for m in after.legal_moves()):
            return text
    return texts[0]


def draw_reason(board):
    if board.winner() != 0:
        return None
    return "no progress" if board._game.consecutive_noncapture_king_moves >= 80 else "repetition"


def random_position(ply, rng, n, fen, plies, careful=False):
    board = Board(variant="english", fen=fen)
    played = []
    for _ in range(plies):
        where = f"position {n} {fen} after {' '.join(played) or 'nothing'}"
        ply.send(f"position fen {fen} moves {' '.join(played)}".rstrip())
        theirs = compare(ply, board, where)
        if not theirs:
            return draw_reason(board) or result_of(board)
        text = safe_choice(rng, board, theirs) if careful else rng.choice(sorted(theirs))
        board.push(theirs[text])
        played.append(text)
    return "none"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ply", required=True)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--endings", type=int, default=20)
    ap.add_argument("--seed", type=int, default=20)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    ply = Ply(a.ply)
    results = {}
    plies = 0
    for n in range(a.games):
        r, length = random_game(ply, rng, n)
        results[r] = results.get(r, 0) + 1
        plies += length
    print(f"{a.games} random games, {plies} plies, all moves, positions and results agree: {results}")
    for n in range(a.positions):
        random_position(ply, rng, n, random_fen(rng), 6)
    print(f"{a.positions} random positions with kings, 6 plies each: all agree")
    results = {}
    for n in range(a.endings):
        r = random_position(ply, rng, n, random_ending(rng), 1000, careful=True)
        results[r] = results.get(r, 0) + 1
    print(f"{a.endings} random king endings played out: all agree: {results}")
    if a.endings >= 10 and not (results.get("repetition") and results.get("no progress")):
        raise AssertionError(f"both draw rules should have ended some of them: {results}")
    ply.quit()


if __name__ == "__main__":
    main()
