#!/usr/bin/env python3
"""The UCI_Elo anchors of src/protocol/strength.rs from the calibration matches.

Each argument is one match of scripts/matches/strength_calibrate.sh at a UCI_Elo: ELO:NODES:DIFF:GAMES,
ply's Elo difference (the referee's `Elo difference` line) at NODES a move (for a check of
ply's own options, the anchor's budget then). Per UCI_Elo, a line of Elo against log2(nodes),
weighted by games, and the budget where it crosses zero.

    python3 scripts/matches/strength_fit.py 1600:30:-96.2:100 1600:1000:288.1:100 ...
With no arguments, the matches in docs/chess.md.
"""
import math
import sys
from collections import defaultdict

README_MATCHES = [
    "1600:30:-96.2:100", "1600:1000:288.1:100", "1600:72:-27.9:100", "1600:100:-85.0:100",
    "1800:300:-251.9:100", "1800:5000:200.2:100", "1800:1450:-34.9:100", "1800:1850:13.9:100",
    "2000:20000:-139.0:100", "2000:150000:110.5:65", "2000:61000:-52.5:100",
    "2000:83000:20.9:100",
]

points = defaultdict(list)
for arg in sys.argv[1:] or README_MATCHES:
    elo, nodes, diff, games = arg.split(":")
    points[int(elo)].append((math.log2(float(nodes)), float(diff), float(games)))
for elo, pts in sorted(points.items()):
    w = sum(g for _, _, g in pts)
    mx = sum(x * g for x, _, g in pts) / w
    my = sum(y * g for _, y, g in pts) / w
    sxx = sum(g * (x - mx) ** 2 for x, _, g in pts)
    slope = sum(g * (x - mx) * (y - my) for x, y, g in pts) / sxx
    zero = mx - my / slope
    print(f"UCI_Elo {elo}: {2 ** zero:.0f} nodes ({slope:.1f} Elo a doubling, {w:.0f} games)")
