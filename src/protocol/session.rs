//! One game's protocol session: the current position, the searcher, and the worker thread
//! that runs `go` (a search or a perft) while the engine loop keeps reading commands.
//!
//! [`GameSession`] is the object-safe face the engine loop holds; [`Session<G>`] implements it
//! for each game, so everything under it is monomorphised per game.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::thread::JoinHandle;
use std::time::Duration;

use super::command::{GoParams, PositionStart, Query, Token};
use super::{Event, Output, StopSignal};
use crate::game::{Game, Outcome, Params, Player, perft};
use crate::search::{Clock, Info, Limits, Score, Searcher};
use crate::solve::{Budget, Solution, Solvable, Solver};

/// What the loop hands a worker: where to write, when to stop, whom to tell when done.
pub struct Worker {
    /// The job's number, sent back in [`Event::WorkerDone`].
    pub id: u64,
    pub out: Output,
    pub stop: Arc<StopSignal>,
    pub done: Sender<Event>,
    /// Set just before the job's last line (`bestmove`, `Nodes searched`), so that any
    /// command a client sends after reading it finds the job over (see `Engine::submit`).
    pub finished: Arc<AtomicBool>,
}

impl Worker {
    /// Prints the job's last line.
    fn last_line(&self, text: &str) {
        self.finished.store(true, Ordering::SeqCst);
        self.out.line(text);
    }
}

pub enum Job {
    Search {
        params: GoParams,
        overhead: Duration,
        use_solver: bool,
    },
    Perft(u32),
}

/// Node budget of a solver inside a depth- or node-limited `go` without a clock: enough to
/// prove most positions of small games, and deterministic (no time involved).
pub const SOLVER_NODES_WITHOUT_CLOCK: u64 = 4_000_000;

/// What a search needs and keeps between searches: the searcher (its table, its history)
/// and the game's solver, when it has one. It moves to the worker thread and back.
struct Brain<G: Game> {
    searcher: Searcher<G>,
    solver: Option<Box<dyn Solver<G>>>,
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
    fn set_position(&mut self, start: &PositionStart, moves: &[Token]) -> Result<(), String>;
    /// Starts `job` on a worker thread; it ends by sending [`Event::WorkerDone`].
    fn start(&mut self, job: Job, worker: Worker);
    /// Waits for the worker and takes the searcher back.
    fn join(&mut self);
    fn query(&self, q: &Query) -> String;
    fn display(&self) -> String;
    fn set_hash(&mut self, megabytes: usize);
    fn clear_hash(&mut self);
    /// Threads the game's solver may search with.
    fn set_threads(&mut self, threads: usize);
    /// Whether the game's solver may answer from its opening book.
    fn set_book(&mut self, on: bool);
}

pub struct Session<G: Game> {
    start: G,
    pos: G,
    hash_mb: usize,
    /// Threads for the solver (the `Threads` option).
    threads: usize,
    /// The solver's opening book is on (the `UseBook` option).
    book: bool,
    brain: Option<Brain<G>>,
    worker: Option<JoinHandle<Option<Brain<G>>>>,
}

impl<G: Solvable> Session<G> {
    pub fn new(params: &Params, hash_mb: usize, threads: usize) -> Result<Session<G>, String> {
        let start = G::new(params).map_err(|e| e.to_string())?;
        let brain = Self::new_brain(&start, hash_mb, threads, true);
        Ok(Session {
            pos: start.clone(),
            start,
            hash_mb,
            threads,
            book: true,
            brain: Some(brain),
            worker: None,
        })
    }

    fn new_brain(start: &G, hash_mb: usize, threads: usize, book: bool) -> Brain<G> {
        let mut solver = G::solver(start, hash_mb);
        if let Some(s) = solver.as_mut() {
            s.set_threads(threads);
            s.set_book(book);
        }
        Brain {
            searcher: Searcher::new(hash_mb),
            solver,
        }
    }

