//! The engine loop: parses each input line into a [`Command`] and applies it; `go` runs on a
//! worker thread (see [`super::session`]) that reports [`Event::WorkerDone`]. While a worker
//! runs, `isready`, `stop` and `quit` are answered at once and every other command waits in
//! order, so a piped script is answered exactly as if each command had waited for the one
//! before it.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use super::command::{self, COMMANDS, Command, quote};
use super::options::Options;
use super::response::{IdLine, OptionLine, ParamLine};
use super::session::{self, Config, GameSession, Job, JobContext, Session};
use super::strength;
use super::{AUTHOR, ENGINE_NAME, Event, MAX_LINE_BYTES, Output, StopSignal, VERSION};
use crate::game::Params;
use crate::games::{DEFAULT_GAME, NAMES};
use crate::search::TechniquesOff;
use crate::setting::Value;
use crate::util::Rng;
use crate::with_game;

/// While a `go` runs, the commands waiting for it may hold at most this many bytes (each
/// counted with [`PENDING_OVERHEAD`] more); a line beyond it is dropped with an error. A
/// single line of any allowed length is always taken when nothing waits.
pub const MAX_PENDING_BYTES: usize = 16 << 20;
/// What a waiting command is counted for beyond its text.
pub const PENDING_OVERHEAD: usize = 64;

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
    pub(super) game: Box<dyn GameSession>,
    /// The options' values ([`options::OPTIONS`]).
    pub(super) options: Options,
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
    pub(super) fn config(&self) -> Config {
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
                let mut choice = None;
                let mut multipv = o.number("MultiPV") as usize;
                if limit_strength {
                    let elo = o.number("UCI_Elo") as u32;
                    let budget = strength::move_budget(elo, &mut self.rng);
                    params.nodes = Some(params.nodes.map_or(budget, |n| n.min(budget)));
                    choice = strength::noise(elo).map(|amplitude| strength::Choice {
                        amplitude,
                        seed: self.rng.next_u64(),
                    });
                    if choice.is_some() {
                        multipv = multipv.max(strength::CHOICES);
                    }
                }
                let unlimited = params.unlimited();
                let job = Job::Search {
                    params,
                    overhead: Duration::from_millis(o.number("Move Overhead")),
                    use_solver: o.switch("UseSolver") && !limit_strength,
                    calibrated: limit_strength,
                    choice,
                    multipv,
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
    pub(super) fn switch_game(&mut self, name: &str, params: &Params) -> Result<(), String> {
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
