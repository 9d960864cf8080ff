//! Shards (docs/cluster.md): `ply-referee --shard i/N` plays exactly its slice of the match,
//! game for game as the whole match plays it, and `ply-referee merge` prints the whole match's
//! report from the shards' records, refusing what does not belong; `ply analyse --shard i/N`
//! answers its slice of the positions exactly as the whole run does.

mod referee_common;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use referee_common::*;

/// Runs `cmd` with `stdin`, killed past `limit` (the test then fails with what it printed).
fn run_within(cmd: &mut Command, stdin: &str, limit: Duration) -> Output {
    let dir = scratch(&format!("run-{}", rand_suffix()));
    let (out_path, err_path) = (dir.join("out"), dir.join("err"));
    let mut child = hermetic(cmd)
        .stdin(Stdio::piped())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .expect("cannot start the program");
    let mut input = child.stdin.take().unwrap();
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    let t = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "{cmd:?} did not end within {limit:?}; it printed:\n{}\n{}",
                std::fs::read_to_string(&out_path).unwrap_or_default(),
                std::fs::read_to_string(&err_path).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let o = Output {
        status,
        stdout: std::fs::read(&out_path).unwrap(),
        stderr: std::fs::read(&err_path).unwrap(),
    };
    let _ = std::fs::remove_dir_all(&dir);
    o
}

fn rand_suffix() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos()
}

const LIMIT: Duration = Duration::from_secs(120);

fn referee_run(a: &[String], stdin: &str) -> Output {
    run_within(Command::new(referee()).args(a), stdin, LIMIT)
}

/// 18 games (9 pairs) of Connect Four between two depths from random openings, with an SPRT
/// that cannot decide so few games.
fn match_args(seed: &str) -> Vec<String> {
    let mut a = args(&[
        "--game", "connect4", "--games", "2", "--rounds", "9", "--repeat",
    ]);
    a.extend(args(&["--random-plies", "4", "--seed", seed]));
    for (name, depth) in [("name=A", "depth=3"), ("name=B", "depth=5")] {
        a.push("--engine".into());
        a.extend(ply_words());
        a.extend(args(&[name, depth]));
    }
    a.extend(args(&[
        "--sprt",
        "elo0=0",
        "elo1=5",
        "alpha=0.001",
        "beta=0.001",
    ]));
    a
}

