//! The exact search: fail-soft negamax alpha-beta on Pons scores, driven by null-window
//! probes at the root.
//!
//! Contract of [`Worker::negamax`]: called on a position where the game is not over and the
//! side to move cannot complete four with its next disc, with `alpha < beta`. It returns `v`
//! with `v <= alpha` meaning "the score is at most `v`", `v >= beta` meaning "at least `v`",
//! and anything in between being the exact score. `opp_win` is the opponent's winning cells
//! (see [`Geo::winning_cells`]), which the caller has already computed.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::board::Geo;
use super::table::Table;
use crate::solve::Budget;

/// Nodes between two looks at the budget.
const POLL_NODES: u64 = 1 << 12;

/// What all threads of one solve share: the budget and a flag to stop them all.
pub struct Control<'a> {
    pub budget: &'a Budget<'a>,
    /// Nodes of all threads, as last reported by each (updated every `POLL_NODES`).
    pub nodes: AtomicU64,
    /// Set when the budget ran out (or another thread has finished): every worker unwinds.
    pub stop: AtomicBool,
}

impl<'a> Control<'a> {
    pub fn new(budget: &'a Budget<'a>) -> Control<'a> {
        Control {
            budget,
            nodes: AtomicU64::new(0),
            stop: AtomicBool::new(false),
        }
    }
}

/// One search thread's state.
pub struct Worker<'a, const W: usize, const H: usize> {
    table: &'a Table,
    ctl: &'a Control<'a>,
    /// Nodes (calls of `negamax`) so far.
    pub nodes: u64,
    reported: u64,
    next_poll: u64,
    /// Set once the budget ran out: every frame returns at once without storing anything.
    pub aborted: bool,
}

/// A move with the facts the parent computed about it.
#[derive(Clone, Copy, Default)]
struct Child {
    /// The disc's cell.
    bit: u64,
    /// Cells where the mover completes four after this move (the child's `opp_win`).
    threats: u64,
    /// The child's canonical table key and whether it is its mirror's (see `canonical`).
    key: u64,
    mirrored: bool,
    /// Ordering priority, higher first.
    rank: i32,
}

impl<'a, const W: usize, const H: usize> Worker<'a, W, H> {
    pub fn new(table: &'a Table, ctl: &'a Control<'a>) -> Self {
        Worker {
            table,
            ctl,
            nodes: 0,
            reported: 0,
            next_poll: POLL_NODES,
            aborted: false,
        }
    }

    /// Looks at the budget; true (and `aborted` set) when the search must stop.
    #[cold]
    fn poll(&mut self) -> bool {
        self.next_poll = self.nodes + POLL_NODES;
        let total = self
            .ctl
            .nodes
            .fetch_add(self.nodes - self.reported, Ordering::Relaxed)
            + self.nodes
            - self.reported;
        self.reported = self.nodes;
        if self.ctl.stop.load(Ordering::Relaxed) || self.ctl.budget.exhausted(total) {
            self.ctl.stop.store(true, Ordering::Relaxed);
            self.aborted = true;
        }
        self.aborted
    }

    /// The canonical table key of a position (the smaller of its key and its mirror's) and
    /// whether it is the mirror's.
    #[inline(always)]
    fn canonical(cur: u64, mask: u64) -> (u64, bool) {
        let k = Geo::<W, H>::key(cur, mask);
        let m = Geo::<W, H>::mirror(k);
        if m < k { (m, true) } else { (k, false) }
    }

    /// See the module doc for the contract.
    pub fn negamax(
        &mut self,
        cur: u64,
        mask: u64,
        moves: u32,
        opp_win: u64,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let (key, mirrored) = Self::canonical(cur, mask);
        self.table.prefetch(key);
        self.node(cur, mask, moves, opp_win, key, mirrored, alpha, beta)
    }

    /// [`Worker::negamax`] with the position's canonical key already computed (and its bucket
    /// prefetched).
    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        cur: u64,
        mask: u64,
        moves: u32,
        opp_win: u64,
        key: u64,
        mirrored: bool,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        type G<const W: usize, const H: usize> = Geo<W, H>;
        debug_assert!(alpha < beta);
        self.nodes += 1;
        if self.nodes >= self.next_poll && self.poll() {
            return 0;
        }
        let cells = G::<W, H>::CELLS;
        let m = moves as i32;

