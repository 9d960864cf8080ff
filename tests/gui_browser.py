#!/usr/bin/env python3
"""The ply gui page in a real browser: Debian's chromium driven by selenium through
chromedriver plays a complete game of every game type by clicking the board against ply,
checks the displayed result against ply's own answer for the final position, checks the
move values against brute-force solves (Nim, a 5x4 Connect Four position), exports the
record and loads it back, watches two engines on clocks, shows an engine crash, checks the
phone-width layout and that the browser console has no errors, and saves screenshots.
Chess also goes through castling (both ways, and Chess960's), en passant, promotion in the
chooser, a threefold repetition and a referee's record, and its SAN and PGN are checked
against python-chess when that is installed.

    gui_browser.py --ply target/debug/ply --out target/gui-screenshots [--only chess,phone]

Run by tests/gui_browser.rs (cargo test). Exit status 0 when every check passed; 77 when
chromium, chromedriver or selenium is missing (the caller prints that the test was skipped).
"""

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput
    from selenium.webdriver.support.ui import Select
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
except ImportError as e:  # the caller reports the skip
    print(f"selenium is not installed ({e})")
    sys.exit(77)

CHROMIUM_FLAGS = (
    "--headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
    "--disable-background-networking --disable-component-update --disable-sync"
).split()

GAME_TIMEOUT = 120


def find(name, *candidates):
    for c in candidates:
        if c and os.path.exists(c):
            return c
    return shutil.which(name)


class Failure(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Failure(msg)


class Gui:
    """`ply gui` on a free port, with its own empty tables directory."""

    def __init__(self, ply):
        self.ply = ply
        self.tables = tempfile.mkdtemp(prefix="ply-gui-tables-")
        env = dict(os.environ, PLY_TABLES=self.tables, PLY_TABLES_AUTOBUILD="0")
        fake = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fakes", "fake_engine.py")
        crashy = f"name=crashy,cmd={sys.executable},arg={fake},arg=crash"
        uci = f"name=uci,cmd={sys.executable},arg={fake},arg=plainuci,proto=uci"
        self.proc = subprocess.Popen(
            [ply, "gui", "--port", "0", "--max-pages", "2", "--engine", crashy, "--engine", uci], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, env=env)
        line = self.proc.stdout.readline().strip()
        check(line.startswith("ply gui: http://"), f"no URL from ply gui: {line!r}")
        self.url = line.split(" ", 2)[2]

    def close(self):
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.tables, ignore_errors=True)


def ply_result(ply, game_line, fen):
    """ply's own `query result` for a position."""
    out = subprocess.run(
        [ply], input=f"{game_line}\nposition fen {fen}\nquery result\nquit\n",
        capture_output=True, text=True, timeout=30,
        env=dict(os.environ, PLY_TABLES_AUTOBUILD="0")).stdout
    lines = [l for l in out.splitlines() if l.startswith("response ")]
    check(lines, f"ply gave no result for {fen!r}: {out!r}")
    return lines[-1].split()[1]


class Page:
    def __init__(self, driver, url, shots):
        self.d = driver
        self.url = url
        self.shots = shots
        self.d.get(url)
        self.wait(lambda: "connected" == self.d.find_element(By.ID, "conn").text, "the connection")
        self.wait(lambda: self.status() != "", "the first position")

    def wait(self, cond, what, timeout=30):
        end = time.time() + timeout
        while time.time() < end:
            try:
                if cond():
                    return
            except Exception:  # the page is redrawing
                pass
            time.sleep(0.05)
        raise Failure(f"timed out waiting for {what}; status {self.status()!r}, "
                      f"alert {self.alert()!r}")

    def js(self, script, *args):
        return self.d.execute_script(script, *args)

    def status(self):
        return self.d.find_element(By.ID, "status").text

    def alert(self):
        return self.d.find_element(By.ID, "alert").text

    def over(self):
        return "over" in (self.d.find_element(By.ID, "status").get_attribute("class") or "")

    def moves_played(self):
        return self.js("return document.querySelectorAll('#movelist li button').length - 1")

    def legal(self):
        return self.js("return [...document.querySelectorAll('#legal button.mv')].map(b => b.dataset.mv)")

    def played(self):
        """The moves of the game in the engine's notation, and as the move list shows them."""
        return self.js("return [...document.querySelectorAll('#movelist li button')].slice(1)"
                       ".map(b => [b.dataset.mv, b.firstChild.textContent])")

    def values(self):
        return self.js("return [...document.querySelectorAll('#legal .val')].map(v => v.textContent)")

    def new_game(self, game, params, second="ply", limit=None, values=True, setup=0, first="human"):
        Select(self.d.find_element(By.ID, "game")).select_by_value(game)
        for key, value in params.items():
            el = self.d.find_element(By.ID, f"param-{key}")
            if isinstance(value, bool):
                if el.is_selected() != value:
                    el.click()
            else:
                el.clear()
                el.send_keys(str(value))
        Select(self.d.find_element(By.ID, "seat0")).select_by_value(first)
        Select(self.d.find_element(By.ID, "seat1")).select_by_value(second)
        if limit:
            v = self.d.find_element(By.ID, "limitv1")
            v.clear()
            v.send_keys(str(limit))
        box = self.d.find_element(By.ID, "showvalues")
        if box.is_selected() != values:
            box.click()
        games = self.js("return Number(document.body.dataset.games || 0)")
        self.d.find_element(By.ID, "start").click()
        started = lambda: self.js("return Number(document.body.dataset.games)") > games
        if first != "human" and second != "human":
            # Two engines may play a whole short game between two polls: only the new game's
            # start can be waited for, not a position in it.
            self.wait(started, f"a new {game} game")
        else:
            self.wait(lambda: started() and self.moves_played() == setup and self.legal(),
                      f"a new {game} game")
        if first == "human":
            self.wait(lambda: self.status().startswith(self.side_names(game)[0]), "the first player's turn")

    @staticmethod
    def side_names(game):
        return {"tictactoe": ("X", "O"), "connect4": ("Red", "Yellow"),
                "nim": ("Player 1", "Player 2"), "teeko": ("Black", "Red"),
                "chess": ("White", "Black"), "checkers": ("Black", "White")}[game]

    def board_element(self, label_prefix):
        el = self.js("return [...document.querySelectorAll('#board [role=button]')]"
                     ".find(e => e.getAttribute('aria-label').startsWith(arguments[0])) || null",
                     label_prefix)
        check(el is not None, f"no board element labelled {label_prefix!r}")
        return el

    def click_board(self, label_prefix):
        # The board is redrawn as move values arrive; a cell found just before a redraw is
        # stale, so find it again.
        for _ in range(20):
            try:
                self.board_element(label_prefix).click()
                return
            except StaleElementReferenceException:
                time.sleep(0.05)
        raise Failure(f"the board kept changing under {label_prefix!r}")

    def wait_my_turn(self, me):
        self.wait(lambda: self.over() or (self.status().startswith(f"{me} to move") and self.legal()),
                  f"{me}'s turn", timeout=GAME_TIMEOUT)

    def screenshot(self, name):
        path = os.path.join(self.shots, f"{name}.png")
        self.d.save_screenshot(path)
        return path


def play(page, game, me, choose, click):
    """Plays `me` (the first player) until the game ends: `choose(legal)` picks a move text,
    `click(page, move)` makes it on the board."""
    while True:
        page.wait_my_turn(me)
        if page.over():
            return
        before = page.moves_played()
        mv = choose(page.legal())
        click(page, mv)
        page.wait(lambda: page.moves_played() > before or page.over() or page.alert(),
                  f"the move {mv} to be played")
        check(not page.alert() or page.moves_played() > before,
              f"{game}: the move {mv} was refused: {page.alert()}")


def check_result(page, ply, game_line, game):
    names = page.side_names(game)
    status = page.status()
    fen = page.d.find_element(By.ID, "fen").get_attribute("value")
    result = ply_result(ply, game_line, fen)
    if "adjudication" in status:
        check(result == "none", f"{game}: adjudicated, but ply says {result} for {fen}")
    else:
        want = {"p1win": f"{names[0]} wins", "p2win": f"{names[1]} wins", "draw": "Draw"}[result]
        check(want in status, f"{game}: the page says {status!r}, ply says {result} for {fen}")
    return status


