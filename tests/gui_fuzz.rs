//! `ply gui`'s WebSocket against hostile pages: malformed JSON, messages of every shape with
//! random and extreme values, huge and fragmented frames, binary frames, bad frames, floods,
//! commands in the wrong order, pages that vanish mid-frame and pages that never read.
//! Meanwhile a well-behaved page (the canary) keeps playing and times its answers. Checked:
//! the server stays up, the canary is answered correctly and within its bound throughout, and
//! once the hostile pages are gone none of their engine processes is left.
//!
//! `cargo test` runs a short fixed-seed sample; `scripts/checks/gui_fuzz.sh [messages] [seed]` runs
//! a long one (the ignored test, with `PLY_GUI_FUZZ_MESSAGES` and `PLY_GUI_FUZZ_SEED`).

mod gui_common;

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use gui_common::{Gui, Page, alive, children};
use serde_json::{Value, json};
use tungstenite::Message;
use tungstenite::protocol::frame::Frame;
use tungstenite::protocol::frame::coding::{Data, OpCode};

/// The canary's answers must come within this (on a loaded machine; they take milliseconds).
const CANARY_BOUND: Duration = Duration::from_secs(10);
/// A page that reads nothing is closed after this (the server's `--send-timeout`).
const SEND_TIMEOUT: &str = "2";

/// SplitMix64: a small seeded generator, so a run is reproduced by its seed.
struct Rng(ply::util::Rng);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(ply::util::Rng::new(seed))
    }

    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u64) as usize]
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// A short random string of printable and odd characters.
    fn junk(&mut self, max: u64) -> String {
        let alphabet: Vec<char> = "ab9 _-./:=\"\\{}[]é€\u{2028}\t\u{0}😀".chars().collect();
        (0..self.below(max + 1))
            .map(|_| *self.pick(&alphabet))
            .collect()
    }
}

const GAMES: &[&str] = &[
    "tictactoe",
    "connect4",
    "nim",
    "teeko",
    "chess",
    "go",
    "",
    "CHESS",
];
const PARAMS: &[&str] = &[
    "",
    "width=63 height=1",
    "width=8 height=7",
    "heaps=50000,50000,50000,50000,50000,50000,50000,50000,50000,50000,50000,50000,50000,50000,50000,50000",
    "length=50000 max=4294967295",
    "heaps=3,4,5 misere=true",
    "chess960=true start=959",
    "advanced=true centre=false",
    "width=0",
    "misere=maybe",
];
const MOVES: &[&str] = &[
    "4",
    "1",
    "9",
    "0",
    "a1",
    "b2",
    "c3",
    "e2e4",
    "e7e5",
    "g1f3",
    "e1g1",
    "e7e8q",
    "c3d4",
    "1:1",
    "2:3",
    "16:1",
    "Nf3",
    "O-O",
    "zzz",
    "",
    "4 4",
    "-1",
    "99999999999999999999",
];
const LINES: &[&str] = &[
    "isready",
    "newgame connect4",
    "newgame nim heaps=3,4,5",
    "newgame chess chess960=true",
    "newgame go",
    "position startpos moves 4 4 3",
    "position startpos moves e2e4 e7e5",
    "position fen garbage",
    "go depth 3",
    "go infinite",
    "go nodes 18446744073709551615",
    "go perft 4",
    "stop",
    "query legalmoves",
    "query fen",
    "setoption name Hash value 64",
    "setoption name Hash value 999999",
    "setoption name VariantPath value /etc/passwd",
    "quit",
    "bench",
    "uci",
    "d",
    "",
    "isready\nquit",
];
const SCORES: &[&str] = &[
    "mate -2147483648",
    "mate 2147483647",
    "cp 99999999999",
    "mate 0",
    "cp 0",
    "mate 3 lowerbound",
    "mate -1 upperbound",
    "garbage",
];

fn moves(rng: &mut Rng, max: u64) -> Vec<String> {
    (0..rng.below(max + 1))
        .map(|_| rng.pick(MOVES).to_string())
        .collect()
}

