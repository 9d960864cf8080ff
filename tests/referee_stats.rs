//! The referee's statistics against values worked out by hand from the formulas (cutechess's
//! elo.cpp; the GSPRT of fishtest/fastchess), compared at the precision the referee prints.
//!
//! Worked example, W = 120, L = 100, D = 80 (N = 300), from A's side:
//!   w = 0.4, l = 1/3, d = 4/15; mu = w + d/2 = 0.533333
//!   Elo = -400·log10(1/mu - 1) = -400·log10(0.875) = 23.197
//!   per-game variance = w(1-mu)² + l·mu² + d(½-mu)² = 0.087111 + 0.094815 + 0.000296 = 0.182222
//!   sigma = sqrt(0.182222 / 300) = 0.024646; mu ± 1.959964·sigma = 0.485029 .. 0.581638
//!   Elo of those: -10.406 .. 57.240, so the margin is (57.240 + 10.406)/2 = 33.823
//!   LOS = 50·(1 + erf(20 / sqrt(440))) = 50·(1 + erf(0.953463)) = 91.124 %
//!   DrawRatio = 80/300 = 26.667 %
//!   SPRT elo0 = 0, elo1 = 5: s0 = 0.5, s1 = 1/(1 + 10^(-5/400)) = 0.507195;
//!   LLR = 300·(s1 - s0)·(2·mu - s0 - s1)/(2·0.182222) = 300·0.007195·0.059472/0.364444 = 0.352
//!   bounds (alpha = beta = 0.05): ln(0.05/0.95) = -2.944, ln(0.95/0.05) = 2.944.
//!
//! Pentanomial [3, 10, 20, 12, 5] (50 pairs; pair scores 0, ¼, ½, ¾, 1):
//!   mu = (10·0.25 + 20·0.5 + 12·0.75 + 5)/50 = 26.5/50 = 0.53
//!   variance = (3·0.53² + 10·0.28² + 20·0.03² + 12·0.22² + 5·0.47²)/50 = 3.33/50 = 0.0666
//!   LLR(0, 5) = 50·0.007195·(1.06 - 1.007195)/(2·0.0666) = 0.1426.

use ply::referee::report::{elo_line, pentanomial_line, sprt_line};
use ply::referee::stats::{Pentanomial, SprtParams, Wdl, elo, score_to_elo};

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn elo_margin_los_and_draw_ratio_match_the_hand_computation() {
    let r = Wdl::new(120, 100, 80);
    let e = elo(&r).unwrap();
    assert!(close(e.diff, 23.197, 5e-4), "{}", e.diff);
    assert!(close(e.margin, 33.823, 5e-4), "{}", e.margin);
    assert!(close(e.los, 91.124, 5e-4), "{}", e.los);
    assert!(close(e.draw_ratio, 26.667, 5e-4), "{}", e.draw_ratio);
    assert_eq!(
        elo_line(&r).unwrap(),
        "Elo difference: 23.2 +/- 33.8, LOS: 91.1 %, DrawRatio: 26.7 %"
    );
    assert!(close(score_to_elo(0.581638), 57.240, 1e-3));
    assert!(close(score_to_elo(0.485029), -10.406, 1e-3));
}

#[test]
fn more_known_counts() {
    // W=35 L=52 D=13: mu = 0.415, Elo = -400·log10(0.585/0.415) = -59.6; variance 0.210275,
    // sigma = 0.045856, margin (Elo(0.504876) - Elo(0.325124))/2 = 65.1;
    // LOS = 50(1 + erf(-17/sqrt(174))) = 3.4 %.
    assert_eq!(
        elo_line(&Wdl::new(35, 52, 13)).unwrap(),
        "Elo difference: -59.6 +/- 65.1, LOS: 3.4 %, DrawRatio: 13.0 %"
    );
    // W=7 L=2 D=1: mu = 0.75, Elo = 400·log10(3) = 190.8; variance 0.1625, sigma = 0.127475,
    // margin (Elo(0.999847) - Elo(0.500153))/2 = 763.2;
    // LOS = 50(1 + erf(5/sqrt(18))) = 95.2 %.
    assert_eq!(
        elo_line(&Wdl::new(7, 2, 1)).unwrap(),
        "Elo difference: 190.8 +/- 763.2, LOS: 95.2 %, DrawRatio: 10.0 %"
    );
    // All draws: no spread, so no margin; no decisive game, so LOS is even.
    assert_eq!(
        elo_line(&Wdl::new(0, 0, 6)).unwrap(),
        "Elo difference: 0.0 +/- 0.0, LOS: 50.0 %, DrawRatio: 100.0 %"
    );
    // All wins: the score is 1, the Elo infinite (cutechess prints the same); the interval
    // leaves (0, 1), so no margin. LOS = 50(1 + erf(3/sqrt(6))) = 95.8 %.
    assert_eq!(
        elo_line(&Wdl::new(3, 0, 0)).unwrap(),
        "Elo difference: inf +/- nan, LOS: 95.8 %, DrawRatio: 0.0 %"
    );
    assert_eq!(elo_line(&Wdl::default()), None);
}

#[test]
fn pentanomial_counts_pairs() {
    let mut p = Pentanomial::default();
    for (a, b) in [
        (0.0, 0.0),
        (0.0, 0.5),
        (0.5, 0.0),
        (0.0, 1.0),
        (0.5, 0.5),
        (1.0, 0.5),
        (1.0, 1.0),
    ] {
        p.add_pair(a, b);
    }
    assert_eq!(p.0, [1, 2, 2, 1, 1]);
    assert_eq!(pentanomial_line(&p), "Ptnml(0-2): [1, 2, 2, 1, 1]");
}

#[test]
fn sprt_log_likelihood_ratio_matches_the_hand_computation() {
    let s = SprtParams {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
    };
    let (lo, hi) = s.bounds();
    assert!(close(lo, -2.944, 5e-4) && close(hi, 2.944, 5e-4));
    let llr = s.llr_trinomial(&Wdl::new(120, 100, 80));
    assert!(close(llr, 0.3522, 5e-5), "{llr}");
    assert_eq!(
        sprt_line(&s, llr, false),
        "SPRT: llr 0.352 (12.0%), lbound -2.94, ubound 2.94 \
         [elo0 0, elo1 5, alpha 0.05, beta 0.05, trinomial]"
    );
    let llr = s.llr_pentanomial(&Pentanomial([3, 10, 20, 12, 5]));
    assert!(close(llr, 0.1426, 5e-5), "{llr}");
    // 100 pairs [1, 5, 30, 50, 14] against elo1 = 10: mu = 0.6775, variance 0.0403688,
    // s1 = 0.514387, LLR = 100·0.014387·(1.355 - 1.014387)/(2·0.0403688) = 6.07 > 2.944: H1.
    let s10 = SprtParams { elo1: 10.0, ..s };
    let llr = s10.llr_pentanomial(&Pentanomial([1, 5, 30, 50, 14]));
    assert!(close(llr, 6.0696, 5e-4), "{llr}");
    assert!(sprt_line(&s10, llr, true).contains(" - H1 was accepted"));
}
