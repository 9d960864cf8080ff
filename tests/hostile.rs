//! Regression tests for hostile input: each defect found by trying ply as a hostile user
//! would (huge numbers, one-sided clocks, unstoppable jobs, memory beyond `Hash`, overlong
//! lines), checked through the `ply` binary as a client sees it. See protocol.md.

mod common;

use std::time::{Duration, Instant};

use common::{PlyProcess, run_script};

/// A huge perft depth is refused (it used to abort the engine trying to allocate 103 GB);
/// the deepest allowed one answers, and any perft can be stopped mid-move.
#[test]
fn perft_depth_is_bounded_and_perft_stops() {
    let mut e = PlyProcess::start();
    for bad in ["4294967295", "18446744073709551615", "65", "-1"] {
        e.send(&format!("go perft {bad}"));
        assert_eq!(
            e.sync(),
            [format!(
                "info string error go: 'perft' needs a depth from 0 to 64, got '{bad}' (column 10)"
            )]
        );
    }
    // Tic-tac-toe ends within 9 plies: every count is 0, at once and in little memory.
    e.send("go perft 64");
    let lines = e.read_until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.len(), 10);
    assert_eq!(lines[9], "Nodes searched: 0");
    // Connect Four at depth 64 would run for ages: stop ends it, without the move it was on.
    e.send("newgame connect4");
    e.send("go perft 64");
    e.send("isready");
    assert_eq!(e.read_until(|l| l == "readyok"), ["readyok"]);
    e.send("stop");
    let lines = e.read_until(|l| l.starts_with("Nodes searched"));
    assert_eq!(
        lines,
        ["info string perft stopped", "Nodes searched: 0"],
        "{lines:?}"
    );
    assert!(e.peak_rss_mib().is_none_or(|m| m < 100.0));
}

/// Chess takes the same bounds: a huge perft depth is refused, a deep one stops, a perft's
/// last ply is counted in bulk and still right, a one-sided clock answers at once, a bad fen
/// or move changes nothing, and a search stays within Hash.
#[test]
fn chess_is_as_hardened_as_the_other_games() {
    let mut e = PlyProcess::start();
    e.send("setoption name Hash value 64");
    e.send("newgame chess");
    for bad in ["4294967295", "18446744073709551615", "65"] {
        e.send(&format!("go perft {bad}"));
        assert_eq!(
            e.sync(),
            [format!(
                "info string error go: 'perft' needs a depth from 0 to 64, got '{bad}' (column 10)"
            )]
        );
    }
    e.send("go perft 3");
    let lines = e.read_until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.len(), 21, "{lines:?}");
    assert_eq!(lines[20], "Nodes searched: 8902");
    e.send("go perft 64");
    e.send("isready");
    assert_eq!(e.read_until(|l| l == "readyok"), ["readyok"]);
    e.send("stop");
    let lines = e.read_until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines, ["info string perft stopped", "Nodes searched: 0"]);

    let start = e.query("fen");
    for bad in [
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 4294967296",
        "position startpos moves e2e4 e2e4",
        "position startpos moves e7e5",
        "position startpos moves e1g1",
    ] {
        e.send(bad);
        let out = e.sync();
        assert!(
            out.len() == 1 && out[0].starts_with("info string error position: "),
            "{bad}: {out:?}"
        );
        assert_eq!(e.query("fen"), start, "{bad} changed the position");
    }

    e.send("position startpos moves e2e4");
    for go in [
        "go wtime 50",
        "go btime -5",
        "go winc 100",
        "go wtime 50 ponder",
    ] {
        e.send(go);
        if go.ends_with("ponder") {
            // Pondering waits for the opponent's move; then the empty clock applies.
            e.send("ponderhit");
        }
        let g = e.collect_go();
        assert_eq!(e.query(&format!("islegal {}", g.bestmove)), "true", "{go}");
        let ms: u64 = g.field("time").unwrap().parse().unwrap();
        assert!(ms < 1000, "{go}: {ms} ms");
    }
    e.send("ucinewgame");
    e.go("go movetime 500");
    assert!(e.peak_rss_mib().is_none_or(|m| m < 64.0 + 48.0));
}

