//! Perfect play where a game can be solved here: exact values and value-keeping moves.
//!
//! A [`Solver`] answers for one position with a proven value in the searcher's scale
//! (`value::MATE - n` for a win whose last move is `n` plies away, its negative for a loss,
//! 0 for a draw) and a move that keeps it: the fastest win, the slowest loss, or any drawing
//! move. It may decline (return `None`) when it cannot prove the value within its budget;
//! the engine then falls back to the heuristic search.

pub mod checkers;
pub mod connect4;
pub mod files;
pub mod nim;
pub mod teeko;
pub mod tictactoe;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::game::Game;
use crate::search::Oracle;
use crate::value::{BoundedScore, MATE, Score, ScoreBound};

/// How long a solver may work on one position.
pub struct Budget<'a> {
    /// Set by the protocol's `stop`; polled.
    pub stop: &'a AtomicBool,
    pub deadline: Option<Instant>,
    pub nodes: Option<u64>,
}

impl Budget<'_> {
    /// True when the solver should give up, having searched `nodes` so far.
    pub fn exhausted(&self, nodes: u64) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.nodes.is_some_and(|n| nodes >= n)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution<M> {
    /// A move that keeps the value; `None` only when the game is over.
    pub best: Option<M>,
    /// In the searcher's scale (see the module doc); exact when `exact` is set.
    pub value: i32,
    /// False when only the result is proven and `value` bounds the distance: the true value
    /// is at least `value` for a win and at most `value` for a loss (UCI `lowerbound` /
    /// `upperbound`). Draws are always exact.
    pub exact: bool,
    /// A line of value-keeping moves starting with `best` (may be just `best`).
    pub pv: Vec<M>,
    pub nodes: u64,
    /// Positions answered from a stored table (UCI `tbhits`).
    pub tbhits: u64,
}

impl<M> Solution<M> {
    /// The score as the protocol prints it: `cp 0`, `mate n`, or, when only the result is
    /// proven, the bound in mate form with `lowerbound` (a win at most this far away) or
    /// `upperbound` (a loss lasting at most this long).
    /// A bound may lie further away than [`crate::value::MAX_PLY`] (a long Nim game): it is
    /// written in moves all the same.
    pub fn score(&self) -> BoundedScore {
        if self.exact || self.value == 0 {
            return BoundedScore::exact(Score::from_value(self.value));
        }
        let moves = (MATE - self.value.abs() + 1) / 2;
        if self.value > 0 {
            BoundedScore {
                score: Score::Mate(moves),
                bound: ScoreBound::Lower,
            }
        } else {
            BoundedScore {
                score: Score::Mate(-moves),
                bound: ScoreBound::Upper,
            }
        }
    }
}

pub trait Solver<G: Game>: Send {
    /// The exact value of `pos` and a value-keeping move, or `None` when it cannot be proven
    /// within `budget`.
    fn solve(&mut self, pos: &G, budget: &Budget) -> Option<Solution<G::Move>>;

    /// Forgets cached results (`ucinewgame`).
    fn clear(&mut self) {}

    /// Gives the solver's own cache about `table_mb` MiB in all (in the engine, its share of
    /// the `Hash` option), forgetting what it holds. Solvers without a sized cache ignore it.
    fn resize(&mut self, _table_mb: usize) {}

    /// The most memory the solver's cache may take, in bytes, as sized by `resize` (or at
    /// construction); 0 for solvers without a sized cache.
    fn table_bytes(&self) -> usize {
        0
    }

    /// Lets the solver search with up to `threads` threads (the `Threads` option). Solvers
    /// that answer by lookup or formula ignore it.
    fn set_threads(&mut self, _threads: usize) {}

    /// Turns the solver's opening book on or off (the `UseBook` option). Solvers without one
    /// ignore it.
    fn set_book(&mut self, _on: bool) {}

    /// The share of the side's remaining clock the solver may spend on `pos` (0 to 1), where
    /// a proof is likely soon and pays for the rest of the game (every later position is then
    /// proven from the solver's table in no time). 0, the default, leaves the solver its
    /// usual part of the move's budget; the engine never gives it more than the move's hard
    /// limit allows the whole search.
    fn proof_share(&self, _pos: &G) -> f64 {
        0.0
    }

    /// Exact values for the heuristic search to take at its nodes (the checkers endgame
    /// databases), when the solver has them; `None` by default.
    fn oracle(&self) -> Option<Arc<dyn Oracle<G>>> {
        None
    }
}

/// The games the engine plays, with the solver of those that have one for (some of) their
/// rule variants. A game without a solver implements it with an empty body.
pub trait Solvable: Game {
    /// A solver for the rules `start` plays by, or `None` when none applies (the default). A
    /// solver that caches results in a table of its own sizes it at about `table_mb` MiB (the
    /// engine passes its `Hash` option, `ply analyse` its `--hash`).
    fn solver(_start: &Self, _table_mb: usize) -> Option<Box<dyn Solver<Self>>> {
        None
    }

    /// Whether the solver for the rules `start` plays by keeps a cache sized by `table_mb`
    /// (then the engine gives it a share of `Hash`, see `protocol.md`).
    fn solver_uses_hash(_start: &Self) -> bool {
        false
    }

    /// Pascal Pons' score of `pos` from its proven `value`, for a game that has one
    /// (Connect Four; `ply analyse` prints it beside ply's score), else `None` (the default).
    fn pons_score(_pos: &Self, _value: i32) -> Option<i32> {
        None
    }
}

/// Chess has no solver here (endgame tablebases would be one): the searcher plays it.
impl Solvable for crate::games::Chess {}

#[cfg(test)]
mod tests {
    use super::*;

    fn solution(value: i32, exact: bool) -> Solution<u8> {
        Solution {
            best: None,
            value,
            exact,
            pv: Vec::new(),
            nodes: 0,
            tbhits: 0,
        }
    }

    #[test]
    fn scores_of_exact_values_and_of_bounds() {
        assert_eq!(solution(MATE - 3, true).score().to_string(), "mate 2");
        assert_eq!(solution(0, false).score().to_string(), "cp 0");
        // Bounds are written in moves even beyond the searcher's mate range.
        assert_eq!(
            solution(MATE - 667, false).score().to_string(),
            "mate 334 lowerbound"
        );
        assert_eq!(
            solution(-(MATE - 10), false).score().to_string(),
            "mate -5 upperbound"
        );
    }
}
