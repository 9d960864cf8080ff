//! PGN (Portable Game Notation) for chess matches: `--pgn FILE` appends every finished game
//! as it ends, and `--openings FILE.pgn` reads openings from a PGN file.
//!
//! A written game has the seven-tag roster (Event, Site, Date, Round, White, Black, Result),
//! then `FEN` and `SetUp "1"` when it does not start from the standard position, `Variant
//! "Chess960"` for Fischer random chess, `TimeControl` (the clock both players had, in the
//! referee's form: `[moves/]seconds[+increment]`, which is PGN's for a single period),
//! `Termination` (PGN's words: `normal`, `adjudication`, `time forfeit`, `rules infraction`,
//! `abandoned`) and `PlyCount`. The movetext is in SAN (see [`crate::games::chess::san`]):
//! the opening's moves with the comment `{book}` on the first, each engine move with
//! `{<score>/<depth> <seconds>s}` as cutechess writes it (the score from the mover's side in
//! pawns, `+M3` / `-M2` for mates), and the referee's reason before the result. Lines are
//! wrapped at 80 columns, never inside a comment.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;

use cozy_chess::Color;

use super::openings::Opening;
use super::records::{GameRecord, MoveRecord, Termination};
use crate::game::{Game, Params};
use crate::games::Chess;
use crate::games::chess::san::{format_san, parse_san};

/// Whether `--pgn` and PGN or EPD openings work for a game: their notations are chess's.
pub fn supports(game: &str) -> bool {
    game == Chess::NAME
}

/// The PGN file, open for appending.
pub struct PgnWriter {
    file: File,
}

impl PgnWriter {
    pub fn open(path: &Path) -> std::io::Result<PgnWriter> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(PgnWriter { file })
    }

    /// Appends one game (and the blank line after it) with a single write, then syncs it.
    pub fn append(&mut self, rec: &GameRecord, tc: Option<&str>) -> std::io::Result<()> {
        let text = game_text(rec, tc).map_err(std::io::Error::other)?;
        self.file.write_all(text.as_bytes())?;
        self.file.flush()?;
        self.file.sync_data()
    }
}

/// One game as PGN, ending with a blank line; `tc` is the players' clock when they had the
/// same one. An error when the record's moves do not replay (a record of another game).
pub fn game_text(rec: &GameRecord, tc: Option<&str>) -> Result<String, String> {
    let (base, book) = replay_opening(rec)?;
    // The referee's first player is chess's White (`Player::First`), and its results are
    // White's, as in PGN.
    let white = &rec.players[rec.p1_player as usize];
    let black = &rec.players[1 - rec.p1_player as usize];
    let result = rec.result.as_str();
    let mut tags = vec![
        ("Event", "ply-referee match".to_string()),
        ("Site", "?".to_string()),
        ("Date", pgn_date(rec.started_ms)),
        ("Round", (rec.index + 1).to_string()),
        ("White", white.clone()),
        ("Black", black.clone()),
        ("Result", result.to_string()),
    ];
    let standard = Chess::default().fen();
    if base.fen() != standard {
        tags.push(("FEN", base.fen()));
        tags.push(("SetUp", "1".to_string()));
    }
    if base.chess960() {
        tags.push(("Variant", "Chess960".to_string()));
    }
    if let Some(tc) = tc {
        tags.push(("TimeControl", tc.to_string()));
    }
    tags.push(("Termination", termination(rec.termination).to_string()));
    tags.push(("PlyCount", (book.len() + rec.moves.len()).to_string()));
    let mut out = String::new();
    for (name, value) in tags {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(&value)));
    }
    out.push('\n');
    let tokens = movetext(&base, &book, &rec.moves, &rec.reason, result)?;
    out.push_str(&wrap(&tokens, 80));
    out.push_str("\n\n");
    Ok(out)
}

/// The game's start (the opening's FEN, or the start of its rules) and the opening's moves,
/// checked by the rules.
fn replay_opening(rec: &GameRecord) -> Result<(Chess, Vec<String>), String> {
    let params = Params::parse(rec.params.split_whitespace()).map_err(|e| e.to_string())?;
    let start = Chess::new(&params).map_err(|e| e.to_string())?;
    let base = match &rec.opening.fen {
        Some(fen) => start
            .from_fen(fen)
            .map_err(|e| format!("fen '{fen}': {e}"))?,
        None => start,
    };
    Opening {
        fen: None,
        moves: rec.opening.moves.clone(),
    }
    .resolve(&base)?;
    Ok((base, rec.opening.moves.clone()))
}

