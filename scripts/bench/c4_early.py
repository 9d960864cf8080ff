#!/usr/bin/env python3
"""Whether ply answers early Connect Four positions exactly within a second at its default
settings: random 7x6 positions after 6..9 plies (`--plies`), each given `go movetime 1000` in
a fresh game (`newgame connect4`, default options: book, solver, one thread, Hash 16).

    python3 scripts/bench/c4_early.py [--ply target/release/ply] [--per-ply 10] [--seed 1]
        [--plies 6-9] [--movetime 1000]

A position counts as exact when the solver answered: one `info` line before `bestmove`,
with a `score mate` or `score cp 0` (protocol.md, "Solvers"); the heuristic search instead
reports depth after depth. Positions are reached by uniformly random moves that do not end
the game. Prints one line per position (plies, moves, exact or not, seconds to bestmove,
whether the book answered) and a summary per ply.
"""
import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "lib"))
from plyclient import Engine  # noqa: E402  (scripts/lib/plyclient.py)

ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
ap.add_argument("--ply", default="target/release/ply")
ap.add_argument("--per-ply", type=int, default=10)
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--movetime", type=int, default=1000)
ap.add_argument("--plies", default="6-9", help="FIRST-LAST: the plies whose positions are tried")
args = ap.parse_args()
try:
    first, _, last = args.plies.partition("-")
    first, last = int(first), int(last or first)
    if not 0 <= first <= last <= 41:
        raise ValueError
except ValueError:
    ap.error(f"--plies {args.plies!r}: want FIRST-LAST (or one ply), 0 <= FIRST <= LAST <= 41")

rng = random.Random(args.seed)
e = Engine(args.ply, timeout=30)


def random_moves(n):
    """`n` random moves after which the game is not over, as the engine's move list."""
    while True:
        e.send("newgame connect4")
        moves = []
        for _ in range(n):
            e.send("position startpos moves " + " ".join(moves))
            legal = e.legal_moves()
            rng.shuffle(legal)
            for m in legal:
                e.send("position startpos moves " + " ".join(moves + [m]))
                if e.query("result")[0] == "none":
                    moves.append(m)
                    break
            else:
                break
        if len(moves) == n:
            return moves


for plies in range(first, last + 1):
    exact = 0
    for _ in range(args.per_ply):
        moves = random_moves(plies)
        e.send("newgame connect4")
        e.send("position startpos moves " + " ".join(moves))
        e.sync()
        t = time.perf_counter()
        _, infos = e.go(f"go movetime {args.movetime}")
        secs = time.perf_counter() - t
        infos = [i for i in infos if i.startswith("info") and " score " in i]
        solved = len(infos) == 1 and (" score mate " in infos[0] or " score cp 0 " in infos[0])
        book = solved and " tbhits " in infos[0]
        exact += solved
        print(f"{plies} {''.join(moves)} {'exact' if solved else 'heuristic'} {secs:.3f}"
              f"{' book' if book else ''}", flush=True)
    print(f"summary plies={plies} positions={args.per_ply} exact={exact}", flush=True)
e.quit()
