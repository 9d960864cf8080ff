#!/usr/bin/env bash
# Where a fixed-time move's time goes: ply against ply at `st` seconds a move (go movetime),
# the referee's clock (from writing `go` to its reader thread reading `bestmove`: the `ms`
# of every move in the records) beside the engine's own (from its reader thread reading the
# `go` line to the worker having written `bestmove`: the engine's debug log, read through
# the referee's -v). A move whose referee time exceeds the engine's by much lost that time
# outside the engine's measured interval: in the pipes or descheduled before the engine read
# `go` or after it wrote `bestmove`. Of the engine's time, its worker thread's processor
# time and its time runnable but waiting for a processor (Linux's schedstat) are printed
# for its slowest moves: the rest, the worker spent blocked. It prints the max, the 99th and 99.9th percentiles of
# both, the forfeits, and the load before and after (docs/hardening.md, "Time").
#
#   scripts/bench/st_move_times.sh [games] [st] [game]     # default: 1000 0.1 connect4
#   PLY=other/ply scripts/bench/st_move_times.sh           # another build of the engine
. "$(dirname "$0")/../lib/preamble.sh"
build_release
games=${1:-1000}
st=${2:-0.1}
game=${3:-connect4}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
uptime
RUST_LOG=ply::protocol::session=debug "$REF" --game "$game" \
    --engine cmd="$PLY" name=A --engine cmd="$PLY" name=B \
    --each st="$st" --games 2 --rounds $((games / 2)) --repeat --random-plies 2 \
    --records "$tmp/r.jsonl" --no-progress -v > "$tmp/out" 2> "$tmp/err"
uptime
grep '^Forfeits' "$tmp/out"
python3 - "$tmp/r.jsonl" "$tmp/err" <<'EOF'
import json, re, sys
referee = sorted(m["ms"] for l in open(sys.argv[1]) for m in json.loads(l)["moves"] if "ms" in m)
pairs = [tuple(map(float, t)) for t in re.findall(
    r"bestmove ([0-9.]+) ms after the go line was read, worker ran ([0-9.]+) ms, "
    r"waited for a processor ([0-9.]+) ms", open(sys.argv[2]).read())]
engine = sorted(t[0] for t in pairs)
late = [json.loads(l)["reason"] for l in open(sys.argv[1]) if json.loads(l).get("termination") == "time"]
def row(name, v):
    if not v:
        return print(f"{name:8} no figures (a build without the debug line)")
    q = lambda p: v[min(len(v) - 1, int(p * len(v)))]
    print(f"{name:8} moves {len(v):6}  max {v[-1]:6.1f} ms  p99 {q(0.99):6.1f}  p99.9 {q(0.999):6.1f}")
row("referee", referee)
row("engine", engine)
# The engine's slowest moves: wall time against the worker's processor time.
slow = sorted(pairs, reverse=True)[:10]
print("engine's slowest moves, wall / worker ran / worker waited for a processor (ms):")
print("   ", ", ".join(f"{w:.1f} / {r:.1f} / {q:.1f}" for w, r, q in slow))
for r in late:
    print("forfeit:", r)
EOF
