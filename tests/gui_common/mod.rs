//! A `ply gui` server for the tests that drive it as pages would (tests/gui.rs, and the
//! hostile page of tests/gui_fuzz.rs): start it on a free port, speak HTTP and WebSocket to
//! it, and watch its engine processes.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tungstenite::client::IntoClientRequest;
use tungstenite::{Message, WebSocket};

pub const WAIT: Duration = Duration::from_secs(30);

/// A `ply gui` on a free port, killed when dropped.
pub struct Gui {
    pub child: Child,
    pub port: u16,
}

impl Gui {
    pub fn start(extra: &[&str]) -> Gui {
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

    pub fn host(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// A raw HTTP/1.1 GET with the given Host; returns the status code and body.
    pub fn get(&self, path: &str, host: &str) -> (u16, String) {
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
    pub fn connect(&self, origin: Option<&str>) -> Result<Page, tungstenite::Error> {
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

    pub fn page(&self) -> Page {
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

pub struct Page {
    pub ws: WebSocket<TcpStream>,
    /// The server's greeting: engines (with the games they declare), games, limits.
    pub hello: Value,
}

impl Page {
    pub fn send(&mut self, v: Value) {
        self.ws.send(Message::text(v.to_string())).unwrap();
    }

    /// The next JSON message (pings are skipped).
    pub fn next(&mut self) -> Value {
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
    pub fn until(&mut self, what: &str, want: impl Fn(&Value) -> bool) -> Value {
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

    pub fn start(&mut self, id: &str, engine: &str) -> u32 {
        self.send(json!({"op": "start", "id": id, "engine": engine}));
        let m = self.until("started", |m| m["ev"] == "started" && m["id"] == id);
        m["pid"].as_u64().unwrap() as u32
    }

    pub fn line(&mut self, id: &str, line: &str) {
        self.send(json!({"op": "send", "id": id, "line": line}));
    }

    /// The next engine line of slot `id` that starts with `prefix`.
    pub fn expect_line(&mut self, id: &str, prefix: &str) -> String {
        let m = self.until(prefix, |m| {
            m["ev"] == "line" && m["id"] == id && m["line"].as_str().unwrap().starts_with(prefix)
        });
        m["line"].as_str().unwrap().to_string()
    }

    pub fn expect_error(&mut self, containing: &str) -> String {
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

pub fn alive(pid: u32) -> bool {
    // A zombie still has a /proc entry; its state is Z.
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|s| s.split_whitespace().nth(2) != Some("Z"))
}

pub fn wait_gone(pid: u32) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while alive(pid) {
        assert!(Instant::now() < deadline, "engine {pid} still runs");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The processes whose parent is `pid` (a gui's engines), as /proc lists them; zombies not
/// counted.
pub fn children(pid: u32) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&p| {
            std::fs::read_to_string(format!("/proc/{p}/stat")).is_ok_and(|s| {
                // pid (comm) state ppid ...: comm may hold spaces, so read after the ')'.
                let rest = s.rsplit_once(')').map_or("", |r| r.1);
                let mut w = rest.split_whitespace();
                let state = w.next();
                state != Some("Z") && w.next() == Some(&pid.to_string())
            })
        })
        .collect()
}
