//! One game between two seats, refereed by ply's own rules: every move a seat returns is
//! parsed and checked with the game's `parse_move` before it is played, the clocks are the
//! referee's, and the game ends by the rules, by adjudication, or by a forfeit whose reason
//! is recorded.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use super::openings::Opening;
use super::player::{MoveRequest, Played, PositionView, Reply, Seat, SeatError};
use super::records::{GameRecord, MoveRecord, Termination};
use super::spec::{DrawRule, ResignRule};
use super::tc::{Clock, SearchLimits};
use crate::game::{Game, Line, MoveError, Outcome, Params, Player};
use crate::value::Score;

/// Everything about one game of the plan that does not change while it is played.
pub struct GameSetup<'a> {
    pub match_id: &'a str,
    pub index: u64,
    pub round: u64,
    pub game: &'a str,
    pub params: &'a Params,
    /// `[A, B]` in command-line order.
    pub names: [&'a str; 2],
    pub limits: [&'a SearchLimits; 2],
    /// Whether each seat keeps a clock (built-in players are untimed).
    pub timed: [bool; 2],
    /// 0 when A moves first, 1 when B does.
    pub p1_player: u8,
    pub opening: Opening,
    pub max_plies: Option<u32>,
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
    /// Seed for the built-in random seats.
    pub seed: u64,
    pub abort: &'a AtomicBool,
}

/// Why a game was not finished.
#[derive(Debug, PartialEq, Eq)]
pub enum Unfinished {
    Aborted,
    Fatal(String),
}

/// The result text cutechess and PGN use.
pub fn result_text(o: Outcome) -> &'static str {
    match o {
        Outcome::Win(Player::First) => "1-0",
        Outcome::Win(Player::Second) => "0-1",
        Outcome::Draw => "1/2-1/2",
    }
}

/// The sentence for a forfeit, after the culprit's name (cutechess's wording where it has one).
fn forfeit_text(kind: Termination, name: &str, detail: &str) -> String {
    match kind {
        Termination::Time => format!("{name} loses on time: {detail}"),
        Termination::Illegal => format!("{name} makes an illegal move: {detail}"),
        Termination::Malformed => format!("{name} sends a malformed move: {detail}"),
        Termination::Crash => format!("{name} disconnects: {detail}"),
        Termination::Stall => format!("{name}'s connection stalls: {detail}"),
        Termination::NoBestmove => format!("{name} sends no bestmove: {detail}"),
        Termination::Resign => format!("{name} resigns"),
        Termination::Rules | Termination::Adjudication => format!("{name}: {detail}"),
    }
}

struct Ending {
    outcome: Outcome,
    termination: Termination,
    reason: String,
    culprit: Option<u8>,
}

/// Consecutive-move counters for score adjudication, per seat (A, B).
#[derive(Default)]
struct Adjudicator {
    resign_run: [u32; 2],
    draw_run: [u32; 2],
    last: [Option<i64>; 2],
}

impl Adjudicator {
    /// Records seat `s`'s score for the move that made `plies` plies; returns an ending when
    /// a rule fires.
    fn after_move(
        &mut self,
        s: usize,
        score: Option<Score>,
        plies: usize,
        setup: &GameSetup,
        colour_of: impl Fn(usize) -> Player,
    ) -> Option<Ending> {
        let value = score.map(Score::cp_equivalent);
        self.last[s] = value;
        if let Some(r) = setup.resign {
            match value {
                Some(v) if v <= -(r.score as i64) => self.resign_run[s] += 1,
                _ => self.resign_run[s] = 0,
            }
            let other_agrees =
                !r.twosided || matches!(self.last[1 - s], Some(v) if v >= r.score as i64);
            if self.resign_run[s] >= r.movecount && other_agrees {
                return Some(Ending {
                    outcome: Outcome::Win(colour_of(1 - s)),
                    termination: Termination::Adjudication,
                    reason: format!(
                        "{} resigns by score adjudication ({} moves at or below -{})",
                        setup.names[s], r.movecount, r.score
                    ),
                    culprit: None,
                });
            }
        }
        if let Some(d) = setup.draw {
            let move_number = (plies.saturating_sub(1) / 2 + 1) as u32;
            match value {
                Some(v) if move_number >= d.movenumber && v.abs() <= d.score as i64 => {
                    self.draw_run[s] += 1
                }
                _ => self.draw_run[s] = 0,
            }
            if self.draw_run.iter().all(|&n| n >= d.movecount) {
                return Some(Ending {
                    outcome: Outcome::Draw,
                    termination: Termination::Adjudication,
                    reason: format!(
                        "draw by score adjudication ({} moves each within ±{})",
                        d.movecount, d.score
                    ),
                    culprit: None,
                });
            }
        }
        None
    }
}

fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// Plays one game. `seats` are `[A, B]`; `start` is the game's start position under the
/// match's parameters. The opening must have been checked against the rules.
pub fn play_game<G: Game>(
    setup: &GameSetup,
    start: &G,
    seats: &mut [Seat; 2],
) -> Result<GameRecord, Unfinished> {
    let mut game = GameInPlay::new(setup, start)?;
    let mut ending = game.prepare_seats(seats)?;
    while ending.is_none() {
        if setup.abort.load(Ordering::Relaxed) {
            return Err(Unfinished::Aborted);
        }
        ending = match game.ending_by_rules() {
            Some(e) => Some(e),
            None => game.turn(seats)?,
        };
    }
    let ending = ending.expect("the loop ends with an ending");
    Ok(game.record(ending, start, seats))
}

/// A game being played: the position, what was played, the clocks.
struct GameInPlay<'a, G: Game> {
    setup: &'a GameSetup<'a>,
    started_ms: u64,
    t0: Instant,
    /// The position with the game's earlier keys: repetition rules need them.
    pos: Line<G>,
    /// Every move so far, the opening's included, with the position before it.
    history: Vec<Played>,
    /// The moves the seats played (not the opening's).
    moves: Vec<MoveRecord>,
    /// By seat; `None` for a seat without a clock.
    clocks: [Option<Clock>; 2],
    adjudicator: Adjudicator,
    /// The referee's own time between engine turns: from a bestmove read to the next go sent.
    last_received: Option<Instant>,
    referee_time: std::time::Duration,
}

