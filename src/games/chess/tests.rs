use super::*;
use crate::game::{Line, find_legal, perft, play_moves};

fn std_game() -> Chess {
    Chess::default()
}

fn game960() -> Chess {
    Chess::new(&Params::parse(["chess960=true"]).unwrap()).unwrap()
}

fn fen(f: &str) -> Chess {
    std_game()
        .from_fen(f)
        .unwrap_or_else(|e| panic!("{f}: {e}"))
}

fn fen960(f: &str) -> Chess {
    game960().from_fen(f).unwrap_or_else(|e| panic!("{f}: {e}"))
}

fn moves(p: &Chess) -> Vec<Move> {
    let mut m = Vec::new();
    p.legal_moves(&mut m);
    m
}

fn illegal(p: &Chess, text: &str) -> String {
    match p.parse_move(text) {
        Err(MoveError::Illegal(s)) => s,
        other => panic!("{text}: expected an illegal move, got {other:?}"),
    }
}

fn fen_error(f: &str) -> String {
    std_game().from_fen(f).unwrap_err().0
}

#[test]
fn checkmate_ends_the_game() {
    let p = play_moves(&std_game(), &["f2f3", "e7e5", "g2g4", "d8h4"]).unwrap();
    assert_eq!(p.outcome(), Some(Outcome::Win(Player::Second)));
    assert!(moves(&p).is_empty());
    assert!(p.in_check());
    assert_eq!(illegal(&p, "e1f2"), "e1f2: the game is over (p2win)");
    // Black mated: White wins.
    let scholar = play_moves(
        &std_game(),
        &["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"],
    )
    .unwrap();
    assert_eq!(scholar.outcome(), Some(Outcome::Win(Player::First)));
}

#[test]
fn stalemate_draws() {
    let p = fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(p.outcome(), Some(Outcome::Draw));
    assert!(moves(&p).is_empty());
    assert!(!p.in_check());
}

#[test]
fn insufficient_material() {
    let dead = [
        "8/8/4k3/8/8/3K4/8/8 w - - 0 1",       // K v K
        "8/8/4k3/8/8/3K4/8/5B2 w - - 0 1",     // KB v K
        "8/8/4k3/8/8/3K4/8/6N1 b - - 0 1",     // KN v K
        "8/8/b3k3/8/8/3K4/8/5B2 w - - 0 1",    // KB v KB, bishops on light squares
        "8/8/2b1k3/8/8/3K4/4B3/5B2 w - - 0 1", // three bishops, all on light squares
    ];
    for f in dead {
        let p = fen(f);
        assert!(p.insufficient_material(), "{f}");
        assert_eq!(p.outcome(), Some(Outcome::Draw), "{f}");
        assert!(moves(&p).is_empty(), "{f}");
    }
    let alive = [
        "8/8/4kb2/8/8/3K4/8/5B2 w - - 0 1", // KB v KB on opposite colours
        "8/8/4kn2/8/8/3K4/8/6N1 w - - 0 1", // KN v KN
        "8/8/4k3/8/8/3K4/8/5NN1 w - - 0 1", // KNN v K
        "8/8/4k3/8/8/3K4/4P3/8 w - - 0 1",  // a pawn
        "8/8/4k3/8/8/3K4/8/R7 w - - 0 1",   // a rook
    ];
    for f in alive {
        let p = fen(f);
        assert!(!p.insufficient_material(), "{f}");
        assert_eq!(p.outcome(), None, "{f}");
    }
    // A capture that leaves bare kings ends the game.
    let p = fen("8/8/4k3/4q3/8/3K4/8/8 w - - 0 1");
    assert!(p.outcome().is_none());
    let p = fen("8/8/4k3/8/4q3/3K4/8/8 w - - 0 1");
    let after = play_moves(&p, &["d3e4"]).unwrap();
    assert_eq!(after.outcome(), Some(Outcome::Draw));
}

#[test]
fn fifty_move_rule() {
    let p = fen("7k/8/6K1/8/8/8/8/R7 w - - 99 80");
    assert_eq!(p.outcome(), None);
    // A quiet move on the hundredth ply draws ...
    let quiet = play_moves(&p, &["a1a2"]).unwrap();
    assert_eq!(quiet.halfmove_clock(), 100);
    assert_eq!(quiet.outcome(), Some(Outcome::Draw));
    assert!(moves(&quiet).is_empty());
    assert!(illegal(&quiet, "h8g8").contains("the game is over (draw)"));
    // ... but a mate on it wins.
    let mate = play_moves(&p, &["a1a8"]).unwrap();
    assert_eq!(mate.outcome(), Some(Outcome::Win(Player::First)));
    // A pawn move or a capture resets the count.
    let q = fen("7k/8/6K1/8/8/8/P7/R7 w - - 99 80");
    assert_eq!(play_moves(&q, &["a2a3"]).unwrap().outcome(), None);
    // Read from a FEN: 100 is over; above 100 reads as 100.
    assert_eq!(
        fen("7k/8/6K1/8/8/8/8/R7 w - - 100 80").outcome(),
        Some(Outcome::Draw)
    );
    assert_eq!(
        fen("7k/8/6K1/8/8/8/8/R7 w - - 150 80").fen(),
        "7k/8/6K1/8/8/8/8/R7 w - - 100 80"
    );
}

