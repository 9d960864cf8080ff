//! ply against Fairy-Stockfish 11.1 (Debian package `fairy-stockfish`, installed as
//! /usr/games/fairy-stockfish) at Connect Four and tic-tac-toe, through the variants file
//! and notation translation of `ply::client::fsf`. Skipped, with a message on stderr, when
//! the engine is not installed.

mod referee_common;

use std::path::PathBuf;

use referee_common::*;

fn fairy_stockfish() -> Option<PathBuf> {
    let in_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("fairy-stockfish"))
            .find(|p| p.is_file())
    });
    in_path.or_else(|| {
        let p = PathBuf::from("/usr/games/fairy-stockfish");
        p.is_file().then_some(p)
    })
}

/// Plays ply against FSF and checks every game: legal moves on both sides, no forfeit.
fn play_fsf(test: &str, game: &str, ply_limit: &str, fsf_limit: &str, extra: &[&str]) {
    let Some(fsf) = fairy_stockfish() else {
        eprintln!(
            "skipped {test}: fairy-stockfish not found in PATH or /usr/games \
             (install the Debian package fairy-stockfish)"
        );
        return;
    };
    let dir = scratch(test);
    let rec = dir.join("r.jsonl");
    let mut a = args(&["--game", game, "--repeat"]);
    a.push("--engine".into());
    a.extend(ply_words());
    a.extend(args(&["name=ply", ply_limit]));
    a.extend(args(&[
        "--engine",
        &format!("cmd={}", fsf.display()),
        "name=fsf",
        fsf_limit,
    ]));
    a.extend(args(&["--records", rec.to_str().unwrap()]));
    a.extend(args(extra));
    let out = run_referee(&a, None);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}\n{}", stderr(&out));
    assert_eq!(
        line_starting(&text, "Forfeits: "),
        "Forfeits: ply none; fsf none"
    );
    let recs = records(&rec);
    assert!(!recs.is_empty());
    for r in &recs {
        replay(r).unwrap_or_else(|e| panic!("{test}: {e}\n{r}"));
        assert_eq!(r["termination"], "rules", "{r}");
        let fsf_is_p1 = r["p1_player"] == 1;
        let moves = r["moves"].as_array().unwrap();
        assert!(moves.len() >= 2, "{r}");
        for (i, m) in moves.iter().enumerate() {
            // Plies alternate from the side to move at the opening's base position.
            let opening = r["opening"]["moves"].as_array().unwrap().len();
            let base_second = r["opening"]["fen"]
                .as_str()
                .is_some_and(|f| f.ends_with(" o"));
            let by_first = ((opening + i) % 2 == 0) != base_second;
            let by_fsf = by_first == fsf_is_p1;
            let raw = m["raw"].as_str();
            if by_fsf {
                assert!(
                    raw.is_some_and(|t| t.starts_with("P@")),
                    "an FSF move without its drop: {m}"
                );
            } else {
                assert!(raw.is_none(), "a ply move with a translation: {m}");
            }
        }
    }
}

#[test]
fn ply_plays_fairy_stockfish_at_connect_four() {
    let dir = scratch("fsf-book");
    let book = dir.join("book.txt");
    // A FEN opening too, so FSF's pocket FENs are exercised.
    std::fs::write(
        &book,
        "startpos moves 4 4\nfen ......./......./......./......./......./...x... o\n",
    )
    .unwrap();
    play_fsf(
        "fsf-connect4",
        "connect4",
        "depth=6",
        "depth=8",
        &["--games", "4", "--openings", book.to_str().unwrap()],
    );
}

#[test]
fn ply_plays_fairy_stockfish_at_tictactoe() {
    play_fsf(
        "fsf-tictactoe",
        "tictactoe",
        "depth=9",
        "depth=9",
        &["--games", "2"],
    );
}
