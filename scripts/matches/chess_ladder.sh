#!/usr/bin/env bash
# ply against Stockfish 15.1 limited by UCI_LimitStrength/UCI_Elo (its calibration is CCRL
# 40/4), one rung per Elo, GAMES games each at TC from the balanced openings with colours
# swapped, one game at a time under nice. Prints the referee's result and Elo line per rung.
# Both engines keep OVERHEAD ms back from their clocks (Move Overhead): on a loaded machine
# Stockfish, at its default of 10 ms, lost 5 of 12 games on time at 10+0.1. --recover: an
# engine starved for seconds by other jobs loses that game, and the match goes on.
# THREADS sets the search threads of both engines (one game at a time, so the engine on move
# has every core while it thinks; only with nothing else running).
#
#   scripts/matches/chess_ladder.sh                          # 1350 1600 1800 2000 2200, 100 games, 10+0.1
#   ELOS="2000" GAMES=40 scripts/matches/chess_ladder.sh
#   THREADS=2 ELOS="2400" scripts/matches/chess_ladder.sh
. "$(dirname "$0")/../lib/preamble.sh"
PLY=$(realpath "${PLY:-target/release/ply}")
REF=$(realpath "${REF:-target/release/ply-referee}")
SF=${SF:-/usr/games/stockfish}
GAMES=${GAMES:-100}
TC=${TC:-10+0.1}
ELOS=${ELOS:-1350 1600 1800 2000 2200}
OUT=${OUT:-target/ladder}
OVERHEAD=${OVERHEAD:-200}
THREADS=${THREADS:-1}
mkdir -p "$OUT"
for elo in $ELOS; do
  echo "== ply vs Stockfish UCI_Elo=$elo ($GAMES games, $TC, $THREADS thread(s) each)"
  rm -f "$OUT/sf$elo.jsonl"
  nice -n 10 "$REF" --game chess \
    --engine cmd="$PLY" name=ply option.Hash=64 \
    --engine cmd="$SF" name="sf$elo" proto=uci option.Hash=64 option.UCI_LimitStrength=true \
    option.UCI_Elo="$elo" \
    --each tc="$TC" "option.Move Overhead=$OVERHEAD" option.Threads="$THREADS" --games 2 --rounds $((GAMES / 2)) --repeat \
    --openings scripts/data/chess_openings.txt --max-plies 400 --no-progress --recover \
    --records "$OUT/sf$elo.jsonl" 2>&1 |
    grep -E "^(Elo difference|Ptnml|Forfeit|Score of ply vs)" | tail -3
done
