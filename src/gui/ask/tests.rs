use serde_json::{Value, json};

use super::{Ask, answer, pgn::Upload};

/// Asks one question, given as the page sends it.
fn ask(q: Value) -> Result<Value, String> {
    let ask: Ask = serde_json::from_value(q).expect("a well-formed question");
    answer(ask, &mut Upload::default())
}

fn at(game: &str, params: &str, moves: &[&str]) -> Value {
    json!({ "game": game, "params": params, "moves": moves })
}

#[test]
fn positions_are_described_with_the_rules_words() {
    let d = ask(json!({"q": "position", "at": at("tictactoe", "", &["a1", "b2", "c3", "b1", "b3", "a3", "c1", "c2", "a2"])})).unwrap();
    assert_eq!(d["result"], "draw");
    assert_eq!(d["reason"], "a full board");
    assert_eq!(d["legal"], json!([]));
    let d = ask(json!({"q": "position", "at": at("tictactoe", "", &["b2", "a1", "c3", "a3", "a2", "c1", "b1", "b3", "c2"])})).unwrap();
    assert_eq!(
        (d["result"].as_str(), d["reason"].as_str()),
        (Some("p1win"), Some("three in a row"))
    );
    // c2 b2 a2 is X's row: files 0-2 on rank 1 (from 0).
    assert_eq!(d["win"], json!([[0, 1], [1, 1], [2, 1]]));
    assert_eq!(d["labels"][0], "1. b2");
    let d = ask(json!({"q": "position", "at": at("connect4", "width=5 height=4", &["1", "2", "1", "2", "1", "2", "1"])})).unwrap();
    assert_eq!(d["reason"], "four in a row");
    assert_eq!(d["win"], json!([[0, 0], [0, 1], [0, 2], [0, 3]]));
    assert_eq!(d["params"], "width=5 height=4");
    let d = ask(json!({"q": "position", "at": at("teeko", "", &["a1", "e5", "b1", "e4", "c1", "e3", "d1"])})).unwrap();
    assert_eq!(d["reason"], "four markers on a goal");
    assert_eq!(d["win"], json!([[0, 0], [1, 0], [2, 0], [3, 0]]));
    let d =
        ask(json!({"q": "position", "at": at("nim", "heaps=1,1 misere=true", &["1:1", "2:1"])}))
            .unwrap();
    assert_eq!(
        (d["result"].as_str(), d["reason"].as_str()),
        (Some("p1win"), Some("the other side taking the last object"))
    );
}

