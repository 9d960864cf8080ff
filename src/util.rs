//! Small shared helpers with no game or protocol knowledge.

/// SplitMix64: a tiny, fast, seedable generator for playouts, openings and shuffles.
/// Not for anything that needs unpredictability.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`), by multiply-shift (bias below 2^-32 for small `n`).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// Drops `value` on a short-lived thread of its own, so that freeing a large table (tens of
/// milliseconds for a GiB of touched pages) does not hold up the caller. When no thread can
/// be started, the closure, and `value` with it, is dropped here instead.
pub fn drop_in_background<T: Send + 'static>(value: T) {
    let _ = std::thread::Builder::new()
        .name("ply-free".into())
        .spawn(move || drop(value));
}

/// Whether the system would give this process `bytes` of memory in one allocation now (it is
/// asked, and the memory handed back at once: with zeroed pages supplied on first write, this
/// costs no time and no resident memory). A `false` means a table of that size cannot exist;
/// a `true` does not promise that the pages can all be filled later.
pub fn can_allocate(bytes: usize) -> bool {
    // The allocator's smallest alignment: zeroed memory then comes from calloc, which takes
    // fresh pages from the system without writing them.
    let Ok(layout) = std::alloc::Layout::from_size_align(bytes.max(1), 16) else {
        return false;
    };
    // SAFETY: a non-zero-sized layout; the pointer is freed with the same layout. The
    // black_box keeps the compiler from removing the pair and assuming success.
    unsafe {
        let p = std::hint::black_box(std::alloc::alloc_zeroed(layout));
        if p.is_null() {
            return false;
        }
        std::alloc::dealloc(p, layout);
    }
    true
}

/// Makes the C allocator (glibc) serve every allocation of 1 MiB or more with pages of its
/// own, returned to the system when freed. Without it, glibc raises its threshold after large
/// frees and serves later tables from its heap, where freed ones stay resident: a cleared or
/// resized table could then count twice in the process's memory. Call it once, at start.
pub fn return_large_frees_to_the_system() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes the allocator's tunables; called before other threads.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

/// The calling thread's processor time and its time spent runnable but waiting for a
/// processor, since it started (Linux's `/proc/thread-self/schedstat`; `None` elsewhere):
/// beside the wall clock they tell time worked, time descheduled, and time blocked.
pub fn thread_sched_times() -> Option<(std::time::Duration, std::time::Duration)> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let mut fields = text.split_whitespace().map(|f| f.parse::<u64>().ok());
    let ran = fields.next()??;
    let waited = fields.next()??;
    Some((
        std::time::Duration::from_nanos(ran),
        std::time::Duration::from_nanos(waited),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(target_os = "linux")]
    fn a_thread_that_works_has_run_time_and_the_counts_only_grow() {
        let (ran0, waited0) = thread_sched_times().expect("Linux has schedstat");
        let mut x = 1u64;
        for i in 0..5_000_000u64 {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(i));
        }
        let (ran1, waited1) = thread_sched_times().expect("Linux has schedstat");
        assert!(ran1 > ran0, "{ran0:?} then {ran1:?}");
        assert!(waited1 >= waited0);
    }
}
