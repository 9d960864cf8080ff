//! The engine's line protocol (UCI-style; `protocol.md` is the reference), one idea a module:
//!
//! - [`input`]: a reader thread turns stdin into [`Event::Line`]s (and [`Event::Eof`]);
//! - [`engine_loop`]: the engine loop applies each line as a [`command::Command`], answering
//!   `isready`, `stop` and `quit` at once while a job runs and keeping the rest in order;
//! - [`session`]: the game's position and the worker thread that runs `go`, `perft` and
//!   `bench`, reporting [`Event::WorkerDone`];
//! - [`output`]: the single [`Output`] (a line at a time, so lines never interleave) and the
//!   [`StopSignal`] the loop raises for the worker;
//! - [`command`] parses the client's lines into typed commands (and prints them, for
//!   clients); [`response`] holds the engine's lines as types (`info`, `bestmove`, `id`,
//!   `option`, `param` and `query`'s `response`), printed here and read by the clients and
//!   the tests; [`options`] is the option table; [`strength`] the limited strength.
//!
//! This module starts the two threads of a running engine ([`run_game`]).

pub mod command;
pub mod engine_loop;
pub mod input;
pub mod options;
pub mod output;
pub mod response;
pub mod session;
pub mod strength;

use std::io::{BufRead, Write};
use std::sync::mpsc;

use crate::game::Params;
use crate::search::TechniquesOff;
pub use engine_loop::{EngineLoop, MAX_PENDING_BYTES, PENDING_OVERHEAD};
use input::read_lines;
pub use input::{Event, MAX_LINE_BYTES};
pub use output::{MAX_ERROR_CHARS, Output, StopSignal};

pub const ENGINE_NAME: &str = "ply";
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
pub const AUTHOR: &str = "the ply developers";

pub use crate::games::DEFAULT_GAME;

/// Runs the engine on `input` and `output` until `quit` or the end of input.
pub fn run(input: impl BufRead + Send + 'static, output: impl Write + Send + 'static) {
    run_game(
        input,
        output,
        DEFAULT_GAME,
        &Params::new(),
        TechniquesOff::NONE,
    )
    .expect("the default game starts with default parameters")
}

/// Runs the engine in game `name` with `params` (`ply --game`), the search techniques
/// `search_off` turned off; fails before reading any input when the game or its parameters
/// are unknown.
pub fn run_game(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
    name: &str,
    params: &Params,
    search_off: TechniquesOff,
) -> Result<(), String> {
    let (tx, rx) = mpsc::channel();
    let mut engine =
        EngineLoop::with_game(Output::new(output), tx.clone(), name, params, search_off)?;
    let reader_tx = tx.clone();
    std::thread::Builder::new()
        .name("ply-stdin".into())
        .spawn(move || read_lines(input, reader_tx))
        .expect("cannot start the input thread");
    drop(tx);
    while let Ok(ev) = rx.recv() {
        if !engine.on_event(ev) {
            break;
        }
    }
    Ok(())
}
