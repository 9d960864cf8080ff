#!/usr/bin/env python3
"""Checks the page's chess notation (src/gui/page/chess.js) against python-chess: the SAN of
every move of random games (a third of them Chess960), the board they lead to, and the
threefold repetition count of every position of games that shuffle back and forth.

    scripts/gui_chess_notation.py [--games 300] [--seed 5]

Needs node and python-chess (pip install chess). Prints the counts; exit status 1 on any
difference.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

import chess

HARNESS = r"""
global.window = { GAMES: {} };
for (const f of ['el', 'text', 'clickable', 'newSvg']) global[f] = () => null;
const fs = require('fs');
eval(fs.readFileSync(process.argv[2], 'utf8') + '\n;global.T = {replay, boardFen, repetitions};');
const games = JSON.parse(fs.readFileSync(process.argv[3]));
let moves = 0, reps = 0, bad = 0;
for (const g of games) {
  const r = T.replay(g.fen, g.uci);
  g.san.forEach((san, i) => {
    moves++;
    if (r.names[i] !== san) { bad++; if (bad < 10) console.log(`SAN ${g.fen} ${g.uci.slice(0, i + 1).join(' ')}: ${r.names[i]}, python-chess ${san}`); }
    const three = T.repetitions(g.fen, g.uci.slice(0, i + 1)) >= 3;
    if (g.rep[i]) reps++;
    if (three !== g.rep[i]) { bad++; if (bad < 10) console.log(`repetition ${g.fen} ${g.uci.slice(0, i + 1).join(' ')}: ${three}`); }
  });
  const last = r.positions[r.positions.length - 1];
  if (!last || T.boardFen(last) !== g.end) { bad++; console.log(`board ${g.fen} ${g.uci.join(' ')}`); }
}
console.log(`${games.length} games, ${moves} moves, ${reps} threefold repetitions, ${bad} differences`);
process.exit(bad ? 1 : 0);
"""


def game(rng, board, plies, shuffle):
    fen, uci, san, rep = board.fen(), [], [], []
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        m = rng.choice(moves)
        spicy = [x for x in moves if board.is_castling(x) or x.promotion or board.is_capture(x)]
        if spicy and rng.random() < 0.4:
            m = rng.choice(spicy)
        if shuffle and len(board.move_stack) >= 2 and rng.random() < 0.6:
            prev = board.move_stack[-2]
            back = chess.Move(prev.to_square, prev.from_square)
            if back in moves:
                m = back
        san.append(board.san(m))
        uci.append(board.uci(m, chess960=board.chess960))
        board.push(m)
        rep.append(board.is_repetition(3))
    return {"fen": fen, "uci": uci, "san": san, "rep": rep, "end": board.board_fen()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    games = []
    for i in range(args.games):
        if i % 3 == 0:
            board = chess.Board.from_chess960_pos(rng.randrange(960))
            board.chess960 = True
        else:
            board = chess.Board()
        games.append(game(rng, board, rng.randint(20, 200), shuffle=i % 2 == 1))
    here = os.path.dirname(os.path.abspath(__file__))
    page = os.path.join(here, "..", "src", "gui", "page", "chess.js")
    with tempfile.TemporaryDirectory() as tmp:
        data, js = os.path.join(tmp, "games.json"), os.path.join(tmp, "harness.js")
        with open(data, "w") as f:
            json.dump(games, f)
        with open(js, "w") as f:
            f.write(HARNESS)
        return subprocess.run(["node", js, page, data]).returncode


if __name__ == "__main__":
    sys.exit(main())
