//! Chess and Chess960, with the rules of the cozy-chess crate (legal move generation, FEN,
//! Zobrist keys); notation, draw rules, move order and evaluation are ours.
//!
//! - **Players:** White is p1 (`Player::First`), Black p2.
//! - **Parameters:** `chess960=true` plays Fischer random chess: castling is written
//!   king-takes-rook and FENs may name castling rooks by file. `start=<n>` picks the start
//!   position by its Scharnagl number 0..959 (518 is the standard array, the default; any
//!   other needs `chess960=true`).
//! - **Moves:** UCI long algebraic notation ([`notation`]): `e2e4`, `e7e8q`; castling is the
//!   king's two-square step `e1g1` in standard chess (king-takes-rook `e1h1` is accepted
//!   too), king-takes-rook in Chess960.
//! - **Positions:** FEN, with X-FEN and Shredder-FEN castling fields ([`fen`]).
//! - **Game end:** checkmate wins; stalemate, a dead position (insufficient material: see
//!   [`Chess::insufficient_material`]) and the fifty-move rule (100 plies without a capture or
//!   pawn move, unless the last of them mates) draw. Threefold repetition needs the game's
//!   history, which a position does not hold: [`Chess::key`] and [`Chess::is_irreversible`]
//!   are what a caller keeping that history needs.
//!
//! Representation: a [`cozy_chess::Board`] (bitboards, castling rights, en passant file,
//! clocks, incremental Zobrist hash; 112 bytes, cloned for copy-make) and the rules
//! (`chess960`, `start`). cozy-chess encodes castling as the king capturing its own rook in
//! every mode; only the notation differs.

pub mod calibrated;
pub mod eval;
pub mod fen;
pub mod nnue;
pub mod notation;
pub mod pgn;
pub mod san;
pub mod wdl;
pub mod weights;

use cozy_chess::{BitBoard, Board, Color, File, Move, Piece, PieceMoves, Rank, Square};

use crate::game::{
    FenError, Game, MoveError, Outcome, ParamError, ParamSpec, Params, Player, SearchHints,
};
use crate::setting::Kind;

/// The Scharnagl number of the standard start position.
pub const STANDARD_START: u32 = 518;

/// One chess position with the rules it is played under.
#[derive(Clone, PartialEq, Eq)]
pub struct Chess {
    board: Board,
    chess960: bool,
    /// Scharnagl number of the game's start position (a rule: `position startpos` uses it).
    start: u16,
}

impl std::fmt::Debug for Chess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Chess({})", self.fen())
    }
}

impl Default for Chess {
    fn default() -> Self {
        Chess {
            board: Board::startpos(),
            chess960: false,
            start: STANDARD_START as u16,
        }
    }
}

/// Values for capture ordering (most valuable victim first, least valuable attacker first),
/// indexed by [`Piece`]: pawn, knight, bishop, rook, queen, king.
const ORDER_VALUE: [i32; 6] = [1, 3, 3, 5, 9, 100];

/// Promotion pieces in the order they are tried: queen first, the under-promotions after.
const PROMOTIONS: [Piece; 4] = [Piece::Queen, Piece::Knight, Piece::Rook, Piece::Bishop];

impl Chess {
    /// The cozy-chess board (for evaluation, tools and tests).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// True in Fischer random chess (`chess960=true`).
    pub fn chess960(&self) -> bool {
        self.chess960
    }

    /// Builds a position from a cozy-chess board under these rules. The caller answers for
    /// the board suiting them (standard castling rights in standard chess).
    pub fn with_board(&self, board: Board) -> Chess {
        Chess {
            board,
            chess960: self.chess960,
            start: self.start,
        }
    }

    /// True when the side to move is in check.
    pub fn in_check(&self) -> bool {
        !self.board.checkers().is_empty()
    }

    /// Plies since the last capture or pawn move (the fifty-move rule's counter, at most 100).
    pub fn halfmove_clock(&self) -> u32 {
        self.board.halfmove_clock() as u32
    }

