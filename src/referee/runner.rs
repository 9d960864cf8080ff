//! A match: the plan of games, the workers that play them concurrently, and the main loop
//! that records, prints and decides when to stop.
//!
//! Plan: game `i` (from 0) of `games × rounds` has A moving first when `i` is even, and
//! opening number `i` (or `i / 2` with `--repeat`, so both games of a pair share it, colours
//! swapped). Workers take the lowest unplayed game number; each worker owns one seat per
//! player (engine processes live as long as the worker). Only the main thread writes the
//! records file and stdout, so records are whole lines and output lines never interleave.
//!
//! `--shard i/N` plays only the games of the `i`-th of `N` slices of the plan, cut between
//! game pairs ([`crate::shard`]); each game is still the plan's game of that number, so the
//! shards' records together are the whole match, merged by [`super::merge`]. A shard does not
//! stop on the SPRT: that is decided over the whole match.

use std::collections::VecDeque;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::openings::{self, Book, Opening, OpeningsFormat};
use super::pgn::{self, PgnWriter};
use super::play::{GameSetup, Unfinished, play_game, verify_record};
use super::player::{HumanInput, Seat, Timeouts};
use super::records::{self, GameRecord, RecordWriter};
use super::report::{self, Tally};
use super::signal;
use super::spec::{DrawRule, PlayerKind, PlayerSpec, ResignRule};
use super::stats::SprtParams;
use crate::client::Dialect;
use crate::client::fsf::{FsfGame, remove_variants_file};
use crate::game::{Game, Params};
use crate::games::NAMES;
use crate::shard::Shard;
use crate::util::Rng;
use crate::with_game;

/// Exit codes (documented in `--help` and docs/referee.md).
pub const EXIT_OK: i32 = 0;
pub const EXIT_USAGE: i32 = 1;
pub const EXIT_ENGINE: i32 = 2;
pub const EXIT_INTERRUPTED: i32 = 3;
pub const EXIT_RECORDS: i32 = 4;

/// Everything a match needs, as the command line gave it.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub game: String,
    pub params: Params,
    /// `[A, B]`.
    pub players: [PlayerSpec; 2],
    pub games: u64,
    pub rounds: u64,
    pub repeat: bool,
    pub concurrency: usize,
    pub openings: Option<PathBuf>,
    /// The openings file's format; `None`: by its name (see [`OpeningsFormat::of_path`]).
    pub openings_format: Option<OpeningsFormat>,
    /// At most this many plies of each PGN opening.
    pub opening_plies: Option<usize>,
    pub shuffle: bool,
    pub seed: u64,
    pub random_plies: u32,
    pub max_plies: Option<u32>,
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
    pub sprt: Option<SprtParams>,
    pub records: Option<PathBuf>,
    /// Resume from (and append to) this records file.
    pub resume: Option<PathBuf>,
    /// Append every finished game to this PGN file (chess only).
    pub pgn: Option<PathBuf>,
    pub timeouts: Timeouts,
    pub recover: bool,
    pub verbose: bool,
    /// Show a progress bar when stderr is a terminal.
    pub progress: bool,
    /// Print the Elo line every this many games (0: only at the end).
    pub rating_interval: u64,
    /// Play only this slice of the plan.
    pub shard: Option<Shard>,
}

impl MatchConfig {
    pub fn total_games(&self) -> u64 {
        self.games.saturating_mul(self.rounds)
    }

    /// The games this run plays: the whole plan, or the shard's slice of it (whole pairs).
    pub fn planned_games(&self) -> std::ops::Range<u64> {
        let total = self.total_games();
        self.shard.map_or(0..total, |s| s.range(total, 2))
    }
}

enum Msg {
    Started {
        index: u64,
        p1: String,
        p2: String,
    },
    Finished(Box<GameRecord>),
    /// An engine failed and may not be restarted (no `--recover`).
    EngineDown(String),
    Fatal(String),
    Done,
}

struct Shared<G: Game> {
    cfg: MatchConfig,
    start: G,
    match_id: String,
    queue: Mutex<(VecDeque<u64>, Book)>,
    /// No new games (SPRT decided, an engine is down, records cannot be written).
    stop: AtomicBool,
    /// Drop games in progress (interrupted).
    abort: Arc<AtomicBool>,
    human: Option<Arc<HumanInput>>,
}

