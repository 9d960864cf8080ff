"""python -m ply.cluster: matches and analyses over a Dask cluster (docs/cluster.md).

    python -m ply.cluster match <ply-referee arguments> [--scheduler ADDRESS | --workers N]
    python -m ply.cluster analyse FILE... --out results.jsonl [ply analyse options]
                                          [--scheduler ADDRESS | --workers N]

Without --scheduler a local cluster of N worker processes (one thread each; default: one
per core) is started and stopped. The ply binaries are found in --bin-dir, else $PLY_BIN_DIR,
else on the PATH, on the client and on every worker alike.
"""

import argparse
import logging
import os
import sys

USAGE = __doc__.split("\n\n")[1]


def cluster_options(parser):
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="a running Dask scheduler (tcp://host:8786); default: a local cluster")
    parser.add_argument("--workers", type=int, metavar="N",
                        help="worker processes of the local cluster (default: one per core)")
    parser.add_argument("--bin-dir", metavar="DIR",
                        help="the directory of ply and ply-referee, the same on every machine")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")


def connect(opts):
    """A Dask client (and the local cluster it owns, or None)."""
    from distributed import Client, LocalCluster

    if opts.scheduler and opts.workers:
        raise SystemExit("ply.cluster: --scheduler and --workers exclude each other")
    if opts.scheduler:
        return Client(opts.scheduler, timeout="30s"), None
    n = opts.workers or os.cpu_count() or 1
    # The workers' own logs would repeat every failure the client reports, at length.
    cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                           dashboard_address=None, silence_logs=logging.CRITICAL)
    return Client(cluster), cluster


def check_workers(client, bin_dir):
    """Every worker must find the binaries; returns the complaints of those that do not."""
    from . import worker

    found = client.run(*worker.as_task(worker.binaries_here, bin_dir))
    return [f"{addr}: {r['error']}" for addr, r in sorted(found.items()) if "error" in r]


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in ("match", "analyse"):
        sys.stderr.write("usage:\n" + USAGE + "\n")
        return 1
    command, rest = argv[0], argv[1:]
    parser = argparse.ArgumentParser(prog=f"python -m ply.cluster {command}", allow_abbrev=False)
    cluster_options(parser)
    if command == "match":
        parser.add_argument("--shard-games", type=int, default=16, metavar="N",
                            help="games per shard (one task; default 16)")
        opts, referee_args = parser.parse_known_args(rest)
    else:
        parser.add_argument("files", nargs="+", metavar="FILE")
        parser.add_argument("--out", required=True, metavar="FILE",
                            help="the results (JSON Lines, or TSV with --format tsv)")
        parser.add_argument("--format", choices=("jsonl", "tsv"), default="jsonl")
        parser.add_argument("--partition", type=int, default=2000, metavar="N",
                            help="positions per task (default 2000)")
        opts, ply_args = parser.parse_known_args(rest)
    client, cluster = connect(opts)
    try:
        missing = check_workers(client, opts.bin_dir)
        if missing:
            sys.stderr.write("ply.cluster: workers without the ply binaries:\n  "
                             + "\n  ".join(missing) + "\n")
            return 1
        if command == "match":
            from .match import run_match

            return run_match(client, referee_args, bin_dir=opts.bin_dir,
                             shard_games=opts.shard_games, quiet=opts.quiet)
        from .analyse import run_analyse

        if "--threads" not in ply_args:
            ply_args = ["--threads", "1", *ply_args]  # one per worker thread
        with open(opts.out, "w", encoding="utf-8") as out:
            return run_analyse(client, opts.files, out=out, ply_args=ply_args, fmt=opts.format,
                               size=opts.partition, bin_dir=opts.bin_dir, quiet=opts.quiet)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


if __name__ == "__main__":
    sys.exit(main())
