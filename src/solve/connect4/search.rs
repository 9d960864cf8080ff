//! The exact search: fail-soft negamax alpha-beta on Pons scores, driven by null-window
//! probes at the root, on one or several threads sharing the table.
//!
//! Contract of [`Worker::negamax`]: called on a position where the game is not over and the
//! side to move cannot complete four with its next disc, with `alpha < beta`. It returns `v`
//! with `v <= alpha` meaning "the score is at most `v`", `v >= beta` meaning "at least `v`",
//! and anything in between being the exact score. `opp_win` is the opponent's winning cells
//! (see [`Geo::winning_cells`]), which the caller has already computed.
//!
//! Each constant below was chosen by measuring node counts and CPU time on Pons' test sets and
//! early positions; the commit log has the figures.

use std::sync::Barrier;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};

use super::board::Geo;
use super::table::Table;
use crate::solve::Budget;

/// Nodes between two looks at the budget and the stop flags (about half a millisecond).
const POLL_NODES: u64 = 1 << 12;
/// Positions with more empty cells than this use mirror-canonical keys; nearer the end of the
/// game a position and its mirror image rarely both occur and the mirroring costs more than
/// it saves.
const MIRROR_ABOVE_EMPTY: i32 = 16;
/// Positions with at most this many empty cells keep their entries in the searching thread's
/// own small near region of the table, which stays in its core's caches (see [`Table`]).
pub const NEAR_MAX_EMPTY: i32 = 16;
/// A solve with several threads searches this many nodes on one thread before the others
/// join (see [`solve`]).
const SERIAL_NODES: u64 = 1 << 20;
/// Several threads are used only for solves with at least this many empty cells.
const PARALLEL_MIN_EMPTY: i32 = 20;
/// Threads announce the positions they are searching (ABDADA) only above this many empty
/// cells: below, subtrees are too small for the bookkeeping to pay.
const SHARE_ABOVE_EMPTY: i32 = 20;
/// Slots of the table of positions in progress (a power of two).
const BUSY_BITS: u32 = 12;

/// Whether the CPU has popcnt, BMI1, BMI2 and LZCNT (x86-64-v3 class machines do).
fn has_fast_instructions() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::sync::OnceLock;
        static FAST: OnceLock<bool> = OnceLock::new();
        *FAST.get_or_init(|| {
            std::arch::is_x86_feature_detected!("popcnt")
                && std::arch::is_x86_feature_detected!("bmi1")
                && std::arch::is_x86_feature_detected!("bmi2")
                && std::arch::is_x86_feature_detected!("lzcnt")
                && std::arch::is_x86_feature_detected!("avx2")
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// What all threads of one solve share: the budget, stop flags, and the positions in progress.
pub struct Control<'a> {
    pub budget: &'a Budget<'a>,
    /// Nodes of all threads, as last reported by each (updated every `POLL_NODES`).
    pub nodes: AtomicU64,
    /// Set when the budget ran out: every worker unwinds and the solve gives up.
    pub stop: AtomicBool,
    /// Set when some thread has answered the current probe: the others abandon it.
    probe_done: AtomicBool,
    /// Positions some thread is searching right now (ABDADA): each slot holds the key of one
    /// position in progress, or 0. Used only when several threads search.
    busy: Box<[AtomicU64]>,
    shared: bool,
}

impl<'a> Control<'a> {
    /// `shared`: several threads will search (and announce what they search).
    pub fn new(budget: &'a Budget<'a>, shared: bool) -> Control<'a> {
        Control {
            budget,
            nodes: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            probe_done: AtomicBool::new(false),
            busy: (0..if shared { 1 << BUSY_BITS } else { 0 })
                .map(|_| AtomicU64::new(0))
                .collect(),
            shared,
        }
    }

    #[inline(always)]
    fn busy_slot(&self, key: u64) -> &AtomicU64 {
        &self.busy[(key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - BUSY_BITS)) as usize]
    }

    #[inline(always)]
    fn is_busy(&self, key: u64) -> bool {
        self.busy_slot(key).load(Ordering::Relaxed) == key
    }

    #[inline(always)]
    fn set_busy(&self, key: u64) {
        self.busy_slot(key).store(key, Ordering::Relaxed);
    }

    #[inline(always)]
    fn clear_busy(&self, key: u64) {
        let _ = self
            .busy_slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
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
    /// Set once the search must stop (budget, or another thread answered the probe): every
    /// frame returns at once without storing anything.
    pub aborted: bool,
    /// Whether this CPU has the instructions of [`Worker::node_fast`] (checked at run time).
    fast: bool,
    /// This thread's near region of the table.
    region: usize,
    /// A probe stops (as if another thread had answered it) once this thread has searched
    /// this many nodes in all.
    limit: u64,
}

/// A move with the facts the parent computed about it. When the move leaves its replier a
/// single move that does not lose at once, and so on (a forced line), the child is the
/// position where the forced line ends: `cur`, `mask` and `moves` are that position's, and
/// its side to move is the parent's when `moves - parent's moves` is even.
#[derive(Clone, Copy, Default)]
struct Child {
    /// The disc's cell (the parent's move).
    bit: u64,
    /// The child's side to move's discs, all discs, and how many.
    cur: u64,
    mask: u64,
    moves: u32,
    /// Cells where the child's side to move's opponent completes four (the child's
    /// `opp_win`).
    threats: u64,
    /// The child's table key and whether it is its mirror's (see `Worker::canonical`).
    key: u64,
    mirrored: bool,
    /// Ordering priority, higher first.
    rank: i32,
    /// The child's table entry as the parent found it ([`Table::probe_raw`]).
    entry: u64,
}

