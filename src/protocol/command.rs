//! Protocol lines → typed [`Command`]s. Parsing is pure: nothing here knows the game or the
//! engine's state, so a command that parses can still be refused when it is applied (an
//! illegal move, an unknown game); see `protocol.md` for every command and error.

use nom::branch::alt;
use nom::bytes::complete::{tag, take_till1};
use nom::character::complete::{space0, space1};
use nom::combinator::{cut, eof, map, peek, value};
use nom::error::{ErrorKind, ParseError as NomError};
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};

use crate::search::MAX_DEPTH;

/// The other way: commands printed as lines (`Display`) and built by clients.
mod display;

/// A word of a `position` command's move list, with the column (1-based, in characters)
/// where it starts, so errors can say where a bad move stood.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    pub text: &'a str,
    pub column: usize,
}

/// The moves of a `position` command as written: the text after the word `moves`, read a
/// word at a time. A line may hold millions of moves; they are neither copied one by one
/// nor given their columns up front (that would take memory, and time, beyond the line's).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveList {
    text: String,
    /// The column of `text`'s first character.
    column: usize,
}

impl MoveList {
    /// The moves in order, each with its column (counted as the iteration goes).
    pub fn iter(&self) -> impl Iterator<Item = Token<'_>> {
        let mut words = Words::new(&self.text);
        let mut column = self.column;
        let mut counted = 0;
        std::iter::from_fn(move || {
            let (offset, text) = words.next()?;
            column += self.text[counted..offset].chars().count();
            counted = offset;
            Some(Token { text, column })
        })
    }

    pub fn is_empty(&self) -> bool {
        self.iter().next().is_none()
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionStart {
    StartPos,
    /// A position in the game's notation (its words joined by single spaces), and the column
    /// of its first word.
    Fen {
        text: String,
        column: usize,
    },
}

/// `go` parameters as given; unknown tokens are skipped. Numbers are as written (clamped
/// only where protocol.md says so, such as `movestogo 0`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub infinite: bool,
    /// `mate <n>`: look for a win in at most `n` moves.
    pub mate: Option<u32>,
    /// `ponder`: search on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// `searchmoves <m1> <m2> ...` (the rest of the line): only these root moves, kept as
    /// written, as a `position`'s moves are. Checked against the position when the `go` is
    /// applied.
    pub searchmoves: MoveList,
}

impl GoParams {
    /// True when nothing but `stop` (or the end of input) ends the search: `infinite`,
    /// `ponder` (until `ponderhit`), or no depth, nodes, movetime, mate or clock (a time or
    /// increment of either side). A depth of `MAX_DEPTH` or more limits nothing: the searcher
    /// never gets that deep in a game that does not end by itself (`go depth
    /// 18446744073709551615` is a search without limits); nor does a mate whose `2n + 4`
    /// plies reach `MAX_DEPTH`.
    pub fn unlimited(&self) -> bool {
        self.infinite
            || self.ponder
            || (self.depth.is_none_or(|d| d >= MAX_DEPTH)
                && self
                    .mate
                    .is_none_or(|n| n.saturating_mul(2).saturating_add(4) >= MAX_DEPTH)
                && self.nodes.is_none()
                && self.movetime.is_none()
                && self.wtime.is_none()
                && self.btime.is_none()
                && self.winc.is_none()
                && self.binc.is_none())
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Query {
    GameOver,
    Result,
    SideToMove,
    P1Turn,
    LegalMoves,
    IsLegal(String),
    Fen,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A blank line.
    Empty,
    Uci,
    IsReady,
    UciNewGame,
    NewGame {
        game: String,
        params: Vec<String>,
    },
    /// `params [<game>]`: list a game's parameters (the current game's when none is named);
    /// the name is lower-cased, with its column for errors.
    Params {
        game: Option<(String, usize)>,
    },
    SetOption {
        name: String,
        value: Option<String>,
        /// Columns of the name's first word and of the value (of the end of the line when
        /// there is no value), for errors.
        name_column: usize,
        value_column: usize,
    },
    Position {
        start: PositionStart,
        moves: MoveList,
    },
    Go(GoParams),
    Perft(u32),
    Stop,
    PonderHit,
    Quit,
    Query(Query),
    Display,
    Bench {
        depth: Option<u32>,
    },
    /// A command word ply does not know; ignored, as UCI asks.
    Unknown(String),
}

/// A line that names a known command but does not follow its syntax.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub command: &'static str,
    pub message: String,
    /// 1-based character column of the offending token.
    pub column: usize,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {} (column {})",
            self.command, self.message, self.column
        )
    }
}

