//! Whole matches through the built `ply-referee` binary: a 100-game Connect Four match with
//! two workers whose records replay legally, openings files, adjudication, SPRT stopping,
//! verbose logs and the exit codes for usage errors.

mod referee_common;

use std::collections::BTreeSet;

use referee_common::*;

fn engine(extra: &[&str]) -> Vec<String> {
    let mut v = vec!["--engine".to_string()];
    v.extend(ply_words());
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

#[test]
fn hundred_connect4_games_with_two_workers_replay_legally() {
    let dir = scratch("match100");
    let rec = dir.join("games.jsonl");
    let mut a = args(&["--game", "connect4", "--games", "100", "--concurrency", "2"]);
    a.extend(args(&["--repeat", "--random-plies", "4", "--seed", "7"]));
    a.extend(engine(&["name=A"]));
    a.extend(engine(&["name=B"]));
    a.extend(args(&[
        "--each",
        "depth=4",
        "--records",
        rec.to_str().unwrap(),
    ]));
    let out = run_referee(&a, None);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}\n{}", stderr(&out));

    let recs = records(&rec);
    assert_eq!(recs.len(), 100);
    let mut seen = BTreeSet::new();
    let (mut w, mut l, mut d) = (0, 0, 0);
    for r in &recs {
        replay(r).unwrap_or_else(|e| panic!("game {}: {e}", r["index"]));
        assert!(
            seen.insert(r["index"].as_u64().unwrap()),
            "a game recorded twice"
        );
        assert_eq!(r["termination"], "rules");
        assert!(r["referee_ms"].as_f64().unwrap() >= 0.0);
        // Both games of a pair share the opening, with colours swapped.
        assert_eq!(
            r["p1_player"].as_u64().unwrap(),
            r["index"].as_u64().unwrap() % 2
        );
        assert_eq!(r["opening"]["moves"].as_array().unwrap().len(), 4);
        for m in r["moves"].as_array().unwrap() {
            assert!(
                m["depth"].as_u64().unwrap() <= 4,
                "depth=4 was not respected: {m}"
            );
        }
        let first_won = match r["result"].as_str().unwrap() {
            "1-0" => Some(true),
            "0-1" => Some(false),
            _ => None,
        };
        match (first_won, r["p1_player"].as_u64().unwrap()) {
            (None, _) => d += 1,
            (Some(f), p1) if f == (p1 == 0) => w += 1,
            _ => l += 1,
        }
    }
    assert_eq!(seen, (0..100).collect());
    let by_index = |i: u64| recs.iter().find(|r| r["index"] == i).unwrap();
    for k in 0..50 {
        assert_eq!(by_index(2 * k)["opening"], by_index(2 * k + 1)["opening"]);
    }
    assert_eq!(text.matches("Started game ").count(), 100);
    assert_eq!(text.matches("Finished game ").count(), 100);
    let score = line_starting(&text, "Score of A vs B:");
    let ratio = (w as f64 + d as f64 / 2.0) / 100.0;
    assert_eq!(
        score,
        format!("Score of A vs B: {w} - {l} - {d}  [{ratio:.3}] 100")
    );
    let ptnml = line_starting(&text, "Ptnml(0-2): ");
    let counts: u64 = ptnml
        .trim_start_matches("Ptnml(0-2): [")
        .trim_end_matches(']')
        .split(", ")
        .map(|n| n.parse::<u64>().unwrap())
        .sum();
    assert_eq!(counts, 50);
    assert!(text.contains("Elo difference: "));
    assert!(text.trim_end().ends_with("Finished match"));
}

