//! Talking to Fairy-Stockfish 11.1: the variants file ply ships for it, and the translation
//! between ply's notation and FSF's.
//!
//! FSF plays tic-tac-toe and Connect Four as drop games: every move puts a pawn from the
//! player's pocket on the board, written `P@b2` (the piece letter is upper case for both
//! sides). The first player is White (`P`), the second Black (`p`). A Connect Four drop names
//! the square the disc lands on (`P@d3`), so translating a column needs the column's height.
//! Positions are FSF FENs with pockets: ranks from the top, `P`/`p`/digit runs, then the
//! pieces still in hand in brackets, the side to move (`w`/`b`), and four chess fields:
//! `3/1P1/3[PPPPpppp] b - - 0 1`.
//!
//! ply's notation: tic-tac-toe cells `a1`..`c3` (files left to right, ranks bottom up, as in
//! FSF); Connect Four columns `1`..`7`. ply's FENs: ranks from the top, `x`/`o`/`.`, `/`
//! between ranks, then the side to move `x`/`o` (the translation reads them itself, so it
//! needs nothing but the text).

use std::path::PathBuf;
use std::sync::OnceLock;

use crate::game::{MoveError, Params};

/// The variants file: `[tictactoe]` and `[connect4]` in FSF 11.1's configuration language.
/// [`variants_file`] writes it to a temporary file for `VariantPath`.
pub const VARIANTS_INI: &str = include_str!("fsf_variants.ini");

/// The games the variants file has, by ply's names.
pub const GAMES: &[&str] = &["tictactoe", "connect4"];

/// The directory of this process's temporary files.
fn temp_dir() -> PathBuf {
    std::env::temp_dir().join(format!("ply-{}", std::process::id()))
}

/// The file `VariantPath` points at: [`VARIANTS_INI`], written once per process (every
/// Fairy-Stockfish the process starts reads the same file). [`remove_variants_file`]
/// removes it when the process is done with its engines.
pub fn variants_file() -> Result<PathBuf, String> {
    static PATH: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    PATH.get_or_init(|| {
        let dir = temp_dir();
        let path = dir.join("fsf_variants.ini");
        std::fs::create_dir_all(&dir)
            .and_then(|_| std::fs::write(&path, VARIANTS_INI))
            .map(|_| path)
            .map_err(|e| format!("cannot write the Fairy-Stockfish variants file: {e}"))
    })
    .clone()
}

/// Removes the file written by [`variants_file`], if any.
pub fn remove_variants_file() {
    let _ = std::fs::remove_dir_all(temp_dir());
}

/// A game FSF can play, with the board size its variant uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FsfGame {
    TicTacToe,
    Connect4,
}

impl FsfGame {
    /// The FSF variant for a ply game, if the shipped variants file has it.
    pub fn for_game(game: &str, params: &Params) -> Result<FsfGame, String> {
        match game {
            "tictactoe" => Ok(FsfGame::TicTacToe),
            "connect4" => {
                let w = params.get("width").unwrap_or("7");
                let h = params.get("height").unwrap_or("6");
                if (w, h) == ("7", "6") {
                    Ok(FsfGame::Connect4)
                } else {
                    Err(format!(
                        "the Fairy-Stockfish variants file has Connect Four on 7x6 only, not {w}x{h}"
                    ))
                }
            }
            other => Err(format!(
                "Fairy-Stockfish plays tictactoe and connect4 here, not {other}"
            )),
        }
    }

