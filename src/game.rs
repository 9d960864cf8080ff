//! The `Game` trait: what the searcher, the solvers, the protocol and the referee need to know
//! about a game, and nothing about how any of them works. No I/O here.
//!
//! A value implementing [`Game`] is one *position* (the per-node state). The rules it plays by
//! (board size, take limit, rule flags) are chosen once by [`Game::new`] from `key=value`
//! parameters and travel with the position (as small copied fields or an interned `&'static`
//! rules table), so a position is cheap to clone and the searcher can copy-make.

use std::fmt;

use serde::Serialize;

use crate::setting::{Kind, Value};

/// One of the two players. `First` moves first from the start position (X in tic-tac-toe,
/// the first disc in Connect Four, Black in Teeko, the first taker in Nim).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    First,
    Second,
}

impl Player {
    /// The opponent.
    #[inline]
    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// 0 for `First`, 1 for `Second`: an index into per-player tables.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The protocol's name: `p1` or `p2`.
    pub fn protocol_name(self) -> &'static str {
        match self {
            Player::First => "p1",
            Player::Second => "p2",
        }
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Player),
    Draw,
}

impl Outcome {
    /// The protocol's name of a result: `p1win`, `p2win` or `draw`.
    pub fn protocol_name(self) -> &'static str {
        match self {
            Outcome::Win(Player::First) => "p1win",
            Outcome::Win(Player::Second) => "p2win",
            Outcome::Draw => "draw",
        }
    }
}

/// A game parameter declared as data, in the spirit of OpenSpiel's `parameter_specification`:
/// [`Params::resolve`] checks `newgame`'s values against it, and clients build their forms
/// from it (the `params` command of protocol.md; [`crate::games::param_specs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ParamSpec {
    /// The key of `key=value`.
    pub key: &'static str,
    /// Its type, default and domain.
    pub kind: Kind,
    /// A short name for a form ("Width"); never the word `help` (protocol.md's `param` line
    /// ends the label there).
    pub label: &'static str,
    /// One sentence: what it changes, with any rule tying it to the game's other parameters
    /// (those rules are checked by [`Game::new`]).
    pub help: &'static str,
}

/// Game parameters as given on the command line or in `newgame <game> key=value ...`,
/// in the order given; [`Params::resolve`] checks them against a game's [`ParamSpec`]s.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Params(pub Vec<(String, String)>);

impl Params {
    pub fn new() -> Params {
        Params(Vec::new())
    }

    /// Parses `key=value` words; a word without `=` is an error.
    pub fn parse<'a>(words: impl IntoIterator<Item = &'a str>) -> Result<Params, ParamError> {
        let mut out = Vec::new();
        for w in words {
            match w.split_once('=') {
                Some((k, v)) if !k.is_empty() => out.push((k.to_string(), v.to_string())),
                _ => return Err(ParamError(format!("expected key=value, got '{w}'"))),
            }
        }
        Ok(Params(out))
    }

    /// The values of `game`'s parameters, checked against its `specs`: every key declared
    /// and given once, every value of its kind ([`Kind::parse`], the one parser of settings).
    /// The first fault is the error: `unknown parameter '<key>' for <game> (known: ...)`,
    /// `parameter '<key>' given twice`, or `parameter <key>=<value>: expected <what>`.
    pub fn resolve(
        &self,
        game: &str,
        specs: &'static [ParamSpec],
    ) -> Result<ParamValues, ParamError> {
        let mut given = vec![None; specs.len()];
        for (k, v) in &self.0 {
            let Some(i) = specs.iter().position(|s| s.key == k) else {
                let keys: Vec<&str> = specs.iter().map(|s| s.key).collect();
                let list = if keys.is_empty() {
                    "none".to_string()
                } else {
                    keys.join(", ")
                };
                return Err(ParamError(format!(
                    "unknown parameter '{k}' for {game} (known: {list})"
                )));
            };
            if given[i].is_some() {
                return Err(ParamError(format!("parameter '{k}' given twice")));
            }
            let value = specs[i].kind.parse(v).map_err(|expected| {
                ParamError(format!("parameter {k}={v}: expected {expected}"))
            })?;
            given[i] = Some(value);
        }
        Ok(ParamValues { specs, given })
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// A switch parameter by the one yes/no rule ([`crate::setting::parse_switch`]), or
    /// `default` when absent, for callers that read one parameter without the game's specs.
    pub fn get_bool(&self, key: &str, default: bool) -> Result<bool, ParamError> {
        match self.get(key) {
            None => Ok(default),
            Some(v) => crate::setting::parse_switch(v)
                .ok_or_else(|| ParamError(format!("parameter {key}={v}: expected true or false"))),
        }
    }
}

