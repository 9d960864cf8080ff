//! The match tally and the lines the referee prints, in cutechess-cli's words where it has
//! them (so scripts written for cutechess read ply's matches), plus fastchess's pentanomial
//! line and a score per colour.
//!
//! "p1" is the player who moves first in a game (cutechess's White), "p2" the second.

use std::collections::BTreeMap;

use super::records::{GameRecord, Termination};
use super::stats::{self, Pentanomial, SprtDecision, SprtParams, Wdl, fixed, general3};

/// Results so far, from A's point of view (A = the first `--engine`).
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub names: [String; 2],
    /// A's results.
    pub a: Wdl,
    /// A's results when A moved first, and when it moved second.
    pub a_as_p1: Wdl,
    pub a_as_p2: Wdl,
    /// Results from the first player's side, whoever it was: wins are first-player wins.
    pub first_player: Wdl,
    /// Finished games by how they ended.
    pub terminations: BTreeMap<Termination, u64>,
    /// Forfeits (and resignations) by culprit (0 = A, 1 = B) and kind.
    pub forfeits: [BTreeMap<Termination, u64>; 2],
    /// A's score by game index, for the pentanomial counts.
    scores: BTreeMap<u64, f64>,
}

impl Tally {
    pub fn new(names: [String; 2]) -> Tally {
        Tally {
            names,
            ..Tally::default()
        }
    }

    pub fn games(&self) -> u64 {
        self.a.games()
    }

    pub fn add(&mut self, r: &GameRecord) {
        let a = r.score_of_a();
        let add = |w: &mut Wdl, score: f64| {
            if score == 1.0 {
                w.wins += 1
            } else if score == 0.0 {
                w.losses += 1
            } else {
                w.draws += 1
            }
        };
        add(&mut self.a, a);
        if r.p1_player == 0 {
            add(&mut self.a_as_p1, a);
        } else {
            add(&mut self.a_as_p2, a);
        }
        let first = if r.p1_player == 0 { a } else { 1.0 - a };
        add(&mut self.first_player, first);
        *self.terminations.entry(r.termination).or_default() += 1;
        if let Some(c) = r.culprit {
            *self.forfeits[(c as usize).min(1)]
                .entry(r.termination)
                .or_default() += 1;
        }
        self.scores.insert(r.index, a);
    }

    /// Pentanomial counts over the complete pairs (games `2k` and `2k+1`).
    pub fn pentanomial(&self) -> Pentanomial {
        let mut p = Pentanomial::default();
        for (&i, &s) in &self.scores {
            if i % 2 == 0
                && let Some(&t) = self.scores.get(&(i + 1))
            {
                p.add_pair(s, t);
            }
        }
        p
    }

    /// The SPRT's log-likelihood ratio: from pairs when `pairs` (games played in pairs with
    /// `--repeat`), else from single games.
    pub fn llr(&self, sprt: &SprtParams, pairs: bool) -> f64 {
        if pairs {
            sprt.llr_pentanomial(&self.pentanomial())
        } else {
            sprt.llr_trinomial(&self.a)
        }
    }
}

/// `Started game 3 of 100 (A vs B)`: game numbers count from 1; the first name moves first.
pub fn started_line(index: u64, total: u64, p1: &str, p2: &str) -> String {
    format!("Started game {} of {total} ({p1} vs {p2})", index + 1)
}

/// `Finished game 3 (A vs B): 1-0 {reason}`.
pub fn finished_line(r: &GameRecord) -> String {
    let p1 = &r.players[r.p1_player as usize % 2];
    let p2 = &r.players[1 - r.p1_player as usize % 2];
    format!(
        "Finished game {} ({p1} vs {p2}): {} {{{}}}",
        r.index + 1,
        r.result,
        r.reason
    )
}

fn wdl_tail(w: &Wdl) -> String {
    format!(
        "{} - {} - {}  [{}] {}",
        w.wins,
        w.losses,
        w.draws,
        fixed(w.ratio(), 3),
        w.games()
    )
}

/// `Score of A vs B: W - L - D  [ratio] N` (two spaces before `[`, as cutechess-cli).
pub fn score_line(t: &Tally) -> String {
    format!(
        "Score of {} vs {}: {}",
        t.names[0],
        t.names[1],
        wdl_tail(&t.a)
    )
}

/// `Elo difference: x +/- y, LOS: z %, DrawRatio: w %`, or `None` before the first game.
pub fn elo_line(w: &Wdl) -> Option<String> {
    let e = stats::elo(w)?;
    Some(format!(
        "Elo difference: {} +/- {}, LOS: {} %, DrawRatio: {} %",
        fixed(e.diff, 1),
        fixed(e.margin, 1),
        fixed(e.los, 1),
        fixed(e.draw_ratio, 1)
    ))
}

/// The per-colour lines (cutechess's "playing White/Black" and "White vs Black", with p1
/// and p2 for the first and second player).
pub fn colour_lines(t: &Tally) -> Vec<String> {
    let mut out = Vec::new();
    if t.a_as_p1.games() > 0 {
        out.push(format!(
            "...      {} playing p1: {}",
            t.names[0],
            wdl_tail(&t.a_as_p1)
        ));
    }
    if t.a_as_p2.games() > 0 {
        out.push(format!(
            "...      {} playing p2: {}",
            t.names[0],
            wdl_tail(&t.a_as_p2)
        ));
    }
    if t.games() > 0 {
        out.push(format!("...      p1 vs p2: {}", wdl_tail(&t.first_player)));
    }
    out
}

