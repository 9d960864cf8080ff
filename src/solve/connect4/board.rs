//! Bitboard geometry of a `W`×`H` board for the solver, fixed at compile time so every mask
//! and shift below is a constant.
//!
//! Layout (the game's, Pascal Pons'): bit `col * (H + 1) + row` is the cell in column `col`
//! (0 = leftmost) and row `row` (0 = bottom); the top bit of each column is a sentinel that
//! is never a disc, so shifts by 1, `H`, `H + 1`, `H + 2` never join cells of different lines.
//! A position is two words: `cur` (the side to move's discs) and `mask` (all discs).

/// Constants and pure functions of one board size. Requires `W * (H + 1) <= 64`.
pub struct Geo<const W: usize, const H: usize>;

impl<const W: usize, const H: usize> Geo<W, H> {
    /// Cells on the board.
    pub const CELLS: i32 = (W * H) as i32;
    /// One bit at the bottom of each column.
    pub const BOTTOM: u64 = {
        let mut b = 0u64;
        let mut c = 0;
        while c < W {
            b |= 1u64 << (c * (H + 1));
            c += 1;
        }
        b
    };
    /// Every cell (sentinels excluded).
    pub const BOARD: u64 = Self::BOTTOM * ((1u64 << H) - 1);
    /// The cells of column 0, sentinel included.
    const COL0: u64 = (1u64 << (H + 1)) - 1;
    /// Cells of the odd rows counted from 1 at the bottom (bit rows 0, 2, 4, ...): the first
    /// player's threats there are the ones that parity play can make good.
    pub const ODD_ROWS: u64 = {
        let mut m = 0u64;
        let mut r = 0;
        while r < H {
            m |= Self::BOTTOM << r;
            r += 2;
        }
        m
    };
    /// Columns from the centre outwards, `W / 2` first, then alternately left and right:
    /// the static move order.
    pub const ORDER: [usize; W] = {
        let mut o = [0usize; W];
        let mut i = 0;
        while i < W {
            let off = i.div_ceil(2);
            o[i] = if i % 2 == 1 { W / 2 - off } else { W / 2 + off };
            i += 1;
        }
        o
    };

    /// The Pons score of winning with the side to move's next disc, `moves` discs down.
    #[inline(always)]
    pub const fn win_now(moves: u32) -> i32 {
        (Self::CELLS + 1 - moves as i32) / 2
    }

    /// The Pons score of losing to the opponent's next disc, `moves` discs down.
    #[inline(always)]
    pub const fn lose_next(moves: u32) -> i32 {
        -(Self::CELLS - moves as i32) / 2
    }

    /// Every cell of column `col`.
    #[inline(always)]
    pub const fn column_mask(col: usize) -> u64 {
        ((1u64 << H) - 1) << (col * (H + 1))
    }

    /// The column a single-bit (or single-column) mask lies in.
    #[inline(always)]
    pub const fn column_of(bit: u64) -> usize {
        bit.trailing_zeros() as usize / (H + 1)
    }

    /// Cells playable now: the lowest empty cell of each column that is not full.
    #[inline(always)]
    pub const fn possible(mask: u64) -> u64 {
        mask.wrapping_add(Self::BOTTOM) & Self::BOARD
    }

    /// The empty cells that would complete four for the owner of `stones`, playable or not.
    #[inline(always)]
    pub fn winning_cells(stones: u64, mask: u64) -> u64 {
        let p = stones;
        // Vertical: three discs directly below.
        let mut r = (p << 1) & (p << 2) & (p << 3);
        macro_rules! dir {
            ($s:expr) => {{
                let s = $s;
                let two_below = (p << s) & (p << (2 * s));
                r |= two_below & (p << (3 * s));
                r |= two_below & (p >> s);
                let two_above = (p >> s) & (p >> (2 * s));
                r |= two_above & (p << s);
                r |= two_above & (p >> (3 * s));
            }};
        }
        dir!(H + 1);
        dir!(H);
        dir!(H + 2);
        r & (Self::BOARD ^ mask)
    }

    /// True when `stones` holds four in a line.
    #[inline(always)]
    pub fn aligned(stones: u64) -> bool {
        let p = stones;
        let m = p & (p >> 1);
        let mut any = m & (m >> 2);
        let m = p & (p >> (H + 1));
        any |= m & (m >> (2 * (H + 1)));
        let m = p & (p >> H);
        any |= m & (m >> (2 * H));
        let m = p & (p >> (H + 2));
        any |= m & (m >> (2 * (H + 2)));
        any != 0
    }

    /// The cells of every four in a line within `stones` along shift `s` (1 vertical, `H + 1`
    /// horizontal, `H` and `H + 2` diagonal).
    #[inline(always)]
    fn four_cells(stones: u64, s: usize) -> u64 {
        let pairs = stones & (stones >> s);
        let quads = pairs & (pairs >> (2 * s));
        quads | (quads << s) | (quads << (2 * s)) | (quads << (3 * s))
    }

