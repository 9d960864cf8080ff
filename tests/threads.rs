//! `Threads` (protocol.md, Options): several threads search one position on a shared table
//! (Lazy SMP) and the answers stay right: exact values where the search reaches the end of
//! the game, forced mates in chess, node limits exact, `stop` and `ponderhit` obeyed, and
//! every thread's nodes counted.

mod common;

use std::time::{Duration, Instant};

use common::PlyProcess;

fn with_threads(game: &[&str], threads: u32) -> PlyProcess {
    let mut e = PlyProcess::start_with(game, &[]);
    e.send(&format!("setoption name Threads value {threads}"));
    e.send("setoption name UseSolver value false");
    e
}

#[test]
fn exact_values_with_several_threads() {
    let mut e = with_threads(&[], 3);
    e.send("newgame tictactoe");
    let g = e.go("go depth 9");
    assert_eq!(g.score(), "cp 0");
    e.send("newgame nim length=10 max=3");
    let g = e.go("go depth 20");
    assert_eq!(
        (g.bestmove.as_str(), g.score()),
        ("2", "mate 3".to_string())
    );
    e.send("newgame nim length=12 max=3");
    assert_eq!(e.go("go depth 20").score(), "mate -3");
    // Connect Four: x to move wins at once in column 1; o must block it.
    e.send("newgame connect4");
    e.send("position startpos moves 1 2 1 2 1 2");
    let g = e.go("go depth 8");
    assert_eq!(
        (g.bestmove.as_str(), g.score()),
        ("1", "mate 1".to_string())
    );
}

#[test]
fn chess_mates_with_two_threads() {
    let mut e = with_threads(&["--game", "chess"], 2);
    for (fen, mate, first) in [
        (
            "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
            2,
            "d5f6",
        ),
        (
            "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
            3,
            "f8c5",
        ),
    ] {
        e.send("ucinewgame");
        e.send(&format!("position fen {fen}"));
        // Two plies beyond the depth one thread needs: a helper's entries can hide the mate
        // from the main thread at exactly that depth (Lazy SMP is not deterministic).
        let g = e.go(&format!("go depth {}", 2 * mate + 4));
        assert_eq!(g.score(), format!("mate {mate}"), "{fen}");
        assert_eq!(g.bestmove, first, "{fen}");
    }
}

/// A node limit is searched by one thread, so it stays exact; a time-limited search counts
/// the nodes of every thread, and `stop` ends all of them.
#[test]
fn limits_hold_with_several_threads() {
    let mut e = with_threads(&["--game", "chess"], 2);
    // One thread: the same search twice from an empty table, within its count.
    let mut runs = Vec::new();
    for _ in 0..2 {
        e.send("ucinewgame");
        e.send("position startpos moves e2e4 c7c5 g1f3");
        let g = e.go("go nodes 20000");
        let infos = g.info_lines();
        assert!(
            infos.iter().all(|i| i.nodes <= Some(20000)),
            "{:?}",
            g.infos
        );
        let lines: Vec<String> = infos
            .iter()
            .map(|i| format!("{:?} {:?} {:?} {:?}", i.depth, i.score, i.nodes, i.pv))
            .collect();
        runs.push((lines, g.bestmove));
    }
    assert_eq!(runs[0], runs[1]);

    let t = Instant::now();
    let g = e.go("go movetime 400");
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    assert!(g.field("nodes").is_some());

    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("stop");
    let g = e.collect_go();
    assert!(!g.bestmove.is_empty());
    // The engine is still answering, and the next search starts from a clean state.
    e.send("isready");
    assert_eq!(e.read_until(|l| l == "readyok").last().unwrap(), "readyok");
    let g = e.go("go depth 6");
    assert_eq!(g.field("depth").as_deref(), Some("6"));
}

/// Pondering with two threads: nothing is decided before `ponderhit`, then the clock runs.
#[test]
fn ponder_with_two_threads() {
    let mut e = with_threads(&["--game", "chess"], 2);
    e.send("setoption name Ponder value true");
    e.send("position startpos moves d2d4 d7d5");
    e.send("go ponder wtime 2000 btime 2000");
    std::thread::sleep(Duration::from_millis(300));
    e.send("ponderhit");
    let g = e.collect_go();
    assert!(!g.bestmove.is_empty(), "{:?}", e.transcript);
}
