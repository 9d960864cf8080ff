//! One engine process of one page, as a task: it starts the process, runs the `uci`
//! handshake, then relays lines both ways until the page closes the slot, the page goes
//! away, or the engine exits (which the page is told, with the exit status and the last
//! lines the engine wrote to stderr).
//!
//! The task owns the child (`kill_on_drop`), so however the task ends — the session dropped
//! its handle, the server is shutting down, or the task was aborted — the process is killed.
//! A deliberate close first sends `quit` and gives the engine a moment to exit by itself.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::ChildStdin;
use tokio::sync::mpsc;

use super::adapter::{Adapter, Route};
use crate::client::handshake::{self, Hello};
use crate::client::process::describe_status;
use crate::client::{Dialect, EngineSpec};
use crate::protocol::command::Command;

/// Engine stdout lines longer than this are cut (the rest of the line is skipped).
pub const MAX_ENGINE_LINE: usize = 64 * 1024;
/// How long an engine has to answer `uci` with `uciok`.
pub const HANDSHAKE: Duration = Duration::from_secs(10);
/// How long a closed engine has to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(300);
/// Bytes of stderr kept for the crash report.
const STDERR_TAIL: usize = 2048;

/// What an engine task tells its session, with the serial number of the engine (a slot
/// restarted by the page has a new one, so late lines of its old engine are recognised).
#[derive(Debug)]
pub struct Event {
    pub serial: u64,
    pub what: What,
}

#[derive(Debug)]
pub enum What {
    Started {
        slot: String,
        id_name: String,
        pid: u32,
    },
    Line {
        slot: String,
        line: String,
    },
    /// The engine exited (or closed its output) without being asked to.
    Exit {
        slot: String,
        reason: String,
        stderr: String,
    },
    /// The engine could not be started or failed its handshake.
    Failed {
        slot: String,
        error: String,
    },
}

/// The session's end of one engine task: lines written here go to the engine (through the
/// adapter). Dropping it ends the engine.
pub struct EngineHandle {
    pub lines: mpsc::Sender<String>,
    pub serial: u64,
    /// The server's name of the engine (`ply`, or an `--engine name=`).
    pub engine: String,
    task: tokio::task::JoinHandle<()>,
}

impl EngineHandle {
    /// Ends the engine now (killed when the task's child is dropped).
    pub fn abort(&self) {
        self.task.abort();
    }
}

/// Counts live engine processes across the server; a [`Slot`] holds one unit.
pub struct ProcessCount {
    live: AtomicUsize,
    max: usize,
}

impl ProcessCount {
    pub fn new(max: usize) -> Arc<ProcessCount> {
        Arc::new(ProcessCount {
            live: AtomicUsize::new(0),
            max,
        })
    }

    /// One more process, unless the limit is reached.
    pub fn acquire(self: &Arc<Self>) -> Option<Slot> {
        self.live
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < self.max).then_some(n + 1)
            })
            .ok()
            .map(|_| Slot(self.clone()))
    }

    pub fn live(&self) -> usize {
        self.live.load(Ordering::SeqCst)
    }
}

