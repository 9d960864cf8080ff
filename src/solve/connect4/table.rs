//! The solver's transposition table: bounds on Pons scores, shared by all search threads.
//!
//! Buckets of [`WAYS`] entries, one `u64` each, 32-byte aligned so a bucket never straddles a
//! cache line. A position's key (at most `key_bits` bits) is mixed by multiplying it with an
//! odd constant modulo `2^key_bits`, a bijection; the high bits of the product pick the
//! bucket and the remaining low bits are stored as the tag, so a tag match identifies the
//! position exactly (no false hits, however full the table).
//!
//! Entry layout (bit ranges, low to high):
//!
//! ```text
//!  0..6   lower bound on the score, plus 32
//!  6..12  upper bound on the score, plus 32
//! 12..16  best move: its column + 1, or 0 for none
//! 16..21  work: log2 of the nodes searched to produce the entry (replacement priority)
//! 21..29  generation: entries of an older generation are empty; fresh memory is all zero
//!         and generation 0 is never current
//! 29..64  tag: the mixed key without its bucket bits (35 bits)
//! ```
//!
//! Both bounds are kept: null-window probes at different scores then refine one entry
//! instead of overwriting each other. Every stored bound is a true bound, so a second store of
//! the same position intersects the two intervals.
//!
//! Threads read and write entries with relaxed atomic loads and stores of whole words: an
//! entry is never torn, and a lost update only costs a re-search.

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::ptr::NonNull;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::thread::JoinHandle;

/// log2 of the buckets of the near region: 1 MiB, which stays in a core's L2 cache.
const NEAR_BUCKET_BITS: u32 = 15;
/// Entries per bucket.
pub const WAYS: usize = 4;
const TAG_BITS: u32 = 35;
const TAG_SHIFT: u32 = 29;
const GEN_SHIFT: u32 = 21;
const WORK_SHIFT: u32 = 16;
const MOVE_SHIFT: u32 = 12;
/// Scores are stored with this offset, so -32..=31 fit in six bits.
const OFFSET: i32 = 32;
/// At a generation wrap, a used prefix up to this size is zeroed in place (about 2 ms);
/// a larger one is replaced by fresh memory.
const ZERO_IN_PLACE_MAX: usize = 16 << 20;
/// Multiplier of the key mix (odd; from the golden ratio).
const MIX: u64 = 0x9E37_79B9_7F4A_7C15;

/// A probe's answer: bounds on the score and the stored best move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    pub lower: i32,
    pub upper: i32,
    /// Column of the best move found when the entry was written, if any.
    pub best: Option<usize>,
}

/// Zeroed memory for the buckets, page aligned. On Linux it is mapped directly, so that it can
/// be given transparent huge pages before anything touches it.
struct Buffer {
    ptr: NonNull<AtomicU64>,
    len: usize,
    layout: Layout,
    mapped: bool,
}

// The buffer is only accessed through atomics.
unsafe impl Send for Buffer {}
unsafe impl Sync for Buffer {}

impl Buffer {
    /// No memory: what stays in place of a buffer handed over to be freed elsewhere.
    fn none() -> Buffer {
        Buffer {
            ptr: NonNull::dangling(),
            len: 0,
            layout: Layout::new::<u64>(),
            mapped: false,
        }
    }

