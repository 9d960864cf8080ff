//! The engine's line protocol (UCI-style; `protocol.md` is the reference).
//!
//! Threads: a reader turns stdin into [`Event::Line`]s (and [`Event::Eof`]); the engine loop
//! parses each line into a [`Command`] and applies it; `go` runs on a worker thread
//! (see [`session`]) that reports [`Event::WorkerDone`]. While a worker runs, `isready`,
//! `stop` and `quit` are answered at once and every other command waits in order, so a piped
//! script is answered exactly as if each command had waited for the one before it.
//! All output goes through one [`Output`], a line at a time, so lines never interleave.

pub mod command;
pub mod session;

use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use crate::game::Params;
use crate::games::NAMES;
use crate::with_game;
use command::{Command, ParseError};
use session::{GameSession, Job, Session, Worker};

pub const ENGINE_NAME: &str = "ply";
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
pub const AUTHOR: &str = "the ply developers";

pub const DEFAULT_GAME: &str = "tictactoe";
pub const DEFAULT_HASH_MB: usize = 16;
pub const MAX_HASH_MB: usize = 65536;
/// The `Threads` option: threads for the Connect Four solver. One by default, as UCI engines
/// do, since matches often run engines side by side.
pub const DEFAULT_THREADS: usize = 1;
pub const MAX_THREADS: usize = 256;
pub const DEFAULT_OVERHEAD_MS: u64 = 10;
pub const MAX_OVERHEAD_MS: u64 = 5000;
/// Longer input lines are dropped (with an error) instead of buffered without bound.
pub const MAX_LINE_BYTES: usize = 16 << 20;

/// The single writer for protocol output; each call writes one whole line and flushes.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    pub fn new(w: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(w))))
    }

    pub fn line(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // A closed stdout (the GUI went away) is not worth a panic; the reader will see EOF.
        let _ = writeln!(w, "{text}").and_then(|_| w.flush());
    }

    /// Several lines under one lock, so nothing interleaves with them.
    pub fn lines(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = text
            .lines()
            .try_for_each(|l| writeln!(w, "{l}"))
            .and_then(|_| w.flush());
    }

    pub fn error(&self, command: &str, message: &str) {
        self.line(&format!("info string error {command}: {message}"));
    }
}

/// A stop request the worker can poll (the flag) or sleep on (`wait`).
#[derive(Default)]
pub struct StopSignal {
    pub flag: AtomicBool,
    lock: Mutex<()>,
    cv: Condvar,
}

impl StopSignal {
    pub fn set(&self) {
        self.flag.store(true, Ordering::SeqCst);
        let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.cv.notify_all();
    }

    pub fn is_set(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }

    pub fn wait(&self) {
        let mut guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        while !self.is_set() {
            guard = match self.cv.wait_timeout(guard, Duration::from_millis(100)) {
                Ok((g, _)) => g,
                Err(e) => e.into_inner().0,
            };
        }
    }
}

pub enum Event {
    Line(String),
    /// A line longer than [`MAX_LINE_BYTES`], dropped.
    Overlong(usize),
    Eof,
    /// The worker of job `id` has finished (it may arrive after the engine, having seen the
    /// job's last line, already took the worker back: then it is stale and ignored).
    WorkerDone(u64),
}

/// A parsed line, or why it did not parse (reported in its turn, like any other reply).
enum Item {
    Command(Command),
    Error(ParseError),
}

struct Running {
    id: u64,
    stop: Arc<StopSignal>,
    /// The worker has printed (or is printing) its last line.
    finished: Arc<AtomicBool>,
    /// `go infinite` or `go` without limits: stopped at the end of input.
    unlimited: bool,
}

pub struct Engine {
    out: Output,
    events: Sender<Event>,
    game: Box<dyn GameSession>,
    hash_mb: usize,
    threads: usize,
    overhead_ms: u64,
    use_solver: bool,
    use_book: bool,
    running: Option<Running>,
    /// Numbers the jobs, so a late `WorkerDone` is not taken for the current job's.
    jobs: u64,
    pending: VecDeque<Item>,
    eof: bool,
    quitting: bool,
}

