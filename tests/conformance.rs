//! One conformance test, run over every game and rule variant: random playouts check the
//! `Game` contract (src/game.rs) at every position they pass through.

use std::collections::HashMap;

use ply::game::{Game, MoveError, Params, find_legal, perft};
use ply::games::{Checkers, Chess, Connect4, Nim, Teeko, TicTacToe};
use ply::util::Rng;

struct Report {
    positions: usize,
    finished: usize,
    playouts: usize,
}

/// Plays `playouts` random games of at most `max_plies` from the start of `G` with
/// `params`, checking at every position:
/// - legal moves are empty exactly when the game is over, never repeat, and, while the game
///   goes on, are `perft_moves`, which number `perft_move_count`;
/// - every legal move's notation parses back to it (and `find_legal` agrees), and
///   `malformed` texts are refused as malformed;
/// - the position notation round-trips: same key, side, outcome, moves and perft(2);
/// - equal positions have equal keys (and, when `perfect_key`, equal keys mean equal
///   positions);
/// - the side to move alternates, `max_remaining_plies` bounds the rest of the game, and the
///   evaluation stays inside its range;
/// - a finished position names the rule that ended it (`ending`, the referee's reason), and
///   one that goes on names none.
fn conformance<G: Game>(
    params: &[&str],
    playouts: usize,
    max_plies: usize,
    perfect_key: bool,
    malformed: &[&str],
) -> Report {
    let start = G::new(&Params::parse(params.iter().copied()).unwrap()).unwrap();
    let mut rng = Rng::new(0x5EED ^ params.len() as u64 ^ G::NAME.len() as u64);
    let mut keys = Keys::default();
    let mut report = Report {
        positions: 0,
        finished: 0,
        playouts,
    };
    let mut moves = Vec::new();
    for _ in 0..playouts {
        let mut pos = start.clone();
        // Each position's `max_remaining_plies`, in the order the playout passed them.
        let mut trail = Vec::new();
        for ply in 0..=max_plies {
            report.positions += 1;
            moves.clear();
            pos.legal_moves(&mut moves);
            check_moves(&pos, &moves, malformed);
            check_notation_round_trip(&start, &pos, &moves, ply);
            keys.check(&pos, perfect_key);
            assert_eq!(
                pos.ending().is_some(),
                pos.outcome().is_some(),
                "{}: an ending named iff over at {}",
                G::NAME,
                pos.fen()
            );
            if pos.outcome().is_some() {
                report.finished += 1;
                check_remaining_bounds::<G>(&trail, ply);
                break;
            }
            let e = pos.evaluate();
            assert!(
                e.abs() < 100_000,
                "{}: evaluation {e} out of range",
                G::NAME
            );
            trail.push(pos.max_remaining_plies());
            let side = pos.side_to_move();
            pos.play(moves[rng.below(moves.len())]);
            assert_eq!(
                pos.side_to_move(),
                side.other(),
                "{}: sides alternate",
                G::NAME
            );
        }
    }
    report
}

/// Legal moves are empty exactly when the game is over, never repeat, are `perft_moves`
/// while the game goes on (numbering `perft_move_count`), and read back from their notation; `malformed` texts are refused as
/// malformed.
fn check_moves<G: Game>(pos: &G, moves: &[G::Move], malformed: &[&str]) {
    assert_eq!(
        moves.is_empty(),
        pos.outcome().is_some(),
        "{}: moves empty iff over at {}",
        G::NAME,
        pos.fen()
    );
    let mut perft_moves = Vec::new();
    pos.perft_moves(&mut perft_moves);
    assert_eq!(
        pos.perft_move_count(&mut Vec::new()),
        perft_moves.len(),
        "{}: perft_move_count",
        G::NAME
    );
    if pos.outcome().is_none() {
        assert!(
            perft_moves == moves,
            "{}: perft_moves at {}",
            G::NAME,
            pos.fen()
        );
    }
    let mut seen = moves.to_vec();
    seen.sort_by_key(|m| pos.format_move(*m));
    seen.dedup();
    assert_eq!(
        seen.len(),
        moves.len(),
        "duplicate legal moves at {}",
        pos.fen()
    );
    for &m in moves {
        let text = pos.format_move(m);
        assert_eq!(
            pos.parse_move(&text),
            Ok(m),
            "{}: '{text}' at {}",
            G::NAME,
            pos.fen()
        );
        assert_eq!(find_legal(pos, &text), Some(m));
        assert!(pos.move_id(m) < G::MOVE_IDS);
    }
    for bad in malformed {
        assert!(
            matches!(pos.parse_move(bad), Err(MoveError::Malformed(_))),
            "{}: '{bad}' should be malformed",
            G::NAME
        );
    }
}

