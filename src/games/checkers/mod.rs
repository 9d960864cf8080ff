//! English draughts (American checkers): 8×8, the 32 dark squares numbered 1–32 as in PDN,
//! twelve men a side, Black (p1) first. Men step and capture one square diagonally forward,
//! kings both ways; capturing is compulsory (any capture sequence may be chosen, not
//! necessarily the longest) and goes on while the capturing piece can jump again; a man
//! reaching the far row is crowned and its move ends there. A side with no legal move (no
//! pieces, or all blocked) loses.
//!
//! Draws: threefold repetition (through [`crate::game::Line`]: a man's move or a capture
//! makes every earlier position unreachable), and the no-progress rule of the American
//! Checker Federation and the World Checkers/Draughts Federation: 40 moves of each side (80
//! plies) without a man's move and without a capture. The parameter `noprogress=<moves>`
//! changes the count (`0` turns the rule off). The count is part of the position: it is
//! written as the position notation's `H` field ([`notation`]).
//!
//! The board and its move generation are in [`board`] (its doc comment draws the bit
//! layout); the notation (PDN moves and PDN FEN) in [`notation`]; the evaluation in [`eval`].

pub mod board;
pub mod eval;
pub mod notation;
pub mod weights;

use crate::game::{
    FenError, Game, MoveError, Outcome, ParamError, ParamSpec, Params, Player, SearchHints,
};
use crate::setting::Kind;
pub use board::{Board, Move};

/// The no-progress rule's count when the parameters do not give one: the ACF's 40 moves.
pub const NO_PROGRESS_MOVES: u32 = 40;
/// The largest `noprogress` accepted (moves of each side).
pub const NO_PROGRESS_MAX: u32 = 10_000;

/// A position: the board, the side to move, and the plies since the last man's move or
/// capture (the no-progress count), with the rule's limit in plies (0: no limit).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Checkers {
    board: Board,
    side: Player,
    quiet: u16,
    limit: u16,
}

impl std::fmt::Debug for Checkers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Checkers({})", self.fen())
    }
}

impl Default for Checkers {
    fn default() -> Self {
        Checkers {
            board: Board::START,
            side: Player::First,
            quiet: 0,
            limit: 2 * NO_PROGRESS_MOVES as u16,
        }
    }
}

