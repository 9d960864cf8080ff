#!/usr/bin/env bash
# Chess search speed of two builds of ply, side by side: each searches the same four
# positions to a fixed node count (so both do the same kind of work), runs alternating
# A B A B .. RUNS times; prints each run's user CPU seconds, the medians, and A/B pair by
# pair. CPU time rather than wall time, so other jobs on the machine matter less (they
# still cost cache; alternating keeps the comparison fair).
#
#   scripts/bench/chess_speed.sh NEW_PLY OLD_PLY [RUNS=5]      # NODES=1000000 a position
. "$(dirname "$0")/../lib/preamble.sh"
A=$(realpath "$1")
B=$(realpath "$2")
RUNS=${3:-5}
NODES=${NODES:-1000000}
script=$(mktemp)
trap 'rm -f "$script"' EXIT
cat >"$script" <<POS
newgame chess
position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1
go nodes $NODES
position startpos moves e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6
go nodes $NODES
position fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1
go nodes $NODES
position fen r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 1
go nodes $NODES
POS
cpu() { # user CPU seconds of one run of $1
  local t
  TIMEFORMAT=%U
  t=$({ time "$1" <"$script" >/dev/null 2>&1; } 2>&1)
  echo "$t"
}
as=() bs=()
for ((i = 1; i <= RUNS; i++)); do
  a=$(cpu "$A")
  b=$(cpu "$B")
  as+=("$a") bs+=("$b")
  echo "run $i: A $a s, B $b s, A/B $(echo "scale=4; $a / $b" | bc)"
done
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
ma=$(median "${as[@]}")
mb=$(median "${bs[@]}")
echo "median: A $ma s, B $mb s, A/B $(echo "scale=4; $ma / $mb" | bc); $((4 * NODES)) nodes a run"
