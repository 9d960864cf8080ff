//! Connect Four solved exactly: Pons' score (defined below) of any position, by alpha-beta
//! search over bitboards with a transposition table, and moves that keep it.
//!
//! The score of a position for the side to move, on a `W`×`H` board with `T = (W*H + 1)/2 + 1`:
//! 0 for a draw; `T - k` when the side to move can force a win completed by its own `k`-th
//! disc; `-(T - k)` when the opponent can force a win completed by its `k`-th disc. On 7×6,
//! `T = 22`, and the start position scores +1: the first player wins with its last disc.
//!
//! Sizes: the search is compiled for every board with `4 <= W <= 8`, `4 <= H <= 7` and
//! `W * (H + 1) <= 56` (the table's exact tags need the key to fit 56 bits); other sizes are
//! declined ([`Connect4Solver::new`] and [`Solvable::solver`] return `None`).
//!
//! Memory: one table per solver, [`DEFAULT_TABLE_MB`] MiB unless told otherwise
//! ([`Connect4Solver::with_table_mb`], `ply solve connect4 --table-mb`), plus a near region
//! per thread. Its memory is zeroed pages that the operating system supplies as solves first
//! write them (so a large table costs nothing until used).

mod board;
pub mod book;
mod book_build;
mod cli;
mod search;
mod table;

pub use cli::cli;

use crate::game::{Game, Outcome};
use crate::games::Connect4;
use crate::solve::{Budget, Solution, Solvable, Solver};
use crate::value::MATE;
use board::Geo;
use search::{Control, Worker};
use table::Table;

/// The table size a solver gets unless told otherwise, in MiB.
pub const DEFAULT_TABLE_MB: usize = 512;

/// A solve from a position with `e` empty cells starts with `2^(e - TABLE_BITS_BELOW_EMPTY)`
/// buckets of the table (at least the minimum, at most all), and grows the prefix as its
/// probes show the tree's size (see `search::grow_for`).
const TABLE_BITS_BELOW_EMPTY: u32 = 22;

/// Calls `$f::<W, H>($args)` for the board size `($w, $h)`, as `Some(..)`, or gives `None`
/// for a size the solver is not compiled for.
macro_rules! dispatch {
    ($w:expr, $h:expr, $f:ident ( $($arg:expr),* )) => {
        match ($w, $h) {
            (7, 6) => Some($f::<7, 6>($($arg),*)),
            (4, 4) => Some($f::<4, 4>($($arg),*)),
            (4, 5) => Some($f::<4, 5>($($arg),*)),
            (4, 6) => Some($f::<4, 6>($($arg),*)),
            (4, 7) => Some($f::<4, 7>($($arg),*)),
            (5, 4) => Some($f::<5, 4>($($arg),*)),
            (5, 5) => Some($f::<5, 5>($($arg),*)),
            (5, 6) => Some($f::<5, 6>($($arg),*)),
            (5, 7) => Some($f::<5, 7>($($arg),*)),
            (6, 4) => Some($f::<6, 4>($($arg),*)),
            (6, 5) => Some($f::<6, 5>($($arg),*)),
            (6, 6) => Some($f::<6, 6>($($arg),*)),
            (6, 7) => Some($f::<6, 7>($($arg),*)),
            (7, 4) => Some($f::<7, 4>($($arg),*)),
            (7, 5) => Some($f::<7, 5>($($arg),*)),
            (7, 7) => Some($f::<7, 7>($($arg),*)),
            (8, 4) => Some($f::<8, 4>($($arg),*)),
            (8, 5) => Some($f::<8, 5>($($arg),*)),
            (8, 6) => Some($f::<8, 6>($($arg),*)),
            _ => None,
        }
    };
}

/// Whether the solver is compiled for a `width`×`height` board.
pub fn supports(width: u32, height: u32) -> bool {
    fn yes<const W: usize, const H: usize>() {}
    dispatch!(width, height, yes()).is_some()
}

/// The Pons score with the number of nodes it took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scored {
    pub score: i32,
    pub nodes: u64,
}

/// An exact Connect Four solver for one board size, with its own transposition table.
pub struct Connect4Solver {
    width: u32,
    height: u32,
    table: Table,
    threads: usize,
    /// Answer from the opening book ([`book`]) where it has the position.
    book: bool,
}