/// A game's parameters after [`Params::resolve`]: each declared key's value, given or
/// default. Asking for a key the game did not declare, or as another kind than declared,
/// is a bug in the game and panics.
#[derive(Clone, Debug)]
pub struct ParamValues {
    specs: &'static [ParamSpec],
    /// By the index of the spec; `None` where the default applies.
    given: Vec<Option<Value>>,
}

impl ParamValues {
    fn index(&self, key: &str) -> usize {
        self.specs
            .iter()
            .position(|s| s.key == key)
            .unwrap_or_else(|| panic!("parameter '{key}' is not declared"))
    }

    /// Whether `key` was given (rather than left to its default).
    pub fn given(&self, key: &str) -> bool {
        self.given[self.index(key)].is_some()
    }

    /// The value of `key`, given or default.
    pub fn value(&self, key: &str) -> Value {
        let i = self.index(key);
        self.given[i]
            .clone()
            .unwrap_or_else(|| self.specs[i].kind.default_value())
    }

    /// A [`Kind::Check`] parameter.
    pub fn check(&self, key: &str) -> bool {
        self.value(key).as_bool()
    }

    /// A [`Kind::Spin`] parameter whose range fits a `u32`.
    pub fn spin_u32(&self, key: &str) -> u32 {
        let n = self.value(key).as_int();
        u32::try_from(n).unwrap_or_else(|_| panic!("parameter '{key}': {n} is no u32"))
    }

    /// A [`Kind::List`] parameter.
    pub fn list(&self, key: &str) -> Vec<i64> {
        self.value(key).as_list().to_vec()
    }
}

impl fmt::Display for Params {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (k, v)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{k}={v}")?;
        }
        Ok(())
    }
}

/// A bad `newgame` parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamError(pub String);

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParamError {}

