//! The engine's responses as types: `info` ([`InfoLine`]), `bestmove` ([`BestMove`]), `id`
//! ([`IdLine`]), `option` ([`OptionLine`]), `param` ([`ParamLine`]) and `response`
//! ([`QueryResponse`]). The session
//! prints them with `Display`, and the referee, its compliance check and the tests read any
//! engine's with `FromStr` (see protocol.md for each line).
//!
//! Reading follows UCI's rule for a GUI: unknown keys are skipped, and a known key whose value
//! does not parse is ignored, so an `info` or `bestmove` line never fails to read; an `option`
//! line that breaks its type's grammar is an error naming what is wrong.

use std::fmt;
use std::str::FromStr;

use crate::game::ParamSpec;
use crate::setting::Kind;
use crate::value::{BoundedScore, Score, ScoreBound};

/// An `info` line's fields; `None` (or empty) where the line does not give them. `Display`
/// writes them in ply's order: depth, seldepth, multipv, score, wdl, nodes, nps, time,
/// hashfull, tbhits, pv, string.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InfoLine {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    /// Which of the `MultiPV` lines this is, from 1 (the best); ply gives it only when more
    /// than one line is asked for.
    pub multipv: Option<u32>,
    pub score: Option<BoundedScore>,
    /// Win, draw and loss chances in permille, from the side to move.
    pub wdl: Option<[u32; 3]>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    /// Milliseconds.
    pub time: Option<u64>,
    /// Permille of the transposition table in use.
    pub hashfull: Option<u32>,
    /// Positions answered from a stored table.
    pub tbhits: Option<u64>,
    /// The principal variation, in the game's notation.
    pub pv: Vec<String>,
    /// `info string <text>`: free text, the rest of the line.
    pub string: Option<String>,
}

impl InfoLine {
    /// The line of a message: `info string <text>`.
    pub fn string(text: impl Into<String>) -> InfoLine {
        InfoLine {
            string: Some(text.into()),
            ..InfoLine::default()
        }
    }
}

impl fmt::Display for InfoLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        let numbers = [
            ("depth", self.depth.map(u64::from)),
            ("seldepth", self.seldepth.map(u64::from)),
            ("multipv", self.multipv.map(u64::from)),
        ];
        for (key, value) in numbers {
            if let Some(v) = value {
                write!(f, " {key} {v}")?;
            }
        }
        if let Some(score) = &self.score {
            write!(f, " score {score}")?;
        }
        if let Some([w, d, l]) = self.wdl {
            write!(f, " wdl {w} {d} {l}")?;
        }
        let numbers = [
            ("nodes", self.nodes),
            ("nps", self.nps),
            ("time", self.time),
            ("hashfull", self.hashfull.map(u64::from)),
            ("tbhits", self.tbhits),
        ];
        for (key, value) in numbers {
            if let Some(v) = value {
                write!(f, " {key} {v}")?;
            }
        }
        if !self.pv.is_empty() {
            write!(f, " pv {}", self.pv.join(" "))?;
        }
        if let Some(text) = &self.string {
            write!(f, " string {text}")?;
        }
        Ok(())
    }
}

/// A line that is not an `info` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotInfo;

impl fmt::Display for NotInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not an info line")
    }
}

impl std::error::Error for NotInfo {}

impl FromStr for InfoLine {
    type Err = NotInfo;

