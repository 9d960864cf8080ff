//! Time controls and the clocks the referee keeps for each player.
//!
//! A time control is cutechess's `[moves/]time[+increment]`: `time` seconds (or `m:ss`) for
//! every `moves` moves (for the whole game when `moves` is absent), plus `increment` seconds
//! after each move. `inf` means no clock. Per-move limits (`st=`, `depth=`, `nodes=`) are
//! separate [`SearchLimits`]. Clocks count microseconds, signed, so an overdrawn clock
//! stays visible in the records.

use std::fmt;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period; `None`: the time is for the whole game.
    pub moves: Option<u32>,
    pub time: Duration,
    pub increment: Duration,
}

fn seconds(text: &str) -> Result<Duration, String> {
    let bad = || format!("'{text}' is not a time in seconds (like 10, 0.5 or 1:30)");
    let secs = match text.split_once(':') {
        Some((m, s)) => {
            let m: u64 = m.parse().map_err(|_| bad())?;
            let s: f64 = s.parse().map_err(|_| bad())?;
            if !(0.0..60.0).contains(&s) {
                return Err(bad());
            }
            m as f64 * 60.0 + s
        }
        None => text.parse::<f64>().map_err(|_| bad())?,
    };
    if !(0.0..=1e7).contains(&secs) {
        return Err(bad());
    }
    Ok(Duration::from_secs_f64(secs))
}

/// A duration in seconds as written on the command line (`st=0.5`).
pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    seconds(text)
}

impl TimeControl {
    /// `40/60+0.6`, `10+0.1`, `1:00`, `inf` (→ `None`).
    pub fn parse(text: &str) -> Result<Option<TimeControl>, String> {
        let text = text.trim();
        if text == "inf" || text == "infinite" {
            return Ok(None);
        }
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => match m.parse::<u32>() {
                // cutechess reads 0/t as "t for the whole game".
                Ok(0) => (None, rest),
                Ok(n) => (Some(n), rest),
                Err(_) => return Err(format!("'{m}' in tc={text} is not a move count")),
            },
            None => (None, text),
        };
        let (time, increment) = match rest.split_once('+') {
            Some((t, i)) => (seconds(t)?, seconds(i)?),
            None => (seconds(rest)?, Duration::ZERO),
        };
        if time.is_zero() && increment.is_zero() {
            return Err(format!("tc={text} gives no time at all"));
        }
        Ok(Some(TimeControl {
            moves,
            time,
            increment,
        }))
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", self.time.as_secs_f64())?;
        if !self.increment.is_zero() {
            write!(f, "+{}", self.increment.as_secs_f64())?;
        }
        Ok(())
    }
}

/// Everything that limits one player's searches.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchLimits {
    pub tc: Option<TimeControl>,
    /// Fixed time per move (`go movetime`).
    pub movetime: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Extra time allowed past a deadline before a move counts as late (cutechess's
    /// `timemargin`), to absorb scheduling noise.
    pub margin: Duration,
}

impl SearchLimits {
    /// Whether anything bounds a search (an engine with no limit would think forever).
    pub fn is_bounded(&self) -> bool {
        self.tc.is_some() || self.movetime.is_some() || self.depth.is_some() || self.nodes.is_some()
    }

    /// A short description for logs and records: `tc=40/60+0.6 depth=5`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(tc) = self.tc {
            parts.push(format!("tc={tc}"));
        }
        if let Some(st) = self.movetime {
            parts.push(format!("st={}", st.as_secs_f64()));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if !self.margin.is_zero() {
            parts.push(format!("timemargin={}", self.margin.as_millis()));
        }
        if parts.is_empty() {
            "unlimited".to_string()
        } else {
            parts.join(" ")
        }
    }
}

/// One player's clock during a game.
#[derive(Clone, Debug)]
pub struct Clock {
    tc: TimeControl,
    /// Time left, in microseconds; negative once overdrawn.
    left_us: i64,
    /// Moves this player has completed.
    moves_made: u32,
}

