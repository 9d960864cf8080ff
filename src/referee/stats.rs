//! Match statistics as cutechess-cli and fastchess compute them: Elo difference with its 95%
//! error margin, likelihood of superiority, draw ratio, pentanomial counts over game pairs, and
//! the sequential probability ratio test. Pure functions of the counts; no I/O.
//!
//! Every figure is from the point of view of the first player of the match (engine "A"):
//! a win is a game A won.

/// Φ⁻¹(0.975): the 95% two-sided normal quantile cutechess uses (`phiInv(0.975)`), which
/// is usually rounded to 1.96.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Elo difference that gives an expected score `mu` (0 < mu < 1) under the logistic
/// model: `-400·log10(1/mu - 1)`. Infinite at 0 and 1; NaN outside [0, 1].
pub fn score_to_elo(mu: f64) -> f64 {
    -400.0 * (1.0 / mu - 1.0).log10()
}

/// The expected score of a player `elo` points stronger: `1 / (1 + 10^(-elo/400))`.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Win/loss/draw counts from one player's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
}

impl Wdl {
    pub fn new(wins: u64, losses: u64, draws: u64) -> Wdl {
        Wdl {
            wins,
            losses,
            draws,
        }
    }

    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// Points scored: a win is 1, a draw ½.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// Points per game (cutechess's `[ratio]`); NaN with no games.
    pub fn ratio(&self) -> f64 {
        self.points() / self.games() as f64
    }

    /// The same games seen from the other player.
    pub fn flipped(&self) -> Wdl {
        Wdl::new(self.losses, self.wins, self.draws)
    }
}

/// The Elo estimate of a [`Wdl`], as cutechess's `Elo` class computes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Elo difference from the mean score.
    pub diff: f64,
    /// Half the width of the 95% interval, mapped through [`score_to_elo`] from
    /// `mu ± Z95·sigma` with `sigma` the standard error of the mean score. NaN when the
    /// interval leaves (0, 1), infinite when it touches an end: cutechess prints those too.
    pub margin: f64,
    /// Likelihood of superiority in percent: `50·(1 + erf((W-L)/sqrt(2(W+L))))`; 50 when no
    /// game was decisive (the formula's 0/0).
    pub los: f64,
    /// Draws per game, in percent.
    pub draw_ratio: f64,
}

/// `None` when there are no games.
pub fn elo(r: &Wdl) -> Option<EloEstimate> {
    let n = r.games() as f64;
    if n == 0.0 {
        return None;
    }
    let (w, l, d) = (r.wins as f64 / n, r.losses as f64 / n, r.draws as f64 / n);
    let mu = w + d / 2.0;
    let variance = w * (1.0 - mu).powi(2) + l * mu.powi(2) + d * (0.5 - mu).powi(2);
    let sigma = variance.sqrt() / n.sqrt();
    let margin = (score_to_elo(mu + Z95 * sigma) - score_to_elo(mu - Z95 * sigma)) / 2.0;
    let decisive = (r.wins + r.losses) as f64;
    let los = if decisive == 0.0 {
        50.0
    } else {
        50.0 * (1.0 + libm::erf((r.wins as f64 - r.losses as f64) / (2.0 * decisive).sqrt()))
    };
    Some(EloEstimate {
        diff: score_to_elo(mu),
        margin,
        los,
        draw_ratio: 100.0 * d,
    })
}

/// Counts of game pairs by A's points in the pair, in half points: index 0 is two losses,
/// 1 a loss and a draw, 2 two draws or a win and a loss, 3 a win and a draw, 4 two wins
/// (fastchess's `Ptnml(0-2)`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Adds one pair; each score is A's points in a game (0, 0.5 or 1).
    pub fn add_pair(&mut self, first: f64, second: f64) {
        let half_points = ((first + second) * 2.0).round() as usize;
        self.0[half_points.min(4)] += 1;
    }

    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }
}

/// The SPRT's hypotheses and error rates: H0 is "A is `elo0` stronger", H1 "A is `elo1`
/// stronger", both on the logistic Elo scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtParams {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// The count an empty outcome bin stands for in the SPRT (fastchess regularises the same way).
pub const EMPTY_BIN: f64 = 1e-3;

