//! The engine's line protocol (UCI-style; `protocol.md` is the reference).
//!
//! Threads: a reader turns stdin into [`Event::Line`]s (and [`Event::Eof`]); the engine loop
//! parses each line into a [`Command`] and applies it; `go` runs on a worker thread
//! (see [`session`]) that reports [`Event::WorkerDone`]. While a worker runs, `isready`,
//! `stop` and `quit` are answered at once and every other command waits in order, so a piped
//! script is answered exactly as if each command had waited for the one before it.
//! All output goes through one [`Output`], a line at a time, so lines never interleave.
//!
//! [`command`] parses the client's lines into typed commands; [`response`] is the engine's
//! `info` line as a type, printed here and read by the referee and the tests.

pub mod command;
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
use crate::util::Rng;
use crate::with_game;
use command::{COMMANDS, Command, quote};
use response::{IdLine, OptionKind, OptionLine, ParamLine};
use session::{Config, GameSession, Job, JobContext, Session};

pub const ENGINE_NAME: &str = "ply";
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
pub const AUTHOR: &str = "the ply developers";

pub use crate::games::DEFAULT_GAME;
pub const DEFAULT_HASH_MB: usize = 16;
pub const MAX_HASH_MB: usize = 65536;
/// The `Threads` option: threads for the Connect Four solver. One by default, as UCI engines
/// do, since matches often run engines side by side.
pub const DEFAULT_THREADS: usize = 1;
pub const MAX_THREADS: usize = 256;
/// `Move Overhead`'s default. On a shared two-core machine (load 5) a search thread was
/// seen answering up to 25 ms after its own deadline, descheduled; with 10 ms ply lost one
/// move in 400 on time in self-play at 0.2 s per move (scripts/time_overshoot.py measures).
pub const DEFAULT_OVERHEAD_MS: u64 = 30;
pub const MAX_OVERHEAD_MS: u64 = 5000;
/// The most lines `MultiPV` may ask for.
pub const MAX_MULTIPV: usize = 256;
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
    config: Config,
    overhead_ms: u64,
    /// `MultiPV`: lines a search reports.
    multipv: usize,
    /// `Ponder`: `bestmove` names the expected reply.
    ponder: bool,
    /// `UCI_ShowWDL`: `info` lines carry win/draw/loss chances.
    show_wdl: bool,
    /// `UCI_LimitStrength`: every search gets a node budget from `elo` ([`strength`]).
    limit_strength: bool,
    /// `UCI_Elo`.
    elo: u32,
    /// Draws each limited search's budget around the calibrated one.
    rng: Rng,
    /// `UCI_Chess960`: chess selected by `UCI_Variant` (or this option) is Chess960.
    chess960: bool,
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
        let config = Config {
            hash_mb: DEFAULT_HASH_MB,
            threads: DEFAULT_THREADS,
            use_solver: true,
            use_book: true,
            search_off,
        };
        let game = new_session(name, params, config)?;
        let chess960 = name == "chess" && params.get_bool("chess960", false).unwrap_or(false);
        Ok(EngineLoop {
            out,
            events,
            game,
            config,
            overhead_ms: DEFAULT_OVERHEAD_MS,
            multipv: 1,
            ponder: false,
            show_wdl: false,
            limit_strength: false,
            elo: strength::ELO_DEFAULT,
            rng: Rng::new(time_seed()),
            chess960,
            running: None,
            jobs: 0,
            pending: VecDeque::new(),
            pending_bytes: 0,
            eof: false,
            quitting: false,
        })
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
                if self.limit_strength {
                    let budget = strength::move_budget(self.elo, &mut self.rng);
                    params.nodes = Some(params.nodes.map_or(budget, |n| n.min(budget)));
                }
                let unlimited = params.unlimited();
                let job = Job::Search {
                    params,
                    overhead: Duration::from_millis(self.overhead_ms),
                    use_solver: self.config.use_solver && !self.limit_strength,
                    multipv: self.multipv,
                    show_ponder: self.ponder,
                    show_wdl: self.show_wdl,
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
        self.game = new_session(name, params, self.config)?;
        Ok(())
    }

    fn configure(&mut self, config: Config) {
        self.config = config;
        self.game.configure(config);
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
            .chain(self.options().iter().map(OptionLine::to_string))
            .chain(["uciok".to_string()])
            .collect();
        self.out.lines(&lines.join("\n"));
    }

    /// The options `uci` lists (protocol.md, "Options"), with the current game's variant and
    /// Chess960 setting as defaults.
    fn options(&self) -> Vec<OptionLine> {
        let spin = |name: &str, default: u64, min: u64, max: u64| OptionLine {
            name: name.to_string(),
            kind: OptionKind::Spin {
                default: default as i64,
                min: min as i64,
                max: max as i64,
            },
        };
        let check = |name: &str, default: bool| OptionLine {
            name: name.to_string(),
            kind: OptionKind::Check { default },
        };
        let max_hash = MAX_HASH_MB as u64;
        vec![
            spin("Hash", DEFAULT_HASH_MB as u64, 1, max_hash),
            OptionLine {
                name: "Clear Hash".to_string(),
                kind: OptionKind::Button,
            },
            spin("Threads", DEFAULT_THREADS as u64, 1, MAX_THREADS as u64),
            check("UseSolver", true),
            check("UseBook", true),
            spin("Move Overhead", DEFAULT_OVERHEAD_MS, 0, MAX_OVERHEAD_MS),
            spin("MultiPV", 1, 1, MAX_MULTIPV as u64),
            check("Ponder", false),
            check("UCI_ShowWDL", false),
            check("UCI_LimitStrength", false),
            spin(
                "UCI_Elo",
                strength::ELO_DEFAULT.into(),
                strength::ELO_MIN.into(),
                strength::ELO_MAX.into(),
            ),
            check("UCI_Chess960", self.chess960),
            OptionLine {
                name: "UCI_Variant".to_string(),
                kind: OptionKind::Combo {
                    default: self.game.name().to_string(),
                    vars: NAMES.iter().map(|n| n.to_string()).collect(),
                },
            },
        ]
    }

    /// Sets option `name` (`value` as given); an error comes with the column it points at.
    fn set_option(
        &mut self,
        name: &str,
        value: Option<&str>,
        name_column: usize,
        value_column: usize,
    ) -> Result<(), (String, usize)> {
        let number = |min, max| option_number(name, value, value_column, min, max);
        let check = |what| option_bool(what, value, value_column);
        let config = self.config;
        match name.to_ascii_lowercase().as_str() {
            "hash" => {
                let hash_mb = number(1, MAX_HASH_MB as u64)? as usize;
                // The tables are made at the next search; refuse now a size the system
                // will not provide at all, rather than fail then.
                if !crate::util::can_allocate(hash_mb << 20) {
                    return Err((
                        format!(
                            "Hash {hash_mb} MiB: the system refuses to provide that much memory"
                        ),
                        value_column,
                    ));
                }
                self.configure(Config { hash_mb, ..config });
            }
            "clear hash" => self.game.clear_hash(),
            "threads" => {
                let threads = number(1, MAX_THREADS as u64)? as usize;
                self.configure(Config { threads, ..config });
            }
            "usesolver" => {
                let use_solver = check("UseSolver")?;
                self.configure(Config {
                    use_solver,
                    ..config
                });
            }
            "usebook" => {
                let use_book = check("UseBook")?;
                self.configure(Config { use_book, ..config });
            }
            "move overhead" => self.overhead_ms = number(0, MAX_OVERHEAD_MS)?,
            "multipv" => self.multipv = number(1, MAX_MULTIPV as u64)? as usize,
            "ponder" => self.ponder = check("Ponder")?,
            "uci_showwdl" => self.show_wdl = check("UCI_ShowWDL")?,
            "uci_limitstrength" => self.limit_strength = check("UCI_LimitStrength")?,
            "uci_elo" => {
                self.elo = number(strength::ELO_MIN.into(), strength::ELO_MAX.into())? as u32
            }
            "uci_chess960" => {
                let chess960 = check("UCI_Chess960")?;
                if self.game.name() == "chess" {
                    self.switch_game("chess", &chess_params(chess960))
                        .map_err(|e| (e, value_column))?;
                }
                self.chess960 = chess960;
            }
            "uci_variant" => match value {
                Some(v) => {
                    let name = v.to_ascii_lowercase();
                    let params = if name == "chess" {
                        chess_params(self.chess960)
                    } else {
                        Params::new()
                    };
                    self.switch_game(&name, &params)
                        .map_err(|e| (e, value_column))?
                }
                None => return Err(("UCI_Variant needs a value".into(), value_column)),
            },
            _ => {
                return Err((
                    format!(
                        "unknown option '{}' (known: Hash, Clear Hash, Threads, UseSolver, UseBook, Move Overhead, MultiPV, Ponder, UCI_ShowWDL, UCI_LimitStrength, UCI_Elo, UCI_Chess960, UCI_Variant)",
                        quote(name)
                    ),
                    name_column,
                ));
            }
        }
        Ok(())
    }
}