fn us(d: Duration) -> i64 {
    i64::try_from(d.as_micros()).unwrap_or(i64::MAX)
}

impl Clock {
    pub fn new(tc: TimeControl) -> Clock {
        Clock {
            tc,
            left_us: us(tc.time),
            moves_made: 0,
        }
    }

    /// Time left in whole milliseconds (what `wtime`/`btime` carry), at least 0.
    pub fn left_ms(&self) -> u64 {
        (self.left_us.max(0) / 1000) as u64
    }

    /// Time left in milliseconds, negative when overdrawn (for the records).
    pub fn left_ms_signed(&self) -> i64 {
        self.left_us.div_euclid(1000)
    }

    pub fn increment_ms(&self) -> u64 {
        self.tc.increment.as_millis() as u64
    }

    /// Moves until the next time control, when the control has a move count.
    pub fn moves_to_go(&self) -> Option<u32> {
        self.tc.moves.map(|m| m - self.moves_made % m)
    }

    /// The longest this player may think now: the time left plus `margin`.
    pub fn allowance(&self, margin: Duration) -> Duration {
        Duration::from_micros((self.left_us.max(0) as u64).saturating_add(us(margin) as u64))
    }

    /// Charges a move that took `elapsed`: returns false when it overstepped the time left
    /// plus `margin` (a loss on time); otherwise takes the time, adds the increment, and
    /// starts a new period when one is complete.
    pub fn charge(&mut self, elapsed: Duration, margin: Duration) -> bool {
        let spent = us(elapsed);
        let in_time = spent <= self.left_us.saturating_add(us(margin));
        self.left_us = self.left_us.saturating_sub(spent);
        if in_time {
            self.left_us = self.left_us.saturating_add(us(self.tc.increment));
            self.moves_made += 1;
            if let Some(m) = self.tc.moves
                && self.moves_made.is_multiple_of(m)
            {
                self.left_us = self.left_us.saturating_add(us(self.tc.time));
            }
        }
        in_time
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn parses_cutechess_forms() {
        assert_eq!(
            TimeControl::parse("40/60+0.6").unwrap(),
            Some(TimeControl {
                moves: Some(40),
                time: ms(60_000),
                increment: ms(600)
            })
        );
        assert_eq!(
            TimeControl::parse("1:30").unwrap(),
            Some(TimeControl {
                moves: None,
                time: ms(90_000),
                increment: ms(0)
            })
        );
        assert_eq!(TimeControl::parse("0/10+0.1").unwrap().unwrap().moves, None);
        assert_eq!(TimeControl::parse("inf").unwrap(), None);
        for bad in ["", "x", "40/", "/10", "10+", "-1", "0", "1:75", "nan"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn clock_charges_increment_and_periods() {
        let mut c = Clock::new(TimeControl::parse("2/1+0.1").unwrap().unwrap());
        assert_eq!((c.left_ms(), c.moves_to_go()), (1000, Some(2)));
        assert!(c.charge(ms(300), ms(0)));
        assert_eq!((c.left_ms(), c.moves_to_go()), (800, Some(1)));
        // The second move completes the period: +0.1 increment, +1 s new period.
        assert!(c.charge(ms(800), ms(0)));
        assert_eq!((c.left_ms(), c.moves_to_go()), (1100, Some(2)));
    }

    #[test]
    fn late_moves_lose_unless_within_margin() {
        let tc = TimeControl::parse("1").unwrap().unwrap();
        let mut c = Clock::new(tc);
        assert!(c.charge(ms(1040), ms(50)));
        assert_eq!(c.left_ms_signed(), -40);
        assert_eq!(c.left_ms(), 0);
        let mut c = Clock::new(tc);
        assert!(!c.charge(ms(1051), ms(50)));
        assert_eq!(c.allowance(ms(50)), ms(0) + ms(50));
    }
}
