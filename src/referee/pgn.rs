//! PGN for chess matches: `--pgn FILE` appends every finished game as it ends, and
//! `--openings FILE.pgn` reads openings from a PGN file. The notation itself (tags, SAN
//! movetext, comments, reading a file's games) is chess's, in [`crate::games::chess::pgn`];
//! here a referee's record becomes a game to write: its players (the first player is
//! White), the opening's moves with the comment `{book}` on the first, each engine move with
//! its score, depth, time and clock, the time control when both players had the same one,
//! the termination and the referee's reason.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;

use super::openings::Opening;
use super::records::GameRecord;
use crate::game::{Game, Params};
use crate::games::Chess;
use crate::games::chess::pgn::{self, Heading, Note, Played};

/// Whether `--pgn` and PGN or EPD openings work for a game: their notations are chess's.
pub fn supports(game: &str) -> bool {
    game == Chess::NAME
}

/// The PGN file, open for appending.
pub struct PgnWriter {
    file: File,
}

impl PgnWriter {
    pub fn open(path: &Path) -> std::io::Result<PgnWriter> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(PgnWriter { file })
    }

    /// Appends one game (and the blank line after it) with a single write, then syncs it.
    pub fn append(&mut self, rec: &GameRecord, tc: Option<&str>) -> std::io::Result<()> {
        let text = game_text(rec, tc).map_err(std::io::Error::other)?;
        self.file.write_all(text.as_bytes())?;
        self.file.flush()?;
        self.file.sync_data()
    }
}

/// One game as PGN, ending with a blank line; `tc` is the players' clock when they had the
/// same one. An error when the record's moves do not replay (a record of another game).
pub fn game_text(rec: &GameRecord, tc: Option<&str>) -> Result<String, String> {
    let (base, book) = replay_opening(rec)?;
    // The referee's first player is chess's White (`Player::First`), and its results are
    // White's, as in PGN.
    let round = (rec.index + 1).to_string();
    let heading = Heading {
        event: "ply-referee match",
        site: "?",
        started_ms: rec.started_ms,
        round: &round,
        white: &rec.players[rec.p1_player as usize],
        black: &rec.players[1 - rec.p1_player as usize],
        result: &rec.result,
        time_control: tc,
        termination: Some(pgn::termination_word(rec.termination.name())),
    };
    let mut played: Vec<Played> = book
        .iter()
        .enumerate()
        .map(|(i, text)| Played {
            text,
            comment: if i == 0 { "book".into() } else { String::new() },
        })
        .collect();
    played.extend(rec.moves.iter().map(|m| Played {
        text: &m.mv,
        comment: pgn::note(&Note {
            ms: m.ms,
            depth: m.depth,
            score: m.score.as_deref(),
            clock_ms: m.clock_ms,
        }),
    }));
    pgn::write(&heading, &base, &played, &rec.reason)
}

/// The game's start (the opening's FEN, or the start of its rules) and the opening's moves,
/// checked by the rules.
fn replay_opening(rec: &GameRecord) -> Result<(Chess, Vec<String>), String> {
    let params = Params::parse(rec.params.split_whitespace()).map_err(|e| e.to_string())?;
    let start = Chess::new(&params).map_err(|e| e.to_string())?;
    let base = match &rec.opening.fen {
        Some(fen) => start
            .from_fen(fen)
            .map_err(|e| format!("fen '{fen}': {e}"))?,
        None => start,
    };
    Opening {
        fen: None,
        moves: rec.opening.moves.clone(),
    }
    .resolve(&base)?;
    Ok((base, rec.opening.moves.clone()))
}

