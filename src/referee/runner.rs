//! A match: the plan of games, the workers that play them concurrently, and the main loop
//! that records, prints and decides when to stop.
//!
//! Plan: game `i` (from 0) of `games × rounds` has A moving first when `i` is even, and
//! opening number `i` (or `i / 2` with `--repeat`, so both games of a pair share it, colours
//! swapped). Workers take the lowest unplayed game number; each worker owns one seat per
//! player (engine processes live as long as the worker). Only the main thread writes the
//! records file and stdout, so records are whole lines and output lines never interleave.

use std::collections::VecDeque;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::openings::{self, Book, Opening};
use super::play::{GameSetup, Unfinished, play_game, verify_record};
use super::player::{HumanInput, Seat, Timeouts, remove_variants_file};
use super::records::{self, GameRecord, RecordWriter};
use super::report::{self, Tally};
use super::signal;
use super::spec::{DrawRule, PlayerKind, PlayerSpec, ResignRule};
use super::stats::SprtParams;
use crate::game::{Game, Params};
use crate::games::NAMES;
use crate::util::Rng;
use crate::with_game;

/// Exit codes (documented in `--help` and the README).
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
    pub timeouts: Timeouts,
    pub recover: bool,
    pub verbose: bool,
    /// Show a progress bar when stderr is a terminal.
    pub progress: bool,
    /// Print the Elo line every this many games (0: only at the end).
    pub rating_interval: u64,
}

