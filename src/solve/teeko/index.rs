//! Perfect indexing of Teeko positions, reduced by the 8 symmetries of the square.
//!
//! A position is stored *mover-relative*: the set `m` of the side to move's markers and the
//! set `o` of its opponent's, as 25-bit cell masks (bit `file + 5 * rank`, as in
//! [`crate::games::teeko`]). The colours do not matter: Black to move on `(m, o)` and Red to
//! move on `(m, o)` have the same value, and so does any image of `(m, o)` under a symmetry
//! of the square (goals and steps are symmetric).
//!
//! A [`Layer`] holds every position with `a` mover markers and `b` opponent markers. Its
//! slots are laid out block by block:
//!
//! ```text
//! slot = orbit(m) * C(25 - a, b) + colex_rank(compress(g(o)))
//! ```
//!
//! - `orbit(m)` numbers the classes of `a`-sets under the symmetries (1,666 classes of
//!   4-sets), and `g` is a symmetry taking `m` to its class representative `rep`: the
//!   member of the class with the smallest colex rank (so `g` is the identity when `m`
//!   is itself a representative);
//! - `compress` renumbers the `25 - a` cells outside `rep` as `0..25 - a` in cell order
//!   (what `pext` does), and `colex_rank` numbers the `b`-subsets of those cells.
//!
//! So a slot is one concrete position `(rep, o')`. When `rep` has a non-trivial stabiliser
//! (a symmetric set of markers), `(rep, o')` and `(rep, s(o'))` for `s` in the stabiliser
//! are distinct slots of the same class of positions; they always hold the same value, and
//! [`Orbits::stabiliser`] lets the builder treat them together. Every slot is a valid board
//! (disjoint sets of the right sizes): there are no holes, and the slots of one mover class
//! stand for `orbit size` concrete positions each, which is how positions are counted.
//!
//! Colex rank: a `k`-set with cells `c0 < c1 < ... < c(k-1)` has rank `sum C(ci, i + 1)`;
//! the sets of any `n` cells take ranks `0..C(n, k)`, and colex order is the numeric order
//! of the masks, so ranks are dense whatever the number of cells.

use std::sync::OnceLock;

/// Number of cells.
pub const CELLS: usize = 25;
/// Every cell.
pub const ALL: u32 = (1 << CELLS) - 1;

/// `BINOM[n][k]` = C(n, k) for n <= 25, k <= 5 (0 when k > n).
pub const BINOM: [[u32; 6]; 26] = {
    let mut t = [[0u32; 6]; 26];
    let mut n = 0;
    while n < 26 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 6 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
};

/// The symmetries of the square as cell permutations: `PERM[s][c]` is the image of cell
/// `c` under symmetry `s`. Index 0 is the identity; then the rotations by 90, 180 and 270
/// degrees, the mirror in the c-file, the mirror in the 3rd rank, and the two diagonal
/// mirrors.
pub const PERM: [[u8; CELLS]; 8] = {
    let mut t = [[0u8; CELLS]; 8];
    let mut c = 0;
    while c < CELLS {
        let (f, r) = (c % 5, c / 5);
        let images = [
            (f, r),
            (4 - r, f),
            (4 - f, 4 - r),
            (r, 4 - f),
            (4 - f, r),
            (f, 4 - r),
            (r, f),
            (4 - r, 4 - f),
        ];
        let mut s = 0;
        while s < 8 {
            t[s][c] = (images[s].0 + 5 * images[s].1) as u8;
            s += 1;
        }
        c += 1;
    }
    t
};

/// The image of a cell mask under symmetry `s`.
#[inline]
pub fn transform(s: usize, mut m: u32) -> u32 {
    if s == 0 {
        return m;
    }
    let p = &PERM[s];
    let mut t = 0;
    while m != 0 {
        t |= 1 << p[m.trailing_zeros() as usize];
        m &= m - 1;
    }
    t
}

/// Colex rank of a set of cells (or of compressed positions), at most 5 of them.
#[inline]
pub fn rank(mut m: u32) -> usize {
    let mut r = 0;
    let mut i = 1;
    while m != 0 {
        r += BINOM[m.trailing_zeros() as usize][i];
        m &= m - 1;
        i += 1;
    }
    r as usize
}

/// The classes of `k`-sets of cells under the symmetries, for one `k` in 0..=4.
pub struct Orbits {
    pub k: u32,
    /// Per `k`-set, by colex rank: the class number in bits 0..16 and, in bits 16..19, the
    /// symmetry taking the set to its class representative.
    info: Vec<u32>,
    /// Per class: the representative's mask.
    pub reps: Vec<u32>,
    /// Per class: the number of sets in it (8 divided by the stabiliser's order).
    pub sizes: Vec<u8>,
    /// Per class: bit `s` set when symmetry `s` (not the identity) maps the
    /// representative onto itself.
    stab: Vec<u8>,
    /// Per class and cell, the cell's terms of the colex rank of a set outside the
    /// representative: `C(p, i + 1)` when the cell is the set's `i`-th (from 0), where `p` is
    /// its compressed position. Zero for the representative's own cells.
    terms: Vec<[u16; 4]>,
    /// Per class, 25 entries: the cell at each compressed position.
    decomp: Vec<u8>,
}

