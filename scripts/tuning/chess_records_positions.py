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

With --stockfish-nodes N the score is instead Stockfish's, searched afresh at N nodes
(one thread, Hash 16; White's side, mates and larger scores clipped to +-3000, as
scripts/tuning/chess_texel_data.py writes them): ply's own games then teach the evaluation
where ply's search takes it, labelled by a better judge. --sample R keeps each quiet
position with probability R (--seed; a path written RECORDS.jsonl@R has a rate of its
own), the first four plies of a game are skipped, and a position already written (the
same placement, side, castling and en passant) is not written again. The twelfth round's
table (docs/chess.md) was fitted with positions taken this way from the records of ply's
own matches.

The full evaluation's threat and passed-pawn weights (docs/chess.md, "The third round")
were fitted to the positions of two of ply's own SPRT matches at 25,000 nodes a move:

    python3 scripts/tuning/chess_records_positions.py target/texel/ply.txt a.jsonl b.jsonl

python-chess (PyPI `chess`) replays the moves; nothing of it is linked into ply.
"""

import json
import random
import sys

import chess
import chess.engine

RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


USAGE = (
    "usage: chess_records_positions.py OUT RECORDS.jsonl ... [--games N] "
    "[--stockfish-nodes N] [--stockfish PATH] [--sample R] [--seed S]; RECORDS.jsonl@R samples "
    "that file at R"
)


def stockfish_score(engine, board, nodes):
    """Stockfish's score of `board` at `nodes` nodes, from White's side, clipped to +-3000
    (mates too), as scripts/tuning/chess_texel_data.py writes its scores; None if it gave
    none. The position goes as its FEN alone, without the game's moves before it: the
    score is the position's, whatever the game's history."""
    play = engine.play(
        chess.Board(board.fen()), chess.engine.Limit(nodes=nodes), info=chess.engine.INFO_SCORE
    )
    score = play.info.get("score")
    if score is None:
        return None
    return max(-3000, min(3000, score.white().score(mate_score=100000)))


def option(args, name, default, kind):
    if name not in args:
        return default
    i = args.index(name)
    if i + 1 >= len(args):
        sys.exit(USAGE)
    value = kind(args[i + 1])
    del args[i : i + 2]
    return value


def main():
    args = sys.argv[1:]
    limit = option(args, "--games", None, int)
    sf_nodes = option(args, "--stockfish-nodes", None, int)
    sf_path = option(args, "--stockfish", "/usr/games/stockfish", str)
    sample = option(args, "--sample", 1.0, float)
    rng = random.Random(option(args, "--seed", 1, int))
    if len(args) < 2:
        sys.exit(USAGE)
    out_path, paths = args[0], args[1:]
    stockfish = None
    if sf_nodes:
        stockfish = chess.engine.SimpleEngine.popen_uci(sf_path)
        stockfish.configure({"Threads": 1, "Hash": 16})
    seen = set()
    n = games = 0
    with open(out_path, "w") as out:
        for arg in paths:
            path, _, own_rate = arg.partition("@")
            rate = float(own_rate) if own_rate else sample
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
                for ply, m in enumerate(g["moves"]):
                    mv = chess.Move.from_uci(m["mv"])
                    sc = m.get("score", "")
                    quiet = not b.is_check() and not b.is_capture(mv) and mv.promotion is None
                    if stockfish is not None:
                        # The sample is drawn before the repeat is looked up, so a run
                        # draws the same positions whatever it has written.
                        key = " ".join(b.fen().split()[:4])
                        if ply >= 4 and quiet and rng.random() < rate and key not in seen:
                            seen.add(key)
                            white = stockfish_score(stockfish, b, sf_nodes)
                            if white is not None:
                                out.write(f"{b.fen()} | {res} | {white}\n")
                                n += 1
                    elif quiet and sc.startswith("cp "):
                        cp = int(sc[3:])
                        if abs(cp) < 2000:
                            white = cp if b.turn == chess.WHITE else -cp
                            out.write(f"{b.fen()} | {res} | {white}\n")
                            n += 1
                    b.push(mv)
    if stockfish is not None:
        stockfish.quit()
    print(f"{n} positions from {games} games", file=sys.stderr)


if __name__ == "__main__":
    main()
