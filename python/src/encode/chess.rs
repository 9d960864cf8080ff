//! Chess as `chess_v6` (PettingZoo's encoding, after AlphaZero and Leela Chess Zero).
//!
//! Actions: `(file * 8 + rank) * 73 + plane` for the square a piece leaves, seen from the side
//! to move (Black's moves are mirrored top to bottom first); planes 0..56 are queen-like moves
//! (`distance - 1) * 8 + direction`, directions ordered by (file step, rank step) from (-1, -1)
//! to (1, 1)), 56..64 knight moves ordered the same way, 64..73 under-promotions
//! (`3 * (file step + 1) + {knight 0, bishop 1, rook 2}`); a queen promotion is a queen-like
//! move, castling the king's two-square step.
//!
//! Observation (8, 8, 111): row 0 is rank 8 as the viewer sees the board (Black's view is
//! mirrored). Planes 0..4: castling rights (mine short, mine long, theirs short, theirs long),
//! 4: the viewer is Black, 5: a single square, number `halfmove clock / 2`, 6: all ones.
//! Then eight frames of 13 planes, newest first, one per move played (none before the first
//! move, as in chess_v6): the viewer's pieces (P N B R Q K), the opponent's, and "this
//! position occurred before"; a pawn that just made a double step is shown on its first rank
//! (Leela Chess Zero's en passant mark).
//!
//! The game ends as chess_v6 ends it: mate, stalemate, insufficient material, or a draw that
//! could be claimed (the fifty-move rule or threefold repetition, now or by one more move),
//! so the same action sequences end in the same place.

use cozy_chess::{Board, Color, File, Move, Piece, Square};
use ply::game::{Game, Line, Outcome, Player};
use ply::games::Chess;

use super::{Encoded, Extra};

/// Frames kept for the observation.
const FRAMES: usize = 8;

/// One position from White's side: White's six piece sets, Black's, and a repetition flag
/// (all ones or zero), squares numbered `rank * 8 + file` from a1.
type Frame = [u64; 13];

/// The positions after each move, newest first (at most [`FRAMES`]).
#[derive(Clone, Default)]
pub struct History {
    frames: Vec<Frame>,
}

impl Extra<Chess> for History {
    fn after_play(&mut self, line: &Line<Chess>) {
        self.frames.insert(0, frame(line));
        self.frames.truncate(FRAMES);
    }
}

fn frame(line: &Line<Chess>) -> Frame {
    let b = line.pos().board();
    let mut f = [0u64; 13];
    for (side, color) in [Color::White, Color::Black].into_iter().enumerate() {
        for (k, piece) in Piece::ALL.into_iter().enumerate() {
            f[side * 6 + k] = b.colored_pieces(color, piece).0;
        }
    }
    if let Some(file) = b.en_passant() {
        // The pawn that just made its double step is shown on its own first rank.
        let f_ = file as u32;
        if b.side_to_move() == Color::Black {
            f[0] = (f[0] & !(1u64 << (24 + f_))) | (1u64 << f_);
        } else {
            f[6] = (f[6] & !(1u64 << (32 + f_))) | (1u64 << (56 + f_));
        }
    }
    if line.occurrences() >= 2 {
        f[12] = u64::MAX;
    }
    f
}

/// (file, rank) of a square, mirrored top to bottom for Black.
fn coords(sq: Square, black: bool) -> (i32, i32) {
    let (file, rank) = (sq.file() as i32, sq.rank() as i32);
    (file, if black { 7 - rank } else { rank })
}

/// The index of (dx, dy) among the steps of `steps`, ordered by dx then dy.
fn direction(dx: i32, dy: i32, steps: &[(i32, i32)]) -> usize {
    steps
        .iter()
        .position(|&s| s == (dx, dy))
        .expect("a step of the list")
}

const QUEEN_STEPS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];
const KNIGHT_STEPS: [(i32, i32); 8] = [
    (-2, -1),
    (-2, 1),
    (-1, -2),
    (-1, 2),
    (1, -2),
    (1, 2),
    (2, -1),
    (2, 1),
];

/// The king's destination of a castling move, which cozy-chess writes as the king taking
/// its own rook; other moves unchanged.
fn king_step(b: &Board, mv: Move) -> Square {
    let own = b.colors(b.side_to_move());
    if b.piece_on(mv.from) == Some(Piece::King) && own.has(mv.to) {
        let file = if mv.to.file() > mv.from.file() {
            File::G
        } else {
            File::C
        };
        Square::new(file, mv.from.rank())
    } else {
        mv.to
    }
}

