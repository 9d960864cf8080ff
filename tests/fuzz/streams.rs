//! Random command streams: valid commands of every game, hostile numbers and words, garbage
//! bytes, and mutations of all of them, from a seed.
//!
//! Every search a stream can start is bounded (a small depth with a node limit, a node
//! limit, a short movetime or a small clock), or unlimited (`go infinite`, a bare `go`),
//! which the end of input stops; perfts and benches are shallow. Mutations never touch
//! `go` and `bench` lines, except to append a bound, so a stream always ends. The generator
//! knows nothing of the engine's internals: it writes bytes, and the checker judges the
//! answers by protocol.md alone.

use ply::game::{Game, Params, play_moves};
use ply::util::Rng;

/// One stream: its lines (without line endings) and how to send them.
pub struct Stream {
    pub lines: Vec<Vec<u8>>,
    /// Indices of `[d, X, d]` triples: X is a command that may fail, framed by two `d`s.
    pub triples: Vec<usize>,
    /// Sleep this many milliseconds after line `i` (paced streams): `(i, ms)`.
    pub pauses: Vec<(usize, u64)>,
    /// The line ending to send (`\n` or `\r\n`).
    pub crlf: bool,
}

/// A game as the generator tracks it: its `newgame` words and the moves played since.
#[derive(Clone)]
struct Model {
    name: &'static str,
    params: Vec<String>,
    moves: Vec<String>,
    /// A fen the last `position fen` set, when moves are counted from it.
    fen: Option<String>,
}

impl Model {
    /// The legal moves of the tracked position (by ply's own rules), or none when the
    /// tracked position is not one the rules accept.
    fn legal_moves(&self) -> Vec<String> {
        fn moves<G: Game>(m: &Model) -> Option<Vec<String>> {
            let pos = m.position::<G>()?;
            let mut legal = Vec::new();
            pos.legal_moves(&mut legal);
            Some(legal.into_iter().map(|mv| pos.format_move(mv)).collect())
        }
        ply::with_game!(self.name, G => moves::<G>(self), _ => None).unwrap_or_default()
    }

    /// The tracked position by ply's own rules, if they accept it.
    fn position<G: Game>(&self) -> Option<G> {
        let params = Params::parse(self.params.iter().map(String::as_str)).ok()?;
        let start = G::new(&params).ok()?;
        let base = match &self.fen {
            Some(f) => start.from_fen(f).ok()?,
            None => start,
        };
        play_moves(&base, &self.moves).ok()
    }

    fn fen(&self) -> Option<String> {
        fn fen<G: Game>(m: &Model) -> Option<String> {
            Some(m.position::<G>()?.fen())
        }
        ply::with_game!(self.name, G => fen::<G>(self), _ => None)
    }
}

pub struct Gen {
    rng: Rng,
    model: Model,
    /// False once a `newgame` or `setoption` line was mutated: the engine may then play
    /// another game than the model (a mutated line may still be a valid command).
    sure: bool,
}

/// Numbers a hostile client sends.
const HOSTILE_NUMBERS: &[&str] = &[
    "0",
    "-0",
    "-1",
    "+5",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "9223372036854775807",
    "-9223372036854775808",
    "99999999999999999999999999",
    "1e9",
    "0x10",
    "3.5",
    "",
    "NaN",
    "٣",
];

/// Words and bytes mutations insert.
const INSERTS: &[&[u8]] = &[
    b"\x00",
    b"\xff",
    b"\xc3",
    b"\xe2\x82",
    b"\r",
    b"\t",
    b" ",
    b"  ",
    "é".as_bytes(),
    "中".as_bytes(),
    "\u{FFFD}".as_bytes(),
    b"-",
    b"9",
    b"99999999999999999999",
    b"moves",
    b"value",
    b"name",
    b"fen",
    b"startpos",
    b"=",
    b",",
    b"/",
    b":",
    b"\x1b[31m",
];

impl Gen {
    pub fn new(seed: u64) -> Gen {
        Gen {
            rng: Rng::new(seed),
            model: Model {
                name: "tictactoe",
                params: Vec::new(),
                moves: Vec::new(),
                fen: None,
            },
            sure: true,
        }
    }

