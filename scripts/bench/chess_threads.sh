#!/usr/bin/env bash
# Threads in chess (docs/chess.md, Threads): nodes per second with 1 and 2 search threads,
# then the Elo of 2 threads against 1 at the same clock. Needs two quiet cores: with other
# jobs running, the second thread measures the machine's load, not the search.
#
#   scripts/bench/chess_threads.sh                 # NPS only: RUNS=3 MS=5000
#   GAMES=100 TC=10+0.1 scripts/bench/chess_threads.sh   # and the match, one game at a time
#
# NPS: each position searched for MS milliseconds by each thread count in turn (alternating,
# RUNS times), the last info line's nps; prints each and the median ratio 2 threads / 1.
# The match: ply-referee, game pairs from the balanced openings with colours swapped, Hash 64.
. "$(dirname "$0")/../lib/preamble.sh"
RUNS=${RUNS:-3}
MS=${MS:-5000}
GAMES=${GAMES:-0}
TC=${TC:-10+0.1}
FENS=(
  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
  "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
  "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
)
nps() { # threads, fen: the nps of the last info line of a MS-millisecond search
  { echo "setoption name Threads value $1"; echo "setoption name Hash value 64"
    echo "position fen $2"; echo "go movetime $MS"; sleep $((MS / 1000 + 2)); echo quit; } |
    "$PLY" --game chess 2>/dev/null | grep -o " nps [0-9]*" | tail -1 | tr -dc 0-9
}
ratios=()
for run in $(seq "$RUNS"); do
  for fen in "${FENS[@]}"; do
    one=$(nps 1 "$fen")
    two=$(nps 2 "$fen")
    ratio=$(python3 -c "print(f'{$two / $one:.3f}')")
    ratios+=("$ratio")
    echo "run $run: 1 thread $one nps, 2 threads $two nps, ratio $ratio ($fen)"
  done
done
python3 -c "import statistics,sys; print('median ratio', statistics.median(map(float, sys.argv[1:])))" "${ratios[@]}"
uptime
if [ "$GAMES" -gt 0 ]; then
  "$REF" --game chess \
    --engine cmd="$PLY" name=threads2 option.Threads=2 --engine cmd="$PLY" name=threads1 \
    --each tc="$TC" option.Hash=64 --games 2 --rounds $((GAMES / 2)) --repeat \
    --openings scripts/data/chess_openings.txt --max-plies 400 --no-progress 2>&1 |
    grep -E "^(Score of|Elo difference|Ptnml|Forfeits)"
  uptime
fi