impl<G: Game> Shared<G> {
    fn next_game(&self) -> Option<(u64, Opening)> {
        let mut q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        let index = q.0.pop_front()?;
        let key = if self.cfg.repeat { index / 2 } else { index };
        let opening = q.1.opening(&self.start, key);
        Some((index, opening))
    }
}

/// 64-bit FNV-1a, to fingerprint an openings file by content.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn describe_player(p: &PlayerSpec) -> String {
    let kind = match &p.kind {
        PlayerKind::Engine { engine, .. } => {
            let opts: Vec<String> = engine
                .options
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            if opts.is_empty() {
                "engine".to_string()
            } else {
                format!("engine {}", opts.join(" "))
            }
        }
        PlayerKind::Random => "random".to_string(),
        PlayerKind::Human => "human".to_string(),
    };
    format!("{} ({kind}; {})", p.name, p.limits.describe())
}

/// Plays the match; returns the exit code. Report lines go to `out`, diagnostics to stderr.
pub fn run_match(mut cfg: MatchConfig, out: &mut dyn Write) -> i32 {
    if cfg.games == 0 || cfg.rounds == 0 || cfg.concurrency == 0 {
        eprintln!("ply-referee: --games, --rounds and --concurrency must be at least 1");
        return EXIT_USAGE;
    }
    if let (Some(shard), Some(_)) = (cfg.shard, cfg.sprt) {
        eprintln!(
            "ply-referee: --shard {shard} plays all its games: the SPRT is decided over the \
             whole match (`ply-referee merge --sprt ..` of the shards' records)"
        );
        cfg.sprt = None;
    }
    let humans = cfg
        .players
        .iter()
        .filter(|p| p.kind == PlayerKind::Human)
        .count();
    if humans > 0 && cfg.concurrency > 1 {
        eprintln!("ply-referee: a human player needs --concurrency 1");
        return EXIT_USAGE;
    }
    let name = cfg.game.clone();
    with_game!(name.as_str(), G => run_typed::<G>(cfg, out), _ => {
        eprintln!(
            "ply-referee: unknown game '{name}' (known: {})",
            NAMES.join(", ")
        );
        EXIT_USAGE
    })
}

/// Prints report lines without tearing the progress bar.
struct Printer<'a> {
    out: &'a mut dyn Write,
    bar: Option<ProgressBar>,
}

impl Printer<'_> {
    fn line(&mut self, text: &str) {
        let out = &mut self.out;
        let mut write = || {
            let _ = writeln!(out, "{text}").and_then(|_| out.flush());
        };
        match &self.bar {
            Some(bar) => bar.suspend(write),
            None => write(),
        }
    }
}

/// Exits the match early with this code; the reason is already on stderr.
type ExitCode = i32;

/// Plays the match of game `G`: prepares it (start position, openings, records to resume),
/// starts the workers, and runs the main loop until they are done.
fn run_typed<G: Game>(cfg: MatchConfig, out: &mut dyn Write) -> i32 {
    match prepare::<G>(&cfg) {
        Ok(Prepared {
            shared,
            tally,
            writer,
            pgn,
            done,
        }) => {
            let workers = cfg.concurrency.min(total_pending(&shared));
            let (handles, rx) = spawn_workers(&shared, workers);
            let bar = progress_bar(&cfg, done);
            let mut main = MainLoop {
                printer: Printer { out, bar },
                tally,
                writer,
                pgn,
                shared,
                alive: handles.len(),
                announced_sprt: false,
                engine_failed: false,
                records_failed: false,
                interrupted: false,
                last_score: None,
            };
            main.announced_sprt = main.shared.stop.load(Ordering::SeqCst);
            if let Some(shard) = cfg.shard {
                let games = cfg.planned_games();
                main.printer.line(&format!(
                    "Shard {shard}: games {} to {} of {}",
                    games.start + 1,
                    games.end,
                    cfg.total_games()
                ));
            }
            if done > 0 {
                main.printer.line(&format!(
                    "Resuming: {done} of {} games already finished",
                    cfg.total_games()
                ));
            }
            main.run(&rx);
            for h in handles {
                let _ = h.join();
            }
            main.finish()
        }
        Err(code) => code,
    }
}

/// A match ready to start.
struct Prepared<G: Game> {
    /// What the workers share.
    shared: Arc<Shared<G>>,
    /// The resumed games' results.
    tally: Tally,
    writer: Option<RecordWriter>,
    pgn: Option<PgnOutput>,
    /// How many games are already done.
    done: usize,
}

