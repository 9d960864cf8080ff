//! Fault injection: ply against the fake engines of tests/fakes/fake_engine.py. Each fault
//! must end its games with its own recorded reason, the match must finish, and the tally
//! must count every forfeit as a loss of the faulty engine.

mod referee_common;

use referee_common::*;

/// Plays `games` tic-tac-toe games of ply (A) against the fake in `mode` (B, with `limit`),
/// with `--recover` and short timeouts; returns (exit code, stdout, records).
fn against_fake(
    mode: &str,
    limit: &str,
    games: u32,
    recover: bool,
) -> (Option<i32>, String, Vec<serde_json::Value>) {
    let dir = scratch(&format!("fault-{mode}-{limit}-{recover}"));
    let rec = dir.join("r.jsonl");
    let mut a = args(&["--game", "tictactoe", "--games", &games.to_string()]);
    a.extend(args(&[
        "--engine",
        &format!("cmd={}", ply()),
        "depth=2",
        "name=ply",
    ]));
    a.extend(args(&[
        "--engine",
        "cmd=python3",
        &format!("arg={}", fake()),
    ]));
    a.extend(args(&[
        &format!("arg={mode}"),
        &format!("name={mode}"),
        limit,
    ]));
    a.extend(args(&[
        "--stall-timeout",
        "1000",
        "--move-timeout",
        "600",
        "--stop-grace",
        "200",
    ]));
    a.extend(args(&["--records", rec.to_str().unwrap()]));
    if recover {
        a.push("--recover".into());
    }
    let out = run_referee(&a, None);
    let recs = if rec.exists() { records(&rec) } else { vec![] };
    (out.status.code(), stdout(&out), recs)
}

/// Every game is a forfeit of the fake with `kind`, and the tally says so.
fn assert_all_forfeits(mode: &str, limit: &str, kind: &str, reason: &str) {
    let (code, out, recs) = against_fake(mode, limit, 4, true);
    assert_eq!(code, Some(0), "{mode}: {out}");
    assert_eq!(recs.len(), 4, "{mode}: {out}");
    for r in &recs {
        replay(r).unwrap_or_else(|e| panic!("{mode}: {e}"));
        assert_eq!(r["termination"], kind, "{mode}: {r}");
        assert_eq!(r["culprit"], 1, "{mode}: {r}");
        assert!(
            r["reason"].as_str().unwrap().contains(reason),
            "{mode}: {r}"
        );
        // The fake lost: the first player won exactly when ply was the first player.
        let want = if r["p1_player"] == 0 { "1-0" } else { "0-1" };
        assert_eq!(r["result"], want, "{mode}: {r}");
    }
    assert_eq!(
        line_starting(&out, "Score of ply vs"),
        format!("Score of ply vs {mode}: 4 - 0 - 0  [1.000] 4")
    );
    assert_eq!(
        line_starting(&out, "Forfeits: "),
        format!("Forfeits: ply none; {mode} 4 ({kind} 4)")
    );
    assert!(out.trim_end().ends_with("Finished match"));
}

#[test]
fn a_crash_mid_game_is_a_disconnect() {
    assert_all_forfeits("crash", "depth=1", "crash", "disconnects: exit status 3");
}

#[test]
fn a_hang_without_bestmove_is_no_bestmove() {
    assert_all_forfeits("hang", "depth=1", "nobestmove", "sends no bestmove");
}

#[test]
fn a_hang_under_a_clock_loses_on_time() {
    assert_all_forfeits("hang", "tc=0.3", "time", "loses on time");
}

#[test]
fn a_slow_move_loses_on_time() {
    assert_all_forfeits("slow", "st=0.1", "time", "loses on time");
}

#[test]
fn an_illegal_move_is_illegal() {
    assert_all_forfeits("illegal", "depth=1", "illegal", "is occupied");
}

#[test]
fn garbage_output_is_a_malformed_move() {
    assert_all_forfeits(
        "garbage",
        "depth=1",
        "malformed",
        "'~~garbage~~' is not a cell",
    );
}

#[test]
fn no_uciok_is_a_stall() {
    assert_all_forfeits("nouciok", "depth=1", "stall", "no uciok within 1000 ms");
}

#[test]
fn flooding_stderr_does_not_block_the_game() {
    let (code, out, recs) = against_fake("flood", "tc=5", 2, false);
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(recs.len(), 2);
    for r in &recs {
        replay(r).unwrap();
        assert_eq!(r["termination"], "rules", "{r}");
    }
    assert_eq!(
        line_starting(&out, "Forfeits: "),
        "Forfeits: ply none; flood none"
    );
}

#[test]
fn without_recover_a_crash_stops_the_match_with_exit_code_2() {
    let (code, out, recs) = against_fake("crash", "depth=1", 6, false);
    assert_eq!(code, Some(2), "{out}");
    // The crashed game is recorded and counted; no game is started after it.
    assert_eq!(recs.len(), 1, "{out}");
    assert_eq!(recs[0]["termination"], "crash");
    assert_eq!(out.matches("Started game").count(), 1, "{out}");
    assert_eq!(
        line_starting(&out, "Score of ply vs"),
        "Score of ply vs crash: 1 - 0 - 0  [1.000] 1"
    );
}

/// The referee's memory stays bounded whatever an engine prints: a 40 MB info line before
/// every move, a 64 MB option line in the handshake, or a million info lines while the
/// opponent thinks (which took the referee to 100 MB and more). Lines are cut at 64 KiB
/// with a warning, and no game is forfeited for it.
#[test]
fn huge_or_endless_engine_output_keeps_the_referee_small() {
    for mode in ["hugeinfo", "hugeoption", "spam"] {
        let dir = scratch(&format!("memory-{mode}"));
        let rec = dir.join("r.jsonl");
        let mut cmd = std::process::Command::new(referee());
        hermetic(&mut cmd)
            .args(["--game", "tictactoe", "--games", "2", "--engine"])
            .arg(format!("cmd={}", ply()))
            .args(["depth=4", "option.UseSolver=false", "name=ply", "--engine"])
            .args(["cmd=python3", &format!("arg={}", fake())])
            .args([&format!("arg={mode}"), &format!("name={mode}"), "tc=60"])
            .args(["--records", rec.to_str().unwrap()])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        let child = cmd.spawn().unwrap();
        let pid = child.id();
        let peak = std::thread::spawn(move || {
            let mut peak = 0.0f64;
            while let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) {
                if let Some(kib) = status
                    .lines()
                    .find(|l| l.starts_with("VmHWM:"))
                    .and_then(|l| l.split_whitespace().nth(1))
                    .and_then(|v| v.parse::<f64>().ok())
                {
                    peak = peak.max(kib / 1024.0);
                }
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            peak
        });
        let out = child.wait_with_output().unwrap();
        let peak = peak.join().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{mode}: {text}");
        assert_eq!(
            line_starting(&text, "Forfeits: "),
            format!("Forfeits: ply none; {mode} none")
        );
        assert_eq!(records(&rec).len(), 2);
        // Zero when /proc is not there to say.
        assert!(peak < 48.0, "{mode}: the referee reached {peak:.0} MiB");
        if mode != "spam" {
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains("cut to its first 65536"), "{mode}: {err}");
        }
    }
}
