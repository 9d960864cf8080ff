#!/usr/bin/env python3
"""Can ply mate? ply plays the winning side of basic mates (a bishop and a knight, a rook, a
queen, two bishops, against a bare king) against Stockfish 15.1's defence, a fixed time a
move each, and the game ends at mate or by the fifty-move rule (the positions start with the
clock at 0, so 50 moves: a bishop and knight needs at most 33 from any of them).

    python3 scripts/matches/chess_mates.py [--ply target/release/ply] [--movetime 0.3] [FEN ...]

Prints one line a position: the result for ply, the moves played, the last position; then
how many of them ply mated. Exit status 1 when any was not mated. Every engine call runs under
python-chess's own timeout; each game is bounded by the fifty-move rule.
"""
import argparse
import sys

import chess
import chess.engine

POSITIONS = [
    "8/8/8/4k3/8/8/8/4KBN1 w - - 0 1",
    "8/8/3k4/8/8/2N5/8/2B1K3 w - - 0 1",
    "4k3/8/8/8/8/8/8/1N2KB2 w - - 0 1",
    "8/8/8/8/3k4/8/8/2B1KN2 w - - 0 1",
    "8/8/8/3k4/8/8/8/R3K3 w - - 0 1",
    "8/8/8/3k4/8/8/8/2B1KB2 w - - 0 1",
    "8/8/8/2k5/8/8/8/3QK3 w - - 0 1",
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ply", default="target/release/ply")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--movetime", type=float, default=0.3, help="seconds a move")
    ap.add_argument("fens", nargs="*", default=POSITIONS)
    a = ap.parse_args()
    ply = chess.engine.SimpleEngine.popen_uci([a.ply], timeout=30)
    sf = chess.engine.SimpleEngine.popen_uci([a.stockfish], timeout=30)
    mated = 0
    try:
        for fen in a.fens:
            board = chess.Board(fen)
            us = board.turn
            while not board.is_game_over(claim_draw=True):
                engine = ply if board.turn == us else sf
                board.push(engine.play(board, chess.engine.Limit(time=a.movetime)).move)
            won = board.is_checkmate() and board.turn != us
            mated += won
            moves = (board.ply() + 1) // 2
            print(f"{'mated' if won else 'NOT mated':9s} in {moves:3d} moves: {fen} -> {board.fen()}")
    finally:
        ply.quit()
        sf.quit()
    print(f"ply mated {mated} of {len(a.fens)} at {a.movetime} s a move")
    return 0 if mated == len(a.fens) else 1


if __name__ == "__main__":
    sys.exit(main())
