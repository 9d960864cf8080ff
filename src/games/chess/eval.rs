//! The chess evaluation: a tapered sum of weighted features, every weight in one table
//! ([`super::weights::WEIGHTS`]) that the Texel tuner (`examples/chess_tune.rs`) reads and
//! rewrites. The base evaluation of the strength-limited levels ([`evaluate`]) reads the
//! table they were calibrated with instead ([`super::calibrated::CALIBRATED`]): the same
//! layout, the base entries only.
//!
//! Each weight is a pair [`S`] (midgame, endgame) in centipawns. The features are counted
//! for White minus Black; the two sums are blended by the game phase (24 with all minor and
//! major pieces on the board, 0 with none: knight and bishop 1, rook 2, queen 4):
//! `(mg * phase + eg * (24 - phase)) / 24`, then turned to the side to move's view.
//!
//! The evaluation is linear in the weights, so the tuner sees a position as a few dozen
//! (feature, count) pairs and a phase ([`trace`]); the engine and the tuner run the same
//! feature code ([`features`]), generic over where the counts go ([`Sink`]).
//!
//! Features (index ranges in [`GROUPS`]):
//! - material: pawn, knight, bishop, rook, queen;
//! - piece-square tables for the six pieces, from White's side (a1 = 0 .. h8 = 63; Black's
//!   squares are mirrored rank-wise);
//! - mobility: for each knight, bishop, rook and queen, one weight per number of squares it
//!   attacks that hold no own piece and no enemy pawn defends;
//! - pawn structure: passed pawns by rank, doubled (each pawn beyond the first on a file),
//!   isolated, supported by a pawn, side by side with a pawn (phalanx);
//! - king safety: squares next to the enemy king attacked by each knight, bishop, rook and
//!   queen, and one weight per number of pieces taking part (counted for the attacker: the
//!   table makes the danger grow faster than the attack count); own pawns one and two ranks in
//!   front of the king on its file and the files beside it; those files without an own pawn;
//! - bishop pair; rooks on open and half-open files; the side to move (tempo);
//! - the full evaluation's terms, from [`THREAT_PAWN`] on ([`threats`]).
//!
//! The full evaluation also scales its endgame sum by the kind of endgame, down for those
//! the weights overrate (opposite-coloured bishops, rook endings on one flank, no pawns for
//! the side ahead), up for pawn endings ([`endgame_scale`]); the tuner sees that factor in
//! each position's [`Trace`].
//!
//! The features of the pawns and the kings alone (`pawn_features`,
//! `pawn_threat_features`) change in few moves: the full evaluation takes their sums from a
//! small cache per thread, keyed by the whole placement of the pawns and the kings
//! (`pawns_and_kings`). The tuner's [`trace`] and the base evaluation count them afresh.

use cozy_chess::{
    BitBoard, Board, Color, File, Piece, Rank, Square, get_bishop_moves, get_king_moves,
    get_knight_moves, get_rook_moves,
};

use super::calibrated::CALIBRATED;
use super::weights::WEIGHTS;

/// A weight: (midgame, endgame) centipawns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S(pub i32, pub i32);

pub const MATERIAL: usize = 0;
pub const PST: usize = MATERIAL + 5;
pub const MOBILITY_KNIGHT: usize = PST + 6 * 64;
pub const MOBILITY_BISHOP: usize = MOBILITY_KNIGHT + 9;
pub const MOBILITY_ROOK: usize = MOBILITY_BISHOP + 14;
pub const MOBILITY_QUEEN: usize = MOBILITY_ROOK + 15;
pub const PASSED: usize = MOBILITY_QUEEN + 28;
pub const DOUBLED: usize = PASSED + 8;
pub const ISOLATED: usize = DOUBLED + 1;
pub const SUPPORTED: usize = ISOLATED + 1;
pub const PHALANX: usize = SUPPORTED + 1;
pub const KING_ATTACK: usize = PHALANX + 1;
pub const KING_ATTACKERS: usize = KING_ATTACK + 4;
pub const KING_SHIELD: usize = KING_ATTACKERS + 8;
pub const KING_OPEN_FILE: usize = KING_SHIELD + 2;
pub const BISHOP_PAIR: usize = KING_OPEN_FILE + 1;
pub const ROOK_OPEN: usize = BISHOP_PAIR + 1;
pub const ROOK_HALF_OPEN: usize = ROOK_OPEN + 1;
pub const TEMPO: usize = ROOK_HALF_OPEN + 1;
/// The threat features ([`threats`]), each twice: for the side to move's threats, then for
/// the other side's.
pub const THREAT_PAWN: usize = TEMPO + 1;
pub const THREAT_MINOR: usize = THREAT_PAWN + 8;
pub const THREAT_ROOK: usize = THREAT_MINOR + 8;
pub const HANGING: usize = THREAT_ROOK + 2;
pub const PASSED_FREE: usize = HANGING + 4;
pub const PASSED_KING: usize = PASSED_FREE + 8;
pub const SAFE_CHECK: usize = PASSED_KING + 2;
pub const KING_ZONE_WEAK: usize = SAFE_CHECK + 4;
pub const OUTPOST: usize = KING_ZONE_WEAK + 1;
pub const BISHOP_PAWNS: usize = OUTPOST + 2;
pub const PUSH_THREAT: usize = BISHOP_PAWNS + 1;
pub const BACKWARD: usize = PUSH_THREAT + 1;
pub const MINOR_BEHIND_PAWN: usize = BACKWARD + 1;
pub const ROOK_SEVENTH: usize = MINOR_BEHIND_PAWN + 1;
pub const PASSED_PROTECTED: usize = ROOK_SEVENTH + 1;
pub const UNSAFE_CHECK: usize = PASSED_PROTECTED + 1;
pub const PAWN_STORM: usize = UNSAFE_CHECK + 1;
pub const KING_ZONE_DOUBLE: usize = PAWN_STORM + 3;
pub const SPACE: usize = KING_ZONE_DOUBLE + 1;
pub const THREAT_ROOK_WEAK: usize = SPACE + 1;
pub const THREAT_QUEEN_WEAK: usize = THREAT_ROOK_WEAK + 2;
pub const THREAT_KING: usize = THREAT_QUEEN_WEAK + 1;
pub const KNIGHT_ON_QUEEN: usize = THREAT_KING + 1;
pub const SLIDER_ON_QUEEN: usize = KNIGHT_ON_QUEEN + 1;
pub const RESTRICTED: usize = SLIDER_ON_QUEEN + 1;
pub const WEAK_QUEEN_PROTECTION: usize = RESTRICTED + 1;
pub const KING_FLANK: usize = WEAK_QUEEN_PROTECTION + 1;
pub const PAWNLESS_FLANK: usize = KING_FLANK + 2;
pub const KING_PAWN_DISTANCE: usize = PAWNLESS_FLANK + 1;
pub const ROOK_BEHIND_PASSER: usize = KING_PAWN_DISTANCE + 1;
pub const SHELTER: usize = ROOK_BEHIND_PASSER + 2;
pub const STORM: usize = SHELTER + 28;
pub const STORM_BLOCKED: usize = STORM + 7;
pub const CONNECTED: usize = STORM_BLOCKED + 1;
/// The weights of the base evaluation ([`evaluate`]); the others are [`threats`]'s.
pub const BASE_WEIGHTS: usize = THREAT_PAWN;
/// The number of weights in the table.
pub const NUM_WEIGHTS: usize = CONNECTED + 8;

/// A named range of the weight table, for the tuner's report and the table's source.
pub struct Group {
    pub name: &'static str,
    pub start: usize,
    pub len: usize,
    /// What each entry is, in order.
    pub entries: &'static str,
}

