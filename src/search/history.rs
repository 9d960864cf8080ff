//! What the search learns about moves while it runs, for ordering them:
//!
//! - two killer moves per ply: quiet moves that caused a cutoff in a sibling position;
//! - the butterfly history, a score per side and [`Game::move_id`]: how often a quiet move
//!   caused a cutoff anywhere, weighted by depth;
//! - the continuation history, a score per pair of [`Game::piece_to_id`]s: how a quiet move
//!   fared right after the previous move (and after the one before it);
//! - the capture history, a score per [`Game::piece_to_id`] of a noisy move;
//! - the correction history (not about moves): per side and [`Game::structure_key`], how far
//!   searches found the static evaluation off, as a moving average.
//!
//! Without [`SearchHints::history_malus`] the butterfly scores only grow, by depth² up to
//! [`HISTORY_MAX`]. With it every score moves part of the way towards ±[`GRAVITY_MAX`] (a
//! bonus for the move that cut off, a malus for the moves tried before it), so scores stay
//! bounded and recent results weigh more: `h += bonus - h·|bonus| / GRAVITY_MAX`.
//!
//! [`Game::move_id`]: crate::game::Game::move_id
//! [`Game::piece_to_id`]: crate::game::Game::piece_to_id
//! [`Game::structure_key`]: crate::game::Game::structure_key

use crate::game::SearchHints;
use crate::value::MAX_PLY;

/// The highest butterfly score without the malus; quiet moves are ordered by it, below the
/// killers.
pub(super) const HISTORY_MAX: i32 = 1 << 20;
/// The bound of every score with the malus.
const GRAVITY_MAX: i32 = 16_384;
/// The correction history's slots a side (a power of two), indexed by the structure key's
/// top bits.
const CORRECTION_BITS: u32 = 14;
/// Corrections are kept in units of 1/`CORRECTION_GRAIN` of the evaluation's, and bounded
/// by ±`CORRECTION_MAX` of its units.
const CORRECTION_GRAIN: i32 = 256;
const CORRECTION_MAX: i32 = 64;

/// The moves before a node whose continuation history orders its quiet moves: the piece-to
/// ids of the previous move and the one before it (`None` after a null move or at the root).
pub(super) type Previous = [Option<usize>; 2];

pub(super) struct History<M> {
    /// `butterfly[side * move_ids + move_id]`.
    butterfly: Vec<i32>,
    move_ids: usize,
    killers: Vec<[Option<M>; 2]>,
    /// `continuation[previous * piece_to_ids + current]`.
    continuation: Vec<i16>,
    /// `capture[piece_to]`.
    capture: Vec<i16>,
    piece_to_ids: usize,
    /// `correction[side << CORRECTION_BITS | slot]`, in 1/[`CORRECTION_GRAIN`] units.
    correction: Vec<i32>,
}

/// The update of a score towards ±[`GRAVITY_MAX`] by `bonus` (negative for a malus).
#[inline]
fn gravity(h: i32, bonus: i32) -> i32 {
    h + bonus - h * bonus.abs() / GRAVITY_MAX
}

impl<M: Copy + PartialEq> History<M> {
    /// Empty tables for a game with `move_ids` move ids and `piece_to_ids` piece-to ids.
    pub(super) fn new(move_ids: usize, piece_to_ids: usize) -> History<M> {
        History {
            butterfly: vec![0; 2 * move_ids],
            move_ids,
            killers: vec![[None; 2]; MAX_PLY + 2],
            continuation: vec![0; piece_to_ids * piece_to_ids],
            capture: vec![0; piece_to_ids],
            piece_to_ids,
            correction: vec![0; 2 << CORRECTION_BITS],
        }
    }

    /// Forgets everything (`ucinewgame`).
    pub(super) fn clear(&mut self) {
        self.butterfly.fill(0);
        self.killers.fill([None; 2]);
        self.continuation.fill(0);
        self.capture.fill(0);
        self.correction.fill(0);
    }

    /// Between two searches: butterfly scores keep a quarter of their weight, killers (moves
    /// of other positions now) are dropped.
    pub(super) fn age(&mut self) {
        for h in self.butterfly.iter_mut() {
            *h /= 4;
        }
        self.killers.fill([None; 2]);
    }

    /// The killers of `ply`, the newest first.
    #[inline]
    pub(super) fn killers(&self, ply: usize) -> [Option<M>; 2] {
        self.killers[ply]
    }

