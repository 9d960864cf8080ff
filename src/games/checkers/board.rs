//! The board of English draughts as three 32-bit sets, and its move generation: the rules
//! without notation, counters or draw rules (those are in `mod.rs`). The endgame databases
//! (`solve/checkers`) use this module directly.
//!
//! # Representation
//!
//! Only the 32 dark squares are used, numbered 1–32 as in PDN. Square `n` is bit `n - 1`.
//! Black (the first player) starts on 1–12 at the top and moves down, towards 32; White
//! starts on 21–32 and moves up. The board as Black's opponent, White, sees it (rank 1 at the
//! bottom, a dark square at each player's near left):
//!
//! ```text
//!          a   b   c   d   e   f   g   h
//!  row 0 8 |   | 0 |   | 1 |   | 2 |   | 3 |    squares  1- 4  (bits  0- 3)
//!  row 1 7 | 4 |   | 5 |   | 6 |   | 7 |   |    squares  5- 8  (bits  4- 7)
//!  row 2 6 |   | 8 |   | 9 |   |10 |   |11 |    squares  9-12
//!  row 3 5 |12 |   |13 |   |14 |   |15 |   |    squares 13-16
//!  row 4 4 |   |16 |   |17 |   |18 |   |19 |    squares 17-20
//!  row 5 3 |20 |   |21 |   |22 |   |23 |   |    squares 21-24
//!  row 6 2 |   |24 |   |25 |   |26 |   |27 |    squares 25-28
//!  row 7 1 |28 |   |29 |   |30 |   |31 |   |    squares 29-32  (bits 28-31)
//! ```
//!
//! (Cells show bit numbers.) A bit `i` lies in row `i / 4`, at index `i % 4` within it; rows
//! 0, 2, 4, 6 ("even", mask [`EVEN`]) use files b, d, f, h, the others files a, c, e, g. A
//! diagonal step therefore changes the bit number by 3, 4 or 5 depending on the row's parity:
//!
//! | direction | from an even row | from an odd row |
//! |---|---|---|
//! | down-west (towards a, row + 1) | +4 | +3 (not from index 0: file a) |
//! | down-east (towards h, row + 1) | +5 (not from index 3: file h) | +4 |
//! | up-west (row − 1) | −4 | −5 (not from index 0) |
//! | up-east (row − 1) | −3 (not from index 3) | −4 |
//!
//! so a whole set steps at once with two shifts and two masks ([`step`]); bits shifted past
//! either end of the `u32` fall off the board. A jump is two steps in one direction.
//!
//! A [`Board`] is `black`, `white` (every piece of each colour) and `kings` (the kings of
//! both colours); men are the pieces that are not kings.

use crate::game::Player;

/// Rows 0, 2, 4 and 6 (files b, d, f, h).
pub const EVEN: u32 = 0x0F0F_0F0F;
/// Rows 1, 3, 5 and 7 (files a, c, e, g).
pub const ODD: u32 = 0xF0F0_F0F0;
/// Index 0 of each row: file b on even rows, file a on odd rows.
const INDEX0: u32 = 0x1111_1111;
/// Index 3 of each row: file h on even rows, file g on odd rows.
const INDEX3: u32 = 0x8888_8888;
/// Squares 1–4, where White crowns.
pub const TOP_ROW: u32 = 0x0000_000F;
/// Squares 29–32, where Black crowns.
pub const BOTTOM_ROW: u32 = 0xF000_0000;

/// The four diagonal directions, as indices into [`STEPS`] and [`JUMPS`].
pub const UP_WEST: usize = 0;
pub const UP_EAST: usize = 1;
pub const DOWN_WEST: usize = 2;
pub const DOWN_EAST: usize = 3;

/// The direction opposite `d` (also its image under the half-turn that swaps the colours).
pub const fn opposite(d: usize) -> usize {
    3 - d
}

/// Every square of `set` one diagonal step in direction `d`; squares that would leave the
/// board are dropped (see the module's table).
#[inline]
pub const fn step(d: usize, set: u32) -> u32 {
    match d {
        UP_WEST => ((set & EVEN) >> 4) | ((set & ODD & !INDEX0) >> 5),
        UP_EAST => ((set & EVEN & !INDEX3) >> 3) | ((set & ODD) >> 4),
        DOWN_WEST => ((set & EVEN) << 4) | ((set & ODD & !INDEX0) << 3),
        _ => ((set & EVEN & !INDEX3) << 5) | ((set & ODD) << 4),
    }
}

/// No square: the entry of a step or jump that leaves the board.
pub const NONE: u8 = 32;

