//! Standard Algebraic Notation (SAN), the notation of PGN files: `e4`, `Nf3`, `exd5`,
//! `Raxd1`, `N1c3`, `Qh4e1`, `e8=Q+`, `O-O`, `O-O-O#`.
//!
//! Writing: the piece letter (none for a pawn; a capturing pawn gives its file), the fewest
//! of the from square's file, rank or both that tell the move from another of the same piece
//! type to the same square, `x` for a capture (en passant included), the destination, `=`
//! and the promotion piece, then `+` for check or `#` for mate. Castling is `O-O` (towards
//! the h-file) or `O-O-O`, in Chess960 too.
//!
//! Reading compares the text with the SAN of every legal move after normalising both, so it
//! accepts exactly what some legal move writes, with these liberties: `+`, `#`, `!` and `?`
//! are ignored, castling may be written with zeros (`0-0`), a promotion without `=`
//! (`e8Q`), and a disambiguation that is not needed (`Ngf3`) is accepted when it is true.

use cozy_chess::{File, Move, Piece};

use super::Chess;
use crate::game::{Game, MoveError};

/// The SAN of `mv`, legal in `pos`.
pub fn format_san(pos: &Chess, mv: Move) -> String {
    let mut san = body(pos, mv, Disambiguation::Minimal);
    san.push_str(check_suffix(pos, mv));
    san
}

/// Reads `text` as the SAN of a legal move of `pos`.
pub fn parse_san(pos: &Chess, text: &str) -> Result<Move, MoveError> {
    let want = normalise(text);
    if want.is_empty() {
        return Err(MoveError::Malformed(format!(
            "'{text}' is not a move in SAN"
        )));
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let fits = |mv: &Move, d| normalise(&body(pos, *mv, d)) == want;
    // The minimal form first: with it a move is one of a kind. A fuller disambiguation than
    // needed is read only when exactly one move writes it.
    if let Some(&mv) = moves.iter().find(|mv| fits(mv, Disambiguation::Minimal)) {
        return Ok(mv);
    }
    let fuller: Vec<Move> = [
        Disambiguation::File,
        Disambiguation::Rank,
        Disambiguation::Both,
    ]
    .into_iter()
    .flat_map(|d| moves.iter().copied().filter(move |mv| fits(mv, d)))
    .collect();
    match fuller.as_slice() {
        [mv, rest @ ..] if rest.iter().all(|m| m == mv) => Ok(*mv),
        [] => Err(MoveError::Illegal(format!(
            "'{text}' is no legal move here"
        ))),
        _ => Err(MoveError::Illegal(format!("'{text}' is ambiguous here"))),
    }
}

/// How much of the from square a piece move names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Disambiguation {
    /// As little as tells it from the other moves (standard SAN).
    Minimal,
    File,
    Rank,
    Both,
}

/// The SAN of `mv` without its check suffix.
fn body(pos: &Chess, mv: Move, d: Disambiguation) -> String {
    if let Some(dest) = pos.castling_king_destination(mv) {
        return if dest.file() == File::G {
            "O-O"
        } else {
            "O-O-O"
        }
        .to_string();
    }
    let board = pos.board();
    let piece = board.piece_on(mv.from).expect("a legal move moves a piece");
    let capture = pos.is_capture(mv);
    let mut s = String::new();
    if piece == Piece::Pawn {
        if capture {
            s.push_str(&mv.from.file().to_string());
        }
    } else {
        s.push(piece_letter(piece));
        let d = match d {
            Disambiguation::Minimal => minimal_disambiguation(pos, mv, piece),
            other => other,
        };
        if matches!(d, Disambiguation::File | Disambiguation::Both) {
            s.push_str(&mv.from.file().to_string());
        }
        if matches!(d, Disambiguation::Rank | Disambiguation::Both) {
            s.push_str(&mv.from.rank().to_string());
        }
    }
    if capture {
        s.push('x');
    }
    s.push_str(&mv.to.to_string());
    if let Some(p) = mv.promotion {
        s.push('=');
        s.push(piece_letter(p));
    }
    s
}

/// The least that tells `mv` from the other legal moves of a `piece` to the same square:
/// nothing, else the file when it differs from all of theirs, else the rank, else both.
fn minimal_disambiguation(pos: &Chess, mv: Move, piece: Piece) -> Disambiguation {
    let board = pos.board();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let others: Vec<Move> = moves
        .into_iter()
        .filter(|m| {
            m.to == mv.to
                && m.from != mv.from
                && board.piece_on(m.from) == Some(piece)
                && pos.castling_king_destination(*m).is_none()
        })
        .collect();
    if others.is_empty() {
        Disambiguation::Minimal
    } else if others.iter().all(|m| m.from.file() != mv.from.file()) {
        Disambiguation::File
    } else if others.iter().all(|m| m.from.rank() != mv.from.rank()) {
        Disambiguation::Rank
    } else {
        Disambiguation::Both
    }
}

