//! `--pgn` and chess openings from EPD and PGN files, through the built `ply-referee`: the
//! games written agree with the JSON records (players, result, moves), every SAN move
//! replays under ply's own SAN reader, and python-chess (when installed) reads the file
//! without an error and reaches the same final positions.

mod referee_common;

use std::path::{Path, PathBuf};
use std::process::Command;

use ply::game::{Game, Params};
use ply::games::Chess;
use ply::games::chess::san::parse_san;
use referee_common::*;

/// A chess match of ply at depth 2 against itself, with `--pgn` and the openings file
/// `openings` (in scripts/data/); returns the PGN file, its text and the records.
fn match_with_pgn(
    name: &str,
    openings: &str,
    extra: &[&str],
) -> (PathBuf, String, Vec<serde_json::Value>) {
    let dir = scratch(name);
    let (pgn, rec) = (dir.join("games.pgn"), dir.join("games.jsonl"));
    let mut a = args(&[
        "--game", "chess", "--games", "2", "--rounds", "2", "--repeat",
    ]);
    for who in ["A", "B"] {
        a.push("--engine".into());
        a.extend(ply_words());
        a.push(format!("name={who}"));
    }
    a.extend(args(&[
        "--each",
        "depth=2",
        "--max-plies",
        "60",
        "--openings",
        &format!("{}/scripts/data/{openings}", env!("CARGO_MANIFEST_DIR")),
    ]));
    a.extend(args(&[
        "--pgn",
        pgn.to_str().unwrap(),
        "--records",
        rec.to_str().unwrap(),
    ]));
    a.extend(args(extra));
    let out = run_referee(&a, None);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}\n{}",
        stdout(&out),
        stderr(&out)
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    (pgn, text, records(&rec))
}

fn tag<'a>(game: &'a str, name: &str) -> Option<&'a str> {
    let start = format!("[{name} \"");
    let line = game.lines().find(|l| l.starts_with(&start))?;
    Some(&line[start.len()..line.len() - 2])
}

/// The SAN moves of a movetext written by the referee (no variations; comments in braces).
fn sans(game: &str) -> Vec<String> {
    let movetext: String = game
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join(" ");
    let mut out = Vec::new();
    let mut in_comment = false;
    for word in movetext.split_whitespace() {
        if word.starts_with('{') {
            in_comment = true;
        }
        if !in_comment && !word.ends_with('.') && !["1-0", "0-1", "1/2-1/2", "*"].contains(&word) {
            out.push(word.to_string());
        }
        if word.ends_with('}') {
            in_comment = false;
        }
    }
    out
}