/// A clock for the other side only (or an increment alone) is a clock with no time left for
/// the side to move: an answer at once. These searched forever, even past the end of input.
#[test]
fn one_sided_clocks_answer_at_once() {
    let script = "setoption name UseSolver value false\nnewgame connect4\n\
        position startpos moves 4\ngo wtime 50\n";
    let out = run_script(script);
    assert_eq!(
        out.last().map(String::as_str),
        Some("bestmove 4"),
        "{out:?}"
    );

    let mut e = PlyProcess::start();
    e.send("newgame connect4");
    e.send("setoption name UseSolver value false");
    for (moves, go) in [
        ("", "go btime 50"),
        ("", "go btime -5"),
        ("4", "go wtime 50 ponder"),
        ("", "go winc 100"),
        ("4", "go binc 0 movestogo 3"),
    ] {
        e.send(&format!("position startpos moves {moves}"));
        e.send(go);
        if go.ends_with("ponder") {
            // Pondering waits for the opponent's move; then the empty clock applies.
            e.send("ponderhit");
        }
        let g = e.collect_go();
        assert_eq!(e.query(&format!("islegal {}", g.bestmove)), "true", "{go}");
        // A zero budget: depth 1 (with an increment alone, ¾ of it, at most 60% of 1 ms).
        let ms: u64 = g.field("time").unwrap().parse().unwrap();
        assert!(ms < 1000, "{go}: {ms} ms");
    }
    // movestogo alone limits nothing: it is a go without limits, stopped by stop.
    e.send("go movestogo 5");
    e.send("stop");
    assert!(!e.collect_go().bestmove.is_empty());
}

/// A depth the searcher never reaches limits nothing: at the end of input it is stopped like
/// `go infinite` (the fuzzer found `go depth 18446744073709551615` in chess never ending).
#[test]
fn a_depth_beyond_the_deepest_iteration_ends_at_end_of_input() {
    // A mate whose 2n + 4 plies reach that depth is no limit either.
    for go in [
        "depth 18446744073709551615",
        "depth 250",
        "mate 18446744073709551615",
        "mate 123",
    ] {
        let out = run_script(&format!("newgame chess\ngo {go}\n"));
        assert!(
            out.last().is_some_and(|l| l.starts_with("bestmove ")),
            "go {go}: {out:?}"
        );
    }
    // A depth below that is a limit: the end of input waits for it.
    let out = run_script("newgame chess\ngo depth 3\n");
    assert!(
        out.iter().any(|l| l.starts_with("info depth 3 ")),
        "{out:?}"
    );
}

/// The Nim solver's exact search honours movetime, nodes and stop (it ran for 10 s and
/// more whatever it was told): cut short, it answers with the proven result and a bound.
#[test]
fn the_nim_solver_keeps_to_its_budget() {
    let mut e = PlyProcess::start();
    // A Hash large enough that the exact search starts on this position.
    e.send("setoption name Hash value 1024");
    e.send("newgame nim heaps=1,4,20,1,300,1,5,2 max=100");
    let g = e.go("go nodes 1000");
    assert_eq!(g.infos.len(), 1, "{:?}", g.infos);
    assert!(g.score().starts_with("mate "), "{:?}", g.infos);
    assert!(g.infos[0].contains(" lowerbound "), "{:?}", g.infos);
    e.send("ucinewgame");
    let g = e.go("go movetime 100");
    assert!(g.infos[0].contains(" lowerbound "), "{:?}", g.infos);
    let ms: u64 = g.field("time").unwrap().parse().unwrap();
    assert!(ms < 1000, "movetime 100 took {ms} ms");
    e.send("ucinewgame");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    e.send("stop");
    let g = e.collect_go();
    assert!(
        t.elapsed() < Duration::from_secs(2),
        "stop took {:?}",
        t.elapsed()
    );
    assert!(g.infos[0].contains(" lowerbound "), "{:?}", g.infos);
    // Its memo stays within its share of Hash (1024 MiB here).
    assert!(e.peak_rss_mib().is_none_or(|m| m < 1024.0 + 48.0));
}

