//! The search of one node and its subtree: negamax alpha-beta, fail-soft, with principal
//! variation search, the transposition table, draws by repetition on the line, and the
//! game's optional techniques ([`crate::game::SearchHints`]): what prunes a node or a move
//! and what reduces or extends one is in [`super::pruning`], the horizon in
//! [`super::quiesce`], the histories in [`super::history`].

use std::sync::atomic::AtomicBool;

use super::ordering::{ORDER_KILLER, ORDER_TT, is_plain_quiet, pick};
use super::tt::{Bound, Entry, from_tt, to_tt};
use super::{INF, Worker};
use crate::game::Game;
use crate::value::{MATE, MATE_BOUND, MAX_PLY, is_mate};

/// How many moves a node picks best first one at a time before sorting the rest.
const PICKED: usize = 4;

/// One node's search, as its steps hand it on.
pub(super) struct Node<M> {
    pub depth: i32,
    pub ply: usize,
    pub alpha: i32,
    pub beta: i32,
    /// A principal-variation node: its window is wider than a null window.
    pub pv: bool,
    pub in_check: bool,
    /// The static evaluation (`None` in check, or when no technique needs it).
    pub eval: Option<i32>,
    /// The static evaluation is higher than at the side to move's previous turn on the line.
    pub improving: bool,
    /// The table's entry for the position.
    pub tt: Option<Entry<M>>,
}

impl<M: Copy> Node<M> {
    pub fn tt_move(&self) -> Option<M> {
        self.tt.and_then(|e| e.mv)
    }
}

/// What a node's move loop found.
struct Outcome<M> {
    best: i32,
    best_move: Option<M>,
}

impl<G: Game> Worker<G> {
    /// The line at `ply` becomes `mv` followed by the line its child (at `ply + 1`) left.
    #[inline]
    pub(super) fn adopt_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// Every 1024 nodes (and at every node past a node limit): whether to give up.
    pub(super) fn check_abort(&mut self, stop: &AtomicBool) {
        if self.helper {
            self.publish_nodes();
        }
        if self.control.must_stop(self.nodes, stop) || self.main_done() {
            self.aborted = true;
        }
    }

    /// Records the position at `ply` on the key stack and tells whether it repeats an
    /// earlier one since the last irreversible move (positions two plies apart: the same
    /// side to move). Only for games with a repetition rule.
    pub(super) fn repeats(&mut self, key: u64, ply: usize) -> bool {
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
    pub(super) fn note_move(&mut self, ply: usize, irreversible: bool) {
        self.reversible_from[ply + 1] = if irreversible {
            self.root_index + ply + 1
        } else {
            self.reversible_from[ply]
        };
    }

    /// Whether any technique in use looks at the static evaluation or at check.
    fn uses_eval(&self) -> bool {
        let h = &self.hints;
        h.null_move
            || h.late_move_reductions
            || h.reverse_futility
            || h.razoring
            || h.futility
            || h.late_move_pruning
            || h.see_pruning
    }

    /// The value of `pos` to `depth` plies within `(alpha, beta)`, fail-soft. `null_ok`:
    /// a null move may be tried here (not right after one).
    ///
    /// Its steps: draws by repetition and finished games, the horizon (quiescence or the
    /// evaluation), mate-distance pruning, the table, the static evaluation, pruning the
    /// node ([`Worker::prune_node`]), then the moves. While a singular extension is being
    /// checked, the ply's frame names a move to leave out, and the table is neither trusted
    /// nor written for that reduced search.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax(
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
        if !self.enter(ply, stop) {
            return 0;
        }

        let key = pos.key();
        if G::REPETITION_DRAW.is_some() && self.repeats(key, ply) {
            return 0;
        }
        if let Some(v) = self.settled(pos, ply) {
            return v;
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.static_eval(pos).clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        }
        // Mate distance pruning: the game is not over here, so it ends at ply + 1 at the
        // earliest, for either side (a misère Nim player can lose by its own move).
        alpha = alpha.max(-(MATE - ply as i32 - 1));
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let excluded = self.stack[ply].excluded.is_some();
        let tt = if excluded { None } else { self.tt.probe(key) };
        if let Some(s) = tt
            .filter(|_| ply > 0)
            .and_then(|e| tt_cutoff(e, depth, ply, alpha, beta))
        {
            return s;
        }

        let in_check = self.uses_eval() && pos.in_check();
        let (raw_eval, eval) = self.node_eval(pos, ply, tt, in_check, excluded);
        self.stack[ply].eval = eval;
        let mut node = Node {
            depth,
            ply,
            alpha,
            beta,
            pv: beta - alpha > 1,
            in_check,
            eval: self.pruning_eval(eval, tt, ply),
            improving: self.improving(ply),
            tt,
        };
        if !excluded && let Some(v) = self.prune_node(pos, &node, null_ok, stop) {
            return v;
        }
        if self.hints.internal_reduction
            && depth >= self.params.iir_depth
            && node.tt_move().is_none()
            && !excluded
        {
            node.depth -= 1;
        }
        let found = self.search_moves(pos, &node, stop);
        if self.aborted {
            return 0;
        }
        if !excluded {
            let bound = if found.best >= beta {
                Bound::Lower
            } else if found.best > alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let score = to_tt(found.best, ply);
            self.tt
                .store(key, found.best_move, score, raw_eval, node.depth, bound);
            if let (Some(raw), Some(e)) = (raw_eval, eval) {
                self.correct_eval(pos, &node, &found, bound, raw, e);
            }
        }
        found.best
    }

