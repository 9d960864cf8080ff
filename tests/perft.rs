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
