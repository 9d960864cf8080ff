//! The game as a library object, without the protocol: one generic [`Engine`] per game type
//! behind the object-safe [`DynState`], chosen once by name through `ply::with_game!`, so every
//! call below is monomorphised for its game.
//!
//! Every mutation checks first and changes after: an error leaves the state as it was.

use std::sync::{Arc, Mutex};

use ply::game::{Game, Line, Outcome, Params, Player, legal_moves_by_name};
use ply::search::Searcher;
use ply::solve::Solver;
use ply::util::Rng;

use crate::encode::{Encoded, Extra};

/// The table size given to solvers and searchers that keep one, in MiB. Small, because a
/// library object may be made many times (one per environment); a state can be asked for
/// more with `hash_mb`.
pub const DEFAULT_TABLE_MB: usize = 16;

/// What states of one game share: its start position and, made on first use, its solver
/// and searcher (whose tables outlive a single question).
pub struct Shared<G: Encoded> {
    pub start: G,
    pub solver: Mutex<Option<Option<Box<dyn Solver<G>>>>>,
    pub searcher: Mutex<Option<Searcher<G>>>,
}

/// A position with its history (for the repetition rule) and what its environment keeps.
pub struct Engine<G: Encoded> {
    pub shared: Arc<Shared<G>>,
    pub line: Line<G>,
    pub extra: G::Extra,
}

impl<G: Encoded> Clone for Engine<G> {
    fn clone(&self) -> Self {
        Engine {
            shared: self.shared.clone(),
            line: self.line.clone(),
            extra: self.extra.clone(),
        }
    }
}

pub fn player(i: usize) -> Player {
    if i == 0 {
        Player::First
    } else {
        Player::Second
    }
}

/// A game's result from one player's side: +1 a win, -1 a loss, 0 a draw.
pub fn result_for(outcome: Outcome, p: Player) -> i32 {
    match outcome {
        Outcome::Draw => 0,
        Outcome::Win(w) if w == p => 1,
        Outcome::Win(_) => -1,
    }
}

impl<G: Encoded> Engine<G> {
    pub fn new(shared: Arc<Shared<G>>) -> Engine<G> {
        let line = Line::new(shared.start.clone());
        Engine {
            shared,
            line,
            extra: G::Extra::default(),
        }
    }

    pub fn pos(&self) -> &G {
        self.line.pos()
    }

    pub fn legal(&self) -> Vec<G::Move> {
        let mut moves = Vec::new();
        self.legal_into(&mut moves);
        moves
    }

    /// The legal moves into `out` (cleared first): a buffer the batched environment reuses.
    pub fn legal_into(&self, out: &mut Vec<G::Move>) {
        out.clear();
        if self.line.outcome().is_none() {
            self.pos().legal_moves(out);
        }
    }

    /// The legal move of `action`, or why there is none.
    pub fn move_of(&self, action: i64) -> Result<G::Move, String> {
        self.move_of_in(action, &mut Vec::new())
    }

    /// [`Engine::move_of`] with a reused move buffer.
    pub fn move_of_in(&self, action: i64, scratch: &mut Vec<G::Move>) -> Result<G::Move, String> {
        let n = self.shared.start.num_actions();
        if action < 0 || action as usize >= n {
            return Err(format!("action {action} is out of range (0..{n})"));
        }
        if self.line.outcome().is_some() {
            return Err(format!("illegal action {action}: the game is over"));
        }
        let pos = self.pos();
        self.legal_into(scratch);
        scratch
            .iter()
            .copied()
            .find(|&m| pos.action_of(m) == action as usize)
            .ok_or_else(|| format!("illegal action {action} in {}", pos.fen()))
    }

    pub fn play(&mut self, mv: G::Move) {
        self.line.play(mv);
        self.extra.after_play(&self.line);
    }

    /// A uniformly random legal move, `None` once the game is over (by the environment's
    /// rules).
    pub fn random_move(&self, rng: &mut Rng) -> Option<G::Move> {
        self.random_move_in(rng, &mut Vec::new())
    }

    /// [`Engine::random_move`] with a reused move buffer.
    pub fn random_move_in(&self, rng: &mut Rng, scratch: &mut Vec<G::Move>) -> Option<G::Move> {
        if G::env_outcome(&self.line, &self.extra).is_some() {
            return None;
        }
        self.legal_into(scratch);
        (!scratch.is_empty()).then(|| scratch[rng.below(scratch.len())])
    }
}

