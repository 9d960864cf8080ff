//! Tic-tac-toe: 3×3, X first, three in a row wins, a full board without a line is a draw.
//!
//! Representation: two 9-bit boards, one per player. Bit `i` is the cell
//! `file + 3 * rank` with files a–c = 0–2 (left to right) and ranks 1–3 = 0–2 (bottom to top):
//!
//! ```text
//!   rank 3 | 6 7 8        a3 b3 c3
//!   rank 2 | 3 4 5        a2 b2 c2
//!   rank 1 | 0 1 2        a1 b1 c1
//! ```
//!
//! The side to move follows from the counts (X moves when both have played equally often).
//!
//! Notation: moves are cells `a1`..`c3`. A position is its ranks from 3 down to 1, each three
//! of `x`, `o`, `.`, separated by `/`, then the side to move: `x.o/.x./..o o`.
//!
//! ```
//! use ply::game::Game;
//! use ply::games::TicTacToe;
//! let pos = TicTacToe::default().from_fen("xo./.x./... o").unwrap();
//! let mv = pos.parse_move("c1").unwrap();
//! assert_eq!(pos.format_move(mv), "c1");
//! ```

use super::grid::Grid;
use crate::game::{FenError, Game, MoveError, Outcome, ParamError, ParamSpec, Params, Player};

/// The eight lines of three (bit layout above).
pub const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];
const FULL: u16 = 0b111_111_111;
/// Static move order: centre, corners, edges.
const ORDER: [u8; 9] = [4, 0, 2, 6, 8, 1, 3, 5, 7];

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TicTacToe {
    x: u16,
    o: u16,
}

// clippy's manual_contains misreads `b & l == l` (all of line l's cells are in b) as a
// comparison with an element.
#[allow(clippy::manual_contains)]
fn has_line(b: u16) -> bool {
    LINES.iter().any(|&l| b & l == l)
}

pub(crate) fn cell_name(i: u8) -> String {
    format!("{}{}", (b'a' + i % 3) as char, i / 3 + 1)
}

fn grid() -> Grid {
    Grid {
        width: 3,
        height: 3,
        row_word: "rank",
        letters: ['x', 'o'],
        size_hint: String::new(),
    }
}

impl TicTacToe {
    fn owner(&self, cell: u32) -> Option<Player> {
        if self.x & (1 << cell) != 0 {
            Some(Player::First)
        } else if self.o & (1 << cell) != 0 {
            Some(Player::Second)
        } else {
            None
        }
    }

    fn mine_theirs(&self) -> (u16, u16) {
        match self.side_to_move() {
            Player::First => (self.x, self.o),
            Player::Second => (self.o, self.x),
        }
    }

    /// The bitboard of one player's marks (bit layout in the module doc).
    pub fn marks(&self, p: Player) -> u16 {
        match p {
            Player::First => self.x,
            Player::Second => self.o,
        }
    }
}

impl Game for TicTacToe {
    type Move = u8;
    const NAME: &'static str = "tictactoe";
    const PARAMS: &'static [ParamSpec] = &[];
    const MOVE_IDS: usize = 9;

    fn new(params: &Params) -> Result<Self, ParamError> {
        params.resolve(Self::NAME, Self::PARAMS)?;
        Ok(TicTacToe::default())
    }

    fn params(&self) -> Params {
        Params::new()
    }

    fn side_to_move(&self) -> Player {
        if self.x.count_ones() == self.o.count_ones() {
            Player::First
        } else {
            Player::Second
        }
    }

    fn legal_moves(&self, out: &mut Vec<u8>) {
        if self.outcome().is_some() {
            return;
        }
        let occupied = self.x | self.o;
        out.extend(ORDER.iter().copied().filter(|&i| occupied & (1 << i) == 0));
    }

