//! Fits the chess evaluation's endgame scales (`eval::ENDGAME_SCALES`, one factor per kind
//! of endgame, `eval::EndgameCase`) to Stockfish's scores, the weights table as compiled.
//!
//! Input: the tuner's data lines, `<FEN> | <result> | <score>` (`examples/chess_tune.rs`);
//! positions without a score are skipped. Each position's evaluation is split into its
//! midgame and endgame sums by the compiled-in weights, so that a factor `s` gives
//! `(mg * phase + eg * s / 128 * (24 - phase)) / 24`; the factors minimise the mean squared
//! error of `sigmoid(K * eval / 400)` against `sigmoid(K_sf * score / 400)`, as the tuner's
//! `--lambda 0` does. The kinds of endgame are disjoint and each factor belongs to one, so
//! each kind is fitted on its own positions: coordinate descent over a grid (levels 0..=256
//! in steps of 4, per-pawn steps 0..=128 in steps of 2), from the neutral 128 and 0, until no
//! factor moves. `--check FILE` reports the error on other data (held out) with the
//! compiled-in factors and the fitted ones.
//!
//!   cargo run --release --example chess_scale_fit -- --data FILE [--data FILE ..] \
//!       [--check FILE ..] [--k 1.538] [--k-sf 2.3591]

use std::io::{BufRead, BufReader};

use ply::game::Game;
use ply::games::Chess;
use ply::games::chess::eval::{self, ENDGAME_SCALES, EndgameCase, EndgameScales, SCALE_NORMAL};
use ply::games::chess::weights::WEIGHTS;

/// A position reduced to what the factor acts on.
#[derive(Clone, Copy)]
struct Position {
    mg: f64,
    eg: f64,
    /// The midgame share, phase / 24.
    share: f64,
    case: EndgameCase,
    label: f64,
}

fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + (-k * e / 400.0).exp())
}

fn read(path: &str, k_sf: f64) -> Vec<Position> {
    let file = std::fs::File::open(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1)
    });
    let rules = Chess::default();
    let mut out = Vec::new();
    for line in BufReader::new(file).lines() {
        let line = line.expect("readable data");
        let mut fields = line.split('|').map(str::trim);
        let (Some(fen), Some(_), Some(score)) = (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let (Ok(score), Ok(pos)) = (score.parse::<f64>(), rules.from_fen(fen)) else {
            continue;
        };
        if pos.outcome().is_some() {
            continue;
        }
        let t = eval::trace(pos.board());
        let (mut mg, mut eg) = (0i64, 0i64);
        for &(i, n) in &t.counts {
            mg += WEIGHTS[i as usize].0 as i64 * n as i64;
            eg += WEIGHTS[i as usize].1 as i64 * n as i64;
        }
        out.push(Position {
            mg: mg as f64,
            eg: eg as f64,
            share: t.phase as f64 / 24.0,
            case: t.case,
            label: sigmoid(k_sf, score),
        });
    }
    out
}

/// Sum of squared errors over `set` with the factors `s`.
fn error(set: &[Position], s: &EndgameScales, k: f64) -> f64 {
    set.iter()
        .map(|p| {
            let scale = s.scale(p.case) as f64 / SCALE_NORMAL as f64;
            let e = p.mg * p.share + p.eg * scale * (1.0 - p.share);
            let d = sigmoid(k, e) - p.label;
            d * d
        })
        .sum()
}

/// Which factors act on the kind of endgame `case`.
fn owners(case: EndgameCase) -> &'static [&'static str] {
    match case {
        EndgameCase::Drawn => &["drawn"],
        EndgameCase::OppositeBishops { .. } => &["opposite_bishops", "opposite_bishops_passed"],
        EndgameCase::OppositeBishopsRooks => &["opposite_bishops_rooks"],
        EndgameCase::OppositeBishopsKnights => &["opposite_bishops_knights"],
        EndgameCase::NoPawnsMinorAhead => &["no_pawns_minor_ahead"],
        EndgameCase::PawnEnding { .. } => &["pawn_ending", "pawn_ending_ahead"],
        EndgameCase::RookEndingOneFlank => &["rook_ending_one_flank"],
        EndgameCase::LoneQueen => &["lone_queen"],
        EndgameCase::Other { .. } => &["other", "other_pawn", "one_flank"],
    }
}

