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

/// Mates found with Stockfish 15.1 (depth 22), with their distance in moves: the searcher
/// must find the same distance, as the side to move and as the side being mated.
#[test]
fn mates_in_two_and_three_with_their_distance() {
    let mut e = PlyProcess::start_with(&["--game", "chess"], &[]);
    for (fen, mate, first) in [
        // Nf6+ gxf6 Bxf7#.
        (
            "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
            2,
            "d5f6",
        ),
        // ...Rg1+ Kxg1 Rf1#.
        (
            "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1",
            2,
            "g2g1",
        ),
        // ...Bc5+ Kxc5 Qb6+ Kd5 Qd6#.
        (
            "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
            3,
            "f8c5",
        ),
        // ...Qg6+ Kg4 Qf5+ Kh5 Qh3#.
        (
            "2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1",
            3,
            "b1g6",
        ),
    ] {
        e.send("ucinewgame");
        e.send(&format!("position fen {fen}"));
        let g = e.go(&format!("go depth {}", 2 * mate + 2));
        assert_eq!(g.score(), format!("mate {mate}"), "{fen}");
        assert_eq!(g.bestmove, first, "{fen}");
        // `go mate n` finds it and stops; `go mate n-1` does not claim a shorter one.
        let g = e.go(&format!("go mate {mate}"));
        assert_eq!(g.score(), format!("mate {mate}"), "{fen}");
        // The loser's view, one move in: mated in mate - 1 more moves.
        e.send(&format!("position fen {fen} moves {first}"));
        let g = e.go(&format!("go depth {}", 2 * mate + 1));
        assert_eq!(g.score(), format!("mate -{}", mate - 1), "{fen}");
    }
}

#[test]
fn threefold_repetition_is_a_draw_and_searches_avoid_or_seek_it() {
    let mut e = chess();
    let shuffle = "g1f3 g8f6 f3g1 f6g8";
    e.send(&format!("position startpos moves {shuffle} {shuffle}"));
    assert_eq!(e.query("result"), "draw");
    assert_eq!(e.query("gameover"), "true");
    // The repetition ends the game, as the other draw rules do: no legal moves, no further
    // move accepted (the position stays), no search.
    assert_eq!(e.query("legalmoves"), "");
    assert_eq!(e.query("islegal e2e4"), "false");
    e.send(&format!("position startpos moves {shuffle} {shuffle} e2e4"));
    assert_eq!(
        e.sync(),
        [
            "info string error position: move 9 'e2e4' (column 65): illegal move: e2e4: the game is over (draw: the position occurred 3 times)"
        ]
    );
    assert_eq!(e.query("gameover"), "true");
    let g = e.go("go depth 3");
    assert_eq!(
        (g.bestmove.as_str(), g.score().as_str()),
        ("(none)", "cp 0")
    );
    e.send(&format!("position startpos moves {shuffle} g1f3 g8f6 f3g1"));
    assert_eq!(
        e.query("result"),
        "none",
        "the start position occurred twice"
    );
    // Positions before a pawn move (or a capture) cannot recur: the count starts again.
    let before = "a1a2 e8f8 a2a1 f8e8 h2h3 e8f8";
    let cycle = "a1a2 f8e8 a2a1 e8f8";
    e.send(&format!(
        "position fen 4k3/8/8/8/8/8/7P/R3K3 w - - 0 1 moves {before} {cycle}"
    ));
    assert_eq!(e.query("result"), "none");
    // The position just after h2h3 (rook a1, king e8, Black to move) comes back at the
    // cycle's third move: its third occurrence ends the game there.
    e.send(&format!(
        "position fen 4k3/8/8/8/8/8/7P/R3K3 w - - 0 1 moves {before} {cycle} a1a2 f8e8 a2a1"
    ));
    assert_eq!(e.query("result"), "draw");

    // Two rooks down, White draws by perpetual check (Qd8+ Kh7 Qh4+ Kg8 ...; Stockfish 15.1
    // scores it 0): only a search that knows repetitions sees the draw.
    e.send("position fen 6k1/5pp1/6p1/8/7Q/8/rr3PPP/6K1 w - - 0 1");
    let g = e.go("go depth 10");
    assert_eq!((g.bestmove.as_str(), g.score().as_str()), ("h4d8", "cp 0"));
}

