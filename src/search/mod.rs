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
//! - Limits: depth, nodes (exact: the search stops at the count), move time, clock,
//!   infinite, and a stop flag polled every 1024 nodes. Depth 1 always completes, so there
//!   is always a move to play.
//! - At a fixed depth it is deterministic: node counts depend only on the position and
//!   the table's contents (cleared by `ucinewgame` and before every `bench` position).

pub mod tt;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::game::{Game, SearchHints};
use tt::{Bound, Table, from_tt, to_tt};

use crate::value::{MATE, MATE_BOUND, MAX_PLY, Score, is_mate, terminal_value};

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

#[derive(Clone, Debug, Default)]
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
    /// `go mate n`: stop once a win in at most `n` moves is proven; the search goes no
    /// deeper than `2n + 4` plies (a mate in `n` is `2n - 1` plies deep; the rest allows for
    /// reductions).
    pub mate: Option<u32>,
    /// `go ponder`: set by `ponderhit`. Until it is set the search has no time limit; from
    /// then on its time budgets count from the moment it saw the flag.
    pub ponderhit: Option<Arc<AtomicBool>>,
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
            // The time this move should take on average. An iteration takes about as long
            // as all before it, or longer: none starts after half the target, so the move
            // ends between half the target and the hard limit, near the target on average.
            let target = (c.time.saturating_sub(clock_reserve(c)) / mtg + c.inc * 3 / 4)
                .min(available * 6 / 10);
            let hard = (target * 3).min(available * 8 / 10);
            (target / 2, hard.max(target / 2))
        });
        match (movetime, clock) {
            (Some(a), Some(b)) => Some((a.0.min(b.0), a.1.min(b.1))),
            (a, b) => a.or(b),
        }
    }
}

/// The part of the clock the budgets leave for later moves: twenty increments (at least
/// 50 ms), at most half the clock. Without it the clock settles where `t / movestogo`
/// equals a quarter increment (6.25 increments: 62 ms at 1 s + 10 ms), within reach of one
/// scheduling delay of a loaded machine (200 ms and more seen on two cores at load 8); with
/// it, where half the clock is spent that way: 12.5 increments (125 ms at 1 s + 10 ms,
/// 1.25 s at 10 s + 0.1 s), and higher while the game is young.
fn clock_reserve(c: Clock) -> Duration {
    (c.inc * 20).max(Duration::from_millis(50)).min(c.time / 2)
}

/// What the searcher reports after each completed iteration, once per line (`MultiPV`).
#[derive(Clone, Debug)]
pub struct Info<M> {
    pub depth: u32,
    pub seldepth: u32,
    /// The line's rank, from 1 (the best) to the number of lines asked for.
    pub multipv: u32,
    /// From the root's side to move; see [`Score::from_value`].
    pub value: i32,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: u32,
    /// Positions the [`Oracle`] answered, since the search began.
    pub tbhits: u64,
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

/// What to search: the root position and what the game and the client say about it.
pub struct Root<'a, G: Game> {
    pub pos: &'a G,
    /// Keys of the game's positions before `pos` that it could repeat, oldest first
    /// ([`crate::game::Line::earlier`]): a line of the search that reaches one is a draw.
    pub earlier: &'a [u64],
    /// Only these root moves are searched (`go searchmoves`); empty: every legal move.
    pub moves: &'a [G::Move],
    /// How many best lines to find and report (`MultiPV`), at least 1.
    pub lines: usize,
}

