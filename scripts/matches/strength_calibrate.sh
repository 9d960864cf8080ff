#!/usr/bin/env bash
# The matches behind UCI_LimitStrength/UCI_Elo (src/protocol/strength.rs): ply with a fixed
# node budget per move (`go nodes N`) against Stockfish 15.1 with UCI_LimitStrength at a
# UCI_Elo, GAMES games a point from the balanced chess openings with colours swapped.
#
# Neither side uses a clock, so the result does not depend on the machine's load and games
# may run side by side (CONC): ply stops at its node count, and Stockfish searches to
# depth 2 + int(level), one past the depth at which its limited strength picks its move
# (Stockfish 15.1: level = ((UCI_Elo - 1346.6) / 143.4)^(1 / 0.806), the move picked at
# depth 1 + int(level); it searches on when it has time, but plays the move picked then).
#
#   scripts/matches/strength_calibrate.sh "1:1500 70:1600 1450:1800 100000:2000"   # NODES:UCI_ELO ...
#   GAMES=40 CONC=1 scripts/matches/strength_calibrate.sh "300:1800"
#   LIMITED=1 scripts/matches/strength_calibrate.sh "1600 1800"   # ply's own UCI_Elo vs Stockfish's
#
# With LIMITED=1 each point is a UCI_Elo that both engines get (ply through its own
# UCI_LimitStrength/UCI_Elo options, on a clock of 60+1): the check that the anchors hold.
. "$(dirname "$0")/../lib/preamble.sh"
PLY=$(realpath "${PLY:-target/release/ply}")
REF=$(realpath "${REF:-target/release/ply-referee}")
SF=${SF:-/usr/games/stockfish}
GAMES=${GAMES:-100}
CONC=${CONC:-2}
OUT=${OUT:-target/strength}
mkdir -p "$OUT"
for point in $1; do
  if [ -n "${LIMITED:-}" ]; then
    elo=$point
    name="ply_elo$elo"
    # A clock as a GUI would give, far longer than any budget needs (61,000 nodes are about
    # a tenth of a second): the node budget alone decides.
    ply_limit=(option.UCI_LimitStrength=true "option.UCI_Elo=$elo" tc=60+1)
  else
    nodes=${point%%:*} elo=${point##*:}
    name="ply_n$nodes"
    ply_limit=("nodes=$nodes")
  fi
  depth=$(python3 -c "print(2 + int(max(0.0, ($elo - 1346.6) / 143.4) ** (1 / 0.806)))")
  echo "== $name vs Stockfish UCI_Elo=$elo (depth $depth), $GAMES games"
  rm -f "$OUT/$name-sf$elo.jsonl"
  "$REF" --game chess \
    --engine cmd="$PLY" name="$name" option.Hash=16 "${ply_limit[@]}" \
    --engine cmd="$SF" name="sf$elo" proto=uci depth="$depth" option.Hash=16 \
    option.UCI_LimitStrength=true option.UCI_Elo="$elo" \
    --games 2 --rounds $((GAMES / 2)) --repeat --concurrency "$CONC" \
    --openings scripts/data/chess_openings.txt --max-plies 400 --no-progress --recover \
    --records "$OUT/$name-sf$elo.jsonl" 2>&1 |
    grep -E "^(Score of|Elo difference|Ptnml|Forfeit)" | tail -4
done