def check_record(page, game, moves):
    page.d.find_element(By.CSS_SELECTOR, "aside details:nth-of-type(2) summary").click()
    box = page.d.find_element(By.ID, "recordtext")
    box.clear()
    page.d.find_element(By.ID, "copyrecord").click()
    page.wait(lambda: box.get_attribute("value"), "the record")
    text = box.get_attribute("value")
    rec = json.loads(text)
    for key in ["match", "index", "round", "pair", "game", "params", "players", "p1_player",
                "opening", "moves", "result", "termination", "reason", "final_fen",
                "started_ms", "duration_ms"]:
        check(key in rec, f"{game}: the record lacks '{key}'")
    check(rec["game"] == game and len(rec["moves"]) == moves,
          f"{game}: the record has {len(rec['moves'])} moves, the page {moves}")
    check(rec["result"] in ("1-0", "0-1", "1/2-1/2"), f"{game}: record result {rec['result']}")
    # Load it back and replay to the end.
    page.d.find_element(By.ID, "load").click()
    page.wait(lambda: "Loaded game 1 of 1" in page.alert(), "the record to load")
    check(page.moves_played() == moves, f"{game}: the loaded record has {page.moves_played()} moves")
    page.d.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    page.wait(lambda: page.d.find_element(By.ID, "fen").get_attribute("value") == rec["final_fen"],
              "the replay to reach the recorded final position")
    page.d.find_element(By.CSS_SELECTOR, "aside details:nth-of-type(2) summary").click()
    return rec


def tictactoe(page, ply):
    page.new_game("tictactoe", {})
    page.wait(lambda: len(page.values()) == 9, "the values of the first moves")
    check(set(page.values()) <= {"D"} and len(page.values()) == 9,
          f"tic-tac-toe: every first move draws, the page shows {page.values()}")
    # An illegal move gets the engine's own words.
    page.click_board("b2")
    page.wait(lambda: page.moves_played() == 2, "ply's answer to b2")
    page.click_board("b2")
    page.wait(lambda: "occupied" in page.alert(), "the illegal-move message")
    check(page.alert() == "b2 is occupied.", f"message: {page.alert()}")
    # A move typed at the keyboard.
    box = page.d.find_element(By.ID, "moveinput")
    mv = page.legal()[0]
    box.send_keys(mv, Keys.ENTER)
    page.wait(lambda: page.moves_played() == 4 or page.over(), "the typed move")
    play(page, "tictactoe", "X", lambda legal: legal[-1], lambda p, m: p.click_board(m + ","))
    return check_result(page, ply, "newgame tictactoe", "tictactoe")


