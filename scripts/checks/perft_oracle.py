#!/usr/bin/env python3
"""Independent, brute-force perft counters for the games ply plays.

This file is an *oracle*: slow, plain, self-contained Python (standard library
only) written without looking at ply's Rust code, so that ply's optimised
move generators can be cross-checked against it.  Boards are plain strings or
tuples; every rule is written the obvious way (scan every line / every goal,
try every cell).

    perft(pos, d) = number of move sequences of exactly d plies from pos.

A position where the game is over (someone has won, or there is no move) has
no moves, so a game that ends before ply d contributes nothing; a game that
ends exactly at ply d counts as one leaf.

Two counting procedures are used, and checked against each other where both
are affordable:

  * perft_dfs:    recursive, memoised on (position, depth);
  * perft_layers: forward, layer by layer: a dict position -> number of move
                  sequences reaching it; perft(d) = sum of the counts in layer d.

Teeko from the empty board cannot be enumerated position by position in
Python past ~6 plies (16.8M positions after 7 drops, 75.7M after 8), so for
d7..d10 it is counted in two further, independent ways (see the Teeko section):
a closed form / inclusion-exclusion count, and a direct enumeration of every
position after the 8th drop.  Both are checked against the brute force on many
sampled positions.

Usage:
    python3 scripts/checks/perft_oracle.py                  # everything, < ~2 min
    python3 scripts/checks/perft_oracle.py --game teeko     # one game
    python3 scripts/checks/perft_oracle.py --deep           # deeper (several minutes)
Games: tictactoe, connect4, nim, teeko.
"""

from __future__ import annotations

import argparse
import itertools
import math
import multiprocessing
import random
import sys
import time

FAILURES: list[str] = []


def check(cond: bool, what: str) -> None:
    """Record a sanity check; failures are listed at the end (exit status 1)."""
    if not cond:
        FAILURES.append(what)
        print(f"  !! CHECK FAILED: {what}")


def print_table(game: str, rows: list[tuple[int, int]], known: dict[int, int] | None = None) -> None:
    """rows: (depth, nodes).  known: depth -> expected value (marked ok / MISMATCH)."""
    print(f"  {'game':<34} {'depth':>5} {'nodes':>16}")
    for d, n in rows:
        mark = ""
        if known and d in known:
            ok = known[d] == n
            mark = "  ok (known)" if ok else f"  MISMATCH, known {known[d]}"
            check(ok, f"{game} perft({d}) = {n}, known {known[d]}")
        print(f"  {game:<34} {d:>5} {n:>16}{mark}")


# ---------------------------------------------------------------------------
# Generic perft procedures.  A game is given as two functions:
#   legal_moves(pos) -> list of moves ([] when the game is over)
#   play(pos, move)  -> new position (hashable)
# ---------------------------------------------------------------------------

def perft_dfs(pos, depth: int, legal_moves, play, memo: dict | None = None) -> int:
    if memo is None:
        memo = {}

    def rec(p, d: int) -> int:
        if d == 0:
            return 1
        key = (p, d)
        hit = memo.get(key)
        if hit is not None:
            return hit
        moves = legal_moves(p)
        if d == 1:
            n = len(moves)
        else:
            n = 0
            for m in moves:
                n += rec(play(p, m), d - 1)
        memo[key] = n
        return n

    return rec(pos, depth)


def perft_layers(pos, max_depth: int, legal_moves, play) -> list[tuple[int, int]]:
    """perft(pos, d) for d = 1..max_depth by forward counting of move sequences.

    layer[k] maps each position reached after k plies to the number of move
    sequences reaching it.  perft(d) = sum(layer[d].values()); the last layer
    is never materialised: perft(max_depth) = sum over layer[max_depth-1] of
    count * number of legal moves."""
    rows = []
    layer = {pos: 1}
    for d in range(1, max_depth + 1):
        if d == max_depth:
            rows.append((d, sum(c * len(legal_moves(p)) for p, c in layer.items())))
            break
        nxt: dict = {}
        for p, c in layer.items():
            for m in legal_moves(p):
                q = play(p, m)
                nxt[q] = nxt.get(q, 0) + c
        layer = nxt
        rows.append((d, sum(layer.values())))
    return rows


# ---------------------------------------------------------------------------
# 1. Tic-tac-toe.  Position: 9-char string, cells 0..8 row by row, '.' empty.
#    X moves first, so X is to move iff #X == #O.
# ---------------------------------------------------------------------------

TTT_LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8),   # rows
             (0, 3, 6), (1, 4, 7), (2, 5, 8),   # columns
             (0, 4, 8), (2, 4, 6)]              # diagonals