/// The `--pgn` file and the clock its games' `TimeControl` tag names (when both players had
/// the same one).
struct PgnOutput {
    writer: PgnWriter,
    tc: Option<String>,
}

impl PgnOutput {
    fn open(cfg: &MatchConfig) -> Result<Option<PgnOutput>, ExitCode> {
        let Some(path) = &cfg.pgn else {
            return Ok(None);
        };
        if !pgn::supports(&cfg.game) {
            eprintln!(
                "ply-referee: --pgn: PGN records chess games, not {}'s",
                cfg.game
            );
            return Err(EXIT_USAGE);
        }
        let writer = PgnWriter::open(path).map_err(|e| {
            eprintln!("ply-referee: cannot open PGN file {}: {e}", path.display());
            EXIT_RECORDS
        })?;
        let [a, b] = &cfg.players;
        let tc = (a.limits.tc == b.limits.tc)
            .then(|| a.limits.tc.map(|t| t.to_string()))
            .flatten();
        Ok(Some(PgnOutput { writer, tc }))
    }
}

/// Everything before the first game: the rules, the openings, the records already there.
fn prepare<G: Game>(cfg: &MatchConfig) -> Result<Prepared<G>, ExitCode> {
    let start = start_position::<G>(cfg)?;
    let (book_list, openings_id) = load_openings(cfg, &start)?;
    let pgn = PgnOutput::open(cfg)?;
    let match_id = match_id(cfg, &start, &openings_id);
    let planned = cfg.planned_games();
    let mut tally = Tally::new([cfg.players[0].name.clone(), cfg.players[1].name.clone()]);
    let records_path = records_path(cfg)?;
    let mut done = std::collections::BTreeSet::new();
    if let Some(path) = &cfg.resume {
        done = resume_games(path, &start, &match_id, &planned, &mut tally)?;
    }
    let writer = match &records_path {
        None => None,
        Some(p) => match RecordWriter::open(p) {
            Ok(w) => Some(w),
            Err(e) => {
                eprintln!("ply-referee: cannot open records file {}: {e}", p.display());
                return Err(EXIT_RECORDS);
            }
        },
    };
    signal::install();
    let pending: VecDeque<u64> = planned.filter(|i| !done.contains(i)).collect();
    let human = cfg
        .players
        .iter()
        .any(|p| p.kind == PlayerKind::Human)
        .then(|| Arc::new(HumanInput::stdin()));
    let already_decided = sprt_decided(cfg, &tally);
    let shared = Arc::new(Shared {
        start,
        match_id,
        queue: Mutex::new((
            pending,
            Book::new(book_list, cfg.shuffle, cfg.seed, cfg.random_plies),
        )),
        stop: AtomicBool::new(already_decided),
        abort: Arc::new(AtomicBool::new(false)),
        human,
        cfg: cfg.clone(),
    });
    Ok(Prepared {
        shared,
        tally,
        writer,
        pgn,
        done: done.len(),
    })
}

/// The start position under the match's parameters; every Fairy-Stockfish player must
/// support the game.
fn start_position<G: Game>(cfg: &MatchConfig) -> Result<G, ExitCode> {
    let start = match G::new(&cfg.params) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("ply-referee: --game {}: {e}", cfg.game);
            return Err(EXIT_USAGE);
        }
    };
    for p in &cfg.players {
        if let PlayerKind::Engine { engine, .. } = &p.kind
            && engine.dialect == Dialect::Fsf
            && let Err(e) = FsfGame::for_game(&cfg.game, &cfg.params)
        {
            eprintln!("ply-referee: {}: {e}", p.name);
            return Err(EXIT_USAGE);
        }
    }
    Ok(start)
}

