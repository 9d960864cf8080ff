//! The page in a real browser: `tests/gui_browser.py` drives Debian's chromium through
//! chromedriver with selenium, plays a complete game of every game type by clicking against
//! ply, checks the results, the records and the browser console, and saves screenshots under
//! `target/gui-screenshots/`. `.ci/run` installs chromium, chromium-driver and selenium; where
//! one of them is missing the test says so and is skipped.

use std::process::Command;

#[test]
fn every_game_in_a_real_browser() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/gui_browser.py");
    let out_dir = concat!(env!("CARGO_MANIFEST_DIR"), "/target/gui-screenshots");
    let run = Command::new("python3")
        .arg(script)
        .args(["--ply", env!("CARGO_BIN_EXE_ply"), "--out", out_dir])
        .output();
    let out = match run {
        Ok(o) => o,
        Err(e) => {
            println!("SKIPPED every_game_in_a_real_browser: cannot run python3 ({e})");
            return;
        }
    };
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if out.status.code() == Some(77) {
        println!("SKIPPED every_game_in_a_real_browser: {}", text.trim());
        eprintln!("SKIPPED every_game_in_a_real_browser: {}", text.trim());
        return;
    }
    println!("{text}");
    assert!(out.status.success(), "the browser test failed:\n{text}");
}
