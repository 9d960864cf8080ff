//! One game's protocol session: the current position, the searcher, and the worker thread
//! that runs `go` (a search or a perft) while the engine loop keeps reading commands.
//!
//! [`GameSession`] is the object-safe face the engine loop holds; [`Session<G>`] implements it
//! for each game, so everything under it is monomorphised per game.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::command::{GoParams, MoveList, PositionStart, Query, Token, quote};
use super::response::{BestMove, InfoLine, QueryResponse};
use super::{Event, Output, StopSignal};
use crate::game::{Game, Line, Outcome, Params, Player, legal_moves_by_name, perft_moves_by_name};
use crate::search::params::SearchParams;
use crate::search::{Clock, Info, Limits, Root, Searcher, TechniquesOff};
use crate::solve::{Budget, Solution, Solvable, Solver};
use crate::value::{BoundedScore, Score};

/// What the loop hands the thread that runs a job: where to write, when to stop, whom to
/// tell when done.
pub struct JobContext {
    /// The job's number, sent back in [`Event::WorkerDone`].
    pub id: u64,
    pub out: Output,
    pub stop: Arc<StopSignal>,
    pub done: Sender<Event>,
    /// Set just before the job's last line (`bestmove`, `Nodes searched`), so that any
    /// command a client sends after reading it finds the job over (see `EngineLoop::submit`).
    pub finished: Arc<AtomicBool>,
}

impl JobContext {
    /// Prints the job's last line.
    fn last_line(&self, text: &str) {
        self.finished.store(true, Ordering::SeqCst);
        self.out.line(text);
    }

    /// After the job `what` panicked (a bug of ours): logs it and, unless the job's last line
    /// is out already, reports the error and prints `last_line`, so the client is never left
    /// waiting (protocol.md, Errors).
    fn fail(&self, what: &str, last_line: &str) {
        log::error!("the {what} failed (a bug in ply: please report it)");
        if !self.finished.load(Ordering::SeqCst) {
            self.out.line(&format!(
                "info string error internal: the {what} failed; see the log"
            ));
            self.last_line(last_line);
        }
    }
}

// One job per command, moved once into its worker: the size of the search's variant costs
// nothing worth a box.
#[allow(clippy::large_enum_variant)]
pub enum Job {
    Search {
        params: GoParams,
        overhead: Duration,
        use_solver: bool,
        /// `MultiPV`: lines to report.
        multipv: usize,
        /// `Ponder`: `bestmove` names the expected reply (`ponder <move>`).
        show_ponder: bool,
        /// `UCI_ShowWDL`: `info` lines carry `wdl` where the score gives chances.
        show_wdl: bool,
        /// When the `go` line was read: its time budget counts from here.
        received: Instant,
        /// `UCI_LimitStrength`: search as the strength was calibrated, without the
        /// techniques added since (besides those `PLY_SEARCH_OFF` turns off).
        calibrated: bool,
        /// A `UCI_Elo` below the node anchors: `bestmove` is picked among the `multipv`
        /// lines with the level's noise (protocol/strength.rs).
        choice: Option<super::strength::Choice>,
    },
    Perft(u32),
    Bench(Option<u32>),
}

impl Job {
    /// The job's name in errors.
    fn name(&self) -> &'static str {
        match self {
            Job::Search { .. } => "search",
            Job::Perft(_) => "perft",
            Job::Bench(_) => "bench",
        }
    }

    /// The job's last line when it has nothing to report.
    fn empty_last_line(&self) -> String {
        match self {
            Job::Search { .. } => no_move().to_string(),
            Job::Perft(_) => "Nodes searched: 0".to_string(),
            Job::Bench(_) => "Nodes/second: 0".to_string(),
        }
    }

    /// The last line after the job failed: for a search, a move the client can play (the
    /// first legal one the game generates, `bestmove (none)` when there is none).
    fn fallback_line<G: Game>(&self, pos: &G) -> String {
        let mut moves = Vec::new();
        if let Job::Search { .. } = self {
            pos.legal_moves(&mut moves);
        }
        moves.first().map_or_else(
            || self.empty_last_line(),
            |&m| {
                let mv = Some(pos.format_move(m));
                BestMove { mv, ponder: None }.to_string()
            },
        )
    }
}

/// The options that decide how big the tables are and how the solver searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// `Hash`: MiB for the search table and the solver's cache together.
    pub hash_mb: usize,
    /// `Threads`: threads for the search and the solver.
    pub threads: usize,
    /// `UseSolver`.
    pub use_solver: bool,
    /// `UseBook`: the solver may answer from its opening book.
    pub use_book: bool,
    /// Search techniques turned off (`PLY_SEARCH_OFF`, protocol.md, Environment).
    pub search_off: TechniquesOff,
}

