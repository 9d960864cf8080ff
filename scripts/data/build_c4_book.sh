#!/usr/bin/env bash
# Builds the Connect Four opening book compiled into ply (src/solve/connect4/book-7x6.bin) with
# ply's own solver: every 7x6 position of the first OPEN plies, and from there every position
# either colour can meet when it plays the book's moves against any reply, down to DEPTH discs
# (mirror images share an entry). The build is deterministic and resumable: each solved
# position is appended to a progress file at once, and a build started again (after a crash,
# ^C, or with a larger DEPTH) solves only what is missing. It runs niced: the machine is
# shared. Rebuild ply afterwards (`cargo build --release`) to compile the new book in.
#
# With -f FULL it also holds every position with at most FULL discs (only those with exactly
# FULL discs are solved; the shallower ones follow from their children), and with -r it takes
# the entries of the book compiled into ply as solved rather than solving them again.
#
# With -s I/N it solves only slice I of N of the FULL level (and writes no book): run the N
# slices as separate processes or on separate machines, each with its own progress file, then
# put the files together (`cat`) and run once more without -s to back up and write the book.
#
# Usage: scripts/data/build_c4_book.sh [-d DEPTH] [-o OPEN] [-f FULL] [-r] [-s I/N] [-t THREADS] [-m TABLE_MB] [-p PROGRESS] [-l LIMIT]
#   -d DEPTH     the most discs of a book position (default 12)
#   -o OPEN      plies at the start that may be anything (default 2: random 2-ply openings)
#   -f FULL      every position with at most FULL discs too (default 0: none beyond OPEN)
#   -r           reuse the entries of the book compiled into ply
#   -s I/N       solve slice I (from 0) of N of the FULL level only
#   -t THREADS   solver threads (default 2)
#   -m TABLE_MB  solver table in MiB, kept across positions (default 1024)
#   -p PROGRESS  progress file (default target/c4-book/progress.txt)
#   -l LIMIT     stop after LIMIT newly solved positions (to build in pieces)
#
# The per-depth table printed at the end (positions, solve seconds, mean and max per position,
# nodes) is what docs/connect4.md's book section reports.
. "$(dirname "$0")/../lib/preamble.sh"
depth=12 open=2 full=0 reuse="" shard="" threads=2 table_mb=1024 progress=target/c4-book/progress.txt limit=""
while getopts "d:o:f:rs:t:m:p:l:h" opt; do
    case $opt in
        d) depth=$OPTARG ;; o) open=$OPTARG ;; f) full=$OPTARG ;; r) reuse=1 ;; s) shard=$OPTARG ;;
        t) threads=$OPTARG ;; m) table_mb=$OPTARG ;; p) progress=$OPTARG ;; l) limit=$OPTARG ;;
        *) usage; exit 0 ;;
    esac
done
cargo build --release --quiet --bin ply
mkdir -p "$(dirname "$progress")"
args=(--depth "$depth" --open "$open" --full "$full" --threads "$threads" --table-mb "$table_mb"
      --progress "$progress" --out src/solve/connect4/book-7x6.bin)
[ -n "$limit" ] && args+=(--limit "$limit")
[ -n "$reuse" ] && args+=(--reuse-builtin)
[ -n "$shard" ] && args+=(--shard "$shard")
echo "load before: $(uptime | sed 's/.*load average: //')" >&2
start=$(date +%s)
nice -n 10 target/release/ply solve connect4 book "${args[@]}"
echo "load after: $(uptime | sed 's/.*load average: //'); this run took $(( $(date +%s) - start )) s" >&2
ls -l src/solve/connect4/book-7x6.bin >&2
