//! The transposition table: a fixed-size, two-way set-associative cache of search results,
//! keyed by `Game::key`.
//!
//! Each slot pair `{i, i ^ 1}` is probed together. A new result replaces, in order of
//! preference, the slot holding the same key, an empty slot, a slot from an older search,
//! and otherwise the shallower of the two. Scores are stored relative to the node (mate
//! distances counted from it, not from the root), see [`to_tt`] / [`from_tt`].

use super::MATE_BOUND;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Empty,
    /// The true value is at least the stored score (a fail-high).
    Lower,
    /// The true value is at most the stored score (a fail-low).
    Upper,
    Exact,
}

#[derive(Clone, Copy, Debug)]
pub struct Entry<M> {
    pub key: u64,
    pub mv: Option<M>,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    age: u8,
}

impl<M> Entry<M> {
    const EMPTY: Entry<M> = Entry {
        key: 0,
        mv: None,
        score: 0,
        depth: -1,
        bound: Bound::Empty,
        age: 0,
    };
}

pub struct Table<M> {
    entries: Vec<Entry<M>>,
    age: u8,
}

impl<M: Copy> Table<M> {
    /// A table of at most `megabytes` MiB (a power-of-two number of entries, at least 2).
    pub fn new(megabytes: usize) -> Table<M> {
        let bytes = megabytes.max(1).saturating_mul(1 << 20);
        let fit = (bytes / std::mem::size_of::<Entry<M>>()).max(2);
        let len = 1usize << (usize::BITS - 1 - fit.leading_zeros());
        Table {
            entries: vec![Entry::EMPTY; len],
            age: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn clear(&mut self) {
        self.entries.fill(Entry::EMPTY);
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

    #[inline]
    pub fn probe(&self, key: u64) -> Option<&Entry<M>> {
        let i = self.index(key);
        [i, i ^ 1]
            .into_iter()
            .map(|j| &self.entries[j])
            .find(|e| e.bound != Bound::Empty && e.key == key)
    }

    #[inline]
    pub fn store(&mut self, key: u64, mv: Option<M>, score: i32, depth: i32, bound: Bound) {
        let i = self.index(key);
        let age = self.age;
        let worth = |e: &Entry<M>| {
            if e.bound == Bound::Empty || e.key == key {
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
            slot.mv
        } else {
            mv
        };
        *slot = Entry {
            key,
            mv,
            score,
            depth: depth.clamp(0, i16::MAX as i32) as i16,
            bound,
            age,
        };
    }

    /// Permille of a sample of slots used by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let n = self.entries.len().min(1000);
        let used = self.entries[..n]
            .iter()
            .filter(|e| e.bound != Bound::Empty && e.age == self.age)
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
