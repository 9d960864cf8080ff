//! Time control: how a clock or a move time becomes two budgets (when to start no new
//! iteration, when to cut the search off), and the [`Control`] that watches them, the node
//! limit, `stop` and `ponderhit` while a search runs.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::limits::{Clock, Limits};
use crate::game::DEFAULT_CLOCK_MOVES;

impl Limits {
    /// (soft, hard) time budgets: no new iteration starts after `soft`; the search is cut
    /// off at `hard`. `None` when time does not limit this search.
    pub fn budgets(&self) -> Option<(Duration, Duration)> {
        if self.infinite {
            return None;
        }
        let movetime = self.movetime.map(|m| {
            let hard = m
                .saturating_sub(self.overhead)
                .max(Duration::from_millis(1));
            (hard, hard)
        });
        let clock = self.clock.map(|c| {
            let available = c
                .time
                .saturating_sub(self.overhead)
                .max(Duration::from_millis(1));
            let mtg = c
                .movestogo
                .or(c.default_movestogo)
                .unwrap_or(DEFAULT_CLOCK_MOVES)
                .clamp(1, 50);
            // The time this move should take on average. An iteration takes about as long
            // as all before it, or longer: none starts after half the target, so the move
            // ends between half the target and the hard limit, near the target on average.
            let target = (c.time.saturating_sub(clock_reserve(c)) / mtg + c.inc * 3 / 4)
                .min(available * 6 / 10);
            let hard = (target * 3).min(available * 8 / 10);
            (target / 2, hard.max(target / 2))
        });
        match (movetime, clock) {
            (Some(a), Some(b)) => Some((a.0.min(b.0), a.1.min(b.1))),
            (a, b) => a.or(b),
        }
    }
}

/// The part of the clock the budgets leave for later moves: twenty increments (at least
/// 50 ms), at most half the clock. Without it the clock settles where `t / movestogo`
/// equals a quarter increment (6.25 increments: 62 ms at 1 s + 10 ms), within reach of one
/// scheduling delay of a loaded machine (200 ms and more seen on two cores at load 8); with
/// it, where half the clock is spent that way: 12.5 increments (125 ms at 1 s + 10 ms,
/// 1.25 s at 10 s + 0.1 s), and higher while the game is young.
fn clock_reserve(c: Clock) -> Duration {
    (c.inc * 20).max(Duration::from_millis(50)).min(c.time / 2)
}

/// When to give up: evaluated every 1024 nodes, and at every node past a node limit.
#[derive(Default)]
pub(super) struct Control {
    hard: Option<Instant>,
    /// No new iteration starts after this.
    soft: Option<Instant>,
    /// (soft, hard) budgets, applied from `go` or, when pondering, from `ponderhit`.
    budgets: Option<(Duration, Duration)>,
    /// Set by `ponderhit` while pondering; `None` once seen (or when not pondering).
    ponderhit: Option<Arc<AtomicBool>>,
    node_limit: Option<u64>,
    /// `node_limit` or `u64::MAX`: from this node count on, every node looks at the limits
    /// (not only every 1024th), so that `go nodes` stops at its count exactly.
    pub(super) node_cap: u64,
    /// False while depth 1 runs: it always completes.
    pub(super) may_abort: bool,
}

impl Control {
    /// The limits of one search, its time budgets counted from `start` or, when pondering,
    /// from `ponderhit`.
    pub(super) fn new(limits: &Limits, start: Instant) -> Control {
        let mut control = Control {
            budgets: limits.budgets(),
            ponderhit: limits.ponderhit.clone(),
            node_limit: limits.nodes,
            node_cap: limits.nodes.unwrap_or(u64::MAX),
            ..Control::default()
        };
        if !control.pondering() {
            control.start_clock(start);
        }
        control
    }

    /// True while pondering: no time limit yet.
    fn pondering(&self) -> bool {
        self.ponderhit.is_some()
    }

    /// Starts the clock if `ponderhit` has arrived since the last look.
    pub(super) fn poll_ponderhit(&mut self) {
        if self
            .ponderhit
            .as_ref()
            .is_some_and(|f| f.load(Ordering::SeqCst))
        {
            self.ponderhit = None;
            self.start_clock(Instant::now());
        }
    }

    fn start_clock(&mut self, from: Instant) {
        self.soft = self.budgets.and_then(|(s, _)| from.checked_add(s));
        self.hard = self.budgets.and_then(|(_, h)| from.checked_add(h));
    }

