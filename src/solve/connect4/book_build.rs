//! `ply solve connect4 book`: builds the opening book ([`super::book`]) with this solver.
//!
//! Which positions: for each colour `S`, every position with at most `depth` discs and `S` to
//! move that can arise when `S` plays the book's moves from disc `open` on, and anything
//! before that and on the opponent's turns. So the first `open` plies of a game may be
//! anything (a match's random opening, or a human's first moves), and from there the book
//! answers every reply of the opponent until `depth` discs, for either colour. Mirror images
//! share one entry. The book move of a position is a perfect move (see [`super::book`]);
//! the scores depend on nothing but the rules, and a rebuild with the same program makes the
//! same file.
//!
//! With `--full N` the book also holds every position with at most `N` discs, whatever was
//! played. Only those with exactly `N` discs are solved; each shallower one gets its score
//! and move from its children's (the best child, first in centre-first order among equals),
//! from the deepest level up, so the cost is that of the deepest level alone.
//!
//! The build walks both colours' trees one depth at a time, in key order. Each position it
//! solves is appended at once to a progress file (text, one line each: key in hexadecimal,
//! score, column, discs, nodes, wall microseconds); a build started again with the same
//! progress file reads it back and solves only what is missing, so it can run in pieces. The
//! entries of a shallower book are a subset of a deeper one's, so one progress file serves
//! every depth.

use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use clap::Parser;

use super::book::{self, canonical_key, position_of_key};
use super::{Connect4Solver, cpu_seconds};
use crate::game::{Game, Player};
use crate::games::Connect4;
use crate::solve::Budget;

#[derive(Parser, Debug)]
#[command(
    name = "ply solve connect4 book",
    about = "Builds the Connect Four opening book with the exact solver (resumable)"
)]
struct Args {
    /// The most discs of a position in the book.
    #[arg(long, default_value_t = 12)]
    depth: u32,
    /// Plies at the start that may be anything (every position with at most this many discs
    /// is covered, whatever was played).
    #[arg(long, default_value_t = 2)]
    open: u32,
    /// Progress file: read back when it exists, appended to as positions are solved.
    #[arg(long)]
    progress: PathBuf,
    /// Write the book here once every position is solved (see `src/solve/connect4/book.rs`
    /// for the format).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Search threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Transposition table size in MiB (kept across the positions of the build).
    #[arg(long = "table-mb", default_value_t = 1024)]
    table_mb: usize,
    /// Stop after solving this many new positions (the progress file keeps them).
    #[arg(long)]
    limit: Option<usize>,
    /// Every position with at most this many discs, too (at least `open`; see the module doc).
    #[arg(long, default_value_t = 0)]
    full: u32,
    /// Take the entries of the book compiled into this program as solved (they were made by
    /// this solver), instead of solving them again.
    #[arg(long)]
    reuse_builtin: bool,
    /// Solve only slice `i` of `N` (from 0) of the `--full` level's positions, in key order,
    /// and write no book: several processes or machines share the deepest level this way,
    /// each with its own progress file; a run without `--shard` over all the progress files
    /// put together then backs the rest up and writes the book.
    #[arg(long)]
    shard: Option<crate::shard::Shard>,
}

/// A solved position, as the progress file records it.
#[derive(Clone, Copy, Debug)]
struct Solved {
    score: i32,
    column: u8,
    nodes: u64,
    micros: u64,
}

/// Per-depth totals of the build, for its report.
#[derive(Default, Clone, Copy)]
struct DepthStats {
    positions: u64,
    solved_now: u64,
    micros: u64,
    max_micros: u64,
    nodes: u64,
}

/// `ply solve connect4 book ARGS...`.
pub fn cli(args: &[String]) -> Result<(), String> {
    let Some(args) = crate::solve::parse_args::<Args>("ply solve connect4 book", args)? else {
        return Ok(());
    };
    if args.depth > 42 || args.open > args.depth || args.full > args.depth {
        return Err("need open <= depth <= 42 and full <= depth".into());
    }
    let mut build = Build::start(args)?;
    for side in [Player::First, Player::Second] {
        if build.grow(side)? == Grown::Stopped {
            build.report();
            eprintln!("book: stopped after --limit new positions");
            return Ok(());
        }
    }
    if build.fill()? == Grown::Stopped {
        build.report();
        eprintln!("book: stopped after --limit new positions, or at the end of its --shard");
        return Ok(());
    }
    build.report();
    build.write_book()
}