#[test]
fn castling_in_standard_chess() {
    let p = fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let short = p.parse_move("e1g1").unwrap();
    assert_eq!(p.parse_move("e1h1"), Ok(short), "king-takes-rook reads too");
    assert_eq!(p.format_move(short), "e1g1");
    let long = p.parse_move("e1c1").unwrap();
    assert_eq!(p.parse_move("e1a1"), Ok(long));
    assert_eq!(p.format_move(long), "e1c1");
    assert!(!p.is_irreversible(short) && !p.is_capture(short));
    let after = play_moves(&p, &["e1g1", "e8c8"]).unwrap();
    assert_eq!(after.fen(), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
    // Rights lost, path blocked, check, attacked squares.
    let moved = play_moves(&p, &["h1h2", "a8a7"]).unwrap();
    assert_eq!(
        illegal(&moved, "e1g1"),
        "e1g1: white may no longer castle on the king's side"
    );
    assert!(moved.parse_move("e1c1").is_ok());
    let blocked = fen("r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1");
    assert!(illegal(&blocked, "e1c1").contains("empty"));
    let checked = fen("r3k2r/8/8/8/8/8/4q3/R3K2R w KQkq - 0 1");
    assert!(illegal(&checked, "e1g1").contains("in check"));
    let through = fen("r3k2r/8/8/8/8/5q2/8/R3K2R w KQkq - 0 1");
    assert!(illegal(&through, "e1g1").contains("attacked"));
    assert!(through.parse_move("e1c1").is_err());
}

#[test]
fn castling_in_chess960() {
    let p = fen960("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let short = p.parse_move("e1h1").unwrap();
    assert_eq!(p.format_move(short), "e1h1");
    assert_eq!(
        p.parse_move("e1g1"),
        Ok(short),
        "no king step reaches g1 from e1"
    );
    // King b1, rooks a1 and h1: b1c1 is a king step, b1a1 castles long.
    let q = fen960("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1");
    let step = q.parse_move("b1c1").unwrap();
    let castle = q.parse_move("b1a1").unwrap();
    assert_ne!(step, castle);
    assert_eq!(q.format_move(castle), "b1a1");
    assert_eq!(q.format_move(step), "b1c1");
    let after = play_moves(&q, &["b1a1"]).unwrap();
    assert!(after.fen().starts_with("rk5r/8/8/8/8/8/8/2KR3R b kq"));
    let short = play_moves(&q, &["b1g1"]).unwrap();
    assert!(short.fen().starts_with("rk5r/8/8/8/8/8/8/R4RK1 b kq"));
    // Standard chess refuses a Chess960 castling right.
    assert!(
        std_game()
            .from_fen("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1")
            .unwrap_err()
            .0
            .contains("chess960=true")
    );
}

#[test]
fn chess960_start_positions() {
    let start = |n: u32| {
        Chess::new(
            &Params::parse(
                ["chess960=true".to_string(), format!("start={n}")]
                    .iter()
                    .map(|s| s.as_str()),
            )
            .unwrap(),
        )
        .unwrap()
    };
    assert_eq!(
        start(0).fen(),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
    );
    assert_eq!(start(518).fen(), std_game().fen());
    assert_eq!(
        start(959).fen(),
        "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1"
    );
    assert_eq!(game960().fen(), std_game().fen());
    assert_eq!(perft(&start(0), 1), 20);
    let e = Chess::new(&Params::parse(["start=3"]).unwrap()).unwrap_err();
    assert!(e.0.contains("needs chess960=true"), "{e}");
    assert!(Chess::new(&Params::parse(["chess960=true", "start=960"]).unwrap()).is_err());
    // A Chess960 position from the standard perft suite, its castling rights in
    // Shredder-FEN; counted independently with python-chess.
    let p = fen960("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    assert_eq!([perft(&p, 1), perft(&p, 2), perft(&p, 3)], [21, 528, 12189]);
    assert_eq!(
        p.fen(),
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"
    );
}

#[test]
fn xfen_names_inner_rooks_by_file() {
    // White has rooks on a1 and b1; castling long goes with the b1 rook.
    let p = fen960("4k3/8/8/8/8/8/8/RR2K2R w KB - 0 1");
    assert_eq!(p.fen(), "4k3/8/8/8/8/8/8/RR2K2R w KB - 0 1");
    let castle = p.parse_move("e1b1").unwrap();
    let after = play_moves(&p, &["e1b1"]).unwrap();
    assert_eq!(p.format_move(castle), "e1b1");
    assert_eq!(after.fen(), "4k3/8/8/8/8/8/8/R1KR3R b - - 1 1");
    // Without the letter: the outermost rook.
    assert_eq!(
        fen960("4k3/8/8/8/8/8/8/RR2K2R w KQ - 0 1").fen(),
        "4k3/8/8/8/8/8/8/RR2K2R w KQ - 0 1"
    );
}

#[test]
fn promotion() {
    let p = fen("8/P6k/8/8/8/8/8/K7 w - - 0 1");
    for (text, piece) in [
        ("a7a8q", Piece::Queen),
        ("a7a8r", Piece::Rook),
        ("a7a8b", Piece::Bishop),
        ("a7a8n", Piece::Knight),
    ] {
        let m = p.parse_move(text).unwrap();
        assert_eq!(m.promotion, Some(piece));
        assert_eq!(p.format_move(m), text);
        assert!(p.is_noisy(m) && !p.is_capture(m));
    }
    assert_eq!(
        illegal(&p, "a7a8"),
        "a7a8: a pawn reaching the last rank promotes: add q, r, b or n, as in a7a8q"
    );
    assert_eq!(
        illegal(&p, "a1a2q"),
        "a1a2q: only a pawn reaching the last rank promotes"
    );
    assert!(matches!(
        p.parse_move("a7a8k"),
        Err(MoveError::Malformed(_))
    ));
    assert!(matches!(
        p.parse_move("a7a8Q"),
        Err(MoveError::Malformed(_))
    ));
    // The queen promotion comes first among the four.
    let m = moves(&p);
    assert_eq!(p.format_move(m[0]), "a7a8q");
}

#[test]
fn en_passant() {
    let p = play_moves(&std_game(), &["e2e4", "a7a6", "e4e5", "d7d5"]).unwrap();
    let ep = p.parse_move("e5d6").unwrap();
    assert!(p.is_en_passant(ep) && p.is_capture(ep) && p.is_irreversible(ep));
    let after = play_moves(&p, &["e5d6"]).unwrap();
    assert!(
        after
            .fen()
            .starts_with("rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3")
    );
    // One move later the right is gone.
    let late = play_moves(&p, &["g1f3", "a6a5"]).unwrap();
    assert!(late.parse_move("e5d6").is_err());
    // An en passant square no pawn can use does not change the key (FIDE's repetition rule)
    // but a usable one does.
    let e4 = play_moves(&std_game(), &["e2e4"]).unwrap();
    assert!(e4.fen().contains(" e3 "));
    assert_eq!(
        e4.key(),
        fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").key()
    );
    assert_ne!(
        p.key(),
        fen("rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3").key()
    );
    // A pinned pawn cannot take en passant: the key ignores that file too.
    let pinned = fen("8/8/8/KPp4r/8/8/8/7k w - c6 0 1");
    assert!(pinned.parse_move("b5c6").is_err());
    assert_eq!(pinned.key(), fen("8/8/8/KPp4r/8/8/8/7k w - - 0 1").key());
}

#[test]
fn keys_follow_positions_not_paths() {
    let a = play_moves(&std_game(), &["g1f3", "g8f6", "b1c3", "b8c6"]).unwrap();
    let b = play_moves(&std_game(), &["b1c3", "b8c6", "g1f3", "g8f6"]).unwrap();
    assert_eq!(a.key(), b.key());
    // The knights' round trip repeats the start (clocks are not part of the key).
    let c = play_moves(&std_game(), &["g1f3", "g8f6", "f3g1", "f6g8"]).unwrap();
    assert_eq!(c.key(), std_game().key());
    assert_ne!(c.fen(), std_game().fen());
    // Side to move and castling rights are.
    let d = play_moves(
        &std_game(),
        &[
            "g1f3", "g8f6", "h1g1", "f6g8", "g1h1", "b8c6", "f3g1", "c6b8",
        ],
    )
    .unwrap();
    assert_ne!(d.key(), std_game().key());
}

#[test]
fn notation_round_trips() {
    for f in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ] {
        for p in [fen(f), fen960(f)] {
            for m in moves(&p) {
                let text = p.format_move(m);
                assert_eq!(p.parse_move(&text), Ok(m), "{text} in {f}");
                assert_eq!(find_legal(&p, &text), Some(m));
            }
            let back = p.from_fen(&p.fen()).unwrap();
            assert_eq!(back, p);
        }
    }
}

#[test]
fn move_errors_are_precise() {
    let p = std_game();
    for bad in [
        "", "e2", "e2e", "e2e4x", "e2e4qq", "e9e4", "i2i4", "E2E4", "e2-e4", "Nf3", "0000",
    ] {
        assert!(
            matches!(p.parse_move(bad), Err(MoveError::Malformed(_))),
            "{bad}"
        );
    }
    assert!(
        p.parse_move("0000")
            .unwrap_err()
            .to_string()
            .contains("null moves")
    );
    assert_eq!(illegal(&p, "e3e4"), "e3e4: no piece on e3");
    assert_eq!(
        illegal(&p, "e7e5"),
        "e7e5: e7 holds a black pawn, and it is white to move"
    );
    assert_eq!(illegal(&p, "e2e5"), "e2e5: a pawn on e2 cannot move to e5");
    assert_eq!(illegal(&p, "d1d2"), "d1d2: d2 holds a white pawn");
    assert_eq!(
        illegal(&p, "g1g3"),
        "g1g3: a knight on g1 cannot move to g3"
    );
    assert_eq!(illegal(&p, "e2e2"), "e2e2: a piece must leave its square");
    let pinned = fen("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1");
    assert_eq!(
        illegal(&pinned, "e2d3"),
        "e2d3: it would leave the white king in check"
    );
    assert_eq!(illegal(&pinned, "e1e2"), "e1e2: e2 holds a white bishop");
    let check = fen("4k3/8/8/8/4r3/8/8/R3K3 w - - 0 1");
    assert_eq!(
        illegal(&check, "a1a8"),
        "a1a8: the white king is in check, and this does not end it"
    );
    assert_eq!(
        illegal(&check, "e1e2"),
        "e1e2: the king would be in check on e2"
    );
    assert!(check.parse_move("e1d2").is_ok());
    assert!(check.parse_move("e1f1").is_ok());
}

/// FENs and a part of the error each must give (`""`: the FEN is valid).
const FEN_ERRORS: &[(&str, &str)] = &[
    ("", "expected 6 fields"),
    ("8/8/8/8/8/8/8/8 w", "expected 6 fields"),
    (
        "8/8/8/8/8/8/8 w - - 0 1",
        "expected 8 ranks separated by '/', got 7",
    ),
    (
        "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rank 7 has 'x'",
    ),
    (
        "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rank 7 'ppppppppp' has more than 8 squares",
    ),
    (
        "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rank 7 'ppppppp' has 7 squares, not 8",
    ),
    (
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rank 6 has '9'",
    ),
    (
        "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
        "black has 0 kings",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1",
        "white has 2 kings",
    ),
    (
        "Pnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/RNBQKBNR w KQk - 0 1",
        "a white pawn on a8",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/P7/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "white has 9 pawns",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "side to move 'x' must be w or b",
    ),
    ("4k3/8/8/8/8/8/8/4K2R b - - 0 1", ""),
    (
        "4k2R/8/8/8/8/8/8/4K3 w - - 0 1",
        "the black king is in check, but it is white to move",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1",
        "castling 'KQkx' has 'x'",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
        "castling right 'K': no white rook on the king's side",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1",
        "gives a right twice",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/4K3/PPPPPPPP/RNBQ1BNR w Qkq - 0 1",
        "castling right 'Q': the white king is not on its first rank",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1",
        "en passant square e4: with white to move it must be on rank 6",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
        "no black pawn on e5",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1",
        "en passant 'z9' is not a square",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
        "halfmove clock 'x'",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 x",
        "fullmove number 'x'",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
        "expected 6 fields",
    ),
    ("4k3/8/8/8/1b6/8/3N4/r3K2R w - - 0 1", ""),
];

#[test]
fn fen_errors_are_precise() {
    for &(f, want) in FEN_ERRORS {
        if want.is_empty() {
            assert!(std_game().from_fen(f).is_ok(), "{f}");
        } else {
            let e = fen_error(f);
            assert!(e.contains(want), "{f}: '{e}' lacks '{want}'");
        }
    }
    // Three checkers cannot happen; cozy-chess refuses, and the reason is named.
    let e = fen_error("4k3/8/8/8/8/3n4/8/r3K1r1 w - - 0 1");
    assert!(
        e.contains("in check from") || e.contains("not one chess can reach"),
        "{e}"
    );
    // Four fields read as EPD, with the clocks at 0 1.
    assert_eq!(
        fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").fen(),
        std_game().fen()
    );
}

#[test]
fn static_move_order_puts_captures_first() {
    // White can take the queen with either pawn and a rook with the bishop.
    let p = fen("4k3/8/8/3q4/2P1P3/2r2N2/1B6/4K3 w - - 0 1");
    let all = moves(&p);
    let m: Vec<String> = all.iter().map(|&m| p.format_move(m)).collect();
    assert_eq!(&m[..3], ["c4d5", "e4d5", "b2c3"]);
    assert!(all[3..].iter().all(|&mv| !p.is_noisy(mv)));
    // The ordering score agrees.
    let pxq = all[0];
    let bxr = all[2];
    assert!(p.mvv_lva(pxq) > p.mvv_lva(bxr));
    assert!(p.mvv_lva(bxr) > 0);
}

#[test]
fn hook_helpers() {
    let p = std_game();
    assert!(p.has_non_pawn_material());
    assert!(!fen("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1").has_non_pawn_material());
    let n = p.parse_move("g1f3").unwrap();
    assert!(!p.is_irreversible(n) && !p.is_noisy(n));
    assert_eq!(p.mvv_lva(n), 0);
    assert!(p.is_irreversible(p.parse_move("e2e4").unwrap()));
    let q = fen("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1");
    let exq = q.parse_move("e4d5").unwrap();
    assert!(q.is_capture(exq) && q.is_irreversible(exq));
    assert!(q.mvv_lva(exq) > q.mvv_lva(q.parse_move("e4e5").unwrap()));
}

/// The same position with the colours swapped: ranks mirrored, piece colours, side to move,
/// castling rights and the en passant square flipped.
fn mirror(f: &str) -> String {
    let fields: Vec<&str> = f.split(' ').collect();
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let placement: Vec<String> = fields[0].split('/').rev().map(swap).collect();
    let side = if fields[1] == "w" { "b" } else { "w" };
    let castling = if fields[2] == "-" {
        "-".to_string()
    } else {
        swap(fields[2])
    };
    let ep = match fields[3].as_bytes() {
        [f, r] => format!("{}{}", *f as char, (b'1' + b'8' - r) as char),
        _ => "-".to_string(),
    };
    format!(
        "{} {side} {castling} {ep} {} {}",
        placement.join("/"),
        fields[4],
        fields[5]
    )
}

#[test]
fn evaluation_is_colour_symmetric() {
    for f in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    ] {
        let m = mirror(f);
        assert_eq!(fen(f).evaluate(), fen(&m).evaluate(), "{f} / {m}");
        assert_eq!(fen(f).evaluate_full(), fen(&m).evaluate_full(), "{f} / {m}");
    }
    // A queen up is a lot, for either side to move.
    assert!(fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").evaluate() > 700);
    assert!(fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").evaluate() < -700);
}

#[test]
fn trace_reproduces_the_evaluation() {
    for f in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
    ] {
        let p = fen(f);
        assert_eq!(evaluation_by_trace(&p), p.evaluate_full(), "{f}");
    }
}

/// The full evaluation summed from [`eval::trace`]'s counts by the weights (the engine
/// takes the pawns' and kings' part from a cache; the trace counts everything afresh).
fn evaluation_by_trace(p: &Chess) -> i32 {
    let t = eval::trace(p.board());
    let (mut mg, mut eg) = (0, 0);
    for &(i, n) in &t.counts {
        mg += weights::WEIGHTS[i as usize].0 * n as i32;
        eg += weights::WEIGHTS[i as usize].1 * n as i32;
    }
    let eg = eg * t.eg_scale / eval::SCALE_NORMAL;
    let white = (mg * t.phase + eg * (24 - t.phase)) / 24;
    if p.side_to_move() == Player::First {
        white
    } else {
        -white
    }
}

/// The pawn-and-king cache never changes a value: along random games (the same pawns and
/// kings met again with other pieces, and slots taken over by other placements), every
/// position's full evaluation, asked twice, is what the trace sums to. Positions with a bare
/// king are left out: their mop-up term is not a feature.
#[test]
fn the_pawn_cache_never_changes_the_evaluation() {
    let mut rng = crate::util::Rng::new(44);
    let mut moves = Vec::new();
    let mut checked = 0;
    for _ in 0..40 {
        let mut p = Chess::new(&Params::default()).unwrap();
        for _ in 0..160 {
            moves.clear();
            p.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let bare = Color::ALL
                .into_iter()
                .any(|c| p.board().colors(c) == p.board().colored_pieces(c, Piece::King));
            if !bare {
                let expected = evaluation_by_trace(&p);
                assert_eq!(p.evaluate_full(), expected, "{}", p.fen());
                assert_eq!(p.evaluate_full(), expected, "{} (again)", p.fen());
                checked += 1;
            }
            p.play(moves[rng.below(moves.len())]);
        }
    }
    assert!(checked > 4000, "{checked} positions");
}

/// The full evaluation scales its endgame sum by the kind of endgame, for the side ahead
/// whichever colour it is.
#[test]
fn endgame_scale_for_the_side_ahead() {
    use eval::EndgameCase::*;
    let case = |f: &str| {
        let p = fen(f);
        let t = eval::trace(p.board());
        let mirrored = eval::trace(fen(&mirror(f)).board());
        assert_eq!(t.case, mirrored.case, "{f}");
        assert_eq!(t.eg_scale, mirrored.eg_scale, "{f}");
        assert_eq!(t.eg_scale, eval::ENDGAME_SCALES.scale(t.case), "{f}");
        t.case
    };
    // Opposite-coloured bishops alone, White three passed pawns up; with a black pawn that
    // stops one of them.
    let ocb = |passed| OppositeBishops { passed };
    assert_eq!(case("4k3/5b2/8/8/2PPP3/8/3B4/4K3 w - - 0 1"), ocb(3));
    assert_eq!(case("4k3/1p3b2/8/8/2PPP3/8/3B4/4K3 w - - 0 1"), ocb(2));
    // Opposite-coloured bishops with a rook each, with a knight each.
    assert_eq!(
        case("3rk3/5b2/8/8/2PPP3/8/3B4/3RK3 w - - 0 1"),
        OppositeBishopsRooks
    );
    assert_eq!(
        case("3nk3/5b2/8/8/2PPP3/8/3B4/3NK3 w - - 0 1"),
        OppositeBishopsKnights
    );
    // The same bishops of one colour, three pawns on both flanks.
    let other = |pawns, one_flank| Other { pawns, one_flank };
    assert_eq!(
        case("4k3/4b3/8/8/2PPP3/8/3B4/4K3 w - - 0 1"),
        other(3, false)
    );
    // A bishop and no pawn against a bare king; a rook against a bare king (no pawn, so not
    // on both flanks).
    assert_eq!(case("4k3/8/8/8/8/8/3B4/4K3 w - - 0 1"), NoPawnsMinorAhead);
    assert_eq!(case("4k3/8/8/8/8/8/3R4/4K3 w - - 0 1"), other(0, true));
    // Two knights against a bare king.
    assert_eq!(case("4k3/8/8/8/8/8/3NN3/4K3 w - - 0 1"), Drawn);
    // A rook pawn with the bishop that does not cover its promotion square, the defending
    // king in the corner; with the other bishop, or the king away, not drawn.
    assert_eq!(case("k7/8/8/8/P7/8/3B4/4K3 w - - 0 1"), Drawn);
    assert_eq!(case("k7/8/8/8/P7/8/4B3/4K3 w - - 0 1"), other(1, true));
    assert_eq!(case("8/8/8/3k4/P7/8/3B4/4K3 w - - 0 1"), other(1, true));
    // A pawn ending a pawn up.
    assert_eq!(
        case("4k3/8/8/3p4/2PP4/8/8/4K3 w - - 0 1"),
        PawnEnding { ahead: 1 }
    );
    // A rook ending a pawn up on one flank, the defending king beside its pawns; the same
    // pawns on both flanks.
    assert_eq!(
        case("r5k1/6pp/8/8/8/8/5PPP/R5K1 w - - 0 1"),
        RookEndingOneFlank
    );
    assert_eq!(
        case("r5k1/p5pp/8/8/8/8/P4PPP/R5K1 w - - 0 1"),
        other(4, false)
    );
    // A lone queen against two minor pieces, a pawn each.
    assert_eq!(case("1nb1k3/p7/8/8/8/8/P7/3QK3 w - - 0 1"), LoneQueen);
    // Many pawns with queens on: unscaled.
    let full = fen("r1bqk2r/pppp1ppp/8/8/8/8/PPPPPPPP/R1BQK2R w - - 0 1");
    assert_eq!(eval::trace(full.board()).eg_scale, eval::SCALE_NORMAL);
    let bishop_up = fen("4k3/8/8/8/8/8/3B4/4K3 w - - 0 1").evaluate_full();
    assert!((0..100).contains(&bishop_up), "{bishop_up}");
}

/// Against a bare king the full evaluation guides the mate: the defending king is worth
/// more (to the side mating) on the edge than in the centre, and against a bishop and a
/// knight more in a corner of the bishop's colour than in the other corners.
#[test]
fn mop_up_drives_the_bare_king() {
    // White's view: Black to move in each.
    let score = |f: &str| -fen(f).evaluate_full();
    // The light-squared bishop on d3 mates in h1 and a8, not in a1 and h8.
    let kbn = |king: &str| score(&format!("{king} b - - 0 1"));
    let right = kbn("8/8/8/8/3K4/3BN3/8/7k");
    let right2 = kbn("k7/8/8/8/3K4/3BN3/8/8");
    let wrong = kbn("8/8/8/8/3K4/3BN3/8/k7");
    let wrong2 = kbn("7k/8/8/8/3K4/3BN3/8/8");
    let centre = kbn("8/8/8/5k2/3K4/3BN3/8/8");
    assert!(
        right.min(right2) > wrong.max(wrong2) + 300,
        "{right} {right2} {wrong} {wrong2}"
    );
    assert!(
        wrong.min(wrong2) > centre - 100,
        "{wrong} {wrong2} {centre}"
    );
    // A rook: the edge before the centre, for either colour.
    let edge = score("4k3/8/8/8/8/8/8/R3K3 b - - 0 1");
    let middle = score("8/8/8/4k3/8/8/8/R3K3 b - - 0 1");
    assert!(edge > middle + 100, "{edge} {middle}");
    assert_eq!(
        fen("4k3/8/8/8/8/8/8/R3K3 b - - 0 1").evaluate_full(),
        fen(&mirror("4k3/8/8/8/8/8/8/R3K3 b - - 0 1")).evaluate_full()
    );
    // Two knights cannot force mate: no guidance.
    let nn = |king: &str| score(&format!("{king} b - - 0 1"));
    assert!(nn("k7/8/8/8/3K4/3NN3/8/8") < nn("8/8/8/5k2/3K4/3NN3/8/8") + 100);
}

/// Mutated FENs and move texts never crash: each is refused with an error or read into a
/// position whose moves, notation, key and evaluation all work.
#[test]
fn hostile_input_never_crashes() {
    let seeds = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    ];
    let alphabet: Vec<char> = "pnbrqkPNBRQK12345678/ wb-KQkqABCDEFGHabcdefgh0x9"
        .chars()
        .collect();
    let mut rng = crate::util::Rng::new(7);
    let mut read = 0;
    for i in 0..20_000 {
        let mut chars: Vec<char> = seeds[i % seeds.len()].chars().collect();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(chars.len());
            match rng.below(3) {
                0 => chars[at] = alphabet[rng.below(alphabet.len())],
                1 => {
                    chars.remove(at);
                }
                _ => chars.insert(at, alphabet[rng.below(alphabet.len())]),
            }
        }
        let text: String = chars.into_iter().collect();
        for rules in [std_game(), game960()] {
            let Ok(p) = rules.from_fen(&text) else {
                continue;
            };
            read += 1;
            let all = moves(&p);
            assert_eq!(all.is_empty(), p.outcome().is_some(), "{text}");
            for &m in &all {
                assert_eq!(p.parse_move(&p.format_move(m)), Ok(m), "{text}");
            }
            assert_eq!(
                rules.from_fen(&p.fen()).map(|q| q.key()),
                Ok(p.key()),
                "{text}"
            );
            if p.outcome().is_none() {
                p.evaluate();
            }
            for t in ["e1g1", "e1h1", "e8c8", "a7a8q", "b1a1", "e5d6", "h2h1n"] {
                let _ = p.parse_move(t);
            }
        }
    }
    assert!(read > 1000, "{read} mutated FENs were readable");
}

