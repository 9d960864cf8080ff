//! The transposition table: a fixed-size, two-way set-associative cache of search results,
//! keyed by `Game::key`.
//!
//! Each slot pair `{i, i ^ 1}` is probed together. A new result replaces, in order of
//! preference, the slot holding the same key, an empty slot, a slot from an older search,
//! and otherwise the shallower of the two. Scores are stored relative to the node (mate
//! distances counted from it, not from the root), see [`to_tt`] / [`from_tt`].

use std::mem::MaybeUninit;

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
    pub depth: i16,
    pub bound: Bound,
}

/// One slot as it sits in memory. All-zero bytes are a valid, empty slot, so the table is
/// allocated zeroed and the operating system supplies its pages only when they are first
/// written: a table costs no time to create and no memory until it is used.
#[derive(Clone, Copy)]
struct Slot<M: Copy> {
    key: u64,
    score: i32,
    depth: i16,
    /// Bits 0..2: the bound (0 empty, 1 lower, 2 upper, 3 exact); bit 2: `mv` holds a move.
    flags: u8,
    age: u8,
    /// Initialised exactly when bit 2 of `flags` is set.
    mv: MaybeUninit<M>,
}

const HAS_MOVE: u8 = 4;

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
            depth: self.depth,
            bound: self.bound(),
        }
    }
}

/// `len` empty slots, from zeroed memory (see [`Slot`]); fewer (half as many, again and
/// again) when the system refuses that much memory, down to two.
fn zeroed_slots<M: Copy>(mut len: usize) -> Vec<Slot<M>> {
    loop {
        let layout =
            std::alloc::Layout::array::<Slot<M>>(len).expect("a table size that fits memory");
        // SAFETY: the layout has a non-zero size (len >= 2, Slot is not zero-sized); all-zero
        // bytes are a valid Slot (integers, and a MaybeUninit that is not read while HAS_MOVE
        // is clear); the pointer comes from the global allocator with exactly the layout of a
        // Vec<Slot<M>> of capacity `len`, so the Vec may own and free it.
        unsafe {
            let ptr = std::alloc::alloc_zeroed(layout) as *mut Slot<M>;
            if !ptr.is_null() {
                return Vec::from_raw_parts(ptr, len, len);
            }
            if len <= 2 {
                std::alloc::handle_alloc_error(layout);
            }
        }
        log::warn!(
            "cannot allocate a search table of {} bytes; trying half",
            layout_bytes::<M>(len)
        );
        len /= 2;
    }
}

fn layout_bytes<M: Copy>(len: usize) -> usize {
    len * std::mem::size_of::<Slot<M>>()
}

/// Tables at least this large are cleared by swapping in fresh zeroed memory (and freeing the
/// old pages on another thread) rather than by writing every slot.
const SWAP_CLEAR_BYTES: usize = 4 << 20;

pub struct Table<M: Copy> {
    entries: Vec<Slot<M>>,
    age: u8,
}

impl<M: Copy + Send + 'static> Table<M> {
    /// A table of at most `megabytes` MiB (a power-of-two number of entries, at least 2).
    pub fn new(megabytes: usize) -> Table<M> {
        Self::with_bytes(megabytes.max(1).saturating_mul(1 << 20))
    }

    /// A table of at most `bytes` bytes (a power-of-two number of entries, at least 2).
    /// Creating it is O(1): its memory is supplied as the search first writes it.
    pub fn with_bytes(bytes: usize) -> Table<M> {
        let fit = (bytes / std::mem::size_of::<Slot<M>>()).max(2);
        let len = 1usize << (usize::BITS - 1 - fit.leading_zeros());
        Table {
            entries: zeroed_slots(len),
            age: 0,
        }
    }

    /// Bytes of the slots.
    pub fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Slot<M>>()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Empties the table. A large one gets fresh zeroed memory at once and its old pages are
    /// freed on another thread, so this takes microseconds at any size.
    pub fn clear(&mut self) {
        if self.bytes() >= SWAP_CLEAR_BYTES {
            let fresh = zeroed_slots(self.entries.len());
            let old = std::mem::replace(&mut self.entries, fresh);
            crate::util::drop_in_background(old);
        } else {
            self.entries.fill(Slot {
                key: 0,
                score: 0,
                depth: 0,
                flags: 0,
                age: 0,
                mv: MaybeUninit::uninit(),
            });
        }
        self.age = 0;
    }

    /// Marks the start of a new search, so older entries are replaced first.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        // Games' keys can be structured (raw bitboards); mix before taking the top bits.
        let h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (key >> 29);
        let h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        (h >> 32) as usize & (self.entries.len() - 1)
    }

    /// Asks the processor to bring `key`'s slots into the cache, so that a probe soon after
    /// (the child's, once the parent has made the move) does not wait for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let slot = &self.entries[self.index(key) & !1] as *const Slot<M> as *const i8;
            // SAFETY: SSE is part of the x86-64 baseline; a prefetch never faults, and `slot`
            // points into the table anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(slot) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        let i = self.index(key);
        [i, i ^ 1]
            .into_iter()
            .map(|j| &self.entries[j])
            .find(|e| e.flags & 3 != 0 && e.key == key)
            .map(Slot::entry)
    }

    #[inline]
    pub fn store(&mut self, key: u64, mv: Option<M>, score: i32, depth: i32, bound: Bound) {
        let i = self.index(key);
        let age = self.age;
        let worth = |e: &Slot<M>| {
            if e.flags & 3 == 0 || e.key == key {
                i32::MIN
            } else if e.age != age {
                -1000 + e.depth as i32
            } else {
                e.depth as i32
            }
        };
        let j = if worth(&self.entries[i]) <= worth(&self.entries[i ^ 1]) {
            i
        } else {
            i ^ 1
        };
        let slot = &mut self.entries[j];
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
            depth: depth.clamp(0, i16::MAX as i32) as i16,
            flags: bound | if mv.is_some() { HAS_MOVE } else { 0 },
            age,
            mv: mv.map_or(MaybeUninit::uninit(), MaybeUninit::new),
        };
    }

    /// Permille of a sample of slots used by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let n = self.entries.len().min(1000);
        let used = self.entries[..n]
            .iter()
            .filter(|e| e.flags & 3 != 0 && e.age == self.age)
            .count();
        (used * 1000 / n) as u32
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
