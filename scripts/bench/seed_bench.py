#!/usr/bin/env python3
"""The seeds' Python minimax / alpha-beta against ply, on the same Connect Four
positions at the same depths: node counts and times side by side.

The Python side is the code of the seed blog post ../shared/seeds/000_*.txt
(Korean notes on "Classic Computer Science Problems in Python", chapter 8):
C4Piece, generate_segments, C4Board, minimax(), find_best_move() and the
alphabeta() of section 8.3.3.  It is extracted from the seed text at run time
(the post has no fenced code blocks: each definition is cut from its first line
to the first following line that is neither blank nor indented, or that is a
"•" bullet of the prose), compiled and exec'd unchanged.  The only additions:

  * a node counter: minimax and alphabeta are replaced in the exec'd module's
    namespace by wrappers that count one node per call and call the original,
    so the recursive calls, and the root-children calls of find_best_move,
    are all counted.  The root itself (find_best_move) is not a call and is
    not counted;
  * find_best_move_alphabeta: the seed's find_best_move with its minimax( call
    replaced by alphabeta( (the book's exercise; the second seed post,
    001_*.txt, has exactly this function).  Each root child is searched with the
    full (-inf, inf) window, as in the book.

Depth: the seed's find_best_move(board, max_depth) calls
minimax(child, ..., max_depth) for every root child, so it looks max_depth + 1
plies ahead.  To search the same N plies as ply's `go depth N`, this script
calls find_best_move(board, N - 1): at depth 5 from the start that is
7 + 49 + 343 + 2401 + 16807 = 19,607 minimax calls.

Columns: the seed numbers columns 0..6, ply and this script's positions 1..7.

ply side: the engine binary (--ply, default target/release/ply under the repo
root) is driven over its line protocol, one cold search per measurement:
    newgame connect4                      (clears ply's tables; untimed)
    setoption name UseSolver value false  (the plain searcher, as the seed's)
    position startpos moves 4 4 5 3
    isready           -> readyok          (untimed)
    go depth N        -> ... info depth N ... nodes <n> ... time <ms> ... / bestmove <m>
    quit
The nodes and time are taken from the last `info depth` line before bestmove;
the wall time of the go/bestmove exchange is measured here as well.

The two searches are not the same algorithm: ply uses a transposition table,
move ordering, its own evaluation and so on, while the seed searches the full
fixed-depth tree (minimax) or plain alpha-beta in column order with a full
window at every root child.  Node counts are therefore not expected to match;
the point is to see them, and the times, side by side.

Usage:
    python3 scripts/bench/seed_bench.py              # needs target/release/ply
    python3 scripts/bench/seed_bench.py --no-ply     # Python side only
    python3 scripts/bench/seed_bench.py --ply path/to/ply --positions ,4453 --depths 1-6
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "lib"))
from plyclient import REPO, Engine, EngineError  # noqa: E402  (scripts/lib/plyclient.py)

DEFAULT_SEED = REPO.parent / "shared" / "seeds" / "000_70a50f8b5623c649.txt"

# (moves in columns 1..7, depths).  "" is the start position.
DEFAULT_POSITIONS: list[tuple[str, list[int]]] = [
    ("", [1, 2, 3, 4, 5]),
    ("4453", [3, 4, 5]),
    ("3452", [3, 4, 5]),
    ("3443562", [3, 4, 5]),
    ("1234567123456", [3, 4, 5]),
]
# (Chosen so that neither side has a forced win within 5 plies: ply stops early when it
# proves one, and then the depths would no longer be the same.)

# ---------------------------------------------------------------------------
# Extracting the seed's code
# ---------------------------------------------------------------------------

PRELUDE = """\
from __future__ import annotations
from typing import NewType, List, Optional, Tuple
from enum import Enum
from abc import ABC, abstractmethod
"""

# (first line of the definition, text its block must contain); taken in this order,
# each one the first occurrence after the previous block.
BLOCKS = [
    ("Move = NewType('Move', int)", "NewType"),
    ("class Piece:", "def opposite"),
    ("class Board(ABC):", "def is_draw"),
    ("def minimax(", "max_depth - 1"),
    ("def find_best_move(", "minimax(board.move(move), False, board.turn, max_depth)"),
    ("class C4Piece(Piece, Enum):", "C4Piece.R"),
    ("def generate_segments(", "List[List[Tuple[int, int]]]"),
    ("class C4Board(Board):", "def _evaluate_segment"),
    ("def alphabeta(", "if beta <= alpha:"),
]


class SeedError(Exception):
    pass


def extract_block(lines: list[str], first: str, start: int) -> tuple[str, int]:
    for i in range(start, len(lines)):
        if lines[i].startswith(first):
            break
    else:
        raise SeedError(f"seed: no line starting with {first!r} after line {start + 1}")
    j = i + 1
    while j < len(lines):
        line = lines[j]
        if line.strip() == "":
            j += 1
            continue
        if line[0] in " \t" and not line.lstrip().startswith("•"):
            j += 1
            continue
        break
    block = lines[i:j]
    while block and not block[-1].strip():
        block.pop()
    return "\n".join(block) + "\n", j


def load_seed(path: Path) -> tuple[dict, str]:
    """Exec the seed's code; returns (namespace, source).  Raises SeedError."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise SeedError(f"cannot read the seed file {path}: {e}") from e
    lines = text.replace("\r\n", "\n").replace("\u00a0", " ").split("\n")
    parts = [PRELUDE]
    pos = 0
    for first, must in BLOCKS:
        block, pos = extract_block(lines, first, pos)
        if must not in block:
            raise SeedError(f"seed: the block starting {first!r} does not contain {must!r}")
        try:
            compile(PRELUDE + block, f"<seed {first}>", "exec")
        except SyntaxError as e:
            raise SeedError(f"seed: the block starting {first!r} does not compile: {e}") from e
        parts.append(block)
        if first.startswith("def find_best_move("):
            # The book's exercise: the same function on top of alphabeta().
            if block.count("minimax(") != 1:
                raise SeedError("seed: find_best_move does not call minimax( exactly once")
            parts.append(block.replace("def find_best_move(", "def find_best_move_alphabeta(")
                         .replace("minimax(", "alphabeta("))
    source = "\n\n".join(parts)
    ns: dict = {"__name__": "seed_connectfour"}
    exec(compile(source, f"<seed {path.name}>", "exec"), ns)
    for name in ("C4Board", "C4Piece", "minimax", "alphabeta", "find_best_move", "find_best_move_alphabeta"):
        if name not in ns:
            raise SeedError(f"seed: {name} not defined by the extracted code")
    if len(ns["C4Board"].SEGMENTS) != 69:
        raise SeedError(f"seed: expected 69 segments, got {len(ns['C4Board'].SEGMENTS)}")
    return ns, source


