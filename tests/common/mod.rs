//! Drives the `ply` binary through its protocol for integration tests: a child process with
//! a reader thread, so every wait has a timeout and a hung engine fails the test instead of
//! hanging it.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use ply::protocol::response::{BestMove, InfoLine, QueryResponse};

pub const TIMEOUT: Duration = Duration::from_secs(60);

/// A `ply` engine process driven by a test through its protocol.
pub struct PlyProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line read so far, for failure messages.
    pub transcript: Vec<String>,
}

/// The result of one `go`: its info lines and the move it chose.
#[derive(Debug)]
pub struct Go {
    pub infos: Vec<String>,
    pub bestmove: String,
}

impl Go {
    /// The `info` lines among `infos`, as the protocol's type.
    pub fn info_lines(&self) -> Vec<InfoLine> {
        self.infos.iter().filter_map(|l| l.parse().ok()).collect()
    }

    /// The last `score ...` of the info lines, such as `cp 0` or `mate 3` (without a bound).
    pub fn score(&self) -> String {
        self.info_lines()
            .iter()
            .rev()
            .find_map(|i| i.score)
            .expect("a score")
            .score
            .to_string()
    }

    /// The value of the numeric field `key` (`depth`, `nodes`, `time`, `tbhits`, ...) in the
    /// last info line that has it.
    pub fn field(&self, key: &str) -> Option<String> {
        self.info_lines().iter().rev().find_map(|i| {
            match key {
                "depth" => i.depth.map(u64::from),
                "seldepth" => i.seldepth.map(u64::from),
                "nodes" => i.nodes,
                "nps" => i.nps,
                "time" => i.time,
                "hashfull" => i.hashfull.map(u64::from),
                "tbhits" => i.tbhits,
                _ => panic!("no numeric info field '{key}'"),
            }
            .map(|v| v.to_string())
        })
    }
}

/// Tests do not touch the user's tables: by default the engine looks for them in an empty
/// directory of this test process and never builds one in the background (a test that wants
/// the Teeko table passes its own `PLY_TABLES`).
pub fn hermetic(cmd: &mut Command) {
    let dir = std::env::temp_dir().join(format!("ply-test-no-tables-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    cmd.env("PLY_TABLES", dir).env("PLY_TABLES_AUTOBUILD", "0");
}

impl PlyProcess {
    pub fn start() -> PlyProcess {
        PlyProcess::start_with_env(&[])
    }

    pub fn start_with_env(env: &[(&str, &str)]) -> PlyProcess {
        PlyProcess::start_with(&[], env)
    }

    /// `ply` with these command-line arguments (`--game chess`) and environment.
    pub fn start_with(args: &[&str], env: &[(&str, &str)]) -> PlyProcess {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_ply"));
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        hermetic(&mut cmd);
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().expect("ply starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        let stdin = child.stdin.take();
        PlyProcess {
            child,
            stdin,
            lines: rx,
            transcript: Vec::new(),
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The process's peak resident memory so far, in MiB (Linux: VmHWM), or `None` where
    /// the system does not say.
    pub fn peak_rss_mib(&self) -> Option<f64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib / 1024.0)
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Closes stdin (end of input).
    pub fn close(&mut self) {
        self.stdin.take();
    }

    /// The next line, or `None` if the engine closed stdout, within `timeout`.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => {
                self.transcript.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Disconnected) => None,
            Err(RecvTimeoutError::Timeout) => {
                panic!(
                    "no line from ply within {timeout:?}; transcript:\n{}",
                    self.transcript.join("\n")
                )
            }
        }
    }

    /// Reads lines until one satisfies `done`; returns all of them, that one last.
    pub fn read_until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let l = self.next_line(TIMEOUT).unwrap_or_else(|| {
                panic!(
                    "ply closed stdout; transcript:\n{}",
                    self.transcript.join("\n")
                )
            });
            let stop = done(&l);
            out.push(l);
            if stop {
                return out;
            }
        }
    }

    /// Sends `isready` and returns every line before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// Sends a `go ...` and collects its output up to `bestmove`.
    pub fn go(&mut self, go: &str) -> Go {
        self.send(go);
        self.collect_go()
    }

    pub fn collect_go(&mut self) -> Go {
        let mut lines = self.read_until(|l| l.starts_with("bestmove"));
        let last = lines.pop().unwrap();
        let bestmove = last.parse::<BestMove>().unwrap().text().to_string();
        Go {
            infos: lines,
            bestmove,
        }
    }

    /// Sends `query ...` and returns what follows `response`.
    pub fn query(&mut self, q: &str) -> String {
        self.send(&format!("query {q}"));
        let l = self
            .read_until(|l| l.parse::<QueryResponse>().is_ok())
            .pop()
            .unwrap();
        l.parse::<QueryResponse>().unwrap().0
    }

    /// Waits for the process to exit (after `quit` or end of input) and returns its status.
    pub fn wait(&mut self, timeout: Duration) -> Option<i32> {
        let t = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            if t.elapsed() > timeout {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for PlyProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs ply on a whole script (stdin closed at the end) and returns its stdout lines.
pub fn run_script(script: &str) -> Vec<String> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ply"));
    hermetic(&mut cmd);
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("ply starts");
    // Write from another thread: a long script could otherwise fill the pipe while ply
    // waits for us to read its answers.
    let mut stdin = child.stdin.take().unwrap();
    let script = script.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(script.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success(), "ply exited with {:?}", out.status);
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}