/// The samples (games, or game pairs) the SPRT waits for before its log-likelihood ratio
/// counts. With empty bins counted as [`EMPTY_BIN`], a single sample has almost no variance:
/// one pair won 1½–½ gave an LLR of 3.7 against bounds of ±2.94, and the match stopped after
/// two games.
pub const MIN_SAMPLES: f64 = 10.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    AcceptH0,
    AcceptH1,
}

impl SprtParams {
    /// `(lower, upper)`: `ln(beta/(1-alpha))` and `ln((1-beta)/alpha)`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The decision for a log-likelihood ratio, once it leaves the bounds.
    pub fn decide(&self, llr: f64) -> Option<SprtDecision> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(SprtDecision::AcceptH1)
        } else if llr <= lower {
            Some(SprtDecision::AcceptH0)
        } else {
            None
        }
    }

    /// The generalised SPRT's log-likelihood ratio (the normal approximation fishtest and
    /// fastchess use for the logistic model) from game results: with `n` games of mean score
    /// `mu` and per-game variance `var`, `LLR = n·(s1 - s0)·(2·mu - s0 - s1) / (2·var)`,
    /// where `s0`, `s1` are the expected scores at `elo0` and `elo1`. Zero before any game.
    pub fn llr_trinomial(&self, r: &Wdl) -> f64 {
        self.llr(&[
            (0.0, r.losses as f64),
            (0.5, r.draws as f64),
            (1.0, r.wins as f64),
        ])
    }

    /// The same from game pairs: each pair's score (on the 0..1 scale: 0, ¼, ½, ¾, 1) is one
    /// sample, so `n` counts pairs. Pairs make the variance honest when the two games of a
    /// pair are correlated (same opening, colours swapped).
    pub fn llr_pentanomial(&self, p: &Pentanomial) -> f64 {
        let samples: Vec<(f64, f64)> =
            p.0.iter()
                .enumerate()
                .map(|(i, &c)| (i as f64 / 4.0, c as f64))
                .collect();
        self.llr(&samples)
    }

    /// `samples`: (score, count) pairs. A count of zero counts as [`EMPTY_BIN`], so that a
    /// one-sided record (every game won, or drawn) has a variance and can decide.
    fn llr(&self, samples: &[(f64, f64)]) -> f64 {
        if samples.iter().map(|&(_, c)| c).sum::<f64>() < MIN_SAMPLES {
            return 0.0;
        }
        let samples: Vec<(f64, f64)> = samples
            .iter()
            .map(|&(x, c)| (x, if c == 0.0 { EMPTY_BIN } else { c }))
            .collect();
        let n: f64 = samples.iter().map(|&(_, c)| c).sum();
        let mu: f64 = samples.iter().map(|&(x, c)| x * c).sum::<f64>() / n;
        let var: f64 = samples
            .iter()
            .map(|&(x, c)| c * (x - mu).powi(2))
            .sum::<f64>()
            / n;
        let (s0, s1) = (elo_to_score(self.elo0), elo_to_score(self.elo1));
        n * (s1 - s0) * (2.0 * mu - s0 - s1) / (2.0 * var)
    }
}

/// `x` with `decimals` digits, or `inf`, `-inf`, `nan` as cutechess prints non-finite values.
pub fn fixed(x: f64, decimals: usize) -> String {
    if x.is_nan() {
        "nan".to_string()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.to_string()
    } else {
        let s = format!("{x:.decimals$}");
        // "-0.0" reads as a sign where there is none.
        if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') {
            s[1..].to_string()
        } else {
            s
        }
    }
}