    /// True when `mv` (legal here) captures or moves a pawn: no position before it can occur
    /// again after it, so a repetition search may stop there. Castling and moves that lose a
    /// castling right also make earlier positions unreachable, but their keys differ anyway
    /// (castling rights are part of [`Game::key`]).
    pub fn is_irreversible(&self, mv: Move) -> bool {
        self.board.pieces(Piece::Pawn).has(mv.from) || self.is_capture(mv)
    }

    /// True when `mv` (legal here) takes a piece, en passant included. Castling, which
    /// cozy-chess writes as the king taking its own rook, is not a capture.
    pub fn is_capture(&self, mv: Move) -> bool {
        let them = self.board.colors(!self.board.side_to_move());
        them.has(mv.to) || self.is_en_passant(mv)
    }

    /// True when `mv` (legal here) is an en passant capture.
    pub fn is_en_passant(&self, mv: Move) -> bool {
        self.board.pieces(Piece::Pawn).has(mv.from)
            && mv.from.file() != mv.to.file()
            && self.board.piece_on(mv.to).is_none()
    }

    /// True when `mv` (legal here) changes the material: a capture or a promotion. These are
    /// the moves a quiescence search looks at.
    pub fn is_noisy(&self, mv: Move) -> bool {
        mv.promotion.is_some() || self.is_capture(mv)
    }

    /// A move-ordering score for a noisy move: most valuable victim first, then least
    /// valuable attacker, promotions by the piece gained; 0 for a quiet move.
    pub fn mvv_lva(&self, mv: Move) -> i32 {
        let victim = if self.is_en_passant(mv) {
            Some(Piece::Pawn)
        } else if self.is_capture(mv) {
            self.board.piece_on(mv.to)
        } else {
            None
        };
        let promotion = mv.promotion.map_or(0, |p| 10 * ORDER_VALUE[p as usize]);
        let capture = victim.map_or(0, |v| {
            let attacker = self.board.piece_on(mv.from).unwrap_or(Piece::Pawn);
            100 * ORDER_VALUE[v as usize] - ORDER_VALUE[attacker as usize]
        });
        capture + promotion
    }

    /// True when the side to move has a piece other than pawns and its king: with only pawns
    /// left, zugzwang is common and a null-move search would misjudge the position.
    pub fn has_non_pawn_material(&self) -> bool {
        let b = &self.board;
        let own = b.colors(b.side_to_move());
        !(own & !(b.pieces(Piece::Pawn) | b.pieces(Piece::King))).is_empty()
    }

    /// True when neither side can ever checkmate, whatever is played: no pawns, rooks or
    /// queens, and either at most one knight or bishop on the board, or only bishops, all on
    /// squares of one colour. (King and knight against king and knight is not dead: a mate
    /// exists if the loser helps. This is python-chess's `is_insufficient_material`.)
    pub fn insufficient_material(&self) -> bool {
        let b = &self.board;
        let heavy = b.pieces(Piece::Pawn) | b.pieces(Piece::Rook) | b.pieces(Piece::Queen);
        if !heavy.is_empty() {
            return false;
        }
        let knights = b.pieces(Piece::Knight);
        let bishops = b.pieces(Piece::Bishop);
        if (knights | bishops).len() <= 1 {
            return true;
        }
        knights.is_empty()
            && (bishops.is_subset(BitBoard::DARK_SQUARES)
                || bishops.is_subset(BitBoard::LIGHT_SQUARES))
    }

    /// How the game is over, if it is (protocol.md, chess, "Game end"; repetition is the
    /// line's rule): `outcome` and `ending` both read it. No legal move first, so a mate
    /// on the hundredth ply still wins.
    fn end(&self) -> Option<End> {
        let b = &self.board;
        if !b.generate_moves(|_| true) {
            Some(if b.checkers().is_empty() {
                End::Stalemate
            } else {
                End::Checkmate
            })
        } else {
            self.rule_draw()
        }
    }

    /// The draw by a rule other than stalemate, if any: the fifty-move rule or a dead
    /// position. (Checkmate on the hundredth ply still wins; [`Chess::end`] checks it first.)
    fn rule_draw(&self) -> Option<End> {
        if self.board.halfmove_clock() >= 100 {
            Some(End::FiftyMoves)
        } else if self.insufficient_material() {
            Some(End::DeadPosition)
        } else {
            None
        }
    }