/// A position to ask about: a game, parameters, maybe a start, and moves.
fn at(rng: &mut Rng) -> Value {
    let fen = match rng.below(4) {
        0 => Value::Null,
        1 => json!("x.o/.x./... o"),
        2 => json!(rng.junk(30)),
        _ => json!("8/8/8/8/8/8/8/K1k5 w - - 0 1"),
    };
    let n = if rng.chance(5) { 4000 } else { 12 };
    json!({ "game": rng.pick(GAMES), "params": rng.pick(PARAMS), "fen": fen, "moves": moves(rng, n) })
}

/// A question to the server's rules, of any kind.
fn question(rng: &mut Rng) -> Value {
    match rng.below(9) {
        0 | 1 => json!({ "q": "position", "at": at(rng) }),
        2 => json!({ "q": "play", "at": at(rng), "mv": rng.pick(MOVES) }),
        3 => json!({ "q": "line", "at": at(rng), "line": moves(rng, 100) }),
        4 => json!({ "q": "value", "at": at(rng), "mv": rng.pick(MOVES), "score": rng.pick(SCORES),
                     "proven": rng.chance(50), "won": rng.chance(20) }),
        5 => {
            json!({ "q": "pgn", "game": { "params": rng.pick(PARAMS), "moves": [{"mv": rng.pick(MOVES), "ms": -1.0, "clock_ms": i64::MIN}],
                     "white": rng.junk(10), "black": "b", "result": rng.junk(4), "termination": rng.junk(6), "started_ms": u64::MAX } })
        }
        6 => {
            json!({ "q": "pgn_part", "text": format!("[Event \"{}\"]\n\n1. e4 {{ {} e5 *\n", rng.junk(20), rng.junk(20)),
                     "first": rng.chance(30), "last": rng.chance(50) })
        }
        7 => json!({ "q": "pgn_game", "n": rng.below(5) }),
        _ => json!({ "q": rng.junk(8), "at": at(rng) }),
    }
}

/// A message with the right shape (or nearly), as a confused or hostile page might send.
fn operation(rng: &mut Rng) -> Value {
    let slot = if rng.chance(80) {
        json!(rng.pick(&["p1", "p2", "an", "val", "x"]))
    } else {
        json!(rng.junk(20))
    };
    match rng.below(8) {
        0 => {
            json!({ "op": "start", "id": slot, "engine": rng.pick(&["ply", "ply", "nothing", "/bin/sh", ""]) })
        }
        1 | 2 => json!({ "op": "send", "id": slot, "line": rng.pick(LINES) }),
        3 => json!({ "op": "close", "id": slot }),
        4..=6 => json!({ "op": "rules", "rid": rng.next() >> 11, "ask": question(rng) }),
        _ => json!({ "op": rng.junk(6), "id": slot, "extra": rng.next() }),
    }
}

/// Text that is not the JSON the server takes.
fn malformed(rng: &mut Rng) -> String {
    let valid = operation(rng).to_string();
    match rng.below(7) {
        0 => valid
            .chars()
            .take(rng.below(valid.len() as u64) as usize)
            .collect(),
        1 => rng.junk(200),
        2 => "[".repeat(rng.below(100_000) as usize + 1),
        3 => format!(
            "{{\"op\":\"rules\",\"rid\":1e{},\"ask\":{{\"q\":\"position\"}}}}",
            rng.below(99_999)
        ),
        4 => json!({ "op": 5, "id": [1, 2], "line": null }).to_string(),
        5 => format!("{valid}{valid}"),
        _ => "null".to_string(),
    }
}

/// What the hostile pages did.
#[derive(Default, Debug)]
struct Tally {
    /// Messages and raw frames sent, by kind.
    kinds: BTreeMap<&'static str, u64>,
    messages: u64,
    frames: u64,
    pages: u64,
    /// Pages the server refused (too many open) or closed (a bad frame, a huge message, too
    /// many refusals, a page that stopped reading).
    refused: u64,
    closed: u64,
    /// Messages the pages read back.
    replies: u64,
    /// Pages that never read, closed by the server (their engines ended) before the end.
    never_read_closed: u64,
}

