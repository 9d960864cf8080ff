//! The chess evaluation's weights (see `eval.rs` for the features and the table's layout).
//!
//! Written by `scripts/tuning/chess_tune.sh` (`examples/chess_tune.rs`, Texel tuning).
//! - Data: 678019 quiet positions from Stockfish's self-play games, 75335 more from later
//!   games held out.
//! - Labels: 0 x result + 1 x sigmoid(2.3591 x Stockfish's score / 400).
//! - Fit: 90 epochs. Mean squared error of sigmoid(K * eval / 400), K = 1.5380,
//!   against the game results: training 0.086987 before, 0.086839 after; held out 0.126255
//!   before, 0.126310 after. Against the labels, held out: 0.009672 before, 0.009554 after.

use super::eval::{NUM_WEIGHTS, S};

#[rustfmt::skip]
pub static WEIGHTS: [S; NUM_WEIGHTS] = [
    // material: pawn, knight, bishop, rook, queen
    S(101, 180), S(402, 496), S(426, 544), S(581, 887), S(1345, 1572),
    // pst pawn: a1..h1, a2..h2, .., a8..h8 from White's side
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(-21, -11), S(-20, -9), S(-24, -11), S(-20, -34), S(-10, -20), S(-16, -17), S(13, -18), S(-23, -23),
    S(-29, -13), S(-38, -15), S(-36, -27), S(-38, -25), S(-29, -23), S(-15, -33), S(-13, -15), S(-39, -21),
    S(-19, -17), S(-17, -6), S(-4, -39), S(3, -32), S(10, -36), S(10, -31), S(4, -15), S(-24, -39),
    S(-1, -18), S(0, -3), S(10, -10), S(18, -30), S(33, -27), S(-2, -7), S(-10, 5), S(10, -26),
    S(11, 12), S(40, 0), S(26, 19), S(59, 5), S(74, 19), S(99, 9), S(-5, 62), S(-12, 19),
    S(7, 68), S(55, 46), S(159, 35), S(100, 36), S(-25, 104), S(-91, 87), S(-80, 67), S(-82, 63),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    // pst knight: a1..h8
    S(-31, -155), S(-28, -30), S(-71, 12), S(-24, -14), S(3, -18), S(-14, -12), S(-36, -13), S(-5, 39),
    S(-28, -15), S(-4, -12), S(-16, 2), S(3, -14), S(-1, -5), S(-19, 6), S(0, -4), S(-27, -9),
    S(-20, -26), S(0, -7), S(2, 1), S(20, 32), S(26, 26), S(5, 9), S(4, -11), S(-20, 24),
    S(2, -23), S(3, 0), S(31, 32), S(22, 34), S(18, 29), S(33, 28), S(14, 28), S(2, -18),
    S(34, 9), S(14, 17), S(25, 34), S(34, 43), S(28, 41), S(41, 37), S(22, 28), S(44, -31),
    S(27, -23), S(37, -7), S(49, 40), S(49, 35), S(44, 69), S(54, 40), S(62, -29), S(33, -34),
    S(-31, 60), S(10, 15), S(22, 24), S(48, 7), S(31, -21), S(50, -43), S(-133, 48), S(21, -37),
    S(-100, -107), S(-37, 7), S(-68, 17), S(153, -32), S(-77, 33), S(-151, -5), S(-1, -90), S(-179, -62),
    // pst bishop: a1..h8
    S(22, -20), S(29, -13), S(-28, -2), S(-14, -15), S(-29, -7), S(-32, -3), S(22, -49), S(15, -12),
    S(13, -15), S(-1, -22), S(21, -20), S(-16, 7), S(-11, -3), S(24, -12), S(21, -42), S(34, -56),
    S(-10, -28), S(16, 6), S(-2, 33), S(6, 22), S(-2, 17), S(1, -2), S(10, -12), S(2, -40),
    S(11, -23), S(21, -14), S(2, 30), S(1, 34), S(21, 21), S(2, 8), S(6, -15), S(15, -32),
    S(-12, 11), S(4, 10), S(13, 10), S(31, 40), S(0, 41), S(34, 41), S(-5, 3), S(1, -41),
    S(-6, 21), S(13, -14), S(2, 6), S(47, 8), S(59, 4), S(68, 11), S(51, 9), S(6, -35),
    S(-24, 24), S(-6, 9), S(5, -7), S(17, 17), S(-13, 22), S(32, 1), S(-51, 8), S(9, -12),
    S(-34, -10), S(-4, 11), S(81, -20), S(-94, 38), S(-111, 33), S(-292, 58), S(32, 5), S(-28, -24),
    // pst rook: a1..h8
    S(-62, 17), S(-54, 10), S(-49, 18), S(-40, 6), S(-38, -11), S(-46, 8), S(-38, -11), S(-42, -17),
    S(-90, 37), S(-81, 22), S(-51, -1), S(-44, 4), S(-50, 9), S(-47, -13), S(-35, -21), S(-67, -19),
    S(-68, 17), S(-65, 33), S(-53, 7), S(-41, 0), S(-38, 0), S(-42, 9), S(2, -9), S(-54, -25),
    S(-65, 21), S(-37, 20), S(-47, 10), S(-53, 17), S(-36, 7), S(-17, 9), S(21, -20), S(-43, 6),
    S(-39, 24), S(-35, 29), S(-30, 31), S(-15, 1), S(-41, 30), S(29, -11), S(-22, 16), S(-12, 10),
    S(-39, 17), S(-8, 15), S(-9, 11), S(6, 4), S(5, 4), S(30, -14), S(78, -30), S(44, -14),
    S(127, -32), S(100, -20), S(123, -23), S(145, -52), S(153, -40), S(232, -73), S(131, -37), S(205, -79),
    S(27, 3), S(13, 29), S(43, 16), S(25, 25), S(59, 13), S(-3, 32), S(68, -20), S(83, -6),
    // pst queen: a1..h8
    S(-29, -23), S(-14, -69), S(-26, -8), S(-16, -18), S(-18, -30), S(-33, -72), S(-56, -75), S(36, -67),
    S(-30, -9), S(-23, 12), S(-10, -36), S(-2, -32), S(-5, -20), S(-20, -8), S(54, -198), S(-8, -46),
    S(-2, -18), S(-16, -9), S(-16, 43), S(-23, 25), S(-23, 49), S(-16, 13), S(-19, -1), S(16, -78),
    S(-24, -20), S(-15, 16), S(-10, 23), S(-35, 80), S(-26, 56), S(-18, 6), S(-13, 31), S(-13, 20),
    S(-29, 6), S(-32, 44), S(-23, 49), S(-24, 84), S(-28, 89), S(0, 62), S(-3, 23), S(-7, 30),
    S(-48, 10), S(-35, 35), S(-5, -13), S(-6, 67), S(20, 1), S(77, -9), S(41, -6), S(7, 49),
    S(0, -13), S(-24, 3), S(-33, 81), S(-62, 53), S(-59, 126), S(3, 74), S(-50, 150), S(77, -64),
    S(-25, -8), S(-23, 22), S(-50, 66), S(114, -60), S(-41, 43), S(225, -142), S(288, -243), S(207, -143),
    // pst king: a1..h8
    S(58, -103), S(50, -37), S(20, -37), S(-70, -17), S(-9, -54), S(-52, -2), S(22, -28), S(8, -62),
    S(19, -37), S(12, 3), S(8, -12), S(-59, 7), S(-24, -4), S(-32, 1), S(21, -10), S(31, -39),
    S(26, -35), S(73, -19), S(24, 3), S(14, 0), S(-28, 9), S(-35, 9), S(10, -5), S(16, -45),
    S(-49, 28), S(87, -6), S(29, 11), S(-78, 44), S(-77, 46), S(-17, 22), S(30, -11), S(-47, -25),
    S(104, -47), S(135, 12), S(-17, 45), S(-98, 66), S(-177, 79), S(27, 22), S(76, -2), S(5, -30),
    S(44, -47), S(58, 31), S(-47, 78), S(-4, 74), S(-85, 88), S(29, 20), S(49, 32), S(46, -61),
    S(50, -70), S(61, 27), S(52, 96), S(-19, 47), S(117, 45), S(-9, 11), S(18, 24), S(-33, -19),
    S(198, -204), S(-166, 89), S(-82, 85), S(68, -3), S(-9, 45), S(-90, 77), S(24, 33), S(-303, -240),
    // mobility knight: 0..8 squares
    S(-11, 4), S(1, 51), S(7, 89), S(14, 94), S(18, 110), S(21, 116), S(24, 113), S(24, 108),
    S(14, 96),
    // mobility bishop: 0..13 squares
    S(-6, 38), S(1, 62), S(16, 67), S(21, 85), S(27, 90), S(27, 100), S(29, 103), S(28, 107),
    S(28, 111), S(37, 102), S(47, 92), S(24, 97), S(-44, 135), S(-103, 117),
    // mobility rook: 0..14 squares
    S(-14, 84), S(-8, 92), S(-2, 109), S(3, 124), S(2, 132), S(7, 136), S(7, 143), S(7, 141),
    S(11, 153), S(4, 158), S(7, 160), S(17, 155), S(8, 164), S(-4, 171), S(26, 145),
    // mobility queen: 0..27 squares
    S(16, 174), S(16, 187), S(17, 177), S(16, 167), S(17, 169), S(17, 212), S(19, 198), S(22, 202),
    S(24, 207), S(24, 219), S(19, 233), S(25, 234), S(25, 221), S(23, 246), S(27, 235), S(22, 235),
    S(32, 237), S(16, 232), S(40, 189), S(43, 197), S(116, 120), S(142, 85), S(175, 49), S(258, -49),
    S(322, -66), S(511, -293), S(260, -99), S(219, -109),
    // passed pawn: by rank from the pawn's side, 1..8
    S(0, 0), S(10, -1), S(-37, 18), S(-25, 29), S(16, 46), S(34, 106), S(90, 150), S(0, 0),
    // doubled pawn: each pawn beyond the first on a file
    S(-23, -25),
    // isolated pawn: no own pawn on a neighbouring file
    S(-2, -12),
    // supported pawn: defended by an own pawn
    S(12, 13),
    // phalanx pawn: an own pawn beside it
    S(6, 9),
    // king attack: squares next to the enemy king attacked by a knight, bishop, rook, queen
    S(8, -5), S(14, -4), S(2, 1), S(2, 9),
    // king attackers: pieces attacking squares next to the enemy king: 0..7 or more
    S(0, 0), S(-16, -5), S(-17, 3), S(21, 27), S(139, -6), S(-6, -43), S(70, 0), S(80, 0),
    // king shield: own pawns one, two ranks in front of the king (its file and the two beside)
    S(4, -2), S(4, 0),
    // king open file: king's file and the two beside without an own pawn
    S(-11, -16),
    // bishop pair: two bishops or more
    S(38, 88),
    // rook open file: no pawn on the rook's file
    S(40, 9),
    // rook half-open file: only enemy pawns on the rook's file
    S(20, 13),
    // tempo: the side to move
    S(24, 11),
    // threat by pawn: a knight, bishop, rook, queen attacked by a pawn: the side to move's, the other's
    S(85, 136), S(85, 148), S(70, 186), S(-72, 485), S(69, 44), S(63, 54), S(51, 28), S(75, -10),
    // threat by minor: a knight, bishop, rook, queen attacked by a knight or bishop: the side to move's, the other's
    S(21, 29), S(46, 19), S(76, 176), S(59, 381), S(24, 26), S(47, 26), S(59, 11), S(52, 66),
    // threat by rook: a queen attacked by a rook: the side to move's, the other's
    S(217, 77), S(66, 13),
    // hanging: a pawn, a piece attacked and not defended: the side to move's, the other's
    S(25, 41), S(44, 80), S(15, 30), S(16, 16),
    // passed free: a passed pawn whose square in front is empty, by rank 1..8
    S(0, 0), S(-21, 15), S(6, 13), S(2, 26), S(1, 45), S(9, 65), S(119, 79), S(0, 0),
    // passed king: own, enemy king's distance to the square in front of a passed pawn, times its rank less 2
    S(2, -11), S(-3, 17),
    // safe check: squares a knight, bishop, rook, queen could check the enemy king from, attacked by it, free of own pieces and not attacked by the enemy
    S(75, -5), S(14, 35), S(72, 1), S(23, 41),
    // king zone weak: squares next to the enemy king attacked and defended by no pawn, knight, bishop or rook
    S(9, 2),
    // outpost: a knight, bishop on ranks 4-6 from its side, defended by a pawn, no enemy pawn able to attack it
    S(29, 14), S(40, 10),
    // bishop pawns: own pawns on the squares of a bishop's colour, for each bishop
    S(-3, -9),
    // push threat: enemy pieces a pawn would attack after a safe push by one square
    S(19, 16),
    // backward pawn: no own pawn beside or behind on the files beside, the square in front attacked by an enemy pawn
    S(-9, -2),
    // minor behind pawn: a knight or bishop with a pawn on the square in front
    S(9, 24),
    // rook on seventh: a rook on the seventh rank from its side, the enemy king on the eighth or enemy pawns on the seventh
    S(-126, 61),
    // passed protected: a passed pawn defended by an own pawn
    S(20, 9),
    // unsafe check: squares a piece could check the enemy king from, attacked by it, free of own pieces but attacked by the enemy
    S(11, 9),
    // pawn storm: own pawns on the enemy king's file and the files beside, on ranks 4, 5, 6 from their side
    S(7, -4), S(14, -1), S(22, 2),
    // king zone double: squares next to the enemy king attacked by two kinds of piece or more
    S(37, -6),
    // space: squares on files c to f, ranks 2 to 4 from the side, free of own pawns and not attacked by enemy pawns
    S(-4, -4),
    // threat by rook on weak: a weak enemy pawn, knight or bishop attacked by a rook (weak: attacked, not strongly protected)
    S(0, 19), S(24, 38),
    // threat by queen on weak: a weak enemy pawn or piece other than the queen attacked by a queen
    S(3, 10),
    // threat by king: a weak enemy pawn or piece attacked by the king
    S(38, 15),
    // knight on queen: safe squares a knight reaches from which it would attack the lone enemy queen
    S(8, -2),
    // slider on queen: safe squares attacked twice, a bishop or rook reaching them, from which it would attack the lone enemy queen
    S(12, 17),
    // restricted: squares both sides attack that the enemy does not strongly protect
    S(7, -2),
    // weak queen protection: weak enemy pieces and pawns the enemy queen defends
    S(3, 4),
    // king flank: squares of the enemy king's flank (four files) in its camp (its first five ranks) attacked, attacked by two kinds of piece
    S(4, -5), S(2, 3),
    // pawnless flank: no pawn of either side on the own king's flank
    S(112, -89),
    // king pawn distance: the own king's distance to the nearest own pawn
    S(7, -21),
    // rook behind passer: an own rook, an enemy rook behind an own passed pawn on its file
    S(11, 35), S(5, -66),
    // shelter: on each of the three files around the own king (its file kept off the edge): the file's distance to the edge 0..3, times 7, plus the rank from the own side of the least advanced own pawn not behind the king (0: none)
    S(-28, 27), S(9, -37), S(12, -26), S(1, 1), S(-25, 25), S(42, -5), S(-36, 47), S(-31, 25),
    S(23, -29), S(3, -18), S(-9, -17), S(-3, -18), S(-1, -5), S(15, 14), S(-30, 16), S(22, -10),
    S(-12, 11), S(-7, -7), S(-2, -9), S(-35, -11), S(52, -6), S(-4, 13), S(-6, 10), S(-2, -4),
    S(4, -1), S(2, 13), S(-41, 7), S(-42, 7),
    // storm: on each of those files: the rank from the own side of the enemy pawn nearest the king not behind it (0: none), when no own pawn stands just in front of it
    S(-10, -2), S(-19, -33), S(-26, 54), S(-11, 5), S(6, -4), S(6, -2), S(-4, -5),
    // storm blocked: on each of those files: such an enemy pawn blocked by an own pawn just in front of it
    S(11, -24),
    // connected: pawns defended by an own pawn or with one beside, by rank from the own side 1..8
    S(0, 0), S(-7, -5), S(8, -6), S(4, 2), S(11, 15), S(28, 57), S(64, 70), S(0, 0),
];