class SeedSearch:
    """The exec'd seed code plus node counters."""

    def __init__(self, path: Path):
        self.ns, self.source = load_seed(path)
        self.nodes = 0
        for name in ("minimax", "alphabeta"):
            original = self.ns[name]

            def counted(*args, _original=original, **kwargs):
                self.nodes += 1
                return _original(*args, **kwargs)

            counted.__name__ = name
            self.ns[name] = counted  # the seed's functions look their callees up here

    def board(self, moves: str):
        b = self.ns["C4Board"]()
        for k, ch in enumerate(moves):
            col = int(ch) - 1  # 1..7 -> the seed's 0..6
            if col not in b.legal_moves:
                raise ValueError(f"position {moves!r}: move {k + 1} ({ch}) is not legal")
            if b.is_win:
                raise ValueError(f"position {moves!r}: the game is already over before move {k + 1}")
            b = b.move(col)
        if b.is_win or b.is_draw:
            raise ValueError(f"position {moves!r}: the game is over")
        return b

    def run(self, board, depth: int, use_alphabeta: bool) -> tuple[int, int, float]:
        """(best move 1..7, nodes, seconds) of the seed's find_best_move at `depth` plies."""
        fn = self.ns["find_best_move_alphabeta" if use_alphabeta else "find_best_move"]
        self.nodes = 0
        t0 = time.perf_counter()
        move = fn(board, depth - 1)  # find_best_move(b, k) looks k + 1 plies ahead
        dt = time.perf_counter() - t0
        return move + 1, self.nodes, dt


# ---------------------------------------------------------------------------
# Driving ply
# ---------------------------------------------------------------------------