    /// An upper bound on the Pons score of the side to move, `A`, when `A` is the first player
    /// (an even number of discs down) and `H` is even: `MAX` when none applies.
    ///
    /// Claimeven (Allis), generalised to columns of odd height: the second player `B` answers
    /// every `A` disc on an odd row (rows counted from 1 at the bottom) with the cell right
    /// above it, and every `A` disc on an even row, which only a column of odd height offers,
    /// with the playable even-row cell of another column of odd height (with an even number
    /// of discs down, such columns come in pairs). So `A` gets at most its discs, the empty
    /// odd-row cells and the cells playable now; `B` gets at least its discs and the empty
    /// even-row cells not playable now. If `A` cannot make four of its share, or if `B` wins
    /// the race against every four `A` can make (see [`Geo::b_wins_every_race`]), `A` cannot
    /// win (bound 0). If `B` then makes four of its own share, `B` wins; its four is complete
    /// by the time its last empty cell is filled, while every cell above that one is still
    /// empty, which bounds how late `B`'s winning disc comes (bound below 0).
    #[inline(always)]
    pub fn claimeven_bound(cur: u64, mask: u64, possible: u64) -> i32 {
        Self::claimeven_bound_with(cur, mask, possible, true)
    }

    /// [`Geo::claimeven_bound`] without the race: `MAX` as soon as `A`'s share holds a four.
    /// Cheaper, for the many children a node looks at (callgrind: the race there cost more
    /// instructions than the nodes it saved; docs/connect4.md).
    #[inline(always)]
    pub fn claimeven_bound_quick(cur: u64, mask: u64, possible: u64) -> i32 {
        Self::claimeven_bound_with(cur, mask, possible, false)
    }

    /// Cells of bit row `k` and above, for `k` in 0..5 (the shifts of [`Geo::fill_below`]).
    const ROWS_FROM: [u64; 5] = {
        let mut t = [0u64; 5];
        let mut k = 0;
        while k < 5 {
            let mut m = 0u64;
            let mut r = k;
            while r < H {
                m |= Self::BOTTOM << r;
                r += 1;
            }
            t[k] = m;
            k += 1;
        }
        t
    };

    /// Every cell at or below a cell of `x` in its column (`H` at most 7: shifts of 1, 2
    /// and 4 rows, each kept within the column by [`Geo::ROWS_FROM`]).
    #[inline(always)]
    fn fill_below(x: u64) -> u64 {
        let mut y = x;
        y |= (y & Self::ROWS_FROM[1]) >> 1;
        y |= (y & Self::ROWS_FROM[2]) >> 2;
        y |= (y & Self::ROWS_FROM[4]) >> 4;
        y
    }

    /// Whether, for every four within `A`'s share `a`, `B` completes a four of its share `b`
    /// first. `A` completes a four only once each of its empty cells is filled, and by then
    /// every cell below them is filled too; `B`'s cells among those are `B`'s (claimeven)
    /// and filled strictly before `A`'s last disc of that four. So if `B`'s discs and those
    /// cells make four, `B` has won before `A` could.
    #[inline(always)]
    fn b_wins_every_race(a: u64, b: u64, empty: u64) -> bool {
        let (b_discs, b_empty) = (b & !empty, b & empty);
        for s in [1, H + 1, H, H + 2] {
            // The lowest bit of every four of `a` along shift `s`.
            let mut quads = a & (a >> s) & (a >> (2 * s)) & (a >> (3 * s));
            while quads != 0 {
                let q = quads & quads.wrapping_neg();
                quads ^= q;
                let four = q | (q << s) | (q << (2 * s)) | (q << (3 * s));
                let before = Self::fill_below(four & empty);
                if !Self::aligned(b_discs | (b_empty & before)) {
                    return false;
                }
            }
        }
        true
    }

    #[inline(always)]
    fn claimeven_bound_with(cur: u64, mask: u64, possible: u64, race: bool) -> i32 {
        let empty = Self::BOARD & !mask;
        let a = cur | (empty & Self::ODD_ROWS) | possible;
        let b = (cur ^ mask) | (empty & !Self::ODD_ROWS & !possible);
        if Self::aligned(a) && !(race && Self::b_wins_every_race(a, b, empty)) {
            return i32::MAX;
        }
        if !Self::aligned(b) {
            return 0;
        }
        // Horizontal fours lie in one row: the lowest one has the most empty cells above
        // each of its cells. Other fours: the highest empty cell of any of them, at worst.
        let horizontal = Self::four_cells(b, H + 1);
        let others =
            (Self::four_cells(b, 1) | Self::four_cells(b, H) | Self::four_cells(b, H + 2)) & empty;
        // Empty cells that stay above the last-filled cell of some four of B's, at least.
        let mut above = 0;
        if horizontal != 0 {
            let low = (0..H)
                .find(|&r| horizontal & (Self::BOTTOM << r) != 0)
                .unwrap_or(H - 1);
            above = H - 1 - low;
        }
        if others != 0 {
            let high = (0..H)
                .rev()
                .find(|&r| others & (Self::BOTTOM << r) != 0)
                .unwrap_or(0);
            above = above.max(H - 1 - high);
        }
        // B completes its four by move CELLS - above, with its disc number (CELLS - above)/2.
        let top_score = (Self::CELLS + 1) / 2 + 1;
        -(top_score - (Self::CELLS - above as i32) / 2)
    }