    fn from_str(line: &str) -> Result<InfoLine, NotInfo> {
        let mut words = line.split_whitespace();
        if words.next() != Some("info") {
            return Err(NotInfo);
        }
        let words: Vec<&str> = words.collect();
        let mut info = InfoLine::default();
        let mut i = 0;
        while i < words.len() {
            let value = words.get(i + 1).copied().unwrap_or("");
            match words[i] {
                "depth" => info.depth = value.parse().ok().or(info.depth),
                "seldepth" => info.seldepth = value.parse().ok().or(info.seldepth),
                "multipv" => info.multipv = value.parse().ok().or(info.multipv),
                "nodes" => info.nodes = value.parse().ok().or(info.nodes),
                "nps" => info.nps = value.parse().ok().or(info.nps),
                "time" => info.time = value.parse().ok().or(info.time),
                "hashfull" => info.hashfull = value.parse().ok().or(info.hashfull),
                "tbhits" => info.tbhits = value.parse().ok().or(info.tbhits),
                "score" => {
                    i += read_score(&words[i + 1..], &mut info.score);
                    continue;
                }
                "wdl" => {
                    let chances: Option<Vec<u32>> = words[i + 1..]
                        .iter()
                        .take(3)
                        .map(|w| w.parse().ok())
                        .collect();
                    if let Some([w, d, l]) = chances.as_deref() {
                        info.wdl = Some([*w, *d, *l]);
                    }
                    i += 4;
                    continue;
                }
                // The rest of the line is moves, or text: never keys.
                "pv" => {
                    info.pv = words[i + 1..].iter().map(|w| w.to_string()).collect();
                    break;
                }
                "string" => {
                    let rest = line.split_once(" string").map_or("", |(_, r)| r);
                    info.string = Some(rest.strip_prefix(' ').unwrap_or(rest).to_string());
                    break;
                }
                _ => {
                    i += 1;
                    continue;
                }
            }
            i += 2;
        }
        Ok(info)
    }
}

/// Reads `cp|mate <n> [lowerbound|upperbound]` from `words` into `score` (left as it was when
/// malformed); returns how many words it took, the key `score` included.
fn read_score(words: &[&str], score: &mut Option<BoundedScore>) -> usize {
    let n = words.get(1).and_then(|w| w.parse::<i32>().ok());
    let parsed = match (words.first().copied(), n) {
        (Some("cp"), Some(n)) => Some(Score::Cp(n)),
        (Some("mate"), Some(n)) => Some(Score::Mate(n)),
        _ => None,
    };
    let bound = match words.get(2).copied() {
        Some("lowerbound") => Some(ScoreBound::Lower),
        Some("upperbound") => Some(ScoreBound::Upper),
        _ => None,
    };
    if let Some(s) = parsed {
        *score = Some(BoundedScore {
            score: s,
            bound: bound.unwrap_or_default(),
        });
    }
    3 + bound.is_some() as usize
}

/// `bestmove <move> [ponder <move>]`: the answer that ends every `go`; `mv` is `None` for
/// `bestmove (none)` (the game is over, see protocol.md, "go").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestMove {
    pub mv: Option<String>,
    /// The reply the engine expects, to ponder on.
    pub ponder: Option<String>,
}

impl BestMove {
    /// The word that stands for "no move".
    pub const NONE: &'static str = "(none)";

    /// The move as written on the line: the move, or `(none)`.
    pub fn text(&self) -> &str {
        self.mv.as_deref().unwrap_or(BestMove::NONE)
    }
}

impl fmt::Display for BestMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bestmove {}", self.text())?;
        if let Some(p) = &self.ponder {
            write!(f, " ponder {p}")?;
        }
        Ok(())
    }
}

/// A line that is not the kind of response asked for; says which kind it is not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotA(pub &'static str);

impl fmt::Display for NotA {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not {} line", self.0)
    }
}

impl std::error::Error for NotA {}

impl FromStr for BestMove {
    type Err = NotA;

    /// Reads any engine's line: a missing move reads as `(none)`, and words after the move
    /// other than `ponder <move>` are ignored.
    fn from_str(line: &str) -> Result<BestMove, NotA> {
        let mut words = line.split_whitespace();
        if words.next() != Some("bestmove") {
            return Err(NotA("a bestmove"));
        }
        let mv = words
            .next()
            .filter(|&m| m != BestMove::NONE)
            .map(String::from);
        let ponder = match (words.next(), words.next()) {
            (Some("ponder"), Some(p)) => Some(p.to_string()),
            _ => None,
        };
        Ok(BestMove { mv, ponder })
    }
}

/// `id name <text>` or `id author <text>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IdLine {
    Name(String),
    Author(String),
}

impl fmt::Display for IdLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IdLine::Name(n) => write!(f, "id name {n}"),
            IdLine::Author(a) => write!(f, "id author {a}"),
        }
    }
}

impl FromStr for IdLine {
    type Err = NotA;

    fn from_str(line: &str) -> Result<IdLine, NotA> {
        let rest = line
            .trim()
            .strip_prefix("id ")
            .ok_or(NotA("an id"))?
            .trim_start();
        let (key, text) = rest.split_once(' ').unwrap_or((rest, ""));
        match key {
            "name" => Ok(IdLine::Name(text.trim().to_string())),
            "author" => Ok(IdLine::Author(text.trim().to_string())),
            _ => Err(NotA("an id")),
        }
    }
}

