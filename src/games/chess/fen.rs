//! Forsyth–Edwards Notation: reading with precise errors, writing as X-FEN.
//!
//! Six fields separated by blanks: piece placement (ranks 8 to 1, separated by `/`; `PNBRQK`
//! White, `pnbrqk` Black, a digit for that many empty squares), side to move (`w`, `b`),
//! castling rights, en passant square, halfmove clock, fullmove number. The last two may be
//! left out (EPD style: they read as `0 1`); a halfmove clock above 100 reads as 100 (the
//! fifty-move rule has ended the game either way) and a fullmove number 0 as 1.
//!
//! Castling rights: `-`, or letters: `K`/`Q` (`k`/`q` for Black) name the outermost rook on
//! the king's side / the queen's side of its king on the first rank (X-FEN); a file letter
//! `A`–`H` (`a`–`h`) names the castling rook by its file (Shredder-FEN), as Chess960 needs
//! when the outermost rook is not the castling one. Standard chess accepts only a king on
//! its e-file square with rooks on the a- and h-files. Written back: `KQkq` for outermost
//! rooks (every standard position), a file letter otherwise.
//!
//! The en passant square is written after every double step, whether or not a capture is
//! possible (the original FEN standard, as cozy-chess keeps it).

use cozy_chess::{
    BitBoard, Board, Color, File, Piece, Rank, Square, get_bishop_moves, get_king_moves,
    get_knight_moves, get_pawn_attacks, get_rook_moves,
};

use crate::game::FenError;

/// Pieces by square, a1 = 0 .. h8 = 63, as read from the placement field.
type Squares = [Option<(Piece, Color)>; 64];

fn err<T>(s: impl Into<String>) -> Result<T, FenError> {
    Err(FenError(s.into()))
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// Reads a FEN under the rules of standard chess or, with `chess960`, Fischer random chess.
pub fn parse(text: &str, chess960: bool) -> Result<Board, FenError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if !(4..=6).contains(&fields.len()) {
        return err(format!(
            "expected 6 fields (placement, side to move, castling, en passant, halfmove clock, fullmove number), got {}",
            fields.len()
        ));
    }
    let squares = parse_placement(fields[0])?;
    check_material(&squares)?;
    let side = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        s => return err(format!("side to move '{s}' must be w or b")),
    };
    if attacked(&squares, king_square(&squares, !side), side) {
        return err(format!(
            "the {} king is in check, but it is {} to move",
            color_name(!side),
            color_name(side)
        ));
    }
    check_double_check(&squares, side)?;
    let castling = parse_castling(fields[2], &squares, chess960)?;
    let en_passant = parse_en_passant(fields[3], &squares, side)?;
    let halfmove = match fields.get(4) {
        None => 0,
        Some(s) => match s.parse::<u32>() {
            Ok(n) => n.min(100),
            Err(_) => return err(format!("halfmove clock '{s}' is not a number of plies")),
        },
    };
    let fullmove = match fields.get(5) {
        None => 1,
        Some(s) => match s.parse::<u16>() {
            Ok(n) => n.max(1),
            Err(_) => {
                return err(format!(
                    "fullmove number '{s}' must be an integer from 1 to 65535"
                ));
            }
        },
    };
    let shredder = format!(
        "{} {} {castling} {en_passant} {halfmove} {fullmove}",
        fields[0], fields[1]
    );
    Board::from_fen(&shredder, true).map_err(|e| match e {
        cozy_chess::FenParseError::InvalidBoard => {
            let checkers = attackers(&squares, king_square(&squares, side), !side).len();
            if checkers > 2 {
                FenError(format!(
                    "the {} king is in check from {checkers} pieces; no move gives more than two checks",
                    color_name(side)
                ))
            } else {
                FenError("the position is not one chess can reach".into())
            }
        }
        cozy_chess::FenParseError::InvalidEnPassant => FenError(format!(
            "en passant square {}: the check on the {} king cannot come from that double step",
            fields[3],
            color_name(side)
        )),
        other => FenError(format!("{other}")),
    })
}

fn parse_placement(text: &str) -> Result<Squares, FenError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return err(format!(
            "expected 8 ranks separated by '/', got {}",
            ranks.len()
        ));
    }
    let mut squares: Squares = [None; 64];
    for (i, row) in ranks.iter().enumerate() {
        let rank = 7 - i;
        let mut file = 0usize;
        for ch in row.chars() {
            if let Some(d @ 1..=8) = ch.to_digit(10) {
                file += d as usize;
            } else {
                let piece = match ch.to_ascii_lowercase() {
                    'p' => Piece::Pawn,
                    'n' => Piece::Knight,
                    'b' => Piece::Bishop,
                    'r' => Piece::Rook,
                    'q' => Piece::Queen,
                    'k' => Piece::King,
                    _ => {
                        return err(format!(
                            "rank {} has '{ch}'; squares are PNBRQK (white), pnbrqk (black) or a digit 1-8 for empty squares",
                            rank + 1
                        ));
                    }
                };
                let color = if ch.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                if file < 8 {
                    squares[rank * 8 + file] = Some((piece, color));
                }
                file += 1;
            }
            if file > 8 {
                return err(format!("rank {} '{row}' has more than 8 squares", rank + 1));
            }
        }
        if file != 8 {
            return err(format!(
                "rank {} '{row}' has {file} squares, not 8",
                rank + 1
            ));
        }
    }
    Ok(squares)
}

