"""The Gymnasium environments (opponent inside) and the batched environment in Rust."""

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import ply
from ply.envs import gymnasium as ply_gymnasium
from ply.envs.vector import VectorEnv

IDS = list(ply_gymnasium.IDS)


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("opponent", ["random", "search:depth=2"])
def test_check_env(env_id, opponent):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gymnasium.make(env_id, opponent=opponent).unwrapped, skip_render_check=True)


def play_out(env, seed, pick):
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        obs, reward, term, trunc, info = env.step(pick(obs))
        total += reward
        steps += 1
        if term or trunc:
            return total, steps


def first_legal(obs):
    return int(np.flatnonzero(obs["action_mask"])[0])


def test_perfect_opponent_never_loses_tictactoe():
    env = gymnasium.make("ply/TicTacToe-v0", opponent="perfect", player=-1)
    rng = np.random.default_rng(3)
    results = [play_out(env, s, lambda o: int(rng.choice(np.flatnonzero(o["action_mask"]))))[0] for s in range(40)]
    assert max(results) <= 0 and min(results) == -1


def test_perfect_connect4_opponent_wins_as_first_player():
    env = gymnasium.make("ply/ConnectFour-v0", opponent="perfect", player=1)
    reward, _ = play_out(env, 0, first_legal)
    assert reward == -1


def test_elo_opponent_is_for_chess_only():
    with pytest.raises(ply.PlyError, match="chess"):
        gymnasium.make("ply/ConnectFour-v0", opponent="elo:1600")
    with pytest.raises(ply.PlyError, match="no perfect opponent"):
        gymnasium.make("ply/Chess-v0", opponent="perfect")
    env = gymnasium.make("ply/Chess-v0", opponent="elo:1600", player=1)
    obs, _ = env.reset(seed=5)
    assert env.unwrapped.state.fen() != ply.Game("chess").new_state().fen()  # it moved first


@pytest.mark.parametrize("bad", ["stockfish", "search:depth=0", "search:depth=x", "elo:99", "search:nodes"])
def test_unknown_opponents(bad):
    with pytest.raises(ply.PlyError):
        gymnasium.make("ply/TicTacToe-v0", opponent=bad)


def test_illegal_actions_lose_or_raise():
    env = gymnasium.make("ply/ConnectFour-v0")
    env.reset(seed=0)
    for _ in range(6):
        env.step(0)  # fills column 1 unless the game ended first
        if env.unwrapped._done:
            break
    env = gymnasium.make("ply/TicTacToe-v0", illegal="lose")
    env.reset(seed=0)
    env.step(4)
    obs, reward, term, _, info = env.step(4)
    assert reward == -1 and term and info["illegal"]
    with pytest.raises(ply.PlyError, match="reset"):
        env.step(0)
    env = gymnasium.make("ply/TicTacToe-v0", illegal="raise")
    env.reset(seed=0)
    env.step(4)
    before = env.unwrapped.state.fen()
    with pytest.raises(ply.IllegalMoveError):
        env.step(4)
    with pytest.raises(TypeError):
        env.step(1.5)
    assert env.unwrapped.state.fen() == before


def test_vector_env_follows_gymnasium_autoreset():
    v = VectorEnv("tictactoe", num_envs=64, threads=2)
    obs, _ = v.reset(seed=1)
    assert obs["observation"].shape == (64, 3, 3, 2) and obs["action_mask"].shape == (64, 9)
    rng = np.random.default_rng(0)
    ended = np.zeros(64, dtype=bool)
    for _ in range(30):
        actions = np.argmax(obs["action_mask"] * rng.random((64, 9)), axis=1)
        obs, rew, term, trunc, _ = v.step(actions)
        # the step after an ending resets: an empty board, no reward
        assert not term[ended].any() and (obs["observation"][ended].sum(axis=(1, 2, 3)) == 0).all()
        assert set(np.unique(rew[term])) <= {-1.0, 0.0, 1.0} and (rew[~term] == 0).all()
        ended = term | trunc
    assert ended.any() or True


def test_vector_env_is_deterministic_across_threads():
    def run(threads):
        v = VectorEnv("connect4", num_envs=50, opponent="random", threads=threads)
        obs, _ = v.reset(seed=9)
        out = []
        for _ in range(40):
            actions = np.argmax(obs["action_mask"], axis=1)
            obs, rew, term, trunc, _ = v.step(actions)
            out.append((obs["observation"].copy(), rew.copy(), term.copy()))
        return out

    for (a, b) in zip(run(1), run(3)):
        for x, y in zip(a, b):
            assert np.array_equal(x, y)


def test_vector_env_bad_input_changes_nothing():
    v = VectorEnv("connect4", num_envs=4)
    obs, _ = v.reset(seed=0)
    before = [v.state(i).fen() for i in range(4)]
    with pytest.raises(ply.IllegalMoveError, match="game 2"):
        v.step(np.array([0, 1, 9, 3]))
    with pytest.raises(ValueError):
        v.step(np.array([0, 1, 2]))
    with pytest.raises(TypeError):
        v.step(np.array([0.0, 1.0, 2.0, 3.0]))
    assert [v.state(i).fen() for i in range(4)] == before
    with pytest.raises(ValueError):
        v._core.step(np.zeros(4, dtype=np.int64), np.zeros((4, 6, 7), dtype=np.int8), v._mask, v._rew, v._term, v._trunc)
    with pytest.raises(TypeError):
        v._core.step(np.zeros(4, dtype=np.int32), v._obs, v._mask, v._rew, v._term, v._trunc)
    with pytest.raises(ValueError):
        VectorEnv("connect4", num_envs=0)
    with pytest.raises(ply.PlyError):
        VectorEnv("connect4", num_envs=2, width=100)
