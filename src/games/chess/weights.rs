//! The chess evaluation's weights (see `eval.rs` for the features and the table's layout).
//!
//! Written by `scripts/tuning/chess_tune.sh` (`examples/chess_tune.rs`, Texel tuning).
//! - Data: 678019 quiet positions from Stockfish's self-play games, 75335 more from later
//!   games held out.
//! - Labels: 0 x result + 1 x sigmoid(2.3591 x Stockfish's score / 400).
//! - Fit: 270 epochs. Mean squared error of sigmoid(K * eval / 400), K = 1.5380,
//!   against the game results: training 0.087200 before, 0.087199 after; held out 0.126277
//!   before, 0.126306 after. Against the labels, held out: 0.010289 before, 0.009834 after.

use super::eval::{NUM_WEIGHTS, S};

#[rustfmt::skip]
pub static WEIGHTS: [S; NUM_WEIGHTS] = [
    // material: pawn, knight, bishop, rook, queen
    S(102, 178), S(405, 479), S(431, 526), S(597, 867), S(1461, 1459),
    // pst pawn: a1..h1, a2..h2, .., a8..h8 from White's side
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(-29, -15), S(-26, -15), S(-29, -6), S(-35, -21), S(-28, -10), S(2, -19), S(9, -30), S(-29, -35),
    S(-24, -21), S(-30, -24), S(-27, -28), S(-37, -25), S(-30, -23), S(-10, -27), S(-4, -31), S(-30, -36),
    S(-18, -19), S(-18, -10), S(2, -42), S(2, -30), S(11, -34), S(15, -32), S(0, -24), S(-22, -40),
    S(-1, -17), S(3, -3), S(14, -10), S(19, -23), S(29, -18), S(10, -13), S(-5, -1), S(3, -20),
    S(13, 13), S(48, 0), S(29, 19), S(50, 9), S(67, 32), S(98, 4), S(5, 66), S(13, 13),
    S(-5, 69), S(54, 44), S(169, 34), S(102, 38), S(-43, 110), S(-86, 92), S(-91, 77), S(-111, 84),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    // pst knight: a1..h8
    S(-11, -191), S(-22, -32), S(-69, 7), S(-13, -20), S(8, -17), S(-6, -15), S(-31, -11), S(7, 34),
    S(-24, -25), S(4, -12), S(-13, 1), S(9, -16), S(6, -7), S(-18, 6), S(1, 4), S(-24, -4),
    S(-14, -23), S(2, -8), S(5, 2), S(20, 34), S(30, 28), S(10, 13), S(9, -13), S(-15, 22),
    S(3, -19), S(10, -3), S(29, 34), S(22, 33), S(20, 29), S(33, 29), S(19, 26), S(2, -16),
    S(35, 12), S(16, 18), S(23, 33), S(29, 46), S(23, 45), S(38, 39), S(23, 32), S(42, -29),
    S(31, -23), S(34, -3), S(39, 46), S(42, 38), S(40, 68), S(37, 45), S(44, -15), S(27, -29),
    S(-40, 67), S(6, 14), S(16, 28), S(39, 12), S(22, -20), S(6, -40), S(-142, 48), S(8, -37),
    S(-113, -86), S(-26, 6), S(-70, 10), S(168, -41), S(-89, 42), S(-150, -12), S(27, -124), S(-173, -56),
    // pst bishop: a1..h8
    S(30, -25), S(36, -15), S(-22, -4), S(-6, -16), S(-22, -9), S(-29, -3), S(37, -49), S(25, -18),
    S(19, -18), S(6, -25), S(25, -22), S(-11, 2), S(-5, -8), S(29, -12), S(22, -42), S(33, -56),
    S(-7, -26), S(20, 4), S(2, 33), S(4, 23), S(0, 18), S(4, -1), S(15, -11), S(-1, -34),
    S(9, -22), S(21, -14), S(-1, 29), S(1, 33), S(20, 20), S(1, 9), S(7, -12), S(20, -35),
    S(-14, 12), S(2, 9), S(9, 10), S(25, 41), S(-4, 42), S(27, 42), S(-2, 4), S(5, -43),
    S(-7, 22), S(10, -13), S(-1, 5), S(45, 9), S(56, 3), S(75, 4), S(57, 6), S(13, -35),
    S(-31, 31), S(-15, 6), S(-6, -5), S(10, 21), S(-18, 21), S(26, 1), S(-57, 9), S(-12, -4),
    S(-47, 2), S(7, 7), S(82, -22), S(-93, 36), S(-112, 34), S(-311, 65), S(40, 3), S(-41, -17),
    // pst rook: a1..h8
    S(-68, 14), S(-58, 6), S(-53, 16), S(-45, 4), S(-43, -11), S(-51, 4), S(-41, -13), S(-53, -13),
    S(-97, 36), S(-87, 21), S(-57, -4), S(-50, 2), S(-54, 6), S(-56, -13), S(-46, -19), S(-75, -20),
    S(-71, 15), S(-70, 31), S(-52, 1), S(-43, -4), S(-41, 0), S(-44, 9), S(1, -12), S(-55, -28),
    S(-66, 22), S(-43, 21), S(-47, 9), S(-55, 17), S(-36, 6), S(-14, 7), S(14, -16), S(-48, 9),
    S(-38, 25), S(-37, 33), S(-33, 37), S(-16, 3), S(-38, 32), S(24, -5), S(-27, 22), S(-16, 13),
    S(-41, 20), S(-4, 15), S(-13, 13), S(7, 5), S(9, 6), S(19, -11), S(74, -28), S(49, -13),
    S(142, -32), S(110, -18), S(140, -23), S(164, -54), S(173, -41), S(254, -77), S(129, -37), S(211, -79),
    S(39, 1), S(14, 32), S(54, 14), S(30, 27), S(65, 16), S(-11, 35), S(74, -21), S(99, -11),
    // pst queen: a1..h8
    S(-20, -29), S(-5, -82), S(-19, -18), S(-8, -35), S(-12, -34), S(-32, -76), S(-44, -75), S(36, -69),
    S(-28, -9), S(-14, 1), S(-7, -38), S(3, -43), S(-1, -27), S(-16, -12), S(59, -212), S(-1, -52),
    S(1, -25), S(-14, -18), S(-15, 38), S(-28, 27), S(-21, 45), S(-15, 12), S(-19, 1), S(21, -81),
    S(-25, -19), S(-16, 11), S(-20, 29), S(-36, 73), S(-31, 59), S(-22, 9), S(-14, 28), S(-5, 13),
    S(-33, 10), S(-40, 49), S(-32, 55), S(-35, 93), S(-36, 94), S(-5, 66), S(-6, 26), S(-1, 24),
    S(-59, 23), S(-42, 41), S(-23, -4), S(-23, 77), S(8, 18), S(71, -2), S(44, -10), S(11, 46),
    S(4, -9), S(-36, 19), S(-40, 88), S(-67, 64), S(-59, 129), S(-2, 81), S(-51, 149), S(67, -44),
    S(-21, -1), S(-16, 19), S(-49, 62), S(114, -57), S(-26, 40), S(232, -142), S(302, -248), S(215, -144),
    // pst king: a1..h8
    S(46, -110), S(63, -66), S(34, -57), S(-63, -32), S(-3, -62), S(-40, -18), S(32, -53), S(10, -81),
    S(17, -42), S(1, -8), S(10, -28), S(-48, -9), S(-10, -19), S(-25, -13), S(21, -27), S(25, -51),
    S(22, -29), S(63, -17), S(14, -5), S(37, -16), S(-10, -1), S(-40, 1), S(-9, 0), S(-16, -35),
    S(-58, 38), S(89, -1), S(43, 2), S(-59, 32), S(-44, 31), S(-23, 18), S(15, -5), S(-63, -13),
    S(102, -27), S(129, 28), S(-7, 40), S(-88, 58), S(-171, 71), S(30, 20), S(72, 14), S(9, -15),
    S(32, -17), S(49, 46), S(-55, 82), S(16, 59), S(-95, 83), S(26, 21), S(33, 51), S(55, -41),
    S(68, -54), S(70, 38), S(42, 100), S(-67, 59), S(145, 27), S(-6, 7), S(25, 41), S(-14, -5),
    S(222, -180), S(-194, 102), S(-108, 93), S(63, -6), S(-11, 42), S(-102, 79), S(36, 39), S(-338, -180),
    // mobility knight: 0..8 squares
    S(-15, 7), S(0, 46), S(6, 83), S(13, 89), S(20, 103), S(25, 108), S(30, 104), S(32, 98),
    S(27, 82),
    // mobility bishop: 0..13 squares
    S(-7, 30), S(0, 54), S(16, 58), S(20, 79), S(27, 85), S(27, 94), S(30, 98), S(30, 101),
    S(31, 106), S(42, 97), S(53, 86), S(34, 89), S(-21, 122), S(-71, 107),
    // mobility rook: 0..14 squares
    S(-14, 74), S(-7, 86), S(-3, 107), S(2, 122), S(1, 129), S(8, 133), S(7, 141), S(9, 138),
    S(14, 149), S(9, 154), S(12, 156), S(22, 151), S(13, 161), S(-3, 167), S(37, 134),
    // mobility queen: 0..27 squares
    S(17, 162), S(18, 160), S(20, 143), S(20, 140), S(21, 144), S(20, 191), S(23, 178), S(25, 187),
    S(27, 193), S(26, 207), S(21, 224), S(27, 223), S(26, 212), S(23, 238), S(27, 229), S(23, 227),
    S(33, 229), S(17, 226), S(42, 181), S(40, 195), S(116, 116), S(146, 80), S(199, 28), S(292, -79),
    S(344, -86), S(580, -336), S(256, -110), S(222, -119),
    // passed pawn: by rank from the pawn's side, 1..8
    S(0, 0), S(11, 2), S(-43, 22), S(-28, 28), S(12, 43), S(25, 100), S(78, 155), S(0, 0),
    // doubled pawn: each pawn beyond the first on a file
    S(-23, -19),
    // isolated pawn: no own pawn on a neighbouring file
    S(-4, -13),
    // supported pawn: defended by an own pawn
    S(15, 15),
    // phalanx pawn: an own pawn beside it
    S(5, 9),
    // king attack: squares next to the enemy king attacked by a knight, bishop, rook, queen
    S(7, -8), S(10, -6), S(-1, -1), S(-3, 8),
    // king attackers: pieces attacking squares next to the enemy king: 0..7 or more
    S(0, 0), S(-17, 1), S(-17, 12), S(19, 38), S(158, -11), S(-7, -43), S(70, 0), S(80, 0),
    // king shield: own pawns one, two ranks in front of the king (its file and the two beside)
    S(12, -15), S(2, -6),
    // king open file: king's file and the two beside without an own pawn
    S(-23, 0),
    // bishop pair: two bishops or more
    S(35, 89),
    // rook open file: no pawn on the rook's file
    S(40, 9),
    // rook half-open file: only enemy pawns on the rook's file
    S(18, 20),
    // tempo: the side to move
    S(23, 10),
    // threat by pawn: a knight, bishop, rook, queen attacked by a pawn: the side to move's, the other's
    S(83, 135), S(81, 145), S(66, 171), S(-77, 481), S(69, 35), S(62, 46), S(53, 14), S(70, -25),
    // threat by minor: a knight, bishop, rook, queen attacked by a knight or bishop: the side to move's, the other's
    S(21, 29), S(44, 15), S(80, 170), S(56, 369), S(23, 26), S(46, 22), S(62, 1), S(51, 56),
    // threat by rook: a queen attacked by a rook: the side to move's, the other's
    S(227, 81), S(83, -22),
    // hanging: a pawn, a piece attacked and not defended: the side to move's, the other's
    S(24, 50), S(36, 108), S(14, 40), S(15, 35),
    // passed free: a passed pawn whose square in front is empty, by rank 1..8
    S(0, 0), S(-24, 17), S(4, 12), S(0, 28), S(0, 48), S(11, 69), S(131, 74), S(0, 0),
    // passed king: own, enemy king's distance to the square in front of a passed pawn, times its rank less 2
    S(2, -12), S(-3, 18),
    // safe check: squares a knight, bishop, rook, queen could check the enemy king from, attacked by it, free of own pieces and not attacked by the enemy
    S(80, -10), S(7, 36), S(73, 2), S(22, 44),
    // king zone weak: squares next to the enemy king attacked and defended by no pawn, knight, bishop or rook
    S(14, 0),
    // outpost: a knight, bishop on ranks 4-6 from its side, defended by a pawn, no enemy pawn able to attack it
    S(29, 19), S(43, 13),
    // bishop pawns: own pawns on the squares of a bishop's colour, for each bishop
    S(-3, -8),
    // push threat: enemy pieces a pawn would attack after a safe push by one square
    S(20, 15),
    // backward pawn: no own pawn beside or behind on the files beside, the square in front attacked by an enemy pawn
    S(-12, -1),
    // minor behind pawn: a knight or bishop with a pawn on the square in front
    S(8, 27),
    // rook on seventh: a rook on the seventh rank from its side, the enemy king on the eighth or enemy pawns on the seventh
    S(-140, 69),
    // passed protected: a passed pawn defended by an own pawn
    S(25, 18),
    // unsafe check: squares a piece could check the enemy king from, attacked by it, free of own pieces but attacked by the enemy
    S(10, 11),
    // pawn storm: own pawns on the enemy king's file and the files beside, on ranks 4, 5, 6 from their side
    S(-1, -2), S(15, -2), S(28, -30),
    // king zone double: squares next to the enemy king attacked by two kinds of piece or more
    S(48, -10),
    // space: squares on files c to f, ranks 2 to 4 from the side, free of own pawns and not attacked by enemy pawns
    S(0, -3),
    // king flank: squares of the enemy king's flank (four files) in its camp (its first five ranks) attacked, attacked by two kinds of piece
    S(1, -5), S(4, 3),
    // pawnless flank: no pawn of either side on the own king's flank
    S(63, -78),
    // king pawn distance: the own king's distance to the nearest own pawn
    S(-1, -16),
    // rook behind passer: an own rook, an enemy rook behind an own passed pawn on its file
    S(17, 27), S(-2, -68),
];