impl std::error::Error for ParseError {}

/// The known commands and their argument grammars.
pub const COMMANDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "newgame",
    "params",
    "setoption",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "query",
    "d",
    "bench",
];

/// The queries `query` accepts.
pub const QUERIES: &[&str] = &[
    "gameover",
    "result",
    "sidetomove",
    "p1turn",
    "legalmoves",
    "islegal",
    "fen",
];

/// The deepest `go perft` (deeper counts would overflow 64 bits in every game here anyway).
pub const MAX_PERFT_DEPTH: u32 = 64;
/// The most parameters `newgame` reads (each game has at most a few; more is always an error).
pub const MAX_GAME_PARAMS: usize = 32;

fn is_space(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// One whitespace-delimited word, after optional leading blanks.
fn word<'a, E: NomError<&'a str>>(i: &'a str) -> IResult<&'a str, &'a str, E> {
    preceded(space0, take_till1(is_space)).parse(i)
}

/// [`word`] where only whether there is one matters.
fn next_word(i: &str) -> Option<(&str, &str)> {
    word::<nom::error::Error<&str>>(i).ok()
}

/// The words of a string with their byte offsets, one at a time.
struct Words<'a> {
    base: &'a str,
    rest: &'a str,
}

impl<'a> Words<'a> {
    fn new(s: &'a str) -> Words<'a> {
        Words { base: s, rest: s }
    }

    /// The byte offset (in the string) just after the last word returned.
    fn offset(&self) -> usize {
        self.base.len() - self.rest.len()
    }
}

impl<'a> Iterator for Words<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<(usize, &'a str)> {
        let (rest, w) = next_word(self.rest)?;
        self.rest = rest;
        Some((w.as_ptr() as usize - self.base.as_ptr() as usize, w))
    }
}

/// The 1-based column, in characters, of byte `offset` of `line`.
fn column(line: &str, offset: usize) -> usize {
    line[..offset].chars().count() + 1
}

/// `text` for an error message: words quoted from the input are shortened beyond 100
/// characters (a chess fen, up to about 90, is quoted whole), so that an error about a huge
/// token stays one readable line.
pub fn quote(text: &str) -> String {
    const LONGEST: usize = 100;
    const KEEP: usize = 90;
    match text.char_indices().nth(LONGEST) {
        None => text.to_string(),
        Some(_) => {
            let cut = text.char_indices().nth(KEEP).map_or(text.len(), |(i, _)| i);
            format!("{}...({} characters)", &text[..cut], text.chars().count())
        }
    }
}

/// The command word of a line (its first word, after a trailing `\r` is dropped), or `None`
/// for a blank line: what the engine needs to decide, without parsing the rest, whether a
/// line is answered at once during a search.
pub fn command_word(line: &str) -> Option<&str> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    next_word(line).map(|(_, w)| w)
}

