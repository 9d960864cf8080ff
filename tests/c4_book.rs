//! The Connect Four opening book compiled into ply: well formed, covering what it claims (every
//! position of its fully covered plies, and every reply to its own moves down to its depth,
//! for both colours), and right: a sample of its entries re-solved by the solver, and every
//! entry above the fully covered plies' last consistent with its children's. The engine answers
//! from it (`go movetime 100` on the empty board is `bestmove 4`, `score mate 21`) and
//! searches instead with `UseBook false`.

mod common;

use std::sync::atomic::AtomicBool;

use ply::game::{Game, Outcome};
use ply::games::Connect4;
use ply::solve::Budget;
use ply::solve::connect4::Connect4Solver;
use ply::solve::connect4::book::{Book, canonical_key, position_of_key};

/// ply's SplitMix64 with a modulo draw: a fixed seed, so every run tests the same sample.
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

fn legal(pos: &Connect4) -> Vec<u8> {
    let mut v = Vec::new();
    pos.legal_moves(&mut v);
    v
}

/// Re-solves `entries` (key, score, column): the score is the solver's, and the move keeps
/// it (wins at once with the right score, or leads to a child scored `-score`).
fn check_entries(entries: &[(u64, i32, u8)]) {
    let mut solver = Connect4Solver::with_table_mb(&Connect4::default(), 64).unwrap();
    solver.set_book(false);
    for &(key, score, col) in entries {
        let pos = position_of_key(key).expect("a book key is a position");
        assert_eq!(canonical_key(pos.current(), pos.mask()).0, key);
        assert_eq!(solver.score(&pos).score, score, "{}", pos.fen());
        let mut child = pos;
        child.play(col);
        match child.outcome() {
            Some(Outcome::Win(_)) => {
                assert_eq!(
                    score,
                    22 - (pos.moves_played() as i32 / 2 + 1),
                    "{}",
                    pos.fen()
                )
            }
            Some(Outcome::Draw) => assert_eq!(score, 0),
            None => assert_eq!(
                solver.score(&child).score,
                -score,
                "{}: book move {} does not keep the score",
                pos.fen(),
                col + 1
            ),
        }
    }
}

#[test]
fn builtin_book_is_well_formed_and_deep() {
    let book = Book::builtin();
    assert!(book.len() > 1000, "{} entries", book.len());
    assert!(
        book.depth >= 8 && book.open >= 2,
        "{} {}",
        book.depth,
        book.open
    );
    // Every key decodes to a position with at most `depth` discs, in its canonical
    // orientation, and the move is legal there.
    for (key, score, col) in book.entries() {
        let pos = position_of_key(key).expect("a position");
        assert!(pos.moves_played() <= book.depth);
        assert_eq!(canonical_key(pos.current(), pos.mask()), (key, false));
        assert!(pos.outcome().is_none());
        assert!(
            legal(&pos).contains(&col),
            "{}: column {}",
            pos.fen(),
            col + 1
        );
        assert!((-21..=21).contains(&score));
    }
}

/// The positions of each number of discs up to `full`, one per mirror pair (by book key).
fn levels(full: u32) -> Vec<std::collections::BTreeMap<u64, Connect4>> {
    let start = Connect4::default();
    let mut levels = vec![std::collections::BTreeMap::from([(
        canonical_key(start.current(), start.mask()).0,
        start,
    )])];
    for _ in 0..full {
        let mut next = std::collections::BTreeMap::new();
        for p in levels.last().unwrap().values() {
            for m in legal(p) {
                let mut c = *p;
                c.play(m);
                if c.outcome().is_none() {
                    next.insert(canonical_key(c.current(), c.mask()).0, c);
                }
            }
        }
        levels.push(next);
    }
    levels
}