/// Checks every game of `pgn` against its record: tags, result, and the moves replayed from
/// SAN equal the record's opening and moves.
fn check_against_records(pgn: &str, recs: &[serde_json::Value]) {
    let mut games: Vec<String> = Vec::new();
    for line in pgn.lines() {
        if line.starts_with("[Event ") {
            games.push(String::new());
        }
        let game = games.last_mut().expect("a game starts with its Event tag");
        game.push_str(line);
        game.push('\n');
    }
    assert_eq!(games.len(), recs.len(), "{pgn}");
    for game in games.iter().map(String::as_str) {
        let round: u64 = tag(game, "Round").unwrap().parse().unwrap();
        let r = recs
            .iter()
            .find(|r| r["index"].as_u64() == Some(round - 1))
            .unwrap();
        let p1 = r["p1_player"].as_u64().unwrap() as usize;
        assert_eq!(tag(game, "White"), r["players"][p1].as_str());
        assert_eq!(tag(game, "Black"), r["players"][1 - p1].as_str());
        assert_eq!(tag(game, "Result"), r["result"].as_str());
        assert!(tag(game, "Date").is_some_and(|d| d.len() == 10));
        let fen = r["opening"]["fen"].as_str();
        assert_eq!(tag(game, "FEN"), fen, "{game}");
        let mut pos = Chess::new(&Params::default()).unwrap();
        if let Some(f) = fen {
            pos = pos.from_fen(f).unwrap();
        }
        let mut played = Vec::new();
        for san in sans(game) {
            let mv = parse_san(&pos, &san).unwrap_or_else(|e| panic!("{san}: {e}\n{game}"));
            played.push(pos.format_move(mv));
            pos.play(mv);
        }
        let mut want: Vec<String> = (r["opening"]["moves"].as_array().unwrap().iter())
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        want.extend(
            r["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["mv"].as_str().unwrap().to_string()),
        );
        assert_eq!(played, want, "{game}");
        assert_eq!(tag(game, "PlyCount").unwrap(), want.len().to_string());
        assert_eq!(pos.fen(), r["final_fen"].as_str().unwrap());
    }
}

/// python-chess reads the file: no errors, and each game's final position is its record's.
fn python_chess_reads(pgn: &Path, recs: &[serde_json::Value]) {
    if Command::new("python3")
        .args(["-c", "import chess.pgn"])
        .output()
        .is_ok_and(|o| !o.status.success())
    {
        eprintln!("skipped: python-chess is not installed (pip install chess)");
        return;
    }
    let script = "import chess.pgn, sys\n\
        f = open(sys.argv[1])\n\
        while (g := chess.pgn.read_game(f)) is not None:\n\
        \x20   assert not g.errors, g.errors\n\
        \x20   print(g.headers['Round'], g.end().board().fen())\n";
    let out = Command::new("python3")
        .args(["-c", script, pgn.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), recs.len());
    for line in text.lines() {
        let (round, fen) = line.split_once(' ').unwrap();
        let r = recs
            .iter()
            .find(|r| r["index"].as_u64() == Some(round.parse::<u64>().unwrap() - 1))
            .unwrap();
        // python-chess and ply may write an en passant square differently; compare the rest.
        let strip = |f: &str| {
            f.split(' ')
                .enumerate()
                .filter(|&(i, _)| i != 3)
                .map(|(_, w)| w.to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(strip(fen), strip(r["final_fen"].as_str().unwrap()));
    }
}

#[test]
fn pgn_output_with_openings_from_a_pgn_file() {
    let (file, pgn, recs) = match_with_pgn(
        "pgn_from_pgn",
        "chess_openings.pgn",
        &["--opening-plies", "4"],
    );
    assert_eq!(recs.len(), 4);
    for r in &recs {
        assert_eq!(r["opening"]["moves"].as_array().unwrap().len(), 4);
        assert!(r["opening"]["fen"].is_null());
    }
    assert!(pgn.contains("1. e4 {book} e5 2. Nf3 Nc6"), "{pgn}");
    check_against_records(&pgn, &recs);
    python_chess_reads(&file, &recs);
}

#[test]
fn pgn_output_with_openings_from_an_epd_file() {
    let (file, pgn, recs) = match_with_pgn("pgn_from_epd", "chess_openings.epd", &[]);
    assert_eq!(recs.len(), 4);
    assert!(pgn.contains("[SetUp \"1\"]"));
    check_against_records(&pgn, &recs);
    python_chess_reads(&file, &recs);
}

#[test]
fn pgn_and_chess_openings_are_refused_for_other_games() {
    let dir = scratch("pgn_refused");
    for extra in [
        vec!["--pgn", dir.join("x.pgn").to_str().unwrap()],
        vec![
            "--openings",
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/scripts/data/chess_openings.epd"
            ),
        ],
    ] {
        let mut a = args(&["--game", "connect4", "--each", "depth=1"]);
        for who in ["A", "B"] {
            a.push("--engine".into());
            a.extend(ply_words());
            a.push(format!("name={who}"));
        }
        a.extend(args(&extra.iter().map(|s| &**s).collect::<Vec<_>>()));
        let out = run_referee(&a, None);
        assert_eq!(out.status.code(), Some(1), "{extra:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("chess"), "{}", stderr(&out));
    }
}
