//! The Connect Four exact solver against independent oracles: the `connect-four-ai` crate on
//! random positions of every stage, plain memoised minimax on small boards, and ply's own
//! alpha-beta searcher on short forced wins (for the conversion to the searcher's scale).
//! Pons' test sets are not used here (they may not be committed); `scripts/bench/bench_c4_solver.sh`
//! runs them, and `scripts/checks/test_c4_solver_heavy.sh` runs the `#[ignore]`d tests below.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use connect_four_ai::{Position as AiPosition, Solver as AiSolver};
use ply::game::{Game, Outcome, Params};
use ply::games::Connect4;
use ply::search::{Limits, Searcher};
use ply::solve::connect4::{Connect4Solver, value_from_score};
use ply::solve::{Budget, Solvable, Solver};
use ply::value::MATE;

/// splitmix64: a fixed-seed generator, so every run tests the same positions.
struct Rng(ply::util::Rng);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(ply::util::Rng::new(seed))
    }

    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random position after `len` moves in which the game is not over, reached without any
/// move that ends the game, with its move string (columns 1..7). Restarts on dead ends.
fn random_position(rng: &mut Rng, start: &Connect4, len: usize) -> (Connect4, String) {
    'again: loop {
        let mut pos = *start;
        let mut text = String::new();
        for _ in 0..len {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            let safe: Vec<u8> = moves
                .into_iter()
                .filter(|&m| {
                    let mut c = pos;
                    c.play(m);
                    c.outcome().is_none()
                })
                .collect();
            if safe.is_empty() {
                continue 'again;
            }
            let m = safe[rng.below(safe.len())];
            text.push_str(&pos.format_move(m));
            pos.play(m);
        }
        return (pos, text);
    }
}

fn unlimited(stop: &AtomicBool) -> Budget<'_> {
    Budget {
        stop,
        deadline: None,
        nodes: None,
    }
}

/// connect-four-ai's score of a 7x6 position given by its moves (with its opening book).
fn oracle(ai: &mut AiSolver, moves: &str) -> i32 {
    let p = AiPosition::from_moves(moves).expect("a legal, unfinished position");
    ai.reset();
    ai.solve(&p) as i32
}

/// Random positions of `lengths`, `per_length` of each, scored by ply and by the oracle.
fn compare_with_oracle(seed: u64, lengths: std::ops::RangeInclusive<usize>, per_length: usize) {
    let start = Connect4::default();
    let mut solver = Connect4Solver::with_table_mb(&start, 64).unwrap();
    let mut ai = AiSolver::new();
    let mut rng = Rng::new(seed);
    let mut checked = 0;
    for len in lengths {
        for _ in 0..per_length {
            let (pos, moves) = random_position(&mut rng, &start, len);
            solver.reset();
            let ours = solver.score(&pos).score;
            assert_eq!(ours, oracle(&mut ai, &moves), "position {moves}");
            checked += 1;
        }
    }
    assert!(checked > 0);
}

#[test]
fn scores_match_connect_four_ai_across_stages() {
    // 293 positions from the opening (8 discs) to the end (38 discs). The oracle needs
    // seconds for some opening positions, so fewer of those here (and more in the heavy
    // test below).
    compare_with_oracle(1, 8..=13, 3);
    compare_with_oracle(11, 14..=38, 11);
}

#[test]
fn best_moves_keep_the_score_and_values_follow_it() {
    let start = Connect4::default();
    let mut solver = Connect4Solver::with_table_mb(&start, 64).unwrap();
    let mut ai = AiSolver::new();
    let mut rng = Rng::new(2);
    let stop = AtomicBool::new(false);
    for i in 0..120 {
        let (pos, moves) = random_position(&mut rng, &start, 10 + i % 28);
        let score = oracle(&mut ai, &moves);
        let sol = solver.solve(&pos, &unlimited(&stop)).unwrap();
        assert!(sol.exact);
        assert_eq!(
            sol.value,
            value_from_score(score, pos.moves_played(), 42),
            "{moves}"
        );
        let best = sol.best.expect("the game is not over");
        assert_eq!(sol.pv.first(), Some(&best));
        let mut child = pos;
        child.play(best);
        match child.outcome() {
            // A win with this disc: the best possible score, 22 minus its discs.
            Some(Outcome::Win(_)) => {
                assert_eq!(score, 22 - (pos.moves_played() as i32 / 2 + 1), "{moves}")
            }
            Some(Outcome::Draw) => assert_eq!(score, 0, "{moves}"),
            None => {
                let child_moves = format!("{moves}{}", pos.format_move(best));
                assert_eq!(
                    oracle(&mut ai, &child_moves),
                    -score,
                    "{moves}: move {} does not keep the score",
                    pos.format_move(best)
                );
            }
        }
    }
}