    /// True when [`Chess::rule_draw`] draws the game.
    fn drawn_by_rule(&self) -> bool {
        self.rule_draw().is_some()
    }

    /// The en passant capture square, when an en passant capture is legal here. cozy-chess
    /// records the file after every double step; a FIDE position only differs when the
    /// capture is possible, so the key and repetition checks use this.
    fn live_en_passant(&self) -> Option<Square> {
        let b = &self.board;
        let file = b.en_passant()?;
        let us = b.side_to_move();
        let target = Square::new(file, Rank::Sixth.relative_to(us));
        let attackers =
            cozy_chess::get_pawn_attacks(target, !us) & b.colored_pieces(us, Piece::Pawn);
        attackers
            .into_iter()
            .any(|from| {
                b.is_legal(Move {
                    from,
                    to: target,
                    promotion: None,
                })
            })
            .then_some(target)
    }

    /// Appends the legal moves in the static order: captures by most valuable victim, then
    /// least valuable attacker; then quiet promotions; then the quiet moves in generation
    /// order (pawns, knights, bishops, rooks, queens, king; castling with the king).
    ///
    /// cozy-chess hands out moves grouped by piece ([`PieceMoves`], at most 18 groups, already
    /// in attacker order); the groups are split by destination masks, so ordering costs a few
    /// bitboard operations per group and no sort.
    fn generate_ordered(&self, out: &mut Vec<Move>) {
        let b = &self.board;
        let mut groups = [PieceMoves {
            piece: Piece::Pawn,
            from: Square::A1,
            to: BitBoard::EMPTY,
        }; 18];
        let mut n = 0;
        b.generate_moves(|pm| {
            groups[n] = pm;
            n += 1;
            false
        });
        let groups = &groups[..n];
        let us = b.side_to_move();
        let them = b.colors(!us);
        let ep = b.en_passant().map_or(BitBoard::EMPTY, |f| {
            Square::new(f, Rank::Sixth.relative_to(us)).bitboard()
        });
        for victim in [Piece::Queen, Piece::Rook, Piece::Bishop, Piece::Knight] {
            let targets = them & b.pieces(victim);
            if !targets.is_empty() {
                for g in groups {
                    push_group(out, g.piece, g.from, g.to & targets);
                }
            }
        }
        let pawn_targets = (them & b.pieces(Piece::Pawn)) | ep;
        for g in groups {
            let t = if g.piece == Piece::Pawn {
                pawn_targets
            } else {
                them & b.pieces(Piece::Pawn)
            };
            push_group(out, g.piece, g.from, g.to & t);
        }
        // The en passant square is a capture for pawns only; other pieces may step onto it.
        let last_rank = Rank::Eighth.relative_to(us).bitboard();
        let pawn_quiet = !(them | ep);
        for g in groups.iter().filter(|g| g.piece == Piece::Pawn) {
            push_group(out, g.piece, g.from, g.to & pawn_quiet & last_rank);
        }
        for g in groups {
            let t = if g.piece == Piece::Pawn {
                pawn_quiet & !last_rank
            } else {
                !them
            };
            push_group(out, g.piece, g.from, g.to & t);
        }
    }

