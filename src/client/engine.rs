//! A started engine, driven synchronously: start it and run the handshake, choose the game,
//! set a position, `go`, and read the answer as types — for any Rust caller (the referee's
//! engine seat, and whatever else needs an engine's move) without referee machinery.
//!
//! ```no_run
//! use std::time::Duration;
//! use ply::client::{Engine, EngineSpec, Timeouts};
//! use ply::game::Params;
//! use ply::protocol::command::GoParams;
//!
//! let spec = EngineSpec::parse(["cmd=target/release/ply", "option.Hash=32"]).unwrap();
//! let mut engine = Engine::start(&spec, Timeouts::default(), Default::default()).unwrap();
//! engine.new_game("connect4", &Params::new()).unwrap();
//! engine.position(None, &["4".to_string(), "4".to_string()]).unwrap();
//! let go = GoParams { depth: Some(8), ..GoParams::default() };
//! let answer = engine.go(&go, Duration::from_secs(10)).unwrap();
//! println!("{} ({:?} at depth {:?})", answer.bestmove, answer.info.score, answer.info.depth);
//! engine.quit();
//! ```
//!
//! Everything sent is a [`Command`] printed from its type; everything read is parsed into
//! the protocol's response types. The engine speaks its [`Dialect`]: ply's `newgame`, UCI's
//! `UCI_Variant` and `ucinewgame`, or Fairy-Stockfish's variants and drop notation, which
//! [`Engine::position`] and [`Engine::go`] translate both ways, so the caller sees ply's
//! notation only.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::fsf::{self, FsfGame};
use super::handshake::{self, Hello};
use super::process::{EngineProcess, WaitError};
use super::spec::{Dialect, EngineSpec};
use crate::game::{MoveError, Params};
use crate::protocol::command::{Command, GoParams, PositionStart};
use crate::protocol::response::{BestMove, InfoLine};
use crate::value::Score;

/// How long a client waits for an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// Longest wait for `uciok`, `readyok` and Fairy-Stockfish's variant confirmation.
    pub stall: Duration,
    /// Longest wait for `bestmove` when no clock or move time limits the search (the
    /// caller's choice: [`Engine::go`] takes the wait).
    pub move_timeout: Duration,
    /// How long after `stop` a late engine may still answer before it is given up on.
    pub stop_grace: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts {
            stall: Duration::from_secs(10),
            move_timeout: Duration::from_secs(60),
            stop_grace: Duration::from_secs(1),
        }
    }
}

/// How the engine is watched: its lines logged, and a flag that ends every wait.
#[derive(Clone, Debug, Default)]
pub struct Watch {
    /// Log every line to and from the engine on stderr.
    pub verbose: bool,
    /// Set by the caller to stop waiting (a shutting-down client): every wait then ends
    /// with [`EngineError::Aborted`].
    pub abort: Arc<AtomicBool>,
}

/// Why an engine did not do what was asked. After [`EngineError::Gone`],
/// [`EngineError::Stall`] and [`EngineError::NoBestmove`] the process is of no further use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The program could not be started at all (no such file, no permission).
    Spawn(String),
    /// It exited, or closed its output or its input, while it was asked something.
    Gone(String),
    /// It did not answer within the stall timeout.
    Stall(String),
    /// It gave no `bestmove` within its time, nor within the grace after `stop`.
    NoBestmove(String),
    /// It cannot play this game, or did not load what it needs for it (Fairy-Stockfish's
    /// variants): a configuration problem, not a fault of play.
    Setup(String),
    /// Its move is not a move in its own notation (it could not be translated to ply's).
    BadMove(MoveError),
    /// The caller's abort flag was set.
    Aborted,
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Spawn(s)
            | EngineError::Gone(s)
            | EngineError::Stall(s)
            | EngineError::NoBestmove(s)
            | EngineError::Setup(s) => f.write_str(s),
            EngineError::BadMove(e) => write!(f, "{e}"),
            EngineError::Aborted => f.write_str("aborted"),
        }
    }
}

impl std::error::Error for EngineError {}

/// What `info` lines said during one search (each the latest given).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InfoSummary {
    pub depth: Option<u32>,
    pub score: Option<Score>,
    pub nodes: Option<u64>,
}

impl InfoSummary {
    /// Takes `depth`, `score` and `nodes` from an `info` line where it gives them (read
    /// leniently: a malformed line is ignored, the line stays informational).
    pub fn update(&mut self, line: &str) {
        let Ok(info) = line.parse::<InfoLine>() else {
            return;
        };
        self.depth = info.depth.or(self.depth);
        self.score = info.score.map(|s| s.score).or(self.score);
        self.nodes = info.nodes.or(self.nodes);
    }
}

/// The answer to one `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The move in ply's notation, or `(none)` (`bestmove (none)`, `0000`, ...).
    pub bestmove: String,
    /// The engine's own text of the move, when translation changed it.
    pub raw: Option<String>,
    pub info: InfoSummary,
    /// When `go` was written and when `bestmove` was read (by the reader thread's stamp).
    pub sent: Instant,
    pub received: Instant,
    /// Whether the answer came only after `stop`.
    pub stopped: bool,
}

/// A move already played, with the position it was played in (ply's FEN):
/// Fairy-Stockfish's notation of a Connect Four drop depends on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub mv: String,
    pub fen_before: String,
}

/// A running engine after its handshake.
pub struct Engine {
    name: String,
    proc: EngineProcess,
    hello: Hello,
    dialect: Dialect,
    /// Fairy-Stockfish's current variant, once a game was chosen.
    fsf: Option<FsfGame>,
    /// For Fairy-Stockfish, the position set (ply's FEN), which its moves are translated in.
    fen: String,
    timeouts: Timeouts,
    abort: Arc<AtomicBool>,
    /// `info string error` lines since [`Engine::take_errors`] (a few at most).
    errors: Vec<String>,
}

impl Engine {
    /// Starts the engine, runs the `uci` handshake, sets its options (and, for
    /// Fairy-Stockfish, the variants file), and waits for `readyok`.
    pub fn start(
        spec: &EngineSpec,
        timeouts: Timeouts,
        watch: Watch,
    ) -> Result<Engine, EngineError> {
        let proc = EngineProcess::spawn(&spec.name, &spec.launch, watch.verbose).map_err(|e| {
            EngineError::Spawn(format!(
                "cannot start {} ({}): {e}",
                spec.name, spec.launch.cmd
            ))
        })?;
        let mut engine = Engine {
            name: spec.name.clone(),
            proc,
            hello: Hello::default(),
            dialect: spec.dialect,
            fsf: None,
            fen: String::new(),
            timeouts,
            abort: watch.abort,
            errors: Vec::new(),
        };
        engine.send(&Command::Uci)?;
        let deadline = Instant::now() + timeouts.stall;
        let mut hello = Hello::default();
        loop {
            let line = engine.recv(deadline, "uciok", timeouts.stall)?;
            if hello.read(&line) {
                break;
            }
        }
        engine.errors = std::mem::take(&mut hello.errors);
        engine.dialect = spec.dialect.after_handshake(&hello.id_name);
        engine.hello = hello;
        let variants = match engine.dialect {
            Dialect::Fsf => Some(fsf::variants_file().map_err(EngineError::Setup)?),
            _ => None,
        };
        for c in handshake::setup_commands(spec, &engine.hello, engine.dialect, variants.as_deref())
        {
            engine.send(&c)?;
        }
        engine.sync()?;
        Ok(engine)
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// What the engine said in its handshake.
    pub fn hello(&self) -> &Hello {
        &self.hello
    }

    /// The dialect spoken (never [`Dialect::Auto`]).
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    pub fn pid(&self) -> u32 {
        self.proc.pid()
    }

    /// The `info string error` lines the engine printed since the last call (a few at most).
    pub fn take_errors(&mut self) -> Vec<String> {
        std::mem::take(&mut self.errors)
    }

    /// Whether the process has exited or closed its output.
    pub fn is_gone(&mut self) -> bool {
        self.proc.is_gone()
    }

    /// "exit status 3", "killed by signal 9", or what is known.
    pub fn exit_description(&mut self) -> String {
        self.proc.exit_description()
    }

    /// Writes one command.
    pub fn send(&mut self, command: &Command) -> Result<(), EngineError> {
        match self.proc.send(command) {
            Ok(()) => Ok(()),
            Err(WaitError::Disconnected(why)) => {
                let status = self.proc.exit_description();
                Err(EngineError::Gone(format!("{why} ({status})")))
            }
            Err(e) => Err(self.wait_error(e, "input", Duration::ZERO)),
        }
    }

    /// The next line, by `deadline` (`after` the wait began); `waiting_for` names what is
    /// awaited, for errors.
    fn recv(
        &mut self,
        deadline: Instant,
        waiting_for: &str,
        after: Duration,
    ) -> Result<String, EngineError> {
        match self.proc.recv(deadline, &self.abort) {
            Ok((line, _)) => Ok(line),
            Err(e) => Err(self.wait_error(e, waiting_for, after)),
        }
    }

    fn wait_error(&mut self, e: WaitError, waiting_for: &str, after: Duration) -> EngineError {
        match e {
            WaitError::Aborted => EngineError::Aborted,
            WaitError::Disconnected(why) => {
                EngineError::Gone(format!("{why}, waiting for {waiting_for}"))
            }
            WaitError::Timeout => {
                EngineError::Stall(format!("no {waiting_for} within {} ms", after.as_millis()))
            }
        }
    }

    /// Reads up to a line starting with `word`, within the stall timeout, noting the error
    /// lines before it; `other` sees every other line.
    fn wait_for(&mut self, word: &str, mut other: impl FnMut(&str)) -> Result<(), EngineError> {
        let stall = self.timeouts.stall;
        let deadline = Instant::now() + stall;
        loop {
            let line = self.recv(deadline, word, stall)?;
            if line.split_whitespace().next() == Some(word) {
                return Ok(());
            }
            handshake::note_error(&mut self.errors, &line);
            other(&line);
        }
    }

    /// `isready`, then waits for `readyok`.
    pub fn sync(&mut self) -> Result<(), EngineError> {
        self.send(&Command::IsReady)?;
        self.wait_for("readyok", |_| {})
    }

    /// Chooses the game for what follows, in the engine's dialect: `newgame` for ply;
    /// `UCI_Variant` (when listed) and `ucinewgame` for UCI; Fairy-Stockfish's variant,
    /// confirmed, and `ucinewgame`. Then waits for `readyok`.
    pub fn new_game(&mut self, game: &str, params: &Params) -> Result<(), EngineError> {
        match self.dialect {
            Dialect::Ply | Dialect::Auto => {
                self.send(&Command::new_game(game, [params.to_string()]))?
            }
            Dialect::Uci => {
                if self.hello.options.iter().any(|o| o == "UCI_Variant") {
                    self.send(&Command::set_option("UCI_Variant", Some(game)))?;
                }
                self.send(&Command::UciNewGame)?;
            }
            Dialect::Fsf => {
                let g = FsfGame::for_game(game, params).map_err(|e| {
                    EngineError::Setup(format!("{} is Fairy-Stockfish, but {e}", self.name))
                })?;
                if self.fsf != Some(g) {
                    self.select_fsf_variant(g)?;
                    self.fsf = Some(g);
                }
                self.send(&Command::UciNewGame)?;
            }
        }
        self.sync()
    }

    /// Selects the variant (after `VariantPath`, which it needs) and waits for FSF's
    /// `info string variant <name> ...`, its only sign that the variants file loaded: FSF
    /// ignores an unknown variant, or a file it cannot read, without a word on stdout.
    fn select_fsf_variant(&mut self, g: FsfGame) -> Result<(), EngineError> {
        let variant = g.variant();
        self.send(&Command::set_option("UCI_Variant", Some(variant)))?;
        self.send(&Command::IsReady)?;
        let want = format!("info string variant {variant} ");
        let mut confirmed = false;
        self.wait_for("readyok", |l| confirmed |= l.starts_with(&want))?;
        if confirmed {
            Ok(())
        } else {
            Err(EngineError::Setup(format!(
                "{} did not load the variant {variant} (no '{}' line); check its VariantPath",
                self.name,
                want.trim_end()
            )))
        }
    }

    /// Sets the position: `base_fen` (ply's FEN; `None` for the game's start) and the moves
    /// played since, in ply's notation. Output left over from an earlier exchange is thrown
    /// away first. Fairy-Stockfish needs more: [`Engine::position_played`].
    pub fn position(
        &mut self,
        base_fen: Option<&str>,
        moves: &[String],
    ) -> Result<(), EngineError> {
        if self.fsf.is_some() {
            return Err(EngineError::Setup(
                "Fairy-Stockfish's notation needs each move's position: use position_played".into(),
            ));
        }
        self.proc.discard_pending();
        let start = base_fen.map_or(PositionStart::StartPos, PositionStart::fen);
        self.send(&Command::position(start, moves))
    }

    /// Sets the position from moves that carry the position each was played in, and the
    /// position they reach (`fen`, ply's FEN), which Fairy-Stockfish's notation needs; for
    /// other engines this is [`Engine::position`].
    pub fn position_played(
        &mut self,
        base_fen: Option<&str>,
        history: &[Played],
        fen: &str,
    ) -> Result<(), EngineError> {
        self.proc.discard_pending();
        let Some(g) = self.fsf else {
            let start = base_fen.map_or(PositionStart::StartPos, PositionStart::fen);
            return self.send(&Command::position(start, history.iter().map(|p| &p.mv)));
        };
        self.fen = fen.to_string();
        let setup = |e: String| EngineError::Setup(format!("Fairy-Stockfish notation: {e}"));
        let start = match base_fen {
            None => PositionStart::StartPos,
            Some(f) => PositionStart::fen(&g.fen_to_fsf(f).map_err(setup)?),
        };
        let moves = history
            .iter()
            .map(|p| g.move_to_fsf(&p.fen_before, &p.mv).map_err(setup))
            .collect::<Result<Vec<_>, _>>()?;
        self.send(&Command::position(start, moves))
    }

    /// `go`, then reads `info` lines up to `bestmove`. After `wait` it sends `stop`, and
    /// gives up [`Timeouts::stop_grace`] later ([`EngineError::NoBestmove`]).
    pub fn go(&mut self, go: &GoParams, wait: Duration) -> Result<Answer, EngineError> {
        self.send(&Command::Go(go.clone()))?;
        let sent = Instant::now();
        let mut info = InfoSummary::default();
        let mut stopped = false;
        let mut deadline = sent + wait;
        loop {
            match self.proc.recv(deadline, &self.abort) {
                Ok((line, at)) => match line.split_whitespace().next() {
                    Some("info") => {
                        handshake::note_error(&mut self.errors, &line);
                        info.update(&line);
                    }
                    Some("bestmove") => {
                        let raw = line
                            .parse::<BestMove>()
                            .map_or_else(|_| BestMove::NONE.to_string(), |b| b.text().to_string());
                        let (bestmove, raw) = self.move_from_engine(raw)?;
                        return Ok(Answer {
                            bestmove,
                            raw,
                            info,
                            sent,
                            received: at,
                            stopped,
                        });
                    }
                    _ => {}
                },
                Err(WaitError::Timeout) if !stopped => {
                    self.send(&Command::Stop)?;
                    stopped = true;
                    deadline = Instant::now() + self.timeouts.stop_grace;
                }
                Err(WaitError::Timeout) => {
                    return Err(EngineError::NoBestmove(format!(
                        "no bestmove within {} ms, nor {} ms after stop",
                        wait.as_millis(),
                        self.timeouts.stop_grace.as_millis()
                    )));
                }
                Err(e) => return Err(self.wait_error(e, "bestmove", wait)),
            }
        }
    }

    /// The engine's move in ply's notation (and its own text when that differs).
    fn move_from_engine(&self, raw: String) -> Result<(String, Option<String>), EngineError> {
        if matches!(raw.as_str(), "(none)" | "0000" | "none" | "null") {
            return Ok((BestMove::NONE.to_string(), None));
        }
        match self.fsf {
            None => Ok((raw, None)),
            Some(g) => match g.move_from_fsf(&self.fen, &raw) {
                Ok(mv) => Ok((mv, Some(raw))),
                Err(e) => Err(EngineError::BadMove(e)),
            },
        }
    }

    /// Ends the process: `quit`, half a second to exit, then a kill.
    pub fn quit(self) {
        self.proc.shutdown(Duration::from_millis(500));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines() {
        let mut s = InfoSummary::default();
        s.update("info depth 6 seldepth 6 score cp -4 nodes 2627 nps 1 time 0 hashfull 0 pv 4 4");
        assert_eq!(
            (s.depth, s.score, s.nodes),
            (Some(6), Some(Score::Cp(-4)), Some(2627))
        );
        s.update("info depth 7 multipv 1 score mate -3 nodes x pv depth 99");
        assert_eq!(
            (s.depth, s.score, s.nodes),
            (Some(7), Some(Score::Mate(-3)), Some(2627))
        );
        s.update("info string depth 50");
        s.update("info depth");
        s.update("info score cp");
        assert_eq!(s.depth, Some(7));
    }
}