fn new_session(
    name: &str,
    params: &Params,
    hash_mb: usize,
    threads: usize,
) -> Result<Box<dyn GameSession>, String> {
    with_game!(name, G => Ok(Box::new(Session::<G>::new(params, hash_mb, threads)?)), _ => Err(format!(
        "unknown game '{name}' (known: {})",
        NAMES.join(", ")
    )))
}

impl Engine {
    pub fn new(out: Output, events: Sender<Event>) -> Engine {
        let game = new_session(
            DEFAULT_GAME,
            &Params::new(),
            DEFAULT_HASH_MB,
            DEFAULT_THREADS,
        )
        .expect("the default game starts with default parameters");
        Engine {
            out,
            events,
            game,
            hash_mb: DEFAULT_HASH_MB,
            threads: DEFAULT_THREADS,
            overhead_ms: DEFAULT_OVERHEAD_MS,
            use_solver: true,
            use_book: true,
            running: None,
            jobs: 0,
            pending: VecDeque::new(),
            eof: false,
            quitting: false,
        }
    }

    /// Feeds one event; returns false once the engine should exit.
    pub fn on_event(&mut self, ev: Event) -> bool {
        match ev {
            Event::Line(text) => {
                let item = match command::parse(&text) {
                    Ok(c) => Item::Command(c),
                    Err(e) => Item::Error(e),
                };
                self.submit(item);
            }
            Event::Overlong(n) => self.submit(Item::Error(ParseError {
                command: "input",
                message: format!("line of {n} bytes is longer than {MAX_LINE_BYTES}; ignored"),
                column: 1,
            })),
            Event::Eof => {
                self.eof = true;
                self.stop_if_unlimited();
            }
            Event::WorkerDone(id) => {
                if self.running.as_ref().is_some_and(|r| r.id == id) {
                    self.worker_done();
                }
            }
        }
        !(self.finished())
    }

    fn finished(&self) -> bool {
        self.running.is_none() && (self.quitting || (self.eof && self.pending.is_empty()))
    }

    fn stop_if_unlimited(&self) {
        if let Some(r) = &self.running {
            if r.unlimited {
                r.stop.set();
            }
        }
    }

    /// Takes the worker back and applies the commands that waited for it.
    fn worker_done(&mut self) {
        if self.running.take().is_some() {
            self.game.join();
        }
        self.drain();
    }