    /// The static exchange evaluation of `mv` (legal here) in centipawns: the material the
    /// side to move wins when both sides keep recapturing on the destination square with
    /// their least valuable piece, each free to stop (pins are ignored). Negative when the
    /// move loses material.
    pub fn see(&self, mv: Move) -> i32 {
        let b = &self.board;
        let to = mv.to;
        let mut occupied = b.occupied() ^ mv.from.bitboard();
        let mut gain = [0i32; 32];
        gain[0] = if self.is_en_passant(mv) {
            let captured = Square::new(to.file(), mv.from.rank());
            occupied ^= captured.bitboard();
            SEE_VALUE[Piece::Pawn as usize]
        } else if self.is_capture(mv) {
            b.piece_on(to).map_or(0, |p| SEE_VALUE[p as usize])
        } else {
            0
        };
        let mover = b.piece_on(mv.from).unwrap_or(Piece::Pawn);
        let mut on_square = match mv.promotion {
            Some(p) => {
                gain[0] += SEE_VALUE[p as usize] - SEE_VALUE[Piece::Pawn as usize];
                SEE_VALUE[p as usize]
            }
            None => SEE_VALUE[mover as usize],
        };
        let mut side = !b.side_to_move();
        let mut d = 0;
        while d + 1 < gain.len() {
            let attackers = attackers_to(b, to, occupied) & occupied & b.colors(side);
            let Some((piece, from)) = least_valuable(b, attackers) else {
                break;
            };
            d += 1;
            gain[d] = on_square - gain[d - 1];
            if (-gain[d - 1]).max(gain[d]) < 0 {
                break;
            }
            occupied ^= from.bitboard();
            on_square = SEE_VALUE[piece as usize];
            side = !side;
        }
        while d > 0 {
            gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
            d -= 1;
        }
        gain[0]
    }

    /// True when `mv` is a capture (not a promotion) of a piece worth at least the capturer
    /// ([`SEE_VALUE`]): then its static exchange value is at least 0 (the opponent gains at
    /// most the capturer back, as the capturing side may stop recapturing), so
    /// [`Chess::see`] need not run to tell that it does not lose material.
    fn wins_at_least_its_attacker(&self, mv: Move) -> bool {
        let b = &self.board;
        if mv.promotion.is_some() {
            return false;
        }
        match (b.piece_on(mv.to), b.piece_on(mv.from)) {
            (Some(victim), Some(attacker)) => {
                b.color_on(mv.to) != Some(b.side_to_move())
                    && SEE_VALUE[victim as usize] >= SEE_VALUE[attacker as usize]
            }
            _ => false,
        }
    }

    /// Appends the legal captures and promotions (the quiescence search's moves).
    fn generate_noisy(&self, out: &mut Vec<Move>) {
        let b = &self.board;
        let us = b.side_to_move();
        let them = b.colors(!us);
        let ep = b.en_passant().map_or(BitBoard::EMPTY, |f| {
            Square::new(f, Rank::Sixth.relative_to(us)).bitboard()
        });
        let last_rank = Rank::Eighth.relative_to(us).bitboard();
        b.generate_moves(|pm| {
            let targets = if pm.piece == Piece::Pawn {
                them | ep | last_rank
            } else {
                them
            };
            push_group(out, pm.piece, pm.from, pm.to & targets);
            false
        });
    }

    /// The square the king lands on when `mv` is castling (king takes own rook), else `None`.
    pub fn castling_king_destination(&self, mv: Move) -> Option<Square> {
        let b = &self.board;
        let us = b.side_to_move();
        if mv.from != b.king(us) || !b.colored_pieces(us, Piece::Rook).has(mv.to) {
            return None;
        }
        let file = if mv.to.file() > mv.from.file() {
            File::G
        } else {
            File::C
        };
        Some(Square::new(file, mv.from.rank()))
    }
}

/// Piece values for the static exchange evaluation, indexed by [`Piece`].
const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

/// Every piece of either colour attacking `sq` through the pieces of `occupied`.
fn attackers_to(b: &Board, sq: Square, occupied: BitBoard) -> BitBoard {
    let diagonal = b.pieces(Piece::Bishop) | b.pieces(Piece::Queen);
    let straight = b.pieces(Piece::Rook) | b.pieces(Piece::Queen);
    (cozy_chess::get_pawn_attacks(sq, Color::White) & b.colored_pieces(Color::Black, Piece::Pawn))
        | (cozy_chess::get_pawn_attacks(sq, Color::Black)
            & b.colored_pieces(Color::White, Piece::Pawn))
        | (cozy_chess::get_knight_moves(sq) & b.pieces(Piece::Knight))
        | (cozy_chess::get_king_moves(sq) & b.pieces(Piece::King))
        | (cozy_chess::get_bishop_moves(sq, occupied) & diagonal)
        | (cozy_chess::get_rook_moves(sq, occupied) & straight)
}