    /// The `UCI_Variant` value.
    pub fn variant(self) -> &'static str {
        match self {
            FsfGame::TicTacToe => "tictactoe",
            FsfGame::Connect4 => "connect4",
        }
    }

    fn size(self) -> (usize, usize) {
        match self {
            FsfGame::TicTacToe => (3, 3),
            FsfGame::Connect4 => (7, 6),
        }
    }

    /// Pieces each side holds at the start: (first, second).
    fn pockets(self) -> (usize, usize) {
        match self {
            FsfGame::TicTacToe => (5, 4),
            FsfGame::Connect4 => (21, 21),
        }
    }

    /// ply's FEN → FSF's FEN with pockets.
    pub fn fen_to_fsf(self, fen: &str) -> Result<String, String> {
        let board = Board::parse(self, fen)?;
        let (w, h) = self.size();
        let mut out = String::new();
        for rank in (0..h).rev() {
            let mut empty = 0;
            for file in 0..w {
                match board.cells[rank * w + file] {
                    0 => empty += 1,
                    owner => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(if owner == 1 { 'P' } else { 'p' });
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        let (first, second) = board.counts();
        let (p1, p2) = self.pockets();
        if first > p1 || second > p2 {
            return Err(format!("'{fen}' has more pieces than the pockets hold"));
        }
        out.push('[');
        out.push_str(&"P".repeat(p1 - first));
        out.push_str(&"p".repeat(p2 - second));
        out.push(']');
        let plies = first + second;
        out.push_str(if board.first_to_move { " w" } else { " b" });
        out.push_str(&format!(" - - 0 {}", plies / 2 + 1));
        Ok(out)
    }

    /// A ply move, played in the position `fen_before` (ply's FEN), in FSF notation.
    pub fn move_to_fsf(self, fen_before: &str, mv: &str) -> Result<String, String> {
        match self {
            FsfGame::TicTacToe => {
                let b = mv.as_bytes();
                if b.len() == 2 && (b'a'..=b'c').contains(&b[0]) && (b'1'..=b'3').contains(&b[1]) {
                    Ok(format!("P@{mv}"))
                } else {
                    Err(format!("'{mv}' is not a tic-tac-toe cell"))
                }
            }
            FsfGame::Connect4 => {
                let board = Board::parse(self, fen_before)?;
                let col = match mv.parse::<usize>() {
                    Ok(c) if (1..=7).contains(&c) => c - 1,
                    _ => return Err(format!("'{mv}' is not a Connect Four column")),
                };
                let height = board.height(col);
                if height >= 6 {
                    return Err(format!("column {mv} is full"));
                }
                Ok(format!("P@{}{}", (b'a' + col as u8) as char, height + 1))
            }
        }
    }

    /// An FSF move in the position `fen_before` (ply's FEN), in ply notation. A drop that FSF
    /// could not have meant here (a Connect Four disc in the air) is `Illegal`; text that is
    /// no drop at all is `Malformed`. Whether the ply move is legal is left to the game.
    pub fn move_from_fsf(self, fen_before: &str, text: &str) -> Result<String, MoveError> {
        let (w, h) = self.size();
        let malformed = || {
            MoveError::Malformed(format!(
                "'{text}' is not a Fairy-Stockfish drop (like P@{}1)",
                if w == 3 { 'b' } else { 'd' }
            ))
        };
        let square = text
            .strip_prefix("P@")
            .or_else(|| text.strip_prefix("p@"))
            .ok_or_else(malformed)?;
        let b = square.as_bytes();
        if b.len() < 2 || !b[0].is_ascii_lowercase() {
            return Err(malformed());
        }
        let file = (b[0] - b'a') as usize;
        let rank: usize = square[1..].parse().map_err(|_| malformed())?;
        if file >= w || rank == 0 || rank > h {
            return Err(malformed());
        }
        match self {
            FsfGame::TicTacToe => Ok(square.to_string()),
            FsfGame::Connect4 => {
                let board = Board::parse(self, fen_before).map_err(MoveError::Malformed)?;
                let height = board.height(file);
                if rank != height + 1 {
                    return Err(MoveError::Illegal(format!(
                        "{text}: a disc in column {} lands on row {}",
                        file + 1,
                        height + 1
                    )));
                }
                Ok((file + 1).to_string())
            }
        }
    }
}

/// A board read from ply's FEN: `cells[rank * width + file]` is 0 (empty), 1 (first
/// player) or 2 (second player), rank 0 at the bottom.
struct Board {
    cells: Vec<u8>,
    width: usize,
    first_to_move: bool,
}

impl Board {
    fn parse(game: FsfGame, fen: &str) -> Result<Board, String> {
        let (w, h) = game.size();
        let bad = |why: &str| format!("cannot read '{fen}' as a {w}x{h} position: {why}");
        let mut fields = fen.split_whitespace();
        let (Some(rows), Some(side), None) = (fields.next(), fields.next(), fields.next()) else {
            return Err(bad("expected a board and a side to move"));
        };
        let rows: Vec<&str> = rows.split('/').collect();
        if rows.len() != h {
            return Err(bad("wrong number of ranks"));
        }
        let mut cells = vec![0u8; w * h];
        for (i, row) in rows.iter().enumerate() {
            let rank = h - 1 - i;
            let mut file = 0;
            for c in row.chars() {
                let (run, owner) = match c {
                    'x' | 'X' => (1, 1),
                    'o' | 'O' => (1, 2),
                    '.' => (1, 0),
                    d @ '1'..='9' => (d as usize - '0' as usize, 0),
                    _ => return Err(bad(&format!("unexpected '{c}'"))),
                };
                for _ in 0..run {
                    if file >= w {
                        return Err(bad("a rank is too long"));
                    }
                    cells[rank * w + file] = owner;
                    file += 1;
                }
            }
            if file != w {
                return Err(bad("a rank is too short"));
            }
        }
        let first_to_move = match side {
            "x" | "X" | "1" => true,
            "o" | "O" | "2" => false,
            _ => return Err(bad("the side to move is not x or o")),
        };
        Ok(Board {
            cells,
            width: w,
            first_to_move,
        })
    }

    fn counts(&self) -> (usize, usize) {
        let first = self.cells.iter().filter(|&&c| c == 1).count();
        let second = self.cells.iter().filter(|&&c| c == 2).count();
        (first, second)
    }

    /// Discs in a column (Connect Four).
    fn height(&self, file: usize) -> usize {
        self.cells
            .iter()
            .skip(file)
            .step_by(self.width)
            .take_while(|&&c| c != 0)
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Params};
    use crate::games::{Connect4, TicTacToe};

    #[test]
    fn start_positions_match_the_variants_file() {
        let t = TicTacToe::new(&Params::new()).unwrap();
        assert_eq!(
            FsfGame::TicTacToe.fen_to_fsf(&t.fen()).unwrap(),
            "3/3/3[PPPPPpppp] w - - 0 1"
        );
        let c = Connect4::new(&Params::new()).unwrap();
        assert_eq!(
            FsfGame::Connect4.fen_to_fsf(&c.fen()).unwrap(),
            format!(
                "7/7/7/7/7/7[{}{}] w - - 0 1",
                "P".repeat(21),
                "p".repeat(21)
            )
        );
        assert!(VARIANTS_INI.contains("[tictactoe]") && VARIANTS_INI.contains("[connect4"));
    }

    #[test]
    fn fens_translate_with_pockets_and_side() {
        let t = TicTacToe::new(&Params::new()).unwrap();
        let p = crate::game::play_moves(&t, &["b2", "a1", "c3"]).unwrap();
        assert_eq!(
            FsfGame::TicTacToe.fen_to_fsf(&p.fen()).unwrap(),
            "2P/1P1/p2[PPPppp] b - - 0 2"
        );
    }

    #[test]
    fn connect4_moves_round_trip_through_landing_squares() {
        let g = FsfGame::Connect4;
        let mut pos = Connect4::new(&Params::new()).unwrap();
        for (ply_mv, fsf_mv) in [("4", "P@d1"), ("4", "P@d2"), ("3", "P@c1"), ("4", "P@d3")] {
            let fen = pos.fen();
            assert_eq!(g.move_to_fsf(&fen, ply_mv).unwrap(), fsf_mv);
            assert_eq!(g.move_from_fsf(&fen, fsf_mv).unwrap(), ply_mv);
            pos = crate::game::play_moves(&pos, &[ply_mv]).unwrap();
        }
        let fen = pos.fen();
        assert!(matches!(
            g.move_from_fsf(&fen, "P@d2"),
            Err(MoveError::Illegal(_))
        ));
        for junk in ["d4", "P@", "P@h1", "P@d0", "P@d7", "Q@d1", "P@4", "(none)"] {
            assert!(
                matches!(g.move_from_fsf(&fen, junk), Err(MoveError::Malformed(_))),
                "{junk}"
            );
        }
    }

    #[test]
    fn tictactoe_moves_are_cells_with_a_piece() {
        let g = FsfGame::TicTacToe;
        let fen = TicTacToe::new(&Params::new()).unwrap().fen();
        assert_eq!(g.move_to_fsf(&fen, "b2").unwrap(), "P@b2");
        assert_eq!(g.move_from_fsf(&fen, "P@c3").unwrap(), "c3");
        assert!(g.move_from_fsf(&fen, "P@d1").is_err());
    }

    #[test]
    fn only_the_shipped_variants() {
        let p = |s: &str| Params::parse(s.split_whitespace()).unwrap();
        assert!(FsfGame::for_game("connect4", &p("width=7 height=6")).is_ok());
        assert!(FsfGame::for_game("connect4", &p("width=8")).is_err());
        assert!(FsfGame::for_game("nim", &p("")).is_err());
    }
}
