//! Connect Four: discs drop into `width` columns of `height` cells; four in a row
//! (horizontal, vertical or diagonal) wins; a full board without one is a draw.
//! Default 7×6; `newgame connect4 width=W height=H` for any size with `W * (H + 1) <= 64`.
//!
//! Representation (Pascal Pons' layout): two `u64` bitboards, `mask` (every disc) and
//! `current` (the side to move's discs). Bit `col * (H + 1) + row` is the cell in column
//! `col` (0 = leftmost) and row `row` (0 = bottom). Each column owns `H + 1` bits; the top one
//! is a sentinel that is never set, so shifting by `H + 1` (horizontal), `H` and `H + 2`
//! (diagonals) or 1 (vertical) never carries a line from one column into the next. For 7×6:
//!
//! ```text
//!   .  .  .  .  .  .  .      <- sentinel row
//!   5 12 19 26 33 40 47      row 6 (top)
//!   4 11 18 25 32 39 46
//!   3 10 17 24 31 38 45
//!   2  9 16 23 30 37 44
//!   1  8 15 22 29 36 43
//!   0  7 14 21 28 35 42      row 1 (bottom)
//! ```
//!
//! Playing column `c` is `current ^= mask; mask |= mask + bottom(c)`: the addition carries into
//! the lowest empty cell of the column. `current + mask` is a unique key of the position.
//!
//! Notation: a move is its column number `1`..`W` (1 = leftmost, as in Pons' test sets).
//! A position is its rows from the top down, each `W` cells of `x` (first player), `o`
//! (second player) or `.` (a digit run such as `7` also means that many empty cells),
//! separated by `/`, then the side to move:
//! `......./......./......./......./...o.../...x... x`.

use std::sync::Mutex;

use super::grid::Grid;
use crate::game::{FenError, Game, MoveError, Outcome, ParamError, ParamSpec, Params, Player};
use crate::setting::Kind;

/// Everything fixed by the board size, computed once per size and shared by all positions.
#[derive(Debug)]
pub struct Rules {
    pub width: u32,
    pub height: u32,
    /// One bit at the bottom of each column.
    pub bottom: u64,
    /// Every playable cell (sentinel bits excluded).
    pub board: u64,
    /// Every set of four cells in a line: the evaluation counts discs in each.
    windows: Vec<u64>,
    /// Columns from the centre outwards: the static move order.
    order: Vec<u8>,
}

impl Rules {
    pub fn bottom_mask_col(&self, col: u32) -> u64 {
        1u64 << (col * (self.height + 1))
    }

    pub fn top_mask_col(&self, col: u32) -> u64 {
        1u64 << (self.height - 1 + col * (self.height + 1))
    }

    pub fn column_mask(&self, col: u32) -> u64 {
        ((1u64 << self.height) - 1) << (col * (self.height + 1))
    }

    /// Every set of four cells in a line, one mask each.
    pub fn windows(&self) -> &[u64] {
        &self.windows
    }

    pub fn cell(&self, col: u32, row: u32) -> u64 {
        1u64 << (col * (self.height + 1) + row)
    }

    /// True when `stones` holds four in a row.
    #[inline]
    pub fn aligned(&self, stones: u64) -> bool {
        let h = self.height;
        for s in [1, h, h + 1, h + 2] {
            let m = stones & shr(stones, s);
            if m & shr(m, 2 * s) != 0 {
                return true;
            }
        }
        false
    }
}

#[inline]
fn shr(x: u64, n: u32) -> u64 {
    x.checked_shr(n).unwrap_or(0)
}

/// Weights of the threat term of the evaluation ([`Connect4::threat_score`]), chosen by
/// matches at depth 8 against the segment-only evaluation (docs/connect4.md, the evaluation).
const STRONG_THREAT: i32 = 30;
const WEAK_THREAT: i32 = 10;
const STACKED_THREATS: i32 = 100;
const ZUGZWANG: i32 = 100;

#[inline]
fn shl(x: u64, n: u32) -> u64 {
    x.checked_shl(n).unwrap_or(0)
}