/// The openings file's openings, checked against the rules, and its fingerprint for the
/// match's identity (`none` without a file).
fn load_openings<G: Game>(
    cfg: &MatchConfig,
    start: &G,
) -> Result<(Vec<Opening>, String), ExitCode> {
    let Some(path) = &cfg.openings else {
        return Ok((Vec::new(), "none".to_string()));
    };
    let format = cfg
        .openings_format
        .unwrap_or_else(|| OpeningsFormat::of_path(path));
    if format != OpeningsFormat::Ply && !pgn::supports(&cfg.game) {
        eprintln!(
            "ply-referee: --openings {}: EPD and PGN openings are chess positions, not {}'s",
            path.display(),
            cfg.game
        );
        return Err(EXIT_USAGE);
    }
    let loaded = std::fs::read_to_string(path)
        .map_err(|e| e.to_string())
        .and_then(|text| {
            let list = openings::load_as(&text, format, start, cfg.opening_plies)?;
            let mut id = format!("{:016x}", fnv1a(text.as_bytes()));
            if let Some(n) = cfg.opening_plies.filter(|_| format == OpeningsFormat::Pgn) {
                id.push_str(&format!(" plies {n}"));
            }
            Ok((list, id))
        });
    loaded.map_err(|e| {
        eprintln!("ply-referee: --openings {}: {e}", path.display());
        EXIT_USAGE
    })
}

/// What makes two runs the same match: `--resume` and `ply-referee merge` accept only records
/// of one. Its words are ` | `-separated; [`repeat_of_match_id`] reads one back.
fn match_id<G: Game>(cfg: &MatchConfig, start: &G, openings_id: &str) -> String {
    format!(
        "{} [{}] | A: {} | B: {} | openings {} {} | random plies {} | repeat {} | seed {} | max plies {}",
        cfg.game,
        start.params(),
        describe_player(&cfg.players[0]),
        describe_player(&cfg.players[1]),
        openings_id,
        if cfg.shuffle { "shuffled" } else { "in order" },
        cfg.random_plies,
        cfg.repeat,
        cfg.seed,
        cfg.max_plies.map_or("none".to_string(), |m| m.to_string()),
    )
}

/// Whether the match a fingerprint names played its openings twice (`--repeat`), so that its
/// SPRT counts game pairs; `None` when the text is not a fingerprint [`match_id`] wrote.
pub fn repeat_of_match_id(id: &str) -> Option<bool> {
    id.split(" | ")
        .find_map(|word| word.strip_prefix("repeat "))
        .and_then(|v| v.parse().ok())
}

/// The records file to write, if any: `--records` and `--resume` must agree, and a new
/// match does not append to a file that already holds records.
fn records_path(cfg: &MatchConfig) -> Result<Option<PathBuf>, ExitCode> {
    let path = match (&cfg.records, &cfg.resume) {
        (Some(r), Some(s)) if r != s => {
            eprintln!("ply-referee: --records and --resume name different files");
            return Err(EXIT_USAGE);
        }
        (r, s) => s.clone().or_else(|| r.clone()),
    };
    if let (Some(path), None) = (&cfg.records, &cfg.resume)
        && std::fs::metadata(path).is_ok_and(|m| m.len() > 0)
    {
        // Appending a second match would mix two matches' games in one file.
        eprintln!(
            "ply-referee: {} already holds records; continue that match with --resume {0}, \
             or choose another file",
            path.display()
        );
        return Err(EXIT_USAGE);
    }
    Ok(path)
}

/// Reads the games already recorded at `path` for this match, checks each against the
/// rules and counts those of `planned` (the plan, or a shard's slice of it); returns their
/// numbers.
fn resume_games<G: Game>(
    path: &std::path::Path,
    start: &G,
    match_id: &str,
    planned: &std::ops::Range<u64>,
    tally: &mut Tally,
) -> Result<std::collections::BTreeSet<u64>, ExitCode> {
    let resumed = match records::resume(path, match_id) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("ply-referee: --resume: {e}");
            return Err(EXIT_USAGE);
        }
    };
    if resumed.truncated_bytes > 0 {
        eprintln!(
            "ply-referee: dropped an unfinished last line ({} bytes) from {}",
            resumed.truncated_bytes,
            path.display()
        );
    }
    if resumed.duplicates > 0 {
        eprintln!(
            "ply-referee: {} records repeat a game already recorded; each game counts once",
            resumed.duplicates
        );
    }
    let mut done = std::collections::BTreeSet::new();
    let mut beyond = 0;
    for (i, r) in &resumed.games {
        if !planned.contains(i) {
            beyond += 1;
            continue;
        }
        if let Err(e) = verify_record(start, r) {
            eprintln!("ply-referee: --resume: {}: {e}", path.display());
            return Err(EXIT_USAGE);
        }
        tally.add(r);
        done.insert(*i);
    }
    if beyond > 0 {
        eprintln!(
            "ply-referee: {beyond} recorded games lie outside the games planned here ({} to \
             {}); not counted",
            planned.start + 1,
            planned.end
        );
    }
    Ok(done)
}