    fn submit(&mut self, item: Item) {
        if self.quitting {
            return;
        }
        // A client that read `bestmove` may answer before the worker's WorkerDone event is
        // handled; its commands belong after the job, so finish the job first.
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.finished.load(Ordering::SeqCst))
        {
            self.worker_done();
        }
        if self.running.is_some() {
            match &item {
                Item::Command(Command::IsReady) => self.out.line("readyok"),
                Item::Command(Command::Stop) => self.stop(),
                Item::Command(Command::Quit) => {
                    self.quitting = true;
                    self.pending.clear();
                    self.stop();
                }
                Item::Command(Command::PonderHit | Command::Empty | Command::Unknown(_)) => {}
                _ => self.pending.push_back(item),
            }
        } else {
            self.apply(item);
        }
    }

    fn stop(&self) {
        if let Some(r) = &self.running {
            r.stop.set();
        }
    }

    /// Applies waiting commands in order until one starts a worker again.
    fn drain(&mut self) {
        while self.running.is_none() && !self.quitting {
            match self.pending.pop_front() {
                Some(item) => self.apply(item),
                None => break,
            }
        }
    }

    fn apply(&mut self, item: Item) {
        let cmd = match item {
            Item::Command(c) => c,
            Item::Error(e) => {
                self.out
                    .error(e.command, &format!("{} (column {})", e.message, e.column));
                return;
            }
        };
        match cmd {
            Command::Empty | Command::PonderHit | Command::Stop => {}
            Command::Unknown(word) => log::debug!("ignoring unknown command '{word}'"),
            Command::Uci => self.uci(),
            Command::IsReady => self.out.line("readyok"),
            Command::Quit => self.quitting = true,
            Command::UciNewGame => self.game.reset(),
            Command::NewGame { game, params } => {
                let params = match Params::parse(params.iter().map(String::as_str)) {
                    Ok(p) => p,
                    Err(e) => return self.out.error("newgame", &e.to_string()),
                };
                self.switch_game(&game, &params, "newgame");
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position { start, moves } => {
                if let Err(e) = self.game.set_position(&start, &moves) {
                    self.out.error("position", &e);
                }
            }
            Command::Go(params) => {
                let unlimited = params.infinite
                    || (params.depth.is_none()
                        && params.nodes.is_none()
                        && params.movetime.is_none()
                        && params.wtime.is_none()
                        && params.btime.is_none());
                let overhead = Duration::from_millis(self.overhead_ms);
                let use_solver = self.use_solver;
                self.start(
                    Job::Search {
                        params,
                        overhead,
                        use_solver,
                    },
                    unlimited,
                );
            }
            Command::Perft(depth) => self.start(Job::Perft(depth), false),
            Command::Query(q) => {
                let answer = self.game.query(&q);
                self.out.line(&answer);
            }
            Command::Display => self.out.lines(&self.game.display()),
            Command::Bench { depth } => {
                let report = crate::bench::run(depth, self.hash_mb);
                self.out.lines(&report.to_string());
            }
        }
    }

    fn start(&mut self, job: Job, unlimited: bool) {
        let stop = Arc::new(StopSignal::default());
        let finished = Arc::new(AtomicBool::new(false));
        self.jobs += 1;
        let id = self.jobs;
        let worker = Worker {
            id,
            out: self.out.clone(),
            stop: stop.clone(),
            done: self.events.clone(),
            finished: finished.clone(),
        };
        self.game.start(job, worker);
        self.running = Some(Running {
            id,
            stop,
            finished,
            unlimited,
        });
        if self.eof {
            self.stop_if_unlimited();
        }
    }

    fn switch_game(&mut self, name: &str, params: &Params, command: &str) {
        // The same game again (a referee sends newgame before every game): keep the tables,
        // cleared, rather than allocating new ones.
        if self.game.same_rules(name, params) {
            self.game.reset();
            return;
        }
        match new_session(name, params, self.hash_mb, self.threads) {
            Ok(g) => {
                self.game = g;
                self.game.set_book(self.use_book);
            }
            Err(e) => self.out.error(command, &e),
        }
    }

    fn uci(&self) {
        let lines = [
            format!("id name {ENGINE_NAME} {VERSION}"),
            format!("id author {AUTHOR}"),
            format!("option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"),
            "option name Clear Hash type button".to_string(),
            format!(
                "option name Threads type spin default {DEFAULT_THREADS} min 1 max {MAX_THREADS}"
            ),
            "option name UseSolver type check default true".to_string(),
            "option name UseBook type check default true".to_string(),
            format!(
                "option name Move Overhead type spin default {DEFAULT_OVERHEAD_MS} min 0 max {MAX_OVERHEAD_MS}"
            ),
            format!(
                "option name UCI_Variant type combo default {DEFAULT_GAME} {}",
                NAMES
                    .iter()
                    .map(|n| format!("var {n}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            "uciok".to_string(),
        ];
        self.out.lines(&lines.join("\n"));
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let number = |min: u64, max: u64| -> Result<u64, String> {
            match value.map(|v| v.parse::<u64>()) {
                Some(Ok(n)) if (min..=max).contains(&n) => Ok(n),
                _ => Err(format!(
                    "{name} needs a value from {min} to {max}, got '{}'",
                    value.unwrap_or("")
                )),
            }
        };
        match name.to_ascii_lowercase().as_str() {
            "hash" => match number(1, MAX_HASH_MB as u64) {
                Ok(n) => {
                    self.hash_mb = n as usize;
                    self.game.set_hash(self.hash_mb);
                }
                Err(e) => self.out.error("setoption", &e),
            },
            "clear hash" => self.game.clear_hash(),
            "threads" => match number(1, MAX_THREADS as u64) {
                Ok(n) => {
                    self.threads = n as usize;
                    self.game.set_threads(self.threads);
                }
                Err(e) => self.out.error("setoption", &e),
            },
            "usesolver" => match value.map(str::to_ascii_lowercase).as_deref() {
                Some("true") => self.use_solver = true,
                Some("false") => self.use_solver = false,
                _ => self.out.error(
                    "setoption",
                    &format!("UseSolver needs true or false, got '{}'", value.unwrap_or("")),
                ),
            },
            "usebook" => match value.map(str::to_ascii_lowercase).as_deref() {
                Some("true") => {
                    self.use_book = true;
                    self.game.set_book(true);
                }
                Some("false") => {
                    self.use_book = false;
                    self.game.set_book(false);
                }
                _ => self.out.error(
                    "setoption",
                    &format!("UseBook needs true or false, got '{}'", value.unwrap_or("")),
                ),
            },
            "move overhead" => match number(0, MAX_OVERHEAD_MS) {
                Ok(n) => self.overhead_ms = n,
                Err(e) => self.out.error("setoption", &e),
            },
            "uci_variant" => match value {
                Some(v) => self.switch_game(&v.to_ascii_lowercase(), &Params::new(), "setoption"),
                None => self.out.error("setoption", "UCI_Variant needs a value"),
            },
            _ => self.out.error(
                "setoption",
                &format!(
                    "unknown option '{name}' (known: Hash, Clear Hash, Threads, UseSolver, UseBook, Move Overhead, UCI_Variant)"
                ),
            ),
        }
    }
}

/// Reads lines from `input` until it ends, sending each as an [`Event`].
fn read_lines(mut input: impl BufRead, tx: Sender<Event>) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        // Read at most MAX_LINE_BYTES + 1 so a huge line cannot exhaust memory; the rest of
        // such a line is skipped.
        let read = std::io::Read::take(input.by_ref(), MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut buf);
        match read {
            Ok(0) => break,
            Ok(_) => {
                if buf.last() != Some(&b'\n') && buf.len() > MAX_LINE_BYTES {
                    let mut skipped = buf.len();
                    let mut rest = Vec::new();
                    loop {
                        rest.clear();
                        match std::io::Read::take(input.by_ref(), 1 << 20)
                            .read_until(b'\n', &mut rest)
                        {
                            Ok(0) | Err(_) => break,
                            Ok(n) => skipped += n,
                        }
                        if rest.last() == Some(&b'\n') {
                            break;
                        }
                    }
                    if tx.send(Event::Overlong(skipped)).is_err() {
                        return;
                    }
                    continue;
                }
                if buf.last() == Some(&b'\n') {
                    buf.pop();
                }
                let line = String::from_utf8_lossy(&buf).into_owned();
                if tx.send(Event::Line(line)).is_err() {
                    return;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                log::warn!("reading input failed: {e}");
                break;
            }
        }
    }
    let _ = tx.send(Event::Eof);
}

/// Runs the engine on `input` and `output` until `quit` or the end of input.
pub fn run(input: impl BufRead + Send + 'static, output: impl Write + Send + 'static) {
    let (tx, rx) = mpsc::channel();
    let reader_tx = tx.clone();
    std::thread::Builder::new()
        .name("ply-stdin".into())
        .spawn(move || read_lines(input, reader_tx))
        .expect("cannot start the input thread");
    let mut engine = Engine::new(Output::new(output), tx);
    while let Ok(ev) = rx.recv() {
        if !engine.on_event(ev) {
            break;
        }
    }
}
