//! One page's WebSocket: the messages it may send, the engines it runs, and its bounds.
//!
//! Messages are JSON text frames. From the page (`op`):
//!
//! - `{"op":"start","id":"p1","engine":"ply"}` starts the server's engine named `ply` in the
//!   page's slot `p1` (a slot already running is closed first);
//! - `{"op":"send","id":"p1","line":"go depth 8"}` writes one protocol line to it, after
//!   [`adapter::check_line`];
//! - `{"op":"close","id":"p1"}` ends it (`quit`, then a kill);
//! - `{"op":"rules","rid":7,"ask":{..}}` asks the server's rules (legal moves, a move's
//!   name, why a game ended, PGN; see [`super::ask`]); the answer is the `rules` event with
//!   the same `rid`.
//!
//! To the page (`ev`): `hello` (the engines it may start with the games each declares, the
//! games with their parameters, the limits), `rules`,
//! `started`,
//! `line` (one line the engine printed), `exit` (the engine ended by itself: status and the
//! tail of its stderr), `failed` (it could not start), `closed`, `error` (a message was
//! refused; nothing was applied) and `refused` (the whole page: too many pages open).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use super::Server;
use super::adapter;
use super::ask;
use super::engine::{self, EngineHandle, Event, What};

/// Slot names: 1 to 16 of `A-Z a-z 0-9 _ -`.
const MAX_SLOT_NAME: usize = 16;
/// Pings keep idle connections alive; a page silent for [`SILENCE`] is taken to be gone.
const PING_EVERY: Duration = Duration::from_secs(20);
const SILENCE: Duration = Duration::from_secs(60);
/// Refused messages after which the connection is closed as abusive.
const MAX_REFUSED: u32 = 1000;

#[derive(Deserialize, Debug)]
#[serde(tag = "op", rename_all = "lowercase", deny_unknown_fields)]
enum FromPage {
    Start { id: String, engine: String },
    Send { id: String, line: String },
    Close { id: String },
    Rules { rid: u64, ask: ask::Ask },
}

#[derive(Serialize, Debug)]
#[serde(tag = "ev", rename_all = "lowercase")]
enum ToPage<'a> {
    Hello {
        version: &'static str,
        engines: Vec<EngineInfo<'a>>,
        games: &'static [&'static str],
        /// Each game's parameters, declared as data (`crate::game::ParamSpec`): the page
        /// builds its new-game form from them.
        params: std::collections::BTreeMap<&'static str, &'static [crate::game::ParamSpec]>,
        limits: Limits,
    },
    Started {
        id: String,
        engine: String,
        name: String,
        pid: u32,
    },
    Line {
        id: String,
        line: String,
    },
    Exit {
        id: String,
        reason: String,
        stderr: String,
    },
    Failed {
        id: String,
        error: String,
    },
    Closed {
        id: String,
    },
    Rules {
        rid: u64,
        #[serde(flatten)]
        answer: serde_json::Value,
    },
    Error {
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        msg: String,
    },
    Refused {
        msg: String,
    },
}

#[derive(Serialize, Debug)]
struct EngineInfo<'a> {
    name: &'a str,
    proto: &'static str,
    /// The games it declares (see [`super::probe`]); the page offers it for these only.
    games: &'a [&'static str],
    /// Why it is offered for no game.
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<&'a str>,
}

#[derive(Serialize, Debug)]
struct Limits {
    message_bytes: usize,
    engines_per_page: usize,
    messages_per_second: u32,
    max_hash_mb: u64,
    max_threads: u64,
}

/// A token bucket: `rate` messages a second, bursts up to `burst`.
struct RateLimit {
    tokens: f64,
    rate: f64,
    burst: f64,
    last: Instant,
}

impl RateLimit {
    fn new(rate: u32) -> RateLimit {
        let rate = rate as f64;
        RateLimit {
            tokens: rate * 4.0,
            rate,
            burst: rate * 4.0,
            last: Instant::now(),
        }
    }

