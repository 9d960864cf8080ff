//! `ply analyse`: positions in, one result line per position out, on every core.
//!
//! Input, one position per line (blank lines and `#` comments are skipped):
//! - `[<game> [key=value ...]] startpos [moves <m> ...]`
//! - `[<game> [key=value ...]] fen <notation> [moves <m> ...]`
//! - a plain Connect Four move string of columns 1..9, optionally followed by an expected
//!   score, as Pascal Pons' test sets have it: `4453 -2`.
//!
//! Without a game name the default game (`--game`) applies. Each position is answered by
//! the game's solver when it proves the value, else by the heuristic search. Results are
//! written in input order as TSV (with a header) or JSON Lines; a bad line is reported on
//! stderr with its line number and the run goes on.
//!
//! `--shard i/N` answers only the `i`-th of `N` contiguous slices of the input's entries
//! (its lines that are neither blank nor comments, [`crate::shard`]), with the line numbers
//! of the whole input: the shards' rows, in shard order, are the rows of the whole run.

use std::collections::HashMap;
use std::io::{self, BufRead, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::game::{Game, Params, play_moves};
use crate::games::NAMES;
use crate::search::{Limits, Searcher};
use crate::solve::{Budget, Solvable, Solver};
use crate::value::Score;
use crate::with_game;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Tsv,
    JsonLines,
}

#[derive(Clone, Debug)]
pub struct Options {
    pub default_game: String,
    pub format: Format,
    /// Heuristic search depth when the solver does not answer. Without any limit the search
    /// stops at [`DEFAULT_DEPTH`] or after [`DEFAULT_MOVETIME`], whichever comes first.
    pub depth: Option<u32>,
    /// Time per position: the solver gets half, the search what is left.
    pub movetime: Option<Duration>,
    pub nodes: Option<u64>,
    pub threads: usize,
    pub use_solver: bool,
    pub hash_mb: usize,
    pub progress: bool,
    /// Only this slice of the input's entries.
    pub shard: Option<crate::shard::Shard>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            default_game: "connect4".into(),
            format: Format::Tsv,
            depth: None,
            movetime: None,
            nodes: None,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            use_solver: true,
            hash_mb: 16,
            progress: true,
            shard: None,
        }
    }
}

pub const DEFAULT_DEPTH: u32 = 12;
pub const DEFAULT_MOVETIME: Duration = Duration::from_secs(1);

/// One parsed input line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    pub game: String,
    pub params: Vec<String>,
    /// `None` for the start position.
    pub fen: Option<String>,
    pub moves: Vec<String>,
    /// The score given after a plain move string (Pons' files), to compare with.
    pub expected: Option<i32>,
}

/// Parses one input line; `Ok(None)` for a blank or comment line.
pub fn parse_line(line: &str, default_game: &str) -> Result<Option<Spec>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    // Pons' format: digits, then optionally a signed score.
    if words[0].chars().all(|c| c.is_ascii_digit()) && words.len() <= 2 {
        let expected = match words.get(1) {
            Some(s) => Some(
                s.parse::<i32>()
                    .map_err(|_| format!("expected a score after the moves, got '{s}'"))?,
            ),
            None => None,
        };
        return Ok(Some(Spec {
            game: "connect4".into(),
            params: vec![],
            fen: None,
            moves: words[0].chars().map(|c| c.to_string()).collect(),
            expected,
        }));
    }
    let mut i = 0;
    let game = if NAMES.contains(&words[0].to_ascii_lowercase().as_str()) {
        i = 1;
        words[0].to_ascii_lowercase()
    } else {
        default_game.to_string()
    };
    let mut params = Vec::new();
    while i < words.len() && words[i].contains('=') {
        params.push(words[i].to_string());
        i += 1;
    }
    let fen = match words.get(i) {
        Some(&"startpos") => {
            i += 1;
            None
        }
        Some(&"fen") => {
            let from = i + 1;
            i = from;
            while i < words.len() && words[i] != "moves" {
                i += 1;
            }
            if i == from {
                return Err("'fen' needs a position".into());
            }
            Some(words[from..i].join(" "))
        }
        Some(w) => {
            return Err(format!(
                "expected startpos, fen or a game name ({}), got '{w}'",
                NAMES.join(", ")
            ));
        }
        None => return Err("expected startpos or fen".into()),
    };
    let moves = match words.get(i) {
        None => vec![],
        Some(&"moves") => words[i + 1..].iter().map(|s| s.to_string()).collect(),
        Some(w) => return Err(format!("expected 'moves', got '{w}'")),
    };
    Ok(Some(Spec {
        game,
        params,
        fen,
        moves,
        expected: None,
    }))
}

