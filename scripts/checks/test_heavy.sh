#!/usr/bin/env bash
# The slow tests: everything `cargo test` skips (#[ignore]), in release mode. For Teeko that
# is the advanced table (built once; Steele's result, counts, a sample, short distances, and
# a consistency check of every slot) and the consistency check of every standard slot; for
# checkers, the six-piece databases (built once; counts, consistency, a sample).
#
#   scripts/checks/test_heavy.sh              # every ignored test of every test target
#   scripts/checks/test_heavy.sh advanced     # only those whose name contains "advanced"
. "$(dirname "$0")/../lib/preamble.sh"
exec cargo test --release -- --ignored "$@"
