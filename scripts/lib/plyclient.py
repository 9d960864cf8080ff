"""A small client of ply's line protocol (protocol.md) for the scripts here: one engine
process, its stdout read on a thread so that every wait has a deadline, and the few
exchanges the scripts need (isready, go, query, timing, peak memory).

    import sys, pathlib
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "lib"))
    from plyclient import REPO, Engine, EngineError

    e = Engine("target/release/ply")
    e.send("newgame connect4")
    e.send("position startpos moves 4 4")
    best, infos = e.go("go depth 8")
    e.quit()

Lines come back without their line ending. An engine that closes its output, or does not
answer within the timeout, raises EngineError with the tail of its stderr.
"""
import queue
import subprocess
import tempfile
import threading
import time
from pathlib import Path

# The repository's root (this file is scripts/lib/plyclient.py).
REPO = Path(__file__).resolve().parents[2]


class EngineError(Exception):
    pass


class Engine:
    def __init__(self, path, *args, env=None, cwd=None, timeout=60.0):
        """Starts `path` with `args` (`env` and `cwd` as for subprocess); `timeout` is the
        longest wait for any answer, in seconds."""
        self.path = str(path)
        self.timeout = timeout
        self.stderr = tempfile.TemporaryFile(mode="w+")
        try:
            self.p = subprocess.Popen([self.path, *map(str, args)], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=self.stderr, text=True,
                                      bufsize=1, env=env, cwd=cwd)
        except OSError as e:
            raise EngineError(f"cannot start {self.path}: {e}") from e
        self.pid = self.p.pid
        self.lines = queue.Queue()
        threading.Thread(target=self._reader, daemon=True).start()

    def _reader(self):
        for line in self.p.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)  # end of output

    def stderr_tail(self):
        self.stderr.seek(0)
        tail = self.stderr.read()[-2000:].strip()
        return ("\n  engine stderr (tail):\n    " + tail.replace("\n", "\n    ")) if tail else ""

    def send(self, line):
        try:
            self.p.stdin.write(line + "\n")
            self.p.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise EngineError(f"{self.path} closed its input ({e}) at {line!r}{self.stderr_tail()}") from e

    def readline(self, deadline=None):
        """The next line, waiting until `deadline` (time.monotonic(); default: the timeout)."""
        if deadline is None:
            deadline = time.monotonic() + self.timeout
        try:
            line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise EngineError(f"no answer from {self.path} within {self.timeout:.0f} s{self.stderr_tail()}")
        if line is None:
            try:
                status = self.p.wait(timeout=2)
            except subprocess.TimeoutExpired:
                status = "unknown"
            raise EngineError(f"{self.path} closed its output (exit status {status}){self.stderr_tail()}")
        return line

    def lines_until(self, prefix, timeout=None):
        """Every line up to and including the first that starts with `prefix`."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        seen = []
        while True:
            line = self.readline(deadline)
            seen.append(line)
            if line.startswith(prefix):
                return seen

    def read_until(self, prefix, timeout=None):
        """The first line that starts with `prefix` (the lines before it are dropped)."""
        return self.lines_until(prefix, timeout)[-1]

    def sync(self):
        """isready, then readyok; returns the lines before it."""
        self.send("isready")
        return self.lines_until("readyok")[:-1]

    def timed(self, line):
        """Seconds from sending `line` to the readyok of the isready after it."""
        t = time.perf_counter()
        self.send(line)
        self.sync()
        return time.perf_counter() - t

    def go(self, go="go", timeout=None):
        """Sends a `go` line; returns the move of its bestmove and the lines before it."""
        self.send(go)
        lines = self.lines_until("bestmove", timeout)
        words = lines[-1].split()
        return (words[1] if len(words) > 1 else None), lines[:-1]

    def timed_go(self, go, timeout=None):
        """Seconds from writing `go` to reading its bestmove."""
        t = time.perf_counter()
        self.send(go)
        self.lines_until("bestmove", timeout)
        return time.perf_counter() - t

    def query(self, what):
        """The words after `response` for `query <what>`."""
        self.send(f"query {what}")
        return self.read_until("response").split()[1:]

    def legal_moves(self):
        return self.query("legalmoves")

    def peak_rss_mib(self):
        """The process's peak resident memory (VmHWM, Linux), in MiB."""
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    def quit(self, timeout=5.0):
        """quit, then waits for the process to end (killed after `timeout` seconds)."""
        try:
            self.send("quit")
        except EngineError:
            pass
        try:
            self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
        self.stderr.close()
