//! The engine's input: a reader thread turns the input into [`Event`]s, a line at a time,
//! each stamped with the instant it was read.

use std::io::BufRead;
use std::sync::mpsc::Sender;
use std::time::Instant;

/// Longer input lines are dropped (with an error) instead of buffered without bound.
pub const MAX_LINE_BYTES: usize = 16 << 20;

pub enum Event {
    /// A line (without its line ending) and when it was read.
    Line(String, Instant),
    /// A line longer than [`MAX_LINE_BYTES`] (its length without the line ending), dropped.
    Overlong(usize),
    Eof,
    /// The worker of job `id` has finished (it may arrive after the engine, having seen the
    /// job's last line, already took the worker back: then it is stale and ignored).
    WorkerDone(u64),
}

/// Reads lines from `input` until it ends, sending each as an [`Event`] stamped with the
/// instant it was read. A line is read into memory only up to [`MAX_LINE_BYTES`] (plus its
/// line ending); the rest of a longer one is skipped, counted, and reported as overlong.
pub(super) fn read_lines(mut input: impl BufRead, tx: Sender<Event>) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let read = std::io::Read::take(input.by_ref(), MAX_LINE_BYTES as u64 + 2)
            .read_until(b'\n', &mut buf);
        match read {
            Ok(0) => break,
            Ok(_) => {
                let at = Instant::now();
                let ended = buf.last() == Some(&b'\n');
                if ended {
                    buf.pop();
                }
                let mut len = buf.len();
                if !ended && len == MAX_LINE_BYTES + 2 {
                    let (skipped, cr) = skip_line(&mut input);
                    len += skipped;
                    // `\r\n` ends a line too: the `\r` is not part of it.
                    if cr.unwrap_or(buf.last() == Some(&b'\r')) {
                        len -= 1;
                    }
                } else if buf.last() == Some(&b'\r') {
                    // `\r\n` ends a line too: the `\r` is not part of it.
                    len -= 1;
                }
                let event = if len > MAX_LINE_BYTES {
                    Event::Overlong(len)
                } else {
                    let bytes = std::mem::take(&mut buf);
                    let line = String::from_utf8(bytes)
                        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
                    Event::Line(line, at)
                };
                if tx.send(event).is_err() {
                    return;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                log::warn!("reading input failed: {e}");
                break;
            }
        }
    }
    let _ = tx.send(Event::Eof);
}

/// Skips the rest of an overlong line, through its `\n`. Returns the bytes skipped before
/// the `\n` (or the end of input) and whether the last of them is a `\r` (`None` when none
/// were skipped).
fn skip_line(input: &mut impl BufRead) -> (usize, Option<bool>) {
    let mut skipped = 0;
    let mut last = None;
    loop {
        let (used, done) = match input.fill_buf() {
            Ok([]) => return (skipped, last),
            Ok(chunk) => {
                let end = chunk.iter().position(|&b| b == b'\n');
                let part = &chunk[..end.unwrap_or(chunk.len())];
                if let Some(&b) = part.last() {
                    last = Some(b == b'\r');
                }
                skipped += part.len();
                (end.map_or(chunk.len(), |i| i + 1), end.is_some())
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return (skipped, last),
        };
        input.consume(used);
        if done {
            return (skipped, last);
        }
    }
}
