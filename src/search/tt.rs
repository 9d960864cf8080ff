//! The transposition table: a fixed-size, two-way set-associative cache of search results,
//! keyed by `Game::key`, shared by every thread of a search.
//!
//! The slots come in buckets of two, probed together. A new result replaces, in order of
//! preference, the slot holding the same key, an empty slot, a slot from an older search,
//! and otherwise the shallower of the two. Scores are stored relative to the node (mate
//! distances counted from it, not from the root), see [`to_tt`] / [`from_tt`].
//!
//! Sharing: each bucket has a lock that a thread only ever tries once. A probe that finds its
//! bucket locked by another thread is a miss, and a store is dropped: a search loses one
//! result now and then, and never waits. With one thread the lock is always free.

use std::cell::UnsafeCell;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

use crate::value::MATE_BOUND;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Empty,
    /// The true value is at least the stored score (a fail-high).
    Lower,
    /// The true value is at most the stored score (a fail-low).
    Upper,
    Exact,
}

/// A stored search result, as [`Table::probe`] returns it.
#[derive(Clone, Copy, Debug)]
pub struct Entry<M> {
    pub key: u64,
    pub mv: Option<M>,
    pub score: i32,
    /// The position's static evaluation, when the search computed it.
    pub eval: Option<i32>,
    pub depth: i16,
    pub bound: Bound,
}

/// One slot as it sits in memory. All-zero bytes are a valid, empty slot (and an unlocked
/// bucket), so the table is allocated zeroed and the operating system supplies its pages
/// only when they are first written: a table costs no time to create and no memory until it
/// is used.
#[derive(Clone, Copy)]
struct Slot<M: Copy> {
    key: u64,
    score: i32,
    /// The static evaluation, meaningful when bit 3 of `flags` is set.
    eval: i32,
    depth: i16,
    /// Bits 0..2: the bound (0 empty, 1 lower, 2 upper, 3 exact); bit 2: `mv` holds a move;
    /// bit 3: `eval` holds an evaluation.
    flags: u8,
    age: u8,
    /// Initialised exactly when bit 2 of `flags` is set.
    mv: MaybeUninit<M>,
}

const HAS_MOVE: u8 = 4;
const HAS_EVAL: u8 = 8;

impl<M: Copy> Slot<M> {
    fn bound(&self) -> Bound {
        match self.flags & 3 {
            0 => Bound::Empty,
            1 => Bound::Lower,
            2 => Bound::Upper,
            _ => Bound::Exact,
        }
    }

    fn mv(&self) -> Option<M> {
        // SAFETY: HAS_MOVE is only set together with writing a move into `mv`.
        (self.flags & HAS_MOVE != 0).then(|| unsafe { self.mv.assume_init() })
    }

    fn entry(&self) -> Entry<M> {
        Entry {
            key: self.key,
            mv: self.mv(),
            score: self.score,
            eval: (self.flags & HAS_EVAL != 0).then_some(self.eval),
            depth: self.depth,
            bound: self.bound(),
        }
    }
}

/// Two slots and the lock that guards them. (Not aligned to a cache line: with an alignment
/// above 16 the allocator zeroes the table at once instead of mapping zero pages lazily.)
#[repr(C)]
struct Bucket<M: Copy> {
    locked: AtomicBool,
    slots: UnsafeCell<[Slot<M>; 2]>,
}

// SAFETY: the slots are only read or written by the thread that holds `locked` (see
// `Bucket::with`); a slot holds plain data and a move, which is `Send`.
unsafe impl<M: Copy + Send> Sync for Bucket<M> {}

impl<M: Copy> Bucket<M> {
    /// Runs `f` on the slots if the lock is free (taking it meanwhile), else `None`.
    #[inline]
    fn with<R>(&self, f: impl FnOnce(&mut [Slot<M>; 2]) -> R) -> Option<R> {
        if self
            .locked
            .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            return None;
        }
        // SAFETY: this thread holds the lock, so no other thread touches the slots until it
        // is released below; `f` cannot keep the reference (its lifetime ends here).
        let r = f(unsafe { &mut *self.slots.get() });
        self.locked.store(false, Ordering::Release);
        Some(r)
    }
}

/// `len` empty buckets, from zeroed memory (see [`Slot`]); fewer (half as many, again and
/// again) when the system refuses that much memory, down to one.
fn zeroed_buckets<M: Copy>(mut len: usize) -> Vec<Bucket<M>> {
    loop {
        let layout =
            std::alloc::Layout::array::<Bucket<M>>(len).expect("a table size that fits memory");
        // SAFETY: the layout has a non-zero size (len >= 1, Bucket is not zero-sized); all-zero
        // bytes are a valid Bucket (an unlocked flag, integers, and a MaybeUninit that is not
        // read while HAS_MOVE is clear); the pointer comes from the global allocator with
        // exactly the layout of a Vec<Bucket<M>> of capacity `len`, so the Vec may own and
        // free it.
        unsafe {
            let ptr = std::alloc::alloc_zeroed(layout) as *mut Bucket<M>;
            if !ptr.is_null() {
                huge_pages(ptr as *mut u8, layout.size());
                return Vec::from_raw_parts(ptr, len, len);
            }
            if len <= 1 {
                std::alloc::handle_alloc_error(layout);
            }
        }
        log::warn!(
            "cannot allocate a search table of {} bytes; trying half",
            len * std::mem::size_of::<Bucket<M>>()
        );
        len /= 2;
    }
}

