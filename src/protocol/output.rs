//! The protocol's output and the stop signal: what the engine loop and its worker thread
//! share. All output goes through one [`Output`], a line at a time, so lines never
//! interleave; the loop raises the [`StopSignal`] a running job watches.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// Error messages longer than this (in characters) are shortened in the middle.
pub const MAX_ERROR_CHARS: usize = 1000;

/// The single writer for protocol output; each call writes one whole line and flushes.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    pub fn new(w: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(w))))
    }

    pub fn line(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // A closed stdout (the GUI went away) is not worth a panic; the reader will see EOF.
        let _ = writeln!(w, "{text}").and_then(|_| w.flush());
    }

    /// Several lines under one lock, so nothing interleaves with them.
    pub fn lines(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = text
            .lines()
            .try_for_each(|l| writeln!(w, "{l}"))
            .and_then(|_| w.flush());
    }

    pub fn error(&self, command: &str, message: &str) {
        self.line(&format!(
            "info string error {command}: {}",
            shorten(message)
        ));
    }
}

/// A stop request the worker can poll (the flag) or sleep on (`wait`).
#[derive(Default)]
pub struct StopSignal {
    pub flag: AtomicBool,
    /// Set by `ponderhit` while a `go ponder` runs: the search's clock starts then.
    pub ponderhit: Arc<AtomicBool>,
    lock: Mutex<()>,
    cv: Condvar,
}

impl StopSignal {
    pub fn set(&self) {
        self.flag.store(true, Ordering::SeqCst);
        self.notify();
    }

    /// `ponderhit`: the pondering search goes on, now on its own clock.
    pub fn hit(&self) {
        self.ponderhit.store(true, Ordering::SeqCst);
        self.notify();
    }

    fn notify(&self) {
        let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.cv.notify_all();
    }

    pub fn is_set(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }

    /// Waits for `stop` (or, with `or_ponderhit`, for `ponderhit` too).
    pub fn wait(&self, or_ponderhit: bool) {
        let mut guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        let done = || self.is_set() || (or_ponderhit && self.ponderhit.load(Ordering::SeqCst));
        while !done() {
            guard = match self.cv.wait_timeout(guard, Duration::from_millis(100)) {
                Ok((g, _)) => g,
                Err(e) => e.into_inner().0,
            };
        }
    }
}

/// `message`, or when longer than [`MAX_ERROR_CHARS`] its start and end with ` ... ` between
/// (errors quote the input, and the input may be huge).
fn shorten(message: &str) -> std::borrow::Cow<'_, str> {
    let chars = message.chars().count();
    if chars <= MAX_ERROR_CHARS {
        return message.into();
    }
    let head: String = message.chars().take(MAX_ERROR_CHARS / 2).collect();
    let tail: String = message
        .chars()
        .skip(chars - (MAX_ERROR_CHARS / 2 - 5))
        .collect();
    format!("{head} ... {tail}").into()
}
