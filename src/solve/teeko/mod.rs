//! Teeko solved strongly: every position's value with its distance, from a table built by
//! retrograde analysis ([`build`]) and kept in a file ([`table`]).
//!
//! - `ply solve teeko [--advanced]` builds a variant's table (both centre rules share it:
//!   the rule only restricts the very first drop) and prints what it found.
//! - In the engine, [`TeekoSolver`] answers from the table: the exact value (fastest win,
//!   slowest loss) and a move that keeps it. The table is read from its file on first use,
//!   by a thread of its own, which a `go` waits for within its time budget (a cold disk
//!   must not make it late); when the file is missing or damaged, that thread builds and
//!   saves it, and the solver declines (the engine searches instead) until it is ready.
//!   See [`Provider`].
//!
//! Values are game-theoretic with unbounded play (no repetition or move-limit rule). Playing
//! the fastest win matters: a merely value-keeping move can cycle in a won position.

pub mod build;
pub mod code;
pub mod index;
pub mod table;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

use clap::Parser;

use super::{Budget, Solution, Solvable, Solver};
use crate::game::{Game, Player};
use crate::games::Teeko;
use crate::games::teeko::{Rules, TeekoMove, rules};
pub use crate::solve::files::BuildLock;
use crate::value::{MATE, Score, back_up, terminal_value};
pub use build::Progress;
pub use table::{PhaseStats, Stats, Table, TableError};

/// Builds a variant's table in memory on `threads` threads.
pub fn build_table(
    advanced: bool,
    threads: usize,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Table, String> {
    let values =
        build::build(rules(advanced, true), threads, progress).map_err(|e| e.to_string())?;
    Ok(Table::from_values(advanced, values))
}

/// The best move of a position that is not over, by the table: the fastest win, the slowest
/// loss, or a drawing move; the first such in the game's move order. Returns the move, the
/// value (searcher's scale) and the number of table probes.
pub fn best_move(table: &Table, pos: &Teeko) -> Option<(TeekoMove, i32, u64)> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut best: Option<(TeekoMove, i32)> = None;
    let mut probes = 0;
    for mv in moves {
        let mut child = *pos;
        child.play(mv);
        let v = if child.outcome().is_some() {
            MATE - 1
        } else {
            probes += 1;
            back_up(table.value_of(&child))
        };
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((mv, v));
        }
    }
    best.map(|(m, v)| (m, v, probes))
}

/// Plies of principal variation reported with a solution.
const PV_PLIES: usize = 12;

/// The solution of a position from a table (exact, with a best move and a short PV).
pub fn solve_with(table: &Table, pos: &Teeko) -> Solution<TeekoMove> {
    if let Some(o) = pos.outcome() {
        return Solution {
            best: None,
            value: terminal_value(o, pos.side_to_move(), 0),
            exact: true,
            pv: Vec::new(),
            nodes: 0,
            tbhits: 0,
        };
    }
    let mut pv = Vec::new();
    let mut tbhits = 0;
    let mut value = 0;
    let mut p = *pos;
    while pv.len() < PV_PLIES {
        let Some((mv, v, probes)) = best_move(table, &p) else {
            break;
        };
        if pv.is_empty() {
            value = v;
        }
        tbhits += probes;
        pv.push(mv);
        p.play(mv);
    }
    Solution {
        best: pv.first().copied(),
        value,
        exact: true,
        pv,
        nodes: tbhits,
        tbhits,
    }
}

/// How often a waiting provider looks for a table another process is building.
const RECHECK: Duration = Duration::from_secs(2);

enum State {
    /// Not looked for yet.
    Unknown,
    /// A background thread looks for it (reads the files; ready in milliseconds when one
    /// is there).
    Loading,
    Ready(Arc<Table>),
    /// This process builds it.
    Building,
    /// Another process holds the build lock, or building is disabled; look again later.
    Waiting(Instant),
    /// The build failed; not retried in this process.
    Failed,
}

