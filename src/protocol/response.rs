//! The engine's `info` line as a type: the session prints it with `Display`, and the referee,
//! its compliance check and the tests read any engine's with `FromStr` (see protocol.md,
//! "info").
//!
//! Reading follows UCI's rule for a GUI: unknown keys are skipped, and a known key whose value
//! does not parse is ignored, so a line never fails to read as long as it is an `info` line.

use std::fmt;
use std::str::FromStr;

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

/// The move of a `bestmove <move> [ponder <move>]` line (`(none)` included), or `None` for
/// any other line.
pub fn bestmove(line: &str) -> Option<&str> {
    let mut words = line.split_whitespace();
    match (words.next(), words.next()) {
        (Some("bestmove"), Some(mv)) => Some(mv),
        _ => None,
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
        assert_eq!(bestmove("bestmove e2e4 ponder e7e5"), Some("e2e4"));
        assert_eq!(bestmove("bestmove"), None);
    }
}
