//! Chess through the protocol: the rules as a client sees them (results, notation, errors)
//! and a sanity check of the searcher on chess (a mate in one, a hanging queen).

mod common;

use common::PlyProcess;

fn chess() -> PlyProcess {
    let mut e = PlyProcess::start();
    e.send("newgame chess");
    e
}

#[test]
fn go_depth_3_mates_in_one() {
    let mut e = chess();
    // White: Rd1-d8 mates the king boxed in by its own pawns.
    e.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    let g = e.go("go depth 3");
    assert_eq!(g.bestmove, "d1d8");
    assert_eq!(g.score(), "mate 1");
    // The same for Black, and a queen mate next to the king.
    e.send("position fen 3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1");
    let g = e.go("go depth 3");
    assert_eq!(
        (g.bestmove.as_str(), g.score().as_str()),
        ("d8d1", "mate 1")
    );
    e.send("position fen 7k/8/5KQ1/8/8/8/8/8 w - - 0 1");
    let g = e.go("go depth 3");
    assert_eq!(g.score(), "mate 1");
    assert!(["g6g7", "g6h7", "g6h6", "g6e8", "g6g8"].contains(&g.bestmove.as_str()));
    e.send(&format!(
        "position fen 7k/8/5KQ1/8/8/8/8/8 w - - 0 1 moves {}",
        g.bestmove
    ));
    assert_eq!(e.query("result"), "p1win");
}

#[test]
fn go_depth_3_takes_a_hanging_queen() {
    let mut e = chess();
    // 1. e4 e5 2. Nf3 Qh4?: the knight takes the queen for nothing.
    e.send("position startpos moves e2e4 e7e5 g1f3 d8h4");
    let g = e.go("go depth 3");
    assert_eq!(g.bestmove, "f3h4");
    let cp: i32 = g.score().strip_prefix("cp ").unwrap().parse().unwrap();
    assert!(cp > 600, "{cp}");
    // And Black takes a queen left en prise.
    e.send("position startpos moves e2e4 d7d5 d1g4");
    let g = e.go("go depth 3");
    assert_eq!(g.bestmove, "c8g4");
    e.send("position startpos moves d2d4 e7e5 d1d3 e5d4 d3d4 b8c6");
    let g = e.go("go depth 3");
    // White's queen on d4 is attacked by the knight: it must move, not be lost.
    assert!(g.bestmove.starts_with("d4"), "{}", g.bestmove);
}

#[test]
fn results_through_the_protocol() {
    let mut e = chess();
    e.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    assert_eq!(e.query("gameover"), "true");
    assert_eq!(e.query("result"), "p2win");
    assert_eq!(e.query("legalmoves"), "");
    let g = e.go("go depth 5");
    assert_eq!(g.bestmove, "(none)");
    assert_eq!(g.infos, ["info depth 0 score mate 0"]);
    for (fen, result) in [
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "draw"),   // stalemate
        ("8/8/4k3/8/8/3K4/8/5B2 w - - 0 1", "draw"),  // dead position
        ("7k/8/6K1/8/8/8/8/R7 w - - 100 80", "draw"), // fifty moves
        ("7k/8/6K1/8/8/8/8/R7 w - - 99 80", "none"),
    ] {
        e.send(&format!("position fen {fen}"));
        assert_eq!(e.query("result"), result, "{fen}");
    }
    e.send("position fen 7k/8/6K1/8/8/8/8/R7 w - - 99 80 moves a1a8");
    assert_eq!(
        e.query("result"),
        "p1win",
        "a mate on the hundredth ply wins"
    );
}

#[test]
fn notation_and_errors_through_the_protocol() {
    let mut e = chess();
    e.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let moves = e.query("legalmoves");
    assert!(moves.contains("e1g1") && moves.contains("e1c1") && !moves.contains("e1h1"));
    assert_eq!(e.query("islegal e1h1"), "true");
    e.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1h1 e8c8");
    assert_eq!(e.query("fen"), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");

    e.send("newgame chess chess960=true");
    e.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let moves = e.query("legalmoves");
    assert!(moves.contains("e1h1") && moves.contains("e1a1") && !moves.contains("e1g1"));

    e.send("newgame chess");
    e.send("position startpos moves e2e4 e7e5 e1e3");
    let out = e.sync();
    assert_eq!(
        out,
        [
            "info string error position: move 3 'e1e3' (column 35): illegal move: e1e3: a king on e1 cannot move to e3"
        ]
    );
    e.send("position startpos moves e2e4 e7e5 Ke2");
    assert_eq!(
        e.sync(),
        [
            "info string error position: move 3 'Ke2' (column 35): malformed move: 'Ke2' is not a move in long algebraic notation such as e2e4 or e7e8q"
        ]
    );
    e.send("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0");
    assert_eq!(
        e.query("fen"),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "a missing fullmove number reads as 1"
    );
    e.send("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1");
    assert_eq!(
        e.sync(),
        [
            "info string error position: fen 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1': rank 1 has 'X'; squares are PNBRQK (white), pnbrqk (black) or a digit 1-8 for empty squares (column 14)"
        ]
    );
    e.send("newgame chess start=4");
    assert_eq!(
        e.sync(),
        [
            "info string error newgame: parameter start=4: a start other than 518 (the standard array) needs chess960=true"
        ]
    );
    e.send("d");
    let d = e.sync();
    assert!(
        d.contains(&"Game: chess chess960=false start=518".to_string()),
        "{d:?}"
    );
    assert!(d.iter().any(|l| l == "8 | r n b q k b n r"), "{d:?}");
}

#[test]
fn uci_variant_selects_chess() {
    let mut e = PlyProcess::start();
    e.send("setoption name UCI_Variant value chess");
    e.send("position startpos moves e2e4");
    assert_eq!(
        e.query("fen"),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
    let g = e.go("go depth 4");
    assert!(e.query("legalmoves").split(' ').any(|m| m == g.bestmove));
}
