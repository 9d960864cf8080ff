#!/usr/bin/env python3
"""How late ply answers a time-limited `go`, as its client sees it.

    python3 scripts/bench/time_overshoot.py [--ply target/release/ply[,other/ply]] [--rounds 14] [--seed 1]

For every game (tic-tac-toe, Connect Four, a large multi-heap Nim, Teeko, chess), with the
solver on and off (chess has no solver: its two settings are two samples of the searcher),
from random positions (random playouts of 0..20 plies from the start), it sends

  - `go movetime N` for N = 10, 50, 200 and 1000 ms, and
  - clock-limited gos (`go wtime T btime T [winc I binc I] [movestogo M]`, T from 20 ms to
    10 s, the side to move's clock being the one that matters),

and times each one from writing the `go` line to reading its `bestmove` (Move Overhead at
its default). Given several engines (`--ply a,b`), they take turns per game and solver
setting, on the same positions, so that their figures are taken side by side. A `go movetime N` must be answered within N ms; a clocked go must answer
before the side to move's clock runs out. It prints, per game and solver setting, the worst
and 99th-percentile overshoot of movetime (elapsed - N; negative is early) and, for clocks,
the worst elapsed time as a share of the clock, and then the worst over everything.

With --rounds 14 (the default) that is 14 x 4 movetime gos and 14 x 5 clock gos per game and
solver setting: 1260 gos per engine, about twelve minutes. The Teeko table is built first into a
scratch directory (PLY_TABLES) so the runs measure the steady state, not the first build.
The machine's load average is printed before and after: on a shared machine the figures
include time spent descheduled.
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "lib"))
from plyclient import Engine  # noqa: E402  (scripts/lib/plyclient.py)

GAMES = [
    ("tictactoe", "newgame tictactoe"),
    ("connect4", "newgame connect4"),
    ("nim", "newgame nim heaps=1,4,20,1,300,1,5,2 max=100"),
    ("teeko", "newgame teeko"),
    ("chess", "newgame chess"),
]
MOVETIMES = [10, 50, 200, 1000]
# (time, increment, movestogo) for the side to move; the other clock gets the same.
CLOCKS = [(20, 0, None), (100, 10, None), (1000, 0, 1), (2000, 100, None), (10000, 0, 40)]


def random_position(e, rng):
    moves = []
    e.send("position startpos")
    for _ in range(rng.randrange(0, 21)):
        legal = e.legal_moves()
        if not legal:
            break
        moves.append(rng.choice(legal))
        e.send("position startpos moves " + " ".join(moves))
    # Never a finished game: it answers at once and measures nothing.
    while moves and not e.legal_moves():
        moves.pop()
        e.send("position startpos moves " + " ".join(moves))
    e.sync()


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def measure(path, env, newgame, solver, rounds, rng):
    """The overshoots of `go movetime` (ms), the clock shares, and the gos over the clock,
    for one engine, game and solver setting."""
    e = Engine(path, env=env, timeout=120)
    e.send(f"setoption name UseSolver value {solver}")
    e.send(newgame)
    e.sync()
    over, shares, worst_clock = [], [], (0.0, "", 0.0)
    losses = 0
    for _ in range(rounds):
        for n in MOVETIMES:
            random_position(e, rng)
            el = e.timed_go(f"go movetime {n}") * 1000
            over.append((el - n, f"go movetime {n}"))
        for t, inc, mtg in CLOCKS:
            random_position(e, rng)
            go = f"go wtime {t} btime {t}"
            if inc:
                go += f" winc {inc} binc {inc}"
            if mtg:
                go += f" movestogo {mtg}"
            el = e.timed_go(go) * 1000
            shares.append(el / t)
            losses += el > t
            if el / t > worst_clock[0]:
                worst_clock = (el / t, go, el)
    e.quit()
    return over, shares, losses, worst_clock


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ply", default="target/release/ply",
                    help="the engine, or several separated by commas: they take turns, each "
                         "on the same positions, so their figures are side by side")
    ap.add_argument("--rounds", type=int, default=14)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", default=",".join(g for g, _ in GAMES))
    args = ap.parse_args()
    plys = args.ply.split(",")
    tables = tempfile.mkdtemp(prefix="ply-overshoot-tables-")
    env = dict(os.environ, PLY_TABLES=tables)
    subprocess.run([plys[0], "solve", "teeko"], env=env, check=True, stdout=subprocess.DEVNULL)

    print(f"load average before: {loadavg()}")
    print(f"{'engine':<8} {'game':<10} {'solver':<6} {'movetime gos':>12} {'worst over':>11} {'p99 over':>9} "
          f"{'clock gos':>9} {'worst share':>12} {'over clock':>10}")
    totals = {p: {"gos": 0, "worst": None, "share": None, "lost": 0} for p in plys}
    wanted = args.games.split(",")
    config = 0
    for name, newgame in GAMES:
        if name not in wanted:
            continue
        for solver in ["true", "false"]:
            config += 1
            for k, path in enumerate(plys):
                # The same positions for every engine.
                rng = random.Random(args.seed * 1000 + config)
                over, shares, losses, clock = measure(path, env, newgame, solver, args.rounds, rng)
                t = totals[path]
                t["gos"] += len(over) + len(shares)
                t["lost"] += losses
                w = max(over)
                if t["worst"] is None or w[0] > t["worst"][0]:
                    t["worst"] = (w[0], name, solver, w[1])
                if t["share"] is None or clock[0] > t["share"][0]:
                    t["share"] = (clock[0], name, solver, clock[1], clock[2])
                ms = [o for o, _ in over]
                print(f"{'#' + str(k + 1):<8} {name:<10} {solver:<6} {len(ms):>12} {max(ms):>9.1f}ms "
                      f"{pct(ms, .99):>7.1f}ms {len(shares):>9} {100 * max(shares):>11.1f}% {losses:>10}")
    print(f"load average after: {loadavg()}")
    for k, path in enumerate(plys):
        t = totals[path]
        w, c = t["worst"], t["share"]
        print(f"#{k + 1} {path}: {t['gos']} gos; worst movetime overshoot {w[0]:+.1f} ms ({w[1]}, "
              f"UseSolver {w[2]}, {w[3]}); worst clock use {100 * c[0]:.1f}% ({c[1]}, UseSolver "
              f"{c[2]}, {c[3]}: {c[4]:.1f} ms); {t['lost']} gos over the clock")
    subprocess.run(["rm", "-rf", tables])


if __name__ == "__main__":
    main()
