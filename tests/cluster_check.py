#!/usr/bin/env python3
"""ply.cluster on a local Dask cluster of two worker processes (see tests/cluster.rs).

Checks, against `ply-referee` and `ply analyse` run whole on this machine:
- a match over two workers is the whole match game for game, with the same report;
- a worker killed (with its referee) in the middle of a shard loses no game and counts
  none twice: its shard runs again and the games already in are dropped (against a fake
  engine that answers after 400 ms, so that a shard can be caught half played);
- an SPRT stops the match early, and the report says so;
- the scheduler going away stops the match with every finished game recorded, and
  `--resume` completes it (a torn last record line is cut off);
- analysis of a file over two workers is `ply analyse` of it, row for row;
- workers without the binaries are named, with a clear error.
Exit status 77 when dask or distributed is missing (the Rust test then says it is skipped).
"""

import argparse
import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

try:
    import distributed  # noqa: F401
except ImportError as e:  # pragma: no cover - depends on the machine
    print(f"dask.distributed is not installed ({e}); pip install dask distributed")
    sys.exit(77)

# python/ply/cluster is imported as the package `cluster`: `import ply.cluster` would run
# ply's __init__, which needs the native module built (tests/python_package.rs builds it);
# the runner is plain Python and imports nothing of ply's (its imports are relative).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python" / "ply"))

from cluster import run_analyse, run_match  # noqa: E402
from cluster.__main__ import check_workers  # noqa: E402
from distributed import Client, LocalCluster  # noqa: E402


def check(cond, what):
    if not cond:
        raise AssertionError(what)


STARTED = time.monotonic()


def say(text):
    print(f"[{time.monotonic() - STARTED:5.1f} s] {text}", flush=True)


def engines(*depths):
    words = []
    for name, depth in zip(("A", "B"), depths):
        words += ["--engine", "cmd=ply", f"name={name}", f"depth={depth}", "option.UseSolver=false"]
    return words


