#!/usr/bin/env bash
# What each search technique is worth to chess: ply with one technique turned off
# (PLY_SEARCH_OFF, see protocol.md, Environment) against ply with all of them, GAMES games
# from the balanced openings with colours swapped, at a fixed node budget per move (so the
# result does not depend on the machine's load). Prints the referee's Elo line per technique.
#
#   scripts/matches/chess_techniques.sh                      # all five, 100 games each, 20,000 nodes
#   GAMES=200 NODES=50000 TECHNIQUES="null_move" scripts/matches/chess_techniques.sh
. "$(dirname "$0")/../lib/preamble.sh"
PLY=$(realpath "${PLY:-target/release/ply}")
REF=$(realpath "${REF:-target/release/ply-referee}")
GAMES=${GAMES:-100}
NODES=${NODES:-20000}
TECHNIQUES=${TECHNIQUES:-quiescence null_move late_move_reductions check_extension aspiration}
for t in $TECHNIQUES; do
  echo "== all techniques vs without $t ($GAMES games, nodes=$NODES a move)"
  nice -n 10 "$REF" --game chess \
    --engine cmd="$PLY" name=all \
    --engine cmd=env arg="PLY_SEARCH_OFF=$t" arg="$PLY" name="no-$t" \
    --each nodes="$NODES" --games 2 --rounds $((GAMES / 2)) --repeat \
    --openings scripts/data/chess_openings.txt --max-plies 400 --no-progress 2>&1 |
    grep -E "^(Elo difference|Ptnml|Forfeit|Score of all vs)" | tail -3
done
