//! The quiescence search at the horizon: the side to move may stand pat on its evaluation or
//! try its noisy moves (all its moves when in check), best-scored first, skipping those the
//! game expects to lose material, so that the search never stops in the middle of an
//! exchange. With [`crate::game::SearchHints::quiescence_table`] it reads and writes the
//! transposition table as depth-0 results, and with
//! [`crate::game::SearchHints::quiescence_tt_eval`] stands pat on the table's value where its
//! bound says the true value lies beyond the static evaluation.

use std::sync::atomic::AtomicBool;

use super::tt::{Bound, to_tt};
use super::{INF, Worker};
use crate::game::Game;
use crate::value::{MATE_BOUND, MAX_PLY};

impl<G: Game> Worker<G> {
    pub(super) fn quiesce(
        &mut self,
        pos: &G,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        stop: &AtomicBool,
    ) -> i32 {
        self.pv[ply].clear();
        if !self.enter(ply, stop) {
            return 0;
        }
        if let Some(v) = self.settled(pos, ply) {
            return v;
        }
        if ply >= MAX_PLY {
            return self.static_eval(pos).clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        }
        let use_table = self.hints.quiescence_table;
        let key = if use_table { pos.key() } else { 0 };
        let tt = if use_table { self.tt.probe(key) } else { None };
        if let Some(s) = tt.and_then(|e| super::alphabeta::bounded_score(e, ply, alpha, beta)) {
            return s;
        }
        let in_check = pos.in_check();
        let mut best = -INF;
        let mut eval = None;
        if !in_check {
            let raw = tt
                .and_then(|e| e.eval)
                .unwrap_or_else(|| self.static_eval(pos));
            best = self.corrected(pos, raw);
            if self.hints.quiescence_tt_eval
                && let Some(e) = tt
            {
                best = super::alphabeta::nearer_value(e, best, ply);
            }
            eval = Some(raw);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        let original_alpha = alpha;
        let mut best_move = None;
        let mut moves = std::mem::take(&mut self.moves[ply]);
        self.quiet_or_noisy(pos, in_check, &mut moves);
        for &(_, mv) in moves.iter() {
            let mut child = pos.clone();
            child.play(mv);
            if use_table {
                self.tt.prefetch(child.key());
            }
            let score = -self.quiesce(&child, ply + 1, -beta, -alpha, stop);
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    self.adopt_pv(ply, mv);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        if self.aborted {
            return 0;
        }
        // A deeper result of the main search is worth more than this one.
        if use_table && tt.is_none_or(|e| e.depth == 0) {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt
                .store(key, best_move, to_tt(best, ply), eval, 0, bound);
        }
        best
    }
}