def match_args(seed, games=24):
    """Connect Four between two depths from random openings: deterministic games."""
    return ["--game", "connect4", *engines(3, 5), "--games", "2", "--rounds", str(games // 2),
            "--repeat", "--random-plies", "4", "--seed", str(seed)]


def referee_whole(bin_dir, args, records):
    """The match played whole by one referee: its report lines and its games."""
    p = subprocess.run([os.path.join(bin_dir, "ply-referee"), *args, "--records", records],
                       capture_output=True, text=True, timeout=300, check=True)
    return p.stdout, games(records)


def games(path):
    """{index: what makes the game that game} — everything but times."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            check(r["index"] not in out, f"game {r['index']} twice in {path}")
            out[r["index"]] = (r["p1_player"], json.dumps(r["opening"]),
                               [m["mv"] for m in r["moves"]], r["result"], r["termination"],
                               r["match"])
    return out


def summary(text):
    """The report after the last game: from the last score line on."""
    lines = text.splitlines()
    last = max(i for i, l in enumerate(lines) if l.startswith("Score of "))
    return lines[last:]


def cluster_match(client, bin_dir, args, **kw):
    out, err = io.StringIO(), io.StringIO()
    code = run_match(client, args, bin_dir=bin_dir, out=out, err=err, quiet=True, **kw)
    return code, out.getvalue(), err.getvalue()


def two_workers_equal_the_whole_match(client, bin_dir, tmp):
    whole_text, whole = referee_whole(bin_dir, match_args(5), f"{tmp}/whole.jsonl")
    records = f"{tmp}/cluster.jsonl"
    code, out, err = cluster_match(client, bin_dir, match_args(5) + ["--records", records],
                                   shard_games=4)
    check(code == 0, f"exit {code}: {err}")
    check(games(records) == whole, "the cluster's games differ from the whole match's")
    check(summary(out) == summary(whole_text), f"reports differ:\n{out}\n---\n{whole_text}")
    check(out.count("Finished game") == 24, out)
    say("a match over two workers: the whole match's 24 games and report")
    return whole


FAKE = str(Path(__file__).resolve().parent / "fakes" / "fake_engine.py")


def slow_match_args():
    """Tic-tac-toe against the fake engine that answers after 400 ms (the same moves every
    time): shards slow enough to be caught half played."""
    return ["--game", "tictactoe", "--engine", "cmd=ply", "name=ply", "depth=3",
            "--engine", "cmd=python3", f"arg={FAKE}", "arg=slow", "name=slow", "depth=1",
            "--games", "2", "--rounds", "4", "--repeat", "--random-plies", "2", "--seed", "3"]


def running_shard(client):
    """(worker address, shard number) of a shard being played, if any."""
    for addr, keys in client.processing().items():
        for key in keys:
            if str(key).startswith("ply-shard-"):
                return addr, int(str(key).split("-")[2])
    return None


def killed_worker_loses_nothing(client, bin_dir, tmp):
    """A worker killed with its referee once its shard has sent a game and has more to
    play: the shard runs again, nothing is lost or counted twice."""
    _, whole = referee_whole(bin_dir, slow_match_args() + ["--concurrency", "4"],
                             f"{tmp}/slow-whole.jsonl")
    records = f"{tmp}/killed.jsonl"
    pids = client.run(os.getpid)
    killed, over = {}, threading.Event()

    def kill_when_a_shard_is_half_done():
        while not over.is_set() and not killed:
            try:
                done = set(games(records)) if os.path.exists(records) else set()
            except (ValueError, AssertionError):
                done = set()  # a line being written
            found = running_shard(client)
            if found:
                addr, shard = found
                mine = set(range(shard * 4, shard * 4 + 4))
                if 0 < len(mine & done) < 4 and addr in pids:
                    os.kill(pids[addr], signal.SIGKILL)
                    killed.update(addr=addr, shard=shard, had=len(mine & done))
            time.sleep(0.02)

    watcher = threading.Thread(target=kill_when_a_shard_is_half_done, daemon=True)
    watcher.start()
    try:
        code, out, err = cluster_match(client, bin_dir, slow_match_args()
                                       + ["--records", records], shard_games=4)
    finally:
        over.set()
        watcher.join()
    check(code == 0, f"exit {code}: {err}")
    check(killed, "no worker was killed: no shard was caught half played")
    check(games(records) == whole, "games lost or changed by the kill")
    check(out.count("Finished game") == 8, out)
    check("played again" in err, f"the shard did not run again:\n{err}")
    say(f"a worker killed in shard {killed['shard']} after {killed['had']} of its games: "
          f"8 games, none twice ({err.strip().splitlines()[-1]})")


def sprt_stops_early(client, bin_dir, tmp):
    records = f"{tmp}/sprt.jsonl"
    args = ["--game", "connect4", "--engine", "cmd=ply", "name=ply", "depth=4",
            "option.UseSolver=false", "--engine", "builtin=random", "name=random",
            "--games", "2", "--rounds", "200", "--repeat", "--random-plies", "2",
            "--sprt", "elo0=0", "elo1=200", "--records", records]
    code, out, err = cluster_match(client, bin_dir, args, shard_games=4)
    check(code == 0, f"exit {code}: {err}")
    n = len(games(records))
    check(n < 100, f"{n} games played: the SPRT did not stop the match")
    report = summary(out)
    check(report[0].endswith(f"] {n}"), f"the report counts other games than the {n}: {report}")
    check(any(l.startswith("SPRT: ") and "H1 was accepted" in l for l in report), report)
    check(f"the SPRT decided after {n} of 400 games" in err, err)
    say(f"an SPRT decided after {n} of 400 games; the report says H1 was accepted")


def dask_processes(tmp):
    """A scheduler and two one-thread workers as processes of their own (what a cluster
    is), sharing the address through a file; returns (scheduler file, processes)."""
    sched_file = f"{tmp}/scheduler.json"
    common = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    scheduler = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
         "--port", "0", "--no-dashboard", "--scheduler-file", sched_file], **common)
    deadline = time.monotonic() + 60
    while not os.path.exists(sched_file):
        check(time.monotonic() < deadline and scheduler.poll() is None, "no scheduler")
        time.sleep(0.1)
    workers = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file", sched_file,
         "--nworkers", "2", "--nthreads", "1", "--no-dashboard", "--death-timeout", "10"],
        **common)
    return sched_file, [scheduler, workers]


def scheduler_loss_then_resume(bin_dir, tmp, whole):
    """The scheduler is killed mid-match: the client stops with status 5 and every game it
    received in the records file; `--resume` on another cluster completes the match."""
    records = f"{tmp}/lost.jsonl"
    sched_file, procs = dask_processes(tmp)
    try:
        # A short timeout: the client gives up on a lost scheduler after trying this long.
        client = Client(scheduler_file=sched_file, timeout="5s")
        client.wait_for_workers(2, timeout=60)

        def kill_after_some_games():
            deadline = time.monotonic() + 240
            while time.monotonic() < deadline:
                if os.path.exists(records) and 4 <= len(open(records).readlines()) < 20:
                    os.killpg(procs[0].pid, signal.SIGKILL)
                    return
                time.sleep(0.02)

        killer = threading.Thread(target=kill_after_some_games, daemon=True)
        killer.start()
        code, out, err = cluster_match(client, bin_dir, match_args(5) + ["--records", records],
                                       shard_games=8)
        killer.join()
        client.close(timeout=5)
    finally:
        for p in procs:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()
    check(code == 5, f"exit {code} (not 5, the scheduler lost):\n{err}")
    check("lost the Dask scheduler" in err and "--resume" in err, err)
    kept = games(records)
    check(0 < len(kept) < 24, f"{len(kept)} games recorded")
    check(all(whole[i] == g for i, g in kept.items()), "a recorded game differs")
    with open(records, "a", encoding="utf-8") as f:
        f.write('{"match":"connect4 [wid')  # a write cut short
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None)
    client = Client(cluster)
    try:
        code, out, err = cluster_match(client, bin_dir, match_args(5) + ["--resume", records],
                                       shard_games=8)
    finally:
        client.close()
        cluster.close()
    check(code == 0, f"resume: exit {code}: {err}")
    check(games(records) == whole, "the resumed match is not the whole match")
    check(f"Resuming: {len(kept)} of 24" in out, out)
    check("dropped an unfinished last line" in err, err)
    say(f"the scheduler killed after {len(kept)} games: all recorded; --resume completed "
          f"the 24")


def analysis_equals_ply_analyse(client, bin_dir, tmp):
    path = f"{tmp}/positions.txt"
    lines = ["# Connect Four, tic-tac-toe and lines that are not positions", ""]
    seed = 17
    for i in range(300):
        seed = (seed * 6364136223846793005 + 1442695040888963407) % 2**64
        lines.append("".join(str(1 + (seed >> (3 * k)) % 7) for k in range(4 + i % 5)))
        if i % 50 == 7:
            lines += ["not a position", "tictactoe startpos moves b2 a1", ""]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))  # no newline at the end, as files sometimes are
    args = ["--depth", "6", "--no-solver"]
    ref = subprocess.run([os.path.join(bin_dir, "ply"), "analyse", "--format", "jsonl", *args,
                          path], capture_output=True, text=True, timeout=300, check=False)
    check(ref.returncode == 2, ref.stderr)
    out, err = io.StringIO(), io.StringIO()
    code = run_analyse(client, [path], out=out, ply_args=["--threads", "1", *args], size=40,
                       bin_dir=bin_dir, err=err, quiet=True)
    check(code == 2, f"exit {code}: {err.getvalue()}")

    def rows(text):
        out = []
        for line in text.splitlines():
            r = json.loads(line)
            del r["time_us"]
            out.append(r)
        return out

    want, got = rows(ref.stdout), rows(out.getvalue())
    check(len(want) > 250 and got == want, f"{len(got)} rows, ply analyse {len(want)}")
    bad = lambda t: sorted(l for l in t.splitlines() if l.startswith("line "))  # noqa: E731
    check(bad(err.getvalue()) == bad(ref.stderr), "bad lines reported differently")
    say(f"analysis in partitions of 40 over two workers: ply analyse's {len(want)} rows "
          f"and {len(bad(ref.stderr))} bad lines")


def missing_binaries_are_named(client, tmp):
    empty = f"{tmp}/no-binaries"
    os.makedirs(empty)
    complaints = check_workers(client, empty)
    check(len(complaints) == 2 and all("ply is not an executable file in" in c
                                       for c in complaints), complaints)
    code, out, err = cluster_match(client, empty, match_args(5))
    check(code == 1 and "ply-referee is not an executable file in" in err, err)
    say("workers without the binaries: named, with where they were looked for")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin-dir", required=True)
    opts = parser.parse_args()
    os.environ["PLY_TABLES_AUTOBUILD"] = "0"
    with tempfile.TemporaryDirectory(prefix="ply-cluster-check-") as tmp:
        os.environ["PLY_TABLES"] = tmp  # no tables looked for, none built
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None)
        client = Client(cluster)
        try:
            whole = two_workers_equal_the_whole_match(client, opts.bin_dir, tmp)
            killed_worker_loses_nothing(client, opts.bin_dir, tmp)
            sprt_stops_early(client, opts.bin_dir, tmp)
            analysis_equals_ply_analyse(client, opts.bin_dir, tmp)
            missing_binaries_are_named(client, tmp)
        finally:
            client.close()
            cluster.close()
        scheduler_loss_then_resume(opts.bin_dir, tmp, whole)
    say("cluster checks: ok")


if __name__ == "__main__":
    main()
