#!/usr/bin/env bash
# Texel tuning of ply's chess evaluation, end to end:
#   1. labelled positions: Stockfish plays itself (scripts/chess_texel_data.py, python-chess
#      as its client), unless $DATA already exists;
#   2. tuning: examples/chess_tune.rs fits every weight of src/games/chess/weights.rs to the
#      game results and rewrites that file (its header records the data size and the errors).
# Both steps run under `nice -n 10`; the data stays under target/ (out of git).
#
#   scripts/chess_tune.sh                        # GAMES=4000 games if no data yet, then tune
#   DATA=my.txt scripts/chess_tune.sh --epochs 3000
#   FROM=<(git show <commit>:src/games/chess/weights.rs) scripts/chess_tune.sh
#                                                # start from another table than the current
# Extra arguments go to the tuner (--epochs, --rate, --validation, --limit, --threads).
set -euo pipefail
cd "$(dirname "$0")/.."

DATA=${DATA:-target/texel/positions.txt}
GAMES=${GAMES:-4000}
SEED=${SEED:-1}
if [ ! -s "$DATA" ]; then
  mkdir -p "$(dirname "$DATA")"
  nice -n 10 python3 scripts/chess_texel_data.py --games "$GAMES" --seed "$SEED" --out "$DATA"
fi
cargo build --release --quiet --example chess_tune
from=()
if [ -n "${FROM:-}" ]; then from=(--from "$FROM"); fi
nice -n 10 target/release/examples/chess_tune --data "$DATA" "${from[@]}" \
  --out src/games/chess/weights.rs "$@"
echo "rewrote src/games/chess/weights.rs; run cargo test, and ply bench for the new checksum" >&2
