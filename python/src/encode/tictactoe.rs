//! Tic-tac-toe as `tictactoe_v3`: action `p` in 0..9 is the cell in column `p / 3` and row
//! `p % 3` counted from the top (PettingZoo numbers cells column by column); the observation
//! (3, 3, 2) is indexed `[p / 3][p % 3]`: plane 0 the viewer's marks, plane 1 the opponent's.
//! ply's cell `file + 3 * rank` counts ranks from the bottom.

use ply::game::{Line, Player};
use ply::games::TicTacToe;

use super::Encoded;

/// ply's cell of PettingZoo's cell `p`.
fn cell(p: usize) -> u8 {
    (p / 3 + 3 * (2 - p % 3)) as u8
}

/// PettingZoo's cell of ply's cell `c`.
fn action(c: u8) -> usize {
    let (file, rank) = (c as usize % 3, c as usize / 3);
    file * 3 + (2 - rank)
}

impl Encoded for TicTacToe {
    type Extra = ();

    fn num_actions(&self) -> usize {
        9
    }

    fn action_of(&self, mv: u8) -> usize {
        action(mv)
    }

    fn obs_shape(&self) -> Vec<usize> {
        vec![3, 3, 2]
    }

    fn write_obs(&self, line: &Line<Self>, _: &(), viewer: Player, out: &mut [u8]) {
        let pos = line.pos();
        let (mine, theirs) = (pos.marks(viewer), pos.marks(viewer.other()));
        for p in 0..9 {
            let bit = 1 << cell(p);
            out[2 * p] = (mine & bit != 0) as u8;
            out[2 * p + 1] = (theirs & bit != 0) as u8;
        }
    }

    fn write_mask(&self, out: &mut [u8]) {
        let taken = self.marks(Player::First) | self.marks(Player::Second);
        for (p, o) in out.iter_mut().enumerate().take(9) {
            *o = (taken & (1 << cell(p)) == 0) as u8;
        }
    }

    fn agent_names() -> [&'static str; 2] {
        ["player_1", "player_2"]
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn cells_and_actions_are_inverse() {
        for p in 0..9 {
            assert_eq!(super::action(super::cell(p)), p);
        }
    }
}
