//! The engine's line protocol (UCI-style; `protocol.md` is the reference).
//!
//! Threads: a reader turns stdin into [`Event::Line`]s (and [`Event::Eof`]); the engine loop
//! parses each line into a [`Command`] and applies it; `go` runs on a worker thread
//! (see [`session`]) that reports [`Event::WorkerDone`]. While a worker runs, `isready`,
//! `stop` and `quit` are answered at once and every other command waits in order, so a piped
//! script is answered exactly as if each command had waited for the one before it.
//! All output goes through one [`Output`], a line at a time, so lines never interleave.
//!
//! [`command`] parses the client's lines into typed commands (and prints them, for clients);
//! [`response`] holds the engine's lines as types (`info`, `bestmove`, `id`, `option`,
//! `param` and `query`'s `response`), printed here and read by the clients and the tests;
//! [`options`] is the option table.

pub mod command;
pub mod options;
pub mod response;
pub mod session;
pub mod strength;

use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::game::Params;
use crate::games::NAMES;
use crate::search::TechniquesOff;
use crate::setting::Value;
use crate::util::Rng;
use crate::with_game;
use command::{COMMANDS, Command, quote};
use options::Options;
use response::{IdLine, OptionLine, ParamLine};
use session::{Config, GameSession, Job, JobContext, Session};

pub const ENGINE_NAME: &str = "ply";
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
pub const AUTHOR: &str = "the ply developers";

pub use crate::games::DEFAULT_GAME;
/// Longer input lines are dropped (with an error) instead of buffered without bound.
pub const MAX_LINE_BYTES: usize = 16 << 20;
/// While a `go` runs, the commands waiting for it may hold at most this many bytes (each
/// counted with [`PENDING_OVERHEAD`] more); a line beyond it is dropped with an error. A
/// single line of any allowed length is always taken when nothing waits.
pub const MAX_PENDING_BYTES: usize = 16 << 20;
/// What a waiting command is counted for beyond its text.
pub const PENDING_OVERHEAD: usize = 64;
/// Error messages longer than this (in characters) are shortened in the middle.
pub const MAX_ERROR_CHARS: usize = 1000;

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
        self.line(&format!(
            "info string error {command}: {}",
            shorten(message)
        ));
    }
}

/// A stop request the worker can poll (the flag) or sleep on (`wait`).
#[derive(Default)]
pub struct StopSignal {
    pub flag: AtomicBool,
    /// Set by `ponderhit` while a `go ponder` runs: the search's clock starts then.
    pub ponderhit: Arc<AtomicBool>,
    lock: Mutex<()>,
    cv: Condvar,
}

impl StopSignal {
    pub fn set(&self) {
        self.flag.store(true, Ordering::SeqCst);
        self.notify();
    }

    /// `ponderhit`: the pondering search goes on, now on its own clock.
    pub fn hit(&self) {
        self.ponderhit.store(true, Ordering::SeqCst);
        self.notify();
    }

    fn notify(&self) {
        let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.cv.notify_all();
    }

    pub fn is_set(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }

    /// Waits for `stop` (or, with `or_ponderhit`, for `ponderhit` too).
    pub fn wait(&self, or_ponderhit: bool) {
        let mut guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        let done = || self.is_set() || (or_ponderhit && self.ponderhit.load(Ordering::SeqCst));
        while !done() {
            guard = match self.cv.wait_timeout(guard, Duration::from_millis(100)) {
                Ok((g, _)) => g,
                Err(e) => e.into_inner().0,
            };
        }
    }
}

/// `message`, or when longer than [`MAX_ERROR_CHARS`] its start and end with ` ... ` between
/// (errors quote the input, and the input may be huge).
fn shorten(message: &str) -> std::borrow::Cow<'_, str> {
    let chars = message.chars().count();
    if chars <= MAX_ERROR_CHARS {
        return message.into();
    }
    let head: String = message.chars().take(MAX_ERROR_CHARS / 2).collect();
    let tail: String = message
        .chars()
        .skip(chars - (MAX_ERROR_CHARS / 2 - 5))
        .collect();
    format!("{head} ... {tail}").into()
}

