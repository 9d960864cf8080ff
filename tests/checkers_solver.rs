//! The checkers endgame databases, built here up to four pieces (a few seconds), checked
//! against independent counts and a plain search, and used by the engine. The five- and
//! six-piece databases get the same checks in `scripts/checks/test_heavy.sh` (`#[ignore]`d here).
//!
//! - Counts: the positions of each slice by the index's formula, by enumerating the index,
//!   and, per number of pieces, against the published totals (Schaeffer et al., "Checkers
//!   is solved", Science 2007, table 1: 120; 6,972; 261,224; 7,092,774; 148,688,232;
//!   2,503,611,964 positions of 1 to 6 pieces, counting the placements where one side has
//!   none, which the databases leave out).
//! - Consistency: every position's value follows from its moves' values (a win is one ply
//!   longer than the quickest loss it can reach, a loss one ply longer than the slowest win
//!   its opponent can choose, a draw has a drawing move and no winning one).
//! - A plain search (negamax to a fixed depth, no tables) agrees on a sample of values.

mod common;

use std::path::PathBuf;
use std::sync::OnceLock;

use common::PlyProcess;

use ply::game::{Game, Outcome, Player};
use ply::games::Checkers;
use ply::games::checkers::Board;
use ply::solve::checkers::driver::{self, SliceReport};
use ply::solve::checkers::index::{self, Slice, board_at};
use ply::solve::checkers::{Tables, Value};
use ply::util::Rng;

/// Published totals by number of pieces (see the module doc), from 1 piece.
const PUBLISHED: [u64; 6] = [120, 6_972, 261_224, 7_092_774, 148_688_232, 2_503_611_964];

struct Built {
    dir: PathBuf,
    tables: Tables,
    reports: Vec<SliceReport>,
}

/// The databases up to four pieces, built once per test run.
fn built() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(|| build(4, "small"))
}

