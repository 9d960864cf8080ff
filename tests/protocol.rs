//! The protocol, end to end, through the `ply` binary: a scripted conversation over every
//! command (protocol.md), bad input of every kind, and timing behaviour (`stop`,
//! `isready` mid-search, end of input).

mod common;

use std::time::{Duration, Instant};

use common::{PlyProcess, run_script};

#[test]
fn handshake_lists_options_and_every_game() {
    let mut e = PlyProcess::start();
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    assert_eq!(
        lines[0],
        format!("id name ply {}", env!("CARGO_PKG_VERSION"))
    );
    assert!(lines[1].starts_with("id author "));
    for opt in [
        "option name Hash type spin default 16 min 1 max 65536",
        "option name Clear Hash type button",
        "option name Threads type spin default 1 min 1 max 256",
        "option name UseSolver type check default true",
        "option name UseBook type check default true",
        "option name Move Overhead type spin default 30 min 0 max 5000",
        "option name UCI_Variant type combo default tictactoe var tictactoe var connect4 var nim var teeko var chess var checkers",
    ] {
        assert!(
            lines.iter().any(|l| l == opt),
            "missing '{opt}' in {lines:?}"
        );
    }
    assert!(e.sync().is_empty());
}

/// Every command of protocol.md but go's forms, the options and bench (next test) in one
/// session, each answer checked, with bad input mixed in.
#[test]
fn scripted_conversation_over_every_command() {
    let mut e = PlyProcess::start();
    assert!(e.sync().is_empty());

    // newgame / setoption UCI_Variant / ucinewgame.
    e.send("newgame connect4");
    assert_eq!(
        e.query("fen"),
        "......./......./......./......./......./....... x"
    );
    e.send("setoption name UCI_Variant value teeko");
    assert_eq!(e.query("fen"), "...../...../...../...../..... b");
    e.send("newgame connect4 width=8 height=7");
    e.send("position startpos moves 8 1");
    assert_eq!(e.query("legalmoves"), "1 2 3 4 5 6 7 8");
    e.send("ucinewgame");
    assert_eq!(
        e.query("fen"),
        "......../......../......../......../......../......../........ x"
    );

    // position: startpos, fen, moves; every query.
    e.send("newgame tictactoe");
    e.send("position startpos moves b2 a1 c3");
    assert_eq!(e.query("fen"), "..x/.x./o.. o");
    assert_eq!(e.query("sidetomove"), "p2");
    assert_eq!(e.query("p1turn"), "false");
    assert_eq!(e.query("gameover"), "false");
    assert_eq!(e.query("result"), "none");
    assert_eq!(e.query("islegal a3"), "true");
    assert_eq!(e.query("islegal c3"), "false");
    assert_eq!(e.query("islegal z9"), "false");
    assert_eq!(e.query("legalmoves"), "a2 a3 b1 b3 c1 c2");
    e.send("position fen ..x/.x./o.. o moves a3 c1 b1 a1");
    // a1 was taken: the whole command is refused, the position stays.
    let err = e.sync();
    assert_eq!(
        err,
        ["info string error position: move 4 'a1' (column 43): illegal move: a1 is occupied"]
    );
    assert_eq!(e.query("fen"), "..x/.x./o.. o");
    e.send("position fen ..x/.x./o.. o moves a3 c1 a2");
    assert_eq!(e.query("gameover"), "true");
    assert_eq!(e.query("result"), "p2win");
    assert_eq!(e.query("legalmoves"), "");
    // A finished game: depth 0 and no move.
    let g = e.go("go depth 5");
    assert_eq!(g.infos, ["info depth 0 score mate 0"]);
    assert_eq!(g.bestmove, "(none)");

    // d.
    e.send("position startpos moves b2");
    e.send("d");
    let d = e.sync();
    assert!(d.iter().any(|l| l == "Fen: .../.x./... o"), "{d:?}");
    assert!(d.iter().any(|l| l == "Game: tictactoe"));
    assert!(d.iter().any(|l| l == "Side to move: p2"));
    assert!(
        d.iter()
            .any(|l| l == "Legal moves: a1 a2 a3 b1 b3 c1 c2 c3")
    );
    assert!(d.iter().any(|l| l.starts_with("Key: ")));

    // go perft.
    e.send("go perft 2");
    let lines = e.read_until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.len(), 9);
    assert_eq!(lines[0], "a1: 7");
    assert_eq!(lines[8], "Nodes searched: 56");
    e.send("quit");
    assert_eq!(e.wait(Duration::from_secs(10)), Some(0));
}