impl Tally {
    fn sent(&mut self, kind: &'static str, messages: u64, frames: u64) {
        *self.kinds.entry(kind).or_default() += messages.max(frames);
        self.messages += messages;
        self.frames += frames;
    }
}

/// Sends one random thing; false once the server has closed the page.
fn hostile_step(page: &mut Page, rng: &mut Rng, tally: &mut Tally) -> bool {
    let text = |m: String| Message::text(m);
    let frame =
        |data: Vec<u8>, op: Data, fin| Message::Frame(Frame::message(data, OpCode::Data(op), fin));
    let (kind, msgs): (&'static str, Vec<Message>) = match rng.below(20) {
        0..=8 => ("operation", vec![text(operation(rng).to_string())]),
        9..=11 => ("malformed", vec![text(malformed(rng))]),
        12 => {
            let size = *rng.pick(&[64 * 1024 + 1, 200 * 1024, (1 << 20) + 1]);
            ("huge", vec![text("x".repeat(size))])
        }
        13 => ("binary", vec![Message::binary(rng.junk(100).into_bytes())]),
        14 | 15 => ("fragmented", fragments(rng)),
        16 => (
            "flood",
            (0..300).map(|_| text(operation(rng).to_string())).collect(),
        ),
        17 => (
            "bad frame",
            vec![match rng.below(3) {
                0 => frame(vec![0xff, 0xfe, b'x'], Data::Text, true),
                1 => frame(b"{}".to_vec(), Data::Reserved(3), true),
                _ => frame(b"{}".to_vec(), Data::Continue, true),
            }],
        ),
        _ => (
            "wrong order",
            wrong_order(rng)
                .into_iter()
                .map(|v| text(v.to_string()))
                .collect(),
        ),
    };
    let raw = msgs
        .iter()
        .filter(|m| matches!(m, Message::Frame(_)))
        .count() as u64;
    tally.sent(kind, msgs.len() as u64 - raw, raw);
    for m in msgs {
        if page.ws.send(m).is_err() {
            return false;
        }
    }
    true
}

/// A message in 2 to 10 frames, sometimes with a ping between, sometimes never finished.
fn fragments(rng: &mut Rng) -> Vec<Message> {
    let body = operation(rng).to_string().into_bytes();
    let parts = rng.below(9) as usize + 2;
    let size = body.len().div_ceil(parts).max(1);
    let chunks: Vec<&[u8]> = body.chunks(size).collect();
    let unfinished = rng.chance(20);
    let mut out = Vec::new();
    for (i, c) in chunks.iter().enumerate() {
        let op = if i == 0 { Data::Text } else { Data::Continue };
        let fin = i + 1 == chunks.len() && !unfinished;
        out.push(Message::Frame(Frame::message(
            c.to_vec(),
            OpCode::Data(op),
            fin,
        )));
        if rng.chance(20) {
            out.push(Message::Ping(b"p".to_vec().into()));
        }
    }
    out
}

/// Commands in an order no page of ours sends: lines to slots never started, a close twice,
/// a start and an immediate close, a search before any game.
fn wrong_order(rng: &mut Rng) -> Vec<Value> {
    let slot = *rng.pick(&["p1", "an", "zz"]);
    vec![
        json!({ "op": "send", "id": slot, "line": "go depth 5" }),
        json!({ "op": "start", "id": slot, "engine": "ply" }),
        json!({ "op": "close", "id": slot }),
        json!({ "op": "close", "id": slot }),
        json!({ "op": "send", "id": slot, "line": "stop" }),
        json!({ "op": "rules", "rid": 1, "ask": { "q": "pgn_game", "n": 1 } }),
    ]
}

/// Reads what has arrived, without waiting; false once the server has closed the page.
fn drain(page: &mut Page, tally: &mut Tally) -> bool {
    let _ = page
        .ws
        .get_mut()
        .set_read_timeout(Some(Duration::from_millis(2)));
    loop {
        match page.ws.read() {
            Ok(Message::Close(_)) => return false,
            Ok(_) => tally.replies += 1,
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return true;
            }
            Err(_) => return false,
        }
    }
}

