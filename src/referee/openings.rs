//! Openings: where each game of a match starts.
//!
//! An openings file has one opening a line, `startpos [moves m1 m2 ..]` or
//! `fen <position> [moves m1 m2 ..]` (a leading `position` is allowed, so lines can be cut
//! from a protocol log); blank lines and lines starting with `#` are skipped. Openings are
//! used in file order, or shuffled with the match seed (a new shuffle each time the list is
//! used up), and each may be followed by random plies. The opening of game `i` depends only
//! on `i`, the seed and the file — not on which worker plays it or when — so a resumed match
//! plays exactly the games the interrupted one would have.

use serde::{Deserialize, Serialize};

use crate::game::{Game, play_moves};
use crate::util::Rng;

/// A start position (`fen: None` is the game's start) and moves from it, in ply's notation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opening {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    #[serde(default)]
    pub moves: Vec<String>,
}

impl Opening {
    /// Reads one line; `None` for blank and comment lines.
    pub fn parse_line(line: &str) -> Option<Result<Opening, String>> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return None;
        }
        let mut words: Vec<&str> = line.split_whitespace().collect();
        if words.first() == Some(&"position") {
            words.remove(0);
        }
        let moves_at = words.iter().position(|&w| w == "moves");
        let (head, moves) = match moves_at {
            Some(i) => (&words[..i], &words[i + 1..]),
            None => (&words[..], &[][..]),
        };
        let moves = moves.iter().map(|m| m.to_string()).collect();
        Some(match head {
            ["startpos"] => Ok(Opening { fen: None, moves }),
            ["fen", fen @ ..] if !fen.is_empty() => Ok(Opening {
                fen: Some(fen.join(" ")),
                moves,
            }),
            _ => Err(format!(
                "'{line}': expected 'startpos [moves ..]' or 'fen <position> [moves ..]'"
            )),
        })
    }

    /// The position this opening reaches from the game's start `start`, checked by the
    /// rules; an opening that already ends the game is refused.
    pub fn resolve<G: Game>(&self, start: &G) -> Result<G, String> {
        let base = match &self.fen {
            None => start.clone(),
            Some(fen) => start
                .from_fen(fen)
                .map_err(|e| format!("fen '{fen}': {e}"))?,
        };
        let moves: Vec<&str> = self.moves.iter().map(String::as_str).collect();
        let pos = play_moves(&base, &moves)
            .map_err(|(i, e)| format!("move {} '{}': {e}", i + 1, moves[i]))?;
        if let Some(o) = pos.outcome() {
            return Err(format!("the game is already over ({})", o.protocol_name()));
        }
        Ok(pos)
    }

    /// The opening as one protocol-style line.
    pub fn describe(&self) -> String {
        let mut s = match &self.fen {
            None => "startpos".to_string(),
            Some(f) => format!("fen {f}"),
        };
        if !self.moves.is_empty() {
            s.push_str(" moves ");
            s.push_str(&self.moves.join(" "));
        }
        s
    }
}

/// Reads and checks an openings file against the rules of `start`'s game.
pub fn load<G: Game>(text: &str, start: &G) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if let Some(parsed) = Opening::parse_line(line) {
            let o = parsed.map_err(|e| format!("line {}: {e}", n + 1))?;
            o.resolve(start)
                .map_err(|e| format!("line {}: {e}", n + 1))?;
            out.push(o);
        }
    }
    if out.is_empty() {
        return Err("the openings file has no openings".into());
    }
    Ok(out)
}

/// The kinds of openings file: ply's own lines (above), EPD (chess positions, one a line) or
/// PGN (chess games, whose main lines are the openings; see [`super::pgn`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OpeningsFormat {
    Ply,
    Epd,
    Pgn,
}

impl OpeningsFormat {
    /// The format a file's name says: `.epd`, `.pgn`, else ply's lines.
    pub fn of_path(path: &std::path::Path) -> OpeningsFormat {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        match ext.to_ascii_lowercase().as_str() {
            "epd" => OpeningsFormat::Epd,
            "pgn" => OpeningsFormat::Pgn,
            _ => OpeningsFormat::Ply,
        }
    }
}