/// A build in progress: what is solved (read back or new), the log it is appended to, and
/// the book's entries in the order the walk met them.
struct Build {
    args: Args,
    done: HashMap<u64, Solved>,
    log: std::fs::File,
    solver: Connect4Solver,
    stats: Vec<DepthStats>,
    entries: Vec<(u64, i32, u8)>,
    /// New positions the build may still solve (`--limit`).
    budget_left: usize,
    t0: Instant,
    cpu0: f64,
}

/// How a colour's walk ended: every depth done, or `--limit` reached.
#[derive(PartialEq, Eq)]
enum Grown {
    Complete,
    Stopped,
}

impl Build {
    fn start(args: Args) -> Result<Build, String> {
        let done = read_progress(&args.progress)?;
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&args.progress)
            .map_err(|e| format!("{}: {e}", args.progress.display()))?;
        eprintln!(
            "book: depth {}, open {}, {} positions already in {}",
            args.depth,
            args.open,
            done.len(),
            args.progress.display()
        );
        let mut done = done;
        if args.reuse_builtin {
            for (key, score, column) in book::Book::builtin().entries() {
                done.entry(key).or_insert(Solved {
                    score,
                    column,
                    nodes: 0,
                    micros: 0,
                });
            }
        }
        let mut solver = Connect4Solver::with_table_mb(&Connect4::default(), args.table_mb)
            .expect("7x6 is supported");
        solver.set_threads(args.threads);
        Ok(Build {
            stats: vec![DepthStats::default(); args.depth as usize + 1],
            budget_left: args.limit.unwrap_or(usize::MAX),
            args,
            done,
            log,
            solver,
            entries: Vec::new(),
            t0: Instant::now(),
            cpu0: cpu_seconds(),
        })
    }

    /// Walks `side`'s tree one depth at a time: its own positions get the book move (every
    /// move before `open`), the opponent's every move.
    fn grow(&mut self, side: Player) -> Result<Grown, String> {
        let start = Connect4::default();
        let mut level = BTreeMap::from([(canonical_key(0, 0).0, start)]);
        for d in 0..=self.args.depth {
            let mut next = BTreeMap::new();
            for (&key, pos) in &level {
                let children = if pos.side_to_move() == side {
                    let Some(s) = self.book_move(key, pos, d)? else {
                        return Ok(Grown::Stopped);
                    };
                    if d < self.args.open {
                        legal(pos)
                    } else {
                        vec![s.column]
                    }
                } else {
                    legal(pos)
                };
                if d < self.args.depth {
                    add_children(&mut next, pos, &children);
                }
            }
            if !level.is_empty() {
                eprintln!(
                    "book: {} to move, depth {d}: {} positions, {} to expand",
                    side.protocol_name(),
                    level.len(),
                    next.len()
                );
            }
            level = next;
        }
        Ok(Grown::Complete)
    }

    /// `--full`: every position with at most `full` discs, the deepest level solved (in key
    /// order, the table kept across positions), each shallower one backed up from its
    /// children; each recorded like the other entries.
    fn fill(&mut self) -> Result<Grown, String> {
        let full = self.args.full.max(self.args.open);
        if full <= self.args.open {
            return Ok(Grown::Complete);
        }
        let mut levels = vec![BTreeMap::from([(
            canonical_key(0, 0).0,
            Connect4::default(),
        )])];
        for _ in 0..full {
            let mut next = BTreeMap::new();
            for pos in levels.last().expect("a level").values() {
                add_children(&mut next, pos, &legal(pos));
            }
            levels.push(next);
        }
        if let Some(shard) = self.args.shard {
            let level = levels.last().expect("a level");
            let slice = shard.range(level.len() as u64, 1);
            let (start, len) = (slice.start as usize, (slice.end - slice.start) as usize);
            eprintln!(
                "book: shard {shard}: positions {start}..{} of the {} with {full} discs",
                start + len,
                level.len()
            );
            for (&key, pos) in level.iter().skip(start).take(len) {
                if !self.done.contains_key(&key) {
                    if self.budget_left == 0 {
                        return Ok(Grown::Stopped);
                    }
                    self.solve_new(key, pos, full)?;
                }
            }
            return Ok(Grown::Stopped);
        }
        for (d, level) in levels.iter().enumerate().rev() {
            let (mut solved, mut backed, mut micros) = (0, 0, 0);
            for (&key, pos) in level {
                let s = match self.done.get(&key) {
                    Some(s) => *s,
                    None if d as u32 == full && self.budget_left == 0 => {
                        return Ok(Grown::Stopped);
                    }
                    None if d as u32 == full => {
                        solved += 1;
                        self.solve_new(key, pos, d as u32)?
                    }
                    None => {
                        backed += 1;
                        self.back_up(key, pos, d as u32)?
                    }
                };
                micros += s.micros;
                self.entries.push((key, s.score, s.column));
            }
            eprintln!(
                "book: every position of {d} discs: {} ({solved} solved now, {backed} from \
                 their children; {:.1} s of solving recorded)",
                level.len(),
                micros as f64 / 1e6
            );
        }
        Ok(Grown::Complete)
    }

    /// A position's score and perfect move from its children's entries (every child is in
    /// the book or ends the game), recorded as solved with no nodes.
    fn back_up(&mut self, key: u64, pos: &Connect4, d: u32) -> Result<Solved, String> {
        let mut best: Option<(i32, u8)> = None;
        for c in legal(pos) {
            let mut child = *pos;
            child.play(c);
            let v = match child.outcome() {
                Some(crate::game::Outcome::Win(_)) => 22 - (pos.moves_played() as i32 / 2 + 1),
                Some(crate::game::Outcome::Draw) => 0,
                None => {
                    let (k, _) = canonical_key(child.current(), child.mask());
                    let Some(s) = self.done.get(&k) else {
                        return Err(format!("{}: child {} is not in the book", pos.fen(), c + 1));
                    };
                    -s.score
                }
            };
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, c));
            }
        }
        let (score, column) = best.expect("an unfinished game has a move");
        let s = Solved {
            score,
            column,
            nodes: 0,
            micros: 0,
        };
        writeln!(self.log, "{key:x} {score} {column} {d} 0 0")
            .and_then(|_| self.log.flush())
            .map_err(|e| format!("{}: {e}", self.args.progress.display()))?;
        self.done.insert(key, s);
        Ok(s)
    }

    /// The position's entry, solved now unless the progress has it; `None` when it would
    /// need solving and `--limit` is used up.
    fn book_move(&mut self, key: u64, pos: &Connect4, d: u32) -> Result<Option<Solved>, String> {
        let s = match self.done.get(&key) {
            Some(s) => *s,
            None if self.budget_left == 0 => return Ok(None),
            None => self.solve_new(key, pos, d)?,
        };
        let st = &mut self.stats[d as usize];
        st.positions += 1;
        st.micros += s.micros;
        st.max_micros = st.max_micros.max(s.micros);
        st.nodes += s.nodes;
        self.entries.push((key, s.score, s.column));
        Ok(Some(s))
    }

    /// Solves a position the progress lacks and appends it to the progress file at once.
    fn solve_new(&mut self, key: u64, pos: &Connect4, d: u32) -> Result<Solved, String> {
        self.budget_left -= 1;
        let s = solve(&mut self.solver, pos);
        writeln!(
            self.log,
            "{key:x} {} {} {d} {} {}",
            s.score, s.column, s.nodes, s.micros
        )
        .and_then(|_| self.log.flush())
        .map_err(|e| format!("{}: {e}", self.args.progress.display()))?;
        self.done.insert(key, s);
        self.stats[d as usize].solved_now += 1;
        Ok(s)
    }

    fn report(&self) {
        report(&self.stats, self.t0, self.cpu0);
    }

    /// Writes the book (through a temporary file, renamed into place) when `--out` asks.
    fn write_book(&self) -> Result<(), String> {
        let Some(out) = &self.args.out else {
            return Ok(());
        };
        let full = self.args.full.max(self.args.open);
        let bytes = book::encode(self.args.depth, self.args.open, full, &self.entries);
        let tmp = out.with_extension("tmp");
        std::fs::write(&tmp, &bytes)
            .and_then(|_| std::fs::rename(&tmp, out))
            .map_err(|e| format!("{}: {e}", out.display()))?;
        eprintln!(
            "book: wrote {} entries, {} bytes, to {}",
            self.entries.len(),
            bytes.len(),
            out.display()
        );
        Ok(())
    }
}