def ttt_winner(b: str) -> str | None:
    for a, c, e in TTT_LINES:
        if b[a] != "." and b[a] == b[c] == b[e]:
            return b[a]
    return None


def ttt_moves(b: str) -> list[int]:
    if ttt_winner(b) is not None:
        return []
    return [i for i in range(9) if b[i] == "."]  # board full -> [] (draw)


def ttt_play(b: str, i: int) -> str:
    side = "X" if b.count("X") == b.count("O") else "O"
    assert b[i] == "."
    return b[:i] + side + b[i + 1:]


def run_tictactoe(deep: bool) -> None:
    print("== Tic-tac-toe 3x3 (X first, 3 in a row, full board = draw)")
    known = {1: 9, 2: 72, 3: 504, 4: 3024, 5: 15120, 6: 54720, 7: 148176, 8: 200448, 9: 127872}
    start = "." * 9
    rows = perft_layers(start, 9, ttt_moves, ttt_play)
    memo: dict = {}
    for d, n in rows:
        check(perft_dfs(start, d, ttt_moves, ttt_play, memo) == n, f"tictactoe dfs == layers at d{d}")
    print_table("tictactoe", rows, known)
    check(perft_dfs(start, 10, ttt_moves, ttt_play, memo) == 0, "tictactoe perft(10) == 0")

    # Extra facts: reachable positions, terminal positions, complete games.
    seen = {start}
    frontier = [start]
    while frontier:
        nxt = []
        for p in frontier:
            for m in ttt_moves(p):
                q = ttt_play(p, m)
                if q not in seen:
                    seen.add(q)
                    nxt.append(q)
        frontier = nxt
    terminal = [p for p in seen if not ttt_moves(p)]
    games = {"X": 0, "O": 0, "draw": 0}

    def count_games(p: str) -> None:
        ms = ttt_moves(p)
        if not ms:
            games[ttt_winner(p) or "draw"] += 1
            return
        for m in ms:
            count_games(ttt_play(p, m))

    count_games(start)
    total = sum(games.values())
    print(f"  reachable positions {len(seen)}, terminal {len(terminal)}, complete games {total} "
          f"(X {games['X']}, O {games['O']}, draws {games['draw']})")
    check(len(seen) == 5478, "tictactoe: 5478 reachable positions")
    check(len(terminal) == 958, "tictactoe: 958 terminal positions")
    check((total, games["X"], games["O"], games["draw"]) == (255168, 131184, 77904, 46080),
          "tictactoe: 255168 games (131184 / 77904 / 46080)")


# ---------------------------------------------------------------------------
# 2. Connect Four 7 wide x 6 high.  Position: tuple of 7 strings, column c
#    holds its discs bottom-up ('X' first player, 'O' second).  Moves are
#    column indices 0..6 (printed elsewhere as 1..7).
# ---------------------------------------------------------------------------

C4_W, C4_H = 7, 6


def c4_make_lines() -> list[list[tuple[int, int]]]:
    lines = []
    for c in range(C4_W):
        for r in range(C4_H):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(c + t * dc, r + t * dr) for t in range(4)]
                if all(0 <= x < C4_W and 0 <= y < C4_H for x, y in cells):
                    lines.append(cells)
    return lines


C4_LINES = c4_make_lines()
assert len(C4_LINES) == 69, len(C4_LINES)  # 24 horizontal + 21 vertical + 12 + 12 diagonal


def c4_cell(pos: tuple[str, ...], c: int, r: int) -> str:
    col = pos[c]
    return col[r] if r < len(col) else "."


def c4_has_four(pos: tuple[str, ...]) -> bool:
    for line in C4_LINES:
        first = c4_cell(pos, *line[0])
        if first != "." and all(c4_cell(pos, c, r) == first for c, r in line[1:]):
            return True
    return False


def c4_moves(pos: tuple[str, ...]) -> list[int]:
    if c4_has_four(pos):
        return []
    return [c for c in range(C4_W) if len(pos[c]) < C4_H]  # board full -> [] (draw)


def c4_play(pos: tuple[str, ...], c: int) -> tuple[str, ...]:
    discs = sum(len(col) for col in pos)
    side = "X" if discs % 2 == 0 else "O"
    assert len(pos[c]) < C4_H
    return pos[:c] + (pos[c] + side,) + pos[c + 1:]