impl<'a, G: Game> GameInPlay<'a, G> {
    /// The game after its opening.
    fn new(setup: &'a GameSetup<'a>, start: &G) -> Result<GameInPlay<'a, G>, Unfinished> {
        let started_ms = unix_ms();
        let t0 = Instant::now();
        let base = match &setup.opening.fen {
            None => start.clone(),
            Some(f) => start
                .from_fen(f)
                .map_err(|e| Unfinished::Fatal(format!("opening fen '{f}': {e}")))?,
        };
        let mut history: Vec<Played> = Vec::new();
        let opening = &setup.opening.moves;
        let pos = Line::new(base)
            .play_texts(opening, |before, text| {
                history.push(Played {
                    mv: text.to_string(),
                    fen_before: before.fen(),
                })
            })
            .map_err(|(i, e)| Unfinished::Fatal(format!("opening move '{}': {e}", opening[i])))?;
        let clocks = [0, 1].map(|s| {
            if setup.timed[s] {
                setup.limits[s].tc.map(Clock::new)
            } else {
                None
            }
        });
        Ok(GameInPlay {
            setup,
            started_ms,
            t0,
            pos,
            history,
            moves: Vec::new(),
            clocks,
            adjudicator: Adjudicator::default(),
            last_received: None,
            referee_time: std::time::Duration::ZERO,
        })
    }

    /// The seat that plays `p`.
    fn seat_of(&self, p: Player) -> usize {
        let first = self.setup.p1_player as usize;
        if p == Player::First { first } else { 1 - first }
    }

    /// The colour seat `s` plays.
    fn colour_of(&self, s: usize) -> Player {
        if s == self.setup.p1_player as usize {
            Player::First
        } else {
            Player::Second
        }
    }

    /// Seat `s` loses by a forfeit of this kind.
    fn forfeit_of(&self, s: usize, kind: Termination, detail: &str) -> Ending {
        Ending {
            outcome: Outcome::Win(self.colour_of(1 - s)),
            termination: kind,
            reason: forfeit_text(kind, self.setup.names[s], detail),
            culprit: Some(s as u8),
        }
    }

    /// Gets both seats ready for the game, the first player first, as it moves first; a seat
    /// that cannot be ready forfeits.
    fn prepare_seats(&self, seats: &mut [Seat; 2]) -> Result<Option<Ending>, Unfinished> {
        let first = self.setup.p1_player as usize;
        for s in [first, 1 - first] {
            let seed = self.setup.seed ^ (s as u64).wrapping_mul(0xD1B5_4A32_D192_ED03);
            match seats[s].prepare(self.setup.game, self.setup.params, seed) {
                Ok(()) => {}
                Err(e) => return self.seat_failed(s, e).map(Some),
            }
        }
        Ok(None)
    }

    /// A seat's failure: a forfeit ends the game, the others end the match or the run.
    fn seat_failed(&self, s: usize, e: SeatError) -> Result<Ending, Unfinished> {
        match e {
            SeatError::Forfeit(f) => Ok(self.forfeit_of(s, f.kind, &f.detail)),
            SeatError::Fatal(e) => Err(Unfinished::Fatal(e)),
            SeatError::Aborted => Err(Unfinished::Aborted),
        }
    }

    /// The end of the game by the rules, or by the length limit.
    fn ending_by_rules(&self) -> Option<Ending> {
        if let Some(o) = self.pos.outcome() {
            let winner = |p| self.setup.names[self.seat_of(p)];
            let reason = match (o, self.pos.ending()) {
                (Outcome::Win(p), Some(by)) => format!("{} wins by {by}", winner(p)),
                (Outcome::Win(p), None) => format!("{} wins", winner(p)),
                (Outcome::Draw, Some(by)) => format!("draw by {by}"),
                (Outcome::Draw, None) => "draw by the rules".to_string(),
            };
            return Some(Ending {
                outcome: o,
                termination: Termination::Rules,
                reason,
                culprit: None,
            });
        }
        match self.setup.max_plies {
            Some(max) if self.history.len() >= max as usize => Some(Ending {
                outcome: Outcome::Draw,
                termination: Termination::Adjudication,
                reason: format!("draw by adjudication: maximum length of {max} plies"),
                culprit: None,
            }),
            _ => None,
        }
    }

    /// How long seat `s` may think, by its clock and its time per move (`None`: untimed).
    fn allowance(&self, s: usize) -> Option<std::time::Duration> {
        if !self.setup.timed[s] {
            return None;
        }
        let limits = self.setup.limits[s];
        let by_clock = self.clocks[s].as_ref().map(|c| c.allowance(limits.margin));
        let by_st = limits.movetime.map(|st| st + limits.margin);
        match (by_clock, by_st) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// One move of the side to move: asked, timed, checked, played; an ending when the
    /// move (or its absence) ends the game.
    fn turn(&mut self, seats: &mut [Seat; 2]) -> Result<Option<Ending>, Unfinished> {
        let setup = self.setup;
        let s = self.seat_of(self.pos.side_to_move());
        let limits = setup.limits[s];
        // Clocks by colour for `go`.
        let by_colour = [
            self.clocks[self.seat_of(Player::First)].as_ref(),
            self.clocks[self.seat_of(Player::Second)].as_ref(),
        ];
        let req = MoveRequest {
            view: self.pos.pos() as &dyn PositionView,
            base_fen: setup.opening.fen.as_deref(),
            history: &self.history,
            clocks: by_colour,
            allowance: self.allowance(s),
            name: setup.names[s],
        };
        let reply = match seats[s].think(&req, limits) {
            Ok(r) => r,
            Err(e) => return self.seat_failed(s, e).map(Some),
        };
        if let (Some(prev), Some(sent)) = (self.last_received, reply.sent) {
            self.referee_time += sent.saturating_duration_since(prev);
        }
        self.last_received = reply.received;
        // Time first: a late move is not played, however good.
        if let Some(late) = self.charge_time(s, &reply) {
            return Ok(Some(late));
        }
        let mv = match self.checked_move(s, &reply) {
            Ok(mv) => mv,
            Err(forfeit) => return Ok(Some(forfeit)),
        };
        self.history.push(Played {
            mv: reply.mv.clone(),
            fen_before: self.pos.fen(),
        });
        self.pos.play(mv);
        self.moves.push(MoveRecord {
            mv: reply.mv,
            raw: reply.raw,
            ms: (reply.elapsed.as_secs_f64() * 1e6).round() / 1e3,
            depth: reply.depth,
            score: reply.score.map(|sc| sc.to_string()),
            nodes: reply.nodes,
            clock_ms: self.clocks[s].as_ref().map(Clock::left_ms_signed),
        });
        if (setup.resign.is_some() || setup.draw.is_some()) && self.pos.outcome().is_none() {
            let plies = self.history.len();
            let first = setup.p1_player as usize;
            let colour_of = move |seat: usize| {
                if seat == first {
                    Player::First
                } else {
                    Player::Second
                }
            };
            return Ok(self
                .adjudicator
                .after_move(s, reply.score, plies, setup, colour_of));
        }
        Ok(None)
    }

    /// Charges seat `s`'s clock for its reply; a loss on time when it was too slow.
    fn charge_time(&mut self, s: usize, reply: &Reply) -> Option<Ending> {
        if !self.setup.timed[s] {
            return None;
        }
        let limits = self.setup.limits[s];
        let ms = reply.elapsed.as_secs_f64() * 1000.0;
        if let Some(st) = limits.movetime
            && reply.elapsed > st + limits.margin
        {
            let detail = format!(
                "{ms:.0} ms for a move with st={} ms and a margin of {} ms",
                st.as_millis(),
                limits.margin.as_millis()
            );
            return Some(self.forfeit_of(s, Termination::Time, &detail));
        }
        if let Some(c) = self.clocks[s].as_mut() {
            let left = c.left_ms_signed();
            if !c.charge(reply.elapsed, limits.margin) {
                let detail = format!(
                    "{ms:.0} ms for a move with {left} ms left and a margin of {} ms",
                    limits.margin.as_millis()
                );
                return Some(self.forfeit_of(s, Termination::Time, &detail));
            }
        }
        None
    }

    /// Seat `s`'s move, checked with the rules; a forfeit when it is illegal or malformed.
    fn checked_move(&self, s: usize, reply: &Reply) -> Result<G::Move, Ending> {
        let shown = match &reply.raw {
            Some(raw) => format!("{raw} (= {})", reply.mv),
            None => reply.mv.clone(),
        };
        let mv = if reply.mv == "(none)" {
            Err(MoveError::Illegal(
                "(none), but the game is not over".to_string(),
            ))
        } else {
            self.pos.parse_move(&reply.mv)
        };
        mv.map_err(|e| match e {
            MoveError::Illegal(e) => {
                self.forfeit_of(s, Termination::Illegal, &format!("{shown}: {e}"))
            }
            MoveError::Malformed(e) => self.forfeit_of(s, Termination::Malformed, &e),
        })
    }

    /// The record of the finished game; the seats are told how it ended.
    fn record(self, ending: Ending, start: &G, seats: &mut [Seat; 2]) -> GameRecord {
        let setup = self.setup;
        let summary = format!("{} {{{}}}", result_text(ending.outcome), ending.reason);
        let mut engine_errors = Vec::new();
        for seat in seats.iter_mut() {
            seat.game_over(self.pos.pos(), &summary);
            engine_errors.extend(seat.take_errors());
        }
        GameRecord {
            match_id: setup.match_id.to_string(),
            index: setup.index,
            round: setup.round,
            pair: setup.index / 2,
            game: setup.game.to_string(),
            params: start.params().to_string(),
            players: [setup.names[0].to_string(), setup.names[1].to_string()],
            p1_player: setup.p1_player,
            opening: setup.opening.clone(),
            moves: self.moves,
            result: result_text(ending.outcome).to_string(),
            termination: ending.termination,
            reason: ending.reason,
            culprit: ending.culprit,
            final_fen: self.pos.fen(),
            started_ms: self.started_ms,
            duration_ms: (self.t0.elapsed().as_secs_f64() * 1e6).round() / 1e3,
            referee_ms: (self.referee_time.as_secs_f64() * 1e6).round() / 1e3,
            engine_errors,
            planned: None,
        }
    }
}

