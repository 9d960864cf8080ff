//! ply: an engine for two-player, zero-sum, perfect-information games.
//!
//! Layers, each depending only on those above it:
//! - [`game`]: the `Game` trait, players, outcomes (no I/O);
//! - [`value`]: the value scale (mate distances) and `Score`, shared by everything above;
//! - [`games`]: tic-tac-toe, Connect Four, Nim, Teeko, chess;
//! - [`search`]: one alpha-beta searcher generic over the game (never prints);
//! - [`protocol`]: the UCI-style line protocol and the engine session;
//! - [`client`]: engine processes from the outside (the referee's and the gui's);
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
