"""What runs on a Dask worker: one shard of a match, one partition of positions.

Each task starts one `ply-referee` or `ply analyse` process and waits for it; the engines
are whatever the referee's arguments name. Nothing here imports ply: tasks travel by value
(see `as_task`), so neither the scheduler nor a worker needs this package, only Python with
`distributed` and the ply binaries (docs/cluster.md).

A shard streams its games as they finish: the referee writes each finished game to its
records file as one line (synced to disk), and the task sends every new whole line to the
client through a Dask queue. A line cut short is never sent: the referee is still writing
it, or was killed while writing it, and then that game was not finished.
"""

import os
import pickle
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

# How often a running task looks for new records, and for the client's stop.
POLL_SECONDS = 0.2
STOP_POLL_SECONDS = 1.0

# The last bytes of a failed process's stderr worth quoting.
STDERR_TAIL = 4000


class _Call:
    """Unpickling this calls `function(*args)` (its `__reduce__`)."""

    def __init__(self, function, args):
        self.function, self.args = function, args

    def __reduce__(self):
        return self.function, self.args


def as_task(function, *args):
    """`function(*args)` as `(pickle.loads, payload)` for `client.submit` or `client.run`.
    Dask pickles a task's function by reference (module and name), so the scheduler and the
    workers would have to import this module; `pickle.loads` they all have, and unpickling
    the payload makes the call, with this module's functions carried by value (cloudpickle)."""
    import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    return pickle.loads, cloudpickle.dumps(_Call(function, args))


class MissingBinary(RuntimeError):
    """The ply binary a task needs is not on this worker."""


def find_binary(name, bin_dir=None):
    """The path of `name` (`ply` or `ply-referee`) on this machine: in `bin_dir`, else in
    $PLY_BIN_DIR, else on the PATH. Raises MissingBinary saying where it looked."""
    for d in (bin_dir, os.environ.get("PLY_BIN_DIR")):
        if d:
            path = os.path.join(d, name)
            if os.access(path, os.X_OK):
                return path
            raise MissingBinary(
                f"{name} is not an executable file in {d} on {socket.gethostname()} "
                f"(the ply binaries must be on every worker: docs/cluster.md)"
            )
    path = shutil.which(name)
    if path is None:
        raise MissingBinary(
            f"{name} is not on the PATH of the worker on {socket.gethostname()} "
            f"(give --bin-dir, set PLY_BIN_DIR, or install ply there: docs/cluster.md)"
        )
    return path


def binaries_here(bin_dir=None):
    """Where this worker finds both binaries, or why it cannot (for `client.run`)."""
    try:
        return {name: find_binary(name, bin_dir) for name in ("ply", "ply-referee")}
    except MissingBinary as e:
        return {"error": str(e)}


def _dies_with_parent(cmd):
    """`cmd` wrapped so that the process is killed when this worker's thread dies (a worker
    killed outright leaves no referee playing on for nobody), where `setpriv` is there."""
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return cmd
    return [setpriv, "--pdeathsig", "KILL", "--", *cmd]


def _tail(path):
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - STDERR_TAIL))
            return f.read().decode("utf-8", "replace").strip()
    except OSError:
        return ""


class _Follower:
    """Reads the whole lines appended to a file since the last call."""

    def __init__(self, path, offset):
        self.path = path
        self.offset = offset

    def new_lines(self):
        try:
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                data = f.read()
        except FileNotFoundError:
            return []
        end = data.rfind(b"\n") + 1
        self.offset += end
        return [line.decode("utf-8") for line in data[:end].splitlines() if line.strip()]