/// Reads and checks an openings file of `format` against the rules of `start`'s game;
/// `max_plies` cuts each PGN game's line. EPD and PGN are chess's notations: the caller
/// checks the game ([`super::pgn::supports`]).
pub fn load_as<G: Game>(
    text: &str,
    format: OpeningsFormat,
    start: &G,
    max_plies: Option<usize>,
) -> Result<Vec<Opening>, String> {
    let numbered: Vec<(String, Opening)> = match format {
        OpeningsFormat::Ply => return load(text, start),
        OpeningsFormat::Epd => read_epd(text)?,
        OpeningsFormat::Pgn => (super::pgn::read_openings(text, max_plies)?.into_iter())
            .enumerate()
            .map(|(i, o)| (format!("game {}", i + 1), o))
            .collect(),
    };
    for (at, o) in &numbered {
        o.resolve(start).map_err(|e| format!("{at}: {e}"))?;
    }
    if numbered.is_empty() {
        return Err("the openings file has no openings".into());
    }
    Ok(numbered.into_iter().map(|(_, o)| o).collect())
}

/// EPD lines: the first four fields of a FEN (placement, side, castling, en passant), then
/// operations (`bm Nf3; id "x";`) of which only `hmvc` and `fmvn` are read, as the FEN's
/// clocks (`0 1` without them). Blank lines and lines starting with `#` are skipped. Each
/// opening comes with its place (`line n`).
fn read_epd(text: &str) -> Result<Vec<(String, Opening)>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = format!("line {}", n + 1);
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < 4 {
            return Err(format!(
                "{at}: '{line}': an EPD line starts with four FEN fields"
            ));
        }
        // The operations follow the four FEN fields, each ended by `;`.
        let operations = fields[4..].join(" ");
        let operation = |name: &str| {
            operations.split(';').find_map(|op| {
                let mut words = op.split_whitespace();
                (words.next() == Some(name)).then(|| words.next().map(str::to_string))
            })?
        };
        // A full FEN's clocks, where the line has them, else the operations', else `0 1`.
        let clocks = (fields.len() >= 6)
            .then(|| (fields[4], fields[5]))
            .filter(|(h, f)| h.parse::<u32>().is_ok() && f.parse::<u32>().is_ok());
        let (halfmove, fullmove) = match clocks {
            Some((h, f)) => (h.to_string(), f.to_string()),
            None => (
                operation("hmvc").unwrap_or_else(|| "0".into()),
                operation("fmvn").unwrap_or_else(|| "1".into()),
            ),
        };
        let fen = format!("{} {halfmove} {fullmove}", fields[..4].join(" "));
        let opening = Opening {
            fen: Some(fen),
            moves: Vec::new(),
        };
        out.push((at, opening));
    }
    Ok(out)
}

/// Where the games of a match start.
#[derive(Clone, Debug)]
pub struct Book {
    /// Empty: every game starts from the start position (plus random plies).
    pub openings: Vec<Opening>,
    pub shuffle: bool,
    pub seed: u64,
    pub random_plies: u32,
    /// The shuffled order of the last cycle through `openings`, with its cycle number.
    cached: Option<(u64, Vec<usize>)>,
}

fn mix(seed: u64, salt: u64, n: u64) -> u64 {
    Rng::new(seed ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ n.rotate_left(32)).next_u64()
}

impl Book {
    pub fn new(openings: Vec<Opening>, shuffle: bool, seed: u64, random_plies: u32) -> Book {
        Book {
            openings,
            shuffle,
            seed,
            random_plies,
            cached: None,
        }
    }

    /// The `k`-th opening (with `--repeat`, both games of pair `k` use opening `k`).
    pub fn opening<G: Game>(&mut self, start: &G, k: u64) -> Opening {
        let mut opening = if self.openings.is_empty() {
            Opening::default()
        } else {
            let len = self.openings.len() as u64;
            let (cycle, at) = (k / len, (k % len) as usize);
            let index = if self.shuffle {
                if self.cached.as_ref().map(|c| c.0) != Some(cycle) {
                    let mut order: Vec<usize> = (0..self.openings.len()).collect();
                    Rng::new(mix(self.seed, 1, cycle)).shuffle(&mut order);
                    self.cached = Some((cycle, order));
                }
                self.cached.as_ref().expect("just filled").1[at]
            } else {
                at
            };
            self.openings[index].clone()
        };
        if self.random_plies > 0 {
            let base = opening
                .resolve(start)
                .expect("openings are checked when loaded");
            let mut rng = Rng::new(mix(self.seed, 2, k));
            opening
                .moves
                .extend(random_plies(&base, self.random_plies, &mut rng));
        }
        opening
    }
}

