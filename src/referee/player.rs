//! The seats at the board: an engine process driven through the protocol, the built-in
//! random mover, and a person at the terminal. A seat lives as long as a match worker and
//! plays many games; an engine seat keeps its process between games (a fresh one with
//! `restart=on`, or after the old one failed).
//!
//! Seats see positions through [`PositionView`], so nothing here is generic over the game:
//! the game runner (`play`) owns the typed position and checks every move the seats return.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use super::engine::{EngineProcess, Launch, WaitError};
use super::fsf::{FsfGame, VARIANTS_INI};
use super::records::Termination;
use super::spec::{Dialect, PlayerKind, PlayerSpec};
use super::tc::Clock;
use crate::game::{Game, MoveError, Params, Player};
use crate::protocol::command::{Command, GoParams, PositionStart};
use crate::protocol::response::{BestMove, IdLine, InfoLine, OptionLine};
use crate::util::Rng;
use crate::value::Score;

/// The position as seats need it, in text.
pub trait PositionView {
    fn fen(&self) -> String;
    fn diagram(&self) -> String;
    /// Legal moves in reading order (shorter first, then alphabetical).
    fn legal_move_texts(&self) -> Vec<String>;
    fn side(&self) -> Player;
    /// Whether `text` is a legal move here, and why not.
    fn check_move(&self, text: &str) -> Result<(), MoveError>;
}

impl<G: Game> PositionView for G {
    fn fen(&self) -> String {
        Game::fen(self)
    }

    fn diagram(&self) -> String {
        Game::diagram(self)
    }

    fn legal_move_texts(&self) -> Vec<String> {
        crate::game::legal_moves_by_name(self)
            .into_iter()
            .map(|(text, _)| text)
            .collect()
    }

    fn side(&self) -> Player {
        self.side_to_move()
    }

    fn check_move(&self, text: &str) -> Result<(), MoveError> {
        self.parse_move(text).map(|_| ())
    }
}

/// A move already played, with the position it was played in (Fairy-Stockfish's notation
/// of a Connect Four drop depends on it).
#[derive(Clone, Debug)]
pub struct Played {
    pub mv: String,
    pub fen_before: String,
}

/// What a seat is asked to move in.
pub struct MoveRequest<'a> {
    pub view: &'a dyn PositionView,
    /// The position the move list starts from: `None` for the game's start position, else
    /// ply's FEN.
    pub base_fen: Option<&'a str>,
    /// Every move since `base_fen`, opening moves included.
    pub history: &'a [Played],
    /// Both players' clocks, indexed by [`Player::index`] (`None`: that player has none).
    pub clocks: [Option<&'a Clock>; 2],
    /// The longest the mover may take (its clock or fixed move time, plus the margin);
    /// `None` when only depth or nodes limit it.
    pub allowance: Option<Duration>,
    /// The mover's name (for the human seat's prompt).
    pub name: &'a str,
}

/// A seat's move.
#[derive(Clone, Debug, Default)]
pub struct Reply {
    /// In ply's notation (translated for Fairy-Stockfish); `(none)` for `bestmove (none)`.
    pub mv: String,
    /// The engine's own text, when translation changed it.
    pub raw: Option<String>,
    pub elapsed: Duration,
    pub depth: Option<u32>,
    pub score: Option<Score>,
    pub nodes: Option<u64>,
    /// When `go` was written and when `bestmove` was read (engines only): the time between
    /// one move's `received` and the next move's `sent` is the referee's own work.
    pub sent: Option<Instant>,
    pub received: Option<Instant>,
}

/// A seat's failure to move; the seat loses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub kind: Termination,
    pub detail: String,
}

#[derive(Debug, PartialEq, Eq)]
pub enum SeatError {
    /// The seat loses the game.
    Forfeit(Failure),
    /// The match cannot go on (an engine command that cannot be started at all).
    Fatal(String),
    /// The referee is shutting down.
    Aborted,
}

fn forfeit(kind: Termination, detail: impl Into<String>) -> SeatError {
    SeatError::Forfeit(Failure {
        kind,
        detail: detail.into(),
    })
}

