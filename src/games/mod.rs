//! The games: rules, notation and evaluation, one module each. Each implements
//! [`crate::game::Game`] and nothing here depends on the searcher or the protocol.
//!
//! The registry below is the one list of games: a game's name becomes its type through
//! [`with_game!`](crate::with_game), and [`NAMES`] lists them for the protocol, the referee
//! and the page (docs/layout.md, "Adding a game", lists everything else a new game touches).

pub mod checkers;
pub mod chess;
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

/// The parameters game `name` takes ([`Game::PARAMS`](crate::game::Game::PARAMS)), for
/// whoever builds a form or checks values without the game's type at hand (the page, the
/// Python package, the `params` command); `None` for a name not registered.
pub fn param_specs(name: &str) -> Option<&'static [crate::game::ParamSpec]> {
    crate::with_game!(name, G => Some(<G as crate::game::Game>::PARAMS), _ => None)
}

/// The values game `name` gives the search's numeric parameters
/// ([`Game::SEARCH_PARAMS`](crate::game::Game::SEARCH_PARAMS)); `None` for a name not
/// registered.
pub fn search_params(name: &str) -> Option<&'static str> {
    crate::with_game!(name, G => Some(<G as crate::game::Game>::SEARCH_PARAMS), _ => None)
}

/// The games and their parameters with their defaults, as help texts show them:
/// `tictactoe | connect4 [width=7 height=6] | ...`.
pub fn usage() -> String {
    let game = |&name: &&str| {
        let specs = param_specs(name).unwrap_or_default();
        let params: Vec<String> = specs
            .iter()
            .map(|s| match s.kind.default_value().to_string() {
                d if d.is_empty() => format!("{}=..", s.key),
                d => format!("{}={d}", s.key),
            })
            .collect();
        match params.is_empty() {
            true => name.to_string(),
            false => format!("{name} [{}]", params.join(" ")),
        }
    };
    NAMES.iter().map(game).collect::<Vec<_>>().join(" | ")
}

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
    use crate::game::Game;
    use crate::setting::Kind;

    /// Every declared parameter: a key `newgame` can take, a default its own kind accepts
    /// and the game starts with, a label the `param` line can carry, no button.
    #[test]
    fn every_parameter_spec_is_well_formed() {
        for &name in super::NAMES {
            let specs = super::param_specs(name).expect("a registered game");
            for (i, s) in specs.iter().enumerate() {
                let what = format!("{name} {}", s.key);
                assert!(!s.key.is_empty() && !s.key.contains(['=', ' ']), "{what}");
                assert!(specs[..i].iter().all(|t| t.key != s.key), "{what} twice");
                assert!(!s.label.is_empty() && !s.help.is_empty(), "{what}");
                assert!(
                    !s.label.split_whitespace().any(|w| w == "help"),
                    "{what}: the label ends at the word help"
                );
                assert!(!matches!(s.kind, Kind::Button), "{what}");
                let default = s.kind.default_value().to_string();
                if !default.is_empty() {
                    assert_eq!(s.kind.parse(&default), Ok(s.kind.default_value()), "{what}");
                    let params = crate::game::Params(vec![(s.key.into(), default)]);
                    let started = crate::with_game!(name, G => G::new(&params).map(|_| ()), _ => unreachable!());
                    assert_eq!(started, Ok(()), "{what}");
                }
            }
        }
        assert_eq!(super::param_specs("go"), None);
    }

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