#[test]
fn multipv_searchmoves_and_ponder() {
    let mut e = PlyProcess::start_with(&["--game", "chess"], &[]);
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    let g = e.go("go depth 5");
    let last: Vec<&String> = g.infos.iter().filter(|l| l.contains(" depth 5 ")).collect();
    assert_eq!(last.len(), 3, "{:?}", g.infos);
    let firsts: Vec<String> = last
        .iter()
        .map(|l| {
            l.split(" pv ")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
    for (k, l) in last.iter().enumerate() {
        assert!(l.contains(&format!(" multipv {} ", k + 1)), "{l}");
    }
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert_eq!(g.bestmove, firsts[0]);

    e.send("setoption name MultiPV value 1");
    let g = e.go("go depth 4 searchmoves a2a3 h2h4");
    assert!(
        ["a2a3", "h2h4"].contains(&g.bestmove.as_str()),
        "{}",
        g.bestmove
    );
    e.send("go depth 4 searchmoves a2a3 e2e5");
    let err = e.sync();
    assert!(
        err.iter()
            .any(|l| l.starts_with("info string error go: searchmoves 'e2e5' (column 29)")),
        "{err:?}"
    );

    // go ponder: no bestmove until ponderhit, then the clock applies.
    e.send("setoption name Ponder value true");
    e.send("position startpos moves e2e4");
    e.send("go ponder wtime 2000 btime 2000");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let early = e.sync();
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "{early:?}"
    );
    e.send("ponderhit");
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    let words: Vec<&str> = lines.last().unwrap().split_whitespace().collect();
    assert!(words.len() == 4 && words[2] == "ponder", "{words:?}");
    // The reply named is legal after the move.
    e.send(&format!(
        "position startpos moves e2e4 {} {}",
        words[1], words[3]
    ));
    assert_eq!(e.sync(), Vec::<String>::new());
}

#[test]
fn started_in_chess_it_is_a_plain_uci_engine() {
    let mut e = PlyProcess::start_with(&["--game", "chess"], &[]);
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    for option in [
        "MultiPV",
        "Ponder",
        "UCI_Chess960",
        "Hash",
        "Threads",
        "Move Overhead",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} type"))),
            "{option}: {lines:?}"
        );
    }
    assert!(
        lines
            .iter()
            .any(|l| l.contains("UCI_Variant type combo default chess "))
    );
    e.send("ucinewgame");
    e.send("position startpos moves e2e4 e7e5");
    let g = e.go("go wtime 1000 btime 1000 winc 10 binc 10");
    assert!(g.bestmove.len() == 4, "{}", g.bestmove);
    // Chess960 through the option: castling king-takes-rook.
    e.send("setoption name UCI_Chess960 value true");
    e.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert!(e.query("legalmoves").contains("e1h1"));
    // UCI_Variant chess (a new game, as `newgame`) keeps Chess960 while the option is on.
    e.send("setoption name UCI_Variant value chess");
    e.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert!(
        e.query("legalmoves").contains("e1h1"),
        "UCI_Variant keeps Chess960"
    );
    e.send("setoption name UCI_Chess960 value false");
    e.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert!(e.query("legalmoves").contains("e1g1"));
}