/// The referee-wide waits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// Longest wait for `uciok` and `readyok`.
    pub stall: Duration,
    /// Longest wait for `bestmove` when no clock or move time limits the search.
    pub move_timeout: Duration,
    /// How long after `stop` a late engine may still answer before it is killed.
    pub stop_grace: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts {
            stall: Duration::from_secs(10),
            move_timeout: Duration::from_secs(60),
            stop_grace: Duration::from_secs(1),
        }
    }
}

/// What `info` lines said during one search.
#[derive(Default)]
struct InfoSummary {
    depth: Option<u32>,
    score: Option<Score>,
    nodes: Option<u64>,
}

impl InfoSummary {
    /// Takes `depth`, `score` and `nodes` from an `info` line where it gives them (read
    /// leniently: a malformed value is ignored, the line stays informational).
    fn update(&mut self, line: &str) {
        let Ok(info) = line.parse::<InfoLine>() else {
            return;
        };
        self.depth = info.depth.or(self.depth);
        self.score = info.score.map(|s| s.score).or(self.score);
        self.nodes = info.nodes.or(self.nodes);
    }
}

/// The file `VariantPath` points at: the shipped variants file, written once per run.
fn variants_file() -> Result<PathBuf, String> {
    static PATH: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    PATH.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("ply-referee-{}", std::process::id()));
        let path = dir.join("fsf_variants.ini");
        std::fs::create_dir_all(&dir)
            .and_then(|_| std::fs::write(&path, VARIANTS_INI))
            .map(|_| path)
            .map_err(|e| format!("cannot write the Fairy-Stockfish variants file: {e}"))
    })
    .clone()
}