def connect4_values(width, height, moves):
    """Pons' score of each column by brute force: (cells + 1 - discs before the winning
    disc) / 2, positive when the mover wins, 0 for a draw (fastest win, slowest loss)."""
    from functools import lru_cache

    def four(cols, who):
        at = lambda f, r: cols[f][r] if 0 <= f < width and 0 <= r < len(cols[f]) else "."
        return any(all(at(f + df * i, r + dr * i) == who for i in range(4))
                   for f in range(width) for r in range(height)
                   for df, dr in ((1, 0), (0, 1), (1, 1), (1, -1)))

    @lru_cache(maxsize=None)
    def best(cols, ply):  # (1 win / 0 draw / -1 loss for the mover, ply of the winning disc)
        me = "xo"[ply % 2]
        outcomes = []
        for f in range(width):
            if len(cols[f]) < height:
                child = cols[:f] + (cols[f] + me,) + cols[f + 1:]
                if four(child, me):
                    outcomes.append((1, ply))
                elif ply + 1 == width * height:
                    outcomes.append((0, None))
                else:
                    r, at = best(child, ply + 1)
                    outcomes.append((-r, at))
        won = [a for r, a in outcomes if r == 1]
        if won:
            return (1, min(won))
        if any(r == 0 for r, _ in outcomes):
            return (0, None)
        return (-1, max(a for _, a in outcomes))

    cols = [""] * width
    for i, m in enumerate(moves):
        cols[int(m) - 1] += "xo"[i % 2]
    cols, ply, out = tuple(cols), len(moves), {}
    me = "xo"[ply % 2]
    for f in range(width):
        if len(cols[f]) < height:
            child = cols[:f] + (cols[f] + me,) + cols[f + 1:]
            if four(child, me):
                r, at = 1, ply
            else:
                r, at = best(child, ply + 1)
                r = -r
            score = 0 if r == 0 else r * ((width * height + 1 - at) // 2)
            out[str(f + 1)] = f"+{score}" if score > 0 else str(score)
    return out


def connect4(page, ply):
    opening = "3 3 2 4 4 2 1 5".split()
    start = page.d.find_element(By.ID, "startpos")
    start.clear()
    start.send_keys("startpos moves " + " ".join(opening))
    page.new_game("connect4", {"width": 5, "height": 4}, setup=len(opening))
    start.clear()
    page.wait(lambda: page.legal() and len(page.values()) == len(page.legal()) and "?" not in page.values(),
              "Connect Four's column values")
    shown = dict(zip(page.legal(), page.values()))
    want = connect4_values(5, 4, opening)
    check(shown == want, f"Connect Four's scores: the page shows {shown}, brute force says {want}")
    play(page, "connect4", "Red", lambda legal: legal[0], lambda p, m: p.click_board(f"column {m},"))
    return check_result(page, ply, "newgame connect4 width=5 height=4", "connect4")


def nim_values(heaps, k, misere):
    """Each move's value by brute force: W or L and the mover's moves to the end, this one
    included, with the fastest win and the slowest loss."""
    from functools import lru_cache

    @lru_cache(maxsize=None)
    def best(hs):  # (mover wins, plies to the end) for the side to move at hs
        if sum(hs) == 0:  # the opponent took the last object
            return (misere, 0)
        outcomes = []
        for i, h in enumerate(hs):
            for t in range(1, min(k, h) + 1):
                win, plies = best(hs[:i] + (h - t,) + hs[i + 1:])
                outcomes.append((not win, plies + 1))
        wins = [p for w, p in outcomes if w]
        return (True, min(wins)) if wins else (False, max(p for _, p in outcomes))

    out = {}
    for i, h in enumerate(heaps):
        for t in range(1, min(k, h) + 1):
            win, plies = best(tuple(heaps[:i]) + (h - t,) + tuple(heaps[i + 1:]))
            total = plies + 1
            out[f"{i + 1}:{t}"] = f"{'L' if win else 'W'}{(total + 1) // 2}"
    return out


def nim(page, ply):
    page.new_game("nim", {"heaps": "2,3,6", "max": 2, "misere": False})
    page.wait(lambda: page.legal() and len(page.values()) == len(page.legal()) and "?" not in page.values(),
              "Nim's move values")
    shown = dict(zip(page.legal(), page.values()))
    want = nim_values([2, 3, 6], 2, False)
    check(shown == want, f"Nim's move values: the page shows {shown}, brute force says {want}")
    page.new_game("nim", {"heaps": "3,4,5", "max": 3, "misere": True})
    page.wait(lambda: page.legal() and len(page.values()) == len(page.legal()) and "?" not in page.values(),
              "Nim's move values")
    shown = dict(zip(page.legal(), page.values()))
    want = nim_values([3, 4, 5], 3, True)
    check(shown == want, f"Nim's move values: the page shows {shown}, brute force says {want}")

    def take(p, mv):
        heap, count = mv.split(":")
        # By keyboard: focus the stick (the page keeps the focus on it through redraws)
        # and press Enter.
        label = f"take {count} from heap {heap}"
        p.js("[...document.querySelectorAll('#board [role=button]')]"
             ".find(e => e.getAttribute('aria-label') === arguments[0]).focus()", label)
        p.wait(lambda: p.js("return document.activeElement.getAttribute('aria-label')") == label,
               "the focus on the stick")
        ActionChains(p.d).send_keys(Keys.ENTER).perform()

    rng = random.Random(7)
    play(page, "nim", "Player 1", lambda legal: rng.choice(legal), take)
    return check_result(page, ply, "newgame nim heaps=3,4,5 misere=true", "nim")


def teeko(page, ply):
    page.new_game("teeko", {}, limit=3)

    def move(p, mv):
        if len(mv) == 2:
            p.click_board(f"{mv},")
        else:
            p.click_board(f"{mv[:2]},")
            p.wait(lambda: "selected" in p.board_element(f"{mv[:2]},").get_attribute("aria-label"),
                   "the marker to be selected")
            p.click_board(f"{mv[2:]},")

    rng = random.Random(3)
    play(page, "teeko", "Black", lambda legal: rng.choice(legal), move)
    first = check_result(page, ply, "newgame teeko", "teeko")
    page.screenshot("teeko-drops")
    # Advanced Teeko from a pasted position in the move phase: steps are two clicks.
    start = page.d.find_element(By.ID, "startpos")
    start.clear()
    start.send_keys("startpos moves c3 b2 d4 b4 b3 c2 d2 e3")
    page.new_game("teeko", {"advanced": True}, limit=3, setup=8)
    start.clear()
    play(page, "teeko", "Black", lambda legal: rng.choice(legal), move)
    steps = page.moves_played() - 8
    check(steps >= 2, f"advanced Teeko ended after {steps} steps")
    return f"{first}; advanced: {check_result(page, ply, 'newgame teeko advanced=true', 'teeko')}"


def ply_best(ply, fen, moves, depth):
    """ply's move at `depth` after `moves` from `fen` (no `quit`: it would stop the search;
    at the end of its input ply finishes a search with a limit)."""
    out = subprocess.run(
        [ply], input=f"newgame chess\nposition fen {fen} moves {' '.join(moves)}\ngo depth {depth}\n",
        capture_output=True, text=True, timeout=60).stdout
    best = [l.split()[1] for l in out.splitlines() if l.startswith("bestmove ")]
    check(best and best[0] != "(none)", f"ply found no move after {moves}: {out!r}")
    return best[0]


def chess_move(p, mv, target=None):
    """Clicks a chess move: the piece, then its square (or `target`, such as the rook a king
    castles onto); a promotion is chosen in the chooser, the queen by Enter (its default)."""
    frm = mv[:2]
    p.click_board(f"{frm},")
    p.wait(lambda: "selected" in p.board_element(f"{frm},").get_attribute("aria-label"),
           f"the piece on {frm} to be selected")
    p.click_board(f"{target or mv[2:4]},")
    if len(mv) == 5:
        name = {"q": "queen", "r": "rook", "b": "bishop", "n": "knight"}[mv[4]]
        p.wait(lambda: p.js("return document.activeElement.getAttribute('aria-label')") == "promote to queen",
               "the promotion chooser, queen first")
        if name == "queen":
            ActionChains(p.d).send_keys(Keys.ENTER).perform()
        else:
            p.click_board(f"promote to {name}")


def chess_pgn(page):
    """The page's PGN of the game, checked by python-chess when it is installed: the tags,
    each SAN move against the moves played, and the final position. Returns the PGN."""
    page.d.find_element(By.CSS_SELECTOR, "aside details:nth-of-type(2) summary").click()
    box = page.d.find_element(By.ID, "recordtext")
    box.clear()
    page.d.find_element(By.ID, "copypgn").click()
    page.wait(lambda: box.get_attribute("value").startswith("[Event "), "the PGN")
    text = box.get_attribute("value")
    page.d.find_element(By.CSS_SELECTOR, "aside details:nth-of-type(2) summary").click()
    for tag in ["Event", "Site", "Date", "Round", "White", "Black", "Result"]:
        check(f"[{tag} " in text, f"chess: the PGN lacks the {tag} tag:\n{text}")
    try:
        import io
        import chess.pgn
    except ImportError:
        print("note: python-chess is not installed; the PGN's moves were not checked")
        return text
    game = chess.pgn.read_game(io.StringIO(text))
    check(game is not None and not game.errors, f"python-chess cannot read the PGN: {game and game.errors}\n{text}")
    played = page.played()
    board = game.board()
    ucis = []
    for node in game.mainline():
        ucis.append(board.uci(node.move, chess960=board.chess960))
        board.push(node.move)
    want = [mv for mv, _ in played]
    check(ucis == want, f"chess: the PGN's moves {ucis} are not the moves played {want}")
    fen = page.d.find_element(By.ID, "fen").get_attribute("value")
    check(board.board_fen() == fen.split()[0], f"chess: the PGN ends at {board.fen()}, the page at {fen}")
    return text


def chess_sans(fen, ucis, chess960=False):
    """python-chess's SAN of each move, or None without python-chess."""
    try:
        import chess
    except ImportError:
        return None
    board = chess.Board(fen, chess960=chess960)
    out = []
    for u in ucis:
        m = board.parse_uci(u)
        out.append(board.san(m))
        board.push(m)
    return out


def chess_two_people(page):
    """Two people on one board: en passant, an underpromotion picked in the chooser,
    castling by the king's two-square step and onto its rook, a typed SAN move, an illegal
    click, the arrow keys and the flipped board."""
    chess_start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    page.d.find_element(By.ID, "startpos").clear()
    page.new_game("chess", {"chess960": False, "start": ""}, second="human", values=False)
    # The arrow keys walk the board: from c2 up to c3.
    page.js("[...document.querySelectorAll('#board [role=button]')]"
            ".find(e => e.getAttribute('aria-label').startsWith('c2,')).focus()")
    ActionChains(page.d).send_keys(Keys.ARROW_UP).perform()
    page.wait(lambda: page.js("return document.activeElement.getAttribute('aria-label')").startswith("c3,"),
              "the arrow key to move the focus to c3")
    # A pawn cannot jump three squares: the engine's words.
    page.click_board("a2,")
    page.click_board("a5,")
    page.wait(lambda: "cannot move" in page.alert(), "the illegal-move message")
    check(page.alert() == "A pawn on a2 cannot move to a5.", f"chess: {page.alert()!r}")
    line = [("e2e4", None), ("d7d5", None), ("e4d5", None), ("c7c5", None), ("d5c6", None),
            ("d8b6", None), ("c6b7", None), ("g8f6", None), ("b7a8n", None), ("e7e6", None),
            ("g1f3", None), ("f8e7", None), ("f1e2", None), ("e8g8", None), ("e1g1", "h1")]
    for i, (mv, target) in enumerate(line):
        chess_move(page, mv, target)
        page.wait(lambda: page.moves_played() == i + 1 or page.alert(), f"the move {mv}")
        check(page.moves_played() == i + 1, f"chess: {mv} was refused: {page.alert()}")
    box = page.d.find_element(By.ID, "moveinput")
    box.send_keys("Nc3", Keys.ENTER)
    page.wait(lambda: "'Nc3' is not a legal move here" in page.alert(), "the refusal of Nc3 (Black to move)")
    box.send_keys("Nc6", Keys.ENTER)
    page.wait(lambda: page.moves_played() == len(line) + 1, "the typed move Nc6")
    played = page.played()
    ucis = [mv for mv, _ in played]
    check(ucis[-1] == "b8c6", f"chess: Nc6 was played as {ucis[-1]}")
    shown = [label.split(". ")[-1] for _, label in played]
    want = chess_sans(chess_start, ucis)
    if want is not None:
        check(shown == want, f"chess: the move list shows {shown}, python-chess says {want}")
    check("O-O" in shown and "bxa8=N" in shown and "dxc6" in shown, f"chess: the move list shows {shown}")
    chess_pgn(page)
    page.d.find_element(By.ID, "flip").click()
    corner = page.js("const r = document.querySelector('#board [data-key=h1] rect'); return [r.getAttribute('x'), r.getAttribute('y')]")
    check(corner == ["0", "0"], f"chess: flipped, h1 is drawn at {corner}, not the top left")
    shot = page.screenshot("chess-two-people-flipped")
    page.d.find_element(By.ID, "flip").click()
    return shot


def chess_repetition(page):
    """Knights out and back twice: the start position stands for the third time, a draw."""
    page.d.find_element(By.ID, "startpos").clear()
    page.new_game("chess", {"chess960": False, "start": ""}, second="human", values=False)
    box = page.d.find_element(By.ID, "moveinput")
    for i, mv in enumerate("Nf3 Nf6 Ng1 Ng8 g1f3 g8f6 f3g1 f6g8".split()):
        box.send_keys(mv, Keys.ENTER)
        page.wait(lambda: page.moves_played() == i + 1, f"the typed move {mv}")
    page.wait(page.over, "the repetition to end the game")
    check("threefold repetition" in page.status(), f"chess: {page.status()}")


def chess960(page):
    """Chess960 castling: White's king onto its rook, Black's king onto its destination."""
    fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/1R1K2R1 w GBkq - 0 1"
    start = page.d.find_element(By.ID, "startpos")
    start.clear()
    start.send_keys(fen)
    page.new_game("chess", {"chess960": True, "start": ""}, second="human", values=False)
    start.clear()
    chess_move(page, "d1g1")
    page.wait(lambda: page.moves_played() == 1 or page.alert(), "White's castling")
    chess_move(page, "e8a8", target="c8")
    page.wait(lambda: page.moves_played() == 2 or page.alert(), "Black's castling")
    check(page.moves_played() == 2, f"Chess960: castling was refused: {page.alert()}")
    played = page.played()
    check([mv for mv, _ in played] == ["d1g1", "e8a8"], f"Chess960: played {played}")
    check(played[0][1].endswith("O-O") and played[1][1].endswith("O-O-O"), f"Chess960: the list shows {played}")
    for label in ["g1, white king", "f1, white rook", "c8, black king", "d8, black rook"]:
        page.board_element(label)
    chess_pgn(page)


def chess_referee_record(page, referee, ply):
    """A record written by ply-referee loads and replays to its final position."""
    if not referee or not os.path.exists(referee):
        print(f"note: no ply-referee at {referee}; loading a referee's chess record was not checked")
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "games.jsonl")
        subprocess.run([referee, "--game", "chess", "--engine", f"cmd={ply}", "name=a", "depth=2",
                        "--engine", f"cmd={ply}", "name=b", "depth=1", "--games", "1",
                        "--random-plies", "4", "--max-plies", "40", "--records", path],
                       capture_output=True, timeout=120, check=True)
        text = open(path).read()
    rec = json.loads(text.splitlines()[0])
    page.d.find_element(By.CSS_SELECTOR, "aside details:nth-of-type(2) summary").click()
    box = page.d.find_element(By.ID, "recordtext")
    box.clear()
    page.js("arguments[0].value = arguments[1]", box, text)
    page.d.find_element(By.ID, "load").click()
    page.wait(lambda: "Loaded game 1 of 1" in page.alert(), "the referee's record to load")
    page.d.find_element(By.CSS_SELECTOR, "aside details:nth-of-type(2) summary").click()
    page.d.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    page.wait(lambda: page.d.find_element(By.ID, "fen").get_attribute("value") == rec["final_fen"],
              "the referee's game to replay to its final position")
    n = len(rec["opening"]["moves"]) + len(rec["moves"])
    check(page.moves_played() == n, f"chess: the referee's record has {n} moves, the page {page.moves_played()}")