    /// With [`crate::game::SearchHints::correction_history`]: after a search of `node`,
    /// whose static evaluation was `raw` uncorrected and `eval` corrected, the correction of
    /// its structure moves towards what the search found, unless the best move was noisy
    /// (the evaluation is about quiet positions), the value is a mate, or the bound says
    /// nothing about the error's sign.
    fn correct_eval(
        &mut self,
        pos: &G,
        node: &Node<G::Move>,
        found: &Outcome<G::Move>,
        bound: Bound,
        raw: i32,
        eval: i32,
    ) {
        if !self.hints.correction_history
            || is_mate(found.best)
            || found
                .best_move
                .is_some_and(|m| pos.noisy_score(m).is_some())
            || bound == Bound::Lower && found.best <= eval
            || bound == Bound::Upper && found.best >= eval
        {
            return;
        }
        let side = pos.side_to_move().index();
        self.history
            .update_correction(side, pos.structure_key(), found.best - raw, node.depth);
    }

    /// The static evaluation of `pos` at `ply`, uncorrected (the table's when it has one,
    /// which stores it so) and corrected ([`Worker::corrected`]); while a singular extension
    /// is checked, the frame's corrected one alone. `None` in check or when no technique uses
    /// it.
    fn node_eval(
        &self,
        pos: &G,
        ply: usize,
        tt: Option<Entry<G::Move>>,
        in_check: bool,
        excluded: bool,
    ) -> (Option<i32>, Option<i32>) {
        if in_check || !self.uses_eval() {
            (None, None)
        } else if excluded {
            (None, self.stack[ply].eval)
        } else {
            let raw = tt
                .and_then(|e| e.eval)
                .unwrap_or_else(|| self.static_eval(pos));
            (Some(raw), Some(self.corrected(pos, raw)))
        }
    }

    /// What the pruning decisions start from: the static evaluation `eval`, or with
    /// [`crate::game::SearchHints::tt_eval`] the table's value where its bound says the
    /// true value lies on that side of the evaluation (an exact value always). Mate scores
    /// are left out: the pruning margins are not meant for them. `improving` still compares
    /// static evaluations (the frame keeps `eval`).
    fn pruning_eval(
        &self,
        eval: Option<i32>,
        tt: Option<Entry<G::Move>>,
        ply: usize,
    ) -> Option<i32> {
        match (eval, tt) {
            (Some(e), Some(t)) if self.hints.tt_eval => Some(nearer_value(t, e, ply)),
            _ => eval,
        }
    }

