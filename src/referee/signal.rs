//! SIGINT and SIGTERM set a flag instead of killing the referee, so it can stop its
//! engines, print the tally and exit with the "interrupted" code. The games finished so far
//! are already on disk; games in progress are dropped and replayed by `--resume`.

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Whether SIGINT or SIGTERM has arrived since [`install`].
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

#[cfg(unix)]
mod imp {
    use super::INTERRUPTED;
    use std::sync::atomic::Ordering;

    const SIGINT: i32 = 2;
    const SIGTERM: i32 = 15;

    // Only an atomic store: async-signal-safe.
    extern "C" fn on_signal(_signum: i32) {
        INTERRUPTED.store(true, Ordering::SeqCst);
    }

    unsafe extern "C" {
        // C's signal(2); the handler type is `void (*)(int)`, the result the old handler.
        fn signal(signum: i32, handler: extern "C" fn(i32)) -> usize;
    }

    pub fn install() {
        // SAFETY: the handler only stores to a static atomic, which is async-signal-safe.
        unsafe {
            signal(SIGINT, on_signal);
            signal(SIGTERM, on_signal);
        }
    }
}

/// Routes SIGINT and SIGTERM to the flag (Unix; elsewhere they keep their default action).
pub fn install() {
    #[cfg(unix)]
    imp::install();
}