/// The shortcut of `noisy_score` (a capture of a piece worth at least its capturer does not
/// lose material) agrees with the full static exchange evaluation, over random playouts.
#[test]
fn see_shortcut_agrees_with_see() {
    let mut rng = crate::util::Rng::new(11);
    let mut checked = 0;
    for _ in 0..300 {
        let mut p = std_game();
        for _ in 0..80 {
            let all = moves(&p);
            if all.is_empty() {
                break;
            }
            for &m in &all {
                if p.wins_at_least_its_attacker(m) {
                    assert!(p.see(m) >= 0, "{} {}", p.fen(), p.format_move(m));
                    checked += 1;
                }
            }
            p.play(all[rng.below(all.len())]);
        }
    }
    assert!(checked > 1000, "{checked} captures checked");
}

/// `gives_check` from attack sets agrees with playing the move, over random playouts of
/// standard chess and Chess960 (castling, en passant, promotions and discovered checks
/// included), and with positions known to hold each kind of check.
#[test]
fn gives_check_agrees_with_playing_the_move() {
    let played = |p: &Chess, m: Move| {
        let mut c = p.clone();
        c.play(m);
        c.in_check()
    };
    let mut rng = crate::util::Rng::new(12);
    let mut checks = 0;
    for start in [std_game(), game960()] {
        for _ in 0..300 {
            let mut p = start.clone();
            for _ in 0..120 {
                let all = moves(&p);
                if all.is_empty() {
                    break;
                }
                for &m in &all {
                    let check = played(&p, m);
                    assert_eq!(p.gives_check(m), check, "{} {}", p.fen(), p.format_move(m));
                    checks += check as usize;
                }
                p.play(all[rng.below(all.len())]);
            }
        }
    }
    assert!(checks > 1000, "{checks} checking moves seen");
    // Discovered check by a rook, check by promotion, by en passant's discovery, by castling.
    for (f, m) in [
        ("4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1", "e4c5"),
        ("4k3/1P6/8/8/8/8/8/6K1 w - - 0 1", "b7b8q"),
        ("8/8/8/1k1pP2R/8/8/8/6K1 w - d6 0 1", "e5d6"),
        ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"),
    ] {
        let p = fen(f);
        let mv = p.parse_move(m).unwrap();
        assert!(p.gives_check(mv) && played(&p, mv), "{f} {m}");
    }
}