/// `#` when `mv` mates, `+` when it checks, else nothing.
fn check_suffix(pos: &Chess, mv: Move) -> &'static str {
    let mut after = pos.clone();
    after.play(mv);
    if !after.in_check() {
        return "";
    }
    let mut replies = Vec::new();
    after.legal_moves(&mut replies);
    if replies.is_empty() { "#" } else { "+" }
}

fn piece_letter(p: Piece) -> char {
    match p {
        Piece::Pawn => 'P',
        Piece::Knight => 'N',
        Piece::Bishop => 'B',
        Piece::Rook => 'R',
        Piece::Queen => 'Q',
        Piece::King => 'K',
    }
}

/// SAN without annotations, with castling in letters and promotions with `=`.
fn normalise(text: &str) -> String {
    let t: String = text
        .trim()
        .chars()
        .filter(|c| !matches!(c, '+' | '#' | '!' | '?'))
        .collect();
    let t = t.replace('0', "O");
    let b = t.as_bytes();
    // `e8Q` → `e8=Q`: a rank digit followed by a piece letter.
    if b.len() >= 3
        && b[b.len() - 2].is_ascii_digit()
        && matches!(b[b.len() - 1], b'Q' | b'R' | b'B' | b'N')
    {
        return format!("{}={}", &t[..t.len() - 1], &t[t.len() - 1..]);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Params;

    fn at(fen: &str) -> Chess {
        Chess::new(&Params::default())
            .unwrap()
            .from_fen(fen)
            .unwrap()
    }

    fn san(fen: &str, uci: &str) -> String {
        let pos = at(fen);
        format_san(&pos, pos.parse_move(uci).unwrap())
    }

    #[test]
    fn writes_standard_algebraic_notation() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(san(start, "e2e4"), "e4");
        assert_eq!(san(start, "g1f3"), "Nf3");
        // Knights on b1 and f3 can both reach d2: told apart by file.
        let two_knights = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
        assert_eq!(san(two_knights, "b1d2"), "Nbd2");
        // Rooks on a1 and a5 reach a3: by rank.
        assert_eq!(san("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3"), "R1a3");
        // Queens on e4, h4 and h1 all reach e1: from h4 it takes file and rank.
        assert_eq!(san("8/k7/8/8/4Q2Q/8/8/K6Q w - - 0 1", "h4e1"), "Qh4e1");
        assert_eq!(san("8/k7/8/8/4Q2Q/8/8/K6Q w - - 0 1", "e4e1"), "Qee1");
        assert_eq!(san("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1"), "O-O");
        assert_eq!(san("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8"), "O-O-O");
        // Capture with promotion and check; en passant; mate.
        assert_eq!(san("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8q"), "axb8=Q+");
        assert_eq!(san("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), "exd6");
        assert_eq!(san("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8"), "Rd8#");
    }

    #[test]
    fn castling_in_chess960_is_written_by_side() {
        let pos = Chess::new(&Params::parse(["chess960=true"]).unwrap())
            .unwrap()
            .from_fen("1r2k1r1/pppppppp/8/8/8/8/8/1R2K1R1 w GBgb - 0 1")
            .unwrap();
        assert_eq!(format_san(&pos, pos.parse_move("e1g1").unwrap()), "O-O");
        assert_eq!(format_san(&pos, pos.parse_move("e1b1").unwrap()), "O-O-O");
    }

    #[test]
    fn reads_what_it_writes_and_the_usual_liberties() {
        let pos = at("r3k2r/1P6/8/8/8/5N2/8/1N2K2R w Kkq - 0 1");
        let uci = |t: &str| pos.format_move(parse_san(&pos, t).unwrap());
        assert_eq!(uci("Nbd2"), "b1d2");
        assert_eq!(uci("Nb1d2"), "b1d2");
        assert_eq!(uci("0-0"), "e1g1");
        assert_eq!(uci("O-O!?"), "e1g1");
        assert_eq!(uci("bxa8=Q+"), "b7a8q");
        assert_eq!(uci("bxa8Q"), "b7a8q");
        assert_eq!(uci("Ng5"), "f3g5");
        assert_eq!(uci("Nfg5"), "f3g5");
        assert!(matches!(parse_san(&pos, "Nd2"), Err(MoveError::Illegal(_))));
        assert!(parse_san(&pos, "Ke2").is_ok());
        assert!(matches!(parse_san(&pos, "Kd3"), Err(MoveError::Illegal(_))));
        assert!(matches!(parse_san(&pos, ""), Err(MoveError::Malformed(_))));
    }

    #[test]
    fn every_legal_move_reads_back_from_its_san() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ] {
            let pos = at(fen);
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            for mv in moves {
                let text = format_san(&pos, mv);
                assert_eq!(parse_san(&pos, &text), Ok(mv), "{fen}: {text}");
            }
        }
    }
}
