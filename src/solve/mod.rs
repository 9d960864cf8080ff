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

/// For a process about to exit: leaves nothing of the solvers' unfinished work behind (the
/// lock and temporary files of a table build under way, Teeko's or the checkers databases';
/// see [`files::release_held_locks`]). The binary calls it as it exits, since a background
/// build thread never gets to clean up after itself then.
pub fn at_exit() {
    files::release_held_locks();
}

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
    ///
    /// A solver's value is always a proven result, so any value but 0 is a win or a loss,
    /// written in moves however far away it lies: beyond [`crate::value::MAX_PLY`] plies (a
    /// long Nim game, solved in closed form) too, where [`Score::from_value`], made for the
    /// searcher's values, would read a heuristic value.
    pub fn score(&self) -> BoundedScore {
        if self.value == 0 {
            return BoundedScore::exact(Score::Cp(0));
        }
        // As Score::from_value counts them: a win's moves include its last; a loss n plies
        // away is n/2 moves, rounded up when the loser makes the last move (misère Nim).
        let moves = (MATE - self.value.abs() + 1) / 2;
        let (score, bound) = if self.value > 0 {
            (Score::Mate(moves), ScoreBound::Lower)
        } else {
            (Score::Mate(-moves), ScoreBound::Upper)
        };
        BoundedScore {
            score,
            bound: if self.exact { ScoreBound::Exact } else { bound },
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

    /// The game's `ply solve <game>` command, if it has one (the default: none).
    const COMMAND: Option<SolveCommand> = None;
}

/// A game's `ply solve <game>` command: `ply solve` lists and dispatches them from the
/// registry ([`commands`]), so a new game's command is this one declaration.
#[derive(Clone, Copy)]
pub struct SolveCommand {
    /// Its arguments after the game's name, as the overview shows them (`[--advanced] ...`).
    pub usage: &'static str,
    /// What it does, in a few words.
    pub about: &'static str,
    /// Runs it with the arguments after the game's name (`--help` describes them).
    pub run: fn(&[String]) -> Result<(), String>,
}

/// A `ply solve` command's arguments, parsed by clap as `command` (`ply solve teeko`):
/// `Ok(None)` when they asked for help or the version (printed on stdout: the command has
/// nothing more to do), the error's text when they are wrong.
pub fn parse_args<A: clap::Parser>(command: &str, args: &[String]) -> Result<Option<A>, String> {
    let argv = std::iter::once(command.to_string()).chain(args.iter().cloned());
    match A::try_parse_from(argv) {
        Ok(a) => Ok(Some(a)),
        Err(e) if e.use_stderr() => Err(e.to_string()),
        Err(e) => {
            let _ = e.print();
            Ok(None)
        }
    }
}

/// Every registered game's `ply solve` command, in the registry's order.
pub fn commands() -> Vec<(&'static str, SolveCommand)> {
    crate::games::NAMES
        .iter()
        .filter_map(|&name| Some((name, command(name)?)))
        .collect()
}

/// Game `name`'s `ply solve` command; `None` for a game without one or a name not registered.
pub fn command(name: &str) -> Option<SolveCommand> {
    crate::with_game!(name, G => <G as Solvable>::COMMAND, _ => None)
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
        // Exact values beyond the searcher's mate range, as long Nim games have them: a win
        // 257 plies away, losses 500 and 501 plies away (the loser moving last in the second).
        assert_eq!(solution(MATE - 257, true).score().to_string(), "mate 129");
        assert_eq!(
            solution(-(MATE - 500), true).score().to_string(),
            "mate -250"
        );
        assert_eq!(
            solution(-(MATE - 501), true).score().to_string(),
            "mate -251"
        );
        for v in [MATE - 1, MATE - 2, -(MATE - 2), -(MATE - 3), MATE - 255] {
            assert_eq!(
                solution(v, true).score(),
                BoundedScore::exact(Score::from_value(v)),
                "{v}"
            );
        }
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