/// Each way a game of chess ends has protocol.md's name (the referee's reason and the page's
/// words come from `Line::ending`), and a game that goes on has none.
#[test]
fn endings_are_named_by_the_rule() {
    let start = Chess::new(&Params::default()).unwrap();
    let from = |fen: &str| Line::new(start.from_fen(fen).unwrap());
    let after = |line: Line<Chess>, moves: &[&str]| line.play_texts(moves, |_, _| {}).unwrap();
    let ending = |line: &Line<Chess>| (line.outcome(), line.ending());
    let fools = after(Line::new(start.clone()), &["f2f3", "e7e5", "g2g4", "d8h4"]);
    assert_eq!(
        ending(&fools),
        (Some(Outcome::Win(Player::Second)), Some("checkmate".into()))
    );
    let stalemate = from("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(
        ending(&stalemate),
        (Some(Outcome::Draw), Some("stalemate".into()))
    );
    // A rook up is no dead position, but the hundredth quiet ply ends the game.
    let fifty = after(from("8/8/8/3k4/8/8/1R6/K7 w - - 99 80"), &["a1a2"]);
    assert_eq!(
        ending(&fifty),
        (Some(Outcome::Draw), Some("the fifty-move rule".into()))
    );
    let dead = after(from("8/8/8/3k4/8/8/1r6/K7 w - - 0 1"), &["a1b2"]);
    assert_eq!(
        ending(&dead),
        (Some(Outcome::Draw), Some("a dead position".into()))
    );
    let knights = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let once = after(Line::new(start.clone()), &knights);
    assert_eq!(ending(&once), (None, None));
    let twice = after(once, &knights);
    assert_eq!(
        ending(&twice),
        (Some(Outcome::Draw), Some("threefold repetition".into()))
    );
}

