//! `ply analyse` through the binary: every input form, order kept across threads, bad lines
//! reported with their line numbers without stopping the run.

use std::io::Write;
use std::process::{Command, Stdio};

fn analyse(args: &[&str], input: &str) -> (i32, String, String) {
    // No Teeko table here (see tests/common): its positions get heuristic answers.
    let tables = std::env::temp_dir().join(format!("ply-test-no-tables-{}", std::process::id()));
    std::fs::create_dir_all(&tables).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .env("PLY_TABLES", &tables)
        .env("PLY_TABLES_AUTOBUILD", "0")
        .arg("analyse")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

const INPUT: &str = "\
# a comment, then a blank line

tictactoe fen x../..o/ox. x
nim heaps=3,4,5 startpos
nim length=12 startpos moves 1
this is not a position
connect4 startpos moves 4 4 4 4 4 4 4
teeko startpos moves c3 b2
12121212 -1
212121 18
";

#[test]
fn every_input_form_in_order_with_errors_reported() {
    let (code, out, err) = analyse(&["--threads", "2", "--depth", "6"], INPUT);
    assert_eq!(code, 2, "bad lines make the exit status 2; stderr: {err}");
    let rows: Vec<Vec<&str>> = out.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(
        rows[0].join("\t"),
        "line\tgame\tbest\tscore\tproven\tpons\texpected\tdepth\tnodes\ttime_us\tposition"
    );
    let lines: Vec<&str> = rows[1..].iter().map(|r| r[0]).collect();
    assert_eq!(
        lines,
        ["3", "4", "5", "8", "10"],
        "input order, good lines only"
    );
    // tic-tac-toe: b2 or b3 wins (mate 2), proven by the solver.
    assert!(["b2", "b3"].contains(&rows[1][2]) && rows[1][3] == "mate 2" && rows[1][4] == "true");
    // Nim 3,4,5 with takes of 1..3 is a first-player win.
    assert!(rows[2][3].starts_with("mate ") && !rows[2][3].starts_with("mate -"));
    // Nim 12 after taking 1 leaves 11: take 3 to leave 8.
    assert_eq!(rows[3][2], "3");
    // teeko: a heuristic answer at depth 6, not proven.
    assert_eq!(
        (rows[4][1], rows[4][4], rows[4][7]),
        ("teeko", "false", "6")
    );
    // Pons' format: expected score in its column, and the proven Pons score beside it.
    assert_eq!(
        (rows[5][1], rows[5][5], rows[5][6]),
        ("connect4", "18", "18")
    );
    assert!(
        err.contains("line 6: expected startpos, fen or a game name"),
        "{err}"
    );
    assert!(
        err.contains("line 7: move 7 '4': illegal move: column 4 is full"),
        "{err}"
    );
    assert!(
        err.contains("line 9: move 8 '2': illegal move: 2: the game is over (p1win)"),
        "{err}"
    );
    assert!(
        err.contains("ply analyse: 5 positions, 4 proven, 3 bad lines"),
        "{err}"
    );
}

#[test]
fn json_lines() {
    let (code, out, _) = analyse(&["--format", "jsonl", "--threads", "1"], "nim startpos\n");
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["line"], 1);
    assert_eq!(v["game"], "nim");
    assert_eq!(v["best"], "2");
    assert_eq!(v["score"], "mate 3");
    assert_eq!(v["proven"], true);
}
