//! The chess evaluation's weights (see `eval.rs` for the features and the table's layout).
//!
//! Written by `scripts/tuning/chess_tune.sh` (`examples/chess_tune.rs`, Texel tuning).
//! - Data: 678019 quiet positions from Stockfish's self-play games, 75335 more from later
//!   games held out.
//! - Labels: 0 x result + 1 x sigmoid(2.3591 x Stockfish's score / 400).
//! - Fit: 80 epochs. Mean squared error of sigmoid(K * eval / 400), K = 1.5380,
//!   against the game results: training 0.087183 before, 0.086987 after; held out 0.126307
//!   before, 0.126254 after. Against the labels, held out: 0.009832 before, 0.009672 after.

use super::eval::{NUM_WEIGHTS, S};

#[rustfmt::skip]
pub static WEIGHTS: [S; NUM_WEIGHTS] = [
    // material: pawn, knight, bishop, rook, queen
    S(101, 181), S(402, 493), S(427, 541), S(583, 882), S(1402, 1519),
    // pst pawn: a1..h1, a2..h2, .., a8..h8 from White's side
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(-27, -16), S(-25, -16), S(-27, -8), S(-36, -22), S(-28, -11), S(2, -21), S(11, -31), S(-26, -36),
    S(-23, -21), S(-30, -24), S(-30, -28), S(-40, -25), S(-32, -24), S(-13, -27), S(-4, -32), S(-30, -37),
    S(-18, -19), S(-19, -9), S(-1, -40), S(1, -30), S(7, -33), S(13, -32), S(-1, -24), S(-23, -40),
    S(1, -17), S(2, -2), S(13, -9), S(17, -23), S(28, -17), S(9, -11), S(-8, -1), S(5, -21),
    S(13, 15), S(48, 1), S(26, 22), S(44, 13), S(66, 29), S(97, 4), S(5, 65), S(11, 15),
    S(3, 67), S(53, 46), S(163, 36), S(97, 40), S(-41, 110), S(-82, 97), S(-79, 72), S(-93, 74),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    // pst knight: a1..h8
    S(-21, -166), S(-28, -33), S(-74, 10), S(-17, -21), S(2, -17), S(-13, -12), S(-37, -15), S(4, 30),
    S(-27, -23), S(-2, -13), S(-15, 1), S(5, -16), S(1, -6), S(-24, 9), S(-1, -1), S(-29, -2),
    S(-19, -27), S(0, -9), S(2, 1), S(17, 35), S(25, 29), S(6, 10), S(7, -13), S(-20, 23),
    S(2, -24), S(3, 1), S(30, 33), S(23, 34), S(18, 30), S(34, 29), S(17, 25), S(1, -18),
    S(33, 10), S(14, 18), S(25, 34), S(34, 46), S(27, 44), S(38, 39), S(24, 29), S(44, -31),
    S(28, -25), S(36, -6), S(47, 43), S(49, 37), S(47, 67), S(48, 46), S(53, -21), S(34, -32),
    S(-32, 63), S(8, 14), S(21, 25), S(48, 10), S(28, -16), S(34, -41), S(-135, 47), S(20, -35),
    S(-104, -100), S(-32, 7), S(-70, 13), S(160, -36), S(-85, 38), S(-153, -5), S(15, -104), S(-177, -61),
    // pst bishop: a1..h8
    S(25, -23), S(31, -15), S(-27, -3), S(-12, -14), S(-27, -8), S(-32, -4), S(32, -51), S(20, -13),
    S(15, -17), S(0, -23), S(23, -20), S(-15, 6), S(-9, -4), S(24, -10), S(20, -42), S(32, -57),
    S(-9, -27), S(17, 4), S(-1, 34), S(7, 22), S(-2, 18), S(1, -1), S(11, -12), S(-1, -37),
    S(9, -21), S(19, -14), S(0, 31), S(2, 33), S(22, 20), S(1, 7), S(8, -14), S(15, -35),
    S(-12, 10), S(4, 9), S(10, 12), S(30, 39), S(-2, 41), S(30, 42), S(-3, 3), S(5, -43),
    S(-4, 19), S(11, -13), S(3, 4), S(47, 10), S(54, 5), S(75, 5), S(53, 7), S(9, -36),
    S(-28, 25), S(-6, 7), S(3, -5), S(15, 21), S(-11, 21), S(32, 1), S(-52, 10), S(-1, -8),
    S(-42, -6), S(3, 11), S(82, -22), S(-95, 38), S(-110, 32), S(-302, 62), S(36, 5), S(-32, -19),
    // pst rook: a1..h8
    S(-63, 17), S(-53, 9), S(-49, 18), S(-41, 5), S(-38, -10), S(-45, 5), S(-38, -10), S(-47, -11),
    S(-92, 37), S(-82, 22), S(-52, -2), S(-47, 5), S(-52, 9), S(-52, -12), S(-43, -18), S(-69, -20),
    S(-67, 16), S(-64, 31), S(-53, 7), S(-41, 0), S(-41, 2), S(-44, 10), S(3, -9), S(-53, -24),
    S(-64, 21), S(-38, 19), S(-46, 9), S(-54, 18), S(-37, 7), S(-17, 8), S(15, -18), S(-50, 10),
    S(-37, 23), S(-36, 29), S(-32, 33), S(-16, 1), S(-41, 29), S(24, -10), S(-28, 18), S(-12, 11),
    S(-42, 17), S(-6, 13), S(-11, 9), S(6, 2), S(5, 4), S(21, -13), S(73, -28), S(44, -14),
    S(138, -34), S(108, -21), S(128, -23), S(155, -55), S(164, -42), S(242, -74), S(134, -39), S(210, -77),
    S(29, 3), S(12, 30), S(45, 16), S(27, 24), S(61, 14), S(-7, 33), S(69, -22), S(90, -9),
    // pst queen: a1..h8
    S(-24, -30), S(-10, -75), S(-25, -10), S(-16, -22), S(-19, -26), S(-39, -72), S(-50, -77), S(34, -67),
    S(-31, -8), S(-21, 9), S(-10, -35), S(-1, -33), S(-5, -22), S(-19, -8), S(54, -204), S(-5, -48),
    S(-2, -17), S(-16, -12), S(-15, 41), S(-24, 25), S(-22, 45), S(-16, 10), S(-20, 2), S(17, -81),
    S(-24, -21), S(-14, 13), S(-12, 23), S(-31, 74), S(-27, 57), S(-18, 4), S(-14, 30), S(-12, 20),
    S(-28, 7), S(-32, 44), S(-24, 52), S(-23, 84), S(-26, 87), S(-2, 62), S(2, 20), S(-6, 27),
    S(-54, 18), S(-36, 37), S(-8, -11), S(-9, 71), S(16, 12), S(73, -7), S(41, -11), S(8, 45),
    S(2, -13), S(-27, 8), S(-35, 85), S(-64, 58), S(-58, 126), S(-5, 78), S(-51, 152), S(67, -50),
    S(-25, -4), S(-21, 21), S(-49, 64), S(114, -57), S(-39, 43), S(227, -144), S(296, -245), S(207, -142),
    // pst king: a1..h8
    S(48, -105), S(61, -61), S(32, -51), S(-66, -26), S(-5, -55), S(-42, -13), S(31, -48), S(10, -76),
    S(15, -37), S(2, -3), S(8, -24), S(-50, -4), S(-10, -15), S(-26, -9), S(20, -23), S(26, -47),
    S(19, -26), S(62, -16), S(15, -5), S(32, -13), S(-8, 0), S(-40, 2), S(-9, 0), S(-13, -34),
    S(-58, 39), S(82, -1), S(34, 3), S(-61, 31), S(-52, 32), S(-18, 16), S(16, -5), S(-62, -13),
    S(100, -29), S(128, 25), S(-14, 40), S(-87, 54), S(-165, 67), S(29, 17), S(69, 10), S(1, -14),
    S(38, -20), S(50, 43), S(-50, 78), S(10, 60), S(-81, 76), S(27, 18), S(39, 47), S(47, -41),
    S(59, -50), S(63, 39), S(49, 96), S(-39, 44), S(136, 30), S(-7, 9), S(16, 42), S(-23, 2),
    S(210, -190), S(-179, 99), S(-94, 89), S(68, -6), S(-7, 40), S(-95, 78), S(30, 44), S(-322, -209),
    // mobility knight: 0..8 squares
    S(-12, 8), S(1, 50), S(7, 88), S(14, 94), S(19, 108), S(22, 114), S(25, 111), S(25, 105),
    S(17, 93),
    // mobility bishop: 0..13 squares
    S(-8, 36), S(-1, 61), S(16, 65), S(21, 84), S(27, 89), S(27, 99), S(30, 101), S(28, 105),
    S(28, 110), S(38, 101), S(48, 91), S(27, 94), S(-35, 133), S(-90, 115),
    // mobility rook: 0..14 squares
    S(-12, 78), S(-7, 91), S(-2, 109), S(3, 124), S(1, 132), S(7, 135), S(6, 142), S(6, 140),
    S(10, 151), S(4, 157), S(7, 158), S(15, 154), S(5, 164), S(-9, 172), S(28, 142),
    // mobility queen: 0..27 squares
    S(12, 167), S(14, 173), S(17, 163), S(18, 160), S(19, 164), S(19, 206), S(22, 193), S(24, 198),
    S(26, 203), S(26, 215), S(20, 232), S(27, 230), S(26, 218), S(23, 244), S(27, 234), S(23, 234),
    S(33, 237), S(17, 231), S(42, 186), S(40, 199), S(116, 121), S(144, 85), S(187, 39), S(274, -64),
    S(334, -75), S(546, -317), S(258, -105), S(221, -114),
    // passed pawn: by rank from the pawn's side, 1..8
    S(0, 0), S(9, 3), S(-42, 23), S(-27, 29), S(14, 45), S(30, 100), S(85, 156), S(0, 0),
    // doubled pawn: each pawn beyond the first on a file
    S(-23, -21),
    // isolated pawn: no own pawn on a neighbouring file
    S(-3, -13),
    // supported pawn: defended by an own pawn
    S(14, 15),
    // phalanx pawn: an own pawn beside it
    S(4, 9),
    // king attack: squares next to the enemy king attacked by a knight, bishop, rook, queen
    S(9, -5), S(15, -3), S(5, 0), S(3, 10),
    // king attackers: pieces attacking squares next to the enemy king: 0..7 or more
    S(0, 0), S(-16, -5), S(-17, 0), S(19, 24), S(147, -9), S(-7, -43), S(70, 0), S(80, 0),
    // king shield: own pawns one, two ranks in front of the king (its file and the two beside)
    S(12, -14), S(2, -6),
    // king open file: king's file and the two beside without an own pawn
    S(-23, 1),
    // bishop pair: two bishops or more
    S(38, 88),
    // rook open file: no pawn on the rook's file
    S(41, 9),
    // rook half-open file: only enemy pawns on the rook's file
    S(20, 12),
    // tempo: the side to move
    S(24, 11),
    // threat by pawn: a knight, bishop, rook, queen attacked by a pawn: the side to move's, the other's
    S(85, 135), S(85, 146), S(69, 176), S(-75, 483), S(69, 44), S(63, 55), S(52, 26), S(76, -16),
    // threat by minor: a knight, bishop, rook, queen attacked by a knight or bishop: the side to move's, the other's
    S(21, 31), S(45, 19), S(77, 175), S(60, 375), S(23, 27), S(46, 26), S(59, 12), S(52, 66),
    // threat by rook: a queen attacked by a rook: the side to move's, the other's
    S(221, 78), S(69, 3),
    // hanging: a pawn, a piece attacked and not defended: the side to move's, the other's
    S(24, 43), S(44, 78), S(14, 32), S(16, 15),
    // passed free: a passed pawn whose square in front is empty, by rank 1..8
    S(0, 0), S(-22, 14), S(4, 10), S(2, 25), S(1, 44), S(11, 67), S(123, 79), S(0, 0),
    // passed king: own, enemy king's distance to the square in front of a passed pawn, times its rank less 2
    S(3, -11), S(-4, 18),
    // safe check: squares a knight, bishop, rook, queen could check the enemy king from, attacked by it, free of own pieces and not attacked by the enemy
    S(75, -5), S(12, 36), S(74, 1), S(22, 43),
    // king zone weak: squares next to the enemy king attacked and defended by no pawn, knight, bishop or rook
    S(8, 2),
    // outpost: a knight, bishop on ranks 4-6 from its side, defended by a pawn, no enemy pawn able to attack it
    S(29, 13), S(40, 11),
    // bishop pawns: own pawns on the squares of a bishop's colour, for each bishop
    S(-3, -9),
    // push threat: enemy pieces a pawn would attack after a safe push by one square
    S(20, 16),
    // backward pawn: no own pawn beside or behind on the files beside, the square in front attacked by an enemy pawn
    S(-11, -1),
    // minor behind pawn: a knight or bishop with a pawn on the square in front
    S(8, 25),
    // rook on seventh: a rook on the seventh rank from its side, the enemy king on the eighth or enemy pawns on the seventh
    S(-135, 61),
    // passed protected: a passed pawn defended by an own pawn
    S(22, 17),
    // unsafe check: squares a piece could check the enemy king from, attacked by it, free of own pieces but attacked by the enemy
    S(11, 9),
    // pawn storm: own pawns on the enemy king's file and the files beside, on ranks 4, 5, 6 from their side
    S(-1, -1), S(15, 1), S(28, -23),
    // king zone double: squares next to the enemy king attacked by two kinds of piece or more
    S(37, -8),
    // space: squares on files c to f, ranks 2 to 4 from the side, free of own pawns and not attacked by enemy pawns
    S(-2, -3),
    // threat by rook on weak: a weak enemy pawn, knight or bishop attacked by a rook (weak: attacked, not strongly protected)
    S(1, 19), S(27, 36),
    // threat by queen on weak: a weak enemy pawn or piece other than the queen attacked by a queen
    S(3, 11),
    // threat by king: a weak enemy pawn or piece attacked by the king
    S(29, 23),
    // knight on queen: safe squares a knight reaches from which it would attack the lone enemy queen
    S(8, -1),
    // slider on queen: safe squares attacked twice, a bishop or rook reaching them, from which it would attack the lone enemy queen
    S(12, 17),
    // restricted: squares both sides attack that the enemy does not strongly protect
    S(7, -2),
    // weak queen protection: weak enemy pieces and pawns the enemy queen defends
    S(3, 3),
    // king flank: squares of the enemy king's flank (four files) in its camp (its first five ranks) attacked, attacked by two kinds of piece
    S(4, -5), S(1, 3),
    // pawnless flank: no pawn of either side on the own king's flank
    S(101, -90),
    // king pawn distance: the own king's distance to the nearest own pawn
    S(2, -19),
    // rook behind passer: an own rook, an enemy rook behind an own passed pawn on its file
    S(14, 32), S(3, -66),
];