/// Why a move text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move of this game at all (`z9` in tic-tac-toe, `8` in 7-wide Connect Four).
    Malformed(String),
    /// The text names a move, but it is not legal here (an occupied cell, a full column,
    /// any move after the game has ended).
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Malformed(s) => write!(f, "malformed move: {s}"),
            MoveError::Illegal(s) => write!(f, "illegal move: {s}"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Why a position notation was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError(pub String);

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FenError {}

/// Which of the searcher's optional techniques suit a game (see `search/mod.rs`). Each needs
/// the [`Game`] hooks named with it; a game that opts into none is searched by plain
/// principal variation search with the table, killers and history. The margins of the
/// pruning techniques are in the evaluation's centi-units, set for chess's centipawns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchHints {
    /// At depth 0, a quiescence search of [`Game::noisy_moves`] with stand-pat by
    /// [`Game::evaluate`] (all moves when [`Game::in_check`]), instead of the evaluation.
    pub quiescence: bool,
    /// Null-move pruning with [`Game::null_move`]. Never for games where zugzwang is common
    /// (Connect Four, Teeko): passing would be taken for a safe move there.
    pub null_move: bool,
    /// One ply more for a move that puts the opponent in check ([`Game::in_check`]).
    pub check_extension: bool,
    /// Late-move reductions for quiet moves (no [`Game::noisy_score`]) searched late.
    pub late_move_reductions: bool,
    /// Aspiration windows around the previous iteration's value at the root; the game's
    /// evaluation must be smooth enough for a narrow window to hold most of the time.
    pub aspiration: bool,
    /// History scores that saturate (each update moves a score part of the way to its
    /// bound), with a malus for the quiet moves tried before the one that cut off.
    pub history_malus: bool,
    /// Continuation history: quiet moves ordered also by how they fared after the previous
    /// move and the one before ([`Game::piece_to_id`]).
    pub continuation_history: bool,
    /// Capture history: noisy moves that do not lose material ordered also by how they fared
    /// ([`Game::piece_to_id`]).
    pub capture_history: bool,
    /// Reverse futility pruning: at a shallow non-PV node whose static evaluation beats beta
    /// by a margin growing with the depth, the node fails high at once.
    pub reverse_futility: bool,
    /// Razoring: at a shallow non-PV node whose static evaluation is far below alpha, a
    /// quiescence search decides whether to search the moves at all.
    pub razoring: bool,
    /// Futility pruning: at a shallow node whose static evaluation plus a margin cannot reach
    /// alpha, quiet moves are not searched.
    pub futility: bool,
    /// Late-move pruning: at a shallow non-PV node, quiet moves beyond a count growing with
    /// the depth are not searched.
    pub late_move_pruning: bool,
    /// Static-exchange pruning at shallow depths: moves that lose more material than the
    /// depth allows ([`Game::see_at_least`]) are not searched.
    pub see_pruning: bool,
    /// Internal iterative reduction: a node without a table move is searched one ply less.
    pub internal_reduction: bool,
    /// Singular extensions: the table's move is searched one ply deeper when every other
    /// move falls clearly short of its stored value in a reduced search.
    pub singular_extension: bool,
    /// The quiescence search reads and writes the transposition table.
    pub quiescence_table: bool,
    /// The static evaluation is [`Game::evaluate_full`] rather than [`Game::evaluate`].
    pub full_eval: bool,
    /// Correction history: the static evaluation is corrected by how far searches of
    /// positions with the same [`Game::structure_key`] found it off, on average.
    pub correction_history: bool,
    /// The pruning decisions start from the table's value rather than the static
    /// evaluation where the stored bound says the true value lies on that side of it (never
    /// a mate score).
    pub tt_eval: bool,
    /// With [`SearchHints::check_extension`]: only checks that do not lose material in the
    /// exchange ([`Game::see_at_least`]) are extended.
    pub check_see: bool,
    /// With [`SearchHints::futility`]: a quiet move that gives check ([`Game::gives_check`])
    /// is not pruned by futility (a sacrifice that leads to mate is where the static
    /// evaluation is furthest below alpha).
    pub futility_checks: bool,
    /// With [`SearchHints::quiescence_table`]: the quiescence search stands pat on the
    /// table's value rather than the static evaluation where the stored bound says the true
    /// value lies on that side of it (never a mate score), as [`SearchHints::tt_eval`] does
    /// for the pruning decisions.
    pub quiescence_tt_eval: bool,
    /// The static evaluation is [`Game::evaluate_net`] (chess: the network) rather than
    /// [`Game::evaluate_full`] or [`Game::evaluate`].
    pub network: bool,
}

impl SearchHints {
    /// None of the techniques.
    pub const PLAIN: SearchHints = SearchHints {
        quiescence: false,
        null_move: false,
        check_extension: false,
        late_move_reductions: false,
        aspiration: false,
        history_malus: false,
        continuation_history: false,
        capture_history: false,
        reverse_futility: false,
        razoring: false,
        futility: false,
        late_move_pruning: false,
        see_pruning: false,
        internal_reduction: false,
        singular_extension: false,
        quiescence_table: false,
        full_eval: false,
        correction_history: false,
        tt_eval: false,
        check_see: false,
        futility_checks: false,
        quiescence_tt_eval: false,
        network: false,
    };
    /// All of them.
    pub const ALL: SearchHints = SearchHints {
        quiescence: true,
        null_move: true,
        check_extension: true,
        late_move_reductions: true,
        aspiration: true,
        history_malus: true,
        continuation_history: true,
        capture_history: true,
        reverse_futility: true,
        razoring: true,
        futility: true,
        late_move_pruning: true,
        see_pruning: true,
        internal_reduction: true,
        singular_extension: true,
        quiescence_table: true,
        full_eval: true,
        correction_history: true,
        tt_eval: true,
        check_see: true,
        futility_checks: true,
        quiescence_tt_eval: true,
        network: true,
    };
}

/// [`Game::CLOCK_MOVES`] unless a game declares its own.
pub const DEFAULT_CLOCK_MOVES: u32 = 25;

