//! The heuristic evaluation of a checkers position, in hundredths of a man, from the side
//! to move's view: a sum of weighted features, each counted for Black on the board as it
//! stands and subtracted for White on the flipped board (board.rs: the half-turn that swaps
//! the colours), so one function sees every position as Black moving down the board.
//!
//! Every weight is a pair [`S`]: its value with the full board (24 pieces) and with a bare
//! one; a position's value blends the two by its number of pieces, so a term can matter more
//! in the opening or in the ending (the men's advance, worth little while the board is full,
//! decides who runs out of safe moves in the ending). The weights live in `weights.rs`, fitted
//! by `examples/checkers_tune.rs` (docs/checkers.md, "The evaluation's weights"); the
//! features, by index:
//!
//! - material: a man, a king;
//! - a man on each of the 32 squares, a king on each (square tables, bit order);
//! - guards: men on the four squares of their own first row while the opponent has no king
//!   (they keep the opponent's men from being crowned);
//! - mobility: the number of steps the side could make;
//! - runaway men: a man no opposing piece can stop (none in the cone of squares ahead of
//!   it), by the rows it has left to go (1–7);
//! - blocked men (no empty square ahead), kings with no step;
//! - pieces the opponent could jump if it were its move (the first jump of a capture);
//! - balance: the difference between the men on the board's two halves (files a–d, e–h);
//! - the bridge: men on both squares 1 and 3 while the opponent has no king (together they
//!   hold the first row against a lone attacker);
//! - kings while the opponent has none.
//!
//! [`trace`] lists a position's feature counts, the same ones [`evaluate`] weighs, so the
//! tuner fits exactly the function the engine runs.

use super::board::{Board, DOWN_EAST, DOWN_WEST, UP_EAST, UP_WEST, step};
use super::weights::WEIGHTS;
use crate::game::Player;

/// A weight with the full board (`.0`) and with a bare board (`.1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct S(pub i32, pub i32);

pub const MAN: usize = 0;
pub const KING: usize = 1;
pub const MAN_SQUARE: usize = 2;
pub const KING_SQUARE: usize = MAN_SQUARE + 32;
pub const GUARD: usize = KING_SQUARE + 32;
pub const MOBILITY: usize = GUARD + 4;
pub const RUNAWAY: usize = MOBILITY + 1;
pub const BLOCKED_MEN: usize = RUNAWAY + 7;
pub const STUCK_KINGS: usize = BLOCKED_MEN + 1;
pub const EXPOSED: usize = STUCK_KINGS + 1;
pub const BALANCE: usize = EXPOSED + 1;
pub const BRIDGE: usize = BALANCE + 1;
pub const SOLE_KINGS: usize = BRIDGE + 1;
pub const NUM_WEIGHTS: usize = SOLE_KINGS + 1;

/// The groups of the table, for its file's comments: (first index, name, length).
pub const GROUPS: [(usize, &str, usize); 13] = [
    (MAN, "material: man", 1),
    (KING, "material: king", 1),
    (
        MAN_SQUARE,
        "a man on each square, bits 0..31 as Black sees them",
        32,
    ),
    (KING_SQUARE, "a king on each square", 32),
    (GUARD, "men on 1..4 while the opponent has no king", 4),
    (MOBILITY, "mobility (steps)", 1),
    (RUNAWAY, "runaway men by rows left to go, 1..7", 7),
    (BLOCKED_MEN, "men with no empty square ahead", 1),
    (STUCK_KINGS, "kings with no step", 1),
    (EXPOSED, "pieces the opponent could jump", 1),
    (BALANCE, "balance: |men on files a-d - men on files e-h|", 1),
    (BRIDGE, "bridge: men on 1 and 3, no opposing king", 1),
    (SOLE_KINGS, "kings while the opponent has none", 1),
];

/// The number of pieces of a full board: the weights' first value is for it.
pub const FULL: i32 = 24;

/// Squares 1–4: Black's own first row.
const BACK_ROW: u32 = 0x0000_000F;
/// Squares 1 and 3.
const BRIDGE_SQUARES: u32 = (1 << 0) | (1 << 2);
/// Index 0 and 1 of each row: files a–d.
const WEST_HALF: u32 = 0x3333_3333;