def run_connect4(deep: bool) -> None:
    print("== Connect Four 7x6 (4 in a row, first player first)")
    known = {1: 7, 2: 49, 3: 343, 4: 2401, 5: 16807, 6: 117649, 7: 823536, 8: 5673234, 9: 39394572}
    start = ("",) * C4_W
    max_d = 11 if deep else 10
    t0 = time.perf_counter()
    rows = perft_layers(start, max_d, c4_moves, c4_play)
    t1 = time.perf_counter()
    # Independent procedure on the shallower depths.
    memo: dict = {}
    for d, n in rows[:7]:
        check(perft_dfs(start, d, c4_moves, c4_play, memo) == n, f"connect4 dfs == layers at d{d}")
    print_table("connect4", rows, known)
    print(f"  ({t1 - t0:.1f}s for the layers, dfs cross-check to d7)")

    # A position with wins close by, so terminal positions matter: after the moves
    # "445566" (columns 1..7) X has three in a row on the bottom (4,5,6), O three
    # above it, and X is to move: X wins at once in column 3 or 7.
    pos = start
    for ch in "445566":
        pos = c4_play(pos, int(ch) - 1)
    rows2 = perft_layers(pos, 7, c4_moves, c4_play)
    for d, n in rows2:
        check(perft_dfs(pos, d, c4_moves, c4_play, {}) == n, f"connect4 445566 dfs == layers d{d}")
    print_table("connect4 after 445566", rows2)


# ---------------------------------------------------------------------------
# 3. Nim, the seeds' stick game.  Position: tuple of heap sizes.  A move
#    (i, t) takes t = 1..min(k, heap i) objects from heap i.  The game is over
#    when every heap is empty, under both normal and misère play (they differ
#    only in who wins, so perft is the same).
# ---------------------------------------------------------------------------

def nim_rules(k: int):
    def moves(h: tuple[int, ...]) -> list[tuple[int, int]]:
        return [(i, t) for i in range(len(h)) for t in range(1, min(k, h[i]) + 1)]

    def play(h: tuple[int, ...], m: tuple[int, int]) -> tuple[int, ...]:
        i, t = m
        assert 1 <= t <= min(k, h[i])
        return h[:i] + (h[i] - t,) + h[i + 1:]

    return moves, play


def nim_side_to_move_loses(h: tuple[int, ...], k: int, misere: bool, memo: dict) -> bool:
    """Plain minimax: True iff the side to move loses with best play."""
    key = (h, k, misere)
    if key in memo:
        return memo[key]
    moves, play = nim_rules(k)
    ms = moves(h)
    if not ms:
        # All heaps empty: the opponent took the last object.  Normal play: he
        # won, so we lose.  Misère: he lost, so we (the side to move) win.
        res = not misere
    else:
        res = all(not nim_side_to_move_loses(play(h, m), k, misere, memo) for m in ms)
    memo[key] = res
    return res


def run_nim(deep: bool) -> None:
    print("== Nim / the seeds' stick game (take 1..k from one heap; over when all heaps are empty)")
    print("   (normal and misère play have the same moves and the same end, so the same perft)")
    cases = [((10,), 3, 10), ((14,), 3, 14), ((3, 4, 5), 3, 12), ((3, 4, 5), 1000, 12), ((7,), 5, 7)]
    if deep:
        cases += [((20,), 3, 20), ((1, 2, 3, 4, 5), 3, 15), ((1, 2, 3, 4, 5), 1000, 15)]
    for heaps, k, maxd in cases:
        moves, play = nim_rules(k)
        rows = perft_layers(heaps, maxd, moves, play)
        memo: dict = {}
        for d, n in rows:
            check(perft_dfs(heaps, d, moves, play, memo) == n, f"nim {heaps} k={k} dfs == layers d{d}")
        print_table(f"nim heaps={','.join(map(str, heaps))} k={k}", rows)

    # Who loses?  Single heap N = 1..20, k = 3, by brute-force minimax.
    memo = {}
    normal = [n for n in range(1, 21) if nim_side_to_move_loses((n,), 3, False, memo)]
    misere = [n for n in range(1, 21) if nim_side_to_move_loses((n,), 3, True, memo)]
    print(f"  single heap, k=3, N in 1..20 lost for the side to move, normal play: {normal}")
    print(f"  single heap, k=3, N in 1..20 lost for the side to move, misère play: {misere}")
    check(normal == [n for n in range(1, 21) if n % 4 == 0], "nim normal: lost iff N % 4 == 0")
    check(misere == [n for n in range(1, 21) if n % 4 == 1], "nim misère: lost iff N % 4 == 1")
    # Several heaps: Sprague-Grundy, g = h mod (k+1), side to move loses iff XOR == 0 (normal play).
    bad = []
    for heaps in itertools.product(range(6), repeat=3):
        g = 0
        for h in heaps:
            g ^= h % 4
        if nim_side_to_move_loses(tuple(heaps), 3, False, memo) != (g == 0):
            bad.append(heaps)
    print(f"  three heaps 0..5, k=3, normal play: brute force agrees with Sprague-Grundy on "
          f"{216 - len(bad)}/216 positions")
    check(not bad, f"nim Sprague-Grundy mismatch at {bad[:5]}")


