//! Teeko (John Scarne, 1937): a 5×5 board, four markers each, Black first. Drop phase: the
//! players alternately place a marker on any empty cell until all eight are down. Move phase:
//! the side to move slides one of its markers one step (8 directions, no wrap-around) to an
//! empty cell. Whoever first has its four markers on a goal wins — four in a row (horizontal,
//! vertical, diagonal) or a 2×2 square: 44 goals. A goal completed by a drop wins at once.
//! There is no passing, and no repetition or move-limit rule: the game is played without end
//! until someone wins.
//!
//! Parameters: `advanced=true` adds the corners of every axis-aligned 3×3, 4×4 and 5×5 square
//! as goals (58 goals, "Advanced Teeko"); `centre=false` forbids Black's first drop on the
//! centre c3 (Guy Steele's variant where advanced Teeko becomes a draw).
//!
//! Representation: two 25-bit boards (Black, Red). Bit `file + 5 * rank`, files a–e = 0–4
//! left to right, ranks 1–5 = 0–4 bottom to top (a1 = bit 0, e1 = bit 4, e5 = bit 24).
//! The phase follows from the marker count (drop while fewer than 8 are down).
//!
//! Notation: a drop is its cell (`c3`); a step is from-cell then to-cell (`c3d4`). A position
//! is its ranks from 5 down to 1, each five of `b`, `r`, `.` (a digit `1`–`5` also means that
//! many empty cells), separated by `/`, then the side to move, `b` or `r`:
//! `...../.b.r./..b../.r.../..... b`.

use std::sync::OnceLock;

use super::grid::Grid;
use crate::game::{FenError, Game, MoveError, Outcome, ParamError, ParamSpec, Params, Player};
use crate::setting::Kind;

pub const CELLS: u32 = 25;
const ALL: u32 = (1 << CELLS) - 1;
const CENTRE: u8 = 12;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TeekoMove {
    Drop(u8),
    Step(u8, u8),
}

/// The rule variant, fixed for a game: its goals and whether the first drop may be the centre.
#[derive(Debug)]
pub struct Rules {
    pub advanced: bool,
    pub centre_first: bool,
    /// Every goal as a 25-bit mask (44, or 58 when advanced).
    pub goals: Vec<u32>,
    /// The 8-neighbourhood of each cell.
    pub neighbours: [u32; CELLS as usize],
    /// Cells by how many goals they lie on, most first: the order drops are tried in.
    drop_order: [u8; CELLS as usize],
}

fn cell(file: i32, rank: i32) -> u32 {
    1 << (file + 5 * rank)
}

fn goals(advanced: bool) -> Vec<u32> {
    let mut g = Vec::new();
    let inside = |f: i32, r: i32| (0..5).contains(&f) && (0..5).contains(&r);
    for (df, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
        for f in 0..5 {
            for r in 0..5 {
                if inside(f + 3 * df, r + 3 * dr) {
                    g.push((0..4).map(|t| cell(f + t * df, r + t * dr)).sum());
                }
            }
        }
    }
    // Squares of side 2 (all four cells), and when advanced, the corners of sides 3, 4, 5.
    let sides: &[i32] = if advanced { &[1, 2, 3, 4] } else { &[1] };
    for &d in sides {
        for f in 0..5 - d {
            for r in 0..5 - d {
                g.push(cell(f, r) | cell(f + d, r) | cell(f, r + d) | cell(f + d, r + d));
            }
        }
    }
    g
}

/// The rules for one variant; four exist, each built once.
pub fn rules(advanced: bool, centre_first: bool) -> &'static Rules {
    static VARIANTS: [OnceLock<Rules>; 4] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    VARIANTS[advanced as usize * 2 + centre_first as usize].get_or_init(|| {
        let goals = goals(advanced);
        let mut neighbours = [0u32; CELLS as usize];
        for f in 0..5 {
            for r in 0..5 {
                for (df, dr) in [
                    (-1, -1),
                    (-1, 0),
                    (-1, 1),
                    (0, -1),
                    (0, 1),
                    (1, -1),
                    (1, 0),
                    (1, 1),
                ] {
                    let (nf, nr) = (f + df, r + dr);
                    if (0..5).contains(&nf) && (0..5).contains(&nr) {
                        neighbours[(f + 5 * r) as usize] |= cell(nf, nr);
                    }
                }
            }
        }
        let mut drop_order: [u8; CELLS as usize] = std::array::from_fn(|i| i as u8);
        let on_goals = |c: u8| goals.iter().filter(|&&g| g & (1 << c) != 0).count();
        drop_order.sort_by_key(|&c| (std::cmp::Reverse(on_goals(c)), c));
        Rules {
            advanced,
            centre_first,
            goals,
            neighbours,
            drop_order,
        }
    })
}