/// Along random games, the network's cached evaluation (what the search calls) equals a
/// fresh one, and a position scores as its mirror image with the colours swapped.
#[test]
fn network_cached_evaluation_is_the_fresh_one() {
    use super::nnue;
    let net = nnue::network();
    let mut rng = 0x1234_5678_9ABC_DEF1u64;
    let mut moves = Vec::new();
    for _ in 0..20 {
        let mut pos = Chess::default();
        for _ in 0..120 {
            let fresh = net.evaluate(pos.board());
            assert_eq!(nnue::evaluate(pos.board()), fresh, "{}", pos.fen());
            let (weighted, scale) = super::eval::evaluate_full_scaled(pos.board());
            assert_eq!(weighted, pos.evaluate_full());
            let correction = fresh * scale / super::eval::SCALE_NORMAL;
            let full = (weighted + correction) * (200 - pos.halfmove_clock() as i32) / 200;
            assert_eq!(pos.evaluate_net(), full, "{}", pos.fen());
            assert_eq!(
                fen(&mirror(&pos.fen())).evaluate_net(),
                full,
                "{}",
                pos.fen()
            );
            moves.clear();
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            pos.play(moves[(rng % moves.len() as u64) as usize]);
        }
    }
}

#[test]
fn network_files_that_are_not_one_are_refused() {
    use super::nnue::Network;
    let file = super::nnue::network_file();
    assert!(Network::from_bytes(file).is_ok());
    assert!(Network::from_bytes(&file[..file.len() - 1]).is_err());
    let mut other = file.to_vec();
    other[0] = b'X';
    assert!(Network::from_bytes(&other).is_err());
    let mut wide = file.to_vec();
    wide[8] ^= 1;
    assert!(Network::from_bytes(&wide).is_err());
}
