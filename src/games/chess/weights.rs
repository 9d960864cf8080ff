//! The chess evaluation's weights (see `eval.rs` for the features and the table's layout).
//!
//! Written by `scripts/tuning/chess_tune.sh` (`examples/chess_tune.rs`, Texel tuning).
//! - Data: 678019 quiet positions from Stockfish's self-play games, 75335 more from later
//!   games held out.
//! - Labels: 0 x result + 1 x sigmoid(2.3591 x Stockfish's score / 400).
//! - Fit: 1100 epochs. Mean squared error of sigmoid(K * eval / 400), K = 1.6898,
//!   against the game results: training 0.089196 before, 0.088926 after; held out 0.126341
//!   before, 0.126617 after. Against the labels, held out: 0.011368 before, 0.010933 after.

use super::eval::{NUM_WEIGHTS, S};

#[rustfmt::skip]
pub static WEIGHTS: [S; NUM_WEIGHTS] = [
    // material: pawn, knight, bishop, rook, queen
    S(107, 134), S(434, 354), S(472, 378), S(617, 660), S(1410, 1096),
    // pst pawn: a1..h1, a2..h2, .., a8..h8 from White's side
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(-32, -8), S(-33, -4), S(-30, 3), S(-40, -7), S(-31, 0), S(0, -7), S(1, -16), S(-35, -22),
    S(-29, -14), S(-36, -15), S(-31, -16), S(-40, -12), S(-30, -13), S(-13, -18), S(-8, -22), S(-38, -26),
    S(-22, -15), S(-27, -5), S(-2, -35), S(-3, -28), S(6, -31), S(10, -26), S(-8, -23), S(-30, -31),
    S(-3, -18), S(-5, -3), S(8, -10), S(17, -23), S(31, -22), S(11, -13), S(-3, -6), S(5, -19),
    S(12, 4), S(36, -4), S(26, 6), S(50, -4), S(78, -3), S(114, -27), S(16, 28), S(20, -2),
    S(7, 63), S(69, 37), S(148, 46), S(114, 34), S(-19, 92), S(-57, 74), S(-91, 84), S(-84, 74),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    // pst knight: a1..h8
    S(-46, -96), S(-25, -21), S(-69, 3), S(-16, -15), S(2, -11), S(-6, -10), S(-33, -3), S(-3, 32),
    S(-29, -18), S(5, -5), S(-17, 8), S(4, -11), S(1, -1), S(-15, 10), S(7, 11), S(-25, -1),
    S(-19, -13), S(-5, -9), S(-3, 14), S(17, 37), S(25, 31), S(0, 20), S(1, -1), S(-16, 6),
    S(-4, -14), S(8, -9), S(21, 37), S(11, 37), S(24, 29), S(22, 30), S(26, 12), S(-6, -24),
    S(30, 11), S(6, 18), S(11, 34), S(35, 31), S(12, 38), S(35, 36), S(10, 30), S(37, -22),
    S(31, -18), S(32, -2), S(37, 40), S(33, 38), S(46, 48), S(48, 32), S(52, -18), S(45, -42),
    S(-41, 53), S(6, 10), S(13, 23), S(52, -5), S(49, -50), S(10, -44), S(-118, 40), S(13, -49),
    S(-145, -35), S(-19, -8), S(-47, -9), S(181, -51), S(-59, 37), S(-109, -44), S(54, -129), S(-171, -46),
    // pst bishop: a1..h8
    S(29, -20), S(38, -11), S(-21, 1), S(-11, -17), S(-17, -15), S(-25, 8), S(36, -32), S(28, -21),
    S(28, -26), S(7, -16), S(24, -15), S(-10, 2), S(-5, -2), S(29, 0), S(24, -22), S(37, -39),
    S(-10, -16), S(17, 3), S(1, 29), S(4, 19), S(1, 17), S(2, 0), S(14, -7), S(4, -31),
    S(11, -20), S(8, -8), S(-1, 21), S(-2, 28), S(20, 15), S(-6, 6), S(6, -10), S(9, -22),
    S(-19, 16), S(-8, 9), S(-10, 13), S(26, 28), S(-9, 33), S(28, 25), S(-15, 13), S(6, -29),
    S(3, 14), S(9, -8), S(8, -8), S(34, 13), S(62, -9), S(69, 12), S(66, 1), S(13, -28),
    S(-31, 22), S(-6, -8), S(-9, 1), S(44, -9), S(-27, 26), S(6, 2), S(-67, 16), S(-22, 7),
    S(-48, 0), S(-2, 9), S(77, -26), S(-83, 30), S(-80, 14), S(-283, 49), S(32, -9), S(-31, -19),
    // pst rook: a1..h8
    S(-51, 13), S(-40, 1), S(-35, 11), S(-29, 5), S(-25, -11), S(-34, 2), S(-22, -12), S(-39, -6),
    S(-76, 27), S(-67, 15), S(-40, -4), S(-34, 2), S(-32, -2), S(-40, -11), S(-41, -7), S(-64, -13),
    S(-56, 14), S(-55, 24), S(-33, -1), S(-31, -1), S(-21, -6), S(-30, 2), S(13, -12), S(-47, -22),
    S(-45, 13), S(-27, 10), S(-26, 2), S(-34, 11), S(-12, -7), S(-1, -4), S(29, -21), S(-31, 3),
    S(-22, 16), S(-19, 20), S(-14, 22), S(4, -1), S(-13, 13), S(35, -11), S(-11, 8), S(9, -4),
    S(-21, 10), S(16, 0), S(18, -7), S(27, 0), S(31, -11), S(42, -19), S(91, -35), S(80, -28),
    S(34, 14), S(-5, 28), S(34, 19), S(59, -9), S(72, -5), S(159, -36), S(40, -8), S(103, -30),
    S(34, 2), S(25, 14), S(56, 2), S(25, 20), S(63, 7), S(-29, 31), S(50, -14), S(104, -21),
    // pst queen: a1..h8
    S(-23, -30), S(-6, -72), S(-20, -12), S(-14, -18), S(-14, -27), S(-38, -49), S(-49, -40), S(34, -64),
    S(-28, -19), S(-18, -3), S(-10, -35), S(-2, -36), S(-3, -25), S(-14, -7), S(50, -162), S(-1, -44),
    S(-5, -21), S(-19, -11), S(-16, 28), S(-30, 26), S(-17, 35), S(-11, 3), S(-14, 3), S(19, -69),
    S(-26, -9), S(-19, 18), S(-16, 22), S(-35, 65), S(-22, 46), S(-17, 1), S(-4, 14), S(0, 11),
    S(-37, 17), S(-44, 53), S(-39, 59), S(-31, 80), S(-31, 79), S(-6, 58), S(-1, 20), S(-5, 35),
    S(-55, 28), S(-40, 41), S(-18, -2), S(-22, 77), S(24, 8), S(68, 7), S(49, -3), S(8, 42),
    S(-2, -6), S(-40, 24), S(-26, 70), S(-44, 38), S(-47, 105), S(12, 57), S(-49, 117), S(58, -36),
    S(-21, -12), S(4, -14), S(-68, 64), S(77, -30), S(4, -9), S(209, -126), S(279, -208), S(218, -157),
    // pst king: a1..h8
    S(29, -62), S(58, -36), S(32, -38), S(-57, -23), S(-7, -37), S(-35, -6), S(30, -31), S(10, -58),
    S(42, -46), S(16, -7), S(7, -16), S(-43, 3), S(-12, -7), S(-28, 1), S(23, -14), S(23, -33),
    S(11, -14), S(54, -8), S(14, 1), S(36, -11), S(-6, 3), S(-33, 4), S(8, 3), S(-14, -19),
    S(-59, 24), S(111, -5), S(21, 4), S(-29, 14), S(-7, 14), S(-14, 13), S(25, -3), S(-59, -4),
    S(81, -11), S(122, 12), S(28, 15), S(-73, 24), S(-154, 34), S(8, 13), S(108, 2), S(58, -31),
    S(-8, -3), S(34, 32), S(-79, 54), S(-2, 32), S(-124, 47), S(42, 14), S(18, 29), S(87, -31),
    S(101, -34), S(86, 10), S(10, 63), S(-137, 56), S(154, 2), S(-8, 4), S(29, 17), S(37, -20),
    S(199, -103), S(-242, 61), S(-151, 48), S(35, 10), S(-50, 34), S(-135, 39), S(68, 6), S(-289, -32),
    // mobility knight: 0..8 squares
    S(-13, -40), S(0, -5), S(6, 24), S(15, 27), S(21, 36), S(27, 42), S(32, 35), S(38, 24),
    S(49, -1),
    // mobility bishop: 0..13 squares
    S(-7, -21), S(0, -4), S(15, 2), S(20, 20), S(27, 23), S(28, 31), S(31, 34), S(34, 31),
    S(34, 38), S(50, 21), S(56, 15), S(65, 3), S(29, 21), S(9, 5),
    // mobility rook: 0..14 squares
    S(-7, -2), S(0, -1), S(5, 17), S(10, 33), S(9, 39), S(16, 40), S(16, 47), S(18, 44),
    S(23, 52), S(20, 55), S(23, 58), S(31, 53), S(30, 57), S(19, 60), S(90, 18),
    // mobility queen: 0..27 squares
    S(24, 108), S(26, 100), S(28, 50), S(28, 39), S(29, 38), S(28, 82), S(31, 68), S(33, 77),
    S(36, 78), S(35, 93), S(31, 102), S(38, 101), S(37, 91), S(37, 110), S(40, 103), S(36, 103),
    S(49, 100), S(36, 94), S(55, 59), S(45, 76), S(130, -3), S(124, -6), S(176, -55), S(296, -145),
    S(300, -142), S(459, -233), S(149, -121), S(102, -107),
    // passed pawn: by rank from the pawn's side, 1..8
    S(0, 0), S(15, 1), S(-30, 25), S(-9, 30), S(27, 48), S(47, 104), S(119, 128), S(0, 0),
    // doubled pawn: each pawn beyond the first on a file
    S(-21, -16),
    // isolated pawn: no own pawn on a neighbouring file
    S(-10, -7),
    // supported pawn: defended by an own pawn
    S(14, 13),
    // phalanx pawn: an own pawn beside it
    S(5, 7),
    // king attack: squares next to the enemy king attacked by a knight, bishop, rook, queen
    S(14, -11), S(20, -7), S(11, -1), S(17, 9),
    // king attackers: pieces attacking squares next to the enemy king: 0..7 or more
    S(0, 0), S(-24, 4), S(-13, 11), S(29, 43), S(174, 11), S(16, -55), S(70, 0), S(80, 0),
    // king shield: own pawns one, two ranks in front of the king (its file and the two beside)
    S(9, -8), S(1, -7),
    // king open file: king's file and the two beside without an own pawn
    S(-23, -5),
    // bishop pair: two bishops or more
    S(24, 88),
    // rook open file: no pawn on the rook's file
    S(38, 0),
    // rook half-open file: only enemy pawns on the rook's file
    S(15, 22),
    // tempo: the side to move
    S(22, 5),
    // threat by pawn: a knight, bishop, rook, queen attacked by a pawn: the side to move's, the other's
    S(76, 107), S(74, 129), S(47, 162), S(-52, 361), S(64, 18), S(56, 33), S(45, 5), S(64, -37),
    // threat by minor: a knight, bishop, rook, queen attacked by a knight or bishop: the side to move's, the other's
    S(21, 15), S(43, 3), S(76, 146), S(53, 327), S(23, 17), S(45, 8), S(56, 0), S(48, 36),
    // threat by rook: a queen attacked by a rook: the side to move's, the other's
    S(196, 96), S(75, -25),
    // hanging: a pawn, a piece attacked and not defended: the side to move's, the other's
    S(25, 34), S(32, 87), S(14, 28), S(10, 35),
    // passed free: a passed pawn whose square in front is empty, by rank 1..8
    S(0, 0), S(-18, 16), S(12, 7), S(8, 22), S(18, 27), S(44, 27), S(149, 20), S(0, 0),
    // passed king: own, enemy king's distance to the square in front of a passed pawn, times its rank less 2
    S(-1, -9), S(0, 12),
    // safe check: squares a knight, bishop, rook, queen could check the enemy king from, attacked by it, free of own pieces and not attacked by the enemy
    S(89, -17), S(10, 17), S(87, -11), S(24, 27),
    // king zone weak: squares next to the enemy king attacked and defended by no pawn, knight, bishop or rook
    S(13, -3),
    // outpost: a knight, bishop on ranks 4-6 from its side, defended by a pawn, no enemy pawn able to attack it
    S(33, 22), S(48, 6),
    // bishop pawns: own pawns on the squares of a bishop's colour, for each bishop
    S(-5, -5),
];
