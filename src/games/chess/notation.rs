//! UCI long algebraic notation: the from square, the to square, and a promotion piece in
//! lower case (`e2e4`, `g1f3`, `e7e8q`, `a2a1n`).
//!
//! Castling, which cozy-chess stores as the king taking its own rook:
//! - standard chess writes the king's step, `e1g1` / `e1c1` (`e8g8` / `e8c8`), and also reads
//!   king-takes-rook (`e1h1`, `e1a1`), which cannot mean anything else;
//! - Chess960 writes king-takes-rook, as UCI's `UCI_Chess960` mode does (`b1a1` castles with
//!   the rook on a1), and also reads the king's destination square (`g1` / `c1` files) when
//!   that is not itself a legal king step (king b1 with its rook on a1 makes `b1c1` a plain
//!   step, so only `b1a1` castles there).
//!
//! A text of the right shape naming no legal move is illegal with a reason: an empty or
//! foreign from square, a missing or needless promotion, a piece that cannot go there, a
//! king left in check, a castling that is not allowed now.

use cozy_chess::{
    Board, Color, File, Move, Piece, Rank, Square, get_bishop_moves, get_king_moves,
    get_knight_moves, get_pawn_attacks, get_pawn_quiets, get_rook_moves,
};

use super::Chess;
use crate::game::{Game, MoveError};

/// Writes `mv` (legal in `pos`).
pub fn format_move(pos: &Chess, mv: Move) -> String {
    match pos.castling_king_destination(mv) {
        Some(dest) if !pos.chess960 => format!("{}{dest}", mv.from),
        _ => mv.to_string(),
    }
}

/// Reads `text` as a legal move of `pos`.
pub fn parse_move(pos: &Chess, text: &str) -> Result<Move, MoveError> {
    let Some(mv) = syntax(text) else {
        let hint = if text == "0000" {
            " (null moves are not played)"
        } else {
            ""
        };
        return Err(MoveError::Malformed(format!(
            "'{text}' is not a move in long algebraic notation such as e2e4 or e7e8q{hint}"
        )));
    };
    if let Some(o) = pos.outcome() {
        return Err(MoveError::Illegal(format!(
            "{text}: the game is over ({})",
            o.protocol_name()
        )));
    }
    let mv = resolve_castling(pos, mv);
    if pos.board.is_legal(mv) {
        Ok(mv)
    } else {
        Err(MoveError::Illegal(format!(
            "{text}: {}",
            why_illegal(pos, mv)
        )))
    }
}

/// `[a-h][1-8][a-h][1-8]` and an optional promotion `q`, `r`, `b` or `n`.
fn syntax(text: &str) -> Option<Move> {
    let b = text.as_bytes();
    let square = |f: u8, r: u8| -> Option<Square> {
        ((b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r)).then(|| {
            Square::new(
                File::index((f - b'a') as usize),
                Rank::index((r - b'1') as usize),
            )
        })
    };
    let promotion = match b.get(4) {
        None => None,
        Some(b'q') => Some(Piece::Queen),
        Some(b'r') => Some(Piece::Rook),
        Some(b'b') => Some(Piece::Bishop),
        Some(b'n') => Some(Piece::Knight),
        Some(_) => return None,
    };
    if !(4..=5).contains(&b.len()) {
        return None;
    }
    Some(Move {
        from: square(b[0], b[1])?,
        to: square(b[2], b[3])?,
        promotion,
    })
}

/// The castling rights of the side to move that land its king on `to`: the rook's square.
fn castling_rook_for_destination(board: &Board, to: Square) -> Option<Square> {
    let us = board.side_to_move();
    let back = Rank::First.relative_to(us);
    if to.rank() != back {
        return None;
    }
    let rights = board.castle_rights(us);
    match to.file() {
        File::G => rights.short,
        File::C => rights.long,
        _ => None,
    }
    .map(|f| Square::new(f, back))
}

