//! The weights the strength levels were calibrated with (docs/chess.md, "A weaker ply to play against"):
//! the table of `weights.rs` as it stood then, kept because a strength-limited search
//! evaluates with it ([`super::eval::evaluate`], the base features only), so that re-tuning
//! the full-strength table leaves the levels' calibration as measured. Not read by the tuner.
//!
//! How it was made (its header when it was `weights.rs`):
//   The chess evaluation's weights (see `eval.rs` for the features and the table's layout).
//
//   Written by `scripts/tuning/chess_tune.sh` (`examples/chess_tune.rs`, Texel tuning).
//   - Data: 45311 quiet positions from ply's self-play games, 5034 more from later
//     games held out.
//   - Labels: 0 x result + 1 x sigmoid(1.8222 x ply's score / 400).
//   - Only the weights from index 486 on were fitted; the others were kept from the table
//     started from (docs/chess.md, Tuning, has how each part was made).
//   - Fit: 290 epochs. Mean squared error of sigmoid(K * eval / 400), K = 1.6779,
//     against the game results: training 0.090563 before, 0.090084 after; held out 0.082672
//     before, 0.081557 after. Against the labels, held out: 0.006345 before, 0.005902 after.

use super::eval::{NUM_WEIGHTS, S};

#[rustfmt::skip]
pub static CALIBRATED: [S; NUM_WEIGHTS] = [
    // material: pawn, knight, bishop, rook, queen
    S(89, 126), S(383, 325), S(398, 345), S(524, 608), S(1181, 1036),
    // pst pawn: a1..h1, a2..h2, .., a8..h8 from White's side
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(-33, -9), S(-30, -8), S(-30, 5), S(-28, -10), S(-28, -6), S(5, -9), S(4, -17), S(-29, -21),
    S(-28, -19), S(-36, -12), S(-29, -13), S(-37, -16), S(-24, -9), S(-10, -12), S(-5, -24), S(-31, -25),
    S(-22, -9), S(-19, -10), S(-3, -25), S(-3, -30), S(12, -31), S(11, -22), S(2, -23), S(-24, -27),
    S(-7, 5), S(-5, -9), S(4, -12), S(26, -30), S(38, -20), S(29, -28), S(15, -4), S(5, -26),
    S(-5, 38), S(30, 23), S(59, 7), S(48, -27), S(67, -18), S(100, -25), S(17, 23), S(23, 2),
    S(53, 87), S(79, 43), S(63, 72), S(112, -5), S(-29, 69), S(-83, 62), S(-108, 92), S(-114, 62),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    // pst knight: a1..h8
    S(-55, -44), S(-32, -10), S(-42, -7), S(-30, 7), S(-16, 6), S(-17, -7), S(-34, -6), S(-75, 38),
    S(-43, -36), S(3, -8), S(-23, 2), S(-2, -3), S(-5, 4), S(-9, 6), S(-22, 10), S(-14, -38),
    S(-34, -14), S(-4, 5), S(-9, 24), S(0, 42), S(13, 34), S(-6, 16), S(-1, 1), S(-38, 27),
    S(-5, -4), S(-2, -2), S(9, 50), S(2, 48), S(12, 52), S(13, 51), S(25, 11), S(1, -24),
    S(22, 13), S(11, 15), S(34, 38), S(42, 49), S(9, 61), S(28, 39), S(-8, 43), S(22, 16),
    S(3, -21), S(24, 9), S(36, 45), S(65, 42), S(63, 52), S(104, 20), S(56, -16), S(46, -30),
    S(-10, -7), S(-6, -10), S(34, -3), S(87, -11), S(25, 3), S(89, -42), S(-6, -13), S(31, -38),
    S(-287, 32), S(29, -17), S(-36, -8), S(162, -96), S(56, -20), S(-274, -44), S(135, -246), S(-147, -88),
    // pst bishop: a1..h8
    S(4, 18), S(37, -24), S(-21, -9), S(-22, -13), S(-11, -13), S(-11, -1), S(24, -13), S(-3, 7),
    S(22, -20), S(8, -14), S(22, -18), S(-12, 4), S(4, -8), S(20, 0), S(32, -14), S(25, -5),
    S(-3, -6), S(26, -9), S(1, 18), S(11, 12), S(2, 27), S(15, 3), S(11, 11), S(17, -33),
    S(-13, -6), S(14, -14), S(6, 11), S(7, 34), S(15, 12), S(-8, 20), S(21, -13), S(10, -24),
    S(-1, -9), S(12, 11), S(26, 13), S(56, 7), S(14, 27), S(45, 8), S(-4, 5), S(-10, 10),
    S(6, -17), S(17, -3), S(27, 0), S(62, -8), S(65, -4), S(62, 23), S(32, 6), S(7, -13),
    S(1, -15), S(9, -13), S(17, -2), S(44, -9), S(6, -5), S(36, -27), S(-78, 18), S(-58, 6),
    S(-12, 15), S(-74, 16), S(-90, 12), S(-119, 36), S(-10, -19), S(-252, 44), S(32, -40), S(-119, 8),
    // pst rook: a1..h8
    S(-40, 2), S(-35, -2), S(-28, 5), S(-16, -5), S(-15, -13), S(-24, -7), S(-18, -12), S(-30, -9),
    S(-54, 3), S(-55, 8), S(-40, 7), S(-34, -3), S(-36, -2), S(-20, -14), S(-33, -15), S(-39, -4),
    S(-46, 0), S(-48, 14), S(-16, -1), S(-27, 3), S(-19, -1), S(-8, -12), S(20, -25), S(-8, -22),
    S(-33, 2), S(-48, 22), S(-25, 4), S(-25, 15), S(-29, -1), S(-37, 11), S(-22, -3), S(-22, -2),
    S(-36, 14), S(-19, 19), S(9, 7), S(-2, 6), S(0, 7), S(27, -7), S(6, 8), S(20, -13),
    S(-30, 16), S(18, 2), S(34, -5), S(40, 3), S(68, -21), S(135, -33), S(56, -20), S(58, -14),
    S(14, 10), S(25, 10), S(46, 3), S(40, 7), S(85, -7), S(94, -17), S(39, -11), S(66, -23),
    S(40, -3), S(11, 21), S(21, 27), S(15, 26), S(18, 13), S(-36, 28), S(28, -1), S(21, 13),
    // pst queen: a1..h8
    S(8, -69), S(-5, -43), S(-1, -62), S(-5, -24), S(10, -54), S(-21, -57), S(13, -86), S(-78, -19),
    S(-24, 21), S(7, -41), S(-3, -13), S(5, -34), S(9, -30), S(6, -65), S(22, -110), S(3, -57),
    S(-4, 0), S(-5, 14), S(-10, 11), S(-14, 11), S(-14, 20), S(-10, 33), S(11, -27), S(4, -34),
    S(-15, 0), S(-22, -8), S(-11, 29), S(-29, 69), S(-29, 66), S(-16, 31), S(-6, 0), S(8, 20),
    S(-19, -6), S(-8, 14), S(-35, 56), S(-27, 76), S(-24, 43), S(16, 28), S(-5, 40), S(-12, 41),
    S(-11, -29), S(-40, 39), S(-12, 46), S(-26, 69), S(16, 59), S(-2, 27), S(60, -11), S(2, 2),
    S(-11, -22), S(-29, 34), S(-13, 20), S(-39, 46), S(-77, 131), S(46, 31), S(-34, 53), S(110, -75),
    S(20, -41), S(-59, 14), S(39, -34), S(25, 0), S(-143, 128), S(156, -105), S(240, -123), S(112, -44),
    // pst king: a1..h8
    S(-44, -30), S(32, -28), S(21, -38), S(-43, -34), S(-4, -46), S(-22, -15), S(33, -38), S(21, -63),
    S(17, -25), S(28, -18), S(-9, -16), S(-6, -11), S(-16, -8), S(-6, -6), S(24, -16), S(23, -33),
    S(-3, -31), S(34, -2), S(17, -3), S(-2, -1), S(2, 1), S(-2, -1), S(30, -8), S(-34, -11),
    S(-53, -7), S(65, -11), S(16, 11), S(30, 6), S(28, 0), S(18, 5), S(25, -6), S(-50, -20),
    S(73, -14), S(116, 12), S(55, 18), S(67, 15), S(-18, 14), S(95, 4), S(73, 8), S(43, -24),
    S(215, -57), S(56, 23), S(90, 23), S(36, 12), S(46, 17), S(-48, 18), S(76, 37), S(4, 7),
    S(168, -36), S(54, 16), S(33, 30), S(-27, 34), S(-68, 29), S(-134, 40), S(-131, 63), S(-130, 7),
    S(-144, -23), S(-184, 47), S(-112, 46), S(-144, 46), S(-115, 40), S(-84, 54), S(207, 0), S(-337, -2),
    // mobility knight: 0..8 squares
    S(-23, -84), S(-12, 0), S(-5, 10), S(-1, 17), S(6, 21), S(11, 31), S(15, 27), S(25, 12),
    S(33, -14),
    // mobility bishop: 0..13 squares
    S(-22, -32), S(-15, -15), S(-2, -7), S(2, 7), S(10, 10), S(12, 19), S(13, 19), S(16, 16),
    S(15, 21), S(22, 12), S(41, 1), S(58, -18), S(31, 17), S(41, -16),
    // mobility rook: 0..14 squares
    S(-18, -13), S(-14, 5), S(-9, 9), S(-6, 14), S(-7, 27), S(-2, 26), S(0, 31), S(0, 37),
    S(9, 33), S(8, 37), S(8, 37), S(22, 36), S(21, 37), S(5, 32), S(93, 4),
    // mobility queen: 0..27 squares
    S(14, -72), S(13, -61), S(14, -13), S(14, 20), S(14, 3), S(15, 24), S(16, 28), S(17, 43),
    S(20, 52), S(19, 50), S(20, 55), S(21, 63), S(23, 59), S(21, 75), S(20, 75), S(25, 67),
    S(25, 72), S(36, 62), S(50, 40), S(30, 56), S(76, 15), S(92, -1), S(119, -8), S(203, -82),
    S(267, -116), S(143, -63), S(99, -28), S(28, -31),
    // passed pawn: by rank from the pawn's side, 1..8
    S(0, 0), S(10, 9), S(-11, 18), S(-7, 46), S(14, 59), S(32, 88), S(75, 110), S(0, 0),
    // doubled pawn: each pawn beyond the first on a file
    S(-22, -17),
    // isolated pawn: no own pawn on a neighbouring file
    S(-8, -10),
    // supported pawn: defended by an own pawn
    S(15, 11),
    // phalanx pawn: an own pawn beside it
    S(6, 6),
    // king attack: squares next to the enemy king attacked by a knight, bishop, rook, queen
    S(22, -17), S(22, -4), S(14, 1), S(24, 10),
    // king attackers: pieces attacking squares next to the enemy king: 0..7 or more
    S(0, 0), S(-26, -7), S(-17, -9), S(27, 0), S(224, -88), S(33, -64), S(70, 0), S(80, 0),
    // king shield: own pawns one, two ranks in front of the king (its file and the two beside)
    S(7, -2), S(1, -3),
    // king open file: king's file and the two beside without an own pawn
    S(-19, -4),
    // bishop pair: two bishops or more
    S(19, 80),
    // rook open file: no pawn on the rook's file
    S(28, 3),
    // rook half-open file: only enemy pawns on the rook's file
    S(11, 21),
    // tempo: the side to move
    S(14, 1),
    // threat by pawn: a knight, bishop, rook, queen attacked by a pawn: the side to move's, the other's
    S(42, 31), S(45, 36), S(27, 35), S(-2, 21), S(39, 26), S(39, 31), S(34, 24), S(26, -15),
    // threat by minor: a knight, bishop, rook, queen attacked by a knight or bishop: the side to move's, the other's
    S(12, 34), S(27, 22), S(44, 42), S(-29, 7), S(7, 22), S(23, 23), S(39, -7), S(18, 28),
    // threat by rook: a queen attacked by a rook: the side to move's, the other's
    S(34, 36), S(35, 7),
    // hanging: a pawn, a piece attacked and not defended: the side to move's, the other's
    S(25, 31), S(28, 29), S(8, 23), S(19, 1),
    // passed free: a passed pawn whose square in front is empty, by rank 1..8
    S(0, 0), S(-8, 1), S(12, 2), S(3, 12), S(-14, 26), S(11, 36), S(45, 40), S(0, 0),
    // passed king: own, enemy king's distance to the square in front of a passed pawn, times its rank less 2
    S(2, -4), S(-2, 5),
];