/// `response <answer>`: the answer to a `query` (see protocol.md, "query"); an empty answer
/// (no legal moves) is the bare word `response`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryResponse(pub String);

impl fmt::Display for QueryResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("response")?;
        if !self.0.is_empty() {
            write!(f, " {}", self.0)?;
        }
        Ok(())
    }
}

impl FromStr for QueryResponse {
    type Err = NotA;

    fn from_str(line: &str) -> Result<QueryResponse, NotA> {
        let line = line.trim();
        let answer = match line.strip_prefix("response") {
            Some(rest) if rest.is_empty() || rest.starts_with(' ') => rest.trim(),
            _ => return Err(NotA("a response")),
        };
        Ok(QueryResponse(answer.to_string()))
    }
}

/// `option name <name> type <kind> ...`: an option the engine offers after `uci`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionLine {
    /// The name as written (it may hold spaces: `Move Overhead`).
    pub name: String,
    pub kind: OptionKind,
}

/// The UCI option types with their values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Check { default: bool },
    Spin { default: i64, min: i64, max: i64 },
    Combo { default: String, vars: Vec<String> },
    Button,
    String { default: String },
}

impl fmt::Display for OptionLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            OptionKind::Check { default } => write!(f, "check default {default}"),
            OptionKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            OptionKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                vars.iter().try_for_each(|v| write!(f, " var {v}"))
            }
            OptionKind::Button => f.write_str("button"),
            OptionKind::String { default } => write!(f, "string default {default}"),
        }
    }
}

impl FromStr for OptionLine {
    type Err = String;

    /// Reads an engine's option line, as UCI lays it out: the name is every word between
    /// `name` and `type`; after the type, `default`, `min`, `max` and each `var` take the
    /// words up to the next of those keys. The error says what is wrong, naming the option.
    fn from_str(line: &str) -> Result<OptionLine, String> {
        let rest = line
            .trim()
            .strip_prefix("option name ")
            .ok_or_else(|| format!("not an option line: '{line}'"))?;
        let words: Vec<&str> = rest.split_whitespace().collect();
        let type_at = words
            .iter()
            .position(|&w| w == "type")
            .filter(|&i| i > 0)
            .ok_or_else(|| format!("option without a name and a type: '{line}'"))?;
        let name = words[..type_at].join(" ");
        if type_at + 1 == words.len() {
            return Err(format!("'{}': expected a type after 'type'", line.trim()));
        }
        let fields = OptionFields::read(&words[type_at + 1..], OptionFields::KEYS);
        let kind = fields.kind(&name)?;
        Ok(OptionLine { name, kind })
    }
}

impl OptionLine {
    /// The name of the option an `option name ...` line offers. A line that breaks the option
    /// grammar still names its option (the words before ` type `), so that a client can set
    /// the options of an engine whose option lines are sloppy.
    pub fn name_in(line: &str) -> Option<String> {
        match line.parse::<OptionLine>() {
            Ok(o) => Some(o.name),
            Err(_) => {
                let rest = line.trim().strip_prefix("option name ")?;
                Some(
                    rest.split(" type ")
                        .next()
                        .unwrap_or(rest)
                        .trim()
                        .to_string(),
                )
            }
        }
    }
}

/// `param name <key> type <type> default <value> [min <n> max <n>] [var <word> ..]
/// [max_len <n>] label <words> help <words>`: a parameter of a game, as the `params` command
/// lists it (protocol.md, "params"); the type is a setting's [`Kind`] (check, spin, combo or
/// list). The label runs up to the word `help`, the help to the end of the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamLine {
    pub key: String,
    pub kind: ParamKind,
    pub label: String,
    pub help: String,
}

/// A [`Kind`] as a `param` line carries it (owned, so that a client can read one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamKind {
    Check {
        default: bool,
    },
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Combo {
        default: String,
        vars: Vec<String>,
    },
    /// `default` is empty when the parameter is absent unless given (written `<empty>`).
    List {
        default: Vec<i64>,
        min: i64,
        max: i64,
        max_len: usize,
    },
}

