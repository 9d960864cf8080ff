//! Connect Four as `connect_four_v3`: action `c` drops in column `c` (0 = leftmost); the
//! observation (H, W, 2) is indexed `[row][column]` with row 0 the top: plane 0 the viewer's
//! discs, plane 1 the opponent's. Any board size ply plays (`width`, `height`) is encoded the
//! same way.

use ply::game::{Game, Line, Player};
use ply::games::Connect4;

use super::Encoded;

fn discs(pos: &Connect4, p: Player) -> u64 {
    if p == pos.side_to_move() {
        pos.current()
    } else {
        pos.current() ^ pos.mask()
    }
}

impl Encoded for Connect4 {
    type Extra = ();

    fn num_actions(&self) -> usize {
        self.rules().width as usize
    }

    fn action_of(&self, mv: u8) -> usize {
        mv as usize
    }

    fn obs_shape(&self) -> Vec<usize> {
        let r = self.rules();
        vec![r.height as usize, r.width as usize, 2]
    }

    fn write_obs(&self, line: &Line<Self>, _: &(), viewer: Player, out: &mut [u8]) {
        let pos = line.pos();
        let r = pos.rules();
        let (w, h) = (r.width, r.height);
        for (plane, stones) in [discs(pos, viewer), discs(pos, viewer.other())]
            .into_iter()
            .enumerate()
        {
            super::for_bits(stones, |bit| {
                let (col, row) = (bit / (h + 1), bit % (h + 1));
                out[(((h - 1 - row) * w + col) * 2) as usize + plane] = 1;
            });
        }
    }

    fn write_mask(&self, out: &mut [u8]) {
        for (c, o) in out.iter_mut().enumerate().take(self.rules().width as usize) {
            *o = self.can_play(c as u32) as u8;
        }
    }
}
