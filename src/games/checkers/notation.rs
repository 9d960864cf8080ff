//! Checkers notation: PDN moves and PDN FEN positions (protocol.md, "checkers", states both).
//!
//! Moves: a step is `from-to` (`11-15`); a capture is its squares joined by `x`, every
//! landing square included (`22x15`, `22x15x24`), so a text names one move even when two
//! captures share their ends. Read back: either separator, and any of the landing squares
//! may be left out as long as one legal move is left (`22x24` for `22x15x24` when no other
//! capture goes from 22 to 24), as PDN and pydraughts read them.
//!
//! Positions: `<side>:W<white pieces>:B<black pieces>`, each piece its square, a king's with
//! `K` before it (`B:W21,22,K3:B1,2,K30`), then `:H<n>` when the no-progress count is not 0
//! (Lidraughts' extension, which pydraughts reads too). Ranges (`W21-32`) and a fullmove
//! field (`:F12`, ignored) are read as well.

use super::Checkers;
use super::board::{BOTTOM_ROW, Board, Move, TOP_ROW};
use crate::game::{FenError, Game, MoveError, Player};

/// The PDN square number of a bit.
pub fn square(bit: u8) -> u32 {
    bit as u32 + 1
}

pub fn format_move(mv: Move) -> String {
    let sep = if mv.is_capture() { "x" } else { "-" };
    let squares: Vec<String> = mv.path().iter().map(|&b| square(b).to_string()).collect();
    squares.join(sep)
}

fn malformed(text: &str) -> MoveError {
    MoveError::Malformed(format!(
        "'{text}' is not a move in PDN such as 11-15, 22x15 or 22x15x24"
    ))
}

/// The bit numbers a move text names, in order.
fn parse_squares(text: &str) -> Result<Vec<u8>, MoveError> {
    let parts: Vec<&str> = text.split(['-', 'x']).collect();
    if parts.len() < 2 || parts.len() > 13 {
        return Err(malformed(text));
    }
    parts
        .iter()
        .map(|p| {
            if p.is_empty() || p.len() > 2 || !p.bytes().all(|b| b.is_ascii_digit()) {
                return Err(malformed(text));
            }
            match p.parse::<u8>() {
                Ok(n @ 1..=32) => Ok(n - 1),
                _ => Err(MoveError::Malformed(format!(
                    "'{text}': {p} is not a square; squares are 1..32"
                ))),
            }
        })
        .collect()
}

/// Whether `given` (squares of a text) names `mv`: the same first and last square, and the
/// others among its landing squares, in order.
fn names(given: &[u8], mv: &Move) -> bool {
    let path = mv.path();
    if given[0] != path[0] || given[given.len() - 1] != path[path.len() - 1] {
        return false;
    }
    let mut rest = path[1..path.len() - 1].iter();
    given[1..given.len() - 1]
        .iter()
        .all(|g| rest.any(|p| p == g))
}

pub fn parse_move(pos: &Checkers, text: &str) -> Result<Move, MoveError> {
    let given = parse_squares(text)?;
    if let Some(o) = pos.outcome() {
        return Err(MoveError::Illegal(format!(
            "{text}: the game is over ({})",
            o.protocol_name()
        )));
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let found: Vec<Move> = moves.iter().copied().filter(|m| names(&given, m)).collect();
    match found.as_slice() {
        [one] => Ok(*one),
        [] => Err(MoveError::Illegal(format!(
            "{text}: {}",
            why_not(pos, &given, &moves)
        ))),
        many => Err(MoveError::Illegal(format!(
            "{text} is ambiguous: it could be {}; give the squares it lands on",
            list(many)
        ))),
    }
}

/// Up to eight moves, in notation, joined by "or" for the last.
fn list(moves: &[Move]) -> String {
    let mut texts: Vec<String> = moves.iter().take(8).map(|&m| format_move(m)).collect();
    if moves.len() > 8 {
        texts.push(format!("{} more", moves.len() - 8));
    }
    match texts.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => texts.join(""),
    }
}

