//! The searcher: one negamax alpha-beta, generic over the game, that never prints.
//!
//! - Principal variation search (null windows after the first move, re-search on a fail-high
//!   inside the window), fail-soft: a node may return a value outside `(alpha, beta)`, and
//!   then it is a bound on the true value in that direction ([`alphabeta`]).
//! - Iterative deepening ([`deepening`]) with a transposition table ([`tt`]), move ordering
//!   ([`ordering`]) by TT move, two killers per ply, a history table ([`history`]), then the
//!   game's static order.
//! - Scores are from the side to move: heuristic values well inside ±`MATE_BOUND`, and
//!   `MATE - n` for a win whose last move is `n` plies away (`-(MATE - n)` for a loss), so
//!   faster wins and slower losses score higher.
//! - Limits ([`limits`]): depth, nodes (exact: the search stops at the count), move time,
//!   clock, infinite, and a stop flag polled every 1024 nodes; [`time`] turns a clock into
//!   budgets. Depth 1 always completes, so there is always a move to play.
//! - Which optional techniques run is the game's [`Game::SEARCH`], less what the caller turns
//!   off ([`Searcher::set_techniques_off`]).
//! - At a fixed depth it is deterministic: node counts depend only on the position and
//!   the table's contents (cleared by `ucinewgame` and before every `bench` position).

mod alphabeta;
mod deepening;
mod history;
mod limits;
mod ordering;
pub mod params;
mod pruning;
mod quiesce;
mod threads;
mod time;
pub mod tt;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

pub use limits::{Clock, Limits};

use crate::game::{Game, SearchHints};
use crate::value::{MATE, MATE_BOUND, MAX_PLY, terminal_value};
use history::History;
use threads::Shared;
use time::Control;
use tt::Table;

const INF: i32 = MATE + 1;
/// The iterative deepening's last depth when no depth limit is given.
pub const MAX_DEPTH: u32 = (MAX_PLY - 6) as u32;