impl Child {
    /// Whether the child's side to move is the opponent of `parent`'s (an odd number of discs
    /// between them): its scores are then the negation of the parent's view.
    #[inline(always)]
    fn opponent_to_move(&self, parent: &Node) -> bool {
        (self.moves - parent.moves) % 2 == 1
    }
}

type G<const W: usize, const H: usize> = Geo<W, H>;

/// A step of [`Worker::node`]: `Err(score)` when the step settles the node's score.
type Settled<T> = Result<T, i32>;

/// A position to search: the side to move's discs (`cur`), all discs (`mask`), how many there
/// are, and the opponent's winning cells (`opp_win`, see [`Geo::winning_cells`]), which the
/// caller has computed.
#[derive(Clone, Copy)]
pub struct Position {
    pub cur: u64,
    pub mask: u64,
    pub moves: u32,
    pub opp_win: u64,
}

/// A position with its table key, as [`Worker::node`] searches it (the fields of
/// [`Position`], then the key and whether it is the mirror image's, see
/// [`Worker::canonical`]).
struct Node {
    cur: u64,
    mask: u64,
    moves: u32,
    opp_win: u64,
    key: u64,
    mirrored: bool,
    /// The node's table entry as its parent found it just before searching it (see
    /// [`Worker::enhanced_cutoff`]), if the parent looked: `None` at the root.
    entry: Option<u64>,
}

impl Node {
    #[inline(always)]
    fn new<const W: usize, const H: usize>(p: &Position) -> Node {
        let (key, mirrored) = Worker::<W, H>::canonical(p.cur, p.mask, p.moves);
        Node {
            cur: p.cur,
            mask: p.mask,
            moves: p.moves,
            opp_win: p.opp_win,
            key,
            mirrored,
            entry: None,
        }
    }

    /// The child reached by `ch` (the end of its forced line), from its side to move's side.
    #[inline(always)]
    fn child(&self, ch: &Child) -> Node {
        Node {
            cur: ch.cur,
            mask: ch.mask,
            moves: ch.moves,
            opp_win: ch.threats,
            key: ch.key,
            mirrored: ch.mirrored,
            entry: Some(ch.entry),
        }
    }
}

/// A node's search window and the bounds its score is known to lie within.
struct Window {
    alpha: i32,
    beta: i32,
    lower: i32,
    upper: i32,
}

impl Window {
    /// `Err` with the bound that settles the node when the known bounds already fail high
    /// or low.
    #[inline(always)]
    fn cut(&self) -> Settled<()> {
        if self.lower >= self.beta {
            return Err(self.lower);
        }
        if self.upper <= self.alpha {
            return Err(self.upper);
        }
        Ok(())
    }
}

/// Orders the children: the stored best move first, then by rank (stable, so ties keep the
/// centre-first order).
#[inline(always)]
fn order_children<const W: usize, const H: usize>(children: &mut [Child], tt_move: Option<usize>) {
    if let Some(c) = tt_move {
        for ch in children.iter_mut() {
            if ch.bit & G::<W, H>::column_mask(c) != 0 {
                ch.rank += 1000;
            }
        }
    }
    for i in 1..children.len() {
        let x = children[i];
        let mut j = i;
        while j > 0 && children[j - 1].rank < x.rank {
            children[j] = children[j - 1];
            j -= 1;
        }
        children[j] = x;
    }
}

impl<'a, const W: usize, const H: usize> Worker<'a, W, H> {
    /// A worker for thread `id` of a solve (0 for the only or main thread).
    pub fn new(table: &'a Table, ctl: &'a Control<'a>, id: usize) -> Self {
        Worker {
            table,
            ctl,
            nodes: 0,
            reported: 0,
            next_poll: POLL_NODES,
            aborted: false,
            fast: has_fast_instructions(),
            region: id,
            limit: u64::MAX,
        }
    }