impl From<&ParamSpec> for ParamLine {
    fn from(spec: &ParamSpec) -> ParamLine {
        let kind = match spec.kind {
            Kind::Check { default } => ParamKind::Check { default },
            Kind::Spin { default, min, max } => ParamKind::Spin { default, min, max },
            Kind::Combo { default, vars } => ParamKind::Combo {
                default: default.to_string(),
                vars: vars.iter().map(|v| v.to_string()).collect(),
            },
            Kind::List {
                default,
                min,
                max,
                max_len,
            } => ParamKind::List {
                default: default.to_vec(),
                min,
                max,
                max_len,
            },
            // A game declares no buttons (games/mod.rs checks every spec).
            Kind::Button => unreachable!("a parameter is never a button"),
        };
        ParamLine {
            key: spec.key.to_string(),
            kind,
            label: spec.label.to_string(),
            help: spec.help.to_string(),
        }
    }
}

impl fmt::Display for ParamLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "param name {} type ", self.key)?;
        match &self.kind {
            ParamKind::Check { default } => write!(f, "check default {default}")?,
            ParamKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")?
            }
            ParamKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                vars.iter().try_for_each(|v| write!(f, " var {v}"))?
            }
            ParamKind::List {
                default,
                min,
                max,
                max_len,
            } => {
                let items: Vec<String> = default.iter().map(i64::to_string).collect();
                let default = if items.is_empty() {
                    EMPTY.to_string()
                } else {
                    items.join(",")
                };
                write!(
                    f,
                    "list default {default} min {min} max {max} max_len {max_len}"
                )?
            }
        }
        write!(f, " label {} help {}", self.label, self.help)
    }
}

/// How a `param` line writes an empty default (as Stockfish writes an empty string option).
const EMPTY: &str = "<empty>";

impl FromStr for ParamLine {
    type Err = String;

    /// Reads a `param` line as ply writes it; the error says what is wrong.
    fn from_str(line: &str) -> Result<ParamLine, String> {
        let bad = |what: &str| format!("{what}: '{}'", line.trim());
        let rest = line
            .trim()
            .strip_prefix("param name ")
            .ok_or_else(|| bad("not a param line"))?;
        let (head, help) = rest
            .split_once(" help ")
            .ok_or_else(|| bad("a param line without help"))?;
        let (head, label) = head
            .split_once(" label ")
            .ok_or_else(|| bad("a param line without a label"))?;
        let words: Vec<&str> = head.split_whitespace().collect();
        let (key, kind) = match words.as_slice() {
            [key, "type", kind @ ..] if !kind.is_empty() => (*key, kind),
            _ => return Err(bad("expected 'param name <key> type <type>'")),
        };
        let fields = OptionFields::read(kind, &["default", "min", "max", "var", "max_len"]);
        let kind = match fields.kind {
            "list" => ParamKind::List {
                default: match fields.get("default") {
                    Some(EMPTY) => Vec::new(),
                    Some(v) => v
                        .split(',')
                        .map(str::parse)
                        .collect::<Result<_, _>>()
                        .map_err(|_| bad("a list default of integers expected"))?,
                    None => return Err(bad("a list without a default")),
                },
                min: fields.number(key, "min")?,
                max: fields.number(key, "max")?,
                max_len: fields.number(key, "max_len")? as usize,
            },
            _ => match fields.kind(key)? {
                OptionKind::Check { default } => ParamKind::Check { default },
                OptionKind::Spin { default, min, max } => ParamKind::Spin { default, min, max },
                OptionKind::Combo { default, vars } => ParamKind::Combo { default, vars },
                _ => return Err(bad("a param is check, spin, combo or list")),
            },
        };
        Ok(ParamLine {
            key: key.to_string(),
            kind,
            label: label.trim().to_string(),
            help: help.trim().to_string(),
        })
    }
}

/// The words of an option (or param) line after `type`, split at its keys.
struct OptionFields<'a> {
    kind: &'a str,
    values: Vec<(&'a str, String)>,
}