#[rustfmt::skip]
pub const GROUPS: &[Group] = &[
    Group { name: "material", start: MATERIAL, len: 5, entries: "pawn, knight, bishop, rook, queen" },
    Group { name: "pst pawn", start: PST, len: 64, entries: "a1..h1, a2..h2, .., a8..h8 from White's side" },
    Group { name: "pst knight", start: PST + 64, len: 64, entries: "a1..h8" },
    Group { name: "pst bishop", start: PST + 128, len: 64, entries: "a1..h8" },
    Group { name: "pst rook", start: PST + 192, len: 64, entries: "a1..h8" },
    Group { name: "pst queen", start: PST + 256, len: 64, entries: "a1..h8" },
    Group { name: "pst king", start: PST + 320, len: 64, entries: "a1..h8" },
    Group { name: "mobility knight", start: MOBILITY_KNIGHT, len: 9, entries: "0..8 squares" },
    Group { name: "mobility bishop", start: MOBILITY_BISHOP, len: 14, entries: "0..13 squares" },
    Group { name: "mobility rook", start: MOBILITY_ROOK, len: 15, entries: "0..14 squares" },
    Group { name: "mobility queen", start: MOBILITY_QUEEN, len: 28, entries: "0..27 squares" },
    Group { name: "passed pawn", start: PASSED, len: 8, entries: "by rank from the pawn's side, 1..8" },
    Group { name: "doubled pawn", start: DOUBLED, len: 1, entries: "each pawn beyond the first on a file" },
    Group { name: "isolated pawn", start: ISOLATED, len: 1, entries: "no own pawn on a neighbouring file" },
    Group { name: "supported pawn", start: SUPPORTED, len: 1, entries: "defended by an own pawn" },
    Group { name: "phalanx pawn", start: PHALANX, len: 1, entries: "an own pawn beside it" },
    Group { name: "king attack", start: KING_ATTACK, len: 4, entries: "squares next to the enemy king attacked by a knight, bishop, rook, queen" },
    Group { name: "king attackers", start: KING_ATTACKERS, len: 8, entries: "pieces attacking squares next to the enemy king: 0..7 or more" },
    Group { name: "king shield", start: KING_SHIELD, len: 2, entries: "own pawns one, two ranks in front of the king (its file and the two beside)" },
    Group { name: "king open file", start: KING_OPEN_FILE, len: 1, entries: "king's file and the two beside without an own pawn" },
    Group { name: "bishop pair", start: BISHOP_PAIR, len: 1, entries: "two bishops or more" },
    Group { name: "rook open file", start: ROOK_OPEN, len: 1, entries: "no pawn on the rook's file" },
    Group { name: "rook half-open file", start: ROOK_HALF_OPEN, len: 1, entries: "only enemy pawns on the rook's file" },
    Group { name: "tempo", start: TEMPO, len: 1, entries: "the side to move" },
    Group { name: "threat by pawn", start: THREAT_PAWN, len: 8, entries: "a knight, bishop, rook, queen attacked by a pawn: the side to move's, the other's" },
    Group { name: "threat by minor", start: THREAT_MINOR, len: 8, entries: "a knight, bishop, rook, queen attacked by a knight or bishop: the side to move's, the other's" },
    Group { name: "threat by rook", start: THREAT_ROOK, len: 2, entries: "a queen attacked by a rook: the side to move's, the other's" },
    Group { name: "hanging", start: HANGING, len: 4, entries: "a pawn, a piece attacked and not defended: the side to move's, the other's" },
    Group { name: "passed free", start: PASSED_FREE, len: 8, entries: "a passed pawn whose square in front is empty, by rank 1..8" },
    Group { name: "passed king", start: PASSED_KING, len: 2, entries: "own, enemy king's distance to the square in front of a passed pawn, times its rank less 2" },
    Group { name: "safe check", start: SAFE_CHECK, len: 4, entries: "squares a knight, bishop, rook, queen could check the enemy king from, attacked by it, free of own pieces and not attacked by the enemy" },
    Group { name: "king zone weak", start: KING_ZONE_WEAK, len: 1, entries: "squares next to the enemy king attacked and defended by no pawn, knight, bishop or rook" },
    Group { name: "outpost", start: OUTPOST, len: 2, entries: "a knight, bishop on ranks 4-6 from its side, defended by a pawn, no enemy pawn able to attack it" },
    Group { name: "bishop pawns", start: BISHOP_PAWNS, len: 1, entries: "own pawns on the squares of a bishop's colour, for each bishop" },
    Group { name: "push threat", start: PUSH_THREAT, len: 1, entries: "enemy pieces a pawn would attack after a safe push by one square" },
    Group { name: "backward pawn", start: BACKWARD, len: 1, entries: "no own pawn beside or behind on the files beside, the square in front attacked by an enemy pawn" },
    Group { name: "minor behind pawn", start: MINOR_BEHIND_PAWN, len: 1, entries: "a knight or bishop with a pawn on the square in front" },
    Group { name: "rook on seventh", start: ROOK_SEVENTH, len: 1, entries: "a rook on the seventh rank from its side, the enemy king on the eighth or enemy pawns on the seventh" },
    Group { name: "passed protected", start: PASSED_PROTECTED, len: 1, entries: "a passed pawn defended by an own pawn" },
    Group { name: "unsafe check", start: UNSAFE_CHECK, len: 1, entries: "squares a piece could check the enemy king from, attacked by it, free of own pieces but attacked by the enemy" },
    Group { name: "pawn storm", start: PAWN_STORM, len: 3, entries: "own pawns on the enemy king's file and the files beside, on ranks 4, 5, 6 from their side" },
    Group { name: "king zone double", start: KING_ZONE_DOUBLE, len: 1, entries: "squares next to the enemy king attacked by two kinds of piece or more" },
    Group { name: "space", start: SPACE, len: 1, entries: "squares on files c to f, ranks 2 to 4 from the side, free of own pawns and not attacked by enemy pawns" },
    Group { name: "threat by rook on weak", start: THREAT_ROOK_WEAK, len: 2, entries: "a weak enemy pawn, knight or bishop attacked by a rook (weak: attacked, not strongly protected)" },
    Group { name: "threat by queen on weak", start: THREAT_QUEEN_WEAK, len: 1, entries: "a weak enemy pawn or piece other than the queen attacked by a queen" },
    Group { name: "threat by king", start: THREAT_KING, len: 1, entries: "a weak enemy pawn or piece attacked by the king" },
    Group { name: "knight on queen", start: KNIGHT_ON_QUEEN, len: 1, entries: "safe squares a knight reaches from which it would attack the lone enemy queen" },
    Group { name: "slider on queen", start: SLIDER_ON_QUEEN, len: 1, entries: "safe squares attacked twice, a bishop or rook reaching them, from which it would attack the lone enemy queen" },
    Group { name: "restricted", start: RESTRICTED, len: 1, entries: "squares both sides attack that the enemy does not strongly protect" },
    Group { name: "weak queen protection", start: WEAK_QUEEN_PROTECTION, len: 1, entries: "weak enemy pieces and pawns the enemy queen defends" },
    Group { name: "king flank", start: KING_FLANK, len: 2, entries: "squares of the enemy king's flank (four files) in its camp (its first five ranks) attacked, attacked by two kinds of piece" },
    Group { name: "pawnless flank", start: PAWNLESS_FLANK, len: 1, entries: "no pawn of either side on the own king's flank" },
    Group { name: "king pawn distance", start: KING_PAWN_DISTANCE, len: 1, entries: "the own king's distance to the nearest own pawn" },
    Group { name: "rook behind passer", start: ROOK_BEHIND_PASSER, len: 2, entries: "an own rook, an enemy rook behind an own passed pawn on its file" },
    Group { name: "shelter", start: SHELTER, len: 28, entries: "on each of the three files around the own king (its file kept off the edge): the file's distance to the edge 0..3, times 7, plus the rank from the own side of the least advanced own pawn not behind the king (0: none)" },
    Group { name: "storm", start: STORM, len: 7, entries: "on each of those files: the rank from the own side of the enemy pawn nearest the king not behind it (0: none), when no own pawn stands just in front of it" },
    Group { name: "storm blocked", start: STORM_BLOCKED, len: 1, entries: "on each of those files: such an enemy pawn blocked by an own pawn just in front of it" },
    Group { name: "connected", start: CONNECTED, len: 8, entries: "pawns defended by an own pawn or with one beside, by rank from the own side 1..8" },
];

/// Where the evaluation's feature counts go.
pub trait Sink {
    /// Counts feature `index` `n` times, from White's side (negative for Black's features).
    fn add(&mut self, index: usize, n: i32);
}

/// The engine's sink: the weighted sums, by one of the two tables.
struct Sums {
    /// [`WEIGHTS`], or [`CALIBRATED`] (the base entries only) for the base features.
    table: &'static [S],
    mg: i32,
    eg: i32,
}

impl Sink for Sums {
    #[inline(always)]
    fn add(&mut self, index: usize, n: i32) {
        let w = self.table[index];
        self.mg += w.0 * n;
        self.eg += w.1 * n;
    }
}

/// The game phase, 24 (opening) down to 0 (pawns and kings only).
pub fn phase(b: &Board) -> i32 {
    let p = b.pieces(Piece::Knight).len()
        + b.pieces(Piece::Bishop).len()
        + 2 * b.pieces(Piece::Rook).len()
        + 4 * b.pieces(Piece::Queen).len();
    (p as i32).min(24)
}

