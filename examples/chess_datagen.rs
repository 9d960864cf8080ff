//! Training positions for the chess network (docs/chess.md, "The network"): ply plays itself
//! at a fixed number of nodes a move, from openings of a few random plies, and writes every
//! quiet position it met with its search's score and the game's result.
//!
//! Usage: `cargo run --release --example chess_datagen -- OUT GAMES [NODES] [THREADS] [SEED]`
//! (defaults: 5,000 nodes, 2 threads, seed 1). Appends to OUT, one line a position:
//!
//! ```text
//! FEN;SCORE;RESULT
//! ```
//!
//! SCORE is the search's value for White in the evaluation's units (a pawn is about 100);
//! RESULT the game's, for White: `1`, `0.5` or `0`. Kept: the side to move is not in check,
//! the move played is neither a capture nor a promotion, the score is not a mate, and the
//! game is past its random opening. A game ends by the rules (repetition included), or is
//! adjudicated: won once one side's score has been at least 1,500 for four plies in a row,
//! drawn once both have been within 10 for ten plies in a row after move 40, or at 400 plies.
//! A game's positions are written together when it ends.
//!
//! The search is chess's as the engine runs it, less the techniques `PLY_SEARCH_OFF` names
//! (protocol.md, Environment): the first network's data was labelled with
//! `PLY_SEARCH_OFF=network`, the weighted evaluation's search.

use std::fs::OpenOptions;
use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use ply::game::{Game, Line, Outcome, Player};
use ply::games::Chess;
use ply::search::{Limits, Root, Searcher, TechniquesOff};
use ply::util::Rng;
use ply::value::MATE_BOUND;

/// Random plies before the recorded play: 8 or 9, so both sides get to move first.
const RANDOM_PLIES: u64 = 8;

/// One game from a random opening; the recorded lines, or none when the opening ended the game.
fn play_game(searcher: &mut Searcher<Chess>, nodes: u64, rng: &mut Rng) -> Vec<String> {
    let stop = AtomicBool::new(false);
    let mut line = Line::new(Chess::default());
    let mut moves = Vec::new();
    for _ in 0..RANDOM_PLIES + rng.next_u64() % 2 {
        moves.clear();
        line.legal_moves(&mut moves);
        if moves.is_empty() || line.outcome().is_some() {
            return Vec::new();
        }
        line.play(moves[rng.below(moves.len())]);
    }
    searcher.clear();
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    // (FEN, score for White) of each kept position.
    let mut kept: Vec<(String, i32)> = Vec::new();
    let (mut winning, mut level) = (0u32, 0u32);
    let mut last_winner = None;
    let mut plies = 0;
    let result = loop {
        if let Some(o) = line.outcome() {
            break o;
        }
        if plies >= 400 {
            break Outcome::Draw;
        }
        let root = Root {
            earlier: line.earlier(),
            ..Root::new(line.pos())
        };
        let r = searcher.search_root(&root, &limits, &stop, &mut |_| {});
        let Some(best) = r.best else {
            break Outcome::Draw;
        };
        let white = if line.side_to_move() == Player::First {
            r.value
        } else {
            -r.value
        };
        if r.value.abs() < MATE_BOUND && !line.in_check() && line.noisy_score(best).is_none() {
            kept.push((line.fen(), white));
        }
        // Adjudication by the search's own scores.
        let winner = (white.abs() >= 1500).then_some(white > 0);
        if winner.is_some() && winner == last_winner {
            winning += 1;
        } else {
            winning = u32::from(winner.is_some());
        }
        last_winner = winner;
        if winning >= 4 {
            break Outcome::Win(if white > 0 {
                Player::First
            } else {
                Player::Second
            });
        }
        level = if plies >= 80 && white.abs() <= 10 {
            level + 1
        } else {
            0
        };
        if level >= 10 {
            break Outcome::Draw;
        }
        line.play(best);
        plies += 1;
    };
    let result = match result {
        Outcome::Win(Player::First) => "1",
        Outcome::Win(Player::Second) => "0",
        Outcome::Draw => "0.5",
    };
    kept.into_iter()
        .map(|(fen, s)| format!("{fen};{s};{result}\n"))
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        eprintln!("usage: chess_datagen OUT GAMES [NODES] [THREADS] [SEED]");
        std::process::exit(2);
    }
    let arg = |i: usize, default: u64| -> u64 {
        args.get(i).map_or(default, |s| {
            s.parse().unwrap_or_else(|_| {
                eprintln!("chess_datagen: not a number: {s}");
                std::process::exit(2)
            })
        })
    };
    let games = arg(1, 0);
    let nodes = arg(2, 5000);
    let threads = arg(3, 2).max(1);
    let seed = arg(4, 1);
    let out = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args[0])
        .unwrap_or_else(|e| {
            eprintln!("chess_datagen: {}: {e}", args[0]);
            std::process::exit(1)
        });
    let out = Arc::new(Mutex::new(BufWriter::new(out)));
    let next = Arc::new(AtomicU64::new(0));
    let positions = Arc::new(AtomicU64::new(0));
    let (off, unknown) = TechniquesOff::parse(&std::env::var("PLY_SEARCH_OFF").unwrap_or_default());
    if !unknown.is_empty() {
        eprintln!("chess_datagen: unknown techniques in PLY_SEARCH_OFF: {unknown:?}");
        std::process::exit(2);
    }
    let start = std::time::Instant::now();
    let handles: Vec<_> = (0..threads)
        .map(|_| {
            let (out, next, positions) = (out.clone(), next.clone(), positions.clone());
            std::thread::spawn(move || {
                let mut searcher = Searcher::<Chess>::new(16);
                searcher.set_techniques_off(off);
                loop {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= games {
                        break;
                    }
                    // Each game's own seed: the data does not depend on the thread count.
                    let mut rng = Rng::new(seed << 32 ^ g);
                    let lines = play_game(&mut searcher, nodes, &mut rng);
                    let n = positions.fetch_add(lines.len() as u64, Ordering::Relaxed)
                        + lines.len() as u64;
                    let mut w = out.lock().expect("no writer panics");
                    for l in &lines {
                        w.write_all(l.as_bytes()).expect("the output is writable");
                    }
                    if (g + 1) % 100 == 0 {
                        w.flush().expect("the output is writable");
                        eprintln!(
                            "chess_datagen: {} games, {n} positions, {:.0} s",
                            g + 1,
                            start.elapsed().as_secs_f64()
                        );
                    }
                }
            })
        })
        .collect();
    for h in handles {
        h.join().expect("a game thread panicked");
    }
    out.lock()
        .expect("no writer panics")
        .flush()
        .expect("the output is writable");
    eprintln!(
        "chess_datagen: {games} games, {} positions, {:.0} s",
        positions.load(Ordering::Relaxed),
        start.elapsed().as_secs_f64()
    );
}
