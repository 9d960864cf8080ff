//! The protocol's invariants, checked on what went in and what came out (bytes and lines,
//! as protocol.md describes them; nothing here knows the engine's types):
//!
//! - the process exits with status 0, without a panic message, before its deadline;
//! - stdout is UTF-8 and every line is a protocol line (`d`'s diagram lines only inside a
//!   `d` block that ends with its `Legal moves:` or `Result:` line);
//! - every `isready` gets one `readyok`, every `uci` one `uciok`;
//! - every `go` gets exactly one last line (`bestmove`, or `Nodes searched` for a perft) or
//!   one `info string error go:`; every `bench` its `Nodes/second` or an error; every
//!   `query` a `response` or an error; every `d` its block; every overlong line its error;
//! - a command answered with an error changes nothing: the `d` blocks just before and after
//!   it are equal.
//!
//! Commands after a `quit` are never read; commands waiting for a job when `quit` arrives
//! are dropped, so in a stream with `quit` the answers may fall short, never exceed.

use ply::protocol::response::ParamLine;

use super::streams::{Stream, first_word, line_length};

/// Lines longer than this (without the line ending) are refused as a whole (protocol.md).
pub const MAX_LINE_BYTES: usize = 16 << 20;

/// What the engine answered.
pub struct Outcome {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// `None`: killed at the deadline (a hang).
    pub status: Option<i32>,
}

/// How many of each answer the commands sent call for.
#[derive(Debug, Default, PartialEq, Eq, Clone, Copy)]
struct Counts {
    readyok: usize,
    uciok: usize,
    /// `go` lines: a search's `bestmove`, a perft's `Nodes searched`, or `error go`.
    go: usize,
    /// `bench` lines: `Nodes/second`, or `error bench`.
    bench: usize,
    /// `query` lines: `response`, or `error query`.
    query: usize,
    /// `d` lines: a block.
    display: usize,
    /// Overlong lines: `error input`.
    overlong: usize,
}

/// A `d` block: its lines from `Game:` on (the diagram before it is checked for shape only).
type Block = Vec<String>;

/// Checks `out` against `stream`; `Err` says what is wrong.
pub fn check(stream: &Stream, out: &Outcome) -> Result<(), String> {
    let stderr = String::from_utf8_lossy(&out.stderr);
    match out.status {
        None => return Err("no exit before the deadline after the end of input (a hang)".into()),
        Some(0) => {}
        Some(c) => return Err(format!("exit status {c}; stderr: {}", tail(&stderr))),
    }
    if stderr.contains("panicked") {
        return Err(format!("a panic: {}", tail(&stderr)));
    }
    let text = std::str::from_utf8(&out.stdout).map_err(|e| format!("stdout is not UTF-8: {e}"))?;
    let lines: Vec<&str> = text.lines().collect();
    if !text.is_empty() && !text.ends_with('\n') {
        return Err("stdout does not end with a line ending".into());
    }

    let (expected, quit) = expected(stream);
    let (got, blocks, events) = read_answers(&lines)?;
    if quit {
        let within = got.readyok == expected.readyok
            && got.uciok <= expected.uciok
            && got.go <= expected.go
            && got.bench <= expected.bench
            && got.query <= expected.query
            && got.display <= expected.display
            && got.overlong <= expected.overlong;
        if !within {
            return Err(format!(
                "answers {got:?} exceed the commands before quit {expected:?}"
            ));
        }
    } else if got != expected {
        return Err(format!("answers {got:?} but commands {expected:?}"));
    }
    check_triples(stream, &blocks, &events, quit)
}

fn tail(s: &str) -> String {
    let start = s.len().saturating_sub(600);
    let start = (start..s.len())
        .find(|&i| s.is_char_boundary(i))
        .unwrap_or(s.len());
    s[start..].to_string()
}

/// What the lines before the first `quit` call for, and whether there is a `quit`.
fn expected(stream: &Stream) -> (Counts, bool) {
    let mut c = Counts::default();
    for line in &stream.lines {
        if line_length(line, stream.crlf) > MAX_LINE_BYTES {
            c.overlong += 1;
            continue;
        }
        match first_word(line, stream.crlf).as_str() {
            "quit" => return (c, true),
            "isready" => c.readyok += 1,
            "uci" => c.uciok += 1,
            "go" => c.go += 1,
            "bench" => c.bench += 1,
            "query" => c.query += 1,
            "d" => c.display += 1,
            _ => {}
        }
    }
    (c, false)
}

/// What happened in the output, in order, for the triples: a `d` block, or an error line.
enum Event {
    Block(usize),
    Error,
}