    /// The ordering score of a quiet move: its butterfly score for `side`, plus its
    /// continuation scores after `previous` when `hints` ask for them.
    #[inline]
    pub(super) fn quiet_score(
        &self,
        hints: &SearchHints,
        side: usize,
        move_id: usize,
        piece_to: usize,
        previous: Previous,
    ) -> i32 {
        let mut score = self.butterfly[side * self.move_ids + move_id];
        if hints.continuation_history {
            for p in previous.into_iter().flatten() {
                score += self.continuation[p * self.piece_to_ids + piece_to] as i32;
            }
        }
        score
    }

    /// The capture history score of a noisy move.
    #[inline]
    pub(super) fn capture_score(&self, piece_to: usize) -> i32 {
        self.capture[piece_to] as i32
    }

    /// A quiet move caused a cutoff at `ply`: it becomes the first killer (unless it is the
    /// table's move, tried first anyway).
    pub(super) fn note_killer(&mut self, ply: usize, mv: M, is_tt_move: bool) {
        if !is_tt_move {
            let k = &mut self.killers[ply];
            if k[0] != Some(mv) {
                k[1] = k[0];
                k[0] = Some(mv);
            }
        }
    }

    /// Updates a quiet move's scores by `bonus` (negative: a malus) at `depth`: without the
    /// malus, its butterfly score grows by depth²; with it, every score moves by gravity.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn update_quiet(
        &mut self,
        hints: &SearchHints,
        side: usize,
        move_id: usize,
        piece_to: usize,
        previous: Previous,
        depth: i32,
        bonus: i32,
    ) {
        let b = &mut self.butterfly[side * self.move_ids + move_id];
        if hints.history_malus {
            *b = gravity(*b, bonus);
        } else if bonus > 0 {
            *b = (*b + depth * depth).min(HISTORY_MAX);
        }
        if hints.continuation_history {
            for p in previous.into_iter().flatten() {
                let c = &mut self.continuation[p * self.piece_to_ids + piece_to];
                *c = gravity(*c as i32, bonus) as i16;
            }
        }
    }

    /// Updates a noisy move's capture history by `bonus` (negative: a malus).
    pub(super) fn update_capture(&mut self, piece_to: usize, bonus: i32) {
        let c = &mut self.capture[piece_to];
        *c = gravity(*c as i32, bonus) as i16;
    }

    #[inline]
    fn correction_slot(side: usize, structure: u64) -> usize {
        side << CORRECTION_BITS | (structure >> (64 - CORRECTION_BITS)) as usize
    }

    /// What to add to the static evaluation of a position with `side` to move and structure
    /// key `structure`.
    #[inline]
    pub(super) fn correction(&self, side: usize, structure: u64) -> i32 {
        self.correction[Self::correction_slot(side, structure)] / CORRECTION_GRAIN
    }

    /// A search to `depth` found a position's value `error` away from its uncorrected
    /// static evaluation: the correction moves towards it, more the deeper the search (a
    /// weight of `depth + 1` in 256, at most 16).
    pub(super) fn update_correction(
        &mut self,
        side: usize,
        structure: u64,
        error: i32,
        depth: i32,
    ) {
        let c = &mut self.correction[Self::correction_slot(side, structure)];
        let w = (depth + 1).clamp(1, 16);
        let target = error.clamp(-CORRECTION_MAX, CORRECTION_MAX) * CORRECTION_GRAIN;
        *c = (*c * (256 - w) + target * w) / 256;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_follow_the_errors_of_their_own_slot_and_side() {
        let mut h = History::<u8>::new(4, 4);
        let (a, b) = (0x0123_4567_89ab_cdefu64, 0xfedc_ba98_7654_3210u64);
        for _ in 0..200 {
            h.update_correction(0, a, -30, 20);
        }
        assert_eq!(
            h.correction(0, a),
            -29,
            "converges to the error (rounded towards zero)"
        );
        assert_eq!(h.correction(1, a), 0, "the other side's slot is apart");
        assert_eq!(h.correction(0, b), 0, "another structure's slot is apart");
        // A deep search moves it further than a shallow one.
        let (mut deep, mut shallow) = (History::<u8>::new(4, 4), History::<u8>::new(4, 4));
        deep.update_correction(0, b, 40, 15);
        shallow.update_correction(0, b, 40, 1);
        assert!(deep.correction(0, b) > shallow.correction(0, b));
        // Huge errors (a tactic the evaluation cannot see) are bounded.
        for _ in 0..200 {
            h.update_correction(1, b, 5000, 20);
        }
        assert!((CORRECTION_MAX - 1..=CORRECTION_MAX).contains(&h.correction(1, b)));
        h.clear();
        assert_eq!((h.correction(0, a), h.correction(1, b)), (0, 0));
    }
}
