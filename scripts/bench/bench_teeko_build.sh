#!/usr/bin/env bash
# Times the Teeko tablebase build from scratch, per goal set: wall time, CPU time (user +
# system) and peak resident memory, measured by /usr/bin/time over the whole
# `ply solve teeko --force` process (build, checksum, write and summary).
#
#   scripts/bench/bench_teeko_build.sh                  # 5 runs each, every core
#   RUNS=9 THREADS=1 scripts/bench/bench_teeko_build.sh
#
# The two centre rules share a table (the rule only restricts the first drop), so the four
# rule variants take two builds. Other jobs on the machine make timings noisy: the table
# shows the best and the median of the runs.
. "$(dirname "$0")/../lib/preamble.sh"

RUNS=${RUNS:-5}
THREADS=${THREADS:-$(nproc)}
TIME=/usr/bin/time
if [[ ! -x $TIME ]]; then
    echo "needs GNU time at $TIME (Debian: apt-get install time)" >&2
    exit 1
fi

cargo build --release --quiet
PLY=target/release/ply
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

# Prints "best median" of the numbers on stdin.
stats() {
    sort -g | awk '{ v[NR] = $1 } END {
        m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        printf "%.2f %.2f\n", v[1], m
    }'
}

printf '%-10s %7s %4s  %9s %9s  %9s %9s  %9s  %s\n' variant threads runs \
    "wall best" median "cpu best" median "peak RSS" "start value"
for variant in standard advanced; do
    flag=()
    [[ $variant == advanced ]] && flag=(--advanced)
    : > "$OUT/times"
    for ((i = 0; i < RUNS; i++)); do
        rm -f "$OUT/table"
        "$TIME" -f '%e %U %S %M' -o "$OUT/t" \
            "$PLY" solve teeko "${flag[@]}" --force --threads "$THREADS" --out "$OUT/table" \
            > "$OUT/summary"
        cat "$OUT/t" >> "$OUT/times"
    done
    read -r wall_best wall_med < <(awk '{ print $1 }' "$OUT/times" | stats)
    read -r cpu_best cpu_med < <(awk '{ print $2 + $3 }' "$OUT/times" | stats)
    rss=$(awk '{ if ($4 > m) m = $4 } END { printf "%.0f MB", m / 1024 }' "$OUT/times")
    start=$(grep -m1 'centre allowed' "$OUT/summary" | sed 's/.*: *//')
    printf '%-10s %7s %4s  %8ss %8ss  %8ss %8ss  %9s  %s\n' "$variant" "$THREADS" "$RUNS" \
        "$wall_best" "$wall_med" "$cpu_best" "$cpu_med" "$rss" "$start"
done
echo "(centre forbidden as first drop: same tables; see 'ply solve teeko' for its start value)"
