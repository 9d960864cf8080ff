#!/usr/bin/env python3
"""How long ply takes from `stop` to `bestmove` during `go infinite` (the protocol promises
"within a few milliseconds"; tests/protocol.rs only checks a generous 500 ms bound).

    python3 scripts/bench/stop_latency.py [--ply target/release/ply] [--rounds 30]

For each game: start `go infinite` (plain searcher), wait until depth 6 is reported and 50 ms
more, send `stop`, and time until `bestmove` arrives. Prints median, p90 and max.
"""
import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "lib"))
from plyclient import Engine  # noqa: E402  (scripts/lib/plyclient.py)

ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
ap.add_argument("--ply", default="target/release/ply")
ap.add_argument("--rounds", type=int, default=30)
args = ap.parse_args()

e = Engine(args.ply)
send, read_until = e.send, e.read_until

for game in ["tictactoe", "connect4", "nim length=50000 max=7", "teeko"]:
    send(f"newgame {game}")
    send("setoption name UseSolver value false")
    times = []
    for _ in range(args.rounds):
        send("go infinite")
        if not game.startswith(("tictactoe", "nim")):
            read_until("info depth 6 ")
        time.sleep(0.05)
        t = time.perf_counter()
        send("stop")
        read_until("bestmove")
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    n = len(times)
    print(f"{game:<24} stop -> bestmove: median {times[n // 2]:.2f} ms, "
          f"p90 {times[n * 9 // 10]:.2f} ms, max {times[-1]:.2f} ms ({n} rounds)")
e.quit()
