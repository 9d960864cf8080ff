//! One engine process, synchronously: spawned with piped stdin/stdout/stderr, a reader
//! thread per output stream, commands written as lines, and waits with deadlines.
//!
//! The stdout thread stamps each line with the [`Instant`] it was read, so the time an
//! engine is charged ends when its `bestmove` reached the client, not when a busy client
//! got round to looking (this keeps the referee's time losses honest at high concurrency).
//! What it holds is bounded whatever the engine prints: a line is cut at [`MAX_LINE_BYTES`]
//! (with a warning), and at most [`QUEUED_LINES`] lines wait to be looked at; beyond that the
//! thread stops reading until the client catches up, so an engine that floods stdout while
//! its opponent thinks waits on its own full pipe instead of filling the client's memory.
//! The stderr thread drains the stream whatever it holds, so an engine that floods stderr
//! never blocks on a full pipe; with `verbose` it logs each line. Engines run in their own
//! process group (see [`Launch::command`]).

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ExitStatus};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::time::{Duration, Instant};

use super::spec::Launch;
use crate::protocol::command::Command;

/// Longer stdout lines are cut to this many bytes (the rest of the line is skipped, and a
/// warning logged), so an engine printing without newlines cannot exhaust the client's
/// memory. No protocol line comes near it.
pub const MAX_LINE_BYTES: usize = 64 * 1024;
/// The most stdout lines of one engine read but not yet looked at (at most 16 MiB with
/// lines at their limit).
pub const QUEUED_LINES: usize = 256;

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
    /// The client is shutting down (its abort flag is set).
    Aborted,
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
        let mut child = launch.command().spawn()?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::sync_channel(QUEUED_LINES);
        let log_name = name.to_string();
        let out_name = name.to_string();
        std::thread::Builder::new()
            .name(format!("{name}-stdout"))
            .spawn(move || read_stdout(stdout, tx, &out_name))?;
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

    /// Writes one command as its line (see [`Command`]'s `Display`) and flushes it.
    pub fn send(&mut self, command: &Command) -> Result<(), WaitError> {
        self.send_text(&command.to_string())
    }

    /// Writes `line` as it is (a newline is added) and flushes it: for what is deliberately
    /// not a command, such as the compliance check's hostile input. Everything else goes
    /// through [`EngineProcess::send`].
    pub fn send_text(&mut self, line: &str) -> Result<(), WaitError> {
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
            let _ = self.send(&Command::Quit);
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

/// "exit status 3", "killed by signal 9", or "exited".
pub fn describe_status(status: ExitStatus) -> String {
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

fn read_stdout(stdout: impl Read, tx: SyncSender<Incoming>, name: &str) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    let mut warned = false;
    loop {
        match read_bounded_line(&mut reader, &mut buf) {
            Ok(None) => break,
            Ok(Some(len)) => {
                let at = Instant::now();
                if len > MAX_LINE_BYTES && !warned {
                    log::warn!(
                        "{name}: a line of {len} bytes cut to its first {MAX_LINE_BYTES} \
                         (further cut lines are not reported)"
                    );
                    warned = true;
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

/// Reads the next line into `buf` without its line ending (`\n` or `\r\n`, or none at the
/// end of the output), keeping at most [`MAX_LINE_BYTES`] bytes of it and skipping the rest
/// in 64 KiB chunks. Returns the line's whole length (without its ending), `None` at the end
/// of the output.
fn read_bounded_line(
    reader: &mut impl BufRead,
    buf: &mut Vec<u8>,
) -> std::io::Result<Option<usize>> {
    buf.clear();
    // Two more bytes than a line may hold: room for its `\r\n`.
    let n = reader
        .by_ref()
        .take(MAX_LINE_BYTES as u64 + 2)
        .read_until(b'\n', buf)?;
    if n == 0 {
        return Ok(None);
    }
    let mut len = buf.len();
    let mut ended = buf.last() == Some(&b'\n');
    // The byte before the newline, wherever it was read.
    let mut before_newline = buf.len().checked_sub(2).map(|i| buf[i]);
    if !ended {
        let mut last = buf.last().copied();
        let mut rest = Vec::new();
        loop {
            rest.clear();
            match reader.by_ref().take(1 << 16).read_until(b'\n', &mut rest) {
                Ok(0) => break,
                Ok(k) => len += k,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
            if rest.last() == Some(&b'\n') {
                ended = true;
                before_newline = rest.len().checked_sub(2).map(|i| rest[i]).or(last);
                break;
            }
            last = rest.last().copied();
        }
    }
    if ended {
        len -= 1;
        if before_newline == Some(b'\r') {
            len -= 1;
        }
    }
    buf.truncate(len.min(MAX_LINE_BYTES));
    Ok(Some(len))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(bytes: &[u8]) -> Vec<(usize, Vec<u8>)> {
        let mut reader = BufReader::with_capacity(100, bytes);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        while let Some(len) = read_bounded_line(&mut reader, &mut buf).unwrap() {
            out.push((len, buf.clone()));
        }
        out
    }

    /// Lines are kept whole up to the limit, with either ending; a longer one is cut to the
    /// limit, its whole length reported, and the line after it read intact.
    #[test]
    fn lines_are_bounded_and_counted_exactly() {
        let max = MAX_LINE_BYTES;
        let x = |n: usize| vec![b'x'; n];
        let mut input = Vec::new();
        for (body, end) in [
            (x(max), &b"\n"[..]),
            (x(max), b"\r\n"),
            (x(max + 1), b"\n"),
            (x(max + 1), b"\r\n"),
            (x(3 * max + 5), b"\r\n"),
            (b"bestmove 4".to_vec(), b"\r\n"),
            (b"".to_vec(), b"\n"),
            (x(max + 7), b""),
        ] {
            input.extend_from_slice(&body);
            input.extend_from_slice(end);
        }
        let lines = read_all(&input);
        let lens: Vec<usize> = lines.iter().map(|(n, _)| *n).collect();
        assert_eq!(
            lens,
            [max, max, max + 1, max + 1, 3 * max + 5, 10, 0, max + 7]
        );
        for (n, kept) in &lines {
            assert_eq!(kept.len(), (*n).min(max));
        }
        assert_eq!(lines[5].1, b"bestmove 4");
        assert_eq!(
            read_all(b"a\rb\r\n\r"),
            [(3, b"a\rb".to_vec()), (1, b"\r".to_vec())]
        );
    }

    /// At most QUEUED_LINES lines wait for the referee: the reader then waits on the engine's
    /// pipe instead of holding everything the engine printed.
    #[test]
    fn the_reader_holds_a_bounded_number_of_lines() {
        let (tx, rx) = mpsc::sync_channel(QUEUED_LINES);
        let input = "info string spam\n".repeat(10 * QUEUED_LINES);
        let reader = std::thread::spawn(move || read_stdout(input.as_bytes(), tx, "spam"));
        std::thread::sleep(Duration::from_millis(200));
        assert!(
            !reader.is_finished(),
            "the reader did not wait for the referee"
        );
        let mut lines = 0;
        while let Ok(Incoming::Line(text, _)) = rx.recv() {
            assert_eq!(text, "info string spam");
            lines += 1;
        }
        assert_eq!(lines, 10 * QUEUED_LINES);
        reader.join().unwrap();
    }
}
