//! Nim: action `heap * K + (take - 1)` takes `take` objects from heap `heap` (from 0), with
//! `K` the game's largest take (`max`); the observation (heaps, 16) holds each heap's size in
//! binary, least significant bit first (heaps hold at most 50 000 objects, under 2^16).

use ply::game::{Line, Player};
use ply::games::Nim;
use ply::games::nim::{MAX_HEAP_SIZE, NimMove};

use super::Encoded;

/// Bits per heap in the observation.
const BITS: usize = 16;

fn takes(pos: &Nim) -> usize {
    pos.max_take().min(MAX_HEAP_SIZE) as usize
}

impl Encoded for Nim {
    type Extra = ();

    fn num_actions(&self) -> usize {
        self.heaps().len() * takes(self)
    }

    fn action_of(&self, mv: NimMove) -> usize {
        mv.heap as usize * takes(self) + mv.take as usize - 1
    }

    fn obs_shape(&self) -> Vec<usize> {
        vec![self.heaps().len(), BITS]
    }

    fn write_obs(&self, line: &Line<Self>, _: &(), _viewer: Player, out: &mut [u8]) {
        for (i, &h) in line.pos().heaps().iter().enumerate() {
            for b in 0..BITS {
                out[i * BITS + b] = ((h >> b) & 1) as u8;
            }
        }
    }
}
