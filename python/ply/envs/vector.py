"""A batched environment in Rust: ``VectorEnv("connect4", num_envs=4096, threads=2)``.

Gymnasium's vector API (``gymnasium.vector.VectorEnv``, autoreset mode NEXT_STEP: the step
after a game ended resets it and ignores its action). Observations are a dict of arrays,
``{"observation": (N, ...) int8, "action_mask": (N, A) int8}``; rewards float32,
terminations and truncations bool. Without ``opponent`` the agent plays both sides (one move
per step, rewarded for the side that moved, observed by the side to move); with one
(``"random"``, ``"perfect"``, ``"search:depth=4"``, ``"elo:1600"`` for chess) the agent plays
``player`` (0, 1, or -1 for a random side each game) and the opponent replies inside the step.
All games step in Rust, on ``threads`` threads, with the GIL released.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector import VectorEnv as _GymVectorEnv

import ply
from ply._ply import VectorCore


class VectorEnv(_GymVectorEnv):
    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        game: str = "connect4",
        num_envs: int = 1,
        opponent: str | None = None,
        player: int = 0,
        threads: int = 1,
        max_moves: int | None = None,
        **params,
    ):
        if max_moves is None and game == "teeko":
            max_moves = 200
        self._core = VectorCore(game, num_envs, opponent, player, threads, max_moves, **params)
        n, actions, shape = self._core.dims()
        self.game = game
        self.num_envs = n
        obs_dtype = bool if game == "chess" else np.int8
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 1, shape=tuple(shape), dtype=obs_dtype),
                "action_mask": spaces.Box(0, 1, shape=(actions,), dtype=np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 1, shape=(n, *shape), dtype=obs_dtype),
                "action_mask": spaces.Box(0, 1, shape=(n, actions), dtype=np.int8),
            }
        )
        self.action_space = spaces.MultiDiscrete(np.full(n, actions))
        self._obs = np.zeros((n, *shape), dtype=obs_dtype)
        self._mask = np.zeros((n, actions), dtype=np.int8)
        self._rew = np.zeros(n, dtype=np.float32)
        self._term = np.zeros(n, dtype=bool)
        self._trunc = np.zeros(n, dtype=bool)
        self._actions = np.zeros(n, dtype=np.int64)

    def _out(self):
        # Fresh arrays each call, as Gymnasium's vector envs return: the caller may keep them.
        return (
            {"observation": self._obs.copy(), "action_mask": self._mask.copy()},
            self._rew.copy(),
            self._term.copy(),
            self._trunc.copy(),
        )

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
            raise ply.PlyError(f"seed {seed!r}: expected a non-negative int")
        self._core.reset(seed, self._obs, self._mask, self._rew, self._term, self._trunc)
        obs, *_ = self._out()
        return obs, {}

    def step(self, actions):
        a = np.asarray(actions)
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions: expected shape ({self.num_envs},), got {a.shape}")
        if not np.issubdtype(a.dtype, np.integer):
            raise TypeError(f"actions: expected integers, got {a.dtype}")
        np.copyto(self._actions, a, casting="unsafe")
        self._core.step(self._actions, self._obs, self._mask, self._rew, self._term, self._trunc)
        obs, rew, term, trunc = self._out()
        return obs, rew, term, trunc, {}

    def step_into(self, actions: np.ndarray):
        """``step`` without copies: ``actions`` an int64 array; returns the env's own arrays
        (observations, masks, rewards, terminations, truncations), overwritten by the next
        call. For loops that consume each step before the next."""
        self._core.step(actions, self._obs, self._mask, self._rew, self._term, self._trunc)
        return self._obs, self._mask, self._rew, self._term, self._trunc

    def sample_actions(self, out: np.ndarray | None = None) -> np.ndarray:
        """A uniformly random legal action for each game (int64), drawn in Rust from each
        game's own seeded generator."""
        if out is None:
            out = np.zeros(self.num_envs, dtype=np.int64)
        self._core.sample(out)
        return out

    def state(self, i: int) -> ply.State:
        """A copy of game ``i``'s position, with every oracle."""
        return self._core.state(i)

    @property
    def agent_players(self) -> list[int]:
        """The agent's side in each game."""
        return self._core.agents()