fn bitboard_of(squares: &Squares, want: impl Fn(Piece, Color) -> bool) -> BitBoard {
    squares
        .iter()
        .enumerate()
        .filter(|(_, s)| s.is_some_and(|(p, c)| want(p, c)))
        .map(|(i, _)| Square::index(i))
        .collect()
}

fn check_material(squares: &Squares) -> Result<(), FenError> {
    for color in Color::ALL {
        let name = color_name(color);
        let kings = bitboard_of(squares, |p, c| p == Piece::King && c == color).len();
        if kings != 1 {
            return err(format!(
                "{name} has {kings} kings; each side has exactly one"
            ));
        }
        let pawns = bitboard_of(squares, |p, c| p == Piece::Pawn && c == color);
        let back = Rank::First.bitboard() | Rank::Eighth.bitboard();
        if let Some(sq) = (pawns & back).next_square() {
            return err(format!(
                "a {name} pawn on {sq}: pawns never stand on the first or last rank"
            ));
        }
        if pawns.len() > 8 {
            return err(format!("{name} has {} pawns; at most 8", pawns.len()));
        }
        let all = bitboard_of(squares, |_, c| c == color).len();
        if all > 16 {
            return err(format!("{name} has {all} pieces; at most 16"));
        }
    }
    Ok(())
}

fn king_square(squares: &Squares, color: Color) -> Square {
    bitboard_of(squares, |p, c| p == Piece::King && c == color)
        .next_square()
        .expect("check_material found one king per side")
}

/// Refuses a double check that no move gives: one of two checks is always discovered, and
/// only a bishop, rook or queen can be discovered, so two knights, two pawns or a knight
/// and a pawn never give check together.
fn check_double_check(squares: &Squares, side: Color) -> Result<(), FenError> {
    let checkers = attackers(squares, king_square(squares, side), !side);
    let mut pieces: Vec<Piece> = checkers
        .into_iter()
        .filter_map(|sq| squares[sq as usize].map(|(p, _)| p))
        .collect();
    // Named in a fixed order, the knight before the pawn.
    pieces.sort_by_key(|&p| std::cmp::Reverse(p as usize));
    let discoverable = |p: &Piece| matches!(p, Piece::Bishop | Piece::Rook | Piece::Queen);
    if let [a, b] = pieces[..]
        && !pieces.iter().any(discoverable)
    {
        let (a, b) = (
            super::notation::piece_name(a),
            super::notation::piece_name(b),
        );
        let from = if a == b {
            format!("two {a}s")
        } else {
            format!("a {a} and a {b}")
        };
        return err(format!(
            "the {} king is in check from {from}; of two checks one is discovered, by a bishop, rook or queen",
            color_name(side)
        ));
    }
    Ok(())
}

/// The pieces of `by` that attack `target`.
fn attackers(squares: &Squares, target: Square, by: Color) -> BitBoard {
    let occupied = bitboard_of(squares, |_, _| true);
    let of = |piece: Piece| bitboard_of(squares, |p, c| p == piece && c == by);
    let diagonal = of(Piece::Bishop) | of(Piece::Queen);
    let straight = of(Piece::Rook) | of(Piece::Queen);
    (get_pawn_attacks(target, !by) & of(Piece::Pawn))
        | (get_knight_moves(target) & of(Piece::Knight))
        | (get_bishop_moves(target, occupied) & diagonal)
        | (get_rook_moves(target, occupied) & straight)
        | (get_king_moves(target) & of(Piece::King))
}

fn attacked(squares: &Squares, target: Square, by: Color) -> bool {
    !attackers(squares, target, by).is_empty()
}