/// The openings of a PGN file: each game's start (its `FEN` tag, if any) and its main line
/// turned into ply's notation, at most `max_plies` of it. An error names the game (by its
/// first line) and what is wrong.
pub fn read_openings(text: &str, max_plies: Option<usize>) -> Result<Vec<Opening>, String> {
    pgn::split_games(text)
        .iter()
        .map(|game| {
            pgn::main_line(game, max_plies)
                .map(|l| Opening {
                    fen: l.fen,
                    moves: l.moves,
                })
                .map_err(|e| format!("game at line {}: {e}", game.first_line))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::records::{MoveRecord, Termination};

    fn record(
        opening: Opening,
        moves: &[(&str, Option<&str>)],
        result: &str,
        reason: &str,
    ) -> GameRecord {
        GameRecord {
            match_id: "m".into(),
            index: 4,
            round: 1,
            pair: 2,
            game: "chess".into(),
            params: "chess960=false start=518".into(),
            players: ["ply".into(), "sf".into()],
            p1_player: 1,
            opening,
            moves: moves
                .iter()
                .map(|&(mv, score)| MoveRecord {
                    mv: mv.into(),
                    ms: 1234.5,
                    depth: score.map(|_| 9),
                    score: score.map(str::to_string),
                    ..MoveRecord::default()
                })
                .collect(),
            result: result.into(),
            termination: Termination::Rules,
            reason: reason.into(),
            culprit: None,
            final_fen: String::new(),
            started_ms: 1_764_000_000_000,
            duration_ms: 0.0,
            referee_ms: 0.0,
            engine_errors: vec![],
            planned: None,
        }
    }

    #[test]
    fn a_game_with_tags_book_moves_comments_and_result() {
        // Fool's mate after a book move: sf (player B, the first player) is White and loses.
        let rec = record(
            Opening {
                fen: None,
                moves: vec!["f2f3".into()],
            },
            &[
                ("e7e5", Some("cp -35")),
                ("g2g4", Some("cp -900")),
                ("d8h4", Some("mate 1")),
            ],
            "0-1",
            "ply wins",
        );
        let text = game_text(&rec, Some("10+0.1")).unwrap();
        let want = "[Event \"ply-referee match\"]\n[Site \"?\"]\n[Date \"2025.11.24\"]\n\
            [Round \"5\"]\n[White \"sf\"]\n[Black \"ply\"]\n[Result \"0-1\"]\n\
            [TimeControl \"10+0.1\"]\n[Termination \"normal\"]\n[PlyCount \"4\"]\n\n\
            1. f3 {book} e5 {-0.35/9 1.23s} 2. g4 {-9.00/9 1.23s} Qh4# {+M1/9 1.23s}\n\
            {ply wins} 0-1\n\n";
        assert_eq!(text, want);
    }

    #[test]
    fn a_game_from_a_fen_with_black_to_move() {
        let rec = record(
            Opening {
                fen: Some("4k3/8/8/8/8/8/4P3/4K3 b - - 3 40".into()),
                moves: vec![],
            },
            &[("e8d7", None), ("e2e4", Some("cp 120"))],
            "1/2-1/2",
            "draw by adjudication",
        );
        let text = game_text(&rec, None).unwrap();
        assert!(text.contains("[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 3 40\"]\n[SetUp \"1\"]"));
        // The first player is White even when Black moves first.
        assert!(text.contains("[White \"sf\"]\n[Black \"ply\"]"));
        assert!(text.contains(
            "\n40... Kd7 {1.23s} 41. e4 {+1.20/9 1.23s} {draw by adjudication} 1/2-1/2\n"
        ));
        assert!(!text.contains("TimeControl"));
    }

    #[test]
    fn openings_from_pgn_skip_comments_variations_and_numbers() {
        let text = "[Event \"x\"]\n[Site \"?\"]\n\n1. e4 {best by test} e5 (1... c5 2. Nf3) 2.Nf3 $1\n\
            2... Nc6 ; a comment\n3. Bb5 a6 1-0\n\n\
            [FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. e4 Kd7 *\n\n\
            1. d4 d5 2. c4 *\n";
        let o = read_openings(text, None).unwrap();
        assert_eq!(o.len(), 3);
        assert_eq!(o[0].moves, ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]);
        assert_eq!(o[1].fen.as_deref(), Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"));
        assert_eq!(o[1].moves, ["e2e4", "e8d7"]);
        assert_eq!(o[2].moves, ["d2d4", "d7d5", "c2c4"]);
        let short = read_openings(text, Some(2)).unwrap();
        assert_eq!(short[0].moves, ["e2e4", "e7e5"]);
        let e = read_openings(
            "[Event \"a\"]\n\n1. e4 e5\n\n[Event \"b\"]\n\n1. e4 e5 2. Kf3\n",
            None,
        )
        .unwrap_err();
        assert!(e.contains("game at line 5") && e.contains("Kf3"), "{e}");
    }
}