/// Whether the SPRT (if any) has decided on the games of `tally`.
fn sprt_decided(cfg: &MatchConfig, tally: &Tally) -> bool {
    cfg.sprt
        .as_ref()
        .and_then(|s| s.decide(tally.llr(s, cfg.repeat)))
        .is_some()
}

fn total_pending<G: Game>(shared: &Shared<G>) -> usize {
    let q = shared.queue.lock().unwrap_or_else(|e| e.into_inner());
    q.0.len()
}

/// A progress bar on stderr when it is a terminal and nothing else writes there (no `-v`,
/// no human player).
fn progress_bar(cfg: &MatchConfig, done: usize) -> Option<ProgressBar> {
    let show_bar = cfg.progress
        && !cfg.verbose
        && std::io::stderr().is_terminal()
        && !cfg.players.iter().any(|p| p.kind == PlayerKind::Human);
    let planned = cfg.planned_games().end - cfg.planned_games().start;
    show_bar.then(|| {
        let b = ProgressBar::with_draw_target(Some(planned), ProgressDrawTarget::stderr());
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} games  {msg}  [{elapsed}<{eta}]")
        {
            b.set_style(style);
        }
        b.set_position(done as u64);
        b
    })
}

fn spawn_workers<G: Game>(
    shared: &Arc<Shared<G>>,
    workers: usize,
) -> (Vec<std::thread::JoinHandle<()>>, mpsc::Receiver<Msg>) {
    let (tx, rx) = mpsc::channel();
    let mut handles = Vec::new();
    for w in 0..workers {
        let shared = shared.clone();
        let tx = tx.clone();
        let h = std::thread::Builder::new()
            .name(format!("worker-{w}"))
            .spawn(move || worker(shared, tx));
        match h {
            Ok(h) => handles.push(h),
            Err(e) => eprintln!("ply-referee: cannot start a worker thread: {e}"),
        }
    }
    (handles, rx)
}

/// The main thread's state while games are played: it alone writes the records and stdout.
struct MainLoop<'a, G: Game> {
    printer: Printer<'a>,
    tally: Tally,
    writer: Option<RecordWriter>,
    pgn: Option<PgnOutput>,
    shared: Arc<Shared<G>>,
    /// Workers that have not said `Done`.
    alive: usize,
    announced_sprt: bool,
    engine_failed: bool,
    records_failed: bool,
    interrupted: bool,
    /// The last score line printed (the summary does not repeat it).
    last_score: Option<String>,
}