/// The evaluation of `b` from the side to move's point of view, in centipawns: the base
/// features only (the weights before [`BASE_WEIGHTS`]) by the table the strength levels were
/// calibrated with ([`super::calibrated::CALIBRATED`]).
pub fn evaluate(b: &Board) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if has_popcnt() {
        // SAFETY: the CPU has the popcnt instruction (checked at run time).
        return unsafe { evaluate_popcnt(b, false) }.0;
    }
    evaluate_portable(b, false).0
}

/// The full-strength evaluation: every feature, the [`threats`] too, by the tuned table
/// ([`WEIGHTS`]).
pub fn evaluate_full(b: &Board) -> i32 {
    evaluate_full_scaled(b).0
}

/// [`evaluate_full`] and how much of its value the endgame factor left, out of
/// [`SCALE_NORMAL`]: [`endgame_scale`] (at most `SCALE_NORMAL`) weighted by the game's
/// phase as the endgame part is, so `SCALE_NORMAL` with every piece on the board. The
/// network's correction is scaled by it.
pub fn evaluate_full_scaled(b: &Board) -> (i32, i32) {
    #[cfg(target_arch = "x86_64")]
    if has_popcnt() {
        // SAFETY: the CPU has the popcnt instruction (checked at run time).
        return unsafe { evaluate_popcnt(b, true) };
    }
    evaluate_portable(b, true)
}

/// Whether the CPU counts bits in one instruction. The baseline x86-64 build counts them in
/// software, and the evaluation counts bits everywhere (mobility, king attacks, pawns):
/// measured here, about 210 ns a position without the instruction and 170 with it.
#[cfg(target_arch = "x86_64")]
fn has_popcnt() -> bool {
    use std::sync::OnceLock;
    static POPCNT: OnceLock<bool> = OnceLock::new();
    *POPCNT.get_or_init(|| std::arch::is_x86_feature_detected!("popcnt"))
}

/// [`evaluate`] compiled with the popcnt instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn evaluate_popcnt(b: &Board, full: bool) -> (i32, i32) {
    evaluate_portable(b, full)
}

/// The evaluation and the endgame factor it used ([`SCALE_NORMAL`] for the base one).
#[inline(always)]
fn evaluate_portable(b: &Board, full: bool) -> (i32, i32) {
    // The base evaluation is the strength levels', by the table they were calibrated with.
    let table: &'static [S] = if full { &WEIGHTS } else { &CALIBRATED };
    let mut sums = Sums {
        table,
        mg: 0,
        eg: 0,
    };
    let mut scale = SCALE_NORMAL;
    let eg = if full {
        // The features and threats as `features` and `threats` count them, the pawns' and
        // kings' part from the cache.
        let mut maps = piece_features(b, &mut sums);
        let pawns = pawns_and_kings(b);
        sums.mg += pawns.mg;
        sums.eg += pawns.eg;
        for c in Color::ALL {
            maps[c as usize].passed = pawns.passed[c as usize];
        }
        piece_threats(b, &maps, &mut sums);
        scale = endgame_scale(b, sums.eg);
        sums.eg * scale / SCALE_NORMAL
    } else {
        features(b, &mut sums);
        sums.eg
    };
    let phase = phase(b);
    let mut white = (sums.mg * phase + eg * (24 - phase)) / 24;
    if full {
        white += mop_up(b);
    }
    let kept = (SCALE_NORMAL * phase + scale.min(SCALE_NORMAL) * (24 - phase)) / 24;
    match b.side_to_move() {
        Color::White => (white, kept),
        Color::Black => (-white, kept),
    }
}

/// The full evaluation's sums over the features of the pawns and the kings alone
/// ([`pawn_features`], [`pawn_threat_features`]), and each side's passed pawns, for one
/// placement of the pawns and the kings. `kings`: White's king's square, Black's times 64.
/// The default entry (no pawns, both kings on a1) stands for no position.
#[derive(Clone, Copy, Default)]
struct PawnEntry {
    pawns: [BitBoard; 2],
    kings: u16,
    mg: i32,
    eg: i32,
    passed: [BitBoard; 2],
}

/// Entries in each thread's [`PawnEntry`] cache (a power of two): 8,192 of 48 bytes.
const PAWN_CACHE_SIZE: usize = 1 << 13;

std::thread_local! {
    /// The pawn-and-king sums of recently evaluated positions, one cache per thread (each
    /// search thread evaluates on its own), indexed by a hash of the placement and checked
    /// against the whole of it, so a hit is always right. The pawns and kings change in few
    /// moves, so most positions of a search find their entry here.
    static PAWN_CACHE: std::cell::RefCell<Vec<PawnEntry>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// [`PawnEntry`] for `b`'s pawns and kings, from this thread's cache or counted (then kept).
#[inline(always)]
fn pawns_and_kings(b: &Board) -> PawnEntry {
    let pawns = [
        b.colored_pieces(Color::White, Piece::Pawn),
        b.colored_pieces(Color::Black, Piece::Pawn),
    ];
    let kings = b.king(Color::White) as u16 | (b.king(Color::Black) as u16) << 6;
    let hash = (pawns[0].0 ^ pawns[1].0.rotate_left(32) ^ u64::from(kings))
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let slot = (hash >> (64 - PAWN_CACHE_SIZE.trailing_zeros())) as usize;
    let cached = PAWN_CACHE.with_borrow(|cache| cache.get(slot).copied());
    if let Some(e) = cached
        && e.pawns == pawns
        && e.kings == kings
    {
        return e;
    }
    let mut sums = Sums {
        table: &WEIGHTS,
        mg: 0,
        eg: 0,
    };
    let passed = pawn_features(b, &mut sums);
    pawn_threat_features(b, passed, &mut sums);
    let entry = PawnEntry {
        pawns,
        kings,
        mg: sums.mg,
        eg: sums.eg,
        passed,
    };
    PAWN_CACHE.with_borrow_mut(|cache| {
        if cache.is_empty() {
            cache.resize(PAWN_CACHE_SIZE, PawnEntry::default());
        }
        cache[slot] = entry;
    });
    entry
}

/// A position as the tuner sees it: its phase and its nonzero feature counts (White minus
/// Black), so that the evaluation from White's side is
/// `sum(n * (w.mg * phase + w.eg * (24 - phase))) / 24`.
/// The endgame part is scaled by `eg_scale / SCALE_NORMAL`, the factor of the position's
/// kind of endgame `case` ([`endgame_case`], its strong side taken from the endgame sum by
/// the compiled-in table).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    pub phase: i32,
    pub counts: Vec<(u16, i16)>,
    pub case: EndgameCase,
    pub eg_scale: i32,
}

struct Dense(Vec<i32>);

impl Sink for Dense {
    fn add(&mut self, index: usize, n: i32) {
        self.0[index] += n;
    }
}

/// The features of `b` (the base ones and the [`threats`]), for tuning.
pub fn trace(b: &Board) -> Trace {
    let mut dense = Dense(vec![0; NUM_WEIGHTS]);
    let maps = features(b, &mut dense);
    threats(b, &maps, &mut dense);
    let eg: i32 = dense
        .0
        .iter()
        .zip(WEIGHTS.iter())
        .map(|(&n, w)| n * w.1)
        .sum();
    let case = endgame_case(b, eg);
    Trace {
        case,
        eg_scale: ENDGAME_SCALES.scale(case),
        phase: phase(b),
        counts: dense
            .0
            .iter()
            .enumerate()
            .filter(|&(_, &n)| n != 0)
            .map(|(i, &n)| (i as u16, n as i16))
            .collect(),
    }
}

/// [`endgame_scale`]'s factor for an endgame as the weights say.
pub const SCALE_NORMAL: i32 = 128;

/// The kind of endgame [`endgame_scale`] sees, for the side ahead by the endgame sum (the
/// strong side). Pieces count 3, 3, 5, 9 (knight, bishop, rook, queen); the first case that
/// applies is the position's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndgameCase {
    /// Drawn by the rules of thumb: two knights and no pawn; a bishop and pawns all on one
    /// rook file whose promotion square is not the bishop's colour, the weak king on or next
    /// to that square, the weak side with pawns only.
    Drawn,
    /// Bishops of opposite colours, one each, nothing else but pawns; the strong side's
    /// passed pawns.
    OppositeBishops { passed: i32 },
    /// Bishops of opposite colours and one rook each.
    OppositeBishopsRooks,
    /// Bishops of opposite colours and one knight each.
    OppositeBishopsKnights,
    /// The strong side without pawns and at most a minor piece ahead.
    NoPawnsMinorAhead,
    /// Kings and pawns only; how many pawns the strong side has more (0 or more).
    PawnEnding { ahead: i32 },
    /// One rook each, the strong side at most a pawn up with its pawns on one flank (files
    /// a–d or e–h), the weak king next to one of its own pawns.
    RookEndingOneFlank,
    /// The strong side's lone queen (the only one) against two minor pieces' worth or more.
    LoneQueen,
    /// Anything else: the strong side's pawns, and whether the pawns of both sides stand on
    /// one flank only (or there are none).
    Other { pawns: i32, one_flank: bool },
}