/// The position read back from its notation has the same notation, key, side, outcome and
/// moves, and (every seventh ply) the same perft(2).
fn check_notation_round_trip<G: Game>(start: &G, pos: &G, moves: &[G::Move], ply: usize) {
    let fen = pos.fen();
    let back = start
        .from_fen(&fen)
        .unwrap_or_else(|e| panic!("{}: '{fen}': {e}", G::NAME));
    assert_eq!(back.fen(), fen);
    assert_eq!(back.key(), pos.key());
    assert_eq!(back.side_to_move(), pos.side_to_move());
    assert_eq!(back.outcome(), pos.outcome());
    let mut back_moves = Vec::new();
    back.legal_moves(&mut back_moves);
    assert_eq!(back_moves, moves);
    if ply.is_multiple_of(7) {
        assert_eq!(
            perft(&back, 2),
            perft(pos, 2),
            "{}: perft(2) at {fen}",
            G::NAME
        );
    }
}

/// The keys of every position seen, by notation and (for games whose key is perfect) the
/// notation of every key.
#[derive(Default)]
struct Keys {
    key_of_fen: HashMap<String, u64>,
    fen_of_key: HashMap<u64, String>,
}

impl Keys {
    /// Equal positions have equal keys and, when `perfect_key`, equal keys mean equal
    /// positions.
    fn check<G: Game>(&mut self, pos: &G, perfect_key: bool) {
        let fen = pos.fen();
        if let Some(&k) = self.key_of_fen.get(&fen) {
            assert_eq!(
                k,
                pos.key(),
                "{}: equal positions, different keys: {fen}",
                G::NAME
            );
        }
        self.key_of_fen.insert(fen.clone(), pos.key());
        if perfect_key {
            if let Some(other) = self.fen_of_key.get(&pos.key()) {
                assert_eq!(other, &fen, "{}: key collision", G::NAME);
            }
            self.fen_of_key.insert(pos.key(), fen);
        }
    }
}

/// Every position a finished playout passed through could see the end (at `ply`) within its
/// `max_remaining_plies`.
fn check_remaining_bounds<G: Game>(trail: &[Option<u32>], ply: usize) {
    for (i, bound) in trail.iter().enumerate() {
        if let Some(b) = bound {
            assert!(
                ply - i <= *b as usize,
                "{}: max_remaining_plies too small",
                G::NAME
            );
        }
    }
}

/// What the registry-driven check needs of each game: whether equal keys mean equal
/// positions (not for Nim's and chess's text notations, see their tests) and move texts the
/// game must refuse as malformed. A registered game missing here fails
/// [`every_registered_game_conforms`].
const GAMES: &[(&str, bool, &[&str])] = &[
    ("tictactoe", true, &["a4", "d1", "b", "", "a1a2", "A1"]),
    (
        "connect4",
        true,
        &["0", "8", "x", "", "-1", "1.0", "+3", "04"],
    ),
    (
        "nim",
        false,
        &["0", "x", "", "1:0", "0:1", "1:", ":1", "-1"],
    ),
    (
        "teeko",
        true,
        &["f1", "a6", "a0", "c3d", "c3c3c3", "", "C3", "33"],
    ),
    (
        "chess",
        false,
        &[
            "", "e2", "e2e4x", "e9e4", "i2i4", "E2E4", "e2-e4", "Nf3", "0000", "e7e8k", "e2e4 ",
        ],
    ),
    // Keys leave out the no-progress count (a repetition ignores it), so they are not
    // perfect for the notation, which writes it.
    (
        "checkers",
        false,
        &[
            "",
            "11",
            "11-",
            "-15",
            "0-4",
            "33-29",
            "11x",
            "a3b4",
            "11--15",
            "11_15",
            "K11-15",
            "1-2-3-4-5-6-7-8-9-10-11-12-13-14",
            "011-15",
        ],
    ),
];

