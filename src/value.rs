//! The value vocabulary shared by the searcher, the solvers, the protocol and the referee: the
//! mate scale, the value of a finished game, backing a value up one ply, and [`Score`], a value
//! as the protocol writes it (`cp <n>`, `mate <n>`, with an optional `lowerbound` /
//! `upperbound`, see protocol.md's `info` line).
//!
//! Values are `i32`s from the side to move: heuristic values well inside ±[`MATE_BOUND`], and
//! `MATE - n` for a win whose last move is `n` plies away (`-(MATE - n)` for a loss), so that
//! faster wins and slower losses score higher. 0 is a draw (or an even heuristic value).

use std::fmt;
use std::str::FromStr;

use crate::game::{Outcome, Player};

/// The value of a win at the root itself; a win `n` plies away is worth `MATE - n`.
pub const MATE: i32 = 1_000_000;
/// The deepest ply a value can count a mate distance to (and the searcher's stack depth).
pub const MAX_PLY: usize = 256;
/// Values at least this large (in absolute value) are wins or losses at a known distance.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// Whether `v` proves the game's result (a win or loss at a known distance).
pub fn is_mate(v: i32) -> bool {
    v.abs() >= MATE_BOUND
}

/// The value of a finished game for `side` (the side to move), `ply` plies from the root.
pub fn terminal_value(outcome: Outcome, side: Player, ply: usize) -> i32 {
    match outcome {
        Outcome::Draw => 0,
        Outcome::Win(winner) if winner == side => MATE - ply as i32,
        Outcome::Win(_) => -(MATE - ply as i32),
    }
}

/// The value of a position from the value of the child a move leads to: the sign flips
/// (the child is valued for the other side) and a win or loss is one ply further away.
#[inline]
pub fn back_up(child: i32) -> i32 {
    let v = -child;
    if v >= MATE_BOUND {
        v - 1
    } else if v <= -MATE_BOUND {
        v + 1
    } else {
        v
    }
}

/// A value as the protocol reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Heuristic value, from the side to move.
    Cp(i32),
    /// Forced win in this many moves of the side to move (counting the last); negative when
    /// it loses, counting the moves it still makes. `Mate(0)` is a finished game.
    Mate(i32),
}

impl Score {
    /// The score of a value on the mate scale.
    pub fn from_value(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            // A loss n plies away: n is even when the opponent makes the last move, odd when
            // the side to move is forced to (misère Nim); both round up to its moves.
            Score::Mate(-((MATE + v + 1) / 2))
        } else {
            Score::Cp(v)
        }
    }

    /// Centi-units for comparing scores (the referee's adjudication): a forced win lies above
    /// every heuristic value and a forced loss below, the nearer the further out.
    pub fn cp_equivalent(self) -> i64 {
        match self {
            Score::Cp(v) => v as i64,
            Score::Mate(n) if n > 0 => i64::MAX / 2 - n as i64,
            Score::Mate(n) => i64::MIN / 2 - n as i64,
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(v) => write!(f, "cp {v}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// Why a score text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreError(pub String);

impl fmt::Display for ScoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ScoreError {}

impl FromStr for Score {
    type Err = ScoreError;

    /// Reads `cp <n>` or `mate <n>` (words separated by white space).
    fn from_str(s: &str) -> Result<Score, ScoreError> {
        let mut words = s.split_whitespace();
        let (Some(kind), Some(number), None) = (words.next(), words.next(), words.next()) else {
            return Err(ScoreError(format!(
                "expected 'cp <n>' or 'mate <n>', got '{s}'"
            )));
        };
        let n: i32 = number
            .parse()
            .map_err(|_| ScoreError(format!("expected an integer, got '{number}'")))?;
        match kind {
            "cp" => Ok(Score::Cp(n)),
            "mate" => Ok(Score::Mate(n)),
            _ => Err(ScoreError(format!("expected cp or mate, got '{kind}'"))),
        }
    }
}

/// How a reported score relates to the true one (UCI's `lowerbound` / `upperbound`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ScoreBound {
    #[default]
    Exact,
    /// The true score is at least the one reported (`lowerbound`).
    Lower,
    /// The true score is at most the one reported (`upperbound`).
    Upper,
}

/// A score with its bound, as an `info` line carries it after `score`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoundedScore {
    pub score: Score,
    pub bound: ScoreBound,
}

impl BoundedScore {
    pub fn exact(score: Score) -> BoundedScore {
        BoundedScore {
            score,
            bound: ScoreBound::Exact,
        }
    }
}

impl fmt::Display for BoundedScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.score)?;
        match self.bound {
            ScoreBound::Exact => Ok(()),
            ScoreBound::Lower => f.write_str(" lowerbound"),
            ScoreBound::Upper => f.write_str(" upperbound"),
        }
    }
}

impl FromStr for BoundedScore {
    type Err = ScoreError;

    /// Reads `cp <n>` or `mate <n>`, optionally followed by `lowerbound` or `upperbound`.
    fn from_str(s: &str) -> Result<BoundedScore, ScoreError> {
        let s = s.trim();
        let (rest, bound) = if let Some(rest) = s.strip_suffix("lowerbound") {
            (rest, ScoreBound::Lower)
        } else if let Some(rest) = s.strip_suffix("upperbound") {
            (rest, ScoreBound::Upper)
        } else {
            (s, ScoreBound::Exact)
        };
        Ok(BoundedScore {
            score: rest.parse()?,
            bound,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_round_trip_through_text() {
        for text in ["cp 0", "cp -35", "mate 1", "mate -4", "mate 0"] {
            assert_eq!(text.parse::<Score>().unwrap().to_string(), text);
        }
        for text in ["mate 3 lowerbound", "mate -2 upperbound", "cp 7"] {
            assert_eq!(text.parse::<BoundedScore>().unwrap().to_string(), text);
        }
        for bad in ["", "cp", "cp x", "mate 1 2", "wdl 1", "cp 1 sideways"] {
            assert!(bad.parse::<BoundedScore>().is_err(), "{bad}");
        }
    }

    #[test]
    fn mate_scale_and_scores_agree() {
        assert_eq!(Score::from_value(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_value(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_value(-(MATE - 2)), Score::Mate(-1));
        assert_eq!(Score::from_value(-(MATE - 1)), Score::Mate(-1));
        assert_eq!(Score::from_value(42), Score::Cp(42));
        assert_eq!(back_up(terminal_value(Outcome::Draw, Player::First, 0)), 0);
        let lost_here = terminal_value(Outcome::Win(Player::Second), Player::First, 0);
        assert_eq!(back_up(lost_here), MATE - 1);
        assert!(is_mate(back_up(lost_here)) && !is_mate(MATE_BOUND - 1));
    }

    #[test]
    fn mates_order_beyond_every_heuristic_value() {
        assert!(Score::Mate(1).cp_equivalent() > Score::Mate(5).cp_equivalent());
        assert!(Score::Mate(5).cp_equivalent() > Score::Cp(1_000_000).cp_equivalent());
        assert!(Score::Mate(-1).cp_equivalent() < Score::Mate(-5).cp_equivalent());
        assert!(Score::Mate(0).cp_equivalent() < Score::Cp(-1_000_000).cp_equivalent());
    }
}