/// [`endgame_scale`]'s factors, out of [`SCALE_NORMAL`], for each [`EndgameCase`]. Fitted to
/// Stockfish's scores of ply's own positions and of Stockfish's self-play positions by
/// `examples/chess_scale_fit.rs` (docs/chess.md, "The thirteenth round").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndgameScales {
    pub drawn: i32,
    /// Opposite bishops alone: `opposite_bishops + opposite_bishops_passed * passed`.
    pub opposite_bishops: i32,
    pub opposite_bishops_passed: i32,
    pub opposite_bishops_rooks: i32,
    pub opposite_bishops_knights: i32,
    pub no_pawns_minor_ahead: i32,
    /// Pawn endings: `pawn_ending + pawn_ending_ahead * ahead` (more than normal: a pawn up
    /// there is worth more than the weights say).
    pub pawn_ending: i32,
    pub pawn_ending_ahead: i32,
    pub rook_ending_one_flank: i32,
    pub lone_queen: i32,
    /// Otherwise: `min(SCALE_NORMAL, other + other_pawn * pawns)`, less `one_flank` when the
    /// pawns stand on one flank only.
    pub other: i32,
    pub other_pawn: i32,
    pub one_flank: i32,
}

/// The engine's factors.
pub const ENDGAME_SCALES: EndgameScales = EndgameScales {
    drawn: 0,
    opposite_bishops: 4,
    opposite_bishops_passed: 18,
    opposite_bishops_rooks: 104,
    opposite_bishops_knights: 100,
    no_pawns_minor_ahead: 0,
    pawn_ending: 120,
    pawn_ending_ahead: 64,
    rook_ending_one_flank: 60,
    lone_queen: 92,
    other: 128,
    other_pawn: 0,
    one_flank: 36,
};

impl EndgameScales {
    /// The factor for an endgame of kind `case`.
    #[inline(always)]
    pub fn scale(&self, case: EndgameCase) -> i32 {
        match case {
            EndgameCase::Drawn => self.drawn,
            EndgameCase::OppositeBishops { passed } => {
                self.opposite_bishops + self.opposite_bishops_passed * passed
            }
            EndgameCase::OppositeBishopsRooks => self.opposite_bishops_rooks,
            EndgameCase::OppositeBishopsKnights => self.opposite_bishops_knights,
            EndgameCase::NoPawnsMinorAhead => self.no_pawns_minor_ahead,
            EndgameCase::PawnEnding { ahead } => self.pawn_ending + self.pawn_ending_ahead * ahead,
            EndgameCase::RookEndingOneFlank => self.rook_ending_one_flank,
            EndgameCase::LoneQueen => self.lone_queen,
            EndgameCase::Other { pawns, one_flank } => {
                SCALE_NORMAL.min(self.other + self.other_pawn * pawns)
                    - if one_flank { self.one_flank } else { 0 }
            }
        }
    }