/// One answered position.
#[derive(Clone, Debug)]
pub struct Row {
    pub line: usize,
    pub game: &'static str,
    pub input: String,
    pub best: String,
    pub score: String,
    pub proven: bool,
    /// Connect Four only, when proven: Pascal Pons' score of the position.
    pub pons: Option<i32>,
    pub expected: Option<i32>,
    pub depth: u32,
    pub nodes: u64,
    pub time: Duration,
}

impl Row {
    pub const TSV_HEADER: &'static str =
        "line\tgame\tbest\tscore\tproven\tpons\texpected\tdepth\tnodes\ttime_us\tposition";

    pub fn tsv(&self) -> String {
        let opt = |v: Option<i32>| v.map_or(String::new(), |v| v.to_string());
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            self.line,
            self.game,
            self.best,
            self.score,
            self.proven,
            opt(self.pons),
            opt(self.expected),
            self.depth,
            self.nodes,
            self.time.as_micros(),
            self.input
        )
    }

    pub fn json(&self) -> String {
        /// Field order as in the TSV header.
        #[derive(serde::Serialize)]
        struct Json<'a> {
            line: usize,
            game: &'a str,
            best: &'a str,
            score: &'a str,
            proven: bool,
            pons: Option<i32>,
            expected: Option<i32>,
            depth: u32,
            nodes: u64,
            time_us: u64,
            position: &'a str,
        }
        serde_json::to_string(&Json {
            line: self.line,
            game: self.game,
            best: &self.best,
            score: &self.score,
            proven: self.proven,
            pons: self.pons,
            expected: self.expected,
            depth: self.depth,
            nodes: self.nodes,
            time_us: self.time.as_micros() as u64,
            position: &self.input,
        })
        .expect("a row serialises")
    }
}

/// Analyses positions of one game with one set of rules: a searcher and a solver reused
/// from one position to the next.
trait Analyser: Send {
    fn analyse(&mut self, spec: &Spec, opts: &Options) -> Result<Row, String>;
}

struct GameAnalyser<G: Game> {
    start: G,
    searcher: Searcher<G>,
    solver: Option<Box<dyn Solver<G>>>,
}