/// A two-player, zero-sum, perfect-information game, seen from one position.
///
/// Contract, checked for every game by `tests/conformance.rs`:
/// - `legal_moves` is empty exactly when `outcome` is `Some`;
/// - `parse_move(format_move(m)) == Ok(m)` for every legal `m`, and `from_fen(fen())`
///   reproduces the position (same `key`, same legal moves);
/// - equal positions have equal `key`s; distinct ones may share a key (tic-tac-toe's,
///   Connect Four's and Teeko's keys are perfect, Nim's mix and chess's Zobrist keys are not;
///   the searcher stores the whole key to verify a hit);
/// - every game ends: a random playout reaches an outcome (Teeko's move phase can cycle, so
///   the test bounds its playouts instead).
pub trait Game: Clone + Send + Sync + 'static {
    /// A move, small and `Copy`; only meaningful for the position it was generated in.
    type Move: Copy + Eq + std::hash::Hash + fmt::Debug + Send + Sync + 'static;

    /// The name used by `newgame` and `UCI_Variant`.
    const NAME: &'static str;

    /// The parameters `new` accepts, as data: [`Params::resolve`] checks them, and the
    /// `params` command and clients' forms are built from them.
    const PARAMS: &'static [ParamSpec];

    /// Upper bound (exclusive) of [`Game::move_id`]; sizes the searcher's history table.
    const MOVE_IDS: usize;

    /// The start position of the game with these parameters: [`Params::resolve`] against
    /// [`Game::PARAMS`], then the rules that tie parameters together.
    fn new(params: &Params) -> Result<Self, ParamError>;

    /// The parameters in canonical form (every key, with its value), for display.
    fn params(&self) -> Params;

    fn side_to_move(&self) -> Player;

    /// Appends the legal moves to `out` (which the caller clears), best-first by the game's
    /// static ordering. Empty exactly when the game is over.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// Plays a move that `legal_moves` produced for this position. Anything else is a logic
    /// error: games may panic or corrupt the position (they do not re-validate in release builds).
    fn play(&mut self, mv: Self::Move);

    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// Which of its rules ended the game, in words for reports ("checkmate", "stalemate",
    /// "the fifty-move rule"): the referee's reason reads "<winner> wins by <it>" or "draw
    /// by <it>". `None` while the game goes on, and by default (the game's rules then have
    /// one way to end, which its description in protocol.md says).
    fn ending(&self) -> Option<&'static str> {
        None
    }

    /// A 64-bit key: equal positions (including side to move) have equal keys.
    fn key(&self) -> u64;

    /// A heuristic value from the side to move's point of view, in centi-units, well inside
    /// ±100 000. Only called on positions where the game is not over.
    fn evaluate(&self) -> i32 {
        0
    }

    /// [`Game::evaluate`] with the terms a game adds beyond it, which a search uses with
    /// [`SearchHints::full_eval`] (chess: the threats, whose weights came after the strength
    /// levels were calibrated on the base evaluation). The same by default.
    fn evaluate_full(&self) -> i32 {
        self.evaluate()
    }

    /// A learnt evaluation, which a search uses with [`SearchHints::network`] (chess: the
    /// network of `games/chess/nnue.rs`). [`Game::evaluate_full`] by default.
    fn evaluate_net(&self) -> i32 {
        self.evaluate_full()
    }

    /// A key of the position's slow-changing structure (chess: the pawns of both sides), for
    /// [`SearchHints::correction_history`]: positions sharing it share one correction of
    /// the static evaluation. The same for every position by default.
    fn structure_key(&self) -> u64 {
        0
    }

    /// Win, draw and loss chances in permille (summing to 1000) for the side to move at a
    /// heuristic value of `cp` (see [`Game::evaluate`]), for games with a model fitted to
    /// their games' outcomes (`UCI_ShowWDL`, protocol.md); `None` for the others, whose
    /// heuristic values say nothing about chances.
    fn wdl_of_cp(_cp: i32) -> Option<[u32; 3]> {
        None
    }

    /// An upper bound on the plies left until the game must end, when one exists (board
    /// games that fill up; Nim). A search at least this deep is exhaustive.
    fn max_remaining_plies(&self) -> Option<u32> {
        None
    }

    /// Appends the moves perft counts (which the caller clears): the move generator's, by how
    /// the pieces move, before any draw rule that ends the game (standard perft: chess's
    /// dead positions and fifty-move rule belong to `outcome`, the referee and the search,
    /// not to perft). `legal_moves` by default: a game whose ends are all in its moves.
    fn perft_moves(&self, out: &mut Vec<Self::Move>) {
        self.legal_moves(out)
    }

    /// The number of moves `perft_moves` would produce; `scratch` is a buffer the default
    /// lists them into. Perft counts its last ply with this; a game that can count without
    /// listing (chess counts cozy-chess's per-piece move sets in bulk) overrides it.
    fn perft_move_count(&self, scratch: &mut Vec<Self::Move>) -> usize {
        scratch.clear();
        self.perft_moves(scratch);
        scratch.len()
    }

    /// The searcher's optional techniques this game opts into.
    const SEARCH: SearchHints = SearchHints::PLAIN;

    /// The game's values for the search's numeric parameters, as `PLY_SEARCH_PARAMS` writes
    /// them (protocol.md, Environment; [`crate::search::params`]): those not named keep
    /// their defaults. A strength-limited search uses the defaults (its calibration's).
    const SEARCH_PARAMS: &'static str = "";

    /// How many occurrences of one position make the game a draw (chess: 3), or `None` when
    /// repeating a position changes nothing. A position alone cannot tell: a caller keeping
    /// the game's keys decides ([`Line`]); inside a search, a position repeated once is scored
    /// as a draw.
    const REPETITION_DRAW: Option<u32> = None;

    /// The number of moves a clock's remaining time is shared over when `go` gives no
    /// `movestogo` (protocol.md, Clocks): fewer gives each move more of the clock.
    const CLOCK_MOVES: u32 = DEFAULT_CLOCK_MOVES;

    /// True when `mv` (legal here) makes every earlier position unreachable (a capture or a
    /// pawn move in chess), so a repetition check may stop looking back there. Only asked
    /// when [`Game::REPETITION_DRAW`] is set.
    fn is_irreversible(&self, _mv: Self::Move) -> bool {
        false
    }

    /// Appends the legal moves a quiescence search looks at (captures and promotions in
    /// chess), in any order; none by default.
    fn noisy_moves(&self, _out: &mut Vec<Self::Move>) {}

    /// The ordering score of a noisy move, `None` for a quiet one. Higher is tried first;
    /// a negative score marks a move expected to lose material (a losing capture by static
    /// exchange), tried after the quiet moves and skipped by the quiescence search.
    fn noisy_score(&self, _mv: Self::Move) -> Option<i32> {
        None
    }

    /// True when the side to move is in check: no stand-pat, no null move, and the move
    /// that gave it is extended (see [`SearchHints`]).
    fn in_check(&self) -> bool {
        false
    }

    /// True when `mv` (legal here) puts the opponent in check: [`Game::in_check`] after it.
    /// Games with a cheaper test than playing the move override it.
    fn gives_check(&self, mv: Self::Move) -> bool {
        let mut child = self.clone();
        child.play(mv);
        child.in_check()
    }

    /// The position with the turn passed to the opponent, for null-move pruning; `None`
    /// where passing is not meaningful (in check, only pawns left in chess).
    fn null_move(&self) -> Option<Self> {
        None
    }

    /// A small integer naming the move, `< MOVE_IDS`, for history tables. Collisions are
    /// allowed (it only steers move ordering).
    fn move_id(&self, mv: Self::Move) -> usize;

    /// Upper bound (exclusive) of [`Game::piece_to_id`]; sizes the continuation and capture
    /// histories. 1 for a game without such ids.
    const PIECE_TO_IDS: usize = 1;

    /// A small integer naming what a move does, `< PIECE_TO_IDS`, for the continuation and
    /// capture histories ([`SearchHints`]): in chess the moving piece with its colour and
    /// the destination square. Collisions are allowed (it only steers move ordering).
    fn piece_to_id(&self, _mv: Self::Move) -> usize {
        0
    }

    /// Whether `mv` (legal here) keeps at least `threshold` centi-units of material when
    /// both sides then exchange on its destination square as well as they can (static
    /// exchange evaluation), for [`SearchHints::see_pruning`]. True by default.
    fn see_at_least(&self, _mv: Self::Move, _threshold: i32) -> bool {
        true
    }

    /// Reads a move in this game's notation and checks it is legal here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// Writes a move in this game's notation.
    fn format_move(&self, mv: Self::Move) -> String;

    /// Reads a position in this game's one-line notation, under this position's rules (so it
    /// takes `self`: the rules travel with the position).
    #[allow(clippy::wrong_self_convention)]
    fn from_fen(&self, fen: &str) -> Result<Self, FenError>;

    /// This position's one-line notation; `from_fen` accepts it.
    fn fen(&self) -> String;

    /// A multi-line text picture of the position for `d`, with coordinates.
    fn diagram(&self) -> String;
}