# ---------------------------------------------------------------------------
# 4. Teeko.  Board: 25-char string, index i = 5*row + col, row 0 = rank 5
#    (top), col 0 = file a; so the text "rank5/rank4/.../rank1" is the board
#    string with the slashes removed.  'b' black (moves first), 'r' red.
#    Position: (board, side to move).  In the drop phase the side to move
#    follows from the counts; in the move phase it must be carried along.
# ---------------------------------------------------------------------------

T_N = 5
FILES = "abcde"


def t_name(i: int) -> str:
    return f"{FILES[i % 5]}{5 - i // 5}"


def t_index(col: int, row: int) -> int:
    return row * T_N + col


def teeko_goals(advanced: bool) -> list[tuple[int, ...]]:
    goals = set()
    # 4 consecutive cells along a row, a column or a diagonal.
    for row in range(T_N):
        for col in range(T_N):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(col + t * dc, row + t * dr) for t in range(4)]
                if all(0 <= c < T_N and 0 <= r < T_N for c, r in cells):
                    goals.add(tuple(sorted(t_index(c, r) for c, r in cells)))
    # 2x2 squares.
    for row in range(T_N - 1):
        for col in range(T_N - 1):
            goals.add(tuple(sorted(t_index(col + dc, row + dr) for dc in (0, 1) for dr in (0, 1))))
    if advanced:
        # Corners of axis-aligned squares with sides of 3, 4 and 5 cells.
        for side in (3, 4, 5):
            s = side - 1
            for row in range(T_N - s):
                for col in range(T_N - s):
                    goals.add(tuple(sorted(t_index(col + dc, row + dr) for dc in (0, s) for dr in (0, s))))
    return sorted(goals)


STD_GOALS = teeko_goals(False)
ADV_GOALS = teeko_goals(True)
assert len(STD_GOALS) == 44, len(STD_GOALS)
assert len(ADV_GOALS) == 58, len(ADV_GOALS)


def t_neighbours(i: int) -> list[int]:
    row, col = divmod(i, T_N)
    out = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr or dc) and 0 <= row + dr < T_N and 0 <= col + dc < T_N:
                out.append(t_index(col + dc, row + dr))
    return out


T_NEIGH = [t_neighbours(i) for i in range(25)]


class Teeko:
    """The rules, written plainly.  A move is (src, dst): src None for a drop."""

    def __init__(self, advanced: bool):
        self.goals = ADV_GOALS if advanced else STD_GOALS
        self.name = "advanced teeko" if advanced else "teeko"
        self.zero_move_positions: list = []  # non-terminal positions with no move (must stay empty)

    def has_goal(self, board: str, colour: str) -> bool:
        return any(all(board[i] == colour for i in g) for g in self.goals)

    def is_over(self, board: str) -> bool:
        return self.has_goal(board, "b") or self.has_goal(board, "r")

    def legal_moves(self, pos: tuple[str, str]) -> list[tuple[int | None, int]]:
        board, side = pos
        if self.is_over(board):
            return []
        if board.count(side) < 4:  # drop phase: any empty cell
            return [(None, i) for i in range(25) if board[i] == "."]
        moves = [(i, j) for i in range(25) if board[i] == side for j in T_NEIGH[i] if board[j] == "."]
        if not moves:
            self.zero_move_positions.append(pos)
        return moves

    def play(self, pos: tuple[str, str], m: tuple[int | None, int]) -> tuple[str, str]:
        board, side = pos
        src, dst = m
        assert board[dst] == "."
        cells = list(board)
        if src is not None:
            assert cells[src] == side and dst in T_NEIGH[src]
            cells[src] = "."
        cells[dst] = side
        return "".join(cells), ("r" if side == "b" else "b")


def parse_teeko(text: str) -> tuple[str, str]:
    rows, side = text.split()
    ranks = rows.split("/")
    assert len(ranks) == 5 and all(len(r) == 5 for r in ranks), text
    board = "".join(ranks)
    assert set(board) <= set(".br") and side in ("b", "r"), text
    return board, side