/// The least valuable piece among `attackers`, with its square.
fn least_valuable(b: &Board, attackers: BitBoard) -> Option<(Piece, Square)> {
    Piece::ALL.into_iter().find_map(|p| {
        (attackers & b.pieces(p))
            .into_iter()
            .next()
            .map(|sq| (p, sq))
    })
}

/// Appends the moves of one piece from `from` to each square of `to`; a pawn reaching the
/// last rank promotes to each of [`PROMOTIONS`].
#[inline]
fn push_group(out: &mut Vec<Move>, piece: Piece, from: Square, to: BitBoard) {
    const BACK_RANKS: BitBoard = BitBoard(Rank::First.bitboard().0 | Rank::Eighth.bitboard().0);
    for sq in to {
        if piece == Piece::Pawn && BACK_RANKS.has(sq) {
            out.extend(PROMOTIONS.iter().map(|&p| Move {
                from,
                to: sq,
                promotion: Some(p),
            }));
        } else {
            out.push(Move {
                from,
                to: sq,
                promotion: None,
            });
        }
    }
}

/// The ways a position of chess ends the game ([`Chess::end`]).
#[derive(Clone, Copy)]
enum End {
    Checkmate,
    Stalemate,
    FiftyMoves,
    DeadPosition,
}

fn player(c: Color) -> Player {
    match c {
        Color::White => Player::First,
        Color::Black => Player::Second,
    }
}

