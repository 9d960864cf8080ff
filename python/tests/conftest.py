"""Shared set-up of ply's Python tests: PettingZoo's classic environments are imported once
here, before warnings become errors (importing them warns of a deprecated API)."""

import warnings

import pytest

try:
    from pettingzoo.classic import chess_v6, connect_four_v3, tictactoe_v3  # noqa: F401
except ImportError:  # pragma: no cover - pettingzoo[classic] needs pygame
    pass

# PettingZoo's api_test flags three things that its own classic environments do too and that
# it exempts by name (its lists env_obs_dicts, env_obs_space and env_all_zeros_obs): a
# dict observation {"observation", "action_mask"}, and an all-zero observation of an empty
# start position. Every other warning is an error.
API_TEST_EXEMPT = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
    "Observation numpy array is all zeros",
)


@pytest.fixture
def strict_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for message in API_TEST_EXEMPT:
            warnings.filterwarnings("ignore", message=message)
        yield