class PlyEngine(Engine):
    """ply through the scripts' shared client (scripts/lib/plyclient.py), with the
    measurement this script makes."""

    def __init__(self, path: Path, timeout: float):
        super().__init__(path, timeout=timeout)

    def start(self) -> None:
        # One untimed search first, so that process start-up and first-touch costs
        # do not land on the first measured row (and a broken engine fails early).
        self.go("", 1)

    def go(self, moves: str, depth: int) -> dict:
        # newgame clears ply's search tables (protocol.md), so every measurement is a cold
        # search, like the seed's, and does not depend on the rows before it.
        self.send("newgame connect4")
        # The seed searches; so does ply's plain searcher (the exact solver would answer
        # instead, after up to 4M solver nodes on an early position).
        self.send("setoption name UseSolver value false")
        self.send("position startpos" + ((" moves " + " ".join(moves)) if moves else ""))
        deadline = time.monotonic() + self.timeout
        # Wait until the engine has done both (clearing the tables takes a moment), so
        # that the timing below covers the search only.
        self.send("isready")
        while True:
            line = self.readline(deadline)
            if line.startswith("info string error"):
                raise EngineError(f"position {moves or 'startpos'!r}: {line}")
            if line.strip() == "readyok":
                break
        t0 = time.perf_counter()
        self.send(f"go depth {depth}")
        last_info = None
        errors = []
        while True:
            line = self.readline(deadline)
            if line.startswith("info depth"):
                last_info = line
            elif line.startswith("info string error"):
                errors.append(line)
            elif line.startswith("bestmove"):
                wall = time.perf_counter() - t0
                parts = line.split()
                best = parts[1] if len(parts) > 1 else "?"
                break
        if errors:
            raise EngineError(f"position {moves or 'startpos'!r} depth {depth}: " + "; ".join(errors))
        info = parse_info(last_info) if last_info else {}
        return {"best": best, "depth": info.get("depth"), "nodes": info.get("nodes"),
                "time_ms": info.get("time"), "wall": wall, "info": last_info}


def parse_info(line: str) -> dict:
    tokens = line.split()
    out = {}
    for key in ("depth", "nodes", "time"):
        if key in tokens:
            i = tokens.index(key)
            if i + 1 < len(tokens) and re.fullmatch(r"-?\d+", tokens[i + 1]):
                out[key] = int(tokens[i + 1])
    return out


# ---------------------------------------------------------------------------