/// The solver's share of `Hash`, in MiB, when its game's solver keeps a cache sized by it
/// (see `protocol.md`, Options): three quarters. It proves what the search can only
/// estimate, and when it gives up the search gets half the time or less.
pub fn solver_share_mb(hash_mb: usize) -> usize {
    hash_mb * 3 / 4
}

/// Node budget of a solver inside a depth- or node-limited `go` without a clock: enough to
/// prove most positions of small games, and deterministic (no time involved).
pub const SOLVER_NODES_WITHOUT_CLOCK: u64 = 4_000_000;

/// What a search needs and keeps between searches: the searcher (its table, its history)
/// and the game's solver, when it has one. It moves to the worker thread and back.
struct SearchTools<G: Game> {
    searcher: Searcher<G>,
    solver: Option<Box<dyn Solver<G>>>,
}

impl<G: Game> SearchTools<G> {
    /// The searcher's techniques and parameters for the next search: the game's, less those
    /// `PLY_SEARCH_OFF` turns off; a `calibrated` (strength-limited) search plays the
    /// calibrated tree, without the techniques added since and with the parameters'
    /// defaults rather than the game's values found since.
    fn prepare(&mut self, config: Config, calibrated: bool) {
        let (off, params) = if calibrated {
            (super::strength::uncalibrated(), "")
        } else {
            (TechniquesOff::NONE, G::SEARCH_PARAMS)
        };
        self.searcher
            .set_techniques_off(config.search_off.union(off));
        self.searcher.set_params(SearchParams::current(params));
    }
}

pub trait GameSession: Send {
    fn name(&self) -> &'static str;
    /// The game with its parameters, as `newgame` would take them.
    fn describe(&self) -> String;
    /// Back to the start position, forgetting what the searcher learnt (`ucinewgame`).
    fn reset(&mut self);
    /// True when `newgame <name> <params>` would select exactly this game and rules.
    fn same_rules(&self, name: &str, params: &Params) -> bool;
    /// Sets the position, all or nothing.
    fn set_position(&mut self, start: &PositionStart, moves: &MoveList) -> Result<(), String>;
    /// Checks `go searchmoves` (each move with its column) against the position.
    fn check_searchmoves(&self, moves: &MoveList) -> Result<(), String>;
    /// Starts `job` on a worker thread; it ends by sending [`Event::WorkerDone`].
    fn start(&mut self, job: Job, ctx: JobContext);
    /// Waits for the worker and takes the searcher back.
    fn join(&mut self);
    fn query(&self, q: &Query) -> String;
    fn display(&self) -> String;
    /// Applies new options: the tables are sized again (and emptied) at their next use.
    fn configure(&mut self, config: Config);
    fn clear_hash(&mut self);
}

pub struct Session<G: Game> {
    start: G,
    /// The position with the game's earlier keys (for repetitions).
    pos: Line<G>,
    config: Config,
    /// Made at first use (so a `newgame` allocates nothing, and the previous game's tables
    /// are gone before this game's are made), dropped when the options change.
    tools: Option<SearchTools<G>>,
    worker: Option<JoinHandle<Option<SearchTools<G>>>>,
}

impl<G: Solvable> Session<G> {
    pub fn new(params: &Params, config: Config) -> Result<Session<G>, String> {
        let start = G::new(params).map_err(|e| e.to_string())?;
        Ok(Session {
            pos: Line::new(start.clone()),
            start,
            config,
            tools: None,
            worker: None,
        })
    }

    /// The searcher and the solver, with `Hash` split between them: the solver's share when
    /// it is used and keeps a cache, the rest (all of it otherwise) for the search table.
    fn new_tools(start: &G, config: Config) -> SearchTools<G> {
        let share = if config.use_solver && G::solver_uses_hash(start) {
            solver_share_mb(config.hash_mb)
        } else {
            0
        };
        let mut solver = G::solver(start, share);
        let mut solver_bytes = 0;
        if let Some(s) = solver.as_mut() {
            s.set_threads(config.threads);
            s.set_book(config.use_book);
            s.resize(share);
            if share > 0 {
                solver_bytes = s.table_bytes();
            }
        }
        let search_bytes = (config.hash_mb << 20).saturating_sub(solver_bytes);
        log::debug!(
            "{}: search table up to {search_bytes} bytes, solver cache {solver_bytes} bytes",
            G::NAME
        );
        let mut searcher = Searcher::with_table_bytes(search_bytes);
        searcher.set_techniques_off(config.search_off);
        searcher.set_threads(config.threads);
        SearchTools { searcher, solver }
    }