    fn new(len: usize) -> Buffer {
        let bytes = len * 8;
        let layout = Layout::from_size_align(bytes, 4096).expect("table size fits a layout");
        #[cfg(target_os = "linux")]
        {
            // SAFETY: a fresh private anonymous mapping; checked for failure below.
            let raw = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    bytes,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                    -1,
                    0,
                )
            };
            if raw != libc::MAP_FAILED {
                // Random probes over a large table miss the TLB on nearly every access with
                // 4 KiB pages. A hint: without huge pages the table still works.
                // SAFETY: the range is exactly the mapping just made.
                unsafe { libc::madvise(raw, bytes, libc::MADV_HUGEPAGE) };
                let ptr = NonNull::new(raw as *mut AtomicU64).expect("mmap never returns null");
                return Buffer {
                    ptr,
                    len,
                    layout,
                    mapped: true,
                };
            }
        }
        // SAFETY: the layout has a non-zero size (len >= WAYS); zeroed bytes are valid AtomicU64s.
        let raw = unsafe { alloc_zeroed(layout) } as *mut AtomicU64;
        let ptr = NonNull::new(raw).unwrap_or_else(|| std::alloc::handle_alloc_error(layout));
        Buffer {
            ptr,
            len,
            layout,
            mapped: false,
        }
    }

    fn slice(&self) -> &[AtomicU64] {
        // SAFETY: `ptr` points to `len` initialised (zeroed) AtomicU64s owned by self.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        if self.len == 0 {
            // The placeholder of a buffer handed to another thread to free.
            return;
        }
        if self.mapped {
            #[cfg(target_os = "linux")]
            // SAFETY: mapped in `new` with exactly this length.
            unsafe {
                libc::munmap(self.ptr.as_ptr() as *mut libc::c_void, self.layout.size())
            };
        } else {
            // SAFETY: allocated in `new` with exactly this layout.
            unsafe { dealloc(self.ptr.as_ptr() as *mut u8, self.layout) }
        }
    }
}

/// Backs a buffer with memory ahead of its use, on a thread of its own.
///
/// The system supplies a fresh page at its first write, and that costs: a 2 MiB huge page
/// is zeroed, and on a virtual machine first backed by the host (here about 5 ms each: a
/// first solve at Hash 1024 took 1.2 s touching its 256 pages). So the table is not touched
/// on a solve's path: this thread writes a zero to every page from `from` on (those bytes
/// are zero already, and no solve uses them yet), and solves use only the prefix it has
/// done ([`Table::begin_solve`], [`Table::grow`]).
struct Warmer {
    /// Bytes from the buffer's start that are backed.
    done: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Warmer {
    fn start(buf: &Buffer, from: usize) -> Warmer {
        let bytes = buf.len * 8;
        let done = Arc::new(AtomicUsize::new(from.min(bytes)));
        let stop = Arc::new(AtomicBool::new(false));
        let base = buf.ptr.as_ptr() as usize;
        let (d, st) = (done.clone(), stop.clone());
        let thread = std::thread::Builder::new()
            .name("c4-table-warm".into())
            .spawn(move || {
                // A low priority: searches come first.
                #[cfg(target_os = "linux")]
                // SAFETY: changes this thread's nice value only.
                unsafe {
                    libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, 10);
                }
                const STEP: usize = 2 << 20;
                let mut at = d.load(Ordering::Relaxed);
                while at < bytes {
                    let end = (at + STEP).min(bytes);
                    for page in (at..end).step_by(4096) {
                        if st.load(Ordering::Relaxed) {
                            return;
                        }
                        // SAFETY: inside the buffer, which outlives this thread (the table
                        // stops and joins it before freeing the buffer); 8-aligned; beyond
                        // the prefix solves use, and zero already.
                        unsafe {
                            (*((base + page) as *const AtomicU64)).store(0, Ordering::Relaxed)
                        };
                    }
                    at = end;
                    d.store(at, Ordering::Release);
                }
            })
            .ok();
        if thread.is_none() {
            // No thread: solves use the whole table and fault its pages themselves.
            done.store(bytes, Ordering::Release);
        }
        Warmer { done, stop, thread }
    }

    /// A warmer with nothing to do.
    fn idle() -> Warmer {
        Warmer {
            done: Arc::new(AtomicUsize::new(0)),
            stop: Arc::new(AtomicBool::new(false)),
            thread: None,
        }
    }

    fn done(&self) -> usize {
        self.done.load(Ordering::Acquire)
    }

    /// Stops the thread (it looks at the flag before every page) and waits for it.
    fn finish(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }

    fn running(&self) -> bool {
        self.thread.as_ref().is_some_and(|t| !t.is_finished())
    }
}

impl Drop for Warmer {
    fn drop(&mut self) {
        self.finish();
    }
}

/// A buffer and its warmer, freed together on another thread: the warmer is stopped and
/// waited for (it may be in a slow page fault) before the buffer goes (fields drop in order).
struct Retired {
    _warm: Warmer,
    _buf: Buffer,
}