    /// Looks at the budget and the stop flags; true (and `aborted` set) when the search must
    /// stop.
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
        if self.ctl.probe_done.load(Ordering::Relaxed) || self.nodes >= self.limit {
            self.aborted = true;
        }
        self.aborted
    }

    /// The table key of a position and whether it is its mirror image's: far from the end,
    /// the smaller of the two keys, so that mirror images share an entry.
    #[inline(always)]
    fn canonical(cur: u64, mask: u64, moves: u32) -> (u64, bool) {
        let k = G::<W, H>::key(cur, mask);
        if G::<W, H>::CELLS - (moves as i32) <= MIRROR_ABOVE_EMPTY {
            return (k, false);
        }
        let m = G::<W, H>::mirror(k);
        if m < k { (m, true) } else { (k, false) }
    }

    /// The best move the table holds for a position (its column, in the position's own
    /// orientation), if any: after a solve, the root's entry holds the move of its last probe
    /// that failed high, which keeps the score that probe proved.
    pub fn stored_move(&self, cur: u64, mask: u64, moves: u32) -> Option<usize> {
        let (key, mirrored) = Self::canonical(cur, mask, moves);
        let hit = self.table.probe(key, self.near(moves))?;
        hit.best.map(|c| if mirrored { W - 1 - c } else { c })
    }

    /// Where a position with `moves` discs keeps its entry: this thread's near region
    /// (`Some`) or the main table.
    #[inline(always)]
    fn near(&self, moves: u32) -> Option<usize> {
        (G::<W, H>::CELLS - (moves as i32) <= NEAR_MAX_EMPTY).then_some(self.region)
    }

    /// See the module doc for the contract: the score of `pos` as seen through the window
    /// `alpha..beta`.
    pub fn negamax(&mut self, pos: &Position, alpha: i32, beta: i32) -> i32 {
        let at = Node::new::<W, H>(pos);
        self.table.prefetch(at.key, self.near(at.moves));
        #[cfg(target_arch = "x86_64")]
        if self.fast {
            // SAFETY: `fast` is set only when the CPU has the instructions node_fast uses.
            return unsafe { self.node_fast(&at, alpha, beta) };
        }
        self.node_plain(&at, alpha, beta)
    }

    /// A child of a [`Worker::node`], in the same compilation (`FAST`) as its parent.
    #[inline(always)]
    fn recurse<const FAST: bool>(&mut self, at: &Node, alpha: i32, beta: i32) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if FAST {
            // SAFETY: FAST code only runs once `fast` was found true (see `negamax`).
            return unsafe { self.node_fast(at, alpha, beta) };
        }
        self.node_plain(at, alpha, beta)
    }

    /// [`Worker::node`] compiled for the baseline instruction set.
    fn node_plain(&mut self, at: &Node, alpha: i32, beta: i32) -> i32 {
        self.node::<false>(at, alpha, beta)
    }

    /// [`Worker::node`] compiled with hardware population count and bit manipulation
    /// (about 15% faster than the baseline x86-64 build, which counts bits in software).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
    fn node_fast(&mut self, at: &Node, alpha: i32, beta: i32) -> i32 {
        self.node::<true>(at, alpha, beta)
    }

    /// [`Worker::negamax`] on a node whose key is computed (and its bucket prefetched).
    /// Inlined into its two compilations, `node_plain` and `node_fast`, and so are its steps
    /// below (`#[inline(always)]`): each step that can settle the node's score returns it as
    /// `Err(score)`, so `?` leaves the node there. (Split this way it searched the same nodes
    /// with the same work as the one 257-line function it was.) A [`Node`] replaced the eight
    /// arguments every level used to repeat: the same nodes (`ply solve connect4 --threads 1
    /// --table-mb 32 --reset-each`, middle-medium 13,495.7 a position) for 2% more
    /// instructions (its first 200 under `valgrind --tool=callgrind`: 2,531.0M, 2,587.0M),
    /// the cost of building the child in memory rather than in registers (building every
    /// child in full up front, or passing it by value, cost more).
    #[inline(always)]
    fn node<const FAST: bool>(&mut self, at: &Node, alpha: i32, beta: i32) -> i32 {
        debug_assert!(alpha < beta);
        self.nodes += 1;
        if self.nodes >= self.next_poll && self.poll() {
            return 0;
        }
        match self.node_steps::<FAST>(at, alpha, beta) {
            Ok(v) | Err(v) => v,
        }
    }

    /// The body of [`Worker::node`]: `Err(score)` wherever a step settles it early.
    #[inline(always)]
    fn node_steps<const FAST: bool>(&mut self, at: &Node, alpha: i32, beta: i32) -> Settled<i32> {
        let possible = G::<W, H>::possible(at.mask);
        let cand = Self::safe_moves(at, possible)?;
        let mut children = [Child::default(); W];
        let (mut n, floor, settled) = self.expand_children(at, cand, &mut children, beta)?;
        let (lower, upper) = Self::static_bounds(at, possible, floor.max(settled));
        let mut window = Window {
            alpha,
            beta,
            lower,
            upper,
        };
        window.cut()?;
        let near = self.near(at.moves);
        let (tt_move, failed_low_before) = self.probe_own_entry(at, near, &mut window)?;
        let best = self.enhanced_cutoff(at, &mut children, &mut n, &mut window, settled)?;
        order_children::<W, H>(&mut children[..n], tt_move);
        let alpha0 = window.alpha;
        let start = self.nodes;
        let Some((best, best_bit)) =
            self.search_children::<FAST>(at, &children[..n], &mut window, best, failed_low_before)
        else {
            return Ok(0);
        };
        let (lo, hi, mv) = if best >= window.beta {
            (best, window.upper, Some(best_bit))
        } else if best <= alpha0 {
            (window.lower, best, None)
        } else {
            (best, best, Some(best_bit))
        };
        let mv = mv.map(|b| {
            let c = G::<W, H>::column_of(b);
            if at.mirrored { W - 1 - c } else { c }
        });
        self.table
            .store(at.key, near, lo, hi, mv, self.nodes - start);
        Ok(best)
    }

    /// Moves that do not hand the opponent a win at once: block its playable winning cell if
    /// it has one (two cannot both be blocked), and never play right below one. With at most
    /// two cells left and a safe move, nobody can win any more (a draw).
    #[inline(always)]
    fn safe_moves(at: &Node, possible: u64) -> Settled<u64> {
        Self::safe_cells(possible, at.opp_win, at.moves)
    }

    /// [`Worker::safe_moves`] of any position: its playable cells `possible`, the opponent's
    /// winning cells `opp_win`, `moves` discs down.
    #[inline(always)]
    fn safe_cells(possible: u64, opp_win: u64, moves: u32) -> Settled<u64> {
        let mut cand = possible;
        let forced = possible & opp_win;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return Err(G::<W, H>::lose_next(moves));
            }
            cand = forced;
        }
        cand &= !(opp_win >> 1);
        if cand == 0 {
            return Err(G::<W, H>::lose_next(moves));
        }
        if moves as i32 >= G::<W, H>::CELLS - 2 {
            return Err(0);
        }
        Ok(cand)
    }

    /// Each child, statically: if it leaves the opponent unable to stop a win with our next
    /// disc, that is the best score possible here (we cannot win with this one). Otherwise
    /// the forced line from it is followed (see [`Worker::forced_line`]): a line that settles
    /// the child's score leaves it out of the search, its score a floor for ours; else the
    /// child is the position where the line ends, its key is computed and its bucket
    /// prefetched, and it is ranked by the threats our move creates, not counting those right
    /// above an opponent's threat (never playable without losing first), twice, plus those
    /// right above a playable cell once (they restrict the opponent's next moves). Ties keep
    /// the centre-first order, which is worth more than a history table (measured: 2-8x the
    /// nodes with one). Returns the children's count, with the second player to move the best
    /// claimeven bound of a child (a floor for us), and the best score of the children whose
    /// lines settled (`i32::MIN` if none; when every child's did, that is the node's score).
    #[inline(always)]
    fn expand_children(
        &mut self,
        at: &Node,
        cand: u64,
        children: &mut [Child; W],
        beta: i32,
    ) -> Settled<(usize, i32, i32)> {
        let (cells, m) = (G::<W, H>::CELLS, at.moves as i32);
        let mut n = 0;
        let mut floor = i32::MIN;
        let mut settled = i32::MIN;
        // Every column's threats lane by lane (eight lanes, a column of ORDER each, 0 where
        // no candidate): plain arrays that the AVX2 build of `node_fast` computes as vectors.
        let mut bits = [0u64; 8];
        for (b, &col) in bits.iter_mut().zip(&G::<W, H>::ORDER) {
            *b = cand & G::<W, H>::column_mask(col);
        }
        let mut all = [0u64; 8];
        for (t, &b) in all.iter_mut().zip(&bits) {
            *t = G::<W, H>::winning_cells(at.cur | b, at.mask | b);
        }
        let opp = at.cur ^ at.mask;
        for (&bit, &threats) in bits.iter().zip(&all).take(W) {
            if bit == 0 {
                continue;
            }
            let after = at.mask | bit;
            let cposs = G::<W, H>::possible(after);
            let end = match Self::forced_line(opp, after, at.moves + 1, threats) {
                Ok(end) => end,
                Err((v, k)) => {
                    if k == at.moves + 1 && v < 0 {
                        // The opponent loses at once: we win with our next disc.
                        return Err((cells - 1 - m) / 2);
                    }
                    settled = settled.max(if (k - at.moves) % 2 == 1 { -v } else { v });
                    if settled >= beta {
                        // This move alone fails high: the other children need not be looked at.
                        return Err(settled);
                    }
                    continue;
                }
            };
            if H.is_multiple_of(2) && at.moves % 2 == 1 {
                floor = floor.max(-G::<W, H>::claimeven_bound_quick(opp, after, cposs));
            }
            let (ckey, cmirrored) = Self::canonical(end.cur, end.mask, end.moves);
            self.table.prefetch(ckey, self.near(end.moves));
            let useful = threats & !(at.opp_win << 1);
            children[n] = Child {
                bit,
                cur: end.cur,
                mask: end.mask,
                moves: end.moves,
                threats: end.opp_win,
                key: ckey,
                mirrored: cmirrored,
                rank: 2 * useful.count_ones() as i32 + (useful & (cposs << 1)).count_ones() as i32,
                entry: 0,
            };
            n += 1;
        }
        if n == 0 {
            return Err(settled);
        }
        Ok((n, floor, settled))
    }

    /// Follows the forced moves from a position whose side to move cannot win with its next
    /// disc (`cur`, `mask`, `moves` and `opp_win` as in [`Position`]): while the side to move
    /// has a single move that does not lose at once (see [`Worker::safe_moves`]), it plays it
    /// and the other side is to move. `Ok` with the position where the side to move has a
    /// choice; `Err((score, moves))` when the line settles the score: `score` for the side to
    /// move with `moves` discs down. The positions on the way are neither searched nor stored:
    /// each one's score is the next one's.
    #[inline(always)]
    fn forced_line(cur: u64, mask: u64, moves: u32, opp_win: u64) -> Result<Position, (i32, u32)> {
        let mut p = Position {
            cur,
            mask,
            moves,
            opp_win,
        };
        loop {
            let possible = G::<W, H>::possible(p.mask);
            let cand = match Self::safe_cells(possible, p.opp_win, p.moves) {
                Ok(cand) => cand,
                Err(v) => return Err((v, p.moves)),
            };
            if cand & (cand - 1) != 0 {
                return Ok(p);
            }
            p = Position {
                cur: p.cur ^ p.mask,
                mask: p.mask | cand,
                moves: p.moves + 1,
                opp_win: G::<W, H>::winning_cells(p.cur | cand, p.mask | cand),
            };
        }
    }

    /// Static bounds of the score: the opponent cannot win with its next disc (we play a safe
    /// move), and we cannot win with this disc or the next; a side with no line left that it
    /// could still fill cannot win; claimeven (Allis), with the first player to move on a
    /// board of even height (see [`Geo::claimeven_bound`]).
    #[inline(always)]
    fn static_bounds(at: &Node, possible: u64, floor: i32) -> (i32, i32) {
        let (cells, m) = (G::<W, H>::CELLS, at.moves as i32);
        let mut lower = (-(cells - 2 - m) / 2).max(floor);
        let mut upper = (cells - 3 - m) / 2;
        let empty = G::<W, H>::BOARD & !at.mask;
        if !G::<W, H>::aligned(at.cur | empty) {
            upper = upper.min(0);
        }
        if !G::<W, H>::aligned((at.cur ^ at.mask) | empty) {
            lower = lower.max(0);
        }
        if H.is_multiple_of(2) && at.moves.is_multiple_of(2) {
            upper = upper.min(G::<W, H>::claimeven_bound(at.cur, at.mask, possible));
        }
        (lower, upper)
    }

    /// The node's own table entry narrows the bounds (and may settle the node); returns its
    /// best move (unmirrored) and whether the entry was stored by a search that failed low
    /// (no best move: all moves had to be searched, and probably will again; see the ABDADA
    /// loop of [`Worker::search_children`]).
    #[inline(always)]
    fn probe_own_entry(
        &mut self,
        at: &Node,
        near: Option<usize>,
        window: &mut Window,
    ) -> Settled<(Option<usize>, bool)> {
        let mut tt_move = None;
        let mut failed_low_before = false;
        // The parent looked this entry up when it tried its enhanced transposition cutoff,
        // just before this search: looking again would only see what the siblings searched
        // since then stored here (counted when every node looked again: on end-easy and
        // middle-easy no node was settled by its own entry, on begin-easy 14 of 296,671).
        let entry = at
            .entry
            .unwrap_or_else(|| self.table.probe_raw(at.key, near));
        if let Some(hit) = Table::hit(entry) {
            failed_low_before = hit.best.is_none();
            window.lower = window.lower.max(hit.lower);
            window.upper = window.upper.min(hit.upper);
            if window.lower >= window.beta || window.lower == window.upper {
                return Err(window.lower);
            }
            if window.upper <= window.alpha {
                return Err(window.upper);
            }
            tt_move = hit.best.map(|c| if at.mirrored { W - 1 - c } else { c });
        }
        window.alpha = window.alpha.max(window.lower);
        window.beta = window.beta.min(window.upper);
        Ok((tt_move, failed_low_before))
    }

    /// Enhanced transposition cutoff, at every node (the children's buckets are already
    /// prefetched): a child whose stored upper bound is low enough proves a cutoff here
    /// without searching anything; a child whose lower bound cannot raise alpha need not be
    /// searched (its bound still caps the fail-soft result, returned as the best so far).
    /// Measured against skipping it from 24 discs on until the near region: begin-hard's
    /// first 40 12.94M -> 12.62M nodes, 0.93 -> 0.84 s; begin-medium 442K -> 429K nodes.
    #[inline(always)]
    fn enhanced_cutoff(
        &mut self,
        at: &Node,
        children: &mut [Child; W],
        n: &mut usize,
        window: &mut Window,
        mut best: i32,
    ) -> Settled<i32> {
        let mut i = 0;
        while i < *n {
            let ch = &mut children[i];
            let entry = self.table.probe_raw(ch.key, self.near(ch.moves));
            ch.entry = entry;
            if let Some(h) = Table::hit(entry) {
                // The child's bounds from our side.
                let (lower, upper) = if ch.opponent_to_move(at) {
                    (-h.upper, -h.lower)
                } else {
                    (h.lower, h.upper)
                };
                if lower >= window.beta {
                    return Err(lower);
                }
                if lower > window.alpha {
                    window.alpha = lower;
                    window.lower = window.lower.max(window.alpha);
                }
                if upper <= window.alpha {
                    best = best.max(upper);
                    // Removed in place, the rest shifted down: a swap with the last child
                    // would break the centre-first order of ties that the ordering keeps.
                    *n -= 1;
                    children.copy_within(i + 1..=*n, i);
                    continue;
                }
            }
            i += 1;
        }
        if *n == 0 {
            return Err(best);
        }
        Ok(best)
    }

    /// Searches the children in order; the best score (starting from `best`) and its move,
    /// or `None` when this thread was stopped. With several threads, a move into a position
    /// that another thread is searching is put off until the other moves are done (ABDADA).
    /// The first move is searched at once unless the position failed low before (then every
    /// move is likely needed, and another thread's move is as good a start as any);
    /// deferring it at nodes that cut off doubles the nodes.
    #[inline(always)]
    fn search_children<const FAST: bool>(
        &mut self,
        at: &Node,
        children: &[Child],
        window: &mut Window,
        mut best: i32,
        failed_low_before: bool,
    ) -> Option<(i32, u64)> {
        let n = children.len();
        let mut best_bit = 0;
        let share = self.ctl.shared && G::<W, H>::CELLS - (at.moves as i32) > SHARE_ABOVE_EMPTY;
        if share {
            self.ctl.set_busy(at.key);
        }
        let mut deferred = [0usize; W];
        let (mut nd, mut di) = (0, 0);
        let mut i = 0;
        loop {
            let (idx, may_defer) = if i < n {
                i += 1;
                (i - 1, share && (i > 1 || failed_low_before))
            } else if di < nd {
                di += 1;
                (deferred[di - 1], false)
            } else {
                break;
            };
            let ch = children[idx];
            if may_defer && self.ctl.is_busy(ch.key) {
                deferred[nd] = idx;
                nd += 1;
                continue;
            }
            let mut child = at.child(&ch);
            if self.ctl.shared {
                // Other threads store what they search: the child looks again.
                child.entry = None;
            }
            let v = if ch.opponent_to_move(at) {
                -self.recurse::<FAST>(&child, -window.beta, -window.alpha)
            } else {
                self.recurse::<FAST>(&child, window.alpha, window.beta)
            };
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                best_bit = ch.bit;
                if v >= window.beta {
                    break;
                }
                window.alpha = window.alpha.max(v);
            }
        }
        if share {
            self.ctl.clear_busy(at.key);
        }
        (!self.aborted).then_some((best, best_bit))
    }

    /// One null-window probe from the root: is the score above `mid`? The fail-soft answer,
    /// or `None` if this thread was stopped.
    fn probe(&mut self, root: &Position, mid: i32) -> Option<i32> {
        self.aborted = false;
        let v = self.negamax(root, mid, mid + 1);
        if self.aborted { None } else { Some(v) }
    }
}