    fn below(&mut self, n: usize) -> usize {
        self.rng.below(n)
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    fn hostile(&mut self) -> String {
        self.pick(HOSTILE_NUMBERS).to_string()
    }

    /// A stream of about `len` lines; `paced` streams pause now and then.
    pub fn stream(&mut self, len: usize, paced: bool) -> Stream {
        self.model = Model {
            name: "tictactoe",
            params: Vec::new(),
            moves: Vec::new(),
            fen: None,
        };
        self.sure = true;
        let mut s = Stream {
            lines: Vec::new(),
            triples: Vec::new(),
            pauses: Vec::new(),
            crlf: self.chance(10),
        };
        if self.chance(70) {
            s.lines.push(b"uci".to_vec());
        }
        while s.lines.len() < len {
            let r = self.below(1000);
            if r < 40 {
                // A failing (or not) command framed by `d`s: its failure must change nothing.
                s.triples.push(s.lines.len());
                s.lines.push(b"d".to_vec());
                let x = self.fallible();
                s.lines.push(x);
                s.lines.push(b"d".to_vec());
            } else {
                let line = self.line();
                s.lines.push(line);
            }
            if paced && self.chance(3) {
                s.pauses
                    .push((s.lines.len() - 1, 1 + self.below(20) as u64));
            }
        }
        if self.chance(10) {
            s.lines.push(b"quit".to_vec());
            if self.chance(30) {
                // Lines after quit are never read as commands.
                let line = self.line();
                s.lines.push(line);
            }
        }
        s
    }

    /// One line of any kind.
    fn line(&mut self) -> Vec<u8> {
        match self.below(1000) {
            0..=179 => self.position(),
            180..=259 => self.query(),
            260..=339 => self.go(),
            340..=359 => self.perft(),
            360..=364 => self.bench(),
            365..=439 => self.newgame(),
            440..=509 => self.setoption(),
            510..=569 => self.simple(),
            570..=619 => self.garbage(),
            _ => {
                // A mutation of a valid line (go and bench lines keep a bound).
                let base = match self.below(6) {
                    0 => self.position(),
                    1 => {
                        let line = self.newgame();
                        self.sure = false;
                        line
                    }
                    2 => {
                        let line = self.setoption();
                        self.sure = false;
                        line
                    }
                    3 => self.query(),
                    4 => self.simple(),
                    _ => {
                        let mut g = self.go();
                        self.mutate(&mut g);
                        g.extend_from_slice(b" nodes 3000 movetime 30");
                        return g;
                    }
                };
                let mut line = base;
                for _ in 0..1 + self.below(3) {
                    self.mutate(&mut line);
                }
                line
            }
        }
    }

    /// A command that changes state or fails: position, newgame, setoption, or garbage.
    fn fallible(&mut self) -> Vec<u8> {
        let kind = self.below(4);
        let mut line = match kind {
            0 => self.position(),
            1 => self.newgame(),
            2 => self.setoption(),
            _ => self.query(),
        };
        if self.chance(60) {
            self.mutate(&mut line);
            if kind == 1 || kind == 2 {
                self.sure = false;
            }
        }
        // Never a job, never `quit`, never a `d`: the triple must frame exactly one command.
        let (a, b) = (first_word(&line, false), first_word(&line, true));
        let jobs = ["go", "bench", "quit", "d", "stop", "isready", "uci"];
        if jobs.contains(&a.as_str()) || jobs.contains(&b.as_str()) {
            return b"position startpos moves 0".to_vec();
        }
        line
    }

    fn simple(&mut self) -> Vec<u8> {
        let w = *self.pick(&[
            "isready",
            "isready",
            "isready",
            "uci",
            "ucinewgame",
            "stop",
            "ponderhit",
            "d",
            "params",
            "params Connect4",
            "params draughts",
            "",
            "   \t ",
            "xyzzy plugh",
            "goo depth 3",
            "Go depth 3",
            "register later",
            "debug on",
            "quitx",
        ]);
        if w == "ucinewgame" {
            self.model.moves.clear();
            self.model.fen = None;
        }
        w.as_bytes().to_vec()
    }

    fn garbage(&mut self) -> Vec<u8> {
        let len = match self.below(100) {
            0 => 50_000 + self.below(200_000),
            1..=10 => 200 + self.below(2000),
            _ => self.below(60),
        };
        (0..len)
            .map(|_| {
                let b = self.below(256) as u8;
                if b == b'\n' { b'?' } else { b }
            })
            .collect()
    }

    fn newgame(&mut self) -> Vec<u8> {
        let (name, params): (&'static str, Vec<String>) = match self.below(5) {
            0 => ("tictactoe", vec![]),
            1 => {
                let (w, h) = *self.pick(&[
                    (7, 6),
                    (7, 6),
                    (7, 6),
                    (8, 7),
                    (4, 4),
                    (5, 4),
                    (9, 5),
                    (6, 8),
                    (1, 1),
                    (3, 2),
                ]);
                let mut p = vec![];
                if (w, h) != (7, 6) || self.chance(20) {
                    p.push(format!("width={w}"));
                    p.push(format!("height={h}"));
                }
                ("connect4", p)
            }
            2 => {
                let mut p = vec![];
                if self.chance(40) {
                    p.push(format!("length={}", 1 + self.below(40)));
                } else {
                    let n = 2 + self.below(4);
                    let heaps: Vec<String> =
                        (0..n).map(|_| (1 + self.below(12)).to_string()).collect();
                    p.push(format!("heaps={}", heaps.join(",")));
                }
                if self.chance(70) {
                    p.push(format!("max={}", 1 + self.below(6)));
                }
                if self.chance(30) {
                    p.push(format!("misere={}", self.chance(50)));
                }
                ("nim", p)
            }
            3 => {
                let mut p = vec![];
                if self.chance(25) {
                    p.push("chess960=true".to_string());
                    if self.chance(70) {
                        p.push(format!("start={}", self.below(960)));
                    }
                } else if self.chance(10) {
                    p.push("chess960=false".to_string());
                }
                ("chess", p)
            }
            _ => {
                let mut p = vec![];
                if self.chance(30) {
                    p.push(format!("advanced={}", self.chance(50)));
                }
                if self.chance(20) {
                    p.push(format!("centre={}", self.chance(50)));
                }
                ("teeko", p)
            }
        };
        let mut words = params.clone();
        // Hostile parameters now and then (the command then fails and changes nothing).
        let hostile = self.chance(15);
        if hostile {
            let bad = match self.below(6) {
                0 => format!("width={}", self.hostile()),
                1 => format!("heaps={},{}", self.hostile(), self.hostile()),
                2 => "colour=red".to_string(),
                3 => "width".to_string(),
                4 if name == "chess" => format!("start={}", self.hostile()),
                4 => "max=3 max=3".to_string(),
                _ => format!("length={}", self.hostile()),
            };
            words.push(bad);
        }
        let game = if self.chance(5) {
            self.pick(&["Chess", "Connect4", "TEEKO", "", "nim9", "chess960"])
                .to_string()
        } else {
            name.to_string()
        };
        if !hostile && game == name {
            self.sure = true;
            self.model = Model {
                name,
                params,
                moves: Vec::new(),
                fen: None,
            };
        } else if game != name {
            // A name spelt otherwise ("Chess", "chess960") may still name a game the engine
            // accepts, so the model no longer knows which game the engine plays.
            self.sure = false;
        }
        format!("newgame {game} {}", words.join(" ")).into_bytes()
    }

    fn position(&mut self) -> Vec<u8> {
        if self.chance(12) {
            // Refused: the engine keeps its position, and so does the model.
            let text = match self.below(7) {
                0 => format!("{} zz", self.position_text(&self.model.clone(), true)),
                6 => format!(
                    "position fen {}",
                    self.pick(&[
                        "8/8/8/8/8/8/8/8 w - - 0 1",
                        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1",
                        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 99999999999",
                        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                        "kkkkkkkk/8/8/8/8/8/8/KKKKKKKK w - - 0 1",
                        "4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1",
                        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1",
                    ])
                ),
                1 => format!("position fen {}", self.hostile()),
                2 => "position startpos 4 4".to_string(),
                3 => "position fen moves 4".to_string(),
                4 => "position".to_string(),
                _ => format!("position startpos moves {}", "1 ".repeat(self.below(2000))),
            };
            return text.into_bytes();
        }
        let mut next = self.model.clone();
        let legal = next.legal_moves();
        if !legal.is_empty() && self.chance(70) {
            // The tracked position plus a move or two, as a referee sends it.
            for _ in 0..1 + self.below(2) {
                let legal = next.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let mv = self.pick(&legal).clone();
                next.moves.push(mv);
            }
        } else if self.chance(50) {
            next.moves.clear();
            next.fen = None;
        } else if let Some(f) = next.fen() {
            next.fen = Some(f);
            next.moves.clear();
        }
        let with_moves = !next.moves.is_empty() || self.chance(10);
        let text = self.position_text(&next, with_moves);
        self.model = next;
        text.into_bytes()
    }

    fn position_text(&self, m: &Model, with_moves: bool) -> String {
        let mut text = match &m.fen {
            Some(f) => format!("position fen {f}"),
            None => "position startpos".to_string(),
        };
        if with_moves {
            text.push_str(" moves");
            for mv in &m.moves {
                text.push(' ');
                text.push_str(mv);
            }
        }
        text
    }

    fn query(&mut self) -> Vec<u8> {
        let q = match self.below(10) {
            0 => "gameover".to_string(),
            1 => "result".to_string(),
            2 => "sidetomove".to_string(),
            3 => "p1turn".to_string(),
            4 => "legalmoves".to_string(),
            5 => "fen".to_string(),
            6 => {
                let legal = self.model.legal_moves();
                let m = if !legal.is_empty() && self.chance(50) {
                    self.pick(&legal).clone()
                } else {
                    self.hostile()
                };
                format!("islegal {m}")
            }
            7 => "islegal".to_string(),
            8 => String::new(),
            _ => "colour".to_string(),
        };
        format!("query {q}").into_bytes()
    }

    fn setoption(&mut self) -> Vec<u8> {
        let text = match self.below(12) {
            0 => format!("setoption name Hash value {}", 1 + self.below(64)),
            1 => format!(
                "setoption name Hash value {}",
                self.pick(&["65537", "0", "-1", "18446744073709551616", "2 MiB", "64"])
            ),
            2 => format!("setoption name Threads value {}", 1 + self.below(3)),
            3 => format!("setoption name Threads value {}", self.hostile()),
            4 => format!(
                "setoption name UseSolver value {}",
                self.pick(&["true", "false", "TRUE", "maybe", ""])
            ),
            5 => format!("setoption name Move Overhead value {}", self.below(60)),
            6 => format!("setoption name Move Overhead value {}", self.hostile()),
            7 => "setoption name Clear Hash".to_string(),
            8 => format!(
                "setoption name UCI_Variant value {}",
                self.pick(&["tictactoe", "connect4", "nim", "teeko", "chess", ""])
            ),
            9 => "setoption name".to_string(),
            10 => "setoption".to_string(),
            _ => "setoption name Colour value red".to_string(),
        };
        if text.starts_with("setoption name UCI_Variant value ") {
            let v = text.rsplit(' ').next().unwrap_or("");
            if let Some(&name) = ["tictactoe", "connect4", "nim", "teeko", "chess"]
                .iter()
                .find(|&&n| n == v)
            {
                self.sure = true;
                self.model = Model {
                    name,
                    params: Vec::new(),
                    moves: Vec::new(),
                    fen: None,
                };
            }
        }
        text.into_bytes()
    }

    /// A `go` that ends by itself (or that the end of input stops).
    fn go(&mut self) -> Vec<u8> {
        let deep = match self.model.name {
            "teeko" | "chess" => 3,
            "tictactoe" => 9,
            _ => 5,
        };
        let text = match self.below(20) {
            0 => "go infinite".to_string(),
            1 => "go".to_string(),
            2 => format!("go depth {}", 1 + self.below(deep)),
            3..=5 => format!(
                "go depth {} nodes {}",
                1 + self.below(deep),
                self.below(5000)
            ),
            6..=8 => format!("go nodes {}", self.below(20000)),
            9..=10 => format!("go movetime {}", self.below(30)),
            11..=12 => {
                let t = self.below(200) as i64 - 5;
                let mut g = format!("go wtime {t} btime {t}");
                if self.chance(50) {
                    g.push_str(&format!(" winc {} binc {}", self.below(20), self.below(20)));
                }
                if self.chance(30) {
                    g.push_str(&format!(" movestogo {}", self.below(5)));
                }
                g
            }
            13 => {
                // One side's clock only.
                let key = self.pick(&["wtime", "btime", "winc", "binc"]);
                format!("go {key} {}", self.below(100) as i64 - 10)
            }
            14 => format!(
                "go depth {} nodes 2000",
                self.pick(&["4294967295", "18446744073709551615", "250", "251"])
            ),
            15 => format!(
                "go movetime {} nodes {}",
                self.pick(&["18446744073709551615", "0"]),
                self.below(3000)
            ),
            16 => format!(
                "go nodes {} movetime 20",
                self.pick(&["18446744073709551615", "0", "1"])
            ),
            17 => format!(
                "go wtime 9223372036854775807 btime -9223372036854775808 movetime {}",
                self.below(20)
            ),
            18 => format!(
                "go {} {} nodes 2000",
                self.pick(&["depth", "nodes", "movetime", "wtime", "movestogo"]),
                self.hostile()
            ),
            _ => format!(
                "go searchmoves 1 a1 ponder depth 2 {} nodes 1000",
                self.pick(&["infinite", "", "foo", "mate 3"])
            ),
        };
        text.into_bytes()
    }

    fn perft(&mut self) -> Vec<u8> {
        let deep = match self.model.name {
            "tictactoe" => 5,
            "connect4" => 4,
            "nim" => 5,
            "chess" => 2,
            _ => 3,
        };
        let d = if self.chance(10) {
            self.pick(&["65", "64", "-1", "4294967295", "x", ""])
                .to_string()
        } else {
            self.below(deep + 1).to_string()
        };
        // Deep ones only where every count is 0 at once (tic-tac-toe ends within 9 plies): at
        // the end of input a perft is finished, not stopped, so one in another game would run
        // for ages.
        let d = if d == "64" && (self.model.name != "tictactoe" || !self.sure) {
            "65".to_string()
        } else {
            d
        };
        format!("go perft {d}").into_bytes()
    }

    fn bench(&mut self) -> Vec<u8> {
        let d = self.pick(&["1", "2", "0", "251", "x", "4294967295"]);
        format!("bench {d}").into_bytes()
    }

    /// Changes `line` a little: a byte flipped, inserted or deleted, a word doubled or
    /// dropped, the end cut off.
    fn mutate(&mut self, line: &mut Vec<u8>) {
        let n = line.len();
        match self.below(7) {
            0 if n > 0 => {
                let i = self.below(n);
                line[i] ^= 1 << self.below(8);
                if line[i] == b'\n' {
                    line[i] = b' ';
                }
            }
            1 => {
                let i = self.below(n + 1);
                let ins = self.pick(INSERTS).to_vec();
                line.splice(i..i, ins);
            }
            2 if n > 0 => {
                let i = self.below(n);
                let j = (i + 1 + self.below(8)).min(n);
                line.drain(i..j);
            }
            3 => {
                let words: Vec<&[u8]> = line.split(|&b| b == b' ').collect();
                let w = self.below(words.len());
                let mut out: Vec<u8> = Vec::new();
                for (k, word) in words.iter().enumerate() {
                    if k > 0 {
                        out.push(b' ');
                    }
                    out.extend_from_slice(word);
                    if k == w {
                        out.push(b' ');
                        out.extend_from_slice(word);
                    }
                }
                *line = out;
            }
            4 => {
                let words: Vec<&[u8]> = line.split(|&b| b == b' ').collect();
                if words.len() > 1 {
                    let w = 1 + self.below(words.len() - 1);
                    let out: Vec<&[u8]> = words
                        .iter()
                        .enumerate()
                        .filter(|&(k, _)| k != w)
                        .map(|(_, x)| *x)
                        .collect();
                    *line = out.join(&b' ');
                }
            }
            5 if n > 0 => line.truncate(self.below(n)),
            _ => {
                let num = self.hostile();
                line.push(b' ');
                line.extend_from_slice(num.as_bytes());
            }
        }
    }
}

/// The command word of a line as protocol.md defines it: the bytes read as UTF-8 (invalid
/// sequences replaced), one trailing `\r` dropped, then the first run of characters other
/// than space and tab. `crlf`: the line is sent with `\r\n`, whose `\r` is the one dropped.
pub fn first_word(line: &[u8], crlf: bool) -> String {
    let text = String::from_utf8_lossy(line);
    let text = if crlf {
        &text[..]
    } else {
        text.strip_suffix('\r').unwrap_or(&text)
    };
    text.split([' ', '\t'])
        .find(|w| !w.is_empty())
        .unwrap_or("")
        .to_string()
}

/// The length protocol.md counts for a line sent with `\n` (or `\r\n` when `crlf`): without
/// its line ending.
pub fn line_length(line: &[u8], crlf: bool) -> usize {
    if crlf {
        line.len()
    } else {
        line.len() - (line.last() == Some(&b'\r')) as usize
    }
}