    /// The tools if they exist (after the worker, if any, has given them back).
    fn existing_tools(&mut self) -> Option<&mut SearchTools<G>> {
        self.join();
        self.tools.as_mut()
    }
}

impl<G: Game> Drop for Session<G> {
    fn drop(&mut self) {
        if let Some(h) = self.worker.take() {
            let _ = h.join();
        }
        // Freeing a large table takes a while: not on the command loop.
        if let Some(tools) = self.tools.take() {
            crate::util::drop_in_background(tools);
        }
    }
}

/// The search limits of `go` for `side` to move. A clock given for either side (`wtime`,
/// `btime`, `winc` or `binc`) makes it a clocked search: a time or increment not given
/// counts as 0, so a client that sends only the other side's clock gets a move at once.
fn limits_for<G: Game>(pos: &G, p: &GoParams, overhead: Duration, received: Instant) -> Limits {
    let side = pos.side_to_move();
    let ms = |v: i64| Duration::from_millis(v.max(0) as u64);
    let (time, inc) = match side {
        Player::First => (p.wtime, p.winc),
        Player::Second => (p.btime, p.binc),
    };
    let clocked = p.wtime.is_some() || p.btime.is_some() || p.winc.is_some() || p.binc.is_some();
    if clocked && time.is_none() {
        log::warn!(
            "go: no clock for {} (to move) but one for the other side; searching as with 0 ms left",
            side.protocol_name()
        );
    }
    Limits {
        depth: p.depth,
        nodes: p.nodes,
        movetime: p.movetime.map(Duration::from_millis),
        clock: clocked.then(|| Clock {
            time: time.map(ms).unwrap_or_default(),
            inc: inc.map(ms).unwrap_or_default(),
            movestogo: p.movestogo,
            default_movestogo: Some(G::CLOCK_MOVES),
        }),
        infinite: p.infinite,
        mate: p.mate,
        overhead,
        started: Some(received),
        ..Limits::default()
    }
}

/// `message` (a game's error about `input`) with `input`, where it quotes it, shortened as
/// [`quote`] does.
pub fn quoted(message: &str, input: &str) -> String {
    let short = quote(input);
    if short.len() < input.len() {
        message.replace(input, &short)
    } else {
        message.to_string()
    }
}

/// The `info` line for one line of a completed iteration (`multipv <k>` in it when more
/// than one line is asked for).
fn info_line<G: Game>(root: &G, info: &Info<G::Move>, lines: usize, wdl: bool) -> InfoLine {
    let score = Score::from_value(info.value);
    InfoLine {
        depth: Some(info.depth),
        seldepth: Some(info.seldepth),
        multipv: (lines > 1).then_some(info.multipv),
        score: Some(BoundedScore::exact(score)),
        wdl: wdl.then(|| chances::<G>(score, false)).flatten(),
        nodes: Some(info.nodes),
        nps: Some(info.nps()),
        time: Some(info.time.as_millis() as u64),
        hashfull: Some(info.hashfull),
        tbhits: (info.tbhits > 0).then_some(info.tbhits),
        pv: pv_texts(root, &info.pv),
        ..InfoLine::default()
    }
}

/// The `wdl` of a score (protocol.md, "info"): a mate is won or lost for certain, a proven
/// draw (`proven`: a solver's `cp 0`) drawn; other scores give chances only in a game with a
/// model ([`Game::wdl_of_cp`]). A bound (a solver's `mate n lowerbound`) counts as its value.
fn chances<G: Game>(score: Score, proven: bool) -> Option<[u32; 3]> {
    match score {
        Score::Mate(n) if n > 0 => Some([1000, 0, 0]),
        Score::Mate(_) => Some([0, 0, 1000]),
        Score::Cp(0) if proven => Some([0, 1000, 0]),
        Score::Cp(cp) => G::wdl_of_cp(cp),
    }
}

/// A line of moves from `root` in the game's notation.
fn pv_texts<G: Game>(root: &G, pv: &[G::Move]) -> Vec<String> {
    let mut p = root.clone();
    pv.iter()
        .map(|&mv| {
            let text = p.format_move(mv);
            p.play(mv);
            text
        })
        .collect()
}