/// Interned rules, one per board size ever asked for (a few hundred bytes each, at most
/// a few hundred sizes), so positions can hold a `&'static` and stay `Copy`.
fn rules(width: u32, height: u32) -> &'static Rules {
    static CACHE: Mutex<Vec<&'static Rules>> = Mutex::new(Vec::new());
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(r) = cache
        .iter()
        .find(|r| r.width == width && r.height == height)
    {
        return r;
    }
    let h1 = height + 1;
    let mut bottom = 0u64;
    for c in 0..width {
        bottom |= 1u64 << (c * h1);
    }
    let board = bottom.wrapping_mul((1u64 << height) - 1);
    let mut windows = Vec::new();
    let cell = |c: i32, r: i32| 1u64 << (c as u32 * h1 + r as u32);
    for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
        for c in 0..width as i32 {
            for r in 0..height as i32 {
                let (ec, er) = (c + 3 * dc, r + 3 * dr);
                if ec < 0 || ec >= width as i32 || er < 0 || er >= height as i32 {
                    continue;
                }
                windows.push(
                    (0..4)
                        .map(|t| cell(c + t * dc, r + t * dr))
                        .fold(0, |a, b| a | b),
                );
            }
        }
    }
    let mut order: Vec<u8> = (0..width as u8).collect();
    // Centre first; between two columns equally far from the centre, the left one.
    order.sort_by_key(|&c| ((2 * c as i32 - (width as i32 - 1)).abs(), c));
    let r: &'static Rules = Box::leak(Box::new(Rules {
        width,
        height,
        bottom,
        board,
        windows,
        order,
    }));
    cache.push(r);
    r
}

#[derive(Clone, Copy)]
pub struct Connect4 {
    current: u64,
    mask: u64,
    moves: u32,
    rules: &'static Rules,
}

impl PartialEq for Connect4 {
    fn eq(&self, other: &Self) -> bool {
        self.current == other.current
            && self.mask == other.mask
            && std::ptr::eq(self.rules, other.rules)
    }
}
impl Eq for Connect4 {}

impl std::fmt::Debug for Connect4 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Connect4({})", self.fen())
    }
}

impl Default for Connect4 {
    fn default() -> Self {
        Connect4 {
            current: 0,
            mask: 0,
            moves: 0,
            rules: rules(7, 6),
        }
    }
}