/// A game of ply against itself (python-chess, 1 s + 10 ms) whose 204th and 205th searches
/// once reported a principal variation with a move of another position: a horizon node that
/// repeated a position returned before clearing its line, so its parent appended a stale
/// one, and lengthening that line from the table panicked in cozy-chess. Every line reported
/// must be legal from its position; ply checks that by playing it.
#[test]
fn every_reported_line_is_legal_after_a_long_game() {
    let game = concat!(
        "e2e4 d7d5 e4e5 c7c5 g1f3 b8c6 c2c3 d5d4 c3d4 c5d4 f1c4 g8h6 ",
        "d1e2 c8g4 e5e6 g4e6 c4e6 d4d3 e2e3 f7e6 e1g1 c6b4 b1a3 d8d5 ",
        "f1e1 b4c2 a3c2 h6f5 c2b4 f5e3 b4d5 e3d5 f3d4 d5b4 d4e6 b4c2 ",
        "e1e5 c2a1 e6c7 e8f7 c7a8 a1c2 a8c7 c2d4 g1f1 e7e6 e5e4 d4e2 ",
        "e4c4 e2c1 c4c1 f8d6 c7b5 d6f4 g2g3 f4e5 f2f4 e5b2 c1c7 f7f6 ",
        "c7b7 a7a6 b5c7 b2c1 b7b6 c1d2 b6e6 f6f5 e6e5 f5g6 e5d5 h8c8 ",
        "c7a6 c8c1 f1g2 c1c2 g2f3 d2e1 d5d3 c2a2 d3d6 g6h5 d6d5 h5g6 ",
        "a6c5 a2h2 c5d3 e1c3 d3e5 g6f5 e5c4 f5e6 d5d6 e6e7 f3e4 c3b4 ",
        "d6b6 b4c5 b6b5 c5f2 b5b7 e7f8 b7b8 f8e7 g3g4 f2g3 b8b7 e7f8 ",
        "c4b6 h2f2 b6d5 f2d2 g4g5 d2d1 b7d7 d1c1 e4f3 c1g1 f3g4 f8g8 ",
        "g4f5 g1f1 g5g6 g3h4 d7c7 h7g6 f5g6 f1g1 g6f5 g8h7 c7b7 g1d1 ",
        "b7b5 g7g6 f5e6 h7h6 b5b7 d1e1 e6d7 h4g3 b7b3 e1d1 d7c6 d1c1 ",
        "c6b5 g3h4 b3b4 h6g7 f4f5 h4g5 f5g6 g7g6 b4d4 g6f5 b5b6 f5e5 ",
        "d4d3 e5e4 d3c3 g5e3 b6c6 c1c3 d5c3 e4f3 c3d5 e3c1 c6c7 f3g3 ",
        "d5b6 c1b2 b6c4 b2a1 c4d6 g3f2 c7b7 f2g2 b7c6 g2f3 c6b5 f3f4 ",
        "b5c5 f4g3 c5b6 a1b2 d6c4 b2h8 b6c7 g3g2 c4d6 g2f1 d6f7 h8a1 ",
        "f7e5 f1g2 c7d8 a1b2 e5c6 b2f6 d8c7 f6h4 c7b8 h4g3 b8c8"
    );
    let mut e = chess();
    for moves in [game.to_string(), format!("{game} g3h4")] {
        e.send(&format!("position startpos moves {moves}"));
        let g = e.go("go depth 5");
        assert!(!g.bestmove.is_empty() && g.bestmove != "(none)");
        let failed: Vec<&String> = g.infos.iter().filter(|l| l.contains("error")).collect();
        assert!(failed.is_empty(), "{failed:?}");
        for info in g.info_lines().iter().filter(|i| !i.pv.is_empty()) {
            let pv = info.pv.join(" ");
            e.send(&format!("position startpos moves {moves} {pv}"));
            let errors: Vec<String> = e
                .sync()
                .into_iter()
                .filter(|l| l.contains("error"))
                .collect();
            assert!(errors.is_empty(), "pv {pv}: {errors:?}");
        }
    }
}

/// `UCI_ShowWDL`: every `info` line of a chess search carries chances that sum to 1000 and
/// agree with its score's sign; a mate is certain; with the option off no line has `wdl`.
#[test]
fn show_wdl_gives_chances_that_follow_the_score() {
    let mut e = chess();
    e.send("setoption name UCI_ShowWDL value true");
    // White is a rook up: its chances of winning outweigh those of losing.
    e.send("position fen 4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1");
    let g = e.go("go depth 5");
    assert!(!g.infos.is_empty());
    for info in g.info_lines() {
        let [w, d, l] = info.wdl.unwrap_or_else(|| panic!("no wdl in '{info}'"));
        assert_eq!(w + d + l, 1000, "{info}");
        assert!(w > l, "{info}");
    }
    e.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    let g = e.go("go depth 3");
    assert_eq!(g.info_lines().last().unwrap().wdl, Some([1000, 0, 0]));
    e.send("setoption name UCI_ShowWDL value false");
    let g = e.go("go depth 3");
    assert!(g.infos.iter().all(|l| !l.contains(" wdl ")));
}

