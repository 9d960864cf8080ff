#!/usr/bin/env python3
"""How long ply takes from `stop` to `bestmove` during `go infinite` (the protocol promises
"within a few milliseconds"; tests/protocol.rs only checks a generous 500 ms bound).

    python3 scripts/stop_latency.py [--ply target/release/ply] [--rounds 30]

For each game: start `go infinite` (plain searcher), wait until depth 6 is reported and 50 ms
more, send `stop`, and time until `bestmove` arrives. Prints median, p90 and max.
"""
import argparse
import subprocess
import time

ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
ap.add_argument("--ply", default="target/release/ply")
ap.add_argument("--rounds", type=int, default=30)
args = ap.parse_args()

p = subprocess.Popen([args.ply], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(line):
    p.stdin.write(line + "\n")
    p.stdin.flush()


def read_until(prefix):
    while True:
        line = p.stdout.readline()
        if not line:
            raise SystemExit("ply closed its output")
        if line.startswith(prefix):
            return line


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
send("quit")
p.wait()