impl<G: Solvable> GameSession for Session<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn describe(&self) -> String {
        let p = self.start.params();
        if p.0.is_empty() {
            G::NAME.to_string()
        } else {
            format!("{} {p}", G::NAME)
        }
    }

    fn same_rules(&self, name: &str, params: &Params) -> bool {
        name == G::NAME && G::new(params).is_ok_and(|s| s.params() == self.start.params())
    }

    fn reset(&mut self) {
        self.pos = Line::new(self.start.clone());
        if let Some(tools) = self.existing_tools() {
            tools.searcher.clear();
            if let Some(s) = tools.solver.as_mut() {
                s.clear();
            }
        }
    }

    fn set_position(&mut self, start: &PositionStart, moves: &MoveList) -> Result<(), String> {
        let base = match start {
            PositionStart::StartPos => self.start.clone(),
            PositionStart::Fen { text, column } => self.start.from_fen(text).map_err(|e| {
                format!(
                    "fen '{}': {} (column {column})",
                    quote(text),
                    quoted(&e.to_string(), text)
                )
            })?,
        };
        // The list is read lazily (a line may hold millions of moves): no copy of it.
        let texts = moves.iter().map(|t| t.text);
        self.pos = Line::new(base)
            .play_texts(texts, |_, _| {})
            .map_err(|(i, e)| {
                let t = moves
                    .iter()
                    .nth(i)
                    .expect("the index of a move of the list");
                format!(
                    "move {} '{}' (column {}): {}",
                    i + 1,
                    quote(t.text),
                    t.column,
                    quoted(&e.to_string(), t.text)
                )
            })?;
        Ok(())
    }

    fn check_searchmoves(&self, moves: &MoveList) -> Result<(), String> {
        for Token { text, column } in moves.iter() {
            self.pos.parse_move(text).map_err(|e| {
                format!(
                    "searchmoves '{}' (column {column}): {}",
                    quote(text),
                    quoted(&e.to_string(), text)
                )
            })?;
        }
        Ok(())
    }

    fn start(&mut self, job: Job, ctx: JobContext) {
        let pos = self.pos.clone();
        // The worker makes the tables if they do not exist yet (a search needs them; a perft
        // or a bench does not make them).
        let tools = self.tools.take();
        let config = self.config;
        let last_line = job.empty_last_line();
        let what = job.name();
        let fallback = match pos.outcome() {
            Some(_) => job.empty_last_line(),
            None => job.fallback_line(pos.pos()),
        };
        let (id, out, done, finished) = (
            ctx.id,
            ctx.out.clone(),
            ctx.done.clone(),
            ctx.finished.clone(),
        );
        let handle = std::thread::Builder::new()
            .name("ply-worker".into())
            .stack_size(64 << 20)
            .spawn(move || {
                // A panic inside the job (a bug of ours) must not leave the client waiting
                // for a last line that never comes: it is logged, reported as an error, the
                // job's last line is printed if it was not yet, and the session starts a
                // fresh searcher (see `join`).
                let run = std::panic::AssertUnwindSafe(|| match job {
                    Job::Perft(depth) => {
                        run_perft(pos.pos(), depth, &ctx);
                        tools
                    }
                    Job::Bench(depth) => {
                        run_bench(depth, config.search_off, &ctx);
                        tools
                    }
                    Job::Search {
                        params,
                        overhead,
                        use_solver,
                        multipv,
                        show_ponder,
                        show_wdl,
                        received,
                        calibrated,
                        choice,
                    } => {
                        let mut tools =
                            tools.unwrap_or_else(|| Session::<G>::new_tools(&pos, config));
                        tools.prepare(config, calibrated);
                        let mut limits = limits_for(&*pos, &params, overhead, received);
                        limits.ponderhit = params.ponder.then(|| ctx.stop.ponderhit.clone());
                        let request = Request {
                            searchmoves: distinct(
                                params
                                    .searchmoves
                                    .iter()
                                    .filter_map(|m| pos.parse_move(m.text).ok()),
                            ),
                            multipv,
                            show_ponder,
                            show_wdl,
                            use_solver,
                            choice,
                        };
                        run_search(&mut tools, &pos, limits, &request, &ctx);
                        log_move_time(received);
                        Some(tools)
                    }
                });
                let tools = std::panic::catch_unwind(run).unwrap_or_else(|_| {
                    ctx.fail(what, &fallback);
                    None
                });
                let _ = ctx.done.send(Event::WorkerDone(ctx.id));
                tools
            });
        match handle {
            Ok(h) => self.worker = Some(h),
            Err(e) => {
                log::error!("cannot start a worker thread: {e}");
                // Nothing runs: answer at once so the client still gets its reply.
                out.line("info string error go: cannot start a worker thread");
                finished.store(true, Ordering::SeqCst);
                out.line(&last_line);
                let _ = done.send(Event::WorkerDone(id));
            }
        }
    }

    fn join(&mut self) {
        if let Some(h) = self.worker.take() {
            match h.join() {
                Ok(tools) => {
                    if tools.is_some() {
                        self.tools = tools;
                    }
                }
                Err(_) => log::error!("the worker thread panicked; starting a fresh searcher"),
            }
        }
    }

    fn query(&self, q: &Query) -> String {
        let pos = &self.pos;
        let answer = match q {
            // By the rules or by repetition ([`Line::outcome`]).
            Query::GameOver => pos.outcome().is_some().to_string(),
            Query::Result => pos
                .outcome()
                .map_or("none", Outcome::protocol_name)
                .to_string(),
            Query::SideToMove => pos.side_to_move().protocol_name().to_string(),
            Query::P1Turn => (pos.side_to_move() == Player::First).to_string(),
            // None once the game is over, by the rules or by repetition.
            Query::LegalMoves if pos.outcome().is_some() => String::new(),
            Query::LegalMoves => legal_moves_by_name(pos.pos())
                .into_iter()
                .map(|(s, _)| s)
                .collect::<Vec<_>>()
                .join(" "),
            Query::IsLegal(m) => pos.parse_move(m).is_ok().to_string(),
            Query::Fen => pos.fen(),
        };
        QueryResponse(answer).to_string()
    }

    fn display(&self) -> String {
        let pos = &self.pos;
        let mut s = pos.diagram();
        s.push_str(&format!("Game: {}\n", self.describe()));
        s.push_str(&format!("Fen: {}\n", pos.fen()));
        s.push_str(&format!("Key: {:016X}\n", pos.key()));
        s.push_str(&format!(
            "Side to move: {}\n",
            pos.side_to_move().protocol_name()
        ));
        match pos.outcome() {
            Some(o) => s.push_str(&format!("Result: {}\n", o.protocol_name())),
            None => {
                let moves: Vec<String> = legal_moves_by_name(pos.pos())
                    .into_iter()
                    .map(|(m, _)| m)
                    .collect();
                s.push_str(&format!("Legal moves: {}\n", moves.join(" ")));
            }
        }
        s
    }

    fn configure(&mut self, config: Config) {
        self.join();
        if config == self.config {
            return;
        }
        // Turning the book on or off keeps the tables; any other change makes new ones.
        let book_only = Config {
            use_book: self.config.use_book,
            ..config
        } == self.config;
        self.config = config;
        if book_only {
            if let Some(s) = self.tools.as_mut().and_then(|t| t.solver.as_mut()) {
                s.set_book(config.use_book);
            }
        } else if let Some(tools) = self.tools.take() {
            crate::util::drop_in_background(tools);
        }
    }

    fn clear_hash(&mut self) {
        if let Some(tools) = self.existing_tools() {
            tools.searcher.clear();
            if let Some(s) = tools.solver.as_mut() {
                s.clear();
            }
        }
    }
}