/// One hostile page: most send random things and read now and then; some vanish mid-frame;
/// some never read at all (kept open in `lazy`, for the server to drop).
fn hostile_page(gui: &Gui, rng: &mut Rng, tally: &mut Tally, lazy: &mut Vec<Lazy>) {
    let Ok(mut page) = gui.connect(Some(&format!("http://{}", gui.host()))) else {
        tally.refused += 1;
        thread::sleep(Duration::from_millis(20));
        return;
    };
    tally.pages += 1;
    let stream = page.ws.get_mut();
    let _ = stream.set_write_timeout(Some(Duration::from_millis(500)));
    match rng.below(12) {
        0 if lazy.len() < 2 => {
            // Never reads: questions with large answers (18 KB each: a thousand of the 800,000
            // moves listed) until the connection is full.
            let params = format!("{} max=50000", PARAMS[3]);
            let heavy = json!({ "game": "nim", "params": params, "moves": [] });
            let engine = page.start("p1", "ply");
            for rid in 0..400 {
                let ask =
                    json!({ "op": "rules", "rid": rid, "ask": { "q": "position", "at": heavy } });
                if page.ws.send(Message::text(ask.to_string())).is_err() {
                    break;
                }
                tally.sent("never reads", 1, 0);
            }
            lazy.push(Lazy {
                _page: page,
                engine,
                since: Instant::now(),
            });
        }
        1 => {
            for _ in 0..rng.below(5) {
                hostile_step(&mut page, rng, tally);
            }
            // Half a frame header, then gone.
            let _ = page.ws.get_mut().write_all(&[0x81, 0xfe, 0x10]);
            tally.sent("vanished", 0, 1);
        }
        _ => {
            let steps = rng.below(60) + 1;
            for _ in 0..steps {
                if !hostile_step(&mut page, rng, tally)
                    || (rng.chance(20) && !drain(&mut page, tally))
                {
                    tally.closed += 1;
                    return;
                }
            }
            if rng.chance(50) {
                let _ = page.ws.close(None);
            }
        }
    }
}

/// A page that never reads, its engine's process id, and since when it has not read.
struct Lazy {
    _page: Page,
    engine: u32,
    since: Instant,
}

/// How long a page that never reads is kept open: the server must have closed it (and ended
/// its engine) by then. Its answers take seconds to fill the connection on a loaded machine,
/// then the server waits its `--send-timeout`.
const LAZY_KEPT: Duration = Duration::from_secs(30);

/// Lets go of the pages that never read once they are [`LAZY_KEPT`] old, each after checking
/// that the server has ended its engine while the page was still open.
fn retire(lazy: &mut Vec<Lazy>, tally: &mut Tally) {
    lazy.retain(|l| {
        if l.since.elapsed() < LAZY_KEPT {
            return true;
        }
        assert!(
            !alive(l.engine),
            "a page has not read for {LAZY_KEPT:?} and its engine {} still runs",
            l.engine
        );
        tally.never_read_closed += 1;
        false
    });
}

/// What the canary saw.
#[derive(Default, Debug)]
struct Canary {
    round_trips: u64,
    latencies_ms: Vec<f64>,
    errors: Vec<String>,
}