pub struct Table {
    buf: Buffer,
    /// Backs `buf` ahead of use; solves use only the prefix it has done.
    warm: Warmer,
    /// Small regions for positions near the end of the game, one per search thread: their
    /// subtrees are small, they are most of the nodes, and a private region stays in its
    /// core's caches. (Shared, its lines bounced between the cores: the empty board took
    /// 25.9 s on two threads with one shared region, 21.7 s with one each.)
    near: Vec<Buffer>,
    near_bits: u32,
    /// Bits of the keys stored (the board's layout size).
    key_bits: u32,
    /// log2 of the buckets allocated.
    max_bucket_bits: u32,
    /// log2 of the buckets in use for the current solve (a prefix of the table); it only
    /// grows during a solve ([`Table::grow`]).
    bucket_bits: AtomicU32,
    /// The current generation, 1..=255.
    generation: u64,
    /// log2 of the widest prefix used since the memory was last zeroed: only that part can
    /// hold entries of any generation.
    used_bits: AtomicU32,
    /// Nothing has been stored in this generation yet: the prefix size may still change.
    fresh: bool,
    /// Every generation wrap zeroes the used prefix in place, whatever its size (set by
    /// [`Table::back_all_now`]).
    zero_in_place: bool,
}

impl Table {
    /// The fewest buckets a table for `key_bits`-bit keys may use: the tag must hold every key
    /// bit the bucket index does not.
    pub fn min_bucket_bits(key_bits: u32) -> u32 {
        key_bits.saturating_sub(TAG_BITS).max(8)
    }

    /// A table of about `mb` MiB (rounded down to a power of two buckets, at least the minimum
    /// for the key size).
    pub fn new(key_bits: u32, mb: usize) -> Table {
        let bucket_bytes = (WAYS * 8) as u64;
        let want = (mb as u64 * (1 << 20)) / bucket_bytes;
        let bits = (63 - want.max(1).leading_zeros()).max(Self::min_bucket_bits(key_bits));
        // Zeroed pages from the operating system, supplied as solves first write them: a
        // table costs no time to create and no memory until it is used (the engine creates
        // one at `newgame` and must answer `isready` at once at any Hash).
        let buf = Buffer::new(WAYS << bits);
        let min = Self::min_bucket_bits(key_bits);
        let warm = Warmer::start(&buf, (WAYS * 8) << min);
        let near_bits = NEAR_BUCKET_BITS.max(min);
        let near = vec![Buffer::new(WAYS << near_bits)];
        Table {
            buf,
            warm,
            near,
            near_bits,
            key_bits,
            max_bucket_bits: bits,
            bucket_bits: AtomicU32::new(min),
            generation: 1,
            used_bits: AtomicU32::new(min),
            fresh: true,
            zero_in_place: false,
        }
    }

    /// log2 of the buckets backed so far (see [`Warmer`]).
    fn warm_bits(&self) -> u32 {
        let buckets = (self.warm.done() / (WAYS * 8)).max(1);
        63 - (buckets as u64).leading_zeros()
    }

    /// Stops backing the table ahead of use and lets solves use all of it (they fault the
    /// pages not backed yet themselves): for solves without a time limit, which would rather
    /// pay that than use a smaller table.
    pub fn use_all(&mut self) {
        if self.warm.thread.is_some() {
            self.warm.finish();
            self.warm.done.store(self.bytes(), Ordering::Release);
        }
    }

    /// Backs the whole table and its near regions now, on this thread (the warmer stopped),
    /// and from then on zeroes the used part in place at every generation wrap: for
    /// benchmarks, which time solves alone and want neither a page fault nor another thread
    /// inside them (Pons' solver, the peer, zeroes its whole table before each position,
    /// untimed). Costs a write per page: milliseconds for tens of MiB, seconds for GiBs on a
    /// virtual machine.
    pub fn back_all_now(&mut self) {
        self.warm.finish();
        for buf in std::iter::once(&self.buf).chain(self.near.iter()) {
            // 512 entries of 8 bytes: one write a 4 KiB page. A zero is what a page not
            // yet backed holds, and in a used one it only forgets an entry.
            for e in buf.slice().iter().step_by(512) {
                e.store(0, Ordering::Relaxed);
            }
        }
        self.warm.done.store(self.bytes(), Ordering::Release);
        self.zero_in_place = true;
    }