/// The rest of protocol.md's commands in one session: every go form, every option and its
/// errors, bench; the engine still plays after all that.
#[test]
fn scripted_conversation_over_go_options_and_bench() {
    let mut e = PlyProcess::start();
    // Every go form, each with exactly one legal bestmove.
    e.send("newgame connect4");
    e.send("setoption name UseSolver value false");
    e.send("position startpos moves 4 4 3");
    for go in [
        "go depth 4",
        "go nodes 5000",
        "go movetime 50",
        "go wtime 1000 btime 1000 winc 10 binc 10",
        "go wtime 500 btime 400 movestogo 5",
        "go depth 3 movetime 10000 nodes 1000000",
    ] {
        let g = e.go(go);
        assert!(!g.infos.is_empty(), "{go}: no info");
        assert!(
            e.query(&format!("islegal {}", g.bestmove)) == "true",
            "{go}: {}",
            g.bestmove
        );
        let info = g.infos.last().unwrap();
        for key in [
            " depth ",
            " seldepth ",
            " score ",
            " nodes ",
            " nps ",
            " time ",
            " pv ",
        ] {
            assert!(info.contains(key), "{go}: '{info}' lacks{key}");
        }
    }
    assert_eq!(e.go("go depth 4").field("depth").as_deref(), Some("4"));
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    e.send("stop");
    let g = e.collect_go();
    assert_eq!(e.query(&format!("islegal {}", g.bestmove)), "true");

    // setoption: every option, and errors.
    e.send("setoption name Hash value 32");
    e.send("setoption name Clear Hash");
    e.send("setoption name Move Overhead value 20");
    e.send("setoption name UseSolver value true");
    e.send("setoption name Threads value 2");
    assert!(e.sync().is_empty());
    e.send("setoption name Hash value 0");
    e.send("setoption name Colour value red");
    e.send("setoption name UseSolver value maybe");
    e.send("setoption name Threads value 0");
    let errs = e.sync();
    assert_eq!(errs.len(), 4, "{errs:?}");
    assert!(errs[0].contains("Hash needs an integer from 1 to 65536, got '0'"));
    assert!(errs[1].contains("unknown option 'Colour'"));
    assert!(errs[2].contains("UseSolver needs true or false"));
    assert!(errs[3].contains("Threads needs an integer from 1 to 256, got '0'"));
    // Two solver threads (the solver splits work only with 20 or more empty cells): exact
    // results of positions ten discs down that take it some 500,000 nodes, checked with
    // connect-four-ai (Pons' scores 4 and 0: a win with the 18th disc, 13 moves away, and
    // a draw).
    e.send("position startpos moves 1 3 4 2 2 3 1 3 3 7");
    assert_eq!(e.go("go depth 1").score(), "mate 13");
    e.send("position startpos moves 2 7 7 1 2 5 5 4 2 2");
    assert_eq!(e.go("go depth 1").score(), "cp 0");

    // bench prints its checksum.
    e.send("bench 2");
    let b = e.read_until(|l| l.starts_with("Nodes/second"));
    assert!(b.iter().any(|l| l.starts_with("Nodes searched: ")));

    // After all that, still a working engine.
    e.send("newgame nim");
    let g = e.go("go depth 12");
    assert_eq!(g.bestmove, "2");
    e.send("quit");
    assert_eq!(e.wait(Duration::from_secs(10)), Some(0));
}