#[test]
fn openings_file_pairs_and_colours() {
    let dir = scratch("openings");
    let book = dir.join("book.txt");
    std::fs::write(
        &book,
        "# first moves\nstartpos moves 1\nposition startpos moves 4\nfen ......./......./......./......./......./...x... o moves 4\n",
    )
    .unwrap();
    let rec = dir.join("r.jsonl");
    let mut a = args(&["--game", "connect4", "--games", "6", "--repeat"]);
    a.extend(args(&["--openings", book.to_str().unwrap()]));
    a.extend(engine(&["depth=2", "name=A"]));
    a.extend(args(&["--engine", "builtin=random", "name=R"]));
    a.extend(args(&["--records", rec.to_str().unwrap()]));
    let out = run_referee(&a, None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let recs = records(&rec);
    assert_eq!(recs.len(), 6);
    let openings: Vec<String> = recs
        .iter()
        .map(|r| r["opening"]["moves"][0].as_str().unwrap().to_string())
        .collect();
    assert_eq!(openings, ["1", "1", "4", "4", "4", "4"]);
    assert_eq!(
        recs[4]["opening"]["fen"],
        "......./......./......./......./......./...x... o"
    );
    for r in &recs {
        replay(r).unwrap();
    }
    // A refused openings file is a usage error.
    std::fs::write(&book, "startpos moves 9\n").unwrap();
    let out = run_referee(&a, None);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("line 1"), "{}", stderr(&out));
}

/// Every game recorded in `rec` replays legally and is a draw adjudicated after `plies` moves.
fn assert_adjudicated_draws(rec: &std::path::Path, plies: usize) {
    for r in records(rec) {
        replay(&r).unwrap();
        assert_eq!(r["termination"], "adjudication");
        assert_eq!(r["result"], "1/2-1/2");
        assert_eq!(r["moves"].as_array().unwrap().len(), plies, "{r}");
    }
}

