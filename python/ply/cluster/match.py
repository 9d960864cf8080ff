"""A `ply-referee` match over a Dask cluster: the client's side.

The match is cut into shards of a few game pairs (`ply-referee --shard i/N`: each game is the
game the whole match plays under its number), submitted as Dask tasks a few at a time. Each
task streams its games as they finish (see worker.py); the client keeps each game once, keyed
by its number, appends it to the records file and pipes it through `ply-referee merge -`,
which prints it, keeps the score, announces the SPRT's decision and at the end prints the
report of the whole match — the statistics stay in the referee.

Faults: a worker that dies takes its shard's task with it; Dask runs the task again
elsewhere (or the client resubmits it after Dask gives up on it), the shard is played again,
and the games the client already has are dropped as they come back. When the SPRT decides,
no further shard is submitted and the running ones are stopped. Nothing the client has
received is lost when it stops: every game is in the records file before it is counted, and
`--resume FILE` continues from it.
"""

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import uuid

from . import worker

EXIT_OK, EXIT_USAGE, EXIT_FAILED, EXIT_INTERRUPTED, EXIT_RECORDS, EXIT_CLUSTER = 0, 1, 2, 3, 4, 5

# Runs of a shard after Dask gave up on its task (KilledWorker), before the match fails.
RESUBMITS = 3


class UsageError(Exception):
    pass


class ShardFailed(Exception):
    pass


class RecordsError(Exception):
    pass


def split_args(args):
    """Takes the options the cluster runner handles itself out of the referee's arguments.
    Returns (rest, opts): `rest` goes to every shard; `opts` has games, rounds, records,
    resume, sprt (a list of words) and openings (a path)."""
    opts = {"games": 1, "rounds": 1, "records": None, "resume": None, "sprt": [], "openings": None}
    rest = []
    i = 0
    while i < len(args):
        word = args[i]
        name, eq, inline = word.partition("=")
        if not word.startswith("--") or name not in (
            "--games", "--rounds", "--records", "--resume", "--sprt", "--openings",
            "--shard", "--pgn",
        ):
            rest.append(word)
            i += 1
            continue
        if name == "--shard":
            raise UsageError("--shard: the cluster runner cuts the match into shards itself")
        if name == "--pgn":
            raise UsageError("--pgn: not with the cluster runner (the records have every move)")
        if name == "--sprt":
            words = [inline] if eq else []
            i += 1
            while i < len(args) and not args[i].startswith("-"):
                words.append(args[i])
                i += 1
            opts["sprt"] = words
            continue
        if eq:
            value = inline
            i += 1
        elif i + 1 < len(args):
            value = args[i + 1]
            i += 2
        else:
            raise UsageError(f"{name} needs a value")
        key = name[2:]
        if key in ("games", "rounds"):
            try:
                opts[key] = int(value)
            except ValueError:
                raise UsageError(f"{name}: '{value}' is not a number") from None
        else:
            opts[key] = value
    if opts["records"] and opts["resume"] and opts["records"] != opts["resume"]:
        raise UsageError("--records and --resume name different files")
    return rest, opts


def read_records(path):
    """The games already in a records file, {index: line}: the first record of a game is
    kept; an unfinished last line (a write cut short) is cut off the file."""
    try:
        with open(path, "rb+") as f:
            data = f.read()
            end = data.rfind(b"\n") + 1
            if end < len(data):
                f.truncate(end)
    except FileNotFoundError:
        return {}
    games = {}
    for n, line in enumerate(data[:end].decode("utf-8").splitlines(), 1):
        if line.strip():
            try:
                index = json.loads(line)["index"]
            except (ValueError, KeyError, TypeError):
                raise UsageError(f"{path} line {n}: not a game record") from None
            games.setdefault(index, line + "\n")
    return games


