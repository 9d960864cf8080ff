//! PGN (Portable Game Notation), chess's notation of whole games: a game written (the tags,
//! then the movetext in SAN with comments) and a file of games read (each game's tags and the
//! moves of its main line). The referee writes its matches with it (`src/referee/pgn.rs`) and
//! reads openings; `ply gui` writes the page's games and reads the files a person opens.
//!
//! A written game has the seven-tag roster (Event, Site, Date, Round, White, Black, Result),
//! then `FEN` and `SetUp "1"` when it does not start from the standard position, `Variant
//! "Chess960"` for Fischer random chess, `TimeControl` when given, `Termination` (PGN's words:
//! `normal`, `adjudication`, `time forfeit`, `rules infraction`, `abandoned`) when given, and
//! `PlyCount`. The movetext is in SAN (see [`super::san`]): move numbers, each move with its
//! comment, a closing comment (why the game ended), the result. Lines are wrapped at 80
//! columns, never inside a comment. A move's comment is what [`note`] writes: cutechess's
//! `{+0.35/8 1.23s}` and, when the mover had a clock, its time left after the move as
//! lichess writes it, `[%clk 0:04:58.2]`.
//!
//! Reading skips comments (`{..}`, `;` to the end of a line), variations (`(..)`), NAGs
//! (`$1`), move numbers and results, and reads the main line's SAN moves against the rules.

use cozy_chess::Color;

use super::Chess;
use super::san::{format_san, parse_san};
use crate::game::{Game, Params};

/// The tags of a game, as given by its writer.
pub struct Heading<'a> {
    pub event: &'a str,
    pub site: &'a str,
    /// When the game started: Unix time in milliseconds (written as a UTC date).
    pub started_ms: u64,
    pub round: &'a str,
    pub white: &'a str,
    pub black: &'a str,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: &'a str,
    pub time_control: Option<&'a str>,
    /// PGN's word for how the game ended ([`termination_word`]), none while it goes on.
    pub termination: Option<&'static str>,
}

/// A move of the game: its text in ply's notation and its comment (empty for none).
pub struct Played<'a> {
    pub text: &'a str,
    pub comment: String,
}

/// The game as PGN, ending with a blank line: `base` is its start, `reason` a last comment.
/// An error names the first move that does not replay.
pub fn write(h: &Heading, base: &Chess, moves: &[Played], reason: &str) -> Result<String, String> {
    let mut tags = vec![
        ("Event", h.event.to_string()),
        ("Site", h.site.to_string()),
        ("Date", date(h.started_ms)),
        ("Round", h.round.to_string()),
        ("White", h.white.to_string()),
        ("Black", h.black.to_string()),
        ("Result", h.result.to_string()),
    ];
    if base.fen() != Chess::default().fen() {
        tags.push(("FEN", base.fen()));
        tags.push(("SetUp", "1".to_string()));
    }
    if base.chess960() {
        tags.push(("Variant", "Chess960".to_string()));
    }
    if let Some(tc) = h.time_control {
        tags.push(("TimeControl", tc.to_string()));
    }
    if let Some(t) = h.termination {
        tags.push(("Termination", t.to_string()));
    }
    tags.push(("PlyCount", moves.len().to_string()));
    let mut out = String::new();
    for (name, value) in tags {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(&value)));
    }
    out.push('\n');
    out.push_str(&wrap(&movetext(base, moves, reason, h.result)?, 80));
    out.push_str("\n\n");
    Ok(out)
}

/// PGN's `Termination` word for a way a game ends, by the referee's names of them (`rules`,
/// `resign`, `adjudication`, `time`, `illegal`, `malformed`, `crash`, `stall`, `nobestmove`).
pub fn termination_word(name: &str) -> &'static str {
    match name {
        "adjudication" => "adjudication",
        "time" => "time forfeit",
        "illegal" | "malformed" => "rules infraction",
        "crash" | "stall" | "nobestmove" => "abandoned",
        _ => "normal",
    }
}