/// Replays a record with the rules: every move must be legal and the result must be the one
/// the rules give, unless the record says the game ended otherwise (then the game must not
/// be over by the rules). Used by `--resume` checks and by tests.
pub fn verify_record<G: Game>(start: &G, r: &GameRecord) -> Result<(), String> {
    r.opening.resolve(start)?;
    // Replayed from the opening's start, so that its positions count for repetitions.
    let base = match &r.opening.fen {
        None => start.clone(),
        Some(f) => start.from_fen(f).map_err(|e| format!("fen '{f}': {e}"))?,
    };
    let opening = Line::new(base)
        .play_texts(&r.opening.moves, |_, _| {})
        .map_err(|(i, e)| format!("move {} '{}': {e}", i + 1, r.opening.moves[i]))?;
    let texts = r.moves.iter().map(|m| m.mv.as_str());
    let pos = opening.play_texts(texts, |_, _| {}).map_err(|(i, e)| {
        let text = &r.moves[i].mv;
        format!("game {}: move {} '{text}': {e}", r.index + 1, i + 1)
    })?;
    let by_rules = pos.outcome();
    match (r.termination, by_rules) {
        (Termination::Rules, Some(o)) if result_text(o) == r.result => Ok(()),
        (Termination::Rules, o) => Err(format!(
            "game {}: recorded {} by the rules, but the moves give {:?}",
            r.index + 1,
            r.result,
            o
        )),
        (_, None) => Ok(()),
        (t, Some(o)) => Err(format!(
            "game {}: recorded as ended by {} while the rules already ended it ({})",
            r.index + 1,
            t.name(),
            o.protocol_name()
        )),
    }
}
