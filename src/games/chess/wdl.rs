//! Win/draw/loss chances from a score, the shape Stockfish uses: for `x` centipawns from the
//! side to move,
//!
//! ```text
//! win  = 1 / (1 + exp((A - x) / B))
//! loss = 1 / (1 + exp((A + x) / B))
//! draw = 1 - win - loss
//! ```
//!
//! `A` and `B` were fitted by `scripts/tuning/chess_wdl_fit.py` (maximum likelihood) to the outcomes
//! of ply's own moves in 100 games at 10+0.1 against Stockfish 15.1 at `UCI_Elo` 2000, an
//! opponent of about ply's strength (docs/chess.md): 5,126 scores. The chances are ply's
//! against such an opponent at such a clock, where draws are rare (9 of the 100 games).

/// The score, in centipawns, at which a win is as likely as not.
pub const A: f64 = 90.6;
/// How many centipawns the chances take to turn (the logistic's scale).
pub const B: f64 = 195.3;

/// Win, draw and loss chances in permille, summing to 1000.
///
/// ```
/// use ply::games::chess::wdl::of_cp;
/// let [w, d, l] = of_cp(0);
/// assert_eq!(w, l);
/// assert_eq!(w + d + l, 1000);
/// assert!(of_cp(300)[0] > 700 && of_cp(-300)[2] > 700);
/// ```
pub fn of_cp(cp: i32) -> [u32; 3] {
    let x = cp as f64;
    let win = 1.0 / (1.0 + ((A - x) / B).exp());
    let loss = 1.0 / (1.0 + ((A + x) / B).exp());
    let w = (win * 1000.0).round() as u32;
    let l = (loss * 1000.0).round() as u32;
    // Rounding never takes w + l past 1000: each is below 1000 * its chance + 0.5, and the
    // chances sum to less than 1.
    [w, 1000u32.saturating_sub(w + l), l]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chances_are_monotonic_symmetric_and_sum_to_1000() {
        let mut last_win = 0;
        for cp in (-3000..=3000).step_by(7) {
            let [w, d, l] = of_cp(cp);
            assert_eq!(w + d + l, 1000, "{cp}");
            assert!(w >= last_win, "{cp}");
            last_win = w;
            let [w2, d2, l2] = of_cp(-cp);
            assert_eq!((w, d, l), (l2, d2, w2), "{cp}");
        }
        assert_eq!(of_cp(30_000), [1000, 0, 0]);
        // At A centipawns a win is as likely as not.
        assert!(of_cp(A.round() as i32)[0].abs_diff(500) <= 1);
    }
}