/// The malformed move texts of game `name` in [`GAMES`].
fn malformed(name: &str) -> &'static [&'static str] {
    GAMES
        .iter()
        .find(|g| g.0 == name)
        .map(|g| g.2)
        .unwrap_or_else(|| panic!("{name}: not in GAMES"))
}

/// Every registered game, at its default parameters: the registry drives it, so a new game
/// is checked (and this fails until [`GAMES`] has its malformed move texts). The tests below
/// add each game's rule variants and what its playouts must reach.
#[test]
fn every_registered_game_conforms() {
    for &name in ply::games::NAMES {
        let &(_, perfect_key, bad) = GAMES
            .iter()
            .find(|g| g.0 == name)
            .unwrap_or_else(|| panic!("{name}: registered, but not in GAMES"));
        let r = ply::with_game!(name, G => conformance::<G>(&[], 30, 300, perfect_key, bad), _ => unreachable!());
        assert!(r.positions > 30, "{name}");
    }
}

#[test]
fn tictactoe_conforms() {
    let r = conformance::<TicTacToe>(&[], 3000, 9, true, malformed("tictactoe"));
    assert_eq!(
        r.finished, r.playouts,
        "every tic-tac-toe game ends within 9 plies"
    );
}

#[test]
fn connect4_conforms() {
    let bad = malformed("connect4");
    let r = conformance::<Connect4>(&[], 1000, 42, true, bad);
    assert_eq!(r.finished, r.playouts);
    for params in [
        &["width=8", "height=7"][..],
        &["width=4", "height=4"],
        &["width=9", "height=5"],
        &["width=5", "height=10"],
    ] {
        let r = conformance::<Connect4>(params, 300, 90, true, &["0", "x"]);
        assert_eq!(r.finished, r.playouts, "{params:?}");
    }
}

#[test]
fn nim_conforms() {
    let bad = malformed("nim");
    for params in [
        &[][..],
        &["length=14", "max=3"],
        &["length=30", "max=7", "misere=true"],
        &["heaps=3,4,5", "max=3"],
        &["heaps=1,2,3,4,5,6,7", "max=2", "misere=true"],
        &["heaps=20,1,13", "max=100"],
    ] {
        let r = conformance::<Nim>(params, 500, 200, false, bad);
        assert_eq!(r.finished, r.playouts, "{params:?}: Nim always ends");
    }
}

#[test]
fn teeko_conforms() {
    let bad = malformed("teeko");
    for params in [
        &[][..],
        &["advanced=true"],
        &["centre=false"],
        &["advanced=true", "centre=false"],
    ] {
        let r = conformance::<Teeko>(params, 400, 300, true, bad);
        // Random play in the move phase can wander: the game has no end rule of its own, so
        // not every playout ends within the bound, but most do, and every one was checked.
        assert!(
            r.finished * 2 > r.playouts,
            "{params:?}: {} of {} ended",
            r.finished,
            r.playouts
        );
        assert!(r.positions > 10_000);
    }
}

#[test]
fn chess_conforms() {
    let bad = malformed("chess");
    for params in [&[][..], &["chess960=true"], &["chess960=true", "start=0"]] {
        // Random chess mostly ends by a dead position or the fifty-move rule; the key is not
        // perfect for FEN texts (the clocks are not part of it).
        let r = conformance::<Chess>(params, 40, 500, false, bad);
        assert!(
            r.finished * 4 > r.playouts * 3,
            "{params:?}: {} of {} ended",
            r.finished,
            r.playouts
        );
        assert!(r.positions > 5_000, "{params:?}: {}", r.positions);
    }
}

#[test]
fn checkers_conforms() {
    let bad = malformed("checkers");
    for (params, playouts) in [
        (&[][..], 600),
        (&["noprogress=3"], 300),
        (&["noprogress=0"], 200),
    ] {
        // Keys leave out the no-progress count (a repetition ignores it), so they are not
        // perfect for the notation, which writes it.
        let r = conformance::<Checkers>(params, playouts, 400, false, bad);
        assert!(
            r.finished * 10 >= r.playouts * 9,
            "{params:?}: {} of {} ended",
            r.finished,
            r.playouts
        );
        assert!(r.positions > 10_000, "{params:?}: {}", r.positions);
    }
}