impl Orbits {
    fn new(k: u32) -> Orbits {
        let count = BINOM[CELLS][k as usize] as usize;
        const UNSET: u32 = u32::MAX;
        let mut info = vec![UNSET; count];
        let (mut reps, mut sizes, mut stab, mut terms, mut decomp) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        // The k-sets in colex order are the k-bit masks in numeric order, so the first
        // set met of each class has the smallest rank in it: its representative.
        for m in masks(k, CELLS as u32) {
            let r = rank(m);
            if info[r] != UNSET {
                continue;
            }
            let orbit = reps.len() as u32;
            let mut fixed = 0u8;
            for s in 0..8 {
                let image = transform(s, m);
                if image == m && s != 0 {
                    fixed |= 1 << s;
                }
                // The image is s(rep); the symmetry taking it back is s's inverse. The
                // first one found is kept, so the representative itself gets the identity.
                let ri = rank(image);
                if info[ri] == UNSET {
                    info[ri] = orbit | (inverse(s) as u32) << 16;
                }
            }
            reps.push(m);
            sizes.push((8 / (fixed.count_ones() + 1)) as u8);
            stab.push(fixed);
            let mut p = 0u8;
            let mut dc = [0xffu8; CELLS];
            for c in 0..CELLS {
                if m & (1 << c) == 0 {
                    terms.push(std::array::from_fn(|i| BINOM[p as usize][i + 1] as u16));
                    dc[p as usize] = c as u8;
                    p += 1;
                } else {
                    terms.push([0; 4]);
                }
            }
            decomp.extend_from_slice(&dc);
        }
        Orbits {
            k,
            info,
            reps,
            sizes,
            stab,
            terms,
            decomp,
        }
    }

    /// The number of classes.
    pub fn count(&self) -> usize {
        self.reps.len()
    }

    /// The class of a `k`-set and the symmetry that takes it to the representative.
    #[inline]
    pub fn class(&self, m: u32) -> (usize, usize) {
        let i = self.info[rank(m)];
        ((i & 0xffff) as usize, (i >> 16) as usize)
    }

    /// The symmetries other than the identity that fix the representative of `orbit`, as
    /// a bit set over symmetry numbers.
    #[inline]
    pub fn stabiliser(&self, orbit: usize) -> u8 {
        self.stab[orbit]
    }

    /// Colex rank of `o` (cells outside the representative of `orbit`) among the sets of
    /// its size on those cells.
    #[inline(always)]
    pub fn rank_outside(&self, orbit: usize, mut o: u32) -> usize {
        let terms = &self.terms[orbit * CELLS..orbit * CELLS + CELLS];
        let mut r = 0;
        let mut i = 0;
        while o != 0 {
            r += terms[o.trailing_zeros() as usize][i] as usize;
            o &= o - 1;
            i += 1;
        }
        r
    }

    /// The cells of a mask of compressed positions outside the representative of `orbit`.
    #[inline]
    pub fn expand(&self, orbit: usize, mut c: u32) -> u32 {
        let decomp = &self.decomp[orbit * CELLS..orbit * CELLS + CELLS];
        let mut o = 0;
        while c != 0 {
            o |= 1 << decomp[c.trailing_zeros() as usize];
            c &= c - 1;
        }
        o
    }
}

/// The inverse of symmetry `s`: the rotations by 90 and 270 degrees swap, the rest are
/// their own inverses.
pub const fn inverse(s: usize) -> usize {
    match s {
        1 => 3,
        3 => 1,
        _ => s,
    }
}

/// Every `k`-bit mask below `1 << n`, in numeric (= colex) order.
pub fn masks(k: u32, n: u32) -> impl Iterator<Item = u32> {
    let first: u32 = if k == 0 { 0 } else { (1 << k) - 1 };
    let mut next = Some(first);
    std::iter::from_fn(move || {
        let m = next?;
        if m >> n != 0 {
            return None;
        }
        next = if m == 0 {
            None
        } else {
            // Gosper's hack: the next larger mask with the same number of bits.
            let low = m & m.wrapping_neg();
            let ripple = m + low;
            Some(ripple | (((m ^ ripple) >> 2) / low))
        };
        Some(m)
    })
}

/// The shared tables: classes of `k`-sets for k in 0..=4, and unranking tables.
pub struct Index {
    orbits: [Orbits; 5],
    /// `unrank[k][r]`: the `k`-bit mask of colex rank `r` (over positions 0..25).
    unrank: [Vec<u32>; 5],
}

