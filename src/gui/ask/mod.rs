//! The page's questions about the rules, answered by the server from the library's rules, so
//! that the page holds none of its own: no move generator, no notation, no win lines, no
//! scoring. A question is the `rules` message of [`super::session`],
//! `{"op":"rules","rid":7,"ask":{"q":"play","at":{..},"mv":"Nf3"}}`, and its answer is
//! `{"ev":"rules","rid":7,..}` with the answer's fields, or `error` (a sentence for a player).
//!
//! Most questions name a position `at` ([`At`]): a game, its parameters, a start (the game's
//! own, or a position in its notation) and the moves played from it, in ply's notation.
//!
//! - `position`: the position described for drawing and playing it ([`position::Described`]);
//! - `play`: whether `mv` (a clicked move, or what a person typed: one move in the game's
//!   notation, or in chess also SAN) may be played next; the move in ply's notation and the
//!   position after it, or why not;
//! - `line`: the names of a line of moves from the position (an engine's principal
//!   variation) and the position after each, for the page to show;
//! - `value`: a move's value from an engine's score of the position it leads to: won or lost
//!   in so many moves, drawn, or unknown, and Pons' score in Connect Four ([`value`]);
//! - `pgn`: a game the page played, as PGN;
//! - `pgn_part` then `pgn_game`: a PGN file sent in parts (a message is at most 64 KiB), the
//!   list of its games, then the moves of the one chosen ([`pgn`]).

mod extras;
pub mod pgn;
pub mod position;
pub mod value;

use serde::Deserialize;
use serde_json::Value;

use crate::game::MoveError;

/// Calls a function generic over the game named by `$name` with that game's type.
macro_rules! for_game {
    ($name:expr, $f:ident :: $g:ident ( $($arg:expr),* )) => {{
        let name = $name.to_ascii_lowercase();
        crate::with_game!(name.as_str(), G => $f::$g::<G>($($arg),*), _ => Err(unknown_game(&name)))
    }};
}

/// A position: `game` with `params` (`key=value` words), from `fen` (or the game's start),
/// after `moves`.
#[derive(Deserialize, Debug, Clone, Default)]
#[serde(deny_unknown_fields)]
pub struct At {
    pub game: String,
    #[serde(default)]
    pub params: String,
    #[serde(default)]
    pub fen: Option<String>,
    #[serde(default)]
    pub moves: Vec<String>,
}

/// One question.
#[derive(Deserialize, Debug)]
#[serde(tag = "q", rename_all = "snake_case", deny_unknown_fields)]
pub enum Ask {
    Position {
        at: At,
    },
    Play {
        at: At,
        mv: String,
    },
    Line {
        at: At,
        line: Vec<String>,
    },
    Value {
        at: At,
        mv: String,
        /// The engine's score of the position after `mv`, as its `info` line gives it:
        /// `mate -3`, `cp 0`, with `lowerbound` / `upperbound`.
        score: String,
        /// Whether the engine proved the score (a mate score, or a solver's line).
        #[serde(default)]
        proven: bool,
        /// `mate 0` with a win for the side to move (`wdl 1000 0 0`: misère Nim).
        #[serde(default)]
        won: bool,
    },
    Pgn {
        game: Box<pgn::PageGame>,
    },
    PgnPart {
        text: String,
        /// The first part of a file: what an earlier file left is dropped.
        #[serde(default)]
        first: bool,
        /// The last part: the file is read and its games are listed.
        #[serde(default)]
        last: bool,
    },
    PgnGame {
        n: usize,
    },
}

/// Answers one question; `pgn` is the page's PGN file, kept between questions.
pub fn answer(ask: Ask, pgn: &mut pgn::Upload) -> Result<Value, String> {
    match ask {
        Ask::Position { at } => for_game!(at.game, position::describe_at(&at)),
        Ask::Play { at, mv } => for_game!(at.game, position::play(&at, &mv)),
        Ask::Line { at, line } => for_game!(at.game, position::line(&at, &line)),
        Ask::Value {
            at,
            mv,
            score,
            proven,
            won,
        } => {
            let seen = value::Seen { proven, won };
            for_game!(at.game, value::of_move(&at, &mv, &score, seen))
        }
        Ask::Pgn { game } => pgn::write(&game),
        Ask::PgnPart { text, first, last } => pgn.part(&text, first, last),
        Ask::PgnGame { n } => pgn.game(n),
    }
}

fn unknown_game(name: &str) -> String {
    format!(
        "There is no game '{name}' (the games: {}).",
        crate::games::NAMES.join(", ")
    )
}

/// A message of the rules as a sentence: capitalised (unless it starts with a name such as
/// `b2` or `e2e4`), with a full stop.
pub fn sentence(text: &str) -> String {
    let mut out: String = text.trim().to_string();
    let word = out.split_whitespace().next().unwrap_or("");
    if let Some(first) = out
        .chars()
        .next()
        .filter(|_| word.chars().all(char::is_alphabetic))
    {
        let upper: String = first.to_uppercase().collect();
        out.replace_range(..first.len_utf8(), &upper);
    }
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}

/// Why a move was refused, in a player's words: the rules' reason without the protocol's
/// framing ("illegal move: ", the move's text repeated before the reason), as a sentence.
pub fn player_words(e: &MoveError, text: &str) -> String {
    let (MoveError::Malformed(s) | MoveError::Illegal(s)) = e;
    sentence(s.strip_prefix(&format!("{text}: ")).unwrap_or(s))
}

#[cfg(test)]
mod tests;
