//! The games: rules, notation and evaluation, one module each. Each implements
//! [`crate::game::Game`] and nothing here depends on the searcher or the protocol.

pub mod chess;
pub mod connect4;
mod grid;
pub mod nim;
pub mod teeko;
pub mod tictactoe;

pub use chess::Chess;
pub use connect4::Connect4;
pub use nim::Nim;
pub use teeko::Teeko;
pub use tictactoe::TicTacToe;

/// Every game's `newgame` name, in the order the protocol lists them.
pub const NAMES: &[&str] = &["tictactoe", "connect4", "nim", "teeko", "chess"];

/// Calls `$body` with `$G` bound to the game type named by `$name`, or evaluates `$unknown`.
/// This is where a game chosen by name at run time becomes a type, so everything below
/// (search, solvers) is monomorphised per game.
#[macro_export]
macro_rules! with_game {
    ($name:expr, $G:ident => $body:expr, _ => $unknown:expr) => {
        match $name {
            "tictactoe" => {
                type $G = $crate::games::TicTacToe;
                $body
            }
            "connect4" => {
                type $G = $crate::games::Connect4;
                $body
            }
            "nim" => {
                type $G = $crate::games::Nim;
                $body
            }
            "teeko" => {
                type $G = $crate::games::Teeko;
                $body
            }
            "chess" => {
                type $G = $crate::games::Chess;
                $body
            }
            _ => $unknown,
        }
    };
}