const fn cones() -> [u32; 32] {
    let mut t = [0u32; 32];
    let mut s = 0;
    while s < 32 {
        let mut front = 1u32 << s;
        let mut cone = 0;
        while front != 0 {
            front = step(DOWN_WEST, front) | step(DOWN_EAST, front);
            cone |= front;
        }
        t[s] = cone;
        s += 1;
    }
    t
}

/// `CONE[s]`: every square a black man on bit `s` could reach on its way down.
const CONE: [u32; 32] = cones();

/// Where the features go: the weighted sum in play, the counts for the tuner.
trait Sink {
    fn add(&mut self, index: usize, count: i32);
}

/// The two sums of the weights, for the full and the bare board.
struct Sum(i32, i32);

impl Sink for Sum {
    #[inline(always)]
    fn add(&mut self, index: usize, count: i32) {
        let w = WEIGHTS[index];
        self.0 += w.0 * count;
        self.1 += w.1 * count;
    }
}

/// The counts, Black's minus White's (`sign` is the side being counted).
struct Counts<'a> {
    sign: i32,
    out: &'a mut Vec<(u16, i16)>,
}

impl Sink for Counts<'_> {
    fn add(&mut self, index: usize, count: i32) {
        if count != 0 {
            self.out.push((index as u16, (self.sign * count) as i16));
        }
    }
}

/// The blend of a full-board and a bare-board value for a board of `pieces` pieces.
#[inline]
pub fn blend(full: i32, bare: i32, pieces: i32) -> i32 {
    let pieces = pieces.min(FULL);
    (full * pieces + bare * (FULL - pieces)) / FULL
}

/// The value for the side to move.
pub fn evaluate(b: &Board, side: Player) -> i32 {
    let mut black = Sum(0, 0);
    features(b, &mut black);
    let mut white = Sum(0, 0);
    features(&b.flipped(), &mut white);
    let pieces = b.occupied().count_ones() as i32;
    let score = blend(black.0 - white.0, black.1 - white.1, pieces);
    match side {
        Player::First => score,
        Player::Second => -score,
    }
}

/// The position's feature counts, Black's minus White's, as `(index, count)` pairs (an
/// index may appear twice), into `out`; returns the number of pieces. The evaluation for
/// Black is `blend(Σ count·w.0, Σ count·w.1, pieces)`.
pub fn trace(b: &Board, out: &mut Vec<(u16, i16)>) -> i32 {
    out.clear();
    features(b, &mut Counts { sign: 1, out });
    features(&b.flipped(), &mut Counts { sign: -1, out });
    b.occupied().count_ones() as i32
}