/// Removes the variants file written by [`variants_file`], if any.
pub fn remove_variants_file() {
    let dir = std::env::temp_dir().join(format!("ply-referee-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(dir);
}

/// An engine process and what the referee knows about it.
pub struct EngineSeat {
    name: String,
    launch: Launch,
    requested: Dialect,
    options: Vec<(String, String)>,
    pub restart_each_game: bool,
    proc: Option<EngineProcess>,
    dialect: Dialect,
    /// Option names from the `uci` reply.
    advertised: Vec<String>,
    fsf: Option<FsfGame>,
    /// Set once a process of this seat has been started (so a missing process means it
    /// failed or was stopped, not that the seat is new).
    pub ever_started: bool,
    /// `info string error` lines since the game began (a few at most).
    pub errors: Vec<String>,
    timeouts: Timeouts,
    verbose: bool,
    abort: Arc<AtomicBool>,
}

const MAX_ERRORS: usize = 8;
/// The most options of an engine's handshake that are remembered (to warn about options
/// set that it does not list); longer names than [`MAX_NAME_CHARS`] are not.
const MAX_OPTIONS: usize = 1024;
/// Engine and option names are kept up to this length.
const MAX_NAME_CHARS: usize = 256;

impl EngineSeat {
    fn new(
        spec: &PlayerSpec,
        timeouts: Timeouts,
        verbose: bool,
        abort: Arc<AtomicBool>,
    ) -> EngineSeat {
        let PlayerKind::Engine {
            launch,
            dialect,
            options,
            restart,
        } = &spec.kind
        else {
            unreachable!("an engine seat is built from an engine spec");
        };
        EngineSeat {
            name: spec.name.clone(),
            launch: launch.clone(),
            requested: *dialect,
            options: options.clone(),
            restart_each_game: *restart,
            proc: None,
            dialect: *dialect,
            advertised: Vec::new(),
            fsf: None,
            ever_started: false,
            errors: Vec::new(),
            timeouts,
            verbose,
            abort,
        }
    }

    pub fn is_running(&self) -> bool {
        self.proc.is_some()
    }

    /// Ends the process politely (`quit`), if there is one.
    pub fn shutdown(&mut self) {
        if let Some(p) = self.proc.take() {
            p.shutdown(Duration::from_millis(500));
        }
    }

    fn note_error(&mut self, line: &str) {
        if let Some(rest) = line.strip_prefix("info string error")
            && self.errors.len() < MAX_ERRORS
        {
            self.errors.push(rest.trim().to_string());
        }
    }

    /// A failure that leaves the process unusable: it is killed.
    fn lost(&mut self, kind: Termination, detail: String) -> SeatError {
        self.proc = None;
        forfeit(kind, detail)
    }

    fn wait_error(&mut self, e: WaitError, waiting_for: &str, after: Duration) -> SeatError {
        match e {
            WaitError::Aborted => SeatError::Aborted,
            WaitError::Disconnected(why) => self.lost(
                Termination::Crash,
                format!("{why}, waiting for {waiting_for}"),
            ),
            WaitError::Timeout => self.lost(
                Termination::Stall,
                format!("no {waiting_for} within {} ms", after.as_millis()),
            ),
        }
    }

    fn send(&mut self, command: &Command) -> Result<(), SeatError> {
        let p = self.proc.as_mut().expect("send needs a running process");
        match p.send(command) {
            Ok(()) => Ok(()),
            Err(WaitError::Disconnected(why)) => {
                let status = p.exit_description();
                Err(self.lost(Termination::Crash, format!("{why} ({status})")))
            }
            Err(e) => Err(self.wait_error(e, "input", Duration::ZERO)),
        }
    }

    /// Sends `isready` and waits for `readyok`.
    fn sync(&mut self) -> Result<(), SeatError> {
        self.send(&Command::IsReady)?;
        let stall = self.timeouts.stall;
        let deadline = Instant::now() + stall;
        let abort = self.abort.clone();
        // Only the error lines are kept (a few): an engine may print anything before readyok.
        let mut seen = Vec::new();
        let p = self.proc.as_mut().expect("running");
        let r = p.wait_for("readyok", deadline, &abort, |l| {
            if l.starts_with("info string error") && seen.len() < MAX_ERRORS {
                seen.push(l.to_string());
            }
        });
        for l in &seen {
            self.note_error(l);
        }
        r.map(|_| ())
            .map_err(|e| self.wait_error(e, "readyok", stall))
    }

    /// Starts the process and runs the handshake.
    fn start(&mut self, game: &str, params: &Params) -> Result<(), SeatError> {
        let proc = EngineProcess::spawn(&self.name, &self.launch, self.verbose).map_err(|e| {
            SeatError::Fatal(format!(
                "cannot start {} ({}): {e}",
                self.name, self.launch.cmd
            ))
        })?;
        self.proc = Some(proc);
        self.ever_started = true;
        self.send(&Command::Uci)?;
        let stall = self.timeouts.stall;
        let deadline = Instant::now() + stall;
        let abort = self.abort.clone();
        // The handshake is read as it comes, keeping only what is used (and a bounded amount
        // of it): an engine may print any number of lines before uciok.
        let mut id_name = String::new();
        let mut advertised = Vec::new();
        let mut errors = Vec::new();
        let p = self.proc.as_mut().expect("just started");
        let r = p.wait_for("uciok", deadline, &abort, |l| {
            if let Ok(IdLine::Name(n)) = l.parse() {
                id_name = n.chars().take(MAX_NAME_CHARS).collect();
            } else if let Some(name) = OptionLine::name_in(l) {
                if advertised.len() < MAX_OPTIONS && name.len() <= MAX_NAME_CHARS {
                    advertised.push(name);
                }
            } else if l.starts_with("info string error") && errors.len() < MAX_ERRORS {
                errors.push(l.to_string());
            }
        });
        if let Err(e) = r {
            return Err(self.wait_error(e, "uciok", stall));
        }
        self.advertised = advertised;
        for l in &errors {
            self.note_error(l);
        }
        self.dialect = match self.requested {
            Dialect::Auto if id_name.starts_with("Fairy-Stockfish") => Dialect::Fsf,
            Dialect::Auto => Dialect::Ply,
            d => d,
        };
        if self.dialect == Dialect::Fsf {
            self.fsf = Some(FsfGame::for_game(game, params).map_err(|e| {
                SeatError::Fatal(format!("{} is Fairy-Stockfish, but {e}", self.name))
            })?);
            if !self.options.iter().any(|(n, _)| n == "VariantPath") {
                let path = variants_file().map_err(SeatError::Fatal)?;
                let path = path.display().to_string();
                self.send(&Command::set_option("VariantPath", Some(&path)))?;
            }
        }
        for (name, value) in self.options.clone() {
            if !self
                .advertised
                .iter()
                .any(|a| a.eq_ignore_ascii_case(&name))
            {
                log::warn!(
                    "{} does not list an option '{name}'; setting it anyway",
                    self.name
                );
            }
            // An empty value is none: a button.
            self.send(&Command::set_option(&name, Some(&value)))?;
        }
        if let Some(g) = self.fsf {
            self.select_fsf_variant(g)?;
        }
        self.sync()
    }

    /// Selects the variant (after `VariantPath`, which it needs) and waits for FSF's
    /// `info string variant <name> ...`, its only sign that the variants file loaded: FSF
    /// ignores an unknown variant, or a file it cannot read, without a word on stdout.
    fn select_fsf_variant(&mut self, g: FsfGame) -> Result<(), SeatError> {
        let variant = g.variant();
        self.send(&Command::set_option("UCI_Variant", Some(variant)))?;
        self.send(&Command::IsReady)?;
        let stall = self.timeouts.stall;
        let deadline = Instant::now() + stall;
        let abort = self.abort.clone();
        let want = format!("info string variant {variant} ");
        let mut confirmed = false;
        let p = self.proc.as_mut().expect("running");
        let r = p.wait_for("readyok", deadline, &abort, |l| {
            confirmed |= l.starts_with(&want);
        });
        if let Err(e) = r {
            return Err(self.wait_error(e, "readyok", stall));
        }
        if confirmed {
            Ok(())
        } else {
            Err(SeatError::Fatal(format!(
                "{} did not load the variant {variant} (no '{}' line); check its VariantPath",
                self.name,
                want.trim_end()
            )))
        }
    }

    fn prepare(&mut self, game: &str, params: &Params) -> Result<(), SeatError> {
        self.errors.clear();
        if let Some(p) = self.proc.as_mut()
            && p.is_gone()
        {
            let why = p.exit_description();
            return Err(self.lost(Termination::Crash, format!("{why}, before the game")));
        }
        if self.proc.is_none() {
            self.start(game, params)?;
        }
        match self.dialect {
            Dialect::Ply | Dialect::Auto => {
                self.send(&Command::new_game(game, [params.to_string()]))?
            }
            Dialect::Uci => {
                if self.advertised.iter().any(|a| a == "UCI_Variant") {
                    self.send(&Command::set_option("UCI_Variant", Some(game)))?;
                }
                self.send(&Command::UciNewGame)?;
            }
            // The variant was chosen and confirmed at the handshake.
            Dialect::Fsf => self.send(&Command::UciNewGame)?,
        }
        self.sync()
    }

    /// The `position` command of the request, in Fairy-Stockfish's notation for FSF.
    fn position_command(&self, req: &MoveRequest) -> Result<Command, SeatError> {
        let Some(g) = self.fsf else {
            let start = req
                .base_fen
                .map_or(PositionStart::StartPos, PositionStart::fen);
            return Ok(Command::position(start, req.history.iter().map(|p| &p.mv)));
        };
        let fatal = |e: String| SeatError::Fatal(format!("Fairy-Stockfish notation: {e}"));
        let start = match req.base_fen {
            None => PositionStart::StartPos,
            Some(f) => PositionStart::fen(&g.fen_to_fsf(f).map_err(fatal)?),
        };
        let moves = req
            .history
            .iter()
            .map(|p| g.move_to_fsf(&p.fen_before, &p.mv).map_err(fatal))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Command::position(start, moves))
    }

    fn think(
        &mut self,
        req: &MoveRequest,
        limits: &super::tc::SearchLimits,
    ) -> Result<Reply, SeatError> {
        let position = self.position_command(req)?;
        let go = Command::Go(go_params(req.view.side(), req.clocks, limits));
        if let Some(p) = self.proc.as_mut() {
            p.discard_pending();
        }
        self.send(&position)?;
        self.send(&go)?;
        let sent = Instant::now();
        let (timed, wait) = match req.allowance {
            Some(a) => (true, a),
            None => (false, self.timeouts.move_timeout),
        };
        let abort = self.abort.clone();
        let mut info = InfoSummary::default();
        let mut stop_sent: Option<Instant> = None;
        let mut deadline = sent + wait;
        loop {
            let p = self.proc.as_mut().expect("running");
            match p.recv(deadline, &abort) {
                Ok((line, at)) => match line.split_whitespace().next() {
                    Some("info") => {
                        self.note_error(&line);
                        info.update(&line);
                    }
                    Some("bestmove") => {
                        let raw = line
                            .parse::<BestMove>()
                            .map_or_else(|_| BestMove::NONE.to_string(), |b| b.text().to_string());
                        let elapsed = at.saturating_duration_since(sent);
                        if stop_sent.is_some() && !timed {
                            return Err(forfeit(
                                Termination::NoBestmove,
                                format!(
                                    "no bestmove within the move timeout of {} ms (it answered stop)",
                                    wait.as_millis()
                                ),
                            ));
                        }
                        let mut reply = self.reply(req, raw, elapsed, info)?;
                        reply.sent = Some(sent);
                        reply.received = Some(at);
                        return Ok(reply);
                    }
                    _ => {}
                },
                Err(WaitError::Timeout) if stop_sent.is_none() => {
                    let p = self.proc.as_mut().expect("running");
                    if let Err(e) = p.send(&Command::Stop) {
                        return Err(self.wait_error(e, "bestmove", wait));
                    }
                    stop_sent = Some(Instant::now());
                    deadline = Instant::now() + self.timeouts.stop_grace;
                }
                Err(WaitError::Timeout) => {
                    let grace = self.timeouts.stop_grace.as_millis();
                    let detail = if timed {
                        format!(
                            "no bestmove within its {} ms, nor {grace} ms after stop",
                            wait.as_millis()
                        )
                    } else {
                        format!(
                            "no bestmove within the move timeout of {} ms, nor {grace} ms after stop",
                            wait.as_millis()
                        )
                    };
                    let kind = if timed {
                        Termination::Time
                    } else {
                        Termination::NoBestmove
                    };
                    return Err(self.lost(kind, detail));
                }
                Err(e) => return Err(self.wait_error(e, "bestmove", wait)),
            }
        }
    }

    fn reply(
        &mut self,
        req: &MoveRequest,
        raw: String,
        elapsed: Duration,
        info: InfoSummary,
    ) -> Result<Reply, SeatError> {
        let none = matches!(raw.as_str(), "(none)" | "0000" | "none" | "null");
        let (mv, raw) = match self.fsf {
            _ if none => ("(none)".to_string(), None),
            None => (raw, None),
            Some(g) => match g.move_from_fsf(&req.view.fen(), &raw) {
                Ok(mv) => (mv, Some(raw)),
                Err(MoveError::Illegal(e)) => return Err(forfeit(Termination::Illegal, e)),
                Err(MoveError::Malformed(e)) => return Err(forfeit(Termination::Malformed, e)),
            },
        };
        Ok(Reply {
            mv,
            raw,
            elapsed,
            depth: info.depth,
            score: info.score,
            nodes: info.nodes,
            ..Reply::default()
        })
    }
}

/// Lines typed by the person at the terminal, read on their own thread so a wait for input
/// can still notice the referee shutting down. `None` is the end of input.
pub struct HumanInput {
    lines: Mutex<Receiver<Option<String>>>,
}

impl HumanInput {
    /// Reads standard input.
    pub fn stdin() -> HumanInput {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("human-input".into())
            .spawn(move || {
                let stdin = std::io::stdin();
                let mut line = String::new();
                loop {
                    line.clear();
                    match stdin.read_line(&mut line) {
                        Ok(0) | Err(_) => {
                            let _ = tx.send(None);
                            return;
                        }
                        Ok(_) => {
                            if tx.send(Some(line.trim().to_string())).is_err() {
                                return;
                            }
                        }
                    }
                }
            })
            .expect("cannot start the input thread");
        HumanInput {
            lines: Mutex::new(rx),
        }
    }
}

/// A person at the terminal: the board and legal moves go to stderr (stdout is the match
/// report); moves are read a line at a time; bad input is explained and asked for again.
pub struct HumanSeat {
    input: Arc<HumanInput>,
    abort: Arc<AtomicBool>,
    ended: bool,
}

impl HumanSeat {
    fn say(&self, text: &str) {
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(text.as_bytes()).and_then(|_| err.flush());
    }

    fn think(&mut self, req: &MoveRequest) -> Result<Reply, SeatError> {
        let start = Instant::now();
        let side = req.view.side();
        let mut text = format!("\n{}", req.view.diagram());
        if !req.history.is_empty() {
            let last = &req.history[req.history.len() - 1].mv;
            text.push_str(&format!("Last move: {last}\n"));
        }
        text.push_str(&format!(
            "Legal moves: {}\n",
            req.view.legal_move_texts().join(" ")
        ));
        self.say(&text);
        loop {
            self.say(&format!(
                "{} ({}) to move; type a move, or 'resign': ",
                req.name,
                side.protocol_name()
            ));
            let line = self.read()?;
            let Some(line) = line else {
                self.ended = true;
                return Err(forfeit(Termination::Crash, "input ended"));
            };
            match line.as_str() {
                "" => continue,
                "resign" | "quit" => {
                    return Err(forfeit(Termination::Resign, "resigns"));
                }
                mv => match req.view.check_move(mv) {
                    Ok(()) => {
                        return Ok(Reply {
                            mv: mv.to_string(),
                            elapsed: start.elapsed(),
                            ..Reply::default()
                        });
                    }
                    Err(e) => self.say(&format!(
                        "{e}. Legal moves: {}\n",
                        req.view.legal_move_texts().join(" ")
                    )),
                },
            }
        }
    }

    fn read(&mut self) -> Result<Option<String>, SeatError> {
        if self.ended {
            return Ok(None);
        }
        let rx = self.input.lines.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if self.abort.load(Ordering::Relaxed) {
                return Err(SeatError::Aborted);
            }
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(line) => return Ok(line),
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => return Ok(None),
            }
        }
    }
}

