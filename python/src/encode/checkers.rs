//! Checkers (English draughts): action `32 * from + to` (1024 actions), squares numbered
//! 0..32 as PDN's 1..32 less one, for a step and for a capture alike (a capture by where it
//! starts and ends). The observation (8, 8, 4) is indexed `[row][file]` with row 0 the top
//! (squares 1-4, where Black starts) and file 0 file a: plane 0 the viewer's men, plane 1 the
//! viewer's kings, plane 2 the opponent's men, plane 3 the opponent's kings; light squares
//! are always 0.
//!
//! Two legal captures can start and end on the same squares: a king's circuit run either way
//! round (same pieces taken, same position after: the action plays either) and, rarely, two
//! routes that take different pieces (a man's or a king's "diamond"). Such an action plays
//! the first of them in ply's move order; the other cannot be chosen by action
//! (docs/python.md says so).

use ply::game::{Line, Player};
use ply::games::Checkers;
use ply::games::checkers::Move;

use super::Encoded;

/// The file (0 = a) of bit `bit` (square `bit + 1`): rows 0, 2, 4, 6 use files b, d, f, h,
/// the others a, c, e, g (see the board's representation in ply's checkers module).
fn file_of(bit: u32) -> u32 {
    let row = bit / 4;
    2 * (bit % 4) + u32::from(row.is_multiple_of(2))
}

impl Encoded for Checkers {
    type Extra = ();

    fn num_actions(&self) -> usize {
        32 * 32
    }

    fn action_of(&self, mv: Move) -> usize {
        32 * mv.from as usize + mv.to as usize
    }

    fn obs_shape(&self) -> Vec<usize> {
        vec![8, 8, 4]
    }

    fn write_obs(&self, line: &Line<Self>, _: &(), viewer: Player, out: &mut [u8]) {
        let board = line.pos().board();
        for (k, p) in [viewer, viewer.other()].into_iter().enumerate() {
            let pieces = board.pieces(p);
            for (plane, set) in [
                (2 * k, pieces & !board.kings),
                (2 * k + 1, pieces & board.kings),
            ] {
                super::for_bits(set as u64, |bit| {
                    let (row, file) = (bit / 4, file_of(bit));
                    out[((row * 8 + file) * 4) as usize + plane] = 1;
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply::game::{Game, Params};

    #[test]
    fn start_observation_and_actions() {
        let pos = Checkers::new(&Params::new()).unwrap();
        let line = Line::new(pos);
        let mut out = vec![0u8; 8 * 8 * 4];
        pos.write_obs(&line, &(), Player::First, &mut out);
        // Black (the viewer) has men on rows 0-2, on b8, d8, ... then a7, c7, ...
        let at = |row: usize, file: usize, plane: usize| out[(row * 8 + file) * 4 + plane];
        assert_eq!(at(0, 1, 0), 1); // square 1 (b8): Black's man
        assert_eq!(at(1, 0, 0), 1); // square 5 (a7)
        assert_eq!(at(5, 0, 2), 1); // square 21 (a3): White's man
        assert_eq!(at(7, 6, 2), 1); // square 32 (g1)
        assert_eq!(at(0, 0, 0), 0); // a8 is a light square
        assert_eq!(out.iter().map(|&b| b as u32).sum::<u32>(), 24);
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut actions: Vec<usize> = moves.iter().map(|&m| pos.action_of(m)).collect();
        actions.sort_unstable();
        actions.dedup();
        assert_eq!(actions.len(), 7);
        // 11-15: bit 10 to bit 14.
        assert!(actions.contains(&(32 * 10 + 14)));
    }
}
