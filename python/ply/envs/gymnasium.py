"""Gymnasium single-agent environments with the opponent inside:
``gymnasium.make("ply/ConnectFour-v0", opponent="perfect")``.

Registered on ``import ply`` (when Gymnasium is installed): ``ply/TicTacToe-v0``,
``ply/ConnectFour-v0``, ``ply/Nim-v0``, ``ply/Teeko-v0``, ``ply/Chess-v0``. Keyword arguments:
``opponent`` (``"random"``, the default, ``"perfect"`` where ply has a solver,
``"search:depth=4"``, ``"search:nodes=N"``, ``"search:movetime=MS"``, ``"elo:1600"`` for
chess), ``player`` (the agent's side: 0, 1, or -1 for a random side each episode),
``illegal`` (``"lose"``: an illegal action ends the episode with -1, as PettingZoo's envs do,
which Gymnasium's env checker needs since it steps random actions; ``"raise"``: an
``IllegalMoveError``), ``max_moves``, and the game's own parameters (``width=8``).

The observation is ``{"observation", "action_mask"}`` as in ply's PettingZoo envs, seen from
the agent's side; ``info["action_mask"]`` repeats the mask. Reward +1 a win, -1 a loss,
0 otherwise.
"""

from __future__ import annotations

import gymnasium
import numpy as np

import ply
from ply.envs.vector import VectorEnv

IDS = {
    "ply/TicTacToe-v0": "tictactoe",
    "ply/ConnectFour-v0": "connect4",
    "ply/Nim-v0": "nim",
    "ply/Teeko-v0": "teeko",
    "ply/Chess-v0": "chess",
    "ply/Checkers-v0": "checkers",
}


class PlyEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(
        self,
        game: str = "connect4",
        opponent: str = "random",
        player: int = 0,
        illegal: str = "lose",
        max_moves: int | None = None,
        render_mode: str | None = None,
        **params,
    ):
        if illegal not in ("lose", "raise"):
            raise ply.PlyError(f"illegal={illegal!r}: expected 'lose' or 'raise'")
        if render_mode not in (None, "ansi", "human"):
            raise ply.PlyError(f"render_mode {render_mode!r}: expected None, 'ansi' or 'human'")
        self._vec = VectorEnv(game, 1, opponent=opponent, player=player, max_moves=max_moves, **params)
        self.observation_space = self._vec.single_observation_space
        self.action_space = self._vec.single_action_space
        self.render_mode = render_mode
        self.illegal = illegal
        self._actions = np.zeros(1, dtype=np.int64)
        self._mask = None
        self._done = True

    def _one(self, obs):
        o = {"observation": obs["observation"][0], "action_mask": obs["action_mask"][0]}
        self._mask = o["action_mask"]
        return o

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(2**63))
        obs, _ = self._vec.reset(seed=seed)
        self._done = False
        o = self._one(obs)
        return o, {"action_mask": o["action_mask"].copy()}

    def step(self, action):
        if self._done:
            raise ply.PlyError("step() after the episode ended: call reset()")
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            if not (isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer)):
                raise TypeError(f"action {action!r}: expected an int")
        a = int(action)
        if not (0 <= a < self.action_space.n and self._mask[a]):
            if self.illegal == "raise":
                raise ply.IllegalMoveError(f"illegal action {a} in {self.state.fen()}")
            self._done = True
            o = {"observation": self._vec._obs[0].copy(), "action_mask": np.zeros_like(self._mask)}
            return o, -1.0, True, False, {"action_mask": o["action_mask"].copy(), "illegal": True}
        self._actions[0] = a
        obs, rew, term, trunc, _ = self._vec.step(self._actions)
        self._done = bool(term[0] or trunc[0])
        o = self._one(obs)
        if self.render_mode == "human":
            print(self.state)
        return o, float(rew[0]), bool(term[0]), bool(trunc[0]), {"action_mask": o["action_mask"].copy()}

    @property
    def state(self) -> ply.State:
        """A copy of the position, with every oracle."""
        return self._vec.state(0)

    def render(self):
        if self.render_mode == "ansi":
            return str(self.state)
        if self.render_mode == "human":
            print(self.state)
        return None


def register_envs():
    """Registers ply's environments with Gymnasium (done on ``import ply``)."""
    for env_id, game in IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="ply.envs.gymnasium:PlyEnv", kwargs={"game": game})


register_envs()
