//! The referee: plays engine processes (and built-in players) against each other and
//! measures the result — the instrument behind every strength claim about ply.
//!
//! It links ply's rules, not its engine: every move a player sends is checked with the
//! game's own `parse_move` before it is played, and engines are reached only through the
//! line protocol on their stdin/stdout, by the client layer ([`crate::client`]: processes,
//! handshakes, typed commands and answers, Fairy-Stockfish's notation). It is generic over
//! the game the same way the engine is: `with_game!` turns the game's name into a type once,
//! in [`runner`].
//!
//! - [`player`]: the seats (an engine, the built-in random mover, a person at the terminal);
//! - [`play`]: one game — clocks, move checking, adjudication, forfeits with their reasons;
//! - [`runner`]: the match plan, concurrent workers, records, SPRT stopping, exit codes;
//! - [`tc`]: time controls and clocks; [`spec`]: the command line's player groups and rules;
//! - [`openings`]: openings files and random opening plies;
//! - [`records`]: the JSON Lines records and `--resume`;
//! - [`merge`]: `ply-referee merge`, one report from the records of a match's shards;
//! - [`stats`]: Elo, error margin, LOS, draw ratio, pentanomial counts, SPRT (pure);
//! - [`report`]: the tally and the cutechess-style lines;
//! - [`check`]: `ply-referee check`, a protocol compliance script for one engine;
//! - [`signal`]: SIGINT/SIGTERM become a clean stop.
//!
//! Conventions: "A" is the first `--engine` and every statistic is from A's side; "p1" is
//! the player who moves first in a game (cutechess's White). A game's number, opening and
//! colours depend only on its index in the plan, so concurrent and resumed matches play the
//! same games. Exit codes are the `EXIT_*` constants in [`runner`].

pub mod check;
pub mod merge;
pub mod openings;
pub mod pgn;
pub mod play;
pub mod player;
pub mod records;
pub mod report;
pub mod runner;
pub mod signal;
pub mod spec;
pub mod stats;
pub mod tc;