    /// Each factor by name, for the fitter.
    pub fn fields_mut(&mut self) -> [(&'static str, &mut i32); 13] {
        [
            ("drawn", &mut self.drawn),
            ("opposite_bishops", &mut self.opposite_bishops),
            ("opposite_bishops_passed", &mut self.opposite_bishops_passed),
            ("opposite_bishops_rooks", &mut self.opposite_bishops_rooks),
            (
                "opposite_bishops_knights",
                &mut self.opposite_bishops_knights,
            ),
            ("no_pawns_minor_ahead", &mut self.no_pawns_minor_ahead),
            ("pawn_ending", &mut self.pawn_ending),
            ("pawn_ending_ahead", &mut self.pawn_ending_ahead),
            ("rook_ending_one_flank", &mut self.rook_ending_one_flank),
            ("lone_queen", &mut self.lone_queen),
            ("other", &mut self.other),
            ("other_pawn", &mut self.other_pawn),
            ("one_flank", &mut self.one_flank),
        ]
    }
}

/// How much of the endgame score (White's view, `eg`) the full evaluation keeps, out of
/// [`SCALE_NORMAL`] (more than that in pawn endings), by the kind of endgame
/// ([`endgame_case`]) and [`ENDGAME_SCALES`].
#[inline(always)]
pub fn endgame_scale(b: &Board, eg: i32) -> i32 {
    ENDGAME_SCALES.scale(endgame_case(b, eg))
}

/// The kind of endgame `b` is for the side ahead by `eg` (White's view).
#[inline(always)]
pub fn endgame_case(b: &Board, eg: i32) -> EndgameCase {
    let strong = if eg > 0 { Color::White } else { Color::Black };
    let weak = !strong;
    let count = |c: Color, p: Piece| b.colored_pieces(c, p).len() as i32;
    let pieces = |c: Color| {
        3 * (count(c, Piece::Knight) + count(c, Piece::Bishop))
            + 5 * count(c, Piece::Rook)
            + 9 * count(c, Piece::Queen)
    };
    let (strong_pieces, weak_pieces) = (pieces(strong), pieces(weak));
    let strong_pawns = b.colored_pieces(strong, Piece::Pawn);
    let weak_pawns = b.colored_pieces(weak, Piece::Pawn);
    let (sp, wp) = (strong_pawns.len() as i32, weak_pawns.len() as i32);

    if sp == 0 && strong_pieces == 6 && count(strong, Piece::Knight) == 2 {
        return EndgameCase::Drawn;
    }
    if weak_pieces == 0 && sp > 0 && wrong_rook_pawn(b, strong, strong_pawns) {
        return EndgameCase::Drawn;
    }
    let bishops = b.pieces(Piece::Bishop);
    if count(Color::White, Piece::Bishop) == 1
        && count(Color::Black, Piece::Bishop) == 1
        && (bishops & DARK_SQUARES).len() == 1
        && strong_pieces == weak_pieces
    {
        let one_each = |p: Piece| count(strong, p) == 1 && count(weak, p) == 1;
        match strong_pieces {
            3 => {
                let guarded = forward(front_fill(weak_pawns, weak), weak);
                let passed = strong_pawns & !(guarded | beside(guarded));
                return EndgameCase::OppositeBishops {
                    passed: passed.len() as i32,
                };
            }
            8 if one_each(Piece::Rook) => return EndgameCase::OppositeBishopsRooks,
            6 if one_each(Piece::Knight) => return EndgameCase::OppositeBishopsKnights,
            _ => {}
        }
    }
    if sp == 0 && strong_pieces - weak_pieces <= 3 {
        return EndgameCase::NoPawnsMinorAhead;
    }
    if strong_pieces == 0 && weak_pieces == 0 {
        return EndgameCase::PawnEnding {
            ahead: (sp - wp).max(0),
        };
    }
    let queenside =
        File::A.bitboard() | File::B.bitboard() | File::C.bitboard() | File::D.bitboard();
    let both_flanks =
        |pawns: BitBoard| !(pawns & queenside).is_empty() && !(pawns & !queenside).is_empty();
    if strong_pieces == 5
        && weak_pieces == 5
        && count(strong, Piece::Rook) == 1
        && sp - wp <= 1
        && !both_flanks(strong_pawns)
        && !(get_king_moves(b.king(weak)) & weak_pawns).is_empty()
    {
        return EndgameCase::RookEndingOneFlank;
    }
    if b.pieces(Piece::Queen).len() == 1
        && strong_pieces == 9
        && count(strong, Piece::Queen) == 1
        && weak_pieces >= 6
    {
        return EndgameCase::LoneQueen;
    }
    EndgameCase::Other {
        pawns: sp,
        one_flank: !both_flanks(b.pieces(Piece::Pawn)),
    }
}

/// Whether the strong side's pawns all stand on one rook file whose promotion square its
/// bishops (it has one or more, and no other piece) cannot reach, with the weak king on or
/// next to that square: the weak king cannot be driven out of the corner.
fn wrong_rook_pawn(b: &Board, strong: Color, strong_pawns: BitBoard) -> bool {
    let own = b.colors(strong);
    let bishops = b.colored_pieces(strong, Piece::Bishop);
    if bishops.is_empty() || (own & !bishops & !strong_pawns).len() != 1 {
        return false;
    }
    let last = Rank::Eighth.relative_to(strong);
    [File::A, File::H].into_iter().any(|file| {
        let promotion = Square::new(file, last);
        let promotion_colour = if DARK_SQUARES.has(promotion) {
            DARK_SQUARES
        } else {
            !DARK_SQUARES
        };
        (strong_pawns & !file.bitboard()).is_empty()
            && (bishops & promotion_colour).is_empty()
            && distance(b.king(!strong), promotion) <= 1
    })
}

/// Against a bare king, guidance the table does not give (White's view): the defending
/// king's distance from the centre (and, against a bishop and a knight alone, its nearness to
/// a corner of the bishop's colour, the only corners where that mate can be forced) and the
/// kings' nearness, so that the search drives the king to where it can be mated before the
/// fifty-move rule runs out. Zero unless one side has its king alone and the other a rook, a
/// queen, or two minor pieces other than two knights (or pawns besides). Outside the table
/// and the [`Trace`]: the tuner's quiet positions have no bare king to speak of.
#[inline(always)]
fn mop_up(b: &Board) -> i32 {
    for weak in Color::ALL {
        if b.colors(weak).len() != 1 {
            continue;
        }
        let strong = !weak;
        let minors =
            b.colored_pieces(strong, Piece::Knight) | b.colored_pieces(strong, Piece::Bishop);
        let majors = b.colored_pieces(strong, Piece::Rook) | b.colored_pieces(strong, Piece::Queen);
        let knights = b.colored_pieces(strong, Piece::Knight).len();
        if majors.is_empty() && (minors.len() < 2 || knights == minors.len()) {
            return 0;
        }
        let (king, theirs) = (b.king(strong), b.king(weak));
        let manhattan = |a: Square, c: Square| {
            (a.file() as i32 - c.file() as i32).abs() + (a.rank() as i32 - c.rank() as i32).abs()
        };
        // The defending king's distance from the centre files and ranks (0 to 6).
        let off = |x: i32| (3 - x).max(x - 4);
        let (file, rank) = (theirs.file() as i32, theirs.rank() as i32);
        let mut push = MOP_UP_EDGE * (off(file) + off(rank));
        let bishops = b.colored_pieces(strong, Piece::Bishop);
        if majors.is_empty() && minors.len() == 2 && knights == 1 {
            // Against a bishop and a knight: the distance from the long diagonal of the other
            // colour (7 in the two corners of the bishop's colour, 0 in the other two; a1
            // and h8 are dark).
            let diagonal = if (bishops & DARK_SQUARES).is_empty() {
                (rank - file).abs()
            } else {
                (7 - rank - file).abs()
            };
            push += MOP_UP_CORNER * diagonal;
        }
        let bonus = push + MOP_UP_CLOSE * (14 - manhattan(king, theirs));
        return if strong == Color::White {
            bonus
        } else {
            -bonus
        };
    }
    0
}

/// [`mop_up`]'s weights: a step of the defending king towards the corner, towards the edge,
/// and of the kings towards each other.
const MOP_UP_CORNER: i32 = 80;
const MOP_UP_EDGE: i32 = 40;
const MOP_UP_CLOSE: i32 = 16;

/// The square as White sees it: Black's pieces use the mirrored square.
#[inline(always)]
fn relative(sq: Square, c: Color) -> usize {
    match c {
        Color::White => sq as usize,
        Color::Black => sq.flip_rank() as usize,
    }
}

/// Squares attacked by `c`'s pawns.
#[inline(always)]
fn pawn_attacks(pawns: BitBoard, c: Color) -> BitBoard {
    let bits = pawns.0;
    let not_a = !File::A.bitboard().0;
    let not_h = !File::H.bitboard().0;
    BitBoard(match c {
        Color::White => ((bits & not_a) << 7) | ((bits & not_h) << 9),
        Color::Black => ((bits & not_a) >> 9) | ((bits & not_h) >> 7),
    })
}

/// The ranks strictly in front of `rank` from `c`'s side.
#[inline(always)]
fn ranks_ahead(rank: Rank, c: Color) -> BitBoard {
    let r = rank as u32;
    BitBoard(match c {
        Color::White => (!0u64).checked_shl(8 * (r + 1)).unwrap_or(0),
        Color::Black => (1u64 << (8 * r)) - 1,
    })
}

/// The file of `f` and the files beside it.
#[inline(always)]
fn file_and_adjacent(f: File) -> BitBoard {
    f.bitboard() | f.adjacent()
}

/// Counts every feature of `b` into `sink`. One straight pass per side; no allocation.
/// Inlined so that [`evaluate`]'s popcnt build counts bits with the instruction.
#[inline(always)]
pub fn features(b: &Board, sink: &mut impl Sink) -> [Attacks; 2] {
    let mut maps = piece_features(b, sink);
    let passed = pawn_features(b, sink);
    for c in Color::ALL {
        maps[c as usize].passed = passed[c as usize];
    }
    maps
}

/// [`features`] but for [`pawn_features`]: every base feature that looks at more than the
/// pawns and the kings. The returned maps' `passed` are empty.
#[inline(always)]
fn piece_features(b: &Board, sink: &mut impl Sink) -> [Attacks; 2] {
    let occupied = b.occupied();
    let mut maps = [Attacks::default(), Attacks::default()];
    for c in Color::ALL {
        let sign = if c == Color::White { 1 } else { -1 };
        let own = b.colors(c);
        let their_pawns = b.colored_pieces(!c, Piece::Pawn);
        let their_king_zone = get_king_moves(b.king(!c));
        let area = !own & !pawn_attacks(their_pawns, !c);

        for (i, piece) in [
            Piece::Pawn,
            Piece::Knight,
            Piece::Bishop,
            Piece::Rook,
            Piece::Queen,
        ]
        .into_iter()
        .enumerate()
        {
            let n = b.colored_pieces(c, piece).len() as i32;
            if n != 0 {
                sink.add(MATERIAL + i, sign * n);
            }
        }
        for piece in Piece::ALL {
            for sq in b.colored_pieces(c, piece) {
                sink.add(PST + piece as usize * 64 + relative(sq, c), sign);
            }
        }
        maps[c as usize] = piece_activity(b, c, sign, occupied, area, their_king_zone, sink);
        if b.colored_pieces(c, Piece::Bishop).len() >= 2 {
            sink.add(BISHOP_PAIR, sign);
        }
    }
    sink.add(
        TEMPO,
        if b.side_to_move() == Color::White {
            1
        } else {
            -1
        },
    );
    maps
}

/// The base features of the pawns and the kings alone (pawn structure, the king's pawn
/// shield and open files); returns each side's passed pawns.
#[inline(always)]
fn pawn_features(b: &Board, sink: &mut impl Sink) -> [BitBoard; 2] {
    let mut passed = [BitBoard::EMPTY; 2];
    for c in Color::ALL {
        let sign = if c == Color::White { 1 } else { -1 };
        let own_pawns = b.colored_pieces(c, Piece::Pawn);
        let their_pawns = b.colored_pieces(!c, Piece::Pawn);
        passed[c as usize] = pawn_structure(c, sign, own_pawns, their_pawns, sink);
        king_shelter(b.king(c), c, sign, own_pawns, sink);
    }
    passed
}

/// Mobility, attacks on the enemy king's neighbourhood, and rooks on open files; returns
/// the squares the pieces attack.
#[inline(always)]
fn piece_activity(
    b: &Board,
    c: Color,
    sign: i32,
    occupied: BitBoard,
    area: BitBoard,
    their_king_zone: BitBoard,
    sink: &mut impl Sink,
) -> Attacks {
    let mut attackers = 0;
    let mut maps = Attacks::default();
    for sq in b.colored_pieces(c, Piece::Knight) {
        let a = get_knight_moves(sq);
        maps.minors |= a;
        maps.knights |= a;
        sink.add(MOBILITY_KNIGHT + (a & area).len() as usize, sign);
        attackers += add_king_attack(sink, 0, a & their_king_zone, sign);
    }
    for sq in b.colored_pieces(c, Piece::Bishop) {
        let a = get_bishop_moves(sq, occupied);
        maps.minors |= a;
        maps.bishops |= a;
        sink.add(MOBILITY_BISHOP + (a & area).len() as usize, sign);
        attackers += add_king_attack(sink, 1, a & their_king_zone, sign);
    }
    let pawns = b.pieces(Piece::Pawn);
    let own_pawns = pawns & b.colors(c);
    for sq in b.colored_pieces(c, Piece::Rook) {
        let a = get_rook_moves(sq, occupied);
        maps.rooks |= a;
        sink.add(MOBILITY_ROOK + (a & area).len() as usize, sign);
        attackers += add_king_attack(sink, 2, a & their_king_zone, sign);
        let file = sq.file().bitboard();
        if (file & pawns).is_empty() {
            sink.add(ROOK_OPEN, sign);
        } else if (file & own_pawns).is_empty() {
            sink.add(ROOK_HALF_OPEN, sign);
        }
    }
    for sq in b.colored_pieces(c, Piece::Queen) {
        let a = get_bishop_moves(sq, occupied) | get_rook_moves(sq, occupied);
        maps.queens |= a;
        sink.add(MOBILITY_QUEEN + (a & area).len() as usize, sign);
        attackers += add_king_attack(sink, 3, a & their_king_zone, sign);
    }
    if attackers > 0 {
        sink.add(KING_ATTACKERS + attackers.min(7), sign);
    }
    maps
}

/// Counts a piece's attacks on the enemy king's neighbourhood; 1 if it has any, else 0.
#[inline(always)]
fn add_king_attack(sink: &mut impl Sink, kind: usize, attacked: BitBoard, sign: i32) -> usize {
    if attacked.is_empty() {
        return 0;
    }
    sink.add(KING_ATTACK + kind, sign * attacked.len() as i32);
    1
}

#[inline(always)]
fn pawn_structure(
    c: Color,
    sign: i32,
    own_pawns: BitBoard,
    their_pawns: BitBoard,
    sink: &mut impl Sink,
) -> BitBoard {
    let supported = own_pawns & pawn_attacks(own_pawns, c);
    let counts = [
        (SUPPORTED, supported.len() as i32),
        (PHALANX, (own_pawns & beside(own_pawns)).len() as i32),
    ];
    for (index, n) in counts {
        if n != 0 {
            sink.add(index, sign * n);
        }
    }
    for f in File::ALL {
        let on_file = (own_pawns & f.bitboard()).len() as i32;
        if on_file > 1 {
            sink.add(DOUBLED, sign * (on_file - 1));
        }
        if on_file > 0 && (own_pawns & f.adjacent()).is_empty() {
            sink.add(ISOLATED, sign * on_file);
        }
    }
    // The squares an enemy pawn stands in front of (from `c`'s side), on its file or a file
    // beside: an own pawn on none of them is passed.
    let guarded = forward(front_fill(their_pawns, !c), !c);
    let guarded = guarded | beside(guarded);
    let passed = own_pawns & !guarded;
    for sq in passed {
        let rank = sq.rank().relative_to(c) as usize;
        sink.add(PASSED + rank, sign);
    }
    passed
}

#[inline(always)]
fn king_shelter(king: Square, c: Color, sign: i32, own_pawns: BitBoard, sink: &mut impl Sink) {
    let files = file_and_adjacent(king.file());
    let shield = own_pawns & files;
    let one = king.try_offset(0, if c == Color::White { 1 } else { -1 });
    let two = king.try_offset(0, if c == Color::White { 2 } else { -2 });
    for (i, sq) in [one, two].into_iter().enumerate() {
        if let Some(sq) = sq {
            let n = (shield & sq.rank().bitboard()).len() as i32;
            if n != 0 {
                sink.add(KING_SHIELD + i, sign * n);
            }
        }
    }
    // Bit f of the first rank: an own pawn on file f.
    let pawn_files = (front_fill(own_pawns, Color::Black).0 & Rank::First.bitboard().0) as u8;
    let open = (!pawn_files & (files & Rank::First.bitboard()).0 as u8).count_ones() as i32;
    if open != 0 {
        sink.add(KING_OPEN_FILE, sign * open);
    }
}

/// What [`features`] found for one side that [`threats`] reuses: the squares its knights
/// and bishops (together and apart), rooks, and queens attack (from the mobility terms), and
/// its passed pawns (from the pawn structure).
#[derive(Clone, Copy, Default)]
pub struct Attacks {
    minors: BitBoard,
    knights: BitBoard,
    bishops: BitBoard,
    rooks: BitBoard,
    queens: BitBoard,
    passed: BitBoard,
}

/// The features beyond the base evaluation, counted into `sink` like [`features`]'s: threats
/// (enemy pieces attacked by a pawn, by a knight or bishop, a queen by a rook, and enemy
/// pawns and pieces attacked and not defended), each weighted apart for the side to move,
/// which can take at once, and for the other side; and passed pawns whose square in front
/// is empty (by rank), and the kings' distances to that square (times the pawn's rank less
/// 2, so that they matter as the pawn advances); then, added in the seventh round
/// (docs/chess.md): king safety (safe checks by piece kind, unsafe checks, squares next to
/// the enemy king attacked and not guarded by a pawn or minor or rook, squares there attacked
/// by two kinds of piece, pawn storms), outposts, own pawns on a bishop's colour, pawn-push
/// threats, backward pawns, minors behind a pawn, rooks on the seventh, protected passed
/// pawns and space; in the eighth: threats on weak pieces, squares from which to attack the
/// queen, restricted squares, attacks on the enemy king's flank, a king's flank without
/// pawns, the king's distance to its nearest pawn, rooks behind a passed pawn; in the
/// ninth: the king's pawn shelter and the enemy's pawn storm file by file, connected pawns
/// by rank. [`GROUPS`] says what each weight counts.
#[inline(always)]
pub fn threats(b: &Board, maps: &[Attacks; 2], sink: &mut impl Sink) {
    piece_threats(b, maps, sink);
    pawn_threat_features(b, [maps[0].passed, maps[1].passed], sink);
}

/// [`threats`] but for [`pawn_threat_features`].
#[inline(always)]
fn piece_threats(b: &Board, maps: &[Attacks; 2], sink: &mut impl Sink) {
    let pawns_of = |c: Color| pawn_attacks(b.colored_pieces(c, Piece::Pawn), c);
    let all = |c: Color| {
        let m = &maps[c as usize];
        pawns_of(c) | m.minors | m.rooks | m.queens | get_king_moves(b.king(c))
    };
    let every = [all(Color::White), all(Color::Black)];
    let twice_of = |c: Color| {
        let m = &maps[c as usize];
        attacked_twice([
            pawns_of(c),
            m.knights,
            m.bishops,
            m.rooks,
            m.queens,
            get_king_moves(b.king(c)),
        ])
    };
    let twice = [twice_of(Color::White), twice_of(Color::Black)];
    for c in Color::ALL {
        let side = Side {
            b,
            c,
            sign: if c == Color::White { 1 } else { -1 },
            us: &maps[c as usize],
            them: &maps[!c as usize],
            our_pawn_attacks: pawns_of(c),
            their_pawn_attacks: pawns_of(!c),
            ours_attacked: every[c as usize],
            theirs_attacked: every[!c as usize],
            ours_twice: twice[c as usize],
            theirs_twice: twice[!c as usize],
        };
        side.attacked_pieces(sink);
        side.weak_pieces(sink);
        side.king_attack(sink);
        side.pieces_and_pawns(sink);
        side.passers(sink);
        side.flanks(sink);
    }
}

/// Counts feature `index` `n` times for the side of `sign` (nothing when `n` is 0).
#[inline(always)]
fn add_for(sink: &mut impl Sink, sign: i32, index: usize, n: i32) {
    if n != 0 {
        sink.add(index, sign * n);
    }
}

/// [`threats`]'s features of the pawns and the kings alone, given each side's passed pawns:
/// pawn storms against the enemy king, backward pawns, protected passed pawns, space, a
/// king's flank without pawns, the king's distance to its nearest pawn, the king's pawn
/// shelter and the enemy's storm file by file, connected pawns by rank.
#[inline(always)]
fn pawn_threat_features(b: &Board, passed: [BitBoard; 2], sink: &mut impl Sink) {
    for c in Color::ALL {
        let sign = if c == Color::White { 1 } else { -1 };
        let mut add = |index: usize, n: i32| add_for(sink, sign, index, n);
        let own_pawns = b.colored_pieces(c, Piece::Pawn);
        let their_pawns = b.colored_pieces(!c, Piece::Pawn);
        let our_pawn_attacks = pawn_attacks(own_pawns, c);
        let their_pawn_attacks = pawn_attacks(their_pawns, !c);
        let (king, their_king) = (b.king(c), b.king(!c));
        // Own pawns storming the enemy king: on its file and the files beside, ranks 4 to 6.
        let storm_files = file_and_adjacent(their_king.file());
        for (i, rank) in [Rank::Fourth, Rank::Fifth, Rank::Sixth]
            .into_iter()
            .enumerate()
        {
            let rank = rank.relative_to(c).bitboard();
            add(
                PAWN_STORM + i,
                (own_pawns & storm_files & rank).len() as i32,
            );
        }
        // A pawn with no own pawn beside or behind it on the files beside (none in the
        // files-beside of the own pawns' forward spans), its square in front attacked.
        let supported_from_behind = beside(front_fill(own_pawns, c));
        let backward =
            (own_pawns & !supported_from_behind & backward_of(their_pawn_attacks, c)).len() as i32;
        add(BACKWARD, backward);
        add(
            PASSED_PROTECTED,
            (passed[c as usize] & our_pawn_attacks).len() as i32,
        );
        // Space: files c to f, ranks 2 to 4 from c's side (c2..f4 for White, c5..f7 for
        // Black), the squares free of own pawns and not attacked by enemy pawns.
        let home = if c == Color::White {
            BitBoard(0x0000_0000_3C3C_3C00)
        } else {
            BitBoard(0x003C_3C3C_0000_0000)
        };
        add(
            SPACE,
            (home & !own_pawns & !their_pawn_attacks).len() as i32,
        );
        if (flank(king.file()) & b.pieces(Piece::Pawn)).is_empty() {
            add(PAWNLESS_FLANK, 1);
        }
        let nearest = own_pawns
            .into_iter()
            .map(|sq| distance(king, sq))
            .min()
            .unwrap_or(0);
        add(KING_PAWN_DISTANCE, nearest);
        // The shelter and the storm on the three files around the own king (its file kept
        // off the edge), each by the rank from the own side of the pawn not behind the king
        // nearest it.
        let not_behind = !ranks_ahead(king.rank(), !c);
        let ours = own_pawns & not_behind;
        let theirs = their_pawns & not_behind;
        let centre = (king.file() as usize).clamp(1, 6);
        for f in centre - 1..=centre + 1 {
            let file = File::index(f).bitboard();
            // The pawn nearest the own side: the lowest square for White, the highest for Black.
            let nearest = |pawns: BitBoard| {
                let on_file = (pawns & file).0;
                if on_file == 0 {
                    return 0;
                }
                let sq = match c {
                    Color::White => on_file.trailing_zeros(),
                    Color::Black => 63 - on_file.leading_zeros(),
                };
                Square::index(sq as usize).rank().relative_to(c) as usize
            };
            let (own_rank, their_rank) = (nearest(ours), nearest(theirs));
            let edge = f.min(7 - f);
            add(SHELTER + 7 * edge + own_rank, 1);
            if their_rank != 0 && own_rank + 1 == their_rank {
                add(STORM_BLOCKED, 1);
            } else {
                add(STORM + their_rank, 1);
            }
        }
        let connected = own_pawns & (our_pawn_attacks | beside(own_pawns));
        for sq in connected {
            add(CONNECTED + sq.rank().relative_to(c) as usize, 1);
        }
    }
}

/// One side's view for [`threats`]: `c` the side whose features are counted (with `sign`),
/// its attack maps and the enemy's.
struct Side<'a> {
    b: &'a Board,
    c: Color,
    sign: i32,
    us: &'a Attacks,
    them: &'a Attacks,
    our_pawn_attacks: BitBoard,
    their_pawn_attacks: BitBoard,
    /// Every square `c`'s pieces attack, and every square the enemy's do.
    ours_attacked: BitBoard,
    theirs_attacked: BitBoard,
    /// The squares `c` attacks with two kinds of piece or more, and those the enemy does.
    ours_twice: BitBoard,
    theirs_twice: BitBoard,
}

