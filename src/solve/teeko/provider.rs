//! The table provider: finds, loads, repairs or builds a table in the background for the
//! engine's solver, and waits for it within a search's budget.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

use super::build_table;
use super::table::{self, Table, TableError};
use crate::solve::Budget;
use crate::solve::files::BuildLock;

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
    /// `budget` allows, and while it is being built as long as `budget` has a deadline (a
    /// build takes seconds: a table ready within the solver's time is used, else the search
    /// answers; without a deadline, under `go depth` or `go infinite`, the search answers at
    /// once).
    pub fn get_within(self: &Arc<Self>, budget: &Budget) -> Option<Arc<Table>> {
        if let Some(t) = self.get() {
            return Some(t);
        }
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            match &*state {
                State::Ready(t) => return Some(t.clone()),
                State::Loading if !budget.exhausted(0) => {}
                State::Building if budget.deadline.is_some() && !budget.exhausted(0) => {}
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