/// Parses one protocol line (without its line ending; a trailing `\r` is ignored). Takes
/// time and memory in proportion to the line, whatever it holds.
///
/// The grammar is one nom parser per command, tried in turn: a command's keyword (a whole
/// word), then, behind `cut`, its arguments' grammar (`Body`). Once a keyword has matched,
/// no other command is tried, and an error in the arguments is a failure that carries the
/// command and the column it points at. A word that is no command is [`Command::Unknown`].
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let mut grammar = alt((
        value(Command::Empty, (space0, eof)),
        value(Command::Uci, keyword("uci")),
        value(Command::IsReady, keyword("isready")),
        value(Command::UciNewGame, keyword("ucinewgame")),
        value(Command::Stop, keyword("stop")),
        value(Command::PonderHit, keyword("ponderhit")),
        value(Command::Quit, keyword("quit")),
        value(Command::Display, keyword("d")),
        command(line, "newgame", newgame),
        command(line, "params", params),
        command(line, "setoption", setoption),
        command(line, "position", position),
        command(line, "go", go),
        command(line, "query", query),
        command(line, "bench", bench),
        map(word, |w| Command::Unknown(w.to_string())),
    ));
    match grammar.parse(line) {
        Ok((_, c)) => Ok(c),
        Err(nom::Err::Failure(Fail {
            failure: Some((command, (at, message))),
        })) => Err(ParseError {
            command,
            message,
            column: column(line, at.unwrap_or(line.len())),
        }),
        // Every line matches the blank-line or the unknown-word branch; were one to match
        // none, it would be ignored as an unknown command rather than stop the engine.
        Err(e) => {
            debug_assert!(false, "no branch took {line:?}: {e:?}");
            Ok(Command::Unknown(String::new()))
        }
    }
}

/// An error at a byte offset of the line (`None`: at its end).
type Failure = (Option<usize>, String);

/// The grammar of a command's arguments: from the words after its keyword (offsets count
/// from the start of `line`) to the command, or a [`Failure`].
type Body = fn(line: &str, words: Words) -> Result<Command, Failure>;

/// The command grammar's nom error: for a command whose arguments do not follow its grammar,
/// the command and what is wrong (the [`Failure`] holds where). Without that it is a
/// backtrack, and `alt` tries the next command.
#[derive(Debug)]
struct Fail {
    failure: Option<(&'static str, Failure)>,
}

impl NomError<&str> for Fail {
    fn from_error_kind(_: &str, _: ErrorKind) -> Self {
        Fail { failure: None }
    }

    fn append(_: &str, _: ErrorKind, other: Self) -> Self {
        other
    }
}

/// A command's keyword as a whole word (after optional blanks).
fn keyword<'a>(k: &'static str) -> impl Parser<&'a str, Output = &'a str, Error = Fail> {
    preceded(space0, terminated(tag(k), peek(alt((space1, eof)))))
}

/// One command: its keyword, then, behind `cut`, its arguments' grammar over the rest of
/// `line`.
fn command<'a>(
    line: &'a str,
    name: &'static str,
    body: Body,
) -> impl Parser<&'a str, Output = Command, Error = Fail> {
    preceded(
        keyword(name),
        cut(move |rest: &'a str| {
            let words = Words { base: line, rest };
            match body(line, words) {
                Ok(c) => Ok(("", c)),
                Err(f) => Err(nom::Err::Error(Fail {
                    failure: Some((name, f)),
                })),
            }
        }),
    )
}

/// `bench [<depth>]`.
fn bench(_: &str, mut words: Words) -> Result<Command, Failure> {
    let Some((o, d)) = words.next() else {
        return Ok(Command::Bench { depth: None });
    };
    match d.parse::<u32>() {
        Ok(d) if (1..=MAX_DEPTH).contains(&d) => Ok(Command::Bench { depth: Some(d) }),
        _ => Err((
            Some(o),
            format!(
                "depth must be an integer from 1 to {MAX_DEPTH}, got '{}'",
                quote(d)
            ),
        )),
    }
}

/// `newgame <game> [key=value ...]`.
fn newgame(_: &str, mut words: Words) -> Result<Command, Failure> {
    let Some((_, game)) = words.next() else {
        return Err((None, "expected a game name".into()));
    };
    let mut params = Vec::new();
    for (o, p) in words {
        if params.len() == MAX_GAME_PARAMS {
            return Err((
                Some(o),
                format!("too many parameters (at most {MAX_GAME_PARAMS})"),
            ));
        }
        params.push(p.to_string());
    }
    Ok(Command::NewGame {
        game: game.to_ascii_lowercase(),
        params,
    })
}

