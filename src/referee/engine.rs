//! One engine process: spawned with piped stdin/stdout/stderr, a reader thread per output
//! stream, and waits with deadlines.
//!
//! The stdout thread stamps each line with the [`Instant`] it was read, so the time an
//! engine is charged ends when its `bestmove` reached the referee, not when a busy referee
//! got round to looking (this keeps time losses honest at high concurrency). The stderr
//! thread drains the stream whatever it holds, so an engine that floods stderr never blocks
//! on a full pipe; with `verbose` it logs each line. Engines run in their own process group,
//! so a Ctrl-C at the terminal reaches the referee alone and it can stop them in order.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Longer stdout lines are cut to this many bytes (the rest of the line is skipped), so
/// an engine printing without newlines cannot exhaust the referee's memory.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// How often a wait wakes up to look at the abort flag.
const POLL: Duration = Duration::from_millis(50);

/// What the stdout reader thread reports.
#[derive(Debug)]
pub enum Incoming {
    Line(String, Instant),
    /// Stdout closed: the engine exited or closed it.
    Eof(Instant),
}

/// Why a wait ended without the line it wanted.
#[derive(Debug, PartialEq, Eq)]
pub enum WaitError {
    /// The deadline passed.
    Timeout,
    /// Stdout closed (or stdin could not be written): the engine is gone.
    Disconnected(String),
    /// The referee is shutting down.
    Aborted,
}

/// How to start an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    pub cmd: String,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
}

/// The program to run for `cmd=`: a bare name not found on the PATH is looked for next to
/// the referee's own executable, so `cmd=ply` finds the engine built beside it
/// (`target/release/ply`) without installing anything.
pub fn resolve(cmd: &str) -> PathBuf {
    let plain = PathBuf::from(cmd);
    if cmd.contains(std::path::MAIN_SEPARATOR) || cmd.is_empty() {
        return plain;
    }
    let on_path = std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(cmd).is_file()));
    if on_path {
        return plain;
    }
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|d| d.join(cmd)))
        .filter(|p| p.is_file())
        .unwrap_or(plain)
}

pub struct EngineProcess {
    /// The name used in logs (`> name: ...`).
    pub name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Incoming>,
    verbose: bool,
    closed: bool,
}