/// One variant's table for the engine: loaded lazily from its directory, or built in a
/// background thread and saved there (see [`Provider::shared`] for the engine's directories).
///
/// Several processes may start at once: the builder holds an advisory lock on
/// `<file>.lock` ([`BuildLock`]; the operating system releases it when the process ends,
/// however it ends, so a lock left by a killed process never blocks a later build), and the
/// file appears by an atomic rename, so a reader never sees a partial table. A damaged file
/// (bad size or checksum) is replaced: by a good copy from a later directory when there is
/// one, else by a rebuilt table.
///
/// Setting `PLY_TABLES_AUTOBUILD=0` disables background builds (tables are only loaded).
pub struct Provider {
    /// Where to look for the table and where to build it, in order of preference.
    dirs: Vec<PathBuf>,
    advanced: bool,
    threads: usize,
    state: Mutex<State>,
    /// Signalled whenever `state` changes.
    changed: Condvar,
}

impl Provider {
    /// A provider that keeps the table in `dir` only.
    pub fn new(dir: PathBuf, advanced: bool) -> Arc<Provider> {
        Self::with_dirs(vec![dir], advanced)
    }

    /// A provider that looks in `dirs` in order, and builds in the first writable one.
    pub fn with_dirs(dirs: Vec<PathBuf>, advanced: bool) -> Arc<Provider> {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        Arc::new(Provider {
            dirs,
            advanced,
            threads,
            state: Mutex::new(State::Unknown),
            changed: Condvar::new(),
        })
    }

    /// The process-wide provider of a variant, over [`table::search_dirs`]: `$PLY_TABLES`
    /// alone when it is set, else the default directory and then the fallback.
    pub fn shared(advanced: bool) -> Arc<Provider> {
        static SHARED: [OnceLock<Arc<Provider>>; 2] = [OnceLock::new(), OnceLock::new()];
        SHARED[advanced as usize]
            .get_or_init(|| Provider::with_dirs(table::search_dirs(), advanced))
            .clone()
    }

    /// The table file in the provider's first directory.
    pub fn path(&self) -> PathBuf {
        self.paths()[0].clone()
    }

    fn paths(&self) -> Vec<PathBuf> {
        self.dirs
            .iter()
            .map(|d| d.join(table::file_name(self.advanced)))
            .collect()
    }