impl<G: Solvable> Analyser for GameAnalyser<G> {
    fn analyse(&mut self, spec: &Spec, opts: &Options) -> Result<Row, String> {
        let base = match &spec.fen {
            Some(f) => self
                .start
                .from_fen(f)
                .map_err(|e| format!("fen '{f}': {e}"))?,
            None => self.start.clone(),
        };
        let pos = play_moves(&base, &spec.moves)
            .map_err(|(i, e)| format!("move {} '{}': {e}", i + 1, spec.moves[i]))?;
        let t = Instant::now();
        // Each position from empty tables, so that its answer does not depend on the
        // positions before it: on which thread, in which shard or order it was analysed.
        self.searcher.clear();
        if let Some(solver) = self.solver.as_mut() {
            solver.clear();
        }
        let stop = AtomicBool::new(false);
        let row = |best: Option<G::Move>, score: String, proven: bool, depth, nodes| Row {
            line: 0,
            game: G::NAME,
            input: String::new(),
            best: best.map_or("(none)".into(), |m| pos.format_move(m)),
            score,
            proven,
            pons: None,
            expected: spec.expected,
            depth,
            nodes,
            time: t.elapsed(),
        };
        if let Some(o) = pos.outcome() {
            let v = crate::value::terminal_value(o, pos.side_to_move(), 0);
            return Ok(row(None, Score::from_value(v).to_string(), true, 0, 0));
        }
        if let (true, Some(solver)) = (opts.use_solver, self.solver.as_mut()) {
            let budget = Budget {
                stop: &stop,
                deadline: opts.movetime.map(|m| t + m / 2),
                nodes: opts.nodes,
            };
            if let Some(s) = solver.solve(&pos, &budget) {
                let score = s.score().to_string();
                let mut r = row(s.best, score, s.exact, s.pv.len() as u32, s.nodes);
                if s.exact {
                    r.pons = G::pons_score(&pos, s.value);
                }
                return Ok(r);
            }
        }
        let unlimited = opts.depth.is_none() && opts.movetime.is_none() && opts.nodes.is_none();
        let limits = Limits {
            depth: opts.depth.or(unlimited.then_some(DEFAULT_DEPTH)),
            nodes: opts.nodes,
            movetime: opts
                .movetime
                .or(unlimited.then_some(DEFAULT_MOVETIME))
                .map(|m| m.saturating_sub(t.elapsed())),
            ..Limits::default()
        };
        let r = self.searcher.search(&pos, &limits, &stop, &mut |_| {});
        let proven = crate::value::is_mate(r.value)
            || pos.max_remaining_plies().is_some_and(|m| r.depth >= m);
        let mut out = row(
            r.best,
            Score::from_value(r.value).to_string(),
            proven,
            r.depth,
            r.nodes,
        );
        if proven {
            out.pons = G::pons_score(&pos, r.value);
        }
        Ok(out)
    }
}

fn new_analyser(spec: &Spec, opts: &Options) -> Result<Box<dyn Analyser>, String> {
    let params =
        Params::parse(spec.params.iter().map(String::as_str)).map_err(|e| e.to_string())?;
    with_game!(spec.game.as_str(), G => {
        let start = G::new(&params).map_err(|e| e.to_string())?;
        Ok(Box::new(GameAnalyser::<G> {
            solver: G::solver(&start, opts.hash_mb),
            searcher: Searcher::new(opts.hash_mb),
            start,
        }))
    }, _ => Err(format!("unknown game '{}' (known: {})", spec.game, NAMES.join(", "))))
}

pub struct Summary {
    pub positions: usize,
    pub proven: usize,
    pub bad_lines: usize,
    /// Positions whose Pons score differs from the expected one given in the input.
    pub mismatches: usize,
    pub time: Duration,
}

/// One position to analyse: its line number, the line as given, and what it asks.
type AnalyseJob = (usize, String, Spec);

/// Reads every line of `input`, answers on `output` in input order, reports bad lines on
/// `errors` ("line N: ..."), and returns the counts.
pub fn run(
    input: impl BufRead,
    mut output: impl Write + Send,
    errors: &mut (impl Write + Send),
    opts: &Options,
) -> io::Result<Summary> {
    let started = Instant::now();
    let (jobs, bad) = read_jobs(input, opts, errors)?;
    if opts.format == Format::Tsv {
        writeln!(output, "{}", Row::TSV_HEADER)?;
    }
    let bar = progress_bar(opts, jobs.len());
    // Workers take the next job by index; `InOrder` holds results until every earlier one
    // has been written, so output keeps the input's order whatever finishes first.
    let next = AtomicUsize::new(0);
    let in_order = Mutex::new(InOrder {
        done: vec![None; jobs.len()],
        written: 0,
        output: &mut output,
        errors,
        failed: 0,
        proven: 0,
        mismatches: 0,
        io_error: None,
    });
    std::thread::scope(|scope| {
        for _ in 0..opts.threads.max(1) {
            scope.spawn(|| analyse_jobs(&jobs, &next, &in_order, &bar, opts));
        }
    });
    bar.finish_and_clear();
    let s = in_order.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(e) = s.io_error {
        return Err(e);
    }
    Ok(Summary {
        positions: jobs.len() - s.failed,
        proven: s.proven,
        bad_lines: bad + s.failed,
        mismatches: s.mismatches,
        time: started.elapsed(),
    })
}

/// Whether a line is an entry: neither blank nor a comment (those have no position).
fn is_entry(line: &str) -> bool {
    let line = line.trim();
    !line.is_empty() && !line.starts_with('#')
}