/// `newgame` and `setoption name Hash` allocate nothing (the tables come at the first
/// search, from pages supplied as they are written), and a search stays within Hash: at
/// Hash 1024 the engine used to hold 2.5 GB and take seconds to answer isready.
#[test]
fn memory_stays_within_hash() {
    let mut e = PlyProcess::start();
    e.send("setoption name Hash value 1024");
    e.send("newgame connect4");
    e.send("ucinewgame");
    e.send("setoption name Clear Hash");
    assert!(e.sync().is_empty());
    if let Some(m) = e.peak_rss_mib() {
        assert!(m < 48.0, "{m:.0} MiB resident before any search");
    } else {
        eprintln!("skipping the memory checks: no /proc/<pid>/status here");
        return;
    }
    let mut e = PlyProcess::start();
    e.send("setoption name Hash value 64");
    for game in [
        "connect4",
        "nim heaps=1,4,20,1,300,1,5,2 max=100",
        "tictactoe",
    ] {
        e.send(&format!("newgame {game}"));
        e.go("go movetime 300");
        e.send("setoption name UseSolver value false");
        e.go("go movetime 300");
        e.send("setoption name UseSolver value true");
    }
    let m = e.peak_rss_mib().unwrap();
    assert!(m < 64.0 + 48.0, "{m:.0} MiB at Hash 64");
}

/// `bench` with any depth could not be stopped (it ran in the command loop); now depths
/// beyond the searcher's are refused, and bench runs like a go: isready at once, stop ends it.
#[test]
fn bench_is_bounded_and_stoppable() {
    let mut e = PlyProcess::start();
    for bad in ["4294967295", "0", "251"] {
        e.send(&format!("bench {bad}"));
        assert_eq!(
            e.sync(),
            [format!(
                "info string error bench: depth must be an integer from 1 to 250, got '{bad}' (column 7)"
            )]
        );
    }
    e.send("bench 250");
    e.send("isready");
    let lines = e.read_until(|l| l == "readyok");
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("info string bench ") || l == "readyok")
    );
    e.send("stop");
    let lines = e.read_until(|l| l.starts_with("Nodes/second"));
    assert!(
        lines.contains(&"info string bench stopped".to_string()),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.starts_with("Nodes searched: ")));
    // A full bench still gives the checksum of `ply bench`.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ply"))
        .arg("bench")
        .output()
        .unwrap();
    let cli = String::from_utf8(out.stdout).unwrap();
    let total = |text: &str| {
        text.lines()
            .find(|l| l.starts_with("Nodes searched"))
            .map(str::to_string)
    };
    e.send("setoption name Hash value 3");
    e.send("bench");
    let lines = e.read_until(|l| l.starts_with("Nodes/second"));
    assert_eq!(total(&lines.join("\n")), total(&cli));
}

/// The overlong-line error counts the line without its line ending; a line of exactly the
/// limit (with `\n` or `\r\n`) is read.
#[test]
fn overlong_lines_are_counted_exactly() {
    const MAX: usize = 16 << 20;
    let mut e = PlyProcess::start();
    let mut line = vec![b'x'; MAX + 1];
    line.push(b'\n');
    e.send_bytes(&line);
    assert_eq!(
        e.sync(),
        [format!(
            "info string error input: line of {} bytes is longer than {MAX}; ignored (column 1)",
            MAX + 1
        )]
    );
    let mut line = b"query fen".to_vec();
    line.resize(MAX, b' ');
    line.extend_from_slice(b"\r\n");
    e.send_bytes(&line);
    assert_eq!(e.sync(), ["response .../.../... x"]);
}