/// What the searcher reports after each completed iteration, once per line (`MultiPV`).
#[derive(Clone, Debug)]
pub struct Info<M> {
    pub depth: u32,
    pub seldepth: u32,
    /// The line's rank, from 1 (the best) to the number of lines asked for.
    pub multipv: u32,
    /// From the root's side to move; see [`crate::value::Score::from_value`].
    pub value: i32,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: u32,
    /// Positions the [`Oracle`] answered, since the search began (by the main thread).
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

/// One searching thread's state: the table it shares, what it learnt about moves, its
/// buffers, and the search under way. Its methods live in the modules of each part of the
/// search ([`alphabeta`], [`deepening`], [`ordering`], [`pruning`], [`quiesce`],
/// [`threads`]).
struct Worker<G: Game> {
    /// The techniques this search uses.
    hints: SearchHints,
    tt: Arc<Table<G::Move>>,
    /// What the threads of the search under way share, when there are several.
    shared: Option<Arc<Shared>>,
    /// A helper thread's worker (see [`threads`]), not the main one.
    helper: bool,
    /// The part of `nodes` already added to the shared count (helper threads).
    published: u64,
    history: History<G::Move>,
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
    /// Late-move reductions by depth and move number (both capped at 63), from `params`.
    reductions: Vec<[u8; 64]>,
    /// The numeric parameters (margins, reductions), [`params::SearchParams::current`].
    params: params::SearchParams,
    /// The depth of the iteration under way.
    root_depth: u32,
    nodes: u64,
    seldepth: usize,
    aborted: bool,
    control: Control,
    root_best: Option<(G::Move, i32)>,
    /// What each ply of the current line knows about itself.
    stack: Vec<Frame<G::Move>>,
    /// One buffer per ply: the moves searched so far at that ply, each marked quiet or not
    /// (the history malus goes to them when a later move cuts off).
    tried: Vec<Vec<(bool, G::Move)>>,
    /// Exact values for positions below the root (see [`Oracle`]).
    oracle: Option<Arc<dyn Oracle<G>>>,
    /// Positions the oracle answered in this search.
    tbhits: u64,
}

/// Exact values the search takes instead of searching a position (endgame databases, from
/// a game's solver): at every node but the root, after the repetition and game-end checks.
pub trait Oracle<G>: Send + Sync {
    /// The exact value of `pos` (a game not over), from its side to move's view, in the
    /// value scale with distances counted from `pos` (`MATE - n` for a win whose last move
    /// is `n` plies away; 0 for a draw), or `None` when it is not known.
    fn value(&self, pos: &G) -> Option<i32>;
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

/// One ply of the line being searched.
#[derive(Clone, Copy)]
struct Frame<M> {
    /// The static evaluation of the position at this ply (`None` in check, or when no
    /// technique needs it).
    eval: Option<i32>,
    /// The [`Game::piece_to_id`] of the move being searched from this ply (`None` for a
    /// null move).
    moved: Option<usize>,
    /// A move the search of this ply leaves out: the table's move while a singular
    /// extension checks the others.
    excluded: Option<M>,
}

impl<M> Frame<M> {
    const EMPTY: Frame<M> = Frame {
        eval: None,
        moved: None,
        excluded: None,
    };
}

impl<G: Game> Worker<G> {
    fn new(tt: Arc<Table<G::Move>>, hints: SearchHints) -> Worker<G> {
        let params = params::SearchParams::current(G::SEARCH_PARAMS);
        Worker {
            hints,
            tt,
            shared: None,
            helper: false,
            published: 0,
            history: History::new(G::MOVE_IDS, G::PIECE_TO_IDS),
            moves: (0..MAX_PLY + 2).map(|_| Vec::new()).collect(),
            generated: Vec::new(),
            pv: (0..MAX_PLY + 2).map(|_| Vec::new()).collect(),
            keys: Vec::new(),
            root_index: 0,
            reversible_from: vec![0; MAX_PLY + 2],
            root_allowed: None,
            reductions: params.reduction_table(),
            params,
            root_depth: 0,
            nodes: 0,
            seldepth: 0,
            aborted: false,
            control: Control::default(),
            root_best: None,
            stack: (0..MAX_PLY + 2).map(|_| Frame::EMPTY).collect(),
            tried: (0..MAX_PLY + 2).map(|_| Vec::new()).collect(),
            oracle: None,
            tbhits: 0,
        }
    }

