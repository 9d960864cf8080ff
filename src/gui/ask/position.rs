//! Positions for the page: a game replayed from its start through the moves played
//! ([`Replayed`]), described for drawing and playing it ([`Described`]), the next move checked
//! ([`play`]) and a line of moves named ([`line`]).

use serde::Serialize;
use serde_json::{Value, json};

use super::extras;
use super::{At, player_words, sentence};
use crate::game::{Game, Line, Params, legal_moves_by_name};
use crate::solve::Solvable;

/// At most this many legal moves are listed (Nim's heaps may allow hundreds of thousands);
/// a move beyond them is still played when clicked or typed.
pub const MAX_LEGAL: usize = 1024;

/// A game replayed: its start and the line of positions after the moves, with each move as
/// people write it (SAN in chess) and as the move list shows it (with its number).
pub struct Replayed<G: Game> {
    pub start: G,
    pub line: Line<G>,
    pub names: Vec<String>,
    pub labels: Vec<String>,
}

impl<G: Solvable> Replayed<G> {
    /// The game `at` names, all or nothing; the error says what was refused, for a player.
    pub fn of(at: &At) -> Result<Replayed<G>, String> {
        let params = Params::parse(at.params.split_whitespace()).map_err(|e| sentence(&e.0))?;
        let rules = G::new(&params).map_err(|e| sentence(&e.0))?;
        let start = match at.fen.as_deref().map(str::trim) {
            Some(f) if !f.is_empty() && f != "startpos" => rules
                .from_fen(f)
                .map_err(|e| format!("The position '{f}' was refused: {}", sentence(&e.0)))?,
            _ => rules,
        };
        let mut r = Replayed {
            line: Line::new(start.clone()),
            start,
            names: Vec::new(),
            labels: Vec::new(),
        };
        for (i, text) in at.moves.iter().enumerate() {
            r.push(text)
                .map_err(|why| format!("Move {} ({text}): {why}", i + 1))?;
        }
        Ok(r)
    }

    /// Plays one more move given in ply's notation; the error is a player's sentence.
    pub fn push(&mut self, text: &str) -> Result<(), String> {
        let pos = self.line.pos();
        let mv = pos.parse_move(text).map_err(|e| player_words(&e, text))?;
        let name = extras::name(pos, mv);
        self.labels.push(extras::label(
            pos,
            self.names.is_empty(),
            self.names.len(),
            &name,
        ));
        self.names.push(name);
        self.line.play(mv);
        Ok(())
    }

    /// Why the game is over, or `None` while it goes on.
    pub fn over(&self) -> Option<String> {
        self.line.outcome().map(|o| {
            self.line
                .ending()
                .unwrap_or_else(|| o.protocol_name().to_string())
        })
    }
}

/// A legal move: its text in ply's notation, how people write it when that differs (SAN),
/// and the other squares a click may name for it (castling: the king's destination and the
/// rook's square).
#[derive(Serialize, Debug, PartialEq)]
pub struct Legal {
    pub mv: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<String>,
}

/// A position as the page draws and plays it.
#[derive(Serialize, Debug)]
pub struct Described {
    /// The parameters in canonical form (every key), for records.
    pub params: String,
    pub start_fen: String,
    /// `p1` or `p2`: who moves first from the start (a position may give the move to p2).
    pub start_side: &'static str,
    pub fen: String,
    pub side: &'static str,
    /// `none`, `p1win`, `p2win` or `draw`, counting the game's repetition rule.
    pub result: &'static str,
    /// Why the game ended, in words (`checkmate`, `four in a row`), once it has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The cells of the winning line(s), as `[file, rank]` from the bottom left, from 0.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub win: Vec<[u32; 2]>,
    /// The square of a king in check (chess).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check: Option<String>,
    /// The legal moves (none once the game is over), at most [`MAX_LEGAL`] of them.
    pub legal: Vec<Legal>,
    pub legal_count: usize,
    /// Each move played, as people write it, and as the move list labels it.
    pub names: Vec<String>,
    pub labels: Vec<String>,
}

impl<G: Solvable> Replayed<G> {
    pub fn describe(&self) -> Described {
        let pos = self.line.pos();
        let outcome = self.line.outcome();
        let (named, count) = if outcome.is_some() {
            (Vec::new(), 0)
        } else {
            listed_moves(pos)
        };
        let legal = named
            .iter()
            .take(MAX_LEGAL)
            .map(|(text, mv)| extras::legal(pos, text, *mv, &named))
            .collect();
        Described {
            params: self.start.params().to_string(),
            start_fen: self.start.fen(),
            start_side: self.start.side_to_move().protocol_name(),
            fen: pos.fen(),
            side: pos.side_to_move().protocol_name(),
            result: outcome.map_or("none", |o| o.protocol_name()),
            reason: self.line.ending(),
            win: outcome.map_or_else(Vec::new, |o| extras::win_cells(pos, o)),
            check: extras::check(pos),
            legal,
            legal_count: count,
            names: self.names.clone(),
            labels: self.labels.clone(),
        }
    }
}

/// The legal moves the page lists, in `query legalmoves`' order (shorter first, then
/// alphabetical). A position with very many (Nim's heaps allow 800,000) lists the first
/// [`MAX_LEGAL`] its rules generate, in that order, rather than name and sort them all. Also
/// how many there are.
fn listed_moves<G: Game>(pos: &G) -> (Vec<(String, G::Move)>, usize) {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let count = moves.len();
    if count <= 8 * MAX_LEGAL {
        return (legal_moves_by_name(pos), count);
    }
    let mut named: Vec<(String, G::Move)> = moves
        .into_iter()
        .take(MAX_LEGAL)
        .map(|m| (pos.format_move(m), m))
        .collect();
    named.sort_by(|a, b| (a.0.len(), &a.0).cmp(&(b.0.len(), &b.0)));
    (named, count)
}

fn to_value(d: &impl Serialize) -> Value {
    serde_json::to_value(d).expect("descriptions serialise")
}

/// `position`: the position `at` names.
pub fn describe_at<G: Solvable>(at: &At) -> Result<Value, String> {
    Ok(to_value(&Replayed::<G>::of(at)?.describe()))
}

/// `play`: the next move, from a click or from what a person typed. One move only; a game
/// that is over says so before anything is read.
pub fn play<G: Solvable>(at: &At, typed: &str) -> Result<Value, String> {
    let mut r = Replayed::<G>::of(at)?;
    if let Some(why) = r.over() {
        return Err(format!("The game is over ({why})."));
    }
    let text = typed.trim();
    match text.split_whitespace().count() {
        0 => return Err("Type a move.".into()),
        1 => {}
        n => {
            return Err(format!(
                "One move at a time: '{text}' is {n} moves (or words)."
            ));
        }
    }
    let mv = extras::read_move(r.line.pos(), text)?;
    let text = r.line.pos().format_move(mv);
    r.push(&text)?;
    Ok(json!({ "mv": text, "position": to_value(&r.describe()) }))
}

/// `line`: the names of a line of moves from the position and the position after each; the
/// line stops at its first move that is not legal (an engine's stale line).
pub fn line<G: Solvable>(at: &At, moves: &[String]) -> Result<Value, String> {
    let mut r = Replayed::<G>::of(at)?;
    let first = r.names.len();
    let mut fens = Vec::new();
    for text in moves.iter().take(64) {
        if r.push(text).is_err() {
            break;
        }
        fens.push(r.line.pos().fen());
    }
    Ok(json!({ "names": &r.names[first..], "fens": fens }))
}
