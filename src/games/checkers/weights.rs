//! The checkers evaluation's weights (see `eval.rs` for the features and the table's layout).
//!
//! Written by `examples/checkers_tune.rs` (Texel tuning; docs/checkers.md has the command).
//! - Data: 966535 positions without a capture from 15485 games of ply-referee records,
//!   93430 more from the last games held out.
//! - Labels: 0.5 x result + 0.5 x sigmoid(6.4855 x score / 400).
//! - Fit: 1300 epochs. Mean squared error of sigmoid(K * eval / 400), K = 5.6854,
//!   against the game results: training 0.047779 before, 0.047489 after; held out 0.055966
//!   before, 0.055119 after. Against the labels, held out: 0.023021 before, 0.022478 after.

use super::eval::{NUM_WEIGHTS, S};

#[rustfmt::skip]
pub static WEIGHTS: [S; NUM_WEIGHTS] = [
    // material: man
    S(127, 175),
    // material: king
    S(209, 168),
    // a man on each square, bits 0..31 as Black sees them
    S(48, 9), S(94, -9), S(79, 0), S(-12, 19),
    S(2, 21), S(13, 18), S(17, 19), S(4, 9),
    S(-4, 18), S(8, 13), S(-6, 21), S(-10, 24),
    S(-10, 29), S(-12, 25), S(-5, 27), S(-25, 36),
    S(-46, 42), S(-38, 46), S(-30, 40), S(-29, 41),
    S(-16, 28), S(-50, 52), S(-42, 53), S(-52, 48),
    S(16, 13), S(17, 12), S(4, 17), S(-48, 33),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    // a king on each square
    S(25, 3), S(56, -8), S(82, -15), S(-24, 13),
    S(40, -4), S(65, -6), S(51, -4), S(29, 1),
    S(85, -12), S(92, -14), S(106, -18), S(72, -6),
    S(32, 5), S(85, -13), S(97, -15), S(54, -4),
    S(33, 1), S(89, -13), S(75, -10), S(96, -23),
    S(40, -6), S(39, 0), S(78, -11), S(59, -9),
    S(12, 3), S(52, -5), S(47, -3), S(31, -1),
    S(-66, 24), S(33, 0), S(10, 10), S(8, 4),
    // men on 1..4 while the opponent has no king
    S(-11, 7), S(-68, 52), S(-45, 24), S(8, -11),
    // mobility (steps)
    S(7, -2),
    // runaway men by rows left to go, 1..7
    S(57, -4), S(57, -19), S(19, -6), S(-2, 6),
    S(-43, 25), S(-16, 17), S(-8, 12),
    // men with no empty square ahead
    S(4, 1),
    // kings with no step
    S(0, 1),
    // pieces the opponent could jump
    S(-23, -8),
    // balance: |men on files a-d - men on files e-h|
    S(-3, -1),
    // bridge: men on 1 and 3, no opposing king
    S(-23, 38),
    // kings while the opponent has none
    S(43, -8),
];