/// Whether a factor is a per-pawn step (searched over 0..=128 by 2, from 0) rather than a
/// level (0..=256 by 4, from 128).
fn is_step(name: &str) -> bool {
    name.ends_with("_passed") || name.ends_with("_ahead") || name.ends_with("_pawn")
}

fn grid(name: &str) -> impl Iterator<Item = i32> {
    if is_step(name) {
        (0..=128).step_by(2)
    } else {
        (0..=256).step_by(4)
    }
}

fn set_field(s: &mut EndgameScales, name: &str, v: i32) {
    for (n, field) in s.fields_mut() {
        if n == name {
            *field = v;
        }
    }
}

/// Every level at [`SCALE_NORMAL`], every step 0: the weights as they are.
fn neutral() -> EndgameScales {
    let mut s = ENDGAME_SCALES;
    for (name, v) in s.fields_mut() {
        *v = if is_step(name) { 0 } else { SCALE_NORMAL };
    }
    s
}

/// The positions of `set` by kind of endgame, each kind with the factors that act on it.
fn by_kind(set: &[Position]) -> Vec<(&'static [&'static str], Vec<Position>)> {
    let mut kinds: Vec<(&'static [&'static str], Vec<Position>)> = Vec::new();
    for p in set {
        let o = owners(p.case);
        match kinds.iter_mut().find(|(names, _)| *names == o) {
            Some((_, ps)) => ps.push(*p),
            None => kinds.push((o, vec![*p])),
        }
    }
    kinds
}

fn fit(set: &[Position], k: f64) -> EndgameScales {
    let mut s = neutral();
    // Each kind of endgame on its own: its positions and its factors.
    for (names, ps) in &by_kind(set) {
        loop {
            let mut moved = false;
            for name in names.iter() {
                let current = error(ps, &s, k);
                let mut best = (current, None);
                for v in grid(name) {
                    let mut t = s;
                    set_field(&mut t, name, v);
                    let e = error(ps, &t, k);
                    if e < best.0 - 1e-12 {
                        best = (e, Some(v));
                    }
                }
                if let Some(v) = best.1 {
                    set_field(&mut s, name, v);
                    moved = true;
                }
            }
            if !moved {
                break;
            }
        }
    }
    s
}

fn main() {
    let (mut data, mut check) = (Vec::new(), Vec::new());
    let (mut k, mut k_sf) = (1.538, 2.3591);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || {
            args.next().unwrap_or_else(|| {
                eprintln!("{a} needs a value");
                std::process::exit(2)
            })
        };
        match a.as_str() {
            "--data" => data.push(value()),
            "--check" => check.push(value()),
            "--k" => k = value().parse().expect("--k: a number"),
            "--k-sf" => k_sf = value().parse().expect("--k-sf: a number"),
            _ => {
                eprintln!(
                    "usage: chess_scale_fit --data FILE.. [--check FILE..] [--k K] [--k-sf K]"
                );
                std::process::exit(2)
            }
        }
    }
    let train: Vec<Position> = data.iter().flat_map(|f| read(f, k_sf)).collect();
    let fitted = fit(&train, k);
    let report = |name: &str, set: &[Position]| {
        let mean = |s: &EndgameScales| error(set, s, k) / set.len().max(1) as f64;
        println!(
            "{name} ({} positions): unscaled {:.6}, compiled-in {:.6}, fitted {:.6}",
            set.len(),
            mean(&neutral()),
            mean(&ENDGAME_SCALES),
            mean(&fitted)
        );
    };
    report("training", &train);
    for f in &check {
        let set = read(f, k_sf);
        report(f, &set);
        for (names, of) in by_kind(&set) {
            report(&format!("  {}", names[0]), &of);
        }
    }
    let mut fitted = fitted;
    for (name, v) in fitted.fields_mut() {
        println!("    {name}: {v},");
    }
}