/// `params [<game>]`: anything after the game name is an error, as the name is the only
/// argument.
fn params(line: &str, mut words: Words) -> Result<Command, Failure> {
    let game = words
        .next()
        .map(|(o, g)| (g.to_ascii_lowercase(), column(line, o)));
    if let Some((o, w)) = words.next() {
        return Err((
            Some(o),
            format!("expected only a game name, got '{}'", quote(w)),
        ));
    }
    Ok(Command::Params { game })
}

/// `query <what> [<move>]`.
fn query(_: &str, mut words: Words) -> Result<Command, Failure> {
    let Some((o, q)) = words.next() else {
        return Err((None, format!("expected one of: {}", QUERIES.join(", "))));
    };
    let q = match q {
        "gameover" => Query::GameOver,
        "result" => Query::Result,
        "sidetomove" => Query::SideToMove,
        "p1turn" => Query::P1Turn,
        "legalmoves" => Query::LegalMoves,
        "fen" => Query::Fen,
        "islegal" => match words.next() {
            Some((_, m)) => Query::IsLegal(m.to_string()),
            None => return Err((None, "'islegal' needs a move".into())),
        },
        other => {
            return Err((
                Some(o),
                format!(
                    "unknown query '{}' (known: {})",
                    quote(other),
                    QUERIES.join(", ")
                ),
            ));
        }
    };
    Ok(Command::Query(q))
}

/// `position startpos|fen <notation> [moves ...]`; errors carry byte offsets in `line`.
fn position(line: &str, mut words: Words) -> Result<Command, Failure> {
    let end = line.len();
    let start = match words.next() {
        Some((_, "startpos")) => PositionStart::StartPos,
        Some((o, "fen")) => {
            // The notation runs up to the word `moves` (or the end): its words, joined by
            // single spaces.
            let mut text = String::new();
            let mut first = None;
            let mut rest = words.rest;
            while let Some((wo, w)) = words.next() {
                if w == "moves" {
                    break;
                }
                first.get_or_insert(wo);
                if !text.is_empty() {
                    text.push(' ');
                }
                text.push_str(w);
                rest = words.rest;
            }
            let Some(first) = first else {
                return Err((Some(o + 3), "'fen' needs a position".into()));
            };
            let fen = PositionStart::Fen {
                text,
                column: column(line, first),
            };
            // Resume just before `moves` (or at the end), for the moves below.
            words.rest = rest;
            fen
        }
        Some((o, w)) => {
            return Err((
                Some(o),
                format!("expected startpos or fen, got '{}'", quote(w)),
            ));
        }
        None => return Err((Some(end), "expected startpos or fen".into())),
    };
    let moves = match words.next() {
        None => MoveList::default(),
        Some((_, "moves")) => {
            let at = words.offset();
            MoveList {
                text: line[at..].to_string(),
                column: column(line, at),
            }
        }
        Some((o, w)) => {
            return Err((Some(o), format!("expected 'moves', got '{}'", quote(w))));
        }
    };
    Ok(Command::Position { start, moves })
}

/// `setoption name <words> [value <words>]`: the name runs up to the word `value` (its words
/// joined by single spaces); the value is the rest of the line, trimmed.
fn setoption(line: &str, mut words: Words) -> Result<Command, Failure> {
    let end = line.len();
    match words.next() {
        Some((_, "name")) => {}
        Some((o, w)) => return Err((Some(o), format!("expected 'name', got '{}'", quote(w)))),
        None => return Err((Some(end), "expected 'name <option> [value <value>]'".into())),
    }
    let mut name = String::new();
    let mut name_offset = None;
    let mut value = None;
    let mut value_offset = end;
    // Where the name should have been: the word `value`, or the end of the line.
    let mut no_name_at = None;
    while let Some((o, w)) = words.next() {
        if w == "value" {
            no_name_at = Some(o);
            let v = words.rest.trim_matches(is_space);
            if !v.is_empty() {
                value_offset = v.as_ptr() as usize - line.as_ptr() as usize;
                value = Some(v.to_string());
            }
            break;
        }
        name_offset.get_or_insert(o);
        if !name.is_empty() {
            name.push(' ');
        }
        name.push_str(w);
    }
    let Some(name_offset) = name_offset else {
        return Err((no_name_at, "expected an option name after 'name'".into()));
    };
    Ok(Command::SetOption {
        name,
        value,
        name_column: column(line, name_offset),
        value_column: column(line, value_offset),
    })
}

