//! Checkers endgame databases: the value of every position with up to N pieces, won, drawn
//! or lost with its distance to the end, built by retrograde analysis ([`build`], driven by
//! [`driver`]) into one file per material signature ([`index`], [`table`]).
//!
//! - `ply solve checkers --pieces N` builds them ([`cli`]), on every core, resumably.
//! - In the engine, [`CheckersSolver`] answers every position its databases hold, from
//!   whatever slices it finds in the tables directory (`PLY_TABLES`, see protocol.md): the
//!   fastest win, the slowest loss, or a drawing move. The engine never builds them itself:
//!   six pieces take a good part of an hour (docs/checkers.md).
//!
//! Values are game-theoretic with unbounded play, as Chinook's: neither the repetition rule
//! nor the no-progress rule is in them. Playing the fastest win never repeats a position; a
//! win whose line runs the no-progress count out is not one under the rule, so the solver
//! declines such a position (and one lost as slowly) and the search plays it.

pub mod build;
pub mod cli;
pub mod driver;
pub mod index;
pub mod table;
pub mod value;

use std::sync::{Arc, OnceLock};

use super::{Budget, Solution, Solvable, Solver};
use crate::game::{Game, Outcome};
use crate::games::Checkers;
use crate::games::checkers::Move;
use crate::search::Oracle;
pub use table::Tables;
pub use value::Value;

/// The process-wide tables, over the solvers' table directories (solve/files.rs).
pub fn shared_tables() -> Arc<Tables> {
    static SHARED: OnceLock<Arc<Tables>> = OnceLock::new();
    SHARED
        .get_or_init(|| Arc::new(Tables::lazy(crate::solve::files::search_dirs())))
        .clone()
}

/// The value of `pos` from the databases, when they hold it and the no-progress rule cannot
/// change it: the game ends before the count runs out even if no man moves. (A quick test
/// for every node of a search; [`solve_with`] checks the line that will be played instead.)
pub fn probe(tables: &Tables, pos: &Checkers) -> Option<Value> {
    let v = tables.probe(pos.board(), pos.side_to_move())?;
    let left = pos.limit_plies().saturating_sub(pos.quiet_plies()) as u32;
    match v {
        Value::Win(d) | Value::Loss(d) if pos.limit_plies() > 0 && d >= left => None,
        v => Some(v),
    }
}

/// The best move of a position the databases hold: the fastest win, the slowest loss, or a
/// drawing move (the one the evaluation likes best, for an opponent that may still err),
/// with its value and the number of probes. `None` when a child is missing or the game is
/// over.
pub fn best_move(tables: &Tables, pos: &Checkers) -> Option<(Move, Value, u64)> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut best: Option<(Move, Value, i64)> = None;
    let mut probes = 0;
    for mv in moves {
        let mut child = *pos;
        child.play(mv);
        probes += 1;
        let v = tables.probe(child.board(), child.side_to_move())?.back();
        let tie = if v == Value::Draw {
            -child.evaluate() as i64
        } else {
            0
        };
        let key = v.preference() * 100_000 + tie;
        if best.is_none_or(|(_, _, b)| key > b) {
            best = Some((mv, v, key));
        }
    }
    best.map(|(m, v, _)| (m, v, probes))
}

/// Plies of principal variation reported with a solution.
const PV_PLIES: usize = 16;

/// The line both sides play by the databases from `pos`, to the end of the game (at most
/// `plies` long when it does not end: a draw), with the number of probes; `None` when a
/// position on it is not held.
fn line(tables: &Tables, pos: &Checkers, plies: usize) -> Option<(Vec<Move>, Checkers, u64)> {
    let mut moves = Vec::new();
    let mut probes = 0;
    let mut p = *pos;
    while moves.len() < plies && p.outcome().is_none() {
        let (mv, _, n) = best_move(tables, &p)?;
        probes += n;
        moves.push(mv);
        p.play(mv);
    }
    Some((moves, p, probes))
}

/// The solution of a position the databases hold, or `None`. A win or a loss is given only
/// when the line both sides play by the databases reaches its end under the game's
/// no-progress rule (the databases do not know the rule: a long king manoeuvre could run
/// the count out); otherwise the search plays the position.
pub fn solve_with(tables: &Tables, pos: &Checkers) -> Option<Solution<Move>> {
    if pos.outcome().is_some() {
        return None;
    }
    let value = tables.probe(pos.board(), pos.side_to_move())?;
    let (pv, probes) = match value {
        Value::Draw => {
            let (pv, _, probes) = line(tables, pos, PV_PLIES)?;
            (pv, probes)
        }
        Value::Win(d) | Value::Loss(d) => {
            let (pv, end, probes) = line(tables, pos, d as usize + 1)?;
            let winner = match value {
                Value::Win(_) => pos.side_to_move(),
                _ => pos.side_to_move().other(),
            };
            if end.outcome() != Some(Outcome::Win(winner)) {
                return None;
            }
            (pv, probes)
        }
    };
    let tbhits = probes + 1;
    let best = *pv.first()?;
    Some(Solution {
        best: Some(best),
        value: value.score(),
        exact: true,
        pv: pv.into_iter().take(PV_PLIES).collect(),
        nodes: tbhits,
        tbhits,
    })
}

/// The checkers solver: answers from the databases, or declines.
pub struct CheckersSolver {
    tables: Arc<Tables>,
}

impl CheckersSolver {
    pub fn new(tables: Arc<Tables>) -> CheckersSolver {
        CheckersSolver { tables }
    }
}

impl Solver<Checkers> for CheckersSolver {
    fn solve(&mut self, pos: &Checkers, _budget: &Budget) -> Option<Solution<Move>> {
        solve_with(&self.tables, pos)
    }

    fn oracle(&self) -> Option<Arc<dyn Oracle<Checkers>>> {
        Some(Arc::new(DatabaseOracle(self.tables.clone())))
    }
}

/// The databases inside the search: the value of every position they hold that the
/// no-progress rule cannot change ([`probe`]).
struct DatabaseOracle(Arc<Tables>);

impl Oracle<Checkers> for DatabaseOracle {
    fn value(&self, pos: &Checkers) -> Option<i32> {
        probe(&self.0, pos).map(Value::score)
    }
}

impl Solvable for Checkers {
    fn solver(_start: &Self, _table_mb: usize) -> Option<Box<dyn Solver<Self>>> {
        Some(Box::new(CheckersSolver::new(shared_tables())))
    }

    const COMMAND: Option<crate::solve::SolveCommand> = Some(crate::solve::SolveCommand {
        usage: "--pieces N ...",
        about: "build the checkers endgame databases",
        run: cli::cli,
    });
}
