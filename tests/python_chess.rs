//! python-chess (PyPI `chess`, installed by `.ci/run`) drives `ply --game chess` through
//! `popen_uci`: `tests/python_chess.py` analyses at a depth, a time and with `multipv=3`,
//! plays Chess960, ponders, plays a whole game against itself at 1 s + 10 ms a move to its end,
//! and quits. Without python-chess the test says it is skipped.

use std::process::Command;

#[test]
fn python_chess_drives_ply_as_a_uci_engine() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python_chess.py");
    let run = Command::new("python3")
        .arg(script)
        .args(["--ply", env!("CARGO_BIN_EXE_ply")])
        .output();
    let out = match run {
        Ok(o) => o,
        Err(e) => {
            println!("SKIPPED python_chess_drives_ply_as_a_uci_engine: cannot run python3 ({e})");
            return;
        }
    };
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if out.status.code() == Some(77) {
        println!(
            "SKIPPED python_chess_drives_ply_as_a_uci_engine: {}",
            text.trim()
        );
        eprintln!(
            "SKIPPED python_chess_drives_ply_as_a_uci_engine: {}",
            text.trim()
        );
        return;
    }
    println!("{text}");
    assert!(out.status.success(), "python-chess failed:\n{text}");
}