def play_shard(job):
    """Plays one shard of a match; returns what it did. `job` (a dict) holds: `args` (the
    referee's arguments, without --shard, --records and --resume), `shard` ("i/N"),
    `done` (records of the shard's games the client already has: they are not played
    again), `openings` ((file name, bytes) to write here, or None), `queue` and `stop` (the
    names of the Dask queue that takes the records and of the event that stops the run),
    `bin_dir`. Raises when the referee fails, with the end of what it printed."""
    from distributed import Event, Queue

    referee = find_binary("ply-referee", job.get("bin_dir"))
    queue, stop = Queue(job["queue"]), Event(job["stop"])
    with tempfile.TemporaryDirectory(prefix="ply-shard-") as tmp:
        args = list(job["args"])
        if job.get("openings"):
            name, data = job["openings"]
            path = os.path.join(tmp, os.path.basename(name))
            with open(path, "wb") as f:
                f.write(data)
            args += ["--openings", path]
        records = os.path.join(tmp, "records.jsonl")
        with open(records, "w", encoding="utf-8") as f:
            f.write("".join(job.get("done", [])))
        follower = _Follower(records, os.path.getsize(records))
        mode = "--resume" if job.get("done") else "--records"
        cmd = [referee, *args, "--shard", job["shard"], mode, records, "--no-progress"]
        stderr_path = os.path.join(tmp, "stderr.txt")
        started = time.monotonic()
        with open(stderr_path, "wb") as err:
            proc = subprocess.Popen(
                _dies_with_parent(cmd),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=err,
            )
        sent, stopped, asked = 0, False, started
        try:
            while True:
                code = proc.poll()
                lines = follower.new_lines()
                if lines:
                    queue.put(lines)
                    sent += len(lines)
                if code is not None:
                    break
                if not stopped and time.monotonic() - asked >= STOP_POLL_SECONDS:
                    asked = time.monotonic()
                    if stop.is_set():
                        stopped = True
                        proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout=POLL_SECONDS)  # returns as soon as the referee ends
                except subprocess.TimeoutExpired:
                    pass
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        # 3: stopped by SIGTERM, as asked.
        if code != 0 and not (stopped and code == 3):
            raise RuntimeError(
                f"shard {job['shard']} on {socket.gethostname()}: ply-referee exited with "
                f"status {code}:\n{_tail(stderr_path)}"
            )
        return {
            "shard": job["shard"],
            "games": sent,
            "seconds": time.monotonic() - started,
            "host": socket.gethostname(),
            "stopped": stopped,
        }


def analyse_partition(job):
    """Analyses one partition of positions with `ply analyse`; returns its rows and its bad
    lines numbered as in the whole input. `job` holds: `text` (the partition's lines,
    bytes), `first_line` (the input's number of its first line), `args` (`ply analyse`
    options), `format` ("jsonl" or "tsv"), `bin_dir`."""
    ply = find_binary("ply", job.get("bin_dir"))
    cmd = [ply, "analyse", "--format", job["format"], *job["args"]]
    proc = subprocess.run(
        _dies_with_parent(cmd),
        input=job["text"],
        capture_output=True,
        check=False,
    )
    stderr = proc.stderr.decode("utf-8", "replace")
    if proc.returncode not in (0, 2):
        raise RuntimeError(
            f"ply analyse on {socket.gethostname()} exited with status "
            f"{proc.returncode}:\n{stderr[-STDERR_TAIL:].strip()}"
        )
    offset = job["first_line"] - 1
    rows = proc.stdout.decode("utf-8").splitlines()
    if job["format"] == "tsv":
        rows = rows[1:]  # the header, written once by the client
    return {
        "rows": [_renumber(r, offset, job["format"]) for r in rows],
        "errors": _renumbered_errors(stderr, offset),
    }


def _renumber(row, offset, fmt):
    """A row with its line number moved by `offset` (the field comes first in both
    formats: `{"line":N,...` and `N<TAB>...`)."""
    if fmt == "tsv":
        n, rest = row.split("\t", 1)
        return f"{int(n) + offset}\t{rest}"
    head, rest = row.split(",", 1)
    assert head.startswith('{"line":'), row
    return '{"line":%d,%s' % (int(head[len('{"line":') :]) + offset, rest)


def _renumbered_errors(stderr, offset):
    """`ply analyse`'s bad-line reports (`line N: why`) as (number, why) in the input's
    numbering; its closing summary line is left out."""
    out = []
    for line in stderr.splitlines():
        head, sep, why = line.partition(": ")
        if sep and head.startswith("line ") and head[5:].isdigit():
            out.append((int(head[5:]) + offset, why))
    return out
