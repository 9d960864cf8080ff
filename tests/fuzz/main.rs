//! Fuzzing the protocol on stable Rust: random command streams (valid commands of every game,
//! hostile numbers and words, garbage bytes, mutations; piped at once or paced) are fed to the
//! `ply` binary, and its answers are checked against protocol.md's invariants ([`check`]):
//! no panic, no hang at end of input, exactly one last line per `go`, a `readyok` for every
//! `isready`, only protocol lines on stdout, nothing changed by a command that failed. The
//! parser alone is also fed mutated lines in process, many more of them.
//!
//! `cargo test` runs a small fixed-seed sample; `scripts/checks/fuzz.sh` runs the ignored tests for
//! ten million lines and more (`FUZZ_LINES`, `FUZZ_SEED`, `FUZZ_JOBS`). A failing stream is
//! saved under `target/fuzz-failures/` with its seed, to be replayed with
//! `ply < target/fuzz-failures/<file>`.

mod check;
mod streams;

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use check::{Outcome, check};
use streams::{Gen, Stream};

/// How long a stream may take after its last line is written, beyond its own pauses
/// (`FUZZ_DEADLINE_SECS` changes it).
const DEADLINE: Duration = Duration::from_secs(120);

/// Runs `ply` (or the engine `FUZZ_PLY` names, to try the checks on another build) on
/// `stream` and returns what it answered (a hang is killed at the deadline).
fn run(stream: &Stream, env: &[(&str, String)]) -> Outcome {
    let ply = std::env::var("FUZZ_PLY").unwrap_or_else(|_| env!("CARGO_BIN_EXE_ply").into());
    let deadline = std::env::var("FUZZ_DEADLINE_SECS")
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(DEADLINE, Duration::from_secs);
    let mut cmd = Command::new(ply);
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("PLY_TABLES_AUTOBUILD", "0")
        .env("RUST_LOG", "warn");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("ply starts");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = stdout.read_to_end(&mut b);
        b
    });
    let err = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = stderr.read_to_end(&mut b);
        b
    });
    let ending: &[u8] = if stream.crlf { b"\r\n" } else { b"\n" };
    let mut pauses = stream.pauses.iter().peekable();
    let mut chunk = Vec::new();
    for (i, line) in stream.lines.iter().enumerate() {
        chunk.extend_from_slice(line);
        chunk.extend_from_slice(ending);
        if let Some(&(_, ms)) = pauses.next_if(|&&(at, _)| at == i) {
            if stdin.write_all(&chunk).and_then(|_| stdin.flush()).is_err() {
                break;
            }
            chunk.clear();
            std::thread::sleep(Duration::from_millis(ms));
        }
    }
    // The engine may have quit and closed its input: not an error here.
    let _ = stdin.write_all(&chunk);
    drop(stdin);
    let end = Instant::now() + deadline;
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s.code().or(Some(-1)),
            Ok(None) if Instant::now() < end => std::thread::sleep(Duration::from_millis(2)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
        }
    };
    Outcome {
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
        status,
    }
}

/// Saves a failing stream for replay and returns where.
fn save(stream: &Stream, seed: u64, why: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("../fuzz-failures");
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join(format!("stream-{seed}.txt"));
    let ending: &[u8] = if stream.crlf { b"\r\n" } else { b"\n" };
    let mut bytes = Vec::new();
    for l in &stream.lines {
        bytes.extend_from_slice(l);
        bytes.extend_from_slice(ending);
    }
    let _ = std::fs::write(&path, bytes);
    let _ = std::fs::write(path.with_extension("why"), why);
    path
}

