//! Engines from the outside: the client side of the line protocol (protocol.md), for
//! everything in ply that starts engine processes and talks to them — the referee, the gui,
//! and any Rust caller that wants an engine's move.
//!
//! - [`spec`]: an engine as its user describes it (`cmd=… name=… proto=… option.X=…`),
//!   the dialect it speaks, and how its process is started;
//! - [`process`]: one engine process, synchronously: reader threads, bounded lines,
//!   deadlines, a clean shutdown;
//! - [`handshake`]: the `uci` handshake read line by line, and the commands that follow it;
//! - [`engine`]: a started engine driven through typed commands and answers (start, choose
//!   the game, set a position, `go`), in any dialect;
//! - [`fsf`]: Fairy-Stockfish's variants file and notation.
//!
//! Every line sent is a [`crate::protocol::command::Command`] printed from its type, and
//! every line read is parsed into [`crate::protocol::response`] types. The layer depends on
//! the protocol's types and, for Fairy-Stockfish's notation, on ply's parameter type; the
//! referee and the gui depend on it, never the other way round.

pub mod engine;
pub mod fsf;
pub mod handshake;
pub mod process;
pub mod spec;

pub use engine::{Answer, Engine, EngineError, InfoSummary, Played, Timeouts, Watch};
pub use spec::{Dialect, EngineSpec, EngineWords, Launch};
