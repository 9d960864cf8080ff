//! What a client asks of one search: how deep, how many nodes, how long, on which clock.
//! How a clock becomes time budgets is [`super::time`]'s business.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// A clock as UCI gives it, for the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub time: Duration,
    pub inc: Duration,
    pub movestogo: Option<u32>,
    /// What `movestogo` is taken to be when the client gives none: the game's
    /// [`crate::game::Game::CLOCK_MOVES`] ([`crate::game::DEFAULT_CLOCK_MOVES`] when `None`).
    pub default_movestogo: Option<u32>,
}

#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub clock: Option<Clock>,
    pub infinite: bool,
    /// Subtracted from every time budget for the transport and the GUI (`Move Overhead`).
    pub overhead: Duration,
    /// The instant the time budgets (and the reported `time`) count from: when the `go`
    /// arrived, so that time spent before the search (waiting for a thread, a solver that
    /// gave up) is charged to it. `None`: when the search starts.
    pub started: Option<Instant>,
    /// `go mate n`: stop once a win in at most `n` moves is proven; the search goes no
    /// deeper than `2n + 4` plies (a mate in `n` is `2n - 1` plies deep; the rest allows for
    /// reductions).
    pub mate: Option<u32>,
    /// `go ponder`: set by `ponderhit`. Until it is set the search has no time limit; from
    /// then on its time budgets count from the moment it saw the flag.
    pub ponderhit: Option<Arc<AtomicBool>>,
}

impl Limits {
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }
}
