//! pydraughts (PyPI, MIT; its English variant, installed by `.ci/run`) as an independent oracle
//! of ply's checkers rules: `tests/checkers_pydraughts.py` plays random games from the start,
//! random positions full of kings and random king endings through `ply`'s protocol, and
//! checks at every ply that both agree on the legal moves (each capture with its path), the
//! position after the move (crowning included) and the result (blocked or captured sides,
//! threefold repetition, the no-progress rule). Without pydraughts the test says it is
//! skipped.

mod python_check;

use std::time::Duration;

#[test]
fn pydraughts_agrees_with_ply_move_for_move() {
    python_check::run_python_check(
        "pydraughts_agrees_with_ply_move_for_move",
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/checkers_pydraughts.py"),
        &[
            "--ply",
            env!("CARGO_BIN_EXE_ply"),
            "--games",
            "30",
            "--positions",
            "200",
            "--endings",
            "20",
        ],
        // About 20 s on a loaded machine; a stuck engine fails the test instead of hanging it.
        Duration::from_secs(300),
    );
}
