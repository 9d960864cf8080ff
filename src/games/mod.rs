//! The games: rules, notation and evaluation, one module each. Each implements
//! [`crate::game::Game`] and nothing here depends on the searcher or the protocol.
//!
//! The registry below is the one list of games: a game's name becomes its type through
//! [`with_game!`](crate::with_game), and [`NAMES`] lists them for the protocol, the referee
//! and the page (docs/layout.md, "Adding a game", lists everything else a new game touches).

pub mod checkers;
pub mod chess;
// Lints in files another branch is rewriting (issue 12); drop once they are fixed there.
#[allow(clippy::manual_is_multiple_of)]
pub mod connect4;
mod grid;
pub mod nim;
pub mod teeko;
pub mod tictactoe;

pub use checkers::Checkers;
pub use chess::Chess;
pub use connect4::Connect4;
pub use nim::Nim;
pub use teeko::Teeko;
pub use tictactoe::TicTacToe;

/// The registry: every game's type, in the order the protocol lists them. Adding a game is
/// one more name on this line; [`NAMES`] and [`with_game!`](crate::with_game) follow from it.
/// (It hands the list to the macro named first, after that macro's own arguments.)
#[doc(hidden)]
#[macro_export]
macro_rules! __games {
    ($then:ident ! { $($args:tt)* }) => {
        $crate::$then! { $($args)* ; TicTacToe Connect4 Nim Teeko Chess Checkers }
    };
}

/// Every game's `newgame` name, in the order the protocol lists them.
pub const NAMES: &[&str] = crate::__games!(__game_names! {});

/// The game an engine plays until told otherwise: the first registered.
pub const DEFAULT_GAME: &str = NAMES[0];

#[doc(hidden)]
#[macro_export]
macro_rules! __game_names {
    (; $($Game:ident)*) => {
        &[$(<$crate::games::$Game as $crate::game::Game>::NAME),*]
    };
}

/// Calls `$body` with `$G` bound to the game type named by `$name` (a `&str`), or evaluates
/// `$unknown`. This is where a game chosen by name at run time becomes a type, so everything
/// below (search, solvers) is monomorphised per game.
#[macro_export]
macro_rules! with_game {
    ($name:expr, $G:ident => $body:expr, _ => $unknown:expr) => {
        $crate::__games!(__with_game_match! { $name, $G, $body, $unknown })
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __with_game_match {
    ($name:expr, $G:ident, $body:expr, $unknown:expr ; $($Game:ident)*) => {
        match $name {
            $(name if name == <$crate::games::$Game as $crate::game::Game>::NAME => {
                type $G = $crate::games::$Game;
                $body
            })*
            _ => $unknown,
        }
    };
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_registered_name_selects_its_own_game() {
        for &name in super::NAMES {
            assert_eq!(
                crate::with_game!(name, G => <G as crate::game::Game>::NAME, _ => "unknown"),
                name
            );
        }
        assert_eq!(
            crate::with_game!("go", G => <G as crate::game::Game>::NAME, _ => "unknown"),
            "unknown"
        );
    }
}
