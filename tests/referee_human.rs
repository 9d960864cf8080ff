//! The human seat, driven through piped input: a full game with bad input along the way,
//! the end of input, and resigning.

mod referee_common;

use referee_common::*;

fn human_vs_random(input: &str) -> (Option<i32>, String, String, Vec<serde_json::Value>) {
    let dir = scratch(&format!("human-{}", input.len()));
    let rec = dir.join("r.jsonl");
    let mut a = args(&["--game", "tictactoe", "--seed", "5"]);
    a.extend(args(&[
        "--engine",
        "human",
        "name=me",
        "--engine",
        "builtin=random",
        "name=rnd",
    ]));
    a.extend(args(&["--records", rec.to_str().unwrap()]));
    let out = run_referee(&a, Some(input));
    let recs = if rec.exists() { records(&rec) } else { vec![] };
    (out.status.code(), stdout(&out), stderr(&out), recs)
}

#[test]
fn a_full_game_survives_bad_input() {
    // Junk, an off-board cell, a blank line, a repeated cell, then every cell in turn: each
    // refused line is explained and asked for again, so some line is always legal.
    let mut input = String::from("hello\nz9\n\nb2\nb2\n");
    for _ in 0..3 {
        input.push_str("a1\na2\na3\nb1\nb3\nc1\nc2\nc3\n");
    }
    let (code, out, err, recs) = human_vs_random(&input);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert_eq!(recs.len(), 1);
    replay(&recs[0]).unwrap();
    assert_eq!(recs[0]["termination"], "rules");
    assert_eq!(recs[0]["moves"][0]["mv"], "b2");
    assert!(out.contains("Finished game 1 (me vs rnd): "), "{out}");
    for want in [
        "'hello' is not a cell a1..c3",
        "'z9' is not a cell a1..c3",
        "b2 is occupied",
        "Legal moves: a1 a2 a3 b1 b2 b3 c1 c2 c3",
        "me (p1) to move",
        "Game over: ",
    ] {
        assert!(err.contains(want), "no '{want}' in:\n{err}");
    }
}

#[test]
fn the_end_of_input_forfeits_and_the_match_finishes() {
    let (code, out, err, recs) = human_vs_random("b2\n");
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0]["termination"], "crash");
    assert_eq!(recs[0]["culprit"], 0);
    assert_eq!(recs[0]["result"], "0-1");
    assert!(out.contains("{me disconnects: input ended}"), "{out}");
}

#[test]
fn resigning_loses() {
    let (code, out, _, recs) = human_vs_random("resign\n");
    assert_eq!(code, Some(0));
    assert_eq!(recs[0]["termination"], "resign");
    assert_eq!(recs[0]["moves"].as_array().unwrap().len(), 0);
    assert!(out.contains("0-1 {me resigns}"), "{out}");
}
