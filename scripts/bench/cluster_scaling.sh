#!/usr/bin/env bash
# The Dask cluster runner (python -m ply.cluster, docs/cluster.md) against one referee process,
# runs alternating, each timed whole with /usr/bin/time (wall, and CPU of the whole process
# tree):
#
#   cost    the same cheap match (tic-tac-toe, depth 1 against depth 2: the games cost
#           nothing, so what is timed is the machinery) played by one ply-referee and by the
#           runner on a local cluster of one worker, at two sizes, so that the slopes give
#           the cost of a game and the difference of intercepts the cluster's start and stop;
#   scaling a CPU-bound match (Connect Four, depth 11 against depth 11 without the solver,
#           random openings; about 0.3 s of CPU a game) played by the runner on one worker
#           and on two, and by one referee process: games per hour of each, and the ratio;
#   client  the client alone (python -m ply.cluster and its merge, without the workers: a
#           scheduler and one worker run beside it, untimed), the cheap match at two sizes:
#           its CPU per game is what bounds how many workers one client keeps up with.
#
# Usage: [SCALING_GAMES=60] scripts/bench/cluster_scaling.sh [cost|scaling|client|all] [RUNS]
#        (default: all 3)
# Needs python3 with dask and distributed; the package ply is imported from python/ (its
# runner is plain Python). The figures go to stdout with the load average before each run:
# the machine may be shared, so quote the load with them. Results: docs/cluster.md.
. "$(dirname "$0")/../lib/preamble.sh"
[ "${1:-}" = -h ] && { usage; exit 0; }
what=${1:-all}
runs=${2:-3}
build_release
BIN=$(dirname "$REF")
TMP=$(mktemp -d)
# The scheduler and worker of `client`, each in a process group of its own.
DASK_PIDS=()
stop_dask() {
    for p in "${DASK_PIDS[@]}"; do kill -- "-$p" 2> /dev/null || true; done
}
trap 'stop_dask; rm -rf "$TMP"' EXIT
export PLY_TABLES_AUTOBUILD=0 PLY_TABLES="$TMP"
# The runner's package without ply's native module (see tests/cluster_check.py).
export PYTHONPATH="$ROOT/python/ply"

# timed LABEL CMD..: one run; prints "LABEL wall_s cpu_s load" (cpu: user + system of the
# command and every process it waited for).
timed() {
    local label=$1
    shift
    local load
    load=$(cut -d' ' -f1 /proc/loadavg)
    /usr/bin/time -f "%e %U %S" -o "$TMP/time" "$@" > "$TMP/out" 2> "$TMP/err" \
        || { echo "$label failed:"; tail -5 "$TMP/err"; exit 1; }
    grep -q "^Finished match" "$TMP/out" || { echo "$label: no report"; exit 1; }
    awk -v l="$label" -v load="$load" '{printf "%s %.2f %.2f %s\n", l, $1, $2 + $3, load}' \
        "$TMP/time"
}

cheap() {
    echo --game tictactoe --engine cmd=ply name=d1 depth=1 --engine cmd=ply name=d2 depth=2 \
        --games 2 --rounds "$1" --repeat --random-plies 2
}
busy() {
    echo --game connect4 --engine cmd=ply name=a depth=11 option.UseSolver=false \
        --engine cmd=ply name=b depth=11 option.UseSolver=false \
        --games 2 --rounds "$1" --repeat --random-plies 4
}

if [ "$what" = cost ] || [ "$what" = all ]; then
    echo "# cost: label wall_s cpu_s load (games: 200 and 400; shards of 16 games)"
    for _ in $(seq "$runs"); do
        for n in 100 200; do
            # shellcheck disable=SC2046
            timed "referee-$((2 * n))" nice -n 10 "$REF" $(cheap "$n")
            # shellcheck disable=SC2046
            timed "cluster1-$((2 * n))" nice -n 10 python3 -m cluster match --bin-dir "$BIN" \
                --quiet --workers 1 --shard-games 16 $(cheap "$n")
        done
    done
fi
if [ "$what" = scaling ] || [ "$what" = all ]; then
    # SCALING_GAMES: the match's length (default 60); a longer one spreads the cluster's
    # start over more games, as a real match does.
    g=${SCALING_GAMES:-60}
    echo "# scaling: label wall_s cpu_s load ($g games; shards of 4 games)"
    for _ in $(seq "$runs"); do
        # shellcheck disable=SC2046
        timed "referee-$g" nice -n 10 "$REF" $(busy $((g / 2)))
        for w in 1 2; do
            # shellcheck disable=SC2046
            timed "workers$w-$g" nice -n 10 python3 -m cluster match --bin-dir "$BIN" \
                --quiet --workers "$w" --shard-games 4 $(busy $((g / 2)))
        done
    done
fi
if [ "$what" = client ] || [ "$what" = all ]; then
    echo "# client: label wall_s cpu_s load (games: 200 and 400; shards of 16 games)"
    port=$((20000 + RANDOM % 20000))
    setsid nice -n 10 dask scheduler --host 127.0.0.1 --port "$port" --no-dashboard \
        > "$TMP/scheduler.log" 2>&1 &
    DASK_PIDS+=($!)
    sleep 5
    setsid nice -n 10 dask worker "tcp://127.0.0.1:$port" --nthreads 1 --nworkers 1 \
        --no-dashboard > "$TMP/worker.log" 2>&1 &
    DASK_PIDS+=($!)
    sleep 10
    for _ in $(seq "$runs"); do
        for n in 100 200; do
            # shellcheck disable=SC2046
            timed "client-$((2 * n))" nice -n 10 python3 -m cluster match --bin-dir "$BIN" \
                --quiet --scheduler "tcp://127.0.0.1:$port" --shard-games 16 $(cheap "$n")
        done
    done
fi
