#!/usr/bin/env bash
# Fuzzes the protocol (tests/fuzz/): random and mutated command streams through the ply
# binary, checked against protocol.md's invariants, then the parser alone on ten times as
# many lines. Each session stream is saved under target/fuzz-failures/ if it fails.
#
#   scripts/checks/fuzz.sh [lines] [seed] [jobs]     # default: 10000000 1000000 2
#
# Every step runs niced (the machine is shared; do not nice the script again). It prints
# the number of streams and lines and the time taken. The Teeko table is built first into
# a scratch directory, so the Teeko solver answers in the sessions too.
. "$(dirname "$0")/../lib/preamble.sh"
lines=${1:-10000000}
seed=${2:-1000000}
jobs=${3:-2}
build_release
tables=$(mktemp -d)
trap 'rm -rf "$tables"' EXIT
PLY_TABLES="$tables" nice -n 10 target/release/ply solve teeko > /dev/null
echo "fuzz: $lines lines from seed $seed, $jobs engines at once; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
start=$(date +%s)
if ! FUZZ_LINES=$lines FUZZ_SEED=$seed FUZZ_JOBS=$jobs FUZZ_TABLES="$tables" \
    nice -n 10 cargo test --release --quiet --test fuzz fuzz_long -- --ignored --nocapture; then
    echo "fuzz: FAILED (the failing stream is saved under target/fuzz-failures/)"
    exit 1
fi
echo "fuzz: done in $(( $(date +%s) - start )) s; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