def format_teeko(pos: tuple[str, str]) -> str:
    board, side = pos
    return "/".join(board[r * 5:(r + 1) * 5] for r in range(5)) + " " + side


def format_teeko_move(m: tuple[int | None, int]) -> str:
    src, dst = m
    return t_name(dst) if src is None else f"{t_name(src)}-{t_name(dst)}"


# --- Counting from the empty board without visiting every position ----------
#
# Facts used (each checked by brute force below):
#  (F1) A goal needs 4 markers of one colour.  Black drops at plies 1,3,5,7 and
#       red at 2,4,6,8, so no position before ply 7 is over: for d <= 7 every
#       drop sequence is legal and perft(d) = 25*24*...*(25-d+1).
#  (F2) After 8 plies the position is the pair (B, R) of disjoint 4-sets, and
#       it is reached by exactly 4!*4! = 576 drop orders, provided B is not a
#       goal (else the game ended at ply 7).  So
#         perft(8) = 576 * #{(B, R): B not a goal}
#         perft(9) = 576 * sum over (B, R), neither a goal, of steps_black(B, R)
#         perft(10)= 576 * sum over the same (B, R) of
#                    sum over black steps s not making a black goal of steps_red(after s)
#  (F3) For fixed B: sum over R of steps_black(B, R) = sum over black step pairs
#       (b -> n), n empty of B, of #{R disjoint from B + {n}, R not a goal}
#       = sum over (b, n) of [C(20, 4) - #{goals G disjoint from B + {n}}]
#       (a step b -> n is legal for R iff n is not in R).  That gives perft(9)
#       by inclusion-exclusion in ~12650 * 32 * 44 steps ("closed form").
#  The direct enumeration walks all 75.7M (B, R) pairs, with B reduced modulo
#  the 8 symmetries of the square (which map goals to goals: asserted).

def mask(cells) -> int:
    m = 0
    for i in cells:
        m |= 1 << i
    return m


NEIGH_MASK = [mask(T_NEIGH[i]) for i in range(25)]
FULL = (1 << 25) - 1