/// One mixing round of SplitMix64: a cheap, well-spread 64-bit hash.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Checkers {
    /// A position from its parts; the caller guarantees that the board is one the game can
    /// reach (see [`notation`] for the checks `position fen` makes).
    pub fn from_parts(board: Board, side: Player, quiet: u16, limit_plies: u16) -> Checkers {
        Checkers {
            board,
            side,
            quiet,
            limit: limit_plies,
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Plies since the last man's move or capture.
    pub fn quiet_plies(&self) -> u16 {
        self.quiet
    }

    /// The no-progress rule's limit in plies (twice its moves), 0 when it is off.
    pub fn limit_plies(&self) -> u16 {
        self.limit
    }

    /// The number of pieces on the board.
    pub fn piece_count(&self) -> u32 {
        self.board.occupied().count_ones()
    }

    /// Whether the side to move has a capture, so must capture (in the searcher's words, it
    /// is "in check": no standing pat in the quiescence search).
    pub fn must_capture(&self) -> bool {
        self.board.jumpers(self.side) != 0
    }

    fn no_progress_draw(&self) -> bool {
        self.limit > 0 && self.quiet >= self.limit
    }
}

impl Game for Checkers {
    type Move = Move;
    const NAME: &'static str = "checkers";
    const PARAMS: &'static [ParamSpec] = &[ParamSpec {
        key: "noprogress",
        kind: Kind::Spin {
            default: NO_PROGRESS_MOVES as i64,
            min: 0,
            max: NO_PROGRESS_MAX as i64,
        },
        label: "No-progress moves",
        help: "Moves of each side without a man's move or a capture that draw the game (the ACF's 40); 0 turns the rule off.",
    }];
    const MOVE_IDS: usize = 32 * 32;

    fn new(params: &Params) -> Result<Self, ParamError> {
        let moves = params
            .resolve(Self::NAME, Self::PARAMS)?
            .spin_u32("noprogress");
        Ok(Checkers {
            limit: 2 * moves as u16,
            ..Checkers::default()
        })
    }

    fn params(&self) -> Params {
        Params(vec![("noprogress".into(), (self.limit / 2).to_string())])
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        if !self.no_progress_draw() {
            self.board.legal_moves(self.side, out);
        }
    }

    /// Perft counts how the pieces move; the no-progress draw is `outcome`'s (as in chess).
    fn perft_moves(&self, out: &mut Vec<Move>) {
        self.board.legal_moves(self.side, out);
    }

    fn perft_move_count(&self, scratch: &mut Vec<Move>) -> usize {
        self.board.legal_move_count(self.side, scratch)
    }

    fn play(&mut self, mv: Move) {
        let king = self.board.kings & (1 << mv.from) != 0;
        self.board = self.board.play(self.side, mv);
        self.quiet = if king && !mv.is_capture() {
            self.quiet.saturating_add(1)
        } else {
            0
        };
        self.side = self.side.other();
    }

    /// A side that cannot move has lost, even when the no-progress count ran out with the
    /// move that blocked it.
    fn outcome(&self) -> Option<Outcome> {
        if !self.board.can_move(self.side) {
            Some(Outcome::Win(self.side.other()))
        } else if self.no_progress_draw() {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    /// protocol.md's names for `outcome`'s two cases: a win is the loser left without a
    /// move, a draw the no-progress rule.
    fn ending(&self) -> Option<&'static str> {
        self.outcome().map(|o| match o {
            Outcome::Win(_) => "leaving no legal move",
            Outcome::Draw => "the no-progress rule",
        })
    }

    /// The board and the side to move, not the no-progress count: positions that differ only
    /// in the count are one position for the repetition rule.
    fn key(&self) -> u64 {
        let b = &self.board;
        mix(b.black as u64 | (b.white as u64) << 32)
            ^ mix(b.kings as u64 | (self.side as u64 + 1) << 40).rotate_left(17)
    }

    fn evaluate(&self) -> i32 {
        eval::evaluate(&self.board, self.side)
    }

    /// Each technique measured against the others at 10,000 nodes a move (docs/checkers.md,
    /// "The search's techniques"); together +89.7 ± 18.1 Elo over the three used before.
    /// Left off: null moves (−91.5; zugzwang is common in checkers), check extensions
    /// (−88.3: a forced capture extended), continuation history (−17.8) and the quiescence
    /// search's table (nothing at fixed nodes, and its probes cost time).
    const SEARCH: SearchHints = SearchHints {
        quiescence: true,
        late_move_reductions: true,
        aspiration: true,
        reverse_futility: true,
        razoring: true,
        futility: true,
        late_move_pruning: true,
        internal_reduction: true,
        singular_extension: true,
        history_malus: true,
        ..SearchHints::PLAIN
    };

    const REPETITION_DRAW: Option<u32> = Some(3);

    /// Twelve: measured against 25 in self-play at 1 s + 0.01 s, +32.5 ± 25.0 Elo
    /// (docs/checkers.md, "Time").
    const CLOCK_MOVES: u32 = 12;

    fn is_irreversible(&self, mv: Move) -> bool {
        mv.is_capture() || self.board.kings & (1 << mv.from) == 0
    }

    /// No quiet move is noisy: when a capture is on, every legal move is one, and the
    /// quiescence search takes them all ([`Checkers::must_capture`]).
    fn noisy_moves(&self, _out: &mut Vec<Move>) {}

    fn noisy_score(&self, mv: Move) -> Option<i32> {
        mv.is_capture().then(|| {
            let kings = (mv.captured & self.board.kings).count_ones() as i32;
            10 * mv.jumps as i32 + 5 * kings
        })
    }

    fn in_check(&self) -> bool {
        self.must_capture()
    }

    fn move_id(&self, mv: Move) -> usize {
        mv.from as usize * 32 + mv.to as usize
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        notation::parse_move(self, text)
    }

    fn format_move(&self, mv: Move) -> String {
        notation::format_move(mv)
    }

    fn from_fen(&self, fen: &str) -> Result<Self, FenError> {
        notation::parse_fen(fen, self.limit)
    }

    fn fen(&self) -> String {
        notation::write_fen(self)
    }

    fn diagram(&self) -> String {
        notation::diagram(&self.board)
    }
}

#[cfg(test)]
mod tests;
