#!/usr/bin/env bash
# Scores Pascal Pons' six Connect Four test sets with ply's exact solver and with a peer, side
# by side, one set at a time, and prints accuracy, mean time and mean nodes per position for
# both, and their time ratio.
#
# The peer is Pons' own solver when $PONS_BIN is set (see below), else the connect-four-ai
# crate (examples/c4ai_bench.rs), whose time is then converted to an estimate of Pons' through
# its measured ratio to Pons' C++ solver on each set (docs/connect4.md, the reference table).
#
# Usage: scripts/bench/bench_c4_solver.sh [-n N] [-N HARD_N] [-s SETS] [-t THREADS] [-m TABLE_MB] [-r ROUNDS]
#   -n N        first N positions of each set (default: all 1000)
#   -N HARD_N   first HARD_N positions of begin-hard (default: 100, as docs/connect4.md)
#   -s SETS     comma-separated subset of: end-easy,middle-easy,middle-medium,begin-easy,
#               begin-medium,begin-hard (default: all six)
#   -t THREADS  ply's search threads (default 1: the comparison is single-threaded)
#   -m TABLE_MB ply's table size in MiB (default: 32 against Pons, whose part-12 table is
#               2^23 + 9 entries of 5 bytes, 40 MiB; ply's own default against connect-four-ai)
#   -r ROUNDS   run both tools ROUNDS times per set, alternating, and keep each one's best
#               mean (default 1); helps on a busy machine. With more than one round, a line
#               under each set gives the ratio of every round's pair and their median (the
#               two tools' bests can come from rounds minutes apart; a pair is seconds apart)
#
# PONS_BIN: the `c4solver` program of github.com/PascalPons/connect4 at tag part12 (AGPL-3.0:
# build it outside this repository: `git checkout part12 && make`). It reads bare move
# strings and prints `moves score nodes µs` per line, timing only the solve (wall clock), with
# its table reset before each position; ply is run the same way (`--reset-each`). With Pons
# as the peer the times compared are wall-clock means of the solves alone; against
# connect-four-ai, CPU time of the process (both report both).
#
# The sets are read from $C4_SETS, else ../shared/anchors/connect4 relative to the repository.
# They carry no licence to redistribute: never copy them into the repository.
. "$(dirname "$0")/../lib/preamble.sh"
n=""
hard_n=100
sets="end-easy,middle-easy,middle-medium,begin-easy,begin-medium,begin-hard"
threads=1
table_mb=""
rounds=1
while getopts "n:N:s:t:m:r:h" opt; do
    case $opt in
        n) n=$OPTARG ;;
        N) hard_n=$OPTARG ;;
        s) sets=$OPTARG ;;
        t) threads=$OPTARG ;;
        m) table_mb=$OPTARG ;;
        r) rounds=$OPTARG ;;
        *) usage; exit 0 ;;
    esac
done

dir=${C4_SETS:-}
for d in "$dir" ../shared/anchors/connect4; do
    if [ -n "$d" ] && [ -f "$d/Test_L3_R1" ]; then dir=$d; break; fi
done
[ -f "$dir/Test_L3_R1" ] || { echo "Pons' test sets not found (set C4_SETS)" >&2; exit 1; }

pons=${PONS_BIN:-}
if [ -z "$pons" ]; then
    echo "PONS_BIN not set: comparing with connect-four-ai and estimating Pons' time (see --help)" >&2
elif [ ! -x "$pons" ]; then
    echo "PONS_BIN=$pons is not an executable: comparing with connect-four-ai instead" >&2
    pons=""
fi
if [ -n "$pons" ]; then
    cargo build --release --quiet --bin ply
    [ -z "$table_mb" ] && table_mb=32
else
    cargo build --release --quiet --bin ply --example c4ai_bench
fi
ply=target/release/ply
c4ai=target/release/examples/c4ai_bench

file_of() {
    case $1 in
        end-easy) echo Test_L3_R1 ;; middle-easy) echo Test_L2_R1 ;;
        middle-medium) echo Test_L2_R2 ;; begin-easy) echo Test_L1_R1 ;;
        begin-medium) echo Test_L1_R2 ;; begin-hard) echo Test_L1_R3 ;;
        *) echo "unknown set $1" >&2; exit 1 ;;
    esac
}
# connect-four-ai's CPU time over Pons' on each set (docs/connect4.md, the reference table).
c4ai_over_pons() {
    case $1 in
        end-easy) echo "5.85/5.27" ;; middle-easy) echo "50.3/39.9" ;;
        middle-medium) echo "4.66/3.58" ;; begin-easy) echo "374/266" ;;
        begin-medium) echo "144.3/113.8" ;; begin-hard) echo "8.18/6.91" ;;
    esac
}
field() { sed -n "s/.*[ ]$1=\([^ ]*\).*/\1/p" <<<"$2"; }
fmt_time() { awk -v us="$1" 'BEGIN {
    if (us >= 1e6) printf "%.3f s", us / 1e6; else if (us >= 1e3) printf "%.2f ms", us / 1e3;
    else printf "%.2f us", us }'; }