impl MatchConfig {
    pub fn total_games(&self) -> u64 {
        self.games.saturating_mul(self.rounds)
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
        PlayerKind::Engine { options, .. } => {
            let opts: Vec<String> = options.iter().map(|(k, v)| format!("{k}={v}")).collect();
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
pub fn run_match(cfg: MatchConfig, out: &mut dyn Write) -> i32 {
    if cfg.games == 0 || cfg.rounds == 0 || cfg.concurrency == 0 {
        eprintln!("ply-referee: --games, --rounds and --concurrency must be at least 1");
        return EXIT_USAGE;
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

fn run_typed<G: Game>(cfg: MatchConfig, out: &mut dyn Write) -> i32 {
    let start = match G::new(&cfg.params) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("ply-referee: --game {}: {e}", cfg.game);
            return EXIT_USAGE;
        }
    };
    for p in &cfg.players {
        if let PlayerKind::Engine {
            dialect: super::spec::Dialect::Fsf,
            ..
        } = p.kind
            && let Err(e) = super::fsf::FsfGame::for_game(&cfg.game, &cfg.params)
        {
            eprintln!("ply-referee: {}: {e}", p.name);
            return EXIT_USAGE;
        }
    }
    let (book_list, openings_id) = match &cfg.openings {
        None => (Vec::new(), "none".to_string()),
        Some(path) => match std::fs::read_to_string(path) {
            Ok(text) => match openings::load(&text, &start) {
                Ok(list) => (list, format!("{:016x}", fnv1a(text.as_bytes()))),
                Err(e) => {
                    eprintln!("ply-referee: --openings {}: {e}", path.display());
                    return EXIT_USAGE;
                }
            },
            Err(e) => {
                eprintln!("ply-referee: --openings {}: {e}", path.display());
                return EXIT_USAGE;
            }
        },
    };
    let match_id = format!(
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
    );
    let total = cfg.total_games();
    let names = [cfg.players[0].name.clone(), cfg.players[1].name.clone()];
    let mut tally = Tally::new(names.clone());

    // Records: resume reads what is there; both paths must agree.
    let records_path = match (&cfg.records, &cfg.resume) {
        (Some(r), Some(s)) if r != s => {
            eprintln!("ply-referee: --records and --resume name different files");
            return EXIT_USAGE;
        }
        (r, s) => s.clone().or_else(|| r.clone()),
    };
    let mut done = std::collections::BTreeSet::new();
    if let (Some(path), None) = (&cfg.records, &cfg.resume)
        && std::fs::metadata(path).is_ok_and(|m| m.len() > 0)
    {
        // Appending a second match would mix two matches' games in one file.
        eprintln!(
            "ply-referee: {} already holds records; continue that match with --resume {0}, \
             or choose another file",
            path.display()
        );
        return EXIT_USAGE;
    }
    if let Some(path) = &cfg.resume {
        let resumed = match records::resume(path, &match_id) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("ply-referee: --resume: {e}");
                return EXIT_USAGE;
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
        let mut beyond = 0;
        for (i, r) in &resumed.games {
            if *i >= total {
                beyond += 1;
                continue;
            }
            if let Err(e) = verify_record(&start, r) {
                eprintln!("ply-referee: --resume: {}: {e}", path.display());
                return EXIT_USAGE;
            }
            tally.add(r);
            done.insert(*i);
        }
        if beyond > 0 {
            eprintln!(
                "ply-referee: {beyond} recorded games lie beyond the {total} planned; not counted"
            );
        }
    }
    let mut writer = match &records_path {
        None => None,
        Some(p) => match RecordWriter::open(p) {
            Ok(w) => Some(w),
            Err(e) => {
                eprintln!("ply-referee: cannot open records file {}: {e}", p.display());
                return EXIT_RECORDS;
            }
        },
    };

    signal::install();
    let pending: VecDeque<u64> = (0..total).filter(|i| !done.contains(i)).collect();
    let pairs = cfg.repeat;
    let show_bar = cfg.progress
        && !cfg.verbose
        && std::io::stderr().is_terminal()
        && !cfg.players.iter().any(|p| p.kind == PlayerKind::Human);
    let bar = show_bar.then(|| {
        let b = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} games  {msg}  [{elapsed}<{eta}]")
        {
            b.set_style(style);
        }
        b.set_position(done.len() as u64);
        b
    });
    let mut printer = Printer { out, bar };
    if !done.is_empty() {
        printer.line(&format!(
            "Resuming: {} of {total} games already finished",
            done.len()
        ));
    }

    let sprt_decided = |t: &Tally| cfg.sprt.as_ref().and_then(|s| s.decide(t.llr(s, pairs)));
    let human = cfg
        .players
        .iter()
        .any(|p| p.kind == PlayerKind::Human)
        .then(|| Arc::new(HumanInput::stdin()));
    let workers = cfg.concurrency.min(pending.len());
    let already_decided = sprt_decided(&tally).is_some();
    let shared = Arc::new(Shared {
        start: start.clone(),
        match_id: match_id.clone(),
        queue: Mutex::new((
            pending,
            Book::new(book_list, cfg.shuffle, cfg.seed, cfg.random_plies),
        )),
        stop: AtomicBool::new(already_decided),
        abort: Arc::new(AtomicBool::new(false)),
        human,
        cfg: cfg.clone(),
    });

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
    drop(tx);

    let mut alive = handles.len();
    let mut engine_failed = false;
    let mut records_failed = false;
    let mut interrupted = false;
    let mut announced_sprt = already_decided;
    let mut last_score: Option<String> = None;
    while alive > 0 {
        if signal::interrupted() && !interrupted {
            interrupted = true;
            shared.abort.store(true, Ordering::SeqCst);
            shared.stop.store(true, Ordering::SeqCst);
            eprintln!("ply-referee: interrupted; stopping (finished games are recorded)");
        }
        let msg = match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(m) => m,
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => break,
        };
        match msg {
            Msg::Started { index, p1, p2 } => {
                printer.line(&report::started_line(index, total, &p1, &p2))
            }
            Msg::Finished(r) => {
                if let Some(w) = writer.as_mut()
                    && let Err(e) = w.append(&r)
                {
                    eprintln!(
                        "ply-referee: cannot write the records file: {e}; stopping the match"
                    );
                    records_failed = true;
                    shared.stop.store(true, Ordering::SeqCst);
                }
                tally.add(&r);
                printer.line(&report::finished_line(&r));
                let score = report::score_line(&tally);
                printer.line(&score);
                last_score = Some(score);
                if cfg.rating_interval > 0
                    && tally.games().is_multiple_of(cfg.rating_interval)
                    && let Some(l) = report::elo_line(&tally.a)
                {
                    printer.line(&l);
                }
                if let Some(b) = &printer.bar {
                    b.inc(1);
                    b.set_message(format!(
                        "{} {}-{}-{}",
                        names[0], tally.a.wins, tally.a.losses, tally.a.draws
                    ));
                }
                if !announced_sprt && sprt_decided(&tally).is_some() {
                    announced_sprt = true;
                    shared.stop.store(true, Ordering::SeqCst);
                    if let Some(s) = &cfg.sprt {
                        printer.line(&report::sprt_line(s, tally.llr(s, pairs), pairs));
                    }
                }
            }
            Msg::EngineDown(why) => {
                eprintln!("ply-referee: {why}; stopping the match (--recover restarts engines)");
                engine_failed = true;
                shared.stop.store(true, Ordering::SeqCst);
            }
            Msg::Fatal(why) => {
                eprintln!("ply-referee: {why}");
                engine_failed = true;
                shared.stop.store(true, Ordering::SeqCst);
            }
            Msg::Done => alive -= 1,
        }
    }
    for h in handles {
        let _ = h.join();
    }
    remove_variants_file();
    if let Some(b) = printer.bar.take() {
        b.finish_and_clear();
    }
    for l in report::summary(&tally, cfg.sprt.as_ref(), pairs) {
        // The score line was just printed after the last game.
        if Some(&l) != last_score.as_ref() {
            printer.line(&l);
        }
    }
    printer.line("Finished match");
    if interrupted {
        EXIT_INTERRUPTED
    } else if records_failed {
        EXIT_RECORDS
    } else if engine_failed {
        EXIT_ENGINE
    } else {
        EXIT_OK
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