fn colour(side: Player) -> &'static str {
    match side {
        Player::First => "black",
        Player::Second => "white",
    }
}

/// Why no legal move fits the squares given.
fn why_not(pos: &Checkers, given: &[u8], moves: &[Move]) -> String {
    let b = pos.board();
    let side = pos.side_to_move();
    let from = given[0];
    if b.pieces(side) & (1 << from) == 0 {
        return match b.pieces(side.other()) & (1 << from) != 0 {
            true => format!(
                "{} holds a {} piece, and it is {} to move",
                square(from),
                colour(side.other()),
                colour(side)
            ),
            false => format!("no {} piece on {}", colour(side), square(from)),
        };
    }
    let own: Vec<Move> = moves.iter().copied().filter(|m| m.from == from).collect();
    let captures = moves.first().is_some_and(|m| m.is_capture());
    let kind = if b.kings & (1 << from) != 0 {
        "king"
    } else {
        "man"
    };
    match (captures, own.is_empty()) {
        (true, true) => format!(
            "a capture is compulsory, and the {kind} on {} has none: {}",
            square(from),
            list(moves)
        ),
        (true, false) => format!(
            "a capture is compulsory; the {kind} on {} can play {}",
            square(from),
            list(&own)
        ),
        (false, true) => format!("the {kind} on {} cannot move", square(from)),
        (false, false) => format!(
            "the {kind} on {} can only play {}",
            square(from),
            list(&own)
        ),
    }
}

fn err<T>(s: String) -> Result<T, FenError> {
    Err(FenError(s))
}

/// The pieces one colour field lists: (all, kings).
fn parse_pieces(list: &str, seen: &mut u32) -> Result<(u32, u32), FenError> {
    let (mut all, mut kings) = (0u32, 0u32);
    for token in list.split(',').filter(|t| !t.is_empty()) {
        let (king, body) = match token.strip_prefix('K') {
            Some(rest) => (true, rest),
            None => (false, token),
        };
        let bad = || {
            FenError(format!(
                "'{token}' is not a square 1..32, a range such as 21-32, or either with K before it for kings"
            ))
        };
        let number = |s: &str| s.parse::<u32>().ok().filter(|n| (1..=32).contains(n));
        let (lo, hi) = match body.split_once('-') {
            Some((a, b)) => (number(a).ok_or_else(bad)?, number(b).ok_or_else(bad)?),
            None => {
                let n = number(body).ok_or_else(bad)?;
                (n, n)
            }
        };
        if lo > hi {
            return Err(bad());
        }
        for n in lo..=hi {
            let bit = 1u32 << (n - 1);
            if *seen & bit != 0 {
                return err(format!("square {n} is given twice"));
            }
            *seen |= bit;
            all |= bit;
            if king {
                kings |= bit;
            }
        }
    }
    Ok((all, kings))
}

const SHAPE: &str =
    "expected <side to move>:W<white pieces>:B<black pieces>, such as B:W21,22,K3:B1,2,K30";

/// Reads a position; `limit` is the game's no-progress limit in plies.
pub fn parse_fen(fen: &str, limit: u16) -> Result<Checkers, FenError> {
    let text: String = fen.split_whitespace().collect();
    let text = text.strip_suffix('.').unwrap_or(&text);
    let mut fields = text.split(':');
    let side = match fields.next() {
        Some("B" | "b") => Player::First,
        Some("W" | "w") => Player::Second,
        Some("") | None => return err(SHAPE.into()),
        Some(s) => return err(format!("side to move '{s}' must be B or W")),
    };
    let mut seen = 0u32;
    let mut colours: [Option<(u32, u32)>; 2] = [None, None];
    let mut quiet: u16 = 0;
    for field in fields {
        let (tag, rest) = field.split_at(field.chars().next().map_or(0, |c| c.len_utf8()));
        match tag {
            "W" | "B" => {
                let i = if tag == "B" { 0 } else { 1 };
                if colours[i].is_some() {
                    return err(format!(
                        "the {} pieces are given twice",
                        ["black", "white"][i]
                    ));
                }
                colours[i] = Some(parse_pieces(rest, &mut seen)?);
            }
            "H" => {
                let n: u64 = rest.parse().map_err(|_| {
                    FenError(format!(
                        "no-progress count '{rest}' is not a number of plies"
                    ))
                })?;
                quiet = n.min(if limit > 0 { limit } else { u16::MAX } as u64) as u16;
            }
            "F" => {
                rest.parse::<u64>()
                    .map_err(|_| FenError(format!("move number '{rest}' is not a number")))?;
            }
            _ => {
                return err(format!(
                    "field '{field}' must start with W or B (a colour's pieces), H (the no-progress count) or F (the move number)"
                ));
            }
        }
    }
    let (Some((black, bk)), Some((white, wk))) = (colours[0], colours[1]) else {
        return err(SHAPE.into());
    };
    let board = Board {
        black,
        white,
        kings: bk | wk,
    };
    check_board(&board, side)?;
    Ok(Checkers::from_parts(board, side, quiet, limit))
}