#[test]
fn bad_input_is_reported_and_changes_nothing() {
    let mut e = PlyProcess::start();
    e.send("newgame connect4");
    e.send("position startpos moves 4 4");
    let fen = e.query("fen");

    // Silently ignored: unknown commands, empty and blank lines, garbage bytes.
    e.send("xyzzy plugh");
    e.send("");
    e.send("   \t  ");
    e.send_bytes(b"\xff\xfe\x00\x01garbage\x80\n");
    e.send_bytes(b"\x1b[31m\x07\n");
    assert!(e.sync().is_empty(), "unknown input must print nothing");

    // A 1 MB line of garbage, then a 1 MB position line (500 000 moves: column 1 fills up).
    e.send(&"z".repeat(1 << 20));
    assert!(e.sync().is_empty());
    let long = format!("position startpos moves {}", "1 ".repeat(1 << 19));
    e.send(&long);
    let err = e.sync();
    assert_eq!(err.len(), 1);
    assert!(
        err[0].contains("move 7 '1' (column 37): illegal move: column 1 is full"),
        "{}",
        err[0]
    );

    // Errors, each one line, none applied.
    for (cmd, expect) in [
        (
            "go depth x",
            "info string error go: 'depth' needs a positive depth, got 'x' (column 10)",
        ),
        (
            "go depth",
            "info string error go: 'depth' needs a depth (column 9)",
        ),
        (
            "go movetime -5",
            "info string error go: 'movetime' needs milliseconds, got '-5' (column 13)",
        ),
        (
            "go depth 0",
            "info string error go: 'depth' must be at least 1 (column 10)",
        ),
        (
            "newgame go",
            "info string error newgame: unknown game 'go' (known: tictactoe, connect4, nim, teeko, chess, checkers)",
        ),
        (
            "newgame connect4 width=99",
            "info string error newgame: parameter width=99: expected an integer from 1 to 63",
        ),
        (
            "newgame connect4 width",
            "info string error newgame: expected key=value, got 'width'",
        ),
        (
            "newgame nim colour=red",
            "info string error newgame: unknown parameter 'colour' for nim (known: length, heaps, max, misere)",
        ),
        (
            "position",
            "info string error position: expected startpos or fen (column 9)",
        ),
        (
            "position startpos 4",
            "info string error position: expected 'moves', got '4' (column 19)",
        ),
        (
            "position fen 7/7/7/7/7 x",
            "info string error position: fen '7/7/7/7/7 x': expected 6 rows separated by '/', got 5 (the board is 7x6; newgame connect4 width=W height=H changes it) (column 14)",
        ),
        (
            "position startpos moves 4 x",
            "info string error position: move 2 'x' (column 27): malformed move: 'x' is not a column number 1..7",
        ),
        (
            "query",
            "info string error query: expected one of: gameover, result, sidetomove, p1turn, legalmoves, islegal, fen (column 6)",
        ),
        (
            "setoption",
            "info string error setoption: expected 'name <option> [value <value>]' (column 10)",
        ),
        (
            "setoption name",
            "info string error setoption: expected an option name after 'name' (column 15)",
        ),
    ] {
        e.send(cmd);
        let out = e.sync();
        assert_eq!(out, [expect.to_string()], "for '{cmd}'");
    }
    // None of that changed the game or the position, and no go produced a bestmove.
    assert_eq!(e.query("fen"), fen);
    let g = e.go("go depth 3");
    assert_eq!(e.query(&format!("islegal {}", g.bestmove)), "true");
}