/// `UCI_LimitStrength`/`UCI_Elo` (protocol.md, Options): every `go` searches at most its
/// budget's nodes, the solver and the book stay silent, and `UCI_Elo` is checked.
#[test]
fn limited_strength_searches_within_its_budget() {
    use ply::protocol::strength::{ELO_DEFAULT, ELO_MAX, ELO_MIN, node_budget};
    let mut e = PlyProcess::start_with(&["--game", "chess"], &[]);
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    for option in [
        "option name UCI_LimitStrength type check default false".to_string(),
        format!("option name UCI_Elo type spin default {ELO_DEFAULT} min {ELO_MIN} max {ELO_MAX}"),
    ] {
        assert!(lines.contains(&option), "{option}: {lines:?}");
    }
    e.send("setoption name UCI_LimitStrength value true");
    e.send(&format!("setoption name UCI_Elo value {}", ELO_MIN - 1));
    e.send(&format!("setoption name UCI_Elo value {}", ELO_MAX + 1));
    let errors = e.sync();
    assert_eq!(errors.len(), 2, "{errors:?}");
    for e in errors {
        assert!(
            e.contains(&format!(
                "UCI_Elo needs an integer from {ELO_MIN} to {ELO_MAX}"
            )),
            "{e}"
        );
    }

    // The weakest: a depth-1 search, however deep the go asks.
    e.send(&format!("setoption name UCI_Elo value {ELO_MIN}"));
    e.send("position startpos moves e2e4 e7e5 g1f3");
    let g = e.go("go depth 30");
    let infos = g.info_lines();
    assert!(infos.iter().all(|i| i.depth == Some(1)), "{:?}", g.infos);
    // The strongest: at most its budget (times the random factor, at most √2).
    e.send(&format!("setoption name UCI_Elo value {ELO_MAX}"));
    let most = (node_budget(ELO_MAX) * 2f64.sqrt()).ceil() as u64;
    for _ in 0..5 {
        let g = e.go("go wtime 600000 btime 600000");
        let last = g.info_lines().into_iter().last().expect("an info line");
        assert!(last.nodes.unwrap() <= most, "{:?} > {most}", last.nodes);
    }
    // A go's own node limit still applies when it is smaller.
    let g = e.go("go nodes 300");
    assert!(
        g.info_lines()
            .iter()
            .all(|i| i.nodes.unwrap() <= 300 || i.depth == Some(1)),
        "{:?}",
        g.infos
    );

    // In Connect Four the book and the solver are not asked while the limit is on.
    e.send("newgame connect4");
    let g = e.go("go depth 8");
    assert!(
        g.info_lines().iter().all(|i| i.tbhits.is_none()),
        "{:?}",
        g.infos
    );
    e.send("setoption name UCI_LimitStrength value false");
    let g = e.go("go depth 8");
    assert!(
        g.info_lines().iter().any(|i| i.tbhits == Some(1)),
        "{:?}",
        g.infos
    );
}

/// `UCI_LimitStrength` searches as it was calibrated: without the techniques added since
/// (`strength::UNCALIBRATED`), so a budget of nodes plays as the calibration matches measured.
/// A limited `go nodes` (smaller than any budget of the strongest level) searches exactly the
/// tree of an unlimited engine with those techniques turned off by `PLY_SEARCH_OFF` and the
/// search parameters at their defaults (chess's own values are newer than the calibration).
#[test]
fn limited_strength_searches_the_calibrated_tree() {
    use ply::protocol::strength::{ELO_MAX, UNCALIBRATED, node_budget};
    let nodes = (node_budget(ELO_MAX) / 2f64.sqrt()).floor() as u64 / 2;
    let position = "position startpos moves d2d4 g8f6 c2c4 e7e6 b1c3 f8b4";
    let search = |e: &mut PlyProcess| {
        e.send(position);
        let g = e.go(&format!("go nodes {nodes}"));
        let last = g.info_lines().into_iter().last().expect("an info line");
        (g.bestmove.clone(), last.depth, last.nodes, last.pv.clone())
    };
    let mut limited = PlyProcess::start_with(&["--game", "chess"], &[]);
    limited.send("setoption name UCI_LimitStrength value true");
    limited.send(&format!("setoption name UCI_Elo value {ELO_MAX}"));
    let defaults: Vec<String> = ply::search::params::PARAMS
        .iter()
        .map(|p| format!("{}={}", p.name, p.default))
        .collect();
    let defaults = defaults.join(",");
    let mut calibrated = PlyProcess::start_with(
        &["--game", "chess"],
        &[
            ("PLY_SEARCH_OFF", UNCALIBRATED),
            ("PLY_SEARCH_PARAMS", &defaults),
        ],
    );
    let mut today = PlyProcess::start_with(&["--game", "chess"], &[]);
    let (l, c, t) = (
        search(&mut limited),
        search(&mut calibrated),
        search(&mut today),
    );
    assert_eq!(l, c);
    assert!(l.2.is_some_and(|n| n <= nodes), "{l:?}");
    // Today's search is another tree (else this test would show nothing).
    assert_ne!((l.1, &l.3), (t.1, &t.3));
}