/// Up to `plies` random legal moves from `pos` that do not end the game; when every try
/// ends it early, the longest line found that leaves the game open.
pub fn random_plies<G: Game>(pos: &G, plies: u32, rng: &mut Rng) -> Vec<String> {
    let mut best: Vec<String> = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..64 {
        let mut p = pos.clone();
        let mut line = Vec::new();
        for _ in 0..plies {
            moves.clear();
            p.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            let mut next = p.clone();
            next.play(mv);
            if next.outcome().is_some() {
                break;
            }
            line.push(p.format_move(mv));
            p = next;
        }
        if line.len() == plies as usize {
            return line;
        }
        if line.len() > best.len() {
            best = line;
        }
    }
    best
}

#[cfg(test)]
mod epd_tests {
    use super::*;
    use crate::games::Chess;

    #[test]
    fn epd_lines_are_positions_with_their_clocks() {
        let text = "# balanced\n\
            rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 bm e5; id \"e4\";\n\
            \n\
            4k3/8/8/8/8/8/4P3/4K3 w - - hmvc 7; fmvn 42;\n\
            4k3/8/8/8/8/8/4P3/4K3 w - - 3 9\n";
        let o = load_as(text, OpeningsFormat::Epd, &Chess::default(), None).unwrap();
        let fens: Vec<&str> = o.iter().map(|o| o.fen.as_deref().unwrap()).collect();
        assert_eq!(
            fens,
            [
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
                "4k3/8/8/8/8/8/4P3/4K3 w - - 7 42",
                "4k3/8/8/8/8/8/4P3/4K3 w - - 3 9"
            ]
        );
        let e = load_as("8/8/8/8 w\n", OpeningsFormat::Epd, &Chess::default(), None);
        assert!(e.unwrap_err().starts_with("line 1:"));
        let e = load_as(
            "\n4k3/8/8/8/8/8/8/4K3 w - -\n",
            OpeningsFormat::Epd,
            &Chess::default(),
            None,
        );
        assert!(
            e.unwrap_err().starts_with("line 2:"),
            "a dead position is no opening"
        );
        assert_eq!(
            OpeningsFormat::of_path(std::path::Path::new("x/Book.PGN")),
            OpeningsFormat::Pgn
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Params;
    use crate::games::{Connect4, TicTacToe};

    #[test]
    fn parses_lines() {
        assert!(Opening::parse_line("  ").is_none());
        assert!(Opening::parse_line("# c").is_none());
        assert_eq!(
            Opening::parse_line("startpos moves 4 4").unwrap().unwrap(),
            Opening {
                fen: None,
                moves: vec!["4".into(), "4".into()]
            }
        );
        assert_eq!(
            Opening::parse_line("position fen x../.../... o moves b2")
                .unwrap()
                .unwrap(),
            Opening {
                fen: Some("x../.../... o".into()),
                moves: vec!["b2".into()]
            }
        );
        assert!(Opening::parse_line("fen").unwrap().is_err());
        assert!(Opening::parse_line("moves 4").unwrap().is_err());
    }

    #[test]
    fn load_checks_every_line() {
        let start = TicTacToe::new(&Params::new()).unwrap();
        let ok = load("startpos moves b2\n\nfen x../.../... o\n", &start).unwrap();
        assert_eq!(ok.len(), 2);
        let e = load("startpos moves b2\nstartpos moves b2 b2\n", &start).unwrap_err();
        assert!(e.starts_with("line 2"), "{e}");
        let e = load("startpos moves a1 b1 a2 b2 a3\n", &start).unwrap_err();
        assert!(e.contains("already over"), "{e}");
    }

    #[test]
    fn openings_depend_only_on_their_number() {
        let start = Connect4::new(&Params::new()).unwrap();
        let list: Vec<Opening> = (1..=7)
            .map(|c| Opening {
                fen: None,
                moves: vec![c.to_string()],
            })
            .collect();
        let mut a = Book::new(list.clone(), true, 7, 3);
        let mut b = Book::new(list, true, 7, 3);
        let forward: Vec<Opening> = (0..20).map(|k| a.opening(&start, k)).collect();
        let backward: Vec<Opening> = (0..20).rev().map(|k| b.opening(&start, k)).collect();
        assert!(forward.iter().eq(backward.iter().rev()));
        // Each cycle uses every opening once.
        let mut firsts: Vec<String> = forward[..7].iter().map(|o| o.moves[0].clone()).collect();
        firsts.sort();
        assert_eq!(firsts, ["1", "2", "3", "4", "5", "6", "7"]);
        for o in &forward {
            assert_eq!(o.moves.len(), 4);
            o.resolve(&start).unwrap();
        }
    }
}