impl Connect4Solver {
    /// A solver for the board `start` is played on, with the default table and one thread;
    /// `None` for a size it does not support.
    pub fn new(start: &Connect4) -> Option<Connect4Solver> {
        Self::with_table_mb(start, DEFAULT_TABLE_MB)
    }

    /// As [`Connect4Solver::new`], with a table of about `mb` MiB (at least the minimum the
    /// board's key size needs: a few MiB at most on 7×6).
    pub fn with_table_mb(start: &Connect4, mb: usize) -> Option<Connect4Solver> {
        let r = start.rules();
        if !supports(r.width, r.height) {
            return None;
        }
        Some(Connect4Solver {
            width: r.width,
            height: r.height,
            table: Table::new(r.width * (r.height + 1), mb),
            threads: 1,
            book: true,
        })
    }

    /// Reallocates the table at about `mb` MiB (forgetting everything).
    pub fn resize(&mut self, mb: usize) {
        self.table = Table::new(self.width * (self.height + 1), mb);
        self.table.add_near_regions(self.threads);
    }

    /// Bytes of the table.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Backs the whole table now and zeroes it in place from then on (see
    /// [`Table::back_all_now`]): the benchmark protocol, before the first timed solve. Call it
    /// before solving: it may forget stored results.
    pub fn back_table_now(&mut self) {
        self.table.back_all_now();
    }

    /// Forgets every stored result (O(1)).
    pub fn reset(&mut self) {
        self.table.reset();
    }