impl Side<'_> {
    /// Counts feature `index` `n` times for this side (nothing when `n` is 0).
    #[inline(always)]
    fn add(&self, sink: &mut impl Sink, index: usize, n: i32) {
        add_for(sink, self.sign, index, n);
    }

    /// Enemy pieces attacked by a pawn, by a minor, a queen by a rook, and enemy pawns and
    /// pieces attacked and not defended: weighted apart for the side to move (which can take
    /// at once) and for the other side.
    #[inline(always)]
    fn attacked_pieces(&self, sink: &mut impl Sink) {
        let (b, c, us) = (self.b, self.c, self.us);
        // 0 for the side to move's threats, 1 for the other side's.
        let who = (b.side_to_move() != c) as usize;
        let victims = [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen];
        for (i, v) in victims.into_iter().enumerate() {
            let theirs = b.colored_pieces(!c, v);
            let by_pawn = (theirs & self.our_pawn_attacks).len() as i32;
            self.add(sink, THREAT_PAWN + 4 * who + i, by_pawn);
            let by_minor = (theirs & us.minors).len() as i32;
            self.add(sink, THREAT_MINOR + 4 * who + i, by_minor);
        }
        let queens = (b.colored_pieces(!c, Piece::Queen) & us.rooks).len() as i32;
        self.add(sink, THREAT_ROOK + who, queens);
        let undefended = b.colors(!c) & self.ours_attacked & !self.theirs_attacked;
        let pawns = b.pieces(Piece::Pawn);
        let kings = b.pieces(Piece::King);
        self.add(sink, HANGING + 2 * who, (undefended & pawns).len() as i32);
        let pieces = (undefended & !pawns & !kings).len() as i32;
        self.add(sink, HANGING + 2 * who + 1, pieces);
    }

    /// Threats on weak enemy pawns and pieces (attacked by this side and not strongly
    /// protected: not defended by a pawn, nor by two kinds of piece where this side attacks
    /// with fewer), by a rook, a queen and the king; squares from which a knight, or a
    /// bishop or rook backed by a second attacker, would attack a lone enemy queen; squares
    /// both sides attack that the enemy does not strongly protect (restricting its pieces);
    /// weak enemy pawns and pieces their queen defends.
    #[inline(always)]
    fn weak_pieces(&self, sink: &mut impl Sink) {
        let (b, c, us) = (self.b, self.c, self.us);
        let strongly = self.their_pawn_attacks | (self.theirs_twice & !self.ours_twice);
        let theirs = b.colors(!c);
        let weak = theirs & !strongly & self.ours_attacked;
        let pawns = b.colored_pieces(!c, Piece::Pawn);
        let minors = b.colored_pieces(!c, Piece::Knight) | b.colored_pieces(!c, Piece::Bishop);
        let queens = b.colored_pieces(!c, Piece::Queen);
        let kings = b.pieces(Piece::King);
        self.add(
            sink,
            THREAT_ROOK_WEAK,
            (weak & pawns & us.rooks).len() as i32,
        );
        self.add(
            sink,
            THREAT_ROOK_WEAK + 1,
            (weak & minors & us.rooks).len() as i32,
        );
        let by_queen = weak & !queens & !kings & us.queens;
        self.add(sink, THREAT_QUEEN_WEAK, by_queen.len() as i32);
        let by_king = weak & !kings & get_king_moves(b.king(c));
        self.add(sink, THREAT_KING, by_king.len() as i32);
        if queens.len() == 1 {
            let queen = queens.next_square().expect("one queen");
            let occupied = b.occupied();
            let safe = !b.colors(c) & !self.their_pawn_attacks & !strongly;
            let knight = get_knight_moves(queen) & us.knights & safe;
            self.add(sink, KNIGHT_ON_QUEEN, knight.len() as i32);
            let sliders = (get_bishop_moves(queen, occupied) & us.bishops)
                | (get_rook_moves(queen, occupied) & us.rooks);
            let slider = sliders & safe & self.ours_twice;
            self.add(sink, SLIDER_ON_QUEEN, slider.len() as i32);
        }
        let restricted = self.theirs_attacked & !strongly & self.ours_attacked;
        self.add(sink, RESTRICTED, restricted.len() as i32);
        let queen_only = weak & !queens & !kings & self.them.queens;
        self.add(sink, WEAK_QUEEN_PROTECTION, queen_only.len() as i32);
    }

    /// The attack on the enemy king: safe checks by piece kind (squares from which the kind
    /// would check, that a piece of the kind attacks, holding no own piece and attacked by
    /// no enemy piece), unsafe checks, squares next to it attacked and guarded by no pawn,
    /// minor or rook, squares there attacked by two kinds of piece.
    #[inline(always)]
    fn king_attack(&self, sink: &mut impl Sink) {
        let (b, c, us) = (self.b, self.c, self.us);
        let their_king = b.king(!c);
        let zone = get_king_moves(their_king);
        let occupied = b.occupied();
        let safe = !b.colors(c) & !self.theirs_attacked;
        let diagonal = get_bishop_moves(their_king, occupied);
        let straight = get_rook_moves(their_king, occupied);
        let checks = [
            get_knight_moves(their_king) & us.knights,
            diagonal & us.bishops,
            straight & us.rooks,
            (diagonal | straight) & us.queens,
        ];
        let mut unsafe_checks = BitBoard::EMPTY;
        for (i, squares) in checks.into_iter().enumerate() {
            self.add(sink, SAFE_CHECK + i, (squares & safe).len() as i32);
            unsafe_checks |= squares & !b.colors(c) & !safe;
        }
        self.add(sink, UNSAFE_CHECK, unsafe_checks.len() as i32);
        let guarded = self.their_pawn_attacks | self.them.minors | self.them.rooks;
        let weak = (zone & self.ours_attacked & !guarded).len() as i32;
        self.add(sink, KING_ZONE_WEAK, weak);
        let twice = attacked_twice([
            self.our_pawn_attacks,
            us.knights,
            us.bishops,
            us.rooks,
            us.queens,
        ]);
        self.add(sink, KING_ZONE_DOUBLE, (zone & twice).len() as i32);
    }

    /// Outposts, own pawns on a bishop's colour, pawn-push threats, minors behind a pawn,
    /// rooks on the seventh.
    #[inline(always)]
    fn pieces_and_pawns(&self, sink: &mut impl Sink) {
        let (b, c) = (self.b, self.c);
        let own_pawns = b.colored_pieces(c, Piece::Pawn);
        let their_pawns = b.colored_pieces(!c, Piece::Pawn);
        // Outposts: ranks 4 to 6, defended by a pawn, no enemy pawn on the files beside
        // ahead of it.
        for (i, piece) in [Piece::Knight, Piece::Bishop].into_iter().enumerate() {
            for sq in b.colored_pieces(c, piece) & self.our_pawn_attacks {
                let rank = sq.rank().relative_to(c) as usize;
                if (3..=5).contains(&rank)
                    && (ranks_ahead(sq.rank(), c) & sq.file().adjacent() & their_pawns).is_empty()
                {
                    self.add(sink, OUTPOST + i, 1);
                }
            }
        }
        for sq in b.colored_pieces(c, Piece::Bishop) {
            let colour = if DARK_SQUARES.has(sq) {
                DARK_SQUARES
            } else {
                !DARK_SQUARES
            };
            self.add(sink, BISHOP_PAWNS, (own_pawns & colour).len() as i32);
        }
        // Pawn pushes by one square to a square no enemy pawn attacks and the enemy does not
        // attack unless an own piece defends it, and the enemy pieces the pawn attacks there.
        let pushed = forward(own_pawns, c) & !b.occupied();
        let safe_push =
            pushed & !self.their_pawn_attacks & (self.ours_attacked | !self.theirs_attacked);
        let targets = b.colors(!c) & !b.pieces(Piece::Pawn) & !b.pieces(Piece::King);
        let push_threats = (pawn_attacks(safe_push, c) & targets).len() as i32;
        self.add(sink, PUSH_THREAT, push_threats);
        let minors = b.colored_pieces(c, Piece::Knight) | b.colored_pieces(c, Piece::Bishop);
        let behind_pawn = (minors & backward_of(b.pieces(Piece::Pawn), c)).len() as i32;
        self.add(sink, MINOR_BEHIND_PAWN, behind_pawn);
        let seventh = Rank::Seventh.relative_to(c).bitboard();
        let eighth = Rank::Eighth.relative_to(c);
        if b.king(!c).rank() == eighth || !(their_pawns & seventh).is_empty() {
            let rooks = (b.colored_pieces(c, Piece::Rook) & seventh).len() as i32;
            self.add(sink, ROOK_SEVENTH, rooks);
        }
    }

    /// The enemy king's flank (files a-d for a king on a-c, c-f on d-e, e-h on f-h) in its
    /// camp (ranks 1 to 5 from its side): squares attacked, and attacked by two kinds of
    /// piece.
    #[inline(always)]
    fn flanks(&self, sink: &mut impl Sink) {
        let (b, c) = (self.b, self.c);
        let their_king = b.king(!c);
        let camp = match !c {
            Color::White => BitBoard(0x0000_00FF_FFFF_FFFF),
            Color::Black => BitBoard(0xFFFF_FFFF_FF00_0000),
        };
        let zone = flank(their_king.file()) & camp;
        self.add(sink, KING_FLANK, (zone & self.ours_attacked).len() as i32);
        self.add(sink, KING_FLANK + 1, (zone & self.ours_twice).len() as i32);
    }

    /// Passed pawns whose square in front is empty (by rank), and the kings' distances to
    /// that square (times the pawn's rank less 2, so that they matter as the pawn advances).
    #[inline(always)]
    fn passers(&self, sink: &mut impl Sink) {
        let (b, c) = (self.b, self.c);
        for sq in self.us.passed {
            let rank = sq.rank().relative_to(c) as usize;
            let Some(stop) = sq.try_offset(0, if c == Color::White { 1 } else { -1 }) else {
                continue;
            };
            if !b.occupied().has(stop) {
                sink.add(PASSED_FREE + rank, self.sign);
            }
            // Rooks behind the pawn on its file, the squares between them empty.
            let behind = get_rook_moves(sq, b.occupied())
                & sq.file().bitboard()
                & !ranks_ahead(sq.rank(), c);
            let rooks = behind & b.pieces(Piece::Rook);
            self.add(sink, ROOK_BEHIND_PASSER, (rooks & b.colors(c)).len() as i32);
            self.add(
                sink,
                ROOK_BEHIND_PASSER + 1,
                (rooks & b.colors(!c)).len() as i32,
            );
            let weight = rank as i32 - 2;
            if weight > 0 {
                let own = distance(b.king(c), stop) * weight;
                let enemy = distance(b.king(!c), stop) * weight;
                sink.add(PASSED_KING, self.sign * own);
                sink.add(PASSED_KING + 1, self.sign * enemy);
            }
        }
    }
}