/// The `info` line of a solver's answer (see `Solution::score` for its score).
fn solution_line<G: Game>(
    root: &G,
    sol: &Solution<G::Move>,
    time: Duration,
    wdl: bool,
) -> InfoLine {
    let depth = (sol.pv.len() as u32).max(1);
    let score = sol.score();
    InfoLine {
        depth: Some(depth),
        seldepth: Some(depth),
        score: Some(score),
        wdl: wdl.then(|| chances::<G>(score.score, true)).flatten(),
        nodes: Some(sol.nodes),
        nps: Some((sol.nodes as u128 * 1_000_000 / time.as_micros().max(1)) as u64),
        time: Some(time.as_millis() as u64),
        tbhits: (sol.tbhits > 0).then_some(sol.tbhits),
        pv: pv_texts(root, &sol.pv),
        ..InfoLine::default()
    }
}

/// The most of its clock a solver may ask for: the search after it still gets half its hard
/// budget (at most 4/10 of the clock), so the move stays within 8/10 of the clock.
const MAX_PROOF_SHARE: f64 = 0.4;

/// The share of a fixed move time (`movetime` without a clock) a solver that asks for more
/// than half ([`Solver::proof_share`] above 0) may take: the search after it still gets a
/// tenth.
const MOVETIME_PROOF_SHARE: f64 = 0.9;

