//! The seats at the board: an engine process driven through the protocol, the built-in
//! random mover, and a person at the terminal. A seat lives as long as a match worker and
//! plays many games; an engine seat keeps its process between games (a fresh one with
//! `restart=on`, or after the old one failed).
//!
//! Seats see positions through [`PositionView`], so nothing here is generic over the game:
//! the game runner (`play`) owns the typed position and checks every move the seats return.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::records::Termination;
use super::spec::{PlayerKind, PlayerSpec};
use super::tc::Clock;
use crate::client::{Engine, EngineError, EngineSpec, Watch};
use crate::game::{Game, MoveError, Params, Player};
use crate::protocol::command::GoParams;
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

pub use crate::client::Played;

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

pub use crate::client::Timeouts;

/// An engine process, through the client layer, and what the referee makes of its failures.
pub struct EngineSeat {
    spec: EngineSpec,
    pub restart_each_game: bool,
    engine: Option<Engine>,
    /// Set once a process of this seat has been started (so a missing process means it
    /// failed or was stopped, not that the seat is new).
    pub ever_started: bool,
    /// `info string error` lines since the game began (a few at most).
    pub errors: Vec<String>,
    timeouts: Timeouts,
    watch: Watch,
}

impl EngineSeat {
    fn new(
        spec: &PlayerSpec,
        timeouts: Timeouts,
        verbose: bool,
        abort: Arc<AtomicBool>,
    ) -> EngineSeat {
        let PlayerKind::Engine { engine, restart } = &spec.kind else {
            unreachable!("an engine seat is built from an engine spec");
        };
        EngineSeat {
            // The player's name, made distinct from its opponent's.
            spec: EngineSpec {
                name: spec.name.clone(),
                ..engine.clone()
            },
            restart_each_game: *restart,
            engine: None,
            ever_started: false,
            errors: Vec::new(),
            timeouts,
            watch: Watch { verbose, abort },
        }
    }

    pub fn is_running(&self) -> bool {
        self.engine.is_some()
    }

    /// Ends the process politely (`quit`), if there is one.
    pub fn shutdown(&mut self) {
        if let Some(e) = self.engine.take() {
            e.quit();
        }
    }

    /// The seat's verdict on an engine failure: a forfeit with its reason (the process is
    /// killed when it is of no further use), the end of the match, or the referee's abort.
    fn failed(&mut self, e: EngineError) -> SeatError {
        let kind = match e {
            EngineError::Aborted => return SeatError::Aborted,
            EngineError::Spawn(why) | EngineError::Setup(why) => return SeatError::Fatal(why),
            EngineError::BadMove(MoveError::Illegal(why)) => {
                return forfeit(Termination::Illegal, why);
            }
            EngineError::BadMove(MoveError::Malformed(why)) => {
                return forfeit(Termination::Malformed, why);
            }
            EngineError::Gone(_) => Termination::Crash,
            EngineError::Stall(_) => Termination::Stall,
            EngineError::NoBestmove(_) => Termination::NoBestmove,
        };
        self.engine = None;
        forfeit(kind, e.to_string())
    }

    /// The running engine (a new one after a failure, or for a new seat), ready for a game.
    fn engine(&mut self) -> Result<&mut Engine, SeatError> {
        if let Some(e) = self.engine.as_mut()
            && e.is_gone()
        {
            let why = e.exit_description();
            self.engine = None;
            return Err(forfeit(
                Termination::Crash,
                format!("{why}, before the game"),
            ));
        }
        if self.engine.is_none() {
            self.ever_started = true;
            let started = Engine::start(&self.spec, self.timeouts, self.watch.clone());
            let mut e = started.map_err(|e| self.failed(e))?;
            self.errors.extend(e.take_errors());
            self.engine = Some(e);
        }
        Ok(self.engine.as_mut().expect("started above"))
    }

    fn prepare(&mut self, game: &str, params: &Params) -> Result<(), SeatError> {
        self.errors.clear();
        let e = self.engine()?;
        let r = e.new_game(game, params);
        let errors = e.take_errors();
        self.errors.extend(errors);
        r.map_err(|e| self.failed(e))
    }

    fn think(
        &mut self,
        req: &MoveRequest,
        limits: &super::tc::SearchLimits,
    ) -> Result<Reply, SeatError> {
        let go = go_params(req.view.side(), req.clocks, limits);
        let (timed, wait) = match req.allowance {
            Some(a) => (true, a),
            None => (false, self.timeouts.move_timeout),
        };
        let e = self.engine.as_mut().expect("prepared before thinking");
        let answer = e
            .position_played(req.base_fen, req.history, &req.view.fen())
            .and_then(|()| e.go(&go, wait));
        self.errors.extend(e.take_errors());
        let answer = match answer {
            Ok(a) if a.stopped && !timed => {
                return Err(forfeit(
                    Termination::NoBestmove,
                    format!(
                        "no bestmove within the move timeout of {} ms (it answered stop)",
                        wait.as_millis()
                    ),
                ));
            }
            Ok(a) => a,
            Err(EngineError::NoBestmove(why)) if timed => {
                self.engine = None;
                return Err(forfeit(Termination::Time, why));
            }
            Err(e) => return Err(self.failed(e)),
        };
        Ok(Reply {
            mv: answer.bestmove,
            raw: answer.raw,
            elapsed: answer.received.saturating_duration_since(answer.sent),
            depth: answer.info.depth,
            score: answer.info.score,
            nodes: answer.info.nodes,
            sent: Some(answer.sent),
            received: Some(answer.received),
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
    use crate::protocol::command::Command;

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
}
