//! The human seat: a person at the terminal, the board on stderr, moves read from stdin.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::{MoveRequest, Reply, SeatError, forfeit};
use crate::referee::records::Termination;

/// Lines typed by the person at the terminal, read on their own thread so a wait for input
/// can still notice the referee shutting down. `None` is the end of input.
pub struct HumanInput {
    lines: Mutex<Receiver<Option<String>>>,
}

impl HumanInput {
    /// Reads standard input.
    pub fn stdin() -> HumanInput {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("human-input".into())
            .spawn(move || {
                let stdin = std::io::stdin();
                let mut line = String::new();
                loop {
                    line.clear();
                    match stdin.read_line(&mut line) {
                        Ok(0) | Err(_) => {
                            let _ = tx.send(None);
                            return;
                        }
                        Ok(_) => {
                            if tx.send(Some(line.trim().to_string())).is_err() {
                                return;
                            }
                        }
                    }
                }
            })
            .expect("cannot start the input thread");
        HumanInput {
            lines: Mutex::new(rx),
        }
    }
}

/// A person at the terminal: the board and legal moves go to stderr (stdout is the match
/// report); moves are read a line at a time; bad input is explained and asked for again.
pub struct HumanSeat {
    input: Arc<HumanInput>,
    abort: Arc<AtomicBool>,
    ended: bool,
}

impl HumanSeat {
    pub(super) fn new(input: Arc<HumanInput>, abort: Arc<AtomicBool>) -> HumanSeat {
        HumanSeat {
            input,
            abort,
            ended: false,
        }
    }

    pub(super) fn say(&self, text: &str) {
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(text.as_bytes()).and_then(|_| err.flush());
    }

    pub(super) fn think(&mut self, req: &MoveRequest) -> Result<Reply, SeatError> {
        let start = Instant::now();
        let side = req.view.side();
        let mut text = format!("\n{}", req.view.diagram());
        if !req.history.is_empty() {
            let last = &req.history[req.history.len() - 1].mv;
            text.push_str(&format!("Last move: {last}\n"));
        }
        text.push_str(&format!(
            "Legal moves: {}\n",
            req.view.legal_move_texts().join(" ")
        ));
        self.say(&text);
        loop {
            self.say(&format!(
                "{} ({}) to move; type a move, or 'resign': ",
                req.name,
                side.protocol_name()
            ));
            let line = self.read()?;
            let Some(line) = line else {
                self.ended = true;
                return Err(forfeit(Termination::Crash, "input ended"));
            };
            match line.as_str() {
                "" => continue,
                "resign" | "quit" => {
                    return Err(forfeit(Termination::Resign, "resigns"));
                }
                mv => match req.view.check_move(mv) {
                    Ok(()) => {
                        return Ok(Reply {
                            mv: mv.to_string(),
                            elapsed: start.elapsed(),
                            ..Reply::default()
                        });
                    }
                    Err(e) => self.say(&format!(
                        "{e}. Legal moves: {}\n",
                        req.view.legal_move_texts().join(" ")
                    )),
                },
            }
        }
    }

    fn read(&mut self) -> Result<Option<String>, SeatError> {
        if self.ended {
            return Ok(None);
        }
        let rx = self.input.lines.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if self.abort.load(Ordering::Relaxed) {
                return Err(SeatError::Aborted);
            }
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(line) => return Ok(line),
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => return Ok(None),
            }
        }
    }
}