    /// Search threads per solve (at least 1).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
        self.table.add_near_regions(self.threads);
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Whether [`Solver::solve`] answers from the opening book where it can (on by default;
    /// [`Connect4Solver::score`] always searches).
    pub fn set_book(&mut self, on: bool) {
        self.book = on;
    }

    fn check_size(&self, pos: &Connect4) {
        let r = pos.rules();
        assert!(
            (r.width, r.height) == (self.width, self.height),
            "a {}x{} solver given a {}x{} position",
            self.width,
            self.height,
            r.width,
            r.height
        );
    }

    /// The exact score of `pos` (see the module doc), without limits. Finished games score
    /// too: 0 for a full board, and for a four on the board the loss it means for the side
    /// to move (`-(T - k)`, `k` the winner's discs).
    pub fn score(&mut self, pos: &Connect4) -> Scored {
        let stop = std::sync::atomic::AtomicBool::new(false);
        let budget = Budget {
            stop: &stop,
            deadline: None,
            nodes: None,
        };
        self.score_within(pos, &budget)
            .expect("an unlimited budget never runs out")
    }

    /// [`Connect4Solver::score`] within `budget`; `None` when it runs out first.
    pub fn score_within(&mut self, pos: &Connect4, budget: &Budget) -> Option<Scored> {
        self.check_size(pos);
        if let Some(s) = finished_score(pos) {
            return Some(Scored { score: s, nodes: 0 });
        }
        let (cur, mask, moves) = (pos.current(), pos.mask(), pos.moves_played());
        // Small solves use a prefix of the table that stays in the caches.
        let empty = self.width * self.height - moves;
        // A solve with limits uses what of the table is backed (see table::Warmer), not to
        // pay page faults on its clock; one without uses all of it.
        if budget.deadline.is_none() && budget.nodes.is_none() {
            self.table.use_all();
        }
        self.table
            .begin_solve(empty.saturating_sub(TABLE_BITS_BELOW_EMPTY));
        let (table, threads) = (&self.table, self.threads);
        dispatch!(
            self.width,
            self.height,
            score_generic(table, budget, cur, mask, moves, threads)
        )
        .expect("the size was checked at construction")
    }

    /// A move of `pos` that keeps its exact score `score` (as [`Connect4Solver::score`] gave
    /// it): the fastest win, the slowest loss, or a drawing move. The move the table holds for
    /// `pos` is tried first (after a solve of `pos`, usually the move that proved its score,
    /// so checking it is a search of a few nodes), then the others in centre-first order.
    /// `None` when the game is over or the budget runs out.
    pub fn best_move(&mut self, pos: &Connect4, score: i32, budget: &Budget) -> Option<(u8, u64)> {
        self.check_size(pos);
        if pos.outcome().is_some() {
            return None;
        }
        let mut cols = Vec::new();
        pos.legal_moves(&mut cols);
        let table = &self.table;
        let (cur, mask, moves) = (pos.current(), pos.mask(), pos.moves_played());
        dispatch!(
            self.width,
            self.height,
            best_move_generic(table, budget, cur, mask, moves, score, &cols)
        )
        .expect("the size was checked at construction")
    }
}

/// The score of a finished game, `None` while it goes on.
fn finished_score(pos: &Connect4) -> Option<i32> {
    let cells = (pos.rules().width * pos.rules().height) as i32;
    match pos.outcome()? {
        Outcome::Draw => Some(0),
        Outcome::Win(_) => {
            // The player who just moved completed four with its k-th disc.
            let k = (pos.moves_played() as i32 + 1) / 2;
            Some(-((cells + 1) / 2 + 1 - k))
        }
    }
}

fn score_generic<const W: usize, const H: usize>(
    table: &Table,
    budget: &Budget,
    cur: u64,
    mask: u64,
    moves: u32,
    threads: usize,
) -> Option<Scored> {
    let (score, nodes) = search::solve::<W, H>(table, budget, cur, mask, moves, threads)?;
    Some(Scored { score, nodes })
}

fn best_move_generic<const W: usize, const H: usize>(
    table: &Table,
    budget: &Budget,
    cur: u64,
    mask: u64,
    moves: u32,
    score: i32,
    cols: &[u8],
) -> Option<(u8, u64)> {
    type G<const W: usize, const H: usize> = Geo<W, H>;
    let ctl = Control::new(budget, false);
    let mut w = Worker::<W, H>::new(table, &ctl, 0);
    let possible = G::<W, H>::possible(mask);
    let wins = possible & G::<W, H>::winning_cells(cur, mask);
    let stored = w.stored_move(cur, mask, moves);
    let first = cols.iter().filter(|&&c| Some(c as usize) == stored);
    for &c in first.chain(cols.iter().filter(|&&c| Some(c as usize) != stored)) {
        let bit = possible & G::<W, H>::column_mask(c as usize);
        if wins & bit != 0 {
            if score == G::<W, H>::win_now(moves) {
                return Some((c, w.nodes));
            }
            continue;
        }
        // The child, from the opponent's side: its score must be at most -score.
        let (ccur, cmask) = (cur ^ mask, mask | bit);
        let cpossible = G::<W, H>::possible(cmask);
        let child = if cpossible & G::<W, H>::winning_cells(ccur, cmask) != 0 {
            G::<W, H>::win_now(moves + 1)
        } else if moves + 1 == G::<W, H>::CELLS as u32 {
            0
        } else {
            let child = search::Position {
                cur: ccur,
                mask: cmask,
                moves: moves + 1,
                opp_win: G::<W, H>::winning_cells(cur | bit, cmask),
            };
            let v = w.negamax(&child, -score, -score + 1);
            if w.aborted {
                return None;
            }
            v
        };
        if child <= -score {
            return Some((c, w.nodes));
        }
    }
    unreachable!("no move keeps the exact score {score}: the score was wrong")
}

/// The searcher's value (`crate::search` scale) of Pons score `score` for the side to move in
/// a position with `moves` discs on a board of `cells` cells: a win completed by the side to
/// move's `k`-th disc is `2 * (k - moves/2) - 1` plies away, a loss to the opponent's `k`-th
/// disc `2 * (k - (moves+1)/2)` plies away.
pub fn value_from_score(score: i32, moves: u32, cells: u32) -> i32 {
    let top = (cells as i32 + 1) / 2 + 1;
    let m = moves as i32;
    if score > 0 {
        MATE - (2 * ((top - score) - m / 2) - 1)
    } else if score < 0 {
        -(MATE - 2 * ((top + score) - (m + 1) / 2))
    } else {
        0
    }
}

impl Solver<Connect4> for Connect4Solver {
    fn solve(&mut self, pos: &Connect4, budget: &Budget) -> Option<Solution<u8>> {
        let cells = pos.rules().width * pos.rules().height;
        if let Some(m) = self
            .book
            .then(|| book::Book::builtin().lookup(pos))
            .flatten()
        {
            return Some(Solution {
                best: Some(m.column),
                value: value_from_score(m.score, pos.moves_played(), cells),
                exact: true,
                pv: vec![m.column],
                nodes: 0,
                tbhits: 1,
            });
        }
        let scored = self.score_within(pos, budget)?;
        let value = value_from_score(scored.score, pos.moves_played(), cells);
        if pos.outcome().is_some() {
            return Some(Solution {
                best: None,
                value,
                exact: true,
                pv: Vec::new(),
                nodes: 0,
                tbhits: 0,
            });
        }
        let (best, nodes) = self.best_move(pos, scored.score, budget)?;
        Some(Solution {
            best: Some(best),
            value,
            exact: true,
            pv: vec![best],
            nodes: scored.nodes + nodes,
            tbhits: 0,
        })
    }