/// Number of move sequences of exactly `depth` plies from `pos` by [`Game::perft_moves`]; a
/// game ended by its moves (a mate, four in a row) has none, so sequences that end the game
/// early contribute nothing (the usual perft convention).
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<G::Move>> = (0..=depth).map(|_| Vec::new()).collect();
    perft_rec(pos, depth, &mut buffers)
}

fn perft_rec<G: Game>(pos: &G, depth: u32, buffers: &mut [Vec<G::Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (mine, rest) = buffers.split_first_mut().expect("one buffer per ply");
    if depth == 1 {
        return pos.perft_move_count(mine) as u64;
    }
    mine.clear();
    pos.perft_moves(mine);
    let mut total = 0;
    for &mv in mine.iter() {
        let mut child = pos.clone();
        child.play(mv);
        total += perft_rec(&child, depth - 1, rest);
    }
    total
}

/// `perft` split by first move, as `go perft` prints it: each legal move with its count.
pub fn perft_divide<G: Game>(pos: &G, depth: u32) -> Vec<(G::Move, u64)> {
    let mut moves = Vec::new();
    pos.perft_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let mut child = pos.clone();
            child.play(mv);
            (
                mv,
                if depth <= 1 {
                    1
                } else {
                    perft(&child, depth - 1)
                },
            )
        })
        .collect()
}