pub enum Event {
    /// A line (without its line ending) and when it was read.
    Line(String, Instant),
    /// A line longer than [`MAX_LINE_BYTES`] (its length without the line ending), dropped.
    Overlong(usize),
    Eof,
    /// The worker of job `id` has finished (it may arrive after the engine, having seen the
    /// job's last line, already took the worker back: then it is stale and ignored).
    WorkerDone(u64),
}

/// What waits for the running job: a line as read (parsed when its turn comes, so a long
/// line waits as its text, not as a command with millions of parts), or an overlong line's
/// error, reported in its turn like any other reply.
enum PendingInput {
    Line(String, Instant),
    Overlong(usize),
}

impl PendingInput {
    /// What it counts against [`MAX_PENDING_BYTES`].
    fn cost(&self) -> usize {
        PENDING_OVERHEAD
            + match self {
                PendingInput::Line(text, _) => text.len(),
                PendingInput::Overlong(_) => 0,
            }
    }
}

struct Running {
    id: u64,
    stop: Arc<StopSignal>,
    /// The worker has printed (or is printing) its last line.
    finished: Arc<AtomicBool>,
    /// `go infinite` or `go` without limits: stopped at the end of input.
    unlimited: bool,
}

/// The engine side of the protocol: reads commands, answers the quick ones at once, runs one
/// job (search, perft, bench) at a time on a worker thread and keeps what arrives meanwhile.
pub struct EngineLoop {
    out: Output,
    events: Sender<Event>,
    game: Box<dyn GameSession>,
    /// The options' values ([`options::OPTIONS`]).
    options: Options,
    /// The search techniques the engine's caller turned off (`PLY_SEARCH_OFF`).
    search_off: TechniquesOff,
    /// Draws each strength-limited search's budget around the calibrated one ([`strength`]).
    rng: Rng,
    running: Option<Running>,
    /// Numbers the jobs, so a late `WorkerDone` is not taken for the current job's.
    jobs: u64,
    pending: VecDeque<PendingInput>,
    /// The sum of the pending items' costs.
    pending_bytes: usize,
    eof: bool,
    quitting: bool,
}

/// A session of game `name`; it allocates nothing until a search needs its tables.
fn new_session(
    name: &str,
    params: &Params,
    config: Config,
) -> Result<Box<dyn GameSession>, String> {
    with_game!(name, G => Ok(Box::new(Session::<G>::new(params, config)?)), _ => Err(unknown_game(name)))
}

/// The error about a game name that is not registered.
fn unknown_game(name: &str) -> String {
    format!(
        "unknown game '{}' (known: {})",
        quote(name),
        NAMES.join(", ")
    )
}

impl EngineLoop {
    pub fn new(out: Output, events: Sender<Event>) -> EngineLoop {
        EngineLoop::with_game(
            out,
            events,
            DEFAULT_GAME,
            &Params::new(),
            TechniquesOff::NONE,
        )
        .expect("the default game starts with default parameters")
    }

    /// An engine that starts in game `name` with `params` (`ply --game`), so that a client
    /// speaking plain UCI never needs `newgame`.
    pub fn with_game(
        out: Output,
        events: Sender<Event>,
        name: &str,
        params: &Params,
        search_off: TechniquesOff,
    ) -> Result<EngineLoop, String> {
        let mut options = Options::default();
        let game = new_session(name, params, options.config(search_off))?;
        // The options that mirror the game: `ply --game chess chess960=true` plays Chess960.
        let chess960 = name == "chess" && params.get_bool("chess960", false).unwrap_or(false);
        options.keep("UCI_Chess960", Value::Check(chess960));
        options.keep("UCI_Variant", Value::Combo(game.name()));
        Ok(EngineLoop {
            out,
            events,
            game,
            options,
            search_off,
            rng: Rng::new(time_seed()),
            running: None,
            jobs: 0,
            pending: VecDeque::new(),
            pending_bytes: 0,
            eof: false,
            quitting: false,
        })
    }