/// One seat of a match worker.
pub enum Seat {
    Engine(Box<EngineSeat>),
    Random(Rng),
    Human(HumanSeat),
}

impl Seat {
    pub fn new(
        spec: &PlayerSpec,
        timeouts: Timeouts,
        verbose: bool,
        abort: Arc<AtomicBool>,
        human: Option<Arc<HumanInput>>,
    ) -> Seat {
        match &spec.kind {
            PlayerKind::Engine { .. } => {
                Seat::Engine(Box::new(EngineSeat::new(spec, timeouts, verbose, abort)))
            }
            PlayerKind::Random => Seat::Random(Rng::new(0)),
            PlayerKind::Human => Seat::Human(HumanSeat {
                input: human.unwrap_or_else(|| Arc::new(HumanInput::stdin())),
                abort,
                ended: false,
            }),
        }
    }

    /// Gets ready for a new game; `seed` makes the random seat's choices depend only on the
    /// game.
    pub fn prepare(&mut self, game: &str, params: &Params, seed: u64) -> Result<(), SeatError> {
        match self {
            Seat::Engine(e) => e.prepare(game, params),
            Seat::Random(rng) => {
                *rng = Rng::new(seed);
                Ok(())
            }
            Seat::Human(_) => Ok(()),
        }
    }