/// What makes a game the same game: everything but times and the run's bookkeeping.
fn games_of(files: &[PathBuf]) -> BTreeMap<u64, String> {
    let mut out = BTreeMap::new();
    for f in files {
        for r in records(f) {
            let moves: Vec<&str> = r["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["mv"].as_str().unwrap())
                .collect();
            let game = format!(
                "{} {} {} {} {} {}",
                r["p1_player"],
                r["opening"],
                moves.join(" "),
                r["result"],
                r["termination"],
                r["match"]
            );
            let index = r["index"].as_u64().unwrap();
            assert!(out.insert(index, game).is_none(), "game {index} twice");
        }
    }
    out
}

fn with(mut a: Vec<String>, more: &[&str]) -> Vec<String> {
    a.extend(args(more));
    a
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn shards_together_are_the_whole_match_and_merge_reports_it() {
    let dir = scratch("shards");
    let whole = dir.join("whole.jsonl");
    let out = referee_run(&with(match_args("5"), &["--records", path(&whole)]), "");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let whole_text = stdout(&out);

    // Four shards of 9 pairs: 2, 2, 2 and 3 pairs.
    let mut files = Vec::new();
    for i in 0..4 {
        let f = dir.join(format!("shard{i}.jsonl"));
        let shard = format!("{i}/4");
        let a = with(match_args("5"), &["--shard", &shard, "--records", path(&f)]);
        let out = referee_run(&a, "");
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(stderr(&out).contains("the SPRT is decided over the whole match"));
        let (first, last) = [(1, 4), (5, 8), (9, 12), (13, 18)][i];
        assert!(
            stdout(&out).starts_with(&format!("Shard {shard}: games {first} to {last} of 18\n")),
            "{}",
            stdout(&out)
        );
        assert_eq!(records(&f).len(), last - first + 1);
        assert!(records(&f).iter().all(|r| r["planned"] == 18));
        files.push(f);
    }
    assert_eq!(games_of(&files), games_of(std::slice::from_ref(&whole)));

    // The merged report is the whole match's summary, line for line.
    let mut a = args(&[
        "merge",
        "--sprt",
        "elo0=0",
        "elo1=5",
        "alpha=0.001",
        "beta=0.001",
    ]);
    a.extend(files.iter().map(|f| path(f).to_string()));
    let out = referee_run(&a, "");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let merged = stdout(&out);
    assert!(merged.contains("\nSPRT: llr "), "{merged}");
    let tail: Vec<&str> = whole_text
        .lines()
        .rev()
        .take(merged.lines().count())
        .collect();
    let tail: Vec<&str> = tail.into_iter().rev().collect();
    assert_eq!(
        merged.lines().collect::<Vec<_>>(),
        tail,
        "whole:\n{whole_text}"
    );
    assert_eq!(
        stderr(&out),
        "",
        "a complete match merges without a warning"
    );

    // Standard input, read as records come, prints every game as the match did.
    let piped = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect::<String>();
    let out = referee_run(&args(&["merge", "-"]), &piped);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let live = stdout(&out);
    assert_eq!(live.matches("Finished game").count(), 18, "{live}");
    for l in whole_text
        .lines()
        .filter(|l| l.starts_with("Finished game "))
    {
        assert!(live.contains(l), "{l} is not in:\n{live}");
    }
}

/// `out` is a refusal (status 1) whose error says `text`.
fn assert_refused(out: &std::process::Output, text: &str) {
    assert_eq!(out.status.code(), Some(1), "{}", stderr(out));
    assert!(stderr(out).contains(text), "{}", stderr(out));
}

#[test]
fn merge_refuses_what_does_not_belong_and_drops_a_torn_line() {
    let dir = scratch("merge-faults");
    let shard = |seed: &str, i: usize| {
        let f = dir.join(format!("s{seed}-{i}.jsonl"));
        let s = format!("{i}/3");
        let a = with(match_args(seed), &["--shard", &s, "--records", path(&f)]);
        let out = referee_run(&a, "");
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        f
    };
    let (a0, a1, a2, b0) = (shard("7", 0), shard("7", 1), shard("7", 2), shard("8", 0));
    let merge = |files: &[&PathBuf]| {
        let mut a = args(&["merge"]);
        a.extend(files.iter().map(|f| path(f).to_string()));
        referee_run(&a, "")
    };

    // Another match (another seed), and a game twice.
    let out = merge(&[&a1, &b0]);
    assert_refused(&out, "belongs to another match");
    let out = merge(&[&a0, &a1, &a1]);
    assert_refused(&out, "game 7 is recorded twice");
    assert_eq!(stdout(&out), "", "nothing is reported from refused records");

    // A shard missing: reported, and the rest merged.
    let out = merge(&[&a0, &a2]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains("6 of the 18 planned games are missing: 7-12"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).starts_with("Score of A vs B: "));
    assert!(stdout(&out).contains("] 12\n"), "{}", stdout(&out));

    // A record cut short by a kill: dropped (that game was not finished), the rest merged.
    let torn = dir.join("torn.jsonl");
    let mut text = std::fs::read(&a2).unwrap();
    let whole_games = text.iter().filter(|&&b| b == b'\n').count();
    text.truncate(text.len() - 40);
    std::fs::write(&torn, &text).unwrap();
    let out = merge(&[&a0, &a1, &torn]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("dropped an unfinished last line"));
    assert!(
        stderr(&out).contains("1 of the 18 planned games are missing: 18"),
        "{}",
        stderr(&out)
    );
    assert!(
        stdout(&out).contains(&format!("] {}\n", 12 + whole_games - 1)),
        "{}",
        stdout(&out)
    );

    // A record whose moves the rules refuse.
    let forged = dir.join("forged.jsonl");
    let text = std::fs::read_to_string(&a0).unwrap();
    let mut first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    first["moves"][0]["mv"] = "9".into();
    std::fs::write(&forged, format!("{first}\n")).unwrap();
    let out = merge(&[&forged]);
    assert_refused(&out, "forged.jsonl line 1: game 1: move 1 '9'");

    // Bytes that are not text after a whole record: refused with the file and the line.
    let garbled = dir.join("garbled.jsonl");
    let mut bytes = std::fs::read_to_string(&a0).unwrap().into_bytes();
    bytes.truncate(bytes.iter().position(|&b| b == b'\n').unwrap() + 1);
    bytes.extend_from_slice(&[0xff, 0xfe, b'\n']);
    std::fs::write(&garbled, bytes).unwrap();
    let out = merge(&[&garbled]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("cannot read ") && stderr(&out).contains("garbled.jsonl at line 2"),
        "{}",
        stderr(&out)
    );
    assert_eq!(stdout(&out), "", "nothing is reported from refused records");
    // Resuming a shard from a file holding other shards' games counts only its own.
    let mixed = dir.join("mixed.jsonl");
    let text = std::fs::read_to_string(&a0).unwrap() + &std::fs::read_to_string(&a1).unwrap();
    std::fs::write(&mixed, text).unwrap();
    let a = with(
        match_args("7"),
        &["--shard", "1/3", "--resume", path(&mixed)],
    );
    let out = referee_run(&a, "");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("6 recorded games lie outside the games planned here (7 to 12)"));
    assert!(stdout(&out).contains("Resuming: 6 of 18 games already finished"));
    assert_eq!(stdout(&out).matches("Started game").count(), 0);
}

#[test]
fn analyse_shards_are_the_whole_run_line_for_line() {
    let mut input = String::from("# positions\n\n");
    let mut rng = 7u64;
    for i in 0..60 {
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let len = 4 + (rng >> 61) as usize;
        let moves: String = (0..len)
            .map(|k| char::from(b'1' + ((rng >> (3 * k)) % 7) as u8))
            .collect();
        input.push_str(&moves);
        input.push('\n');
        if i % 9 == 4 {
            input.push_str("not a position\n\ntictactoe startpos moves b2\n");
        }
    }
    let dir = scratch("analyse-shards");
    let file = dir.join("positions.txt");
    std::fs::write(&file, &input).unwrap();
    let analyse = |extra: &[&str]| {
        let mut c = Command::new(ply());
        c.args([
            "analyse",
            "--format",
            "jsonl",
            "--depth",
            "6",
            "--no-solver",
        ])
        .args(extra)
        .arg(&file);
        let out = run_within(&mut c, "", LIMIT);
        assert!(matches!(out.status.code(), Some(0 | 2)), "{}", stderr(&out));
        out
    };
    // Without the times, a row is the same whatever ran before it (tables start empty).
    let rows = |o: &Output| -> Vec<serde_json::Value> {
        stdout(o)
            .lines()
            .map(|l| {
                let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                v.as_object_mut().unwrap().remove("time_us");
                v
            })
            .collect()
    };
    // Bad lines, by line number (lines that do not parse are reported first).
    let errors = |o: &Output| -> Vec<(usize, String)> {
        let mut e: Vec<(usize, String)> = stderr(o)
            .lines()
            .filter_map(|l| {
                let n = l.strip_prefix("line ")?.split(':').next()?.parse().ok()?;
                Some((n, l.to_string()))
            })
            .collect();
        e.sort();
        e
    };
    let whole = analyse(&["--threads", "2"]);
    let mut shards = Vec::new();
    let mut shard_errors = Vec::new();
    for i in 0..3 {
        let out = analyse(&["--threads", "1", "--shard", &format!("{i}/3")]);
        shards.extend(rows(&out));
        shard_errors.extend(errors(&out));
    }
    assert_eq!(shards, rows(&whole));
    let errors = errors(&whole);
    assert_eq!(shard_errors, errors);
    // 67 positions, 7 lines that are none (and any random line the rules refuse).
    assert!(errors.len() >= 7, "{errors:?}");
    assert_eq!(rows(&whole).len() + errors.len(), 74);
}