    /// Bytes allocated.
    pub fn bytes(&self) -> usize {
        self.buf.len * 8
    }

    /// Bytes of one near region (there is one per search thread).
    pub fn near_region_bytes(&self) -> usize {
        (WAYS << self.near_bits) * 8
    }

    /// Bytes of the near regions.
    pub fn near_bytes(&self) -> usize {
        self.near.len() * self.near_region_bytes()
    }

    /// Prepares a solve that would like a prefix of `2^bits` buckets (clamped to what is
    /// allocated and backed so far, and to the minimum the key size needs): small solves then
    /// stay within the caches. Right after a [`Table::reset`] the prefix is set to that size;
    /// otherwise it only widens, moving the entries ([`Table::grow`]): the tag holds the key
    /// bits that the bucket index does not, so an entry read under another prefix size would
    /// stand for another key.
    pub fn begin_solve(&mut self, bits: u32) {
        let bits = bits
            .min(self.max_bucket_bits)
            .min(self.warm_bits())
            .max(Self::min_bucket_bits(self.key_bits));
        if self.fresh {
            *self.bucket_bits.get_mut() = bits;
            let used = self.used_bits.get_mut();
            *used = (*used).max(bits);
            self.fresh = false;
        } else {
            self.grow(bits);
        }
    }

    /// log2 of the buckets in use.
    pub fn bucket_bits(&self) -> u32 {
        self.bucket_bits.load(Ordering::Relaxed)
    }

    /// Widens the prefix in use to `2^bits` buckets (at most what is allocated and backed), moving every
    /// entry of the current generation to the bucket the wider prefix looks in: the mixed key
    /// is the bucket index followed by the tag, so one more index bit is the tag's top bit.
    /// Old bucket `i` moves to buckets `i << k ..` (`k` the added bits), all above `i` for
    /// `i > 0`, so walking the old buckets downwards moves each entry once, in place. No other
    /// thread may use the table meanwhile (callers grow between probes, at a barrier).
    pub fn grow(&self, bits: u32) {
        let old = self.bucket_bits();
        // Only what is backed (see [`Warmer`]): a solve must not pay page faults.
        let bits = bits.min(self.max_bucket_bits).min(self.warm_bits());
        if bits <= old {
            return;
        }
        let k = bits - old;
        let low = self.key_bits - old; // tag bits before
        let new_low = low - k;
        let slice = self.buf.slice();
        for i in (0..1usize << old).rev() {
            let mut moving = [0u64; WAYS];
            for (w, m) in moving.iter_mut().enumerate() {
                *m = slice[i * WAYS + w].swap(0, Ordering::Relaxed);
            }
            for e in moving {
                if (e >> GEN_SHIFT) & 0xff != self.generation {
                    continue;
                }
                let tag = e >> TAG_SHIFT;
                let to = (i << k) | (tag >> new_low) as usize;
                let moved = ((tag & ((1u64 << new_low) - 1)) << TAG_SHIFT)
                    | (e & ((1u64 << TAG_SHIFT) - 1));
                // At most WAYS entries come from bucket i, and the target buckets hold nothing
                // of this generation yet.
                if let Some(slot) = slice[to * WAYS..to * WAYS + WAYS]
                    .iter()
                    .find(|s| (s.load(Ordering::Relaxed) >> GEN_SHIFT) & 0xff != self.generation)
                {
                    slot.store(moved, Ordering::Relaxed);
                }
            }
        }
        self.bucket_bits.store(bits, Ordering::Relaxed);
        self.used_bits.fetch_max(bits, Ordering::Relaxed);
    }