/// Counts the answers, collects the `d` blocks, and rejects any line that is not a
/// protocol line.
fn read_answers(lines: &[&str]) -> Result<(Counts, Vec<Block>, Vec<Event>), String> {
    let mut c = Counts::default();
    let mut blocks = Vec::new();
    let mut events = Vec::new();
    let mut nodes_searched: usize = 0;
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        let word = l.split(' ').next().unwrap_or("");
        match word {
            "readyok" if l == "readyok" => c.readyok += 1,
            "uciok" if l == "uciok" => c.uciok += 1,
            "id" if l.starts_with("id name ") || l.starts_with("id author ") => {}
            "option" if l.starts_with("option name ") => {}
            "param" if l.parse::<ParamLine>().is_ok() => {}
            "paramsok" if l == "paramsok" => {}
            "bestmove" if l.split(' ').count() == 2 => c.go += 1,
            "response" => c.query += 1,
            "info" => {
                if let Some(rest) = l.strip_prefix("info string error ") {
                    let cmd = rest.split(':').next().unwrap_or("");
                    match cmd {
                        "go" => c.go += 1,
                        "bench" => c.bench += 1,
                        "query" => c.query += 1,
                        "input" => c.overlong += 1,
                        "position" | "newgame" | "setoption" | "params" => {}
                        _ => return Err(format!("an error of an unknown command: {l}")),
                    }
                    events.push(Event::Error);
                }
            }
            "Nodes" if l.starts_with("Nodes searched: ") && number(&l[16..]) => nodes_searched += 1,
            "Nodes/second:" if number(&l[14..]) => c.bench += 1,
            _ if is_perft_line(l) => {}
            _ => {
                // A `d` block: diagram lines, then Game, Fen, Key, Side to move, and Legal
                // moves or Result.
                let start = i;
                while i < lines.len() && !lines[i].starts_with("Game: ") {
                    if i - start > 40 {
                        return Err(format!("not a protocol line: {:?}", lines[start]));
                    }
                    i += 1;
                }
                let block: Vec<String> = lines
                    .get(i..i + 5)
                    .unwrap_or(&[])
                    .iter()
                    .map(|s| s.to_string())
                    .collect();
                let shape = ["Game: ", "Fen: ", "Key: ", "Side to move: "];
                let ok = block.len() == 5
                    && shape.iter().zip(&block).all(|(p, l)| l.starts_with(p))
                    && (block[4].starts_with("Legal moves: ") || block[4].starts_with("Result: "));
                if !ok || i == start {
                    return Err(format!("not a protocol line: {:?}", lines[start]));
                }
                c.display += 1;
                events.push(Event::Block(blocks.len()));
                blocks.push(block);
                i += 5;
                continue;
            }
        }
        i += 1;
    }
    // `Nodes searched` ends a perft, and is the second last line of a bench.
    c.go += nodes_searched
        .checked_sub(c.bench - count_errors(lines, "bench"))
        .ok_or("more bench summaries than totals")?;
    Ok((c, blocks, events))
}

fn count_errors(lines: &[&str], command: &str) -> usize {
    let prefix = format!("info string error {command}:");
    lines.iter().filter(|l| l.starts_with(&prefix)).count()
}

fn number(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// `<move>: <count>`, a perft line.
fn is_perft_line(l: &str) -> bool {
    match l.split_once(": ") {
        Some((mv, n)) => !mv.is_empty() && !mv.contains(' ') && number(n),
        None => false,
    }
}

/// For each `[d, X, d]` of the stream whose X was answered with an error, the two blocks
/// must be equal.
fn check_triples(
    stream: &Stream,
    blocks: &[Block],
    events: &[Event],
    quit: bool,
) -> Result<(), String> {
    // The k-th `d` line sent is answered by the k-th block (before any quit).
    let mut d_index = Vec::new();
    for (i, line) in stream.lines.iter().enumerate() {
        if line_length(line, stream.crlf) > MAX_LINE_BYTES {
            continue;
        }
        let word = first_word(line, stream.crlf);
        if word == "quit" {
            break;
        }
        if word == "d" {
            d_index.push(i);
        }
    }
    for &t in &stream.triples {
        let Some(k) = d_index.iter().position(|&i| i == t) else {
            continue;
        };
        if d_index.get(k + 1) != Some(&(t + 2)) {
            continue;
        }
        if k + 1 >= blocks.len() {
            if quit {
                continue;
            }
            return Err(format!("no block for the d of line {}", t + 3));
        }
        // The events between block k and block k + 1.
        let from = events
            .iter()
            .position(|e| matches!(e, Event::Block(b) if *b == k));
        let to = events
            .iter()
            .position(|e| matches!(e, Event::Block(b) if *b == k + 1));
        let (Some(from), Some(to)) = (from, to) else {
            return Err("blocks out of order".into());
        };
        let failed = events[from..to].iter().any(|e| matches!(e, Event::Error));
        if failed && blocks[k] != blocks[k + 1] {
            return Err(format!(
                "line {} ({:?}) failed but changed the state: {:?} -> {:?}",
                t + 2,
                String::from_utf8_lossy(&stream.lines[t + 1]),
                blocks[k],
                blocks[k + 1]
            ));
        }
    }
    Ok(())
}
