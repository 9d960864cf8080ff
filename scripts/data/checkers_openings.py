#!/usr/bin/env python3
"""Balanced checkers openings for matches: every sequence of the first PLIES plies (3, as the
ACF's three-move ballots), one per position reached, kept when ply's search gives the side to
move a score within --max of even (no side a man down or about to be). Written one a line as
`startpos moves ...`, the referee's --openings format; each is meant to be played with both
colours (--repeat).

    python3 scripts/data/checkers_openings.py --ply target/release/ply \
        --out scripts/data/checkers_openings.txt

The legal moves and positions come from the engine (`query legalmoves`, `query fen`): the
rules live in ply only.
"""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "lib"))
from plyclient import REPO, Engine  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ply", default=str(REPO / "target/release/ply"))
    ap.add_argument("--plies", type=int, default=3)
    ap.add_argument("--movetime", type=int, default=500, help="ms of search per position")
    ap.add_argument("--max", type=int, default=60, help="largest |score| kept, in hundredths of a man")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()

    e = Engine(a.ply)
    e.send("newgame checkers")

    def moves_after(line):
        e.send("position startpos" + (" moves " + " ".join(line) if line else ""))
        return e.legal_moves()

    lines = [[]]
    for _ in range(a.plies):
        lines = [line + [m] for line in lines for m in moves_after(line)]
    seen, unique = set(), []
    for line in lines:
        e.send("position startpos moves " + " ".join(line))
        fen = " ".join(e.query("fen"))
        if fen not in seen:
            seen.add(fen)
            unique.append(line)
    kept = []
    for line in unique:
        e.send("position startpos moves " + " ".join(line))
        _, infos = e.go(f"go movetime {a.movetime}", timeout=a.movetime / 1000 + 30)
        scores = [i.split(" score ")[1].split() for i in infos if " score " in i]
        kind, value = scores[-1][0], int(scores[-1][1])
        if kind == "cp" and abs(value) <= a.max:
            kept.append(line)
    e.quit()
    with open(a.out, "w") as out:
        out.write(
            f"# {len(kept)} of the {len(unique)} positions after {a.plies} plies of checkers whose\n"
            f"# score after {a.movetime} ms of ply's search is within {a.max} of even\n"
            "# (scripts/data/checkers_openings.py)\n"
        )
        for line in kept:
            out.write("startpos moves " + " ".join(line) + "\n")
    print(f"{len(kept)} of {len(unique)} positions kept", file=sys.stderr)


if __name__ == "__main__":
    main()
