#!/usr/bin/env bash
# The referee's overhead per move, measured on a real match.
#
# ply plays itself at depth 1 with its plain searcher (UseSolver false: moves take
# microseconds), so the match is nearly all protocol and referee work. Every record carries
# referee_ms: summed over the game, the time from one bestmove read (stamped by the reader
# thread) to the next go written — the referee's own share (checking the move with the
# rules, the clocks, building and writing `position` and `go`). The go→bestmove round trip
# (pipes, the engine parsing the position, a depth-1 search) and the per-game set-up
# (newgame + isready for both engines) are shown beside it.
#
#   scripts/bench/referee_overhead.sh [game] [games] [concurrency]     # default: connect4 1000 1
. "$(dirname "$0")/../lib/preamble.sh"
build_release
game=${1:-connect4}
games=${2:-1000}
conc=${3:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s%N)
target/release/ply-referee --game "$game" --games "$games" --concurrency "$conc" \
    --random-plies 2 --engine cmd=target/release/ply name=A --engine cmd=target/release/ply name=B \
    --each depth=1 option.UseSolver=false --records "$tmp/r.jsonl" > /dev/null
end=$(date +%s%N)
python3 - "$tmp/r.jsonl" "$start" "$end" "$conc" <<'EOF'
import json, statistics, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
wall_ms = (int(sys.argv[3]) - int(sys.argv[2])) / 1e6
conc = int(sys.argv[4])
moves = [m for r in recs for m in r["moves"]]
turns = sum(max(len(r["moves"]) - 1, 0) for r in recs)
per_game_turn = sorted(1000 * r["referee_ms"] / (len(r["moves"]) - 1) for r in recs if len(r["moves"]) > 1)
rt = sorted(m["ms"] for m in moves)
setup = sorted(r["duration_ms"] - r["referee_ms"] - sum(m["ms"] for m in r["moves"]) for r in recs)
q = lambda xs, f: xs[min(len(xs) - 1, int(f * len(xs)))]
print(f"{len(recs)} games, {len(moves)} moves, concurrency {conc}, wall {wall_ms / 1000:.1f} s")
print(f"referee turnaround per move (bestmove read -> next go written): "
      f"mean {1000 * sum(r['referee_ms'] for r in recs) / turns:.1f} us; per game: "
      f"median {q(per_game_turn, .5):.1f} us, p90 {q(per_game_turn, .9):.1f} us")
print(f"go -> bestmove round trip (pipes + engine, depth 1): median {1000 * q(rt, .5):.0f} us, "
      f"p90 {1000 * q(rt, .9):.0f} us, mean {1000 * sum(rt) / len(rt):.0f} us")
print(f"per-game set-up (newgame + isready, both engines): median {q(setup, .5):.2f} ms")
print(f"wall time per move, everything included: {conc * wall_ms / len(moves):.3f} ms")
EOF