/// How long the solver may search before the heuristic search takes over, from the start of
/// the move: half the move's hard budget, or `share` of the clock when the solver asks for
/// more there ([`Solver::proof_share`]; at most [`MAX_PROOF_SHARE`], and never past a
/// `movetime`), or [`MOVETIME_PROOF_SHARE`] of a fixed move time when it asks for more.
/// `None` when time does not limit the move.
fn solver_time(limits: &Limits, share: f64) -> Option<Duration> {
    let (_, hard) = limits.budgets()?;
    let Some(clock) = limits.clock else {
        if share > 0.0 && limits.movetime.is_some() {
            return Some(hard.mul_f64(MOVETIME_PROOF_SHARE));
        }
        return Some(hard / 2);
    };
    let available = clock.time.saturating_sub(limits.overhead);
    let mut asked = available.mul_f64(share.clamp(0.0, MAX_PROOF_SHARE));
    if limits.movetime.is_some() {
        asked = asked.min(hard);
    }
    Some((hard / 2).max(asked))
}

/// The limits of the search after a solver gave up: when the solver took more than half the
/// hard budget (it asked for a share of the clock), the search's budgets count from half a
/// hard budget ago, so it still gets the other half. A `movetime` is never passed.
fn after_solver(mut limits: Limits) -> Limits {
    if let (Some(started), Some((_, hard)), None) =
        (limits.started, limits.budgets(), limits.movetime)
        && started.elapsed() > hard / 2
    {
        limits.started = Instant::now().checked_sub(hard / 2).or(Some(started));
    }
    limits
}

/// The `info` line of a finished game: its value at depth 0 (`mate 0` for the side to move
/// that has lost, or won: misère Nim's last taker hands the win over). A win always says so
/// with `wdl 1000 0 0` (`mate 0` alone reads as a loss); with `show_wdl` (`UCI_ShowWDL`) a
/// loss and a draw carry their certain chances too.
fn finished_line<G: Game>(pos: &G, o: Outcome, show_wdl: bool) -> InfoLine {
    // (score, chances, whether the chances are printed without show_wdl)
    let (score, wdl, always) = match o {
        Outcome::Draw => (Score::Cp(0), [0, 1000, 0], false),
        Outcome::Win(p) if p == pos.side_to_move() => (Score::Mate(0), [1000, 0, 0], true),
        Outcome::Win(_) => (Score::Mate(0), [0, 0, 1000], false),
    };
    InfoLine {
        depth: Some(0),
        score: Some(BoundedScore::exact(score)),
        wdl: (show_wdl || always).then_some(wdl),
        ..InfoLine::default()
    }
}

/// Asks the solver within its part of the budget (see `protocol.md`, `go`): half the time
/// budget under movetime or a clock, or more where the solver asks for it ([`solver_time`]),
/// else the node limit, else a fixed node budget for a `go depth` or a `go mate`, else
/// (infinite, or no limit) until it finishes or `stop`.
fn ask_solver<G: Game>(
    solver: &mut dyn Solver<G>,
    pos: &G,
    limits: &Limits,
    wdl: bool,
    ctx: &JobContext,
) -> Option<Solution<G::Move>> {
    let started = limits.started.unwrap_or_else(Instant::now);
    let budgets = limits.budgets();
    let budget = Budget {
        stop: &ctx.stop.flag,
        deadline: solver_time(limits, solver.proof_share(pos)).and_then(|t| started.checked_add(t)),
        nodes: match (
            limits.nodes,
            budgets,
            limits.infinite,
            limits.depth.or(limits.mate),
        ) {
            (Some(n), _, _, _) => Some(n),
            (None, None, false, Some(_)) => Some(SOLVER_NODES_WITHOUT_CLOCK),
            _ => None,
        },
    };
    let sol = solver.solve(pos, &budget)?;
    ctx.out
        .line(&solution_line(pos, &sol, started.elapsed(), wdl).to_string());
    Some(sol)
}

/// `moves` without repetitions, in order: a `go searchmoves` line may name a move any number
/// of times, and only which moves it names counts.
fn distinct<M: PartialEq>(moves: impl Iterator<Item = M>) -> Vec<M> {
    let mut seen = Vec::new();
    for m in moves {
        if !seen.contains(&m) {
            seen.push(m);
        }
    }
    seen
}

/// What a `go` asks beyond its limits.
struct Request<M> {
    /// Only these root moves (`searchmoves`); empty: all.
    searchmoves: Vec<M>,
    multipv: usize,
    show_ponder: bool,
    show_wdl: bool,
    use_solver: bool,
    choice: Option<super::strength::Choice>,
}

