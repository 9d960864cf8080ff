//! The search of one node and its subtree: negamax alpha-beta, fail-soft, with principal
//! variation search, the transposition table, null-move pruning, late-move reductions, check
//! extensions, a quiescence search at the horizon, and draws by repetition on the line.

use std::sync::atomic::AtomicBool;

use super::ordering::{ORDER_KILLER, pick};
use super::tt::{Bound, from_tt, to_tt};
use super::{INF, Worker, from_root};
use crate::game::Game;
use crate::value::{MATE, MATE_BOUND, MAX_PLY, is_mate, terminal_value};

impl<G: Game> Worker<G> {
    fn check_abort(&mut self, stop: &AtomicBool) {
        if self.control.must_stop(self.nodes, stop) {
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
        for i in 0..moves.len() {
            pick(&mut moves, i);
            let (order, mv) = moves[i];
            let mut child = pos.clone();
            child.play(mv);
            self.tt.prefetch(child.key());
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
                        if pos.noisy_score(mv).is_none() {
                            let side = pos.side_to_move().index();
                            let is_tt = Some(mv) == tt_move;
                            self.history
                                .reward(ply, depth, mv, is_tt, side, pos.move_id(mv));
                        }
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        (best, best_move)
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
}