/// Asks Linux to back the table's whole pages with huge pages (2 MiB) where it can. Random
/// probes over a large table miss the TLB on nearly every access with 4 KiB pages: perf
/// put about 7% of a chess search's time on the instruction after the prefetch. Only a hint: the pages still
/// come as they are first written, and without transparent huge pages nothing changes.
fn huge_pages(ptr: *mut u8, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = (ptr as usize).next_multiple_of(PAGE);
        let end = (ptr as usize + bytes) / PAGE * PAGE;
        if end > start {
            // SAFETY: madvise only advises on whole pages of memory this process owns (the
            // allocation just made); it neither reads nor writes them.
            unsafe { libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (ptr, bytes);
}

pub struct Table<M: Copy> {
    buckets: Vec<Bucket<M>>,
    /// The current search's generation, stored in each slot it writes.
    age: AtomicU8,
}

impl<M: Copy + Send + 'static> Table<M> {
    /// A table of at most `megabytes` MiB (a power-of-two number of buckets, at least 1).
    pub fn new(megabytes: usize) -> Table<M> {
        Self::with_bytes(megabytes.max(1).saturating_mul(1 << 20))
    }

    /// A table of at most `bytes` bytes (a power-of-two number of buckets, at least 1).
    /// Creating it is O(1): its memory is supplied as the search first writes it.
    pub fn with_bytes(bytes: usize) -> Table<M> {
        let fit = (bytes / std::mem::size_of::<Bucket<M>>()).max(1);
        let len = 1usize << (usize::BITS - 1 - fit.leading_zeros());
        Table {
            buckets: zeroed_buckets(len),
            age: AtomicU8::new(0),
        }
    }

    /// Bytes of the buckets.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket<M>>()
    }

    /// The number of slots.
    pub fn len(&self) -> usize {
        2 * self.buckets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.buckets.is_empty()
    }

    /// Marks the start of a new search, so older entries are replaced first.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    /// The slot a key hashes to: its bucket, and which of the bucket's two slots is looked
    /// at first.
    #[inline]
    fn index(&self, key: u64) -> (usize, usize) {
        // Games' keys can be structured (raw bitboards); mix before taking the top bits.
        let h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (key >> 29);
        let h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        let i = (h >> 32) as usize & (self.len() - 1);
        (i >> 1, i & 1)
    }

    /// Asks the processor to bring `key`'s bucket into the cache, so that a probe soon after
    /// (the child's, once the parent has made the move) does not wait for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket = &self.buckets[self.index(key).0] as *const Bucket<M> as *const i8;
            // SAFETY: SSE is part of the x86-64 baseline; a prefetch never faults, and
            // `bucket` points into the table anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any (and if no other thread holds its bucket).
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        let (b, first) = self.index(key);
        self.buckets[b]
            .with(|slots| {
                [first, first ^ 1]
                    .into_iter()
                    .map(|j| &slots[j])
                    .find(|e| e.flags & 3 != 0 && e.key == key)
                    .map(Slot::entry)
            })
            .flatten()
    }

    /// Stores a result: the best move (none after a fail-low), the score (see [`to_tt`]), the
    /// static evaluation when known, the depth searched and what the score bounds. Dropped
    /// when another thread holds the bucket.
    #[inline]
    pub fn store(
        &self,
        key: u64,
        mv: Option<M>,
        score: i32,
        eval: Option<i32>,
        depth: i32,
        bound: Bound,
    ) {
        let (b, first) = self.index(key);
        let age = self.age.load(Ordering::Relaxed);
        self.buckets[b].with(|slots| {
            let worth = |e: &Slot<M>| {
                if e.flags & 3 == 0 || e.key == key {
                    i32::MIN
                } else if e.age != age {
                    -1000 + e.depth as i32
                } else {
                    e.depth as i32
                }
            };
            let j = if worth(&slots[first]) <= worth(&slots[first ^ 1]) {
                first
            } else {
                first ^ 1
            };
            let slot = &mut slots[j];
            // Keep the old best move when the new result has none (a fail-low at the same key).
            let mv = if mv.is_none() && slot.key == key {
                slot.mv()
            } else {
                mv
            };
            let bound = match bound {
                Bound::Empty => 0,
                Bound::Lower => 1,
                Bound::Upper => 2,
                Bound::Exact => 3,
            };
            *slot = Slot {
                key,
                score,
                eval: eval.unwrap_or(0),
                depth: depth.clamp(0, i16::MAX as i32) as i16,
                flags: bound
                    | if mv.is_some() { HAS_MOVE } else { 0 }
                    | if eval.is_some() { HAS_EVAL } else { 0 },
                age,
                mv: mv.map_or(MaybeUninit::uninit(), MaybeUninit::new),
            };
        });
    }

    /// Permille of a sample of slots used by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let n = self.buckets.len().min(500);
        let used: usize = self.buckets[..n]
            .iter()
            .filter_map(|b| {
                b.with(|slots| {
                    slots
                        .iter()
                        .filter(|e| e.flags & 3 != 0 && e.age == age)
                        .count()
                })
            })
            .sum();
        (used * 1000 / (2 * n)) as u32
    }
}

/// A score as stored: mate scores count plies from this node rather than from the root.
#[inline]
pub fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_tt`] for a node `ply` plies from the root.
#[inline]
pub fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}
