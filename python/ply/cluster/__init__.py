"""ply's matches and analyses over a Dask cluster (docs/cluster.md).

`python -m ply.cluster match <ply-referee arguments>` plays a match as shards of game pairs
on the workers and prints the whole match's report; `python -m ply.cluster analyse FILES
--out results.jsonl` analyses positions in partitions. From Python, with any
`distributed.Client`:

    from distributed import Client
    from ply.cluster import run_match
    status = run_match(Client(), ["--game", "connect4", "--engine", "cmd=ply", "depth=6",
                                  "--engine", "cmd=ply", "depth=8", "--games", "100"])

The ply binaries (`ply`, `ply-referee`) must be on the client and on every worker: see
`bin_dir` and docs/cluster.md.
"""

from .analyse import run_analyse
from .match import run_match

__all__ = ["run_analyse", "run_match"]
