"""ply's PettingZoo environments: PettingZoo's own conformance tests, and for tic-tac-toe,
Connect Four and chess, identity with tictactoe_v3, connect_four_v3 and chess_v6 on the same
action sequences (everything last() returns, agents, selection)."""

import random
import warnings

import numpy as np
import pytest

import ply
from ply.envs import pettingzoo as ppz

pz_classic = pytest.importorskip("pettingzoo.classic")
api = pytest.importorskip("pettingzoo.test")

GAMES = list(ply.GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_api_and_seed(game, strict_warnings):
    api.api_test(ppz.env(game), num_cycles=300)
    api.seed_test(lambda: ppz.env(game), num_cycles=50)


@pytest.mark.parametrize("params", [{"width": 5, "height": 4}, {"heaps": [2, 3], "max": 3}])
def test_api_with_parameters(params, strict_warnings):
    game = "connect4" if "width" in params else "nim"
    api.api_test(ppz.env(game, **params), num_cycles=100)


def same(a, b, where):
    """Asserts that two values of last() are equal, arrays by dtype, shape and content."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), where
        for k in a:
            same(a[k], b[k], f"{where}[{k}]")
    elif isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray), where
        assert a.dtype == b.dtype and a.shape == b.shape, f"{where}: {a.dtype}{a.shape} vs {b.dtype}{b.shape}"
        assert np.array_equal(a, b), f"{where}: differ at {np.argwhere(a != b)[:5].tolist()}"
    elif isinstance(a, (tuple, list)):
        assert isinstance(b, (tuple, list)) and len(a) == len(b), where
        for k, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{where}[{k}]")
    else:
        assert a == b, f"{where}: {a!r} vs {b!r}"


def play_both(ours, theirs, rng, illegal_rate):
    ours.reset(seed=1)
    theirs.reset(seed=1)
    steps = 0
    while True:
        assert ours.agents == theirs.agents, steps
        if not theirs.agents:
            break
        assert ours.agent_selection == theirs.agent_selection, steps
        a, b = ours.last(), theirs.last()
        for k, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"step {steps} last()[{k}]")
        for agent in theirs.agents:
            same(ours.observe(agent), theirs.observe(agent), f"step {steps} observe({agent})")
            assert ours.rewards[agent] == theirs.rewards[agent]
        obs, _, term, trunc, _ = b
        if term or trunc:
            action = None
        elif rng.random() < illegal_rate:
            action = rng.randrange(ours.action_space(ours.agent_selection).n)
        else:
            action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        ours.step(action)
        theirs.step(action)
        steps += 1
    return steps


@pytest.mark.parametrize(
    "game, module, games, illegal_rate",
    [("tictactoe", "tictactoe_v3", 300, 0.05), ("connect4", "connect_four_v3", 150, 0.02), ("chess", "chess_v6", 6, 0.0)],
)
def test_identical_to_pettingzoo(game, module, games, illegal_rate):
    theirs_module = getattr(pz_classic, module)
    rng = random.Random(7)
    total = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # both warn on illegal moves
        for _ in range(games):
            total += play_both(ppz.env(game), theirs_module.env(), rng, illegal_rate)
    assert total > games * 5


def test_chess_draw_claims_end_as_in_chess_v6():
    """A knight shuffle: chess_v6 ends the game when threefold repetition can be claimed."""
    theirs = pz_classic.chess_v6.env()
    ours = ppz.env("chess")
    import chess

    board = chess.Board()
    moves = ["g1f3", "g8f6", "f3g1", "f6g8"] * 3
    ours.reset()
    theirs.reset()
    from pettingzoo.classic.chess import chess_utils

    for i, uci in enumerate(moves):
        mover = 0 if board.turn == chess.WHITE else 1
        mv = chess.Move.from_uci(uci)
        action = chess_utils.moves_to_actions.get(
            (chess_utils.mirror_move(mv) if mover else mv).uci()
        )
        if action is None:
            chess_utils.legal_moves(board.mirror() if mover else board)
            action = chess_utils.moves_to_actions[(chess_utils.mirror_move(mv) if mover else mv).uci()]
        assert not theirs.terminations[theirs.agent_selection]
        ours.step(action)
        theirs.step(action)
        board.push(mv)
        same(ours.last(), theirs.last(), f"move {i}")
        if theirs.terminations[theirs.agent_selection]:
            break
    assert ours.terminations[ours.agent_selection]
    assert i < len(moves) - 1, "the claimable repetition ended the game early"


def test_bad_input():
    env = ppz.env("connect4")
    with pytest.raises(ply.PlyError, match="reset"):
        env.step(0)
    env.reset(seed=0)
    for bad, error in [(7, ply.PlyError), (-1, ply.PlyError), (1.5, ply.PlyError), (None, ply.PlyError), ("3", ply.PlyError)]:
        with pytest.raises(error):
            env.step(bad)
        assert env.agent_selection == "player_0" and env.state_.fen() == ply.Game("connect4").new_state().fen()
    with pytest.raises(ply.PlyError):
        ppz.env("connect4", width=100)
    with pytest.raises(ply.PlyError):
        ppz.env("go")
    with pytest.raises(ply.PlyError):
        ppz.env("teeko", max_moves=0)
    # after the end, only None is a valid action, as in PettingZoo
    env = ppz.env("tictactoe")
    env.reset()
    for a in [0, 3, 1, 4, 2]:
        env.step(a)
    assert env.terminations["player_1"]
    with pytest.raises(ValueError):
        env.step(5)
