#!/usr/bin/env bash
# The deep rows of the chess perft table (the test suite runs the shallow ones),
# checked and timed side by side: ply's `go perft` through the protocol, and a bare
# cozy-chess perft loop (examples/chess_perft_bare.rs), alternating run by run so that the
# machine's drift hits both alike. Prints, per row, the count, each program's best wall time
# over RUNS runs, and the ratio ply / bare (1.00: ply loses nothing to its rules layer).
#
#   scripts/bench/chess_perft.sh            # every deep row, RUNS=3
#   RUNS=1 ROWS=2 scripts/bench/chess_perft.sh   # the first two rows, once
. "$(dirname "$0")/../lib/preamble.sh"

RUNS=${RUNS:-3}
ROWS=${ROWS:-99}
cargo build --release --quiet --bin ply --example chess_perft_bare
PLY=target/release/ply
BARE=target/release/examples/chess_perft_bare

# FEN | depth | expected count
TABLE=(
  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1|6|119060324"
  "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|5|193690690"
  "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1|6|11030083"
  "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1|5|15833292"
  "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8|5|89941194"
  "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10|5|164075551"
)

now_ms() { date +%s%3N; }

run_ply() { # fen depth -> prints "nodes ms"
  local t0 t1 out
  t0=$(now_ms)
  out=$(printf 'newgame chess\nposition fen %s\ngo perft %s\n' "$1" "$2" | "$PLY" | grep '^Nodes searched')
  t1=$(now_ms)
  echo "${out#Nodes searched: } $((t1 - t0))"
}

run_bare() {
  local t0 t1 out
  t0=$(now_ms)
  out=$("$BARE" "$2" "$1" 2>/dev/null | grep '^Nodes searched')
  t1=$(now_ms)
  echo "${out#Nodes searched: } $((t1 - t0))"
}

printf '%-72s %5s %12s %9s %9s %7s %8s\n' position depth nodes "ply ms" "bare ms" ratio "ply Mn/s"
status=0
n=0
for row in "${TABLE[@]}"; do
  n=$((n + 1))
  [ "$n" -le "$ROWS" ] || break
  IFS='|' read -r fen depth expected <<<"$row"
  best_ply=999999999
  best_bare=999999999
  for _ in $(seq "$RUNS"); do
    read -r nodes ms <<<"$(run_ply "$fen" "$depth")"
    [ "$nodes" = "$expected" ] || { echo "ply: $fen depth $depth: $nodes, expected $expected" >&2; status=1; }
    [ "$ms" -lt "$best_ply" ] && best_ply=$ms
    read -r nodes ms <<<"$(run_bare "$fen" "$depth")"
    [ "$nodes" = "$expected" ] || { echo "bare: $fen depth $depth: $nodes, expected $expected" >&2; status=1; }
    [ "$ms" -lt "$best_bare" ] && best_bare=$ms
  done
  ratio=$(awk -v a="$best_ply" -v b="$best_bare" 'BEGIN { printf "%.2f", a / (b > 0 ? b : 1) }')
  mnps=$(awk -v n="$expected" -v t="$best_ply" 'BEGIN { printf "%.0f", n / (t > 0 ? t : 1) / 1000 }')
  printf '%-72s %5s %12s %9s %9s %7s %8s\n' "$fen" "$depth" "$expected" "$best_ply" "$best_bare" "$ratio" "$mnps"
done
exit $status
