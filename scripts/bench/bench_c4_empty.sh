#!/usr/bin/env bash
# Times ply's exact solve of the empty Connect Four board (score 1: the first player wins with
# its last disc), printing score, nodes, wall and CPU seconds; with $C4_BIN, Christophe
# Steininger's c4 solves it too, alternating with ply run by run (this machine is shared and
# noisy: only figures taken side by side compare).
#
# Usage: scripts/bench/bench_c4_empty.sh [-t THREADS] [-m TABLE_MB] [-r RUNS] [-c]
#   -t THREADS  search threads (default 2: both cores of the reference machine)
#   -m TABLE_MB table size in MiB (default 1024)
#   -r RUNS     repeat the solve RUNS times, each in a fresh process (default 1)
#   -c          also time connect-four-ai 1.0 (one thread, no book, ~4 minutes); off by default
#
# C4_BIN: the `c4` program of github.com/ChristopheSteininger/c4 (AGPL-3.0: build it outside
# this repository, e.g. `g++ -std=c++20 -O3 -flto -DNDEBUG src/solver/*.cpp
# src/solver/parallel/*.cpp src/solver/util/*.cpp src/c4.cpp -o c4 -lpthread` in its checkout).
# Its settings are compiled in (src/solver/settings.h): the defaults are every core and a
# 1 GiB table, which matches `-t 2 -m 1024` on a two-core machine. It solves strongly (the
# exact score), as ply does. Without C4_BIN the c4 rows are skipped with a message.
. "$(dirname "$0")/../lib/preamble.sh"
threads=2 table_mb=1024 runs=1 c4ai=0
while getopts "t:m:r:ch" opt; do
    case $opt in
        t) threads=$OPTARG ;; m) table_mb=$OPTARG ;; r) runs=$OPTARG ;; c) c4ai=1 ;;
        *) usage; exit 0 ;;
    esac
done
cargo build --release --quiet --bin ply --example c4ai_bench
c4=${C4_BIN:-}
if [ -z "$c4" ]; then
    echo "C4_BIN not set: Steininger's c4 skipped (see --help)" >&2
elif [ ! -x "$c4" ]; then
    echo "C4_BIN=$c4 is not an executable: Steininger's c4 skipped" >&2
    c4=""
fi
secs() { awk -v x="$1" 'BEGIN{printf "%.2f", x/1e6}'; }
echo "load before: $(uptime | sed 's/.*load average: //')"
printf "%-28s %6s %14s %10s %10s\n" solver score nodes "wall s" "CPU s"
for _ in $(seq "$runs"); do
    out=$(target/release/ply solve connect4 --empty --threads "$threads" --table-mb "$table_mb")
    read -r _ score nodes wall_us cpu_us <<<"$(head -1 <<<"$out")"
    printf "%-28s %6s %14s %10s %10s\n" "ply ($threads threads, $table_mb MiB)" "$score" "$nodes" \
        "$(secs "$wall_us")" "$(secs "$cpu_us")"
    if [ -n "$c4" ]; then
        log=$(mktemp)
        # c4 waits for a key press at the end: give it none. GNU time adds the CPU seconds.
        /usr/bin/time -f "cpu %U %S" "$c4" </dev/null >"$log" 2>&1
        score=$(sed -n 's/.*Final strong score is \([-0-9]*\).*/\1/p' "$log")
        nodes=$(awk '/Total *=/{gsub(",", "", $3); print $3}' "$log" | tail -1)
        wall=$(sed -n 's/.*Time to solve *= *\([0-9.]*\) s.*/\1/p' "$log")
        cpu=$(awk '/^cpu /{printf "%.2f", $2 + $3}' "$log")
        printf "%-28s %6s %14s %10s %10s\n" "Steininger c4 (compiled)" "$score" "$nodes" "$wall" "$cpu"
        rm -f "$log"
    fi
done
if [ "$c4ai" = 1 ]; then
    out=$(echo "-" | target/release/examples/c4ai_bench)
    read -r _ score nodes wall_us cpu_us <<<"$(head -1 <<<"$out")"
    printf "%-28s %6s %14s %10s %10s\n" "connect-four-ai (1 thread)" "$score" "$nodes" \
        "$(secs "$wall_us")" "$(secs "$cpu_us")"
fi
echo "load after: $(uptime | sed 's/.*load average: //')"