/// The squares one step ahead of `squares` from `c`'s side.
#[inline(always)]
fn forward(squares: BitBoard, c: Color) -> BitBoard {
    BitBoard(match c {
        Color::White => squares.0 << 8,
        Color::Black => squares.0 >> 8,
    })
}

/// The squares one file beside `squares`, either way.
#[inline(always)]
fn beside(squares: BitBoard) -> BitBoard {
    let bits = squares.0;
    BitBoard(((bits & !File::A.bitboard().0) >> 1) | ((bits & !File::H.bitboard().0) << 1))
}

/// `squares` and every square in front of them on their files, from `c`'s side.
#[inline(always)]
fn front_fill(squares: BitBoard, c: Color) -> BitBoard {
    let mut x = squares.0;
    match c {
        Color::White => {
            x |= x << 8;
            x |= x << 16;
            x |= x << 32;
        }
        Color::Black => {
            x |= x >> 8;
            x |= x >> 16;
            x |= x >> 32;
        }
    }
    BitBoard(x)
}

/// The squares one step behind `squares` from `c`'s side.
#[inline(always)]
fn backward_of(squares: BitBoard, c: Color) -> BitBoard {
    forward(squares, !c)
}

/// The squares in two or more of `kinds` (the attacks of each kind of piece: two pieces of
/// one kind on a square count once).
#[inline(always)]
fn attacked_twice<const N: usize>(kinds: [BitBoard; N]) -> BitBoard {
    let (mut once, mut twice) = (BitBoard::EMPTY, BitBoard::EMPTY);
    for a in kinds {
        twice |= once & a;
        once |= a;
    }
    twice
}