    /// The table if it is ready; otherwise starts looking for it (loading it, or building it
    /// when it is missing or damaged) on a thread of its own, and returns `None` at once.
    pub fn get(self: &Arc<Self>) -> Option<Arc<Table>> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        match &*state {
            State::Ready(t) => return Some(t.clone()),
            State::Loading | State::Building | State::Failed => return None,
            State::Waiting(since) if since.elapsed() < RECHECK => return None,
            State::Waiting(_) | State::Unknown => {}
        }
        *state = State::Loading;
        let me = self.clone();
        let spawned = std::thread::Builder::new()
            .name("teeko-table".into())
            .spawn(move || me.find_or_build());
        if let Err(e) = spawned {
            log::error!("cannot start looking for the teeko table: {e}");
            *state = State::Failed;
        }
        None
    }

    /// [`Provider::get`], waiting while the table is being loaded from a file as long as
    /// `budget` allows (not while it is built: that takes seconds, the search answers
    /// meanwhile).
    pub fn get_within(self: &Arc<Self>, budget: &Budget) -> Option<Arc<Table>> {
        if let Some(t) = self.get() {
            return Some(t);
        }
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            match &*state {
                State::Ready(t) => return Some(t.clone()),
                State::Loading if !budget.exhausted(0) => {}
                _ => return None,
            }
            state = match self.changed.wait_timeout(state, Duration::from_millis(1)) {
                Ok((s, _)) => s,
                Err(e) => e.into_inner().0,
            };
        }
    }

    fn set(&self, next: State) {
        *self.state.lock().unwrap_or_else(|e| e.into_inner()) = next;
        self.changed.notify_all();
    }

    /// Loads the table from the first directory that has a good one (replacing damaged
    /// files before it), else builds it (when allowed and no other process is building it).
    fn find_or_build(self: Arc<Self>) {
        let mut damaged = Vec::new();
        for path in self.paths() {
            match Table::load(&path, self.advanced) {
                Ok(t) => {
                    log::info!("teeko table loaded from {}", path.display());
                    self.repair(&damaged, &t, &path);
                    return self.set(State::Ready(Arc::new(t)));
                }
                Err(TableError::Missing) => {}
                Err(e) => {
                    log::warn!("{}: {e}", path.display());
                    damaged.push(path);
                }
            }
        }
        if !damaged.is_empty() {
            log::warn!("no usable teeko table: it will be rebuilt");
        }
        if std::env::var("PLY_TABLES_AUTOBUILD").is_ok_and(|v| v == "0") {
            return self.set(State::Waiting(Instant::now()));
        }
        let (lock, path) = match self.lock() {
            Claim::Theirs => return self.set(State::Waiting(Instant::now())),
            Claim::Mine(lock, path) => (Some(lock), Some(path)),
            Claim::Nowhere => (None, None),
        };
        self.set(State::Building);
        self.build(lock, path);
    }

    /// Waits up to `timeout` for the table (starting its load or build), for callers that
    /// can afford to block.
    pub fn wait(self: &Arc<Self>, timeout: Duration) -> Option<Arc<Table>> {
        let end = Instant::now() + timeout;
        loop {
            if let Some(t) = self.get() {
                return Some(t);
            }
            if Instant::now() >= end {
                return None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Replaces each damaged file by `good` (loaded from `from`), when its lock is free.
    fn repair(&self, damaged: &[PathBuf], good: &Table, from: &Path) {
        for path in damaged {
            let done = match BuildLock::acquire(path) {
                Ok(Some(_lock)) => good.save(path).map_err(|e| e.to_string()),
                Ok(None) => Err("another process is writing it".into()),
                Err(e) => Err(e.to_string()),
            };
            match done {
                Ok(()) => log::warn!(
                    "{} replaced by the good copy from {}",
                    path.display(),
                    from.display()
                ),
                Err(e) => log::warn!(
                    "{} stays damaged ({e}); using {}",
                    path.display(),
                    from.display()
                ),
            }
        }
    }

    /// Takes the build lock in the first of the provider's directories that is writable.
    fn lock(&self) -> Claim {
        for path in self.paths() {
            match BuildLock::acquire(&path) {
                Ok(Some(lock)) => return Claim::Mine(lock, path),
                Ok(None) => {
                    log::info!(
                        "another process is building {}; waiting for it",
                        path.display()
                    );
                    return Claim::Theirs;
                }
                Err(e) => log::warn!("cannot write a table at {}: {e}", path.display()),
            }
        }
        Claim::Nowhere
    }

    /// Builds the table, saves it at `path` (holding `lock`) when there is one, and makes
    /// it the provider's.
    fn build(&self, lock: Option<BuildLock>, path: Option<PathBuf>) {
        log::warn!(
            "no usable teeko table: building {} in the background ({} threads); the engine \
             searches until it is ready",
            path.as_ref()
                .map_or("one in memory only".into(), |p| p.display().to_string()),
            self.threads
        );
        let start = Instant::now();
        let built = build_table(self.advanced, self.threads, &|p| {
            log::debug!("teeko table: {} ({}/{})", p.stage, p.done, p.total);
        });
        let next = match built {
            Ok(t) => {
                let secs = start.elapsed().as_secs_f64();
                match path.map(|p| (t.save(&p), p)) {
                    Some((Ok(()), p)) => log::warn!(
                        "teeko table built in {secs:.1} s and saved to {}",
                        p.display()
                    ),
                    Some((Err(e), p)) => log::error!(
                        "teeko table built in {secs:.1} s, but saving it to {} failed: {e}",
                        p.display()
                    ),
                    None => log::warn!("teeko table built in {secs:.1} s (not saved)"),
                }
                State::Ready(Arc::new(t))
            }
            Err(e) => {
                log::error!("teeko table build failed: {e}");
                State::Failed
            }
        };
        drop(lock);
        self.set(next);
    }
}

/// Who builds a missing table.
enum Claim {
    /// This process, saving it at the path.
    Mine(BuildLock, PathBuf),
    /// Another process holds the lock.
    Theirs,
    /// This process, but no directory is writable: the table stays in memory.
    Nowhere,
}

/// Where a solver's table comes from.
enum Source {
    Provider(Arc<Provider>),
    Fixed(Arc<Table>),
}

/// The Teeko solver: answers from the table of its variant, or declines while it is not
/// available. `tbhits` counts table probes (one per child position looked up).
pub struct TeekoSolver {
    advanced: bool,
    source: Source,
}

impl TeekoSolver {
    /// A solver using the process-wide table of the variant (see [`Provider`]).
    pub fn new(advanced: bool) -> TeekoSolver {
        Self::with_provider(Provider::shared(advanced), advanced)
    }

    pub fn with_provider(provider: Arc<Provider>, advanced: bool) -> TeekoSolver {
        TeekoSolver {
            advanced,
            source: Source::Provider(provider),
        }
    }

    /// A solver answering from a table already in memory.
    pub fn with_table(table: Arc<Table>) -> TeekoSolver {
        TeekoSolver {
            advanced: table.advanced,
            source: Source::Fixed(table),
        }
    }

    fn table(&self, budget: &Budget) -> Option<Arc<Table>> {
        match &self.source {
            Source::Fixed(t) => Some(t.clone()),
            Source::Provider(p) => p.get_within(budget),
        }
    }
}

impl Solver<Teeko> for TeekoSolver {
    fn solve(&mut self, pos: &Teeko, budget: &Budget) -> Option<Solution<TeekoMove>> {
        if pos.rules().advanced != self.advanced {
            return None;
        }
        let table = self.table(budget)?;
        Some(solve_with(&table, pos))
    }
}

impl Solvable for Teeko {
    fn solver(start: &Self, _table_mb: usize) -> Option<Box<dyn Solver<Self>>> {
        Some(Box::new(TeekoSolver::new(start.rules().advanced)))
    }
}

#[derive(Parser, Debug)]
#[command(
    name = "ply solve teeko",
    about = "Builds the Teeko tablebase: the value and distance of every position, by \
             retrograde analysis. Both centre rules share one table per goal set.",
    after_help = "The table goes to $PLY_TABLES, else $XDG_DATA_HOME/ply, else \
                  ~/.local/share/ply (or a temporary directory if that is not writable). \
                  The engine finds it there, and builds it by itself if it is missing."
)]
struct Args {
    /// Advanced Teeko: 58 goals (also the corners of every 3x3, 4x4 and 5x5 square).
    #[arg(long)]
    advanced: bool,
    /// Threads to build with (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Table file to write (default: the engine's table location).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Rebuild even if a valid table is already there.
    #[arg(long)]
    force: bool,
    /// Instead of building, print the value and best move of this position (in ply's
    /// Teeko notation, such as "...../.b.r./..b../.r.../..... b") from the table.
    #[arg(long, value_name = "FEN")]
    probe: Option<String>,
    /// With --probe: the first drop may not be the centre.
    #[arg(long)]
    no_centre: bool,
}