/// Adds the unfinished positions after each of `columns` to the next level, by canonical key
/// (a mirror image is the same entry).
fn add_children(next: &mut BTreeMap<u64, Connect4>, pos: &Connect4, columns: &[u8]) {
    for &c in columns {
        let mut child = *pos;
        child.play(c);
        if child.outcome().is_none() {
            let (k, _) = canonical_key(child.current(), child.mask());
            next.entry(k)
                .or_insert_with(|| position_of_key(k).expect("a key of a position"));
        }
    }
}

/// Legal moves of a game that is not over, centre first.
fn legal(pos: &Connect4) -> Vec<u8> {
    let mut v = Vec::new();
    pos.legal_moves(&mut v);
    v
}

/// The exact score of `pos` and a perfect move (see [`Connect4Solver::best_move`]).
fn solve(solver: &mut Connect4Solver, pos: &Connect4) -> Solved {
    let t = Instant::now();
    let scored = solver.score(pos);
    let stop = AtomicBool::new(false);
    let unlimited = Budget {
        stop: &stop,
        deadline: None,
        nodes: None,
    };
    let (column, nodes) = solver
        .best_move(pos, scored.score, &unlimited)
        .expect("an unfinished game has a move and an unlimited budget never runs out");
    Solved {
        score: scored.score,
        column,
        nodes: scored.nodes + nodes,
        micros: t.elapsed().as_micros() as u64,
    }
}

