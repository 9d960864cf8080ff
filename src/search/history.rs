//! What the search learns about moves while it runs, for ordering them: two killer moves per
//! ply (quiet moves that caused a cutoff in a sibling position) and a history score per side
//! and [`Game::move_id`](crate::game::Game::move_id) (quiet moves that caused cutoffs
//! anywhere, weighted by the depth squared).

use crate::value::MAX_PLY;

/// The highest history score; quiet moves are ordered by it, below the killers.
pub(super) const HISTORY_MAX: i32 = 1 << 20;

pub(super) struct History<M> {
    /// `history[side * move_ids + move_id]`.
    history: Vec<i32>,
    move_ids: usize,
    killers: Vec<[Option<M>; 2]>,
}

impl<M: Copy + PartialEq> History<M> {
    /// Empty tables for a game with `move_ids` move ids.
    pub(super) fn new(move_ids: usize) -> History<M> {
        History {
            history: vec![0; 2 * move_ids],
            move_ids,
            killers: vec![[None; 2]; MAX_PLY + 2],
        }
    }

    /// Forgets everything (`ucinewgame`).
    pub(super) fn clear(&mut self) {
        self.history.fill(0);
        self.killers.fill([None; 2]);
    }

    /// Between two searches: history scores keep a quarter of their weight, killers (moves
    /// of other positions now) are dropped.
    pub(super) fn age(&mut self) {
        for h in self.history.iter_mut() {
            *h /= 4;
        }
        self.killers.fill([None; 2]);
    }

    /// The killers of `ply`, the newest first.
    #[inline]
    pub(super) fn killers(&self, ply: usize) -> [Option<M>; 2] {
        self.killers[ply]
    }

    /// The history score of the quiet move `move_id` for `side` (0 ..= [`HISTORY_MAX`]).
    #[inline]
    pub(super) fn score(&self, side: usize, move_id: usize) -> i32 {
        self.history[side * self.move_ids + move_id]
    }

    /// A quiet move caused a cutoff at `ply` and `depth`: it becomes the first killer
    /// (unless it is the table's move, tried first anyway) and gains history.
    pub(super) fn reward(
        &mut self,
        ply: usize,
        depth: i32,
        mv: M,
        is_tt_move: bool,
        side: usize,
        move_id: usize,
    ) {
        if !is_tt_move {
            let k = &mut self.killers[ply];
            if k[0] != Some(mv) {
                k[1] = k[0];
                k[0] = Some(mv);
            }
        }
        let h = &mut self.history[side * self.move_ids + move_id];
        *h = (*h + depth * depth).min(HISTORY_MAX);
    }
}
