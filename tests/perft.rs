//! Perft tables through the protocol's `go perft`, one table per game (and rule variant).
//!
//! Tic-tac-toe and Connect Four: design.md §5. Nim and Teeko: counted independently by
//! `scripts/perft_oracle.py` (plain Python written apart from ply's Rust, run with
//! `python3 scripts/perft_oracle.py`), which also reproduces the two known tables. Chess: the
//! six standard perft positions (start, "Kiwipete", and positions 3 to 6 of the
//! Chess Programming Wiki's perft results), up to about ten million leaves each;
//! `scripts/chess_perft.sh` runs the deeper rows.

mod common;

use common::PlyProcess;

/// Runs `go perft d` for each expected count (depth 1, 2, ...) after `setup` lines.
fn check(setup: &[&str], expected: &[u64]) {
    let mut e = PlyProcess::start();
    for line in setup {
        e.send(line);
    }
    for (i, &n) in expected.iter().enumerate() {
        let d = i + 1;
        e.send(&format!("go perft {d}"));
        let lines = e.read_until(|l| l.starts_with("Nodes searched"));
        let total: u64 = lines.last().unwrap()["Nodes searched: ".len()..]
            .parse()
            .unwrap();
        assert_eq!(total, n, "{setup:?} depth {d}");
        // The per-move lines add up to the total.
        let sum: u64 = lines[..lines.len() - 1]
            .iter()
            .map(|l| l.rsplit(": ").next().unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(sum, n);
    }
}

#[test]
fn tictactoe() {
    check(
        &["newgame tictactoe"],
        &[9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872],
    );
}

#[test]
fn connect4() {
    check(
        &["newgame connect4"],
        &[7, 49, 343, 2401, 16807, 117649, 823536, 5673234],
    );
}

#[test]
fn nim() {
    check(&["newgame nim"], &[3, 9, 27, 76, 147, 168, 113, 45, 10, 1]);
    check(
        &["newgame nim length=14 max=3"],
        &[
            3, 9, 27, 81, 242, 651, 1290, 1711, 1507, 891, 353, 91, 14, 1,
        ],
    );
    check(
        &["newgame nim heaps=3,4,5 max=3"],
        &[
            9, 71, 483, 2742, 12461, 43176, 110187, 202006, 259224, 222390, 115500, 27720,
        ],
    );
    check(
        &["newgame nim heaps=3,4,5 max=1000"],
        &[
            12, 113, 810, 4338, 17496, 53442, 123228, 211470, 262248, 222390, 115500, 27720,
        ],
    );
    check(&["newgame nim length=7 max=5"], &[5, 19, 35, 35, 21, 7, 1]);
    // Misère play changes who wins, not the moves.
    check(
        &["newgame nim length=7 max=5 misere=true"],
        &[5, 19, 35, 35, 21, 7, 1],
    );
}

#[test]
fn teeko() {
    // No game can end before Black's fourth drop (ply 7), so d1..d6 are 25·24·…; the
    // oracle counts d8 = 43457420160 and d9 = 707093763840 (too slow for a test here).
    check(
        &["newgame teeko"],
        &[25, 600, 13800, 303600, 6375600, 127512000],
    );
    check(
        &["newgame teeko advanced=true"],
        &[25, 600, 13800, 303600, 6375600],
    );
    check(&["newgame teeko centre=false"], &[24, 576, 13248]);
    // Two move-phase positions, standard and advanced goals.
    let p1 = "position fen .bbb./r.r.r/.b.../...r./..... b";
    let p2 = "position fen b...b/..b../...r./.rr../.r.b. r";
    check(&["newgame teeko", p1], &[12, 234, 3062, 54693, 766759]);
    check(
        &["newgame teeko advanced=true", p1],
        &[12, 234, 3062, 54460, 762477],
    );
    check(&["newgame teeko", p2], &[19, 319, 6006, 95756, 1794240]);
    check(
        &["newgame teeko advanced=true", p2],
        &[19, 319, 6006, 95694, 1792848],
    );
}

/// Runs `go perft depth` on a chess FEN and checks the total.
fn check_chess(fen: &str, depth: u32, expected: u64) {
    let mut e = PlyProcess::start();
    e.send("newgame chess");
    e.send(&format!("position fen {fen}"));
    e.send(&format!("go perft {depth}"));
    let lines = e.read_until(|l| l.starts_with("Nodes searched"));
    let total: u64 = lines.last().unwrap()["Nodes searched: ".len()..]
        .parse()
        .unwrap();
    assert_eq!(total, expected, "{fen} depth {depth}");
}

#[test]
fn chess() {
    let rows: &[(&str, u32, u64)] = &[
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            4,
            197_281,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            5,
            4_865_609,
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            3,
            97_862,
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            4,
            4_085_603,
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674_624),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6, 11_030_083),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            4,
            422_333,
        ),
        (
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            4,
            2_103_487,
        ),
        (
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            4,
            3_894_594,
        ),
    ];
    for &(fen, depth, count) in rows {
        check_chess(fen, depth, count);
    }
    // The startpos shortcut and the per-move split, as Stockfish prints them.
    check(&["newgame chess"], &[20, 400, 8902]);
}