/// While a go runs, waiting commands are bounded (16 MiB); beyond, a line is refused at
/// once with an error, and everything before it is still answered in order.
#[test]
fn waiting_commands_are_bounded() {
    let mut e = PlyProcess::start();
    e.send("setoption name UseSolver value false");
    e.send("newgame connect4");
    e.send("go infinite");
    // 16 of these fit in 16 MiB with their 64 bytes each; the 17th does not.
    let mut padded = b"query sidetomove".to_vec();
    padded.resize((1 << 20) - 100, b' ');
    padded.push(b'\n');
    for _ in 0..17 {
        e.send_bytes(&padded);
    }
    let err = e.read_until(|l| l.starts_with("info string error"));
    assert!(
        err.last().unwrap().starts_with("info string error input: ")
            && err.last().unwrap().ends_with(
                "bytes of commands already wait for the running go; 'query' ignored (column 1)"
            ),
        "{err:?}"
    );
    e.send("stop");
    e.collect_go();
    let answers = e.sync();
    assert_eq!(answers.len(), 16, "{answers:?}");
    assert!(answers.iter().all(|l| l == "response p1"));
}

/// A 16 MiB position line with millions of moves is applied in linear time and without
/// memory beyond the line's (each move used to cost a column count from the line's start
/// and an allocation).
#[test]
fn huge_position_lines_are_cheap() {
    let mut e = PlyProcess::start();
    e.send("newgame nim heaps=50000,50000,50000,50000,50000,50000,50000,50000 max=1");
    let moves = "1:1 2:1 3:1 4:1 5:1 6:1 7:1 8:1 ".repeat(50_000);
    e.send(&format!("position startpos moves {moves}"));
    assert_eq!(e.query("fen"), "0,0,0,0,0,0,0,0 1");
    // Beyond the heaps' end: the 400,001st move is refused, with its column.
    e.send(&format!("position startpos moves {moves}1:1"));
    let err = e.sync();
    assert_eq!(err.len(), 1);
    assert!(
        err[0].starts_with("info string error position: move 400001 '1:1' (column 1600025): "),
        "{}",
        &err[0][..200.min(err[0].len())]
    );
    assert!(e.peak_rss_mib().is_none_or(|m| m < 100.0));
}

/// So is a 16 MiB `go searchmoves` line: its moves are kept as its text too (each used to cost
/// an allocation and a column count from the line's start: quadratic, a hang on such a line).
#[test]
fn huge_searchmoves_lines_are_cheap() {
    let mut e = PlyProcess::start();
    e.send("newgame connect4");
    let moves = "1 ".repeat(4 << 20);
    let g = e.go(&format!("go depth 1 searchmoves {moves}"));
    assert_eq!(g.bestmove, "1");
    e.send(&format!("go depth 1 searchmoves {moves}8"));
    let err = e.sync();
    assert_eq!(err.len(), 1);
    let column = 24 + 2 * (4 << 20);
    assert!(
        err[0].starts_with(&format!(
            "info string error go: searchmoves '8' (column {column}): "
        )),
        "{}",
        &err[0][..200.min(err[0].len())]
    );
    assert!(e.peak_rss_mib().is_none_or(|m| m < 100.0));
}

/// Errors about huge words quote them shortened, so an error stays one readable line.
#[test]
fn errors_quote_huge_words_short() {
    let mut e = PlyProcess::start();
    let word = "z".repeat(1 << 20);
    for cmd in [
        format!("position startpos moves {word}"),
        format!("position fen {word}"),
        format!("newgame {word}"),
        format!("newgame connect4 width={word}"),
        format!("setoption name {word} value 1"),
        format!("setoption name Hash value {word}"),
        format!("go depth {word}"),
        format!("query {word}"),
    ] {
        e.send(&cmd);
        let out = e.sync();
        assert_eq!(out.len(), 1, "{}", &cmd[..30]);
        assert!(
            out[0].len() < 1200,
            "{}: {} bytes",
            &cmd[..30],
            out[0].len()
        );
        assert!(out[0].starts_with("info string error "), "{}", out[0]);
    }
}