    fn allow(&mut self) -> bool {
        let now = Instant::now();
        self.tokens =
            (self.tokens + now.duration_since(self.last).as_secs_f64() * self.rate).min(self.burst);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

struct Session {
    server: Arc<Server>,
    engines: HashMap<String, EngineHandle>,
    events: mpsc::Sender<Event>,
    rate: RateLimit,
    refused: u32,
    /// The serial number of the next engine started.
    serial: u64,
    /// The PGN file the page is reading.
    pgn: ask::pgn::Upload,
}

/// Refuses the page politely when the server already serves as many pages as it may.
pub async fn refuse(mut socket: WebSocket, msg: String, limit: Duration) {
    let _ = send(&mut socket, &ToPage::Refused { msg: msg.clone() }, limit).await;
    let _ = socket
        .send(Message::Close(Some(CloseFrame {
            code: 1013,
            reason: "too many pages".into(),
        })))
        .await;
}

/// Serves one page until it goes away; its engines end with it.
pub async fn run(mut socket: WebSocket, server: Arc<Server>) {
    let (events, mut incoming) = mpsc::channel(256);
    let mut s = Session {
        rate: RateLimit::new(server.config.messages_per_second),
        server,
        engines: HashMap::new(),
        events,
        refused: 0,
        serial: 0,
        pgn: ask::pgn::Upload::default(),
    };
    let limit = s.server.config.send_timeout;
    if send(&mut socket, &s.hello(), limit).await.is_err() {
        return;
    }
    let mut ping = tokio::time::interval(PING_EVERY);
    ping.tick().await;
    let mut last_heard = Instant::now();
    let close_code = loop {
        tokio::select! {
            msg = socket.recv() => {
                let msg = match msg {
                    None => break None,
                    Some(Ok(m)) => m,
                    Some(Err(e)) => {
                        log::debug!("websocket: {e}");
                        break Some((1009, "message refused".to_string()));
                    }
                };
                last_heard = Instant::now();
                let reply = match msg {
                    Message::Text(t) => s.handle(t.as_str()),
                    Message::Binary(_) => Some(s.refuse(None, "binary messages are not accepted; send JSON text".into())),
                    Message::Close(_) => break None,
                    Message::Ping(_) | Message::Pong(_) => None,
                };
                if let Some(r) = reply
                    && send(&mut socket, &r, limit).await.is_err()
                {
                    break None;
                }
                if s.refused > MAX_REFUSED {
                    break Some((1008, format!("more than {MAX_REFUSED} refused messages")));
                }
            }
            ev = incoming.recv() => {
                let Some(ev) = ev else { break None };
                if let Some(msg) = s.event(ev)
                    && send(&mut socket, &msg, limit).await.is_err()
                {
                    break None;
                }
            }
            _ = ping.tick() => {
                if last_heard.elapsed() > SILENCE {
                    break Some((1001, "no answer to pings".to_string()));
                }
                let ping = socket.send(Message::Ping(Default::default()));
                if !matches!(tokio::time::timeout(limit, ping).await, Ok(Ok(()))) {
                    break None;
                }
            }
        }
    };
    if let Some((code, reason)) = close_code {
        let close = socket.send(Message::Close(Some(CloseFrame {
            code,
            reason: reason.into(),
        })));
        let _ = tokio::time::timeout(limit, close).await;
    }
    // Dropping the handles ends the engines (quit, then kill).
    s.engines.clear();
}

/// Sends one message within `limit`: a page that stops reading its messages fills the
/// connection's buffers, and its session (with its engines) ends rather than wait forever.
async fn send(socket: &mut WebSocket, msg: &ToPage<'_>, limit: Duration) -> Result<(), ()> {
    let text = serde_json::to_string(msg).expect("messages serialise");
    match tokio::time::timeout(limit, socket.send(Message::Text(text.into()))).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(_)) => Err(()),
        Err(_) => {
            log::info!("a page read nothing for {limit:?}; closing it");
            Err(())
        }
    }
}