/// The Teeko table directory for the engines: `FUZZ_TABLES` if set (the long run builds
/// one, so the Teeko solver answers), else an empty directory (the solver declines).
fn tables() -> String {
    std::env::var("FUZZ_TABLES").unwrap_or_else(|_| {
        let d = std::env::temp_dir().join(format!("ply-fuzz-no-tables-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&d);
        d.to_string_lossy().into_owned()
    })
}

/// Runs streams with seeds `first..` until `lines` lines have been sent; returns
/// (streams, lines). Panics with the saved stream on the first failure.
fn fuzz_sessions(first: u64, lines: u64, jobs: usize, progress: bool) -> (u64, u64) {
    let env = [("PLY_TABLES", tables())];
    let next = AtomicU64::new(first);
    let sent = AtomicU64::new(0);
    let streams = AtomicU64::new(0);
    let failed = AtomicBool::new(false);
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| {
                while sent.load(Ordering::Relaxed) < lines && !failed.load(Ordering::Relaxed) {
                    let seed = next.fetch_add(1, Ordering::Relaxed);
                    let mut g = Gen::new(seed);
                    let len = 50 + (seed % 7) as usize * 100;
                    let stream = g.stream(len, seed.is_multiple_of(5));
                    let out = run(&stream, &env);
                    if let Err(why) = check(&stream, &out) {
                        failed.store(true, Ordering::Relaxed);
                        let path = save(&stream, seed, &why);
                        panic!("stream {seed}: {why}\nsaved to {}", path.display());
                    }
                    let n = sent.fetch_add(stream.lines.len() as u64, Ordering::Relaxed)
                        + stream.lines.len() as u64;
                    let k = streams.fetch_add(1, Ordering::Relaxed) + 1;
                    if progress && k.is_multiple_of(200) {
                        eprintln!(
                            "fuzz: {k} streams, {n} lines, {:.0} s",
                            start.elapsed().as_secs_f64()
                        );
                    }
                }
            });
        }
    });
    (streams.into_inner(), sent.into_inner())
}

/// Feeds the parser alone `count` lines (generated and mutated) in this process; returns
/// how many.
fn fuzz_parser(seed: u64, count: u64) -> u64 {
    let mut g = Gen::new(seed);
    let mut done = 0;
    while done < count {
        let stream = g.stream(200, false);
        for line in &stream.lines {
            let text = String::from_utf8_lossy(line);
            // Must return (an error is fine); a panic fails the test.
            let _ = ply::protocol::command::parse(&text);
            done += 1;
        }
    }
    done
}

fn env_u64(key: &str, default: u64) -> u64 {
    std::env::var(key)
        .ok()
        .and_then(|v| v.replace('_', "").parse().ok())
        .unwrap_or(default)
}

/// A small fixed-seed sample of the session fuzzer: about 6,000 lines in 24 streams.
#[test]
fn fuzz_sessions_fixed_seed() {
    let (streams, lines) = fuzz_sessions(1, 6_000, 2, false);
    eprintln!("{streams} streams, {lines} lines: every invariant held");
}

#[test]
fn fuzz_parser_fixed_seed() {
    let n = fuzz_parser(7, 100_000);
    eprintln!("{n} lines parsed");
}

/// The long run (`scripts/checks/fuzz.sh`): `FUZZ_LINES` lines (default 10 million) of sessions
/// from seed `FUZZ_SEED` on `FUZZ_JOBS` engines at once, then 10x as many for the parser.
#[test]
#[ignore = "runs for a long time; scripts/checks/fuzz.sh runs it"]
fn fuzz_long() {
    let lines = env_u64("FUZZ_LINES", 10_000_000);
    let seed = env_u64("FUZZ_SEED", 1_000_000);
    let jobs = env_u64("FUZZ_JOBS", 1) as usize;
    let t = Instant::now();
    let (streams, sent) = fuzz_sessions(seed, lines, jobs, true);
    let secs = t.elapsed().as_secs_f64();
    println!(
        "sessions: {streams} streams, {sent} lines from seed {seed}, {jobs} at once: {secs:.0} s, every invariant held"
    );
    let t = Instant::now();
    let parsed = fuzz_parser(seed, lines * 10);
    println!(
        "parser: {parsed} lines in {:.0} s, no panic",
        t.elapsed().as_secs_f64()
    );
}
