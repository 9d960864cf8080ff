//! The seats at the board: an engine process driven through the protocol, the built-in
//! random mover, and a person at the terminal. A seat lives as long as a match worker and
//! plays many games; an engine seat keeps its process between games (a fresh one with
//! `restart=on`, or after the old one failed).
//!
//! Seats see positions through [`PositionView`], so nothing here is generic over the game:
//! the game runner (`play`) owns the typed position and checks every move the seats return.
//! This module holds what every seat shares (the request, the reply, the failures) and the
//! random mover; [`engine`] and [`human`] the other two seats.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::records::Termination;
use super::spec::{PlayerKind, PlayerSpec};
use super::tc::Clock;
use crate::game::{Game, MoveError, Params, Player};
use crate::util::Rng;
use crate::value::Score;

mod engine;
mod human;

pub use engine::EngineSeat;
pub use human::{HumanInput, HumanSeat};

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
            PlayerKind::Human => Seat::Human(HumanSeat::new(
                human.unwrap_or_else(|| Arc::new(HumanInput::stdin())),
                abort,
            )),
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