#[test]
fn maximum_length_adjudicates_a_draw() {
    let dir = scratch("maxplies");
    let rec = dir.join("r.jsonl");
    // Nobody can connect four in 6 plies, so every game reaches the limit.
    let mut a = args(&["--game", "connect4", "--games", "2", "--max-plies", "6"]);
    a.extend(engine(&["depth=3"]));
    a.extend(engine(&["depth=3"]));
    a.extend(args(&["--records", rec.to_str().unwrap()]));
    let out = run_referee(&a, None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_adjudicated_draws(&rec, 6);
    assert!(stdout(&out).contains("{draw by adjudication: maximum length of 6 plies}"));
}

/// The reason recorded for a game ended by the rules names the rule (a chess mate, a dead
/// position), in the records, the summary lines and the PGN.
#[test]
fn the_reason_names_the_rule_that_ended_the_game() {
    let dir = scratch("endings");
    let book = dir.join("book.txt");
    // A mate in one on the back rank; a king whose only move takes the last rook.
    std::fs::write(
        &book,
        "fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1\nfen 8/8/8/3k4/8/8/1r6/K7 w - - 0 1\n",
    )
    .unwrap();
    let rec = dir.join("r.jsonl");
    let pgn = dir.join("g.pgn");
    let mut a = args(&["--game", "chess", "--games", "4", "--repeat"]);
    a.extend(args(&["--openings", book.to_str().unwrap()]));
    a.extend(engine(&["depth=2", "name=A"]));
    a.extend(engine(&["depth=2", "name=B"]));
    a.extend(args(&["--records", rec.to_str().unwrap()]));
    a.extend(args(&["--pgn", pgn.to_str().unwrap()]));
    let out = run_referee(&a, None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let reasons: Vec<String> = records(&rec)
        .iter()
        .map(|r| {
            replay(r).unwrap();
            r["reason"].as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(
        reasons,
        [
            "A wins by checkmate",
            "B wins by checkmate",
            "draw by a dead position",
            "draw by a dead position"
        ]
    );
    assert!(
        stdout(&out).contains("{A wins by checkmate}"),
        "{}",
        stdout(&out)
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("{draw by a dead position} 1/2-1/2"), "{text}");
}

#[test]
fn sprt_stops_the_match_when_it_decides() {
    let dir = scratch("sprt");
    let rec = dir.join("r.jsonl");
    let mut a = args(&["--game", "connect4", "--games", "400", "--repeat"]);
    a.extend(args(&[
        "--sprt",
        "elo0=0",
        "elo1=100",
        "alpha=0.05",
        "beta=0.05",
    ]));
    a.extend(engine(&["depth=4", "name=ply"]));
    a.extend(args(&["--engine", "builtin=random", "name=random"]));
    a.extend(args(&["--records", rec.to_str().unwrap()]));
    let out = run_referee(&a, None);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let n = records(&rec).len();
    assert!(n < 400, "the SPRT did not stop the match ({n} games)");
    let sprt = line_starting(&text, "SPRT: llr ");
    assert!(sprt.contains(" - H1 was accepted"), "{sprt}");
    assert!(sprt.contains("pentanomial"), "{sprt}");
}

#[test]
fn verbose_logs_every_engine_line() {
    let mut a = args(&["--game", "tictactoe", "-v"]);
    a.extend(engine(&["depth=1", "name=one"]));
    a.extend(engine(&["depth=1", "name=two"]));
    let out = run_referee(&a, None);
    assert_eq!(out.status.code(), Some(0));
    let err = stderr(&out);
    for want in [
        "> one: uci",
        "< one: uciok",
        "> two: newgame tictactoe",
        "< two: bestmove ",
    ] {
        assert!(err.contains(want), "no '{want}' in:\n{err}");
    }
}

#[test]
fn usage_errors_exit_with_1_and_missing_engines_with_2() {
    let cases: [&[&str]; 5] = [
        &["--game", "connect4"],
        &[
            "--game",
            "go",
            "--engine",
            "builtin=random",
            "--engine",
            "builtin=random",
        ],
        &[
            "--game",
            "connect4",
            "--engine",
            "cmd=x",
            "--engine",
            "builtin=random",
        ],
        &[
            "--game", "connect4", "--engine", "cmd=x", "bogus=1", "depth=1", "--engine", "random",
        ],
        &[
            "--game", "connect4", "--games", "x", "--engine", "random", "--engine", "random",
        ],
    ];
    for c in cases {
        let out = run_referee(&args(c), None);
        assert_eq!(out.status.code(), Some(1), "{c:?}: {}", stderr(&out));
        assert!(!stderr(&out).is_empty());
    }
    let a = args(&[
        "--game",
        "tictactoe",
        "--engine",
        "cmd=/nonexistent/engine",
        "depth=1",
        "--engine",
        "random",
    ]);
    let out = run_referee(&a, None);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("cannot start"), "{}", stderr(&out));
}

#[test]
fn score_adjudication_resigns_and_draws() {
    let dir = scratch("score-adjudication");
    // Perfect tic-tac-toe scores every position 0: a draw once each side said so twice.
    let rec = dir.join("draw.jsonl");
    let mut a = args(&["--game", "tictactoe", "--games", "2"]);
    a.extend(args(&["--draw", "movenumber=1", "movecount=2", "score=0"]));
    a.extend(engine(&["depth=9"]));
    a.extend(engine(&["depth=9"]));
    a.extend(args(&["--records", rec.to_str().unwrap()]));
    let out = run_referee(&a, None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_adjudicated_draws(&rec, 4);
    // Connect Four at depth 7 finds forced wins: the loser resigns after two mate scores.
    let rec = dir.join("resign.jsonl");
    let mut a = args(&["--game", "connect4", "--games", "4", "--random-plies", "4"]);
    a.extend(args(&["--resign", "movecount=2", "score=1000"]));
    a.extend(engine(&["depth=7", "name=A"]));
    a.extend(engine(&["depth=7", "name=B"]));
    a.extend(args(&["--records", rec.to_str().unwrap()]));
    let out = run_referee(&a, None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let recs = records(&rec);
    let resigned: Vec<&serde_json::Value> = recs
        .iter()
        .filter(|r| r["termination"] == "adjudication")
        .collect();
    assert!(!resigned.is_empty(), "no game was adjudicated: {recs:?}");
    for r in resigned {
        replay(r).unwrap();
        let moves = r["moves"].as_array().unwrap();
        // The loser's last two moves (every other move from the end) carried losing mates.
        for m in [&moves[moves.len() - 1], &moves[moves.len() - 3]] {
            let score = m["score"].as_str().unwrap();
            assert!(score.starts_with("mate -"), "{score} in {r}");
        }
        let loser = r["reason"].as_str().unwrap().split(' ').next().unwrap();
        let loser_is_p1 = r["players"][r["p1_player"].as_u64().unwrap() as usize] == loser;
        assert_eq!(r["result"], if loser_is_p1 { "0-1" } else { "1-0" }, "{r}");
    }
}