fn valid_slot(id: &str) -> bool {
    (1..=MAX_SLOT_NAME).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

impl Session {
    fn hello(&self) -> ToPage<'_> {
        let c = &self.server.config;
        ToPage::Hello {
            version: env!("CARGO_PKG_VERSION"),
            engines: c
                .engines
                .iter()
                .zip(&self.server.declared)
                .map(|(e, d)| EngineInfo {
                    name: &e.name,
                    proto: e.dialect.name(),
                    games: &d.games,
                    note: d.note.as_deref(),
                })
                .collect(),
            games: crate::games::NAMES,
            params: crate::games::NAMES
                .iter()
                .filter_map(|&g| Some((g, crate::games::param_specs(g)?)))
                .collect(),
            limits: Limits {
                message_bytes: c.max_message,
                engines_per_page: c.engines_per_page,
                messages_per_second: c.messages_per_second,
                max_hash_mb: c.bounds.max_hash_mb,
                max_threads: c.bounds.max_threads,
            },
        }
    }

    fn refuse(&mut self, id: Option<String>, msg: String) -> ToPage<'static> {
        self.refused += 1;
        ToPage::Error { id, msg }
    }

    /// Handles one text message; the answer, if any, goes back at once.
    fn handle(&mut self, text: &str) -> Option<ToPage<'static>> {
        let max = self.server.config.max_message;
        if text.len() > max {
            return Some(self.refuse(
                None,
                format!("message of {} bytes refused; at most {max}", text.len()),
            ));
        }
        if !self.rate.allow() {
            return Some(self.refuse(
                None,
                format!(
                    "too many messages: at most {} a second",
                    self.server.config.messages_per_second
                ),
            ));
        }
        let msg: FromPage = match serde_json::from_str(text) {
            Ok(m) => m,
            Err(e) => return Some(self.refuse(None, format!("malformed message: {e}"))),
        };
        let id = match msg {
            FromPage::Rules { rid, ask } => return Some(self.rules(rid, ask)),
            FromPage::Start { ref id, .. }
            | FromPage::Send { ref id, .. }
            | FromPage::Close { ref id } => id.clone(),
        };
        if !valid_slot(&id) {
            return Some(self.refuse(
                None,
                format!("slot '{id}': 1 to {MAX_SLOT_NAME} letters, digits, '_' or '-'"),
            ));
        }
        match msg {
            FromPage::Start { engine, .. } => self.start(id, &engine),
            FromPage::Send { line, .. } => self.relay(id, line),
            FromPage::Close { .. } => {
                self.engines.remove(&id);
                Some(ToPage::Closed { id })
            }
            FromPage::Rules { .. } => unreachable!("answered above"),
        }
    }

    /// Answers a question about the rules at once (each is bounded by the message's size:
    /// a replay of at most its moves, or one part of a PGN file).
    fn rules(&mut self, rid: u64, ask: ask::Ask) -> ToPage<'static> {
        let answer = match tokio::task::block_in_place(|| ask::answer(ask, &mut self.pgn)) {
            Ok(a) => a,
            Err(error) => serde_json::json!({ "error": error }),
        };
        ToPage::Rules { rid, answer }
    }

    fn start(&mut self, id: String, engine: &str) -> Option<ToPage<'static>> {
        let Some(def) = self.server.config.engines.iter().find(|e| e.name == engine) else {
            let names: Vec<&str> = self
                .server
                .config
                .engines
                .iter()
                .map(|e| e.name.as_str())
                .collect();
            return Some(self.refuse(
                Some(id),
                format!(
                    "no engine named '{engine}' (this server has: {})",
                    names.join(", ")
                ),
            ));
        };
        // A restarted slot ends its old engine first, so it does not count twice.
        self.engines.remove(&id);
        let per_page = self.server.config.engines_per_page;
        if self.engines.len() >= per_page {
            return Some(self.refuse(
                Some(id),
                format!("a page may run at most {per_page} engines; close one first"),
            ));
        }
        let Some(count) = self.server.processes.acquire() else {
            return Some(self.refuse(
                Some(id),
                format!(
                    "the server already runs {} engines, its limit; close a page or an engine",
                    self.server.processes.live()
                ),
            ));
        };
        self.serial += 1;
        let handle = engine::spawn(
            id.clone(),
            self.serial,
            Arc::new(def.clone()),
            count,
            self.server.variants_file.clone(),
            self.events.clone(),
        );
        self.engines.insert(id, handle);
        None
    }

    fn relay(&mut self, id: String, line: String) -> Option<ToPage<'static>> {
        if let Err(e) = adapter::check_line(&line, self.server.config.bounds) {
            return Some(self.refuse(Some(id), e));
        }
        let Some(h) = self.engines.get(&id) else {
            return Some(self.refuse(Some(id.clone()), format!("no engine runs in slot '{id}'")));
        };
        let mut words = line.split_whitespace();
        if words.next() == Some("newgame") {
            let game = words.next().unwrap_or("").to_ascii_lowercase();
            let games = self.server.games_of(&h.engine);
            if !games.contains(&game.as_str()) {
                let msg = format!(
                    "{} does not play '{game}' (it declares: {})",
                    h.engine,
                    if games.is_empty() {
                        "no game of ply's".to_string()
                    } else {
                        games.join(", ")
                    }
                );
                return Some(self.refuse(Some(id), msg));
            }
        }
        match h.lines.try_send(line) {
            Ok(()) => None,
            Err(mpsc::error::TrySendError::Full(_)) => Some(self.refuse(
                Some(id),
                "the engine has too many lines waiting; wait for its answers".into(),
            )),
            // The task has ended: its exit event is on its way.
            Err(mpsc::error::TrySendError::Closed(_)) => None,
        }
    }

    /// The message for an engine's event; `None` for a late event of an engine the page
    /// has already closed or replaced.
    fn event(&mut self, ev: Event) -> Option<ToPage<'static>> {
        let slot = match &ev.what {
            What::Started { slot, .. }
            | What::Line { slot, .. }
            | What::Exit { slot, .. }
            | What::Failed { slot, .. } => slot.clone(),
        };
        let engine = match self.engines.get(&slot) {
            Some(h) if h.serial == ev.serial => h.engine.clone(),
            _ => return None,
        };
        Some(match ev.what {
            What::Started { id_name, pid, .. } => ToPage::Started {
                id: slot,
                engine,
                name: id_name,
                pid,
            },
            What::Line { line, .. } => ToPage::Line { id: slot, line },
            What::Exit { reason, stderr, .. } => {
                self.engines.remove(&slot);
                ToPage::Exit {
                    id: slot,
                    reason,
                    stderr,
                }
            }
            What::Failed { error, .. } => {
                self.engines.remove(&slot);
                ToPage::Failed { id: slot, error }
            }
        })
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        for h in self.engines.values() {
            h.abort();
        }
    }
}