/// Plays a list of moves in the game's notation from `pos`, all or nothing: on the first bad
/// move it returns its index and the error, and `pos` is untouched.
pub fn play_moves<G: Game, S: AsRef<str>>(pos: &G, moves: &[S]) -> Result<G, (usize, MoveError)> {
    play_move_texts(pos, moves, |_, _| {})
}

/// [`play_moves`] for any sequence of move texts (read lazily, one at a time), showing
/// `seen` each position before its move is played, with the move's text (to keep a game's
/// history as it is replayed).
pub fn play_move_texts<G: Game, S: AsRef<str>>(
    pos: &G,
    moves: impl IntoIterator<Item = S>,
    seen: impl FnMut(&G, &str),
) -> Result<G, (usize, MoveError)> {
    Line::new(pos.clone())
        .play_texts(moves, seen)
        .map(Line::into_pos)
}

/// The legal moves with their notation, in the order people read them: shorter first, then
/// alphabetical (`1 2 .. 10`, `a1 a2 ..`).
pub fn legal_moves_by_name<G: Game>(pos: &G) -> Vec<(String, G::Move)> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    by_name(pos, moves)
}

/// [`Game::perft_moves`] with their notation, in the order of [`legal_moves_by_name`]
/// (`go perft` prints its split in this order).
pub fn perft_moves_by_name<G: Game>(pos: &G) -> Vec<(String, G::Move)> {
    let mut moves = Vec::new();
    pos.perft_moves(&mut moves);
    by_name(pos, moves)
}

/// `moves` with their notation, shorter first, then alphabetical.
fn by_name<G: Game>(pos: &G, moves: Vec<G::Move>) -> Vec<(String, G::Move)> {
    let mut named: Vec<(String, G::Move)> =
        moves.into_iter().map(|m| (pos.format_move(m), m)).collect();
    named.sort_by(|a, b| (a.0.len(), &a.0).cmp(&(b.0.len(), &b.0)));
    named
}

/// The legal move whose notation is `text`, if any: the reference way to parse, used by
/// games' `parse_move` after their syntax check and by tests as an oracle.
pub fn find_legal<G: Game>(pos: &G, text: &str) -> Option<G::Move> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves.into_iter().find(|&m| pos.format_move(m) == text)
}

