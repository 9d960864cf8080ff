//! One byte per position: its game-theoretic value with the distance to the end, for the
//! side to move, with unbounded play (neither the repetition rule nor the no-progress rule
//! applies, as in Chinook's databases).
//!
//! - `0`: a draw (also the byte of an invalid index, which is never read);
//! - `1 + d`, `d` from 0 to [`MAX_PLIES`]: the game ends in `d` plies with best play (the
//!   winner ending it as soon as it can, the loser as late as it can); the side to move wins
//!   when `d` is odd (it makes the last move) and loses when `d` is even (`d = 0`: it has no
//!   move);
//! - `255`: not known yet (only while building).

use crate::value::MATE;

pub const DRAW: u8 = 0;
pub const UNKNOWN: u8 = 255;
/// The longest distance a byte holds.
pub const MAX_PLIES: u32 = 253;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    Draw,
    /// The side to move wins; the game ends after this many plies (odd).
    Win(u32),
    /// The side to move loses; the game ends after this many plies (even).
    Loss(u32),
}

impl Value {
    /// The value of a position whose game ends in `plies` plies.
    pub fn ending_in(plies: u32) -> Value {
        if plies % 2 == 1 {
            Value::Win(plies)
        } else {
            Value::Loss(plies)
        }
    }

    pub fn decode(byte: u8) -> Value {
        match byte {
            DRAW | UNKNOWN => Value::Draw,
            b => Value::ending_in(b as u32 - 1),
        }
    }

    /// The byte of a distance (see the module doc); `None` beyond [`MAX_PLIES`].
    pub fn encode_plies(plies: u32) -> Option<u8> {
        (plies <= MAX_PLIES).then_some(plies as u8 + 1)
    }

    pub fn encode(self) -> u8 {
        match self {
            Value::Draw => DRAW,
            Value::Win(d) | Value::Loss(d) => Self::encode_plies(d).expect("a distance that fits"),
        }
    }

    /// The value of the position before, where the move to this one was played.
    pub fn back(self) -> Value {
        match self {
            Value::Draw => Value::Draw,
            Value::Win(d) => Value::Loss(d + 1),
            Value::Loss(d) => Value::Win(d + 1),
        }
    }

    /// In the searcher's scale (`MATE - plies` for a win, its negative for a loss).
    pub fn score(self) -> i32 {
        match self {
            Value::Draw => 0,
            Value::Win(d) => MATE - d as i32,
            Value::Loss(d) => -(MATE - d as i32),
        }
    }

    /// Orders values for the side to move: faster wins first, then draws, slower losses
    /// before faster ones.
    pub fn preference(self) -> i64 {
        self.score() as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip_and_parity_names_the_winner() {
        for d in 0..=MAX_PLIES {
            let v = Value::ending_in(d);
            assert_eq!(Value::decode(v.encode()), v);
            assert_eq!(matches!(v, Value::Win(_)), d % 2 == 1);
        }
        assert_eq!(Value::decode(DRAW), Value::Draw);
        assert_eq!(Value::encode_plies(MAX_PLIES + 1), None);
        assert_eq!(Value::Loss(0).back(), Value::Win(1));
        assert!(Value::Win(3).preference() > Value::Win(5).preference());
        assert!(Value::Loss(8).preference() > Value::Loss(2).preference());
        assert!(Value::Draw.preference() > Value::Loss(200).preference());
    }
}