/// Root intervals at most this wide on one side of zero are probed at the score nearest zero
/// first (see [`Interval::next`]).
const NEAR_ZERO_WIDTH: i32 = 4;
/// Root intervals wider than this are narrowed from both ends (see [`Interval::next`]).
const ENDS_FIRST_WIDTH: i32 = 14;

/// log2 of the largest prefix of the table (in buckets: 8 MiB) that [`grow_for`] sizes to the
/// tree; a larger tree gets the whole table.
const CACHED_PREFIX_BITS: u32 = 18;

/// Widens the table's prefix in use after a root probe: to one entry per node searched so
/// far while that fits in [`CACHED_PREFIX_BITS`], else to the whole table. A solve starts in
/// a prefix sized by its empty cells (`Connect4Solver::score_within`), which stays in the
/// caches; the probes then show how much the tree needs. Beyond the caches every access
/// misses anyway, so the largest table costs no more per access and loses the fewest
/// entries. Measured (one thread, 32 MiB): begin-easy 140 -> 108 us mean CPU against a
/// prefix fixed by the empty cells alone (2^(e - 16) buckets), begin-medium and begin-hard
/// unchanged; one entry per node beat 2, 4 and 16 below the caches' size.
fn grow_for(table: &Table, nodes: u64) {
    let buckets = nodes / super::table::WAYS as u64;
    let bits = 64 - buckets.leading_zeros();
    table.grow(if bits > CACHED_PREFIX_BITS {
        u32::MAX
    } else {
        bits
    });
}

