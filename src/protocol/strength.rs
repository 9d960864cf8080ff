//! `UCI_LimitStrength` and `UCI_Elo`: a weaker ply for a person to play, on Stockfish's
//! scale.
//!
//! The strength is set by one thing: a node budget per move. The searcher stops at its node
//! count exactly (depth 1 always completes), so a budget is a fixed amount of thinking,
//! independent of the clock and of the machine's speed; the solver and the opening book are
//! off while the limit is on (they would play perfectly however small the budget).
//!
//! The budgets were found by matches, not guessed: ply with `go nodes N` against Stockfish 15.1
//! with `UCI_LimitStrength` at a `UCI_Elo` (its calibration is CCRL 40/4), 100 games a point
//! from the balanced chess openings with colours swapped (`scripts/matches/strength_calibrate.sh`
//! plays them; docs/chess.md has the table). [`ANCHORS`] lists, for each
//! `UCI_Elo`, the budget that scored half the points against Stockfish at the same
//! `UCI_Elo`; between anchors the budget is interpolated on a log scale (Elo grows about
//! linearly with the logarithm of the nodes). Only chess is calibrated: in the other games
//! the same budgets apply, weaker as the Elo falls, but the number is not an Elo there.
//!
//! Each move's budget is the anchor figure times a random factor from 2^-½ to 2^½ (the
//! geometric mean is the calibrated budget), so that the same position is not always
//! answered the same way.

use crate::search::TechniquesOff;
use crate::util::Rng;

/// The search techniques a strength-limited search leaves off (by their `PLY_SEARCH_OFF`
/// names, protocol.md, Environment): those added to the searcher after the calibration, so
/// that a budget still buys the thinking the matches measured. With them off the searcher's
/// tree is the calibrated one node for node (under `PLY_SEARCH_OFF` set to this list,
/// `ply bench` counts chess's 56,328 nodes of the calibration's build; its total is
/// 1,446,987 since checkers joined the bench).
pub const UNCALIBRATED: &str = "history_malus,continuation_history,capture_history,\
reverse_futility,razoring,futility,late_move_pruning,see_pruning,internal_reduction,\
singular_extension,quiescence_table";

/// [`UNCALIBRATED`] as the searcher takes it.
pub fn uncalibrated() -> TechniquesOff {
    TechniquesOff::parse(UNCALIBRATED).0
}

/// `(UCI_Elo, nodes)`: ply searching `nodes` nodes a move scores about half the points
/// against Stockfish 15.1 at that `UCI_Elo`. Increasing in both. The first is the weakest
/// ply plays: a budget of one node is a depth-1 search (with its quiescence search), which
/// scored 56% against 1500. The others: where a line fitted to every match at that
/// `UCI_Elo` (Elo against log(nodes): two fixed budgets, one scoring under half and one
/// over, and two checks of ply's own options at earlier anchors, 400 games in all) crosses
/// zero (`scripts/matches/strength_fit.py`). docs/chess.md has every match.
pub const ANCHORS: &[(u32, f64)] = &[(1500, 1.0), (1600, 100.0), (1800, 1600.0), (2000, 72_000.0)];

/// The lowest `UCI_Elo`.
pub const ELO_MIN: u32 = ANCHORS[0].0;
/// The highest `UCI_Elo`.
pub const ELO_MAX: u32 = ANCHORS[ANCHORS.len() - 1].0;
/// `UCI_Elo`'s default (a strength in the middle of the range).
pub const ELO_DEFAULT: u32 = 1600;

/// The calibrated node budget for `elo` (clamped to the range): the anchors' budgets,
/// interpolated linearly in `log(nodes)` between them.
///
/// ```
/// use ply::protocol::strength::{ANCHORS, ELO_MAX, ELO_MIN, node_budget};
/// assert_eq!(node_budget(ELO_MIN), ANCHORS[0].1);
/// assert_eq!(node_budget(ELO_MAX + 500), ANCHORS[ANCHORS.len() - 1].1);
/// assert!(node_budget(1700) > node_budget(1650));
/// ```
pub fn node_budget(elo: u32) -> f64 {
    let elo = elo.clamp(ELO_MIN, ELO_MAX);
    let i = ANCHORS.iter().position(|&(e, _)| e >= elo).unwrap_or(0);
    if i == 0 || ANCHORS[i].0 == elo {
        return ANCHORS[i].1;
    }
    let ((e0, n0), (e1, n1)) = (ANCHORS[i - 1], ANCHORS[i]);
    let t = f64::from(elo - e0) / f64::from(e1 - e0);
    (n0.ln() + t * (n1.ln() - n0.ln())).exp()
}

/// One move's budget: `node_budget(elo)` times 2^u, u uniform in [-½, ½], at least 1.
pub fn move_budget(elo: u32, rng: &mut Rng) -> u64 {
    let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 - 0.5;
    (node_budget(elo) * u.exp2()).round().max(1.0) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_uncalibrated_techniques_are_all_known() {
        let (off, unknown) = TechniquesOff::parse(UNCALIBRATED);
        assert!(unknown.is_empty(), "{unknown:?}");
        assert_eq!(UNCALIBRATED.split(',').count(), 11);
        assert_ne!(off, TechniquesOff::NONE);
    }

    #[test]
    fn anchors_increase() {
        for w in ANCHORS.windows(2) {
            assert!(w[0].0 < w[1].0 && w[0].1 < w[1].1, "{w:?}");
        }
        assert!((ELO_MIN..=ELO_MAX).contains(&ELO_DEFAULT));
    }

    #[test]
    fn budgets_are_monotone_and_hit_the_anchors() {
        let mut last = 0.0;
        for elo in ELO_MIN..=ELO_MAX {
            let b = node_budget(elo);
            assert!(b >= last, "{elo}: {b} < {last}");
            last = b;
        }
        for &(e, n) in ANCHORS {
            assert!((node_budget(e) - n).abs() < 1e-6 * n, "{e}");
        }
    }

    #[test]
    fn move_budgets_spread_around_the_budget() {
        let mut rng = Rng::new(7);
        let elo = ELO_MAX;
        let b = node_budget(elo);
        let budgets: Vec<u64> = (0..10_000).map(|_| move_budget(elo, &mut rng)).collect();
        let (lo, hi) = (b / 2f64.sqrt(), b * 2f64.sqrt());
        assert!(
            budgets
                .iter()
                .all(|&n| (lo - 1.0..=hi + 1.0).contains(&(n as f64)))
        );
        let geometric_mean =
            (budgets.iter().map(|&n| (n as f64).ln()).sum::<f64>() / budgets.len() as f64).exp();
        assert!(
            (geometric_mean / b - 1.0).abs() < 0.02,
            "{geometric_mean} vs {b}"
        );
        assert!(budgets.iter().any(|&n| n as f64 > b * 1.3));
        assert!(budgets.iter().any(|&n| (n as f64) < b / 1.3));
        assert_eq!(move_budget(ELO_MIN, &mut rng), 1);
    }
}
