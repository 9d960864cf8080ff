//! PGN for the page, written and read by the referee's PGN module (`src/referee/pgn.rs`):
//! a game the page played, given as a referee record, becomes PGN; a PGN file the person
//! opens (one game or many) is sent in parts, its games are listed by their tags, and the
//! one chosen is read (its `FEN`, `Variant` and main line in SAN; comments, variations and
//! NAGs skipped) into ply's notation.

use serde::Serialize;
use serde_json::{Value, json};

use super::sentence;
use crate::games::Chess;
use crate::referee::pgn::{self as referee_pgn, PgnGame};
use crate::referee::records::GameRecord;

/// The largest PGN file a page may send (in parts).
pub const MAX_FILE: usize = 8 << 20;
/// The most games listed (a larger file still loads any game by its number).
pub const MAX_LISTED: usize = 2000;

/// `pgn`: a record as PGN, under the `Event` "ply gui" (a game still going on, result `*`,
/// without a `Termination`).
pub fn write(rec: &GameRecord) -> Result<Value, String> {
    if rec.game != "chess" {
        return Err(format!("PGN is for chess games, not {}.", rec.game));
    }
    referee_pgn::game_text_for(rec, None, "ply gui")
        // A game still going on has no termination yet.
        .map(|pgn| match rec.result.as_str() {
            "*" => pgn
                .lines()
                .filter(|l| !l.starts_with("[Termination "))
                .map(|l| format!("{l}\n"))
                .collect(),
            _ => pgn,
        })
        .map(|pgn: String| json!({ "pgn": pgn }))
        .map_err(|e| sentence(&format!("cannot write this game as PGN: {e}")))
}

/// The page's PGN file: its text while parts arrive, then its games.
#[derive(Default)]
pub struct Upload {
    text: String,
    games: Vec<PgnGame>,
}

/// A game in the list the page shows.
#[derive(Serialize)]
struct Listed<'a> {
    n: usize,
    white: &'a str,
    black: &'a str,
    result: &'a str,
    event: &'a str,
    date: &'a str,
    plies: usize,
}

impl Upload {
    /// `pgn_part`: one more part of the file; after the last, its games.
    pub fn part(&mut self, text: &str, first: bool, last: bool) -> Result<Value, String> {
        if first {
            *self = Upload::default();
        }
        if self.text.len() + text.len() > MAX_FILE {
            *self = Upload::default();
            return Err(format!(
                "That file is too large: at most {} MiB of PGN.",
                MAX_FILE >> 20
            ));
        }
        self.text.push_str(text);
        if !last {
            return Ok(json!({ "received": self.text.len() }));
        }
        self.games = referee_pgn::split_games(&std::mem::take(&mut self.text));
        if self.games.is_empty() {
            return Err("No game found: PGN has [Tag \"value\"] lines, then the moves.".into());
        }
        let tag = |g: &'_ PgnGame, t| g.tag(t).unwrap_or("?").to_string();
        let listed: Vec<Value> = self
            .games
            .iter()
            .take(MAX_LISTED)
            .enumerate()
            .map(|(i, g)| {
                let (w, b, r, e, d) = (
                    tag(g, "White"),
                    tag(g, "Black"),
                    tag(g, "Result"),
                    tag(g, "Event"),
                    tag(g, "Date"),
                );
                serde_json::to_value(Listed {
                    n: i + 1,
                    white: &w,
                    black: &b,
                    result: &r,
                    event: &e,
                    date: &d,
                    plies: g.plies(),
                })
                .expect("a listed game serialises")
            })
            .collect();
        Ok(json!({ "count": self.games.len(), "games": listed }))
    }

    /// `pgn_game`: game `n` (from 1) of the file: its start, parameters and moves.
    pub fn game(&self, n: usize) -> Result<Value, String> {
        let Some(g) = n.checked_sub(1).and_then(|i| self.games.get(i)) else {
            return Err(format!(
                "There is no game {n} (the file has {}).",
                self.games.len()
            ));
        };
        let chess960 = g
            .tag("Variant")
            .is_some_and(|v| v.eq_ignore_ascii_case("chess960"));
        let opening = referee_pgn::game_opening(&Chess::default(), g, None)
            .map_err(|e| format!("Game {n} (line {}): {}", g.first_line, sentence(&e)))?;
        let tag = |t| g.tag(t).unwrap_or("?");
        Ok(json!({
            "game": "chess",
            "params": if chess960 { "chess960=true" } else { "" },
            "fen": opening.fen,
            "moves": opening.moves,
            "white": tag("White"),
            "black": tag("Black"),
            "result": tag("Result"),
            "event": tag("Event"),
            "termination": g.tag("Termination"),
        }))
    }
}
