//! `ply gui`'s server, driven over HTTP and WebSocket as a page would drive it (and as a
//! hostile page or site would try to): separate engines per page, engines ended with their
//! page, refused requests, and an engine that crashes mid-game.

mod gui_common;

use gui_common::{Gui, alive, wait_gone};
use serde_json::json;
use tungstenite::Message;

#[test]
fn serves_the_page_only_under_its_own_host() {
    let gui = Gui::start(&[]);
    let (code, body) = gui.get("/", &gui.host());
    assert_eq!(code, 200);
    assert!(body.contains("<script type=\"module\" src=\"/js/main.js\">"));
    for path in [
        "/js/main.js",
        "/js/boards/chess.js",
        "/style.css",
        "/favicon.svg",
    ] {
        assert_eq!(gui.get(path, &gui.host()).0, 200, "{path}");
    }
    assert_eq!(gui.get("/etc/passwd", &gui.host()).0, 404);
    assert_eq!(gui.get("/../Cargo.toml", &gui.host()).0, 404);
    assert_eq!(gui.get("/", &format!("localhost:{}", gui.port)).0, 200);
    // DNS rebinding: another site's name pointed at 127.0.0.1.
    let (code, body) = gui.get("/", &format!("evil.example:{}", gui.port));
    assert_eq!(code, 421, "{body}");
    assert_eq!(gui.get("/", "127.0.0.1:1").0, 421);
}

#[test]
fn websockets_from_other_origins_are_refused() {
    let gui = Gui::start(&[]);
    for origin in [
        Some("http://evil.example"),
        Some("null"),
        Some(&format!("https://{}", gui.host())[..]),
        None,
    ] {
        match gui.connect(origin) {
            Err(tungstenite::Error::Http(r)) => assert_eq!(r.status(), 403, "{origin:?}"),
            Err(e) => panic!("{origin:?}: unexpected {e}"),
            Ok(_) => panic!("a WebSocket from {origin:?} was accepted"),
        }
    }
    gui.page();
}

#[test]
fn two_pages_keep_separate_engines_and_closing_a_page_ends_its_engines() {
    let gui = Gui::start(&[]);
    let mut a = gui.page();
    let mut b = gui.page();
    let pa = a.start("p1", "ply");
    let pb = b.start("p1", "ply");
    assert_ne!(pa, pb);
    a.line("p1", "newgame connect4");
    a.line("p1", "position startpos moves 4 4");
    b.line("p1", "position startpos moves b2");
    a.line("p1", "query fen");
    b.line("p1", "query fen");
    assert_eq!(
        a.expect_line("p1", "response"),
        "response ......./......./......./......./...o.../...x... x"
    );
    assert_eq!(b.expect_line("p1", "response"), "response .../.x./... o");
    // A search runs in page b while page a goes away.
    let rules_a = a.start("rules", "ply");
    b.line("p1", "go infinite");
    b.expect_line("p1", "info");
    drop(a);
    wait_gone(pa);
    wait_gone(rules_a);
    assert!(alive(pb));
    b.line("p1", "stop");
    b.expect_line("p1", "bestmove");
    // Closing a slot ends its engine; the page goes on.
    b.send(json!({"op": "close", "id": "p1"}));
    b.until("closed", |m| m["ev"] == "closed");
    wait_gone(pb);
    let again = b.start("p1", "ply");
    assert!(alive(again));
}

#[test]
fn bad_and_oversized_messages_are_refused_and_the_page_goes_on() {
    let gui = Gui::start(&["--engines-per-page", "2"]);
    let mut p = gui.page();
    p.start("e", "ply");
    p.ws.send(Message::text("{not json")).unwrap();
    p.expect_error("malformed message");
    p.send(json!({"op": "launch", "id": "e", "cmd": "/bin/sh"}));
    p.expect_error("malformed message");
    p.send(json!({"op": "start", "id": "x", "engine": "/bin/sh"}));
    p.expect_error("no engine named '/bin/sh'");
    p.send(json!({"op": "start", "id": "../x", "engine": "ply"}));
    p.expect_error("slot");
    for (line, why) in [
        ("quit", "not relayed"),
        ("bench", "not relayed"),
        ("isready\nquit", "control characters"),
        (
            "setoption name VariantPath value /etc/passwd",
            "may not be set",
        ),
        ("setoption name Hash value 65536", "Hash must be"),
    ] {
        p.line("e", line);
        p.expect_error(why);
    }
    p.ws.send(Message::binary(vec![0u8; 10])).unwrap();
    p.expect_error("binary");
    let big = format!(
        r#"{{"op":"send","id":"e","line":"position startpos moves {}"}}"#,
        "4 ".repeat(40_000)
    );
    p.ws.send(Message::text(big)).unwrap();
    p.expect_error("bytes refused");
    // Still the same engine, still answering.
    p.line("e", "query sidetomove");
    assert_eq!(p.expect_line("e", "response"), "response p1");
    // Bounds: engines per page.
    p.start("f", "ply");
    p.send(json!({"op": "start", "id": "g", "engine": "ply"}));
    p.expect_error("at most 2 engines");
    // Bursts beyond the message rate are refused, not queued.
    for _ in 0..1200 {
        p.send(json!({"op": "close", "id": "nothing"}));
    }
    p.expect_error("too many messages");
    // A frame over the hard limit closes the connection.
    let huge = "x".repeat(2 << 20);
    let _ = p.ws.send(Message::text(huge));
    p.until("close", |m| m["ev"] == "close");
}

