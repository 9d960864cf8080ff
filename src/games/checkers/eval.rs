//! The heuristic evaluation of a checkers position, in hundredths of a man, from the side
//! to move's view. Each term is computed for Black on the board as it stands and for White on
//! the flipped board (board.rs: the half-turn that swaps the colours), so one function sees
//! every position as Black moving down the board:
//!
//! - material: a man 100, a king 130; when one side is ahead, trading pieces helps it (the
//!   lead counts more as the board empties);
//! - back rank: men still on their own first row keep the opponent's men from being
//!   crowned, worth most on squares 1 and 3 (the "bridge") while the opponent has no king;
//! - centre: men and kings on the four central squares 14, 15, 18, 19 (kings also on the
//!   squares around them); kings on the edge are worth less;
//! - mobility: the number of steps each side could make;
//! - runaway men: a man no opposing piece can stop (none in the cone of squares ahead of it),
//!   by how close it is to being crowned;
//! - tempo: how far the men have advanced, encouraged as the board empties (in the ending the
//!   side that runs out of safe moves first loses, and advanced men are kings sooner).

use super::board::{Board, DOWN_EAST, DOWN_WEST, step};
use crate::game::Player;

const MAN: i32 = 100;
const KING: i32 = 130;

/// Squares 1–4: Black's own first row.
const BACK_ROW: u32 = 0x0000_000F;
/// Squares 1 and 3, the bridge that holds the first row against a lone attacker.
const BRIDGE: u32 = (1 << 0) | (1 << 2);
/// Squares 14, 15, 18, 19.
const CENTRE: u32 = (1 << 13) | (1 << 14) | (1 << 17) | (1 << 18);
/// Squares 10, 11, 22, 23 and the centre: good squares for a king.
const KING_CENTRE: u32 = CENTRE | (1 << 9) | (1 << 10) | (1 << 21) | (1 << 22);
/// Squares 5, 12, 13, 20, 21, 28 (the side edges) and the first and last rows.
const EDGE: u32 =
    0xF000_000F | (1 << 4) | (1 << 11) | (1 << 12) | (1 << 19) | (1 << 20) | (1 << 27);

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

/// The value for the side to move.
pub fn evaluate(b: &Board, side: Player) -> i32 {
    let flipped = b.flipped();
    let pieces = b.occupied().count_ones() as i32;
    let black = material(b) + positional(b, pieces);
    let white = material(&flipped) + positional(&flipped, pieces);
    let mut score = black - white;
    score += trade_bonus(black_material_lead(b), pieces);
    match side {
        Player::First => score,
        Player::Second => -score,
    }
}

fn material(b: &Board) -> i32 {
    let kings = (b.black & b.kings).count_ones() as i32;
    let men = (b.black & !b.kings).count_ones() as i32;
    MAN * men + KING * kings
}

fn black_material_lead(b: &Board) -> i32 {
    material(b) - material(&b.flipped())
}

/// A lead is worth more with fewer pieces on the board: up to a third more in a bare ending.
fn trade_bonus(lead: i32, pieces: i32) -> i32 {
    lead * (24 - pieces).max(0) / 72
}

/// Black's positional terms (every one but material).
fn positional(b: &Board, pieces: i32) -> i32 {
    let men = b.black & !b.kings;
    let kings = b.black & b.kings;
    let white_kings = b.white & b.kings;
    let mut s = 0;
    if white_kings == 0 {
        s += 6 * (men & BACK_ROW).count_ones() as i32 + 8 * (men & BRIDGE).count_ones() as i32;
    }
    s += 8 * (men & CENTRE).count_ones() as i32;
    s += 10 * (kings & KING_CENTRE).count_ones() as i32 - 8 * (kings & EDGE).count_ones() as i32;
    s += 3 * b.step_count(Player::First) as i32;
    s += runaways(b, men);
    s += tempo(men, pieces);
    s
}

/// Men that nothing can stop on the way to the far row: by rows left to go.
fn runaways(b: &Board, men: u32) -> i32 {
    let mut s = 0;
    let mut rest = men;
    while rest != 0 {
        let bit = rest.trailing_zeros();
        rest &= rest - 1;
        if CONE[bit as usize] & b.white == 0 {
            let rows_left = 7 - bit as i32 / 4;
            s += 60 - 7 * rows_left;
        }
    }
    s
}

/// The men's advance (rows from their first row), weighted up as the board empties.
fn tempo(men: u32, pieces: i32) -> i32 {
    let mut rows = 0;
    let mut rest = men;
    while rest != 0 {
        rows += rest.trailing_zeros() as i32 / 4;
        rest &= rest - 1;
    }
    rows * (28 - pieces).max(0) / 8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_is_even_and_colours_are_symmetric() {
        assert_eq!(evaluate(&Board::START, Player::First), 0);
        let b = Board {
            black: 0b1011_0000_0000_0110,
            white: 0x0F30_0000,
            kings: 0x0100_0002,
        };
        assert_eq!(
            evaluate(&b, Player::First),
            evaluate(&b.flipped(), Player::Second)
        );
        assert_eq!(evaluate(&b, Player::First), -evaluate(&b, Player::Second));
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
        assert!((90..200).contains(&gain), "{gain}");
    }

    #[test]
    fn cones_widen_downwards() {
        // A black man on 30's row has nothing ahead; one on 1 sees most of the board.
        assert_eq!(CONE[29], 0);
        assert_eq!(CONE[0].count_ones(), 2 + 2 + 3 + 3 + 4 + 4 + 4);
    }
}