impl<'a, G: Game> Root<'a, G> {
    /// `pos` alone: no history, every move, one line.
    pub fn new(pos: &'a G) -> Root<'a, G> {
        Root {
            pos,
            earlier: &[],
            moves: &[],
            lines: 1,
        }
    }
}

/// Move-ordering keys, highest first: the table's move, noisy moves by the game's score,
/// the killers, quiet moves by history (`0 ..= HISTORY_MAX`), losing noisy moves last.
const ORDER_TT: i32 = i32::MAX;
const ORDER_GOOD_NOISY: i32 = 1 << 28;
const ORDER_KILLER: i32 = 1 << 27;
const HISTORY_MAX: i32 = 1 << 20;
const ORDER_BAD_NOISY: i32 = -(1 << 28);

/// The root window's half-width when aspiration windows are on, in centi-units; doubled
/// after every failure.
const ASPIRATION_DELTA: i32 = 25;

/// Exact values the search takes instead of searching a position (endgame databases, from
/// a game's solver): at every node but the root, after the repetition and game-end checks.
pub trait Oracle<G>: Send + Sync {
    /// The exact value of `pos` (a game not over), from its side to move's view, in the
    /// value scale with distances counted from `pos` (`MATE - n` for a win whose last move
    /// is `n` plies away; 0 for a draw), or `None` when it is not known.
    fn value(&self, pos: &G) -> Option<i32>;
}

/// The searcher's state that outlives one search: the transposition table and the history.
pub struct Searcher<G: Game> {
    /// The game's [`Game::SEARCH`], minus what `PLY_SEARCH_OFF` turns off.
    hints: SearchHints,
    tt: Table<G::Move>,
    history: Vec<i32>,
    killers: Vec<[Option<G::Move>; 2]>,
    /// One move buffer per ply (with ordering keys), reused so the search does not allocate.
    moves: Vec<Vec<(i32, G::Move)>>,
    generated: Vec<G::Move>,
    /// Triangular principal-variation table: `pv[ply]` is the best line from that ply.
    pv: Vec<Vec<G::Move>>,
    /// The key stack for repetitions (games with [`Game::REPETITION_DRAW`] only): the
    /// game's earlier keys, then the key of the position at each ply of the current line.
    keys: Vec<u64>,
    /// Index in `keys` of the root.
    root_index: usize,
    /// `reversible_from[ply]`: the first index in `keys` the position at `ply` could repeat
    /// (after the last irreversible move or null move on the line).
    reversible_from: Vec<usize>,
    /// The root moves the current iteration may search (`searchmoves`, minus the lines
    /// already found at this depth with `MultiPV`); `None`: all of them.
    root_allowed: Option<Vec<G::Move>>,
    /// Late-move reductions by depth and move number (both capped at 63).
    reductions: Vec<[u8; 64]>,
    /// The depth of the iteration under way.
    root_depth: u32,
    nodes: u64,
    seldepth: usize,
    aborted: bool,
    control: Control,
    root_best: Option<(G::Move, i32)>,
    oracle: Option<Arc<dyn Oracle<G>>>,
    tbhits: u64,
}

/// When to give up: evaluated every 1024 nodes, and at every node past a node limit.
#[derive(Default)]
struct Control {
    hard: Option<Instant>,
    /// No new iteration starts after this.
    soft: Option<Instant>,
    /// (soft, hard) budgets, applied from `go` or, when pondering, from `ponderhit`.
    budgets: Option<(Duration, Duration)>,
    /// Set by `ponderhit` while pondering; `None` once seen (or when not pondering).
    ponderhit: Option<Arc<AtomicBool>>,
    node_limit: Option<u64>,
    /// `node_limit` or `u64::MAX`: from this node count on, every node looks at the limits
    /// (not only every 1024th), so that `go nodes` stops at its count exactly.
    node_cap: u64,
    /// False while depth 1 runs: it always completes.
    may_abort: bool,
}

impl Control {
    /// True while pondering: no time limit yet.
    fn pondering(&self) -> bool {
        self.ponderhit.is_some()
    }

    /// Starts the clock if `ponderhit` has arrived since the last look.
    fn poll_ponderhit(&mut self) {
        if self
            .ponderhit
            .as_ref()
            .is_some_and(|f| f.load(Ordering::SeqCst))
        {
            self.ponderhit = None;
            self.start_clock(Instant::now());
        }
    }

