//! python-chess (PyPI `chess`, installed by `.ci/run`) drives `ply --game chess` through
//! `popen_uci`: `tests/python_chess.py` analyses at a depth, a time and with `multipv=3`,
//! plays Chess960, ponders, plays a whole game against itself at 1 s + 10 ms a move to its end,
//! and quits. Without python-chess the test says it is skipped.

mod python_check;

use std::time::Duration;

#[test]
fn python_chess_drives_ply_as_a_uci_engine() {
    python_check::run_python_check(
        "python_chess_drives_ply_as_a_uci_engine",
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python_chess.py"),
        &["--ply", env!("CARGO_BIN_EXE_ply")],
        // It takes about 5 s; a stuck engine fails the test instead of hanging it.
        Duration::from_secs(300),
    );
}
