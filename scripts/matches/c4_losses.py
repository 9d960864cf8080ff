#!/usr/bin/env python3
"""Which of an engine's Connect Four losses were avoidable, from ply-referee's JSON Lines records.

For every game the named player lost, solves the position at that player's first move with
`ply solve connect4` (exact, no book): if it was a draw or a win for the player, the loss was
avoidable. With --blunders it also finds the player's first move that turned the value (the
position before it was not lost, after it was). Prints one line per loss and the count:

    avoidable losses: N of L (games G)

and how often the player moved without a proof (its reported score was not an exact one from
a solver or book: `score mate n` or `score cp 0` at depth 1), by the discs on the board when
it moved:

    unproven moves: U of M in K games; by discs: 11:3 12:1 ...

Usage: scripts/matches/c4_losses.py RECORDS.jsonl [--player NAME] [--ply PATH] [--threads N]
                            [--table-mb MB] [--blunders]

--player defaults to the first engine named "ply"-something in the records (or the first
player). --ply defaults to target/release/ply next to this script's repository. Exit status 0
when no loss was avoidable, 1 otherwise, 2 on bad input.
"""
import argparse
import json
import os
import subprocess
import sys


def solve(ply, moves, threads, table_mb):
    """Pons' score of the position after `moves` (a string of column digits) for the side to
    move: > 0 win, 0 draw, < 0 loss."""
    out = subprocess.run(
        [ply, "solve", "connect4", "--moves", moves or "-", "--threads", str(threads),
         "--table-mb", str(table_mb)],
        check=True, capture_output=True, text=True).stdout
    return int(out.split()[1])


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.join(here, "..", "..")
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("records")
    ap.add_argument("--player")
    ap.add_argument("--ply", default=os.path.join(repo, "target", "release", "ply"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--table-mb", type=int, default=512)
    ap.add_argument("--blunders", action="store_true")
    a = ap.parse_args()

    games = []
    with open(a.records) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                games.append(json.loads(line))
            except json.JSONDecodeError as e:
                print(f"{a.records}:{n}: not JSON ({e}); skipped", file=sys.stderr)
    if not games:
        print("no games in the records", file=sys.stderr)
        return 2
    player = a.player
    if player is None:
        names = games[0]["players"]
        player = next((p for p in names if p.lower().startswith("ply")), names[0])

    losses = avoidable = counted = 0
    unproven, moved, unproven_games = {}, 0, 0
    for g in games:
        if g.get("game") != "connect4" or player not in g["players"]:
            continue
        if g.get("params") not in ("", "width=7 height=6", None):
            print(f"game {g['index'] + 1}: not 7x6 ({g['params']}); skipped", file=sys.stderr)
            continue
        if g["opening"].get("fen"):
            print(f"game {g['index'] + 1}: opening from a fen; skipped", file=sys.stderr)
            continue
        counted += 1
        who = g["players"].index(player)
        # The player moves first (p1) when p1_player names it.
        player_is_p1 = g["p1_player"] == who
        start = len(g["opening"].get("moves", []))
        any_unproven = False
        for i, m in enumerate(g["moves"]):
            if (start + i) % 2 != (0 if player_is_p1 else 1):
                continue
            moved += 1
            score = m.get("score", "")
            if not (m.get("depth") == 1 and (score.startswith("mate") or score == "cp 0")):
                unproven[start + i] = unproven.get(start + i, 0) + 1
                any_unproven = True
        unproven_games += any_unproven
        lost = (g["result"] == "0-1" and player_is_p1) or (g["result"] == "1-0" and not player_is_p1)
        if not lost:
            continue
        losses += 1
        opening = "".join(g["opening"].get("moves", []))
        played = [m["mv"] for m in g["moves"]]
        # Plies are numbered from the start: the player moves at even plies as p1.
        first = len(opening)
        mine = [i for i in range(len(played)) if (first + i) % 2 == (0 if player_is_p1 else 1)]
        if not mine:
            print(f"game {g['index'] + 1}: lost without moving ({g['reason']})")
            continue
        seq = opening + "".join(played[: mine[0]])
        score = solve(a.ply, seq, a.threads, a.table_mb)
        verdict = "AVOIDABLE" if score >= 0 else "lost already"
        if score >= 0:
            avoidable += 1
        line = (f"game {g['index'] + 1}: {player} as {'p1' if player_is_p1 else 'p2'}, "
                f"opening {opening or '-'}, first move at ply {len(seq)}: score {score:+d}, "
                f"{verdict} ({g['reason']})")
        if a.blunders and score >= 0:
            for i in mine:
                before = opening + "".join(played[:i])
                after = before + played[i]
                # The value after the move, from the player's side: minus the opponent's score.
                if len(after) < 42 and -solve(a.ply, after, a.threads, a.table_mb) < 0:
                    line += f"; first losing move: {played[i]} at ply {len(before) + 1} " \
                            f"(took {g['moves'][i]['ms']:.0f} ms, said {g['moves'][i].get('score', '?')})"
                    break
        print(line)
    print(f"avoidable losses: {avoidable} of {losses} (games {counted})")
    by_ply = " ".join(f"{k}:{v}" for k, v in sorted(unproven.items()))
    print(f"unproven moves: {sum(unproven.values())} of {moved} in {unproven_games} games; "
          f"by discs: {by_ply or '-'}")
    return 1 if avoidable else 0


if __name__ == "__main__":
    sys.exit(main())