def chess_game(page, ply):
    """A complete game against ply (depth 2) through clicks: the person castles long by
    moving the king onto its rook, then plays ply's own choice at depth 5, promoting in the
    chooser, until the mate."""
    chess_referee_record(page, os.path.join(os.path.dirname(ply), "ply-referee"), ply)
    chess960(page)
    chess_repetition(page)
    print(f"ok chess, two people: screenshot {chess_two_people(page)}")
    fen = "4k3/1P6/8/8/8/8/8/R3K2R w KQ - 0 1"
    start = page.d.find_element(By.ID, "startpos")
    start.clear()
    start.send_keys(fen)
    page.new_game("chess", {"chess960": False, "start": ""}, limit=2, values=False)
    start.clear()

    def choose(legal):
        moves = [mv for mv, _ in page.played()]
        if not moves:
            check("e1c1" in legal, f"chess: castling long is not legal: {legal}")
            return "e1c1"
        return ply_best(ply, fen, moves, 5)

    def click(p, mv):
        chess_move(p, mv, target="a1" if mv == "e1c1" else None)

    play(page, "chess", "White", choose, click)
    status = check_result(page, ply, "newgame chess", "chess")
    check("White wins: checkmate" in status, f"chess: {status}")
    page.board_element("")  # the board is drawn
    check(page.js("return [...document.querySelectorAll('#board [role=button]')]"
                  ".some(e => e.getAttribute('aria-label').endsWith('black king, in check'))"),
          "chess: the mated king is not marked in check")
    shown = [label for _, label in page.played()]
    check(shown[0] == "1. O-O-O" and shown[-1].endswith("#") and any("=Q" in s for s in shown),
          f"chess: the move list shows {shown}")
    pgn = chess_pgn(page)
    print(f"chess against ply: {' '.join(shown)}")
    check('[Result "1-0"]' in pgn and '[FEN "4k3/1P6/8/8/8/8/8/R3K2R w KQ - 0 1"]' in pgn,
          f"chess: the PGN's tags:\n{pgn}")
    return status


def checkers_move(p, mv, legal, styles):
    """Clicks a checkers move: the piece, then its square; a capture of several jumps by its
    last square alone when no other capture of that piece passes through it, else by its
    landing squares in turn. `styles` counts the ways used."""
    sq = mv.replace("x", "-").split("-")
    p.click_board(f"{sq[0]},")
    p.wait(lambda: "selected" in p.board_element(f"{sq[0]},").get_attribute("aria-label"),
           f"the piece on {sq[0]} to be selected")
    through = [m for m in legal if m.replace("x", "-").split("-")[0] == sq[0]
               and sq[-1] in m.replace("x", "-").split("-")[1:]]
    if len(sq) > 2 and len(through) == 1:
        styles["last square"] += 1
        p.click_board(f"{sq[-1]},")
        return
    for i, s in enumerate(sq[1:], 2):
        p.click_board(f"{s},")
        if i < len(sq):
            p.wait(lambda: "selected" in p.board_element(f"{s},").get_attribute("aria-label")
                   or p.js("return !!document.querySelector('#board [aria-label$=\", selected\"]')"),
                   f"the landing square {s} to be kept")
    styles["jumps in turn" if len(sq) > 2 else "capture" if "x" in mv else "step"] += 1


def checkers(page, ply):
    checkers_double_jump(page)
    page.new_game("checkers", {"noprogress": 40}, limit=2, values=False)
    # Square 1 is the second cell of the top row, 29 the bottom left cell, as in PDN.
    at = lambda n: page.js("const c = [...document.querySelectorAll('#board [role=button]')]"
                           ".find(e => e.dataset.key === arguments[0]).querySelector('rect');"
                           "return [c.getAttribute('x'), c.getAttribute('y')]", n)
    check(at("1") == ["60", "0"] and at("29") == ["0", "420"] and at("32") == ["360", "420"],
          f"checkers: squares 1, 29, 32 are drawn at {at('1')}, {at('29')}, {at('32')}")
    check(page.board_element("12,").get_attribute("aria-label") == "12, black man"
          and page.board_element("21,").get_attribute("aria-label") == "21, white man",
          "checkers: the men are not on 1-12 and 21-32")
    # A man that cannot go there: the rules' words.
    page.click_board("9,")
    page.click_board("18,")
    page.wait(lambda: page.alert(), "the illegal-move message")
    check(page.moves_played() == 0, f"checkers: 9-18 was played: {page.alert()}")
    styles = {"step": 0, "capture": 0, "jumps in turn": 0, "last square": 0}
    rng = random.Random(5)
    legal_now = []

    def choose(legal):
        legal_now[:] = legal
        return rng.choice(legal)

    play(page, "checkers", "Black", choose, lambda p, mv: checkers_move(p, mv, legal_now, styles))
    status = check_result(page, ply, "newgame checkers", "checkers")
    mine = [mv for i, (mv, _) in enumerate(page.played()) if i % 2 == 0]
    check(any("x" in mv for mv in mine), f"checkers: Black captured nothing in {mine}")
    print(f"checkers: Black's moves by clicks: {styles}")
    return status