fn grid() -> Grid {
    Grid {
        width: 5,
        height: 5,
        row_word: "rank",
        letters: ['b', 'r'],
        size_hint: String::new(),
    }
}

pub fn cell_name(i: u8) -> String {
    format!("{}{}", (b'a' + i % 5) as char, i / 5 + 1)
}

fn parse_cell(b: &[u8]) -> Option<u8> {
    match b {
        [f @ b'a'..=b'e', r @ b'1'..=b'5'] => Some((f - b'a') + 5 * (r - b'1')),
        _ => None,
    }
}

#[derive(Clone, Copy)]
pub struct Teeko {
    black: u32,
    red: u32,
    side: Player,
    rules: &'static Rules,
}

impl PartialEq for Teeko {
    fn eq(&self, o: &Self) -> bool {
        self.black == o.black
            && self.red == o.red
            && self.side == o.side
            && std::ptr::eq(self.rules, o.rules)
    }
}
impl Eq for Teeko {}

impl std::fmt::Debug for Teeko {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Teeko({})", self.fen())
    }
}

impl Default for Teeko {
    fn default() -> Self {
        Teeko {
            black: 0,
            red: 0,
            side: Player::First,
            rules: rules(false, true),
        }
    }
}

impl Teeko {
    pub fn rules(&self) -> &'static Rules {
        self.rules
    }
    /// The 25-bit board of one player's markers (layout in the module doc).
    pub fn markers(&self, p: Player) -> u32 {
        match p {
            Player::First => self.black,
            Player::Second => self.red,
        }
    }
    /// Builds a position from raw boards; the caller guarantees it is valid.
    pub fn from_raw(black: u32, red: u32, side: Player, rules: &'static Rules) -> Teeko {
        Teeko {
            black,
            red,
            side,
            rules,
        }
    }
    pub fn in_drop_phase(&self) -> bool {
        (self.black | self.red).count_ones() < 8
    }
    // clippy's manual_contains misreads `m & g == g` (all of goal g's cells are p's markers)
    // as a comparison with an element.
    #[allow(clippy::manual_contains)]
    pub fn has_goal(&self, p: Player) -> bool {
        let m = self.markers(p);
        self.rules.goals.iter().any(|&g| m & g == g)
    }
    fn owner(&self, cell: u32) -> Option<Player> {
        if self.black & (1 << cell) != 0 {
            Some(Player::First)
        } else if self.red & (1 << cell) != 0 {
            Some(Player::Second)
        } else {
            None
        }
    }
    fn empty(&self) -> u32 {
        !(self.black | self.red) & ALL
    }
}

