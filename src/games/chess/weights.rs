//! The chess evaluation's weights (see `eval.rs` for the features and the table's layout).
//!
//! Written by `scripts/tuning/chess_tune.sh` (`examples/chess_tune.rs`, Texel tuning).
//! - Data: 678019 quiet positions from Stockfish's self-play games, 75335 more from later
//!   games held out.
//! - Labels: 0 x result + 1 x sigmoid(2.3591 x Stockfish's score / 400).
//! - Fit: 800 epochs. Mean squared error of sigmoid(K * eval / 400), K = 1.5456,
//!   against the game results: training 0.088787 before, 0.088765 after; held out 0.126271
//!   before, 0.126614 after. Against the labels, held out: 0.011004 before, 0.010745 after.

use super::eval::{NUM_WEIGHTS, S};

#[rustfmt::skip]
pub static WEIGHTS: [S; NUM_WEIGHTS] = [
    // material: pawn, knight, bishop, rook, queen
    S(113, 153), S(465, 376), S(509, 400), S(689, 703), S(1545, 1183),
    // pst pawn: a1..h1, a2..h2, .., a8..h8 from White's side
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(-31, -12), S(-32, -7), S(-32, -2), S(-40, -13), S(-30, -7), S(-1, -13), S(5, -20), S(-33, -26),
    S(-26, -17), S(-33, -19), S(-30, -23), S(-39, -19), S(-31, -20), S(-11, -24), S(-5, -26), S(-34, -30),
    S(-20, -18), S(-23, -7), S(1, -39), S(1, -29), S(9, -33), S(14, -28), S(-4, -22), S(-25, -35),
    S(-1, -21), S(-1, -4), S(11, -11), S(16, -22), S(27, -21), S(7, -11), S(-9, -5), S(1, -21),
    S(15, 2), S(39, -1), S(29, 8), S(54, 1), S(79, 6), S(110, -19), S(8, 39), S(16, 0),
    S(-2, 73), S(68, 44), S(151, 54), S(115, 42), S(-17, 101), S(-70, 84), S(-98, 91), S(-100, 82),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    // pst knight: a1..h8
    S(-45, -115), S(-29, -26), S(-74, 8), S(-19, -13), S(2, -7), S(-11, -14), S(-38, -4), S(0, 37),
    S(-27, -28), S(1, -7), S(-18, 11), S(4, -7), S(3, -2), S(-19, 7), S(2, 2), S(-28, -2),
    S(-20, -20), S(-1, -10), S(0, 15), S(19, 40), S(26, 33), S(7, 23), S(7, -2), S(-14, -1),
    S(-3, -18), S(13, -8), S(25, 38), S(19, 37), S(15, 32), S(32, 26), S(21, 15), S(1, -31),
    S(34, 10), S(11, 18), S(21, 35), S(29, 38), S(20, 41), S(37, 38), S(19, 26), S(38, -28),
    S(21, -19), S(32, -5), S(41, 45), S(39, 45), S(58, 49), S(49, 28), S(54, -23), S(40, -47),
    S(-44, 63), S(5, 18), S(16, 28), S(53, -1), S(47, -48), S(17, -44), S(-137, 49), S(8, -50),
    S(-158, -30), S(-24, -1), S(-50, -9), S(198, -56), S(-76, 46), S(-124, -46), S(71, -136), S(-197, -43),
    // pst bishop: a1..h8
    S(30, -22), S(35, -12), S(-25, 4), S(-9, -16), S(-22, -12), S(-34, 2), S(34, -36), S(27, -29),
    S(21, -30), S(3, -19), S(21, -14), S(-14, 6), S(-9, -4), S(26, -4), S(19, -35), S(32, -46),
    S(-11, -18), S(18, 5), S(-1, 32), S(1, 23), S(-1, 19), S(3, -1), S(17, -11), S(0, -35),
    S(9, -23), S(16, -9), S(-6, 27), S(0, 32), S(16, 18), S(-2, 7), S(6, -10), S(18, -26),
    S(-19, 16), S(-2, 7), S(4, 12), S(27, 35), S(-4, 35), S(36, 26), S(-1, 5), S(3, -33),
    S(-5, 16), S(8, -9), S(7, -5), S(43, 17), S(65, -9), S(69, 8), S(62, 0), S(16, -42),
    S(-28, 28), S(-7, -4), S(-9, 4), S(50, -7), S(-21, 29), S(17, 3), S(-61, 19), S(-14, 7),
    S(-52, 4), S(4, 13), S(85, -25), S(-89, 35), S(-94, 18), S(-304, 57), S(40, -7), S(-45, -17),
    // pst rook: a1..h8
    S(-73, 23), S(-61, 10), S(-56, 20), S(-48, 13), S(-44, -4), S(-55, 9), S(-45, -5), S(-59, 2),
    S(-100, 39), S(-90, 25), S(-61, 3), S(-52, 9), S(-53, 6), S(-60, -7), S(-60, 0), S(-84, -6),
    S(-77, 24), S(-71, 33), S(-54, 6), S(-46, 4), S(-39, 0), S(-43, 6), S(-2, -8), S(-62, -20),
    S(-62, 20), S(-41, 16), S(-41, 7), S(-49, 18), S(-28, -2), S(-13, 2), S(18, -18), S(-49, 9),
    S(-39, 23), S(-31, 26), S(-26, 28), S(-11, 3), S(-26, 20), S(27, -9), S(-22, 13), S(-5, 0),
    S(-38, 16), S(3, 5), S(2, -2), S(11, 5), S(19, -8), S(24, -15), S(83, -33), S(64, -24),
    S(139, -29), S(101, -14), S(138, -24), S(165, -54), S(175, -47), S(256, -73), S(139, -43), S(209, -70),
    S(32, 5), S(16, 20), S(47, 9), S(17, 27), S(59, 10), S(-39, 37), S(54, -15), S(117, -21),
    // pst queen: a1..h8
    S(-24, -25), S(-7, -73), S(-20, -15), S(-12, -24), S(-13, -30), S(-42, -50), S(-57, -42), S(34, -62),
    S(-30, -10), S(-18, 5), S(-10, -32), S(0, -35), S(-2, -24), S(-19, 0), S(52, -178), S(-2, -46),
    S(-5, -20), S(-18, -12), S(-17, 39), S(-30, 32), S(-17, 40), S(-11, 7), S(-14, -1), S(21, -73),
    S(-27, -14), S(-18, 16), S(-20, 30), S(-35, 74), S(-26, 52), S(-14, 0), S(-5, 13), S(2, 4),
    S(-35, 13), S(-43, 49), S(-35, 58), S(-33, 83), S(-29, 81), S(4, 49), S(3, 15), S(-1, 26),
    S(-62, 31), S(-45, 45), S(-24, -5), S(-27, 77), S(12, 12), S(68, 2), S(45, -8), S(9, 39),
    S(0, -5), S(-42, 24), S(-35, 81), S(-59, 47), S(-56, 115), S(5, 61), S(-52, 130), S(58, -40),
    S(-30, -2), S(6, -14), S(-67, 67), S(88, -37), S(7, -13), S(214, -130), S(320, -234), S(235, -165),
    // pst king: a1..h8
    S(19, -61), S(49, -36), S(26, -37), S(-74, -20), S(-17, -37), S(-50, -3), S(20, -31), S(-3, -59),
    S(28, -46), S(9, -5), S(7, -15), S(-52, 5), S(-14, -6), S(-35, 3), S(15, -15), S(16, -35),
    S(22, -17), S(67, -9), S(28, 0), S(52, -13), S(5, 2), S(-28, 4), S(7, 3), S(-16, -20),
    S(-52, 24), S(128, -6), S(49, 3), S(-23, 17), S(5, 15), S(-7, 15), S(31, -4), S(-54, -6),
    S(103, -15), S(141, 12), S(26, 18), S(-78, 27), S(-161, 36), S(8, 14), S(120, 0), S(62, -33),
    S(-13, -6), S(38, 33), S(-93, 59), S(-8, 36), S(-145, 52), S(38, 14), S(18, 29), S(95, -36),
    S(118, -39), S(87, 9), S(3, 70), S(-171, 63), S(162, 2), S(-6, 3), S(36, 15), S(52, -23),
    S(256, -121), S(-278, 67), S(-165, 52), S(38, 9), S(-41, 34), S(-145, 41), S(53, 8), S(-307, -35),
    // mobility knight: 0..8 squares
    S(-5, -32), S(11, 4), S(18, 36), S(26, 39), S(33, 48), S(38, 53), S(43, 46), S(48, 34),
    S(58, 9),
    // mobility bishop: 0..13 squares
    S(0, -18), S(8, 3), S(25, 9), S(30, 29), S(38, 33), S(38, 41), S(42, 44), S(44, 40),
    S(44, 48), S(62, 31), S(70, 23), S(80, 9), S(42, 29), S(20, 11),
    // mobility rook: 0..14 squares
    S(0, 6), S(7, 15), S(12, 36), S(17, 51), S(17, 57), S(24, 58), S(24, 66), S(27, 62),
    S(32, 71), S(29, 73), S(30, 78), S(40, 72), S(37, 76), S(23, 81), S(103, 33),
    // mobility queen: 0..27 squares
    S(25, 138), S(26, 129), S(29, 78), S(29, 67), S(30, 67), S(30, 112), S(32, 98), S(35, 106),
    S(37, 109), S(37, 124), S(32, 135), S(39, 134), S(38, 123), S(37, 145), S(40, 136), S(37, 135),
    S(51, 133), S(36, 127), S(57, 89), S(52, 102), S(141, 20), S(136, 15), S(201, -47), S(340, -147),
    S(343, -146), S(625, -297), S(207, -139), S(174, -130),
    // passed pawn: by rank from the pawn's side, 1..8
    S(0, 0), S(14, 2), S(-44, 29), S(-26, 37), S(15, 60), S(28, 129), S(104, 149), S(0, 0),
    // doubled pawn: each pawn beyond the first on a file
    S(-23, -20),
    // isolated pawn: no own pawn on a neighbouring file
    S(-7, -8),
    // supported pawn: defended by an own pawn
    S(15, 12),
    // phalanx pawn: an own pawn beside it
    S(5, 7),
    // king attack: squares next to the enemy king attacked by a knight, bishop, rook, queen
    S(10, -12), S(12, -7), S(2, -3), S(1, 2),
    // king attackers: pieces attacking squares next to the enemy king: 0..7 or more
    S(0, 0), S(-20, 1), S(-18, 6), S(10, 40), S(163, -28), S(21, -47), S(70, 0), S(80, 0),
    // king shield: own pawns one, two ranks in front of the king (its file and the two beside)
    S(12, -10), S(4, -9),
    // king open file: king's file and the two beside without an own pawn
    S(-22, -6),
    // bishop pair: two bishops or more
    S(27, 93),
    // rook open file: no pawn on the rook's file
    S(41, 0),
    // rook half-open file: only enemy pawns on the rook's file
    S(16, 26),
    // tempo: the side to move
    S(25, 5),
    // threat by pawn: a knight, bishop, rook, queen attacked by a pawn: the side to move's, the other's
    S(88, 120), S(85, 137), S(67, 170), S(-63, 442), S(73, 21), S(66, 34), S(58, 3), S(74, -38),
    // threat by minor: a knight, bishop, rook, queen attacked by a knight or bishop: the side to move's, the other's
    S(22, 16), S(46, 3), S(82, 161), S(59, 360), S(25, 19), S(49, 8), S(62, 0), S(54, 42),
    // threat by rook: a queen attacked by a rook: the side to move's, the other's
    S(223, 101), S(87, -30),
    // hanging: a pawn, a piece attacked and not defended: the side to move's, the other's
    S(30, 36), S(39, 95), S(17, 31), S(12, 39),
    // passed free: a passed pawn whose square in front is empty, by rank 1..8
    S(0, 0), S(-21, 15), S(9, 4), S(4, 19), S(12, 23), S(42, 20), S(170, 13), S(0, 0),
    // passed king: own, enemy king's distance to the square in front of a passed pawn, times its rank less 2
    S(0, -10), S(0, 13),
    // safe check: squares a knight, bishop, rook, queen could check the enemy king from, attacked by it, free of own pieces and not attacked by the enemy
    S(101, -20), S(12, 16), S(101, -12), S(26, 30),
    // king zone weak: squares next to the enemy king attacked and defended by no pawn, knight, bishop or rook
    S(17, -3),
    // outpost: a knight, bishop on ranks 4-6 from its side, defended by a pawn, no enemy pawn able to attack it
    S(28, 23), S(45, 7),
    // bishop pawns: own pawns on the squares of a bishop's colour, for each bishop
    S(-5, -4),
    // push threat: enemy pieces a pawn would attack after a safe push by one square
    S(21, 13),
    // backward pawn: no own pawn beside or behind on the files beside, the square in front attacked by an enemy pawn
    S(-13, 1),
    // minor behind pawn: a knight or bishop with a pawn on the square in front
    S(8, 30),
    // rook on seventh: a rook on the seventh rank from its side, the enemy king on the eighth or enemy pawns on the seventh
    S(-135, 64),
    // passed protected: a passed pawn defended by an own pawn
    S(31, 5),
    // unsafe check: squares a piece could check the enemy king from, attacked by it, free of own pieces but attacked by the enemy
    S(11, 8),
    // pawn storm: own pawns on the enemy king's file and the files beside, on ranks 4, 5, 6 from their side
    S(1, -8), S(18, -9), S(23, -28),
    // king zone double: squares next to the enemy king attacked by two kinds of piece or more
    S(57, -9),
    // space: squares on files c to f, ranks 2 to 4 from the side, free of own pawns and not attacked by enemy pawns
    S(0, -2),
];