        // Moves that do not hand the opponent a win at once: block its playable winning cell
        // if it has one (two cannot both be blocked), and never play right below one.
        let possible = G::<W, H>::possible(mask);
        let mut cand = possible;
        let forced = possible & opp_win;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return G::<W, H>::lose_next(moves);
            }
            cand = forced;
        }
        cand &= !(opp_win >> 1);
        if cand == 0 {
            return G::<W, H>::lose_next(moves);
        }
        // With at most two cells left and a safe move, nobody can win any more.
        if m >= cells - 2 {
            return 0;
        }

        // Each child, statically: if it leaves the opponent unable to stop a win with our next
        // disc, that is the best score possible here (we cannot win with this one).
        let mut children = [Child::default(); W];
        let mut n = 0;
        for &col in &G::<W, H>::ORDER {
            let bit = cand & G::<W, H>::column_mask(col);
            if bit == 0 {
                continue;
            }
            let mine = cur | bit;
            let after = mask | bit;
            let threats = G::<W, H>::winning_cells(mine, after);
            let cposs = G::<W, H>::possible(after);
            let cforced = cposs & threats;
            let replies = if cforced != 0 {
                if cforced & (cforced - 1) != 0 {
                    return (cells - 1 - m) / 2;
                }
                cforced
            } else {
                cposs
            };
            if replies & !(threats >> 1) == 0 {
                return (cells - 1 - m) / 2;
            }
            let (ckey, cmirrored) = Self::canonical(cur ^ mask, after);
            self.table.prefetch(ckey);
            children[n] = Child {
                bit,
                threats,
                key: ckey,
                mirrored: cmirrored,
                rank: (threats & !after).count_ones() as i32,
            };
            n += 1;
        }

        // Static bounds: the opponent cannot win with its next disc (we play a safe move), and
        // we cannot win with this disc or the next.
        let mut lower = -(cells - 2 - m) / 2;
        let mut upper = (cells - 3 - m) / 2;
        if lower >= beta {
            return lower;
        }
        if upper <= alpha {
            return upper;
        }

        let mut tt_move = None;
        if let Some(hit) = self.table.probe(key) {
            lower = lower.max(hit.lower);
            upper = upper.min(hit.upper);
            if lower >= beta || lower == upper {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            tt_move = hit.best.map(|c| if mirrored { W - 1 - c } else { c });
        }
        alpha = alpha.max(lower);
        beta = beta.min(upper);

        // Order: the stored best move first, then by rank (stable, so ties keep the
        // centre-first order).
        if let Some(c) = tt_move {
            for ch in &mut children[..n] {
                if ch.bit & G::<W, H>::column_mask(c) != 0 {
                    ch.rank += 1000;
                }
            }
        }
        for i in 1..n {
            let x = children[i];
            let mut j = i;
            while j > 0 && children[j - 1].rank < x.rank {
                children[j] = children[j - 1];
                j -= 1;
            }
            children[j] = x;
        }

        let alpha0 = alpha;
        let start = self.nodes;
        let mut best = i32::MIN;
        let mut best_bit = 0;
        for ch in &children[..n] {
            let v = -self.node(
                cur ^ mask,
                mask | ch.bit,
                moves + 1,
                ch.threats,
                ch.key,
                ch.mirrored,
                -beta,
                -alpha,
            );
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_bit = ch.bit;
                if v >= beta {
                    break;
                }
                if v > alpha {
                    alpha = v;
                }
            }
        }

        let (lo, hi, mv) = if best >= beta {
            (best, upper, Some(best_bit))
        } else if best <= alpha0 {
            (lower, best, None)
        } else {
            (best, best, Some(best_bit))
        };
        let mv = mv.map(|b| {
            let c = G::<W, H>::column_of(b);
            if mirrored { W - 1 - c } else { c }
        });
        self.table.store(key, lo, hi, mv, self.nodes - start);
        best
    }

    /// The exact score of a position where the game is not over, or `None` if the budget ran
    /// out first.
    pub fn score(&mut self, cur: u64, mask: u64, moves: u32) -> Option<i32> {
        type G<const W: usize, const H: usize> = Geo<W, H>;
        let cells = G::<W, H>::CELLS;
        debug_assert!((moves as i32) < cells);
        if G::<W, H>::possible(mask) & G::<W, H>::winning_cells(cur, mask) != 0 {
            return Some(G::<W, H>::win_now(moves));
        }
        let opp_win = G::<W, H>::winning_cells(cur ^ mask, mask);
        let mut lo = G::<W, H>::lose_next(moves);
        let mut hi = (cells - 1 - moves as i32) / 2;
        while lo < hi {
            let mut mid = lo + (hi - lo) / 2;
            if mid <= 0 && lo / 2 < mid {
                mid = lo / 2;
            } else if mid >= 0 && hi / 2 > mid {
                mid = hi / 2;
            }
            let v = self.negamax(cur, mask, moves, opp_win, mid, mid + 1);
            if self.aborted {
                return None;
            }
            if v <= mid {
                hi = v.min(hi);
            } else {
                lo = v.max(lo);
            }
        }
        Some(lo)
    }
}