/// `go [<key> [<value>]] ...`, or `go perft <depth>`; unknown keys are skipped.
fn go(line: &str, mut words: Words) -> Result<Command, Failure> {
    let mut g = GoParams::default();
    while let Some((_, key)) = words.next() {
        let mut value = |what: &str| -> Result<(usize, &str), Failure> {
            words.next().ok_or((None, format!("'{key}' needs {what}")))
        };
        let unsigned = |(o, v): (usize, &str), what: &str| -> Result<u64, Failure> {
            v.parse::<u64>()
                .map_err(|_| (Some(o), format!("'{key}' needs {what}, got '{}'", quote(v))))
        };
        // Clock values may be negative (some GUIs send an overdrawn clock); they count as 0.
        let signed = |(o, v): (usize, &str)| -> Result<i64, Failure> {
            v.parse::<i64>().map_err(|_| {
                (
                    Some(o),
                    format!("'{key}' needs milliseconds, got '{}'", quote(v)),
                )
            })
        };
        let u32_of = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
        match key {
            "perft" => {
                let v = value("a depth")?;
                return match v.1.parse::<u32>() {
                    Ok(d) if d <= MAX_PERFT_DEPTH => Ok(Command::Perft(d)),
                    _ => Err((
                        Some(v.0),
                        format!(
                            "'perft' needs a depth from 0 to {MAX_PERFT_DEPTH}, got '{}'",
                            quote(v.1)
                        ),
                    )),
                };
            }
            "depth" => {
                let v = value("a depth")?;
                let d = unsigned(v, "a positive depth")?;
                if d == 0 {
                    return Err((Some(v.0), "'depth' must be at least 1".into()));
                }
                g.depth = Some(u32_of(d));
            }
            "nodes" => g.nodes = Some(unsigned(value("a node count")?, "a node count")?),
            "movetime" => g.movetime = Some(unsigned(value("milliseconds")?, "milliseconds")?),
            "wtime" => g.wtime = Some(signed(value("milliseconds")?)?),
            "btime" => g.btime = Some(signed(value("milliseconds")?)?),
            "winc" => g.winc = Some(signed(value("milliseconds")?)?),
            "binc" => g.binc = Some(signed(value("milliseconds")?)?),
            "movestogo" => {
                let n = unsigned(value("a move count")?, "a move count")?;
                g.movestogo = Some(u32_of(n).max(1));
            }
            "infinite" => g.infinite = true,
            "ponder" => g.ponder = true,
            "mate" => {
                let v = value("a move count")?;
                let n = unsigned(v, "a move count")?;
                if n == 0 {
                    return Err((Some(v.0), "'mate' must be at least 1".into()));
                }
                g.mate = Some(u32_of(n));
            }
            "searchmoves" => {
                // The rest of the line, kept as written (a position's moves are kept the same
                // way): a 16 MiB line costs its own size, not a String and a column count
                // from the line's start for each of its millions of words.
                let at = words.offset();
                g.searchmoves = MoveList {
                    text: line[at..].to_string(),
                    column: column(line, at),
                };
                if g.searchmoves.is_empty() {
                    return Err((None, "'searchmoves' needs at least one move".into()));
                }
                break;
            }
            _ => log::debug!("go: ignoring unknown token '{}'", quote(key)),
        }
    }
    Ok(Command::Go(g))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basic_commands() {
        assert_eq!(parse(""), Ok(Command::Empty));
        assert_eq!(parse("   \t "), Ok(Command::Empty));
        assert_eq!(parse("uci\r"), Ok(Command::Uci));
        assert_eq!(parse("  isready  "), Ok(Command::IsReady));
        assert_eq!(parse("xyzzy 1 2"), Ok(Command::Unknown("xyzzy".into())));
        assert_eq!(
            parse("newgame Connect4 width=8 height=7"),
            Ok(Command::NewGame {
                game: "connect4".into(),
                params: vec!["width=8".into(), "height=7".into()]
            })
        );
    }

    #[test]
    fn setoption() {
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(Command::SetOption {
                name: "Clear Hash".into(),
                value: None,
                name_column: 16,
                value_column: 26,
            })
        );
        assert_eq!(
            parse("setoption name Move  Overhead value 30 "),
            Ok(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into()),
                name_column: 16,
                value_column: 37,
            })
        );
        assert_eq!(
            parse("setoption name UCI_Variant value connect4"),
            Ok(Command::SetOption {
                name: "UCI_Variant".into(),
                value: Some("connect4".into()),
                name_column: 16,
                value_column: 34,
            })
        );
        let e = parse("setoption Hash 3").unwrap_err();
        assert_eq!((e.command, e.column), ("setoption", 11));
        let e = parse("setoption").unwrap_err();
        assert_eq!(e.column, 10);
        // The column of the word standing where the name should (`value`), or of the end.
        for (line, column) in [
            ("setoption name value 3", 16),
            ("setoption name   value 3", 18),
            ("setoption name", 15),
            ("setoption name  ", 17),
        ] {
            let e = parse(line).unwrap_err();
            assert_eq!(
                (e.message.as_str(), e.column),
                ("expected an option name after 'name'", column),
                "{line:?}"
            );
        }
    }

    fn moves(c: &Command) -> Vec<(String, usize)> {
        match c {
            Command::Position { moves, .. } => moves
                .iter()
                .map(|t| (t.text.to_string(), t.column))
                .collect(),
            _ => panic!("not a position: {c:?}"),
        }
    }

    #[test]
    fn position() {
        let c = parse("position startpos moves 4 \t 4").unwrap();
        assert!(matches!(
            c,
            Command::Position {
                start: PositionStart::StartPos,
                ..
            }
        ));
        assert_eq!(moves(&c), [("4".into(), 25), ("4".into(), 29)]);
        let c = parse("position fen x../.../...  o moves b2 é c3").unwrap();
        match &c {
            Command::Position {
                start: PositionStart::Fen { text, column },
                ..
            } => assert_eq!((text.as_str(), *column), ("x../.../... o", 14)),
            _ => panic!("{c:?}"),
        }
        // Columns count characters, not bytes.
        assert_eq!(
            moves(&c),
            [("b2".into(), 35), ("é".into(), 38), ("c3".into(), 40)]
        );
        let e = parse("position startpos 4 4").unwrap_err();
        assert_eq!(e.column, 19);
        assert!(parse("position fen moves 4").is_err());
        assert!(parse("position").is_err());
        assert!(moves(&parse("position startpos moves").unwrap()).is_empty());
    }

    #[test]
    fn go() {
        assert_eq!(
            parse("go depth 5 wtime 1000 btime -5 winc 10 binc 10 movestogo 0 ponder"),
            Ok(Command::Go(GoParams {
                depth: Some(5),
                wtime: Some(1000),
                btime: Some(-5),
                winc: Some(10),
                binc: Some(10),
                movestogo: Some(1),
                ponder: true,
                ..GoParams::default()
            }))
        );
        let Ok(Command::Go(g)) = parse("go mate 3 searchmoves e2e4  d2d4") else {
            panic!("not a go")
        };
        assert_eq!(g.mate, Some(3));
        let moves: Vec<_> = g.searchmoves.iter().map(|t| (t.text, t.column)).collect();
        assert_eq!(moves, [("e2e4", 23), ("d2d4", 29)]);
        assert_eq!(parse("go mate 0").unwrap_err().column, 9);
        assert_eq!(parse("go searchmoves").unwrap_err().column, 15);
        assert_eq!(parse("go perft 3"), Ok(Command::Perft(3)));
        assert_eq!(parse("go perft 64"), Ok(Command::Perft(64)));
        let e = parse("go perft 65").unwrap_err();
        assert_eq!(
            (e.message.as_str(), e.column),
            ("'perft' needs a depth from 0 to 64, got '65'", 10)
        );
        assert!(parse("go perft 4294967296").is_err());
        assert_eq!(
            parse("go depth 99999999999 nodes 18446744073709551615 movetime 18446744073709551615"),
            Ok(Command::Go(GoParams {
                depth: Some(u32::MAX),
                nodes: Some(u64::MAX),
                movetime: Some(u64::MAX),
                ..GoParams::default()
            }))
        );
        let e = parse("go nodes 18446744073709551616").unwrap_err();
        assert!(e.message.contains("needs a node count"), "{e}");
        assert_eq!(parse("go"), Ok(Command::Go(GoParams::default())));
        let e = parse("go depth x").unwrap_err();
        assert_eq!((e.command, e.column), ("go", 10));
        assert!(e.message.contains("'x'"));
        let e = parse("go depth").unwrap_err();
        assert_eq!(e.column, 9);
        assert!(parse("go depth 0").is_err());
    }

    #[test]
    fn params() {
        assert_eq!(parse("params"), Ok(Command::Params { game: None }));
        assert_eq!(
            parse("params  Connect4"),
            Ok(Command::Params {
                game: Some(("connect4".into(), 9))
            })
        );
        let e = parse("params nim teeko").unwrap_err();
        assert_eq!(
            (e.command, e.message.as_str(), e.column),
            ("params", "expected only a game name, got 'teeko'", 12)
        );
    }

    #[test]
    fn bench_and_newgame_limits() {
        assert_eq!(parse("bench"), Ok(Command::Bench { depth: None }));
        assert_eq!(parse("bench 250"), Ok(Command::Bench { depth: Some(250) }));
        for bad in ["bench 0", "bench 251", "bench 4294967295", "bench x"] {
            let e = parse(bad).unwrap_err();
            assert_eq!(e.column, 7, "{bad}");
            assert!(
                e.message
                    .starts_with("depth must be an integer from 1 to 250")
            );
        }
        let many = format!("newgame nim {}", "max=3 ".repeat(40));
        let e = parse(&many).unwrap_err();
        assert_eq!(e.message, "too many parameters (at most 32)");
        assert_eq!(e.column, 13 + 32 * 6);
    }

    #[test]
    fn long_words_are_quoted_short() {
        let long = "x".repeat(100_000);
        let e = parse(&format!("query {long}")).unwrap_err();
        assert!(e.message.len() < 300, "{}", e.message);
        assert!(e.message.contains("(100000 characters)"));
        assert_eq!(quote("short"), "short");
        // A chess fen (up to about 90 characters) is quoted whole; beyond 100, 90 are kept.
        let hundred = "é".repeat(100);
        assert_eq!(quote(&hundred), hundred);
        let longer = "é".repeat(101);
        assert_eq!(
            quote(&longer),
            format!("{}...(101 characters)", "é".repeat(90))
        );
    }

    #[test]
    fn huge_position_lines_parse_in_linear_time() {
        // 4 million moves: columns are counted as the moves are read, not up front.
        let line = format!("position startpos moves {}", "1 ".repeat(4 << 20));
        let t = std::time::Instant::now();
        let c = parse(&line).unwrap();
        let (n, last) = match &c {
            Command::Position { moves, .. } => {
                moves.iter().fold((0, 0), |(n, _), t| (n + 1, t.column))
            }
            _ => unreachable!(),
        };
        assert_eq!((n, last), (4 << 20, 25 + 2 * ((4 << 20) - 1)));
        assert!(t.elapsed() < std::time::Duration::from_secs(20));
    }

    #[test]
    fn query() {
        assert_eq!(
            parse("query islegal c3d4"),
            Ok(Command::Query(Query::IsLegal("c3d4".into())))
        );
        assert!(parse("query islegal").is_err());
        assert!(parse("query colour").unwrap_err().message.contains("known"));
    }
}