    /// What the session needs: the options' settings and the techniques turned off.
    fn config(&self) -> Config {
        self.options.config(self.search_off)
    }

    /// Feeds one event; returns false once the engine should exit.
    pub fn on_event(&mut self, ev: Event) -> bool {
        match ev {
            Event::Line(text, at) => self.submit(PendingInput::Line(text, at)),
            Event::Overlong(n) => self.submit(PendingInput::Overlong(n)),
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
        if let Some(r) = self.running.as_ref().filter(|r| r.unlimited) {
            r.stop.set();
        }
    }

    /// Takes the worker back and applies the commands that waited for it.
    fn worker_done(&mut self) {
        if self.running.take().is_some() {
            self.game.join();
        }
        self.drain();
    }

    fn submit(&mut self, item: PendingInput) {
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
        if self.running.is_none() {
            return self.apply(item);
        }
        // A job runs: `isready`, `stop` and `quit` are answered now; commands that do
        // something wait for it; the rest (blank lines, ponderhit, unknown words) never does
        // anything and is dropped.
        let word = match &item {
            PendingInput::Line(text, _) => command::command_word(text),
            // Its error is answered in its turn.
            PendingInput::Overlong(_) => return self.wait(item),
        };
        match word {
            Some("isready") => self.out.line("readyok"),
            Some("stop") => self.stop(),
            Some("quit") => {
                self.quitting = true;
                self.pending.clear();
                self.pending_bytes = 0;
                self.stop();
            }
            Some("ponderhit") => {
                if let Some(r) = &self.running {
                    r.stop.hit();
                }
            }
            Some(w) if COMMANDS.contains(&w) => self.wait(item),
            _ => {}
        }
    }

    /// Queues `item` behind the running job, unless [`MAX_PENDING_BYTES`] are waiting
    /// already: then it is dropped, with an error at once.
    fn wait(&mut self, item: PendingInput) {
        let cost = item.cost();
        if !self.pending.is_empty() && self.pending_bytes + cost > MAX_PENDING_BYTES {
            let what = match &item {
                PendingInput::Line(text, _) => {
                    format!("'{}'", quote(command::command_word(text).unwrap_or("")))
                }
                PendingInput::Overlong(_) => "an overlong line".to_string(),
            };
            self.out.error(
                "input",
                &format!(
                    "{} bytes of commands already wait for the running go; {what} ignored (column 1)",
                    self.pending_bytes
                ),
            );
            return;
        }
        self.pending_bytes += cost;
        self.pending.push_back(item);
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
                Some(item) => {
                    self.pending_bytes -= item.cost();
                    self.apply(item);
                }
                None => break,
            }
        }
    }

    fn apply(&mut self, item: PendingInput) {
        let (text, at) = match item {
            PendingInput::Line(text, at) => (text, at),
            PendingInput::Overlong(n) => {
                return self.out.error(
                    "input",
                    &format!(
                        "line of {n} bytes is longer than {MAX_LINE_BYTES}; ignored (column 1)"
                    ),
                );
            }
        };
        match command::parse(&text) {
            Ok(cmd) => self.apply_command(cmd, at),
            Err(e) => self
                .out
                .error(e.command, &format!("{} (column {})", e.message, e.column)),
        }
    }

    /// Applies a command read at `at` (the instant a `go`'s time counts from).
    fn apply_command(&mut self, cmd: Command, at: Instant) {
        match cmd {
            Command::Empty | Command::PonderHit | Command::Stop => {}
            Command::Unknown(word) => log::debug!("ignoring unknown command '{}'", quote(&word)),
            Command::Uci => self.uci(),
            Command::IsReady => self.out.line("readyok"),
            Command::Quit => self.quitting = true,
            Command::UciNewGame => self.game.reset(),
            Command::NewGame { game, params } => {
                // Errors quote the parameters: shorten the long ones.
                let shortened = |e: String| params.iter().fold(e, |e, p| session::quoted(&e, p));
                let parsed = match Params::parse(params.iter().map(String::as_str)) {
                    Ok(p) => p,
                    Err(e) => return self.out.error("newgame", &shortened(e.to_string())),
                };
                if let Err(e) = self.switch_game(&game, &parsed) {
                    self.out.error("newgame", &shortened(e));
                }
            }
            Command::Params { game } => self.list_params(game),
            Command::SetOption {
                name,
                value,
                name_column,
                value_column,
            } => {
                if let Err((e, column)) =
                    self.set_option(&name, value.as_deref(), name_column, value_column)
                {
                    self.out
                        .error("setoption", &format!("{e} (column {column})"));
                }
            }
            Command::Position { start, moves } => {
                if let Err(e) = self.game.set_position(&start, &moves) {
                    self.out.error("position", &e);
                }
            }
            Command::Go(mut params) => {
                if let Err(e) = self.game.check_searchmoves(&params.searchmoves) {
                    return self.out.error("go", &e);
                }
                let o = &self.options;
                let limit_strength = o.switch("UCI_LimitStrength");
                if limit_strength {
                    let elo = o.number("UCI_Elo") as u32;
                    let budget = strength::move_budget(elo, &mut self.rng);
                    params.nodes = Some(params.nodes.map_or(budget, |n| n.min(budget)));
                }
                let unlimited = params.unlimited();
                let job = Job::Search {
                    params,
                    overhead: Duration::from_millis(o.number("Move Overhead")),
                    use_solver: o.switch("UseSolver") && !limit_strength,
                    calibrated: limit_strength,
                    multipv: o.number("MultiPV") as usize,
                    show_ponder: o.switch("Ponder"),
                    show_wdl: o.switch("UCI_ShowWDL"),
                    received: at,
                };
                self.start(job, unlimited);
            }
            Command::Perft(depth) => self.start(Job::Perft(depth), false),
            Command::Query(q) => {
                let answer = self.game.query(&q);
                self.out.line(&answer);
            }
            Command::Display => self.out.lines(&self.game.display()),
            Command::Bench { depth } => self.start(Job::Bench(depth), false),
        }
    }

    fn start(&mut self, job: Job, unlimited: bool) {
        let stop = Arc::new(StopSignal::default());
        let finished = Arc::new(AtomicBool::new(false));
        self.jobs += 1;
        let id = self.jobs;
        let ctx = JobContext {
            id,
            out: self.out.clone(),
            stop: stop.clone(),
            done: self.events.clone(),
            finished: finished.clone(),
        };
        self.game.start(job, ctx);
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

    /// Selects game `name` with `params`, or changes nothing and says why.
    fn switch_game(&mut self, name: &str, params: &Params) -> Result<(), String> {
        // The same game again (a referee sends newgame before every game): keep the tables,
        // cleared, rather than allocating new ones.
        if self.game.same_rules(name, params) {
            self.game.reset();
            return Ok(());
        }
        // Sessions allocate their tables at first use, so this one holds no memory yet, and
        // the old game's tables are freed as it replaces it.
        self.game = new_session(name, params, self.config())?;
        self.options
            .keep("UCI_Variant", Value::Combo(self.game.name()));
        Ok(())
    }

    /// `params [<game>]`: one `param` line per parameter of the game, then `paramsok`.
    fn list_params(&self, game: Option<(String, usize)>) {
        let name = game.as_ref().map_or(self.game.name(), |(n, _)| n.as_str());
        match crate::games::param_specs(name) {
            Some(specs) => {
                let lines: Vec<String> = (specs.iter())
                    .map(|s| ParamLine::from(s).to_string())
                    .chain(["paramsok".to_string()])
                    .collect();
                self.out.lines(&lines.join("\n"));
            }
            None => {
                let column = game.as_ref().map_or(1, |(_, c)| *c);
                let e = unknown_game(name);
                self.out.error("params", &format!("{e} (column {column})"));
            }
        }
    }

    fn uci(&self) {
        let ids = [
            IdLine::Name(format!("{ENGINE_NAME} {VERSION}")),
            IdLine::Author(AUTHOR.to_string()),
        ];
        let lines: Vec<String> = (ids.iter().map(IdLine::to_string))
            .chain(self.option_lines().iter().map(OptionLine::to_string))
            .chain(["uciok".to_string()])
            .collect();
        self.out.lines(&lines.join("\n"));
    }
}