    /// Forgets every entry: O(1) by starting a new generation; every 255 generations the used
    /// part of the memory is zeroed for real.
    pub fn reset(&mut self) {
        self.generation += 1;
        self.fresh = true;
        if self.generation > 255 && (self.zero_in_place || self.used_bytes() <= ZERO_IN_PLACE_MAX) {
            // Little was used (many small solves, as a benchmark over a test set makes):
            // zeroing it keeps the pages the table already has, where fresh memory would
            // fault them in again during the next solves.
            let used = WAYS << *self.used_bits.get_mut();
            self.buf.slice()[..used]
                .iter()
                .chain(self.near.iter().flat_map(|r| r.slice()))
                .for_each(|e| e.store(0, Ordering::Relaxed));
            let min = Self::min_bucket_bits(self.key_bits);
            *self.bucket_bits.get_mut() = min;
            *self.used_bits.get_mut() = min;
            self.generation = 1;
        } else if self.generation > 255 {
            // Fresh zeroed memory rather than writing zeros over what was used: O(1) at any
            // size, the old pages are freed on another thread.
            let fresh = Buffer::new(self.buf.len);
            crate::util::drop_in_background(Retired {
                _warm: std::mem::replace(&mut self.warm, Warmer::idle()),
                _buf: std::mem::replace(&mut self.buf, fresh),
            });
            let min = Self::min_bucket_bits(self.key_bits);
            self.warm = Warmer::start(&self.buf, (WAYS * 8) << min);
            *self.bucket_bits.get_mut() = min;
            *self.used_bits.get_mut() = min;
            for region in &mut self.near {
                let fresh = Buffer::new(region.len);
                crate::util::drop_in_background(std::mem::replace(region, fresh));
            }
            self.generation = 1;
        }
    }

    /// Bytes of the prefix used since the memory was last zeroed.
    fn used_bytes(&self) -> usize {
        (WAYS * 8) << self.used_bits.load(Ordering::Relaxed)
    }

    /// Makes sure there are at least `n` near regions.
    pub fn add_near_regions(&mut self, n: usize) {
        while self.near.len() < n {
            self.near.push(Buffer::new(WAYS << self.near_bits));
        }
    }

    /// The bucket of `key` (in near region `i` when `near` is `Some(i)`, else in the main
    /// table) and its tag.
    #[inline(always)]
    fn locate(&self, key: u64, near: Option<usize>) -> (&[AtomicU64], u64) {
        let kb = self.key_bits;
        let mixed = if kb >= 64 {
            key.wrapping_mul(MIX)
        } else {
            key.wrapping_mul(MIX) & ((1u64 << kb) - 1)
        };
        let (buf, bits) = match near {
            Some(i) => (&self.near[i], self.near_bits),
            None => (&self.buf, self.bucket_bits.load(Ordering::Relaxed)),
        };
        let low = kb - bits;
        let i = (mixed >> low) as usize * WAYS;
        let tag = mixed & ((1u64 << low) - 1);
        (&buf.slice()[i..i + WAYS], tag)
    }