    fn start_clock(&mut self, from: Instant) {
        self.soft = self.budgets.and_then(|(s, _)| from.checked_add(s));
        self.hard = self.budgets.and_then(|(_, h)| from.checked_add(h));
    }
}

fn reduction_table() -> Vec<[u8; 64]> {
    (0..64)
        .map(|d| {
            let mut row = [0u8; 64];
            for (i, r) in row.iter_mut().enumerate().skip(1) {
                if d > 0 {
                    let v = 0.75 + (d as f64).ln() * (i as f64).ln() / 2.25;
                    *r = v.max(0.0) as u8;
                }
            }
            row
        })
        .collect()
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
            hints: without_env_off(G::SEARCH),
            tt: Table::with_bytes(bytes),
            history: vec![0; 2 * G::MOVE_IDS],
            killers: vec![[None; 2]; MAX_PLY + 2],
            moves: (0..MAX_PLY + 2).map(|_| Vec::new()).collect(),
            generated: Vec::new(),
            pv: (0..MAX_PLY + 2).map(|_| Vec::new()).collect(),
            keys: Vec::new(),
            root_index: 0,
            reversible_from: vec![0; MAX_PLY + 2],
            root_allowed: None,
            reductions: reduction_table(),
            root_depth: 0,
            nodes: 0,
            seldepth: 0,
            aborted: false,
            control: Control::default(),
            root_best: None,
            oracle: None,
            tbhits: 0,
        }
    }

    /// Lets the search take exact values from `oracle` (or no longer, with `None`).
    pub fn set_oracle(&mut self, oracle: Option<Arc<dyn Oracle<G>>>) {
        self.oracle = oracle;
    }

    /// The oracle's value of `pos`, counted as a table hit when it has one.
    fn ask_oracle(&mut self, pos: &G) -> Option<i32> {
        let v = self.oracle.as_ref()?.value(pos)?;
        self.tbhits += 1;
        Some(v)
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

    /// Searches `root` alone (no history, every move, one line) within `limits`.
    pub fn search(
        &mut self,
        root: &G,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        self.search_root(&Root::new(root), limits, stop, report)
    }

    /// Searches `root` within `limits`, calling `report` after every completed iteration
    /// with each of its lines, best first. `stop` ends the search early (polled every 1024
    /// nodes, after depth 1).
    pub fn search_root(
        &mut self,
        root: &Root<G>,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        let start = limits.started.unwrap_or_else(Instant::now);
        let pos = root.pos;
        self.age_for_new_search();
        if let Some(o) = pos.outcome() {
            return SearchResult {
                best: None,
                value: terminal_value(o, pos.side_to_move(), 0),
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
                time: start.elapsed(),
            };
        }
        self.start_control(limits, start);
        self.enter_game_line(root.earlier);
        let root_moves = root_moves(pos, root.moves);
        let lines = root.lines.clamp(1, root_moves.len());
        let restricted = root_moves.len() < legal_count(pos);
        let mut max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        if let Some(n) = limits.mate {
            max_depth = max_depth.min(n.saturating_mul(2).saturating_add(4).max(1));
        }
        let exhaustive_at = pos.max_remaining_plies();

        let mut result = SearchResult {
            best: root_moves.first().copied(),
            value: 0,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
            time: Duration::ZERO,
        };
        let mut previous: Vec<i32> = Vec::new();
        let mut best_changes = 0u32;
        for depth in 1..=max_depth {
            self.control.may_abort = depth > 1;
            self.seldepth = 0;
            let found = self.iterate(pos, depth, &root_moves, lines, restricted, &previous, stop);
            if self.aborted {
                self.salvage(pos, depth, &found, &mut result);
                break;
            }
            // Changes of the best move, decaying by half each iteration.
            best_changes /= 2;
            if found[0].1.first().copied() != result.best && depth > 1 {
                best_changes += 2;
            }
            result.best = found[0].1.first().copied().or(result.best);
            result.value = found[0].0;
            result.depth = depth;
            result.pv = found[0].1.clone();
            previous = found.iter().map(|l| l.0).collect();
            for (k, (value, pv)) in found.into_iter().enumerate() {
                report(&Info {
                    depth,
                    seldepth: self.seldepth.max(1) as u32,
                    multipv: k as u32 + 1,
                    value,
                    nodes: self.nodes,
                    time: start.elapsed(),
                    hashfull: self.tt.hashfull(),
                    tbhits: self.tbhits,
                    pv,
                });
            }

            let value = result.value;
            let proven = is_mate(value) && (MATE - value.abs()) as u32 <= depth && lines == 1;
            let mate_found = limits.mate.is_some_and(
                |n| matches!(Score::from_value(value), Score::Mate(k) if k > 0 && k as u32 <= n),
            );
            let exhausted = exhaustive_at.is_some_and(|m| depth >= m);
            self.control.poll_ponderhit();
            let out_of_time = self
                .control
                .soft
                .is_some_and(|soft| Instant::now() >= soft + self.stability_bonus(best_changes));
            let only_move = root_moves.len() == 1 && limits.budgets().is_some();
            let out_of_nodes = limits.nodes.is_some_and(|n| self.nodes >= n);
            if proven || mate_found || exhausted || out_of_time || only_move || out_of_nodes {
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

    /// What one search leaves the next: the table ages by a generation, history scores keep
    /// a quarter of their weight, killers (moves of other positions now) are dropped.
    fn age_for_new_search(&mut self) {
        self.nodes = 0;
        self.tbhits = 0;
        self.tt.new_search();
        for h in self.history.iter_mut() {
            *h /= 4;
        }
        self.killers.fill([None; 2]);
    }

    /// The key stack starts with the game's `earlier` positions, so that the search sees
    /// repetitions of them; the root sits just above them.
    fn enter_game_line(&mut self, earlier: &[u64]) {
        self.keys.clear();
        self.keys.extend_from_slice(earlier);
        self.root_index = earlier.len();
        self.reversible_from[0] = 0;
    }

    /// Sets the limits up: time budgets from `start`, or from `ponderhit` when pondering.
    fn start_control(&mut self, limits: &Limits, start: Instant) {
        self.control = Control {
            budgets: limits.budgets(),
            ponderhit: limits.ponderhit.clone(),
            node_limit: limits.nodes,
            node_cap: limits.nodes.unwrap_or(u64::MAX),
            ..Control::default()
        };
        if !self.control.pondering() {
            self.control.start_clock(start);
        }
        self.aborted = false;
    }

    /// Extra time past the soft budget while the best move keeps changing: a quarter of the
    /// soft budget per unit of `best_changes` (2 for a change in the last iteration, 1 the
    /// iteration before), at most the soft budget again (the hard budget still caps it).
    fn stability_bonus(&self, best_changes: u32) -> Duration {
        let Some((soft, _)) = self.control.budgets else {
            return Duration::ZERO;
        };
        (soft / 4 * best_changes.min(4)).min(soft)
    }

    /// One iteration at `depth`: each of `lines` best root moves with its value and line,
    /// best first. Stops early (with the lines found so far) when the search is aborted.
    #[allow(clippy::too_many_arguments)]
    fn iterate(
        &mut self,
        pos: &G,
        depth: u32,
        root_moves: &[G::Move],
        lines: usize,
        restricted: bool,
        previous: &[i32],
        stop: &AtomicBool,
    ) -> Vec<(i32, Vec<G::Move>)> {
        self.root_depth = depth;
        let mut found: Vec<(i32, Vec<G::Move>)> = Vec::with_capacity(lines);
        for k in 0..lines {
            self.root_allowed = (restricted || k > 0).then(|| {
                root_moves
                    .iter()
                    .copied()
                    .filter(|m| !found.iter().any(|l| l.1.first() == Some(m)))
                    .collect()
            });
            self.root_best = None;
            let value = self.root_window(pos, depth, previous.get(k).copied(), stop);
            if self.aborted {
                break;
            }
            let mut pv = self.pv[0].clone();
            if pv.is_empty()
                && let Some((mv, _)) = self.root_best
            {
                pv.push(mv);
            }
            self.extend_pv(pos, &mut pv, depth as usize);
            found.push((value, pv));
        }
        self.root_allowed = None;
        found.sort_by_key(|l| std::cmp::Reverse(l.0));
        found
    }

    /// The root's value at `depth`: with aspiration windows (when the game opts in, from
    /// depth 5, around `guess`), re-searched wider after each failure; else a full window.
    fn root_window(&mut self, pos: &G, depth: u32, guess: Option<i32>, stop: &AtomicBool) -> i32 {
        let d = depth as i32;
        let Some(guess) = guess.filter(|g| self.hints.aspiration && depth >= 5 && !is_mate(*g))
        else {
            return self.negamax(pos, d, 0, -INF, INF, stop, true);
        };
        let mut delta = ASPIRATION_DELTA;
        let (mut alpha, mut beta) = (guess - delta, guess + delta);
        loop {
            let v = self.negamax(pos, d, 0, alpha, beta, stop, true);
            if self.aborted {
                return v;
            }
            if v <= alpha {
                alpha = (v - delta).max(-INF);
            } else if v >= beta {
                beta = (v + delta).min(INF);
            } else {
                return v;
            }
            delta = delta.saturating_mul(2);
            if delta > 1000 {
                (alpha, beta) = (-INF, INF);
            }
        }
    }

    /// After an aborted iteration: its best line when one was completed, else a root move
    /// searched to the end and better than the others searched (at least as well founded as
    /// the last iteration's), its line continued from the table as far as `depth` (so that a
    /// `bestmove` can still name a `ponder` reply).
    fn salvage(
        &self,
        pos: &G,
        depth: u32,
        found: &[(i32, Vec<G::Move>)],
        result: &mut SearchResult<G::Move>,
    ) {
        if let Some((v, pv)) = found.first() {
            if let Some(&mv) = pv.first() {
                result.best = Some(mv);
                result.value = *v;
                result.pv = pv.clone();
            }
        } else if let Some((mv, v)) = self.root_best
            && (Some(mv) != result.best || v > result.value)
        {
            result.best = Some(mv);
            result.value = v;
            result.pv = vec![mv];
            self.extend_pv(pos, &mut result.pv, depth as usize);
        }
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
        self.control.poll_ponderhit();
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

    /// Records the position at `ply` on the key stack and tells whether it repeats an
    /// earlier one since the last irreversible move (positions two plies apart: the same
    /// side to move). Only for games with a repetition rule.
    fn repeats(&mut self, key: u64, ply: usize) -> bool {
        let index = self.root_index + ply;
        self.keys.truncate(index);
        self.keys.push(key);
        if ply == 0 {
            return false;
        }
        let from = self.reversible_from[ply];
        let mut i = index;
        while i >= from + 2 {
            i -= 2;
            if self.keys[i] == key {
                return true;
            }
        }
        false
    }

    /// Tells the key stack whether the move from `ply` to `ply + 1` was irreversible.
    fn note_move(&mut self, ply: usize, irreversible: bool) {
        self.reversible_from[ply + 1] = if irreversible {
            self.root_index + ply + 1
        } else {
            self.reversible_from[ply]
        };
    }

    /// The value of `pos` to `depth` plies within `(alpha, beta)`, fail-soft. `null_ok`:
    /// a null move may be tried here (not right after one).
    ///
    /// Its steps: draws by repetition and finished games, the horizon (quiescence or the
    /// evaluation), mate-distance pruning, the table, null-move pruning, then the moves.
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &G,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        stop: &AtomicBool,
        null_ok: bool,
    ) -> i32 {
        // Every return leaves `pv[ply]` holding this node's line (empty unless a move raised
        // alpha): the parent appends it to its own move, so a stale line from another branch
        // would put moves of some other position into the principal variation.
        self.pv[ply].clear();
        if depth <= 0 && self.hints.quiescence {
            // A horizon position that repeats one on the line is a draw too.
            if G::REPETITION_DRAW.is_some() && self.repeats(pos.key(), ply) {
                return 0;
            }
            return self.quiesce(pos, ply, alpha, beta, stop);
        }
        if self.nodes & 1023 == 0 || self.nodes >= self.control.node_cap {
            self.check_abort(stop);
        }
        if self.aborted {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);

        let key = pos.key();
        if G::REPETITION_DRAW.is_some() && self.repeats(key, ply) {
            return 0;
        }
        if let Some(o) = pos.outcome() {
            return terminal_value(o, pos.side_to_move(), ply);
        }
        if ply > 0
            && let Some(v) = self.ask_oracle(pos)
        {
            return from_root(v, ply);
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

        let in_check = (self.hints.null_move || self.hints.late_move_reductions) && pos.in_check();
        if self.hints.null_move
            && null_ok
            && !in_check
            && let Some(v) = self.try_null_move(pos, depth, ply, beta, stop)
        {
            return v;
        }
        let (best, best_move) =
            self.search_moves(pos, depth, ply, alpha, beta, in_check, tt_move, stop);
        if self.aborted {
            return 0;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, best_move, to_tt(best, ply), depth, bound);
        best
    }

    /// Null-move pruning: when passing still keeps the value at `beta` or above in a reduced
    /// search, the node fails high without searching its moves. Only at non-PV nodes (a null
    /// window), from depth 3, when the static evaluation is at `beta` or above.
    fn try_null_move(
        &mut self,
        pos: &G,
        depth: i32,
        ply: usize,
        beta: i32,
        stop: &AtomicBool,
    ) -> Option<i32> {
        if ply == 0 || depth < 3 || is_mate(beta) || pos.evaluate() < beta {
            return None;
        }
        let child = pos.null_move()?;
        let r = 3 + depth / 4;
        self.note_move(ply, true);
        let v = -self.negamax(
            &child,
            depth - 1 - r,
            ply + 1,
            -beta,
            -beta + 1,
            stop,
            false,
        );
        if self.aborted {
            return Some(0);
        }
        // A mate found behind a pass is not proven for the real moves.
        (v >= beta).then(|| if is_mate(v) { beta } else { v })
    }

    /// Searches the moves of `pos` (principal variation search with late-move reductions
    /// and check extensions where the game opts in); returns the best value and move.
    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        pos: &G,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        in_check: bool,
        tt_move: Option<G::Move>,
        stop: &AtomicBool,
    ) -> (i32, Option<G::Move>) {
        let mut moves = std::mem::take(&mut self.moves[ply]);
        self.order_moves(pos, ply, tt_move, &mut moves);
        let mut best = -INF;
        let mut best_move = None;
        for (i, &(order, mv)) in moves.iter().enumerate() {
            let mut child = pos.clone();
            child.play(mv);
            if G::REPETITION_DRAW.is_some() {
                self.note_move(ply, pos.is_irreversible(mv));
            }
            let gives_check = self.hints.check_extension && child.in_check();
            // Extensions stop at twice the iteration's depth: a long series of checks would
            // otherwise never reach the horizon (and depth 1, which `stop` cannot cut, must end).
            let extend = gives_check && (ply as u32) < 2 * self.root_depth;
            let new_depth = depth - 1 + extend as i32;
            let mut score;
            if i == 0 {
                score = -self.negamax(&child, new_depth, ply + 1, -beta, -alpha, stop, true);
            } else {
                let quiet_late = self.hints.late_move_reductions
                    && depth >= 3
                    && i >= 3
                    && (0..ORDER_KILLER).contains(&order)
                    && !in_check
                    && !gives_check;
                let r = if quiet_late {
                    let row = &self.reductions[(depth as usize).min(63)];
                    (row[i.min(63)] as i32).min(new_depth - 1).max(0)
                } else {
                    0
                };
                score = -self.negamax(
                    &child,
                    new_depth - r,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                    stop,
                    true,
                );
                if r > 0 && score > alpha && !self.aborted {
                    score =
                        -self.negamax(&child, new_depth, ply + 1, -alpha - 1, -alpha, stop, true);
                }
                if score > alpha && score < beta && !self.aborted {
                    score = -self.negamax(&child, new_depth, ply + 1, -beta, -alpha, stop, true);
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
                        self.reward(pos, ply, depth, mv, tt_move);
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        (best, best_move)
    }

    /// A quiet move that caused a cutoff becomes a killer and gains history.
    fn reward(&mut self, pos: &G, ply: usize, depth: i32, mv: G::Move, tt_move: Option<G::Move>) {
        if pos.noisy_score(mv).is_some() {
            return;
        }
        if Some(mv) != tt_move {
            let k = &mut self.killers[ply];
            if k[0] != Some(mv) {
                k[1] = k[0];
                k[0] = Some(mv);
            }
        }
        let side = pos.side_to_move().index();
        let h = &mut self.history[side * G::MOVE_IDS + pos.move_id(mv)];
        *h = (*h + depth * depth).min(HISTORY_MAX);
    }

    /// The quiescence search at the horizon: the side to move may stand pat on its
    /// evaluation or try its noisy moves (all its moves when in check), best-scored first,
    /// skipping those the game expects to lose material.
    fn quiesce(
        &mut self,
        pos: &G,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        stop: &AtomicBool,
    ) -> i32 {
        self.pv[ply].clear();
        if self.nodes & 1023 == 0 || self.nodes >= self.control.node_cap {
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
        if ply > 0
            && let Some(v) = self.ask_oracle(pos)
        {
            return from_root(v, ply);
        }
        if ply >= MAX_PLY {
            return pos.evaluate().clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        }
        let in_check = pos.in_check();
        let mut best = -INF;
        if !in_check {
            best = pos.evaluate().clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        self.quiet_or_noisy(pos, in_check, &mut moves);
        for &(_, mv) in moves.iter() {
            let mut child = pos.clone();
            child.play(mv);
            let score = -self.quiesce(&child, ply + 1, -beta, -alpha, stop);
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        if self.aborted { 0 } else { best }
    }

    /// The quiescence search's moves: every legal move when in check (static order), else
    /// the noisy moves that do not lose material, best-scored first.
    fn quiet_or_noisy(&mut self, pos: &G, in_check: bool, out: &mut Vec<(i32, G::Move)>) {
        self.generated.clear();
        out.clear();
        if in_check {
            pos.legal_moves(&mut self.generated);
            out.extend(self.generated.iter().map(|&mv| (0, mv)));
            return;
        }
        pos.noisy_moves(&mut self.generated);
        out.extend(self.generated.iter().filter_map(|&mv| {
            let s = pos.noisy_score(mv).unwrap_or(0);
            (s >= 0).then_some((s, mv))
        }));
        out.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
    }

    /// Fills `out` with the legal moves (at the root, those allowed), best first: the TT
    /// move, the noisy moves the game scores as not losing, the killers, the quiet moves by
    /// history, the losing noisy moves; ties keep the game's static order (the sort is
    /// stable).
    fn order_moves(
        &mut self,
        pos: &G,
        ply: usize,
        tt_move: Option<G::Move>,
        out: &mut Vec<(i32, G::Move)>,
    ) {
        self.generated.clear();
        pos.legal_moves(&mut self.generated);
        if ply == 0
            && let Some(allowed) = &self.root_allowed
        {
            self.generated.retain(|m| allowed.contains(m));
        }
        let side = pos.side_to_move().index();
        let killers = self.killers[ply];
        out.clear();
        out.extend(self.generated.iter().map(|&mv| {
            let key = if Some(mv) == tt_move {
                ORDER_TT
            } else if let Some(s) = pos.noisy_score(mv) {
                if s >= 0 {
                    ORDER_GOOD_NOISY + s.min(ORDER_GOOD_NOISY - 1)
                } else {
                    ORDER_BAD_NOISY + s.max(-(ORDER_KILLER - 1))
                }
            } else if Some(mv) == killers[0] {
                ORDER_KILLER + 1
            } else if Some(mv) == killers[1] {
                ORDER_KILLER
            } else {
                self.history[side * G::MOVE_IDS + pos.move_id(mv)]
            };
            (key, mv)
        }));
        out.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
    }
}

/// An oracle's value of a position `ply` plies below the root, with its distance counted
/// from the root.
fn from_root(v: i32, ply: usize) -> i32 {
    match v {
        0 => 0,
        v if v > 0 => v - ply as i32,
        v => v + ply as i32,
    }
}

/// `hints` without the techniques named in the environment variable `PLY_SEARCH_OFF`
/// (comma-separated: `quiescence`, `null_move`, `check_extension`, `late_move_reductions`,
/// `aspiration`), for matches that measure what each one is worth (see protocol.md,
/// Environment). Unknown names are logged and ignored.
fn without_env_off(mut hints: SearchHints) -> SearchHints {
    let Ok(off) = std::env::var("PLY_SEARCH_OFF") else {
        return hints;
    };
    for name in off.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        match name {
            "quiescence" => hints.quiescence = false,
            "null_move" => hints.null_move = false,
            "check_extension" => hints.check_extension = false,
            "late_move_reductions" => hints.late_move_reductions = false,
            "aspiration" => hints.aspiration = false,
            other => log::warn!("PLY_SEARCH_OFF: unknown technique '{other}'"),
        }
    }
    hints
}

/// The legal root moves, restricted to `only` when it names any of them.
fn root_moves<G: Game>(pos: &G, only: &[G::Move]) -> Vec<G::Move> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    if moves.iter().any(|m| only.contains(m)) {
        moves.retain(|m| only.contains(m));
    }
    moves
}

fn legal_count<G: Game>(pos: &G) -> usize {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves.len()
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
        // 200 ms left, 25 moves to go, 50 ms kept in reserve: a 6 ms target, so no new
        // iteration after 3 ms, and three times the target hard.
        assert_eq!(
            with(None, clock(200, 0, None)).budgets(),
            Some((ms(3), ms(18)))
        );
        // 1 s + 10 ms: 200 ms (twenty increments) in reserve, a target of 32 + 7.5 ms.
        assert_eq!(
            with(None, clock(1000, 10, None)).budgets(),
            Some((
                ms(19) + Duration::from_micros(750),
                ms(118) + Duration::from_micros(500)
            ))
        );
        // The hard limit stays within 80% of the time less the overhead.
        let (soft, hard) = with(None, clock(1000, 0, Some(1))).budgets().unwrap();
        assert_eq!((soft, hard), (ms(291), ms(776)));
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
