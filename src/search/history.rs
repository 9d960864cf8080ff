//! What the search learns about moves while it runs, for ordering them:
//!
//! - two killer moves per ply: quiet moves that caused a cutoff in a sibling position;
//! - the butterfly history, a score per side and [`Game::move_id`]: how often a quiet move
//!   caused a cutoff anywhere, weighted by depth;
//! - the continuation history, a score per pair of [`Game::piece_to_id`]s: how a quiet move
//!   fared right after the previous move (and after the one before it);
//! - the capture history, a score per [`Game::piece_to_id`] of a noisy move.
//!
//! Without [`SearchHints::history_malus`] the butterfly scores only grow, by depth² up to
//! [`HISTORY_MAX`]. With it every score moves part of the way towards ±[`GRAVITY_MAX`] (a
//! bonus for the move that cut off, a malus for the moves tried before it), so scores stay
//! bounded and recent results weigh more: `h += bonus - h·|bonus| / GRAVITY_MAX`.
//!
//! [`Game::move_id`]: crate::game::Game::move_id
//! [`Game::piece_to_id`]: crate::game::Game::piece_to_id

use crate::game::SearchHints;
use crate::value::MAX_PLY;

/// The highest butterfly score without the malus; quiet moves are ordered by it, below the
/// killers.
pub(super) const HISTORY_MAX: i32 = 1 << 20;
/// The bound of every score with the malus.
const GRAVITY_MAX: i32 = 16_384;

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
}

/// The update of a score towards ±[`GRAVITY_MAX`] by `bonus` (negative for a malus).
#[inline]
fn gravity(h: i32, bonus: i32) -> i32 {
    h + bonus - h * bonus.abs() / GRAVITY_MAX
}

/// The size of a bonus (and of a malus) at `depth`.
#[inline]
pub(super) fn bonus(depth: i32) -> i32 {
    (16 * depth * depth + 32 * depth + 16).min(1600)
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
        }
    }

    /// Forgets everything (`ucinewgame`).
    pub(super) fn clear(&mut self) {
        self.butterfly.fill(0);
        self.killers.fill([None; 2]);
        self.continuation.fill(0);
        self.capture.fill(0);
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
}