def symmetries() -> list[list[int]]:
    def tf(f):
        return [t_index(*f(i % 5, i // 5)) for i in range(25)]

    fs = [lambda c, r: (c, r), lambda c, r: (4 - r, c), lambda c, r: (4 - c, 4 - r),
          lambda c, r: (r, 4 - c), lambda c, r: (4 - c, r), lambda c, r: (c, 4 - r),
          lambda c, r: (r, c), lambda c, r: (4 - r, 4 - c)]
    return [tf(f) for f in fs]


SYMS = symmetries()


def teeko_closed_form(goals: list[tuple[int, ...]]) -> dict[int, int]:
    goal_set = set(goals)
    four_sets = list(itertools.combinations(range(25), 4))
    nongoal_b = [b for b in four_sets if b not in goal_set]
    res = {d: math.perm(25, d) for d in range(1, 8)}                       # (F1)
    res[8] = 576 * len(nongoal_b) * math.comb(21, 4)                        # (F2)
    goal_masks = [mask(g) for g in goals]
    total9 = 0
    for b in nongoal_b:
        total9 += teeko_sum_steps_over_r(b, (), goal_masks)
    res[9] = 576 * total9
    return res


def teeko_sum_steps_over_r(b_cells, r_cells, goal_masks: list[int]) -> int:
    """(F3), generalised: black markers b_cells (all 4), red markers r_cells
    already down (0..3 of them).  Returns the sum, over every completion R of
    r_cells to 4 red markers on empty cells with R not a goal, of the number of
    black steps in (B, R).  Assumes B is not a goal."""
    bm = mask(b_cells)
    rm = mask(r_cells)
    need = 4 - len(r_cells)
    free = 25 - 4 - len(r_cells)  # cells where the remaining red markers may go
    total = 0
    for b in b_cells:
        for n in T_NEIGH[b]:
            if (bm | rm) >> n & 1:
                continue
            # completions avoiding n: choose `need` of the free-1 cells, minus goals
            count = math.comb(free - 1, need)
            blocked = bm | (1 << n)
            for g in goal_masks:
                if g & blocked == 0 and g & rm == rm:
                    count -= 1
            total += count
    return total


def ply8_counts(bcells, bm: int, rcells, rm: int, goal_set: set, want10: bool) -> tuple[int, int, int]:
    """For a move-phase position (black markers bcells / mask bm, red rcells / rm,
    black to move, no goal on the board): (black steps, sum over the black
    steps that do not make a black goal of the red steps after them, the
    smallest such red step count or 99)."""
    empty = FULL & ~(bm | rm)
    steps = 0
    for b in bcells:
        steps += (NEIGH_MASK[b] & empty).bit_count()
    s10 = 0
    min_r = 99
    if want10:
        for b in bcells:
            tos = NEIGH_MASK[b] & empty
            while tos:
                low = tos & -tos
                tos ^= low
                nb = (bm ^ (1 << b)) | low
                if nb in goal_set:
                    continue  # black wins with this step: the game ends at ply 9
                empty2 = FULL & ~(nb | rm)
                rsteps = 0
                for r in rcells:
                    rsteps += (NEIGH_MASK[r] & empty2).bit_count()
                min_r = min(min_r, rsteps)
                s10 += rsteps
    return steps, s10, min_r


def _enum_worker(args):
    """Direct enumeration for a chunk of black sets B (orbit representatives)."""
    reps, goal_masks, want10 = args
    goal_set = set(goal_masks)
    s8 = s9 = s10 = 0
    min_b = min_r = 99
    max_b = 0
    positions = 0
    zero_move = 0
    for bcells, weight in reps:
        bm = mask(bcells)
        rest = [i for i in range(25) if not bm >> i & 1]
        for rc in itertools.combinations(rest, 4):
            rm = (1 << rc[0]) | (1 << rc[1]) | (1 << rc[2]) | (1 << rc[3])
            s8 += weight
            if rm in goal_set:
                continue  # red completed a goal with its 4th drop: terminal at ply 8
            positions += weight
            steps, t10, mr = ply8_counts(bcells, bm, rc, rm, goal_set, want10)
            if steps == 0:
                zero_move += 1
            min_b = min(min_b, steps)
            max_b = max(max_b, steps)
            min_r = min(min_r, mr)
            s9 += weight * steps
            s10 += weight * t10
    return s8, s9, s10, min_b, max_b, min_r, positions, zero_move


def teeko_enumerate(goals, want10: bool, procs: int) -> dict:
    goal_masks = [mask(g) for g in goals]
    goal_set = set(goal_masks)
    for s in SYMS:  # the symmetries map goals to goals
        assert {mask(s[i] for i in g) for g in goals} == goal_set
    # Orbit representatives of black 4-sets that are not goals, with orbit sizes.
    seen = set()
    reps = []
    for bc in itertools.combinations(range(25), 4):
        if bc in seen:
            continue
        orbit = {tuple(sorted(s[i] for i in bc)) for s in SYMS}
        seen |= orbit
        if mask(bc) in goal_set:
            continue
        reps.append((bc, len(orbit)))
    check(sum(w for _, w in reps) == math.comb(25, 4) - len(goals), "teeko orbit weights")
    chunks = [(reps[i::procs * 4], goal_masks, want10) for i in range(procs * 4)]
    if procs > 1:
        with multiprocessing.Pool(procs) as pool:
            parts = pool.map(_enum_worker, chunks)
    else:
        parts = [_enum_worker(c) for c in chunks]
    s8 = sum(p[0] for p in parts)
    s9 = sum(p[1] for p in parts)
    s10 = sum(p[2] for p in parts)
    return {
        8: 576 * s8, 9: 576 * s9, 10: 576 * s10 if want10 else None,
        "min_steps": min(p[3] for p in parts), "max_steps": max(p[4] for p in parts),
        "min_red_steps": min(p[5] for p in parts),
        "positions": sum(p[6] for p in parts), "zero": sum(p[7] for p in parts),
        "reps": len(reps),
    }


def random_drop_position(rng: random.Random, nb: int, nr: int, game: Teeko):
    while True:
        cells = rng.sample(range(25), nb + nr)
        board = ["."] * 25
        for i in cells[:nb]:
            board[i] = "b"
        for i in cells[nb:]:
            board[i] = "r"
        b = "".join(board)
        if not game.is_over(b):
            return b, ("b" if nb == nr else "r")


def min_boundary(goals) -> tuple[int, tuple]:
    """Smallest number of empty neighbours a non-goal 4-set can have with nothing
    else on the board.  A side can only be stalemated if that boundary fits
    under the 4 enemy markers, i.e. if this is <= 4."""
    gs = set(goals)
    best = (99, ())
    for s in itertools.combinations(range(25), 4):
        if s in gs:
            continue
        bnd = set()
        for i in s:
            bnd |= set(T_NEIGH[i])
        bnd -= set(s)
        best = min(best, (len(bnd), s))
    return best


# Two move-phase test positions (chosen here; checked below: 4 + 4 markers, no goal).
# P1, black to move: black b5 c5 d5 b3 (three in a row on rank 5), red a4 c4 e4 d2.
# P2, red to move:   red b2 c2 b1 d3 (three corners of the b1-c2 square), black a5 e5 c4 d1.
TEEKO_P1 = ".bbb./r.r.r/.b.../...r./..... b"
TEEKO_P2 = "b...b/..b../...r./.rr../.r.b. r"


def run_teeko(deep: bool) -> None:
    procs = max(1, min(2, multiprocessing.cpu_count()))
    print(f"== Teeko 5x5 (goals: standard {len(STD_GOALS)}, advanced {len(ADV_GOALS)})")
    check(len(STD_GOALS) == 44, "teeko: 44 goals")
    check(len(ADV_GOALS) == 58, "advanced teeko: 58 goals")
    kinds = {"row": 0, "col": 0, "diag": 0, "square": 0}
    for g in STD_GOALS:
        rows = {i // 5 for i in g}
        cols = {i % 5 for i in g}
        if len(rows) == 1:
            kinds["row"] += 1
        elif len(cols) == 1:
            kinds["col"] += 1
        elif len(rows) == 4:
            kinds["diag"] += 1
        else:
            kinds["square"] += 1
    print(f"  standard goals by kind: {kinds}")
    check(kinds == {"row": 10, "col": 10, "diag": 8, "square": 16}, "teeko goal kinds 10/10/8/16")

    for advanced in (False, True):
        game = Teeko(advanced)
        goals = game.goals
        name = game.name
        print(f"-- {name} from the empty board")
        start = ("." * 25, "b")
        t0 = time.perf_counter()
        brute_d = 6 if deep else 5
        brute = perft_layers(start, brute_d, game.legal_moves, game.play)
        t1 = time.perf_counter()
        closed = teeko_closed_form(goals)
        t2 = time.perf_counter()
        enum = teeko_enumerate(goals, deep, procs)
        t3 = time.perf_counter()
        for d, n in brute:
            check(n == closed[d], f"{name} brute perft({d}) == closed form")
        check(enum[8] == closed[8], f"{name} enumeration perft(8) == closed form")
        check(enum[9] == closed[9], f"{name} enumeration perft(9) == closed form (inclusion-exclusion)")
        rows = [(d, closed[d]) for d in range(1, 10)]
        if deep:
            rows.append((10, enum[10]))
        print_table(name, rows)
        print(f"  methods: d1..d{brute_d} brute force ({t1 - t0:.1f}s) = closed form; "
              f"d8, d9 closed form ({t2 - t1:.1f}s) = direct enumeration of all ply-8 positions "
              f"({t3 - t2:.1f}s, {enum['reps']} black-set orbits, {procs} processes)"
              + ("; d10 direct enumeration only" if deep else ""))
        print(f"  first move-phase positions (after the 8th drop, black to move): "
              f"{enum['positions']} non-terminal (B, R) boards; "
              f"black has {enum['min_steps']}..{enum['max_steps']} legal steps in them"
              + (f"; after each non-winning black step red has >= {enum['min_red_steps']}" if deep else ""))
        check(enum["zero"] == 0 and enum["min_steps"] > 0, f"{name}: a ply-8 position with no black step")
        if deep:
            check(enum["min_red_steps"] > 0, f"{name}: a ply-9 position with no red step")
        nb, who = min_boundary(goals)
        print(f"  smallest boundary of a non-goal 4-marker set: {nb} empty neighbours "
              f"({' '.join(t_name(i) for i in who)}) > 4 enemy markers, so no side can ever be "
              f"left without a step")
        check(nb > 4, f"{name}: some non-goal set can be stalemated")

        # Cross-check the counting formulas against brute force on sampled positions.
        rng = random.Random(20240 + advanced)
        goal_masks = [mask(g) for g in goals]
        n_ok = 0
        samples = 60 if deep else 25
        for _ in range(samples):
            # ply 7, red to move (black complete): perft(2) == (F3) with 3 red already down.
            board, side = random_drop_position(rng, 4, 3, game)
            bc = [i for i in range(25) if board[i] == "b"]
            rc = [i for i in range(25) if board[i] == "r"]
            want = teeko_sum_steps_over_r(bc, rc, goal_masks)
            got = perft_dfs((board, side), 2, game.legal_moves, game.play)
            check(got == want, f"{name} (F3) at {format_teeko((board, side))}: {got} != {want}")
            n_ok += got == want
        goal_set = set(goal_masks)
        for _ in range(samples):
            # ply 7 -> ply 10 by brute force == the enumeration kernel summed over red's 4th drop.
            board, side = random_drop_position(rng, 4, 3, game)
            bc = [i for i in range(25) if board[i] == "b"]
            rc = [i for i in range(25) if board[i] == "r"]
            w9 = w10 = 0
            for n in range(25):
                if board[n] == ".":
                    rm = mask(rc + [n])
                    if rm not in goal_set:
                        st, t10, _ = ply8_counts(bc, mask(bc), rc + [n], rm, goal_set, True)
                        w9 += st
                        w10 += t10
            memo = {}
            g9 = perft_dfs((board, side), 2, game.legal_moves, game.play, memo)
            g10 = perft_dfs((board, side), 3, game.legal_moves, game.play, memo)
            check((g9, g10) == (w9, w10), f"{name} kernel at {format_teeko((board, side))}: "
                                          f"{(g9, g10)} != {(w9, w10)}")
            n_ok += (g9, g10) == (w9, w10)
        for _ in range(samples // 5):
            # ply 4 -> ply 9 by brute force == (F2)-style grouping over the remaining drops.
            board, side = random_drop_position(rng, 2, 2, game)
            got = perft_dfs((board, side), 5, game.legal_moves, game.play)
            bm = [i for i in range(25) if board[i] == "b"]
            rmc = [i for i in range(25) if board[i] == "r"]
            free = [i for i in range(25) if board[i] == "."]
            want = 0
            for add_b in itertools.combinations(free, 2):
                bcells = tuple(sorted(bm + list(add_b)))
                if bcells in set(goals):
                    continue
                want += 2 * 2 * teeko_sum_steps_over_r(bcells, rmc, goal_masks)
            check(got == want, f"{name} ply4->ply9 grouping at {format_teeko((board, side))}")
            n_ok += got == want
        print(f"  counting formulas agree with brute force on {n_ok}/{2 * samples + samples // 5} sampled positions")
        check(not game.zero_move_positions, f"{name}: visited positions with no legal move")

    print("-- move-phase test positions (standard and advanced rules)")
    std, adv = Teeko(False), Teeko(True)
    for text in (TEEKO_P1, TEEKO_P2):
        pos = parse_teeko(text)
        board, side = pos
        check(board.count("b") == 4 and board.count("r") == 4, f"{text}: 4 + 4 markers")
        for game in (std, adv):
            check(not game.is_over(board), f"{text}: no goal under {game.name}")
        check(format_teeko(pos) == text, "teeko text round trip")
        ms = std.legal_moves(pos)
        print(f"  {text}   ({'black' if side == 'b' else 'red'} to move) "
              f"{len(ms)} legal steps: {' '.join(format_teeko_move(m) for m in ms)}")
        for game in (std, adv):
            memo: dict = {}
            maxd = 6 if deep else 5
            rows = [(d, perft_dfs(pos, d, game.legal_moves, game.play, memo)) for d in range(1, maxd + 1)]
            rows_l = perft_layers(pos, min(maxd, 4), game.legal_moves, game.play)
            for d, n in rows_l:
                check(rows[d - 1][1] == n, f"{game.name} {text} dfs == layers d{d}")
            print_table(f"{game.name} \"{text}\"", rows)
    for game in (std, adv):
        check(not game.zero_move_positions,
              f"{game.name}: non-terminal move-phase positions without a step: {game.zero_move_positions[:3]}")
    print("  no visited non-terminal position was without a legal move")


GAMES = {"tictactoe": run_tictactoe, "connect4": run_connect4, "nim": run_nim, "teeko": run_teeko}
ALIASES = {"ttt": "tictactoe", "c4": "connect4", "connectfour": "connect4", "stick": "nim"}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append", help="run only this game (repeatable): " + ", ".join(GAMES))
    ap.add_argument("--deep", action="store_true", help="go deeper (several minutes)")
    args = ap.parse_args()
    names = [ALIASES.get(g, g) for g in (args.game or list(GAMES))]
    for n in names:
        if n not in GAMES:
            ap.error(f"unknown game {n!r}; choose from {', '.join(GAMES)}")
    t0 = time.perf_counter()
    for n in names:
        ts = time.perf_counter()
        GAMES[n](args.deep)
        print(f"   [{n}: {time.perf_counter() - ts:.1f}s]\n")
    print(f"total {time.perf_counter() - t0:.1f}s")
    if FAILURES:
        print(f"{len(FAILURES)} sanity check(s) FAILED:")
        for f in FAILURES:
            print("  " + f)
        return 1
    print("all sanity checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