#[test]
fn book_covers_its_full_plies_and_every_reply_to_its_moves() {
    let book = Book::builtin();
    let start = Connect4::default();
    // Every position of the fully covered plies (mirror images share an entry).
    assert!(book.full >= book.open);
    for level in levels(book.full) {
        for p in level.values() {
            assert!(book.lookup(p).is_some(), "not in the book: {}", p.fen());
        }
    }
    // Random games: the open plies at random, then each colour playing the book's moves
    // against random replies; every position of that colour down to the depth is covered.
    let mut rng = Rng::new(7);
    for game in 0..400 {
        let book_side_first = game % 2 == 0;
        let mut pos = start;
        while pos.moves_played() <= book.depth && pos.outcome().is_none() {
            let moves = legal(&pos);
            let ours = (pos.moves_played() % 2 == 0) == book_side_first;
            let mv = if ours {
                let m = book
                    .lookup(&pos)
                    .unwrap_or_else(|| panic!("not in the book: {}", pos.fen()));
                if pos.moves_played() < book.open {
                    moves[rng.below(moves.len())]
                } else {
                    m.column
                }
            } else {
                moves[rng.below(moves.len())]
            };
            pos.play(mv);
        }
    }
}

/// The score a position has by its children's book entries (a win at once scores by the
/// mover's disc count), and the moves that reach it.
fn backed_up(book: &Book, pos: &Connect4) -> (i32, Vec<u8>) {
    let values: Vec<(u8, i32)> = legal(pos)
        .into_iter()
        .map(|m| {
            let mut c = *pos;
            c.play(m);
            let v = match c.outcome() {
                Some(Outcome::Win(_)) => 22 - (pos.moves_played() as i32 / 2 + 1),
                Some(Outcome::Draw) => 0,
                None => -book.lookup(&c).expect("a child in the book").score,
            };
            (m, v)
        })
        .collect();
    let best = values.iter().map(|&(_, v)| v).max().unwrap();
    (
        best,
        values
            .iter()
            .filter(|&&(_, v)| v == best)
            .map(|&(m, _)| m)
            .collect(),
    )
}

#[test]
fn entries_below_the_full_plies_follow_from_their_children() {
    // Below `full` every child is in the book, so each entry's score must be the best of its
    // children's, and its move one that reaches it: the deepest level was solved, and this
    // checks every shallower entry against it (solved or backed up, they must agree).
    let book = Book::builtin();
    let all = levels(book.full.saturating_sub(1));
    for level in &all {
        for p in level.values() {
            let entry = book.lookup(p).expect("in the book");
            let (score, moves) = backed_up(&book, p);
            assert_eq!(entry.score, score, "{}", p.fen());
            assert!(
                moves.contains(&entry.column),
                "{}: book move {} does not keep {score}",
                p.fen(),
                entry.column + 1
            );
        }
    }
}

#[test]
fn mirror_images_share_an_entry_with_the_move_mirrored() {
    let book = Book::builtin();
    let start = Connect4::default();
    let play = |moves: &[u8]| {
        let mut p = start;
        for &m in moves {
            p.play(m);
        }
        p
    };
    // 1 then 2 (columns 0, 1) and its mirror 7 then 6.
    let a = book.lookup(&play(&[0, 1])).expect("in the book");
    let b = book.lookup(&play(&[6, 5])).expect("in the book");
    assert_eq!(a.score, b.score);
    assert_eq!(a.column, 6 - b.column);
}

#[test]
fn a_sample_of_entries_re_solved() {
    // 60 entries from the deepest three depths, where a solve takes milliseconds (the heavy
    // test below re-solves the shallow ones).
    let book = Book::builtin();
    let deep: Vec<_> = book
        .entries()
        .filter(|&(k, _, _)| position_of_key(k).unwrap().moves_played() + 2 >= book.depth)
        .collect();
    let mut rng = Rng::new(11);
    let sample: Vec<_> = (0..60).map(|_| deep[rng.below(deep.len())]).collect();
    check_entries(&sample);
}