/// `params` lists each game's parameters from the game's own declaration; `newgame` and
/// `setoption` read switches by one rule (`true` or `false`, in any case, nothing else).
#[test]
fn parameters_are_listed_from_their_specs_and_switches_follow_one_rule() {
    use ply::protocol::response::ParamLine;
    let mut e = PlyProcess::start();
    for &game in ply::games::NAMES {
        e.send(&format!("params {}", game.to_uppercase()));
        let mut lines = e.read_until(|l| l == "paramsok");
        lines.pop();
        let read: Vec<ParamLine> = (lines.iter())
            .map(|l| l.parse().unwrap_or_else(|err| panic!("{l}: {err}")))
            .collect();
        let specs = ply::games::param_specs(game).unwrap();
        let declared: Vec<ParamLine> = specs.iter().map(ParamLine::from).collect();
        assert_eq!(read, declared, "{game}");
        // Each listed default starts the game, as does no parameter at all.
        e.send(&format!("newgame {game}"));
        assert!(e.sync().is_empty(), "{game}");
    }
    e.send("newgame connect4");
    e.send("params");
    let lines = e.read_until(|l| l == "paramsok");
    assert!(
        lines[0].starts_with("param name width type spin default 7 min 1 max 63 label Width help ")
    );
    for (cmd, expect) in [
        (
            "params draughts",
            "params: unknown game 'draughts' (known: tictactoe, connect4, nim, teeko, chess, checkers) (column 8)",
        ),
        (
            "newgame chess chess960=yes",
            "newgame: parameter chess960=yes: expected true or false",
        ),
        (
            "newgame nim misere=1",
            "newgame: parameter misere=1: expected true or false",
        ),
        (
            "newgame teeko advanced=on",
            "newgame: parameter advanced=on: expected true or false",
        ),
        (
            "newgame connect4 width=+8",
            "newgame: parameter width=+8: expected an integer from 1 to 63",
        ),
        (
            "newgame nim heaps=3,,4",
            "newgame: parameter heaps=3,,4: expected 1 to 16 integers from 1 to 50000, separated by commas",
        ),
        (
            "setoption name UseSolver value 1",
            "setoption: UseSolver needs true or false, got '1' (column 32)",
        ),
        (
            "setoption name Ponder value yes",
            "setoption: Ponder needs true or false, got 'yes' (column 29)",
        ),
    ] {
        e.send(cmd);
        assert_eq!(e.sync(), [format!("info string error {expect}")], "{cmd}");
    }
    // The game is still Connect Four 7×6; `TRUE` is true.
    e.send("d");
    assert!(
        e.sync()
            .contains(&"Game: connect4 width=7 height=6".to_string())
    );
    e.send("newgame teeko advanced=TRUE centre=False");
    e.send("setoption name Ponder value TRUE");
    e.send("d");
    assert!(
        e.sync()
            .contains(&"Game: teeko advanced=true centre=false".to_string())
    );
}

/// `go mate n` searches no deeper than `2n + 4` plies, so a piped script that uses it ends
/// at the end of input (it used to search without a limit); a mate within `n` is found.
#[test]
fn go_mate_is_bounded_and_ends_at_end_of_input() {
    for setup in [
        "newgame chess",
        "newgame connect4\nsetoption name UseSolver value false",
        "newgame teeko\nsetoption name UseSolver value false",
        // No opening book on 8×7: the solver gets a node budget, as for `go depth`.
        "newgame connect4 width=8 height=7",
    ] {
        let mut e = PlyProcess::start();
        e.send(setup);
        e.send("go mate 1");
        e.close();
        let g = e.collect_go();
        let deepest = g.info_lines().iter().filter_map(|i| i.depth).max();
        assert!(deepest.is_some_and(|d| d <= 6), "{setup}: {:?}", g.infos);
        assert_eq!(e.wait(Duration::from_secs(30)), Some(0), "{setup}");
    }
    let mut e = PlyProcess::start();
    e.send("newgame chess");
    e.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    let g = e.go("go mate 1");
    assert_eq!(
        (g.score().as_str(), g.bestmove.as_str()),
        ("mate 1", "d1d8")
    );
}

/// One-heap Nim is solved in closed form at any length: its distances are mates however far
/// the end lies (beyond 128 moves they used to print as `cp` values near ±1,000,000).
#[test]
fn one_heap_nim_scores_are_mates_at_any_distance() {
    let mut e = PlyProcess::start();
    for (length, score) in [
        (1024, "mate -128"),
        (1025, "mate 129"),
        (2000, "mate -250"),
        (50000, "mate -6250"),
    ] {
        e.send(&format!("newgame nim length={length} max=7"));
        assert_eq!(e.go("go depth 1").score(), score, "length {length}");
    }
    e.send("newgame nim length=2000 max=7 misere=true");
    assert_eq!(e.go("go depth 1").score(), "mate 250");
}

