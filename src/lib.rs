//! ply: an engine for two-player, zero-sum, perfect-information games.
//!
//! Layers, each depending only on those above it (docs/layout.md draws them):
//! - [`util`], [`setting`]: small helpers, and settings declared as data (the one parser of
//!   option and parameter values);
//! - [`game`]: the `Game` trait, players, outcomes, parameters (no I/O);
//! - [`value`]: the value scale (mate distances) and `Score`, shared by everything above;
//! - [`games`]: the registry and the rules: tic-tac-toe, Connect Four, Nim, Teeko, chess;
//! - [`search`]: one alpha-beta searcher generic over the game (never prints);
//! - [`solve`]: the exact solvers (Connect Four, Nim, tic-tac-toe, the Teeko tablebase);
//! - [`protocol`]: the UCI-style line protocol and the engine session; [`bench`] and
//!   [`analyse`] beside it (`ply bench`, `ply analyse`);
//! - [`client`]: engine processes from the outside (for the referee, the gui and any Rust
//!   caller);
//! - [`referee`]: matches between engines and their statistics;
//! - [`gui`]: `ply gui`, a browser frontend that speaks the protocol to engine processes;
//! - [`shard`]: the `i/N` slices of a match or an input that many machines share.

pub mod analyse;
pub mod bench;
pub mod client;
pub mod game;
pub mod games;
pub mod gui;
pub mod protocol;
pub mod referee;
pub mod search;
pub mod setting;
pub mod shard;
pub mod solve;
pub mod util;
pub mod value;