/// Entries at every depth, the shallow ones taking seconds to minutes each: run by
/// `scripts/checks/test_c4_solver_heavy.sh` (release).
#[test]
#[ignore]
fn heavy_entries_at_every_depth_re_solved() {
    let book = Book::builtin();
    let mut rng = Rng::new(12);
    let mut sample = Vec::new();
    for d in 0..=book.depth {
        let at: Vec<_> = book
            .entries()
            .filter(|&(k, _, _)| position_of_key(k).unwrap().moves_played() == d)
            .collect();
        for _ in 0..at.len().min(if d < 4 { 2 } else { 8 }) {
            sample.push(at[rng.below(at.len())]);
        }
    }
    check_entries(&sample);
}

#[test]
fn the_solver_answers_from_the_book_unless_told_not_to() {
    let start = Connect4::default();
    let mut solver = Connect4Solver::with_table_mb(&start, 16).unwrap();
    let stop = AtomicBool::new(false);
    let none = Budget {
        stop: &stop,
        deadline: None,
        nodes: Some(1000),
    };
    use ply::solve::Solver;
    let sol = solver.solve(&start, &none).expect("the book answers");
    assert_eq!((sol.best, sol.tbhits, sol.nodes), (Some(3), 1, 0));
    assert_eq!(sol.score().to_string(), "mate 21");
    solver.set_book(false);
    assert!(
        solver.solve(&start, &none).is_none(),
        "1000 nodes cannot solve the empty board"
    );
}

#[test]
fn go_on_the_empty_board_answers_mate_21_from_the_book() {
    let mut e = common::PlyProcess::start();
    e.send("newgame connect4");
    e.send("position startpos");
    e.send("go movetime 100");
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    assert_eq!(lines.last().unwrap(), "bestmove 4");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("score mate 21") && l.contains("tbhits 1")),
        "{lines:?}"
    );
    // Without the book, 100 ms cannot prove it: the heuristic search answers.
    e.send("setoption name UseBook value false");
    e.send("go movetime 100");
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    assert!(lines.iter().all(|l| !l.contains("tbhits")), "{lines:?}");
    e.send("setoption name UseBook value maybe");
    e.send("isready");
    let lines = e.read_until(|l| l == "readyok");
    assert!(
        lines[0].contains("UseBook needs true or false"),
        "{lines:?}"
    );
}

#[test]
fn the_solver_asks_for_clock_time_just_past_the_book() {
    use ply::game::Params;
    use ply::solve::Solver;
    let start = Connect4::default();
    let mut solver = Connect4Solver::with_table_mb(&start, 16).unwrap();
    let (depth, full) = (Book::builtin().depth, Book::builtin().full);
    let mut pos = start;
    let mut shares = Vec::new();
    // Play the centre-first first legal move until the board holds depth + 10 discs (or the
    // game ends).
    while pos.moves_played() < depth + 10 && pos.outcome().is_none() {
        shares.push((pos.moves_played(), solver.proof_share(&pos)));
        pos.play(legal(&pos)[0]);
    }
    assert!(
        shares.len() > depth as usize + 8,
        "{} positions",
        shares.len()
    );
    for (discs, share) in shares {
        let want = if discs > full && discs <= depth + 8 {
            0.25
        } else {
            0.0
        };
        assert_eq!(share, want, "{discs} discs");
    }
    let mut past_book = start;
    for _ in 0..=depth {
        past_book.play(legal(&past_book)[0]);
    }
    assert_eq!(solver.proof_share(&past_book), 0.25);
    solver.set_book(false);
    assert_eq!(solver.proof_share(&past_book), 0.0);
    // Other sizes have no book.
    let big = Connect4::new(&Params::parse(["width=8", "height=6"]).unwrap()).unwrap();
    let mut s8 = Connect4Solver::with_table_mb(&big, 16).unwrap();
    let mut p8 = big;
    for _ in 0..=depth {
        p8.play(legal(&p8)[0]);
    }
    assert_eq!(s8.proof_share(&p8), 0.0);
    s8.set_book(true);
    assert_eq!(s8.proof_share(&p8), 0.0);
}