    fn brain(&mut self) -> &mut Brain<G> {
        self.join();
        let (hash_mb, threads, book, start) = (self.hash_mb, self.threads, self.book, &self.start);
        self.brain
            .get_or_insert_with(|| Self::new_brain(start, hash_mb, threads, book))
    }
}

/// Legal moves in the order people read them: shorter first, then alphabetical
/// (`1 2 .. 10`, `a1 a2 ..`).
fn sorted_moves<G: Game>(pos: &G) -> Vec<(String, G::Move)> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut named: Vec<(String, G::Move)> =
        moves.into_iter().map(|m| (pos.format_move(m), m)).collect();
    named.sort_by(|a, b| (a.0.len(), &a.0).cmp(&(b.0.len(), &b.0)));
    named
}

fn limits_for(side: Player, p: &GoParams, overhead: Duration) -> Limits {
    let ms = |v: i64| Duration::from_millis(v.max(0) as u64);
    let (time, inc) = match side {
        Player::First => (p.wtime, p.winc),
        Player::Second => (p.btime, p.binc),
    };
    Limits {
        depth: p.depth,
        nodes: p.nodes,
        movetime: p.movetime.map(Duration::from_millis),
        clock: time.map(|t| Clock {
            time: ms(t),
            inc: inc.map(ms).unwrap_or_default(),
            movestogo: p.movestogo,
        }),
        infinite: p.infinite,
        overhead,
    }
}

/// The `info` line for one completed iteration.
fn info_line<G: Game>(root: &G, info: &Info<G::Move>) -> String {
    let mut s = format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {} hashfull {}",
        info.depth,
        info.seldepth,
        Score::from_value(info.value),
        info.nodes,
        info.nps(),
        info.time.as_millis(),
        info.hashfull
    );
    s.push_str(&pv_text(root, &info.pv));
    s
}