/// Black's features.
#[inline(always)]
fn features(b: &Board, sink: &mut impl Sink) {
    let men = b.black & !b.kings;
    let kings = b.black & b.kings;
    let empty = b.empty();
    sink.add(MAN, men.count_ones() as i32);
    sink.add(KING, kings.count_ones() as i32);
    let mut runaways = [0i32; 7];
    let mut rest = men;
    while rest != 0 {
        let bit = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        sink.add(MAN_SQUARE + bit, 1);
        if CONE[bit] & b.white == 0 {
            // A man on the last row is a king, so 1..=7 rows are left.
            let rows_left = 7 - bit / 4;
            runaways[rows_left - 1] += 1;
        }
    }
    for (i, &n) in runaways.iter().enumerate() {
        sink.add(RUNAWAY + i, n);
    }
    let mut rest = kings;
    while rest != 0 {
        let bit = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        sink.add(KING_SQUARE + bit, 1);
    }
    if b.white & b.kings == 0 {
        let guards = men & BACK_ROW;
        for i in 0..4 {
            sink.add(GUARD + i, (guards >> i & 1) as i32);
        }
        sink.add(BRIDGE, (men & BRIDGE_SQUARES == BRIDGE_SQUARES) as i32);
        sink.add(SOLE_KINGS, kings.count_ones() as i32);
    }
    sink.add(MOBILITY, b.step_count(Player::First) as i32);
    // Pieces with an empty square one step away in each direction, back on their squares.
    let back = |d: usize, from: u32| step(3 - d, step(d, from) & empty);
    let men_move = back(DOWN_WEST, men) | back(DOWN_EAST, men);
    sink.add(BLOCKED_MEN, (men & !men_move).count_ones() as i32);
    let kings_move = back(DOWN_WEST, kings)
        | back(DOWN_EAST, kings)
        | back(UP_WEST, kings)
        | back(UP_EAST, kings);
    sink.add(STUCK_KINGS, (kings & !kings_move).count_ones() as i32);
    // White's pieces jump up (its men) or any way (its kings): a black piece next to one,
    // with an empty square behind it, is exposed.
    let white_kings = b.white & b.kings;
    let mut exposed = 0;
    for d in [UP_WEST, UP_EAST, DOWN_WEST, DOWN_EAST] {
        let movers = if d == UP_WEST || d == UP_EAST {
            b.white
        } else {
            white_kings
        };
        exposed |= step(d, movers) & b.black & step(3 - d, empty);
    }
    sink.add(EXPOSED, exposed.count_ones() as i32);
    let west = (men & WEST_HALF).count_ones() as i32;
    let east = (men & !WEST_HALF).count_ones() as i32;
    sink.add(BALANCE, (west - east).abs());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A few varied boards (Black's and White's men and kings), by their bits.
    fn boards() -> Vec<Board> {
        let mut out = vec![Board::START];
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..200 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let black = (x as u32) & (x >> 32) as u32 & 0x0FFF_FFFF;
            let white = !black & ((x >> 17) as u32 & (x >> 40) as u32) & 0xFFFF_FFF0;
            let kings = (black | white) & (x >> 9) as u32 & (x >> 23) as u32;
            out.push(Board {
                black,
                white,
                kings,
            });
        }
        out
    }

    #[test]
    fn the_start_is_even_and_colours_are_symmetric() {
        assert_eq!(evaluate(&Board::START, Player::First), 0);
        for b in boards() {
            assert_eq!(
                evaluate(&b, Player::First),
                evaluate(&b.flipped(), Player::Second)
            );
            assert_eq!(evaluate(&b, Player::First), -evaluate(&b, Player::Second));
        }
    }

    #[test]
    fn the_trace_weighs_to_the_evaluation() {
        let mut counts = Vec::new();
        for b in boards() {
            let pieces = trace(&b, &mut counts);
            let (full, bare) = counts.iter().fold((0, 0), |(f, e), &(i, c)| {
                let w = WEIGHTS[i as usize];
                (f + w.0 * c as i32, e + w.1 * c as i32)
            });
            assert_eq!(blend(full, bare, pieces), evaluate(&b, Player::First));
        }
    }

    #[test]
    fn a_man_more_is_worth_about_a_man() {
        let even = Board {
            black: 1 << 9,
            white: 1 << 22,
            kings: 0,
        };
        let up = Board {
            black: (1 << 9) | (1 << 1),
            ..even
        };
        let gain = evaluate(&up, Player::First) - evaluate(&even, Player::First);
        assert!((70..250).contains(&gain), "{gain}");
    }

    #[test]
    fn cones_widen_downwards() {
        // A black man on 30's row has nothing ahead; one on 1 sees most of the board.
        assert_eq!(CONE[29], 0);
        assert_eq!(CONE[0].count_ones(), 2 + 2 + 3 + 3 + 4 + 4 + 4);
    }

    #[test]
    fn the_features_count_what_they_name() {
        // A black man on bit 9 and a white man on bit 13, diagonal neighbours with empty
        // squares behind both: each could be jumped, and each can still step.
        let b = Board {
            black: 1 << 9,
            white: 1 << 13,
            kings: 0,
        };
        let mut counts = Vec::new();
        trace(&b, &mut counts);
        let total = |index: usize| -> i32 {
            counts
                .iter()
                .filter(|&&(i, _)| i as usize == index)
                .map(|&(_, c)| c as i32)
                .sum()
        };
        assert_eq!(total(MAN), 0);
        assert_eq!(total(MAN_SQUARE + 9), 1);
        assert_eq!(total(EXPOSED), 0, "each side exposes one man");
        assert_eq!(total(BLOCKED_MEN), 0);
    }
}