    pub fn think(
        &mut self,
        req: &MoveRequest,
        limits: &super::tc::SearchLimits,
    ) -> Result<Reply, SeatError> {
        match self {
            Seat::Engine(e) => e.think(req, limits),
            Seat::Random(rng) => {
                let start = Instant::now();
                let moves = req.view.legal_move_texts();
                let mv = moves[rng.below(moves.len())].clone();
                Ok(Reply {
                    mv,
                    elapsed: start.elapsed(),
                    ..Reply::default()
                })
            }
            Seat::Human(h) => h.think(req),
        }
    }

    /// Tells the seat the game ended (the human sees the final board).
    pub fn game_over(&mut self, view: &dyn PositionView, summary: &str) {
        if let Seat::Human(h) = self {
            h.say(&format!("\n{}Game over: {summary}\n", view.diagram()));
        }
    }

    /// `info string error` lines the engine sent during this game.
    pub fn take_errors(&mut self) -> Vec<String> {
        match self {
            Seat::Engine(e) => std::mem::take(&mut e.errors),
            _ => Vec::new(),
        }
    }

    /// Whether the seat's engine failed and has no process (so the next game needs a restart).
    pub fn needs_restart(&self) -> bool {
        matches!(self, Seat::Engine(e) if e.ever_started && !e.is_running())
    }

