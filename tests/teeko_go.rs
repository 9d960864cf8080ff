//! Perfect Teeko through the protocol: `go` answers from the tablebase with exact scores and
//! `tbhits`, and a fresh user (no table yet) gets the table built in the background without
//! doing anything, playing the heuristic search meanwhile.

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use common::PlyProcess;

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ply-teeko-go-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn go_answers_from_the_table() {
    let dir = scratch("built");
    let status = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["solve", "teeko"])
        .env("PLY_TABLES", &dir)
        .status()
        .unwrap();
    assert!(status.success());
    let dir_text = dir.to_str().unwrap();
    let mut e =
        PlyProcess::start_with_env(&[("PLY_TABLES", dir_text), ("PLY_TABLES_AUTOBUILD", "0")]);
    e.send("newgame teeko");

    // The start is a draw (Steele), proven at once.
    let g = e.go("go movetime 1000");
    assert_eq!(g.score(), "cp 0");
    assert!(
        g.field("tbhits")
            .is_some_and(|n| n.parse::<u64>().unwrap() > 0)
    );

    // Black wins in 2 moves: c2 to complete a square next move whatever Red does.
    e.send("position fen rr.rr/...../....b/...../.bbb. b");
    let g = e.go("go depth 1");
    assert_eq!(g.score(), "mate 2");
    // Play it out: the engine's moves for both sides end the game on the third ply.
    let mut moves = vec![g.bestmove.clone()];
    for _ in 0..2 {
        e.send(&format!(
            "position fen rr.rr/...../....b/...../.bbb. b moves {}",
            moves.join(" ")
        ));
        moves.push(e.go("go depth 1").bestmove);
    }
    e.send(&format!(
        "position fen rr.rr/...../....b/...../.bbb. b moves {}",
        moves.join(" ")
    ));
    assert_eq!(e.query("result"), "p1win");

    // The longest forced win of standard Teeko: 39 plies, mate 20.
    e.send("position fen r..r./....r/b...b/.b.../.r..b b");
    assert_eq!(e.go("go").score(), "mate 20");

    // The losing side is told how long it lasts (slowest loss).
    e.send("position fen rr.rr/...../....b/...../.bbb. b moves b1c2");
    assert_eq!(e.go("go depth 1").score(), "mate -1");

    // UseSolver false: the heuristic searcher, no table.
    e.send("setoption name UseSolver value false");
    e.send("position startpos");
    let g = e.go("go depth 3");
    assert!(g.field("tbhits").is_none());
    assert!(g.field("hashfull").is_some());
}

#[test]
fn a_fresh_user_gets_the_table_without_asking() {
    let dir = scratch("fresh");
    let dir_text = dir.to_str().unwrap();
    let mut e =
        PlyProcess::start_with_env(&[("PLY_TABLES", dir_text), ("PLY_TABLES_AUTOBUILD", "1")]);
    e.send("newgame teeko");
    // The first go finds no table: it starts the build and answers with the search.
    let first = e.go("go depth 2");
    assert!(first.field("tbhits").is_none());
    let t = Instant::now();
    loop {
        let g = e.go("go depth 2");
        if g.field("tbhits").is_some() {
            assert_eq!(g.score(), "cp 0");
            break;
        }
        assert!(
            t.elapsed() < Duration::from_secs(600),
            "no table after 10 minutes"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    assert!(
        dir.join("teeko-standard-v1.plytb").is_file(),
        "the table was saved for next time"
    );
}

/// End of input while the table is still being built: the build is abandoned with the
/// process, which leaves neither its lock file nor a temporary file behind (it used to leave
/// the lock).
#[test]
fn end_of_input_during_a_build_leaves_no_lock() {
    let dir = scratch("abandoned");
    let dir_text = dir.to_str().unwrap();
    let mut e =
        PlyProcess::start_with_env(&[("PLY_TABLES", dir_text), ("PLY_TABLES_AUTOBUILD", "1")]);
    e.send("newgame teeko advanced=true");
    let g = e.go("go depth 1");
    assert!(
        g.field("tbhits").is_none(),
        "no table yet: the build starts"
    );
    e.close();
    assert_eq!(e.wait(Duration::from_secs(60)), Some(0));
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|f| f.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name != "teeko-advanced-v1.plytb")
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// `PLY_TABLES` names the only directory: when it cannot be written, the table is built in
/// memory (and used), never saved elsewhere behind the user's back.
#[test]
fn an_explicit_table_directory_is_never_replaced() {
    let dir = scratch("explicit");
    let blocker = dir.join("a-file");
    std::fs::write(&blocker, "not a directory").unwrap();
    let tables = blocker.join("tables");
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let mut e = PlyProcess::start_with_env(&[
        ("PLY_TABLES", tables.to_str().unwrap()),
        ("PLY_TABLES_AUTOBUILD", "1"),
        ("TMPDIR", tmp.to_str().unwrap()),
    ]);
    e.send("newgame teeko");
    let t = Instant::now();
    while e.go("go depth 2").field("tbhits").is_none() {
        assert!(
            t.elapsed() < Duration::from_secs(600),
            "no table after 10 minutes"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    assert!(
        std::fs::read_dir(&tmp).unwrap().next().is_none(),
        "nothing was written to the fallback directory"
    );
}

/// Advanced Teeko's first `go` on a machine without its table: the build starts, and the
/// table, ready within the solver's share of the time (half of `movetime`), answers this very
/// `go` (the search used to answer, though the table was on disk within seconds).
#[test]
fn a_table_built_within_the_budget_answers_the_first_go() {
    let dir = scratch("first-go");
    let dir_text = dir.to_str().unwrap();
    let mut e =
        PlyProcess::start_with_env(&[("PLY_TABLES", dir_text), ("PLY_TABLES_AUTOBUILD", "1")]);
    e.send("newgame teeko advanced=true");
    let g = e.go("go movetime 1200000");
    assert!(
        g.field("tbhits")
            .is_some_and(|n| n.parse::<u64>().unwrap() > 0),
        "{:?}",
        g.infos
    );
    assert!(g.field("hashfull").is_none(), "the solver answered alone");
}
