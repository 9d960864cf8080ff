//! Helpers for the referee's integration tests: the built binaries, scratch directories,
//! and an independent replay of records with ply's rules.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use ply::game::{Game, Outcome, Params, Player};

pub fn ply() -> &'static str {
    env!("CARGO_BIN_EXE_ply")
}

/// The words of an `--engine` group for ply as these tests want it: the plain searcher
/// (`UseSolver` off), so a fixed depth means that depth and costs what it did.
pub fn ply_words() -> Vec<String> {
    vec![
        format!("cmd={}", ply()),
        "option.UseSolver=false".to_string(),
    ]
}

/// Engines started by the referee inherit this: no tables are looked for in the user's
/// directories, and none is built in the background.
pub fn hermetic(cmd: &mut Command) -> &mut Command {
    let dir = std::env::temp_dir().join(format!("ply-test-no-tables-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    cmd.env("PLY_TABLES", dir).env("PLY_TABLES_AUTOBUILD", "0")
}

pub fn referee() -> &'static str {
    env!("CARGO_BIN_EXE_ply-referee")
}

/// The fake engine script (see tests/fakes/fake_engine.py).
pub fn fake() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fakes/fake_engine.py").to_string()
}

/// A fresh, empty directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ply-referee-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("cannot create a scratch directory");
    dir
}

/// Runs the referee with `args`, feeding `stdin` (or nothing).
pub fn run_referee(args: &[String], stdin: Option<&str>) -> Output {
    let mut child = hermetic(&mut Command::new(referee()))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot start ply-referee");
    let mut input = child.stdin.take().expect("piped");
    if let Some(text) = stdin {
        // The referee may stop reading early (a finished game); that is not an error here.
        let _ = input.write_all(text.as_bytes());
    }
    drop(input);
    child
        .wait_with_output()
        .expect("ply-referee did not finish")
}

pub fn args(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The records file, one parsed JSON value per line (every line must parse).
pub fn records(path: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(path).expect("cannot read the records file");
    text.lines()
        .enumerate()
        .map(|(i, l)| {
            serde_json::from_str(l)
                .unwrap_or_else(|e| panic!("record line {} is not JSON: {e}", i + 1))
        })
        .collect()
}

/// The line of `out` that starts with `prefix` (the last one, as scripts read cutechess).
pub fn line_starting<'a>(out: &'a str, prefix: &str) -> &'a str {
    out.lines()
        .rev()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line starting with '{prefix}' in:\n{out}"))
}

fn replay_typed<G: Game>(r: &serde_json::Value) -> Result<(), String> {
    let params_text = r["params"].as_str().ok_or("no params")?;
    let params = Params::parse(params_text.split_whitespace()).map_err(|e| e.to_string())?;
    let mut pos = G::new(&params).map_err(|e| e.to_string())?;
    if let Some(fen) = r["opening"]["fen"].as_str() {
        pos = pos.from_fen(fen).map_err(|e| e.to_string())?;
    }
    let opening = r["opening"]["moves"].as_array().ok_or("no opening moves")?;
    let moves = r["moves"].as_array().ok_or("no moves")?;
    let texts = opening
        .iter()
        .map(|m| m.as_str().map(str::to_string))
        .chain(moves.iter().map(|m| m["mv"].as_str().map(str::to_string)));
    for (i, text) in texts.enumerate() {
        let text = text.ok_or(format!("move {} is not text", i + 1))?;
        if pos.outcome().is_some() {
            return Err(format!("move {} '{text}' after the game ended", i + 1));
        }
        let mv = pos
            .parse_move(&text)
            .map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
        pos.play(mv);
    }
    let result = r["result"].as_str().ok_or("no result")?;
    let termination = r["termination"].as_str().ok_or("no termination")?;
    match (termination, pos.outcome()) {
        ("rules", Some(o)) => {
            let want = match o {
                Outcome::Win(Player::First) => "1-0",
                Outcome::Win(Player::Second) => "0-1",
                Outcome::Draw => "1/2-1/2",
            };
            if want == result {
                Ok(())
            } else {
                Err(format!("recorded {result}, the rules give {want}"))
            }
        }
        ("rules", None) => Err("recorded as ended by the rules, but the game is open".into()),
        (_, Some(o)) => Err(format!(
            "ended by {termination}, but the rules had already ended it ({o:?})"
        )),
        (_, None) => Ok(()),
    }
}

/// Replays a record with ply's rules: every move legal, and the recorded result the one the
/// rules give (or, for a game ended otherwise, the game still open by the rules).
pub fn replay(r: &serde_json::Value) -> Result<(), String> {
    let game = r["game"].as_str().ok_or("no game")?;
    ply::with_game!(game, G => replay_typed::<G>(r), _ => Err(format!("unknown game {game}")))
}
