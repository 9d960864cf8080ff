//! The checkers evaluation's weights (see `eval.rs` for the features and the table's layout).
//!
//! Written by `examples/checkers_tune.rs` (Texel tuning; docs/checkers.md has the command).
//! - Data: 690492 positions without a capture from 10485 games of ply-referee records,
//!   73477 more from the last games held out.
//! - Labels: 0.5 x result + 0.5 x sigmoid(6.4261 x score / 400).
//! - Fit: 1430 epochs. Mean squared error of sigmoid(K * eval / 400), K = 5.3900,
//!   against the game results: training 0.054635 before, 0.046346 after; held out 0.050605
//!   before, 0.042922 after. Against the labels, held out: 0.022687 before, 0.016957 after.

use super::eval::{NUM_WEIGHTS, S};

#[rustfmt::skip]
pub static WEIGHTS: [S; NUM_WEIGHTS] = [
    // material: man
    S(116, 191),
    // material: king
    S(218, 176),
    // a man on each square, bits 0..31 as Black sees them
    S(41, 13), S(68, 14), S(75, 3), S(-10, 20),
    S(5, 21), S(13, 24), S(17, 24), S(10, 9),
    S(-3, 21), S(6, 19), S(-5, 25), S(-7, 24),
    S(-10, 32), S(-12, 27), S(-6, 33), S(-21, 36),
    S(-49, 45), S(-41, 50), S(-29, 41), S(-26, 41),
    S(-9, 30), S(-64, 63), S(-46, 59), S(-61, 55),
    S(17, 14), S(13, 15), S(0, 19), S(-48, 34),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    // a king on each square
    S(38, 5), S(62, -4), S(100, -13), S(15, 10),
    S(65, -6), S(68, 1), S(51, 4), S(28, 7),
    S(98, -10), S(95, -7), S(96, -9), S(85, -6),
    S(36, 10), S(87, -7), S(96, -7), S(57, 2),
    S(21, 11), S(98, -11), S(78, -5), S(118, -22),
    S(50, -3), S(37, 7), S(83, -7), S(63, -5),
    S(14, 10), S(62, -3), S(53, 1), S(21, 7),
    S(-72, 34), S(49, -1), S(15, 12), S(13, 7),
    // men on 1..4 while the opponent has no king
    S(-16, 25), S(-49, 37), S(-58, 45), S(2, -2),
    // mobility (steps)
    S(8, -3),
    // runaway men by rows left to go, 1..7
    S(62, -5), S(65, -24), S(30, -10), S(9, 1),
    S(-31, 21), S(5, 10), S(3, 6),
    // men with no empty square ahead
    S(5, 1),
    // kings with no step
    S(-2, -1),
    // pieces the opponent could jump
    S(-22, -11),
    // balance: |men on files a-d - men on files e-h|
    S(-2, -1),
];