/// Turns the king's-destination form of castling into cozy-chess's king-takes-rook, where
/// the notation allows it (see the module doc); any other move is returned unchanged.
fn resolve_castling(pos: &Chess, mv: Move) -> Move {
    let b = &pos.board;
    let us = b.side_to_move();
    let king = b.king(us);
    if mv.from != king || mv.promotion.is_some() || b.colors(us).has(mv.to) {
        return mv;
    }
    let Some(rook) = castling_rook_for_destination(b, mv.to) else {
        return mv;
    };
    let castle = Move {
        from: king,
        to: rook,
        promotion: None,
    };
    if !pos.chess960 {
        // Standard chess: the king stands on e1/e8 and g/c are two files away, never a step.
        castle
    } else if !b.is_legal(mv) && b.is_legal(castle) {
        castle
    } else {
        mv
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

pub(super) fn piece_name(p: Piece) -> &'static str {
    match p {
        Piece::Pawn => "pawn",
        Piece::Knight => "knight",
        Piece::Bishop => "bishop",
        Piece::Rook => "rook",
        Piece::Queen => "queen",
        Piece::King => "king",
    }
}

/// Why `mv`, of the right shape, is not legal in `pos` (whose game is not over).
fn why_illegal(pos: &Chess, mv: Move) -> String {
    let b = &pos.board;
    let us = b.side_to_move();
    let (Some(piece), Some(color)) = (b.piece_on(mv.from), b.color_on(mv.from)) else {
        return format!("no piece on {}", mv.from);
    };
    if color != us {
        return format!(
            "{} holds a {} {}, and it is {} to move",
            mv.from,
            color_name(color),
            piece_name(piece),
            color_name(us)
        );
    }
    if mv.from == mv.to {
        return "a piece must leave its square".into();
    }
    let last_rank = Rank::Eighth.relative_to(us);
    let promotes = piece == Piece::Pawn && mv.to.rank() == last_rank;
    if mv.promotion.is_some() && !promotes {
        return "only a pawn reaching the last rank promotes".into();
    }
    if promotes && mv.promotion.is_none() {
        return format!("a pawn reaching the last rank promotes: add q, r, b or n, as in {mv}q");
    }
    if piece == Piece::King && is_castling_attempt(pos, mv) {
        return why_no_castling(pos, mv);
    }
    if let (Some(p), Some(c)) = (b.piece_on(mv.to), b.color_on(mv.to))
        && c == us
    {
        return format!("{} holds a {} {}", mv.to, color_name(c), piece_name(p));
    }
    if !reaches(b, piece, mv.from, mv.to) {
        return format!(
            "a {} on {} cannot move to {}",
            piece_name(piece),
            mv.from,
            mv.to
        );
    }
    if piece == Piece::King {
        format!("the king would be in check on {}", mv.to)
    } else if pos.in_check() {
        format!(
            "the {} king is in check, and this does not end it",
            color_name(us)
        )
    } else {
        format!("it would leave the {} king in check", color_name(us))
    }
}

/// Whether the squares a piece could move to from `from`, ignoring checks and pins, include
/// `to` (the square is empty or holds an opposing piece; en passant counts).
fn reaches(b: &Board, piece: Piece, from: Square, to: Square) -> bool {
    let us = b.side_to_move();
    let occupied = b.occupied();
    let targets = match piece {
        Piece::Pawn => {
            let ep = b
                .en_passant()
                .map(|f| Square::new(f, Rank::Sixth.relative_to(us)));
            let mut captures = get_pawn_attacks(from, us) & b.colors(!us);
            if let Some(ep) = ep {
                captures |= get_pawn_attacks(from, us) & ep.bitboard();
            }
            get_pawn_quiets(from, us, occupied) | captures
        }
        Piece::Knight => get_knight_moves(from),
        Piece::Bishop => get_bishop_moves(from, occupied),
        Piece::Rook => get_rook_moves(from, occupied),
        Piece::Queen => get_bishop_moves(from, occupied) | get_rook_moves(from, occupied),
        Piece::King => get_king_moves(from),
    };
    (targets & !b.colors(us)).has(to)
}

/// A king move meant as castling: onto its own rook, or (standard chess) the two-square step
/// from e1/e8 to the g- or c-file.
fn is_castling_attempt(pos: &Chess, mv: Move) -> bool {
    let b = &pos.board;
    let us = b.side_to_move();
    if b.colored_pieces(us, Piece::Rook).has(mv.to) {
        return true;
    }
    let back = Rank::First.relative_to(us);
    !pos.chess960
        && mv.from == Square::new(File::E, back)
        && (mv.to == Square::new(File::G, back) || mv.to == Square::new(File::C, back))
}

fn why_no_castling(pos: &Chess, mv: Move) -> String {
    let b = &pos.board;
    let us = b.side_to_move();
    let name = color_name(us);
    let rights = b.castle_rights(us);
    let short = mv.to.file() > mv.from.file();
    let right = if short { rights.short } else { rights.long };
    let side = if short { "king's" } else { "queen's" };
    let rook_file = match right {
        Some(f) if !b.colored_pieces(us, Piece::Rook).has(mv.to) || f == mv.to.file() => f,
        _ => {
            return format!("{name} may no longer castle on the {side} side");
        }
    };
    if pos.in_check() {
        return "castling is not allowed while the king is in check".into();
    }
    let back = Rank::First.relative_to(us);
    let king = mv.from;
    let rook = Square::new(rook_file, back);
    let (king_to, rook_to) = if short {
        (Square::new(File::G, back), Square::new(File::F, back))
    } else {
        (Square::new(File::C, back), Square::new(File::D, back))
    };
    let path = cozy_chess::get_between_rays(king, king_to)
        | king_to.bitboard()
        | cozy_chess::get_between_rays(king, rook)
        | rook_to.bitboard();
    let blockers = b.occupied() & !king.bitboard() & !rook.bitboard();
    if !(path & blockers).is_empty() {
        return format!(
            "castling on the {side} side needs the squares between king and rook and their destinations empty"
        );
    }
    "the king would pass through or land on an attacked square".into()
}