/// The exact score of a position where the game is not over, with its node count, or `None`
/// if the budget ran out first. With `threads > 1` (and a large enough position), all threads
/// search every probe over the shared table, each announcing the positions it is in so that
/// the others take other moves first; the first answer settles the probe and the others
/// abandon it.
pub fn solve<const W: usize, const H: usize>(
    table: &Table,
    budget: &Budget,
    cur: u64,
    mask: u64,
    moves: u32,
    threads: usize,
) -> Option<(i32, u64)> {
    let cells = G::<W, H>::CELLS;
    debug_assert!((moves as i32) < cells);
    if G::<W, H>::possible(mask) & G::<W, H>::winning_cells(cur, mask) != 0 {
        return Some((G::<W, H>::win_now(moves), 0));
    }
    let root = Position {
        cur,
        mask,
        moves,
        opp_win: G::<W, H>::winning_cells(cur ^ mask, mask),
    };
    let mut interval = Interval {
        lo: G::<W, H>::lose_next(moves),
        hi: (cells - 1 - moves as i32) / 2,
        probes: 0,
    };
    // One thread first: most solves are small, and those finish without paying for the
    // helpers' start and the barriers of every probe. Past SERIAL_NODES the probe in progress
    // is abandoned (its finished subtrees stay in the table) and all threads take over.
    let parallel = threads > 1 && cells - (moves as i32) >= PARALLEL_MIN_EMPTY;
    let limit = if parallel { SERIAL_NODES } else { u64::MAX };
    let serial_nodes = probe_on_one_thread::<W, H>(table, budget, &root, &mut interval, limit)?;
    if interval.lo == interval.hi {
        return Some((interval.lo, serial_nodes));
    }
    let nodes = probe_on_threads::<W, H>(table, budget, &root, &mut interval, threads)?;
    Some((interval.lo, serial_nodes + nodes))
}