#[test]
fn crlf_line_ends_work() {
    let out =
        run_script("uci\r\nnewgame nim\r\nposition startpos moves 2\r\nquery fen\r\nisready\r\n");
    assert!(out.contains(&"uciok".to_string()));
    assert!(out.contains(&"response 8 2".to_string()));
    assert_eq!(out.last().unwrap(), "readyok");
}

#[test]
fn piped_script_answers_every_go_in_order() {
    let script = "newgame connect4\nsetoption name UseSolver value false\n\
        position startpos\ngo depth 6\nposition startpos moves 4\ngo depth 5\nquery fen\n\
        newgame tictactoe\ngo depth 9\ngo infinite\n";
    let out = run_script(script);
    let best: Vec<&String> = out.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(best.len(), 4, "{out:?}");
    // The query came after the second go had finished, so it saw the second position.
    let q = out.iter().position(|l| l.starts_with("response")).unwrap();
    let second = out
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("bestmove"))
        .nth(1)
        .unwrap()
        .0;
    assert!(q > second);
    assert_eq!(
        out[q],
        "response ......./......./......./......./......./...x... o"
    );
}

#[test]
fn stop_ends_an_infinite_search_promptly() {
    let mut e = PlyProcess::start();
    e.send("newgame teeko");
    e.send("setoption name UseSolver value false");
    assert!(e.sync().is_empty());
    let mut worst = Duration::ZERO;
    for _ in 0..5 {
        e.send("go infinite");
        // Let it get deep enough to be busy.
        let _ = e.read_until(|l| l.starts_with("info depth 5"));
        let t = Instant::now();
        e.send("stop");
        let g = e.collect_go();
        let took = t.elapsed();
        worst = worst.max(took);
        assert!(!g.bestmove.is_empty());
    }
    eprintln!("stop -> bestmove: worst of 5 = {worst:?}");
    assert!(worst < Duration::from_millis(500), "stop took {worst:?}");
}

#[test]
fn isready_is_answered_during_a_search() {
    let mut e = PlyProcess::start();
    e.send("newgame teeko");
    e.send("setoption name UseSolver value false");
    e.send("go infinite");
    let _ = e.read_until(|l| l.starts_with("info depth 4"));
    let t = Instant::now();
    e.send("isready");
    // readyok arrives while the search goes on (info lines may come before it).
    let lines = e.read_until(|l| l == "readyok");
    assert!(t.elapsed() < Duration::from_millis(500));
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("info") || l == "readyok")
    );
    // A command sent during the search waits for it.
    e.send("query sidetomove");
    e.send("stop");
    let g = e.collect_go();
    assert!(!g.bestmove.is_empty());
    assert_eq!(
        e.next_line(Duration::from_secs(10)).as_deref(),
        Some("response p1")
    );
}

#[test]
fn end_of_input_finishes_limited_searches_and_stops_infinite_ones() {
    let mut e = PlyProcess::start();
    e.send("newgame connect4");
    e.send("setoption name UseSolver value false");
    e.send("go depth 9");
    e.send("go infinite");
    e.close();
    let first = e.collect_go();
    assert_eq!(first.field("depth").as_deref(), Some("9"));
    let second = e.collect_go();
    assert!(!second.bestmove.is_empty());
    assert_eq!(e.next_line(Duration::from_secs(10)), None);
    assert_eq!(e.wait(Duration::from_secs(10)), Some(0));
}

#[test]
fn quit_during_a_search_still_prints_bestmove() {
    let mut e = PlyProcess::start();
    e.send("newgame teeko");
    e.send("setoption name UseSolver value false");
    e.send("go infinite");
    let _ = e.read_until(|l| l.starts_with("info depth 3"));
    e.send("quit");
    let g = e.collect_go();
    assert!(!g.bestmove.is_empty());
    assert_eq!(e.wait(Duration::from_secs(10)), Some(0));
}

#[test]
fn bench_is_deterministic() {
    let nodes = |out: Vec<String>| {
        out.into_iter()
            .find(|l| l.starts_with("Nodes searched: "))
            .expect("a total")
    };
    let a = nodes(run_script("bench\n"));
    let b = nodes(run_script("bench\n"));
    assert_eq!(a, b);
}

