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

    // Only an atomic store: async-signal-safe.
    extern "C" fn on_signal(_signum: libc::c_int) {
        INTERRUPTED.store(true, Ordering::SeqCst);
    }

    pub fn install() {
        let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
        // SAFETY: the handler only stores to a static atomic, which is async-signal-safe.
        unsafe {
            libc::signal(libc::SIGINT, handler);
            libc::signal(libc::SIGTERM, handler);
        }
    }
}

/// Routes SIGINT and SIGTERM to the flag (Unix; elsewhere they keep their default action).
pub fn install() {
    #[cfg(unix)]
    imp::install();
}
