//! One game's protocol session: the current position, the searcher, and the worker thread
//! that runs `go` (a search or a perft) while the engine loop keeps reading commands.
//!
//! [`GameSession`] is the object-safe face the engine loop holds; [`Session<G>`] implements it
//! for each game, so everything under it is monomorphised per game.

use std::sync::Arc;
use std::sync::mpsc::Sender;
use std::thread::JoinHandle;
use std::time::Duration;

use super::command::{GoParams, PositionStart, Query, Token};
use super::{Event, Output, StopSignal};
use crate::game::{Game, Outcome, Params, Player, perft};
use crate::search::{Clock, Info, Limits, Score, Searcher};

/// What the loop hands a worker: where to write, when to stop, whom to tell when done.
pub struct Worker {
    pub out: Output,
    pub stop: Arc<StopSignal>,
    pub done: Sender<Event>,
}

pub enum Job {
    Search {
        params: GoParams,
        overhead: Duration,
    },
    Perft(u32),
}

pub trait GameSession: Send {
    fn name(&self) -> &'static str;
    /// The game with its parameters, as `newgame` would take them.
    fn describe(&self) -> String;
    /// Back to the start position, forgetting what the searcher learnt (`ucinewgame`).
    fn reset(&mut self);
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
}

pub struct Session<G: Game> {
    start: G,
    pos: G,
    hash_mb: usize,
    searcher: Option<Searcher<G>>,
    worker: Option<JoinHandle<Option<Searcher<G>>>>,
}

impl<G: Game> Session<G> {
    pub fn new(params: &Params, hash_mb: usize) -> Result<Session<G>, String> {
        let start = G::new(params).map_err(|e| e.to_string())?;
        Ok(Session {
            pos: start.clone(),
            start,
            hash_mb,
            searcher: Some(Searcher::new(hash_mb)),
            worker: None,
        })
    }

    fn searcher(&mut self) -> &mut Searcher<G> {
        self.join();
        self.searcher
            .get_or_insert_with(|| Searcher::new(self.hash_mb))
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
    if !info.pv.is_empty() {
        s.push_str(" pv");
        let mut p = root.clone();
        for &mv in &info.pv {
            s.push(' ');
            s.push_str(&p.format_move(mv));
            p.play(mv);
        }
    }
    s
}

impl<G: Game> GameSession for Session<G> {
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

    fn reset(&mut self) {
        self.pos = self.start.clone();
        self.searcher().clear();
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
        self.join();
        let pos = self.pos.clone();
        let searcher = self.searcher.take();
        let is_search = matches!(job, Job::Search { .. });
        let (out, done) = (w.out.clone(), w.done.clone());
        let handle = std::thread::Builder::new()
            .name("ply-worker".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let searcher = match job {
                    Job::Perft(depth) => {
                        run_perft(&pos, depth, &w);
                        searcher
                    }
                    Job::Search { params, overhead } => {
                        let mut s = searcher.unwrap_or_else(|| Searcher::new(16));
                        run_search(&mut s, &pos, &params, overhead, &w);
                        Some(s)
                    }
                };
                let _ = w.done.send(Event::WorkerDone);
                searcher
            });
        match handle {
            Ok(h) => self.worker = Some(h),
            Err(e) => {
                log::error!("cannot start a worker thread: {e}");
                // Nothing runs: answer at once so the client still gets its reply.
                out.line("info string error go: cannot start a worker thread");
                out.line(if is_search {
                    "bestmove (none)"
                } else {
                    "Nodes searched: 0"
                });
                let _ = done.send(Event::WorkerDone);
            }
        }
    }

    fn join(&mut self) {
        if let Some(h) = self.worker.take() {
            match h.join() {
                Ok(s) => {
                    if s.is_some() {
                        self.searcher = s;
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
        self.searcher().resize(megabytes);
    }

    fn clear_hash(&mut self) {
        self.searcher().clear();
    }
}

fn run_search<G: Game>(s: &mut Searcher<G>, pos: &G, p: &GoParams, overhead: Duration, w: &Worker) {
    let limits = limits_for(pos.side_to_move(), p, overhead);
    if let Some(o) = pos.outcome() {
        // The game is over: report its value at depth 0, and no move.
        let line = match o {
            Outcome::Draw => "info depth 0 score cp 0",
            Outcome::Win(p) if p == pos.side_to_move() => "info depth 0 score mate 0 wdl 1000 0 0",
            Outcome::Win(_) => "info depth 0 score mate 0",
        };
        w.out.line(line);
        w.out.line("bestmove (none)");
        return;
    }
    let result = s.search(pos, &limits, &w.stop.flag, &mut |info| {
        w.out.line(&info_line(pos, info))
    });
    // With `infinite`, bestmove waits for `stop` (or `quit`, or the end of input) even when
    // the search has nothing left to do.
    if limits.infinite {
        w.stop.wait();
    }
    match result.best {
        Some(mv) => w.out.line(&format!("bestmove {}", pos.format_move(mv))),
        None => w.out.line("bestmove (none)"),
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
    w.out.line(&format!("Nodes searched: {total}"));
}
