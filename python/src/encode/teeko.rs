//! Teeko: action `c` (0..25) drops a marker on cell `c`, action `25 + 25 * from + to` steps a
//! marker (650 actions), cells numbered `file + 5 * rank` from a1 as ply numbers them; the
//! observation (5, 5, 2) is indexed `[row][file]` with row 0 the top (rank 5): plane 0 the
//! viewer's markers, plane 1 the opponent's.

use ply::game::{Line, Player};
use ply::games::Teeko;
use ply::games::teeko::TeekoMove;

use super::Encoded;

impl Encoded for Teeko {
    type Extra = ();

    fn num_actions(&self) -> usize {
        25 + 25 * 25
    }

    fn action_of(&self, mv: TeekoMove) -> usize {
        match mv {
            TeekoMove::Drop(c) => c as usize,
            TeekoMove::Step(f, t) => 25 + 25 * f as usize + t as usize,
        }
    }

    fn obs_shape(&self) -> Vec<usize> {
        vec![5, 5, 2]
    }

    fn write_obs(&self, line: &Line<Self>, _: &(), viewer: Player, out: &mut [u8]) {
        let pos = line.pos();
        for (plane, p) in [viewer, viewer.other()].into_iter().enumerate() {
            super::for_bits(pos.markers(p) as u64, |bit| {
                let (file, rank) = (bit % 5, bit / 5);
                out[(((4 - rank) * 5 + file) * 2) as usize + plane] = 1;
            });
        }
    }
}