/// A position with the keys of the game's earlier positions, back to the last irreversible
/// move: what a repetition rule needs ([`Game::REPETITION_DRAW`]). The session, the referee
/// and the GUI keep one per game; the searcher takes its keys as the start of its own stack.
#[derive(Clone, Debug)]
pub struct Line<G: Game> {
    pos: G,
    /// Keys of the positions before `pos`, oldest first, since the last irreversible move.
    /// Always empty for a game without a repetition rule.
    earlier: Vec<u64>,
}

impl<G: Game> Line<G> {
    /// A line starting at `pos`, with nothing before it.
    pub fn new(pos: G) -> Line<G> {
        Line {
            pos,
            earlier: Vec::new(),
        }
    }

    /// The current position.
    pub fn pos(&self) -> &G {
        &self.pos
    }

    /// The keys of the positions before the current one that it could repeat, oldest first.
    pub fn earlier(&self) -> &[u64] {
        &self.earlier
    }

    /// The current position, without the line's history.
    pub fn into_pos(self) -> G {
        self.pos
    }

    /// The line after a list of moves in the game's notation, all or nothing, as
    /// [`play_move_texts`] (which replays through it): the one replay of a list of move texts.
    pub fn play_texts<S: AsRef<str>>(
        &self,
        moves: impl IntoIterator<Item = S>,
        mut seen: impl FnMut(&G, &str),
    ) -> Result<Line<G>, (usize, MoveError)> {
        let mut line = self.clone();
        for (i, text) in moves.into_iter().enumerate() {
            let text = text.as_ref();
            let mv = line.parse_move(text).map_err(|e| (i, e))?;
            seen(&line.pos, text);
            line.play(mv);
        }
        Ok(line)
    }

    /// Plays a move that is legal in the current position.
    pub fn play(&mut self, mv: G::Move) {
        if G::REPETITION_DRAW.is_some() {
            if self.pos.is_irreversible(mv) {
                self.earlier.clear();
            } else {
                self.earlier.push(self.pos.key());
            }
        }
        self.pos.play(mv);
    }

    /// How many times the current position has occurred in the line, this time included.
    pub fn occurrences(&self) -> u32 {
        let key = self.pos.key();
        1 + self.earlier.iter().filter(|&&k| k == key).count() as u32
    }

    /// The position's outcome by the rules, or a draw once it has occurred as often as the
    /// game's repetition rule says: the rule ends the game, as the other draw rules do
    /// (protocol.md, chess, "Game end"), so the line then has no legal moves.
    pub fn outcome(&self) -> Option<Outcome> {
        self.pos
            .outcome()
            .or_else(|| self.repeated().then_some(Outcome::Draw))
    }

    /// Which rule ended the line: the position's [`Game::ending`], or the repetition rule
    /// once the line is drawn by it (repetition is the line's rule, not the position's).
    pub fn ending(&self) -> Option<String> {
        if self.pos.outcome().is_some() {
            return self.pos.ending().map(str::to_string);
        }
        match G::REPETITION_DRAW {
            Some(n) if self.repeated() => Some(match n {
                3 => "threefold repetition".to_string(),
                _ => format!("repetition ({n} times)"),
            }),
            _ => None,
        }
    }

    /// Whether the current position has occurred as often as the repetition rule allows.
    fn repeated(&self) -> bool {
        G::REPETITION_DRAW.is_some_and(|n| self.occurrences() >= n)
    }

    /// Reads a move as the position does ([`Game::parse_move`]), except that no move is legal
    /// once the line is drawn by repetition.
    pub fn parse_move(&self, text: &str) -> Result<G::Move, MoveError> {
        if self.pos.outcome().is_none() && self.repeated() {
            return Err(MoveError::Illegal(format!(
                "{text}: the game is over (draw: the position occurred {} times)",
                self.occurrences()
            )));
        }
        self.pos.parse_move(text)
    }
}

/// A line reads as its current position.
impl<G: Game> std::ops::Deref for Line<G> {
    type Target = G;
    fn deref(&self) -> &G {
        &self.pos
    }
}