/// A page that plays on: each round, a question to the rules and an engine's `isready`,
/// each timed and checked.
fn canary(mut page: Page, stop: Arc<AtomicBool>, seen: Arc<Mutex<Canary>>) {
    let _ = page.ws.get_mut().set_read_timeout(Some(CANARY_BOUND));
    page.start("p1", "ply");
    let game = ["4", "4", "3", "3", "2", "2"];
    let mut rid = 0u64;
    while !stop.load(Ordering::Relaxed) {
        rid += 1;
        let k = (rid % game.len() as u64) as usize;
        let t0 = Instant::now();
        let ask = json!({ "q": "position", "at": { "game": "connect4", "moves": &game[..k] } });
        page.send(json!({ "op": "rules", "rid": rid, "ask": ask }));
        let a = page.until("the canary's answer", |m| {
            m["ev"] == "rules" && m["rid"] == rid
        });
        let ok = a["labels"].as_array().is_some_and(|l| l.len() == k) && a["legal_count"] == 7;
        page.line("p1", "isready");
        page.expect_line("p1", "readyok");
        let ms = t0.elapsed().as_secs_f64() * 1000.0;
        let mut c = seen.lock().unwrap();
        c.round_trips += 1;
        c.latencies_ms.push(ms);
        if !ok {
            c.errors
                .push(format!("a wrong answer after {k} moves: {a}"));
        }
        drop(c);
        thread::sleep(Duration::from_millis(20));
    }
}

/// Runs `messages` hostile messages and frames from `seed`; panics on a broken invariant and
/// returns the report line.
fn fuzz(seed: u64, messages: u64) -> String {
    let mut gui = Gui::start(&["--send-timeout", SEND_TIMEOUT]);
    let pid = gui.child.id();
    let stop = Arc::new(AtomicBool::new(false));
    let seen = Arc::new(Mutex::new(Canary::default()));
    let watcher = {
        let (page, stop, seen) = (gui.page(), stop.clone(), seen.clone());
        thread::spawn(move || canary(page, stop, seen))
    };
    let (mut rng, mut tally, mut lazy) = (Rng::new(seed), Tally::default(), Vec::new());
    let started = Instant::now();
    while tally.messages + tally.frames < messages {
        hostile_page(&gui, &mut rng, &mut tally, &mut lazy);
        retire(&mut lazy, &mut tally);
        assert!(
            gui.child.try_wait().unwrap().is_none(),
            "the server exited: {tally:?}"
        );
    }
    let fuzzing = started.elapsed();
    // The pages that never read are closed by the server; then only the canary's engine is
    // left.
    let deadline = Instant::now() + Duration::from_secs(30);
    while children(pid).len() > 1 && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(100));
    }
    let left = children(pid);
    drop(lazy);
    stop.store(true, Ordering::Relaxed);
    watcher.join().expect("the canary was answered throughout");
    assert!(gui.child.try_wait().unwrap().is_none(), "the server exited");
    let c = seen.lock().unwrap();
    assert!(c.errors.is_empty(), "the canary: {:?}", c.errors);
    assert_eq!(
        left.len(),
        1,
        "engine processes left, the canary's among them: {left:?}"
    );
    let mut l = c.latencies_ms.clone();
    l.sort_by(f64::total_cmp);
    let max = l.last().copied().unwrap_or(0.0);
    assert!(
        max < CANARY_BOUND.as_secs_f64() * 1000.0,
        "the canary waited {max} ms"
    );
    format!(
        "gui fuzz, seed {seed}: {} pages ({} refused, {} closed by the server), {} messages and {} raw frames in {:.1} s {:?}, {} replies read; \
         {} pages that never read closed by the server during the run; canary: {} round trips, median {:.1} ms, max {:.1} ms; engine processes left: {}",
        tally.pages,
        tally.refused,
        tally.closed,
        tally.messages,
        tally.frames,
        fuzzing.as_secs_f64(),
        tally.kinds,
        tally.replies,
        tally.never_read_closed,
        c.round_trips,
        l.get(l.len() / 2).copied().unwrap_or(0.0),
        max,
        left.len() - 1
    )
}

#[test]
fn hostile_pages_do_not_crash_the_server_disturb_others_or_leak_engines() {
    println!("{}", fuzz(24, 3000));
}

/// The long run: `scripts/checks/gui_fuzz.sh [messages] [seed]`.
#[test]
#[ignore]
fn hostile_pages_long_run() {
    let env = |k, d| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    println!(
        "{}",
        fuzz(
            env("PLY_GUI_FUZZ_SEED", 1),
            env("PLY_GUI_FUZZ_MESSAGES", 1_000_000)
        )
    );
}
