"""`ply analyse` over a Dask cluster: the client's side.

The input files are read as `ply analyse FILES` reads them (one after the other, each ending
with a newline) and cut into partitions of whole lines holding a few thousand positions
each; each partition is one task, one `ply analyse` process (so an engine's tables are set
up once per partition, not per position). Partitions are submitted a few at a time and their
rows written in input order, with the line numbers of the whole input: the output is what
`ply analyse FILES` writes, row for row (apart from the times; each position is analysed
from empty tables, so nothing else depends on where it ran). A task lost with its worker is
run again by Dask, or resubmitted by the client: its rows are only ever written once.
"""

import sys
import time

from . import worker
from .match import (
    EXIT_CLUSTER, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, RESUBMITS, scheduler_lost,
)

# `ply analyse`'s header, written once for TSV output (the partitions' are dropped).
TSV_HEADER = "line\tgame\tbest\tscore\tproven\tpons\texpected\tdepth\tnodes\ttime_us\tposition"


class InputError(Exception):
    pass


def partitions(files, size):
    """(first line number, text) of consecutive slices of the files' lines, each with at
    most `size` entries (lines neither blank nor comments, as `ply analyse` counts them)."""
    first, lines, entries, number = 1, [], 0, 0
    for path in files:
        try:
            f = open(path, "rb")
        except OSError as e:
            raise InputError(f"{path}: {e.strerror}") from None
        with f:
            for n, line in enumerate(f, 1):
                number += 1
                try:
                    text = line.decode("utf-8")
                except UnicodeDecodeError:
                    raise InputError(f"{path} line {n}: not UTF-8") from None
                if not text.endswith("\n"):
                    line += b"\n"  # as `ply analyse` joins files
                stripped = text.strip()
                if stripped and not stripped.startswith("#"):
                    if entries == size:
                        yield first, b"".join(lines)
                        first, lines, entries = number, [], 0
                    entries += 1
                lines.append(line)
    if lines:
        yield first, b"".join(lines)


class Writer:
    """Writes partitions' results in input order as they come in."""

    def __init__(self, out, fmt, err):
        self.out, self.fmt, self.err = out, fmt, err
        self.pending = {}
        self.next = 0
        self.rows = 0
        self.bad = 0
        if fmt == "tsv":
            out.write(TSV_HEADER + "\n")

    def add(self, number, result):
        self.pending[number] = result
        while self.next in self.pending:
            r = self.pending.pop(self.next)
            for row in r["rows"]:
                self.out.write(row + "\n")
            for line, why in r["errors"]:
                self.err.write(f"line {line}: {why}\n")
            self.rows += len(r["rows"])
            self.bad += len(r["errors"])
            self.next += 1
        self.out.flush()


def run_analyse(client, files, *, out, ply_args=(), fmt="jsonl", size=2000, bin_dir=None,
                err=None, quiet=False):
    """Analyses the positions in `files` on the cluster of `client`, writing the rows to
    `out` (a text file) in input order. `ply_args` are `ply analyse` options (--depth,
    --movetime, --game ..). Returns the exit status, as `ply analyse`'s: 0; 2 when some
    lines were bad (each reported on `err` with its line number); 1 an unreadable input, a
    missing binary or a partition that failed; and 3 interrupted, 5 the scheduler went
    away."""
    from distributed import KilledWorker

    err = err or sys.stderr
    try:
        worker.find_binary("ply", bin_dir)
    except worker.MissingBinary as e:
        err.write(f"ply.cluster: {e}\n")
        return EXIT_USAGE
    writer = Writer(out, fmt, err)
    parts = partitions(files, size)
    futures, jobs, attempts = {}, {}, {}
    started, number, exhausted = time.monotonic(), 0, False

    def submit(n):
        attempts[n] = attempts.get(n, 0) + 1
        task = worker.as_task(worker.analyse_partition, jobs[n])
        futures[client.submit(*task, pure=False, key=f"ply-analyse-{n}-{attempts[n]}-{id(jobs)}")] = n

    try:
        while futures or not exhausted:
            threads = sum(w["nthreads"] for w in client.scheduler_info()["workers"].values())
            while not exhausted and len(futures) < 2 * max(1, threads):
                try:
                    first, text = next(parts)
                except StopIteration:
                    exhausted = True
                    break
                jobs[number] = {"text": text, "first_line": first, "args": list(ply_args),
                                "format": fmt, "bin_dir": bin_dir}
                submit(number)
                number += 1
            for f, n in list(futures.items()):
                if not f.done():
                    continue
                del futures[f]
                if f.status == "finished":
                    writer.add(n, f.result())
                    del jobs[n]
                elif isinstance(f.exception(), KilledWorker) and attempts[n] <= RESUBMITS:
                    submit(n)
                else:
                    raise PartitionFailed(str(f.exception()))
            if not quiet:
                err.write(f"\rply.cluster: {writer.rows} positions written, "
                          f"{len(futures)} partitions running" if err.isatty() else "")
            time.sleep(0.05)
    except InputError as e:
        err.write(f"ply.cluster: {e}\n")
        return EXIT_USAGE
    except PartitionFailed as e:
        err.write(f"ply.cluster: {e}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        err.write("ply.cluster: interrupted\n")
        return EXIT_INTERRUPTED
    except Exception as e:
        if not scheduler_lost(client, e):
            raise
        err.write(f"ply.cluster: lost the Dask scheduler ({type(e).__name__}: {e})\n")
        return EXIT_CLUSTER
    finally:
        for f in futures:
            try:
                f.cancel()
            except Exception:  # noqa: BLE001 (the scheduler may be gone)
                pass
    if not quiet:
        err.write(f"{chr(13) if err.isatty() else ''}ply.cluster analyse: {writer.rows} "
                  f"positions, {writer.bad} bad lines, {number} partitions, "
                  f"{time.monotonic() - started:.3f} s\n")
    return 2 if writer.bad else EXIT_OK


class PartitionFailed(Exception):
    pass
