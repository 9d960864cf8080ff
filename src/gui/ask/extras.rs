//! What the page shows beyond the [`Game`] trait, from each game's own rules: how moves are
//! written for people (SAN in chess), the winning line, the king in check, castling's other
//! squares. Each is asked of the game's type by downcasting, so a game without an entry
//! here (a new one) gets the generic answer: its moves in ply's notation, no line. (Why a
//! game ended is the trait's own: [`crate::game::Line::ending`].)

use std::any::Any;

use cozy_chess::{Move as ChessMove, Square};

use super::player_words;
use super::position::Legal;
use crate::game::{Game, Outcome, Player};
use crate::games::chess::san::{format_san, parse_san};
use crate::games::{Chess, Connect4, Nim, Teeko, TicTacToe, teeko, tictactoe};

fn as_<T: 'static>(x: &dyn Any) -> Option<&T> {
    x.downcast_ref::<T>()
}

/// A move as people write it: SAN in chess, ply's notation elsewhere.
pub fn name<G: Game>(pos: &G, mv: G::Move) -> String {
    match (as_::<Chess>(pos), as_::<ChessMove>(&mv)) {
        (Some(c), Some(&m)) => format_san(c, m),
        _ => pos.format_move(mv),
    }
}

/// A move's label in the move list: chess numbers White's moves (`12. Nf3`, and `12… Nf6`
/// for a game that starts with Black to move); other games number every move.
pub fn label<G: Game>(pos: &G, first: bool, index: usize, name: &str) -> String {
    match as_::<Chess>(pos) {
        Some(c) => {
            let n = c.board().fullmove_number();
            match (c.side_to_move(), first) {
                (Player::First, _) => format!("{n}. {name}"),
                (Player::Second, true) => format!("{n}… {name}"),
                (Player::Second, false) => name.to_string(),
            }
        }
        None => format!("{}. {name}", index + 1),
    }
}

/// Reads one move as a person may type it: the game's notation, or in chess also SAN
/// (`Nf3`, `exd5`, `O-O`, `e8=Q`).
pub fn read_move<G: Game>(pos: &G, text: &str) -> Result<G::Move, String> {
    let own = pos.parse_move(text);
    let Some(c) = as_::<Chess>(pos) else {
        return own.map_err(|e| player_words(&e, text));
    };
    let uci_shaped = text.len() >= 4
        && text.as_bytes()[..4].iter().enumerate().all(|(i, b)| {
            if i % 2 == 0 {
                b.is_ascii_lowercase()
            } else {
                b.is_ascii_digit()
            }
        });
    match own {
        Ok(mv) => Ok(mv),
        Err(e) if uci_shaped => Err(player_words(&e, text)),
        Err(_) => {
            let m = parse_san(c, text).map_err(|_| {
                format!(
                    "'{text}' is not a legal move here (write moves as Nf3, exd5, O-O, e8=Q, or e2e4)."
                )
            })?;
            // The move in G's own type: found among the legal moves by its text.
            let text = c.format_move(m);
            pos.parse_move(&text).map_err(|e| player_words(&e, &text))
        }
    }
}

/// How a game's bitboard numbers its cells: by rows of `w` cells from the bottom left
/// (tic-tac-toe, Teeko), or by columns of `h` bits from the bottom (Connect Four, whose
/// columns have a sentinel bit).
#[derive(Clone, Copy)]
enum Layout {
    Rows(u32),
    Columns(u32),
}

impl Layout {
    fn cell(self, bit: u32) -> [u32; 2] {
        match self {
            Layout::Rows(w) => [bit % w, bit / w],
            Layout::Columns(h) => [bit / h, bit % h],
        }
    }
}

/// The cells of the winner's line(s), `[file, rank]` from the bottom left.
pub fn win_cells<G: Game>(pos: &G, outcome: Outcome) -> Vec<[u32; 2]> {
    let Outcome::Win(winner) = outcome else {
        return Vec::new();
    };
    let any: &dyn Any = pos;
    let (stones, lines, layout): (u64, Vec<u64>, Layout) = if let Some(t) = as_::<TicTacToe>(any) {
        let lines = tictactoe::LINES.iter().map(|&l| l as u64).collect();
        (t.marks(winner) as u64, lines, Layout::Rows(3))
    } else if let Some(c) = as_::<Connect4>(any) {
        let stones = if c.side_to_move() == winner {
            c.current()
        } else {
            c.current() ^ c.mask()
        };
        let lines = c.rules().windows().to_vec();
        (stones, lines, Layout::Columns(c.rules().height + 1))
    } else if let Some(t) = as_::<Teeko>(any) {
        let lines = t.rules().goals.iter().map(|&g| g as u64).collect();
        (
            t.markers(winner) as u64,
            lines,
            Layout::Rows(teeko::CELLS.isqrt()),
        )
    } else {
        return Vec::new();
    };
    let won = lines
        .iter()
        .filter(|&&l| stones & l == l)
        .fold(0u64, |a, &l| a | l);
    (0..64)
        .filter(|i| won & (1 << i) != 0)
        .map(|i| layout.cell(i))
        .collect()
}

/// The square of the king in check (chess).
pub fn check<G: Game>(pos: &G) -> Option<String> {
    let c = as_::<Chess>(pos)?;
    c.in_check()
        .then(|| c.board().king(c.board().side_to_move()).to_string())
}

/// A legal move for the page; in chess with its SAN and, for castling, the other squares a
/// click may name (the king's destination and the rook's square), unless another move of
/// the same piece goes there.
pub fn legal<G: Game>(pos: &G, text: &str, mv: G::Move, all: &[(String, G::Move)]) -> Legal {
    let mut out = Legal {
        mv: text.to_string(),
        name: None,
        also: Vec::new(),
    };
    let (Some(c), Some(&m)) = (as_::<Chess>(pos), as_::<ChessMove>(&mv)) else {
        return out;
    };
    out.name = Some(format_san(c, m));
    if let Some(dest) = c.castling_king_destination(m) {
        let from = &text[..2];
        let taken = |sq: &str| {
            all.iter()
                .any(|(t, _)| t.len() >= 4 && &t[..2] == from && &t[2..4] == sq)
        };
        for sq in [dest, m.to].map(|s: Square| s.to_string()) {
            if !taken(&sq) && !out.also.contains(&sq) {
                out.also.push(sq);
            }
        }
    }
    out
}

/// Whether the player who makes the last move loses (misère Nim), which turns an engine's
/// mate distance into moves differently.
pub fn last_mover_loses<G: Game>(pos: &G) -> bool {
    as_::<Nim>(pos).is_some_and(Nim::misere)
}
