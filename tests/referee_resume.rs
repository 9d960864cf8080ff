//! `--resume`: a match killed with SIGKILL part-way and resumed ends with exactly the planned
//! games — none lost, none played twice — and a records file of another match is refused.

mod referee_common;

use std::collections::BTreeSet;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use referee_common::*;

const TOTAL: usize = 40;

fn match_args(games: usize, seed: &str) -> Vec<String> {
    let mut a = args(&["--game", "connect4", "--concurrency", "2", "--repeat"]);
    a.extend(args(&[
        "--games",
        &games.to_string(),
        "--random-plies",
        "4",
        "--seed",
        seed,
    ]));
    for name in ["name=A", "name=B"] {
        a.push("--engine".into());
        a.extend(ply_words());
        a.push(name.into());
    }
    a.extend(args(&["--each", "depth=8"]));
    a
}

fn complete_lines(path: &std::path::Path) -> usize {
    std::fs::read(path)
        .map(|b| b.iter().filter(|&&c| c == b'\n').count())
        .unwrap_or(0)
}

#[test]
fn a_killed_match_resumes_without_losing_or_repeating_games() {
    let dir = scratch("resume");
    let rec = dir.join("r.jsonl");
    let mut a = match_args(TOTAL, "3");
    a.extend(args(&["--records", rec.to_str().unwrap()]));
    let mut child = hermetic(&mut Command::new(referee()))
        .args(&a)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t = Instant::now();
    while complete_lines(&rec) < 8 {
        assert!(
            t.elapsed() < Duration::from_secs(120),
            "the match made no progress"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before = std::fs::read(&rec).unwrap();
    let finished = complete_lines(&rec);
    assert!(
        (8..TOTAL).contains(&finished),
        "the kill came too late ({finished} games finished)"
    );
    // Also a record torn by the kill in the middle of its write.
    std::fs::OpenOptions::new()
        .append(true)
        .open(&rec)
        .unwrap()
        .write_all(b"{\"match\":\"connect4 [wi")
        .unwrap();

    let mut a = match_args(TOTAL, "3");
    a.extend(args(&["--resume", rec.to_str().unwrap()]));
    let out = run_referee(&a, None);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}\n{}", stderr(&out));
    assert!(
        text.contains(&format!(
            "Resuming: {finished} of {TOTAL} games already finished"
        )),
        "{text}"
    );
    assert_eq!(text.matches("Started game").count(), TOTAL - finished);
    assert!(stderr(&out).contains("dropped an unfinished last line"));

    let after = std::fs::read(&rec).unwrap();
    assert!(after.starts_with(&before), "finished records were changed");
    let recs = records(&rec);
    assert_eq!(recs.len(), TOTAL);
    let indices: BTreeSet<u64> = recs.iter().map(|r| r["index"].as_u64().unwrap()).collect();
    assert_eq!(indices, (0..TOTAL as u64).collect());
    for r in &recs {
        replay(r).unwrap_or_else(|e| panic!("game {}: {e}", r["index"]));
    }
    let score = line_starting(&text, "Score of A vs B:");
    assert!(score.ends_with(&format!("] {TOTAL}")), "{score}");

    // Resuming a finished match plays nothing more; growing it plays only the new games.
    let mut a = match_args(TOTAL + 4, "3");
    a.extend(args(&["--resume", rec.to_str().unwrap()]));
    let out = run_referee(&a, None);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out).matches("Started game").count(), 4);
    assert_eq!(records(&rec).len(), TOTAL + 4);

    // Another match (another seed means other openings) is refused.
    let mut a = match_args(TOTAL, "4");
    a.extend(args(&["--resume", rec.to_str().unwrap()]));
    let out = run_referee(&a, None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("belongs to another match"),
        "{}",
        stderr(&out)
    );
    assert_eq!(records(&rec).len(), TOTAL + 4);

    // --records (not --resume) on a file that holds games would mix two matches: refused.
    let mut a = match_args(TOTAL, "3");
    a.extend(args(&["--records", rec.to_str().unwrap()]));
    let out = run_referee(&a, None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("already holds records"),
        "{}",
        stderr(&out)
    );
    assert_eq!(records(&rec).len(), TOTAL + 4);
}

#[test]
fn sigint_stops_cleanly_with_exit_code_3_and_the_match_resumes() {
    let dir = scratch("sigint");
    let rec = dir.join("r.jsonl");
    let mut a = match_args(TOTAL, "9");
    a.extend(args(&["--records", rec.to_str().unwrap()]));
    let child = hermetic(&mut Command::new(referee()))
        .args(&a)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t = Instant::now();
    while complete_lines(&rec) < 4 {
        assert!(
            t.elapsed() < Duration::from_secs(120),
            "the match made no progress"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{text}");
    assert!(text.trim_end().ends_with("Finished match"), "{text}");
    let finished = complete_lines(&rec);
    assert!(finished < TOTAL, "the interrupt came too late");
    // The tally printed covers exactly the recorded games.
    let score = line_starting(&text, "Score of A vs B:");
    assert!(score.ends_with(&format!("] {finished}")), "{score}");

    let mut a = match_args(TOTAL, "9");
    a.extend(args(&["--resume", rec.to_str().unwrap()]));
    let out = run_referee(&a, None);
    assert_eq!(out.status.code(), Some(0));
    let recs = records(&rec);
    let indices: BTreeSet<u64> = recs.iter().map(|r| r["index"].as_u64().unwrap()).collect();
    assert_eq!((recs.len(), indices.len()), (TOTAL, TOTAL));
}
