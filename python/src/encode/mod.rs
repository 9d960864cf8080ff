//! Games as learning environments see them: integer actions, observation tensors and action
//! masks. This is an encoding of positions, not rules: every rule question goes to the game
//! (`ply::game::Game`). For tic-tac-toe, Connect Four and chess the encodings are
//! PettingZoo's (`tictactoe_v3`, `connect_four_v3`, `chess_v6`), so an agent written for those
//! runs on ply unchanged; Nim, Teeko and checkers follow the same style (docs/python.md).
//!
//! Observations are bytes of 0/1 (or small counts for Nim) in row-major order of
//! [`Encoded::obs_shape`]; the Python side gives them their numpy dtype.

mod checkers;
mod chess;
mod connect4;
mod nim;
mod teeko;
mod tictactoe;

use ply::game::{Game, Line, Outcome, Player};
use ply::solve::Solvable;

/// What an environment keeps beside the position: nothing for most games; the position
/// history for chess (its observation stacks the last eight positions).
pub trait Extra<G: Game>: Clone + Default + Send + Sync + 'static {
    /// Called after `mv` was played on `line` (already updated).
    fn after_play(&mut self, _line: &Line<G>) {}
}

impl<G: Game> Extra<G> for () {}

/// A game as a learning environment encodes it.
pub trait Encoded: Solvable {
    type Extra: Extra<Self>;

    /// The number of integer actions (the size of the action space).
    fn num_actions(&self) -> usize;

    /// The integer action of a legal move.
    fn action_of(&self, mv: Self::Move) -> usize;

    /// The observation's shape.
    fn obs_shape(&self) -> Vec<usize>;

    /// The observation of the position by `viewer` (PettingZoo observes for any agent, not
    /// only the one to move), into `out` (zeroed by the caller, `obs_shape` elements).
    fn write_obs(&self, line: &Line<Self>, extra: &Self::Extra, viewer: Player, out: &mut [u8]);

    /// PettingZoo's action mask for the agent to move: the legal actions by default.
    /// `tictactoe_v3` and `connect_four_v3` mark every empty cell or open column, even after
    /// the game has ended, and the encodings for those games do the same.
    fn write_mask(&self, out: &mut [u8]) {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        for mv in moves {
            out[self.action_of(mv)] = 1;
        }
    }

    /// When the environment's game is over: the game's own rules (with its repetition rule)
    /// by default; chess_v6 also ends on a draw that could be claimed (see encode/chess.rs).
    fn env_outcome(line: &Line<Self>, _extra: &Self::Extra) -> Option<Outcome> {
        line.outcome()
    }

    /// A name for each player as PettingZoo calls its agents.
    fn agent_names() -> [&'static str; 2] {
        ["player_0", "player_1"]
    }
}

/// Calls `f` with the index of every set bit of `bits`, lowest first.
pub(crate) fn for_bits(mut bits: u64, mut f: impl FnMut(u32)) {
    while bits != 0 {
        f(bits.trailing_zeros());
        bits &= bits - 1;
    }
}