/// `ply solve teeko ARGS...`.
pub fn cli(args: &[String]) -> Result<(), String> {
    let argv = std::iter::once("ply solve teeko".to_string()).chain(args.iter().cloned());
    let a = match Args::try_parse_from(argv) {
        Ok(a) => a,
        Err(e) if e.use_stderr() => return Err(e.render().to_string()),
        Err(e) => {
            // --help: print it and succeed.
            let _ = e.print();
            return Ok(());
        }
    };
    let path = a
        .out
        .clone()
        .unwrap_or_else(|| default_table_path(a.advanced));
    let existing = if a.force {
        None
    } else {
        load_existing(&path, a.advanced)
    };
    if let Some(fen) = &a.probe {
        let table = existing.ok_or_else(|| {
            format!(
                "no table at {} (build it with `ply solve teeko{}`)",
                path.display(),
                if a.advanced { " --advanced" } else { "" }
            )
        })?;
        return probe(&table, fen, rules(a.advanced, !a.no_centre));
    }
    let (table, built_in) = match existing {
        Some(t) => {
            println!("table already built: {} (--force rebuilds)", path.display());
            (t, None)
        }
        None => {
            let threads = a
                .threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
                .max(1);
            let (t, secs) = build_with_progress_bar(a.advanced, threads)?;
            save_table(&t, &path)?;
            (t, Some((secs, threads)))
        }
    };
    print!("{}", summary(&table, &path, built_in));
    Ok(())
}

/// The first search directory that has the table file, else the first one.
fn default_table_path(advanced: bool) -> PathBuf {
    let name = table::file_name(advanced);
    let dirs = table::search_dirs();
    dirs.iter()
        .map(|d| d.join(&name))
        .find(|p| p.exists())
        .unwrap_or_else(|| dirs[0].join(&name))
}

/// The table at `path`, or `None` when it is missing or damaged (then said on stderr: it is
/// rebuilt).
fn load_existing(path: &Path, advanced: bool) -> Option<Table> {
    match Table::load(path, advanced) {
        Ok(t) => Some(t),
        Err(TableError::Missing) => None,
        Err(e) => {
            eprintln!("{}: {e}; rebuilding", path.display());
            None
        }
    }
}

