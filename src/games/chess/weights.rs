//! The chess evaluation's weights (see `eval.rs` for the features and the table's layout).
//!
//! Written by `scripts/tuning/chess_tune.sh` (`examples/chess_tune.rs`, Texel tuning).
//! - Data: 841785 quiet positions (678019 from Stockfish's self-play games, 163766 from
//!   ply's own games scored by Stockfish at 5,000 nodes: docs/chess.md, the twelfth round);
//!   93531 more held out.
//! - Labels: 0 x result + 1 x sigmoid(2.3591 x Stockfish's score / 400).
//! - Fit: 80 epochs. Mean squared error of sigmoid(K * eval / 400), K = 1.5380,
//!   against the game results: training 0.090004 before, 0.089415 after; held out 0.123105
//!   before, 0.121882 after. Against the labels, held out: 0.013518 before, 0.012976 after.

use super::eval::{NUM_WEIGHTS, S};

#[rustfmt::skip]
pub static WEIGHTS: [S; NUM_WEIGHTS] = [
    // material: pawn, knight, bishop, rook, queen
    S(93, 163), S(375, 478), S(396, 518), S(535, 858), S(1281, 1519),
    // pst pawn: a1..h1, a2..h2, .., a8..h8 from White's side
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(-16, -6), S(-17, -1), S(-18, -4), S(-18, -29), S(-8, -7), S(-24, -4), S(7, -17), S(-22, -15),
    S(-27, -10), S(-37, -5), S(-33, -12), S(-32, -8), S(-24, -10), S(-19, -20), S(-22, -5), S(-41, -12),
    S(-16, -10), S(-16, 1), S(-5, -26), S(2, -24), S(5, -29), S(1, -17), S(-4, -3), S(-24, -25),
    S(-1, -10), S(0, -4), S(9, -5), S(20, -28), S(32, -23), S(20, -10), S(-12, 11), S(-14, -8),
    S(26, -6), S(32, 4), S(37, -1), S(64, -10), S(53, 13), S(114, -11), S(-30, 54), S(-22, 5),
    S(8, 28), S(39, 33), S(114, 11), S(84, 50), S(-2, 75), S(-59, 50), S(-73, 75), S(-31, 8),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    // pst knight: a1..h8
    S(-31, -158), S(-23, -39), S(-44, -5), S(-26, -4), S(-1, -12), S(-13, -18), S(-32, -19), S(-31, 24),
    S(-20, -25), S(-4, -9), S(-8, -10), S(3, -13), S(2, -9), S(-14, 2), S(-4, -15), S(-20, -13),
    S(-18, -24), S(5, -18), S(5, 3), S(19, 26), S(32, 20), S(7, 4), S(6, -7), S(-15, 13),
    S(6, -30), S(24, -6), S(31, 27), S(25, 33), S(21, 31), S(31, 26), S(12, 31), S(9, -17),
    S(13, 9), S(17, 14), S(37, 29), S(33, 50), S(31, 46), S(50, 37), S(22, 25), S(45, -13),
    S(-11, -7), S(48, -9), S(34, 41), S(45, 38), S(49, 54), S(61, 46), S(53, -20), S(48, -31),
    S(-26, 52), S(5, 25), S(26, 25), S(37, 14), S(33, 2), S(43, -41), S(-136, 42), S(5, -30),
    S(-124, -99), S(-65, -3), S(-54, 28), S(135, -20), S(-80, 49), S(-156, 25), S(-11, -83), S(-140, -85),
    // pst bishop: a1..h8
    S(-17, -22), S(6, -30), S(-18, -5), S(-10, -14), S(-14, -11), S(-26, -12), S(-37, -44), S(-22, -12),
    S(-3, -12), S(5, -22), S(10, -27), S(-4, 4), S(-1, -9), S(17, -18), S(25, -48), S(15, -50),
    S(-3, -15), S(19, 4), S(8, 25), S(10, 12), S(6, 18), S(5, 6), S(7, -4), S(8, -37),
    S(-5, -19), S(21, -8), S(5, 29), S(7, 36), S(23, 20), S(9, 19), S(6, -14), S(13, -32),
    S(13, -1), S(11, 9), S(20, 13), S(23, 47), S(7, 48), S(36, 17), S(4, 13), S(1, -33),
    S(8, 9), S(26, -11), S(-17, 26), S(55, 15), S(56, 19), S(62, 6), S(33, 0), S(4, -31),
    S(-11, 14), S(-7, 19), S(17, -10), S(-7, 29), S(-8, 20), S(33, 1), S(-55, 13), S(0, -10),
    S(-7, -3), S(11, 3), S(65, -19), S(-102, 17), S(-78, 26), S(-259, 50), S(17, 7), S(-13, -13),
    // pst rook: a1..h8
    S(-59, 7), S(-45, 2), S(-44, 10), S(-37, -3), S(-35, -13), S(-38, -4), S(-37, -18), S(-42, -22),
    S(-80, 22), S(-70, 11), S(-46, -6), S(-45, -4), S(-51, 0), S(-36, -24), S(-15, -50), S(-67, -22),
    S(-69, 16), S(-55, 18), S(-59, 13), S(-48, 0), S(-54, 9), S(-50, 11), S(-40, 3), S(-50, -13),
    S(-74, 27), S(-58, 32), S(-47, 14), S(-47, 15), S(-49, 14), S(-35, 17), S(-8, -2), S(-57, 8),
    S(-31, 20), S(-15, 20), S(-24, 27), S(0, -2), S(-25, 32), S(20, 3), S(-38, 25), S(-20, 7),
    S(-52, 31), S(-14, 23), S(-7, 16), S(12, 6), S(20, 3), S(48, -9), S(99, -29), S(19, -4),
    S(126, -35), S(107, -21), S(116, -24), S(140, -51), S(132, -35), S(225, -62), S(118, -25), S(203, -69),
    S(39, 2), S(12, 33), S(32, 23), S(39, 18), S(76, 6), S(28, 22), S(71, -11), S(86, -7),
    // pst queen: a1..h8
    S(-31, -32), S(-15, -89), S(-23, -23), S(-13, -32), S(-10, -60), S(-33, -86), S(-60, -76), S(2, -84),
    S(-23, -20), S(-21, 1), S(-6, -43), S(-6, -31), S(-6, -25), S(-7, -49), S(31, -184), S(-23, -52),
    S(-19, -32), S(-17, 6), S(-15, 28), S(-23, 25), S(-28, 50), S(-20, 18), S(-17, -8), S(3, -63),
    S(-19, -20), S(-18, 15), S(-12, 18), S(-36, 90), S(-28, 63), S(-25, 20), S(-23, 42), S(-18, 23),
    S(-7, -13), S(-17, 14), S(-15, 54), S(-17, 82), S(-29, 106), S(-19, 87), S(-13, 47), S(-13, 41),
    S(-29, 3), S(-15, 30), S(-6, 7), S(13, 65), S(26, 28), S(86, 8), S(42, 21), S(-18, 43),
    S(-2, -7), S(-18, 4), S(-30, 84), S(-47, 58), S(-60, 122), S(9, 77), S(-32, 145), S(71, -59),
    S(-37, 2), S(-25, 17), S(-28, 56), S(117, -54), S(-40, 35), S(254, -123), S(284, -227), S(173, -141),
    // pst king: a1..h8
    S(0, -43), S(26, 0), S(20, -5), S(-69, 6), S(4, -41), S(-45, 20), S(39, -2), S(29, -19),
    S(2, -3), S(34, 16), S(19, 6), S(-35, 19), S(-14, 11), S(-5, 17), S(47, 9), S(45, -16),
    S(9, -22), S(60, 0), S(63, 10), S(19, 20), S(-12, 27), S(-9, 24), S(53, 0), S(54, -42),
    S(-38, 19), S(64, 6), S(24, 33), S(-61, 59), S(-58, 57), S(10, 31), S(46, -2), S(-40, -25),
    S(115, -41), S(120, -4), S(-37, 61), S(-119, 84), S(-168, 92), S(4, 44), S(68, -1), S(-23, -18),
    S(74, -57), S(39, 2), S(-69, 53), S(-34, 65), S(-87, 83), S(21, 39), S(50, 0), S(19, -106),
    S(56, -90), S(44, -17), S(13, 52), S(-16, 20), S(84, 24), S(-7, 21), S(20, 8), S(-38, -57),
    S(159, -264), S(-147, 59), S(-95, 31), S(61, -14), S(-21, -2), S(-108, 43), S(33, 0), S(-292, -281),
    // mobility knight: 0..8 squares
    S(-22, -11), S(-8, 46), S(-1, 80), S(8, 82), S(12, 97), S(14, 106), S(17, 104), S(19, 99),
    S(9, 83),
    // mobility bishop: 0..13 squares
    S(-13, 19), S(-6, 52), S(9, 62), S(13, 85), S(20, 89), S(20, 103), S(22, 103), S(22, 106),
    S(24, 106), S(34, 95), S(44, 77), S(31, 82), S(-13, 96), S(-77, 93),
    // mobility rook: 0..14 squares
    S(-30, 53), S(-22, 82), S(-15, 95), S(-9, 111), S(-11, 123), S(-5, 128), S(-7, 135), S(-5, 134),
    S(-2, 146), S(-4, 151), S(-2, 152), S(9, 147), S(0, 156), S(-3, 159), S(18, 140),
    // mobility queen: 0..27 squares
    S(5, 176), S(4, 181), S(5, 142), S(5, 137), S(6, 152), S(7, 201), S(11, 174), S(14, 190),
    S(16, 192), S(16, 204), S(13, 218), S(14, 226), S(15, 216), S(13, 234), S(18, 229), S(17, 224),
    S(17, 229), S(5, 219), S(41, 178), S(46, 177), S(118, 99), S(140, 56), S(163, 32), S(241, -70),
    S(298, -84), S(473, -283), S(261, -95), S(213, -115),
    // passed pawn: by rank from the pawn's side, 1..8
    S(0, 0), S(2, -10), S(-30, 17), S(-28, 24), S(-1, 40), S(18, 99), S(95, 102), S(0, 0),
    // doubled pawn: each pawn beyond the first on a file
    S(-19, -23),
    // isolated pawn: no own pawn on a neighbouring file
    S(0, -14),
    // supported pawn: defended by an own pawn
    S(12, 6),
    // phalanx pawn: an own pawn beside it
    S(6, 6),
    // king attack: squares next to the enemy king attacked by a knight, bishop, rook, queen
    S(11, -4), S(19, 0), S(4, 0), S(3, 12),
    // king attackers: pieces attacking squares next to the enemy king: 0..7 or more
    S(0, 0), S(-22, -4), S(-24, 4), S(41, 3), S(138, -20), S(-7, -43), S(70, 0), S(80, 0),
    // king shield: own pawns one, two ranks in front of the king (its file and the two beside)
    S(3, -3), S(3, 0),
    // king open file: king's file and the two beside without an own pawn
    S(5, -22),
    // bishop pair: two bishops or more
    S(26, 94),
    // rook open file: no pawn on the rook's file
    S(42, 6),
    // rook half-open file: only enemy pawns on the rook's file
    S(21, 6),
    // tempo: the side to move
    S(27, 10),
    // threat by pawn: a knight, bishop, rook, queen attacked by a pawn: the side to move's, the other's
    S(83, 136), S(93, 128), S(71, 195), S(-83, 479), S(72, 42), S(64, 58), S(47, 40), S(78, 7),
    // threat by minor: a knight, bishop, rook, queen attacked by a knight or bishop: the side to move's, the other's
    S(22, 31), S(44, 16), S(78, 186), S(49, 381), S(25, 27), S(45, 23), S(62, 14), S(54, 63),
    // threat by rook: a queen attacked by a rook: the side to move's, the other's
    S(243, 89), S(65, 28),
    // hanging: a pawn, a piece attacked and not defended: the side to move's, the other's
    S(26, 41), S(47, 74), S(14, 29), S(18, 13),
    // passed free: a passed pawn whose square in front is empty, by rank 1..8
    S(0, 0), S(-22, 29), S(1, 17), S(5, 26), S(4, 39), S(13, 53), S(119, 73), S(0, 0),
    // passed king: own, enemy king's distance to the square in front of a passed pawn, times its rank less 2
    S(1, -9), S(-2, 17),
    // safe check: squares a knight, bishop, rook, queen could check the enemy king from, attacked by it, free of own pieces and not attacked by the enemy
    S(87, -9), S(19, 26), S(75, 3), S(29, 42),
    // king zone weak: squares next to the enemy king attacked and defended by no pawn, knight, bishop or rook
    S(11, 2),
    // outpost: a knight, bishop on ranks 4-6 from its side, defended by a pawn, no enemy pawn able to attack it
    S(29, 17), S(39, 6),
    // bishop pawns: own pawns on the squares of a bishop's colour, for each bishop
    S(-3, -11),
    // push threat: enemy pieces a pawn would attack after a safe push by one square
    S(21, 21),
    // backward pawn: no own pawn beside or behind on the files beside, the square in front attacked by an enemy pawn
    S(-9, 0),
    // minor behind pawn: a knight or bishop with a pawn on the square in front
    S(9, 28),
    // rook on seventh: a rook on the seventh rank from its side, the enemy king on the eighth or enemy pawns on the seventh
    S(-125, 68),
    // passed protected: a passed pawn defended by an own pawn
    S(25, 0),
    // unsafe check: squares a piece could check the enemy king from, attacked by it, free of own pieces but attacked by the enemy
    S(13, 8),
    // pawn storm: own pawns on the enemy king's file and the files beside, on ranks 4, 5, 6 from their side
    S(5, -5), S(3, -3), S(14, 4),
    // king zone double: squares next to the enemy king attacked by two kinds of piece or more
    S(43, -7),
    // space: squares on files c to f, ranks 2 to 4 from the side, free of own pawns and not attacked by enemy pawns
    S(-4, -1),
    // threat by rook on weak: a weak enemy pawn, knight or bishop attacked by a rook (weak: attacked, not strongly protected)
    S(1, 16), S(25, 37),
    // threat by queen on weak: a weak enemy pawn or piece other than the queen attacked by a queen
    S(0, 12),
    // threat by king: a weak enemy pawn or piece attacked by the king
    S(32, 23),
    // knight on queen: safe squares a knight reaches from which it would attack the lone enemy queen
    S(7, -4),
    // slider on queen: safe squares attacked twice, a bishop or rook reaching them, from which it would attack the lone enemy queen
    S(12, 24),
    // restricted: squares both sides attack that the enemy does not strongly protect
    S(8, -2),
    // weak queen protection: weak enemy pieces and pawns the enemy queen defends
    S(3, 3),
    // king flank: squares of the enemy king's flank (four files) in its camp (its first five ranks) attacked, attacked by two kinds of piece
    S(7, -8), S(3, 4),
    // pawnless flank: no pawn of either side on the own king's flank
    S(148, -109),
    // king pawn distance: the own king's distance to the nearest own pawn
    S(4, -25),
    // rook behind passer: an own rook, an enemy rook behind an own passed pawn on its file
    S(15, 33), S(2, -62),
    // shelter: on each of the three files around the own king (its file kept off the edge): the file's distance to the edge 0..3, times 7, plus the rank from the own side of the least advanced own pawn not behind the king (0: none)
    S(-59, 47), S(10, -40), S(17, -24), S(-5, 0), S(-28, 20), S(23, -5), S(-13, 16), S(-59, 39),
    S(25, -29), S(8, -22), S(-15, -16), S(-8, -14), S(9, -12), S(9, -17), S(-49, 22), S(30, -16),
    S(-12, 1), S(-12, -13), S(-22, -6), S(-49, 5), S(106, 4), S(-12, 19), S(6, 7), S(6, -6),
    S(11, -6), S(14, 6), S(-49, 15), S(-40, 8),
    // storm: on each of those files: the rank from the own side of the enemy pawn nearest the king not behind it (0: none), when no own pawn stands just in front of it
    S(-14, 3), S(-13, -55), S(-33, 65), S(-15, -5), S(7, -9), S(13, -6), S(-1, -8),
    // storm blocked: on each of those files: such an enemy pawn blocked by an own pawn just in front of it
    S(11, -21),
    // connected: pawns defended by an own pawn or with one beside, by rank from the own side 1..8
    S(0, 0), S(-7, -2), S(9, 1), S(5, 6), S(10, 22), S(14, 72), S(117, 121), S(0, 0),
];
