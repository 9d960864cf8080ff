//! Positions of the endgame databases as numbers: each material signature (a *slice*) is a
//! dense range of indices, computed from the pieces' squares by combinatorial ranking.
//!
//! Positions are stored *mover-relative*: the side to move is made Black (moving down the
//! board, crowned on 29–32) by the half-turn that swaps the colours
//! ([`Board::flipped`]), so one entry serves both colours. A slice is the mover's men and
//! kings and the opponent's men and kings, `(a, b, c, d)`; its index is
//!
//! ```text
//! index = ((own_men * C(28, c) + opp_men) * C(f, b) + own_kings) * C(f - b, d) + opp_kings
//! ```
//!
//! where `own_men` is the colex rank of the mover's men among bits 0–27 (a man of the mover
//! never stands on its crowning row, bits 28–31), `opp_men` that of the opponent's men among
//! bits 4–31 (shifted down by 4), `f = 32 - a - c` the squares no man stands on, `own_kings`
//! the rank of the mover's kings among those `f` squares and `opp_kings` that of the
//! opponent's kings among the `f - b` left. The colex rank of a set `{p_0 < p_1 < ...}` is
//! `sum C(p_i, i + 1)`; in colex order, sets of one size come in the numeric order of their
//! bit masks. Men of both sides may overlap only in the index (bits 4–27): such entries are
//! *invalid*, never looked up, and stored as draws; they are a few per cent of a slice
//! ([`Slice::valid_count`] counts the rest).

use crate::games::checkers::Board;

