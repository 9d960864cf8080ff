#!/usr/bin/env python3
"""Peak resident memory of ply at Hash 16, 256 and 1024 MiB for every game, and how long the
commands that (re)size or clear the tables take to be answered.

    python3 scripts/bench/memory.py [--ply target/release/ply] [--hash 16,256,1024] [--movetime 3000]

For each game and Hash size, a fresh engine runs this script (the engine starts in
tic-tac-toe, so `newgame` also switches games and drops the first game's tables):

    setoption name Hash value H      isready   (timed: "hash")
    newgame <game>                   isready   (timed: "newgame")
    go movetime M                              (solver on, from the start)
    ucinewgame                       isready   (timed: "ucinewgame")
    position startpos moves <a few>  go movetime M
    setoption name UseSolver value false
    ucinewgame                       go movetime M   (the plain searcher)
    setoption name Clear Hash        isready   (timed: "clear")
    go perft 4
    bench 6

and then reads the process's peak resident set (VmHWM in /proc/<pid>/status) before `quit`.
The table prints it in MiB with its excess over Hash, and the slowest of the timed replies.
The Teeko table is built first into a scratch directory (PLY_TABLES), so Teeko's figures
include loading it (12.9 MB) but not building it.
"""
import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "lib"))
from plyclient import Engine  # noqa: E402  (scripts/lib/plyclient.py)

GAMES = [
    ("tictactoe", "newgame tictactoe", "b2 a1"),
    ("connect4", "newgame connect4", "4 4 3"),
    ("nim", "newgame nim heaps=1,4,20,1,300,1,5,2 max=100", "2:1 3:4"),
    ("teeko", "newgame teeko", "c3 b2"),
    ("chess", "newgame chess", "e2e4 e7e5 g1f3"),
]


def run(path, env, game, newgame, moves, hash_mb, movetime):
    e = Engine(path, env=env, timeout=600)
    waits = {}
    waits["hash"] = e.timed(f"setoption name Hash value {hash_mb}")
    waits["newgame"] = e.timed(newgame)
    for go in [f"go movetime {movetime}"]:
        e.send(go)
        e.read_until("bestmove")
    waits["ucinewgame"] = e.timed("ucinewgame")
    e.send(f"position startpos moves {moves}")
    e.send(f"go movetime {movetime}")
    e.read_until("bestmove")
    e.send("setoption name UseSolver value false")
    e.send("ucinewgame")
    e.send(f"go movetime {movetime}")
    e.read_until("bestmove")
    waits["clear"] = e.timed("setoption name Clear Hash")
    e.send("go perft 4")
    e.read_until("Nodes searched")
    e.send("bench 6")
    e.read_until("Nodes/second")
    e.sync()
    peak = e.peak_rss_mib()
    e.quit()
    return peak, waits


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ply", default="target/release/ply")
    ap.add_argument("--hash", default="16,256,1024")
    ap.add_argument("--movetime", type=int, default=3000)
    ap.add_argument("--games", default=",".join(g for g, _, _ in GAMES))
    args = ap.parse_args()
    tables = tempfile.mkdtemp(prefix="ply-memory-tables-")
    env = dict(os.environ, PLY_TABLES=tables)
    subprocess.run([args.ply, "solve", "teeko"], env=env, check=True, stdout=subprocess.DEVNULL)
    print(f"ply: {args.ply}; go movetime {args.movetime}")
    print(f"{'game':<10} {'Hash MiB':>8} {'peak RSS MiB':>12} {'over Hash':>9}   slowest replies (isready after)")
    worst = 0
    for name, newgame, moves in GAMES:
        if name not in args.games.split(","):
            continue
        for h in [int(x) for x in args.hash.split(",")]:
            peak, waits = run(args.ply, env, name, newgame, moves, h, args.movetime)
            worst = max(worst, peak - h)
            w = ", ".join(f"{k} {1000 * v:.0f} ms" for k, v in waits.items())
            print(f"{name:<10} {h:>8} {peak:>12.1f} {peak - h:>+9.1f}   {w}")
    print(f"largest excess over Hash: {worst:.1f} MiB")
    subprocess.run(["rm", "-rf", tables])


if __name__ == "__main__":
    main()