    fn clear(&mut self) {
        self.reset();
    }

    /// `table_mb` covers the per-thread near regions too (in the engine it is the solver's
    /// share of `Hash`): the main table gets what they leave.
    fn resize(&mut self, table_mb: usize) {
        let near = self.table.near_region_bytes() * self.threads;
        let main_mb = (table_mb.saturating_mul(1 << 20)).saturating_sub(near) >> 20;
        Connect4Solver::resize(self, main_mb);
    }

    fn table_bytes(&self) -> usize {
        self.table.bytes() + self.table.near_bytes()
    }

    fn set_threads(&mut self, threads: usize) {
        Connect4Solver::set_threads(self, threads);
    }

    fn set_book(&mut self, on: bool) {
        Connect4Solver::set_book(self, on);
    }

    /// A quarter of the clock from the first position the opening book may not hold (past
    /// its full coverage, 7×6, book on) to eight plies past its deepest line: there most
    /// positions are proven in milliseconds but a few take seconds (docs/connect4.md, the
    /// opening book), and once one is proven the rest of the game is.
    fn proof_share(&self, pos: &Connect4) -> f64 {
        let r = pos.rules();
        let book = book::Book::builtin();
        let discs = pos.moves_played();
        if self.book
            && (r.width, r.height) == (7, 6)
            && discs > book.full
            && discs <= book.depth + PROOF_PLIES
        {
            PROOF_SHARE
        } else {
            0.0
        }
    }
}

/// How many plies past the book, and what share of its clock, the engine gives the solver
/// ([`Solver::proof_share`]).
const PROOF_PLIES: u32 = 8;
const PROOF_SHARE: f64 = 0.25;

/// Pons' score of a Connect Four position from a proven value: the winner completes its
/// four with its k-th disc; the score is `(W*H + 1) / 2 + 1 - k`, negative when the side to
/// move is the loser, 0 for a draw.
pub fn pons_score_of(width: u32, height: u32, discs: u32, value: i32) -> i32 {
    let top = ((width * height).div_ceil(2) + 1) as i32;
    let plies = MATE - value.abs();
    if value == 0 {
        0
    } else if value > 0 {
        // The side to move has played discs / 2 and plays (plies + 1) / 2 more.
        top - ((discs / 2) as i32 + (plies + 1) / 2)
    } else {
        -(top - (discs.div_ceil(2) as i32 + plies / 2))
    }
}

impl Solvable for Connect4 {
    /// The exact solver with a `table_mb` MiB table and one thread, for the sizes it supports.
    fn solver(start: &Self, table_mb: usize) -> Option<Box<dyn Solver<Self>>> {
        Connect4Solver::with_table_mb(start, table_mb).map(|s| Box::new(s) as Box<dyn Solver<Self>>)
    }

    fn solver_uses_hash(start: &Self) -> bool {
        supports(start.rules().width, start.rules().height)
    }

    const COMMAND: Option<crate::solve::SolveCommand> = Some(crate::solve::SolveCommand {
        usage: "[FILE] ...",
        about: "score Connect Four positions exactly",
        run: cli,
    });

    fn pons_score(pos: &Self, value: i32) -> Option<i32> {
        let rules = pos.rules();
        Some(pons_score_of(
            rules.width,
            rules.height,
            pos.moves_played(),
            value,
        ))
    }
}

/// CPU time used by this process so far, in seconds (all threads): the benchmarks report it
/// beside wall time, which on a shared machine also counts time spent descheduled.
pub fn cpu_seconds() -> f64 {
    #[cfg(unix)]
    {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `t` is a valid timespec to write to.
        if unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) } == 0 {
            return t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9;
        }
    }
    0.0
}
