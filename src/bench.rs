//! `bench`: fixed-depth searches over a fixed set of positions of every game. The total node
//! count is a checksum of the searcher's behaviour (any change to search, ordering or
//! evaluation changes it); the time gives nodes per second for each game.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::game::{Game, Params, play_moves};
use crate::search::{Limits, Searcher, TechniquesOff};
use crate::with_game;

pub struct BenchPosition {
    pub game: &'static str,
    pub params: &'static [&'static str],
    /// `None` for the start position.
    pub fen: Option<&'static str>,
    pub moves: &'static str,
    pub depth: u32,
}

/// A bench position, written compactly in the table below.
const fn bench_position(
    game: &'static str,
    params: &'static [&'static str],
    fen: Option<&'static str>,
    moves: &'static str,
    depth: u32,
) -> BenchPosition {
    BenchPosition {
        game,
        params,
        fen,
        moves,
        depth,
    }
}

pub const POSITIONS: &[BenchPosition] = &[
    bench_position("tictactoe", &[], None, "", 9),
    bench_position("tictactoe", &[], None, "a1 b2", 7),
    bench_position("tictactoe", &[], Some("x../.o./... x"), "", 7),
    bench_position("connect4", &[], None, "", 12),
    bench_position("connect4", &[], None, "4 4 4 4 3", 12),
    bench_position("connect4", &[], None, "4 3 5 3 3 4 2 6", 12),
    bench_position(
        "connect4",
        &[],
        Some("......./......./..xo.../..oox../.oxxo../xxxoxo. o"),
        "",
        12,
    ),
    bench_position("nim", &[], None, "", 10),
    bench_position("nim", &["length=21", "max=4"], None, "", 21),
    bench_position("nim", &["heaps=3,4,5", "max=3"], None, "", 12),
    bench_position(
        "nim",
        &["heaps=2,3,4,5", "max=9", "misere=true"],
        None,
        "",
        14,
    ),
    bench_position("teeko", &[], None, "", 5),
    bench_position("teeko", &[], None, "c3 b2 d4 b4", 5),
    bench_position("teeko", &[], Some("...../.b.r./..b../.r.../.b.r. b"), "", 7),
    bench_position(
        "teeko",
        &["advanced=true"],
        Some("r.b../...r./.bb../.r.../....b r"),
        "",
        7,
    ),
    bench_position("chess", &[], None, "", 6),
    bench_position("chess", &[], None, "e2e4 c7c5 g1f3 d7d6", 5),
    bench_position(
        "chess",
        &[],
        Some("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        "",
        5,
    ),
    bench_position(
        "chess",
        &[],
        Some("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
        "",
        8,
    ),
    bench_position("checkers", &[], None, "", 13),
    bench_position("checkers", &[], None, "11-15 23-19 8-11 22-17", 13),
    bench_position("checkers", &[], Some("W:WK14,22,25,K30:B5,9,K19"), "", 14),
];

pub struct BenchLine {
    pub game: &'static str,
    pub label: String,
    pub depth: u32,
    pub nodes: u64,
    pub time: Duration,
}

/// The table each bench search gets unless told otherwise (`ply bench --hash`), in MiB; the
/// engine's `bench` command always uses it, so its checksum does not depend on `Hash`.
pub const BENCH_HASH_MB: usize = 16;

pub struct BenchReport {
    pub lines: Vec<BenchLine>,
    /// Stopped before every position was searched to its depth.
    pub stopped: bool,
}

impl BenchReport {
    pub fn nodes(&self) -> u64 {
        self.lines.iter().map(|l| l.nodes).sum()
    }
    pub fn time(&self) -> Duration {
        self.lines.iter().map(|l| l.time).sum()
    }

    /// The lines after the positions' own: one summary per game, the total nodes (the
    /// checksum) and nodes per second.
    pub fn summary(&self) -> String {
        let mut out = String::new();
        for game in crate::games::NAMES {
            let (n, t) = self
                .lines
                .iter()
                .filter(|l| l.game == *game)
                .fold((0, Duration::ZERO), |(n, t), l| (n + l.nodes, t + l.time));
            out += &format!(
                "info string bench {game} nodes {n} time {} nps {}\n",
                t.as_millis(),
                nps(n, t)
            );
        }
        out += &format!("Nodes searched: {}\n", self.nodes());
        out += &format!("Nodes/second: {}", nps(self.nodes(), self.time()));
        out
    }
}

fn nps(nodes: u64, time: Duration) -> u64 {
    (nodes as u128 * 1_000_000 / time.as_micros().max(1)) as u64
}

impl fmt::Display for BenchLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "info string bench {} {} depth {} nodes {} time {}",
            self.game,
            self.label,
            self.depth,
            self.nodes,
            self.time.as_millis()
        )
    }
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for l in &self.lines {
            writeln!(f, "{l}")?;
        }
        if self.stopped {
            writeln!(f, "info string bench stopped")?;
        }
        f.write_str(&self.summary())
    }
}

fn run_one<G: Game>(
    p: &BenchPosition,
    depth: u32,
    hash_mb: usize,
    off: TechniquesOff,
    stop: &AtomicBool,
) -> BenchLine {
    let params = Params::parse(p.params.iter().copied()).expect("bench parameters are valid");
    let start = G::new(&params).expect("bench parameters are valid");
    let pos = match p.fen {
        Some(f) => start.from_fen(f).expect("bench positions are valid"),
        None => start,
    };
    let moves: Vec<&str> = p.moves.split_whitespace().collect();
    let pos = play_moves(&pos, &moves).expect("bench moves are legal");
    let mut searcher = Searcher::<G>::new(hash_mb);
    searcher.set_techniques_off(off);
    let t = Instant::now();
    let r = searcher.search(&pos, &Limits::depth(depth), stop, &mut |_| {});
    let mut label = if p.params.is_empty() {
        String::new()
    } else {
        format!("{} ", p.params.join(" "))
    };
    label.push_str(&match p.fen {
        Some(f) => format!("fen {f}"),
        None => "startpos".to_string(),
    });
    if !p.moves.is_empty() {
        label.push_str(&format!(" moves {}", p.moves));
    }
    BenchLine {
        game: G::NAME,
        label,
        depth,
        nodes: r.nodes,
        time: t.elapsed(),
    }
}

/// Runs every bench position at its depth (or at `depth` when given), each with a fresh
/// table of `hash_mb` MiB so the count does not depend on what ran before, the techniques
/// `off` turned off.
pub fn run(depth: Option<u32>, hash_mb: usize, off: TechniquesOff) -> BenchReport {
    run_until(depth, hash_mb, off, &AtomicBool::new(false), &mut |_| {})
}

/// [`run`], calling `each` with every position's line as it is done, and giving up once
/// `stop` is set (the position being searched ends as a stopped search does, after depth 1;
/// the report is marked stopped).
pub fn run_until(
    depth: Option<u32>,
    hash_mb: usize,
    off: TechniquesOff,
    stop: &AtomicBool,
    each: &mut dyn FnMut(&BenchLine),
) -> BenchReport {
    let mut lines = Vec::new();
    for p in POSITIONS {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let d = depth.unwrap_or(p.depth);
        let line = with_game!(p.game, G => run_one::<G>(p, d, hash_mb, off, stop), _ => unreachable!("bench names a known game"));
        each(&line);
        lines.push(line);
    }
    BenchReport {
        lines,
        stopped: stop.load(Ordering::Relaxed),
    }
}