    /// The board reflected left to right: column `c` becomes column `W - 1 - c`. Works on
    /// keys as well as disc masks (sentinel bits move with their column).
    #[inline(always)]
    pub fn mirror(x: u64) -> u64 {
        let mut r = 0u64;
        let mut c = 0;
        while c < W / 2 {
            let d = (W - 1 - 2 * c) * (H + 1);
            r |= (x & (Self::COL0 << (c * (H + 1)))) << d;
            r |= (x >> d) & (Self::COL0 << (c * (H + 1)));
            c += 1;
        }
        if W % 2 == 1 {
            r |= x & (Self::COL0 << ((W / 2) * (H + 1)));
        }
        r
    }

    /// A key unique to the position: the side to move's discs plus one bit on the first empty
    /// cell of each column (`BITS` bits at most).
    #[inline(always)]
    pub const fn key(cur: u64, mask: u64) -> u64 {
        cur | (mask + Self::BOTTOM)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type G = Geo<7, 6>;

    #[test]
    fn constants() {
        assert_eq!(G::BOTTOM.count_ones(), 7);
        assert_eq!(G::BOARD.count_ones(), 42);
        assert_eq!(G::ORDER, [3, 2, 4, 1, 5, 0, 6]);
        assert_eq!(Geo::<8, 7>::BOARD.count_ones(), 56);
        let mut o = Geo::<8, 7>::ORDER;
        o.sort();
        assert_eq!(o, [0, 1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(G::win_now(0), 21);
        assert_eq!(G::lose_next(1), -20);
    }

    #[test]
    fn mirror_is_an_involution_that_swaps_columns() {
        for c in 0..7 {
            assert_eq!(G::mirror(G::column_mask(c)), G::column_mask(6 - c));
        }
        let x = 0x1234_5678_9abc_u64 & G::BOARD;
        assert_eq!(G::mirror(G::mirror(x)), x);
        type E = Geo<8, 7>;
        let y = 0xfedc_ba98_7654_3210_u64;
        assert_eq!(E::mirror(E::mirror(y)), y);
    }

    #[test]
    fn winning_cells_of_a_horizontal_three() {
        // Discs on row 0 of columns 1, 2, 3: cells (0, 0) and (4, 0) complete four.
        let p = (1u64 << 7) | (1 << 14) | (1 << 21);
        let w = G::winning_cells(p, p);
        assert_eq!(w, 1 | (1 << 28));
    }

    /// The claimeven bound, race included, never falls below the exact score, on random
    /// positions with the first player to move; and the race tightens it on some of them.
    #[test]
    fn claimeven_bound_holds_and_the_race_tightens_it() {
        use crate::game::Game;
        use crate::games::Connect4;
        use crate::solve::connect4::Connect4Solver;
        let start = Connect4::default();
        let mut solver = Connect4Solver::with_table_mb(&start, 8).unwrap();
        solver.set_book(false);
        let mut rng = 0x2545_f491_4f6c_dd1d_u64;
        let (mut bounded, mut by_race) = (0, 0);
        for i in 0..20000 {
            let mut pos = start;
            let plies = 18 + 2 * (i % 8);
            let mut moves = Vec::new();
            for _ in 0..plies {
                moves.clear();
                pos.legal_moves(&mut moves);
                moves.retain(|&m| {
                    let mut c = pos;
                    c.play(m);
                    c.outcome().is_none()
                });
                if moves.is_empty() {
                    break;
                }
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                pos.play(moves[(rng % moves.len() as u64) as usize]);
            }
            if pos.outcome().is_some() || pos.moves_played() % 2 == 1 {
                continue;
            }
            let (cur, mask) = (pos.current(), pos.mask());
            let possible = G::possible(mask);
            if possible & G::winning_cells(cur, mask) != 0 {
                continue;
            }
            let bound = G::claimeven_bound(cur, mask, possible);
            if bound == i32::MAX {
                continue;
            }
            let score = solver.score(&pos).score;
            assert!(score <= bound, "score {score} above bound {bound}");
            bounded += 1;
            if G::claimeven_bound_quick(cur, mask, possible) == i32::MAX {
                by_race += 1;
            }
        }
        // 533 and 284 with this generator.
        assert!(
            bounded > 400 && by_race > 200,
            "{bounded} bounded, {by_race} by the race"
        );
    }
}
