//! The oracles a state answers: the exact value where ply has a solver (`solve`,
//! `move_values`) and the searcher's best move (`search`). Both go through the library's
//! non-printing APIs (`ply::solve::Solver`, `ply::search::Searcher`), never the protocol.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use ply::game::Game;
use ply::search::{self, Searcher};
use ply::solve::{Budget, Solver};
use ply::value::{MATE, Score, back_up, is_mate, terminal_value};

use crate::encode::Encoded;
use crate::state::{DEFAULT_TABLE_MB, Engine};

/// How long an oracle may think; `None` everywhere means no limit (a search then stops at
/// ply's deepest depth, a solver when it has proven the value).
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
}

/// A proven value from the side to move: `result` +1 a win, -1 a loss, 0 a draw; `plies`
/// to the end with best play (`None` for a draw, an upper bound when not `exact`).
#[derive(Clone, Debug)]
pub struct Proven {
    pub result: i32,
    pub plies: Option<u32>,
    pub exact: bool,
    /// The value-keeping move and its action; `None` once the game is over.
    pub best: Option<(String, usize)>,
    pub pv: Vec<String>,
    /// As the protocol writes it: `cp 0`, `mate 3`, `mate -2`.
    pub score: String,
}

#[derive(Clone, Debug)]
pub struct Searched {
    pub best: Option<(String, usize)>,
    pub score: String,
    /// In the searcher's scale (centi-units, or `MATE - n`), from the side to move.
    pub value: i32,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<String>,
}

/// Each legal move's text, action and value from the side to move.
pub type MoveValues = Vec<(String, usize, Proven)>;

/// The oracles of one state.
pub trait Oracle {
    /// The exact value of the position, `Ok(None)` when it was not proven within `limits`,
    /// `Err` when ply has no solver for this game (chess) or these rules.
    fn solve(&self, limits: &Limits) -> Result<Option<Proven>, String>;
    /// Every legal move with the exact value of the position it leads to, from the side to
    /// move here; `Ok(None)` when one of them was not proven within `limits`.
    fn move_values(&self, limits: &Limits) -> Result<Option<MoveValues>, String>;
    fn search(&self, limits: &Limits) -> Searched;
}

fn budget_of(limits: &Limits) -> (Option<Instant>, Option<u64>) {
    (limits.movetime.map(|t| Instant::now() + t), limits.nodes)
}

/// A value in the searcher's scale as a proven result.
fn proven<G: Encoded>(pos: &G, value: i32, exact: bool, pv: &[G::Move]) -> Proven {
    let plies = is_mate(value).then(|| (MATE - value.abs()) as u32);
    let mut texts = Vec::new();
    let mut p = pos.clone();
    for &m in pv {
        texts.push(p.format_move(m));
        p.play(m);
    }
    let best = pv.first().map(|&m| (pos.format_move(m), pos.action_of(m)));
    let score = Score::from_value(value);
    Proven {
        result: value.signum(),
        plies,
        exact,
        best,
        pv: texts,
        score: score.to_string(),
    }
}

impl<G: Encoded> Engine<G> {
    /// Runs `f` with this game's solver, made on first use; `Err` when there is none.
    fn with_solver<T>(&self, f: impl FnOnce(&mut dyn Solver<G>) -> T) -> Result<T, String> {
        let mut slot = self.shared.solver.lock().unwrap_or_else(|e| e.into_inner());
        let solver = slot.get_or_insert_with(|| G::solver(&self.shared.start, DEFAULT_TABLE_MB));
        match solver {
            Some(s) => Ok(f(s.as_mut())),
            None => Err(format!(
                "ply has no solver for {} {}",
                G::NAME,
                self.shared.start.params()
            )),
        }
    }

    /// The solver's value of `pos` (searcher's scale), whether it is exact, and its line.
    fn solve_pos(&self, pos: &G, limits: &Limits) -> Result<Option<Raw<G>>, String> {
        if let Some(o) = pos.outcome() {
            return Ok(Some((
                terminal_value(o, pos.side_to_move(), 0),
                true,
                Vec::new(),
            )));
        }
        let stop = AtomicBool::new(false);
        let (deadline, nodes) = budget_of(limits);
        let budget = Budget {
            stop: &stop,
            deadline,
            nodes,
        };
        self.with_solver(|s| {
            s.solve(pos, &budget)
                .map(|sol| (sol.value, sol.exact, sol.pv))
        })
    }
}

type Raw<G> = (i32, bool, Vec<<G as Game>::Move>);

impl<G: Encoded> Oracle for Engine<G> {
    fn solve(&self, limits: &Limits) -> Result<Option<Proven>, String> {
        let pos = self.pos();
        if let Some(o) = self.line.outcome() {
            let v = terminal_value(o, pos.side_to_move(), 0);
            return Ok(Some(proven(pos, v, true, &[])));
        }
        Ok(self
            .solve_pos(pos, limits)?
            .map(|(v, exact, pv)| proven(pos, v, exact, &pv)))
    }

    fn move_values(&self, limits: &Limits) -> Result<Option<MoveValues>, String> {
        // Fail early, even with no legal move, for a game without a solver.
        self.with_solver(|_| ())?;
        let pos = self.pos();
        let mut out = Vec::new();
        for mv in self.legal() {
            let mut child = pos.clone();
            child.play(mv);
            let Some((v, exact, line)) = self.solve_pos(&child, limits)? else {
                return Ok(None);
            };
            let pv: Vec<G::Move> = std::iter::once(mv).chain(line).collect();
            let p = proven(pos, back_up(v), exact, &pv);
            out.push((pos.format_move(mv), pos.action_of(mv), p));
        }
        Ok(Some(out))
    }

    fn search(&self, limits: &Limits) -> Searched {
        let pos = self.pos();
        if let Some(o) = self.line.outcome() {
            // A finished game (by the rules or by repetition) has no best move, as `go`
            // answers `bestmove (none)` (protocol.md, "Game end").
            let value = terminal_value(o, pos.side_to_move(), 0);
            return Searched {
                best: None,
                score: proven(pos, value, true, &[]).score,
                value,
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
            };
        }
        let mut slot = self
            .shared
            .searcher
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let searcher = slot.get_or_insert_with(|| Searcher::new(DEFAULT_TABLE_MB));
        let stop = AtomicBool::new(false);
        let l = search::Limits {
            depth: limits.depth,
            nodes: limits.nodes,
            movetime: limits.movetime,
            ..search::Limits::default()
        };
        let root = search::Root {
            pos: self.pos(),
            earlier: self.line.earlier(),
            moves: &[],
            lines: 1,
        };
        let r = searcher.search_root(&root, &l, &stop, &mut |_| {});
        let p = proven(pos, r.value, true, &r.pv);
        Searched {
            best: r.best.map(|m| (pos.format_move(m), pos.action_of(m))),
            score: p.score,
            value: r.value,
            depth: r.depth,
            nodes: r.nodes,
            pv: p.pv,
        }
    }
}