    /// Whether the static evaluation at `ply` is above the one at the same side's previous
    /// turn (two plies up, or four when that one was in check; true when neither is known).
    fn improving(&self, ply: usize) -> bool {
        let Some(now) = self.stack[ply].eval else {
            return false;
        };
        [2, 4]
            .into_iter()
            .filter_map(|back| ply.checked_sub(back))
            .find_map(|p| self.stack[p].eval)
            .is_none_or(|before| now > before)
    }

    /// Searches the moves of `node` best first (principal variation search, with the moves
    /// pruned, reduced and extended as [`super::pruning`] says); returns the best value and
    /// move, and updates the histories after a cutoff.
    fn search_moves(
        &mut self,
        pos: &G,
        node: &Node<G::Move>,
        stop: &AtomicBool,
    ) -> Outcome<G::Move> {
        let ply = node.ply;
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut tried = std::mem::take(&mut self.tried[ply]);
        tried.clear();
        let tt_move = node.tt_move();
        self.order_moves(pos, ply, tt_move, &mut moves);
        let excluded = self.stack[ply].excluded;
        let mut alpha = node.alpha;
        let mut out = Outcome {
            best: -INF,
            best_move: None,
        };
        let mut quiets_seen = 0;
        let mut skip_quiets = false;
        for i in 0..moves.len() {
            if i < PICKED {
                pick(&mut moves, i);
            } else if i == PICKED {
                // Picking one at a time is a stable sort by descending key: a node that goes
                // on this long sorts the rest at once, in the same order.
                moves[i..].sort_by_key(|&(key, _)| std::cmp::Reverse(key));
            }
            let (order, mv) = moves[i];
            if Some(mv) == excluded {
                continue;
            }
            let quiet = is_plain_quiet(order)
                || order == ORDER_KILLER
                || order == ORDER_KILLER + 1
                || order == ORDER_TT && pos.noisy_score(mv).is_none();
            if out.best > -MATE_BOUND
                && self.prune_move(pos, node, order, mv, quiet, quiets_seen, &mut skip_quiets)
            {
                continue;
            }
            let extension = match self.singular(pos, node, mv, stop) {
                Ok(e) => e,
                Err(cutoff) => {
                    out.best = cutoff;
                    break;
                }
            };
            let score = self.search_move(pos, node, i, order, mv, alpha, extension, stop);
            if self.aborted {
                break;
            }
            tried.push((quiet, mv));
            quiets_seen += quiet as usize;
            if score > out.best {
                out.best = score;
                out.best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    self.adopt_pv(ply, mv);
                    if ply == 0 {
                        self.root_best = Some((mv, score));
                    }
                    if alpha >= node.beta {
                        self.update_histories(pos, node, mv, quiet, &tried);
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        self.tried[ply] = tried;
        out
    }

    /// Plays `mv` (the `i`-th move tried, ordering key `order`) and searches it: the first
    /// with the full window, the others with a null window, reduced when late and quiet, and
    /// again at full depth and then with the full window when they beat alpha.
    #[allow(clippy::too_many_arguments)]
    fn search_move(
        &mut self,
        pos: &G,
        node: &Node<G::Move>,
        i: usize,
        order: i32,
        mv: G::Move,
        alpha: i32,
        extension: i32,
        stop: &AtomicBool,
    ) -> i32 {
        let (ply, beta) = (node.ply, node.beta);
        let mut child = pos.clone();
        child.play(mv);
        self.tt.prefetch(child.key());
        if G::REPETITION_DRAW.is_some() {
            self.note_move(ply, pos.is_irreversible(mv));
        }
        self.stack[ply].moved = Some(pos.piece_to_id(mv));
        let gives_check = self.hints.check_extension && child.in_check();
        // Extensions stop at twice the iteration's depth: a long series of checks would
        // otherwise never reach the horizon (and depth 1, which `stop` cannot cut, must end).
        let extend = (ply as u32) < 2 * self.root_depth;
        let extension = if extend {
            // With `check_see`, a check that loses material in the exchange is not extended.
            let check = gives_check && (!self.hints.check_see || pos.see_at_least(mv, 0));
            extension.max(check as i32)
        } else {
            0
        };
        let new_depth = node.depth - 1 + extension;
        if i == 0 {
            return -self.negamax(&child, new_depth, ply + 1, -beta, -alpha, stop, true);
        }
        let r = self.reduction(node, i, order, gives_check, new_depth);
        let mut score = -self.negamax(
            &child,
            new_depth - r,
            ply + 1,
            -alpha - 1,
            -alpha,
            stop,
            true,
        );
        if r > 0 && score > alpha && !self.aborted {
            score = -self.negamax(&child, new_depth, ply + 1, -alpha - 1, -alpha, stop, true);
        }
        if score > alpha && score < beta && !self.aborted {
            score = -self.negamax(&child, new_depth, ply + 1, -beta, -alpha, stop, true);
        }
        score
    }

    /// After a cutoff by `mv`: a quiet move becomes a killer and gains history, and the quiet
    /// moves tried before it lose some (with the malus); a noisy move gains capture history,
    /// and the noisy moves tried before it lose some.
    fn update_histories(
        &mut self,
        pos: &G,
        node: &Node<G::Move>,
        mv: G::Move,
        quiet: bool,
        tried: &[(bool, G::Move)],
    ) {
        let b = self.params.history_bonus(node.depth);
        let hints = self.hints;
        let others = tried.iter().filter(|&&(_, m)| m != mv);
        if quiet {
            let side = pos.side_to_move().index();
            let previous = self.previous(node.ply);
            self.history
                .note_killer(node.ply, mv, node.tt_move() == Some(mv));
            let (id, pt) = (pos.move_id(mv), pos.piece_to_id(mv));
            self.history
                .update_quiet(&hints, side, id, pt, previous, node.depth, b);
            if hints.history_malus {
                for &(_, m) in others.clone().filter(|(q, _)| *q) {
                    let (id, pt) = (pos.move_id(m), pos.piece_to_id(m));
                    self.history
                        .update_quiet(&hints, side, id, pt, previous, node.depth, -b);
                }
            }
        } else if hints.capture_history {
            self.history.update_capture(pos.piece_to_id(mv), b);
        }
        if hints.capture_history {
            for &(_, m) in others.filter(|(q, _)| !*q) {
                self.history.update_capture(pos.piece_to_id(m), -b);
            }
        }
    }
}

/// `eval`, or `e`'s score (as seen `ply` plies from the root) where its bound says the
/// true value lies beyond `eval` on that side (an exact score always); never a mate score,
/// which no margin or stand-pat is meant for.
pub(super) fn nearer_value<M>(e: Entry<M>, eval: i32, ply: usize) -> i32 {
    if is_mate(e.score) {
        return eval;
    }
    let v = from_tt(e.score, ply);
    let nearer = match e.bound {
        Bound::Exact => true,
        Bound::Lower => v > eval,
        Bound::Upper => v < eval,
        Bound::Empty => false,
    };
    if nearer { v } else { eval }
}

/// The value a table entry gives a node searched to `depth` at `ply` with window
/// (`alpha`, `beta`), when it is deep enough and its bound settles the node.
fn tt_cutoff<M>(e: Entry<M>, depth: i32, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    if (e.depth as i32) < depth {
        return None;
    }
    bounded_score(e, ply, alpha, beta)
}

/// `e`'s score (as seen `ply` plies from the root) when its bound settles the window
/// `alpha..beta`, whatever depth it was searched to (the quiescence search takes any).
pub(super) fn bounded_score<M>(e: Entry<M>, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let s = from_tt(e.score, ply);
    let usable = match e.bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
        Bound::Empty => false,
    };
    usable.then_some(s)
}
