//! Perfect play where plain search reaches it (`UseSolver false`), and the same answers from
//! the solvers: tic-tac-toe's start is a draw, the seeds' stick game is won by taking 2 from
//! 10 and lost from 12, and Connect Four positions with a forced result within 5 moves are
//! reported as `mate n` with the right `n` (checked against the connect-four-ai solver).

mod common;

use common::PlyProcess;
use ply::game::{Game, Params};
use ply::games::Connect4;
use ply::util::Rng;

#[test]
fn tictactoe_start_is_a_draw_at_full_depth() {
    let mut e = PlyProcess::start();
    e.send("newgame tictactoe");
    for solver in ["false", "true"] {
        e.send(&format!("setoption name UseSolver value {solver}"));
        let g = e.go("go depth 9");
        assert_eq!(g.score(), "cp 0", "solver {solver}");
        assert_eq!(g.field("depth").as_deref(), Some("9"));
    }
}

#[test]
fn nim_ten_is_won_by_taking_two_and_twelve_is_lost() {
    let mut e = PlyProcess::start();
    for solver in ["false", "true"] {
        e.send("newgame nim length=10 max=3");
        e.send(&format!("setoption name UseSolver value {solver}"));
        let g = e.go("go depth 20");
        assert_eq!(g.bestmove, "2", "solver {solver}");
        // Take 2, then answer t with 4 - t twice: the fifth ply is the last, the third move.
        assert_eq!(g.score(), "mate 3");
        e.send("newgame nim length=12 max=3");
        let g = e.go("go depth 20");
        // Lost: the opponent's reply restores a multiple of 4 every time; 3 rounds.
        assert_eq!(g.score(), "mate -3", "solver {solver}");
        // The seeds' 14 (their minimax's example) is won by taking 2 as well.
        e.send("newgame nim length=14 max=3");
        assert_eq!(e.go("go depth 20").bestmove, "2");
    }
}

/// Pons' score → (moves, winning?) for the side to move: a win with its (22 - s)-th disc, or
/// a loss to the opponent's (22 + s)-th.
fn mate_in(score: i8, discs: usize) -> Option<i32> {
    let s = score as i32;
    let m = discs as i32;
    match s {
        0 => None,
        s if s > 0 => Some(22 - s - m / 2),
        s => Some(-(22 + s - (m + 1) / 2)),
    }
}

/// A random Connect Four game of up to `len` moves, stopped before a move that would end it:
/// its moves as column digits.
fn random_game(rng: &mut Rng, len: usize) -> String {
    let mut pos = Connect4::new(&Params::new()).unwrap();
    let mut seq = String::new();
    let mut moves = Vec::new();
    for _ in 0..len {
        moves.clear();
        pos.legal_moves(&mut moves);
        let m = moves[rng.below(moves.len())];
        let mut next = pos;
        next.play(m);
        if next.outcome().is_some() {
            break;
        }
        seq.push_str(&pos.format_move(m));
        pos = next;
    }
    seq
}