def checkers_double_jump(page):
    """A double jump, 9x18x27, by its landing squares in turn and then by its last square
    alone, kings of both colours labelled as kings; then two captures through the same
    landing square, chosen by the click after it."""
    fen = "B:W14,23,31,K30:B1,9,K4"
    for clicks in (["9", "18", "27"], ["9", "27"]):
        start = page.d.find_element(By.ID, "startpos")
        start.clear()
        start.send_keys(fen)
        page.new_game("checkers", {"noprogress": 40}, limit=2, values=False)
        start.clear()
        check(page.legal() == ["9x18x27"], f"checkers: legal in {fen}: {page.legal()}")
        check(page.board_element("4,").get_attribute("aria-label") == "4, black king"
              and page.board_element("30,").get_attribute("aria-label") == "30, white king",
              "checkers: the kings are not labelled as kings")
        page.click_board("9,")
        page.wait(lambda: "selected" in page.board_element("9,").get_attribute("aria-label"),
                  "the man on 9 to be selected")
        for s in clicks[1:-1]:
            page.click_board(f"{s},")
            page.wait(lambda: "on the way" in page.board_element(f"{s},").get_attribute("aria-label"),
                      f"the landing square {s} to be kept")
            check(page.moves_played() == 0, "checkers: the jump was played before its last square")
            check(page.board_element("14,").get_attribute("aria-label") == "14, white man, jumped",
                  f"checkers: 14 is {page.board_element('14,').get_attribute('aria-label')!r}")
            page.screenshot("checkers-double-jump")
        page.click_board(f"{clicks[-1]},")
        page.wait(lambda: page.moves_played() >= 1, f"the double jump by clicks on {clicks}")
        check(page.played()[0][0] == "9x18x27", f"checkers: played {page.played()[0]}")
        page.wait(lambda: page.board_element("18,").get_attribute("aria-label") == "18, empty"
                  and page.board_element("14,").get_attribute("aria-label") == "14, empty",
                  "the jumped man to be taken off")
    # Two captures through 18: a click on 18 keeps both, marked; the next click chooses.
    start = page.d.find_element(By.ID, "startpos")
    start.clear()
    start.send_keys("B:W15,22,23,K6:B11,K31")
    page.new_game("checkers", {"noprogress": 40}, limit=2, values=False)
    start.clear()
    check(sorted(page.legal()) == ["11x18x25", "11x18x27"], f"checkers: legal: {page.legal()}")
    page.click_board("11,")
    page.wait(lambda: "selected" in page.board_element("11,").get_attribute("aria-label"),
              "the man on 11 to be selected")
    page.click_board("18,")
    page.wait(lambda: "on the way" in page.board_element("18,").get_attribute("aria-label"),
              "18 to be kept")
    check(page.moves_played() == 0
          and page.board_element("25,").get_attribute("aria-label").endswith("move here")
          and page.board_element("27,").get_attribute("aria-label").endswith("move here"),
          "checkers: after 11 and 18, 25 and 27 are not both offered")
    page.click_board("27,")
    page.wait(lambda: page.moves_played() >= 1, "11x18x27")
    check(page.played()[0][0] == "11x18x27", f"checkers: played {page.played()[0]}")


def watch(page):
    """Two engines on clocks play tic-tac-toe; then analysis of the start position."""
    for i in (0, 1):
        Select(page.d.find_element(By.ID, f"seat{i}")).select_by_value("ply")
        Select(page.d.find_element(By.ID, f"limit{i}")).select_by_value("clock")
        v = page.d.find_element(By.ID, f"limitv{i}")
        v.clear()
        v.send_keys("0.2+0.1")
    page.new_game("tictactoe", {}, first="ply", limit="0.2+0.1")
    page.wait(page.over, "the engines' game to end", timeout=GAME_TIMEOUT)
    check("Draw" in page.status(), f"ply against itself: {page.status()}")
    clocks = page.js("return [...document.querySelectorAll('.bar .clock')].map(c => c.textContent)")
    check(all(c.startswith("0:") for c in clocks), f"the clocks show {clocks}")
    page.d.find_element(By.ID, "analyse").click()
    page.d.find_element(By.TAG_NAME, "body").send_keys(Keys.HOME)
    score = lambda: page.d.find_element(By.CSS_SELECTOR, "#analysis .score").text
    page.wait(lambda: score() == "draw (proven)", "the analysis of the start")
    page.d.find_element(By.ID, "analyse").click()
    shot = page.screenshot("watch-tictactoe")
    for i in (0, 1):
        Select(page.d.find_element(By.ID, f"limit{i}")).select_by_value("depth")
    return shot


def crash(page):
    """An engine that exits at its second search: the page ends the game and says why."""
    page.new_game("tictactoe", {}, second="crashy", values=False)
    page.click_board("b2,")
    page.wait(lambda: page.moves_played() == 2, "the fake engine's first move")
    page.click_board(page.legal()[0] + ",")
    page.wait(page.over, "the crash to end the game")
    status = page.status()
    check("O (crashy) crashed" in status and "exit status 3" in status, f"status: {status}")
    check("fake-crash" in page.alert(), f"the engine's stderr is not shown: {page.alert()!r}")
    return status


def phone(driver, url, shots):
    driver.set_window_size(390, 844)
    page = Page(driver, url, shots)
    page.new_game("connect4", {}, values=False)
    page.click_board("column 4,")
    page.wait(lambda: page.moves_played() == 2, "ply's answer")
    width = page.js("return document.documentElement.scrollWidth")
    check(width <= 400, f"the page is {width} px wide at phone width")
    page.js("window.scrollTo(0, 0)")
    shot = page.screenshot("phone-connect4")
    page.new_game("chess", {"chess960": False, "start": ""}, limit=2, values=False)
    chess_move(page, "e2e4")
    page.wait(lambda: page.moves_played() == 2, "ply's answer to e4")
    chess_move(page, "d1h5")
    page.wait(lambda: page.moves_played() == 4, "ply's answer to Qh5")
    width = page.js("return document.documentElement.scrollWidth")
    check(width <= 400, f"the chess page is {width} px wide at phone width")
    page.js("window.scrollTo(0, 0)")
    return f"{shot}, {page.screenshot('phone-chess')}"


# ---------------------------------------------------------------- the defects players met

def two_people(page, game, params=None):
    page.d.find_element(By.ID, "startpos").clear()
    page.new_game(game, params or {}, second="human", values=False)


def type_move(page, text):
    box = page.d.find_element(By.ID, "moveinput")
    box.clear()
    box.send_keys(text, Keys.ENTER)


def move_labels(page):
    return [label for _, label in page.played()]


def movers(page):
    """Who made each move of the list: 'human', 'engine', 'setup' or 'record'."""
    return page.js("return [...document.querySelectorAll('#movelist li button')].slice(1).map(b => b.dataset.by || '?')")


def on_board(page, label_prefix, act):
    """Runs `act(element)` on the board element labelled `label_prefix`, again if the board
    was redrawn under it."""
    for _ in range(20):
        try:
            return act(page.board_element(label_prefix))
        except StaleElementReferenceException:
            time.sleep(0.05)
    raise Failure(f"the board kept changing under {label_prefix!r}")


def double_click(page, label_prefix):
    on_board(page, label_prefix, lambda el: ActionChains(page.d, duration=30).double_click(el).perform())


def settle(page, moves, me):
    """Waits until `moves` moves are on the list and it is `me`'s turn (or an alert)."""
    page.wait(lambda: page.alert() or (page.moves_played() >= moves and page.status().startswith(f"{me} to move")
                                       and page.legal()), f"{moves} moves and {me}'s turn")
    # A move sent twice would be applied by the time a second answer arrives.
    time.sleep(0.25)