/// PGN's `Termination` word for the referee's reason.
fn termination(t: Termination) -> &'static str {
    match t {
        Termination::Rules | Termination::Resign => "normal",
        Termination::Adjudication => "adjudication",
        Termination::Time => "time forfeit",
        Termination::Illegal | Termination::Malformed => "rules infraction",
        Termination::Crash | Termination::Stall | Termination::NoBestmove => "abandoned",
    }
}

/// The movetext's tokens: move numbers, SAN moves, comments, then the reason and result.
fn movetext(
    base: &Chess,
    book: &[String],
    moves: &[MoveRecord],
    reason: &str,
    result: &str,
) -> Result<Vec<String>, String> {
    let mut pos = base.clone();
    let mut tokens = Vec::new();
    let mut number = u32::from(base.board().fullmove_number());
    let played = (book.iter().map(|m| (m.as_str(), None)))
        .chain(moves.iter().map(|m| (m.mv.as_str(), Some(m))));
    for (i, (text, record)) in played.enumerate() {
        let mv = pos
            .parse_move(text)
            .map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
        let white = pos.board().side_to_move() == Color::White;
        if white {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(format_san(&pos, mv));
        match record {
            Some(r) => tokens.push(format!("{{{}}}", engine_comment(r))),
            None if i == 0 => tokens.push("{book}".to_string()),
            None => {}
        }
        pos.play(mv);
        if !white {
            number += 1;
        }
    }
    if !reason.is_empty() {
        tokens.push(format!("{{{}}}", reason.replace('}', ")")));
    }
    tokens.push(result.to_string());
    Ok(tokens)
}

/// cutechess's move comment: `+0.35/8 1.23s`, `-M2/12 0.40s`, or only the time.
fn engine_comment(m: &MoveRecord) -> String {
    let time = format!("{:.2}s", m.ms / 1000.0);
    let score = m.score.as_deref().and_then(|s| {
        let (kind, n) = s.split_once(' ')?;
        let n: i64 = n.parse().ok()?;
        Some(match kind {
            "cp" => format!(
                "{}{:.2}",
                if n >= 0 { "+" } else { "-" },
                n.abs() as f64 / 100.0
            ),
            "mate" if n > 0 => format!("+M{n}"),
            "mate" => format!("-M{}", n.abs()),
            _ => return None,
        })
    });
    match (score, m.depth) {
        (Some(s), Some(d)) => format!("{s}/{d} {time}"),
        (Some(s), None) => format!("{s} {time}"),
        _ => time,
    }
}

/// Tokens joined by spaces into lines of at most `width` columns (a longer token stands
/// alone).
fn wrap(tokens: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for t in tokens {
        let len = t.chars().count();
        if line_len > 0 && line_len + 1 + len > width {
            out.push('\n');
            line_len = 0;
        }
        if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(t);
        line_len += len;
    }
    out
}

/// A tag value with PGN's escapes (`\` and `"`).
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// `YYYY.MM.DD` (UTC) of a Unix time in milliseconds.
fn pgn_date(unix_ms: u64) -> String {
    let (y, m, d) = civil_from_days((unix_ms / 86_400_000) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's
/// `civil_from_days`, public domain).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// The openings of a PGN file: each game's start (its `FEN` tag, if any) and its main line
/// in SAN, turned into ply's notation, at most `max_plies` of it. Comments (`{..}`, `;` to
/// the end of a line), variations (`(..)`), NAGs (`$1`), move numbers and results are
/// skipped. An error names the game (by its first line) and what is wrong.
pub fn read_openings(text: &str, max_plies: Option<usize>) -> Result<Vec<Opening>, String> {
    let start = Chess::default();
    let mut openings = Vec::new();
    for game in split_games(text) {
        let opening = game_opening(&start, &game, max_plies)
            .map_err(|e| format!("game at line {}: {e}", game.first_line))?;
        openings.push(opening);
    }
    Ok(openings)
}

/// One game of a PGN file: its tags and its movetext, and the line it starts on (from 1).
struct PgnGame {
    first_line: usize,
    tags: Vec<(String, String)>,
    movetext: String,
}

/// Splits a PGN file into games: a tag line after movetext starts a new game.
fn split_games(text: &str) -> Vec<PgnGame> {
    let mut games: Vec<PgnGame> = Vec::new();
    let mut in_movetext = false;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.starts_with('[') && !games.last().is_some_and(|g| g.movetext_open_brace()) {
            if in_movetext || games.is_empty() {
                games.push(PgnGame {
                    first_line: i + 1,
                    tags: Vec::new(),
                    movetext: String::new(),
                });
                in_movetext = false;
            }
            if let Some(tag) = parse_tag(t) {
                games.last_mut().expect("pushed").tags.push(tag);
            }
        } else if !t.is_empty() {
            if games.is_empty() || games.last().is_some_and(PgnGame::ended) {
                games.push(PgnGame {
                    first_line: i + 1,
                    tags: Vec::new(),
                    movetext: String::new(),
                });
            }
            in_movetext = true;
            let g = games.last_mut().expect("pushed");
            // `;` comments run to the end of the line (outside a brace comment).
            let kept = if g.movetext_open_brace() {
                line
            } else {
                line.split(';').next().unwrap_or("")
            };
            g.movetext.push_str(kept);
            g.movetext.push('\n');
        }
    }
    games
}

impl PgnGame {
    /// Whether the movetext ends with a result, so that more movetext is another game.
    fn ended(&self) -> bool {
        !self.movetext_open_brace()
            && self
                .movetext
                .split_whitespace()
                .last()
                .is_some_and(|w| matches!(w, "*" | "1-0" | "0-1" | "1/2-1/2"))
    }

    /// Whether the movetext so far ends inside a `{` comment (which may hold `[`).
    fn movetext_open_brace(&self) -> bool {
        self.movetext.matches('{').count() > self.movetext.matches('}').count()
    }

    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// `[Name "value"]`, with PGN's escapes.
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, value) = inner.split_once(char::is_whitespace)?;
    let value = value.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((
        name.to_string(),
        value.replace("\\\"", "\"").replace("\\\\", "\\"),
    ))
}

/// A game's start and main line, in ply's notation.
fn game_opening(
    start: &Chess,
    game: &PgnGame,
    max_plies: Option<usize>,
) -> Result<Opening, String> {
    let fen = game.tag("FEN").map(str::to_string);
    let chess960 = game
        .tag("Variant")
        .is_some_and(|v| v.eq_ignore_ascii_case("chess960"));
    let rules = if chess960 {
        let params = Params::parse(["chess960=true"]).map_err(|e| e.to_string())?;
        Chess::new(&params).map_err(|e| e.to_string())?
    } else {
        start.clone()
    };
    let mut pos = match &fen {
        Some(f) => rules.from_fen(f).map_err(|e| format!("FEN '{f}': {e}"))?,
        None => rules,
    };
    let mut moves = Vec::new();
    for san in main_line_sans(&game.movetext) {
        if max_plies.is_some_and(|n| moves.len() >= n) || pos.outcome().is_some() {
            break;
        }
        let mv = parse_san(&pos, &san).map_err(|e| format!("move '{san}': {e}"))?;
        moves.push(pos.format_move(mv));
        pos.play(mv);
    }
    Ok(Opening { fen, moves })
}

/// The SAN moves of a movetext's main line, without comments, variations, NAGs, move
/// numbers and the result.
fn main_line_sans(movetext: &str) -> Vec<String> {
    let mut depth_brace = 0usize;
    let mut depth_paren = 0usize;
    let mut cleaned = String::new();
    for c in movetext.chars() {
        match c {
            '{' => depth_brace += 1,
            '}' => depth_brace = depth_brace.saturating_sub(1),
            '(' if depth_brace == 0 => depth_paren += 1,
            ')' if depth_brace == 0 => depth_paren = depth_paren.saturating_sub(1),
            _ if depth_brace == 0 && depth_paren == 0 => cleaned.push(c),
            _ => {}
        }
        if matches!(c, '{' | '}' | '(' | ')') {
            cleaned.push(' ');
        }
    }
    cleaned
        .split_whitespace()
        .filter(|w| !matches!(*w, "*" | "1-0" | "0-1" | "1/2-1/2"))
        // `12.e4` and `12...e5` carry their move after the dots; `12.` is only a number.
        .map(|w| w.rfind('.').map_or(w, |i| &w[i + 1..]))
        .filter(|w| !w.is_empty() && !w.starts_with('$'))
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::records::Termination;

    fn record(
        opening: Opening,
        moves: &[(&str, Option<&str>)],
        result: &str,
        reason: &str,
    ) -> GameRecord {
        GameRecord {
            match_id: "m".into(),
            index: 4,
            round: 1,
            pair: 2,
            game: "chess".into(),
            params: "chess960=false start=518".into(),
            players: ["ply".into(), "sf".into()],
            p1_player: 1,
            opening,
            moves: moves
                .iter()
                .map(|&(mv, score)| MoveRecord {
                    mv: mv.into(),
                    ms: 1234.5,
                    depth: score.map(|_| 9),
                    score: score.map(str::to_string),
                    ..MoveRecord::default()
                })
                .collect(),
            result: result.into(),
            termination: Termination::Rules,
            reason: reason.into(),
            culprit: None,
            final_fen: String::new(),
            started_ms: 1_764_000_000_000,
            duration_ms: 0.0,
            referee_ms: 0.0,
            engine_errors: vec![],
            planned: None,
        }
    }

    #[test]
    fn a_game_with_tags_book_moves_comments_and_result() {
        // Fool's mate after a book move: sf (player B, the first player) is White and loses.
        let rec = record(
            Opening {
                fen: None,
                moves: vec!["f2f3".into()],
            },
            &[
                ("e7e5", Some("cp -35")),
                ("g2g4", Some("cp -900")),
                ("d8h4", Some("mate 1")),
            ],
            "0-1",
            "ply wins",
        );
        let text = game_text(&rec, Some("10+0.1")).unwrap();
        let want = "[Event \"ply-referee match\"]\n[Site \"?\"]\n[Date \"2025.11.24\"]\n\
            [Round \"5\"]\n[White \"sf\"]\n[Black \"ply\"]\n[Result \"0-1\"]\n\
            [TimeControl \"10+0.1\"]\n[Termination \"normal\"]\n[PlyCount \"4\"]\n\n\
            1. f3 {book} e5 {-0.35/9 1.23s} 2. g4 {-9.00/9 1.23s} Qh4# {+M1/9 1.23s}\n\
            {ply wins} 0-1\n\n";
        assert_eq!(text, want);
    }

    #[test]
    fn a_game_from_a_fen_with_black_to_move() {
        let rec = record(
            Opening {
                fen: Some("4k3/8/8/8/8/8/4P3/4K3 b - - 3 40".into()),
                moves: vec![],
            },
            &[("e8d7", None), ("e2e4", Some("cp 120"))],
            "1/2-1/2",
            "draw by adjudication",
        );
        let text = game_text(&rec, None).unwrap();
        assert!(text.contains("[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 3 40\"]\n[SetUp \"1\"]"));
        // The first player is White even when Black moves first.
        assert!(text.contains("[White \"sf\"]\n[Black \"ply\"]"));
        assert!(text.contains(
            "\n40... Kd7 {1.23s} 41. e4 {+1.20/9 1.23s} {draw by adjudication} 1/2-1/2\n"
        ));
        assert!(!text.contains("TimeControl"));
    }

    #[test]
    fn lines_wrap_at_80_columns() {
        let tokens: Vec<String> = (0..60).map(|i| format!("w{i}")).collect();
        let text = wrap(&tokens, 80);
        assert!(text.lines().all(|l| l.chars().count() <= 80));
        assert_eq!(text.split_whitespace().count(), 60);
    }

    #[test]
    fn dates_are_utc_days() {
        assert_eq!(pgn_date(0), "1970.01.01");
        assert_eq!(pgn_date(951_782_400_000), "2000.02.29");
        assert_eq!(pgn_date(1_764_000_000_000), "2025.11.24");
    }

    #[test]
    fn openings_from_pgn_skip_comments_variations_and_numbers() {
        let text = "[Event \"x\"]\n[Site \"?\"]\n\n1. e4 {best by test} e5 (1... c5 2. Nf3) 2.Nf3 $1\n\
            2... Nc6 ; a comment\n3. Bb5 a6 1-0\n\n\
            [FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. e4 Kd7 *\n\n\
            1. d4 d5 2. c4 *\n";
        let o = read_openings(text, None).unwrap();
        assert_eq!(o.len(), 3);
        assert_eq!(o[0].moves, ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]);
        assert_eq!(o[1].fen.as_deref(), Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"));
        assert_eq!(o[1].moves, ["e2e4", "e8d7"]);
        assert_eq!(o[2].moves, ["d2d4", "d7d5", "c2c4"]);
        let short = read_openings(text, Some(2)).unwrap();
        assert_eq!(short[0].moves, ["e2e4", "e7e5"]);
        let e = read_openings(
            "[Event \"a\"]\n\n1. e4 e5\n\n[Event \"b\"]\n\n1. e4 e5 2. Kf3\n",
            None,
        )
        .unwrap_err();
        assert!(e.contains("game at line 5") && e.contains("Kf3"), "{e}");
    }
}
