#!/usr/bin/env bash
# The chess network (src/games/chess/network.nnue), end to end:
#   1. positions: ply plays itself at a fixed node budget a move (examples/chess_datagen.rs),
#      labelled by its search's score and the game's result, unless $DATA already exists;
#   2. training: examples/chess_nnue_train.rs fits the network and writes it in the engine's
#      format to $NET (by default the committed file, so the next build plays with it).
# Both steps run under `nice -n 10`; the data stays under target/ (out of git).
#
# The defaults are the recipe of the committed network (docs/chess.md, "The network"): 18,600
# games from seed 7 at 5,000 nodes a move with the weighted evaluation's search
# (PLY_SEARCH_OFF=network, OFF below) on THREADS threads, about 1.5 M positions (an hour on
# two cores); 3 epochs, lambda 0 (the search's scores alone), the network trained as a
# correction of the weighted evaluation (the trainer's --base full). Longer training only
# fits the training games better: the held-out loss is lowest after the third epoch.
# The second generation (docs/chess.md, "The twenty-fourth round"): `OFF= SEED=8
# GAMES=23100 DATA=target/nnue/round2.txt`, labels by the first network's search, 1,910,337
# positions, otherwise these defaults. The committed network is the third (docs/chess.md, "The
# twenty-sixth round"), trained from the second on its search's labels: two datagen runs of one
# game at a time (`OFF= THREADS=1`, `SEED=9` and `SEED=10`, stopped at about 11,270 and 4,780
# games) concatenated into one DATA file (1,293,606 positions), then `--init
# src/games/chess/network.nnue --lr 0.0003`. (The first generation's
# games were drawn by datagen's generator of commit 6df7d76; datagen now takes its random
# plies from ply::util::Rng.)
#
#   scripts/tuning/chess_network.sh
#   GAMES=2000 NET=small.nnue scripts/tuning/chess_network.sh --epochs 5
#   OFF= DATA=target/nnue/round2.txt scripts/tuning/chess_network.sh   # labels by the network's search
#   OFF= DATA=target/nnue/round3.txt scripts/tuning/chess_network.sh --init src/games/chess/network.nnue --lr 0.0003
# Extra arguments go to the trainer (--epochs, --lr, --batch, --lambda, --base, --validation,
# --threads, --seed, --init).
. "$(dirname "$0")/../lib/preamble.sh"

DATA=${DATA:-target/nnue/positions.txt}
GAMES=${GAMES:-18600}
NODES=${NODES:-5000}
THREADS=${THREADS:-2}
SEED=${SEED:-7}
OFF=${OFF-network}
NET=${NET:-src/games/chess/network.nnue}
build_release --example chess_datagen --example chess_nnue_train
if [ ! -s "$DATA" ]; then
  mkdir -p "$(dirname "$DATA")"
  PLY_SEARCH_OFF="$OFF" nice -n 10 target/release/examples/chess_datagen \
    "$DATA" "$GAMES" "$NODES" "$THREADS" "$SEED"
fi
nice -n 10 target/release/examples/chess_nnue_train --out "$NET" "$DATA" \
  --epochs 3 --lambda 0 --base full --threads "$THREADS" "$@"
echo "wrote $NET; run cargo test, and ply bench for the new checksum" >&2
