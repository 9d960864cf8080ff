#!/usr/bin/env bash
# An SPRT between two builds of ply at chess: NEW against OLD, game pairs from the balanced
# openings (shuffled by SEED, colours swapped), one game at a time under nice, until the test
# accepts H0 (NEW is at most ELO0 stronger) or H1 (at least ELO1 stronger), or MAX games.
# By default at a fixed node budget a move, so the result does not depend on the machine's
# load; TC=10+0.1 (say) plays on a clock instead, for changes of the time management.
# Games are adjudicated as fishtest does: a win when both engines agree on a score of 1000 cp
# or more for 3 moves each, a draw after move 40 with scores within 10 cp for 8 moves each.
#
#   scripts/matches/chess_sprt.sh NEW_PLY OLD_PLY [NAME]      # NODES=25000 ELO0=0 ELO1=10
#   TC=10+0.1 ELO1=15 scripts/matches/chess_sprt.sh new old tm
#   NEW_OFF=razoring OLD_OFF=razoring,futility scripts/matches/chess_sprt.sh ply ply futility
#
# NEW_OFF and OLD_OFF turn search techniques off in either engine (PLY_SEARCH_OFF, see
# protocol.md, Environment), so one build can play with and without a technique; NEW_PARAMS
# and OLD_PARAMS set search parameters (PLY_SEARCH_PARAMS, `ply search-params` lists them), as
# scripts/tuning/chess_spsa.py prints them.
#
# Records go to target/sprt/NAME.jsonl; the last lines printed are the referee's result,
# Elo, pentanomial and SPRT lines (docs/chess.md records each run). RESUME=1 continues an
# interrupted run from its records (the same arguments and settings; the referee's
# `--resume`, docs/cluster.md). CONCURRENCY=2 plays two games at a time: at a fixed node
# budget the result does not depend on the load, so both cores of a quiet machine may play.
. "$(dirname "$0")/../lib/preamble.sh"
NEW=$(realpath "$1")
OLD=$(realpath "$2")
NAME=${3:-sprt}
REF=$(realpath "${REF:-target/release/ply-referee}")
NODES=${NODES:-25000}
ELO0=${ELO0:-0}
ELO1=${ELO1:-10}
MAX=${MAX:-8000}
SEED=${SEED:-1}
HASH=${HASH:-16}
CONCURRENCY=${CONCURRENCY:-1}
OUT=${OUT:-target/sprt}
mkdir -p "$OUT"
if [ -n "${RESUME:-}" ]; then
  records=(--resume "$OUT/$NAME.jsonl")
else
  rm -f "$OUT/$NAME.jsonl"
  records=(--records "$OUT/$NAME.jsonl")
fi
engine() { # the referee's words for engine $1 (a path) named $2, techniques $3 off, parameters $4
  if [ -n "$3$4" ]; then
    echo "cmd=env arg=PLY_SEARCH_OFF=$3 arg=PLY_SEARCH_PARAMS=$4 arg=$1 name=$2"
  else
    echo "cmd=$1 name=$2"
  fi
}
if [ -n "${TC:-}" ]; then
  limit=(tc="$TC")
else
  limit=(nodes="$NODES")
fi
nice -n 10 "$REF" --game chess \
  --engine $(engine "$NEW" new "${NEW_OFF:-}" "${NEW_PARAMS:-}") \
  --engine $(engine "$OLD" old "${OLD_OFF:-}" "${OLD_PARAMS:-}") \
  --each "${limit[@]}" option.Hash="$HASH" --games 2 --rounds $((MAX / 2)) --repeat \
  --openings scripts/data/chess_openings.txt --shuffle --seed "$SEED" --max-plies 400 \
  --resign movecount=3 score=1000 --draw movenumber=40 movecount=8 score=10 \
  --sprt elo0="$ELO0" elo1="$ELO1" "${records[@]}" --concurrency "$CONCURRENCY" --no-progress --recover 2>&1 |
  grep -E "^(Score of|Elo difference|Ptnml|SPRT|Forfeits)" | tail -5
