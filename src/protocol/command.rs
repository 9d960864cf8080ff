//! Protocol lines → typed [`Command`]s. Parsing is pure: nothing here knows the game or the
//! engine's state, so a command that parses can still be refused when it is applied (an
//! illegal move, an unknown game); see `protocol.md` for every command and error.

use nom::{
    IResult, Parser,
    bytes::complete::take_till1,
    character::complete::{space0, space1},
    combinator::{all_consuming, opt, rest},
    multi::many0,
    sequence::preceded,
};

/// A word of the line with the column (1-based, in characters) where it starts, so errors
/// can say where a bad token stood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub text: String,
    pub column: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionStart {
    StartPos,
    Fen(String),
}

/// `go` parameters as given; unknown tokens are skipped.
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
    SetOption {
        name: String,
        value: Option<String>,
    },
    Position {
        start: PositionStart,
        moves: Vec<Token>,
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

fn is_space(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// One whitespace-delimited word, after optional leading blanks.
fn word(i: &str) -> IResult<&str, &str> {
    preceded(space0, take_till1(is_space)).parse(i)
}

/// Every remaining word, each with the byte offset of its start within `line`.
fn words<'a>(line: &'a str, i: &'a str) -> Vec<(usize, &'a str)> {
    let parsed: IResult<&str, Vec<&str>> = many0(word).parse(i);
    match parsed {
        Ok((_, ws)) => ws
            .into_iter()
            .map(|w| (w.as_ptr() as usize - line.as_ptr() as usize, w))
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// Parses one protocol line (without its line ending; a trailing `\r` is ignored).
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let parsed: IResult<&str, Option<&str>> = opt(word).parse(line);
    let (after, first) = match parsed {
        Ok(v) => v,
        Err(_) => return Ok(Command::Empty),
    };
    let Some(first) = first else {
        return Ok(Command::Empty);
    };
    let column = |offset: usize| line[..offset].chars().count() + 1;
    let args = words(line, after);
    let err = |command: &'static str, offset: usize, message: String| ParseError {
        command,
        message,
        column: column(offset),
    };
    let end = line.len();
    let tokens = |ws: &[(usize, &str)]| -> Vec<Token> {
        ws.iter()
            .map(|&(o, t)| Token {
                text: t.to_string(),
                column: column(o),
            })
            .collect()
    };

    match first {
        "uci" => Ok(Command::Uci),
        "isready" => Ok(Command::IsReady),
        "ucinewgame" => Ok(Command::UciNewGame),
        "stop" => Ok(Command::Stop),
        "ponderhit" => Ok(Command::PonderHit),
        "quit" => Ok(Command::Quit),
        "d" => Ok(Command::Display),
        "newgame" => match args.split_first() {
            None => Err(err("newgame", end, "expected a game name".into())),
            Some((&(_, game), params)) => Ok(Command::NewGame {
                game: game.to_ascii_lowercase(),
                params: params.iter().map(|&(_, p)| p.to_string()).collect(),
            }),
        },
        "setoption" => {
            parse_setoption(after).map_err(|(off, m)| err("setoption", line.len() - off, m))
        }
        "position" => {
            let mut it = args.iter().peekable();
            let start = match it.next() {
                Some(&(_, "startpos")) => PositionStart::StartPos,
                Some(&(o, "fen")) => {
                    let mut fen = Vec::new();
                    while let Some(&&(_, w)) = it.peek() {
                        if w == "moves" {
                            break;
                        }
                        fen.push(w);
                        it.next();
                    }
                    if fen.is_empty() {
                        return Err(err("position", o + 3, "'fen' needs a position".into()));
                    }
                    PositionStart::Fen(fen.join(" "))
                }
                Some(&(o, w)) => {
                    return Err(err(
                        "position",
                        o,
                        format!("expected startpos or fen, got '{w}'"),
                    ));
                }
                None => return Err(err("position", end, "expected startpos or fen".into())),
            };
            let moves = match it.next() {
                None => Vec::new(),
                Some(&(_, "moves")) => tokens(&it.copied().collect::<Vec<_>>()),
                Some(&(o, w)) => {
                    return Err(err("position", o, format!("expected 'moves', got '{w}'")));
                }
            };
            Ok(Command::Position { start, moves })
        }
        "go" => parse_go(&args).map_err(|(o, m)| err("go", o.unwrap_or(end), m)),
        "query" => match args.as_slice() {
            [] => Err(err(
                "query",
                end,
                format!("expected one of: {}", QUERIES.join(", ")),
            )),
            [(o, q), more @ ..] => {
                let q = match *q {
                    "gameover" => Query::GameOver,
                    "result" => Query::Result,
                    "sidetomove" => Query::SideToMove,
                    "p1turn" => Query::P1Turn,
                    "legalmoves" => Query::LegalMoves,
                    "fen" => Query::Fen,
                    "islegal" => match more.first() {
                        Some(&(_, m)) => Query::IsLegal(m.to_string()),
                        None => {
                            return Err(err("query", end, "'islegal' needs a move".into()));
                        }
                    },
                    other => {
                        return Err(err(
                            "query",
                            *o,
                            format!("unknown query '{other}' (known: {})", QUERIES.join(", ")),
                        ));
                    }
                };
                Ok(Command::Query(q))
            }
        },
        "bench" => match args.first() {
            None => Ok(Command::Bench { depth: None }),
            Some(&(o, d)) => match d.parse::<u32>() {
                Ok(d) if d >= 1 => Ok(Command::Bench { depth: Some(d) }),
                _ => Err(err(
                    "bench",
                    o,
                    format!("depth must be a positive integer, got '{d}'"),
                )),
            },
        },
        other => Ok(Command::Unknown(other.to_string())),
    }
}

/// `setoption name <words> [value <words>]`: the name runs up to the word `value`.
/// Errors carry the length of the input left at the bad spot.
fn parse_setoption(i: &str) -> Result<Command, (usize, String)> {
    let name_kw: IResult<&str, &str> = word(i);
    match name_kw {
        Ok((after_name, "name")) => {
            let mut name_words = Vec::new();
            let mut cur = after_name;
            let mut value = None;
            loop {
                let w: IResult<&str, &str> = word(cur);
                match w {
                    Ok((next, "value")) => {
                        let v: IResult<&str, &str> =
                            all_consuming(preceded(opt(space1), rest)).parse(next);
                        value = v.ok().map(|(_, v)| v.trim().to_string());
                        break;
                    }
                    Ok((next, w)) => {
                        name_words.push(w);
                        cur = next;
                    }
                    Err(_) => break,
                }
            }
            if name_words.is_empty() {
                return Err((
                    after_name.len(),
                    "expected an option name after 'name'".into(),
                ));
            }
            Ok(Command::SetOption {
                name: name_words.join(" "),
                value,
            })
        }
        Ok((_, w)) => Err((i.trim_start().len(), format!("expected 'name', got '{w}'"))),
        Err(_) => Err((0, "expected 'name <option> [value <value>]'".into())),
    }
}

fn parse_go(args: &[(usize, &str)]) -> Result<Command, (Option<usize>, String)> {
    let mut g = GoParams::default();
    let mut it = args.iter();
    while let Some(&(o, key)) = it.next() {
        let mut value = |what: &str| -> Result<(usize, &str), (Option<usize>, String)> {
            it.next()
                .copied()
                .ok_or((None, format!("'{key}' needs {what}")))
        };
        let unsigned =
            |(o, v): (usize, &str), what: &str| -> Result<u64, (Option<usize>, String)> {
                v.parse::<u64>()
                    .map_err(|_| (Some(o), format!("'{key}' needs {what}, got '{v}'")))
            };
        // Clock values may be negative (some GUIs send an overdrawn clock); they count as 0.
        let signed = |(o, v): (usize, &str)| -> Result<i64, (Option<usize>, String)> {
            v.parse::<i64>()
                .map_err(|_| (Some(o), format!("'{key}' needs milliseconds, got '{v}'")))
        };
        let u32_of = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
        match key {
            "perft" => {
                let v = value("a depth")?;
                let d = unsigned(v, "a depth")?;
                return Ok(Command::Perft(u32_of(d)));
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
            _ => {
                let _ = o;
                log::debug!("go: ignoring unknown token '{key}'");
            }
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
                value: None
            })
        );
        assert_eq!(
            parse("setoption name Move Overhead value 30"),
            Ok(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            })
        );
        assert_eq!(
            parse("setoption name UCI_Variant value connect4"),
            Ok(Command::SetOption {
                name: "UCI_Variant".into(),
                value: Some("connect4".into())
            })
        );
        let e = parse("setoption Hash 3").unwrap_err();
        assert_eq!((e.command, e.column), ("setoption", 11));
    }

    #[test]
    fn position() {
        assert_eq!(
            parse("position startpos moves 4 4"),
            Ok(Command::Position {
                start: PositionStart::StartPos,
                moves: vec![
                    Token {
                        text: "4".into(),
                        column: 25
                    },
                    Token {
                        text: "4".into(),
                        column: 27
                    }
                ]
            })
        );
        assert_eq!(
            parse("position fen x../.../... o moves b2"),
            Ok(Command::Position {
                start: PositionStart::Fen("x../.../... o".into()),
                moves: vec![Token {
                    text: "b2".into(),
                    column: 34
                }]
            })
        );
        let e = parse("position startpos 4 4").unwrap_err();
        assert_eq!(e.column, 19);
        assert!(parse("position fen moves 4").is_err());
        assert!(parse("position").is_err());
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
                ..GoParams::default()
            }))
        );
        assert_eq!(parse("go perft 3"), Ok(Command::Perft(3)));
        assert_eq!(parse("go"), Ok(Command::Go(GoParams::default())));
        let e = parse("go depth x").unwrap_err();
        assert_eq!((e.command, e.column), ("go", 10));
        assert!(e.message.contains("'x'"));
        let e = parse("go depth").unwrap_err();
        assert_eq!(e.column, 9);
        assert!(parse("go depth 0").is_err());
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