#[test]
fn connect4_short_forced_results_are_exact_mates() {
    use connect_four_ai::{Position, Solver};
    let mut oracle = Solver::empty();
    let mut rng = Rng::new(2024);
    let mut found: Vec<(String, i32)> = Vec::new();
    let mut tries = 0;
    // Random games cut at a random length; keep the positions whose exact result is a win
    // or a loss within 5 moves, until there are 40 of them (both signs).
    while found.len() < 40 && tries < 20_000 {
        tries += 1;
        let len = 8 + rng.below(28);
        let seq = random_game(&mut rng, len);
        if seq.is_empty() {
            continue;
        }
        let Ok(p) = Position::from_moves(&seq) else {
            continue;
        };
        let Some(n) = mate_in(oracle.solve(&p), seq.len()) else {
            continue;
        };
        let losses = found.iter().filter(|f| f.1 < 0).count();
        if n.abs() <= 5 && (n > 0 || losses < 20) && !found.iter().any(|f| f.0 == seq) {
            found.push((seq, n));
        }
    }
    assert!(found.len() >= 30, "only {} positions found", found.len());
    assert!(found.iter().any(|f| f.1 < 0) && found.iter().any(|f| f.1 > 0));

    let mut e = PlyProcess::start();
    e.send("newgame connect4");
    e.send("setoption name UseSolver value false");
    for (seq, n) in &found {
        let moves: Vec<String> = seq.chars().map(|c| c.to_string()).collect();
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        // A win in n moves is 2n - 1 plies away, a loss 2n: search one ply beyond.
        let depth = 2 * n.abs() + 1;
        let g = e.go(&format!("go depth {depth}"));
        assert_eq!(g.score(), format!("mate {n}"), "position {seq}");
        // The move keeps the result: after it, the opponent's exact score says so.
        let mut after = Position::from_moves(seq).unwrap();
        let col: usize = g.bestmove.parse().unwrap();
        if after.is_winning_move(col - 1) {
            assert_eq!(*n, 1, "{seq}: an immediate win is mate 1");
            continue;
        }
        after.play(col - 1);
        let reply = mate_in(oracle.solve(&after), seq.len() + 1).unwrap();
        if *n > 0 {
            assert_eq!(
                reply,
                -(n - 1),
                "{seq}: {} keeps the fastest win",
                g.bestmove
            );
        } else {
            assert_eq!(reply, -n, "{seq}: {} is the slowest loss", g.bestmove);
        }
    }
}

#[test]
fn connect4_go_answers_from_the_exact_solver() {
    // With UseSolver on (the default), a `go depth 1` in a middle-game position is answered
    // by the exact solver: the score is the exact result (`mate n`, or `cp 0` for a draw,
    // both far beyond what one ply of search can see) and the move keeps it.
    use connect_four_ai::{Position, Solver};
    let mut oracle = Solver::empty();
    let mut rng = Rng::new(77);
    let mut e = PlyProcess::start();
    e.send("newgame connect4");
    let (mut checked, mut long, mut draws) = (0, 0, 0);
    // Random play mostly ends fast; go on until long results and draws were among them.
    while checked < 30 || ((long < 10 || draws < 3) && checked < 1000) {
        // Random games of 18 to 29 discs, cut before anything ends.
        let len = 18 + rng.below(12);
        let seq = random_game(&mut rng, len);
        if seq.len() < 18 {
            continue;
        }
        let exact = mate_in(
            oracle.solve(&Position::from_moves(&seq).unwrap()),
            seq.len(),
        );
        let words: Vec<String> = seq.chars().map(|c| c.to_string()).collect();
        e.send(&format!("position startpos moves {}", words.join(" ")));
        let g = e.go("go depth 1");
        let want = exact.map_or("cp 0".to_string(), |n| format!("mate {n}"));
        assert_eq!(g.score(), want, "position {seq}");
        // The move keeps the result (a win at once only when the result is mate 1).
        let col: usize = g.bestmove.parse().unwrap();
        let mut after = Position::from_moves(&seq).unwrap();
        if after.is_winning_move(col - 1) {
            assert_eq!(exact, Some(1), "{seq}");
        } else {
            after.play(col - 1);
            let reply = mate_in(oracle.solve(&after), seq.len() + 1);
            let kept = match exact {
                None => reply.is_none(),
                Some(n) if n > 0 => reply == Some(-(n - 1)),
                Some(n) => reply == Some(-n),
            };
            assert!(
                kept,
                "{seq}: {} gives {reply:?} after {exact:?}",
                g.bestmove
            );
        }
        checked += 1;
        long += exact.is_some_and(|n| n.abs() > 3) as usize;
        draws += exact.is_none() as usize;
    }
    // Results a depth-1 search could never prove were among them.
    assert!(long >= 10 && draws >= 3, "long {long}, draws {draws}");
}
