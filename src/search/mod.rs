//! The searcher: one negamax alpha-beta, generic over the game, that never prints.
//!
//! - Principal variation search (null windows after the first move, re-search on a fail-high
//!   inside the window), fail-soft: a node may return a value outside `(alpha, beta)`, and
//!   then it is a bound on the true value in that direction.
//! - Iterative deepening with a transposition table ([`tt`]), move ordering by TT move, two
//!   killers per ply, a history table, then the game's static order.
//! - Scores are from the side to move: heuristic values well inside ±`MATE_BOUND`, and
//!   `MATE - n` for a win whose last move is `n` plies away (`-(MATE - n)` for a loss), so
//!   faster wins and slower losses score higher.
//! - Limits: depth, nodes, move time, clock, infinite, and a stop flag polled every 1024
//!   nodes. Depth 1 always completes, so there is always a move to play.
//! - At a fixed depth it is deterministic: node counts depend only on the position and
//!   the table's contents (cleared by `ucinewgame` and before every `bench` position).

pub mod tt;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::game::Game;
use tt::{Bound, Table, from_tt, to_tt};

// The value vocabulary lives in `crate::value`; these re-exports keep `search::MATE` and
// friends working while other branches still import them from here.
pub use crate::value::{MATE, MATE_BOUND, MAX_PLY, Score, is_mate, terminal_value};

const INF: i32 = MATE + 1;
/// The iterative deepening's last depth when no depth limit is given.
pub const MAX_DEPTH: u32 = (MAX_PLY - 6) as u32;

/// A clock as UCI gives it, for the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub time: Duration,
    pub inc: Duration,
    pub movestogo: Option<u32>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub clock: Option<Clock>,
    pub infinite: bool,
    /// Subtracted from every time budget for the transport and the GUI (`Move Overhead`).
    pub overhead: Duration,
    /// The instant the time budgets (and the reported `time`) count from: when the `go`
    /// arrived, so that time spent before the search (waiting for a thread, a solver that
    /// gave up) is charged to it. `None`: when the search starts.
    pub started: Option<Instant>,
}

impl Limits {
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// (soft, hard) time budgets: no new iteration starts after `soft`; the search is cut
    /// off at `hard`. `None` when time does not limit this search.
    pub fn budgets(&self) -> Option<(Duration, Duration)> {
        if self.infinite {
            return None;
        }
        let movetime = self.movetime.map(|m| {
            let hard = m
                .saturating_sub(self.overhead)
                .max(Duration::from_millis(1));
            (hard, hard)
        });
        let clock = self.clock.map(|c| {
            let available = c
                .time
                .saturating_sub(self.overhead)
                .max(Duration::from_millis(1));
            let mtg = c.movestogo.unwrap_or(25).clamp(1, 50);
            let soft = (c.time / mtg + c.inc * 3 / 4).min(available * 6 / 10);
            let hard = (soft * 3).min(available * 8 / 10);
            (soft, hard.max(soft))
        });
        match (movetime, clock) {
            (Some(a), Some(b)) => Some((a.0.min(b.0), a.1.min(b.1))),
            (a, b) => a.or(b),
        }
    }
}

/// What the searcher reports after each completed iteration.
#[derive(Clone, Debug)]
pub struct Info<M> {
    pub depth: u32,
    pub seldepth: u32,
    /// From the root's side to move; see [`Score::from_value`].
    pub value: i32,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: u32,
    pub pv: Vec<M>,
}

impl<M> Info<M> {
    pub fn nps(&self) -> u64 {
        let us = self.time.as_micros().max(1);
        (self.nodes as u128 * 1_000_000 / us) as u64
    }
}

#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// `None` only when the game is over at the root.
    pub best: Option<M>,
    pub value: i32,
    /// The last completed depth (0 for a finished game).
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<M>,
    pub time: Duration,
}

