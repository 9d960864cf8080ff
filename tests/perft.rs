//! Perft tables through the protocol's `go perft`, one table per game (and rule variant).
//!
//! Tic-tac-toe and Connect Four: design.md §5. Nim and Teeko: counted independently by
//! `scripts/perft_oracle.py` (plain Python written apart from ply's Rust, run with
//! `python3 scripts/perft_oracle.py`), which also reproduces the two known tables.

mod common;

use common::Engine;

/// Runs `go perft d` for each expected count (depth 1, 2, ...) after `setup` lines.
fn check(setup: &[&str], expected: &[u64]) {
    let mut e = Engine::start();
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