    /// Called after each game: `restart=on` engines get a fresh process next time.
    pub fn after_game(&mut self) {
        if let Seat::Engine(e) = self
            && e.restart_each_game
        {
            e.shutdown();
            e.ever_started = false;
        }
    }

    pub fn shutdown(&mut self) {
        if let Seat::Engine(e) = self {
            e.shutdown();
        }
    }
}

/// The `go` parameters for `side` to move: both clocks when the mover has one (a clock of
/// the mover's own only, when the other player has none), none when it has none (an engine
/// takes a missing clock of its own for an empty one: given only the opponent's clock, a UCI
/// engine plays at once), then `movestogo`, `movetime`, `depth` and `nodes`.
fn go_params(
    side: Player,
    clocks: [Option<&Clock>; 2],
    limits: &super::tc::SearchLimits,
) -> GoParams {
    let mover = clocks[side.index()];
    let clock = |p: Player| clocks[p.index()].filter(|_| mover.is_some());
    let ms = |c: &Clock| c.left_ms() as i64;
    let inc = |c: &Clock| c.increment_ms() as i64;
    GoParams {
        wtime: clock(Player::First).map(ms),
        winc: clock(Player::First).map(inc),
        btime: clock(Player::Second).map(ms),
        binc: clock(Player::Second).map(inc),
        movestogo: mover.and_then(|c| c.moves_to_go()),
        movetime: limits.movetime.map(|st| st.as_millis() as u64),
        depth: limits.depth,
        nodes: limits.nodes,
        ..GoParams::default()
    }
}