/// A state of any game, as the Python classes hold it.
pub trait DynState: Send + Sync {
    fn clone_box(&self) -> Box<dyn DynState>;
    fn game_name(&self) -> &'static str;
    fn params(&self) -> String;
    fn to_move(&self) -> Player;
    /// The result by ply's rules (with the repetition rule for chess).
    fn outcome(&self) -> Option<Outcome>;
    /// The rule that ended the game by ply's rules, in the referee's words ("checkmate",
    /// "threefold repetition"); `None` while it goes on.
    fn ending(&self) -> Option<String>;
    /// The result by the environment's rules (chess_v6 ends on claimable draws too).
    fn env_outcome(&self) -> Option<Outcome>;
    fn legal_actions(&self) -> Vec<usize>;
    fn legal_moves(&self) -> Vec<String>;
    fn action_text(&self, action: i64) -> Result<String, String>;
    fn text_action(&self, text: &str) -> Result<usize, String>;
    fn play_action(&mut self, action: i64) -> Result<(), String>;
    fn play_text(&mut self, text: &str) -> Result<(), String>;
    fn fen(&self) -> String;
    fn set_fen(&mut self, fen: &str) -> Result<(), String>;
    fn diagram(&self) -> String;
    fn num_actions(&self) -> usize;
    fn obs_shape(&self) -> Vec<usize>;
    fn write_obs(&self, viewer: Player, out: &mut [u8]);
    fn write_mask(&self, out: &mut [u8]);
    fn play_random(&mut self, rng: &mut Rng) -> bool;
    fn reset(&mut self);
    fn oracle(&self) -> &dyn crate::oracle::Oracle;
}

impl<G: Encoded> DynState for Engine<G> {
    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(self.clone())
    }

    fn game_name(&self) -> &'static str {
        G::NAME
    }

    fn params(&self) -> String {
        self.shared.start.params().to_string()
    }

    fn to_move(&self) -> Player {
        self.pos().side_to_move()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.line.outcome()
    }

    fn ending(&self) -> Option<String> {
        self.line.ending()
    }

    fn env_outcome(&self) -> Option<Outcome> {
        G::env_outcome(&self.line, &self.extra)
    }

    fn legal_actions(&self) -> Vec<usize> {
        let pos = self.pos();
        let mut actions: Vec<usize> = self.legal().into_iter().map(|m| pos.action_of(m)).collect();
        actions.sort_unstable();
        actions
    }

    fn legal_moves(&self) -> Vec<String> {
        if self.line.outcome().is_some() {
            return Vec::new();
        }
        legal_moves_by_name(self.pos())
            .into_iter()
            .map(|(t, _)| t)
            .collect()
    }

    fn action_text(&self, action: i64) -> Result<String, String> {
        self.move_of(action).map(|m| self.pos().format_move(m))
    }

    fn text_action(&self, text: &str) -> Result<usize, String> {
        if self.line.outcome().is_some() {
            return Err(format!("illegal move {text}: the game is over"));
        }
        // The line reads the move, as the engine's session does (with the repetition rule).
        self.line
            .parse_move(text)
            .map(|m| self.pos().action_of(m))
            .map_err(|e| e.to_string())
    }

    fn play_action(&mut self, action: i64) -> Result<(), String> {
        let mv = self.move_of(action)?;
        self.play(mv);
        Ok(())
    }

    fn play_text(&mut self, text: &str) -> Result<(), String> {
        if self.line.outcome().is_some() {
            return Err(format!("illegal move {text}: the game is over"));
        }
        let mv = self.line.parse_move(text).map_err(|e| e.to_string())?;
        self.play(mv);
        Ok(())
    }

    fn fen(&self) -> String {
        self.pos().fen()
    }

    fn set_fen(&mut self, fen: &str) -> Result<(), String> {
        let pos = self.shared.start.from_fen(fen).map_err(|e| e.to_string())?;
        self.line = Line::new(pos);
        self.extra = G::Extra::default();
        Ok(())
    }

    fn diagram(&self) -> String {
        self.pos().diagram()
    }

    fn num_actions(&self) -> usize {
        self.shared.start.num_actions()
    }

    fn obs_shape(&self) -> Vec<usize> {
        self.shared.start.obs_shape()
    }

    fn write_obs(&self, viewer: Player, out: &mut [u8]) {
        out.fill(0);
        self.pos().write_obs(&self.line, &self.extra, viewer, out);
    }

    fn write_mask(&self, out: &mut [u8]) {
        out.fill(0);
        self.pos().write_mask(out);
    }

    fn play_random(&mut self, rng: &mut Rng) -> bool {
        match self.random_move(rng) {
            Some(m) => {
                self.play(m);
                true
            }
            None => false,
        }
    }

    fn reset(&mut self) {
        self.line = Line::new(self.shared.start.clone());
        self.extra = G::Extra::default();
    }

    fn oracle(&self) -> &dyn crate::oracle::Oracle {
        self
    }
}

/// A new state of the game `name` with `params`, or ply's error.
pub fn new_state(name: &str, params: &Params) -> Result<Box<dyn DynState>, String> {
    ply::with_game!(name, G => {
        let start = G::new(params).map_err(|e| e.to_string())?;
        let shared = Arc::new(Shared {
            start,
            solver: Mutex::new(None),
            searcher: Mutex::new(None),
        });
        Ok(Box::new(Engine::<G>::new(shared)) as Box<dyn DynState>)
    }, _ => Err(format!(
        "unknown game '{name}' (known: {})",
        ply::games::NAMES.join(", ")
    )))
}

/// The agents' names of the game `name` (PettingZoo's, for the games it has).
pub fn agent_names(name: &str) -> Option<[&'static str; 2]> {
    ply::with_game!(name, G => Some(<G as Encoded>::agent_names()), _ => None)
}
