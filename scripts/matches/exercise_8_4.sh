#!/usr/bin/env bash
# Exercise 8-4: in Connect Four, does the first or the second player win more?
# Measured with ply-referee: ply against ply at a fixed depth, one game pair per first move
# (the openings file forces each of the 7 first moves; --repeat plays each twice with the
# engines' colours swapped). Prints a Markdown table of results by first move and depth.
#
#   scripts/matches/exercise_8_4.sh            # depths 3 5 7 9
#   scripts/matches/exercise_8_4.sh 3 11       # any depths
. "$(dirname "$0")/../lib/preamble.sh"
build_release
depths=${*:-3 5 7 9}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The plain searcher: where ply has solvers (UseSolver), they would play perfectly at any depth.
solver=""
if printf 'uci\nquit\n' | target/release/ply | grep -q 'option name UseSolver'; then
    solver="option.UseSolver=false"
fi
for d in $depths; do
    target/release/ply-referee --game connect4 --games 14 --repeat \
        --openings scripts/data/c4_first_moves.txt \
        --engine cmd=target/release/ply name=A --engine cmd=target/release/ply name=B \
        --each depth="$d" $solver --records "$tmp/depth$d.jsonl" > "$tmp/depth$d.out"
done
python3 - "$tmp" $depths <<'EOF'
import json, sys
tmp, depths = sys.argv[1], sys.argv[2:]
names = {"1-0": "p1", "0-1": "p2", "1/2-1/2": "draw"}
rows, totals = {}, {}
for d in depths:
    recs = [json.loads(l) for l in open(f"{tmp}/depth{d}.jsonl")]
    t = totals.setdefault(d, {"p1": 0, "p2": 0, "draw": 0})
    for r in sorted(recs, key=lambda r: r["index"]):
        first = r["opening"]["moves"][0]
        res = names[r["result"]]
        t[res] += 1
        plies = len(r["opening"]["moves"]) + len(r["moves"])
        rows.setdefault(first, {}).setdefault(d, []).append(f"{res} ({plies})")
print("| first move | " + " | ".join(f"depth {d}" for d in depths) + " |")
print("|---|" + "---|" * len(depths))
for first in sorted(rows, key=int):
    cells = []
    for d in depths:
        games = rows[first][d]
        cells.append(games[0] if len(set(games)) == 1 else " / ".join(games))
    print(f"| {first} | " + " | ".join(cells) + " |")
print("| **games: p1 – p2 – draws** | " + " | ".join(
    f"{totals[d]['p1']} – {totals[d]['p2']} – {totals[d]['draw']}" for d in depths) + " |")
EOF