/// One counted process; released when dropped.
pub struct Slot(Arc<ProcessCount>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.live.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Starts the engine `def` in `slot` as a task; events go to `events`.
pub fn spawn(
    slot: String,
    serial: u64,
    def: Arc<EngineSpec>,
    count: Slot,
    variants_file: Option<PathBuf>,
    events: mpsc::Sender<Event>,
) -> EngineHandle {
    let (tx, rx) = mpsc::channel(64);
    let engine = def.name.clone();
    let task = tokio::spawn(async move {
        let _count = count;
        let out = Events {
            slot,
            serial,
            tx: events,
        };
        run(&def, variants_file, rx, &out).await;
    });
    EngineHandle {
        lines: tx,
        serial,
        engine,
        task,
    }
}

/// The events of one engine task.
struct Events {
    slot: String,
    serial: u64,
    tx: mpsc::Sender<Event>,
}

impl Events {
    /// Sends one event; an error means the session has gone.
    async fn send(&self, what: What) -> Result<(), ()> {
        self.tx
            .send(Event {
                serial: self.serial,
                what,
            })
            .await
            .map_err(|_| ())
    }

    fn line(&self, line: String) -> What {
        What::Line {
            slot: self.slot.clone(),
            line,
        }
    }
}

async fn run(
    def: &EngineSpec,
    variants_file: Option<PathBuf>,
    from_page: mpsc::Receiver<String>,
    events: &Events,
) {
    let failed = |error: String| What::Failed {
        slot: events.slot.clone(),
        error,
    };
    let mut p = match Process::start(def) {
        Ok(p) => p,
        Err(e) => {
            let msg = format!("cannot start {}: {e}", def.launch.cmd);
            let _ = events.send(failed(msg)).await;
            return;
        }
    };
    let hello = match handshake(&mut p.stdin, &mut p.lines).await {
        Ok(h) => h,
        Err(e) => {
            let _ = p.child.start_kill();
            let status = exit_status(&mut p.child).await;
            let msg = format!("{} {e} ({status})", def.name);
            let _ = events.send(failed(msg)).await;
            return;
        }
    };
    let dialect = def.dialect.after_handshake(&hello.id_name);
    let adapter = (dialect != Dialect::Ply).then(|| Adapter::new(dialect, &hello.options));
    // Fairy-Stockfish's variants file and the description's options, then the adapter's
    // choice of game.
    let mut setup = handshake::setup_commands(def, &hello, dialect, variants_file.as_deref());
    setup.extend(adapter.iter().flat_map(Adapter::initial_commands));
    for command in setup {
        if write_command(&mut p.stdin, &command).await.is_err() {
            break;
        }
    }
    let started = What::Started {
        slot: events.slot.clone(),
        id_name: hello.id_name,
        pid: p.child.id().unwrap_or(0),
    };
    if events.send(started).await.is_ok() {
        relay(p, adapter, from_page, events).await;
    }
}

/// A started engine process: its input, its output lines, the tail of its stderr.
pub(super) struct Process {
    child: tokio::process::Child,
    pub(super) stdin: ChildStdin,
    pub(super) lines: mpsc::Receiver<String>,
    stderr_tail: Arc<Mutex<Vec<u8>>>,
}

impl Process {
    pub(super) fn start(def: &EngineSpec) -> std::io::Result<Process> {
        let mut cmd = tokio::process::Command::from(def.launch.command());
        cmd.kill_on_drop(true);
        let mut child = cmd.spawn()?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stderr_tail = Arc::new(Mutex::new(Vec::new()));
        tokio::spawn(keep_stderr_tail(
            child.stderr.take().expect("stderr is piped"),
            stderr_tail.clone(),
        ));
        let (tx, lines) = mpsc::channel(64);
        tokio::spawn(read_lines(
            child.stdout.take().expect("stdout is piped"),
            tx,
        ));
        Ok(Process {
            child,
            stdin,
            lines,
            stderr_tail,
        })
    }

    /// `quit`, a moment to exit, then a kill.
    pub(super) async fn end(mut self) {
        let _ = write_command(&mut self.stdin, &Command::Quit).await;
        drop(self.stdin);
        if tokio::time::timeout(QUIT_GRACE, self.child.wait())
            .await
            .is_err()
        {
            let _ = self.child.kill().await;
        }
    }
}

/// Relays lines both ways until the page closes the slot or goes away (the engine is ended)
/// or the engine's output ends (the page is told, with its exit status).
async fn relay(
    mut p: Process,
    mut adapter: Option<Adapter>,
    mut from_page: mpsc::Receiver<String>,
    events: &Events,
) {
    loop {
        tokio::select! {
            line = from_page.recv() => {
                let Some(line) = line else {
                    p.end().await;
                    return;
                };
                // ply's own engines get the page's checked line as it is; the adapter
                // translates it for the others.
                let route = match adapter.as_mut() {
                    Some(a) => a.to_engine(&line),
                    None => {
                        let _ = write_line(&mut p.stdin, &line).await;
                        continue;
                    }
                };
                match route {
                    Route::Engine(commands) => {
                        for c in commands {
                            // A failed write means the engine is gone; its end of output
                            // follows and is reported below.
                            let _ = write_command(&mut p.stdin, &c).await;
                        }
                    }
                    Route::Page(lines) => {
                        for line in lines {
                            if events.send(events.line(line)).await.is_err() {
                                return;
                            }
                        }
                    }
                }
            }
            line = p.lines.recv() => {
                let Some(line) = line else {
                    let reason = exit_status(&mut p.child).await;
                    let tail = p.stderr_tail.lock().expect("no panics while held").clone();
                    let stderr = String::from_utf8_lossy(&tail).into_owned();
                    let _ = events.send(What::Exit { slot: events.slot.clone(), reason, stderr }).await;
                    return;
                };
                let line = match &adapter {
                    Some(a) => a.from_engine(line),
                    None => line,
                };
                if events.send(events.line(line)).await.is_err() {
                    return;
                }
            }
        }
    }
}

/// Sends `uci` and reads the answer up to `uciok`, within [`HANDSHAKE`].
pub(super) async fn handshake(
    stdin: &mut ChildStdin,
    lines: &mut mpsc::Receiver<String>,
) -> Result<Hello, String> {
    write_command(stdin, &Command::Uci)
        .await
        .map_err(|e| format!("did not read 'uci' ({e})"))?;
    let mut hello = Hello::default();
    let wait = async {
        while let Some(line) = lines.recv().await {
            if hello.read(&line) {
                return Ok(());
            }
        }
        Err("exited before answering 'uci' with 'uciok'".to_string())
    };
    match tokio::time::timeout(HANDSHAKE, wait).await {
        Ok(r) => r.map(|()| hello),
        Err(_) => Err(format!(
            "did not answer 'uci' with 'uciok' within {} s",
            HANDSHAKE.as_secs()
        )),
    }
}

pub(super) async fn write_command(
    stdin: &mut ChildStdin,
    command: &Command,
) -> std::io::Result<()> {
    write_line(stdin, &command.to_string()).await
}

/// Writes `line` and a newline: a page's checked line, relayed to ply as the page wrote it.
async fn write_line(stdin: &mut ChildStdin, line: &str) -> std::io::Result<()> {
    let mut buf = Vec::with_capacity(line.len() + 1);
    buf.extend_from_slice(line.as_bytes());
    buf.push(b'\n');
    stdin.write_all(&buf).await?;
    stdin.flush().await
}

/// "exit status 3", "killed by signal 9", or "still running" after a short wait.
async fn exit_status(child: &mut tokio::process::Child) -> String {
    match tokio::time::timeout(Duration::from_secs(1), child.wait()).await {
        Ok(Ok(status)) => describe_status(status),
        Ok(Err(e)) => format!("status unknown: {e}"),
        Err(_) => "its output closed but it still runs".into(),
    }
}

/// Reads stdout lines (cut at [`MAX_ENGINE_LINE`], `\r` dropped, invalid UTF-8 replaced)
/// into `tx` until end of file. A task of its own, so the relay loop's `select!` only
/// waits on a channel, which loses nothing when another branch wins.
async fn read_lines(stdout: tokio::process::ChildStdout, tx: mpsc::Sender<String>) {
    let mut reader = BufReader::new(stdout);
    let mut line = Vec::new();
    loop {
        line.clear();
        let mut overlong = false;
        loop {
            let buf = match reader.fill_buf().await {
                Ok(b) => b,
                Err(_) => return,
            };
            if buf.is_empty() {
                if !line.is_empty() {
                    let _ = tx.send(String::from_utf8_lossy(&line).into_owned()).await;
                }
                return;
            }
            let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (&buf[..i], Some(i + 1)),
                None => (buf, None),
            };
            let room = MAX_ENGINE_LINE.saturating_sub(line.len());
            overlong |= chunk.len() > room;
            line.extend_from_slice(&chunk[..chunk.len().min(room)]);
            let used = done.unwrap_or(buf.len());
            reader.consume(used);
            if done.is_some() {
                break;
            }
        }
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if overlong {
            log::debug!("an engine line was longer than {MAX_ENGINE_LINE} bytes; cut");
        }
        if tx
            .send(String::from_utf8_lossy(&line).into_owned())
            .await
            .is_err()
        {
            return;
        }
    }
}

/// Drains stderr, keeping its last [`STDERR_TAIL`] bytes.
async fn keep_stderr_tail(mut stderr: tokio::process::ChildStderr, tail: Arc<Mutex<Vec<u8>>>) {
    let mut buf = [0u8; 4096];
    loop {
        match stderr.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => {
                let mut t = tail.lock().expect("no panics while held");
                t.extend_from_slice(&buf[..n]);
                if t.len() > STDERR_TAIL {
                    let cut = t.len() - STDERR_TAIL;
                    t.drain(..cut);
                }
            }
        }
    }
}