/// A seed that differs from run to run: the clock's nanoseconds and the process id.
fn time_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ (u64::from(std::process::id()) << 32)
}

/// The number a `setoption` of `name` gives, when it is an integer from `min` to `max`.
fn option_number(
    name: &str,
    value: Option<&str>,
    column: usize,
    min: u64,
    max: u64,
) -> Result<u64, (String, usize)> {
    match value.map(|v| v.parse::<u64>()) {
        Some(Ok(n)) if (min..=max).contains(&n) => Ok(n),
        _ => Err((
            format!(
                "{name} needs a value from {min} to {max}, got '{}'",
                quote(value.unwrap_or(""))
            ),
            column,
        )),
    }
}

/// The switch a `setoption` of `what` gives, by the one yes/no rule of settings.
fn option_bool(what: &str, value: Option<&str>, column: usize) -> Result<bool, (String, usize)> {
    match value.and_then(crate::setting::parse_switch) {
        Some(b) => Ok(b),
        None => Err((
            format!(
                "{what} needs true or false, got '{}'",
                quote(value.unwrap_or(""))
            ),
            column,
        )),
    }
}

/// The parameters of chess, or of Chess960 when `chess960`.
fn chess_params(chess960: bool) -> Params {
    if chess960 {
        Params(vec![("chess960".into(), "true".into())])
    } else {
        Params::new()
    }
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
