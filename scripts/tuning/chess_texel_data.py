#!/usr/bin/env python3
"""Labelled chess positions for Texel tuning (scripts/tuning/chess_tune.sh reads them).

Stockfish plays itself at a fixed node count from varied openings; every quiet
position of every game is written with the game's result and Stockfish's score
of the position, one line each:

    <FEN> | <result> | <score>

where <result> is White's score: 1.0 (White won), 0.5 (draw), 0.0 (Black won),
and <score> is Stockfish's evaluation from its search of that position, in
centipawns from White's side (mates and larger values clipped to +-3000).

Openings: the first OPENING_PLIES plies are chosen at random among the moves
Stockfish (MultiPV 5, --opening-nodes nodes) rates within 60 cp of its best, so
games start from balanced but varied positions. Those plies are not recorded.

Quiet: the side to move is not in check and the move Stockfish played from the
position is neither a capture nor a promotion (a static evaluation cannot see
the material about to change hands; this stands in for a quiescence search).

--random-rate R plays a random legal move instead of Stockfish's with probability R at
each ply after the opening (the position it leads to is scored by Stockfish like any
other), so the data also covers the spoiled positions a search explores; the game's
result is that of the game as played.

Adjudication, so a game ends in reasonable time: a draw after --max-plies
plies; a win for a side whose score (Stockfish's) stays at or above 1000 cp for
8 plies in a row; the rules' own ends (mate, stalemate, insufficient material,
the fifty-move rule, threefold repetition) otherwise.

python-chess (PyPI `chess`, GPL) is used here only as a client process of
Stockfish; nothing of it is linked into ply.

Usage:
    nice -n 10 python3 scripts/tuning/chess_texel_data.py --games 10000 \
        --out target/texel/positions.txt
The output is appended to game by game, so an interrupted run keeps what it
finished; --seed makes the openings reproducible (Stockfish at a fixed node
count with one thread is deterministic too).
"""

import argparse
import os
import random
import sys
import time

import chess
import chess.engine

OPENING_PLIES = 8
RESIGN_CP = 1000
RESIGN_PLIES = 8


def find_stockfish(path):
    for p in [path, "/usr/games/stockfish", "stockfish"]:
        if p and (os.path.isabs(p) and os.access(p, os.X_OK)):
            return p
        if p and not os.path.isabs(p):
            from shutil import which

            w = which(p)
            if w:
                return w
    sys.exit("stockfish not found (apt-get install stockfish; it lands in /usr/games)")


def opening(engine, rng, nodes, game_id):
    board = chess.Board()
    for _ in range(OPENING_PLIES):
        infos = engine.analyse(board, chess.engine.Limit(nodes=nodes), multipv=5, game=game_id)
        scored = [
            (i["score"].relative.score(mate_score=100000), i["pv"][0])
            for i in infos
            if "pv" in i and i["pv"]
        ]
        if not scored:
            break
        best = max(s for s, _ in scored)
        choices = [m for s, m in scored if s >= best - 60]
        board.push(rng.choice(choices))
        if board.is_game_over():
            break
    return board


def play_game(engine, rng, args, game_id):
    """One game; returns (list of (quiet FEN, Stockfish's score), White's result)."""
    board = opening(engine, rng, args.opening_nodes, game_id)
    quiet = []
    streak_side, streak = None, 0
    result = None
    while result is None:
        if board.is_game_over(claim_draw=True):
            result = board.result(claim_draw=True)
            break
        if board.ply() >= args.max_plies:
            result = "1/2-1/2"
            break
        play = engine.play(
            board, chess.engine.Limit(nodes=args.nodes), info=chess.engine.INFO_SCORE,
            game=game_id,
        )
        mv = play.move
        score = play.info.get("score")
        cp = None if score is None else score.white().score(mate_score=100000)
        if (
            cp is not None
            and not board.is_check()
            and not board.is_capture(mv)
            and mv.promotion is None
        ):
            quiet.append((board.fen(), max(-3000, min(3000, cp))))
        if cp is not None:
            side = "w" if cp >= RESIGN_CP else "b" if cp <= -RESIGN_CP else None
            if side is not None and side == streak_side:
                streak += 1
            else:
                streak_side, streak = side, (1 if side else 0)
            if streak >= RESIGN_PLIES:
                result = "1-0" if side == "w" else "0-1"
                break
        if args.random_rate > 0 and rng.random() < args.random_rate:
            # Now and then a move chosen at random instead of Stockfish's, so the data also
            # holds positions one side has spoiled (lopsided material, loose pieces): a
            # search meets many of them, and an evaluation learnt only from good play
            # misjudges them.
            mv = rng.choice(list(board.legal_moves))
        board.push(mv)
    label = {"1-0": "1.0", "0-1": "0.0", "1/2-1/2": "0.5"}[result]
    return quiet, label


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--nodes", type=int, default=2000, help="Stockfish nodes per move")
    ap.add_argument("--opening-nodes", type=int, default=1000)
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--random-rate", type=float, default=0.0,
        help="share of moves after the opening played at random instead of Stockfish's",
    )
    ap.add_argument("--stockfish", default=None)
    ap.add_argument("--out", default="target/texel/positions.txt")
    args = ap.parse_args()
    if not 0.0 <= args.random_rate <= 1.0:
        ap.error("--random-rate must be between 0 and 1")

    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    rng = random.Random(args.seed)
    engine = chess.engine.SimpleEngine.popen_uci(find_stockfish(args.stockfish))
    engine.configure({"Threads": 1, "Hash": 16})
    counts = {"1.0": 0, "0.5": 0, "0.0": 0}
    positions = 0
    start = time.time()
    try:
        with open(args.out, "a") as out:
            for g in range(args.games):
                quiet, label = play_game(engine, rng, args, g)
                out.writelines(f"{fen} | {label} | {cp}\n" for fen, cp in quiet)
                out.flush()
                counts[label] += 1
                positions += len(quiet)
                if (g + 1) % 50 == 0 or g + 1 == args.games:
                    print(
                        f"{g + 1} games (W {counts['1.0']} D {counts['0.5']} "
                        f"L {counts['0.0']}), {positions} positions, "
                        f"{time.time() - start:.0f} s",
                        file=sys.stderr,
                        flush=True,
                    )
    finally:
        engine.quit()


if __name__ == "__main__":
    main()