impl Game for Chess {
    type Move = Move;
    const NAME: &'static str = "chess";
    const PARAMS: &'static [ParamSpec] = &[
        ParamSpec {
            key: "chess960",
            kind: Kind::Check { default: false },
            label: "Chess960",
            help: "Fischer random chess: castling is written king-takes-rook.",
        },
        ParamSpec {
            key: "start",
            kind: Kind::Spin {
                default: STANDARD_START as i64,
                min: 0,
                max: 959,
            },
            label: "Start position",
            help: "The start position by its Scharnagl number; other than 518 (the standard array) needs chess960.",
        },
    ];
    /// From square × to square (the promotion piece shares its move's id).
    const MOVE_IDS: usize = 64 * 64;

    fn new(params: &Params) -> Result<Self, ParamError> {
        let p = params.resolve(Self::NAME, Self::PARAMS)?;
        let (chess960, start) = (p.check("chess960"), p.spin_u32("start"));
        if !chess960 && start != STANDARD_START {
            return Err(ParamError(format!(
                "parameter start={start}: a start other than {STANDARD_START} (the standard array) needs chess960=true"
            )));
        }
        Ok(Chess {
            board: Board::chess960_startpos(start),
            chess960,
            start: start as u16,
        })
    }

    fn params(&self) -> Params {
        Params(vec![
            ("chess960".into(), self.chess960.to_string()),
            ("start".into(), self.start.to_string()),
        ])
    }

    fn side_to_move(&self) -> Player {
        player(self.board.side_to_move())
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        if !self.drawn_by_rule() {
            self.generate_ordered(out);
        }
    }

    /// Every move the pieces can make, even in a dead position or past the fifty-move rule.
    fn perft_moves(&self, out: &mut Vec<Move>) {
        self.generate_ordered(out);
    }

    fn perft_move_count(&self, _scratch: &mut Vec<Move>) -> usize {
        let mut n = 0;
        self.board.generate_moves(|pm| {
            n += pm.len();
            false
        });
        n
    }

    fn play(&mut self, mv: Move) {
        self.board.play_unchecked(mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.end().map(|end| match end {
            End::Checkmate => Outcome::Win(player(!self.board.side_to_move())),
            End::Stalemate | End::FiftyMoves | End::DeadPosition => Outcome::Draw,
        })
    }

    fn ending(&self) -> Option<&'static str> {
        self.end().map(|end| match end {
            End::Checkmate => "checkmate",
            End::Stalemate => "stalemate",
            End::FiftyMoves => "the fifty-move rule",
            End::DeadPosition => "a dead position",
        })
    }

    /// cozy-chess's Zobrist hash (pieces, side to move, castling rights), with the en passant
    /// file only when an en passant capture is legal: equal keys for positions that are the
    /// same under FIDE's repetition rule. The clocks are not part of it.
    fn key(&self) -> u64 {
        if self.board.en_passant().is_some() && self.live_en_passant().is_none() {
            self.board.hash_without_ep()
        } else {
            self.board.hash()
        }
    }

    /// The logistic model of `scripts/tuning/chess_wdl_fit.py`, fitted to ply's games against
    /// Stockfish 15.1 at `UCI_Elo` 2000 (10+0.1; docs/chess.md): a win is as likely as not at
    /// [`wdl::A`] centipawns, and the chances turn over [`wdl::B`].
    fn wdl_of_cp(cp: i32) -> Option<[u32; 3]> {
        Some(wdl::of_cp(cp))
    }

    fn evaluate(&self) -> i32 {
        eval::evaluate(&self.board)
    }

    /// White's and Black's pawns, mixed.
    fn structure_key(&self) -> u64 {
        let pawns = self.board.pieces(Piece::Pawn);
        let white = (pawns & self.board.colors(Color::White)).0;
        let black = (pawns & self.board.colors(Color::Black)).0;
        (white.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F))
            .rotate_left(29)
            .wrapping_mul(0x1656_67B1_9E37_79F9)
    }

    fn evaluate_full(&self) -> i32 {
        eval::evaluate_full(&self.board)
    }

    /// The weighted evaluation plus the network's correction of it (`nnue.rs`), the
    /// correction scaled down as the weighted evaluation's endgame part is in drawish
    /// endgames ([`eval::evaluate_full_scaled`]: by the endgame factor as the phase weighs
    /// it, never up): the network, trained on ply's own scores, saw a lone bishop or knight,
    /// or a rook's pawn with the wrong bishop, as winning by one to two and a half pawns.
    /// The sum then shrinks towards a draw as the fifty-move clock runs:
    /// by `(200 - c) / 200` at `c` plies since the last capture or pawn move, so half of it is
    /// left when the rule is due; a position the side ahead cannot make progress in looks as
    /// drawn as it is, and a move that resets the clock is worth more to that side
    /// (docs/chess.md, "The twenty-seventh round").
    fn evaluate_net(&self) -> i32 {
        let (full, scale) = eval::evaluate_full_scaled(&self.board);
        let correction = nnue::evaluate(&self.board) * scale / eval::SCALE_NORMAL;
        (full + correction) * (200 - self.halfmove_clock().min(100) as i32) / 200
    }

    const SEARCH: SearchHints = SearchHints::ALL;
    /// Found by SPSA at 25,000 nodes a move and measured by SPRT against the values before
    /// them (docs/chess.md, "The tenth round" and "The eleventh round";
    /// `scripts/tuning/chess_spsa.py`).
    const SEARCH_PARAMS: &'static str = "aspiration_delta=16,futility_base=75,\
        futility_margin=86,lmp_base=5,lmr_base=103,lmr_divisor=209,prune_depth=7,\
        razor_margin=256,rfp_margin=71,see_noisy=103,see_quiet=57";
    const REPETITION_DRAW: Option<u32> = Some(3);

    fn is_irreversible(&self, mv: Move) -> bool {
        Chess::is_irreversible(self, mv)
    }

    fn noisy_moves(&self, out: &mut Vec<Move>) {
        if !self.drawn_by_rule() {
            self.generate_noisy(out);
        }
    }

    /// Most valuable victim, least valuable attacker for captures that do not lose
    /// material by static exchange (and for promotions); the exchange's loss for the rest.
    fn noisy_score(&self, mv: Move) -> Option<i32> {
        if !self.is_noisy(mv) {
            return None;
        }
        if self.wins_at_least_its_attacker(mv) {
            return Some(1 + self.mvv_lva(mv));
        }
        let see = self.see(mv);
        Some(if see >= 0 { 1 + self.mvv_lva(mv) } else { see })
    }

    fn in_check(&self) -> bool {
        Chess::in_check(self)
    }

    /// Passing is refused in check and with only pawns (zugzwang is common there).
    fn null_move(&self) -> Option<Chess> {
        if !self.has_non_pawn_material() {
            return None;
        }
        self.board.null_move().map(|board| self.with_board(board))
    }

    fn move_id(&self, mv: Move) -> usize {
        mv.from as usize * 64 + mv.to as usize
    }

    /// Colour, piece and destination square: 2 × 6 × 64 (castling is the king's move to its
    /// rook's square).
    const PIECE_TO_IDS: usize = 2 * 6 * 64;

    fn piece_to_id(&self, mv: Move) -> usize {
        let b = &self.board;
        let piece = b.piece_on(mv.from).unwrap_or(Piece::Pawn) as usize;
        (b.side_to_move() as usize * 6 + piece) * 64 + mv.to as usize
    }

    /// Direct checks from the piece on its new square (the promoted piece for a
    /// promotion) and discovered checks by a slider the move uncovers, from attack sets;
    /// castling and en passant, rare and with a second piece moving, are played instead.
    fn gives_check(&self, mv: Move) -> bool {
        let b = &self.board;
        let us = b.side_to_move();
        let castling = b.colors(us).has(mv.to);
        if castling || self.is_en_passant(mv) {
            let mut child = self.board.clone();
            child.play_unchecked(mv);
            return !child.checkers().is_empty();
        }
        let king = b.king(!us);
        let occupied = (b.occupied() ^ mv.from.bitboard()) | mv.to.bitboard();
        let piece = mv.promotion.or(b.piece_on(mv.from)).unwrap_or(Piece::Pawn);
        let direct = match piece {
            Piece::Pawn => cozy_chess::get_pawn_attacks(mv.to, us),
            Piece::Knight => cozy_chess::get_knight_moves(mv.to),
            Piece::Bishop => cozy_chess::get_bishop_moves(mv.to, occupied),
            Piece::Rook => cozy_chess::get_rook_moves(mv.to, occupied),
            Piece::Queen => {
                cozy_chess::get_bishop_moves(mv.to, occupied)
                    | cozy_chess::get_rook_moves(mv.to, occupied)
            }
            Piece::King => BitBoard::EMPTY,
        };
        if direct.has(king) {
            return true;
        }
        let ours = b.colors(us) & !mv.from.bitboard();
        let diagonal = (b.pieces(Piece::Bishop) | b.pieces(Piece::Queen)) & ours;
        let straight = (b.pieces(Piece::Rook) | b.pieces(Piece::Queen)) & ours;
        !(cozy_chess::get_bishop_moves(king, occupied) & diagonal).is_empty()
            || !(cozy_chess::get_rook_moves(king, occupied) & straight).is_empty()
    }

    fn see_at_least(&self, mv: Move, threshold: i32) -> bool {
        (threshold <= 0 && self.wins_at_least_its_attacker(mv)) || self.see(mv) >= threshold
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        notation::parse_move(self, text)
    }

    fn format_move(&self, mv: Move) -> String {
        notation::format_move(self, mv)
    }

    fn from_fen(&self, text: &str) -> Result<Self, FenError> {
        let board = fen::parse(text, self.chess960)?;
        Ok(self.with_board(board))
    }

    fn fen(&self) -> String {
        fen::write(&self.board, self.chess960)
    }

    fn diagram(&self) -> String {
        let mut s = String::new();
        for rank in Rank::ALL.iter().rev() {
            s.push_str(&format!("{} |", *rank as usize + 1));
            for file in File::ALL {
                let sq = Square::new(file, *rank);
                let c = match (self.board.piece_on(sq), self.board.color_on(sq)) {
                    (Some(p), Some(Color::White)) => char::from(p).to_ascii_uppercase(),
                    (Some(p), _) => char::from(p),
                    _ => '.',
                };
                s.push(' ');
                s.push(c);
            }
            s.push('\n');
        }
        s.push_str("  +----------------\n    a b c d e f g h\n");
        s
    }
}

#[cfg(test)]
mod tests;
