//! The seeds' test positions, through the protocol.
//!
//! Seed 001 (exercise 8-1's book tests) has three tic-tac-toe positions; seed 000
//! (exercise 2) and seed 001 (exercise 8-2) have five Connect Four positions, each with the
//! book's expected answer at depth 3. Each answer is first checked against perfect play,
//! computed here independently of ply (a brute force for tic-tac-toe, the `connect-four-ai`
//! solver for Connect Four): the tests assert the set of best moves (the fastest win or the
//! slowest loss) and say where the book differs. Then ply must choose inside that set, with
//! its plain search (`UseSolver false`) and with its solvers.
//!
//! Translation: the seeds number tic-tac-toe cells 0..8 from the top left (ours: 0 = a3,
//! 2 = c3, 6 = a1) and Connect Four columns 0..6 (ours: 1..7); their first player (X, or B
//! in Connect Four) is our `x`.

mod common;

use std::collections::BTreeSet;

use common::PlyProcess;

struct Seed {
    name: &'static str,
    fen: &'static str,
    /// The book's answer, in our notation.
    book: &'static str,
    /// Moves with the best perfect-play score.
    best: &'static [&'static str],
}

fn set(moves: &[&str]) -> BTreeSet<String> {
    moves.iter().map(|s| s.to_string()).collect()
}

// ---------------------------------------------------------------------------------------
// Tic-tac-toe

const TTT: &[Seed] = &[
    // [X,O,X, X,E,O, E,E,O], X to move; book 6 = a1 (completes the a-file).
    Seed {
        name: "easy",
        fen: "xox/x.o/..o x",
        book: "a1",
        best: &["a1"],
    },
    // [X,E,E, E,E,O, E,X,O], X to move; book 2 = c3 (blocks the c-file, and wins later).
    Seed {
        name: "block",
        fen: "x../..o/.xo x",
        book: "c3",
        best: &["c3"],
    },
    // [X,E,E, E,E,O, O,X,E], X to move; book 1 = b3. b2 is just as good: both make two
    // threats at once and win on X's next move.
    Seed {
        name: "hard",
        fen: "x../..o/ox. x",
        book: "b3",
        best: &["b3", "b2"],
    },
];

/// Exact value for the side to move by plain minimax: +(10 - plies) for a win, -(10 - plies)
/// for a loss, 0 for a draw. Cells as the seeds number them (0..8 from the top left).
fn ttt_value(board: &mut [u8; 9], me: u8, plies: i32) -> i32 {
    const LINES: [[usize; 3]; 8] = [
        [0, 1, 2],
        [3, 4, 5],
        [6, 7, 8],
        [0, 3, 6],
        [1, 4, 7],
        [2, 5, 8],
        [0, 4, 8],
        [2, 4, 6],
    ];
    let them = 3 - me;
    if LINES.iter().any(|l| l.iter().all(|&i| board[i] == them)) {
        return -(10 - plies);
    }
    let mut best = None;
    for i in 0..9 {
        if board[i] == 0 {
            board[i] = me;
            let v = -ttt_value(board, them, plies + 1);
            board[i] = 0;
            best = Some(best.map_or(v, |b: i32| b.max(v)));
        }
    }
    best.unwrap_or(0)
}

/// Best moves by brute force, for a position in our notation (x to move in all three).
fn ttt_best(fen: &str) -> BTreeSet<String> {
    let rows: Vec<&str> = fen.split_whitespace().next().unwrap().split('/').collect();
    let mut board = [0u8; 9];
    for (r, row) in rows.iter().enumerate() {
        for (f, c) in row.chars().enumerate() {
            board[3 * r + f] = match c {
                'x' => 1,
                'o' => 2,
                _ => 0,
            };
        }
    }
    let mut scored = Vec::new();
    for i in 0..9 {
        if board[i] == 0 {
            board[i] = 1;
            let v = -ttt_value(&mut board, 2, 1);
            board[i] = 0;
            let name = format!("{}{}", (b'a' + (i % 3) as u8) as char, 3 - i / 3);
            scored.push((v, name));
        }
    }
    let top = scored.iter().map(|s| s.0).max().unwrap();
    scored
        .into_iter()
        .filter(|s| s.0 == top)
        .map(|s| s.1)
        .collect()
}

#[test]
fn tictactoe_book_answers_against_perfect_play() {
    for s in TTT {
        assert_eq!(ttt_best(s.fen), set(s.best), "{}: best moves", s.name);
        assert!(
            set(s.best).contains(s.book),
            "{}: the book's answer is among the best",
            s.name
        );
    }
}

#[test]
fn tictactoe_seed_positions_through_the_protocol() {
    let mut e = PlyProcess::start();
    e.send("newgame tictactoe");
    for solver in ["false", "true"] {
        e.send(&format!("setoption name UseSolver value {solver}"));
        for s in TTT {
            e.send(&format!("position fen {}", s.fen));
            // The book searched to depth 8 (its default); ply searches to the end.
            let g = e.go("go depth 9");
            assert!(
                set(s.best).contains(&g.bestmove),
                "{} (solver {solver}): {}",
                s.name,
                g.bestmove
            );
            assert!(g.score().starts_with("mate "), "{}: {}", s.name, g.score());
        }
    }
}