/// Reads the castling field into Shredder-FEN letters (the castling rooks' files), checking
/// each right against the placement.
fn parse_castling(field: &str, squares: &Squares, chess960: bool) -> Result<String, FenError> {
    if field == "-" {
        return Ok("-".into());
    }
    let mut seen: Vec<(Color, bool)> = Vec::new();
    let mut out = String::new();
    for ch in field.chars() {
        let color = if ch.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let name = color_name(color);
        let back = Rank::First.relative_to(color);
        let king = king_square(squares, color);
        if king.rank() != back {
            return err(format!(
                "castling right '{ch}': the {name} king is not on its first rank"
            ));
        }
        let rook_on =
            |f: File| squares[Square::new(f, back) as usize] == Some((Piece::Rook, color));
        let rook = match ch.to_ascii_lowercase() {
            'k' => File::ALL
                .into_iter()
                .rev()
                .find(|&f| f > king.file() && rook_on(f)),
            'q' => File::ALL
                .into_iter()
                .find(|&f| f < king.file() && rook_on(f)),
            c @ 'a'..='h' => {
                let f = File::index((c as u8 - b'a') as usize);
                if !rook_on(f) {
                    return err(format!(
                        "castling right '{ch}': no {name} rook on {}",
                        Square::new(f, back)
                    ));
                }
                Some(f)
            }
            _ => {
                return err(format!(
                    "castling '{field}' has '{ch}'; castling rights are -, or K, Q, k, q, or the castling rooks' files A-H, a-h"
                ));
            }
        };
        let Some(rook) = rook else {
            let side = if ch.eq_ignore_ascii_case(&'k') {
                "king's"
            } else {
                "queen's"
            };
            return err(format!(
                "castling right '{ch}': no {name} rook on the {side} side of the king on its first rank"
            ));
        };
        let short = rook > king.file();
        if !chess960 && (king.file() != File::E || rook != if short { File::H } else { File::A }) {
            return err(format!(
                "castling right '{ch}': standard chess castles with the king on e1/e8 and rooks on the a- and h-files (newgame chess chess960=true for Chess960)"
            ));
        }
        if seen.contains(&(color, short)) {
            return err(format!("castling '{field}' gives a right twice"));
        }
        seen.push((color, short));
        let letter = char::from(rook);
        out.push(if color == Color::White {
            letter.to_ascii_uppercase()
        } else {
            letter
        });
    }
    Ok(out)
}

fn parse_en_passant(field: &str, squares: &Squares, side: Color) -> Result<String, FenError> {
    if field == "-" {
        return Ok("-".into());
    }
    let Ok(sq) = field.parse::<Square>() else {
        return err(format!(
            "en passant '{field}' is not a square such as e3, or -"
        ));
    };
    let rank = Rank::Sixth.relative_to(side);
    if sq.rank() != rank {
        return err(format!(
            "en passant square {sq}: with {} to move it must be on rank {}",
            color_name(side),
            rank as usize + 1
        ));
    }
    let them = !side;
    let pawn = Square::new(sq.file(), Rank::Fourth.relative_to(them));
    if squares[pawn as usize] != Some((Piece::Pawn, them)) {
        return err(format!(
            "en passant square {sq}: no {} pawn on {pawn} that could have just moved two squares",
            color_name(them)
        ));
    }
    let origin = Square::new(sq.file(), Rank::Second.relative_to(them));
    if squares[sq as usize].is_some() || squares[origin as usize].is_some() {
        return err(format!(
            "en passant square {sq}: {sq} and {origin} must be empty after a double step"
        ));
    }
    Ok(field.to_string())
}

/// Writes `board` as FEN, its castling rights in X-FEN (`KQkq`, or a rook's file when it is
/// not the outermost rook on its side). In standard chess every right is `KQkq`.
pub fn write(board: &Board, chess960: bool) -> String {
    let mut s = String::new();
    for rank in Rank::ALL.iter().rev() {
        let mut empty = 0;
        for file in File::ALL {
            let sq = Square::new(file, *rank);
            match (board.piece_on(sq), board.color_on(sq)) {
                (Some(p), Some(c)) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    let ch = char::from(p);
                    s.push(if c == Color::White {
                        ch.to_ascii_uppercase()
                    } else {
                        ch
                    });
                }
                _ => empty += 1,
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if *rank != Rank::First {
            s.push('/');
        }
    }
    s.push(' ');
    s.push(if board.side_to_move() == Color::White {
        'w'
    } else {
        'b'
    });
    s.push(' ');
    let castling = castling_field(board, chess960);
    s.push_str(if castling.is_empty() { "-" } else { &castling });
    match board.en_passant() {
        Some(f) => {
            let sq = Square::new(f, Rank::Sixth.relative_to(board.side_to_move()));
            s.push_str(&format!(" {sq}"));
        }
        None => s.push_str(" -"),
    }
    s.push_str(&format!(
        " {} {}",
        board.halfmove_clock(),
        board.fullmove_number()
    ));
    s
}

fn castling_field(board: &Board, chess960: bool) -> String {
    let mut s = String::new();
    for color in Color::ALL {
        let rights = board.castle_rights(color);
        let back = Rank::First.relative_to(color);
        let rooks = board.colored_pieces(color, Piece::Rook) & back.bitboard();
        let king = board.king(color).file();
        for (rook, short) in [(rights.short, true), (rights.long, false)] {
            let Some(rook) = rook else { continue };
            let outermost = rooks.into_iter().all(|sq| {
                let f = sq.file();
                if short {
                    f <= king || f <= rook
                } else {
                    f >= king || f >= rook
                }
            });
            let letter = if !chess960 || outermost {
                if short { 'k' } else { 'q' }
            } else {
                char::from(rook)
            };
            s.push(if color == Color::White {
                letter.to_ascii_uppercase()
            } else {
                letter
            });
        }
    }
    s
}
