#!/usr/bin/env python3
"""How far ply's own scores run from its opponent's, in ply-referee records (JSON Lines).

For each move of ENGINE (default `ply`) that its opponent answered, ENGINE's searched score
is paired with the opponent's score for its reply, turned to ENGINE's side. Printed: the
opponent's median by bands of ENGINE's score, and, for the games ENGINE lost or drew, in how
many it had scored itself +100 and +200 at some point. Mate scores are left out of the
bands. Scores are each engine's own units: ply's is about 0.65 of Stockfish 15.1's
centipawn (docs/chess.md, the twelfth round).

    python3 scripts/matches/chess_score_gap.py target/ladder/sf2400.jsonl [--engine ply]
"""

import json
import statistics
import sys

BANDS = [(100, 200), (200, 300), (300, 500), (500, 1000)]


def score(text):
    """A record's score ("cp N" or "mate N") as a number; mates as +-30000; None if none."""
    if not text:
        return None
    kind, value = text.split()[:2]
    if kind == "cp":
        return int(value)
    return 30000 if int(value) > 0 else -30000


def main():
    args = sys.argv[1:]
    engine = "ply"
    if "--engine" in args:
        i = args.index("--engine")
        engine = args[i + 1]
        del args[i : i + 2]
    if not args:
        sys.exit(__doc__)
    pairs = []
    peaks = {"lost": [], "drawn": []}
    for path in args:
        for line in open(path):
            g = json.loads(line)
            if "result" not in g or "moves" not in g:
                continue
            players = g["players"]
            white = players[g["p1_player"]]
            black = players[1 - g["p1_player"]]
            white_first = g["opening"]["fen"].split()[1] == "w"
            # The opening's moves are played before the records' moves begin.
            if len(g["opening"].get("moves", [])) % 2 == 1:
                white_first = not white_first
            order = [white, black] if white_first else [black, white]
            if engine not in order:
                continue
            moves = g["moves"]
            own = []
            for i, m in enumerate(moves):
                if order[i % 2] != engine:
                    continue
                mine = score(m.get("score"))
                if mine is not None:
                    own.append(mine)
                if i + 1 < len(moves):
                    theirs = score(moves[i + 1].get("score"))
                    if mine is not None and theirs is not None:
                        pairs.append((mine, -theirs))
            won_by_white = {"1-0": True, "0-1": False}.get(g["result"])
            if won_by_white is None:
                peaks["drawn"].append(max(own, default=0))
            elif won_by_white != (white == engine):
                peaks["lost"].append(max(own, default=0))
    print(f"{len(pairs)} moves of {engine} answered by the opponent")
    for low, high in BANDS:
        theirs = [t for mine, t in pairs if low <= mine < high and abs(t) < 30000]
        if theirs:
            median = statistics.median(theirs)
            band = f"{engine} +{low} to +{high - 1}"
            print(f"{band}: opponent's median {median:+g} ({len(theirs)} moves)")
    for what, tops in peaks.items():
        print(
            f"games {what}: {len(tops)}, {engine} at +100 or more in {sum(t >= 100 for t in tops)},"
            f" at +200 or more in {sum(t >= 200 for t in tops)}"
        )


if __name__ == "__main__":
    main()