/// `x` to 3 significant digits the way C's and Qt's `%g` write it (cutechess's SPRT line):
/// trailing zeros dropped, exponent form below 1e-4 or from 1e3 up.
pub fn general3(x: f64) -> String {
    if !x.is_finite() {
        return fixed(x, 0);
    }
    if x == 0.0 {
        return "0".to_string();
    }
    // Round to 3 significant digits first, so 999.6 becomes 1e+03 as in C.
    let sci = format!("{x:.2e}");
    let (mantissa, exp) = sci.split_once('e').expect("{:e} always has an exponent");
    let exp: i32 = exp.parse().expect("{:e} writes an integer exponent");
    let trim = |s: &str| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s.to_string()
        }
    };
    if !(-4..3).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", trim(mantissa), exp.abs())
    } else {
        let decimals = (2 - exp) as usize;
        trim(&format!("{x:.decimals$}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_even_score_is_zero() {
        let e = elo(&Wdl::new(10, 10, 5)).unwrap();
        assert!(e.diff.abs() < 1e-12);
        assert!((e.los - 50.0).abs() < 1e-12);
        assert!((e.draw_ratio - 20.0).abs() < 1e-12);
        assert_eq!(elo(&Wdl::default()), None);
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-600.0, -35.5, 0.0, 12.0, 400.0] {
            assert!((score_to_elo(elo_to_score(elo)) - elo).abs() < 1e-9);
        }
        assert!((elo_to_score(400.0) - 10.0 / 11.0).abs() < 1e-15);
    }

    #[test]
    fn all_draws_have_no_margin_and_neutral_los() {
        let e = elo(&Wdl::new(0, 0, 8)).unwrap();
        assert_eq!(
            (e.diff, e.margin, e.los, e.draw_ratio),
            (0.0, 0.0, 50.0, 100.0)
        );
    }

    #[test]
    fn one_sided_records_still_decide() {
        let sprt = SprtParams {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        assert_eq!(sprt.llr_trinomial(&Wdl::default()), 0.0);
        // Draws only: no sign of a gain, H0.
        let draws = sprt.llr_trinomial(&Wdl::new(0, 0, 20));
        assert_eq!(sprt.decide(draws), Some(SprtDecision::AcceptH0));
        // Wins only: H1, and by pairs as well.
        let wins = sprt.llr_trinomial(&Wdl::new(20, 0, 0));
        assert_eq!(sprt.decide(wins), Some(SprtDecision::AcceptH1));
        let pairs = sprt.llr_pentanomial(&Pentanomial([0, 0, 0, 0, 10]));
        assert_eq!(sprt.decide(pairs), Some(SprtDecision::AcceptH1));
    }

    #[test]
    fn a_few_samples_never_decide() {
        let sprt = SprtParams {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        // One pair won 1½–½ stopped a match at its second game.
        assert_eq!(sprt.llr_pentanomial(&Pentanomial([0, 0, 0, 1, 0])), 0.0);
        assert_eq!(sprt.llr_pentanomial(&Pentanomial([0, 0, 0, 0, 9])), 0.0);
        assert_eq!(sprt.llr_trinomial(&Wdl::new(9, 0, 0)), 0.0);
        assert!(sprt.llr_pentanomial(&Pentanomial([0, 0, 0, 0, 10])) > 0.0);
    }

    #[test]
    fn pentanomial_buckets() {
        let mut p = Pentanomial::default();
        p.add_pair(0.0, 0.0);
        p.add_pair(0.5, 0.0);
        p.add_pair(1.0, 0.0);
        p.add_pair(0.5, 0.5);
        p.add_pair(1.0, 0.5);
        p.add_pair(1.0, 1.0);
        assert_eq!(p.0, [1, 1, 2, 1, 1]);
        assert_eq!(p.pairs(), 6);
    }

    #[test]
    fn sprt_bounds_and_decisions() {
        let s = SprtParams {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lo, hi) = s.bounds();
        assert!((hi - 19f64.ln()).abs() < 1e-12 && (lo + 19f64.ln()).abs() < 1e-12);
        assert_eq!(s.decide(3.0), Some(SprtDecision::AcceptH1));
        assert_eq!(s.decide(-3.0), Some(SprtDecision::AcceptH0));
        assert_eq!(s.decide(0.1), None);
    }

    #[test]
    fn general_format_matches_printf_g() {
        // Reference values from C's printf("%.3g").
        let cases = [
            (2.944_438_979_166_44, "2.94"),
            (-2.944_438_979_166_44, "-2.94"),
            (0.5, "0.5"),
            (12.34, "12.3"),
            (123.4, "123"),
            (999.6, "1e+03"),
            (1234.0, "1.23e+03"),
            (0.000_123_4, "0.000123"),
            (0.000_012_34, "1.23e-05"),
            (1.0, "1"),
            (0.0, "0"),
        ];
        for (x, want) in cases {
            assert_eq!(general3(x), want, "{x}");
        }
        assert_eq!(fixed(f64::NAN, 1), "nan");
        assert_eq!(fixed(f64::INFINITY, 1), "inf");
        assert_eq!(fixed(-0.04, 1), "0.0");
        assert_eq!(fixed(-0.06, 1), "-0.1");
    }
}
