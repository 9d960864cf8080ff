#!/usr/bin/env python3
"""Random play, steps per second, for ply's Python package beside its peers, in one run.

    python3 scripts/bench/python_bench.py --install      # peers into target/bench-venv, then run
    python3 scripts/bench/python_bench.py --seconds 3    # with what is installed

Three comparisons (docs/python.md has the figures):
  aec    PettingZoo's AEC envs (tictactoe_v3, connect_four_v3, chess_v6) and ply's, the same
         loop: last() with its observation and mask, a random legal action, step().
  state  OpenSpiel's Python loop (apply_action on a random choice from legal_actions(), no
         observations) and the same loop on ply's states.
  cpu    ply's batched environment on one thread in steps per CPU-second (load-independent).
  batch  pgx (jax.jit of vmapped init/step with auto-reset, random legal actions drawn in
         jax) and ply's batched environment (VectorEnv, self-play, random legal actions
         drawn in Rust), at the same batch sizes.
A step is one move. `--install` makes a virtual environment under target/ that reuses the
system's packages, installs the peers there (pettingzoo, pygame, open_spiel, pgx with jax)
and ply built by maturin in release mode, and runs this script in it.
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VENV = os.path.join(ROOT, "target", "bench-venv")
PEERS = ["pettingzoo", "pygame", "open_spiel", "pgx", "jax"]


def install():
    python = os.path.join(VENV, "bin", "python")
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", VENV], check=True)
    subprocess.run([python, "-m", "pip", "install", "--quiet", *PEERS, "maturin"], check=True)
    env = dict(os.environ, VIRTUAL_ENV=VENV, PATH=os.path.join(VENV, "bin") + os.pathsep + os.environ["PATH"])
    maturin = shutil.which("maturin", path=env["PATH"])
    # A wheel, not `maturin develop`: that writes the native module into python/ply, where
    # the next development build would replace it.
    wheels = os.path.join(ROOT, "target", "bench-wheels")
    subprocess.run([maturin, "build", "--release", "--quiet", "-o", wheels], cwd=ROOT, env=env, check=True)
    wheel = max((os.path.join(wheels, w) for w in os.listdir(wheels)), key=os.path.getmtime)
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--force-reinstall", "--no-deps", wheel], check=True)
    args = [a for a in sys.argv[1:] if a != "--install"]
    os.execve(python, [python, os.path.abspath(__file__), *args], env)


def timed(seconds, body):
    """Runs body() (which returns its steps) until `seconds` have passed; steps per second."""
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += body()
    return steps / (time.perf_counter() - start)


def aec_episode(env, rng):
    import numpy as np

    env.reset(seed=rng.randrange(1 << 30))
    steps = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        action = None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]))
        env.step(action)
        steps += 1
    return steps


def state_episode(new_state, rng):
    state = new_state()
    steps = 0
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    return steps


def bench_aec(seconds, games):
    import warnings

    from ply.envs import pettingzoo as ppz

    warnings.simplefilter("ignore")
    from pettingzoo.classic import chess_v6, connect_four_v3, tictactoe_v3

    peers = {"tictactoe": tictactoe_v3, "connect4": connect_four_v3, "chess": chess_v6}
    for game in games:
        rng = random.Random(1)
        theirs = timed(seconds, lambda: aec_episode(peers[game].env(), rng))
        env = ppz.env(game)
        ours = timed(seconds, lambda: aec_episode(env, rng))
        report("aec", game, "PettingZoo", theirs, "ply", ours)


def bench_state(seconds, games):
    import pyspiel

    import ply

    names = {"tictactoe": "tic_tac_toe", "connect4": "connect_four", "chess": "chess"}
    for game in games:
        rng = random.Random(1)
        spiel = pyspiel.load_game(names[game])
        theirs = timed(seconds, lambda: state_episode(spiel.new_initial_state, rng))
        g = ply.Game(game)
        ours = timed(seconds, lambda: state_episode(g.new_state, rng))
        report("state", game, "OpenSpiel", theirs, "ply", ours)


def pgx_rate(game, batch, seconds):
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx.experimental import auto_reset

    env = pgx.make({"tictactoe": "tic_tac_toe", "connect4": "connect_four", "chess": "chess"}[game])
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))

    @jax.jit
    def act(key, mask):
        return jax.random.categorical(key, jnp.where(mask, 0.0, -jnp.inf), axis=-1)

    key = jax.random.PRNGKey(0)
    key, sub = jax.random.split(key)
    state = init(jax.random.split(sub, batch))
    box = {"state": state, "key": key}

    def body():
        k, a, s = jax.random.split(box["key"], 3)
        action = act(a, box["state"].legal_action_mask)
        box["state"] = step(box["state"], action, jax.random.split(s, batch))
        box["key"] = k
        box["state"].terminated.block_until_ready()
        return batch

    body()  # compiles
    return timed(seconds, body)


def ply_rate(game, batch, threads, seconds):
    from ply.envs.vector import VectorEnv

    v = VectorEnv(game, num_envs=batch, threads=threads)
    v.reset(seed=0)
    actions = v.sample_actions()

    def body():
        v.sample_actions(actions)
        v.step_into(actions)
        return batch

    return timed(seconds, body)


def bench_batch(seconds, games, batches):
    for game in games:
        for batch in batches:
            try:
                theirs = pgx_rate(game, batch, seconds)
            except ImportError as e:
                theirs = None
                print(f"pgx is not installed ({e})", file=sys.stderr)
            for threads in (1, 2):
                ours = ply_rate(game, batch, threads, seconds)
                report(f"batch {batch}", game, "pgx", theirs, f"ply {threads} thread{'s' if threads > 1 else ''}", ours)


def bench_cpu(seconds, games, batches):
    """ply's batched environment on one thread, in steps per CPU-second of this process:
    a figure that other processes' load does not lower (as long as caches are shared
    fairly), beside the wall-clock ones."""
    from ply.envs.vector import VectorEnv

    for game in games:
        for batch in batches:
            v = VectorEnv(game, num_envs=batch, threads=1)
            v.reset(seed=0)
            actions = v.sample_actions()
            steps, cpu, wall = 0, time.process_time(), time.perf_counter()
            while time.perf_counter() - wall < seconds:
                v.sample_actions(actions)
                v.step_into(actions)
                steps += batch
            rate = steps / (time.process_time() - cpu)
            print(f"cpu {batch:<7} {game:10} {'':10} {'':12}   {'ply 1 thread':14} {rate:12,.0f}   per CPU-second", flush=True)


def report(kind, game, peer, theirs, name, ours):
    ratio = f"{ours / theirs:6.1f}x" if theirs else "   n/a"
    t = f"{theirs:12,.0f}" if theirs else "         n/a"
    print(f"{kind:11} {game:10} {peer:10} {t}   {name:14} {ours:12,.0f}   {ratio}", flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--install", action="store_true", help="install the peers and ply (release) into target/bench-venv first")
    p.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    p.add_argument("--only", choices=["aec", "state", "batch", "cpu"], action="append", help="run only these comparisons")
    p.add_argument("--games", default="tictactoe,connect4,chess")
    p.add_argument("--batches", default="1024,4096")
    args = p.parse_args()
    if args.install:
        install()
    games = args.games.split(",")
    only = args.only or ["aec", "state", "batch", "cpu"]
    print(f"# {time.strftime('%Y-%m-%d %H:%M')} load: {os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} cores")
    print(f"{'kind':11} {'game':10} {'peer':10} {'steps/s':>12}   {'ply':14} {'steps/s':>12}   ratio")
    if "aec" in only:
        bench_aec(args.seconds, games)
    if "state" in only:
        bench_state(args.seconds, games)
    if "batch" in only:
        bench_batch(args.seconds, games, [int(b) for b in args.batches.split(",")])
    if "cpu" in only:
        bench_cpu(args.seconds, games, [int(b) for b in args.batches.split(",")])


if __name__ == "__main__":
    main()
