#!/usr/bin/env bash
# Times ply's exact solve of the empty Connect Four board (score 1: the first player wins with
# its last disc), printing score, nodes, wall and CPU seconds.
#
# Usage: scripts/bench_c4_empty.sh [-t THREADS] [-m TABLE_MB] [-r RUNS] [-c]
#   -t THREADS  search threads (default 2: both cores of the reference machine)
#   -m TABLE_MB table size in MiB (default 1024)
#   -r RUNS     repeat the solve RUNS times, each in a fresh process (default 1)
#   -c          also time connect-four-ai 1.0 (one thread, no book, ~4 minutes); off by default
set -euo pipefail
cd "$(dirname "$0")/.."
threads=2 table_mb=1024 runs=1 c4ai=0
while getopts "t:m:r:ch" opt; do
    case $opt in
        t) threads=$OPTARG ;; m) table_mb=$OPTARG ;; r) runs=$OPTARG ;; c) c4ai=1 ;;
        *) sed -n '2,/^set -e/p' "$0" | sed 's/^# \{0,1\}//' | head -n -1; exit 0 ;;
    esac
done
cargo build --release --quiet --bin ply --example c4ai_bench
field() { sed -n "s/.*[ ]$1=\([^ ]*\).*/\1/p" <<<"$2"; }
printf "%-24s %6s %14s %10s %10s\n" solver score nodes "wall s" "CPU s"
for _ in $(seq "$runs"); do
    out=$(target/release/ply solve connect4 --empty --threads "$threads" --table-mb "$table_mb")
    read -r _ score nodes wall_us cpu_us <<<"$(head -1 <<<"$out")"
    printf "%-24s %6s %14s %10.2f %10.2f\n" "ply ($threads threads, $table_mb MiB)" "$score" "$nodes" \
        "$(awk -v x="$wall_us" 'BEGIN{print x/1e6}')" "$(awk -v x="$cpu_us" 'BEGIN{print x/1e6}')"
done
if [ "$c4ai" = 1 ]; then
    out=$(echo "-" | target/release/examples/c4ai_bench)
    read -r _ score nodes wall_us cpu_us <<<"$(head -1 <<<"$out")"
    printf "%-24s %6s %14s %10.2f %10.2f\n" "connect-four-ai (1 thread)" "$score" "$nodes" \
        "$(awk -v x="$wall_us" 'BEGIN{print x/1e6}')" "$(awk -v x="$cpu_us" 'BEGIN{print x/1e6}')"
fi