/// The board's pieces are ones the game can reach.
fn check_board(b: &Board, side: Player) -> Result<(), FenError> {
    let men = |p: Player| b.pieces(p) & !b.kings;
    if let Some(bit) = first(men(Player::First) & BOTTOM_ROW) {
        return err(format!(
            "a black man on {}: black men are crowned on 29-32",
            square(bit)
        ));
    }
    if let Some(bit) = first(men(Player::Second) & TOP_ROW) {
        return err(format!(
            "a white man on {}: white men are crowned on 1-4",
            square(bit)
        ));
    }
    for p in [Player::First, Player::Second] {
        let n = b.pieces(p).count_ones();
        if n > 12 {
            return err(format!("{} has {n} pieces; at most 12", colour(p)));
        }
    }
    if b.pieces(side.other()) == 0 {
        return err(format!(
            "{} has no pieces, yet it made the last move",
            colour(side.other())
        ));
    }
    Ok(())
}

fn first(set: u32) -> Option<u8> {
    (set != 0).then(|| set.trailing_zeros() as u8)
}

/// Men first, then kings, each in square order: `21,22,K3`.
fn piece_list(all: u32, kings: u32) -> String {
    let squares = |set: u32, prefix: &str| -> Vec<String> {
        (0..32u8)
            .filter(|i| set & (1 << i) != 0)
            .map(|i| format!("{prefix}{}", square(i)))
            .collect()
    };
    let mut out = squares(all & !kings, "");
    out.extend(squares(all & kings, "K"));
    out.join(",")
}

pub fn write_fen(pos: &Checkers) -> String {
    let b = pos.board();
    let side = if pos.side_to_move() == Player::First {
        "B"
    } else {
        "W"
    };
    let mut s = format!(
        "{side}:W{}:B{}",
        piece_list(b.white, b.kings),
        piece_list(b.black, b.kings)
    );
    if pos.quiet_plies() > 0 {
        s += &format!(":H{}", pos.quiet_plies());
    }
    s
}

/// Rows from square 1 down to square 32, each labelled with its first square: `b`/`w` for
/// men, `B`/`W` for kings, `.` for an empty dark square.
pub fn diagram(b: &Board) -> String {
    let mut s = String::new();
    for row in 0..8u8 {
        s += &format!("{:>2} |", 4 * row + 1);
        for col in 0..8u8 {
            // Dark squares: files b, d, f, h on even rows, a, c, e, g on odd ones.
            if (col % 2 == 0) == (row % 2 == 0) {
                s += "  ";
                continue;
            }
            let bit = 4 * row + col / 2;
            let m = 1u32 << bit;
            let c = match (b.black & m != 0, b.white & m != 0, b.kings & m != 0) {
                (true, _, false) => 'b',
                (true, _, true) => 'B',
                (_, true, false) => 'w',
                (_, true, true) => 'W',
                _ => '.',
            };
            s += &format!(" {c}");
        }
        s.truncate(s.trim_end().len());
        s.push('\n');
    }
    s
}
