//! What a stored byte means: the value of a position for the side to move, with its
//! distance in plies to the end of the game under perfect play (fastest win, slowest loss).
//!
//! ```text
//! 0          draw (while building: not yet known)
//! 1..=127    win, the winner's last move `2 * code - 1` plies away (1, 3, ..., 253)
//! 128..=254  loss, the game ends `2 * (code - 128)` plies away (0, 2, ..., 252);
//!            128 is a finished game: the opponent has just completed a goal
//! 255        no such position: the side to move already has a goal (the game ended before)
//! ```
//!
//! The side to move can only win with its own move, so a win is an odd number of plies away
//! and a loss an even number: one byte covers distances up to 253 plies, inside the searcher's
//! `MATE_BOUND` (256 plies).

use crate::value::MATE;

pub const DRAW: u8 = 0;
pub const LOSS_NOW: u8 = 128;
pub const INVALID: u8 = 255;
/// The longest win one byte can hold, in plies.
pub const MAX_WIN: u32 = 253;
/// The longest loss one byte can hold, in plies.
pub const MAX_LOSS: u32 = 252;

/// A win whose last move is `plies` (odd, at most [`MAX_WIN`]) away.
#[inline]
pub fn win(plies: u32) -> u8 {
    debug_assert!(plies % 2 == 1 && plies <= MAX_WIN);
    (1 + plies / 2) as u8
}

/// A loss `plies` (even, at most [`MAX_LOSS`]) away.
#[inline]
pub fn loss(plies: u32) -> u8 {
    debug_assert!(plies.is_multiple_of(2) && plies <= MAX_LOSS);
    (128 + plies / 2) as u8
}

#[inline]
pub fn is_win(code: u8) -> bool {
    (1..128).contains(&code)
}

#[inline]
pub fn is_loss(code: u8) -> bool {
    (128..255).contains(&code)
}

/// Plies to the end for a win or loss (0 for a draw or an invalid code).
#[inline]
pub fn plies(code: u8) -> u32 {
    match code {
        1..=127 => 2 * code as u32 - 1,
        128..=254 => 2 * (code as u32 - 128),
        _ => 0,
    }
}

/// The value in the searcher's scale (`MATE - n` for a win in `n` plies, its negative for a
/// loss, 0 for a draw), or `None` for [`INVALID`].
#[inline]
pub fn value(code: u8) -> Option<i32> {
    match code {
        DRAW => Some(0),
        1..=127 => Some(MATE - plies(code) as i32),
        128..=254 => Some(-(MATE - plies(code) as i32)),
        INVALID => None,
    }
}

/// The code of a value in the searcher's scale; `None` when the distance does not fit.
#[inline]
pub fn encode(value: i32) -> Option<u8> {
    if value == 0 {
        Some(DRAW)
    } else if value > 0 {
        let n = (MATE - value) as u32;
        (n % 2 == 1 && n <= MAX_WIN).then(|| win(n))
    } else {
        let n = (MATE + value) as u32;
        (n.is_multiple_of(2) && n <= MAX_LOSS).then(|| loss(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::back_up;

    #[test]
    fn codes_round_trip_and_back_up() {
        for c in 0..=254u8 {
            let v = value(c).unwrap();
            assert_eq!(encode(v), Some(c), "code {c}");
        }
        assert_eq!(value(INVALID), None);
        assert_eq!(value(LOSS_NOW), Some(-MATE));
        assert_eq!(back_up(value(LOSS_NOW).unwrap()), value(win(1)).unwrap());
        assert_eq!(back_up(value(win(5)).unwrap()), value(loss(6)).unwrap());
        assert_eq!(encode(MATE - 255), None);
        assert!(is_win(win(253)) && is_loss(loss(252)) && !is_win(DRAW) && !is_loss(DRAW));
    }
}