    /// Whether the search must stop now, after `nodes` nodes: `stop`, the node limit or the
    /// hard time budget (never while depth 1 runs).
    pub(super) fn must_stop(&mut self, nodes: u64, stop: &AtomicBool) -> bool {
        self.poll_ponderhit();
        self.may_abort
            && (stop.load(Ordering::Relaxed)
                || self.node_limit.is_some_and(|n| nodes >= n)
                || self.hard.is_some_and(|h| Instant::now() >= h))
    }

    /// Whether the soft budget, stretched by [`Control::stability_bonus`], has run out: no
    /// new iteration then.
    pub(super) fn out_of_time(&mut self, best_changes: u32) -> bool {
        self.poll_ponderhit();
        self.soft
            .is_some_and(|soft| Instant::now() >= soft + self.stability_bonus(best_changes))
    }

    /// Extra time past the soft budget while the best move keeps changing: a quarter of the
    /// soft budget per unit of `best_changes` (2 for a change in the last iteration, 1 the
    /// iteration before), at most the soft budget again (the hard budget still caps it).
    fn stability_bonus(&self, best_changes: u32) -> Duration {
        let Some((soft, _)) = self.budgets else {
            return Duration::ZERO;
        };
        (soft / 4 * best_changes.min(4)).min(soft)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn clock(time: u64, inc: u64, movestogo: Option<u32>) -> Option<Clock> {
        Some(Clock {
            time: ms(time),
            inc: ms(inc),
            movestogo,
            default_movestogo: None,
        })
    }

    /// `go movetime N` stops at N less `Move Overhead`, so the answer reaches the client
    /// within N (ply answered `go movetime 200` after 192-205 ms with no overhead kept back,
    /// and lost a referee game at st=0.2 on time); clocks keep the overhead back too.
    #[test]
    fn budgets_keep_the_move_overhead_back() {
        let with = |movetime: Option<u64>, clock: Option<Clock>| Limits {
            movetime: movetime.map(ms),
            clock,
            overhead: ms(30),
            ..Limits::default()
        };
        assert_eq!(with(Some(200), None).budgets(), Some((ms(170), ms(170))));
        assert_eq!(with(Some(1000), None).budgets(), Some((ms(970), ms(970))));
        // Less than the overhead: 1 ms, so depth 1 still runs.
        assert_eq!(with(Some(10), None).budgets(), Some((ms(1), ms(1))));
        // 200 ms left, 25 moves to go, 50 ms kept in reserve: a 6 ms target, so no new
        // iteration after 3 ms, and three times the target hard.
        assert_eq!(
            with(None, clock(200, 0, None)).budgets(),
            Some((ms(3), ms(18)))
        );
        // 1 s + 10 ms: 200 ms (twenty increments) in reserve, a target of 32 + 7.5 ms.
        assert_eq!(
            with(None, clock(1000, 10, None)).budgets(),
            Some((
                ms(19) + Duration::from_micros(750),
                ms(118) + Duration::from_micros(500)
            ))
        );
        // A game that shares the clock over 12 moves (checkers): 800 / 12 + 7.5 ms; a
        // movestogo from the client still wins over the game's share.
        let game_share = |movestogo| {
            with(
                None,
                Some(Clock {
                    default_movestogo: Some(12),
                    ..clock(1000, 10, movestogo).unwrap()
                }),
            )
            .budgets()
        };
        let target = ms(800) / 12 + Duration::from_micros(7500);
        assert_eq!(game_share(None), Some((target / 2, target * 3)));
        assert_eq!(
            game_share(Some(25)),
            with(None, clock(1000, 10, None)).budgets()
        );
        // The hard limit stays within 80% of the time less the overhead.
        let (soft, hard) = with(None, clock(1000, 0, Some(1))).budgets().unwrap();
        assert_eq!((soft, hard), (ms(291), ms(776)));
        // No time left (a one-sided clock counts the missing side as 0): nothing to spend.
        assert_eq!(
            with(None, clock(0, 0, None)).budgets(),
            Some((ms(0), ms(0)))
        );
        // movetime and a clock: the earlier limit wins.
        assert_eq!(
            with(Some(5), clock(10_000, 0, None)).budgets(),
            Some((ms(1), ms(1)))
        );
        assert_eq!(
            Limits {
                infinite: true,
                ..with(Some(100), None)
            }
            .budgets(),
            None
        );
    }
}
