//! `ply gui`'s server, driven over HTTP and WebSocket as a page would drive it (and as a
//! hostile page or site would try to): separate engines per page, engines ended with their
//! page, refused requests, and an engine that crashes mid-game.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tungstenite::client::IntoClientRequest;
use tungstenite::{Message, WebSocket};

const WAIT: Duration = Duration::from_secs(30);

/// A `ply gui` on a free port, killed when dropped.
struct Gui {
    child: Child,
    port: u16,
}

impl Gui {
    fn start(extra: &[&str]) -> Gui {
        let fake = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fakes/fake_engine.py");
        let crashy = format!("name=crashy,cmd=python3,arg={fake},arg=crash");
        let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
            .args(["gui", "--port", "0", "--engine", &crashy])
            .args(extra)
            .env("PLY_TABLES_AUTOBUILD", "0")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("ply gui starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        let port = first
            .trim()
            .strip_prefix("ply gui: http://127.0.0.1:")
            .and_then(|r| r.trim_end_matches('/').parse().ok())
            .unwrap_or_else(|| panic!("no URL in '{first}'"));
        Gui { child, port }
    }

    fn host(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// A raw HTTP/1.1 GET with the given Host; returns the status code and body.
    fn get(&self, path: &str, host: &str) -> (u16, String) {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        s.set_read_timeout(Some(WAIT)).unwrap();
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut text = String::new();
        s.read_to_string(&mut text).unwrap();
        let code = text[9..12].parse().unwrap();
        let body = text.split_once("\r\n\r\n").map_or("", |b| b.1).to_string();
        (code, body)
    }

    /// A page's WebSocket with `origin` (None: no Origin header).
    fn connect(&self, origin: Option<&str>) -> Result<Page, tungstenite::Error> {
        let mut req = format!("ws://{}/ws", self.host())
            .into_client_request()
            .unwrap();
        if let Some(o) = origin {
            req.headers_mut().insert("Origin", o.parse().unwrap());
        }
        let stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream.set_read_timeout(Some(WAIT)).unwrap();
        let (ws, _) = tungstenite::client(req, stream).map_err(|e| match e {
            tungstenite::HandshakeError::Failure(e) => e,
            tungstenite::HandshakeError::Interrupted(_) => panic!("blocking handshake"),
        })?;
        let mut page = Page {
            ws,
            hello: Value::Null,
        };
        let hello = page.next();
        assert!(
            hello["ev"] == "hello" || hello["ev"] == "refused",
            "{hello}"
        );
        if hello["ev"] == "refused" {
            return Err(tungstenite::Error::AttackAttempt);
        }
        page.hello = hello;
        Ok(page)
    }

    fn page(&self) -> Page {
        self.connect(Some(&format!("http://{}", self.host())))
            .expect("a page from the server's own origin connects")
    }
}

impl Drop for Gui {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Page {
    ws: WebSocket<TcpStream>,
    /// The server's greeting: engines (with the games they declare), games, limits.
    hello: Value,
}

impl Page {
    fn send(&mut self, v: Value) {
        self.ws.send(Message::text(v.to_string())).unwrap();
    }

    /// The next JSON message (pings are skipped).
    fn next(&mut self) -> Value {
        loop {
            match self.ws.read() {
                Ok(Message::Text(t)) => return serde_json::from_str(&t).unwrap(),
                Ok(Message::Close(f)) => return json!({"ev": "close", "frame": format!("{f:?}")}),
                Ok(_) => continue,
                Err(tungstenite::Error::Io(e)) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    panic!("no message within {WAIT:?}")
                }
                Err(e) => return json!({"ev": "close", "error": e.to_string()}),
            }
        }
    }

    /// Reads messages until one satisfies `want`; returns it.
    fn until(&mut self, what: &str, want: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + WAIT;
        let mut seen = Vec::new();
        while Instant::now() < deadline {
            let m = self.next();
            if want(&m) {
                return m;
            }
            assert_ne!(
                m["ev"], "close",
                "closed while waiting for {what}: {seen:?}"
            );
            seen.push(m);
        }
        panic!("no {what}; saw {seen:?}");
    }

    fn start(&mut self, id: &str, engine: &str) -> u32 {
        self.send(json!({"op": "start", "id": id, "engine": engine}));
        let m = self.until("started", |m| m["ev"] == "started" && m["id"] == id);
        m["pid"].as_u64().unwrap() as u32
    }

    fn line(&mut self, id: &str, line: &str) {
        self.send(json!({"op": "send", "id": id, "line": line}));
    }

    /// The next engine line of slot `id` that starts with `prefix`.
    fn expect_line(&mut self, id: &str, prefix: &str) -> String {
        let m = self.until(prefix, |m| {
            m["ev"] == "line" && m["id"] == id && m["line"].as_str().unwrap().starts_with(prefix)
        });
        m["line"].as_str().unwrap().to_string()
    }

    fn expect_error(&mut self, containing: &str) -> String {
        let m = self.until(&format!("an error with '{containing}'"), |m| {
            m["ev"] == "error"
        });
        let msg = m["msg"].as_str().unwrap().to_string();
        assert!(
            msg.contains(containing),
            "error '{msg}' lacks '{containing}'"
        );
        msg
    }
}

fn alive(pid: u32) -> bool {
    // A zombie still has a /proc entry; its state is Z.
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|s| s.split_whitespace().nth(2) != Some("Z"))
}

fn wait_gone(pid: u32) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while alive(pid) {
        assert!(Instant::now() < deadline, "engine {pid} still runs");
        std::thread::sleep(Duration::from_millis(20));
    }
}

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
    assert_eq!(
        games("ply"),
        json!(["tictactoe", "connect4", "nim", "teeko", "chess"])
    );
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