#[test]
fn values_match_plain_search_on_short_forced_endings() {
    // Positions whose game ends (with best play) within 7 plies: a full-width alpha-beta
    // search of that depth finds the same distance, in the same scale.
    let start = Connect4::default();
    let mut solver = Connect4Solver::with_table_mb(&start, 16).unwrap();
    let mut searcher = Searcher::<Connect4>::new(16);
    let mut rng = Rng::new(3);
    let stop = AtomicBool::new(false);
    let (mut wins, mut losses) = (0, 0);
    while wins < 15 || losses < 15 {
        let len = 14 + rng.below(20);
        let (pos, moves) = random_position(&mut rng, &start, len);
        let sol = solver.solve(&pos, &unlimited(&stop)).unwrap();
        let plies = MATE - sol.value.abs();
        if sol.value == 0 || plies > 7 || (sol.value > 0 && wins >= 15) {
            continue;
        }
        if sol.value < 0 && losses >= 15 {
            continue;
        }
        searcher.clear();
        let plain = searcher.search(&pos, &Limits::depth(plies as u32), &stop, &mut |_| {});
        assert_eq!(plain.value, sol.value, "{moves}: plies {plies}");
        if sol.value > 0 {
            wins += 1;
        } else {
            losses += 1;
        }
    }
}

#[test]
fn value_conversion_by_hand() {
    // Pons' score s at `moves` discs: a win with the side to move's (22 - s)-th disc, a loss
    // to the opponent's (22 + s)-th.
    // Empty board, score 1: the first player's 21st disc is the 41st move, 41 plies away.
    assert_eq!(value_from_score(1, 0, 42), MATE - 41);
    // 10 discs down, first player to move (5 discs played), score 16: its 6th disc, at once.
    assert_eq!(value_from_score(16, 10, 42), MATE - 1);
    // 11 discs down, second player to move (5 played), the first player (6 played) wins
    // with its 7th disc: score -15, 2 plies away.
    assert_eq!(value_from_score(-15, 11, 42), -(MATE - 2));
    assert_eq!(value_from_score(0, 20, 42), 0);
}

#[test]
fn finished_games_and_immediate_wins() {
    let start = Connect4::default();
    let mut solver = Connect4Solver::with_table_mb(&start, 16).unwrap();
    let stop = AtomicBool::new(false);
    let play = |moves: &str| {
        let mut p = start;
        for c in moves.chars() {
            p.play(c.to_digit(10).unwrap() as u8 - 1);
        }
        p
    };
    // x has three in column 1 and moves: it wins at once with its 4th disc.
    let p = play("121212");
    let sol = solver.solve(&p, &unlimited(&stop)).unwrap();
    assert_eq!(solver.score(&p).score, 22 - 4);
    assert_eq!(sol.value, MATE - 1);
    assert_eq!(sol.best, Some(0));
    // After x completes the four, o has lost to x's 4th disc.
    let q = play("1212121");
    assert_eq!(solver.score(&q).score, -(22 - 4));
    let sol = solver.solve(&q, &unlimited(&stop)).unwrap();
    assert_eq!((sol.best, sol.value, sol.pv.len()), (None, -MATE, 0));
}