/// The tables, built on first use (a few milliseconds).
pub fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(|| Index {
        orbits: std::array::from_fn(|k| Orbits::new(k as u32)),
        unrank: std::array::from_fn(|k| masks(k as u32, CELLS as u32).collect()),
    })
}

impl Index {
    pub fn orbits(&self, k: u32) -> &Orbits {
        &self.orbits[k as usize]
    }
}

/// All positions with `a` mover markers and `b` opponent markers (layout in the module doc).
#[derive(Clone, Copy)]
pub struct Layer {
    pub a: u32,
    pub b: u32,
    /// Slots per mover class: C(25 - a, b).
    pub block: usize,
    /// Number of slots.
    pub len: usize,
    orbits: &'static Orbits,
    unrank: &'static [u32],
}

impl Layer {
    pub fn new(a: u32, b: u32) -> Layer {
        let ix = index();
        let orbits = ix.orbits(a);
        let block = BINOM[CELLS - a as usize][b as usize] as usize;
        Layer {
            a,
            b,
            block,
            len: orbits.count() * block,
            orbits,
            unrank: &ix.unrank[b as usize][..block],
        }
    }

    /// The drop-phase layer with `n` markers on the board (0..=7): the side to move has
    /// `n / 2` of them. The move phase is `Layer::new(4, 4)`.
    pub fn drop_phase(n: u32) -> Layer {
        Layer::new(n / 2, n - n / 2)
    }

    pub fn orbits(&self) -> &'static Orbits {
        self.orbits
    }

    /// The slot of the position where the side to move has `m` and its opponent `o`.
    #[inline]
    pub fn slot(&self, m: u32, o: u32) -> usize {
        let (orbit, g) = self.orbits.class(m);
        orbit * self.block + self.orbits.rank_outside(orbit, transform(g, o))
    }

    /// The slot of `(rep, o)`, where `rep` is the representative of `orbit` and `o` lies
    /// outside it.
    #[inline]
    pub fn slot_in(&self, orbit: usize, o: u32) -> usize {
        orbit * self.block + self.orbits.rank_outside(orbit, o)
    }

    /// The position a slot stands for: (mover class, mover's markers, opponent's markers).
    #[inline]
    pub fn position(&self, slot: usize) -> (usize, u32, u32) {
        let orbit = slot / self.block;
        let o = self.orbits.expand(orbit, self.unrank[slot % self.block]);
        (orbit, self.orbits.reps[orbit], o)
    }

    /// How many concrete positions (mover-relative boards) a slot of this mover class
    /// stands for: the size of the class (see the module doc).
    #[inline]
    pub fn weight(&self, orbit: usize) -> u64 {
        self.orbits.sizes[orbit] as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_are_a_group_of_eight() {
        let mut seen = std::collections::HashSet::new();
        for s in 0..8 {
            let p = PERM[s];
            assert!(seen.insert(p), "symmetry {s} repeated");
            let mut sorted = p;
            sorted.sort();
            assert_eq!(sorted, std::array::from_fn(|i| i as u8));
            for c in 0..CELLS {
                assert_eq!(PERM[inverse(s)][p[c] as usize] as usize, c);
            }
        }
    }

    #[test]
    fn class_counts_and_sizes() {
        // Burnside: 4-sets fixed by the identity, the quarter turns, the half turn and the
        // four mirrors: (12650 + 6 + 6 + 66 + 4 * 150) / 8 = 1666.
        let ix = index();
        assert_eq!(ix.orbits(4).count(), 1666);
        assert_eq!(ix.orbits(0).count(), 1);
        assert_eq!(ix.orbits(1).count(), 6);
        for k in 0..=4u32 {
            let o = ix.orbits(k);
            let total: u64 = o.sizes.iter().map(|&s| s as u64).sum();
            assert_eq!(total, BINOM[CELLS][k as usize] as u64);
            for m in masks(k, 25) {
                let (orbit, g) = o.class(m);
                assert_eq!(transform(g, m), o.reps[orbit]);
            }
        }
    }

    #[test]
    fn slots_are_a_bijection_up_to_symmetry() {
        for (a, b) in [(0, 1), (1, 1), (2, 3), (3, 4), (4, 4)] {
            let layer = Layer::new(a, b);
            let mut hit = vec![false; layer.len];
            for (slot, h) in hit.iter_mut().enumerate() {
                let (orbit, m, o) = layer.position(slot);
                assert_eq!(m & o, 0);
                assert_eq!((m.count_ones(), o.count_ones()), (a, b));
                assert_eq!(layer.orbits().reps[orbit], m);
                assert_eq!(layer.slot(m, o), slot, "({a},{b}) slot {slot}");
                *h = true;
                // Every image of the position lands on a slot of the same class.
                for s in 0..8 {
                    let t = layer.slot(transform(s, m), transform(s, o));
                    assert_eq!(t / layer.block, orbit);
                }
            }
            assert!(hit.iter().all(|&h| h));
        }
    }
}
