"""ply from Python: two-player perfect-information games with rules in Rust, exact solvers,
and learning environments (PettingZoo, Gymnasium, and a batched environment in Rust).

    >>> import ply
    >>> game = ply.Game("connect4")
    >>> state = game.new_state()
    >>> state.play("4").play("4")
    >>> state.solve()

See docs/python.md in the repository for the whole guide.
"""

from ply._ply import (
    GAMES,
    Game,
    IllegalMoveError,
    PlyError,
    SearchResult,
    Solution,
    State,
    parameters,
)

__all__ = [
    "GAMES",
    "Game",
    "IllegalMoveError",
    "PlyError",
    "SearchResult",
    "Solution",
    "State",
    "parameters",
]

try:  # Registers the Gymnasium environments (ply/ConnectFour-v0, ...) when Gymnasium is there.
    import gymnasium as _gymnasium  # noqa: F401
except ImportError:  # pragma: no cover - Gymnasium is optional
    pass
else:
    from ply.envs import gymnasium as _gymnasium_envs  # noqa: F401