    /// Asks the memory system for `key`'s bucket ahead of a probe.
    #[inline(always)]
    pub fn prefetch(&self, key: u64, near: Option<usize>) {
        #[cfg(target_arch = "x86_64")]
        {
            let (bucket, _) = self.locate(key, near);
            let p = bucket.as_ptr() as *const i8;
            // SAFETY: prefetching is a hint and never faults; `p` is inside the buffer.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (key, near);
    }

    #[inline(always)]
    fn live(&self, e: u64, tag: u64) -> bool {
        e >> TAG_SHIFT == tag && (e >> GEN_SHIFT) & 0xff == self.generation
    }

    /// The bounds stored for `key`, if any.
    #[inline(always)]
    pub fn probe(&self, key: u64, near: Option<usize>) -> Option<Hit> {
        Self::hit(self.probe_raw(key, near))
    }

    /// The entry stored for `key` as it is in memory, or 0 if there is none (a live entry is
    /// never 0: its generation is not): what a parent keeps of its child's entry, to be
    /// decoded by [`Table::hit`] when the child is searched.
    #[inline(always)]
    pub fn probe_raw(&self, key: u64, near: Option<usize>) -> u64 {
        let (bucket, tag) = self.locate(key, near);
        for slot in bucket {
            let e = slot.load(Ordering::Relaxed);
            if self.live(e, tag) {
                return e;
            }
        }
        0
    }

    /// What an entry from [`Table::probe_raw`] says.
    #[inline(always)]
    pub fn hit(e: u64) -> Option<Hit> {
        (e != 0).then(|| decode(e))
    }

    /// Records `lower <= score <= upper` for `key` (and a best move, if known), found by a
    /// search of `nodes` nodes. Merges with an entry already there; otherwise replaces the
    /// bucket's stale or least-work entry. Callers start every solve with
    /// [`Table::begin_solve`].
    #[inline(always)]
    pub fn store(
        &self,
        key: u64,
        near: Option<usize>,
        lower: i32,
        upper: i32,
        best: Option<usize>,
        nodes: u64,
    ) {
        debug_assert!(lower <= upper);
        let (bucket, tag) = self.locate(key, near);
        let work = (63 - nodes.max(1).leading_zeros() as u64).min(31);
        let mut victim = 0;
        let mut victim_work = u64::MAX;
        for (w, slot) in bucket.iter().enumerate() {
            let e = slot.load(Ordering::Relaxed);
            if self.live(e, tag) {
                let old = decode(e);
                let (lo, hi) = (lower.max(old.lower), upper.min(old.upper));
                let (lo, hi) = if lo <= hi { (lo, hi) } else { (lower, upper) };
                let best = best.or(old.best);
                let work = work.max((e >> WORK_SHIFT) & 31);
                slot.store(self.encode(tag, lo, hi, best, work), Ordering::Relaxed);
                return;
            }
            let value = if (e >> GEN_SHIFT) & 0xff == self.generation {
                (e >> WORK_SHIFT) & 31
            } else {
                0
            };
            if value < victim_work {
                victim = w;
                victim_work = value;
            }
        }
        bucket[victim].store(
            self.encode(tag, lower, upper, best, work),
            Ordering::Relaxed,
        );
    }

    #[inline(always)]
    fn encode(&self, tag: u64, lower: i32, upper: i32, best: Option<usize>, work: u64) -> u64 {
        let mv = best.map_or(0, |c| c as u64 + 1);
        (tag << TAG_SHIFT)
            | (self.generation << GEN_SHIFT)
            | (work << WORK_SHIFT)
            | (mv << MOVE_SHIFT)
            | (((upper + OFFSET) as u64) << 6)
            | ((lower + OFFSET) as u64)
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        // The warming thread writes into the buffer: it must stop before the buffer goes.
        // Waiting for it can take a page fault's time, so a running one is left to another
        // thread with the buffer.
        if self.warm.running() {
            crate::util::drop_in_background(Retired {
                _warm: std::mem::replace(&mut self.warm, Warmer::idle()),
                _buf: std::mem::replace(&mut self.buf, Buffer::none()),
            });
        } else {
            self.warm.finish();
        }
    }
}

#[inline(always)]
fn decode(e: u64) -> Hit {
    let mv = (e >> MOVE_SHIFT) & 15;
    Hit {
        lower: (e & 63) as i32 - OFFSET,
        upper: ((e >> 6) & 63) as i32 - OFFSET,
        best: if mv == 0 { None } else { Some(mv as usize - 1) },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_probe_merge_and_reset() {
        let mut t = Table::new(49, 1);
        let k = 0x1_2345_6789_abcd;
        assert_eq!(t.probe(k, None), None);
        t.begin_solve(30);
        t.store(k, None, -3, 10, Some(2), 1000);
        assert_eq!(
            t.probe(k, None),
            Some(Hit {
                lower: -3,
                upper: 10,
                best: Some(2)
            })
        );
        t.store(k, None, 1, 21, None, 10);
        assert_eq!(
            t.probe(k, None),
            Some(Hit {
                lower: 1,
                upper: 10,
                best: Some(2)
            })
        );
        assert_eq!(t.probe(k ^ 1, None), None);
        t.reset();
        assert_eq!(t.probe(k, None), None);
        // Many resets wrap the generation and really clear.
        t.store(k, None, 0, 0, None, 1);
        for _ in 0..300 {
            t.reset();
            assert_eq!(t.probe(k, None), None);
        }
    }

    #[test]
    fn a_generation_wrap_forgets_what_every_earlier_generation_stored() {
        // 1 MiB: the used part is zeroed in place at the wrap; 64 MiB with prefixes wider
        // than 16 MiB: fresh memory replaces it, unless the table was backed up front
        // (`back_all_now`, the benchmarks), which zeroes in place at any size. Each
        // generation stores one key with its own prefix width; none may come back when the
        // generation numbers repeat.
        for (mb, widths, backed) in [
            (1, [10u32, 12, 15], false),
            (64, [10, 18, 21], false),
            (64, [10, 18, 21], true),
        ] {
            let mut t = Table::new(49, mb);
            if backed {
                t.back_all_now();
                assert_eq!(t.warm_bits(), t.max_bucket_bits);
            } else {
                t.use_all();
            }
            let mut replaced = 0;
            let key = |g: u64| g.wrapping_mul(0x9E37_79B9_7F4A) & ((1 << 49) - 1);
            for g in 0..600u64 {
                let memory = t.buf.ptr;
                t.reset();
                replaced += (t.buf.ptr != memory) as u32;
                t.begin_solve(widths[(g % 3) as usize]);
                for old in g.saturating_sub(300)..g {
                    assert_eq!(t.probe(key(old), None), None, "{mb} MiB: key {old} at {g}");
                }
                t.store(key(g), None, 1, 2, None, 1);
                assert!(t.probe(key(g), None).is_some());
            }
            // Two wraps: zeroed in place both times (1 MiB, or backed up front), else fresh
            // memory at least at the first (at the second the prefix may be narrow: a fresh
            // table is used only as far as its backing thread has got).
            if mb == 1 || backed {
                assert_eq!(replaced, 0, "{mb} MiB, backed {backed}");
            } else {
                assert!(replaced >= 1, "{mb} MiB: replaced {replaced} times");
            }
        }
    }

    #[test]
    fn growing_the_prefix_keeps_every_entry_findable() {
        // 2^16 buckets allocated (2 MiB), 2^10 in use, then 2^12, then all: every key stored
        // in the narrow prefix (and not evicted there) is found with its bounds afterwards.
        let mut t = Table::new(49, 2);
        // All of it backed: growth stops at what the warming thread has done so far.
        t.use_all();
        t.reset();
        t.begin_solve(10);
        let keys: Vec<u64> = (0..3000u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9) & ((1 << 49) - 1))
            .collect();
        for (i, &k) in keys.iter().enumerate() {
            t.store(k, None, (i % 20) as i32 - 10, 15, Some(i % 7), 1 + i as u64);
        }
        let kept: Vec<(u64, Hit)> = keys
            .iter()
            .filter_map(|&k| t.probe(k, None).map(|h| (k, h)))
            .collect();
        assert!(kept.len() > 2000, "{} of 3000 kept", kept.len());
        for bits in [12, 30] {
            t.grow(bits);
            for &(k, h) in &kept {
                assert_eq!(t.probe(k, None), Some(h), "key {k:x} at {bits} bits");
            }
        }
        assert_eq!(t.bucket_bits(), 16);
        // A later solve that would like a narrower prefix keeps the wide one.
        t.begin_solve(10);
        assert_eq!(t.bucket_bits(), 16);
        assert!(kept.iter().all(|&(k, h)| t.probe(k, None) == Some(h)));
        // Stale entries (an older generation) are not carried over.
        t.reset();
        t.begin_solve(10);
        t.grow(12);
        assert!(kept.iter().all(|&(k, _)| t.probe(k, None).is_none()));
    }

    #[test]
    fn the_prefix_grows_only_over_what_is_backed() {
        let mut t = Table::new(49, 64);
        t.begin_solve(10);
        t.grow(30);
        assert!(t.bucket_bits() <= t.warm_bits());
        t.use_all();
        t.grow(30);
        assert_eq!(t.bucket_bits(), t.max_bucket_bits);
    }

    #[test]
    fn distinct_keys_never_collide() {
        // A tiny table (the minimum for 20-bit keys) holding every key: each probe returns
        // its own bounds or nothing, never another key's.
        let mut t = Table::new(20, 0);
        t.begin_solve(30);
        for k in 0..(1u64 << 20) {
            t.store(k, None, (k % 40) as i32 - 20, 21, None, k % 7);
        }
        for k in 0..(1u64 << 20) {
            if let Some(h) = t.probe(k, None) {
                assert_eq!(h.lower, (k % 40) as i32 - 20);
            }
        }
    }
}
