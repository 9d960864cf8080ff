#!/usr/bin/env python3
"""Connect Four learnt with ply's batched environment (numpy only), judged by ply's solver.

    python3 python/examples/connect4_pg.py --pons DIR [--updates 300] [--num-envs 512]

The agent is a small two-layer network (numpy, hand-written gradients) choosing a column
from the observation; it is trained by policy gradient (REINFORCE with a running baseline)
in ply's VectorEnv against ply's searcher at depth 1, on a random side each game. It is then
measured two ways:
  - its share of value-keeping moves (the move keeps the position's exact value: ply's
    solver) on positions of Pascal Pons' test sets (DIR holds his files Test_L3_R1 and
    Test_L2_R1; they are not redistributed with ply);
  - its results against ply's searcher at fixed depths (1, 2, 4), 200 games each, sides
    alternating.
"""

import argparse
import os
import time

import numpy as np

import ply
from ply.envs.vector import VectorEnv


class Policy:
    """Observation (84 inputs) -> tanh hidden layer -> 7 logits, masked to legal columns."""

    def __init__(self, rng, hidden=128):
        self.w1 = rng.normal(0, 0.1, (84, hidden)).astype(np.float32)
        self.b1 = np.zeros(hidden, np.float32)
        self.w2 = rng.normal(0, 0.1, (hidden, 7)).astype(np.float32)
        self.b2 = np.zeros(7, np.float32)

    def forward(self, obs, mask):
        x = obs.reshape(len(obs), -1).astype(np.float32)
        h = np.tanh(x @ self.w1 + self.b1)
        logits = h @ self.w2 + self.b2
        logits = np.where(mask == 1, logits, -1e9)
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        return x, h, p

    def act(self, obs, mask, rng=None):
        _, _, p = self.forward(obs, mask)
        if rng is None:
            return p.argmax(axis=1)
        u = rng.random((len(p), 1))
        return np.minimum((p.cumsum(axis=1) < u).sum(axis=1), 6)

    def update(self, batch, lr):
        """One REINFORCE step on (obs, mask, action, advantage) arrays."""
        obs, mask, actions, adv = batch
        x, h, p = self.forward(obs, mask)
        g = p.copy()
        g[np.arange(len(actions)), actions] -= 1.0  # d(-log p[a]) / d logits
        g *= adv[:, None] / len(actions)
        gh = (g @ self.w2.T) * (1 - h * h)
        self.w2 -= lr * h.T @ g
        self.b2 -= lr * g.sum(axis=0)
        self.w1 -= lr * x.T @ gh
        self.b1 -= lr * gh.sum(axis=0)


def train(policy, updates, num_envs, rng, horizon=24, lr=0.5):
    """The first half against random play, the second against ply's depth-1 search."""
    for opponent, n in [("random", updates // 2), ("search:depth=1", updates - updates // 2)]:
        env = VectorEnv("connect4", num_envs=num_envs, opponent=opponent, player=-1, threads=2)
        train_against(policy, env, opponent, n, num_envs, rng, horizon, lr)


def train_against(policy, env, opponent, updates, num_envs, rng, horizon, lr):
    obs, _ = env.reset(seed=1)
    baseline = 0.0
    pending = [[] for _ in range(num_envs)]  # each game's (obs, mask, action) so far
    for update in range(updates):
        samples, returns = [], []
        wins = games = 0
        for _ in range(horizon):
            o, m = obs["observation"], obs["action_mask"]
            actions = policy.act(o, m, rng)
            obs, rew, term, trunc, _ = env.step(actions)
            for i in range(num_envs):
                if m[i].any():
                    pending[i].append((o[i], m[i], actions[i]))
                if term[i] or trunc[i]:
                    for s in pending[i]:
                        samples.append(s)
                        returns.append(rew[i])
                    pending[i] = []
                    games += 1
                    wins += rew[i] > 0
        if samples:
            r = np.array(returns, np.float32)
            baseline = 0.9 * baseline + 0.1 * r.mean()
            batch = (
                np.stack([s[0] for s in samples]),
                np.stack([s[1] for s in samples]),
                np.array([s[2] for s in samples]),
                r - baseline,
            )
            policy.update(batch, lr)
        if update % 25 == 0:
            print(f"update {update:4d}: {games} games, won {wins / max(games, 1):.2f} against {opponent}", flush=True)


def value_keeping_share(policy, path, limit):
    """The share of positions of a Pons test file where the policy's move keeps the value."""
    game = ply.Game("connect4")
    kept = total = 0
    with open(path) as f:
        for line in list(f)[:limit]:
            moves = line.split()[0]
            state = game.new_state()
            for c in moves:
                state.play(c)
            values = state.move_values(actions=True)
            obs = state.observation()[None]
            mask = state.legal_actions_mask()[None]
            a = int(policy.act(obs, mask)[0])
            kept += values[a] == max(values.values())
            total += 1
    return kept / total, total


def against_depth(policy, depth, games):
    env = VectorEnv("connect4", num_envs=games, opponent=f"search:depth={depth}", player=-1)
    obs, _ = env.reset(seed=depth)
    result = np.zeros(games)
    done = np.zeros(games, dtype=bool)
    while not done.all():
        actions = policy.act(obs["observation"], obs["action_mask"])
        obs, rew, term, trunc, _ = env.step(actions)
        newly = (term | trunc) & ~done
        result[newly] = rew[newly]
        done |= term | trunc
    return (result > 0).sum(), (result == 0).sum(), (result < 0).sum()


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--pons", help="the directory of Pons' test files (Test_L3_R1, Test_L2_R1)")
    p.add_argument("--updates", type=int, default=300)
    p.add_argument("--num-envs", type=int, default=512)
    p.add_argument("--positions", type=int, default=1000, help="positions per test file")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    rng = np.random.default_rng(args.seed)
    policy = Policy(rng)
    untrained = Policy(np.random.default_rng(args.seed))
    start = time.time()
    train(policy, args.updates, args.num_envs, rng)
    print(f"trained in {time.time() - start:.0f} s")
    for name, pol in [("untrained", untrained), ("trained", policy)]:
        for depth in (1, 2, 4):
            w, d, l = against_depth(pol, depth, 200)
            print(f"{name:9} against ply depth {depth}: {w} won, {d} drawn, {l} lost of 200")
        if args.pons:
            for f in ("Test_L3_R1", "Test_L2_R1"):
                share, n = value_keeping_share(pol, os.path.join(args.pons, f), args.positions)
                print(f"{name:9} value-keeping moves on {f}: {share:.3f} of {n}")


if __name__ == "__main__":
    main()