/// setoption errors and a bad position notation say which column they are about.
#[test]
fn setoption_and_fen_errors_have_columns() {
    let mut e = PlyProcess::start();
    for (cmd, expect) in [
        (
            "setoption name Hash value 0",
            "info string error setoption: Hash needs an integer from 1 to 65536, got '0' (column 27)",
        ),
        (
            "setoption name  Colour   value red",
            "info string error setoption: unknown option 'Colour' (known: Hash, Clear Hash, Threads, UseSolver, UseBook, Move Overhead, MultiPV, Ponder, UCI_ShowWDL, UCI_LimitStrength, UCI_Elo, UCI_Chess960, UCI_Variant) (column 17)",
        ),
        (
            "setoption name UCI_Variant",
            "info string error setoption: UCI_Variant needs one of tictactoe, connect4, nim, teeko, chess, checkers, got '' (column 27)",
        ),
        (
            "setoption name UCI_Variant value go",
            "info string error setoption: UCI_Variant needs one of tictactoe, connect4, nim, teeko, chess, checkers, got 'go' (column 34)",
        ),
        (
            "setoption name   value 3",
            "info string error setoption: expected an option name after 'name' (column 18)",
        ),
        (
            "setoption name UseSolver value 1",
            "info string error setoption: UseSolver needs true or false, got '1' (column 32)",
        ),
        (
            "position  fen   x.. o",
            "info string error position: fen 'x.. o': expected 3 ranks separated by '/', got 1 (column 17)",
        ),
    ] {
        e.send(cmd);
        assert_eq!(e.sync(), [expect], "for '{cmd}'");
    }
}

/// A double check always has a discovered check in it, by a bishop, rook or queen: two
/// knights or two pawns checking at once are refused (only three checkers were).
#[test]
fn impossible_double_checks_are_refused() {
    let mut e = PlyProcess::start();
    e.send("newgame chess");
    for (fen, from) in [
        ("4k3/8/3N1N2/8/8/8/8/4K3 b - - 0 1", "two knights"),
        ("8/8/8/4k3/3P1P2/8/8/4K3 b - - 0 1", "two pawns"),
        ("8/8/2N5/4k3/3P4/8/8/4K3 b - - 0 1", "a knight and a pawn"),
    ] {
        e.send(&format!("position fen {fen}"));
        assert_eq!(
            e.sync(),
            [format!(
                "info string error position: fen '{fen}': the black king is in check from {from}; of two checks one is discovered, by a bishop, rook or queen (column 14)"
            )]
        );
    }
    // A rook and a knight can check together (the rook's check discovered by the knight).
    let fen = "4k3/8/3N4/8/8/8/8/K3R3 b - - 0 1";
    e.send(&format!("position fen {fen}"));
    assert_eq!(e.query("fen"), fen);
}

/// The largest Hash is either provided or refused up front: the engine used to accept it
/// and abort ("memory allocation of 34359738368 bytes failed") at the next search.
#[test]
fn a_hash_the_system_cannot_provide_is_refused() {
    let mut e = PlyProcess::start();
    e.send("setoption name Hash value 65536");
    let out = e.sync();
    assert!(
        out.is_empty()
            || out
                == [
                    "info string error setoption: Hash 65536 MiB: the system refuses to provide that much memory (column 27)"
                ],
        "{out:?}"
    );
    for game in ["connect4", "nim heaps=3,4,5", "tictactoe"] {
        e.send(&format!("newgame {game}"));
        let g = e.go("go nodes 1000");
        assert_eq!(e.query(&format!("islegal {}", g.bestmove)), "true");
    }
}