def defect_double_click(page):
    """A double-click on a move button, or on a square after selecting a piece, plays the
    move once; the engine answers once, with its own move."""
    page.new_game("chess", {"chess960": False, "start": ""}, limit=1, values=False)
    btn = page.js("return document.querySelector('#legal button.mv[data-mv=e2e4]')")
    ActionChains(page.d, duration=30).double_click(btn).perform()
    settle(page, 2, "White")
    ucis = [mv for mv, _ in page.played()]
    check(len(ucis) == 2 and ucis[0] == "e2e4" and ucis[1] != "e2e4" and not page.alert(),
          f"double-click on e4: the game is {ucis}, alert {page.alert()!r}")
    page.click_board("d2,")
    page.wait(lambda: "selected" in page.board_element("d2,").get_attribute("aria-label"), "d2 selected")
    double_click(page, "d4,")
    settle(page, 4, "White")
    ucis = [mv for mv, _ in page.played()]
    check(len(ucis) == 4 and ucis[2] == "d2d4" and not page.alert(),
          f"d2, then a double-click on d4: the game is {ucis}, alert {page.alert()!r}")
    # Connect Four: one red disc, then the engine's yellow one (with its depth).
    page.new_game("connect4", {"width": 7, "height": 6}, limit=2, values=False)
    double_click(page, "column 4,")
    settle(page, 2, "Red")
    who = movers(page)
    check(who == ["human", "engine"] and not page.alert(),
          f"Connect Four double-click: the moves were made by {who}, alert {page.alert()!r}")
    # Teeko: quick clicks on four cells are the person's drops only on the person's turns:
    # never two in a row, never one for the engine.
    page.new_game("teeko", {}, limit=1, values=False)
    for cell in ["a1,", "b1,", "c1,", "d1,"]:
        on_board(page, cell, lambda el: el.click())
    time.sleep(0.5)
    page.wait(lambda: page.over() or page.status().startswith("Black to move"), "Black's turn")
    who = movers(page)
    check(all(w == ("human" if i % 2 == 0 else "engine") for i, w in enumerate(who)),
          f"Teeko, four quick clicks: the moves were made by {who}")
    return "one move per double-click"


def tap(page, el):
    touch = PointerInput(interaction.POINTER_TOUCH, "finger")
    ab = ActionBuilder(page.d, mouse=touch, duration=30)
    ab.pointer_action.move_to(el).pointer_down().pause(0.05).pointer_up()
    ab.perform()


def defect_nim_sticks(page):
    """Nim's sticks take a real mouse click (the pointer resting on the stick first) and a
    tap; the move is the one under the pointer."""
    page.new_game("nim", {"heaps": "10", "max": 3, "misere": False}, limit=1, values=False)
    on_board(page, "take 2 from the heap",
             lambda el: ActionChains(page.d, duration=30).move_to_element(el).pause(0.3).click().perform())
    page.wait(lambda: page.moves_played() >= 1 or page.alert(), "the clicked stick's move")
    check([mv for mv, _ in page.played()][:1] == ["2"], f"a click on a stick played {page.played()}")
    settle(page, 2, "Player 1")
    on_board(page, "take 1 from the heap", lambda el: tap(page, el))
    page.wait(lambda: page.moves_played() >= 3 or page.alert(), "the tapped stick's move")
    check([mv for mv, _ in page.played()][2:3] == ["1"], f"a tap on a stick played {page.played()}")
    return "click and tap"


def defect_move_box(page):
    """The Move box plays one move per entry."""
    page.new_game("connect4", {"width": 7, "height": 6}, limit=1, values=False)
    type_move(page, "4 4 4")
    page.wait(lambda: page.alert(), "the refusal of '4 4 4'")
    check(page.moves_played() == 0 and "one move" in page.alert().lower(),
          f"'4 4 4': {page.moves_played()} moves, alert {page.alert()!r}")
    two_people(page, "tictactoe")
    type_move(page, "a1 b1 a2 b2 a3")
    page.wait(lambda: page.alert(), "the refusal of five moves")
    check(page.moves_played() == 0 and not page.over(), f"five moves in one entry: {page.played()}")
    return page.alert()


def feature_form_from_specs(page):
    """The new-game form is built from the parameters the server declares: Nim's length,
    heaps, largest take and misère, with their labels and help."""
    Select(page.d.find_element(By.ID, "game")).select_by_value("nim")
    fields = page.js("return [...document.querySelectorAll('#params label')].map(l => "
                     "[l.querySelector('input').id, l.textContent.trim(), l.title])")
    check([f[0] for f in fields] == ["param-length", "param-heaps", "param-max", "param-misere"],
          f"Nim's form: {fields}")
    check(fields[3][1] == "Misère" and "last object loses" in fields[3][2], f"Nim's misère field: {fields[3]}")
    return ", ".join(f[1] for f in fields)


def options_of(page, select_id):
    return page.js("return [...document.querySelectorAll(arguments[0] + ' option')].map(o => o.value)", f"#{select_id}")


def defect_engines_for_games(page):
    """An engine is offered only for the games it declares: a plain UCI engine (no
    UCI_Variant) plays chess only; the fake ply-protocol engine declares tic-tac-toe and
    Connect Four."""
    sel = Select(page.d.find_element(By.ID, "game"))
    seen = {}
    for game in ["connect4", "chess", "nim"]:
        sel.select_by_value(game)
        seen[game] = (options_of(page, "seat1"), options_of(page, "an-engine"))
    check("uci" not in seen["connect4"][0] and "uci" not in seen["connect4"][1],
          f"the UCI chess engine is offered for Connect Four: {seen['connect4']}")
    check("uci" in seen["chess"][0] and "uci" in seen["chess"][1], f"chess: {seen['chess']}")
    check("crashy" in seen["connect4"][0] and "crashy" not in seen["nim"][0] and "crashy" not in seen["chess"][0],
          f"the fake engine's games: {seen}")
    return f"Connect Four offers {seen['connect4'][0]}, chess {seen['chess'][0]}"


def focused_label(page):
    return page.js("const a = document.activeElement; return a ? (a.getAttribute('aria-label') || a.id || a.tagName) : ''")


def defect_focus(page):
    """Keyboard play keeps the focus on the board: after a move (and the engine's answer)
    and after selecting a chess piece."""
    page.new_game("connect4", {"width": 7, "height": 6}, limit=1, values=False)
    page.js("arguments[0].focus()", page.board_element("column 4,"))
    ActionChains(page.d).send_keys(Keys.ENTER).perform()
    settle(page, 2, "Red")
    check(focused_label(page).startswith("column 4"), f"Connect Four: after a move the focus is on {focused_label(page)!r}")
    ActionChains(page.d).send_keys(Keys.TAB).perform()
    check(focused_label(page).startswith("column 5"), f"Connect Four: Tab went to {focused_label(page)!r}")
    two_people(page, "tictactoe")
    page.js("arguments[0].focus()", page.board_element("b2,"))
    ActionChains(page.d).send_keys(Keys.ENTER).perform()
    page.wait(lambda: page.moves_played() == 1, "b2")
    check(focused_label(page).startswith("b2"), f"tic-tac-toe: after a move the focus is on {focused_label(page)!r}")
    two_people(page, "chess", {"chess960": False, "start": ""})
    page.js("arguments[0].focus()", page.board_element("e2,"))
    ActionChains(page.d).send_keys(Keys.ENTER).perform()
    page.wait(lambda: "selected" in page.board_element("e2,").get_attribute("aria-label"), "e2 selected")
    check(focused_label(page).startswith("e2"), f"chess: after selecting e2 the focus is on {focused_label(page)!r}")
    ActionChains(page.d).send_keys(Keys.ARROW_UP, Keys.ARROW_UP, Keys.ENTER).perform()
    page.wait(lambda: page.moves_played() == 1, "e2e4 by the keyboard")
    check(focused_label(page).startswith("e4"), f"chess: after e4 the focus is on {focused_label(page)!r}")
    return "kept"