def shard_ranges(total, shard_games):
    """The games of each shard, as ply-referee cuts them (whole pairs, crate::shard)."""
    pairs = -(-total // 2)
    count = max(1, -(-pairs // max(1, shard_games // 2)))
    cut = lambda i: min(total, (pairs * i // count) * 2)  # noqa: E731
    return [(cut(i), cut(i + 1)) for i in range(count)]


class Merge:
    """`ply-referee merge`: fed each new game, it prints the running score and, once, the
    SPRT's decision; its output is copied to `out` by a thread."""

    def __init__(self, referee, sprt, earlier, out):
        cmd = [referee, "merge"] + (["--sprt", *sprt] if sprt else []) + earlier + ["-"]
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, bufsize=1,
        )
        self.decided = threading.Event()
        self.out = out
        self.stderr = []
        self.threads = [
            threading.Thread(target=self._copy, daemon=True),
            threading.Thread(target=self._errors, daemon=True),
        ]
        for t in self.threads:
            t.start()

    def _copy(self):
        for line in self.proc.stdout:
            if line.startswith("SPRT: ") and " was accepted" in line:
                self.decided.set()
            self.out.write(line)
            self.out.flush()

    def _errors(self):
        for line in self.proc.stderr:
            self.stderr.append(line)

    def feed(self, line):
        try:
            self.proc.stdin.write(line)
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise RuntimeError("ply-referee merge stopped: " + "".join(self.stderr)) from None

    def finish(self):
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        code = self.proc.wait()
        for t in self.threads:
            t.join()
        return code, "".join(self.stderr)


class Progress:
    """One status line on stderr: rewritten in place on a terminal, else every
    `interval` seconds."""

    def __init__(self, stream, total, quiet, interval=10.0):
        self.stream, self.total, self.quiet = stream, total, quiet
        self.tty = stream.isatty()
        self.interval = 1.0 if self.tty else interval
        self.last = 0.0
        self.started = time.monotonic()

    def show(self, games, shards, force=False):
        now = time.monotonic()
        if self.quiet or (not force and now - self.last < self.interval):
            return
        self.last = now
        hours = (now - self.started) / 3600
        rate = f", {games / hours:.0f} games/h" if games and hours > 0 else ""
        text = (
            f"ply.cluster: {games}/{self.total} games; shards: {shards['done']} done, "
            f"{shards['running']} submitted, {shards['waiting']} waiting{rate}"
        )
        self.stream.write(("\r" + text + "\x1b[K") if self.tty else text + "\n")
        self.stream.flush()

    def close(self):
        if self.tty and not self.quiet:
            self.stream.write("\n")


def validate(referee, rest, opts, pairs, err):
    """Runs the referee on a shard with no games (0 of pairs+1): it checks every argument,
    the openings file, and a --resume file's records (cutting a torn last line), and starts
    no engine. Raises UsageError with its message."""
    cmd = [referee, *rest, "--no-progress", "--games", str(opts["games"]),
           "--rounds", str(opts["rounds"]), "--shard", f"0/{pairs + 1}"]
    if opts["openings"]:
        cmd += ["--openings", opts["openings"]]
    if opts["resume"]:
        cmd += ["--resume", opts["resume"]]
    elif opts["records"]:
        cmd += ["--records", opts["records"]]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    if p.returncode != 0:
        raise UsageError(p.stderr.strip().removeprefix("ply-referee: "))
    for line in p.stderr.splitlines():
        if "dropped an unfinished last line" in line:
            err.write(line + "\n")


class Run:
    """The client's state while the shards play."""

    def __init__(self, client, referee_args, bin_dir, shard_games, out, err, quiet):
        from distributed import Event, Queue

        self.client = client
        self.bin_dir = bin_dir
        self.out, self.err = out, err
        self.referee = worker.find_binary("ply-referee", bin_dir)
        self.rest, self.opts = split_args(referee_args)
        self.total = self.opts["games"] * self.opts["rounds"]
        if self.total < 1:
            raise UsageError("--games and --rounds must be at least 1")
        self.ranges = shard_ranges(self.total, shard_games)
        validate(self.referee, self.rest, self.opts, -(-self.total // 2), err)
        path = self.opts["resume"] or self.opts["records"]
        self.records_path = path
        self.games = read_records(path) if self.opts["resume"] else {}
        self.resumed = len(self.games)
        self.records = open(path, "a", encoding="utf-8") if path else None
        openings = self.opts["openings"]
        self.openings = None
        if openings:
            with open(openings, "rb") as f:
                self.openings = (openings, f.read())
        name = f"ply-cluster-{uuid.uuid4().hex}"
        self.queue, self.stop = Queue(name + "-records"), Event(name + "-stop")
        self.progress = Progress(err, self.total, quiet)
        self.futures = {}  # future -> shard number
        self.attempts = {}
        self.waiting = [i for i, r in enumerate(self.ranges) if self._left(r)]
        self.finished_shards = len(self.ranges) - len(self.waiting)
        self.stopping = False
        self.replayed = 0

    def _left(self, r):
        return any(i not in self.games for i in range(*r))

    def _submit(self, shard):
        r = self.ranges[shard]
        job = {
            "args": self.rest + ["--games", str(self.opts["games"]),
                                 "--rounds", str(self.opts["rounds"])],
            "shard": f"{shard}/{len(self.ranges)}",
            "done": [self.games[i] for i in range(*r) if i in self.games],
            "openings": self.openings,
            "queue": self.queue.name,
            "stop": self.stop.name,
            "bin_dir": self.bin_dir,
        }
        self.attempts[shard] = self.attempts.get(shard, 0) + 1
        key = f"ply-shard-{shard}-of-{len(self.ranges)}-{uuid.uuid4().hex[:8]}"
        self.futures[self.client.submit(*worker.as_task(worker.play_shard, job), key=key,
                                        pure=False)] = shard

    def _window(self):
        """Shards in flight: two for each worker thread, so that none waits for work."""
        try:
            threads = sum(w["nthreads"] for w in self.client.scheduler_info()["workers"].values())
        except Exception:  # noqa: BLE001 (the next queue call reports a lost scheduler)
            threads = 1
        return 2 * max(1, threads)

    def _receive(self, merge):
        """Takes the games waiting in the queue: new ones are recorded and merged. The games
        taken at once are written and synced together before any is merged: one fsync for
        many games keeps the client ahead of many workers on a slow disk."""
        new = []
        for batch in self.queue.get(batch=True):
            for line in batch:
                index = json.loads(line)["index"]
                if index in self.games:
                    self.replayed += 1  # a game played again by a shard that ran again
                    continue
                self.games[index] = line + "\n"
                new.append(self.games[index])
        if self.records and new:
            try:
                self.records.write("".join(new))
                self.records.flush()
                os.fsync(self.records.fileno())
            except OSError as e:
                raise RecordsError(f"cannot write {self.records_path}: {e}") from None
        for line in new:
            merge.feed(line)

    def _collect(self):
        """Handles the shards' tasks that ended; raises on one that failed."""
        from distributed import KilledWorker

        for f, shard in list(self.futures.items()):
            if not f.done():
                continue
            del self.futures[f]
            if f.status == "finished":
                self.finished_shards += 1
                continue
            if f.status == "cancelled":
                continue
            e = f.exception()
            if isinstance(e, KilledWorker) and self.attempts[shard] <= RESUBMITS:
                self.err.write(f"ply.cluster: shard {shard} lost its worker again; resubmitted\n")
                self._submit(shard)
                continue
            raise ShardFailed(str(e))

    def play(self, merge):
        """Submits, receives and collects until every shard has ended; after a stop (the
        SPRT, a failed shard) the running shards end themselves and their finished games
        still count. Returns the failure that stopped the match, if any."""
        failure = None
        while self.waiting or self.futures:
            if merge.decided.is_set() and not self.stopping:
                self._stop("the SPRT decided")
            if not self.stopping:
                window = self._window()
                while self.waiting and len(self.futures) < window:
                    self._submit(self.waiting.pop(0))
            self._receive(merge)
            try:
                self._collect()
            except ShardFailed as e:
                self.err.write(f"ply.cluster: {e}\n")
                failure = failure or e
                if not self.stopping:
                    self._stop("a shard failed")
            self.progress.show(len(self.games), self._shard_counts())
            time.sleep(0.1)
        self._receive(merge)
        self.progress.show(len(self.games), self._shard_counts(), force=True)
        return failure

    def _shard_counts(self):
        return {"done": self.finished_shards, "running": len(self.futures),
                "waiting": len(self.waiting)}

    def _stop(self, why):
        """No more shards; those running stop (their finished games still come in)."""
        self.stopping = True
        self.waiting.clear()
        self.stop.set()
        self.err.write(f"ply.cluster: {why}; stopping the shards still playing\n")

    def close(self):
        self.progress.close()
        if self.records:
            self.records.close()
        for f in self.futures:
            _try(f.cancel)  # the scheduler may be gone


def run_match(client, referee_args, *, bin_dir=None, shard_games=16, out=None, err=None,
              quiet=False):
    """Plays the match `referee_args` (ply-referee's arguments) on the Dask cluster of
    `client`; prints the report on `out`, progress and faults on `err`. Returns the exit
    status: 0 the match completed or the SPRT decided; 1 bad arguments; 2 a shard failed
    (an engine failure, a missing binary); 3 interrupted; 4 the records file could not be
    written; 5 the scheduler went away."""
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        run = Run(client, referee_args, bin_dir, shard_games, out, err, quiet)
    except (UsageError, worker.MissingBinary, OSError) as e:
        err.write(f"ply.cluster: {e}\n")
        return EXIT_USAGE
    with tempfile.TemporaryDirectory(prefix="ply-cluster-") as tmp:
        earlier = []
        if run.games:
            earlier = [os.path.join(tmp, "resumed.jsonl")]
            with open(earlier[0], "w", encoding="utf-8") as f:
                f.write("".join(run.games[i] for i in sorted(run.games)))
            out.write(f"Resuming: {run.resumed} of {run.total} games already finished\n")
        merge = Merge(run.referee, run.opts["sprt"], earlier, out)
        code = _play(run, merge, err)
        run.close()
        merge_code, merge_err = merge.finish()
    if merge_code != 0 and (run.games or code == EXIT_OK):
        err.write(merge_err)  # (with no game at all, there is nothing to report)
        return code or EXIT_FAILED
    played = len(run.games)
    if run.replayed:
        err.write(f"ply.cluster: {run.replayed} games played again (by shards that ran again "
                  f"after losing their worker) were counted once\n")
    if merge.decided.is_set() and played < run.total:
        err.write(f"ply.cluster: the SPRT decided after {played} of {run.total} games\n")
    return code


def _play(run, merge, err):
    """Plays until done; returns the exit status, having said why on `err`."""
    where = f"; the games finished are in {run.records_path} (--resume it)" if run.records_path else ""
    try:
        failure = run.play(merge)
        if failure is None:
            return EXIT_OK
        err.write(f"ply.cluster: the match stopped{where}\n")
        return EXIT_FAILED
    except RecordsError as e:
        err.write(f"ply.cluster: {e}\n")
        _try(run._stop, "the records cannot be written")
        return EXIT_RECORDS
    except RuntimeError as e:
        err.write(f"ply.cluster: {e}{where}\n")
        _try(run._stop, "the merge failed")
        return EXIT_FAILED
    except KeyboardInterrupt:
        err.write(f"ply.cluster: interrupted{where}\n")
        _try(run._stop, "interrupted")
        return EXIT_INTERRUPTED
    except Exception as e:
        if not scheduler_lost(run.client, e):
            raise
        err.write(f"ply.cluster: lost the Dask scheduler ({type(e).__name__}: {e}){where}\n")
        return EXIT_CLUSTER


def scheduler_lost(client, e):
    """Whether `e`, raised by a call to the cluster, means the scheduler is gone: a broken
    connection, a timeout, or a client no longer connected (whatever it raised then)."""
    return isinstance(e, (OSError, TimeoutError)) or client.status != "running"


def _try(f, *args):
    try:
        f(*args)
    except Exception:  # noqa: BLE001 (the scheduler may be gone; the exit says why)
        pass