/// ` pv m1 m2 ...` for a line of moves from `root`, or nothing for an empty line.
fn pv_text<G: Game>(root: &G, pv: &[G::Move]) -> String {
    let mut s = String::new();
    if !pv.is_empty() {
        s.push_str(" pv");
        let mut p = root.clone();
        for &mv in pv {
            s.push(' ');
            s.push_str(&p.format_move(mv));
            p.play(mv);
        }
    }
    s
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
        self.pos = self.start.clone();
        let brain = self.brain();
        brain.searcher.clear();
        if let Some(s) = brain.solver.as_mut() {
            s.clear();
        }
    }

    fn set_position(&mut self, start: &PositionStart, moves: &[Token]) -> Result<(), String> {
        let mut pos = match start {
            PositionStart::StartPos => self.start.clone(),
            PositionStart::Fen(fen) => self
                .start
                .from_fen(fen)
                .map_err(|e| format!("fen '{fen}': {e}"))?,
        };
        for (i, t) in moves.iter().enumerate() {
            let mv = pos
                .parse_move(&t.text)
                .map_err(|e| format!("move {} '{}' (column {}): {e}", i + 1, t.text, t.column))?;
            pos.play(mv);
        }
        self.pos = pos;
        Ok(())
    }

    fn start(&mut self, job: Job, w: Worker) {
        let pos = self.pos.clone();
        let brain = self.brain.take();
        let hash_mb = self.hash_mb;
        let is_search = matches!(job, Job::Search { .. });
        let (id, out, done, finished) = (w.id, w.out.clone(), w.done.clone(), w.finished.clone());
        let handle = std::thread::Builder::new()
            .name("ply-worker".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let brain = match job {
                    Job::Perft(depth) => {
                        run_perft(&pos, depth, &w);
                        brain
                    }
                    Job::Search {
                        params,
                        overhead,
                        use_solver,
                    } => {
                        let mut b = brain.unwrap_or_else(|| Brain {
                            searcher: Searcher::new(hash_mb),
                            solver: None,
                        });
                        run_search(&mut b, &pos, &params, overhead, use_solver, &w);
                        Some(b)
                    }
                };
                let _ = w.done.send(Event::WorkerDone(w.id));
                brain
            });
        match handle {
            Ok(h) => self.worker = Some(h),
            Err(e) => {
                log::error!("cannot start a worker thread: {e}");
                // Nothing runs: answer at once so the client still gets its reply.
                out.line("info string error go: cannot start a worker thread");
                finished.store(true, Ordering::SeqCst);
                out.line(if is_search {
                    "bestmove (none)"
                } else {
                    "Nodes searched: 0"
                });
                let _ = done.send(Event::WorkerDone(id));
            }
        }
    }

    fn join(&mut self) {
        if let Some(h) = self.worker.take() {
            match h.join() {
                Ok(b) => {
                    if b.is_some() {
                        self.brain = b;
                    }
                }
                Err(_) => log::error!("the worker thread panicked; starting a fresh searcher"),
            }
        }
    }

    fn query(&self, q: &Query) -> String {
        let pos = &self.pos;
        let answer = match q {
            Query::GameOver => pos.outcome().is_some().to_string(),
            Query::Result => pos
                .outcome()
                .map_or("none", Outcome::protocol_name)
                .to_string(),
            Query::SideToMove => pos.side_to_move().protocol_name().to_string(),
            Query::P1Turn => (pos.side_to_move() == Player::First).to_string(),
            Query::LegalMoves => sorted_moves(pos)
                .into_iter()
                .map(|(s, _)| s)
                .collect::<Vec<_>>()
                .join(" "),
            Query::IsLegal(m) => pos.parse_move(m).is_ok().to_string(),
            Query::Fen => pos.fen(),
        };
        if answer.is_empty() {
            "response".to_string()
        } else {
            format!("response {answer}")
        }
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
                let moves: Vec<String> = sorted_moves(pos).into_iter().map(|(m, _)| m).collect();
                s.push_str(&format!("Legal moves: {}\n", moves.join(" ")));
            }
        }
        s
    }

    fn set_hash(&mut self, megabytes: usize) {
        self.hash_mb = megabytes;
        let brain = self.brain();
        brain.searcher.resize(megabytes);
        if let Some(s) = brain.solver.as_mut() {
            s.resize(megabytes);
        }
    }

    fn set_threads(&mut self, threads: usize) {
        self.threads = threads;
        if let Some(s) = self.brain().solver.as_mut() {
            s.set_threads(threads);
        }
    }

    fn set_book(&mut self, on: bool) {
        self.book = on;
        if let Some(s) = self.brain().solver.as_mut() {
            s.set_book(on);
        }
    }

    fn clear_hash(&mut self) {
        let brain = self.brain();
        brain.searcher.clear();
        if let Some(s) = brain.solver.as_mut() {
            s.clear();
        }
    }
}

/// The `info` line of a solver's answer (see `Solution::score_text` for its score).
fn solution_line<G: Game>(root: &G, sol: &Solution<G::Move>, time: Duration) -> String {
    let score = sol.score_text();
    let depth = (sol.pv.len() as u32).max(1);
    let nps = (sol.nodes as u128 * 1_000_000 / time.as_micros().max(1)) as u64;
    let mut s = format!(
        "info depth {depth} seldepth {depth} score {score} nodes {} nps {nps} time {}",
        sol.nodes,
        time.as_millis()
    );
    if sol.tbhits > 0 {
        s.push_str(&format!(" tbhits {}", sol.tbhits));
    }
    s.push_str(&pv_text(root, &sol.pv));
    s
}

/// How long the solver may search before the heuristic search takes over: half the move's
/// hard budget, or `share` of the clock when the solver asks for more there
/// ([`Solver::proof_share`]; at most 8/10 of the clock, as the hard budget, and never past a
/// `movetime`). `None` when time does not limit the move.
fn solver_time(limits: &Limits, share: f64) -> Option<Duration> {
    let (_, hard) = limits.budgets()?;
    let Some(clock) = limits.clock else {
        return Some(hard / 2);
    };
    let available = clock.time.saturating_sub(limits.overhead);
    let mut asked = available.mul_f64(share.clamp(0.0, 0.8));
    if limits.movetime.is_some() {
        asked = asked.min(hard);
    }
    Some((hard / 2).max(asked))
}