impl Connect4 {
    pub fn rules(&self) -> &'static Rules {
        self.rules
    }
    /// The side to move's discs (layout in the module doc).
    pub fn current(&self) -> u64 {
        self.current
    }
    /// Every disc.
    pub fn mask(&self) -> u64 {
        self.mask
    }
    /// Discs on the board.
    pub fn moves_played(&self) -> u32 {
        self.moves
    }

    /// The position on `like`'s board with `current` the side to move's discs and `mask` every
    /// disc (layout in the module doc); `None` unless every column's discs rest on the bottom
    /// and the side to move holds half the discs (rounded down), as alternating play leaves
    /// them. A four on the board is not checked for.
    pub fn from_bits(like: &Connect4, current: u64, mask: u64) -> Option<Connect4> {
        let r = like.rules;
        let moves = mask.count_ones();
        let grounded = (0..r.width).all(|c| {
            let col = mask & r.column_mask(c);
            col & (col + r.bottom_mask_col(c)) == 0
        });
        (mask & !r.board == 0
            && current & !mask == 0
            && grounded
            && current.count_ones() == moves / 2)
            .then_some(Connect4 {
                current,
                mask,
                moves,
                rules: r,
            })
    }

    pub fn can_play(&self, col: u32) -> bool {
        self.mask & self.rules.top_mask_col(col) == 0
    }

    /// True when dropping in `col` completes four for the side to move.
    pub fn is_winning_move(&self, col: u32) -> bool {
        let mut p = self.current;
        p |= (self.mask + self.rules.bottom_mask_col(col)) & self.rules.column_mask(col);
        self.rules.aligned(p)
    }

    fn stones(&self, p: Player) -> u64 {
        if p == self.side_to_move() {
            self.current
        } else {
            self.current ^ self.mask
        }
    }

    /// The empty cells where `stones` would complete four, playable or not.
    pub fn winning_cells(&self, stones: u64) -> u64 {
        let h = self.rules.height;
        let p = stones;
        let mut r = (p << 1) & (p << 2) & (p << 3);
        for s in [h + 1, h, h + 2] {
            let two_below = shl(p, s) & shl(p, 2 * s);
            r |= two_below & shl(p, 3 * s);
            r |= two_below & shr(p, s);
            let two_above = shr(p, s) & shr(p, 2 * s);
            r |= two_above & shl(p, s);
            r |= two_above & shr(p, 3 * s);
        }
        r & self.rules.board & !self.mask
    }

    /// The threat term of the evaluation, from the first player's side: `first` is its
    /// discs, `mask` every disc.
    ///
    /// A threat is an empty cell where a side completes four. One right above an opponent's
    /// threat is worth nothing (whoever fills the cell below lets the opponent win or blocks
    /// it, and the other then blocks above); two of the same side one above the other win as
    /// soon as the lower one is playable. Otherwise a threat's worth depends on its row's
    /// parity (rows counted from 1 at the bottom). On a board of even height, the second
    /// player can answer every move on top of it (Allis' claimeven) and so gets the even-row
    /// cells: its even threats are strong, and the first player's threats are strong only on
    /// odd rows, which claimeven hands it. Per column, only the lowest live threat counts for
    /// zugzwang: who controls the end of the game (Allis) follows from the first player's odd
    /// threats against the second player's even ones, a side holding it while the other has
    /// none getting a large bonus. On a board of odd height the parities are not decided by
    /// claimeven, and every threat counts the same.
    fn threat_score(&self, first: u64, mask: u64) -> i32 {
        let r = self.rules;
        let second = first ^ mask;
        let ta = self.winning_cells(first);
        let tb = self.winning_cells(second);
        // Useless: right above the opponent's threat.
        let ua = ta & !(tb << 1);
        let ub = tb & !(ta << 1);
        let mut score = STACKED_THREATS
            * ((ua & (ua << 1)).count_ones() as i32 - (ub & (ub << 1)).count_ones() as i32);
        if r.height % 2 == 1 {
            return score + WEAK_THREAT * (ua.count_ones() as i32 - ub.count_ones() as i32);
        }
        let odd = r.bottom * (0x5555_5555_5555_5555u64 & ((1u64 << r.height) - 1));
        let (a_odd, a_even) = (ua & odd, ua & !odd);
        let (b_odd, b_even) = (ub & odd, ub & !odd);
        score += STRONG_THREAT * (a_odd.count_ones() as i32 - b_even.count_ones() as i32)
            + WEAK_THREAT * (a_even.count_ones() as i32 - b_odd.count_ones() as i32);
        // Zugzwang: the lowest live threat of each column.
        let (mut za, mut zb) = (0, 0);
        for c in 0..r.width {
            let col = r.column_mask(c);
            let lowest = (ua | ub) & col;
            if lowest == 0 {
                continue;
            }
            let bit = lowest & lowest.wrapping_neg();
            if bit & a_odd != 0 {
                za += 1;
            } else if bit & b_even != 0 {
                zb += 1;
            }
        }
        if za > 0 && zb == 0 {
            score += ZUGZWANG;
        } else if zb > 0 && za == 0 {
            score -= ZUGZWANG;
        }
        score
    }

    fn grid(&self) -> Grid {
        let (w, h) = (self.rules.width, self.rules.height);
        Grid {
            width: w,
            height: h,
            row_word: "row",
            letters: ['x', 'o'],
            size_hint: format!(
                " (the board is {w}x{h}; newgame connect4 width=W height=H changes it)"
            ),
        }
    }

    fn owner(&self, bit: u64) -> Option<Player> {
        if self.mask & bit == 0 {
            None
        } else if self.stones(Player::First) & bit != 0 {
            Some(Player::First)
        } else {
            Some(Player::Second)
        }
    }
}