/// A seed that differs from run to run: the clock's nanoseconds and the process id.
fn time_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ (u64::from(std::process::id()) << 32)
}

/// Reads lines from `input` until it ends, sending each as an [`Event`] stamped with the
/// instant it was read. A line is read into memory only up to [`MAX_LINE_BYTES`] (plus its
/// line ending); the rest of a longer one is skipped, counted, and reported as overlong.
fn read_lines(mut input: impl BufRead, tx: Sender<Event>) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let read = std::io::Read::take(input.by_ref(), MAX_LINE_BYTES as u64 + 2)
            .read_until(b'\n', &mut buf);
        match read {
            Ok(0) => break,
            Ok(_) => {
                let at = Instant::now();
                let ended = buf.last() == Some(&b'\n');
                if ended {
                    buf.pop();
                }
                let mut len = buf.len();
                if !ended && len == MAX_LINE_BYTES + 2 {
                    let (skipped, cr) = skip_line(&mut input);
                    len += skipped;
                    // `\r\n` ends a line too: the `\r` is not part of it.
                    if cr.unwrap_or(buf.last() == Some(&b'\r')) {
                        len -= 1;
                    }
                } else if buf.last() == Some(&b'\r') {
                    // `\r\n` ends a line too: the `\r` is not part of it.
                    len -= 1;
                }
                let event = if len > MAX_LINE_BYTES {
                    Event::Overlong(len)
                } else {
                    let bytes = std::mem::take(&mut buf);
                    let line = String::from_utf8(bytes)
                        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
                    Event::Line(line, at)
                };
                if tx.send(event).is_err() {
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

/// Skips the rest of an overlong line, through its `\n`. Returns the bytes skipped before
/// the `\n` (or the end of input) and whether the last of them is a `\r` (`None` when none
/// were skipped).
fn skip_line(input: &mut impl BufRead) -> (usize, Option<bool>) {
    let mut skipped = 0;
    let mut last = None;
    loop {
        let (used, done) = match input.fill_buf() {
            Ok([]) => return (skipped, last),
            Ok(chunk) => {
                let end = chunk.iter().position(|&b| b == b'\n');
                let part = &chunk[..end.unwrap_or(chunk.len())];
                if let Some(&b) = part.last() {
                    last = Some(b == b'\r');
                }
                skipped += part.len();
                (end.map_or(chunk.len(), |i| i + 1), end.is_some())
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return (skipped, last),
        };
        input.consume(used);
        if done {
            return (skipped, last);
        }
    }
}

/// Runs the engine on `input` and `output` until `quit` or the end of input.
pub fn run(input: impl BufRead + Send + 'static, output: impl Write + Send + 'static) {
    run_game(
        input,
        output,
        DEFAULT_GAME,
        &Params::new(),
        TechniquesOff::NONE,
    )
    .expect("the default game starts with default parameters")
}

/// Runs the engine in game `name` with `params` (`ply --game`), the search techniques
/// `search_off` turned off; fails before reading any input when the game or its parameters
/// are unknown.
pub fn run_game(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
    name: &str,
    params: &Params,
    search_off: TechniquesOff,
) -> Result<(), String> {
    let (tx, rx) = mpsc::channel();
    let mut engine =
        EngineLoop::with_game(Output::new(output), tx.clone(), name, params, search_off)?;
    let reader_tx = tx.clone();
    std::thread::Builder::new()
        .name("ply-stdin".into())
        .spawn(move || read_lines(input, reader_tx))
        .expect("cannot start the input thread");
    drop(tx);
    while let Ok(ev) = rx.recv() {
        if !engine.on_event(ev) {
            break;
        }
    }
    Ok(())
}
