#!/usr/bin/env python3
"""SPSA tuning of ply's search parameters at chess, by game pairs with ply-referee.

The parameters, chess's values (the start), ranges and steps are the engine's own
(`ply --game chess search-params`, declared in src/search/params.rs and chess's
SEARCH_PARAMS); an engine plays with other values when started under PLY_SEARCH_PARAMS
(protocol.md, Environment).

Each iteration k draws a random sign d_i = +-1 for every tuned parameter and plays one game
pair (an opening from scripts/data/chess_openings.txt, each side once) between
theta + c_k d and theta - c_k d (rounded to integers, within the ranges) at a fixed node
budget; with r the first engine's wins less its losses (-2..2),
theta_i += a_k,i / c_k,i * r * d_i. The gains follow fishtest's schedule: c_k,i =
c_i N^0.101 / k^0.101 (c_i the parameter's step, so the perturbation ends at the step)
and a_k,i = R c_i^2 (A + N)^0.602 / (A + k)^0.602, A = N / 10, R = --r-end (the
step a parameter moves by at the end per unit of r, in steps).

--concurrency C runs C pairs at a time (one referee each), each with the theta of its
start (asynchronous SPSA). Every finished pair is appended to OUT/spsa.jsonl (iteration,
signs, values played, result, theta after); --resume continues from that file. The final
theta is printed as a PLY_SEARCH_PARAMS value, which an SPRT then measures
(scripts/matches/chess_sprt.sh with NEW_PARAMS). docs/chess.md records each run.

    python3 scripts/tuning/chess_spsa.py --ply target/release/ply \\
        --referee target/release/ply-referee --iterations 2000 --concurrency 2
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OPENINGS = os.path.join(ROOT, "scripts", "data", "chess_openings.txt")
SCORE = re.compile(r"^Score of plus vs minus: (\d+) - (\d+) - (\d+)")


def engine_params(ply):
    """The engine's parameter table: name -> (chess's value, min, max, step)."""
    out = subprocess.run([ply, "--game", "chess", "search-params"], capture_output=True,
                         text=True, check=True, timeout=30)
    table = {}
    for line in out.stdout.splitlines():
        name, value, _default, lo, hi, step, _about = line.split("\t")
        table[name] = (int(value), int(lo), int(hi), int(step))
    return table


def as_env(values):
    return ",".join(f"{k}={v}" for k, v in sorted(values.items()))


def play_pair(args, plus, minus, seed):
    """One game pair between the two settings; the first's wins less its losses."""
    def engine(values, name):
        return ["--engine", "cmd=env", f"arg=PLY_SEARCH_PARAMS={as_env(values)}",
                f"arg={os.path.abspath(args.ply)}", f"name={name}"]
    cmd = [args.referee, "--game", "chess", *engine(plus, "plus"), *engine(minus, "minus"),
           "--each", f"nodes={args.nodes}", f"option.Hash={args.hash}",
           "--games", "2", "--rounds", "1", "--repeat",
           "--openings", OPENINGS, "--shuffle", "--seed", str(seed), "--max-plies", "400",
           "--resign", "movecount=3", "score=1000",
           "--draw", "movenumber=40", "movecount=8", "score=10", "--no-progress"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=args.pair_timeout)
    # The referee prints the score after every game: the pair's is the last.
    scores = [m for m in map(SCORE.match, out.stdout.splitlines()) if m]
    if not scores or sum(map(int, scores[-1].groups())) != 2:
        raise RuntimeError(f"no score of two games in the referee's output:\n{out.stdout}\n{out.stderr}")
    wins, losses, _draws = map(int, scores[-1].groups())
    return wins - losses


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--ply", required=True, help="the engine binary")
    p.add_argument("--referee", required=True, help="the ply-referee binary")
    p.add_argument("--params", help="comma-separated parameters to tune (default: all)")
    p.add_argument("--start", default="", help="starting values, as PLY_SEARCH_PARAMS")
    p.add_argument("--iterations", type=int, default=2000, help="game pairs (N)")
    p.add_argument("--r-end", type=float, default=0.02)
    p.add_argument("--nodes", type=int, default=25000)
    p.add_argument("--hash", type=int, default=16)
    p.add_argument("--concurrency", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--pair-timeout", type=float, default=600, help="seconds a pair may take")
    p.add_argument("--out", default=os.path.join(ROOT, "target", "spsa"))
    p.add_argument("--resume", action="store_true")
    args = p.parse_args()

    table = engine_params(args.ply)
    names = args.params.split(",") if args.params else sorted(table)
    for n in names:
        if n not in table:
            sys.exit(f"unknown parameter {n!r} (ply search-params lists them)")
    theta = {n: float(table[n][0]) for n in names}
    for pair in filter(None, args.start.split(",")):
        k, v = pair.split("=")
        if k in theta:
            theta[k] = float(v)
    os.makedirs(args.out, exist_ok=True)
    log_path = os.path.join(args.out, "spsa.jsonl")
    done = 0
    if args.resume and os.path.exists(log_path):
        with open(log_path) as f:
            for line in f:
                r = json.loads(line)
                theta, done = r["theta"], max(done, r["k"] + 1)
    elif os.path.exists(log_path):
        os.remove(log_path)

    N, A = args.iterations, args.iterations / 10
    lock = threading.Lock()
    state = {"next": done, "theta": theta, "failures": 0}

    def clamp(n, v):
        return max(table[n][1], min(table[n][2], int(round(v))))

    def worker():
        while True:
            with lock:
                k = state["next"]
                if k >= N or state["failures"] > 10:
                    return
                state["next"] += 1
                th = dict(state["theta"])
            rng = random.Random(args.seed * 1_000_003 + k)
            signs = {n: rng.choice((-1, 1)) for n in names}
            ck = {n: table[n][3] * (N / (k + 1)) ** 0.101 for n in names}
            plus = {n: clamp(n, th[n] + ck[n] * signs[n]) for n in names}
            minus = {n: clamp(n, th[n] - ck[n] * signs[n]) for n in names}
            try:
                r = play_pair(args, plus, minus, args.seed * 100_000 + k)
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                print(f"pair {k}: {e}", file=sys.stderr)
                with lock:
                    state["failures"] += 1
                continue
            with lock:
                for n in names:
                    a_end = args.r_end * table[n][3] ** 2
                    ak = a_end * ((A + N) / (A + k + 1)) ** 0.602
                    v = state["theta"][n] + ak / ck[n] * r * signs[n]
                    state["theta"][n] = max(table[n][1], min(table[n][2], v))
                with open(log_path, "a") as f:
                    f.write(json.dumps({"k": k, "signs": signs, "plus": plus, "minus": minus,
                                        "result": r, "theta": state["theta"]}) + "\n")
                if (k + 1) % 50 == 0:
                    print(f"{k + 1} pairs: " + as_env({n: round(v, 1) for n, v in
                                                      state["theta"].items()}), flush=True)

    threads = [threading.Thread(target=worker) for _ in range(args.concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if state["failures"] > 10:
        sys.exit("more than 10 pairs failed; stopped")
    final = {n: clamp(n, v) for n, v in state["theta"].items()}
    print("PLY_SEARCH_PARAMS=" + as_env(final))


if __name__ == "__main__":
    main()