impl<G: Game> MainLoop<'_, G> {
    /// Handles the workers' messages until every worker is done.
    fn run(&mut self, rx: &mpsc::Receiver<Msg>) {
        while self.alive > 0 {
            if signal::interrupted() && !self.interrupted {
                self.interrupted = true;
                self.shared.abort.store(true, Ordering::SeqCst);
                self.shared.stop.store(true, Ordering::SeqCst);
                eprintln!("ply-referee: interrupted; stopping (finished games are recorded)");
            }
            match rx.recv_timeout(Duration::from_millis(100)) {
                Ok(msg) => self.handle(msg),
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
    }

    fn handle(&mut self, msg: Msg) {
        let total = self.shared.cfg.total_games();
        match msg {
            Msg::Started { index, p1, p2 } => self
                .printer
                .line(&report::started_line(index, total, &p1, &p2)),
            Msg::Finished(mut r) => {
                r.planned = Some(total);
                self.finished(&r)
            }
            Msg::EngineDown(why) => {
                eprintln!("ply-referee: {why}; stopping the match (--recover restarts engines)");
                self.engine_failed = true;
                self.shared.stop.store(true, Ordering::SeqCst);
            }
            Msg::Fatal(why) => {
                eprintln!("ply-referee: {why}");
                self.engine_failed = true;
                self.shared.stop.store(true, Ordering::SeqCst);
            }
            Msg::Done => self.alive -= 1,
        }
    }

    /// A finished game: recorded, counted, printed; the SPRT may end the match.
    fn finished(&mut self, r: &GameRecord) {
        let cfg = &self.shared.cfg;
        if let Some(w) = self.writer.as_mut()
            && let Err(e) = w.append(r)
        {
            eprintln!("ply-referee: cannot write the records file: {e}; stopping the match");
            self.records_failed = true;
            self.shared.stop.store(true, Ordering::SeqCst);
        }
        if let Some(p) = self.pgn.as_mut()
            && let Err(e) = p.writer.append(r, p.tc.as_deref())
        {
            eprintln!("ply-referee: cannot write the PGN file: {e}; stopping the match");
            self.records_failed = true;
            self.shared.stop.store(true, Ordering::SeqCst);
        }
        let tally = &mut self.tally;
        tally.add(r);
        self.printer.line(&report::finished_line(r));
        let score = report::score_line(tally);
        self.printer.line(&score);
        self.last_score = Some(score);
        if cfg.rating_interval > 0
            && tally.games().is_multiple_of(cfg.rating_interval)
            && let Some(l) = report::elo_line(&tally.a)
        {
            self.printer.line(&l);
        }
        if let Some(b) = &self.printer.bar {
            b.inc(1);
            b.set_message(format!(
                "{} {}-{}-{}",
                tally.names[0], tally.a.wins, tally.a.losses, tally.a.draws
            ));
        }
        if !self.announced_sprt && sprt_decided(cfg, tally) {
            self.announced_sprt = true;
            self.shared.stop.store(true, Ordering::SeqCst);
            if let Some(s) = &cfg.sprt {
                let pairs = cfg.repeat;
                self.printer
                    .line(&report::sprt_line(s, tally.llr(s, pairs), pairs));
            }
        }
    }

    /// The summary, and the exit code.
    fn finish(mut self) -> i32 {
        let cfg = &self.shared.cfg;
        remove_variants_file();
        if let Some(b) = self.printer.bar.take() {
            b.finish_and_clear();
        }
        for l in report::summary(&self.tally, cfg.sprt.as_ref(), cfg.repeat) {
            // The score line was just printed after the last game.
            if Some(&l) != self.last_score.as_ref() {
                self.printer.line(&l);
            }
        }
        self.printer.line("Finished match");
        if self.interrupted {
            EXIT_INTERRUPTED
        } else if self.records_failed {
            EXIT_RECORDS
        } else if self.engine_failed {
            EXIT_ENGINE
        } else {
            EXIT_OK
        }
    }
}

fn worker<G: Game>(shared: Arc<Shared<G>>, tx: Sender<Msg>) {
    let cfg = &shared.cfg;
    let mut seats = [0, 1].map(|i| {
        Seat::new(
            &cfg.players[i],
            cfg.timeouts,
            cfg.verbose,
            shared.abort.clone(),
            shared.human.clone(),
        )
    });
    let names = [cfg.players[0].name.as_str(), cfg.players[1].name.as_str()];
    let timed = [0, 1].map(|i| cfg.players[i].is_engine());
    loop {
        if shared.stop.load(Ordering::SeqCst) {
            break;
        }
        if !cfg.recover
            && let Some(i) = seats.iter().position(Seat::needs_restart)
        {
            let _ = tx.send(Msg::EngineDown(format!(
                "{} failed in its last game",
                names[i]
            )));
            break;
        }
        let Some((index, opening)) = shared.next_game() else {
            break;
        };
        let p1_player = (index % 2) as u8;
        let _ = tx.send(Msg::Started {
            index,
            p1: names[p1_player as usize].to_string(),
            p2: names[1 - p1_player as usize].to_string(),
        });
        let setup = GameSetup {
            match_id: &shared.match_id,
            index,
            round: index / cfg.games + 1,
            game: &cfg.game,
            params: &cfg.params,
            names,
            limits: [&cfg.players[0].limits, &cfg.players[1].limits],
            timed,
            p1_player,
            opening,
            max_plies: cfg.max_plies,
            resign: cfg.resign,
            draw: cfg.draw,
            seed: Rng::new(cfg.seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15)).next_u64(),
            abort: &shared.abort,
        };
        let t = Instant::now();
        match play_game(&setup, &shared.start, &mut seats) {
            Ok(r) => {
                log::debug!("game {} took {:?}", index + 1, t.elapsed());
                let _ = tx.send(Msg::Finished(Box::new(r)));
            }
            Err(Unfinished::Aborted) => break,
            Err(Unfinished::Fatal(e)) => {
                let _ = tx.send(Msg::Fatal(e));
                break;
            }
        }
        for s in seats.iter_mut() {
            s.after_game();
        }
    }
    for s in seats.iter_mut() {
        s.shutdown();
    }
    let _ = tx.send(Msg::Done);
}
