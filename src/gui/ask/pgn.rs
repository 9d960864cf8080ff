//! PGN for the page, in chess's PGN module (`src/games/chess/pgn.rs`): a game the page
//! played becomes PGN; a PGN file the person opens (one game or many) is sent in parts, its
//! games are listed by their tags, and the one chosen is read (its `FEN`, `Variant` and main
//! line in SAN; comments, variations and NAGs skipped) into ply's notation.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::sentence;
use crate::game::{Game, Params};
use crate::games::Chess;
use crate::games::chess::pgn::{self, Heading, Note, PgnGame, Played};

/// The largest PGN file a page may send (in parts).
pub const MAX_FILE: usize = 8 << 20;
/// The most games listed (a larger file still loads any game by its number).
pub const MAX_LISTED: usize = 2000;

/// A game as the page describes it for PGN.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct PageGame {
    #[serde(default)]
    pub params: String,
    #[serde(default)]
    pub fen: Option<String>,
    pub moves: Vec<PageMove>,
    pub white: String,
    pub black: String,
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` while the game goes on.
    pub result: String,
    /// How it ended, by the referee's names (`rules`, `time`, `adjudication`, ...).
    #[serde(default)]
    pub termination: Option<String>,
    #[serde(default)]
    pub reason: String,
    /// The clock both players had, as PGN writes it (`300+3`), when they had the same one.
    #[serde(default)]
    pub time_control: Option<String>,
    pub started_ms: u64,
}

/// A move of the page's game and what is known of it.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct PageMove {
    pub mv: String,
    #[serde(default)]
    pub ms: f64,
    #[serde(default)]
    pub depth: Option<u32>,
    #[serde(default)]
    pub score: Option<String>,
    #[serde(default)]
    pub clock_ms: Option<i64>,
}

/// `pgn`: the page's game as PGN, under the `Event` "ply gui" (a game still going on,
/// result `*`, without a `Termination`).
pub fn write(g: &PageGame) -> Result<Value, String> {
    let params = Params::parse(g.params.split_whitespace()).map_err(|e| sentence(&e.0))?;
    let rules = Chess::new(&params).map_err(|e| sentence(&e.0))?;
    let base = match g.fen.as_deref().map(str::trim) {
        Some(f) if !f.is_empty() => rules.from_fen(f).map_err(|e| sentence(&e.0))?,
        _ => rules,
    };
    let heading = Heading {
        event: "ply gui",
        site: "ply gui",
        started_ms: g.started_ms,
        round: "-",
        white: &g.white,
        black: &g.black,
        result: &g.result,
        time_control: g.time_control.as_deref(),
        termination: g
            .termination
            .as_deref()
            .filter(|_| g.result != "*")
            .map(pgn::termination_word),
    };
    let played: Vec<Played> = g
        .moves
        .iter()
        .map(|m| Played {
            text: &m.mv,
            comment: pgn::note(&Note {
                ms: m.ms,
                depth: m.depth,
                score: m.score.as_deref(),
                clock_ms: m.clock_ms,
            }),
        })
        .collect();
    pgn::write(&heading, &base, &played, &g.reason)
        .map(|text| json!({ "pgn": text }))
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
        self.games = pgn::split_games(&std::mem::take(&mut self.text));
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
        let line = pgn::main_line(g, None)
            .map_err(|e| format!("Game {n} (line {}): {}", g.first_line, sentence(&e)))?;
        let tag = |t| g.tag(t).unwrap_or("?");
        Ok(json!({
            "game": "chess",
            "params": if line.chess960 { "chess960=true" } else { "" },
            "fen": line.fen,
            "moves": line.moves,
            "white": tag("White"),
            "black": tag("Black"),
            "result": tag("Result"),
            "event": tag("Event"),
            "termination": g.tag("Termination"),
        }))
    }
}