def fmt_ms(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    ms = seconds * 1000
    return f"{ms:.0f}" if ms >= 100 else f"{ms:.1f}" if ms >= 1 else f"{ms:.2f}"


def fmt_ratio(r: float | None) -> str:
    if r is None:
        return "-"
    return f"{r:.0f}x" if r >= 10 else f"{r:.1f}x" if r >= 1 else f"{r:.2f}x"


def fmt_int(n) -> str:
    return "-" if n is None else f"{n:,}"


def parse_depths(text: str) -> list[int]:
    out = []
    for part in text.split(","):
        if "-" in part:
            a, b = part.split("-")
            out += list(range(int(a), int(b) + 1))
        elif part:
            out.append(int(part))
    if not out or min(out) < 1:
        raise argparse.ArgumentTypeError(f"bad depth list {text!r}")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description="The seeds' Python minimax/alpha-beta vs ply on Connect Four.")
    ap.add_argument("--ply", default="target/release/ply",
                    help="engine binary, relative to the repo root unless absolute (default %(default)s)")
    ap.add_argument("--no-ply", action="store_true", help="only run the Python (seed) side")
    ap.add_argument("--seed-file", type=Path, default=DEFAULT_SEED, help="the seed post (default %(default)s)")
    ap.add_argument("--positions", help="comma-separated move strings in columns 1..7 (empty = start), "
                                        "e.g. ',4453'; replaces the default set")
    ap.add_argument("--depths", type=parse_depths,
                    help="depths for every position, e.g. '3-5' or '1,2,6' (default: 1-5 for the "
                         "start, 3-5 for the others)")
    ap.add_argument("--no-minimax", action="store_true", help="skip the (slow) plain minimax")
    ap.add_argument("--timeout", type=float, default=600, help="seconds to wait for one bestmove")
    ap.add_argument("--show-source", action="store_true", help="print the extracted seed code and exit")
    args = ap.parse_args()

    try:
        seed = SeedSearch(args.seed_file)
    except SeedError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.show_source:
        print(seed.source)
        return 0

    if args.positions is not None:
        positions = [(p.strip(), args.depths or [3, 4, 5]) for p in args.positions.split(",")]
    else:
        positions = [(p, args.depths or d) for p, d in DEFAULT_POSITIONS]
    boards = {}
    for p, _ in positions:
        if not re.fullmatch(r"[1-7]*", p):
            print(f"error: position {p!r}: moves are columns 1..7", file=sys.stderr)
            return 2
        try:
            boards[p] = seed.board(p)
        except ValueError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2

    engine = None
    if not args.no_ply:
        ply_path = Path(args.ply)
        if not ply_path.is_absolute():
            ply_path = REPO / ply_path
        if not ply_path.is_file() or not os.access(ply_path, os.X_OK):
            print(f"error: ply engine not found or not executable at {ply_path}\n"
                  f"  build it with `cargo build --release`, pass --ply PATH, or use --no-ply",
                  file=sys.stderr)
            return 2
        try:
            engine = PlyEngine(ply_path, args.timeout)
            engine.start()
        except EngineError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2

    print(f"seed code: {args.seed_file}")
    print("depth N = N plies: the seed is called as find_best_move(board, N - 1); "
          "nodes = calls of minimax()/alphabeta(); times in ms")
    print("ply and the seed search differently (TT, move ordering, ...): node counts are not expected to match")
    hdr = (f"{'position':<14} {'d':>2} {'mm nodes':>10} {'mm ms':>9} {'ab nodes':>10} {'ab ms':>9} {'best':>4}"
           + (f" {'ply best':>8} {'ply d':>5} {'ply nodes':>11} {'ply ms':>8} {'wall ms':>8} {'ab/ply':>8} {'ply nodes/s':>12}"
              if engine else ""))
    print(hdr)
    print("-" * len(hdr))
    status = 0
    try:
        for p, depths in positions:
            for d in depths:
                board = boards[p]
                if args.no_minimax:
                    mm_best, mm_nodes, mm_t = None, None, None
                else:
                    mm_best, mm_nodes, mm_t = seed.run(board, d, use_alphabeta=False)
                ab_best, ab_nodes, ab_t = seed.run(board, d, use_alphabeta=True)
                best = str(ab_best) if mm_best in (None, ab_best) else f"{mm_best}/{ab_best}"
                row = (f"{p or 'start':<14} {d:>2} {fmt_int(mm_nodes):>10} {fmt_ms(mm_t):>9} "
                       f"{fmt_int(ab_nodes):>10} {fmt_ms(ab_t):>9} {best:>4}")
                if engine:
                    r = engine.go(p, d)
                    ply_t = r["time_ms"] / 1000 if r["time_ms"] is not None else None
                    # The ratio uses the wall time of the go/bestmove exchange (never zero, and
                    # it includes the pipe round trip, so it understates ply's speed at low depth).
                    ratio = ab_t / r["wall"] if r["wall"] > 0 else None
                    secs = ply_t if ply_t else r["wall"]
                    nps = r["nodes"] / secs if r["nodes"] is not None and secs > 0 else None
                    row += (f" {r['best']:>8} {fmt_int(r['depth']):>5} {fmt_int(r['nodes']):>11} {fmt_ms(ply_t):>8} "
                            f"{fmt_ms(r['wall']):>8} {fmt_ratio(ratio):>8} "
                            f"{fmt_int(int(nps)) if nps else '-':>12}")
                print(row, flush=True)
    except EngineError as e:
        print(f"error: {e}", file=sys.stderr)
        status = 2
    finally:
        if engine:
            engine.quit()
    if engine and status == 0:
        print("mm = the seed's minimax, ab = the seed's alphabeta (find_best_move with alphabeta); "
              "best = the seed's move (1..7);\n"
              "ply d = the depth of ply's last info line (less than d when ply proved a result early);\n"
              "ply ms = the time on ply's last info line; wall ms = go..bestmove measured here;\n"
              "ab/ply = seed alphabeta time / ply wall time; "
              "ply nodes/s uses ply's own time when it is non-zero, else the wall time")
    return status


if __name__ == "__main__":
    sys.exit(main())