#[test]
fn pages_beyond_the_limit_are_told_so() {
    let gui = Gui::start(&["--max-pages", "1"]);
    let _first = gui.page();
    assert!(matches!(
        gui.connect(Some(&format!("http://{}", gui.host()))),
        Err(tungstenite::Error::AttackAttempt)
    ));
}

#[test]
fn an_engine_crash_mid_game_is_reported_and_the_server_goes_on() {
    let gui = Gui::start(&[]);
    let mut p = gui.page();
    let pid = p.start("p2", "crashy");
    p.line("p2", "newgame tictactoe");
    p.line("p2", "position startpos moves b2");
    p.line("p2", "go depth 1");
    assert_eq!(p.expect_line("p2", "bestmove"), "bestmove a1");
    p.line("p2", "position startpos moves b2 a1 c3");
    p.line("p2", "go depth 1");
    let exit = p.until("exit", |m| m["ev"] == "exit");
    assert_eq!(exit["id"], "p2");
    assert_eq!(exit["reason"], "exit status 3");
    assert!(exit["stderr"].as_str().unwrap().contains("fake-crash"));
    wait_gone(pid);
    // The slot is free again, and the page and server go on.
    p.line("p2", "isready");
    p.expect_error("no engine runs in slot 'p2'");
    p.start("p2", "ply");
    p.line("p2", "isready");
    p.expect_line("p2", "readyok");
    let mut other = gui.page();
    other.start("rules", "ply");
}

#[test]
fn the_rules_answer_questions_and_engines_are_offered_for_their_games() {
    let fake = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fakes/fake_engine.py");
    let uci = format!("name=uci,cmd=python3,arg={fake},arg=plainuci,proto=uci");
    let gui = Gui::start(&["--engine", &uci]);
    let mut p = gui.page();
    let games = |name: &str| {
        let e = p.hello["engines"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == name);
        e.unwrap()["games"].clone()
    };
    assert_eq!(games("ply"), json!(ply::games::NAMES));
    assert_eq!(games("crashy"), json!(["tictactoe", "connect4"]));
    assert_eq!(games("uci"), json!(["chess"]));
    // A move typed in SAN, answered in ply's notation with the position after it.
    let at = json!({"game": "chess", "moves": ["e2e4"]});
    p.send(json!({"op": "rules", "rid": 7, "ask": {"q": "play", "at": at, "mv": "Nc6"}}));
    let a = p.until("the answer", |m| m["ev"] == "rules");
    assert_eq!(
        (a["rid"].clone(), a["mv"].clone()),
        (json!(7), json!("b8c6"))
    );
    assert_eq!(a["position"]["labels"], json!(["1. e4", "Nc6"]));
    let at = json!({"game": "connect4", "moves": ["4", "4", "4", "4", "4", "4"]});
    p.send(json!({"op": "rules", "rid": 8, "ask": {"q": "play", "at": at, "mv": "4"}}));
    let a = p.until("the refusal", |m| m["ev"] == "rules");
    assert_eq!(
        (a["rid"].clone(), a["error"].clone()),
        (json!(8), json!("Column 4 is full."))
    );
    // The server refuses a game the engine does not declare before the engine sees it.
    p.start("p2", "uci");
    p.line("p2", "newgame connect4");
    p.expect_error("uci does not play 'connect4' (it declares: chess)");
}

#[test]
fn a_command_that_is_no_engine_fails_to_start_with_a_reason() {
    let gui = Gui::start(&["--engine", "name=nothing,cmd=/nonexistent/engine"]);
    let mut p = gui.page();
    p.send(json!({"op": "start", "id": "x", "engine": "nothing"}));
    let m = p.until("failed", |m| m["ev"] == "failed");
    assert!(m["error"].as_str().unwrap().contains("cannot start"), "{m}");
}

#[test]
fn fairy_stockfish_plays_through_the_notation_adapter() {
    let fsf = "/usr/games/fairy-stockfish";
    if !std::path::Path::new(fsf).exists() {
        println!(
            "SKIPPED fairy_stockfish_plays_through_the_notation_adapter: {fsf} is not installed"
        );
        return;
    }
    let gui = Gui::start(&["--engine", &format!("name=fsf,cmd={fsf}")]);
    let mut p = gui.page();
    p.start("p2", "fsf");
    p.line("p2", "newgame connect4");
    p.line("p2", "position startpos moves 4 4 3");
    p.line("p2", "go depth 6");
    let best = p.expect_line("p2", "bestmove");
    let col: u32 = best[9..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap_or_else(|_| panic!("'{best}' is not in ply's notation"));
    assert!((1..=7).contains(&col), "{best}");
    // Its rules answers come from ply's rules, and its position errors are ply's.
    p.line("p2", "query legalmoves");
    assert_eq!(p.expect_line("p2", "response"), "response 1 2 3 4 5 6 7");
    p.line("p2", "position startpos moves 4 4 4 4 4 4 4");
    assert!(
        p.expect_line("p2", "info string error")
            .contains("move 7 '4': illegal move: column 4 is full")
    );
    // It declares tic-tac-toe and Connect Four only: nim is refused before it gets there.
    p.line("p2", "newgame nim");
    p.expect_error("fsf does not play 'nim' (it declares: tictactoe, connect4)");
    p.line("p2", "newgame tictactoe");
    p.line("p2", "position startpos moves b2");
    p.line("p2", "go depth 4");
    let best = p.expect_line("p2", "bestmove");
    assert!(
        ["a1", "a3", "c1", "c3", "a2", "b1", "b3", "c2"].contains(&&best[9..11]),
        "{best}"
    );
}
