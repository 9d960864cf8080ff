//! ply's rules behind a trait object, for the adapters that must follow a game they do not
//! play themselves (a UCI engine's `query` answers, Fairy-Stockfish's notation). The game is
//! chosen by name once, with [`crate::with_game!`]; only the `Game` methods are used here.

use crate::game::{Game, MoveError, Params, Player};

/// One position of some game, with its rules.
pub trait Position: Send {
    fn fen(&self) -> String;
    /// Plays a move given in ply's notation, or says why it cannot be played.
    fn play(&mut self, text: &str) -> Result<(), MoveError>;
    /// The legal moves in the order `query legalmoves` gives them (shorter first, then
    /// alphabetical).
    fn legal_moves(&self) -> Vec<String>;
    /// `p1win`, `p2win`, `draw`, or `none` while the game goes on.
    fn result(&self) -> &'static str;
    fn side(&self) -> Player;
    /// A position of the same game and rules read from `fen`.
    fn with_fen(&self, fen: &str) -> Result<Box<dyn Position>, String>;
    fn boxed(&self) -> Box<dyn Position>;
}

impl<G: Game> Position for G {
    fn fen(&self) -> String {
        Game::fen(self)
    }

    fn play(&mut self, text: &str) -> Result<(), MoveError> {
        let mv = self.parse_move(text)?;
        Game::play(self, mv);
        Ok(())
    }

    fn legal_moves(&self) -> Vec<String> {
        crate::game::legal_moves_by_name(self)
            .into_iter()
            .map(|(text, _)| text)
            .collect()
    }

    fn result(&self) -> &'static str {
        self.outcome().map_or("none", |o| o.protocol_name())
    }

    fn side(&self) -> Player {
        self.side_to_move()
    }

    fn with_fen(&self, fen: &str) -> Result<Box<dyn Position>, String> {
        self.from_fen(fen)
            .map(|g| Box::new(g) as Box<dyn Position>)
            .map_err(|e| e.to_string())
    }

    fn boxed(&self) -> Box<dyn Position> {
        Box::new(self.clone())
    }
}

/// The start position of `game` with `params`, or the error `newgame` would give.
pub fn start(game: &str, params: &Params) -> Result<Box<dyn Position>, String> {
    crate::with_game!(game,
        G => G::new(params).map(|g| Box::new(g) as Box<dyn Position>).map_err(|e| e.to_string()),
        _ => Err(format!(
            "unknown game '{game}' (known: {})",
            crate::games::NAMES.join(", ")
        ))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_and_reports_like_the_engine() {
        let mut p = start("tictactoe", &Params::new()).unwrap();
        for m in ["b2", "a1", "c3", "a3", "a2", "c1", "b1", "b3"] {
            p.play(m).unwrap();
        }
        assert_eq!(p.legal_moves(), vec!["c2"]);
        assert_eq!(p.result(), "none");
        p.play("c2").unwrap();
        assert_eq!(p.result(), "p1win");
        assert!(matches!(p.play("c2"), Err(MoveError::Illegal(_))));
        let q = p.with_fen("xo./.x./..o x").unwrap();
        assert_eq!(q.side(), Player::First);
        assert!(start("go", &Params::new()).is_err_and(|e| e.contains("unknown game")));
    }
}