/// The positions of `input`'s entries (of the shard's slice of them, with `--shard`); a line
/// that does not parse is reported on `errors` and counted.
fn read_jobs(
    input: impl BufRead,
    opts: &Options,
    errors: &mut impl Write,
) -> io::Result<(Vec<AnalyseJob>, usize)> {
    let lines: Vec<String> = input.lines().collect::<io::Result<_>>()?;
    let entries: Vec<usize> = (0..lines.len()).filter(|&i| is_entry(&lines[i])).collect();
    let slice = match opts.shard {
        Some(s) => s.range(entries.len() as u64, 1),
        None => 0..entries.len() as u64,
    };
    let mut jobs = Vec::new();
    let mut bad = 0;
    for &i in &entries[slice.start as usize..slice.end as usize] {
        let l = &lines[i];
        match parse_line(l, &opts.default_game) {
            Ok(Some(spec)) => jobs.push((i + 1, l.trim().to_string(), spec)),
            Ok(None) => {}
            Err(e) => {
                writeln!(errors, "line {}: {e}", i + 1)?;
                bad += 1;
            }
        }
    }
    Ok((jobs, bad))
}

fn progress_bar(opts: &Options, positions: usize) -> indicatif::ProgressBar {
    let bar = if opts.progress {
        indicatif::ProgressBar::new(positions as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} positions, {elapsed} elapsed, eta {eta}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

/// One worker: takes the next job until none is left, with one analyser per game and rules
/// (each keeps its tables from one position to the next).
fn analyse_jobs<W: Write, E: Write>(
    jobs: &[AnalyseJob],
    next: &AtomicUsize,
    in_order: &Mutex<InOrder<W, E>>,
    bar: &indicatif::ProgressBar,
    opts: &Options,
) {
    let mut analysers: HashMap<(String, Vec<String>), Box<dyn Analyser>> = HashMap::new();
    loop {
        let j = next.fetch_add(1, Ordering::Relaxed);
        let Some((line, text, spec)) = jobs.get(j) else {
            break;
        };
        let key = (spec.game.clone(), spec.params.clone());
        let result = match analysers.get_mut(&key) {
            Some(a) => a.analyse(spec, opts),
            None => new_analyser(spec, opts).and_then(|mut a| {
                let r = a.analyse(spec, opts);
                analysers.insert(key, a);
                r
            }),
        }
        .map(|mut r| {
            r.line = *line;
            r.input = text.clone();
            r
        });
        bar.inc(1);
        let mut guard = in_order.lock().unwrap_or_else(|e| e.into_inner());
        guard.done[j] = Some(result);
        guard.write_ready(jobs, opts.format);
    }
}

/// Results waiting for their turn, and what was written so far.
struct InOrder<W, E> {
    /// By job index; taken when written.
    done: Vec<Option<Result<Row, String>>>,
    /// Jobs written so far (every earlier one is done).
    written: usize,
    output: W,
    errors: E,
    failed: usize,
    proven: usize,
    mismatches: usize,
    /// The first write that failed.
    io_error: Option<io::Error>,
}

impl<W: Write, E: Write> InOrder<W, E> {
    /// Writes every result whose predecessors are all written.
    fn write_ready(&mut self, jobs: &[AnalyseJob], format: Format) {
        while let Some(Some(r)) = self.done.get_mut(self.written).map(Option::take) {
            let line = jobs[self.written].0;
            self.written += 1;
            let written = match r {
                Ok(row) => {
                    self.proven += row.proven as usize;
                    if let (Some(e), Some(p)) = (row.expected, row.pons) {
                        self.mismatches += (e != p) as usize;
                    }
                    let text = match format {
                        Format::Tsv => row.tsv(),
                        Format::JsonLines => row.json(),
                    };
                    writeln!(self.output, "{text}").and_then(|_| self.output.flush())
                }
                Err(e) => {
                    self.failed += 1;
                    writeln!(self.errors, "line {line}: {e}")
                }
            };
            if let Err(e) = written {
                self.io_error.get_or_insert(e);
            }
        }
    }
}
