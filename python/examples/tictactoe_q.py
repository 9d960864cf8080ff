#!/usr/bin/env python3
"""Tic-tac-toe learnt from nothing by tabular Q-learning in self-play, through ply's
PettingZoo environment, until it cannot be exploited: its exploitability is computed exactly
(every reply of a best-responding opponent searched with ply's states, nothing sampled).

    python3 python/examples/tictactoe_q.py [--episodes 200000] [--plot curve.png]

Exploitability here is the average, over the agent's two seats, of what a best response wins
against the agent's greedy policy (+1 a win, 0 a draw): 0 means the policy never loses.
"""

import argparse
import random

import numpy as np

import ply
from ply.envs import pettingzoo as ppz


def key(obs):
    return obs["observation"].tobytes()


def greedy(q, obs):
    mask = obs["action_mask"]
    values = q.get(key(obs))
    if values is None:
        return int(np.flatnonzero(mask)[0])
    return int(np.flatnonzero(mask)[np.argmax(values[mask == 1])])


def best_response(state, q, seat, memo):
    """The value for the best responder (who does not play `seat`) of `state`, against the
    agent's greedy policy in `seat`: exact, by searching every reply."""
    if state.is_terminal():
        return -state.returns()[seat]
    k = state.fen()
    if k in memo:
        return memo[k]
    mover = state.to_move
    if mover == seat:
        obs = {"observation": state.observation(seat), "action_mask": state.legal_actions_mask()}
        child = state.clone()
        child.apply_action(greedy(q, obs))
        value = best_response(child, q, seat, memo)
    else:
        value = -1.0
        for a in state.legal_actions():
            child = state.clone()
            child.apply_action(a)
            value = max(value, best_response(child, q, seat, memo))
    memo[k] = value
    return value


def exploitability(q, game):
    return sum(best_response(game.new_state(), q, seat, {}) for seat in (0, 1)) / 2


def train(episodes, eval_every, seed=0):
    rng = random.Random(seed)
    env = ppz.env("tictactoe")
    game = ply.Game("tictactoe")
    q = {}
    curve = []
    for episode in range(episodes + 1):
        if episode % eval_every == 0:
            curve.append((episode, exploitability(q, game)))
        # Exploration and step size fall to nothing by the end, so the policy settles.
        epsilon = 0.0 if episode > 0.9 * episodes else max(0.2, 1.0 - episode / (0.5 * episodes))
        alpha = 1.0  # the game and its rewards are deterministic: a full step is exact
        env.reset(seed=episode)
        # Exploring starts: the first few moves of each episode are random (and learnt
        # from, Q-learning being off-policy), so that every position keeps being visited.
        explore = rng.randrange(0, 7) if epsilon > 0 else 0
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            s = key(obs)
            values = q.setdefault(s, np.zeros(9))
            legal = np.flatnonzero(obs["action_mask"])
            random_move = explore > 0 or rng.random() < epsilon
            explore -= 1
            a = int(rng.choice(legal)) if random_move else greedy(q, obs)
            env.step(a)
            # Negamax Q-learning, one table for both seats (observations are from the mover's
            # side): the target is the mover's reward at the end, else minus the opponent's
            # best value in the position it now faces.
            if env.terminations[agent] or env.truncations[agent]:
                target = env.rewards[agent]
            else:
                nxt = env.observe(env.agent_selection)
                reply = q.setdefault(key(nxt), np.zeros(9))
                target = -float(np.max(reply[nxt["action_mask"] == 1]))
            values[a] += alpha * (target - values[a])
    return q, curve


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--episodes", type=int, default=200000)
    p.add_argument("--eval-every", type=int, default=5000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--plot", help="draw the learning curve into this PNG (needs matplotlib)")
    args = p.parse_args()
    q, curve = train(args.episodes, args.eval_every, args.seed)
    for episode, e in curve:
        print(f"{episode:7d} episodes  exploitability {e:.3f}")
    zero = next((ep for ep, e in curve if e == 0), None)
    print(f"states learnt: {len(q)}; exploitability 0 first at {zero} episodes; final {curve[-1][1]:.3f}")
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(6, 3.2), dpi=120)
        ax.plot([c[0] for c in curve], [c[1] for c in curve], marker=".")
        ax.set_xlabel("self-play episodes")
        ax.set_ylabel("exploitability (exact)")
        ax.set_title("Tic-tac-toe, tabular Q-learning through ply's PettingZoo env")
        ax.grid(alpha=0.3)
        fig.tight_layout()
        fig.savefig(args.plot)


if __name__ == "__main__":
    main()
