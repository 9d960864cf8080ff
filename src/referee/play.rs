//! One game between two seats, refereed by ply's own rules: every move a seat returns is
//! parsed and checked with the game's `parse_move` before it is played, the clocks are the
//! referee's, and the game ends by the rules, by adjudication, or by a forfeit whose reason
//! is recorded.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use super::openings::Opening;
use super::player::{MoveRequest, Played, PositionView, Seat, SeatError};
use super::records::{GameRecord, MoveRecord, Termination};
use super::spec::{DrawRule, ResignRule};
use super::tc::{Clock, SearchLimits};
use crate::game::{Game, MoveError, Outcome, Params, Player};
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
    let started_ms = unix_ms();
    let t0 = Instant::now();
    // Seat index for each colour, and colour for each seat.
    let first = setup.p1_player as usize;
    let seat_of = |p: Player| if p == Player::First { first } else { 1 - first };
    let colour_of = |s: usize| {
        if s == first {
            Player::First
        } else {
            Player::Second
        }
    };

    let base = match &setup.opening.fen {
        None => start.clone(),
        Some(f) => start
            .from_fen(f)
            .map_err(|e| Unfinished::Fatal(format!("opening fen '{f}': {e}")))?,
    };
    let mut pos = base.clone();
    let mut history: Vec<Played> = Vec::new();
    for text in &setup.opening.moves {
        let mv = pos
            .parse_move(text)
            .map_err(|e| Unfinished::Fatal(format!("opening move '{text}': {e}")))?;
        history.push(Played {
            mv: text.clone(),
            fen_before: pos.fen(),
        });
        pos.play(mv);
    }

    let mut clocks: [Option<Clock>; 2] = [0, 1].map(|s| {
        if setup.timed[s] {
            setup.limits[s].tc.map(Clock::new)
        } else {
            None
        }
    });
    let mut moves: Vec<MoveRecord> = Vec::new();
    let mut adjudicator = Adjudicator::default();
    // The referee's own time between engine turns: from a bestmove read to the next go sent.
    let mut last_received: Option<Instant> = None;
    let mut referee_time = std::time::Duration::ZERO;

    let forfeit_of = |s: usize, kind: Termination, detail: &str| Ending {
        outcome: Outcome::Win(colour_of(1 - s)),
        termination: kind,
        reason: forfeit_text(kind, setup.names[s], detail),
        culprit: Some(s as u8),
    };

    let mut ending: Option<Ending> = None;
    // The first player gets ready first, as it moves first.
    for s in [first, 1 - first] {
        if ending.is_some() {
            break;
        }
        let seed = setup.seed ^ (s as u64).wrapping_mul(0xD1B5_4A32_D192_ED03);
        match seats[s].prepare(setup.game, setup.params, seed) {
            Ok(()) => {}
            Err(SeatError::Forfeit(f)) => ending = Some(forfeit_of(s, f.kind, &f.detail)),
            Err(SeatError::Fatal(e)) => return Err(Unfinished::Fatal(e)),
            Err(SeatError::Aborted) => return Err(Unfinished::Aborted),
        }
    }

    while ending.is_none() {
        if setup.abort.load(Ordering::Relaxed) {
            return Err(Unfinished::Aborted);
        }
        if let Some(o) = pos.outcome() {
            let reason = match o {
                Outcome::Win(p) => format!("{} wins", setup.names[seat_of(p)]),
                Outcome::Draw => "draw by the rules".to_string(),
            };
            ending = Some(Ending {
                outcome: o,
                termination: Termination::Rules,
                reason,
                culprit: None,
            });
            break;
        }
        if let Some(max) = setup.max_plies
            && history.len() >= max as usize
        {
            ending = Some(Ending {
                outcome: Outcome::Draw,
                termination: Termination::Adjudication,
                reason: format!("draw by adjudication: maximum length of {max} plies"),
                culprit: None,
            });
            break;
        }
        let side = pos.side_to_move();
        let s = seat_of(side);
        let limits = setup.limits[s];
        let allowance = if setup.timed[s] {
            let by_clock = clocks[s].as_ref().map(|c| c.allowance(limits.margin));
            let by_st = limits.movetime.map(|st| st + limits.margin);
            match (by_clock, by_st) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            }
        } else {
            None
        };
        // Clocks by colour for `go`.
        let by_colour = [
            clocks[seat_of(Player::First)].as_ref(),
            clocks[seat_of(Player::Second)].as_ref(),
        ];
        let req = MoveRequest {
            view: &pos as &dyn PositionView,
            base_fen: setup.opening.fen.as_deref(),
            history: &history,
            clocks: by_colour,
            allowance,
            name: setup.names[s],
        };
        let reply = match seats[s].think(&req, limits) {
            Ok(r) => r,
            Err(SeatError::Forfeit(f)) => {
                ending = Some(forfeit_of(s, f.kind, &f.detail));
                break;
            }
            Err(SeatError::Fatal(e)) => return Err(Unfinished::Fatal(e)),
            Err(SeatError::Aborted) => return Err(Unfinished::Aborted),
        };
        if let (Some(prev), Some(sent)) = (last_received, reply.sent) {
            referee_time += sent.saturating_duration_since(prev);
        }
        last_received = reply.received;
        // Time first: a late move is not played, however good.
        if setup.timed[s] {
            let ms = reply.elapsed.as_secs_f64() * 1000.0;
            if let Some(st) = limits.movetime
                && reply.elapsed > st + limits.margin
            {
                let detail = format!(
                    "{ms:.0} ms for a move with st={} ms and a margin of {} ms",
                    st.as_millis(),
                    limits.margin.as_millis()
                );
                ending = Some(forfeit_of(s, Termination::Time, &detail));
                break;
            }
            if let Some(c) = clocks[s].as_mut() {
                let left = c.left_ms_signed();
                if !c.charge(reply.elapsed, limits.margin) {
                    let detail = format!(
                        "{ms:.0} ms for a move with {left} ms left and a margin of {} ms",
                        limits.margin.as_millis()
                    );
                    ending = Some(forfeit_of(s, Termination::Time, &detail));
                    break;
                }
            }
        }
        let shown = match &reply.raw {
            Some(raw) => format!("{raw} (= {})", reply.mv),
            None => reply.mv.clone(),
        };
        let mv = if reply.mv == "(none)" {
            Err(MoveError::Illegal(
                "(none), but the game is not over".to_string(),
            ))
        } else {
            pos.parse_move(&reply.mv)
        };
        let mv = match mv {
            Ok(mv) => mv,
            Err(MoveError::Illegal(e)) => {
                let detail = format!("{shown}: {e}");
                ending = Some(forfeit_of(s, Termination::Illegal, &detail));
                break;
            }
            Err(MoveError::Malformed(e)) => {
                ending = Some(forfeit_of(s, Termination::Malformed, &e));
                break;
            }
        };
        history.push(Played {
            mv: reply.mv.clone(),
            fen_before: pos.fen(),
        });
        pos.play(mv);
        moves.push(MoveRecord {
            mv: reply.mv,
            raw: reply.raw,
            ms: (reply.elapsed.as_secs_f64() * 1e6).round() / 1e3,
            depth: reply.depth,
            score: reply.score.map(|sc| sc.to_string()),
            nodes: reply.nodes,
            clock_ms: clocks[s].as_ref().map(Clock::left_ms_signed),
        });
        if (setup.resign.is_some() || setup.draw.is_some()) && pos.outcome().is_none() {
            ending = adjudicator.after_move(s, reply.score, history.len(), setup, colour_of);
        }
    }

    let ending = ending.expect("the loop ends with an ending");
    let summary = format!("{} {{{}}}", result_text(ending.outcome), ending.reason);
    let mut engine_errors = Vec::new();
    for seat in seats.iter_mut() {
        seat.game_over(&pos, &summary);
        engine_errors.extend(seat.take_errors());
    }
    Ok(GameRecord {
        match_id: setup.match_id.to_string(),
        index: setup.index,
        round: setup.round,
        pair: setup.index / 2,
        game: setup.game.to_string(),
        params: start.params().to_string(),
        players: [setup.names[0].to_string(), setup.names[1].to_string()],
        p1_player: setup.p1_player,
        opening: setup.opening.clone(),
        moves,
        result: result_text(ending.outcome).to_string(),
        termination: ending.termination,
        reason: ending.reason,
        culprit: ending.culprit,
        final_fen: pos.fen(),
        started_ms,
        duration_ms: (t0.elapsed().as_secs_f64() * 1e6).round() / 1e3,
        referee_ms: (referee_time.as_secs_f64() * 1e6).round() / 1e3,
        engine_errors,
    })
}

/// Replays a record with the rules: every move must be legal and the result must be the one
/// the rules give, unless the record says the game ended otherwise (then the game must not
/// be over by the rules). Used by `--resume` checks and by tests.
pub fn verify_record<G: Game>(start: &G, r: &GameRecord) -> Result<(), String> {
    let mut pos = r.opening.resolve(start)?;
    for (i, m) in r.moves.iter().enumerate() {
        let mv = pos
            .parse_move(&m.mv)
            .map_err(|e| format!("game {}: move {} '{}': {e}", r.index + 1, i + 1, m.mv))?;
        pos.play(mv);
    }
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
