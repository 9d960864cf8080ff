"""The game as a library: states, moves and actions, notation, observations, oracles, and
bad input (each raises ply's message and leaves the state as it was)."""

import copy
import pickle

import numpy as np
import pytest

import ply


def test_first_lines_of_a_notebook():
    game = ply.Game("connect4")
    state = game.new_state()
    state.play("4").play("4")
    assert state.legal_moves() == ["1", "2", "3", "4", "5", "6", "7"]
    assert state.legal_actions() == [0, 1, 2, 3, 4, 5, 6]
    assert state.to_move == 0 and not state.is_terminal()
    assert "X" in str(state) and "O" in str(state)
    solution = state.solve(movetime=30)
    assert solution.value == 1 and solution.exact and solution.best is not None


def test_every_game_plays_to_the_end():
    for name in ply.GAMES:
        state = ply.Game(name).new_state()
        for seed in range(3000):
            if not state.play_random(seed):
                break
        if name == "teeko" and not state.is_terminal():
            continue  # Teeko's move phase can go on forever
        if name == "chess" and not state.is_terminal():
            # play_random stops at chess_v6's end, a draw that could be claimed
            assert state.env_outcome() == "draw" and state.legal_actions()
            continue
        assert state.is_terminal() and state.env_outcome() == state.outcome(), name
        assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])
        assert state.legal_actions() == [] and state.legal_moves() == []
        assert state.current_player() == -4


def test_actions_and_moves_agree():
    for name in ply.GAMES:
        state = ply.Game(name).new_state()
        for _ in range(6):
            if state.is_terminal():
                break
            for a in state.legal_actions():
                assert state.move_to_action(state.action_to_move(a)) == a
            state.apply_action(state.legal_actions()[-1])


def test_position_text_round_trip_and_clone():
    state = ply.Game("chess").new_state()
    state.play("e2e4").play("c7c5")
    fen = state.fen()
    other = ply.Game("chess").new_state(fen)
    assert other.fen() == fen and other.legal_moves() == state.legal_moves()
    twin = state.clone()
    twin.play("g1f3")
    assert state.fen() == fen and twin.fen() != fen
    assert copy.deepcopy(state).fen() == fen


def test_tictactoe_returns_and_winner():
    state = ply.Game("tictactoe").new_state()
    for m in ["a1", "b1", "a2", "b2", "a3"]:
        state.play(m)
    assert state.is_terminal() and state.outcome() == "p1win" and state.winner == 0
    assert state.returns() == [1.0, -1.0]
    assert state.ending() == "three in a row"