#[cfg(test)]
mod tests {
    use super::super::tc::{SearchLimits, TimeControl};
    use super::*;

    /// A player without a clock is sent no clock, not the opponent's (Stockfish, given only
    /// `wtime` as Black, took its own clock for empty and moved at depth 1).
    #[test]
    fn go_lines_send_clocks_only_to_a_clocked_mover() {
        let tc = TimeControl::parse("60+1").unwrap().unwrap();
        let (white, black) = (Clock::new(tc), Clock::new(tc));
        let depth = SearchLimits {
            depth: Some(6),
            ..SearchLimits::default()
        };
        let none = SearchLimits::default();
        let both = [Some(&white), Some(&black)];
        let only_white = [Some(&white), None];
        assert_eq!(
            Command::Go(go_params(Player::Second, both, &none)).to_string(),
            "go wtime 60000 winc 1000 btime 60000 binc 1000"
        );
        assert_eq!(
            Command::Go(go_params(Player::First, only_white, &depth)).to_string(),
            "go wtime 60000 winc 1000 depth 6"
        );
        assert_eq!(
            Command::Go(go_params(Player::Second, only_white, &depth)).to_string(),
            "go depth 6"
        );
    }

    #[test]
    fn info_lines() {
        let mut s = InfoSummary::default();
        s.update("info depth 6 seldepth 6 score cp -4 nodes 2627 nps 1 time 0 hashfull 0 pv 4 4");
        assert_eq!(
            (s.depth, s.score, s.nodes),
            (Some(6), Some(Score::Cp(-4)), Some(2627))
        );
        s.update("info depth 7 multipv 1 score mate -3 nodes x pv depth 99");
        assert_eq!(
            (s.depth, s.score, s.nodes),
            (Some(7), Some(Score::Mate(-3)), Some(2627))
        );
        s.update("info string depth 50");
        s.update("info depth");
        s.update("info score cp");
        assert_eq!(s.depth, Some(7));
    }
}