    /// A node at `ply` begins: looks at the limits when due (every 1024 nodes, and at every
    /// node past a node limit), then counts the node. `false` when the search is aborted
    /// (the node's value is then ignored).
    #[inline]
    fn enter(&mut self, ply: usize, stop: &AtomicBool) -> bool {
        if self.nodes & 1023 == 0 || self.nodes >= self.control.node_cap {
            self.check_abort(stop);
        }
        if self.aborted {
            return false;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        true
    }

    /// The static evaluation of `pos`: the learnt one with [`SearchHints::network`], else the
    /// full one with [`SearchHints::full_eval`], else the plain one.
    #[inline]
    fn static_eval(&self, pos: &G) -> i32 {
        if self.hints.network {
            pos.evaluate_net()
        } else if self.hints.full_eval {
            pos.evaluate_full()
        } else {
            pos.evaluate()
        }
    }

    /// `raw`, a static evaluation of `pos`, with the correction history's correction of its
    /// structure ([`crate::game::SearchHints::correction_history`]), within the heuristic
    /// range.
    #[inline]
    fn corrected(&self, pos: &G, raw: i32) -> i32 {
        let c = if self.hints.correction_history {
            self.history
                .correction(pos.side_to_move().index(), pos.structure_key())
        } else {
            0
        };
        (raw + c).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// The value of `pos`, `ply` plies below the root, when it is settled without a search:
    /// the game is over, or (below the root) the oracle knows it, counted as a table hit.
    fn settled(&mut self, pos: &G, ply: usize) -> Option<i32> {
        if let Some(o) = pos.outcome() {
            return Some(terminal_value(o, pos.side_to_move(), ply));
        }
        if ply == 0 {
            return None;
        }
        let v = self.oracle.as_ref()?.value(pos)?;
        self.tbhits += 1;
        Some(from_root(v, ply))
    }
}

/// The searcher's state that outlives one search: the transposition table, and one worker a
/// thread (`Threads`), each with its history.
pub struct Searcher<G: Game> {
    tt: Arc<Table<G::Move>>,
    main: Worker<G>,
    /// The other threads' workers (Lazy SMP: see [`threads`]).
    helpers: Vec<Worker<G>>,
}

impl<G: Game> Searcher<G> {
    /// A searcher with a transposition table of at most `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Searcher<G> {
        Self::with_table_bytes(hash_mb.max(1).saturating_mul(1 << 20))
    }

    /// A searcher with a transposition table of at most `bytes` bytes (at least two entries),
    /// searching with one thread. Creating it is cheap at any size: the table's memory is
    /// supplied as it is first used.
    pub fn with_table_bytes(bytes: usize) -> Searcher<G> {
        let tt = Arc::new(Table::with_bytes(bytes));
        Searcher {
            main: Worker::new(tt.clone(), G::SEARCH),
            tt,
            helpers: Vec::new(),
        }
    }

    /// Turns these techniques off (the game's [`Game::SEARCH`] less `off`), from the next
    /// search on.
    pub fn set_techniques_off(&mut self, off: TechniquesOff) {
        let hints = off.apply(G::SEARCH);
        self.main.hints = hints;
        for h in &mut self.helpers {
            h.hints = hints;
        }
    }

    /// Lets the search take exact values from `oracle` (or no longer, with `None`), in every
    /// thread.
    pub fn set_oracle(&mut self, oracle: Option<Arc<dyn Oracle<G>>>) {
        for w in std::iter::once(&mut self.main).chain(&mut self.helpers) {
            w.oracle = oracle.clone();
        }
    }

    /// Searches with `params` from the next search on.
    pub fn set_params(&mut self, params: params::SearchParams) {
        for w in std::iter::once(&mut self.main).chain(&mut self.helpers) {
            if w.params != params {
                w.params = params;
                w.reductions = params.reduction_table();
            }
        }
    }

    /// Searches with `threads` threads from the next search on (at least one).
    pub fn set_threads(&mut self, threads: usize) {
        let helpers = threads.max(1) - 1;
        self.helpers.truncate(helpers);
        while self.helpers.len() < helpers {
            let mut w = Worker::new(self.tt.clone(), self.main.hints);
            w.params = self.main.params;
            w.reductions = self.main.reductions.clone();
            w.helper = true;
            w.oracle = self.main.oracle.clone();
            self.helpers.push(w);
        }
    }

    /// The number of threads a search uses.
    pub fn threads(&self) -> usize {
        1 + self.helpers.len()
    }

    pub fn resize(&mut self, hash_mb: usize) {
        self.resize_bytes(hash_mb.max(1).saturating_mul(1 << 20));
    }

    /// Replaces the table by an empty one of at most `bytes` bytes (the old one is freed on
    /// another thread).
    pub fn resize_bytes(&mut self, bytes: usize) {
        let tt = Arc::new(Table::with_bytes(bytes));
        for w in std::iter::once(&mut self.main).chain(&mut self.helpers) {
            w.tt = tt.clone();
        }
        let old = std::mem::replace(&mut self.tt, tt);
        crate::util::drop_in_background(old);
    }

    /// Bytes of the transposition table.
    pub fn table_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// Forgets everything learnt: table, history, killers (`ucinewgame`, `bench`). The
    /// table is replaced by fresh zeroed memory (the old one freed on another thread), so
    /// this takes microseconds at any size.
    pub fn clear(&mut self) {
        self.resize_bytes(self.tt.bytes());
        for w in std::iter::once(&mut self.main).chain(&mut self.helpers) {
            w.history.clear();
        }
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
    /// nodes, after depth 1). With several threads the others search the same root on the
    /// shared table until this one is done; a node limit is searched by one thread, so that
    /// it is exact.
    pub fn search_root(
        &mut self,
        root: &Root<G>,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        self.tt.new_search();
        if self.helpers.is_empty() || limits.nodes.is_some() {
            return self.main.run(root, limits, stop, report);
        }
        threads::search(
            &mut self.main,
            &mut self.helpers,
            root,
            limits,
            stop,
            report,
        )
    }
}

/// A technique's switch in [`SearchHints`].
pub type Switch = fn(&mut SearchHints) -> &mut bool;

/// Each technique of [`SearchHints`] by the name [`TechniquesOff::parse`] reads, with its
/// switch.
pub const TECHNIQUES: &[(&str, Switch)] = &[
    ("quiescence", |h| &mut h.quiescence),
    ("null_move", |h| &mut h.null_move),
    ("check_extension", |h| &mut h.check_extension),
    ("late_move_reductions", |h| &mut h.late_move_reductions),
    ("aspiration", |h| &mut h.aspiration),
    ("history_malus", |h| &mut h.history_malus),
    ("continuation_history", |h| &mut h.continuation_history),
    ("capture_history", |h| &mut h.capture_history),
    ("reverse_futility", |h| &mut h.reverse_futility),
    ("razoring", |h| &mut h.razoring),
    ("futility", |h| &mut h.futility),
    ("late_move_pruning", |h| &mut h.late_move_pruning),
    ("see_pruning", |h| &mut h.see_pruning),
    ("internal_reduction", |h| &mut h.internal_reduction),
    ("singular_extension", |h| &mut h.singular_extension),
    ("quiescence_table", |h| &mut h.quiescence_table),
    ("full_eval", |h| &mut h.full_eval),
    ("correction_history", |h| &mut h.correction_history),
    ("tt_eval", |h| &mut h.tt_eval),
    ("check_see", |h| &mut h.check_see),
    ("futility_checks", |h| &mut h.futility_checks),
    ("quiescence_tt_eval", |h| &mut h.quiescence_tt_eval),
    ("network", |h| &mut h.network),
];

/// Techniques a caller turns off whatever the game opts into, for matches that measure what
/// each one is worth (the engine takes them from `PLY_SEARCH_OFF`, see protocol.md,
/// Environment). A set of indices into [`TECHNIQUES`], as bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TechniquesOff(u64);

impl TechniquesOff {
    /// None off.
    pub const NONE: TechniquesOff = TechniquesOff(0);

    /// The techniques named in `names` (comma-separated, among [`TECHNIQUES`]), and the
    /// names that are none of them.
    pub fn parse(names: &str) -> (TechniquesOff, Vec<String>) {
        let mut off = TechniquesOff::NONE;
        let mut unknown = Vec::new();
        for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match TECHNIQUES.iter().position(|&(t, _)| t == name) {
                Some(i) => off.0 |= 1 << i,
                None => unknown.push(name.to_string()),
            }
        }
        (off, unknown)
    }

    /// These techniques and `other`'s.
    pub fn union(self, other: TechniquesOff) -> TechniquesOff {
        TechniquesOff(self.0 | other.0)
    }

    /// `hints` without these techniques.
    pub fn apply(self, mut hints: SearchHints) -> SearchHints {
        for (i, (_, switch)) in TECHNIQUES.iter().enumerate() {
            if self.0 & (1 << i) != 0 {
                *switch(&mut hints) = false;
            }
        }
        hints
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn techniques_off_by_name() {
        let (off, unknown) = TechniquesOff::parse(" null_move,, aspiration,warp ");
        assert_eq!(unknown, vec!["warp".to_string()]);
        let hints = off.apply(SearchHints::ALL);
        assert!(!hints.null_move && !hints.aspiration);
        assert!(hints.quiescence && hints.check_extension && hints.late_move_reductions);
        assert_eq!(
            TechniquesOff::NONE.apply(SearchHints::ALL),
            SearchHints::ALL
        );
        // Turning off what a game does not use changes nothing.
        assert_eq!(off.apply(SearchHints::PLAIN), SearchHints::PLAIN);
        for (name, _) in TECHNIQUES {
            let (one, unknown) = TechniquesOff::parse(name);
            assert!(unknown.is_empty());
            assert_ne!(one.apply(SearchHints::ALL), SearchHints::ALL, "{name}");
        }
    }
}