const fn step_table() -> [[u8; 32]; 4] {
    let mut t = [[NONE; 32]; 4];
    let mut d = 0;
    while d < 4 {
        let mut s = 0;
        while s < 32 {
            let to = step(d, 1 << s);
            if to != 0 {
                t[d][s] = to.trailing_zeros() as u8;
            }
            s += 1;
        }
        d += 1;
    }
    t
}

/// `STEPS[d][s]`: the square one step from bit `s` in direction `d`, or [`NONE`].
pub const STEPS: [[u8; 32]; 4] = step_table();

const fn jump_table() -> [[u8; 32]; 4] {
    let mut t = [[NONE; 32]; 4];
    let mut d = 0;
    while d < 4 {
        let mut s = 0;
        while s < 32 {
            let over = STEPS[d][s];
            if over != NONE {
                t[d][s] = STEPS[d][over as usize];
            }
            s += 1;
        }
        d += 1;
    }
    t
}

/// `JUMPS[d][s]`: where a jump from bit `s` in direction `d` lands, or [`NONE`].
pub const JUMPS: [[u8; 32]; 4] = jump_table();

/// The directions a man of `side` moves and captures in: down for Black, up for White.
pub const fn forward(side: Player) -> [usize; 2] {
    match side {
        Player::First => [DOWN_WEST, DOWN_EAST],
        Player::Second => [UP_WEST, UP_EAST],
    }
}

/// The row where `side`'s men are crowned.
pub const fn crown_row(side: Player) -> u32 {
    match side {
        Player::First => BOTTOM_ROW,
        Player::Second => TOP_ROW,
    }
}

/// A move: a step (`jumps == 0`) or a capture of `jumps` pieces. A capture is named by its
/// start and the direction of each jump, so two captures that take the same pieces along
/// different paths (a king's circuit run either way round) are different moves, as the
/// published perft counts them. `to` and `captured` follow from those and are kept for speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Bit numbers (square − 1).
    pub from: u8,
    pub to: u8,
    /// Pieces captured; 0 for a step.
    pub jumps: u8,
    /// The direction of jump `i` in bits `2i..2i+2` (0 for a step).
    pub dirs: u32,
    /// The captured pieces (empty for a step).
    pub captured: u32,
}

impl Move {
    pub fn step(from: u8, to: u8) -> Move {
        Move {
            from,
            to,
            jumps: 0,
            dirs: 0,
            captured: 0,
        }
    }

    pub fn is_capture(&self) -> bool {
        self.jumps > 0
    }

    /// The squares (bit numbers) the piece stands on, from its start to its end: two for a
    /// step, `jumps + 1` for a capture.
    pub fn path(&self) -> Vec<u8> {
        if self.jumps == 0 {
            return vec![self.from, self.to];
        }
        let mut at = self.from;
        let mut out = vec![at];
        for i in 0..self.jumps {
            let d = ((self.dirs >> (2 * i)) & 3) as usize;
            at = JUMPS[d][at as usize];
            out.push(at);
        }
        out
    }
}

/// Where the pieces stand (see the module doc). Colour-blind: the side to move is the
/// caller's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board {
    pub black: u32,
    pub white: u32,
    pub kings: u32,
}

impl Board {
    /// The start: Black on 1–12, White on 21–32, no kings.
    pub const START: Board = Board {
        black: 0x0000_0FFF,
        white: 0xFFF0_0000,
        kings: 0,
    };

    pub fn pieces(&self, side: Player) -> u32 {
        match side {
            Player::First => self.black,
            Player::Second => self.white,
        }
    }

    pub fn occupied(&self) -> u32 {
        self.black | self.white
    }

    pub fn empty(&self) -> u32 {
        !self.occupied()
    }

    /// The board after a half-turn with the colours swapped: Black's pieces become White's
    /// on the opposite squares (bit `i` to bit `31 - i`). The rules are symmetric under it,
    /// so a position with White to move is the same game as its flip with Black to move.
    pub fn flipped(&self) -> Board {
        Board {
            black: self.white.reverse_bits(),
            white: self.black.reverse_bits(),
            kings: self.kings.reverse_bits(),
        }
    }

    /// The pieces of `side` that can make a step (capture rule aside).
    pub fn steppers(&self, side: Player) -> u32 {
        let own = self.pieces(side);
        let kings = own & self.kings;
        let empty = self.empty();
        let mut out = 0;
        for d in 0..4 {
            let movers = if forward(side).contains(&d) {
                own
            } else {
                kings
            };
            out |= step(opposite(d), step(d, movers) & empty);
        }
        out
    }