/// What the probes have proved so far: the root's score lies in `lo..=hi`.
struct Interval {
    lo: i32,
    hi: i32,
    /// Probes answered so far.
    probes: u32,
}

impl Interval {
    /// The next probe: is the score above the returned `mid` (`lo <= mid < hi`)?
    ///
    /// While the interval is wider than [`ENDS_FIRST_WIDTH`], its two ends in turn, the top
    /// first (`> hi - 1`: the fastest win left; then `> lo`: the fastest loss left). Each is
    /// an iterative deepening on the distance to the end of the game: a probe just beyond
    /// the true score fails at once on the static distance bounds, and its fail-soft answer
    /// often moves the end by several scores; the next costs a few times more. Quick wins
    /// and losses are found for the price of the probes next to them, where bisecting first
    /// asked `> lo / 2` and `> hi / 2`, both far from the score and costly (a position of
    /// begin-easy, score 10: `> -8` 1.6K nodes, `> 7` 34K, then 2.3K for the last three).
    ///
    /// Then, as soon as the ends leave it at most [`ENDS_FIRST_WIDTH`] wide, the sign first
    /// (`> 0`, then `> -1`): a draw then needs just those two, where halving also probed `> 1`
    /// and `> 2`, both next to the score (begin-hard's first 40 14.07M -> 12.94M nodes when
    /// the sign came first only from a width of 8). The sign at once rather than from a width
    /// of 8 (stop 34, with the rule below) skips the two halving probes `> -3` and `> 3` that
    /// came before it: sixty random 9-disc positions 459.0K -> 421.4K nodes, the sixty slowest of the book builder's
    /// 9-disc slices 4.58M -> 4.25M, the empty board 96.7M -> 92.5M, middle-medium's first 100
    /// 9,632 -> 8,750, end-easy 11.3 -> 10.5, begin-hard's positions 11-30 8.80M -> 8.01M;
    /// begin-medium, whose scores lie further from zero, pays for it (its first 100 296.8K
    /// -> 311.0K, the next 200 282.2K -> 303.8K), middle-easy and begin-easy within 0.4%.
    /// Wider intervals on one side of zero are halved as Pons does, leaning towards the middle
    /// of that side.
    ///
    /// On one side of zero and at most [`NEAR_ZERO_WIDTH`] wide, the score nearest zero first
    /// (`> lo` when `lo >= 0`, `> hi - 1` when `hi <= 0`): most positions of these sizes end
    /// late, so the score next to zero is the likeliest, and one probe proves it, where
    /// halving `1..=3` asked `> 2` and then `> 1`. Mean nodes with one thread (`ply solve
    /// connect4 SET --reset-each --threads 1 --table-mb 64`): the empty board 105.4M ->
    /// 96.7M, end-easy 12.1 -> 11.3, middle-easy 115.8 -> 115.1, middle-medium's first 100
    /// 10,360 -> 9,632, begin-medium's first 100 303.5K -> 296.8K, sixty random 9-disc
    /// positions 473.4K -> 459.0K; begin-easy 414.2 -> 419.1, begin-hard's first 10 3.81M ->
    /// 3.87M and its next 20 8.72M -> 8.80M (there a score of 2 to 4 takes one probe more).
    ///
    /// Measured, mean nodes a position with one thread against bisecting from the start
    /// (`ply solve connect4 SET --reset-each --threads 1 --table-mb 32`): end-easy 17.6 =
    /// 17.6, middle-easy 162.6 -> 147.7, begin-easy 1,309.1 -> 507.0, middle-medium's first
    /// 200 11,138 -> 11,860, begin-medium's first 100 426,763 -> 425,469, begin-hard's first
    /// 10 5.96M -> 5.85M. Sign-first widths 12 to 16 did about as well then (begin-easy
    /// 475-564, the others within 7%); ends first at every width, or until 22, cost 2-5
    /// times the nodes on begin-easy (the end probes reach the scores near zero, which take
    /// longest to prove from that side); the end with the cheaper last probe first, rather
    /// than in turn (down to a width of 12), 1,140. Ends first and sign first both until 16
    /// (stop 34): middle-easy +11%, begin-easy +18%; both until 12: begin-easy -7%, the
    /// 9-disc samples +2-3%.
    fn next(&self) -> i32 {
        let (lo, hi) = (self.lo, self.hi);
        if hi - lo > ENDS_FIRST_WIDTH {
            return if self.probes.is_multiple_of(2) {
                hi - 1
            } else {
                lo
            };
        }
        // At most ENDS_FIRST_WIDTH wide: the sign, then the score nearest zero (`hi == 0`
        // implies `lo < 0`: is the score below zero?).
        let near = hi - lo <= NEAR_ZERO_WIDTH;
        if lo < 0 && hi > 0 {
            return 0;
        }
        if hi == 0 || (near && hi < 0) {
            return hi - 1;
        }
        if near && lo >= 0 {
            return lo;
        }
        let mut mid = lo + (hi - lo) / 2;
        if mid <= 0 && lo / 2 < mid {
            mid = lo / 2;
        } else if mid >= 0 && hi / 2 > mid {
            mid = hi / 2;
        }
        mid
    }