#[test]
fn budget_and_stop_are_honoured() {
    let start = Connect4::default();
    let mut solver = Connect4Solver::with_table_mb(&start, 64).unwrap();
    // The search's budgets, not the opening book's answers.
    solver.set_book(false);
    // The empty board takes far longer than any budget here.
    let stopped = AtomicBool::new(true);
    let t = Instant::now();
    assert!(solver.solve(&start, &unlimited(&stopped)).is_none());
    assert!(t.elapsed() < Duration::from_millis(1000));

    let stop = AtomicBool::new(false);
    let capped = Budget {
        stop: &stop,
        deadline: None,
        nodes: Some(20_000),
    };
    assert!(solver.solve(&start, &capped).is_none());

    let t = Instant::now();
    let timed = Budget {
        stop: &stop,
        deadline: Some(t + Duration::from_millis(30)),
        nodes: None,
    };
    assert!(solver.solve(&start, &timed).is_none());
    assert!(
        t.elapsed() < Duration::from_millis(1000),
        "{:?}",
        t.elapsed()
    );

    // A stop from another thread, with two search threads.
    solver.set_threads(2);
    let stop = AtomicBool::new(false);
    let (answer, late) = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(50));
            stop.store(true, Ordering::Relaxed);
        });
        let t = Instant::now();
        let answer = solver.solve(&start, &unlimited(&stop));
        (answer, t.elapsed())
    });
    assert!(answer.is_none());
    assert!(late < Duration::from_millis(1000), "{late:?}");

    // What an abandoned search left in the table is still right.
    solver.set_threads(1);
    stop.store(false, Ordering::Relaxed);
    let p = {
        let mut p = start;
        for c in "4453".chars() {
            p.play(c.to_digit(10).unwrap() as u8 - 1);
        }
        p
    };
    let _ = solver.solve(
        &p,
        &Budget {
            stop: &stop,
            deadline: None,
            nodes: Some(200_000),
        },
    );
    let mut ai = AiSolver::new();
    let (q, moves) = random_position(&mut Rng::new(9), &p, 6);
    let full = format!("4453{moves}");
    assert_eq!(solver.score(&q).score, oracle(&mut ai, &full), "{full}");
}

/// The exact Pons score by memoised minimax over the whole game tree (small boards only).
fn brute_force(pos: &Connect4, memo: &mut HashMap<u64, i32>) -> i32 {
    let cells = (pos.rules().width * pos.rules().height) as i32;
    let top = (cells + 1) / 2 + 1;
    if let Some(o) = pos.outcome() {
        return match o {
            Outcome::Draw => 0,
            Outcome::Win(_) => -(top - (pos.moves_played() as i32 + 1) / 2),
        };
    }
    if let Some(&v) = memo.get(&pos.key()) {
        return v;
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let v = moves
        .into_iter()
        .map(|m| {
            let mut c = *pos;
            c.play(m);
            -brute_force(&c, memo)
        })
        .max()
        .unwrap();
    memo.insert(pos.key(), v);
    v
}

#[test]
fn small_boards_match_brute_force() {
    let mut rng = Rng::new(4);
    for (w, h) in [(4, 4), (5, 4), (4, 5)] {
        let start = Connect4::new(
            &Params::parse([
                format!("width={w}").as_str(),
                format!("height={h}").as_str(),
            ])
            .unwrap(),
        )
        .unwrap();
        let mut solver = Connect4Solver::with_table_mb(&start, 8).unwrap();
        let mut memo = HashMap::new();
        assert_eq!(
            solver.score(&start).score,
            brute_force(&start, &mut memo),
            "{w}x{h} start"
        );
        for _ in 0..60 {
            let len = rng.below((w * h - 2) as usize);
            let (pos, moves) = random_position(&mut rng, &start, len);
            solver.reset();
            assert_eq!(
                solver.score(&pos).score,
                brute_force(&pos, &mut memo),
                "{w}x{h} {moves}"
            );
        }
    }
}

#[test]
fn sizes_and_solvable() {
    let big = Connect4::new(&Params::parse(["width=8", "height=7"]).unwrap()).unwrap();
    assert!(Connect4Solver::new(&big).is_none());
    assert!(<Connect4 as Solvable>::solver(&big, 16).is_none());
    let mut s = <Connect4 as Solvable>::solver(&Connect4::default(), 16).expect("7x6 is solved");
    let stop = AtomicBool::new(false);
    let p = {
        let mut p = Connect4::default();
        for c in "44444433333322".chars() {
            p.play(c.to_digit(10).unwrap() as u8 - 1);
        }
        p
    };
    let sol = s.solve(&p, &unlimited(&stop)).unwrap();
    assert!(sol.best.is_some());
}

/// Opening positions (6 to 12 discs) against the oracle: minutes in the test profile, so run by
/// `scripts/checks/test_c4_solver_heavy.sh` (release) rather than by `cargo test`.
#[test]
#[ignore]
fn heavy_opening_positions_match_connect_four_ai() {
    compare_with_oracle(5, 6..=12, 15);
}

/// The empty board: the first player wins with its last disc.
#[test]
#[ignore]
fn heavy_empty_board_scores_one() {
    let start = Connect4::default();
    let mut solver = Connect4Solver::with_table_mb(&start, 1024).unwrap();
    solver.set_threads(2);
    assert_eq!(solver.score(&start).score, 1);
}
