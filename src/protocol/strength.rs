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
//!
//! Below the weakest budget (one node, a depth-1 search with its quiescence search, at
//! 1500) thinking less is not possible, so the lower levels choose worse moves instead: the
//! depth-1 search values the [`CHOICES`] best root moves, each value gets a random bonus of
//! up to [`noise`] (the level's amplitude, in the evaluation's units: centipawns in chess),
//! and the move with the highest sum is played. At 1500 the amplitude is 0 (the best move);
//! it grows linearly as the level falls, to the amplitude [`NOISE_ANCHORS`] found by
//! matches at the lowest level.

use crate::search::{Info, TechniquesOff};
use crate::util::Rng;

/// The search techniques a strength-limited search leaves off (by their `PLY_SEARCH_OFF`
/// names, protocol.md, Environment): those added to the searcher after the calibration, so
/// that a budget still buys the thinking the matches measured. With them off, and the search
/// parameters at their defaults (the session sets both), the searcher's tree is the
/// calibrated one node for node (under `PLY_SEARCH_OFF` set to this list and
/// `PLY_SEARCH_PARAMS` set to every parameter's default, the third column of `ply
/// search-params`, undoing chess's own values that a calibrated search would use, `ply
/// bench` counts chess's 56,328 nodes of the calibration's build; its total is 1,430,446
/// with checkers' fitted evaluation, whose new techniques the list turns off too).
pub const UNCALIBRATED: &str = "history_malus,continuation_history,capture_history,\
reverse_futility,razoring,futility,late_move_pruning,see_pruning,internal_reduction,\
singular_extension,quiescence_table,full_eval,correction_history,tt_eval,\
check_see,futility_checks,quiescence_tt_eval,network";

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

/// `(UCI_Elo, amplitude)` for the levels below the node anchors (see the module's text):
/// ply choosing with that amplitude among its [`CHOICES`] best depth-1 moves scores about
/// half the points against Stockfish 15.1 at that `UCI_Elo` (docs/chess.md has the
/// matches); linear in between, 0 from the first node anchor up.
pub const NOISE_ANCHORS: &[(u32, f64)] = &[(1350, 95.0), (ANCHORS[0].0, 0.0)];

/// How many root moves a noisy level chooses among (Stockfish's levels choose among four).
pub const CHOICES: usize = 4;

/// The lowest `UCI_Elo`: Stockfish 15.1's lowest.
pub const ELO_MIN: u32 = NOISE_ANCHORS[0].0;
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
    let elo = elo.clamp(ANCHORS[0].0, ELO_MAX);
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

/// The amplitude of the random bonus a level adds to its choices' values: `None` from the
/// first node anchor up (the search's best move is played), else [`NOISE_ANCHORS`]
/// interpolated linearly.
///
/// ```
/// use ply::protocol::strength::{ELO_MIN, NOISE_ANCHORS, noise};
/// assert_eq!(noise(1500), None);
/// assert_eq!(noise(ELO_MIN), Some(NOISE_ANCHORS[0].1.round() as i32));
/// assert!(noise(1400) > noise(1450));
/// ```
pub fn noise(elo: u32) -> Option<i32> {
    let (e0, a0) = NOISE_ANCHORS[0];
    let (e1, a1) = NOISE_ANCHORS[NOISE_ANCHORS.len() - 1];
    let elo = elo.max(e0);
    if elo >= e1 {
        return None;
    }
    let t = f64::from(elo - e0) / f64::from(e1 - e0);
    Some((a0 + t * (a1 - a0)).round() as i32).filter(|&a| a > 0)
}

/// How a noisy level picks its move: the amplitude of [`pick`]'s bonus, and the seed of
/// its random draws (taken from the session's generator when the `go` is read).
#[derive(Clone, Copy, Debug)]
pub struct Choice {
    pub amplitude: i32,
    pub seed: u64,
}