fn action(b: &Board, mv: Move) -> usize {
    let black = b.side_to_move() == Color::Black;
    let (fx, fy) = coords(mv.from, black);
    let (tx, ty) = coords(king_step(b, mv), black);
    let (dx, dy) = (tx - fx, ty - fy);
    let plane = if dx.abs() + dy.abs() == 3 && (1..=2).contains(&dx.abs()) {
        56 + direction(dx, dy, &KNIGHT_STEPS)
    } else if let Some(p @ (Piece::Knight | Piece::Bishop | Piece::Rook)) = mv.promotion {
        let kind = match p {
            Piece::Knight => 0,
            Piece::Bishop => 1,
            _ => 2,
        };
        64 + 3 * (dx + 1) as usize + kind
    } else {
        let distance = dx.abs().max(dy.abs()) as usize;
        (distance - 1) * 8 + direction(dx.signum(), dy.signum(), &QUEEN_STEPS)
    };
    (fx as usize * 8 + fy as usize) * 73 + plane
}

/// Sets plane `plane` at every square of `bits` (numbered from a1), rows from the top as the
/// viewer sees the board.
fn put(out: &mut [u8], plane: usize, bits: u64, black: bool) {
    super::for_bits(bits, |sq| {
        let (file, rank) = ((sq % 8) as usize, (sq / 8) as usize);
        let row = if black { rank } else { 7 - rank };
        out[(row * 8 + file) * 111 + plane] = 1;
    });
}

/// python-chess's `can_claim_draw`: the fifty-move rule (now, or after one more quiet move)
/// or threefold repetition (now, or after one more move).
fn claimable(line: &Line<Chess>) -> bool {
    let pos = line.pos();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let clock = pos.halfmove_clock();
    if clock >= 100 || (clock == 99 && moves.iter().any(|&m| !pos.is_irreversible(m))) {
        return true;
    }
    if line.occurrences() >= 3 {
        return true;
    }
    let seen = |key: u64| {
        line.earlier().iter().filter(|&&k| k == key).count() + (pos.key() == key) as usize
    };
    if !line.earlier().iter().any(|&k| seen(k) >= 2) {
        return false;
    }
    moves.iter().any(|&m| {
        let mut child = pos.clone();
        child.play(m);
        seen(child.key()) >= 2
    })
}

impl Encoded for Chess {
    type Extra = History;

    fn num_actions(&self) -> usize {
        8 * 8 * 73
    }

    fn action_of(&self, mv: Move) -> usize {
        action(self.board(), mv)
    }

    fn obs_shape(&self) -> Vec<usize> {
        vec![8, 8, 111]
    }

    fn write_obs(&self, line: &Line<Self>, history: &History, viewer: Player, out: &mut [u8]) {
        let b = line.pos().board();
        let black = viewer == Player::Second;
        let (me, them) = if black {
            (Color::Black, Color::White)
        } else {
            (Color::White, Color::Black)
        };
        let rights = [
            b.castle_rights(me).short,
            b.castle_rights(me).long,
            b.castle_rights(them).short,
            b.castle_rights(them).long,
        ];
        for (plane, right) in rights.into_iter().enumerate() {
            if right.is_some() {
                put(out, plane, u64::MAX, black);
            }
        }
        if black {
            put(out, 4, u64::MAX, black);
        }
        // chess_v6 sets square number `clock / 2` on the board it numbers for the viewer.
        let clock_square = (line.pos().halfmove_clock() / 2).min(63);
        let (file, rank) = (clock_square % 8, clock_square / 8);
        let row = if black { rank } else { 7 - rank };
        out[((row * 8 + file) * 111 + 5) as usize] = 1;
        put(out, 6, u64::MAX, black);
        for (k, f) in history.frames.iter().enumerate() {
            let base = 7 + 13 * k;
            let (mine, theirs) = if black { (6, 0) } else { (0, 6) };
            for p in 0..6 {
                put(out, base + p, f[mine + p], black);
                put(out, base + 6 + p, f[theirs + p], black);
            }
            put(out, base + 12, f[12], black);
        }
    }

    /// python-chess's legal moves, also where ply's rules have drawn the game (chess_v6
    /// shows them once it has ended by insufficient material or a claimed draw).
    fn write_mask(&self, out: &mut [u8]) {
        let b = self.board();
        b.generate_moves(|moves| {
            for mv in moves {
                out[action(b, mv)] = 1;
            }
            false
        });
    }

    fn env_outcome(line: &Line<Self>, _: &History) -> Option<Outcome> {
        let pos = line.pos();
        let b = pos.board();
        if !b.generate_moves(|_| true) {
            return Some(if b.checkers().is_empty() {
                Outcome::Draw
            } else {
                Outcome::Win(pos.side_to_move().other())
            });
        }
        (pos.insufficient_material() || claimable(line)).then_some(Outcome::Draw)
    }
}