    /// The pieces of `side` that can capture.
    pub fn jumpers(&self, side: Player) -> u32 {
        let own = self.pieces(side);
        let opp = self.pieces(side.other());
        let kings = own & self.kings;
        let empty = self.empty();
        let mut out = 0;
        for d in 0..4 {
            let movers = if forward(side).contains(&d) {
                own
            } else {
                kings
            };
            let landing = step(d, step(d, movers) & opp) & empty;
            out |= step(opposite(d), step(opposite(d), landing));
        }
        out
    }

    /// The number of steps `side` could make (capture rule aside): its mobility.
    pub fn step_count(&self, side: Player) -> u32 {
        let own = self.pieces(side);
        let kings = own & self.kings;
        let empty = self.empty();
        (0..4)
            .map(|d| {
                let movers = if forward(side).contains(&d) {
                    own
                } else {
                    kings
                };
                (step(d, movers) & empty).count_ones()
            })
            .sum()
    }

    /// Whether `side` has any legal move.
    pub fn can_move(&self, side: Player) -> bool {
        self.steppers(side) != 0 || self.jumpers(side) != 0
    }

    /// Appends the legal moves of `side`: every complete capture when one exists (capturing
    /// is compulsory, any capture may be chosen, and a capture goes on while the piece can
    /// jump again, except that a man reaching the far row is crowned and stops there), else
    /// every step. Captures come in the order of their pieces and directions; steps to the
    /// far row first, then by direction and square.
    pub fn legal_moves(&self, side: Player, out: &mut Vec<Move>) {
        let jumpers = self.jumpers(side);
        if jumpers != 0 {
            self.captures(side, jumpers, out);
        } else {
            self.steps(side, out);
        }
    }

    /// The number of legal moves of `side`, counting steps without listing them.
    pub fn legal_move_count(&self, side: Player, scratch: &mut Vec<Move>) -> usize {
        let jumpers = self.jumpers(side);
        if jumpers == 0 {
            return self.step_count(side) as usize;
        }
        scratch.clear();
        self.captures(side, jumpers, scratch);
        scratch.len()
    }

    fn steps(&self, side: Player, out: &mut Vec<Move>) {
        let own = self.pieces(side);
        let kings = own & self.kings;
        let empty = self.empty();
        let men = own & !self.kings;
        let crown = crown_row(side);
        // Men's steps to the far row (crowning) first, then the others.
        for crowning in [true, false] {
            for d in 0..4 {
                let forward = forward(side).contains(&d);
                let movers = match (forward, crowning) {
                    (true, true) => men,
                    (true, false) => own,
                    (false, true) => 0,
                    (false, false) => kings,
                };
                let mut to = step(d, movers) & empty;
                if forward {
                    // The crowning steps of men in one pass, every other step in the other.
                    let crowns = step(d, men) & crown;
                    to &= if crowning { crowns } else { !crowns };
                }
                while to != 0 {
                    let t = to.trailing_zeros() as u8;
                    to &= to - 1;
                    out.push(Move::step(STEPS[opposite(d)][t as usize], t));
                }
            }
        }
    }

    fn captures(&self, side: Player, jumpers: u32, out: &mut Vec<Move>) {
        let opp = self.pieces(side.other());
        let mut rest = jumpers;
        while rest != 0 {
            let from = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let king = self.kings & (1 << from) != 0;
            let search = JumpSearch {
                from,
                dirs: if king { [0, 1, 2, 3] } else { [0; 4] },
                ndirs: if king { 4 } else { 2 },
                forward: forward(side),
                crown: if king { 0 } else { crown_row(side) },
                opp,
                // The piece's own square is empty once it has left it.
                empty: self.empty() | (1 << from),
            };
            search.extend(from, 0, 0, 0, out);
        }
    }

    /// The board after `mv` by `side` (a legal move of this board).
    pub fn play(&self, side: Player, mv: Move) -> Board {
        let (from, to) = (1u32 << mv.from, 1u32 << mv.to);
        let mut b = *self;
        let king = b.kings & from != 0;
        let (own, opp) = match side {
            Player::First => (&mut b.black, &mut b.white),
            Player::Second => (&mut b.white, &mut b.black),
        };
        *own = (*own & !from) | to;
        *opp &= !mv.captured;
        b.kings &= !(mv.captured | from);
        if king || crown_row(side) & to != 0 {
            b.kings |= to;
        }
        b
    }
}

