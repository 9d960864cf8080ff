"""The learning examples' judges: the exact exploitability of the tic-tac-toe example is 0
for a perfect policy (built from ply's solver) and positive for an untrained one."""

import os
import sys

import numpy as np

import ply

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "examples"))
import tictactoe_q  # noqa: E402


def perfect_table(game):
    """Q values from ply's solver for every position: a policy that never loses."""
    q = {}
    seen = set()

    def walk(state):
        if state.is_terminal() or state.fen() in seen:
            return
        seen.add(state.fen())
        values = np.full(9, -2.0)
        for a, v in state.move_values(actions=True).items():
            values[a] = v
        q[state.observation(state.to_move).tobytes()] = values
        for a in state.legal_actions():
            child = state.clone()
            child.apply_action(a)
            walk(child)

    walk(game.new_state())
    return q


def test_exploitability_is_exact():
    game = ply.Game("tictactoe")
    assert tictactoe_q.exploitability(perfect_table(game), game) == 0
    assert tictactoe_q.exploitability({}, game) > 0


def test_a_short_training_runs():
    q, curve = tictactoe_q.train(episodes=200, eval_every=100)
    assert len(curve) == 3 and len(q) > 100
