//! A bare cozy-chess perft, the yardstick for ply's `go perft` in `scripts/bench/chess_perft.sh`:
//! copy-make over cozy-chess's move groups, counting the last ply in bulk (`PieceMoves::len`),
//! no ordering, no draw rules, no allocation. What ply adds on top of it (its move order, the
//! dead-position and fifty-move checks, the generic `Game` perft) is the difference.
//!
//! Usage: `cargo run --release --example chess_perft_bare -- <depth> <FEN>`; prints
//! `Nodes searched: <n>` and the time in milliseconds on stderr.

use std::time::Instant;

use cozy_chess::Board;

fn perft(board: &Board, depth: u32) -> u64 {
    let mut nodes = 0;
    if depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
    } else {
        board.generate_moves(|moves| {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += perft(&child, depth - 1);
            }
            false
        });
    }
    nodes
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: chess_perft_bare <depth> <FEN>";
    let depth: u32 = args.first().and_then(|d| d.parse().ok()).expect(usage);
    let fen = args[1..].join(" ");
    let board = Board::from_fen(&fen, false)
        .or_else(|_| Board::from_fen(&fen, true))
        .expect("a valid FEN");
    let start = Instant::now();
    let nodes = if depth == 0 { 1 } else { perft(&board, depth) };
    println!("Nodes searched: {nodes}");
    eprintln!("time {} ms", start.elapsed().as_millis());
}