/// Searches `line`'s position and prints the `info` lines and `bestmove`; a finished game (by
/// the rules or by repetition) gets `bestmove (none)`.
fn run_search<G: Game>(
    tools: &mut SearchTools<G>,
    line: &Line<G>,
    mut limits: Limits,
    request: &Request<G::Move>,
    ctx: &JobContext,
) {
    let pos = line.pos();
    if let Some(o) = line.outcome() {
        // The game is over: report its value at depth 0, and no move.
        ctx.out
            .line(&finished_line(pos, o, request.show_wdl).to_string());
        ctx.last_line(&no_move().to_string());
        return;
    }
    let mut best = None;
    let mut pv = Vec::new();
    // The solver answers for one best move among all: not with MultiPV or searchmoves.
    let plain = request.multipv <= 1 && request.searchmoves.is_empty();
    if let (true, true, Some(solver)) = (request.use_solver, plain, tools.solver.as_mut()) {
        if let Some(s) = ask_solver(solver.as_mut(), pos, &limits, request.show_wdl, ctx) {
            best = s.best;
            pv = s.pv;
        }
        if best.is_none() {
            limits = after_solver(limits);
        }
    }
    if best.is_none() {
        let root = Root {
            pos,
            earlier: line.earlier(),
            moves: &request.searchmoves,
            lines: request.multipv,
        };
        let lines = request.multipv;
        // Where the solver may answer, its exact values may answer inside the search too.
        let oracle = match request.use_solver {
            true => tools.solver.as_ref().and_then(|s| s.oracle()),
            false => None,
        };
        tools.searcher.set_oracle(oracle);
        // The search's time budgets count from the same instant as the solver's, so what
        // the solver spent is charged to them.
        let mut choices = super::strength::Lines::default();
        let result = tools
            .searcher
            .search_root(&root, &limits, &ctx.stop.flag, &mut |info| {
                if request.choice.is_some() {
                    choices.see(info);
                }
                ctx.out
                    .line(&info_line(pos, info, lines, request.show_wdl).to_string())
            });
        best = result.best;
        pv = result.pv;
        if let Some(line) = request.choice.and_then(|c| choices.pick(c)) {
            best = line.first().copied();
            pv = line;
        }
    }
    // With `infinite`, bestmove waits for `stop` (or `quit`, or the end of input) even when
    // the search has nothing left to do; with `ponder`, for `stop` or `ponderhit`.
    if limits.infinite || limits.ponderhit.is_some() {
        ctx.stop.wait(limits.ponderhit.is_some());
    }
    ctx.last_line(&bestmove_line(pos, best, &pv, request.show_ponder));
}

/// `bestmove <move>`, with `ponder <reply>` when asked for and the line has a reply.
fn bestmove_line<G: Game>(pos: &G, best: Option<G::Move>, pv: &[G::Move], ponder: bool) -> String {
    let Some(mv) = best else {
        return no_move().to_string();
    };
    let reply = (ponder && pv.first() == Some(&mv) && pv.len() >= 2).then(|| {
        let mut after = pos.clone();
        after.play(mv);
        after.format_move(pv[1])
    });
    BestMove {
        mv: Some(pos.format_move(mv)),
        ponder: reply,
    }
    .to_string()
}

/// `bestmove (none)`: the game is over, or a job had no move to give.
fn no_move() -> BestMove {
    BestMove {
        mv: None,
        ponder: None,
    }
}

/// Nodes visited between two looks at the stop flag during a perft.
const PERFT_CHECK_EVERY: u64 = 1 << 12;

/// The number of move sequences of exactly `depth` plies from `pos` (as `game::perft`
/// counts them), or `None` once `stop` is set. Its move buffers grow with the depth
/// actually reached, not the depth asked for.
fn perft_until<G: Game>(pos: &G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    struct Walk<'a, M> {
        buffers: Vec<Vec<M>>,
        visited: u64,
        stop: &'a AtomicBool,
    }
    fn go<G: Game>(walk: &mut Walk<G::Move>, pos: &G, depth: u32, ply: usize) -> Option<u64> {
        if depth == 0 {
            return Some(1);
        }
        walk.visited += 1;
        if walk.visited.is_multiple_of(PERFT_CHECK_EVERY) && walk.stop.load(Ordering::Relaxed) {
            return None;
        }
        if walk.buffers.len() <= ply {
            walk.buffers.push(Vec::new());
        }
        let mut moves = std::mem::take(&mut walk.buffers[ply]);
        let mut total = Some(0u64);
        if depth == 1 {
            // Chess counts its last ply in bulk, without listing the moves.
            total = Some(pos.perft_move_count(&mut moves) as u64);
        } else {
            moves.clear();
            pos.perft_moves(&mut moves);
            for &mv in &moves {
                let mut child = pos.clone();
                child.play(mv);
                match go(walk, &child, depth - 1, ply + 1) {
                    Some(n) => total = total.map(|t| t.saturating_add(n)),
                    None => {
                        total = None;
                        break;
                    }
                }
            }
        }
        walk.buffers[ply] = moves;
        total
    }
    let mut walk = Walk {
        buffers: Vec::new(),
        visited: 0,
        stop,
    };
    go(&mut walk, pos, depth, 0)
}