def test_ending_names_the_rule_as_the_referee_does():
    """`ending()` is None while the game goes on and names the rule that ended it."""
    state = ply.Game("chess").new_state()
    assert state.ending() is None
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"]:
        state.play(m)
    assert state.outcome() == "p2win" and state.ending() == "checkmate"
    stalemate = ply.Game("chess").new_state("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert stalemate.outcome() == "draw" and stalemate.ending() == "stalemate"
    nim = ply.Game("nim").new_state()
    while not nim.is_terminal():
        nim.apply_action(nim.legal_actions()[-1])
    assert nim.ending() in ("taking the last object", "the other side taking the last object")


def test_observation_tensors():
    state = ply.Game("connect4").new_state()
    state.play("1")
    obs = state.observation(0)
    assert obs.shape == (6, 7, 2) and obs.dtype == np.int8
    assert obs[5, 0, 0] == 1 and obs.sum() == 1  # the first player's disc, bottom left
    assert state.observation(1)[5, 0, 1] == 1
    chess = ply.Game("chess").new_state()
    assert chess.observation().shape == (8, 8, 111) and chess.observation().dtype == bool
    out = np.zeros((6, 7, 2), dtype=np.int8)
    state.observation_into(0, out)
    assert np.array_equal(out, obs)


def test_parameters():
    assert ply.Game("connect4", width=8, height=7).num_actions == 8
    assert ply.Game("nim", heaps=[3, 4, 5], max=5).params == "heaps=3,4,5 max=5 misere=false"
    assert "advanced=true" in ply.Game("teeko", advanced=True).params


def test_parameters_are_declared_once_in_rust():
    specs = {p["key"]: p for p in ply.parameters("connect4")}
    assert specs["width"]["type"] == "int" and specs["width"]["default"] == 7
    assert specs["width"]["min"] <= 7 <= specs["width"]["max"]
    nim = {p["key"]: p for p in ply.parameters("nim")}
    assert nim["heaps"]["type"] == "list[int]" and nim["misere"]["type"] == "bool"
    assert ply.Game("nim", heaps=5).params == "length=5 max=3 misere=false"  # one heap
    with pytest.raises(ply.PlyError, match="unknown game"):
        ply.parameters("go")


def test_oracles():
    ttt = ply.Game("tictactoe").new_state()
    assert ttt.solve().value == 0
    values = ttt.move_values()
    assert set(values.values()) == {0} and len(values) == 9
    ttt.play("a1").play("b1")
    assert ttt.move_values(actions=True)  # keyed by action
    assert ttt.solve().value == 1
    nim = ply.Game("nim", heaps=[3, 4, 5], max=5).new_state()
    values = nim.move_values()
    assert [m for m, v in values.items() if v == 1] == ["1:2"]  # 3 xor 4 xor 5 = 2
    result = ply.Game("chess").new_state().search(depth=4)
    assert result.best in ply.Game("chess").new_state().legal_moves() and result.depth == 4
    mate = ply.Game("chess").new_state("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").search(depth=3)
    assert mate.best == "a1a8" and mate.score == "mate 1"
    assert ply.Game("chess").new_state().search(nodes=500).nodes <= 500


def test_solve_within_a_budget_may_give_up():
    state = ply.Game("connect4", width=7, height=6).new_state()
    state.play("1")
    result = state.solve(nodes=10)
    assert result is None or result.exact is not None


BAD_GAMES = [
    (lambda: ply.Game("go"), ply.PlyError, "unknown game 'go'"),
    (lambda: ply.Game("connect4", depth=3), ply.PlyError, "unknown parameter 'depth'"),
    (lambda: ply.Game("connect4", width=99), ply.PlyError, "width=99"),
    (lambda: ply.Game("connect4", width=2.5), TypeError, "float"),
    (lambda: ply.Game("nim", heaps=[1, "x"]), TypeError, "list of ints"),
    (lambda: ply.Game("connect4", width=True), TypeError, "expected an int"),
    (lambda: ply.Game("teeko", advanced="yes"), TypeError, "expected a bool"),
    (lambda: ply.Game("nim", heaps=[0, 3]), ply.PlyError, "heaps=0,3"),
    (lambda: ply.Game("chess").new_state("not a fen"), ply.PlyError, ""),
    (lambda: ply.Game("chess").new_state().solve(), ply.PlyError, "no solver for chess"),
    (lambda: ply.Game("tictactoe").new_state().search(depth=0), ValueError, "at least 1"),
    (lambda: ply.Game("tictactoe").new_state().search(movetime=-1), ValueError, "movetime"),
    (lambda: ply.Game("tictactoe").new_state().observation(2), ValueError, "player 2"),
]


@pytest.mark.parametrize("call, error, text", BAD_GAMES)
def test_bad_input_raises(call, error, text):
    with pytest.raises(error, match=text):
        call()


def test_bad_moves_leave_the_state_unchanged():
    state = ply.Game("connect4").new_state()
    state.play("4")
    before = (state.fen(), state.legal_actions())
    for bad, error in [
        ("9", ply.IllegalMoveError),
        ("x", ply.IllegalMoveError),
        (7, ply.IllegalMoveError),
        (-1, ply.IllegalMoveError),
        (2**70, ply.IllegalMoveError),
        (3.0, TypeError),
        (None, TypeError),
        (True, TypeError),
    ]:
        with pytest.raises(error):
            state.play(bad)
        assert (state.fen(), state.legal_actions()) == before
    with pytest.raises(ply.IllegalMoveError):
        state.apply_action(12)
    with pytest.raises(ply.PlyError):
        state.set_fen("......./zz x")
    assert (state.fen(), state.legal_actions()) == before
    assert issubclass(ply.IllegalMoveError, ply.PlyError) and issubclass(ply.PlyError, ValueError)


def test_no_move_after_the_end():
    state = ply.Game("tictactoe").new_state()
    for m in ["a1", "b1", "a2", "b2", "a3"]:
        state.play(m)
    fen = state.fen()
    with pytest.raises(ply.IllegalMoveError, match="over"):
        state.play("c3")
    with pytest.raises(ply.IllegalMoveError, match="over"):
        state.apply_action(8)
    assert state.fen() == fen


def test_chess_threefold_ends_the_game_as_the_engine_does():
    """protocol.md, chess, "Game end": a threefold repetition ends the game: no legal move,
    moves refused, a draw, and no best move from the search."""
    state = ply.Game("chess").new_state()
    shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"]
    for m in shuffle[:3] + [shuffle[3]] + shuffle[:3]:
        state.play(m)
    # The start position has occurred twice; the next move repeats it a third time.
    assert not state.is_terminal() and "f6g8" in state.legal_moves()
    state.play("f6g8")
    fen = state.fen()
    assert state.is_terminal() and state.outcome() == "draw" and state.returns() == [0.0, 0.0]
    assert state.ending() == "threefold repetition"
    assert state.legal_moves() == [] and state.legal_actions() == []
    with pytest.raises(ply.IllegalMoveError, match="over"):
        state.play("e2e4")
    with pytest.raises(ply.IllegalMoveError, match="over"):
        state.move_to_action("e2e4")
    assert state.fen() == fen
    result = state.search(depth=2)
    assert result.best is None and result.score == "cp 0" and result.depth == 0
    assert state.solve().value == 0


def test_wrong_arrays_raise():
    state = ply.Game("connect4").new_state()
    for bad, error in [
        (np.zeros((6, 7), dtype=np.int8), ValueError),
        (np.zeros((6, 7, 2), dtype=np.float32), TypeError),
        (np.zeros((6, 7, 2), dtype=np.int8)[::-1], ValueError),
        ([0] * 84, TypeError),
    ]:
        with pytest.raises(error):
            state.observation_into(0, bad)
    frozen = np.zeros((6, 7, 2), dtype=np.int8)
    frozen.setflags(write=False)
    with pytest.raises(ValueError, match="read-only"):
        state.observation_into(0, frozen)


def test_states_do_not_pickle_silently():
    state = ply.Game("tictactoe").new_state()
    with pytest.raises(TypeError):
        pickle.dumps(state)
