//! Move ordering: the order in which a node tries its moves decides how much of the tree
//! alpha-beta can cut, so every node gives each move a key and picks the best first.

use super::Worker;
use super::history::Previous;
use crate::game::Game;

/// Move-ordering keys, highest first: the table's move, noisy moves by the game's score
/// (and their capture history), the killers, quiet moves by history (within
/// ±[`ORDER_KILLER`]), losing noisy moves last.
pub(super) const ORDER_TT: i32 = i32::MAX;
pub(super) const ORDER_GOOD_NOISY: i32 = 1 << 28;
pub(super) const ORDER_KILLER: i32 = 1 << 27;
pub(super) const ORDER_BAD_NOISY: i32 = -(1 << 28);

/// Whether an ordering key is a quiet move's that is neither the table's move nor a killer.
#[inline]
pub(super) fn is_plain_quiet(key: i32) -> bool {
    key > -ORDER_KILLER && key < ORDER_KILLER
}

impl<G: Game> Worker<G> {
    /// The quiescence search's moves: every legal move when in check (static order), else
    /// the noisy moves that do not lose material, best-scored first.
    pub(super) fn quiet_or_noisy(
        &mut self,
        pos: &G,
        in_check: bool,
        out: &mut Vec<(i32, G::Move)>,
    ) {
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

    /// Fills `out` with the legal moves (at the root, those allowed) and their ordering keys,
    /// unsorted ([`pick`] brings out the best one at a time): the TT move, the noisy moves
    /// the game scores as not losing, the killers, the quiet moves by history, the losing
    /// noisy moves.
    pub(super) fn order_moves(
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
        let killers = self.history.killers(ply);
        let previous = self.previous(ply);
        out.clear();
        out.extend(self.generated.iter().map(|&mv| {
            let key = if Some(mv) == tt_move {
                ORDER_TT
            } else if let Some(s) = pos.noisy_score(mv) {
                if s < 0 {
                    ORDER_BAD_NOISY + s.max(-(ORDER_KILLER - 1))
                } else if self.hints.capture_history {
                    let h = self.history.capture_score(pos.piece_to_id(mv));
                    ORDER_GOOD_NOISY + (s * 64 + h).clamp(0, ORDER_GOOD_NOISY - 1)
                } else {
                    ORDER_GOOD_NOISY + s.min(ORDER_GOOD_NOISY - 1)
                }
            } else if Some(mv) == killers[0] {
                ORDER_KILLER + 1
            } else if Some(mv) == killers[1] {
                ORDER_KILLER
            } else {
                self.history.quiet_score(
                    &self.hints,
                    side,
                    pos.move_id(mv),
                    pos.piece_to_id(mv),
                    previous,
                )
            };
            (key, mv)
        }));
    }

    /// The piece-to ids of the two moves that led to `ply` (for the continuation history).
    #[inline]
    pub(super) fn previous(&self, ply: usize) -> Previous {
        let at = |back: usize| ply.checked_sub(back).and_then(|p| self.stack[p].moved);
        [at(1), at(2)]
    }
}

/// Moves the best of `moves[i..]` (the highest key, the first of equals) to `moves[i]`,
/// keeping the others in their order: picking `0, 1, 2, ..` in turn yields a stable sort by
/// descending key, so ties keep the game's static order, and a node cut off after a few
/// moves never sorts the rest.
#[inline]
pub(super) fn pick<M>(moves: &mut [(i32, M)], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if moves[j].0 > moves[best].0 {
            best = j;
        }
    }
    if best > i {
        moves[i..=best].rotate_right(1);
    }
}