    /// Narrows the interval by the fail-soft answer `v` of the probe "is the score above
    /// `mid`?".
    fn answer(&mut self, mid: i32, v: i32) {
        self.probes += 1;
        if v <= mid {
            self.hi = v.min(self.hi)
        } else {
            self.lo = v.max(self.lo)
        }
    }
}

/// Probes on this thread alone until the interval is one score or the thread has searched
/// `limit` nodes; its node count, or `None` when the budget stopped the search.
fn probe_on_one_thread<const W: usize, const H: usize>(
    table: &Table,
    budget: &Budget,
    root: &Position,
    interval: &mut Interval,
    limit: u64,
) -> Option<u64> {
    let ctl = Control::new(budget, false);
    let mut main = Worker::<W, H>::new(table, &ctl, 0);
    main.limit = limit;
    while interval.lo < interval.hi {
        let mid = interval.next();
        let before = main.nodes;
        let Some(v) = main.probe(root, mid) else {
            if ctl.stop.load(Ordering::Relaxed) {
                return None;
            }
            break;
        };
        log::debug!("probe > {mid}: {v} ({} nodes)", main.nodes - before);
        grow_for(table, main.nodes);
        interval.answer(mid, v);
    }
    Some(main.nodes)
}

/// What the threads of [`probe_on_threads`] share: the probe's `mid`, its first answer, and
/// the barriers every probe starts and ends at.
struct Probes<'a> {
    ctl: Control<'a>,
    mid: AtomicI64,
    result: AtomicI64,
    quit: AtomicBool,
    start: Barrier,
    end: Barrier,
}

