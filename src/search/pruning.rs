//! What the search may skip, shorten or lengthen, each a technique a game opts into
//! ([`crate::game::SearchHints`]; margins in the evaluation's centi-units, set for chess):
//!
//! - a whole node, before its moves ([`Worker::prune_node`]): reverse futility pruning,
//!   razoring, null-move pruning;
//! - one move ([`Worker::prune_move`]): late-move pruning, futility pruning, static-exchange
//!   pruning, only once a move has been searched and at shallow depths;
//! - a move's depth: late-move reductions ([`Worker::reduction`]), singular extensions
//!   ([`Worker::singular`]); check extensions are applied where the move is searched.
//!
//! Their margins and depth limits are in [`super::params`], to be tuned.

use std::sync::atomic::AtomicBool;

use super::Worker;
use super::alphabeta::Node;
use super::ordering::{ORDER_BAD_NOISY, ORDER_KILLER, is_plain_quiet};
use super::tt::{Bound, from_tt};
use crate::game::Game;
use crate::value::is_mate;

impl<G: Game> Worker<G> {
    /// The node's value without searching its moves, when a technique can tell: reverse
    /// futility pruning, razoring, null-move pruning.
    pub(super) fn prune_node(
        &mut self,
        pos: &G,
        node: &Node<G::Move>,
        null_ok: bool,
        stop: &AtomicBool,
    ) -> Option<i32> {
        let h = self.hints;
        let eval = node.eval?;
        if node.pv || node.ply == 0 {
            return (h.null_move && null_ok)
                .then(|| self.try_null_move(pos, node, eval, stop))
                .flatten();
        }
        let d = node.depth;
        if h.reverse_futility
            && d <= self.params.rfp_depth
            && !is_mate(node.beta)
            && eval - self.params.rfp_margin * (d - node.improving as i32) >= node.beta
        {
            return Some(eval);
        }
        if h.razoring
            && h.quiescence
            && d <= self.params.razor_depth
            && eval + self.params.razor_margin * d <= node.alpha
        {
            let v = self.quiesce(pos, node.ply, node.alpha, node.alpha + 1, stop);
            if v <= node.alpha || self.aborted {
                return Some(v);
            }
        }
        if h.null_move && null_ok {
            return self.try_null_move(pos, node, eval, stop);
        }
        None
    }

    /// Null-move pruning: when passing still keeps the value at `beta` or above in a reduced
    /// search, the node fails high without searching its moves. From depth 3, when the
    /// static evaluation is at `beta` or above.
    fn try_null_move(
        &mut self,
        pos: &G,
        node: &Node<G::Move>,
        eval: i32,
        stop: &AtomicBool,
    ) -> Option<i32> {
        let (depth, ply, beta) = (node.depth, node.ply, node.beta);
        if ply == 0 || depth < 3 || is_mate(beta) || eval < beta {
            return None;
        }
        let child = pos.null_move()?;
        let r = self.params.nmp_base + depth / self.params.nmp_divisor;
        self.note_move(ply, true);
        self.stack[ply].moved = None;
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

    /// Whether to skip `mv` (ordering key `order`) without searching it. `quiets_seen`:
    /// quiet moves searched so far; `skip_quiets` is set once every later quiet move can be
    /// skipped too.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn prune_move(
        &mut self,
        pos: &G,
        node: &Node<G::Move>,
        order: i32,
        mv: G::Move,
        quiet: bool,
        quiets_seen: usize,
        skip_quiets: &mut bool,
    ) -> bool {
        let h = self.hints;
        let d = node.depth;
        if node.ply == 0 || node.in_check || d > self.params.prune_depth {
            return false;
        }
        if quiet && *skip_quiets {
            return true;
        }
        if quiet && h.late_move_pruning && !node.pv {
            let limit =
                (self.params.lmp_base + d * d) as usize / if node.improving { 1 } else { 2 };
            if quiets_seen >= limit {
                *skip_quiets = true;
                return true;
            }
        }
        if quiet
            && h.futility
            && d <= self.params.futility_depth
            && node.eval.is_some_and(|e| {
                e + self.params.futility_base + self.params.futility_margin * d <= node.alpha
            })
        {
            // With `futility_checks` the later quiet moves are each asked whether they give
            // check (the condition does not depend on the move); a check goes on to the
            // exchange test below.
            if !h.futility_checks {
                *skip_quiets = true;
                return true;
            }
            if !pos.gives_check(mv) {
                return true;
            }
        }
        if h.see_pruning {
            if quiet {
                return !pos.see_at_least(mv, -self.params.see_quiet * d);
            }
            // A losing noisy move's key holds its exchange value.
            if order < -ORDER_KILLER {
                return order - ORDER_BAD_NOISY < -self.params.see_noisy * d;
            }
        }
        false
    }

    /// How many plies less the `i`-th move (key `order`) is searched with a null window
    /// first: late quiet moves, more the later and the deeper (never in check or when the
    /// move gives check, never below depth 1).
    pub(super) fn reduction(
        &self,
        node: &Node<G::Move>,
        i: usize,
        order: i32,
        gives_check: bool,
        new_depth: i32,
    ) -> i32 {
        let quiet_late = self.hints.late_move_reductions
            && node.depth >= 3
            && i >= 3
            && is_plain_quiet(order)
            && !node.in_check
            && !gives_check;
        if !quiet_late {
            return 0;
        }
        let row = &self.reductions[(node.depth as usize).min(63)];
        (row[i.min(63)] as i32).min(new_depth - 1).max(0)
    }

    /// The singular extension of `mv`: `Ok(1)` when it is the table's move, stored as a
    /// lower bound from nearly this depth, and every other move falls short of that value by
    /// a margin in a search of half the depth; `Err(value)` when even without it the node
    /// beats beta (several moves do: the node fails high at once); else `Ok(0)`.
    pub(super) fn singular(
        &mut self,
        pos: &G,
        node: &Node<G::Move>,
        mv: G::Move,
        stop: &AtomicBool,
    ) -> Result<i32, i32> {
        let Some(e) = node.tt else {
            return Ok(0);
        };
        let ply = node.ply;
        if !self.hints.singular_extension
            || ply == 0
            || node.depth < self.params.singular_depth
            || e.mv != Some(mv)
            || !matches!(e.bound, Bound::Lower | Bound::Exact)
            || (e.depth as i32) < node.depth - 3
            || is_mate(e.score)
            || self.stack[ply].excluded.is_some()
            || (ply as u32) >= 2 * self.root_depth
        {
            return Ok(0);
        }
        let tt_value = from_tt(e.score, ply);
        let singular_beta = tt_value - self.params.singular_margin * node.depth / 8;
        let depth = (node.depth - 1) / 2;
        self.stack[ply].excluded = Some(mv);
        let v = self.negamax(
            pos,
            depth,
            ply,
            singular_beta - 1,
            singular_beta,
            stop,
            false,
        );
        self.stack[ply].excluded = None;
        // The reduced search wrote this ply's line and frame: the node's own search goes on.
        self.pv[ply].clear();
        self.stack[ply].eval = node.eval;
        if self.aborted {
            return Ok(0);
        }
        if v < singular_beta {
            Ok(1)
        } else if singular_beta >= node.beta {
            Err(singular_beta)
        } else {
            Ok(0)
        }
    }
}