/// One piece's captures, found depth first.
struct JumpSearch {
    from: u8,
    dirs: [usize; 4],
    ndirs: usize,
    /// A man's two directions (used when `ndirs` is 2).
    forward: [usize; 2],
    /// The row where the piece is crowned (and its capture ends), 0 for a king.
    crown: u32,
    opp: u32,
    empty: u32,
}

impl JumpSearch {
    /// Continues a capture standing on `at` after `n` jumps (`dirs`, `captured` so far);
    /// pushes it when it cannot jump again.
    fn extend(&self, at: u8, n: u8, dirs: u32, captured: u32, out: &mut Vec<Move>) {
        let mut jumped = false;
        for i in 0..self.ndirs {
            let d = if self.ndirs == 2 {
                self.forward[i]
            } else {
                self.dirs[i]
            };
            let land = JUMPS[d][at as usize];
            if land == NONE {
                continue;
            }
            let over = 1u32 << STEPS[d][at as usize];
            // A captured piece stays on the board until the capture ends: it can be neither
            // jumped again nor landed on.
            if self.opp & over & !captured == 0 || self.empty & (1 << land) == 0 {
                continue;
            }
            jumped = true;
            let (dirs, captured) = (dirs | (d as u32) << (2 * n), captured | over);
            if self.crown & (1 << land) != 0 {
                out.push(self.done(land, n + 1, dirs, captured));
            } else {
                self.extend(land, n + 1, dirs, captured, out);
            }
        }
        if !jumped && n > 0 {
            out.push(self.done(at, n, dirs, captured));
        }
    }

    fn done(&self, to: u8, jumps: u8, dirs: u32, captured: u32) -> Move {
        Move {
            from: self.from,
            to,
            jumps,
            dirs,
            captured,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Square numbers (1-32) of a set.
    fn squares(set: u32) -> Vec<u32> {
        (0..32)
            .filter(|i| set & (1 << i) != 0)
            .map(|i| i + 1)
            .collect()
    }

    fn sq(n: u32) -> u32 {
        1 << (n - 1)
    }

    #[test]
    fn steps_follow_the_pdn_diagram() {
        // From the diagrams every checkers book prints.
        assert_eq!(
            squares(step(DOWN_WEST, sq(9)) | step(DOWN_EAST, sq(9))),
            [13, 14]
        );
        assert_eq!(
            squares(step(DOWN_WEST, sq(5)) | step(DOWN_EAST, sq(5))),
            [9]
        );
        assert_eq!(
            squares(step(DOWN_WEST, sq(12)) | step(DOWN_EAST, sq(12))),
            [16]
        );
        assert_eq!(
            squares(step(UP_WEST, sq(22)) | step(UP_EAST, sq(22))),
            [17, 18]
        );
        assert_eq!(squares(step(UP_WEST, sq(21)) | step(UP_EAST, sq(21))), [17]);
        assert_eq!(
            squares(step(UP_WEST, sq(4)) | step(UP_EAST, sq(4))),
            Vec::<u32>::new()
        );
        // (Tables hold bit numbers: square 1 jumps down-east to 10, 32 up-west to 23.)
        assert_eq!(JUMPS[DOWN_EAST][0], 9);
        assert_eq!(JUMPS[UP_WEST][31], 22);
        // Every step is undone by the opposite step.
        for (d, row) in STEPS.iter().enumerate() {
            for (s, &t) in row.iter().enumerate() {
                if t != NONE {
                    assert_eq!(STEPS[opposite(d)][t as usize] as usize, s);
                }
            }
        }
    }

    #[test]
    fn the_start_has_seven_moves_for_either_side() {
        let mut out = Vec::new();
        Board::START.legal_moves(Player::First, &mut out);
        assert_eq!(out.len(), 7);
        out.clear();
        Board::START.legal_moves(Player::Second, &mut out);
        assert_eq!(out.len(), 7);
        assert_eq!(Board::START.flipped(), Board::START);
    }

    #[test]
    fn a_king_circuit_counts_once_each_way() {
        // A black king on 10 around four white men on 14, 15, 22, 23: it can jump the
        // square 14-15-23-22 (landing 17/19/26/... ) — two circuits, one each way, that
        // take the same four men.
        let b = Board {
            black: sq(10),
            white: sq(14) | sq(15) | sq(22) | sq(23),
            kings: sq(10),
        };
        let mut out = Vec::new();
        b.legal_moves(Player::First, &mut out);
        let full: Vec<&Move> = out.iter().filter(|m| m.jumps == 4).collect();
        assert_eq!(full.len(), 2);
        assert_eq!(full[0].captured, full[1].captured);
        assert_ne!(full[0], full[1]);
        assert!(full.iter().all(|m| m.to == m.from));
    }
}