// ---------------------------------------------------------------------------------------
// Connect Four

struct C4Seed {
    seed: Seed,
    /// A move sequence (columns 1..7) reaching the position, for the oracle.
    moves: &'static str,
    /// The best perfect-play score (Pascal Pons' convention).
    best_score: i8,
}

const C4: &[C4Seed] = &[
    // Seed 000, test_easy_position: R (second player, o) to move; book 4 -> our 5.
    // Every move wins; 5 and 6 win at once.
    C4Seed {
        seed: Seed {
            name: "000 easy",
            fen: "......./..xx.../..oo.../..xox../.xoxo../.oxxo.. o",
            book: "5",
            best: &["5", "6"],
        },
        moves: "322333354544544",
        best_score: 14,
    },
    // Seed 000, test_block_position: R to move; book 5 -> our 6, which blocks B and keeps
    // the win (score 13). The book is not the best move: 3 completes a diagonal at once
    // (score 14).
    C4Seed {
        seed: Seed {
            name: "000 block",
            fen: "......./......./...o.../...oxx./.oxxox./oxxoxo. o",
            book: "6",
            best: &["3"],
        },
        moves: "213234445556646",
        best_score: 14,
    },
    // Seed 000, test_hard_position: R to move; book 3 -> our 4. Every move wins; 2 and 4
    // win fastest (score 5).
    C4Seed {
        seed: Seed {
            name: "000 hard",
            fen: "......./......./..xo.../..oox../.oxxo../xxxoxo. o",
            book: "4",
            best: &["2", "4"],
        },
        moves: "142236334434555",
        best_score: 5,
    },
    // Seed 001, exercise 8-2 easy: B (x) to move; book 0 -> our 1, the vertical four.
    C4Seed {
        seed: Seed {
            name: "001 easy",
            fen: "......./......./......./xo...../xo...../xo..... x",
            book: "1",
            best: &["1"],
        },
        moves: "121212",
        best_score: 18,
    },
    // Seed 001, exercise 8-2 block: B to move; book 1 -> our 2. The position is lost (every
    // move loses); 2 is the only move that does not lose at once, the slowest loss (-3).
    C4Seed {
        seed: Seed {
            name: "001 block",
            fen: "......./......./......./.o...../xo...../xox.... x",
            book: "2",
            best: &["2"],
        },
        moves: "121232",
        best_score: -3,
    },
];

#[test]
fn connect4_book_answers_against_perfect_play() {
    use connect_four_ai::{Position, Solver};
    let mut oracle = Solver::empty();
    for c in C4 {
        let pos = Position::from_moves(c.moves).expect("the sequence is legal");
        let scores = oracle.get_all_move_scores(&pos);
        let best = scores.iter().flatten().copied().max().unwrap();
        let best_set: BTreeSet<String> = scores
            .iter()
            .enumerate()
            .filter(|(_, s)| **s == Some(best))
            .map(|(col, _)| (col + 1).to_string())
            .collect();
        assert_eq!(best, c.best_score, "{}: best score", c.seed.name);
        assert_eq!(best_set, set(c.seed.best), "{}: best moves", c.seed.name);
        let book = scores[c.seed.book.parse::<usize>().unwrap() - 1].unwrap();
        if c.seed.name == "000 block" {
            // The one book answer that is not the best move: it keeps the win, slower.
            assert!(book > 0 && book < best, "000 block: book score {book}");
        } else {
            assert_eq!(
                book, best,
                "{}: the book's answer is among the best",
                c.seed.name
            );
        }
    }
}

#[test]
fn connect4_sequences_reach_the_seed_positions() {
    let mut e = PlyProcess::start();
    e.send("newgame connect4");
    for c in C4 {
        let moves: Vec<String> = c.moves.chars().map(|ch| ch.to_string()).collect();
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        assert_eq!(e.query("fen"), c.seed.fen, "{}", c.seed.name);
    }
}

#[test]
fn connect4_seed_positions_through_the_protocol() {
    let mut e = PlyProcess::start();
    e.send("newgame connect4");
    e.send("setoption name UseSolver value false");
    for c in C4 {
        e.send(&format!("position fen {}", c.seed.fen));
        // The book searched to depth 3; plain search at depth 3 already finds the best
        // move in four of the five, and 000 hard needs the whole forced line (19 plies).
        let depth = if c.seed.name == "000 hard" { 19 } else { 3 };
        let g = e.go(&format!("go depth {depth}"));
        assert!(
            set(c.seed.best).contains(&g.bestmove),
            "{}: ply chose {} (best {:?})",
            c.seed.name,
            g.bestmove,
            c.seed.best
        );
    }
    // The forced wins are reported with their exact distance.
    e.send(&format!("position fen {}", C4[2].seed.fen));
    assert_eq!(e.go("go depth 19").score(), "mate 10");
    e.send(&format!("position fen {}", C4[1].seed.fen));
    assert_eq!(e.go("go depth 3").score(), "mate 1");
}