def load_text(page, text):
    page.d.find_element(By.CSS_SELECTOR, "aside details:nth-of-type(2) summary").click()
    box = page.d.find_element(By.ID, "recordtext")
    page.js("arguments[0].value = arguments[1]", box, text)
    page.d.find_element(By.ID, "load").click()


def defect_bad_record(page):
    """A record with an illegal move is refused with its reason, not loaded as an empty game."""
    two_people(page, "tictactoe")
    load_text(page, '{"game":"connect4","moves":[{"mv":"4"},{"mv":"9"}]}')
    page.wait(lambda: page.alert(), "the refusal of the record")
    time.sleep(0.5)
    alert = page.alert()
    page.d.find_element(By.CSS_SELECTOR, "aside details:nth-of-type(2) summary").click()
    check("Loaded" not in alert and "9" in alert, f"a record with the move 9: {alert!r}")
    return alert


def defect_player_messages(page):
    """Refusals speak of the game, not of the protocol's command line."""
    two_people(page, "connect4", {"width": 7, "height": 6})
    for i in range(6):
        page.click_board("column 4,")
        page.wait(lambda: page.moves_played() == i + 1, f"disc {i + 1}")
    page.click_board("column 4,")
    page.wait(lambda: page.alert(), "the full column's refusal")
    check(page.alert() == "Column 4 is full.", f"a full column: {page.alert()!r}")
    return page.alert()


def defect_teeko_last(page):
    """Teeko marks the engine's drop."""
    page.new_game("teeko", {}, limit=1, values=False)
    page.click_board("c3,")
    settle(page, 2, "Black")
    engine = [mv for mv, _ in page.played()][1]
    label = page.board_element(f"{engine},").get_attribute("aria-label")
    check("last move" in label, f"Teeko: the engine's drop on {engine} is unmarked: {label!r}")
    return label


def defect_draw_words(page):
    """A draw reads 'Draw — a full board', not 'Draw — draw: ...'."""
    two_people(page, "tictactoe")
    for mv in "a1 b2 c3 b1 b3 a3 c1 c2 a2".split():
        type_move(page, mv)
    page.wait(page.over, "the drawn tic-tac-toe game")
    check(page.status() == "Draw — a full board", f"tic-tac-toe draw: {page.status()!r}")
    return page.status()


def defect_over_first(page):
    """After the game has ended, a typed move is told the game is over."""
    two_people(page, "chess", {"chess960": False, "start": ""})
    for mv in "f2f3 e7e5 g2g4 d8h4".split():
        type_move(page, mv)
    page.wait(page.over, "fool's mate")
    type_move(page, "zzz")
    page.wait(lambda: page.alert(), "the answer to zzz")
    check("over" in page.alert(), f"zzz after the mate: {page.alert()!r}")
    return page.alert()

def defect_result_shown(page):
    """The result line at the end of a long move list is shown whole, not cut by the
    list's scrolling."""
    start = page.d.find_element(By.ID, "startpos")
    start.clear()
    start.send_keys("startpos moves " + " ".join(["1"] * 58))
    page.new_game("nim", {"heaps": "60", "max": 1, "misere": True}, second="human", values=False, setup=58)
    start.clear()
    type_move(page, "1")
    page.wait(lambda: page.moves_played() == 59, "the 59th move")
    type_move(page, "1")
    page.wait(page.over, "the end of the long Nim game")
    box = page.js("""const l = document.querySelector('#movelist'), r = l.querySelector('.result');
        const a = l.getBoundingClientRect(), b = r.getBoundingClientRect();
        return [b.top - a.top, b.bottom - a.bottom, r.scrollWidth - r.clientWidth, r.textContent]""")
    check(box[0] >= 0 and box[1] <= 1 and box[2] <= 0, f"the result line is cut: {box}")
    return box[3]

def defect_ninth_page(page, gui_url):
    """A page beyond the server's limit (two pages here) says to close another page, and
    its menus are disabled."""
    first = page.d.current_window_handle
    page.d.switch_to.new_window("tab")
    second = page.d.current_window_handle
    try:
        page.d.get(gui_url)
        page.wait(lambda: page.d.find_element(By.ID, "conn").text == "connected", "the second page")
        page.d.switch_to.new_window("tab")
        try:
            page.d.get(gui_url)
            page.wait(lambda: page.d.find_element(By.ID, "conn").text.startswith("disconnected"), "the refusal")
            alert = page.alert()
            check("Restart" not in alert and "close" in alert.lower(), f"the page beyond the limit says {alert!r}")
            check(not page.d.find_element(By.ID, "start").is_enabled(),
                  "the page beyond the limit has its New game button enabled")
            return alert
        finally:
            page.d.close()
    finally:
        page.d.switch_to.window(second)
        page.d.close()
        page.d.switch_to.window(first)

# ---------------------------------------------------------------- what chess players expect

def drag(page, frm, to, touch=False, hold=None):
    """Drags the piece on `frm` to `to` with the mouse (or a finger): press, several moves,
    release. `hold(page)` runs mid-drag (a screenshot)."""
    a = page.board_element(f"{frm},")
    b = page.board_element(f"{to},")
    pa, pb = a.rect, b.rect
    x0, y0 = pa["x"] + pa["width"] / 2, pa["y"] + pa["height"] / 2
    x1, y1 = pb["x"] + pb["width"] / 2, pb["y"] + pb["height"] / 2
    kind = interaction.POINTER_TOUCH if touch else interaction.POINTER_MOUSE
    source = PointerInput(kind, "finger" if touch else "mouse")
    ab = ActionBuilder(page.d, mouse=source, duration=30)
    p = ab.pointer_action
    p.move_to_location(int(x0), int(y0)).pointer_down()
    for k in range(1, 6):
        p.move_to_location(int(x0 + (x1 - x0) * k / 6), int(y0 + (y1 - y0) * k / 6))
    if hold:
        # The mouse stays pressed between two action sequences (a touch would not).
        ab.perform()
        hold(page)
        ab = ActionBuilder(page.d, mouse=source, duration=30)
        p = ab.pointer_action
    p.move_to_location(int(x1), int(y1)).pointer_up()
    ab.perform()


def feature_drag_and_drop(page):
    """Chess moves by dragging, with the mouse and by touch; a drop on a square the piece
    cannot reach puts it back; click-click still works."""
    two_people(page, "chess", {"chess960": False, "start": ""})
    shot = {}
    drag(page, "e2", "e4", hold=lambda p: shot.setdefault("path", p.screenshot("chess-drag")))
    page.wait(lambda: page.moves_played() == 1, "the dragged e2e4")
    check(page.js("return document.querySelectorAll('#board .drag-piece').length") == 0, "the dragged piece stayed")
    drag(page, "e7", "e5", touch=True)
    page.wait(lambda: page.moves_played() == 2, "e7e5 dragged by touch")
    drag(page, "g1", "g4")
    # The board drops clicks for 400 ms after a drop (the click the browser fires on the
    # release); the click-click move below comes after that.
    time.sleep(0.6)
    check(page.moves_played() == 2 and not page.alert(), f"a drop on an unreachable square: {page.played()}, {page.alert()!r}")
    chess_move(page, "g1f3")
    page.wait(lambda: page.moves_played() == 3, "g1f3 by two clicks")
    check([mv for mv, _ in page.played()] == ["e2e4", "e7e5", "g1f3"], f"the moves: {page.played()}")
    return shot["path"]


PGN_FILE = """[Event "Casual"]
[White "Anderssen"]
[Black "Kieseritzky"]
[Result "1-0"]

1. e4 e5 2. f4 exf4 3. Bc4 Qh4+ {the queen comes out} 4. Kf1 b5 $1 (4... Nf6 5. Nf3) 5. Bxb5 Nf6 1-0

[Event "A Chess960 game"]
[White "x"]
[Black "y"]
[Variant "Chess960"]
[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"]
[Result "*"]

1. g3 g6 2. Nd3 ; a comment to the end of the line
Nd6 *
"""