/// The movetext's tokens: move numbers, SAN moves, comments, then the reason and result.
fn movetext(
    base: &Chess,
    moves: &[Played],
    reason: &str,
    result: &str,
) -> Result<Vec<String>, String> {
    let mut pos = base.clone();
    let mut tokens = Vec::new();
    let mut number = u32::from(base.board().fullmove_number());
    for (i, m) in moves.iter().enumerate() {
        let mv = pos
            .parse_move(m.text)
            .map_err(|e| format!("move {} '{}': {e}", i + 1, m.text))?;
        let white = pos.board().side_to_move() == Color::White;
        if white {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(format_san(&pos, mv));
        if !m.comment.is_empty() {
            tokens.push(format!("{{{}}}", m.comment.replace('}', ")")));
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

/// What is known of a move: the mover's thinking time, and an engine's depth and score.
#[derive(Clone, Copy, Debug, Default)]
pub struct Note<'a> {
    pub ms: f64,
    pub depth: Option<u32>,
    /// `cp N` or `mate N`, from the mover's side.
    pub score: Option<&'a str>,
    /// The mover's clock after the move, in milliseconds.
    pub clock_ms: Option<i64>,
}

/// A move's comment: cutechess's `+0.35/8 1.23s`, `-M2/12 0.40s`, or only the time; then the
/// mover's clock after the move, `[%clk 0:04:58.2]`. Empty for a move with nothing to say (no
/// time, score or clock: a move given rather than seen played).
pub fn note(n: &Note) -> String {
    if n.ms == 0.0 && n.score.is_none() && n.depth.is_none() && n.clock_ms.is_none() {
        return String::new();
    }
    let time = format!("{:.2}s", n.ms / 1000.0);
    let score = n.score.and_then(|s| {
        let (kind, v) = s.split_once(' ')?;
        let v: i64 = v.parse().ok()?;
        Some(match kind {
            "cp" => format!(
                "{}{:.2}",
                if v >= 0 { "+" } else { "-" },
                v.abs() as f64 / 100.0
            ),
            "mate" if v > 0 => format!("+M{v}"),
            "mate" => format!("-M{}", v.abs()),
            _ => return None,
        })
    });
    let timed = match (score, n.depth) {
        (Some(s), Some(d)) => format!("{s}/{d} {time}"),
        (Some(s), None) => format!("{s} {time}"),
        _ => time,
    };
    match n.clock_ms {
        Some(ms) => format!("{timed} [%clk {}]", clock(ms)),
        None => timed,
    }
}

/// `h:mm:ss.t` of a clock in milliseconds (a clock below zero reads as 0).
fn clock(ms: i64) -> String {
    let tenths = ms.max(0) / 100;
    let (h, m, s, t) = (
        tenths / 36_000,
        tenths / 600 % 60,
        tenths / 10 % 60,
        tenths % 10,
    );
    format!("{h}:{m:02}:{s:02}.{t}")
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
pub fn date(unix_ms: u64) -> String {
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

/// One game of a PGN file: its tags and its movetext, and the line it starts on (from 1).
pub struct PgnGame {
    pub first_line: usize,
    tags: Vec<(String, String)>,
    movetext: String,
}

/// Splits a PGN file into games: a tag line after movetext starts a new game.
pub fn split_games(text: &str) -> Vec<PgnGame> {
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

    /// The number of moves (plies) of the game's main line, without reading them.
    pub fn plies(&self) -> usize {
        main_line_sans(&self.movetext).len()
    }

    /// The value of the tag `name`, if the game has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
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

/// A game's main line: its start (the `FEN` tag, if any) and its moves in ply's notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MainLine {
    pub fen: Option<String>,
    /// Whether the game is Chess960 (its `Variant` tag).
    pub chess960: bool,
    pub moves: Vec<String>,
}

/// A game's start and main line, in ply's notation, read up to `max_plies` moves (and never
/// past the end of the game).
pub fn main_line(game: &PgnGame, max_plies: Option<usize>) -> Result<MainLine, String> {
    let fen = game.tag("FEN").map(str::to_string);
    let chess960 = game
        .tag("Variant")
        .is_some_and(|v| v.eq_ignore_ascii_case("chess960"));
    let rules = if chess960 {
        let params = Params::parse(["chess960=true"]).map_err(|e| e.to_string())?;
        Chess::new(&params).map_err(|e| e.to_string())?
    } else {
        Chess::default()
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
    Ok(MainLine {
        fen,
        chess960,
        moves,
    })
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

    #[test]
    fn lines_wrap_at_80_columns() {
        let tokens: Vec<String> = (0..60).map(|i| format!("w{i}")).collect();
        let text = wrap(&tokens, 80);
        assert!(text.lines().all(|l| l.chars().count() <= 80));
        assert_eq!(text.split_whitespace().count(), 60);
    }

    #[test]
    fn dates_are_utc_days() {
        assert_eq!(date(0), "1970.01.01");
        assert_eq!(date(951_782_400_000), "2000.02.29");
        assert_eq!(date(1_764_000_000_000), "2025.11.24");
    }

    #[test]
    fn notes_give_score_depth_time_and_clock() {
        let n = |ms, depth, score, clock_ms| {
            note(&Note {
                ms,
                depth,
                score,
                clock_ms,
            })
        };
        assert_eq!(n(1234.5, Some(9), Some("cp -35"), None), "-0.35/9 1.23s");
        assert_eq!(
            n(400.0, None, Some("mate -2"), Some(296_789)),
            "-M2 0.40s [%clk 0:04:56.7]"
        );
        assert_eq!(
            n(3_210.0, None, None, Some(3_723_400)),
            "3.21s [%clk 1:02:03.4]"
        );
        assert_eq!(n(0.0, None, None, None), "");
    }

    #[test]
    fn main_lines_skip_comments_variations_nags_and_numbers() {
        let text = "[Event \"x\"]\n[White \"w\"]\n\n1. e4 {best by test} e5 (1... c5 2. Nf3) 2.Nf3 $1\n\
            2... Nc6 ; a comment\n3. Bb5 a6 1-0\n\n\
            [Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]\n\n1. g3 *\n";
        let games = split_games(text);
        assert_eq!(games.len(), 2);
        assert_eq!((games[0].tag("White"), games[0].plies()), (Some("w"), 6));
        let first = main_line(&games[0], None).unwrap();
        assert_eq!(
            first.moves,
            ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]
        );
        assert_eq!(
            main_line(&games[0], Some(2)).unwrap().moves,
            ["e2e4", "e7e5"]
        );
        let second = main_line(&games[1], None).unwrap();
        assert!(second.chess960 && second.moves == ["g2g3"], "{second:?}");
    }

    #[test]
    fn a_game_is_written_with_its_tags_and_comments() {
        let h = Heading {
            event: "e",
            site: "s",
            started_ms: 0,
            round: "-",
            white: "a \"b\"",
            black: "c",
            result: "0-1",
            time_control: None,
            termination: Some(termination_word("rules")),
        };
        let moves: Vec<Played> = ["f2f3", "e7e5", "g2g4", "d8h4"]
            .iter()
            .map(|&text| Played {
                text,
                comment: String::new(),
            })
            .collect();
        let text = write(&h, &Chess::default(), &moves, "checkmate").unwrap();
        assert!(text.starts_with("[Event \"e\"]\n[Site \"s\"]\n[Date \"1970.01.01\"]\n[Round \"-\"]\n[White \"a \\\"b\\\"\"]"), "{text}");
        assert!(text.ends_with("[Termination \"normal\"]\n[PlyCount \"4\"]\n\n1. f3 e5 2. g4 Qh4# {checkmate} 0-1\n\n"), "{text}");
    }
}
