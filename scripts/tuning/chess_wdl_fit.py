#!/usr/bin/env python3
"""Fits ply's chess win/draw/loss model to the outcomes of games ply played.

The model (the shape Stockfish uses): for a score of x centipawns from the side to move,

    win  = 1 / (1 + exp((a - x) / b))
    loss = 1 / (1 + exp((a + x) / b))
    draw = 1 - win - loss

so `a` is the score at which a win is as likely as not, and `b` how fast the chances turn.
Every move ply made in the given referee records (JSON Lines, `ply-referee --records`) with a
`cp` score and at least MIN_PLY plies into the game is a sample, labelled with how the game
ended for ply; (a, b) maximise the likelihood of those labels. The games should be against
opponents of about ply's strength (a player much weaker or stronger than ply makes every
score look better or worse than it is).

    python3 scripts/tuning/chess_wdl_fit.py target/ladder/sf2000.jsonl target/ladder/sf2200.jsonl

Prints the fitted (a, b), the log-likelihood per sample beside that of a model that ignores
the score, and a table of predicted against observed outcomes by score bucket.
"""
import json
import math
import sys

PLAYER = "ply"
MIN_PLY = 8
# Scores beyond this are nearly always decided; they would only pull the fit towards them.
MAX_CP = 1500


def samples(paths):
    out = []
    for path in paths:
        with open(path) as f:
            for line in f:
                out.extend(game_samples(json.loads(line)))
    return out


def game_samples(rec):
    """(cp, outcome) pairs for PLAYER's moves: outcome 1 win, 0.5 draw, 0 loss."""
    if PLAYER not in rec["players"]:
        return []
    me = rec["players"].index(PLAYER)
    first = rec["p1_player"]
    # The result is from p1's side ("1-0": p1 won); p1 is players[first].
    p1_score = {"1-0": 1.0, "0-1": 0.0}.get(rec.get("result"), 0.5)
    outcome = p1_score if me == first else 1.0 - p1_score
    out = []
    for i, m in enumerate(rec["moves"]):
        mover = first if i % 2 == 0 else 1 - first
        score = m.get("score") or ""
        if mover != me or i < MIN_PLY or not score.startswith("cp "):
            continue
        cp = int(score.split()[1])
        if abs(cp) <= MAX_CP:
            out.append((cp, outcome))
    return out


def model(x, a, b):
    win = 1 / (1 + math.exp((a - x) / b))
    loss = 1 / (1 + math.exp((a + x) / b))
    return win, max(1e-9, 1 - win - loss), loss


def log_likelihood(data, a, b):
    total = 0.0
    for x, o in data:
        w, d, l = model(x, a, b)
        p = w if o == 1.0 else d if o == 0.5 else l
        total += math.log(max(p, 1e-12))
    return total / len(data)


def fit(data):
    """Coordinate search on a shrinking grid: two parameters, a smooth likelihood."""
    a, b = 200.0, 100.0
    step_a, step_b = 100.0, 50.0
    best = log_likelihood(data, a, b)
    while step_a > 0.5:
        improved = False
        for da, db in ((step_a, 0), (-step_a, 0), (0, step_b), (0, -step_b)):
            na, nb = a + da, b + db
            if na <= 0 or nb <= 5:
                continue
            v = log_likelihood(data, na, nb)
            if v > best:
                a, b, best, improved = na, nb, v, True
        if not improved:
            step_a, step_b = step_a / 2, step_b / 2
    return a, b, best


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    data = samples(sys.argv[1:])
    if not data:
        sys.exit("no samples")
    a, b, ll = fit(data)
    n = len(data)
    rates = [sum(1 for _, o in data if o == v) / n for v in (1.0, 0.5, 0.0)]
    ll0 = sum(r * math.log(r) for r in rates if r > 0)
    print(f"{n} samples from {len(sys.argv) - 1} file(s)")
    print(f"a = {a:.1f}  b = {b:.1f}  log-likelihood/sample {ll:.4f} (score ignored: {ll0:.4f})")
    print(f"{'score':>13} {'n':>6}  predicted W/D/L      observed W/D/L")
    edges = [-MAX_CP - 1, -400, -200, -100, -50, 0, 50, 100, 200, 400, MAX_CP + 1]
    for lo, hi in zip(edges, edges[1:]):
        bucket = [(x, o) for x, o in data if lo <= x < hi]
        if not bucket:
            continue
        pred = [sum(model(x, a, b)[k] for x, _ in bucket) / len(bucket) for k in range(3)]
        obs = [sum(1 for _, o in bucket if o == v) / len(bucket) for v in (1.0, 0.5, 0.0)]
        print(
            f"{lo:>6}..{hi:<6} {len(bucket):6}  "
            + " ".join(f"{p:.2f}" for p in pred)
            + "     "
            + " ".join(f"{p:.2f}" for p in obs)
        )


if __name__ == "__main__":
    main()
