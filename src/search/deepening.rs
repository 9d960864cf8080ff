//! Iterative deepening at the root: one iteration a depth, each with aspiration windows
//! around the last value and one search per `MultiPV` line; reports after each iteration;
//! decides when to stop; salvages a move from an iteration cut short.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::time::Control;
use super::{INF, Info, Limits, MAX_DEPTH, Root, SearchResult, Worker};
use crate::game::Game;
use crate::value::{MATE, Score, is_mate, terminal_value};

impl<G: Game> Worker<G> {
    /// Searches `root` within `limits` by iterative deepening (see
    /// [`super::Searcher::search_root`]).
    pub(super) fn run(
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
        self.control = Control::new(limits, start);
        self.aborted = false;
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
                    nodes: self.total_nodes(),
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
            let out_of_time = self.control.out_of_time(best_changes);
            let only_move = root_moves.len() == 1 && limits.budgets().is_some();
            let out_of_nodes = limits.nodes.is_some_and(|n| self.nodes >= n);
            if proven || mate_found || exhausted || out_of_time || only_move || out_of_nodes {
                break;
            }
            if stop.load(Ordering::Relaxed) {
                break;
            }
        }
        result.nodes = self.total_nodes();
        result.time = start.elapsed();
        result
    }

    /// A helper thread's search of `root` (see [`super::threads`]): iterative deepening
    /// from depth `first` of one line, with no limit but `stop` and the main thread's end;
    /// what it finds reaches the main thread through the table.
    pub(super) fn run_helper(&mut self, root: &Root<G>, first: u32, stop: &AtomicBool) {
        let pos = root.pos;
        self.age_for_new_search();
        if pos.outcome().is_some() {
            return;
        }
        self.control = Control::new(&Limits::default(), Instant::now());
        self.control.may_abort = true;
        self.aborted = false;
        self.enter_game_line(root.earlier);
        let root_moves = root_moves(pos, root.moves);
        let restricted = root_moves.len() < legal_count(pos);
        let mut previous: Vec<i32> = Vec::new();
        for depth in first..=MAX_DEPTH {
            self.seldepth = 0;
            let found = self.iterate(pos, depth, &root_moves, 1, restricted, &previous, stop);
            if self.aborted {
                break;
            }
            previous = found.iter().map(|l| l.0).collect();
        }
        self.publish_nodes();
    }

    /// What one search leaves the next: history scores keep a quarter of their weight,
    /// killers (moves of other positions now) are dropped. (The searcher ages the table.)
    pub(super) fn age_for_new_search(&mut self) {
        self.nodes = 0;
        self.tbhits = 0;
        self.published = 0;
        self.history.age();
    }

    /// The key stack starts with the game's `earlier` positions, so that the search sees
    /// repetitions of them; the root sits just above them.
    fn enter_game_line(&mut self, earlier: &[u64]) {
        self.keys.clear();
        self.keys.extend_from_slice(earlier);
        self.root_index = earlier.len();
        self.reversible_from[0] = 0;
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
        // The window's half-width, doubled after every failure.
        let mut delta = self.params.aspiration_delta;
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