/// Below the node anchors a level chooses (protocol.md, Limited strength): a depth-1 search
/// of four lines, `bestmove` one of their first moves, not always the best one; from 1500
/// up one line, its move played.
#[test]
fn low_levels_choose_among_the_four_best_moves() {
    use ply::protocol::strength::{ANCHORS, CHOICES, ELO_MIN};
    let mut e = PlyProcess::start_with(&["--game", "chess"], &[]);
    e.send("setoption name UCI_LimitStrength value true");
    e.send(&format!("setoption name UCI_Elo value {ELO_MIN}"));
    // After 1. e4 e5 2. Nf3 Nc6 many moves are close in value at depth 1.
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
    let mut played = std::collections::BTreeSet::new();
    let mut not_first = 0;
    for _ in 0..30 {
        let g = e.go("go wtime 60000 btime 60000");
        let infos = g.info_lines();
        assert_eq!(infos.len(), CHOICES, "{:?}", g.infos);
        assert!(infos.iter().all(|i| i.depth == Some(1)), "{:?}", g.infos);
        let firsts: Vec<String> = infos.iter().map(|i| i.pv[0].clone()).collect();
        let best = g.bestmove.clone();
        assert!(firsts.contains(&best), "{best} not in {firsts:?}");
        not_first += usize::from(best != firsts[0]);
        played.insert(best);
    }
    assert!(played.len() >= 2 && not_first > 0, "{played:?}");

    e.send(&format!("setoption name UCI_Elo value {}", ANCHORS[0].0));
    for _ in 0..5 {
        let g = e.go("go wtime 60000 btime 60000");
        let infos = g.info_lines();
        assert_eq!(infos.len(), 1, "{:?}", g.infos);
        assert_eq!(g.bestmove, infos[0].pv[0]);
    }
}

/// `PLY_SEARCH_PARAMS` (protocol.md, Environment): chess's own values spelled out search the
/// same tree as none; another value searches another; a pair naming no parameter is ignored
/// and the others still apply.
#[test]
fn search_parameters_come_from_the_environment() {
    use ply::game::Game;
    use ply::search::params::SearchParams;
    let chess = SearchParams::parse(ply::games::Chess::SEARCH_PARAMS).0;
    let position = "position startpos moves d2d4 g8f6 c2c4 e7e6 b1c3 f8b4";
    let nodes = |params: &str| {
        let env: &[(&str, &str)] = &[("PLY_SEARCH_PARAMS", params)];
        let mut e = PlyProcess::start_with(
            &["--game", "chess"],
            if params.is_empty() { &[] } else { env },
        );
        e.send(position);
        let g = e.go("go depth 9");
        assert!(!g.bestmove.is_empty());
        g.info_lines()
            .into_iter()
            .last()
            .expect("an info line")
            .nodes
    };
    let default = nodes("");
    let own = format!(
        "lmr_divisor={},rfp_margin={}",
        chess.lmr_divisor, chess.rfp_margin
    );
    assert_eq!(nodes(&own), default);
    let changed = format!("lmr_divisor={}", chess.lmr_divisor + 75);
    let other = nodes(&changed);
    assert_ne!(other, default);
    assert_eq!(nodes(&format!("warp=9,{changed},see_quiet=x")), other);
}