impl Game for Teeko {
    type Move = TeekoMove;
    const NAME: &'static str = "teeko";
    const PARAMS: &'static [ParamSpec] = &[
        ParamSpec {
            key: "advanced",
            kind: Kind::Check { default: false },
            label: "Advanced goals",
            help: "Also the corners of every 3×3, 4×4 and 5×5 square win (58 goals).",
        },
        ParamSpec {
            key: "centre",
            kind: Kind::Check { default: true },
            label: "Centre first",
            help: "Black's first drop may be the centre, c3.",
        },
    ];
    const MOVE_IDS: usize = 25 + 25 * 25;

    fn new(params: &Params) -> Result<Self, ParamError> {
        let p = params.resolve(Self::NAME, Self::PARAMS)?;
        let (advanced, centre) = (p.check("advanced"), p.check("centre"));
        Ok(Teeko {
            rules: rules(advanced, centre),
            ..Teeko::default()
        })
    }

    fn params(&self) -> Params {
        Params(vec![
            ("advanced".into(), self.rules.advanced.to_string()),
            ("centre".into(), self.rules.centre_first.to_string()),
        ])
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    fn legal_moves(&self, out: &mut Vec<TeekoMove>) {
        if self.outcome().is_some() {
            return;
        }
        let empty = self.empty();
        if self.in_drop_phase() {
            let first_drop = self.black | self.red == 0;
            for &c in &self.rules.drop_order {
                if empty & (1 << c) != 0 && !(first_drop && !self.rules.centre_first && c == CENTRE)
                {
                    out.push(TeekoMove::Drop(c));
                }
            }
        } else {
            let mut own = self.markers(self.side);
            while own != 0 {
                let from = own.trailing_zeros() as u8;
                own &= own - 1;
                let mut to = self.rules.neighbours[from as usize] & empty;
                while to != 0 {
                    out.push(TeekoMove::Step(from, to.trailing_zeros() as u8));
                    to &= to - 1;
                }
            }
        }
    }

    fn play(&mut self, mv: TeekoMove) {
        let own = match self.side {
            Player::First => &mut self.black,
            Player::Second => &mut self.red,
        };
        match mv {
            TeekoMove::Drop(c) => *own |= 1 << c,
            TeekoMove::Step(f, t) => *own ^= (1 << f) | (1 << t),
        }
        self.side = self.side.other();
    }

    fn outcome(&self) -> Option<Outcome> {
        // Only the player who just moved can have completed a goal.
        let last = self.side.other();
        self.has_goal(last).then_some(Outcome::Win(last))
    }

    fn ending(&self) -> Option<&'static str> {
        self.outcome().map(|_| "four markers on a goal")
    }

    fn key(&self) -> u64 {
        self.black as u64 | (self.red as u64) << 25 | (self.side as u64) << 50
    }

    /// Goals still open to one side only: 1 for one marker on it, 6 for two, 40 for three,
    /// from the side to move's view (the seeds' "largest number of pieces nearby", counted
    /// over every goal instead of the best one).
    fn evaluate(&self) -> i32 {
        const W: [i32; 5] = [0, 1, 6, 40, 0];
        let (me, them) = match self.side {
            Player::First => (self.black, self.red),
            Player::Second => (self.red, self.black),
        };
        let mut score = 0;
        for &g in &self.rules.goals {
            let (a, b) = ((me & g).count_ones(), (them & g).count_ones());
            if b == 0 {
                score += W[a as usize];
            } else if a == 0 {
                score -= W[b as usize];
            }
        }
        score
    }

    fn move_id(&self, mv: TeekoMove) -> usize {
        match mv {
            TeekoMove::Drop(c) => c as usize,
            TeekoMove::Step(f, t) => 25 + f as usize * 25 + t as usize,
        }
    }

    fn parse_move(&self, text: &str) -> Result<TeekoMove, MoveError> {
        let b = text.as_bytes();
        let parsed = match b.len() {
            2 => parse_cell(b).map(TeekoMove::Drop),
            4 => parse_cell(&b[..2])
                .zip(parse_cell(&b[2..]))
                .map(|(f, t)| TeekoMove::Step(f, t)),
            _ => None,
        };
        let Some(mv) = parsed else {
            return Err(MoveError::Malformed(format!(
                "'{text}' is neither a drop (a cell a1..e5) nor a step (two cells, such as c3d4)"
            )));
        };
        if let Some(o) = self.outcome() {
            return Err(MoveError::Illegal(format!(
                "{text}: the game is over ({})",
                o.protocol_name()
            )));
        }
        let empty = self.empty();
        let own = self.markers(self.side);
        let bad = |s: String| Err(MoveError::Illegal(format!("{text}: {s}")));
        match (mv, self.in_drop_phase()) {
            (TeekoMove::Drop(_), false) => {
                bad("all eight markers are down; move one a step, such as c3d4".into())
            }
            (TeekoMove::Step(..), true) => {
                bad("still in the drop phase; drop on an empty cell, such as c3".into())
            }
            (TeekoMove::Drop(c), true) => {
                if empty & (1 << c) == 0 {
                    bad(format!("{} is occupied", cell_name(c)))
                } else if c == CENTRE && !self.rules.centre_first && self.black | self.red == 0 {
                    bad("the first drop may not be the centre in this game (centre=false)".into())
                } else {
                    Ok(mv)
                }
            }
            (TeekoMove::Step(f, t), false) => {
                if own & (1 << f) == 0 {
                    bad(format!(
                        "no {} marker on {}",
                        if self.side == Player::First {
                            "black"
                        } else {
                            "red"
                        },
                        cell_name(f)
                    ))
                } else if self.rules.neighbours[f as usize] & (1 << t) == 0 {
                    bad(format!("{} is not next to {}", cell_name(t), cell_name(f)))
                } else if empty & (1 << t) == 0 {
                    bad(format!("{} is occupied", cell_name(t)))
                } else {
                    Ok(mv)
                }
            }
        }
    }

    fn format_move(&self, mv: TeekoMove) -> String {
        match mv {
            TeekoMove::Drop(c) => cell_name(c),
            TeekoMove::Step(f, t) => format!("{}{}", cell_name(f), cell_name(t)),
        }
    }

    fn from_fen(&self, fen: &str) -> Result<Self, FenError> {
        let err = |s: String| Err(FenError(s));
        let parsed = grid().parse(fen)?;
        let (mut black, mut red) = (0u32, 0u32);
        // Grid cells are numbered row * 5 + col from the bottom left: this game's bit layout.
        for (i, owner) in parsed.cells.iter().enumerate() {
            match owner {
                Some(Player::First) => black |= 1 << i,
                Some(Player::Second) => red |= 1 << i,
                None => {}
            }
        }
        let side = parsed.side;
        let (nb, nr) = (black.count_ones(), red.count_ones());
        if nb > 4 || nr > 4 {
            return err(format!("{nb} black and {nr} red markers: each side has 4"));
        }
        if !(nb == nr || nb == nr + 1) {
            return err(format!(
                "{nb} black and {nr} red markers: black drops first, so black has as many as red or one more"
            ));
        }
        if nb + nr < 8 {
            let expected = if nb == nr {
                Player::First
            } else {
                Player::Second
            };
            if side != expected {
                return err(format!(
                    "in the drop phase with {nb} black and {nr} red it is {} to move",
                    if expected == Player::First { "b" } else { "r" }
                ));
            }
        }
        let pos = Teeko {
            black,
            red,
            side,
            rules: self.rules,
        };
        let name = |p: Player| if p == Player::First { "black" } else { "red" };
        if pos.has_goal(side) {
            return err(format!(
                "{} has a goal but is to move: the game ended when it was made",
                name(side)
            ));
        }
        Ok(pos)
    }

    fn fen(&self) -> String {
        grid().write(|c, r| self.owner(c + 5 * r), self.side)
    }

    fn diagram(&self) -> String {
        grid().diagram(
            |c, r| self.owner(c + 5 * r),
            |c| ((b'a' + c as u8) as char).to_string(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::play_moves;

    #[test]
    fn goal_counts() {
        assert_eq!(rules(false, true).goals.len(), 44);
        assert_eq!(rules(true, true).goals.len(), 58);
    }

    #[test]
    fn drops_steps_and_wins() {
        let p = Teeko::default();
        // Black drops a1 b1 c1, red elsewhere; black's fourth drop d1 is a row.
        let q = play_moves(&p, &["a1", "a5", "b1", "b5", "c1", "e3"]).unwrap();
        assert_eq!(q.outcome(), None);
        let won = play_moves(&q, &["d1"]).unwrap();
        assert_eq!(won.outcome(), Some(Outcome::Win(Player::First)));
        // A 2x2 square wins too.
        let sq = play_moves(&p, &["b2", "a5", "c2", "e5", "b3", "e1", "c3"]).unwrap();
        assert_eq!(sq.outcome(), Some(Outcome::Win(Player::First)));
        // Move phase.
        let mp = play_moves(&p, &["a1", "a5", "c1", "b5", "e1", "d5", "a3", "e3"]).unwrap();
        assert!(!mp.in_drop_phase());
        assert!(matches!(mp.parse_move("b2"), Err(MoveError::Illegal(_))));
        assert!(matches!(mp.parse_move("a1c3"), Err(MoveError::Illegal(_))));
        assert!(matches!(mp.parse_move("a5a4"), Err(MoveError::Illegal(_))));
        assert!(mp.parse_move("a1b2").is_ok());
        assert!(matches!(
            mp.parse_move("f1a1"),
            Err(MoveError::Malformed(_))
        ));
        // Black gathers b1 c1 d1 and brings a2 down to a1 for the row a1-d1.
        let r = play_moves(&mp, &["a1b1", "e3e2", "e1d1", "e2e1", "a3a2"]).unwrap();
        assert_eq!(r.outcome(), None);
        let w = play_moves(&r, &["a5a4", "a2a1"]).unwrap();
        assert_eq!(w.outcome(), Some(Outcome::Win(Player::First)));
    }

    #[test]
    fn centre_rule_and_fen() {
        let p = Teeko::new(&Params::parse(["centre=false"]).unwrap()).unwrap();
        assert!(matches!(p.parse_move("c3"), Err(MoveError::Illegal(_))));
        let mut m = Vec::new();
        p.legal_moves(&mut m);
        assert_eq!(m.len(), 24);
        let q = play_moves(&p, &["b2"]).unwrap();
        assert!(q.parse_move("c3").is_ok());
        let f = "...../.b.r./..b../.r.../..... b";
        assert_eq!(Teeko::default().from_fen(f).unwrap().fen(), f);
        assert_eq!(
            Teeko::default()
                .from_fen("5/1b1r1/2b2/1r3/5 b")
                .unwrap()
                .fen(),
            f
        );
        let e = |f: &str| Teeko::default().from_fen(f).unwrap_err().0;
        assert!(e("5/5/5/5/5 r").contains("b to move"));
        // Black's drop completed a row: a finished game, which reads fine.
        let done = Teeko::default().from_fen("bbbb./5/5/rrr2/5 r").unwrap();
        assert_eq!(done.outcome(), Some(Outcome::Win(Player::First)));
        assert!(e("bbbb./5/5/rrrr./5 b").contains("black has a goal"));
    }
}
