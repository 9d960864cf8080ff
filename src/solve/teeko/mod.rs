//! Teeko solved strongly: every position's value with its distance, from a table built by
//! retrograde analysis ([`build`]) and kept in a file ([`table`]).
//!
//! - `ply solve teeko [--advanced]` builds a variant's table (both centre rules share it:
//!   the rule only restricts the very first drop) and prints what it found.
//! - In the engine, [`TeekoSolver`] answers from the table: the exact value (fastest win,
//!   slowest loss) and a move that keeps it. The table is read from its file on first use,
//!   by a thread of its own, which a `go` waits for within its time budget (a cold disk
//!   must not make it late); when the file is missing or damaged, that thread builds and
//!   saves it; a `go` with a time limit waits for the build within its solver's share, and
//!   otherwise the solver declines (the engine searches instead) until it is ready.
//!
//! One idea a module: the solver here; `provider` (finding, loading, repairing or
//! building the table for the engine), `lock` (one writer of a table file at a time),
//! `cli` (`ply solve teeko`), [`build`], [`table`], [`index`] and [`code`].
//!
//! Values are game-theoretic with unbounded play (no repetition or move-limit rule). Playing
//! the fastest win matters: a merely value-keeping move can cycle in a won position.

pub mod build;
mod cli;
pub mod code;
pub mod index;
mod provider;
pub mod table;

use std::sync::Arc;

use super::{Budget, Solution, Solvable, Solver};
use crate::game::Game;
use crate::games::Teeko;
use crate::games::teeko::{TeekoMove, rules};
pub use crate::solve::files::{BuildLock, release_held_locks};
use crate::value::{MATE, back_up, terminal_value};
pub use build::Progress;
pub use cli::{cli, summary};
pub use provider::Provider;
pub use table::{PhaseStats, Stats, Table, TableError};

/// Builds a variant's table in memory on `threads` threads.
pub fn build_table(
    advanced: bool,
    threads: usize,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Table, String> {
    let values =
        build::build(rules(advanced, true), threads, progress).map_err(|e| e.to_string())?;
    Ok(Table::from_values(advanced, values))
}

/// The best move of a position that is not over, by the table: the fastest win, the slowest
/// loss, or a drawing move; the first such in the game's move order. Returns the move, the
/// value (searcher's scale) and the number of table probes.
pub fn best_move(table: &Table, pos: &Teeko) -> Option<(TeekoMove, i32, u64)> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut best: Option<(TeekoMove, i32)> = None;
    let mut probes = 0;
    for mv in moves {
        let mut child = *pos;
        child.play(mv);
        let v = if child.outcome().is_some() {
            MATE - 1
        } else {
            probes += 1;
            back_up(table.value_of(&child))
        };
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((mv, v));
        }
    }
    best.map(|(m, v)| (m, v, probes))
}

/// Plies of principal variation reported with a solution.
const PV_PLIES: usize = 12;

/// The solution of a position from a table (exact, with a best move and a short PV).
pub fn solve_with(table: &Table, pos: &Teeko) -> Solution<TeekoMove> {
    if let Some(o) = pos.outcome() {
        return Solution {
            best: None,
            value: terminal_value(o, pos.side_to_move(), 0),
            exact: true,
            pv: Vec::new(),
            nodes: 0,
            tbhits: 0,
        };
    }
    let mut pv = Vec::new();
    let mut tbhits = 0;
    let mut value = 0;
    let mut p = *pos;
    while pv.len() < PV_PLIES {
        let Some((mv, v, probes)) = best_move(table, &p) else {
            break;
        };
        if pv.is_empty() {
            value = v;
        }
        tbhits += probes;
        pv.push(mv);
        p.play(mv);
    }
    Solution {
        best: pv.first().copied(),
        value,
        exact: true,
        pv,
        nodes: tbhits,
        tbhits,
    }
}

/// Where a solver's table comes from.
enum Source {
    Provider(Arc<Provider>),
    Fixed(Arc<Table>),
}

/// The Teeko solver: answers from the table of its variant, or declines while it is not
/// available. `tbhits` counts table probes (one per child position looked up).
pub struct TeekoSolver {
    advanced: bool,
    source: Source,
}

impl TeekoSolver {
    /// A solver using the process-wide table of the variant (see [`Provider`]).
    pub fn new(advanced: bool) -> TeekoSolver {
        Self::with_provider(Provider::shared(advanced), advanced)
    }

    pub fn with_provider(provider: Arc<Provider>, advanced: bool) -> TeekoSolver {
        TeekoSolver {
            advanced,
            source: Source::Provider(provider),
        }
    }

    /// A solver answering from a table already in memory.
    pub fn with_table(table: Arc<Table>) -> TeekoSolver {
        TeekoSolver {
            advanced: table.advanced,
            source: Source::Fixed(table),
        }
    }

    fn table(&self, budget: &Budget) -> Option<Arc<Table>> {
        match &self.source {
            Source::Fixed(t) => Some(t.clone()),
            Source::Provider(p) => p.get_within(budget),
        }
    }
}

impl Solver<Teeko> for TeekoSolver {
    fn solve(&mut self, pos: &Teeko, budget: &Budget) -> Option<Solution<TeekoMove>> {
        if pos.rules().advanced != self.advanced {
            return None;
        }
        let table = self.table(budget)?;
        Some(solve_with(&table, pos))
    }
}

impl Solvable for Teeko {
    fn solver(start: &Self, _table_mb: usize) -> Option<Box<dyn Solver<Self>>> {
        Some(Box::new(TeekoSolver::new(start.rules().advanced)))
    }

    const COMMAND: Option<crate::solve::SolveCommand> = Some(crate::solve::SolveCommand {
        usage: "[--advanced] ...",
        about: "build the Teeko tablebase",
        run: cli,
    });
}