/// The searcher's state that outlives one search: the transposition table and the history.
pub struct Searcher<G: Game> {
    tt: Table<G::Move>,
    history: Vec<i32>,
    killers: Vec<[Option<G::Move>; 2]>,
    /// One move buffer per ply (with ordering keys), reused so the search does not allocate.
    moves: Vec<Vec<(i32, G::Move)>>,
    generated: Vec<G::Move>,
    /// Triangular principal-variation table: `pv[ply]` is the best line from that ply.
    pv: Vec<Vec<G::Move>>,
    nodes: u64,
    seldepth: usize,
    aborted: bool,
    control: Control,
    root_best: Option<(G::Move, i32)>,
}

/// When to give up: evaluated every 1024 nodes.
struct Control {
    hard: Option<Instant>,
    node_limit: Option<u64>,
    /// False while depth 1 runs: it always completes.
    may_abort: bool,
}

impl<G: Game> Searcher<G> {
    /// A searcher with a transposition table of at most `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Searcher<G> {
        Self::with_table_bytes(hash_mb.max(1).saturating_mul(1 << 20))
    }

    /// A searcher with a transposition table of at most `bytes` bytes (at least two entries).
    /// Creating it is cheap at any size: the table's memory is supplied as it is first used.
    pub fn with_table_bytes(bytes: usize) -> Searcher<G> {
        Searcher {
            tt: Table::with_bytes(bytes),
            history: vec![0; 2 * G::MOVE_IDS],
            killers: vec![[None; 2]; MAX_PLY + 2],
            moves: (0..MAX_PLY + 2).map(|_| Vec::new()).collect(),
            generated: Vec::new(),
            pv: (0..MAX_PLY + 2).map(|_| Vec::new()).collect(),
            nodes: 0,
            seldepth: 0,
            aborted: false,
            control: Control {
                hard: None,
                node_limit: None,
                may_abort: false,
            },
            root_best: None,
        }
    }

    pub fn resize(&mut self, hash_mb: usize) {
        self.resize_bytes(hash_mb.max(1).saturating_mul(1 << 20));
    }

    /// Replaces the table by an empty one of at most `bytes` bytes (the old one is freed on
    /// another thread).
    pub fn resize_bytes(&mut self, bytes: usize) {
        let old = std::mem::replace(&mut self.tt, Table::with_bytes(bytes));
        crate::util::drop_in_background(old);
    }

    /// Bytes of the transposition table.
    pub fn table_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// Forgets everything learnt: table, history, killers (`ucinewgame`, `bench`).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.fill(0);
        self.killers.fill([None; 2]);
    }

    /// Searches `root` within `limits`, calling `report` after every completed iteration.
    /// `stop` ends the search early (polled every 1024 nodes, after depth 1).
    pub fn search(
        &mut self,
        root: &G,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        let start = limits.started.unwrap_or_else(Instant::now);
        self.nodes = 0;
        self.tt.new_search();
        for h in self.history.iter_mut() {
            *h /= 4;
        }
        self.killers.fill([None; 2]);
        if let Some(o) = root.outcome() {
            return SearchResult {
                best: None,
                value: terminal_value(o, root.side_to_move(), 0),
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
                time: start.elapsed(),
            };
        }
        let budgets = limits.budgets();
        self.control = Control {
            hard: budgets.and_then(|(_, h)| start.checked_add(h)),
            node_limit: limits.nodes,
            may_abort: false,
        };
        self.aborted = false;
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let exhaustive_at = root.max_remaining_plies();
        let mut root_moves = Vec::new();
        root.legal_moves(&mut root_moves);

        let mut result = SearchResult {
            best: root_moves.first().copied(),
            value: 0,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
            time: Duration::ZERO,
        };
        for depth in 1..=max_depth {
            self.control.may_abort = depth > 1;
            self.seldepth = 0;
            self.root_best = None;
            let value = self.negamax(root, depth as i32, 0, -INF, INF, stop);
            if self.aborted {
                // A root move searched to the end in the unfinished iteration, and better than
                // the others searched, is at least as well founded as the last iteration's.
                if let Some((mv, v)) = self.root_best
                    && (Some(mv) != result.best || v > result.value)
                {
                    result.best = Some(mv);
                    result.value = v;
                    result.pv = vec![mv];
                }
                break;
            }
            result.best = self.pv[0].first().copied().or(result.best);
            result.value = value;
            result.depth = depth;
            result.pv = self.pv[0].clone();
            self.extend_pv(root, &mut result.pv, depth as usize);
            let info = Info {
                depth,
                seldepth: self.seldepth.max(1) as u32,
                value,
                nodes: self.nodes,
                time: start.elapsed(),
                hashfull: self.tt.hashfull(),
                pv: result.pv.clone(),
            };
            report(&info);

            let proven = is_mate(value) && (MATE - value.abs()) as u32 <= depth;
            let exhausted = exhaustive_at.is_some_and(|m| depth >= m);
            let out_of_time = budgets.is_some_and(|(soft, _)| start.elapsed() >= soft);
            let only_move = root_moves.len() == 1 && budgets.is_some();
            let out_of_nodes = limits.nodes.is_some_and(|n| self.nodes >= n);
            if proven || exhausted || out_of_time || only_move || out_of_nodes {
                break;
            }
            if stop.load(Ordering::Relaxed) {
                break;
            }
        }
        result.nodes = self.nodes;
        result.time = start.elapsed();
        result
    }

    /// Lengthens a principal variation cut short by table hits: follows the table's best
    /// moves (each checked legal) up to `depth` moves, stopping at the end of the game or
    /// where the line would repeat a position.
    fn extend_pv(&self, root: &G, pv: &mut Vec<G::Move>, depth: usize) {
        let mut pos = root.clone();
        let mut seen = vec![pos.key()];
        for &mv in pv.iter() {
            pos.play(mv);
            seen.push(pos.key());
        }
        let mut legal = Vec::new();
        while pv.len() < depth && pos.outcome().is_none() {
            let Some(mv) = self.tt.probe(pos.key()).and_then(|e| e.mv) else {
                break;
            };
            legal.clear();
            pos.legal_moves(&mut legal);
            if !legal.contains(&mv) {
                break;
            }
            pos.play(mv);
            if seen.contains(&pos.key()) {
                break;
            }
            seen.push(pos.key());
            pv.push(mv);
        }
    }

    fn check_abort(&mut self, stop: &AtomicBool) {
        let c = &self.control;
        if !c.may_abort {
            return;
        }
        if stop.load(Ordering::Relaxed)
            || c.node_limit.is_some_and(|n| self.nodes >= n)
            || c.hard.is_some_and(|h| Instant::now() >= h)
        {
            self.aborted = true;
        }
    }

    fn negamax(
        &mut self,
        pos: &G,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        stop: &AtomicBool,
    ) -> i32 {
        self.pv[ply].clear();
        if self.nodes & 1023 == 0 {
            self.check_abort(stop);
        }
        if self.aborted {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);

        if let Some(o) = pos.outcome() {
            return terminal_value(o, pos.side_to_move(), ply);
        }
        if depth <= 0 || ply >= MAX_PLY {
            return pos.evaluate().clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        }
        // Mate distance pruning: the game is not over here, so it ends at ply + 1 at the
        // earliest, for either side (a misère Nim player can lose by its own move).
        alpha = alpha.max(-(MATE - ply as i32 - 1));
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let key = pos.key();
        let mut tt_move = None;
        if let Some(e) = self.tt.probe(key) {
            tt_move = e.mv;
            if ply > 0 && e.depth as i32 >= depth {
                let s = from_tt(e.score, ply);
                let usable = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                    Bound::Empty => false,
                };
                if usable {
                    return s;
                }
            }
        }

        let mut moves = std::mem::take(&mut self.moves[ply]);
        self.order_moves(pos, ply, tt_move, &mut moves);
        let side = pos.side_to_move().index();
        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        for (i, &(_, mv)) in moves.iter().enumerate() {
            let mut child = pos.clone();
            child.play(mv);
            let mut score;
            if i == 0 {
                score = -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha, stop);
            } else {
                score = -self.negamax(&child, depth - 1, ply + 1, -alpha - 1, -alpha, stop);
                if score > alpha && score < beta && !self.aborted {
                    score = -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha, stop);
                }
            }
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                    if ply == 0 {
                        self.root_best = Some((mv, score));
                    }
                    if alpha >= beta {
                        if Some(mv) != tt_move {
                            let k = &mut self.killers[ply];
                            if k[0] != Some(mv) {
                                k[1] = k[0];
                                k[0] = Some(mv);
                            }
                        }
                        let h = &mut self.history[side * G::MOVE_IDS + pos.move_id(mv)];
                        *h = (*h + depth * depth).min(1 << 20);
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        if self.aborted {
            return 0;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, best_move, to_tt(best, ply), depth, bound);
        best
    }

    /// Fills `out` with the legal moves, best first: the TT move, the killers, then by
    /// history; ties keep the game's static order (the sort is stable).
    fn order_moves(
        &mut self,
        pos: &G,
        ply: usize,
        tt_move: Option<G::Move>,
        out: &mut Vec<(i32, G::Move)>,
    ) {
        self.generated.clear();
        pos.legal_moves(&mut self.generated);
        let side = pos.side_to_move().index();
        let killers = self.killers[ply];
        out.clear();
        out.extend(self.generated.iter().map(|&mv| {
            let key = if Some(mv) == tt_move {
                i32::MAX
            } else if Some(mv) == killers[0] {
                i32::MAX - 1
            } else if Some(mv) == killers[1] {
                i32::MAX - 2
            } else {
                self.history[side * G::MOVE_IDS + pos.move_id(mv)]
            };
            (key, mv)
        }));
        out.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn clock(time: u64, inc: u64, movestogo: Option<u32>) -> Option<Clock> {
        Some(Clock {
            time: ms(time),
            inc: ms(inc),
            movestogo,
        })
    }

    /// `go movetime N` stops at N less `Move Overhead`, so the answer reaches the client
    /// within N (ply answered `go movetime 200` after 192-205 ms with no overhead kept back,
    /// and lost a referee game at st=0.2 on time); clocks keep the overhead back too.
    #[test]
    fn budgets_keep_the_move_overhead_back() {
        let with = |movetime: Option<u64>, clock: Option<Clock>| Limits {
            movetime: movetime.map(ms),
            clock,
            overhead: ms(30),
            ..Limits::default()
        };
        assert_eq!(with(Some(200), None).budgets(), Some((ms(170), ms(170))));
        assert_eq!(with(Some(1000), None).budgets(), Some((ms(970), ms(970))));
        // Less than the overhead: 1 ms, so depth 1 still runs.
        assert_eq!(with(Some(10), None).budgets(), Some((ms(1), ms(1))));
        // 200 ms left, 25 moves to go: 8 ms soft, three times that hard.
        assert_eq!(
            with(None, clock(200, 0, None)).budgets(),
            Some((ms(8), ms(24)))
        );
        // The hard limit stays within 80% of the time less the overhead.
        let (soft, hard) = with(None, clock(1000, 0, Some(1))).budgets().unwrap();
        assert_eq!((soft, hard), (ms(582), ms(776)));
        // No time left (a one-sided clock counts the missing side as 0): nothing to spend.
        assert_eq!(
            with(None, clock(0, 0, None)).budgets(),
            Some((ms(0), ms(0)))
        );
        // movetime and a clock: the earlier limit wins.
        assert_eq!(
            with(Some(5), clock(10_000, 0, None)).budgets(),
            Some((ms(1), ms(1)))
        );
        assert_eq!(
            Limits {
                infinite: true,
                ..with(Some(100), None)
            }
            .budgets(),
            None
        );
    }
}
