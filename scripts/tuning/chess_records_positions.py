#!/usr/bin/env python3
"""Labelled chess positions for the Texel tuner from ply-referee records (JSON Lines).

Every quiet position of every finished game in the records is written with the game's
result and the score the engine to move searched for it, one line each, in the format
examples/chess_tune.rs reads (the same as scripts/tuning/chess_texel_data.py's):

    <FEN> | <result> | <score>

<result> is White's score (1.0, 0.5, 0.0); <score> is the mover's searched score turned to
White's side, in centipawns. Quiet: the side to move is not in check and the move played is
neither a capture nor a promotion. Mate scores and scores of 2000 cp or more are left out.
Positions come out game by game in the records' order, so the tuner's held-out share (the
last games) is the last games of the last file.

The full evaluation's threat and passed-pawn weights (docs/chess.md, "The third round")
were fitted to the positions of two of ply's own SPRT matches at 25,000 nodes a move:

    python3 scripts/tuning/chess_records_positions.py target/texel/ply.txt a.jsonl b.jsonl

python-chess (PyPI `chess`) replays the moves; nothing of it is linked into ply.
"""

import json
import sys

import chess

RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: chess_records_positions.py OUT RECORDS.jsonl ... [--games N]")
    args = sys.argv[1:]
    limit = None
    if "--games" in args:
        i = args.index("--games")
        limit = int(args[i + 1])
        del args[i : i + 2]
    out_path, paths = args[0], args[1:]
    n = games = 0
    with open(out_path, "w") as out:
        for path in paths:
            for line in open(path):
                g = json.loads(line)
                res = RESULTS.get(g.get("result"))
                if "moves" not in g or res is None:
                    continue
                if limit is not None and games >= limit:
                    break
                games += 1
                b = chess.Board(g["opening"]["fen"])
                for m in g["opening"].get("moves", []):
                    b.push_uci(m)
                for m in g["moves"]:
                    mv = chess.Move.from_uci(m["mv"])
                    sc = m.get("score", "")
                    quiet = not b.is_check() and not b.is_capture(mv) and mv.promotion is None
                    if quiet and sc.startswith("cp "):
                        cp = int(sc[3:])
                        if abs(cp) < 2000:
                            white = cp if b.turn == chess.WHITE else -cp
                            out.write(f"{b.fen()} | {res} | {white}\n")
                            n += 1
                    b.push(mv)
    print(f"{n} positions from {games} games", file=sys.stderr)


if __name__ == "__main__":
    main()