/// A client that answers the moment it reads `bestmove` must see its commands applied after
/// the search, and `go`/`stop` cycles must never leave a search behind.
#[test]
fn commands_right_after_bestmove_come_after_the_search() {
    let mut e = PlyProcess::start();
    e.send("newgame connect4");
    e.send("setoption name UseSolver value false");
    for i in 0..40 {
        if i % 2 == 0 {
            e.go("go depth 2");
        } else {
            e.send("go infinite");
            e.send("stop");
            e.collect_go();
        }
        e.send("query sidetomove");
        e.send("isready");
        let lines = e.read_until(|l| l == "readyok");
        assert_eq!(lines, ["response p1", "readyok"], "round {i}");
    }
}

/// `UCI_ShowWDL` in a game without a chances model: a solver's proven draw is `wdl 0 1000 0`
/// and a proven loss `wdl 0 0 1000`, while the plain searcher's heuristic values carry none.
#[test]
fn show_wdl_outside_chess_only_for_proven_values() {
    let mut e = PlyProcess::start();
    e.send("setoption name UCI_ShowWDL value true");
    e.send("position startpos");
    let g = e.go("go depth 9");
    assert_eq!(g.info_lines().last().unwrap().wdl, Some([0, 1000, 0]));
    // O to move against X's two threats (a3 and c1): lost.
    e.send("position startpos moves a2 b2 b1 c3 a1");
    let g = e.go("go depth 9");
    assert_eq!(g.score(), "mate -1");
    assert_eq!(g.info_lines().last().unwrap().wdl, Some([0, 0, 1000]));
    // Finished games: lost (X has three in a row, O to move) and drawn (a full board).
    for (moves, line) in [
        ("a1 b1 a2 b2 a3", "info depth 0 score mate 0 wdl 0 0 1000"),
        (
            "b2 a1 c1 a3 a2 c2 c3 b1 b3",
            "info depth 0 score cp 0 wdl 0 1000 0",
        ),
    ] {
        e.send(&format!("position startpos moves {moves}"));
        let g = e.go("go depth 3");
        assert_eq!(
            (g.infos.join("\n"), g.bestmove.as_str()),
            (line.into(), "(none)")
        );
    }
    e.send("setoption name UseSolver value false");
    e.send("position startpos moves b2");
    let g = e.go("go depth 2");
    assert!(
        g.info_lines().iter().all(|i| i.wdl.is_none()),
        "{:?}",
        g.infos
    );
}

/// The standard output of `exe args`, which must exit within 60 s.
fn output_within_deadline(exe: &str, args: &[&str]) -> String {
    let mut child = std::process::Command::new(exe)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the program starts");
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut text).map(|_| text)
    });
    let end = std::time::Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > end {
            let _ = child.kill();
            panic!("{exe} {args:?} did not exit within 60 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    reader.join().unwrap().unwrap()
}

/// The help texts name every registered game, and `ply solve` lists and runs the solver
/// commands the games declare: adding a game adds it to them (ply's help once forgot chess).
#[test]
fn help_texts_and_solve_commands_follow_the_registry() {
    let ply = env!("CARGO_BIN_EXE_ply");
    let help = output_within_deadline(ply, &["--help"]);
    let referee = output_within_deadline(env!("CARGO_BIN_EXE_ply-referee"), &["--help"]);
    for &name in ply::games::NAMES {
        assert!(help.contains(&format!(" {name},")) || help.contains(&format!(" {name})")));
        assert!(referee.contains(&format!(" {name}")), "{name}");
    }
    assert!(referee.contains("connect4 [width=7 height=6]"), "{referee}");
    let solve = output_within_deadline(ply, &["solve", "--help"]);
    let commands = ply::solve::commands();
    let names: Vec<&str> = commands.iter().map(|(name, _)| *name).collect();
    assert_eq!(names, ["connect4", "teeko", "checkers"]);
    for (name, c) in commands {
        assert!(
            solve.contains(&format!("ply solve {name} {}", c.usage)),
            "{solve}"
        );
    }
    let teeko = output_within_deadline(ply, &["solve", "teeko", "--help"]);
    assert!(teeko.starts_with("Builds the Teeko tablebase"), "{teeko}");
}
