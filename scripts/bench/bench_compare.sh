#!/usr/bin/env bash
# `ply bench` of two builds side by side: alternating runs, the checksum (total nodes) of
# each, and nodes per second per game (best of the runs, as this machine is noisy).
#   scripts/bench/bench_compare.sh OLD_PLY NEW_PLY [RUNS]
# (the two paths are read from where the script is run).
old=$(realpath "${1:?usage: bench_compare.sh OLD_PLY NEW_PLY [RUNS]}")
new=$(realpath "${2:?usage: bench_compare.sh OLD_PLY NEW_PLY [RUNS]}")
runs=${3:-3}
. "$(dirname "$0")/../lib/preamble.sh"
out=$(mktemp -d)
for i in $(seq "$runs"); do
  for which in old new; do
    bin=$old; [ "$which" = new ] && bin=$new
    echo bench | "$bin" > "$out/$which.$i" 2>/dev/null
  done
done
for which in old new; do
  echo "== $which: checksum $(grep -h '^Nodes searched' "$out/$which".* | sort -u | tr '\n' ' ')"
  grep -h '^info string bench [a-z0-9]* nodes' "$out/$which".* \
    | awk '{ g=$4; if ($10 > best[g]) best[g]=$10; nodes[g]=$6 } END { for (g in best) printf "   %-10s nodes %12d  best nps %10d\n", g, nodes[g], best[g] }' | sort
done
rm -rf "$out"