/// The progress file's entries; a missing file is an empty progress, and a last line cut
/// short by an interrupted write is ignored.
fn read_progress(path: &PathBuf) -> Result<HashMap<u64, Solved>, String> {
    let mut done = HashMap::new();
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(done),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    for line in BufReader::new(file).lines() {
        let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
        let f: Vec<&str> = line.split_whitespace().collect();
        let parsed = (|| {
            let key = u64::from_str_radix(f.first()?, 16).ok()?;
            let score = f.get(1)?.parse().ok()?;
            let column = f.get(2)?.parse().ok()?;
            let nodes = f.get(4)?.parse().ok()?;
            let micros = f.get(5)?.parse().ok()?;
            Some((
                key,
                Solved {
                    score,
                    column,
                    nodes,
                    micros,
                },
            ))
        })();
        if let Some((k, s)) = parsed {
            done.insert(k, s);
        }
    }
    Ok(done)
}

/// Prints the per-depth table of the build (stderr): positions, solve time and nodes, as
/// measured when each position was solved (possibly by an earlier run).
fn report(stats: &[DepthStats], t0: Instant, cpu0: f64) {
    eprintln!("discs  positions  solved now  total s   mean ms    max ms   mean nodes");
    for (d, s) in stats.iter().enumerate() {
        if s.positions == 0 {
            continue;
        }
        eprintln!(
            "{d:5} {:10} {:11} {:8.1} {:9.2} {:9.1} {:12.0}",
            s.positions,
            s.solved_now,
            s.micros as f64 / 1e6,
            s.micros as f64 / s.positions as f64 / 1e3,
            s.max_micros as f64 / 1e3,
            s.nodes as f64 / s.positions as f64
        );
    }
    let all: u64 = stats.iter().map(|s| s.positions).sum();
    let micros: u64 = stats.iter().map(|s| s.micros).sum();
    eprintln!(
        "total {all} positions, {:.1} s of solving; this run {:.1} s wall, {:.1} s CPU",
        micros as f64 / 1e6,
        t0.elapsed().as_secs_f64(),
        cpu_seconds() - cpu0
    );
}