#[test]
fn chess_is_named_in_san_with_its_endings() {
    let d = ask(json!({"q": "position", "at": at("chess", "", &["f2f3", "e7e5", "g2g4", "d8h4"])}))
        .unwrap();
    assert_eq!(d["labels"], json!(["1. f3", "e5", "2. g4", "Qh4#"]));
    assert_eq!(
        (d["result"].as_str(), d["reason"].as_str()),
        (Some("p2win"), Some("checkmate"))
    );
    assert_eq!(d["check"], "e1");
    let knights = [
        "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
    ];
    let d = ask(json!({"q": "position", "at": at("chess", "", &knights)})).unwrap();
    assert_eq!(
        (d["result"].as_str(), d["reason"].as_str()),
        (Some("draw"), Some("threefold repetition"))
    );
    // Castling is offered on the king's destination and on the rook; Black to move first
    // numbers its move with an ellipsis.
    let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 7";
    let d = ask(json!({"q": "position", "at": {"game": "chess", "fen": fen, "moves": ["e8g8"]}}))
        .unwrap();
    assert_eq!(d["labels"], json!(["7… O-O"]));
    assert_eq!(d["start_side"], "p2");
    let castle = d["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["mv"] == "e1c1")
        .unwrap()
        .clone();
    assert_eq!(
        castle,
        json!({"mv": "e1c1", "name": "O-O-O", "also": ["a1"]})
    );
}

#[test]
fn a_typed_move_is_one_move_in_the_games_notation_or_san() {
    let c4 = at("connect4", "", &[]);
    let e = ask(json!({"q": "play", "at": c4, "mv": "4 4 4"})).unwrap_err();
    assert!(e.starts_with("One move at a time"), "{e}");
    let p = ask(json!({"q": "play", "at": at("chess", "", &[]), "mv": "Nf3"})).unwrap();
    assert_eq!(p["mv"], "g1f3");
    assert_eq!(p["position"]["labels"], json!(["1. Nf3"]));
    let e = ask(json!({"q": "play", "at": at("chess", "", &["g1f3"]), "mv": "Nc3"})).unwrap_err();
    assert!(e.starts_with("'Nc3' is not a legal move here"), "{e}");
    let e = ask(json!({"q": "play", "at": at("chess", "", &[]), "mv": "a2a5"})).unwrap_err();
    assert_eq!(e, "A pawn on a2 cannot move to a5.");
    let full = at("connect4", "", &["4", "4", "4", "4", "4", "4"]);
    assert_eq!(
        ask(json!({"q": "play", "at": full, "mv": "4"})).unwrap_err(),
        "Column 4 is full."
    );
    let mated = at("chess", "", &["f2f3", "e7e5", "g2g4", "d8h4"]);
    assert_eq!(
        ask(json!({"q": "play", "at": mated, "mv": "zzz"})).unwrap_err(),
        "The game is over (checkmate)."
    );
    let e = ask(json!({"q": "position", "at": at("connect4", "", &["4", "9"])})).unwrap_err();
    assert_eq!(e, "Move 2 (9): '9' is not a column number 1..7.");
}

#[test]
fn move_values_from_the_childs_score() {
    let v = |at: Value, mv: &str, score: &str, proven: bool| {
        ask(json!({"q": "value", "at": at, "mv": mv, "score": score, "proven": proven})).unwrap()
    };
    // Connect Four's empty board: the centre wins with the 21st disc (Pons +1); the child
    // position is lost for the opponent in 20 of its moves.
    let c4 = at("connect4", "", &[]);
    assert_eq!(
        v(c4.clone(), "4", "mate -20", true),
        json!({"verdict": "win", "n": 21, "pons": 1})
    );
    assert_eq!(
        v(c4.clone(), "3", "cp 0", true),
        json!({"verdict": "draw", "n": 0, "pons": 0})
    );
    assert_eq!(
        v(c4, "1", "cp 35", false),
        json!({"verdict": "unknown", "n": -35})
    );
    // Misère Nim: the player who takes the last object loses.
    let nim = at("nim", "heaps=1,1 misere=true", &["1:1"]);
    assert_eq!(v(nim, "2:1", "mate 0", true)["verdict"], "win");
    let nim = at("nim", "heaps=2 misere=true", &[]);
    assert_eq!(
        v(nim.clone(), "1", "mate -1", true),
        json!({"verdict": "win", "n": 1})
    );
    let won = ask(
        json!({"q": "value", "at": nim, "mv": "2", "score": "mate 0", "won": true, "proven": true}),
    )
    .unwrap();
    assert_eq!(won, json!({"verdict": "loss", "n": 1}));
}

#[test]
fn lines_are_named_until_a_move_is_not_legal() {
    let l = ask(json!({"q": "line", "at": at("chess", "", &["e2e4"]), "line": ["e7e5", "g1f3", "zz", "b8c6"]})).unwrap();
    assert_eq!(l["names"], json!(["e5", "Nf3"]));
    assert_eq!(l["fens"].as_array().unwrap().len(), 2);
}

#[test]
fn pgn_files_are_listed_then_read() {
    let file = "[Event \"a\"]\n[White \"x\"]\n[Black \"y\"]\n[Result \"1-0\"]\n\n1. e4 {best} e5 (1... c5) 2. Nf3 $1 1-0\n\n\
                [Event \"b\"]\n[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]\n\n1. g3 *\n";
    let mut up = Upload::default();
    let half = file.len() / 2;
    assert_eq!(
        up.part(&file[..half], true, false).unwrap()["received"],
        half
    );
    let list = up.part(&file[half..], false, true).unwrap();
    assert_eq!(list["count"], 2);
    assert_eq!(list["games"][0]["white"], "x");
    assert_eq!(list["games"][0]["plies"], 3);
    let g = up.game(1).unwrap();
    assert_eq!(g["moves"], json!(["e2e4", "e7e5", "g1f3"]));
    let g = up.game(2).unwrap();
    assert_eq!(
        (g["params"].as_str(), g["moves"].clone()),
        (Some("chess960=true"), json!(["g2g3"]))
    );
    assert!(up.game(3).unwrap_err().contains("no game 3"));
    assert!(
        up.part("x", true, false).is_ok() && up.game(1).is_err(),
        "a new file forgets the old"
    );
}

#[test]
fn unknown_games_and_bad_parameters_are_refused_in_words() {
    assert!(
        ask(json!({"q": "position", "at": at("go", "", &[])}))
            .unwrap_err()
            .contains("no game 'go'")
    );
    let e = ask(json!({"q": "position", "at": at("connect4", "width=0", &[])})).unwrap_err();
    assert_eq!(e, "Parameter width=0: expected an integer from 1 to 63.");
}

#[test]
fn pgn_is_written_with_clocks_and_without_a_termination_while_the_game_goes_on() {
    let game = json!({
        "params": "", "white": "human", "black": "ply depth=2", "result": "*",
        "termination": "adjudication", "reason": "", "started_ms": 0,
        "moves": [{"mv": "e2e4", "ms": 3210.0, "clock_ms": 296789}, {"mv": "e7e5"}],
    });
    let pgn = ask(json!({"q": "pgn", "game": game})).unwrap()["pgn"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(pgn.contains("[Event \"ply gui\"]"), "{pgn}");
    assert!(!pgn.contains("[Termination"), "{pgn}");
    // The person's time and clock after the move; nothing for a move with nothing to say.
    assert!(pgn.contains("1. e4 {3.21s [%clk 0:04:56.7]} e5 *"), "{pgn}");
}