/// `--probe`: prints the position's value, best move and principal variation.
fn probe(table: &Table, fen: &str, rules: &'static Rules) -> Result<(), String> {
    let pos = Teeko::from_raw(0, 0, Player::First, rules)
        .from_fen(fen)
        .map_err(|e| e.to_string())?;
    let s = solve_with(table, &pos);
    println!("value: {}", describe(s.value));
    if let Some(b) = s.best {
        let mut p = pos;
        let pv: Vec<String> =
            s.pv.iter()
                .map(|&m| {
                    let t = p.format_move(m);
                    p.play(m);
                    t
                })
                .collect();
        println!("best move: {}", pos.format_move(b));
        println!("pv: {}", pv.join(" "));
    }
    Ok(())
}

/// Builds the table with a progress bar on stderr; returns it and the seconds it took.
fn build_with_progress_bar(advanced: bool, threads: usize) -> Result<(Table, f64), String> {
    let bar = indicatif::ProgressBar::new(1);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{elapsed:>4} [{bar:36}] {percent:>3}% {msg}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    let start = Instant::now();
    let built = build_table(advanced, threads, &|p| {
        bar.set_length(p.total);
        bar.set_position(p.done);
        bar.set_message(p.stage.to_string());
    });
    bar.finish_and_clear();
    Ok((built?, start.elapsed().as_secs_f64()))
}

/// Saves the table under the build lock, so that two builders never write one file at once.
fn save_table(t: &Table, path: &Path) -> Result<(), String> {
    let _lock = BuildLock::acquire(path)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?
        .ok_or_else(|| {
            format!(
                "another process is writing {}; run this again once it is done",
                path.display()
            )
        })?;
    t.save(path)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// A value in words, with the protocol's score.
fn describe(v: i32) -> String {
    let s = Score::from_value(v);
    match s {
        Score::Mate(n) if n > 0 => format!("win in {} plies (score {s})", MATE - v),
        Score::Mate(_) => format!("loss in {} plies (score {s})", MATE + v),
        Score::Cp(_) => "draw (score cp 0)".to_string(),
    }
}

/// The report printed after a build.
pub fn summary(table: &Table, path: &Path, built: Option<(f64, usize)>) -> String {
    let st = table.stats();
    let mut out = String::new();
    let name = if table.advanced {
        "advanced Teeko (58 goals)"
    } else {
        "Teeko (44 goals)"
    };
    match built {
        Some((secs, threads)) => {
            out += &format!(
                "{name}: built in {secs:.2} s on {threads} thread(s), saved to {}\n",
                path.display()
            );
            if let Some([m, d]) = table.build_times {
                out += &format!(
                    "  move phase {:.2} s, drop phase {:.2} s (wall)\n",
                    m.as_secs_f64(),
                    d.as_secs_f64()
                );
            }
        }
        None => out += &format!("{name}: {}\n", path.display()),
    }
    out += &format!("start, centre allowed:   {}\n", describe(st.start));
    out += &format!(
        "start, centre forbidden: {}\n",
        describe(st.start_no_centre)
    );
    out += "positions (mover-relative boards; lost includes finished):\n";
    out += &format!(
        "  {:<11} {:>11} {:>11} {:>11} {:>11} {:>10} {:>10}\n",
        "phase", "total", "won", "drawn", "lost", "finished", "impossible"
    );
    for (label, p) in [("drop phase", &st.drop), ("move phase", &st.moves)] {
        out += &format!(
            "  {label:<11} {:>11} {:>11} {:>11} {:>11} {:>10} {:>10}\n",
            p.total(),
            p.won,
            p.drawn,
            p.lost,
            p.finished,
            p.invalid
        );
    }
    for (label, p) in [("drop phase", &st.drop), ("move phase", &st.moves)] {
        let (m, o) = p.longest_win_at;
        out += &format!(
            "longest forced win ({label}): {} plies (mate {}), e.g. {}\n",
            p.longest_win,
            p.longest_win.div_ceil(2),
            table.position(m, o).fen()
        );
    }
    out += &format!(
        "longest forced loss: {} plies in the drop phase, {} in the move phase\n",
        st.drop.longest_loss, st.moves.longest_loss
    );
    out
}
