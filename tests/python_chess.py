#!/usr/bin/env python3
"""python-chess drives `ply --game chess` as any UCI client would (see tests/python_chess.rs).

Checks: analyse at a depth and at a time, analyse with multipv=3, a whole game of ply against
itself with play() on a clock until the game ends, a Chess960 board, ponder, and quit. Every
move ply gives must be legal on python-chess's board. Exit status 77 when python-chess is
missing (the Rust test then reports the test as skipped).
"""

import argparse
import sys

try:
    import chess
    import chess.engine
except ImportError as e:  # pragma: no cover - depends on the machine
    print(f"python-chess is not installed ({e}); pip install chess")
    sys.exit(77)


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def analyse(engine):
    board = chess.Board()
    info = engine.analyse(board, chess.engine.Limit(depth=6))
    check(info["depth"] == 6, f"depth: {info}")
    check(info["pv"] and info["pv"][0] in board.legal_moves, f"pv: {info}")
    check(info["score"].relative.score() is not None, f"score: {info}")
    info = engine.analyse(board, chess.engine.Limit(time=0.3))
    check(info["pv"][0] in board.legal_moves, f"timed pv: {info}")
    lines = engine.analyse(board, chess.engine.Limit(depth=5), multipv=3)
    check(len(lines) == 3, f"multipv=3 gave {len(lines)} lines")
    firsts = [line["pv"][0] for line in lines]
    check(len(set(firsts)) == 3, f"multipv first moves repeat: {firsts}")
    check(all(m in board.legal_moves for m in firsts), f"multipv moves: {firsts}")
    # A mate in two, as python-chess reports it.
    mate = chess.Board("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1")
    info = engine.analyse(mate, chess.engine.Limit(depth=6))
    check(info["score"].relative == chess.engine.Mate(2), f"mate in 2: {info['score']}")
    print("analyse: depth, time, multipv=3, mate in 2: ok")


def self_play(engine, board, limit, max_plies):
    plies = 0
    while not board.is_game_over(claim_draw=True) and plies < max_plies:
        result = engine.play(board, limit)
        check(result.move is not None, f"no move at {board.fen()}")
        check(result.move in board.legal_moves, f"illegal {result.move} at {board.fen()}")
        board.push(result.move)
        plies += 1
    return plies


def whole_game(engine):
    """ply against itself from the start to the end of the game, on clocks of 1 s + 10 ms a
    move as a GUI keeps them (the time between sending `go` and reading `bestmove` is
    charged). The clocks are reported, not asserted: on a loaded machine the time python
    itself takes is charged too; `scripts/chess_timecontrol.sh` measures time losses with
    the referee."""
    import time

    board = chess.Board()
    clocks = {chess.WHITE: 1.0, chess.BLACK: 1.0}
    lowest = 1.0
    while not board.is_game_over(claim_draw=True) and board.ply() < 600:
        limit = chess.engine.Limit(
            white_clock=max(clocks[chess.WHITE], 0.001),
            black_clock=max(clocks[chess.BLACK], 0.001),
            white_inc=0.01,
            black_inc=0.01,
        )
        t = time.monotonic()
        result = engine.play(board, limit)
        side = board.turn
        clocks[side] -= time.monotonic() - t
        lowest = min(lowest, clocks[side])
        clocks[side] += 0.01
        check(result.move in board.legal_moves, f"illegal {result.move} at {board.fen()}")
        board.push(result.move)
    outcome = board.outcome(claim_draw=True)
    print(
        f"self-play at 1+0.01: {board.ply()} plies, "
        f"{outcome.result() if outcome else 'unfinished (600 plies)'}"
        f" ({outcome.termination.name if outcome else '-'}), "
        f"lowest clock {lowest:.3f} s"
    )


def chess960(engine):
    board = chess.Board.from_chess960_pos(2)  # BBNNQRKR
    plies = self_play(engine, board, chess.engine.Limit(depth=3), 40)
    check(plies > 0, "no Chess960 move")
    castles = chess.Board.from_chess960_pos(518)
    castles.chess960 = True
    castles.set_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    info = engine.analyse(castles, chess.engine.Limit(depth=3))
    check(info["pv"][0] in castles.legal_moves, f"960 pv {info['pv']}")
    print(f"Chess960: {plies} legal plies from position 2, castling position ok")


def ponder(engine):
    board = chess.Board()
    result = engine.play(board, chess.engine.Limit(time=0.2), ponder=True)
    check(result.move in board.legal_moves, "ponder move")
    if result.ponder is not None:
        board.push(result.move)
        check(result.ponder in board.legal_moves, "ponder reply")
    print(f"ponder: {result.move} (expects {result.ponder})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ply", required=True)
    args = ap.parse_args()
    engine = chess.engine.SimpleEngine.popen_uci([args.ply, "--game", "chess"], timeout=30)
    check(engine.id.get("name", "").startswith("ply"), f"id name {engine.id}")
    check("MultiPV" in engine.options and "UCI_Chess960" in engine.options, "options")
    try:
        analyse(engine)
        chess960(engine)
        ponder(engine)
        whole_game(engine)
    finally:
        engine.quit()
    print("quit: ok")


if __name__ == "__main__":
    main()