/// A noisy level's move among `lines` (a value and a move each, as a MultiPV search reports
/// them): the highest value plus a bonus drawn uniformly from `0..=amplitude`. Proven wins
/// and losses keep their values (the bonus cannot turn a mate into a blunder or back).
/// `None` when `lines` is empty.
pub fn pick<M: Copy>(lines: &[(i32, M)], amplitude: i32, rng: &mut Rng) -> Option<M> {
    let amplitude = amplitude.max(0) as usize;
    lines
        .iter()
        .map(|&(value, mv)| {
            let bonus = rng.below(amplitude + 1) as i64;
            let proven = crate::value::is_mate(value);
            (i64::from(value) + if proven { 0 } else { bonus }, mv)
        })
        .fold(None, |best: Option<(i64, M)>, (sum, mv)| match best {
            Some((b, _)) if b >= sum => best,
            _ => Some((sum, mv)),
        })
        .map(|(_, mv)| mv)
}

/// A noisy level's view of a MultiPV search: the lines of its last completed iteration
/// (fed each `Info` as the search reports it), and the pick among them.
pub struct Lines<M> {
    last: Vec<(u32, i32, Vec<M>)>,
}

impl<M: Copy> Default for Lines<M> {
    fn default() -> Self {
        Lines { last: Vec::new() }
    }
}

impl<M: Copy> Lines<M> {
    /// Keeps `info`'s line, forgetting those of an earlier iteration.
    pub fn see(&mut self, info: &Info<M>) {
        self.last.retain(|l| l.0 == info.depth);
        if !info.pv.is_empty() {
            self.last.push((info.depth, info.value, info.pv.clone()));
        }
    }

    /// The line [`pick`] chooses (its first move the one to play); `None` with no line seen.
    pub fn pick(mut self, choice: Choice) -> Option<Vec<M>> {
        let mut rng = Rng::new(choice.seed);
        let values: Vec<(i32, usize)> = (self.last.iter().enumerate())
            .map(|(k, l)| (l.1, k))
            .collect();
        let k = pick(&values, choice.amplitude, &mut rng)?;
        Some(self.last.swap_remove(k).2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_uncalibrated_techniques_are_all_known() {
        let (off, unknown) = TechniquesOff::parse(UNCALIBRATED);
        assert!(unknown.is_empty(), "{unknown:?}");
        assert_eq!(
            UNCALIBRATED.split(',').count(),
            crate::search::TECHNIQUES.len() - 5
        );
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

    #[test]
    fn noise_falls_to_nothing_at_the_first_node_anchor() {
        assert_eq!(noise(ANCHORS[0].0), None);
        assert_eq!(noise(ELO_MAX), None);
        let mut last = i32::MAX;
        for elo in ELO_MIN..ANCHORS[0].0 {
            let a = noise(elo).expect("a noisy level");
            assert!(a <= last && a > 0, "{elo}: {a}");
            last = a;
        }
        assert_eq!(noise(ELO_MIN - 100), noise(ELO_MIN));
    }

    #[test]
    fn picks_spread_with_the_amplitude_and_respect_mates() {
        let mut rng = Rng::new(3);
        let lines = [(50, 'a'), (0, 'b'), (-300, 'c')];
        let count = |amplitude, rng: &mut Rng| {
            let mut seen = [0usize; 3];
            for _ in 0..3000 {
                let m = pick(&lines, amplitude, rng).unwrap();
                seen[(m as u8 - b'a') as usize] += 1;
            }
            seen
        };
        assert_eq!(count(0, &mut rng), [3000, 0, 0]);
        let some = count(100, &mut rng);
        assert!(some[0] > some[1] && some[1] > 0 && some[2] == 0, "{some:?}");
        let wide = count(1000, &mut rng);
        assert!(wide.iter().all(|&n| n > 0), "{wide:?}");
        let mate = crate::value::MATE - 3;
        assert_eq!(pick(&[(0, 'x'), (mate, 'm')], 10_000, &mut rng), Some('m'));
        assert_eq!(
            pick(&[(-mate, 'l'), (-200, 'y')], 10_000, &mut rng),
            Some('y')
        );
        assert_eq!(pick::<char>(&[], 100, &mut rng), None);
    }
}
