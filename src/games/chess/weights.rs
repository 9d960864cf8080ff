//! The chess evaluation's weights (see `eval.rs` for the features and the table's layout).
//!
//! Written by `scripts/tuning/chess_tune.sh` (`examples/chess_tune.rs`, Texel tuning).
//! - Data: 678019 quiet positions from Stockfish's self-play games, 75335 more from later
//!   games held out.
//! - Labels: 0 x result + 1 x sigmoid(2.3591 x Stockfish's score / 400).
//! - Fit: 1470 epochs. Mean squared error of sigmoid(K * eval / 400), K = 1.7725,
//!   against the game results: training 0.089956 before, 0.089228 after; held out 0.126338
//!   before, 0.126756 after. Against the labels, held out: 0.011905 before, 0.011135 after.

use super::eval::{NUM_WEIGHTS, S};

#[rustfmt::skip]
pub static WEIGHTS: [S; NUM_WEIGHTS] = [
    // material: pawn, knight, bishop, rook, queen
    S(98, 128), S(422, 344), S(441, 364), S(590, 637), S(1339, 1068),
    // pst pawn: a1..h1, a2..h2, .., a8..h8 from White's side
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(-31, -7), S(-31, -4), S(-29, 7), S(-36, -10), S(-30, 1), S(2, -5), S(3, -14), S(-35, -21),
    S(-28, -13), S(-34, -13), S(-27, -15), S(-38, -9), S(-28, -10), S(-10, -15), S(-5, -20), S(-37, -24),
    S(-22, -14), S(-24, -5), S(-3, -32), S(-4, -25), S(6, -29), S(9, -24), S(-6, -22), S(-31, -29),
    S(-2, -17), S(-7, -2), S(6, -9), S(14, -21), S(28, -21), S(9, -13), S(-3, -6), S(3, -17),
    S(10, 3), S(36, -5), S(26, 6), S(51, -6), S(74, -4), S(113, -27), S(15, 26), S(18, -2),
    S(6, 60), S(76, 31), S(141, 42), S(111, 27), S(-22, 87), S(-54, 68), S(-98, 81), S(-83, 70),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    // pst knight: a1..h8
    S(-51, -94), S(-30, -21), S(-70, 0), S(-20, -15), S(-4, -11), S(-10, -10), S(-35, -5), S(1, 30),
    S(-35, -18), S(0, -9), S(-21, 5), S(1, -13), S(-3, -3), S(-17, 8), S(0, 10), S(-29, -5),
    S(-23, -18), S(-8, -11), S(-4, 10), S(11, 34), S(21, 28), S(-2, 17), S(-2, -2), S(-19, 3),
    S(-6, -8), S(12, -7), S(20, 40), S(11, 43), S(20, 32), S(19, 32), S(31, 14), S(-6, -15),
    S(28, 9), S(12, 22), S(17, 38), S(45, 36), S(10, 44), S(47, 39), S(8, 34), S(36, -19),
    S(33, -20), S(46, -4), S(41, 40), S(43, 37), S(53, 49), S(56, 40), S(51, -11), S(42, -38),
    S(-43, 46), S(0, 6), S(8, 22), S(52, -9), S(38, -51), S(6, -43), S(-113, 36), S(13, -51),
    S(-139, -32), S(-23, -10), S(-43, -14), S(188, -54), S(-58, 35), S(-105, -47), S(77, -132), S(-177, -36),
    // pst bishop: a1..h8
    S(28, -20), S(38, -10), S(-23, -1), S(-9, -16), S(-22, -14), S(-19, 9), S(32, -30), S(36, -20),
    S(30, -24), S(4, -16), S(25, -15), S(-11, -2), S(-2, -4), S(24, 3), S(27, -20), S(32, -36),
    S(-14, -16), S(17, 2), S(-1, 24), S(8, 16), S(-2, 13), S(5, -1), S(11, -8), S(4, -30),
    S(16, -18), S(11, -8), S(4, 21), S(3, 26), S(24, 13), S(-9, 5), S(10, -11), S(4, -19),
    S(-20, 15), S(1, 11), S(-4, 11), S(45, 25), S(-8, 33), S(32, 25), S(-18, 16), S(9, -26),
    S(4, 16), S(21, -9), S(24, -10), S(40, 10), S(63, -7), S(77, 10), S(66, 5), S(4, -26),
    S(-35, 21), S(-1, -10), S(-17, 0), S(38, -8), S(-38, 24), S(-2, 3), S(-70, 15), S(-27, 9),
    S(-41, -1), S(-14, 9), S(77, -25), S(-87, 30), S(-76, 15), S(-286, 47), S(2, -4), S(-39, -19),
    // pst rook: a1..h8
    S(-49, 13), S(-38, 1), S(-34, 10), S(-28, 5), S(-23, -10), S(-31, 4), S(-17, -11), S(-35, -7),
    S(-74, 25), S(-66, 14), S(-38, -4), S(-33, 2), S(-29, -3), S(-35, -13), S(-33, -7), S(-56, -16),
    S(-56, 14), S(-57, 23), S(-30, -2), S(-30, -1), S(-23, -4), S(-29, 1), S(13, -10), S(-45, -19),
    S(-46, 11), S(-27, 9), S(-27, 1), S(-36, 12), S(-13, -7), S(-2, -5), S(34, -22), S(-27, 1),
    S(-23, 15), S(-21, 19), S(-16, 22), S(-1, 0), S(-19, 14), S(40, -13), S(-8, 6), S(15, -4),
    S(-20, 10), S(15, -1), S(16, -6), S(24, 0), S(29, -10), S(42, -20), S(96, -35), S(79, -26),
    S(32, 13), S(-10, 27), S(25, 20), S(51, -8), S(68, -5), S(151, -36), S(38, -7), S(102, -29),
    S(32, 3), S(19, 16), S(52, 3), S(23, 20), S(63, 7), S(-28, 31), S(51, -14), S(103, -19),
    // pst queen: a1..h8
    S(-18, -30), S(-6, -66), S(-19, -8), S(-12, -16), S(-14, -21), S(-33, -51), S(-49, -38), S(44, -67),
    S(-30, -13), S(-17, -4), S(-9, -32), S(-1, -34), S(-2, -23), S(-13, -6), S(48, -147), S(-1, -44),
    S(-6, -16), S(-17, -18), S(-15, 20), S(-28, 20), S(-17, 33), S(-10, 6), S(-14, 4), S(15, -59),
    S(-26, -5), S(-15, 7), S(-12, 12), S(-28, 49), S(-21, 44), S(-15, 3), S(-5, 18), S(0, 15),
    S(-38, 19), S(-43, 50), S(-38, 49), S(-29, 70), S(-31, 81), S(-3, 56), S(-4, 24), S(-4, 43),
    S(-57, 34), S(-41, 42), S(-21, 1), S(-25, 82), S(19, 7), S(61, 17), S(45, -3), S(5, 46),
    S(2, -11), S(-41, 21), S(-29, 61), S(-44, 41), S(-47, 96), S(7, 45), S(-54, 131), S(60, -25),
    S(-15, -22), S(-1, -6), S(-77, 72), S(78, -46), S(14, -28), S(213, -136), S(274, -189), S(209, -150),
    // pst king: a1..h8
    S(41, -62), S(68, -36), S(40, -38), S(-46, -26), S(5, -40), S(-23, -10), S(42, -33), S(24, -58),
    S(58, -45), S(29, -7), S(8, -16), S(-37, 1), S(-6, -9), S(-22, 0), S(32, -14), S(34, -31),
    S(21, -16), S(50, -7), S(2, 2), S(23, -10), S(-14, 3), S(-36, 4), S(12, 2), S(-2, -19),
    S(-53, 22), S(94, -4), S(18, 3), S(-49, 16), S(-23, 15), S(-28, 14), S(18, -1), S(-47, -5),
    S(63, -10), S(105, 13), S(1, 18), S(-91, 25), S(-155, 33), S(-3, 14), S(108, 1), S(69, -30),
    S(-1, -5), S(21, 32), S(-92, 54), S(-24, 34), S(-138, 48), S(12, 17), S(23, 27), S(98, -32),
    S(113, -34), S(89, 9), S(19, 60), S(-129, 54), S(136, 5), S(21, 2), S(33, 16), S(38, -19),
    S(126, -82), S(-200, 55), S(-130, 44), S(30, 13), S(-66, 35), S(-125, 37), S(88, 5), S(-276, -31),
    // mobility knight: 0..8 squares
    S(-13, -41), S(-1, -9), S(5, 19), S(11, 24), S(18, 33), S(23, 37), S(28, 31), S(34, 18),
    S(51, -10),
    // mobility bishop: 0..13 squares
    S(-13, -37), S(-8, -14), S(7, -7), S(12, 12), S(19, 17), S(20, 25), S(23, 28), S(25, 26),
    S(24, 34), S(39, 18), S(44, 13), S(48, 1), S(13, 20), S(-9, 4),
    // mobility rook: 0..14 squares
    S(-8, -12), S(-2, -12), S(3, 7), S(7, 22), S(6, 29), S(13, 31), S(13, 39), S(15, 36),
    S(21, 45), S(18, 47), S(22, 51), S(31, 47), S(33, 50), S(21, 54), S(94, 12),
    // mobility queen: 0..27 squares
    S(23, 54), S(24, 77), S(27, 20), S(28, 8), S(30, 6), S(30, 48), S(33, 32), S(36, 43),
    S(38, 44), S(38, 61), S(34, 71), S(41, 69), S(40, 64), S(39, 83), S(42, 78), S(38, 85),
    S(47, 87), S(33, 84), S(52, 54), S(42, 75), S(119, 8), S(111, 8), S(151, -15), S(256, -96),
    S(295, -101), S(354, -142), S(147, -50), S(91, -38),
    // passed pawn: by rank from the pawn's side, 1..8
    S(0, 0), S(15, 0), S(-24, 23), S(-4, 27), S(29, 44), S(48, 97), S(117, 120), S(0, 0),
    // doubled pawn: each pawn beyond the first on a file
    S(-19, -15),
    // isolated pawn: no own pawn on a neighbouring file
    S(-10, -7),
    // supported pawn: defended by an own pawn
    S(14, 12),
    // phalanx pawn: an own pawn beside it
    S(5, 7),
    // king attack: squares next to the enemy king attacked by a knight, bishop, rook, queen
    S(19, -13), S(27, -10), S(17, -3), S(22, 12),
    // king attackers: pieces attacking squares next to the enemy king: 0..7 or more
    S(0, 0), S(-25, 4), S(-19, 13), S(10, 51), S(129, 32), S(-44, -63), S(70, 0), S(80, 0),
    // king shield: own pawns one, two ranks in front of the king (its file and the two beside)
    S(9, -7), S(0, -7),
    // king open file: king's file and the two beside without an own pawn
    S(-24, -5),
    // bishop pair: two bishops or more
    S(22, 83),
    // rook open file: no pawn on the rook's file
    S(35, 0),
    // rook half-open file: only enemy pawns on the rook's file
    S(14, 20),
    // tempo: the side to move
    S(21, 5),
    // threat by pawn: a knight, bishop, rook, queen attacked by a pawn: the side to move's, the other's
    S(73, 104), S(69, 127), S(44, 169), S(-7, 278), S(62, 20), S(54, 32), S(44, 3), S(61, -37),
    // threat by minor: a knight, bishop, rook, queen attacked by a knight or bishop: the side to move's, the other's
    S(20, 12), S(40, 3), S(71, 137), S(55, 292), S(22, 15), S(42, 7), S(51, -3), S(45, 34),
    // threat by rook: a queen attacked by a rook: the side to move's, the other's
    S(176, 92), S(71, -31),
    // hanging: a pawn, a piece attacked and not defended: the side to move's, the other's
    S(24, 32), S(31, 86), S(15, 27), S(14, 36),
    // passed free: a passed pawn whose square in front is empty, by rank 1..8
    S(0, 0), S(-15, 15), S(8, 7), S(6, 21), S(17, 27), S(39, 26), S(134, 21), S(0, 0),
    // passed king: own, enemy king's distance to the square in front of a passed pawn, times its rank less 2
    S(-1, -8), S(-1, 12),
];