impl EngineProcess {
    /// Starts the process. Fails only when it cannot be started at all (no such file, no
    /// permission): a usage problem, not an engine fault.
    pub fn spawn(name: &str, launch: &Launch, verbose: bool) -> std::io::Result<EngineProcess> {
        let mut cmd = Command::new(resolve(&launch.cmd));
        cmd.args(&launch.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &launch.dir {
            cmd.current_dir(dir);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd.spawn()?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        let log_name = name.to_string();
        std::thread::Builder::new()
            .name(format!("{name}-stdout"))
            .spawn(move || read_stdout(stdout, tx))?;
        std::thread::Builder::new()
            .name(format!("{name}-stderr"))
            .spawn(move || drain_stderr(stderr, &log_name, verbose))?;
        Ok(EngineProcess {
            name: name.to_string(),
            child,
            stdin,
            lines: rx,
            verbose,
            closed: false,
        })
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Writes one line (a newline is added) and flushes it.
    pub fn send(&mut self, line: &str) -> Result<(), WaitError> {
        if self.verbose {
            eprintln!("> {}: {line}", self.name);
        }
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(WaitError::Disconnected("its input is closed".into()));
        };
        let mut buf = Vec::with_capacity(line.len() + 1);
        buf.extend_from_slice(line.as_bytes());
        buf.push(b'\n');
        match stdin.write_all(&buf).and_then(|_| stdin.flush()) {
            Ok(()) => Ok(()),
            Err(e) => {
                self.stdin = None;
                Err(WaitError::Disconnected(format!(
                    "writing to it failed: {e}"
                )))
            }
        }
    }

    /// The next stdout line, waiting until `deadline` at most; returns early with
    /// [`WaitError::Aborted`] once `abort` is set.
    pub fn recv(
        &mut self,
        deadline: Instant,
        abort: &AtomicBool,
    ) -> Result<(String, Instant), WaitError> {
        loop {
            if abort.load(Ordering::Relaxed) {
                return Err(WaitError::Aborted);
            }
            if self.closed {
                return Err(WaitError::Disconnected(self.exit_description()));
            }
            let now = Instant::now();
            if now >= deadline {
                // One last look: a line that arrived exactly at the deadline still counts
                // by its own timestamp (the caller compares it).
                return match self.lines.try_recv() {
                    Ok(inc) => self.accept(inc),
                    Err(_) => Err(WaitError::Timeout),
                };
            }
            match self.lines.recv_timeout((deadline - now).min(POLL)) {
                Ok(inc) => return self.accept(inc),
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => {
                    self.closed = true;
                }
            }
        }
    }

    fn accept(&mut self, inc: Incoming) -> Result<(String, Instant), WaitError> {
        match inc {
            Incoming::Line(text, at) => {
                if self.verbose {
                    eprintln!("< {}: {text}", self.name);
                }
                Ok((text, at))
            }
            Incoming::Eof(_) => {
                self.closed = true;
                Err(WaitError::Disconnected(self.exit_description()))
            }
        }
    }

    /// Waits for a line starting with the word `word` (`uciok`, `readyok`), passing every
    /// other line to `other`.
    pub fn wait_for(
        &mut self,
        word: &str,
        deadline: Instant,
        abort: &AtomicBool,
        mut other: impl FnMut(&str),
    ) -> Result<(String, Instant), WaitError> {
        loop {
            let (line, at) = self.recv(deadline, abort)?;
            if line.split_whitespace().next() == Some(word) {
                return Ok((line, at));
            }
            other(&line);
        }
    }

    /// Throws away lines that already arrived (output left over from an earlier exchange).
    /// Notices a closed stdout.
    pub fn discard_pending(&mut self) {
        while let Ok(inc) = self.lines.try_recv() {
            match inc {
                Incoming::Line(text, _) => {
                    if self.verbose {
                        eprintln!("< {}: {text}", self.name);
                    }
                }
                Incoming::Eof(_) => self.closed = true,
            }
        }
    }

    /// Whether stdout has closed or the process has exited.
    pub fn is_gone(&mut self) -> bool {
        self.discard_pending();
        self.closed || matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// "exit status 3", "killed by signal 9", or "still running" with a short wait for the
    /// process to finish exiting.
    pub fn exit_description(&mut self) -> String {
        let until = Instant::now() + Duration::from_millis(200);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return describe_status(status),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
                Ok(None) => return "its output closed".to_string(),
                Err(e) => return format!("its status is unknown ({e})"),
            }
        }
    }

    /// Ends the process: `quit`, up to `grace` for it to exit, then a kill.
    pub fn shutdown(mut self, grace: Duration) {
        if !self.closed && self.stdin.is_some() {
            let _ = self.send("quit");
            self.stdin = None;
            let until = Instant::now() + grace;
            while Instant::now() < until {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        // Drop kills what is left.
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.stdin = None;
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

fn describe_status(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return format!("killed by signal {sig}");
        }
    }
    match status.code() {
        Some(c) => format!("exit status {c}"),
        None => "exited".to_string(),
    }
}

fn read_stdout(stdout: impl Read, tx: mpsc::Sender<Incoming>) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let read = (&mut reader)
            .take(MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut buf);
        match read {
            Ok(0) => break,
            Ok(_) => {
                let at = Instant::now();
                if buf.last() == Some(&b'\n') {
                    buf.pop();
                } else if buf.len() > MAX_LINE_BYTES {
                    // Skip the rest of an overlong line.
                    buf.truncate(MAX_LINE_BYTES);
                    let mut rest = Vec::new();
                    loop {
                        rest.clear();
                        match (&mut reader).take(1 << 16).read_until(b'\n', &mut rest) {
                            Ok(0) | Err(_) => break,
                            Ok(_) if rest.last() == Some(&b'\n') => break,
                            Ok(_) => {}
                        }
                    }
                }
                if buf.last() == Some(&b'\r') {
                    buf.pop();
                }
                let line = String::from_utf8_lossy(&buf).into_owned();
                if tx.send(Incoming::Line(line, at)).is_err() {
                    return;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
    }
    let _ = tx.send(Incoming::Eof(Instant::now()));
}

fn drain_stderr(stderr: impl Read, name: &str, verbose: bool) {
    let mut reader = BufReader::new(stderr);
    if !verbose {
        let _ = std::io::copy(&mut reader, &mut std::io::sink());
        return;
    }
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match (&mut reader)
            .take(MAX_LINE_BYTES as u64)
            .read_until(b'\n', &mut buf)
        {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                let text = String::from_utf8_lossy(&buf);
                eprintln!("! {name}: {}", text.trim_end_matches(['\n', '\r']));
            }
        }
    }
}