fn run_perft<G: Game>(pos: &G, depth: u32, ctx: &JobContext) {
    let mut total = 0u64;
    if depth == 0 {
        total = 1;
    } else {
        for (name, mv) in perft_moves_by_name(pos) {
            let mut child = pos.clone();
            child.play(mv);
            match perft_until(&child, depth - 1, &ctx.stop.flag) {
                Some(n) => {
                    total = total.saturating_add(n);
                    ctx.out.line(&format!("{name}: {n}"));
                }
                None => {
                    ctx.out.line("info string perft stopped");
                    break;
                }
            }
        }
    }
    ctx.last_line(&format!("Nodes searched: {total}"));
}

/// `bench`: each position's line as it is done, then the summary; `stop` ends it early.
fn run_bench(depth: Option<u32>, search_off: TechniquesOff, ctx: &JobContext) {
    let report = crate::bench::run_until(
        depth,
        crate::bench::BENCH_HASH_MB,
        search_off,
        &ctx.stop.flag,
        &mut |l| ctx.out.line(&l.to_string()),
    );
    if report.stopped {
        ctx.out.line("info string bench stopped");
    }
    let summary = report.summary();
    let (head, last) = summary.rsplit_once('\n').unwrap_or(("", &summary));
    ctx.out.lines(head);
    ctx.last_line(last);
}

/// At debug level, how long the engine itself took over a search, and how much of it the
/// worker thread ran, for comparing with its client's clock (scripts/bench/st_move_times.sh;
/// docs/hardening.md, "Time"). `received`: when the `go` line was read.
fn log_move_time(received: Instant) {
    if log::log_enabled!(log::Level::Debug) {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let (ran, waited) = crate::util::thread_sched_times().unwrap_or_default();
        log::debug!(
            "bestmove {:.3} ms after the go line was read, worker ran {:.3} ms, waited for a \
             processor {:.3} ms",
            ms(received.elapsed()),
            ms(ran),
            ms(waited)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(ms: u64, inc_ms: u64) -> Limits {
        Limits {
            clock: Some(Clock {
                time: Duration::from_millis(ms),
                inc: Duration::from_millis(inc_ms),
                movestogo: None,
                default_movestogo: None,
            }),
            ..Limits::default()
        }
    }

    #[test]
    fn solver_time_is_half_the_hard_budget_unless_the_solver_asks_for_more() {
        let l = clock(1000, 10);
        let (_, hard) = l.budgets().unwrap();
        assert_eq!(solver_time(&l, 0.0), Some(hard / 2));
        // A quarter of 1 s is more than half of the hard budget (3 × (40 + 7.5) ms).
        assert_eq!(solver_time(&l, 0.25), Some(Duration::from_millis(250)));
        // Never past 4/10 of the clock, whatever the solver asks.
        assert_eq!(solver_time(&l, 1.0), Some(Duration::from_millis(400)));
        // Move Overhead is off the clock first.
        let mut o = clock(1000, 10);
        o.overhead = Duration::from_millis(200);
        assert_eq!(solver_time(&o, 0.25), Some(Duration::from_millis(200)));
        // A movetime caps the move; no time limit, no deadline.
        let mut m = clock(1000, 10);
        m.movetime = Some(Duration::from_millis(100));
        assert_eq!(solver_time(&m, 0.25), Some(Duration::from_millis(100)));
        // A fixed move time alone: half of it, or nine tenths when the solver asks for more.
        let fixed = Limits {
            movetime: Some(Duration::from_millis(1000)),
            ..Limits::default()
        };
        let (_, hard) = fixed.budgets().unwrap();
        assert_eq!(solver_time(&fixed, 0.0), Some(hard / 2));
        assert_eq!(solver_time(&fixed, 0.25), Some(hard.mul_f64(0.9)));
        assert_eq!(solver_time(&Limits::depth(5), 0.25), None);
        let inf = Limits {
            infinite: true,
            ..clock(1000, 10)
        };
        assert_eq!(solver_time(&inf, 0.25), None);
    }
}