impl<'a> OptionFields<'a> {
    /// An option line's keys.
    const KEYS: &'static [&'static str] = &["default", "min", "max", "var"];

    /// `words` after `type`: the type, then values each running up to the next of `keys`.
    fn read(words: &[&'a str], keys: &[&str]) -> OptionFields<'a> {
        let kind = words.first().copied().unwrap_or("");
        let mut values: Vec<(&str, String)> = Vec::new();
        for &w in words.iter().skip(1) {
            match values.last_mut() {
                _ if keys.contains(&w) => values.push((w, String::new())),
                Some((_, v)) if v.is_empty() => v.push_str(w),
                Some((_, v)) => {
                    v.push(' ');
                    v.push_str(w);
                }
                None => {}
            }
        }
        OptionFields { kind, values }
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.as_str())
    }

    fn number(&self, name: &str, key: &str) -> Result<i64, String> {
        self.get(key)
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("option {name}: spin without a numeric '{key}'"))
    }

    fn kind(&self, name: &str) -> Result<OptionKind, String> {
        Ok(match self.kind {
            "check" => match self.get("default") {
                Some("true") => OptionKind::Check { default: true },
                Some("false") => OptionKind::Check { default: false },
                v => {
                    return Err(format!(
                        "option {name}: check default {v:?}, expected true or false"
                    ));
                }
            },
            "spin" => OptionKind::Spin {
                default: self.number(name, "default")?,
                min: self.number(name, "min")?,
                max: self.number(name, "max")?,
            },
            "combo" => OptionKind::Combo {
                default: self
                    .get("default")
                    .ok_or_else(|| format!("option {name}: combo without a default"))?
                    .to_string(),
                vars: (self.values.iter())
                    .filter(|(k, _)| *k == "var")
                    .map(|(_, v)| v.clone())
                    .collect(),
            },
            "button" => OptionKind::Button,
            "string" => OptionKind::String {
                default: self.get("default").unwrap_or("").to_string(),
            },
            other => return Err(format!("option {name}: unknown type {other:?}")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ply_lines_round_trip() {
        for line in [
            "info depth 6 seldepth 6 score cp -4 nodes 2627 nps 1 time 0 hashfull 0 pv 4 4",
            "info depth 9 seldepth 9 score cp 0 nodes 45 nps 96153 time 0 tbhits 1 pv b2 a1",
            "info depth 3 seldepth 3 score mate 2 lowerbound nodes 10 nps 5 time 2 pv 1:3",
            "info depth 0 score mate 0 wdl 1000 0 0",
            "info depth 5 seldepth 9 multipv 2 score cp -31 nodes 812 nps 4 time 190 hashfull 1 pv e2e4",
            "info depth 0 score cp 0",
            "info string error go: cannot start a worker thread",
        ] {
            assert_eq!(line.parse::<InfoLine>().unwrap().to_string(), line);
        }
    }

    #[test]
    fn other_engines_lines_are_read_leniently() {
        let i: InfoLine = "info depth 7 multipv 1 score mate -3 nodes x pv depth 99"
            .parse()
            .unwrap();
        assert_eq!(i.depth, Some(7));
        assert_eq!(i.multipv, Some(1));
        assert_eq!(i.score.map(|s| s.score), Some(Score::Mate(-3)));
        assert_eq!(i.nodes, None);
        assert_eq!(i.pv, ["depth", "99"]);
        let i: InfoLine = "info string depth 50".parse().unwrap();
        assert_eq!((i.depth, i.string.as_deref()), (None, Some("depth 50")));
        let i: InfoLine = "info score cp".parse().unwrap();
        assert_eq!(i.score, None);
        assert_eq!("info depth".parse::<InfoLine>().unwrap().depth, None);
        assert_eq!("bestmove e2e4".parse::<InfoLine>(), Err(NotInfo));
    }

    #[test]
    fn bestmove_lines_read_and_write() {
        for line in ["bestmove e2e4 ponder e7e5", "bestmove (none)", "bestmove 4"] {
            let b: BestMove = line.parse().unwrap();
            assert_eq!(b.to_string(), line);
        }
        let b: BestMove = "bestmove e2e4 ponder e7e5".parse().unwrap();
        assert_eq!(
            (b.mv.as_deref(), b.ponder.as_deref()),
            (Some("e2e4"), Some("e7e5"))
        );
        let none: BestMove = "bestmove".parse().unwrap();
        assert_eq!((none.text(), &none.mv), ("(none)", &None));
        // A null move is a move as far as the line goes; the referee's rules refuse it.
        let null: BestMove = "bestmove 0000".parse().unwrap();
        assert_eq!(null.mv.as_deref(), Some("0000"));
        assert!("info bestmove e2e4".parse::<BestMove>().is_err());
        assert!("bestmoves e2e4".parse::<BestMove>().is_err());
    }

    #[test]
    fn id_and_query_responses_read_and_write() {
        for line in ["id name Stockfish 15.1", "id author the ply developers"] {
            assert_eq!(line.parse::<IdLine>().unwrap().to_string(), line);
        }
        assert_eq!("id name".parse(), Ok(IdLine::Name(String::new())));
        assert!("id nickname x".parse::<IdLine>().is_err());
        assert_eq!("response true".parse(), Ok(QueryResponse("true".into())));
        assert_eq!(
            "response 1 2 3"
                .parse::<QueryResponse>()
                .unwrap()
                .to_string(),
            "response 1 2 3"
        );
        assert!("responses x".parse::<QueryResponse>().is_err());
        assert_eq!("response".parse(), Ok(QueryResponse(String::new())));
        assert_eq!(QueryResponse(String::new()).to_string(), "response");
    }

    #[test]
    fn param_lines_read_and_write() {
        for line in [
            "param name width type spin default 7 min 1 max 63 label Width help Columns; the board needs width × (height + 1) ≤ 64.",
            "param name misere type check default false label Misère help Whoever takes the last object loses.",
            "param name heaps type list default <empty> min 1 max 50000 max_len 16 label Heaps help Several heaps.",
            "param name sizes type list default 3,4 min 1 max 9 max_len 2 label Heap sizes help Two heaps, with a default min and max.",
            "param name rules type combo default english var english var russian label Rules help Which draughts.",
        ] {
            let p: ParamLine = line.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(p.to_string(), line);
        }
        let p: ParamLine = "param name sizes type list default 3,4 min 1 max 9 max_len 2 label Heap sizes help Two heaps, with a default min and max."
            .parse()
            .unwrap();
        assert_eq!((p.key.as_str(), p.label.as_str()), ("sizes", "Heap sizes"));
        assert_eq!(
            p.kind,
            ParamKind::List {
                default: vec![3, 4],
                min: 1,
                max: 9,
                max_len: 2
            }
        );
        for bad in [
            "param width type spin",
            "param name width type spin default 7 min 1 max 63 label Width",
            "param name width type spin default 7 min 1 max 63 help Columns",
            "param name x type button label X help Y",
            "param name x type list default a min 1 max 2 max_len 1 label X help Y",
            "param name type label X help Y",
        ] {
            assert!(bad.parse::<ParamLine>().is_err(), "{bad}");
        }
    }

    #[test]
    fn option_lines_read_and_write() {
        for line in [
            "option name Move Overhead type spin default 10 min 0 max 5000",
            "option name UCI_Variant type combo default chess var chess var giveaway",
            "option name Clear Hash type button",
            "option name Ponder type check default false",
            "option name EvalFile type string default nn-ad9b42354671.nnue",
        ] {
            let o: OptionLine = line.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(o.to_string(), line);
        }
        let o: OptionLine = "option name Move Overhead type spin default 10 min 0 max 5000"
            .parse()
            .unwrap();
        assert_eq!(o.name, "Move Overhead");
        assert_eq!(
            o.kind,
            OptionKind::Spin {
                default: 10,
                min: 0,
                max: 5000
            }
        );
        let combo: OptionLine =
            "option name Style type combo default Solid Play var Risky var Solid Play"
                .parse()
                .unwrap();
        assert_eq!(
            combo.kind,
            OptionKind::Combo {
                default: "Solid Play".into(),
                vars: vec!["Risky".into(), "Solid Play".into()]
            }
        );
        assert_eq!(
            OptionLine::name_in("option name Skill Level type slider"),
            Some("Skill Level".into())
        );
        assert_eq!(OptionLine::name_in("info string x"), None);
        let empty: OptionLine = "option name SyzygyPath type string default"
            .parse()
            .unwrap();
        assert_eq!(
            empty.kind,
            OptionKind::String {
                default: String::new()
            }
        );
        for bad in [
            "option Hash",
            "option name type spin",
            "option name Broken type",
            "option name P type check default maybe",
            "option name H type spin default x min 1 max 2",
            "option name X type slider",
            "option name V type combo var a",
        ] {
            assert!(bad.parse::<OptionLine>().is_err(), "{bad}");
        }
    }
}