/// `Ptnml(0-2): [a, b, c, d, e]` (fastchess's form), counting complete pairs.
pub fn pentanomial_line(p: &Pentanomial) -> String {
    let c = p.0;
    format!(
        "Ptnml(0-2): [{}, {}, {}, {}, {}]",
        c[0], c[1], c[2], c[3], c[4]
    )
}

/// `SPRT: llr 1.23 (41.8%), lbound -2.94, ubound 2.94 - H1 was accepted` (cutechess's
/// line, with the model named after it).
pub fn sprt_line(sprt: &SprtParams, llr: f64, pairs: bool) -> String {
    let (lower, upper) = sprt.bounds();
    let mut s = format!(
        "SPRT: llr {} ({}%), lbound {}, ubound {}",
        general3(llr),
        fixed(llr / upper * 100.0, 1),
        general3(lower),
        general3(upper)
    );
    match sprt.decide(llr) {
        Some(SprtDecision::AcceptH0) => s.push_str(" - H0 was accepted"),
        Some(SprtDecision::AcceptH1) => s.push_str(" - H1 was accepted"),
        None => {}
    }
    s.push_str(&format!(
        " [elo0 {}, elo1 {}, alpha {}, beta {}, {}]",
        sprt.elo0,
        sprt.elo1,
        sprt.alpha,
        sprt.beta,
        if pairs { "pentanomial" } else { "trinomial" }
    ));
    s
}

/// `Forfeits: A 2 (time 1, crash 1); B none`.
pub fn forfeit_line(t: &Tally) -> String {
    let part = |i: usize| {
        let m = &t.forfeits[i];
        let n: u64 = m.values().sum();
        if n == 0 {
            format!("{} none", t.names[i])
        } else {
            let kinds: Vec<String> = m.iter().map(|(k, v)| format!("{} {v}", k.name())).collect();
            format!("{} {n} ({})", t.names[i], kinds.join(", "))
        }
    };
    format!("Forfeits: {}; {}", part(0), part(1))
}

/// The whole summary printed at the end of a match (nothing when no game finished).
pub fn summary(t: &Tally, sprt: Option<&SprtParams>, pairs: bool) -> Vec<String> {
    if t.games() == 0 {
        return Vec::new();
    }
    let mut out = vec![score_line(t)];
    out.extend(colour_lines(t));
    if let Some(l) = elo_line(&t.a) {
        out.push(l);
    }
    let p = t.pentanomial();
    if p.pairs() > 0 {
        out.push(pentanomial_line(&p));
    }
    if let Some(s) = sprt {
        out.push(sprt_line(s, t.llr(s, pairs), pairs));
    }
    out.push(forfeit_line(t));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::openings::Opening;

    fn rec(
        index: u64,
        p1_player: u8,
        result: &str,
        t: Termination,
        culprit: Option<u8>,
    ) -> GameRecord {
        GameRecord {
            match_id: String::new(),
            index,
            round: 1,
            pair: index / 2,
            game: "tictactoe".into(),
            params: String::new(),
            players: ["A".into(), "B".into()],
            p1_player,
            opening: Opening::default(),
            moves: vec![],
            result: result.into(),
            termination: t,
            reason: "r".into(),
            culprit,
            final_fen: String::new(),
            started_ms: 0,
            duration_ms: 0.0,
            referee_ms: 0.0,
            engine_errors: vec![],
            planned: None,
        }
    }

    #[test]
    fn tally_by_colour_and_pairs() {
        let mut t = Tally::new(["A".into(), "B".into()]);
        t.add(&rec(0, 0, "1-0", Termination::Rules, None)); // A wins as p1
        t.add(&rec(1, 1, "1-0", Termination::Rules, None)); // B wins as p1
        t.add(&rec(2, 0, "1/2-1/2", Termination::Rules, None));
        t.add(&rec(3, 1, "0-1", Termination::Time, Some(1))); // B (p1) loses on time
        t.add(&rec(4, 0, "0-1", Termination::Crash, Some(0)));
        assert_eq!(t.a, Wdl::new(2, 2, 1));
        assert_eq!(t.a_as_p1, Wdl::new(1, 1, 1));
        assert_eq!(t.a_as_p2, Wdl::new(1, 1, 0));
        assert_eq!(t.first_player, Wdl::new(2, 2, 1));
        // Pairs: (1, 0) → 2 half points; (0.5, 1) → 3; game 4 is unpaired.
        assert_eq!(t.pentanomial().0, [0, 0, 1, 1, 0]);
        assert_eq!(forfeit_line(&t), "Forfeits: A 1 (crash 1); B 1 (time 1)");
        assert_eq!(score_line(&t), "Score of A vs B: 2 - 2 - 1  [0.500] 5");
        assert_eq!(
            colour_lines(&t),
            [
                "...      A playing p1: 1 - 1 - 1  [0.500] 3",
                "...      A playing p2: 1 - 1 - 0  [0.500] 2",
                "...      p1 vs p2: 2 - 2 - 1  [0.500] 5",
            ]
        );
        let r = rec(3, 1, "0-1", Termination::Time, Some(1));
        assert_eq!(finished_line(&r), "Finished game 4 (B vs A): 0-1 {r}");
        assert_eq!(
            started_line(0, 10, "A", "B"),
            "Started game 1 of 10 (A vs B)"
        );
    }
}
