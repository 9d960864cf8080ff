//! `ply-referee check`: ply passes every step; faulty engines fail with exit code 2 at the
//! step that shows their fault.

mod referee_common;

use std::process::Command;

use referee_common::*;

fn check(engine: &[&str]) -> (Option<i32>, String) {
    let out = hermetic(&mut Command::new(referee()))
        .args(["check", "--timeout", "3000", "--"])
        .args(engine)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn ply_passes_every_step() {
    let (code, out) = check(&[ply()]);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.lines().last().unwrap().starts_with("passed: all "),
        "{out}"
    );
    assert!(!out.contains("FAIL"));
    for game in ["tictactoe", "connect4", "nim", "teeko"] {
        for step in [
            "newgame",
            "go infinite, isready, stop",
            "bad move in position",
        ] {
            assert!(
                out.contains(&format!("ok    {game}: {step}")),
                "{game} {step}:\n{out}"
            );
        }
    }
}

#[test]
fn faulty_engines_fail_at_their_fault() {
    let fake = fake();
    let cases = [
        ("nouciok", "FAIL  handshake (uci, options): no 'uciok'"),
        (
            "garbage",
            "FAIL  handshake (uci, options): 'option name Broken type'",
        ),
        // It plays, but does not report errors the way ply's protocol asks.
        (
            "good",
            "FAIL  bad input: go with a bad value: no 'info string error'",
        ),
    ];
    for (mode, want) in cases {
        let (code, out) = check(&["python3", &fake, mode]);
        assert_eq!(code, Some(2), "{mode}:\n{out}");
        assert!(out.contains(want), "{mode}: no '{want}' in:\n{out}");
        assert_eq!(
            out.matches("FAIL").count(),
            1,
            "{mode}: stops at the first failure"
        );
    }
}