impl Probes<'_> {
    /// The first answer of a probe settles it; the other threads see `probe_done` and
    /// abandon theirs.
    fn publish(&self, v: i32) {
        if !self.ctl.probe_done.swap(true, Ordering::AcqRel) {
            self.result.store(v as i64, Ordering::Release);
        }
    }

    /// A helper thread: searches every probe the main thread starts, until told to quit;
    /// returns its node count.
    fn help<const W: usize, const H: usize>(
        &self,
        table: &Table,
        root: &Position,
        id: usize,
    ) -> u64 {
        let mut w = Worker::<W, H>::new(table, &self.ctl, id);
        loop {
            self.start.wait();
            if self.quit.load(Ordering::Acquire) {
                return w.nodes;
            }
            let mid = self.mid.load(Ordering::Acquire) as i32;
            if let Some(v) = w.probe(root, mid) {
                self.publish(v);
            }
            self.end.wait();
        }
    }
}

/// Probes on `threads` threads until the interval is one score; their node count, or `None`
/// when the budget stopped the search first.
fn probe_on_threads<const W: usize, const H: usize>(
    table: &Table,
    budget: &Budget,
    root: &Position,
    interval: &mut Interval,
    threads: usize,
) -> Option<u64> {
    let shared = Probes {
        ctl: Control::new(budget, true),
        mid: AtomicI64::new(0),
        result: AtomicI64::new(0),
        quit: AtomicBool::new(false),
        start: Barrier::new(threads),
        end: Barrier::new(threads),
    };
    let shared = &shared;
    std::thread::scope(|s| {
        let helpers: Vec<_> = (1..threads)
            .map(|id| s.spawn(move || shared.help::<W, H>(table, root, id)))
            .collect();
        let mut main = Worker::<W, H>::new(table, &shared.ctl, 0);
        let mut answered = true;
        while interval.lo < interval.hi {
            let mid = interval.next();
            shared.mid.store(mid as i64, Ordering::Release);
            shared.ctl.probe_done.store(false, Ordering::Release);
            shared.start.wait();
            if let Some(v) = main.probe(root, mid) {
                shared.publish(v);
            }
            shared.end.wait();
            let ctl = &shared.ctl;
            if ctl.stop.load(Ordering::Acquire) || !ctl.probe_done.load(Ordering::Acquire) {
                answered = false;
                break;
            }
            let v = shared.result.load(Ordering::Acquire) as i32;
            // Every helper waits at the start barrier: the table is ours alone.
            grow_for(table, ctl.nodes.load(Ordering::Relaxed).max(main.nodes));
            log::debug!(
                "probe > {mid}: {v} ({} nodes in all so far)",
                ctl.nodes.load(Ordering::Relaxed)
            );
            interval.answer(mid, v);
        }
        shared.quit.store(true, Ordering::Release);
        shared.start.wait();
        let helper_nodes: u64 = helpers
            .into_iter()
            .map(|h| h.join().expect("a search thread panicked"))
            .sum();
        answered.then_some(main.nodes + helper_nodes)
    })
}

#[cfg(test)]
mod tests {
    use super::Interval;

    fn next(lo: i32, hi: i32, probes: u32) -> i32 {
        Interval { lo, hi, probes }.next()
    }

    #[test]
    fn every_probe_splits_the_interval() {
        for lo in -21..=21 {
            for hi in lo + 1..=21 {
                for probes in 0..2 {
                    let mid = next(lo, hi, probes);
                    assert!(lo <= mid && mid < hi, "{lo}..={hi}: probe > {mid}");
                }
            }
        }
    }

    #[test]
    fn probes_ask_the_sign_then_the_score_nearest_zero() {
        // Across zero: the sign first.
        assert_eq!(next(-3, 3, 0), 0);
        assert_eq!(next(-8, 0, 0), -1);
        // One side of zero, at most four wide: is the score the one nearest zero?
        assert_eq!(next(1, 3, 0), 1);
        assert_eq!(next(0, 4, 0), 0);
        assert_eq!(next(-3, -1, 0), -2);
        assert_eq!(next(-5, -1, 0), -2);
        // Across zero, as wide as the ends leave it: the sign.
        assert_eq!(next(-8, 6, 0), 0);
        // One side, wider: halved, leaning to the middle of its side.
        assert_eq!(next(1, 7, 0), 4);
        // Wider than the ends-first width: the top end, then the bottom end.
        assert_eq!(next(-21, 20, 0), 19);
        assert_eq!(next(-21, 20, 1), -21);
    }
}
