"""PettingZoo AEC environments for every ply game: ``ply.envs.pettingzoo.env("connect4")``.

For ``tictactoe``, ``connect4`` and ``chess`` the observations, action numbering, masks,
rewards, agent names and the end of the game are those of PettingZoo's ``tictactoe_v3``,
``connect_four_v3`` and ``chess_v6`` (an agent written for those runs unchanged); ``nim`` and
``teeko`` are encoded in the same style (docs/python.md). As with PettingZoo's ``env()``, an
illegal action ends the game with -1 for the agent that made it and 0 for the other, and
stepping out of turn or before ``reset()`` raises.

The rules, the observations and the masks are computed in Rust; this module only keeps
PettingZoo's bookkeeping (agents, rewards, terminations).
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger

import ply

_RESULT = {"p1win": (1, -1), "p2win": (-1, 1), "draw": (0, 0)}


def env(game: str = "connect4", render_mode: str | None = None, max_moves: int | None = None, **params):
    """An AEC environment of ``game`` with ply's game parameters (``width=8``, ...).

    ``max_moves`` truncates a game after that many moves (Teeko has no end of its own: it
    defaults to 200 there, and to no limit for the other games).
    """
    return PlyAECEnv(game, render_mode=render_mode, max_moves=max_moves, **params)


raw_env = env


class PlyAECEnv(AECEnv, EzPickle):
    """One game of ply as a PettingZoo AEC environment."""

    def __init__(self, game: str = "connect4", render_mode: str | None = None, max_moves: int | None = None, **params):
        EzPickle.__init__(self, game, render_mode, max_moves, **params)
        super().__init__()
        self.game = ply.Game(game, **params)
        if render_mode not in (None, "human", "ansi"):
            raise ply.PlyError(f"render_mode {render_mode!r}: expected None, 'human' or 'ansi'")
        if max_moves is None and game == "teeko":
            max_moves = 200
        if max_moves is not None and (isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 1):
            raise ply.PlyError(f"max_moves {max_moves!r}: expected a positive integer")
        self.max_moves = max_moves
        self.render_mode = render_mode
        self.metadata = {
            "render_modes": ["human", "ansi"],
            "name": f"ply_{game}_v0",
            "is_parallelizable": False,
            "render_fps": 1,
        }
        self.possible_agents = list(self.game.agents)
        self.agents = self.possible_agents[:]
        n = self.game.num_actions
        obs_dtype = bool if game == "chess" else np.int8
        high = 1
        space = spaces.Dict(
            {
                "observation": spaces.Box(low=0, high=high, shape=tuple(self.game.observation_shape), dtype=obs_dtype),
                "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        self._chess = game == "chess"
        self._n = n
        self._state = None
        self._illegal_end = False

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    @property
    def state_(self) -> ply.State:
        """The ply state under the environment (a position with every oracle)."""
        return self._state

    def observe(self, agent):
        s = self._state
        if s is None:
            raise ply.PlyError("observe() before reset()")
        i = self._index[agent]
        obs = s.observation(i)
        if agent == self.agent_selection:
            mask = s.env_action_mask()
        else:
            mask = np.zeros(self._n, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def reset(self, seed=None, options=None):
        self._state = self.game.new_state()
        self._moves = 0
        self._illegal_end = False
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._skip_agent_selection = None

    def step(self, action):
        if self._state is None:
            raise ply.PlyError("step() before reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        if action is None or isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise ply.PlyError(f"action {action!r}: expected an int in 0..{self._n} while the game goes on")
        if not 0 <= action < self._n:
            raise ply.PlyError(f"action {action} is out of range (0..{self._n})")
        s = self._state
        if action not in s.legal_actions() or s.env_outcome() is not None:
            return self._illegal(agent)
        s.apply_action(int(action))
        self._moves += 1
        result = s.env_outcome()
        if result is not None:
            r = _RESULT[result]
            for a in self.agents:
                self.rewards[a] = r[self._index[a]]
                self.terminations[a] = True
                if self._chess:
                    self.infos[a] = {"legal_moves": []}
        elif self.max_moves is not None and self._moves >= self.max_moves:
            self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self.agent_selection = self.possible_agents[1 - self._index[agent]]
        if self.render_mode == "human":
            self.render()

    def _illegal(self, agent):
        """PettingZoo's TerminateIllegalWrapper: the game ends, -1 for the mover."""
        EnvLogger.warn_on_illegal_move()
        self._cumulative_rewards[agent] = 0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.truncations, 0)
        self.rewards[agent] = float(-1)
        self._accumulate_rewards()
        self._deads_step_first()
        self._illegal_end = True

    def render(self):
        if self.render_mode is None:
            EnvLogger.warn_on_illegal_move  # noqa: B018 - PettingZoo warns; nothing to draw
            return None
        text = str(self._state) if self._state is not None else ""
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass
