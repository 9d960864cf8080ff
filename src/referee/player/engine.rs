//! The engine seat: an engine process reached through the client layer
//! ([`crate::client::Engine`]), and what the referee makes of its failures — each
//! [`EngineError`] becomes a forfeit with its reason, the end of the match, or the abort.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::{MoveRequest, Reply, SeatError, forfeit};
use crate::client::{Engine, EngineError, EngineSpec, Timeouts, Watch};
use crate::game::{MoveError, Params, Player};
use crate::protocol::command::GoParams;
use crate::referee::records::Termination;
use crate::referee::spec::{PlayerKind, PlayerSpec};
use crate::referee::tc::{Clock, SearchLimits};

/// An engine process, through the client layer, and what the referee makes of its failures.
pub struct EngineSeat {
    spec: EngineSpec,
    pub restart_each_game: bool,
    engine: Option<Engine>,
    /// Set once a process of this seat has been started (so a missing process means it
    /// failed or was stopped, not that the seat is new).
    pub ever_started: bool,
    /// `info string error` lines since the game began (a few at most).
    pub errors: Vec<String>,
    timeouts: Timeouts,
    watch: Watch,
}

impl EngineSeat {
    pub(super) fn new(
        spec: &PlayerSpec,
        timeouts: Timeouts,
        verbose: bool,
        abort: Arc<AtomicBool>,
    ) -> EngineSeat {
        let PlayerKind::Engine { engine, restart } = &spec.kind else {
            unreachable!("an engine seat is built from an engine spec");
        };
        EngineSeat {
            // The player's name, made distinct from its opponent's.
            spec: EngineSpec {
                name: spec.name.clone(),
                ..engine.clone()
            },
            restart_each_game: *restart,
            engine: None,
            ever_started: false,
            errors: Vec::new(),
            timeouts,
            watch: Watch { verbose, abort },
        }
    }

    pub fn is_running(&self) -> bool {
        self.engine.is_some()
    }

    /// Ends the process politely (`quit`), if there is one.
    pub fn shutdown(&mut self) {
        if let Some(e) = self.engine.take() {
            e.quit();
        }
    }

    /// The seat's verdict on an engine failure: a forfeit with its reason (the process is
    /// killed when it is of no further use), the end of the match, or the referee's abort.
    fn failed(&mut self, e: EngineError) -> SeatError {
        let kind = match e {
            EngineError::Aborted => return SeatError::Aborted,
            EngineError::Spawn(why) | EngineError::Setup(why) => return SeatError::Fatal(why),
            EngineError::BadMove(MoveError::Illegal(why)) => {
                return forfeit(Termination::Illegal, why);
            }
            EngineError::BadMove(MoveError::Malformed(why)) => {
                return forfeit(Termination::Malformed, why);
            }
            EngineError::Gone(_) => Termination::Crash,
            EngineError::Stall(_) => Termination::Stall,
            EngineError::NoBestmove(_) => Termination::NoBestmove,
        };
        self.engine = None;
        forfeit(kind, e.to_string())
    }

    /// The running engine (a new one after a failure, or for a new seat), ready for a game.
    fn engine(&mut self) -> Result<&mut Engine, SeatError> {
        if let Some(e) = self.engine.as_mut()
            && e.is_gone()
        {
            let why = e.exit_description();
            self.engine = None;
            return Err(forfeit(
                Termination::Crash,
                format!("{why}, before the game"),
            ));
        }
        if self.engine.is_none() {
            self.ever_started = true;
            let started = Engine::start(&self.spec, self.timeouts, self.watch.clone());
            let mut e = started.map_err(|e| self.failed(e))?;
            self.errors.extend(e.take_errors());
            self.engine = Some(e);
        }
        Ok(self.engine.as_mut().expect("started above"))
    }

    pub(super) fn prepare(&mut self, game: &str, params: &Params) -> Result<(), SeatError> {
        self.errors.clear();
        let e = self.engine()?;
        let r = e.new_game(game, params);
        let errors = e.take_errors();
        self.errors.extend(errors);
        r.map_err(|e| self.failed(e))
    }

    pub(super) fn think(
        &mut self,
        req: &MoveRequest,
        limits: &SearchLimits,
    ) -> Result<Reply, SeatError> {
        let go = go_params(req.view.side(), req.clocks, limits);
        let (timed, wait) = match req.allowance {
            Some(a) => (true, a),
            None => (false, self.timeouts.move_timeout),
        };
        let e = self.engine.as_mut().expect("prepared before thinking");
        let answer = e
            .position_played(req.base_fen, req.history, &req.view.fen())
            .and_then(|()| e.go(&go, wait));
        self.errors.extend(e.take_errors());
        let answer = match answer {
            Ok(a) if a.stopped && !timed => {
                return Err(forfeit(
                    Termination::NoBestmove,
                    format!(
                        "no bestmove within the move timeout of {} ms (it answered stop)",
                        wait.as_millis()
                    ),
                ));
            }
            Ok(a) => a,
            Err(EngineError::NoBestmove(why)) if timed => {
                self.engine = None;
                return Err(forfeit(Termination::Time, why));
            }
            Err(e) => return Err(self.failed(e)),
        };
        Ok(Reply {
            mv: answer.bestmove,
            raw: answer.raw,
            elapsed: answer.received.saturating_duration_since(answer.sent),
            depth: answer.info.depth,
            score: answer.info.score,
            nodes: answer.info.nodes,
            sent: Some(answer.sent),
            received: Some(answer.received),
        })
    }
}

/// The `go` parameters for `side` to move: both clocks when the mover has one (a clock of
/// the mover's own only, when the other player has none), none when it has none (an engine
/// takes a missing clock of its own for an empty one: given only the opponent's clock, a UCI
/// engine plays at once), then `movestogo`, `movetime`, `depth` and `nodes`.
fn go_params(side: Player, clocks: [Option<&Clock>; 2], limits: &SearchLimits) -> GoParams {
    let mover = clocks[side.index()];
    let clock = |p: Player| clocks[p.index()].filter(|_| mover.is_some());
    let ms = |c: &Clock| c.left_ms() as i64;
    let inc = |c: &Clock| c.increment_ms() as i64;
    GoParams {
        wtime: clock(Player::First).map(ms),
        winc: clock(Player::First).map(inc),
        btime: clock(Player::Second).map(ms),
        binc: clock(Player::Second).map(inc),
        movestogo: mover.and_then(|c| c.moves_to_go()),
        movetime: limits.movetime.map(|st| st.as_millis() as u64),
        depth: limits.depth,
        nodes: limits.nodes,
        ..GoParams::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::command::Command;
    use crate::referee::tc::TimeControl;

    /// A player without a clock is sent no clock, not the opponent's (Stockfish, given only
    /// `wtime` as Black, took its own clock for empty and moved at depth 1).
    #[test]
    fn go_lines_send_clocks_only_to_a_clocked_mover() {
        let tc = TimeControl::parse("60+1").unwrap().unwrap();
        let (white, black) = (Clock::new(tc), Clock::new(tc));
        let depth = SearchLimits {
            depth: Some(6),
            ..SearchLimits::default()
        };
        let none = SearchLimits::default();
        let both = [Some(&white), Some(&black)];
        let only_white = [Some(&white), None];
        assert_eq!(
            Command::Go(go_params(Player::Second, both, &none)).to_string(),
            "go wtime 60000 winc 1000 btime 60000 binc 1000"
        );
        assert_eq!(
            Command::Go(go_params(Player::First, only_white, &depth)).to_string(),
            "go wtime 60000 winc 1000 depth 6"
        );
        assert_eq!(
            Command::Go(go_params(Player::Second, only_white, &depth)).to_string(),
            "go depth 6"
        );
    }
}