less() { awk -v a="$1" -v b="$2" 'BEGIN{exit !(a<b)}'; }

# Pons' solver on a Pons-format file, summarised as ply's summary line: it reads bare moves,
# so the expected scores are compared here.
run_pons() {
    cut -d' ' -f1 "$1" | "$pons" | paste -d' ' - <(cut -d' ' -f2 "$1") | awk '
        NF >= 5 { n++; if ($2 == $5) ok++; us += $4; nodes += $3 }
        END { printf "summary positions=%d checked=%d correct=%d mean_us=%.2f mean_cpu_us=%.2f mean_nodes=%.1f\n",
              n, n, ok, us / n, us / n, nodes / n }'
}

ply_args=(--reset-each --quiet --threads "$threads")
[ -n "$table_mb" ] && ply_args+=(--table-mb "$table_mb")
# With Pons the wall-clock means of the solves are compared, else the CPU means.
key=mean_cpu_us
[ -n "$pons" ] && key=mean_us

echo "load before: $(uptime | sed 's/.*load average: //')"
if [ -n "$pons" ]; then
    printf "%-13s %5s | %9s %11s %11s %12s | %9s %11s %12s | %9s\n" \
        set positions "ply acc" "ply wall" "ply CPU" "ply nodes" "Pons acc" "Pons wall" "Pons nodes" "ply/Pons"
else
    printf "%-13s %5s | %9s %11s %11s %12s | %9s %11s %12s | %9s %9s\n" \
        set positions "ply acc" "ply CPU" "ply wall" "ply nodes" "c4ai acc" "c4ai CPU" "c4ai nodes" \
        "ply/c4ai" "ply/Pons"
fi
IFS=, read -ra names <<<"$sets"
for name in "${names[@]}"; do
    file=$dir/$(file_of "$name")
    limit=${n:-1000000}
    [ "$name" = begin-hard ] && limit=$hard_n
    input=$(mktemp)
    head -n "$limit" "$file" >"$input"
    best_p="" best_c="" pairs=""
    for _ in $(seq "$rounds"); do
        p=$("$ply" solve connect4 "$input" "${ply_args[@]}")
        if [ -n "$pons" ]; then c=$(run_pons "$input"); else c=$("$c4ai" "$input" --quiet); fi
        pairs="$pairs $(awk -v a="$(field $key "$p")" -v b="$(field $key "$c")" 'BEGIN { printf "%.3f", a / b }')"
        if [ -z "$best_p" ] || less "$(field $key "$p")" "$(field $key "$best_p")"; then best_p=$p; fi
        if [ -z "$best_c" ] || less "$(field $key "$c")" "$(field $key "$best_c")"; then best_c=$c; fi
    done
    rm -f "$input"
    pos=$(field positions "$best_p")
    p_acc="$(field correct "$best_p")/$(field checked "$best_p")"
    c_acc="$(field correct "$best_c")/$(field checked "$best_c")"
    p_t=$(field $key "$best_p") c_t=$(field $key "$best_c")
    ratio=$(awk -v a="$p_t" -v b="$c_t" 'BEGIN { printf "%.3f", a / b }')
    if [ -n "$pons" ]; then
        printf "%-13s %5s | %9s %11s %11s %12s | %9s %11s %12s | %9s\n" \
            "$name" "$pos" "$p_acc" "$(fmt_time "$p_t")" "$(fmt_time "$(field mean_cpu_us "$best_p")")" \
            "$(field mean_nodes "$best_p")" "$c_acc" "$(fmt_time "$c_t")" \
            "$(field mean_nodes "$best_c")" "$ratio"
    else
        vs_pons=$(awk -v a="$p_t" -v b="$c_t" -v r="$(c4ai_over_pons "$name")" \
            'BEGIN { split(r, x, "/"); printf "%.3f", a / (b / (x[1] / x[2])) }')
        printf "%-13s %5s | %9s %11s %11s %12s | %9s %11s %12s | %9s %9s\n" \
            "$name" "$pos" "$p_acc" "$(fmt_time "$p_t")" "$(fmt_time "$(field mean_us "$best_p")")" \
            "$(field mean_nodes "$best_p")" "$c_acc" "$(fmt_time "$c_t")" \
            "$(field mean_nodes "$best_c")" "$ratio" "$vs_pons"
    fi
    if [ "$rounds" -gt 1 ]; then
        median=$(tr ' ' '\n' <<<"$pairs" | grep . | sort -n |
            awk '{ r[NR] = $1 } END { print (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2 }')
        echo "  $name: round by round ply/peer$pairs; median $median"
    fi
done
echo "load after: $(uptime | sed 's/.*load average: //')"
