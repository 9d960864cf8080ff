//! The page in a real browser: `tests/gui_browser.py` drives Debian's chromium through
//! chromedriver with selenium, plays a complete game of every game type by clicking against
//! ply, checks the results, the records and the browser console, and saves screenshots under
//! `target/gui-screenshots/`. `.ci/run` installs chromium, chromium-driver and selenium; where
//! one of them is missing the test says so and is skipped.

mod python_check;

use std::time::Duration;

#[test]
fn every_game_in_a_real_browser() {
    python_check::run_python_check(
        "every_game_in_a_real_browser",
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/gui_browser.py"),
        &[
            "--ply",
            env!("CARGO_BIN_EXE_ply"),
            "--out",
            concat!(env!("CARGO_MANIFEST_DIR"), "/target/gui-screenshots"),
        ],
        // It takes about 30 s; a stuck page or engine fails the test instead of hanging it.
        Duration::from_secs(400),
    );
}
