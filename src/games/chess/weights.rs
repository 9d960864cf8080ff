//! The chess evaluation's weights (see `eval.rs` for the features and the table's layout).
//!
//! Written by `scripts/tuning/chess_tune.sh` (`examples/chess_tune.rs`, Texel tuning).
//! - Data: 678019 quiet positions from Stockfish's self-play games, 75335 more from later
//!   games held out.
//! - Labels: 0 x result + 1 x sigmoid(2.3591 x Stockfish's score / 400).
//! - Fit: 1090 epochs. Mean squared error of sigmoid(K * eval / 400), K = 1.6214,
//!   against the game results: training 0.088902 before, 0.088820 after; held out 0.126259
//!   before, 0.126698 after. Against the labels, held out: 0.011135 before, 0.010773 after.

use super::eval::{NUM_WEIGHTS, S};

#[rustfmt::skip]
pub static WEIGHTS: [S; NUM_WEIGHTS] = [
    // material: pawn, knight, bishop, rook, queen
    S(111, 142), S(447, 363), S(489, 386), S(658, 677), S(1476, 1134),
    // pst pawn: a1..h1, a2..h2, .., a8..h8 from White's side
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(-33, -9), S(-33, -4), S(-34, 3), S(-42, -8), S(-32, -1), S(-4, -8), S(2, -16), S(-35, -23),
    S(-28, -14), S(-35, -15), S(-33, -17), S(-40, -13), S(-34, -14), S(-14, -19), S(-9, -22), S(-36, -26),
    S(-22, -16), S(-25, -6), S(-3, -36), S(-3, -27), S(5, -32), S(10, -28), S(-8, -23), S(-28, -33),
    S(-3, -19), S(-2, -4), S(8, -10), S(19, -24), S(30, -23), S(16, -14), S(-2, -6), S(7, -20),
    S(14, 2), S(39, -5), S(30, 4), S(56, -5), S(83, -3), S(120, -28), S(24, 27), S(24, -4),
    S(2, 66), S(69, 39), S(145, 50), S(110, 40), S(-19, 98), S(-67, 81), S(-96, 88), S(-94, 78),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    // pst knight: a1..h8
    S(-43, -108), S(-28, -24), S(-72, 8), S(-17, -13), S(3, -7), S(-10, -13), S(-36, -4), S(-5, 37),
    S(-28, -24), S(2, -7), S(-16, 10), S(4, -7), S(3, -2), S(-17, 5), S(1, 2), S(-27, -1),
    S(-19, -18), S(0, -11), S(0, 14), S(18, 37), S(25, 31), S(7, 21), S(7, -2), S(-13, -1),
    S(-3, -17), S(14, -8), S(24, 36), S(18, 36), S(16, 30), S(31, 25), S(22, 13), S(2, -29),
    S(34, 9), S(11, 17), S(20, 33), S(28, 36), S(17, 40), S(38, 36), S(21, 24), S(36, -26),
    S(19, -17), S(31, -5), S(40, 43), S(36, 43), S(53, 48), S(42, 27), S(48, -22), S(34, -42),
    S(-42, 59), S(6, 17), S(15, 26), S(50, -1), S(43, -46), S(11, -41), S(-122, 45), S(5, -46),
    S(-157, -27), S(-26, 0), S(-48, -8), S(188, -52), S(-77, 46), S(-108, -45), S(63, -130), S(-178, -46),
    // pst bishop: a1..h8
    S(28, -20), S(32, -11), S(-24, 4), S(-10, -15), S(-20, -12), S(-33, 3), S(33, -35), S(24, -27),
    S(20, -29), S(2, -18), S(20, -14), S(-14, 6), S(-9, -4), S(25, -5), S(18, -34), S(31, -43),
    S(-12, -18), S(18, 4), S(-1, 30), S(1, 22), S(-1, 18), S(3, -1), S(16, -10), S(2, -34),
    S(8, -22), S(14, -9), S(-5, 26), S(0, 31), S(16, 17), S(-2, 7), S(7, -10), S(17, -25),
    S(-17, 15), S(-2, 6), S(2, 12), S(29, 33), S(-4, 34), S(34, 26), S(-2, 4), S(5, -32),
    S(-4, 15), S(6, -8), S(8, -5), S(41, 15), S(61, -8), S(68, 7), S(62, 0), S(14, -39),
    S(-29, 27), S(-6, -3), S(-10, 4), S(46, -6), S(-24, 29), S(15, 3), S(-61, 18), S(-18, 9),
    S(-52, 4), S(1, 12), S(78, -23), S(-81, 33), S(-80, 16), S(-285, 53), S(38, -7), S(-37, -16),
    // pst rook: a1..h8
    S(-67, 22), S(-56, 10), S(-51, 19), S(-45, 12), S(-41, -4), S(-50, 8), S(-41, -5), S(-55, 2),
    S(-92, 37), S(-82, 22), S(-55, 2), S(-48, 8), S(-48, 5), S(-55, -6), S(-56, -1), S(-79, -6),
    S(-72, 23), S(-67, 31), S(-49, 5), S(-44, 4), S(-36, 0), S(-40, 6), S(-1, -7), S(-58, -18),
    S(-58, 19), S(-37, 15), S(-37, 7), S(-46, 18), S(-25, -2), S(-12, 2), S(18, -17), S(-46, 9),
    S(-35, 22), S(-28, 25), S(-22, 26), S(-8, 2), S(-22, 18), S(28, -9), S(-21, 13), S(-7, 0),
    S(-34, 15), S(4, 4), S(5, -3), S(12, 5), S(19, -8), S(28, -16), S(78, -32), S(63, -23),
    S(128, -27), S(91, -13), S(128, -22), S(152, -50), S(163, -44), S(239, -69), S(120, -39), S(187, -64),
    S(26, 4), S(15, 19), S(42, 8), S(14, 25), S(53, 10), S(-38, 35), S(47, -13), S(105, -19),
    // pst queen: a1..h8
    S(-24, -24), S(-8, -69), S(-20, -14), S(-13, -23), S(-13, -29), S(-39, -52), S(-49, -44), S(37, -64),
    S(-29, -11), S(-17, 4), S(-10, -31), S(-1, -33), S(-2, -23), S(-18, -1), S(48, -167), S(-2, -43),
    S(-6, -19), S(-17, -11), S(-17, 37), S(-30, 31), S(-18, 39), S(-10, 6), S(-14, 1), S(20, -69),
    S(-27, -11), S(-18, 17), S(-18, 28), S(-34, 70), S(-26, 50), S(-13, 0), S(-4, 14), S(1, 6),
    S(-35, 15), S(-41, 48), S(-35, 57), S(-33, 83), S(-30, 79), S(4, 48), S(3, 13), S(2, 24),
    S(-59, 30), S(-43, 43), S(-24, -2), S(-27, 75), S(14, 9), S(65, 3), S(45, -8), S(5, 40),
    S(0, -4), S(-40, 24), S(-34, 79), S(-50, 41), S(-53, 110), S(8, 57), S(-48, 124), S(54, -35),
    S(-30, -1), S(4, -14), S(-70, 67), S(87, -37), S(10, -14), S(212, -131), S(301, -224), S(229, -162),
    // pst king: a1..h8
    S(18, -58), S(50, -34), S(27, -35), S(-69, -18), S(-15, -33), S(-44, -2), S(22, -29), S(0, -55),
    S(29, -44), S(10, -5), S(7, -15), S(-46, 4), S(-10, -6), S(-31, 3), S(16, -13), S(18, -32),
    S(20, -17), S(65, -9), S(23, 0), S(47, -13), S(1, 2), S(-30, 4), S(7, 3), S(-15, -20),
    S(-51, 22), S(123, -7), S(32, 3), S(-22, 14), S(-4, 14), S(-11, 13), S(24, -3), S(-58, -6),
    S(94, -14), S(132, 12), S(31, 15), S(-74, 24), S(-157, 34), S(3, 13), S(108, 1), S(55, -32),
    S(-16, -4), S(43, 31), S(-86, 55), S(-5, 33), S(-133, 48), S(36, 13), S(17, 28), S(92, -34),
    S(112, -37), S(86, 9), S(11, 65), S(-150, 58), S(163, 1), S(-2, 2), S(30, 17), S(49, -21),
    S(235, -113), S(-265, 63), S(-156, 49), S(37, 9), S(-39, 32), S(-137, 38), S(52, 8), S(-301, -32),
    // mobility knight: 0..8 squares
    S(-9, -35), S(5, -1), S(12, 29), S(20, 32), S(26, 41), S(31, 46), S(36, 39), S(41, 28),
    S(51, 4),
    // mobility bishop: 0..13 squares
    S(-4, -21), S(3, -1), S(20, 4), S(25, 24), S(32, 27), S(32, 35), S(36, 38), S(38, 34),
    S(38, 42), S(54, 25), S(62, 18), S(73, 5), S(37, 23), S(17, 7),
    // mobility rook: 0..14 squares
    S(-2, -4), S(5, 6), S(9, 26), S(14, 41), S(13, 46), S(20, 48), S(20, 56), S(22, 51),
    S(28, 59), S(24, 62), S(26, 66), S(35, 60), S(33, 64), S(18, 70), S(95, 24),
    // mobility queen: 0..27 squares
    S(22, 125), S(24, 113), S(27, 64), S(27, 54), S(28, 55), S(28, 99), S(30, 84), S(33, 91),
    S(35, 93), S(34, 108), S(30, 119), S(36, 116), S(36, 106), S(34, 128), S(37, 119), S(34, 119),
    S(47, 116), S(33, 110), S(54, 72), S(46, 88), S(130, 10), S(127, 4), S(189, -55), S(325, -152),
    S(326, -151), S(561, -276), S(182, -135), S(143, -124),
    // passed pawn: by rank from the pawn's side, 1..8
    S(0, 0), S(14, 2), S(-41, 28), S(-19, 32), S(19, 53), S(38, 113), S(109, 138), S(0, 0),
    // doubled pawn: each pawn beyond the first on a file
    S(-22, -19),
    // isolated pawn: no own pawn on a neighbouring file
    S(-6, -7),
    // supported pawn: defended by an own pawn
    S(14, 11),
    // phalanx pawn: an own pawn beside it
    S(5, 7),
    // king attack: squares next to the enemy king attacked by a knight, bishop, rook, queen
    S(16, -10), S(16, -6), S(8, -2), S(8, 2),
    // king attackers: pieces attacking squares next to the enemy king: 0..7 or more
    S(0, 0), S(-24, 1), S(-9, 3), S(38, 30), S(192, -7), S(60, -48), S(70, 0), S(80, 0),
    // king shield: own pawns one, two ranks in front of the king (its file and the two beside)
    S(10, -9), S(1, -8),
    // king open file: king's file and the two beside without an own pawn
    S(-23, -5),
    // bishop pair: two bishops or more
    S(26, 88),
    // rook open file: no pawn on the rook's file
    S(40, 0),
    // rook half-open file: only enemy pawns on the rook's file
    S(15, 24),
    // tempo: the side to move
    S(24, 5),
    // threat by pawn: a knight, bishop, rook, queen attacked by a pawn: the side to move's, the other's
    S(83, 114), S(79, 131), S(59, 165), S(-65, 411), S(70, 19), S(63, 32), S(53, 4), S(70, -37),
    // threat by minor: a knight, bishop, rook, queen attacked by a knight or bishop: the side to move's, the other's
    S(21, 15), S(44, 2), S(79, 153), S(54, 347), S(24, 18), S(46, 7), S(59, 0), S(50, 40),
    // threat by rook: a queen attacked by a rook: the side to move's, the other's
    S(210, 95), S(82, -30),
    // hanging: a pawn, a piece attacked and not defended: the side to move's, the other's
    S(28, 35), S(35, 91), S(16, 30), S(12, 37),
    // passed free: a passed pawn whose square in front is empty, by rank 1..8
    S(0, 0), S(-20, 14), S(8, 4), S(2, 19), S(11, 22), S(39, 22), S(162, 10), S(0, 0),
    // passed king: own, enemy king's distance to the square in front of a passed pawn, times its rank less 2
    S(0, -9), S(-1, 13),
    // safe check: squares a knight, bishop, rook, queen could check the enemy king from, attacked by it, free of own pieces and not attacked by the enemy
    S(96, -19), S(12, 15), S(94, -11), S(25, 28),
    // king zone weak: squares next to the enemy king attacked and defended by no pawn, knight, bishop or rook
    S(13, -3),
    // outpost: a knight, bishop on ranks 4-6 from its side, defended by a pawn, no enemy pawn able to attack it
    S(27, 22), S(42, 7),
    // bishop pawns: own pawns on the squares of a bishop's colour, for each bishop
    S(-5, -3),
    // push threat: enemy pieces a pawn would attack after a safe push by one square
    S(20, 13),
    // backward pawn: no own pawn beside or behind on the files beside, the square in front attacked by an enemy pawn
    S(-12, 1),
    // minor behind pawn: a knight or bishop with a pawn on the square in front
    S(7, 29),
    // rook on seventh: a rook on the seventh rank from its side, the enemy king on the eighth or enemy pawns on the seventh
    S(-122, 60),
    // passed protected: a passed pawn defended by an own pawn
    S(30, 4),
    // unsafe check: squares a piece could check the enemy king from, attacked by it, free of own pieces but attacked by the enemy
    S(10, 8),
];