    fn play(&mut self, mv: u8) {
        debug_assert!((self.x | self.o) & (1 << mv) == 0);
        match self.side_to_move() {
            Player::First => self.x |= 1 << mv,
            Player::Second => self.o |= 1 << mv,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if has_line(self.x) {
            Some(Outcome::Win(Player::First))
        } else if has_line(self.o) {
            Some(Outcome::Win(Player::Second))
        } else if self.x | self.o == FULL {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn ending(&self) -> Option<&'static str> {
        self.outcome().map(|o| match o {
            Outcome::Win(_) => "three in a row",
            Outcome::Draw => "a full board",
        })
    }

    fn key(&self) -> u64 {
        self.x as u64 | (self.o as u64) << 9
    }

    /// Open lines: a line holding only the side's marks counts 1 for one mark and 10 for two.
    fn evaluate(&self) -> i32 {
        let (me, them) = self.mine_theirs();
        let weight = |n: u32| [0, 1, 10, 0][n as usize];
        LINES
            .iter()
            .map(
                |&l| match ((me & l).count_ones(), (them & l).count_ones()) {
                    (m, 0) => weight(m),
                    (0, t) => -weight(t),
                    _ => 0,
                },
            )
            .sum()
    }

    fn max_remaining_plies(&self) -> Option<u32> {
        Some(9 - (self.x | self.o).count_ones())
    }

    fn move_id(&self, mv: u8) -> usize {
        mv as usize
    }

    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        let b = text.as_bytes();
        if b.len() != 2 || !(b'a'..=b'c').contains(&b[0]) || !(b'1'..=b'3').contains(&b[1]) {
            return Err(MoveError::Malformed(format!(
                "'{text}' is not a cell a1..c3"
            )));
        }
        let i = (b[0] - b'a') + 3 * (b[1] - b'1');
        if let Some(o) = self.outcome() {
            return Err(MoveError::Illegal(format!(
                "{text}: the game is over ({})",
                o.protocol_name()
            )));
        }
        if (self.x | self.o) & (1 << i) != 0 {
            return Err(MoveError::Illegal(format!("{text} is occupied")));
        }
        Ok(i)
    }

    fn format_move(&self, mv: u8) -> String {
        cell_name(mv)
    }

    fn from_fen(&self, fen: &str) -> Result<Self, FenError> {
        let err = |s: String| Err(FenError(s));
        let parsed = grid().parse(fen)?;
        let mut pos = TicTacToe::default();
        // Grid cells are numbered row * 3 + col from the bottom left: this game's bit layout.
        for (i, owner) in parsed.cells.iter().enumerate() {
            match owner {
                Some(Player::First) => pos.x |= 1 << i,
                Some(Player::Second) => pos.o |= 1 << i,
                None => {}
            }
        }
        let side = parsed.side;
        let (nx, no) = (pos.x.count_ones(), pos.o.count_ones());
        if !(nx == no || nx == no + 1) {
            return err(format!(
                "{nx} x and {no} o: x moves first, so x has as many marks as o or one more"
            ));
        }
        if side != pos.side_to_move() {
            return err(format!(
                "with {nx} x and {no} o it is {} to move",
                if nx == no { "x" } else { "o" }
            ));
        }
        match (has_line(pos.x), has_line(pos.o)) {
            (true, true) => return err("both players have three in a row".into()),
            (true, false) if nx != no + 1 => {
                return err("x has three in a row but o has moved since".into());
            }
            (false, true) if nx != no => {
                return err("o has three in a row but x has moved since".into());
            }
            _ => {}
        }
        Ok(pos)
    }

    fn fen(&self) -> String {
        grid().write(|c, r| self.owner(c + 3 * r), self.side_to_move())
    }

    fn diagram(&self) -> String {
        grid().diagram(
            |c, r| self.owner(c + 3 * r),
            |c| ((b'a' + c as u8) as char).to_string(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> TicTacToe {
        TicTacToe::default().from_fen(fen).unwrap()
    }

    /// A board from the seeds' 0..8 top-left numbering (`X`, `O`, `.`), without the
    /// reachability checks of `from_fen`: two of the seeds' boards are not reachable
    /// (seed 000's draw has four X and five O; its win has X on a line with O to move).
    fn seed_board(cells: &str) -> TicTacToe {
        let mut p = TicTacToe::default();
        for (i, c) in cells.chars().enumerate() {
            let bit = 1u16 << (i % 3 + 3 * (2 - i / 3));
            match c {
                'X' => p.x |= bit,
                'O' => p.o |= bit,
                _ => {}
            }
        }
        p
    }

    fn names(p: &TicTacToe) -> Vec<String> {
        let mut m = Vec::new();
        p.legal_moves(&mut m);
        let mut n: Vec<String> = m.iter().map(|&m| cell_name(m)).collect();
        n.sort();
        n
    }

    // The seeds' unit tests for legal_moves / is_win / is_draw (seed 000 exercise 1,
    // seed 001 exercise 8-1).
    #[test]
    fn seed_legal_moves_wins_and_draws() {
        // seed 000: [X,O,X, X,X,O, O,E,O] -> legal moves [7] = b1.
        assert_eq!(names(&seed_board("XOXXXOO.O")), ["b1"]);
        // seed 001: [X,O,X, X,E,O, E,E,O] -> [4, 6, 7] = b2, a1, b1.
        assert_eq!(names(&seed_board("XOXX.O..O")), ["a1", "b1", "b2"]);
        // seed 000: [X,O,X, X,O,O, X,E,O] is a win (X holds the a-file).
        assert_eq!(
            seed_board("XOXXOOX.O").outcome(),
            Some(Outcome::Win(Player::First))
        );
        // seed 001: [E,X,E, E,X,O, E,X,O] is a win (X holds the b-file).
        assert_eq!(
            seed_board(".X..XO.XO").outcome(),
            Some(Outcome::Win(Player::First))
        );
        // seed 000: [X,O,X, X,O,O, O,X,O] and seed 001: [X,O,O, O,X,X, X,X,O] are draws.
        assert_eq!(seed_board("XOXXOOOXO").outcome(), Some(Outcome::Draw));
        assert_eq!(seed_board("XOOOXXXXO").outcome(), Some(Outcome::Draw));
        // A finished game has no legal moves.
        assert!(names(&seed_board("XOXXOOX.O")).is_empty());
        // The reachable ones read back through the notation too.
        assert_eq!(pos("xoo/oxx/xxo o").outcome(), Some(Outcome::Draw));
        assert_eq!(
            pos(".x./.xo/.xo o").outcome(),
            Some(Outcome::Win(Player::First))
        );
    }

    #[test]
    fn fen_errors_are_precise() {
        let e = |f: &str| TicTacToe::default().from_fen(f).unwrap_err().0;
        assert!(e("xxx/.../... x").contains("3 x and 0 o"));
        assert!(e("x../.../... x").contains("o to move"));
        assert!(e("xx/.../... x").contains("rank 3 'xx' has 2 cells, not 3"));
        assert!(e("x?./.../... o").contains("rank 3 has '?'"));
        assert_eq!(
            TicTacToe::default().from_fen("x2/1o1/3 x").unwrap().fen(),
            "x../.o./... x"
        );
        assert!(e("xxx/ooo/.x. o").contains("both"));
        assert!(e("xxx/oo./o.. x").contains("x has three in a row but o has moved"));
    }
}