def feature_pgn_import(page):
    """A PGN file of two games: listed, the second chosen and loaded (Chess960 from its FEN);
    the first, with comments, a variation and a NAG, read to its last move."""
    page.d.find_element(By.CSS_SELECTOR, "aside details:nth-of-type(2) summary").click()
    box = page.d.find_element(By.ID, "recordtext")
    page.js("arguments[0].value = arguments[1]", box, PGN_FILE)
    page.d.find_element(By.ID, "load").click()
    page.wait(lambda: page.d.find_element(By.ID, "pgngames").is_displayed(), "the list of the file's games")
    options = page.js("return [...document.querySelectorAll('#pgnpick option')].map(o => o.textContent)")
    check(len(options) == 2 and "Anderssen – Kieseritzky 1-0" in options[0], f"the games listed: {options}")
    Select(page.d.find_element(By.ID, "pgnpick")).select_by_value("2")
    page.d.find_element(By.ID, "pgnload").click()
    page.wait(lambda: "Loaded PGN game 2" in page.alert(), "game 2 to load")
    check([mv for mv, _ in page.played()] == ["g2g3", "g7g6", "e1d3", "e8d6"], f"game 2: {page.played()}")
    check(page.d.find_element(By.ID, "param-chess960").is_selected(), "game 2 is not Chess960")
    Select(page.d.find_element(By.ID, "pgnpick")).select_by_value("1")
    page.d.find_element(By.ID, "pgnload").click()
    page.wait(lambda: "Loaded PGN game 1" in page.alert(), "game 1 to load")
    labels = move_labels(page)
    check(labels[-1] == "Nf6" and len(labels) == 10 and labels[4] == "3. Bc4", f"game 1: {labels}")
    page.d.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    fen = "rnb1kb1r/p1pp1ppp/5n2/1B6/4Pp1q/8/PPPP2PP/RNBQ1KNR w kq - 1 6"  # python-chess's
    page.wait(lambda: page.d.find_element(By.ID, "fen").get_attribute("value") == fen, "game 1's last position")
    page.d.find_element(By.CSS_SELECTOR, "aside details:nth-of-type(2) summary").click()
    return f"{len(options)} games listed; game 1 ends {labels[-3:]}"


def feature_clocks(page):
    """A person's own clock: White 2.4 s + 1 s a move, Black 2.4 s; White moves, Black's
    clock runs out and Black loses on time; the clocks go into the PGN as [%clk]."""
    for i, tc in [(0, "0.04+1"), (1, "0.04")]:
        Select(page.d.find_element(By.ID, f"seat{i}")).select_by_value("human")
        v = page.d.find_element(By.ID, f"clock{i}")
        v.clear()
        v.send_keys(tc)
    page.new_game("chess", {"chess960": False, "start": ""}, second="human", values=False)
    type_move(page, "e4")
    page.wait(lambda: page.moves_played() == 1, "e4")
    clocks = page.js("return [...document.querySelectorAll('.bar .clock')].map(c => [c.textContent, c.className])")
    check(any("running" in cls for _, cls in clocks), f"no clock runs: {clocks}")
    shot = page.screenshot("chess-clocks")
    page.wait(page.over, "Black's flag to fall", timeout=15)
    check(page.status() == "Game over — White wins: Black ran out of time", f"flag fall: {page.status()!r}")
    type_move(page, "e5")
    page.wait(lambda: "over" in page.alert(), "the refusal after the flag fell")
    pgn = chess_pgn(page)
    check(re.search(r"1\. e4 \{\d+\.\d\ds \[%clk 0:00:0[23]\.\d\]\}", pgn), f"no clock in the PGN:\n{pgn}")
    check('[Termination "time forfeit"]' in pgn, f"the PGN's termination:\n{pgn}")
    for i in (0, 1):
        page.d.find_element(By.ID, f"clock{i}").clear()
    return shot


def feature_arrows(page):
    """Analysis draws the engine's line as arrows on the chess board and marks the principal
    move in Connect Four and Teeko."""
    two_people(page, "chess", {"chess960": False, "start": ""})
    type_move(page, "e4")
    page.wait(lambda: page.moves_played() == 1, "e4")
    page.d.find_element(By.ID, "analyse").click()
    try:
        page.wait(lambda: page.js("return document.querySelectorAll('#board .arrow').length") >= 2, "arrows")
        time.sleep(0.5)
        shot = page.screenshot("chess-arrows")
        arrows = page.js("return document.querySelectorAll('#board .arrow').length")
        for game, params in [("connect4", {"width": 7, "height": 6}), ("teeko", {})]:
            two_people(page, game, params)
            page.wait(lambda: page.js("return document.querySelectorAll('#board .principal, #board .arrow').length") == 1,
                      f"{game}'s principal move marked")
        page.screenshot("teeko-principal")
    finally:
        page.d.find_element(By.ID, "analyse").click()
    return f"{arrows} arrows; {shot}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ply", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", help="comma-separated checks to run (a game's name, crash, watch, "
                    "phone); all by default")
    args = ap.parse_args()
    chromium = find("chromium", "/usr/bin/chromium", os.environ.get("CHROMIUM"))
    driver_bin = find("chromedriver", "/usr/bin/chromedriver", os.environ.get("CHROMEDRIVER"))
    if not chromium or not driver_bin:
        print(f"chromium ({chromium}) or chromedriver ({driver_bin}) is not installed")
        return 77
    os.makedirs(args.out, exist_ok=True)
    gui = Gui(args.ply)
    profile = tempfile.mkdtemp(prefix="ply-gui-chromium-")
    opts = webdriver.ChromeOptions()
    for f in CHROMIUM_FLAGS:
        opts.add_argument(f)
    opts.add_argument(f"--user-data-dir={profile}")
    opts.add_argument("--window-size=1280,1000")
    opts.binary_location = chromium
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_bin), options=opts)
    failures = []
    try:
        page = Page(driver, gui.url, args.out)
        only = set(args.only.split(",")) if args.only else None
        wanted = lambda name: only is None or name in only
        for name, run in [("tictactoe", tictactoe), ("connect4", connect4), ("nim", nim),
                          ("teeko", teeko), ("chess", chess_game), ("checkers", checkers)]:
            if not wanted(name):
                continue
            t0 = time.time()
            try:
                status = run(page, args.ply)
                shot = page.screenshot(name)
                moves = page.moves_played()
                check_record(page, name, moves)
                print(f"ok {name} ({time.time() - t0:.1f} s): {status!r} after {moves} moves; screenshot {shot}")
            except (Failure, WebDriverException) as e:
                page.screenshot(f"{name}-failed")
                failures.append(f"{name}: {e}")
                print(f"FAILED {name}: {e}")
        for name, run in [("double-click", defect_double_click), ("nim-sticks", defect_nim_sticks),
                          ("move-box", defect_move_box), ("engines", defect_engines_for_games),
                          ("form", feature_form_from_specs),
                          ("focus", defect_focus), ("bad-record", defect_bad_record),
                          ("messages", defect_player_messages), ("teeko-last", defect_teeko_last),
                          ("draw-words", defect_draw_words), ("over-first", defect_over_first),
                          ("result-shown", defect_result_shown),
                          ("ninth-page", lambda p: defect_ninth_page(p, gui.url)),
                          ("drag", feature_drag_and_drop), ("pgn-import", feature_pgn_import),
                          ("clocks", feature_clocks), ("arrows", feature_arrows),
                          ("crash", crash), ("watch", watch),
                          ("phone", lambda p: phone(driver, gui.url, args.out))]:
            if not wanted(name):
                continue
            t0 = time.time()
            try:
                result = run(page)
                print(f"ok {name} ({time.time() - t0:.1f} s): {result}")
            except (Failure, WebDriverException) as e:
                page.screenshot(f"{name}-failed")
                failures.append(f"{name}: {e}")
                print(f"FAILED {name}: {e}")
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        if errors:
            failures.append(f"browser console errors: {errors}")
        else:
            print("ok browser console: no errors")
    finally:
        driver.quit()
        gui.close()
        shutil.rmtree(profile, ignore_errors=True)
    if failures:
        print("\n".join(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
