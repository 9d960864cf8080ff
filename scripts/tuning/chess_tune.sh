#!/usr/bin/env bash
# Texel tuning of ply's chess evaluation, end to end:
#   1. labelled positions: Stockfish plays itself (scripts/tuning/chess_texel_data.py, python-chess
#      as its client), unless $DATA already exists;
#   2. tuning: examples/chess_tune.rs fits every weight of src/games/chess/weights.rs and
#      rewrites that file (its header records the data size, the labels and the errors).
# Both steps run under `nice -n 10`; the data stays under target/ (out of git).
#
# The defaults are the recipe of the committed table (see docs/chess.md, "Tuning"): 10,000 games
# with seed 2 (about 940,000 positions, 1.5 h on one core), labels from Stockfish's scores
# (LAMBDA=0; LAMBDA=1 fits the game results alone), 1500 epochs, started from the hand-set
# table (FROM; default: the table in the source tree).
#
#   scripts/tuning/chess_tune.sh
#   FROM=<(git show b4cb5f7:src/games/chess/weights.rs) scripts/tuning/chess_tune.sh
#   LAMBDA=1 DATA=my.txt scripts/tuning/chess_tune.sh --epochs 3000
# Extra arguments go to the tuner (--epochs, --rate, --validation, --limit, --threads).
. "$(dirname "$0")/../lib/preamble.sh"

DATA=${DATA:-target/texel/positions.txt}
GAMES=${GAMES:-10000}
SEED=${SEED:-2}
LAMBDA=${LAMBDA:-0}
if [ ! -s "$DATA" ]; then
  mkdir -p "$(dirname "$DATA")"
  nice -n 10 python3 scripts/tuning/chess_texel_data.py --games "$GAMES" --seed "$SEED" --out "$DATA"
fi
cargo build --release --quiet --example chess_tune
from=()
if [ -n "${FROM:-}" ]; then from=(--from "$FROM"); fi
nice -n 10 target/release/examples/chess_tune --data "$DATA" "${from[@]}" \
  --lambda "$LAMBDA" --epochs 1500 --out src/games/chess/weights.rs "$@"
echo "rewrote src/games/chess/weights.rs; run cargo test, and ply bench for the new checksum" >&2