/// The four files of a king's flank: a-d for a king on files a-c, c-f on d-e, e-h on f-h.
#[inline(always)]
fn flank(f: File) -> BitBoard {
    let files = match f as usize {
        0..=2 => 0x0F,
        3..=4 => 0x3C,
        _ => 0xF0,
    };
    BitBoard(0x0101_0101_0101_0101 * files)
}

/// The dark squares (a1, c1, .., h8).
const DARK_SQUARES: BitBoard = BitBoard(0xAA55_AA55_AA55_AA55);

/// King moves from `a` to `b` on an empty board.
#[inline(always)]
fn distance(a: Square, b: Square) -> i32 {
    let files = (a.file() as i32 - b.file() as i32).abs();
    let ranks = (a.rank() as i32 - b.rank() as i32).abs();
    files.max(ranks)
}

/// The weight table as Rust source for `weights.rs`: one commented block per group, eight
/// weights a line (a rank of a piece-square table).
pub fn table_source(weights: &[S], header: &str) -> String {
    assert_eq!(weights.len(), NUM_WEIGHTS);
    let mut s = String::new();
    s.push_str(header);
    s.push_str("use super::eval::{NUM_WEIGHTS, S};\n\n");
    s.push_str("#[rustfmt::skip]\npub static WEIGHTS: [S; NUM_WEIGHTS] = [\n");
    for g in GROUPS {
        s.push_str(&format!("    // {}: {}\n", g.name, g.entries));
        for chunk in weights[g.start..g.start + g.len].chunks(8) {
            let line: Vec<String> = chunk
                .iter()
                .map(|w| format!("S({}, {})", w.0, w.1))
                .collect();
            s.push_str(&format!("    {},\n", line.join(", ")));
        }
    }
    s.push_str("];\n");
    s
}
