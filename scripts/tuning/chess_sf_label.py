#!/usr/bin/env python3
"""Relabels tuner positions with Stockfish's scores.

Reads lines `<FEN> | <result> | <score>` (scripts/tuning/chess_records_positions.py's or
scripts/tuning/chess_texel_data.py's) and writes the same lines with <score> replaced by
Stockfish's score of the position from a search of --nodes nodes (one thread, Hash 16), in
centipawns from White's side; positions Stockfish scores as a mate, or at 2000 cp or more,
are left out. The output is appended to line by line, so an interrupted run can be
continued with --skip (the number of input lines already done).

Stockfish runs as a UCI process driven through its pipes; nothing of it is linked into ply.

    nice -n 10 python3 scripts/tuning/chess_sf_label.py IN OUT [--nodes 5000] [--skip N]
"""

import argparse
import os
import subprocess
import sys
from shutil import which


def stockfish_path():
    for p in ["/usr/games/stockfish", which("stockfish")]:
        if p and os.access(p, os.X_OK):
            return p
    sys.exit("stockfish not found (apt-get install stockfish; it lands in /usr/games)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("inp")
    ap.add_argument("out")
    ap.add_argument("--nodes", type=int, default=5000)
    ap.add_argument("--skip", type=int, default=0)
    args = ap.parse_args()
    sf = subprocess.Popen(
        [stockfish_path()], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )

    def send(line):
        sf.stdin.write(line + "\n")
        sf.stdin.flush()

    def until(prefix):
        lines = []
        while True:
            line = sf.stdout.readline()
            if not line:
                sys.exit("stockfish exited")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    send("uci")
    until("uciok")
    send("setoption name Threads value 1")
    send("setoption name Hash value 16")
    send("isready")
    until("readyok")
    kept = 0
    with open(args.inp) as inp, open(args.out, "a") as out:
        for n, line in enumerate(inp):
            if n < args.skip:
                continue
            fen, result, _ = [x.strip() for x in line.split("|")]
            send(f"position fen {fen}")
            send(f"go nodes {args.nodes}")
            score = None
            for info in until("bestmove"):
                words = info.split()
                if "score" in words:
                    i = words.index("score")
                    score = (words[i + 1], int(words[i + 2]))
            if score is None or score[0] != "cp" or abs(score[1]) >= 2000:
                continue
            cp = score[1] if fen.split()[1] == "w" else -score[1]
            out.write(f"{fen} | {result} | {cp}\n")
            kept += 1
            if kept % 1000 == 0:
                out.flush()
                print(f"{n + 1} read, {kept} written", file=sys.stderr)
    send("quit")
    sf.wait(timeout=10)
    print(f"{kept} positions written", file=sys.stderr)


if __name__ == "__main__":
    main()
