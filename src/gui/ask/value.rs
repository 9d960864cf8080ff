//! A move's value for the page's move badges, from an engine's score of the position the move
//! leads to (the page searches each such position with `go nodes N`): won or lost in so many
//! of the mover's moves (this one included), drawn, or not known yet; in Connect Four also
//! Pascal Pons' score (see `src/solve/connect4/mod.rs`).
//!
//! The engine scores the child position from its side to move, the opponent: `mate -k`
//! there is the mover's win and `mate k` its loss. Which of them makes the last move decides
//! how moves are counted: the winner in most games, the loser in misère Nim.

use serde_json::{Value, json};

use super::position::Replayed;
use super::{At, player_words, sentence};
use crate::solve::Solvable;
use crate::value::{BoundedScore, MATE, MAX_PLY, Score, ScoreBound};

/// What the page saw besides the score.
#[derive(Clone, Copy, Debug)]
pub struct Seen {
    /// The engine proved the score (a mate score, or a solver's exact line).
    pub proven: bool,
    /// The score is `mate 0` and the side to move there has won (`wdl 1000 0 0`).
    pub won: bool,
}

/// The mover's value of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Won or lost with this many of the mover's moves, this one included.
    Win(u32),
    Loss(u32),
    Draw,
    /// Not proven: the engine's heuristic score from the mover's side.
    Unknown(i32),
}

/// The mover's verdict from the child's score.
/// A page's score may name any distance: no game here ends further away than the
/// searcher's deepest ply ([`MAX_PLY`]), so a larger one is taken as that.
pub fn verdict(score: Score, seen: Seen, last_mover_loses: bool) -> Verdict {
    let ml = u32::from(last_mover_loses);
    let moves = |s: i32| s.unsigned_abs().min(MAX_PLY as u32);
    match score {
        Score::Mate(0) if seen.won => Verdict::Loss(1),
        Score::Mate(s) if s <= 0 => Verdict::Win(moves(s) + 1 - ml),
        Score::Mate(s) => Verdict::Loss(moves(s) + ml),
        Score::Cp(0) if seen.proven => Verdict::Draw,
        Score::Cp(cp) => Verdict::Unknown(-cp),
    }
}

/// The mover's value on ply's scale (plies to the end, see `src/value.rs`), for Pons' score.
fn mover_value(v: Verdict, last_mover_loses: bool) -> Option<i32> {
    let ml = i32::from(last_mover_loses);
    match v {
        Verdict::Win(n) => Some(MATE - (2 * n as i32 - 1 + ml)),
        Verdict::Loss(n) => Some(-(MATE - (2 * n as i32 - ml))),
        Verdict::Draw => Some(0),
        Verdict::Unknown(_) => None,
    }
}

/// `value`: the value of `mv` in the position `at`, from the score of the position after it.
pub fn of_move<G: Solvable>(at: &At, mv: &str, score: &str, seen: Seen) -> Result<Value, String> {
    let r = Replayed::<G>::of(at)?;
    let pos = r.line.pos();
    pos.parse_move(mv).map_err(|e| player_words(&e, mv))?;
    let bounded: BoundedScore = score
        .parse()
        .map_err(|e: crate::value::ScoreError| sentence(&e.0))?;
    let last_loses = super::extras::last_mover_loses(pos);
    let v = verdict(bounded.score, seen, last_loses);
    let pons = mover_value(v, last_loses).and_then(|value| G::pons_score(pos, value));
    let (kind, n) = match v {
        Verdict::Win(n) => ("win", n as i64),
        Verdict::Loss(n) => ("loss", n as i64),
        Verdict::Draw => ("draw", 0),
        Verdict::Unknown(cp) => ("unknown", cp as i64),
    };
    let mut out = json!({ "verdict": kind, "n": n });
    if bounded.bound != ScoreBound::Exact && kind != "unknown" {
        out["at_most"] = json!(true);
    }
    if let Some(p) = pons {
        out["pons"] = json!(p);
    }
    Ok(out)
}