impl Game for Connect4 {
    type Move = u8;
    const NAME: &'static str = "connect4";
    const PARAMS: &'static [ParamSpec] = &[
        ParamSpec {
            key: "width",
            kind: Kind::Spin {
                default: 7,
                min: 1,
                max: 63,
            },
            label: "Width",
            help: "Columns; the board needs width × (height + 1) ≤ 64.",
        },
        ParamSpec {
            key: "height",
            kind: Kind::Spin {
                default: 6,
                min: 1,
                max: 63,
            },
            label: "Height",
            help: "Rows; the board needs width × (height + 1) ≤ 64.",
        },
    ];
    const MOVE_IDS: usize = 64;

    fn new(params: &Params) -> Result<Self, ParamError> {
        let p = params.resolve(Self::NAME, Self::PARAMS)?;
        let (width, height) = (p.spin_u32("width"), p.spin_u32("height"));
        if width * (height + 1) > 64 {
            return Err(ParamError(format!(
                "a {width}x{height} board needs width*(height+1) = {} bits; at most 64 fit",
                width * (height + 1)
            )));
        }
        Ok(Connect4 {
            current: 0,
            mask: 0,
            moves: 0,
            rules: rules(width, height),
        })
    }

    fn params(&self) -> Params {
        Params(vec![
            ("width".into(), self.rules.width.to_string()),
            ("height".into(), self.rules.height.to_string()),
        ])
    }

    fn side_to_move(&self) -> Player {
        if self.moves.is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        }
    }

    fn legal_moves(&self, out: &mut Vec<u8>) {
        if self.outcome().is_some() {
            return;
        }
        out.extend(
            self.rules
                .order
                .iter()
                .copied()
                .filter(|&c| self.can_play(c as u32)),
        );
    }

    #[inline]
    fn play(&mut self, col: u8) {
        debug_assert!(self.can_play(col as u32));
        self.current ^= self.mask;
        self.mask |= self.mask + self.rules.bottom_mask_col(col as u32);
        self.moves += 1;
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.rules.aligned(self.current ^ self.mask) {
            Some(Outcome::Win(self.side_to_move().other()))
        } else if self.moves == self.rules.width * self.rules.height {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn ending(&self) -> Option<&'static str> {
        self.outcome().map(|o| match o {
            Outcome::Win(_) => "four in a row",
            Outcome::Draw => "a full board",
        })
    }

    fn key(&self) -> u64 {
        self.current + self.mask
    }

    /// Lines of four still open to one side only (1 for one disc, 4 for two; three discs
    /// are scored as threats below), plus 3 per disc in the centre column, plus the threats:
    /// the empty cells where a side would complete four, scored by what they can become.
    /// See [`Connect4::threat_score`].
    fn evaluate(&self) -> i32 {
        const W: [i32; 5] = [0, 1, 4, 0, 0];
        let me = self.current;
        let them = self.current ^ self.mask;
        let mut score = 0;
        for &w in &self.rules.windows {
            let (a, b) = ((me & w).count_ones(), (them & w).count_ones());
            if b == 0 {
                score += W[a as usize];
            } else if a == 0 {
                score -= W[b as usize];
            }
        }
        let centre = self.rules.column_mask(self.rules.width / 2);
        score += 3 * ((me & centre).count_ones() as i32 - (them & centre).count_ones() as i32);
        if self.moves.is_multiple_of(2) {
            score + self.threat_score(me, self.mask)
        } else {
            score - self.threat_score(them, self.mask)
        }
    }

    fn max_remaining_plies(&self) -> Option<u32> {
        Some(self.rules.width * self.rules.height - self.moves)
    }

    fn move_id(&self, mv: u8) -> usize {
        mv as usize
    }

    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        let w = self.rules.width;
        let col = match text.parse::<u32>() {
            Ok(c) if (1..=w).contains(&c) && !text.starts_with(['+', '0']) => c - 1,
            _ => {
                return Err(MoveError::Malformed(format!(
                    "'{text}' is not a column number 1..{w}"
                )));
            }
        };
        if let Some(o) = self.outcome() {
            return Err(MoveError::Illegal(format!(
                "{text}: the game is over ({})",
                o.protocol_name()
            )));
        }
        if !self.can_play(col) {
            return Err(MoveError::Illegal(format!("column {text} is full")));
        }
        Ok(col as u8)
    }

    fn format_move(&self, col: u8) -> String {
        (col as u32 + 1).to_string()
    }

    fn from_fen(&self, fen: &str) -> Result<Self, FenError> {
        let err = |s: String| Err(FenError(s));
        let r = self.rules;
        let w = r.width;
        let parsed = self.grid().parse(fen)?;
        let (mut first, mut second) = (0u64, 0u64);
        for (i, owner) in parsed.cells.iter().enumerate() {
            let bit = r.cell(i as u32 % w, i as u32 / w);
            match owner {
                Some(Player::First) => first |= bit,
                Some(Player::Second) => second |= bit,
                None => {}
            }
        }
        let side = parsed.side;
        let mask = first | second;
        for col in 0..w {
            let column = mask & r.column_mask(col);
            // A column's discs must be contiguous from the bottom: no floating disc.
            if column & (column + r.bottom_mask_col(col)) != 0 {
                return err(format!("column {} has a disc above an empty cell", col + 1));
            }
        }
        let (nx, no) = (first.count_ones(), second.count_ones());
        if !(nx == no || nx == no + 1) {
            return err(format!(
                "{nx} x and {no} o discs: x moves first, so x has as many as o or one more"
            ));
        }
        let expected = if nx == no {
            Player::First
        } else {
            Player::Second
        };
        if side != expected {
            return err(format!(
                "with {nx} x and {no} o discs it is {} to move",
                if expected == Player::First { "x" } else { "o" }
            ));
        }
        let pos = Connect4 {
            current: if side == Player::First { first } else { second },
            mask,
            moves: nx + no,
            rules: r,
        };
        // A four may only be the last move's: its owner moved last, and taking back one of
        // its top discs leaves no four on the board.
        for p in [Player::First, Player::Second] {
            let stones = pos.stones(p);
            if !r.aligned(stones) {
                continue;
            }
            let name = if p == Player::First { "x" } else { "o" };
            if p == side {
                return err(format!("{name} has four in a row, but it is {name}'s turn"));
            }
            let undoable = (0..w).any(|c| {
                let column = mask & r.column_mask(c);
                if column == 0 {
                    return false;
                }
                let top = 1u64 << (63 - column.leading_zeros());
                stones & top != 0 && !r.aligned(stones & !top) && !r.aligned(pos.stones(p.other()))
            });
            if !undoable {
                return err(format!(
                    "{name} has a four that no single last disc completed: the game would have ended earlier"
                ));
            }
        }
        Ok(pos)
    }

    fn fen(&self) -> String {
        self.grid().write(
            |c, row| self.owner(self.rules.cell(c, row)),
            self.side_to_move(),
        )
    }

    fn diagram(&self) -> String {
        self.grid().diagram(
            |c, row| self.owner(self.rules.cell(c, row)),
            |c| (c + 1).to_string(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::play_moves;

    fn start() -> Connect4 {
        Connect4::default()
    }

    #[test]
    fn vertical_horizontal_and_diagonal_wins() {
        let p = play_moves(&start(), &["1", "2", "1", "2", "1", "2", "1"]).unwrap();
        assert_eq!(p.outcome(), Some(Outcome::Win(Player::First)));
        let p = play_moves(&start(), &["1", "1", "2", "2", "3", "3", "4"]).unwrap();
        assert_eq!(p.outcome(), Some(Outcome::Win(Player::First)));
        // x on 1/1, 2/2, 3/3, 4/4 (column/row).
        let p = play_moves(
            &start(),
            &["1", "2", "2", "3", "3", "4", "3", "4", "4", "7", "4"],
        )
        .unwrap();
        assert_eq!(p.outcome(), Some(Outcome::Win(Player::First)));
        // No wrap-around from the top of one column to the bottom of the next.
        let p = play_moves(&start(), &["1", "1", "1", "2", "1", "2", "1", "1"]).unwrap();
        assert_eq!(p.outcome(), None);
    }

    #[test]
    fn moves_and_fen_round_trip_and_errors() {
        let p = play_moves(&start(), &["4", "4", "3"]).unwrap();
        assert_eq!(p.fen(), "......./......./......./......./...o.../..xx... o");
        assert_eq!(start().from_fen(&p.fen()).unwrap(), p);
        assert_eq!(start().from_fen("7/7/7/7/3o3/2xx3 o").unwrap(), p);
        let e = |f: &str| start().from_fen(f).unwrap_err().0;
        assert!(
            e("7/7/7/7/7 x").contains("expected 6 rows separated by '/', got 5 (the board is 7x6")
        );
        assert!(e("7/7/7/7/3x3/7 o").contains("column 4 has a disc above an empty cell"));
        assert!(e("7/7/7/7/7/xx5 o").contains("2 x and 0 o"));
        assert!(e("7/7/7/7/7/x6 x").contains("o to move"));
        assert!(e("7/7/7/7/7/x7 o").contains("more than 7"));
        assert!(matches!(
            start().parse_move("8"),
            Err(MoveError::Malformed(_))
        ));
        assert!(matches!(
            start().parse_move("04"),
            Err(MoveError::Malformed(_))
        ));
        let full = play_moves(&start(), &["1", "1", "1", "1", "1", "1"]).unwrap();
        assert_eq!(
            full.parse_move("1"),
            Err(MoveError::Illegal("column 1 is full".into()))
        );
    }

    #[test]
    fn other_sizes() {
        let p = Connect4::new(&Params::parse(["width=9", "height=5"]).unwrap()).unwrap();
        let mut m = Vec::new();
        p.legal_moves(&mut m);
        assert_eq!(m, [4, 3, 5, 2, 6, 1, 7, 0, 8]);
        assert!(Connect4::new(&Params::parse(["width=10", "height=6"]).unwrap()).is_err());
        assert!(Connect4::new(&Params::parse(["depth=3"]).unwrap()).is_err());
        // 8x7 uses all 64 bits.
        let p = Connect4::new(&Params::parse(["width=8", "height=7"]).unwrap()).unwrap();
        let q = play_moves(&p, &["8", "8", "8", "8", "8", "8", "8"]).unwrap();
        assert!(q.parse_move("8").is_err());
        assert_eq!(q.outcome(), None);
    }

    /// Random positions of several sizes, played out by a fixed-seed generator.
    fn random_positions(width: u32, height: u32, count: usize) -> Vec<Connect4> {
        let params = [format!("width={width}"), format!("height={height}")];
        let empty =
            Connect4::new(&Params::parse(params.iter().map(|s| s.as_str())).unwrap()).unwrap();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64 ^ (width * 16 + height) as u64;
        let mut out = Vec::new();
        while out.len() < count {
            let mut p = empty;
            let mut moves = Vec::new();
            loop {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                moves.clear();
                p.legal_moves(&mut moves);
                if moves.is_empty() || seed.is_multiple_of(11) {
                    break;
                }
                let mut q = p;
                q.play(moves[(seed >> 8) as usize % moves.len()]);
                if q.outcome().is_some() {
                    break;
                }
                p = q;
                out.push(p);
            }
        }
        out
    }

    #[test]
    fn winning_cells_are_the_empty_cells_that_complete_four() {
        for (w, h) in [(7, 6), (8, 7), (5, 4), (4, 9), (9, 5)] {
            for p in random_positions(w, h, 300) {
                let r = p.rules;
                for stones in [p.current, p.current ^ p.mask] {
                    let mut want = 0u64;
                    for c in 0..w {
                        for row in 0..h {
                            let bit = 1u64 << (c * (h + 1) + row);
                            if p.mask & bit == 0 && r.aligned(stones | bit) {
                                want |= bit;
                            }
                        }
                    }
                    assert_eq!(p.winning_cells(stones), want, "{w}x{h} {}", p.fen());
                }
            }
        }
    }

    #[test]
    fn threats_count_by_row_parity() {
        let score = |moves: &[&str]| {
            let p = play_moves(&start(), moves).unwrap();
            p.threat_score(p.current, p.mask)
        };
        // x on 1/1, 2/1, 4/1 (column/row): x's threat 3/1 is on an odd row, strong for the
        // first player, and gives it the zugzwang.
        assert_eq!(
            score(&["1", "1", "2", "2", "4", "7"]),
            STRONG_THREAT + ZUGZWANG
        );
        // The same shape on row 2 (even) is weak for the first player, no zugzwang.
        assert_eq!(
            score(&["3", "1", "1", "2", "2", "4", "4", "7"]),
            WEAK_THREAT
        );
        // o's threat on row 2 (even) is strong for the second player, with the zugzwang.
        assert_eq!(
            score(&["1", "1", "2", "2", "4", "4", "7", "3"]),
            -STRONG_THREAT - ZUGZWANG
        );
        // On a board of odd height parity means nothing: every threat is weak.
        let odd = Connect4::new(&Params::parse(["width=7", "height=5"]).unwrap()).unwrap();
        let p = play_moves(&odd, &["1", "1", "2", "2", "4", "7"]).unwrap();
        assert_eq!(p.threat_score(p.current, p.mask), WEAK_THREAT);
    }
}