/// Limits left for the heuristic search after a solver spent `spent` of them.
fn remaining(mut limits: Limits, spent: Duration) -> Limits {
    limits.movetime = limits.movetime.map(|m| m.saturating_sub(spent));
    if let Some(c) = limits.clock.as_mut() {
        c.time = c.time.saturating_sub(spent);
    }
    limits
}

fn run_search<G: Game>(
    b: &mut Brain<G>,
    pos: &G,
    p: &GoParams,
    overhead: Duration,
    use_solver: bool,
    w: &Worker,
) {
    let start = std::time::Instant::now();
    let mut limits = limits_for(pos.side_to_move(), p, overhead);
    if let Some(o) = pos.outcome() {
        // The game is over: report its value at depth 0, and no move.
        let line = match o {
            Outcome::Draw => "info depth 0 score cp 0",
            Outcome::Win(p) if p == pos.side_to_move() => "info depth 0 score mate 0 wdl 1000 0 0",
            Outcome::Win(_) => "info depth 0 score mate 0",
        };
        w.out.line(line);
        w.last_line("bestmove (none)");
        return;
    }
    let mut best = None;
    if let (true, Some(solver)) = (use_solver, b.solver.as_mut()) {
        // The solver may use half of the time budget (the search gets the rest if it
        // gives up); without a clock, a fixed node budget keeps `go depth` deterministic.
        let budgets = limits.budgets();
        let budget = Budget {
            stop: &w.stop.flag,
            deadline: solver_time(&limits, solver.proof_share(pos)).map(|t| start + t),
            nodes: match (limits.nodes, budgets, limits.infinite, limits.depth) {
                (Some(n), _, _, _) => Some(n),
                (None, None, false, Some(_)) => Some(SOLVER_NODES_WITHOUT_CLOCK),
                _ => None,
            },
        };
        if let Some(sol) = solver.solve(pos, &budget) {
            w.out.line(&solution_line(pos, &sol, start.elapsed()));
            best = sol.best;
        }
        limits = remaining(limits, start.elapsed());
    }
    if best.is_none() {
        let result = b.searcher.search(pos, &limits, &w.stop.flag, &mut |info| {
            w.out.line(&info_line(pos, info))
        });
        best = result.best;
    }
    // With `infinite`, bestmove waits for `stop` (or `quit`, or the end of input) even when
    // the search has nothing left to do.
    if limits.infinite {
        w.stop.wait();
    }
    match best {
        Some(mv) => w.last_line(&format!("bestmove {}", pos.format_move(mv))),
        None => w.last_line("bestmove (none)"),
    }
}

fn run_perft<G: Game>(pos: &G, depth: u32, w: &Worker) {
    let mut total = 0u64;
    if depth == 0 {
        total = 1;
    } else {
        for (name, mv) in sorted_moves(pos) {
            if w.stop.is_set() {
                w.out.line("info string perft stopped");
                break;
            }
            let mut child = pos.clone();
            child.play(mv);
            let n = perft(&child, depth - 1);
            total += n;
            w.out.line(&format!("{name}: {n}"));
        }
    }
    w.last_line(&format!("Nodes searched: {total}"));
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
        // Never past 8/10 of the clock, whatever the solver asks.
        assert_eq!(solver_time(&l, 1.0), Some(Duration::from_millis(800)));
        // Move Overhead is off the clock first.
        let mut o = clock(1000, 10);
        o.overhead = Duration::from_millis(200);
        assert_eq!(solver_time(&o, 0.25), Some(Duration::from_millis(200)));
        // A movetime caps the move; no time limit, no deadline.
        let mut m = clock(1000, 10);
        m.movetime = Some(Duration::from_millis(100));
        assert_eq!(solver_time(&m, 0.25), Some(Duration::from_millis(100)));
        assert_eq!(solver_time(&Limits::depth(5), 0.25), None);
        let inf = Limits {
            infinite: true,
            ..clock(1000, 10)
        };
        assert_eq!(solver_time(&inf, 0.25), None);
    }
}
