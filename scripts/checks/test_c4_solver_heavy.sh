#!/usr/bin/env bash
# Runs the Connect Four solver's heavy checks (the #[ignore]d tests of tests/c4_solver.rs):
# 105 opening positions (6 to 12 discs) against connect-four-ai, and the empty board (score 1,
# 1 GiB table, two threads), and the opening book's entries re-solved at every depth (the
# #[ignore]d test of tests/c4_book.rs). Release build: several minutes in all.
. "$(dirname "$0")/../lib/preamble.sh"
cargo test --release --test c4_solver -- --ignored --test-threads 1 "$@"
cargo test --release --test c4_book -- --ignored --test-threads 1 "$@"
