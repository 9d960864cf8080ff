//! The Dask cluster runner (`python -m ply.cluster`, docs/cluster.md) on a local cluster of two
//! worker processes: `tests/cluster_check.py` plays a match over them and compares it game for
//! game with the whole match, kills a worker in the middle of a shard, stops a match by SPRT,
//! loses the scheduler and resumes, and analyses a file in partitions against `ply analyse`.
//! `.ci/run` installs dask and distributed; without them the test says it is skipped.

mod python_check;

use std::path::Path;
use std::time::Duration;

#[test]
fn matches_and_analyses_over_a_local_dask_cluster() {
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_ply-referee"))
        .parent()
        .expect("the binaries' directory");
    assert!(
        bin_dir.join("ply").exists(),
        "ply and ply-referee are built side by side"
    );
    python_check::run_python_check(
        "matches_and_analyses_over_a_local_dask_cluster",
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cluster_check.py"),
        &["--bin-dir", bin_dir.to_str().expect("a UTF-8 path")],
        // It took 46 s here under a load of 17 on 2 cores; a stuck worker or client fails the
        // test instead of hanging it.
        Duration::from_secs(600),
    );
}