fn build(pieces: u32, name: &str) -> Built {
    let dir = std::env::temp_dir().join(format!("ply-checkers-db-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (tables, reports) = driver::build(&dir, pieces, 2, &|_| {}).expect("the build");
    Built {
        dir,
        tables,
        reports,
    }
}

/// Placements of `n` pieces where only one side has pieces (men off their crowning row).
fn one_sided(n: u32) -> u64 {
    let c = &index::C;
    let n = n as usize;
    // One colour: m men on 28 squares, n - m kings on the rest; times two colours.
    (0..=n).map(|m| c[28][m] * c[32 - m][n - m]).sum::<u64>() * 2
}

fn check_counts(max: u32, enumerate_up_to: u32) {
    for n in 2..=max {
        let mut total = 0;
        for s in Slice::all_with(n) {
            if n <= enumerate_up_to {
                let enumerated = (0..s.size()).filter(|&i| board_at(&s, i).is_some()).count();
                assert_eq!(enumerated as u64, s.valid_count(), "{s:?}");
            }
            total += s.valid_count();
        }
        assert_eq!(
            total + one_sided(n),
            PUBLISHED[n as usize - 1],
            "{n} pieces"
        );
    }
}

#[test]
fn position_counts_agree_with_the_enumeration_and_the_published_totals() {
    check_counts(6, 4);
}

/// The value a position's moves give it, from the tables.
fn backed_up(tables: &Tables, b: &Board) -> Value {
    let mut moves = Vec::new();
    b.legal_moves(Player::First, &mut moves);
    if moves.is_empty() {
        return Value::Loss(0);
    }
    moves
        .iter()
        .map(|&m| {
            let child = b.play(Player::First, m).flipped();
            tables
                .probe_relative(&child)
                .expect("every child is held")
                .back()
        })
        .max_by_key(|v| v.preference())
        .expect("a move")
}

fn check_consistency(b: &Built, max: u32) {
    for r in &b.reports {
        let s = r.slice.unwrap();
        if s.pieces() > max {
            continue;
        }
        for i in 0..s.size() {
            let Some(board) = board_at(&s, i) else {
                continue;
            };
            let stored = b.tables.probe_relative(&board).unwrap();
            assert_eq!(stored, backed_up(&b.tables, &board), "{s:?} index {i}");
        }
    }
}

#[test]
fn every_value_follows_from_its_moves() {
    check_consistency(built(), 4);
}

/// A plain negamax to `depth` plies, in the searcher's scale (`MATE - plies` for a win),
/// 0 when nothing is proven within the depth.
fn plain(pos: &Checkers, depth: u32, ply: i32, mut alpha: i32, beta: i32) -> i32 {
    const MATE: i32 = ply::value::MATE;
    match pos.outcome() {
        Some(Outcome::Win(p)) if p == pos.side_to_move() => return MATE - ply,
        Some(Outcome::Win(_)) => return -(MATE - ply),
        Some(Outcome::Draw) => return 0,
        None if depth == 0 => return 0,
        None => {}
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut best = -MATE;
    for m in moves {
        let mut child = *pos;
        child.play(m);
        let v = -plain(&child, depth - 1, ply + 1, -beta, -alpha);
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}

fn check_sample_against_plain_search(b: &Built, samples: usize, max_plies: u32) {
    let mut rng = Rng::new(7);
    let slices: Vec<Slice> = b.reports.iter().filter_map(|r| r.slice).collect();
    let mut checked = [0; 3];
    let mut tries = 0;
    while checked.iter().sum::<usize>() < samples && tries < samples * 1000 {
        tries += 1;
        let s = slices[rng.below(slices.len())];
        let Some(board) = board_at(&s, rng.below(s.size() as usize) as u64) else {
            continue;
        };
        let v = b.tables.probe_relative(&board).unwrap();
        let pos = Checkers::from_parts(board, Player::First, 0, 0);
        let (depth, kind) = match v {
            Value::Win(d) if d <= max_plies => (d, 0),
            Value::Loss(d) if d <= max_plies => (d, 1),
            Value::Draw if checked[2] < samples / 3 => (7, 2),
            _ => continue,
        };
        let m = ply::value::MATE;
        let found = plain(&pos, depth, 0, -m, m);
        match v {
            // Proven at exactly its distance, and not sooner.
            Value::Win(d) | Value::Loss(d) => {
                assert_eq!(found, v.score(), "{} at depth {d}", pos.fen());
                if d >= 2 {
                    let sooner = plain(&pos, d - 2, 0, -m, m);
                    assert_ne!(sooner, v.score(), "{}", pos.fen());
                }
            }
            // No forced end for either side within the depth.
            Value::Draw => assert_eq!(found, 0, "{}", pos.fen()),
        }
        checked[kind] += 1;
    }
    assert!(checked.iter().all(|&c| c > 0), "{checked:?}");
}

#[test]
fn a_sample_agrees_with_a_plain_search() {
    check_sample_against_plain_search(built(), 300, 11);
}

#[test]
fn the_build_reports_what_the_tables_hold() {
    let b = built();
    // Two kings against one win; a king against a king draws (no one can force it).
    let two_kings = Board {
        black: (1 << 0) | (1 << 2),
        white: 1 << 31,
        kings: (1 << 0) | (1 << 2) | (1 << 31),
    };
    assert!(matches!(
        b.tables.probe_relative(&two_kings),
        Some(Value::Win(_))
    ));
    let lone = Board {
        black: 1 << 0,
        white: 1 << 31,
        kings: (1 << 0) | (1 << 31),
    };
    assert_eq!(b.tables.probe_relative(&lone), Some(Value::Draw));
    for r in &b.reports {
        assert_eq!(r.won + r.drawn + r.lost, r.positions, "{:?}", r.slice);
    }
    // A second build finds every slice on disk and solves nothing.
    let (_, again) = driver::build(&b.dir, 4, 2, &|_| {}).unwrap();
    assert!(again.iter().all(|r| r.seconds.is_none()));
    assert_eq!(again.len(), b.reports.len());
}

/// An engine that reads the databases built here.
fn engine() -> PlyProcess {
    let dir = built().dir.to_str().unwrap().to_string();
    let mut e = PlyProcess::start_with_env(&[("PLY_TABLES", &dir)]);
    e.send("newgame checkers");
    e
}

#[test]
fn go_answers_from_the_databases_and_converts_a_won_ending() {
    let b = built();
    let mut e = engine();
    // Two kings against one: lost for White to move, by the tables' distance.
    let fen = "W:WK30:BK1,K3";
    let pos = Checkers::default().from_fen(fen).unwrap();
    let v = b.tables.probe(pos.board(), pos.side_to_move()).unwrap();
    let Value::Loss(d) = v else {
        panic!("{fen}: {v:?}")
    };
    e.send(&format!("position fen {fen}"));
    let go = e.go("go depth 3");
    assert_eq!(go.score(), format!("mate -{}", d / 2));
    assert!(
        go.field("tbhits").is_some_and(|n| n != "0"),
        "{:?}",
        go.infos
    );
    // Both sides play on from the engine's moves: Black wins, in exactly that many plies.
    let mut moves: Vec<String> = Vec::new();
    loop {
        e.send(&format!("position fen {fen} moves {}", moves.join(" ")));
        if e.query("gameover") == "true" {
            break;
        }
        moves.push(e.go("go depth 3").bestmove);
        assert!(moves.len() <= d as usize, "{moves:?}");
    }
    assert_eq!(e.query("result"), "p1win");
    assert_eq!(moves.len(), d as usize);
}

#[test]
fn the_search_takes_values_from_the_databases() {
    // Five pieces (no table) whose captures lead into four-piece positions: the search's
    // lines count table hits.
    let mut e = engine();
    e.send("position fen B:W22,K30,K31:BK17,K26");
    let go = e.go("go depth 6");
    assert!(
        go.field("tbhits").is_some_and(|n| n != "0"),
        "{:?}",
        go.infos
    );
    // Without the solver, no table is read.
    e.send("setoption name UseSolver value false");
    let go = e.go("go depth 6");
    assert_eq!(go.field("tbhits"), None, "{:?}", go.infos);
}

#[test]
#[ignore = "builds the six-piece databases (most of an hour); scripts/checks/test_heavy.sh"]
fn six_pieces_counts_consistency_and_sample() {
    let dir = std::env::var_os("PLY_TABLES").map(PathBuf::from);
    let b = match dir {
        Some(dir) => {
            let (tables, reports) = driver::build(&dir, 6, 2, &|_| {}).expect("the build");
            Built {
                dir,
                tables,
                reports,
            }
        }
        None => build(6, "six"),
    };
    check_counts(6, 5);
    check_consistency(&b, 6);
    check_sample_against_plain_search(&b, 300, 13);
}
