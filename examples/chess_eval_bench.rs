//! What one chess node costs, piece by piece: nanoseconds per call of the evaluation, the
//! ordered legal move list and the game-over test, over a few varied positions (best of five
//! rounds of two million calls each; a loaded machine makes every figure larger).
//!
//! Usage: `cargo run --release --example chess_eval_bench`

use std::hint::black_box;
use std::time::Instant;

use ply::game::Game;
use ply::games::Chess;

const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
];

/// Best time per call of `f` over the positions, in nanoseconds.
fn time(positions: &[Chess], mut f: impl FnMut(&Chess) -> i64) -> f64 {
    const CALLS: usize = 2_000_000;
    let mut best = f64::MAX;
    let mut sink = 0;
    for _ in 0..5 {
        let t = Instant::now();
        for i in 0..CALLS {
            sink += f(black_box(&positions[i % positions.len()]));
        }
        best = best.min(t.elapsed().as_nanos() as f64 / CALLS as f64);
    }
    black_box(sink);
    best
}

fn main() {
    let rules = Chess::default();
    let positions: Vec<Chess> = POSITIONS
        .iter()
        .map(|f| rules.from_fen(f).expect("valid FEN"))
        .collect();
    let mut moves = Vec::new();
    let eval = time(&positions, |p| p.evaluate() as i64);
    let list = time(&positions, |p| {
        moves.clear();
        p.legal_moves(&mut moves);
        moves.len() as i64
    });
    let over = time(&positions, |p| p.outcome().is_some() as i64);
    let key = time(&positions, |p| p.key() as i64);
    println!("evaluate     {eval:6.1} ns");
    println!("legal_moves  {list:6.1} ns");
    println!("outcome      {over:6.1} ns");
    println!("key          {key:6.1} ns");
}