/// Binomial coefficients `C(n, k)` for `n <= 32`, `k <= 32`.
const fn binomials() -> [[u64; 33]; 33] {
    let mut c = [[0u64; 33]; 33];
    let mut n = 0;
    while n <= 32 {
        c[n][0] = 1;
        let mut k = 1;
        while k <= n {
            c[n][k] = c[n - 1][k - 1] + if k < n { c[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    c
}

pub const C: [[u64; 33]; 33] = binomials();

/// Bits 0–27: where the mover's men may stand.
pub const OWN_MEN_SQUARES: u32 = 0x0FFF_FFFF;
/// Bits 4–31: where the opponent's men may stand.
pub const OPP_MEN_SQUARES: u32 = 0xFFFF_FFF0;

/// A material signature: the mover's men and kings, the opponent's men and kings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Slice {
    pub own_men: u8,
    pub own_kings: u8,
    pub opp_men: u8,
    pub opp_kings: u8,
}

impl Slice {
    pub const fn new(own_men: u8, own_kings: u8, opp_men: u8, opp_kings: u8) -> Slice {
        Slice {
            own_men,
            own_kings,
            opp_men,
            opp_kings,
        }
    }

    /// The slice of a mover-relative board (the mover is Black).
    pub fn of(b: &Board) -> Slice {
        let men = !b.kings;
        Slice {
            own_men: (b.black & men).count_ones() as u8,
            own_kings: (b.black & b.kings).count_ones() as u8,
            opp_men: (b.white & men).count_ones() as u8,
            opp_kings: (b.white & b.kings).count_ones() as u8,
        }
    }

    /// The slice with the roles swapped: where a move that neither captures nor crowns leads.
    pub fn swapped(&self) -> Slice {
        Slice::new(self.opp_men, self.opp_kings, self.own_men, self.own_kings)
    }

    pub fn pieces(&self) -> u32 {
        (self.own_men + self.own_kings + self.opp_men + self.opp_kings) as u32
    }

    pub fn men(&self) -> u32 {
        (self.own_men + self.opp_men) as u32
    }

    /// Squares left for kings.
    fn free(&self) -> usize {
        32 - self.own_men as usize - self.opp_men as usize
    }

    fn own_king_count(&self) -> u64 {
        C[self.free()][self.own_kings as usize]
    }

    fn opp_king_count(&self) -> u64 {
        C[self.free() - self.own_kings as usize][self.opp_kings as usize]
    }

    /// The number of indices (valid or not).
    pub fn size(&self) -> u64 {
        C[28][self.own_men as usize]
            * C[28][self.opp_men as usize]
            * self.own_king_count()
            * self.opp_king_count()
    }

    /// The number of valid positions: men of the two sides on different squares. By
    /// counting the men in the rows they share (bits 4–27) and those in the rows only one
    /// side's men can use (bits 0–3 for the mover's, 28–31 for the opponent's).
    pub fn valid_count(&self) -> u64 {
        let (a, c) = (self.own_men as usize, self.opp_men as usize);
        let mut men = 0;
        for i in 0..=a {
            for j in 0..=c {
                men += C[4][i] * C[4][j] * C[24][a - i] * C[24 - (a - i)][c - j];
            }
        }
        men * self.own_king_count() * self.opp_king_count()
    }

    /// The slice's name in file names: the four counts as hexadecimal digits (each is at
    /// most 12), `2101` for two men and a king against a king.
    pub fn name(&self) -> String {
        format!(
            "{:x}{:x}{:x}{:x}",
            self.own_men, self.own_kings, self.opp_men, self.opp_kings
        )
    }

    /// Every slice with exactly `n` pieces in which both sides have some (at most 12 each).
    pub fn all_with(n: u32) -> Vec<Slice> {
        let mut out = Vec::new();
        for a in 0..=n {
            for b in 0..=n - a {
                for c in 0..=n - a - b {
                    let d = n - a - b - c;
                    if a + b == 0 || c + d == 0 || a + b > 12 || c + d > 12 {
                        continue;
                    }
                    out.push(Slice::new(a as u8, b as u8, c as u8, d as u8));
                }
            }
        }
        out
    }
}

/// The colex rank of a set of bits.
#[inline]
pub fn rank(mut set: u32) -> u64 {
    let mut r = 0;
    let mut i = 1;
    while set != 0 {
        r += C[set.trailing_zeros() as usize][i];
        set &= set - 1;
        i += 1;
    }
    r
}

/// The set of `k` bits with colex rank `r` (the inverse of [`rank`]).
pub fn unrank(mut r: u64, k: usize) -> u32 {
    let mut set = 0;
    let mut top = 32;
    for i in (1..=k).rev() {
        // The largest p with C(p, i) <= r.
        let mut p = top - 1;
        while C[p][i] > r {
            p -= 1;
        }
        set |= 1 << p;
        r -= C[p][i];
        top = p;
    }
    set
}

/// The bits of `set` (a subset of `mask`) squeezed down to the positions they hold among the
/// bits of `mask` (a software `pext`).
#[inline]
pub fn squeeze(set: u32, mask: u32) -> u32 {
    let mut out = 0;
    let mut rest = set;
    while rest != 0 {
        let bit = rest & rest.wrapping_neg();
        out |= 1 << (mask & (bit - 1)).count_ones();
        rest &= rest - 1;
    }
    out
}

/// The inverse of [`squeeze`]: the `i`-th bit of `set` goes to the `i`-th set bit of `mask`
/// (a software `pdep`).
#[inline]
pub fn spread(set: u32, mut mask: u32) -> u32 {
    let mut out = 0;
    let mut i = 0;
    while mask != 0 {
        let bit = mask & mask.wrapping_neg();
        if set & (1 << i) != 0 {
            out |= bit;
        }
        mask &= mask - 1;
        i += 1;
    }
    out
}

/// The index of a mover-relative board in its slice `s` (which must be [`Slice::of`] it).
#[inline]
pub fn index(b: &Board, s: &Slice) -> u64 {
    let men = !b.kings;
    let own_men = b.black & men;
    let opp_men = b.white & men;
    let free = !(own_men | opp_men);
    let own_kings = b.black & b.kings;
    let opp_kings = b.white & b.kings;
    let r_own = rank(own_men);
    let r_opp = rank(opp_men >> 4);
    let r_ok = rank(squeeze(own_kings, free));
    let r_pk = rank(squeeze(opp_kings, free & !own_kings));
    ((r_own * C[28][s.opp_men as usize] + r_opp) * s.own_king_count() + r_ok) * s.opp_king_count()
        + r_pk
}

/// The men of an index: the mover's and the opponent's, or `None` when they overlap (an
/// invalid index). `men_rank` is `index / (C(f, b) * C(f - b, d))`.
pub fn men_of(s: &Slice, men_rank: u64) -> Option<(u32, u32)> {
    let per = C[28][s.opp_men as usize];
    let own = unrank(men_rank / per, s.own_men as usize);
    let opp = unrank(men_rank % per, s.opp_men as usize) << 4;
    (own & opp == 0).then_some((own, opp))
}

/// The mover-relative board at `index` of slice `s`, or `None` for an invalid index.
pub fn board_at(s: &Slice, index: u64) -> Option<Board> {
    let kings_per = s.own_king_count() * s.opp_king_count();
    let (own_men, opp_men) = men_of(s, index / kings_per)?;
    let k = index % kings_per;
    let free = !(own_men | opp_men);
    let own_kings = spread(unrank(k / s.opp_king_count(), s.own_kings as usize), free);
    let opp_kings = spread(
        unrank(k % s.opp_king_count(), s.opp_kings as usize),
        free & !own_kings,
    );
    Some(Board {
        black: own_men | own_kings,
        white: opp_men | opp_kings,
        kings: own_kings | opp_kings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_and_sets_round_trip() {
        for (k, row) in C[28].iter().enumerate().take(5) {
            for r in 0..*row {
                let set = unrank(r, k);
                assert_eq!(set.count_ones() as usize, k);
                assert_eq!(rank(set), r);
            }
        }
        // The mask's bits are 0, 2, 5, 6, 8, 9, 11: bit 11 is its seventh (position 6).
        let mask = 0b1011_0110_0101;
        assert_eq!(squeeze(0b1000_0000_0001, mask), 0b100_0001);
        assert_eq!(spread(0b100_0001, mask), 0b1000_0000_0001);
    }

    #[test]
    fn every_valid_index_round_trips() {
        for n in 2..=3 {
            for s in Slice::all_with(n) {
                let mut valid = 0;
                for i in 0..s.size() {
                    if let Some(b) = board_at(&s, i) {
                        valid += 1;
                        assert_eq!(Slice::of(&b), s);
                        assert_eq!(index(&b, &s), i, "{s:?} {b:?}");
                        assert_eq!(b.black & b.white, 0);
                    }
                }
                assert_eq!(valid, s.valid_count(), "{s:?}");
            }
        }
    }
}
