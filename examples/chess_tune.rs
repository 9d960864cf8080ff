//! Texel tuning of ply's chess evaluation (`src/games/chess/eval.rs`): fits every weight of
//! the table in `src/games/chess/weights.rs` to game results, and writes the table back.
//!
//! Input: lines `<FEN> | <result> [| <score>]`, the result White's score in the game (1.0,
//! 0.5, 0.0) and the optional score Stockfish's evaluation of the position (centipawns, White's
//! view), as written by `scripts/tuning/chess_texel_data.py` (quiet positions from Stockfish's games,
//! in game order). The last `--validation` share of the lines, whole games, is held out.
//!
//! Method (Peter Österlund's "Texel" tuning): the evaluation `e` (White's view, centipawns)
//! predicts White's score as `sigmoid(K * e / 400)`; `K` is fitted first to the starting
//! weights (or given, `--k`, to keep the evaluation's scale from one round to the next), then the weights minimise the mean squared error between prediction and label.
//! The label is the game result (`--lambda 1`, the default) or a blend
//! `lambda * result + (1 - lambda) * sigmoid(K_sf * score / 400)`, with `K_sf` fitted so that
//! Stockfish's scores best predict the results: the game's result is one noisy outcome shared
//! by every position of the game, and with a few thousand games the weights learn the games
//! rather than chess; Stockfish's own judgement of each position lowers that noise.
//! The held-out games get the same labels (with the training data's `K_sf`); the early
//! stopping watches their label error, and every report also gives the error against the
//! game results, the measure that does not depend on the blend.
//!
//! The evaluation is linear in the weights, so each position is stored once as its phase and
//! its feature counts (`eval::trace`), and full-batch gradient descent (Adam) runs over those.
//! The weights kept are those of the epoch with the lowest held-out error (early stopping, so
//! that error is slightly optimistic). Then each piece-square table's mean moves into the
//! piece's material value (the evaluation is unchanged; the tables read as bonuses around
//! zero), and the weights are rounded to integers, which is what the engine uses and what the
//! final errors are measured on.
//!
//! `scripts/tuning/chess_tune.sh` runs it; `--help` lists the options.

use std::io::{BufRead, BufReader};
use std::time::Instant;

use ply::game::Game;
use ply::games::Chess;
use ply::games::chess::eval::{self, GROUPS, NUM_WEIGHTS, PST, S};
use ply::games::chess::weights::WEIGHTS;

#[path = "texel/mod.rs"]
mod texel;
use texel::{Set, error, gradient, minimise, sigmoid};

struct Options {
    data: String,
    /// A weights.rs to start from instead of the compiled-in table.
    from: Option<String>,
    out: Option<String>,
    epochs: usize,
    rate: f64,
    lambda: f64,
    validation: f64,
    limit: usize,
    threads: usize,
    /// Only the weights from this index on are fitted (the others keep their values, and
    /// the piece-square tables are not re-centred).
    tune_from: usize,
    /// Whose games and scores the data holds, for the table's header.
    source: String,
    /// Where the positions come from, for the table's header, when they are not all
    /// `source`'s self-play games.
    data_about: Option<String>,
    /// `K` as given, instead of fitted to the starting weights: fitting it again at each
    /// round lets the evaluation's scale drift (a lower `K`, larger scores), which moves
    /// every centipawn margin of the search with it.
    k: Option<f64>,
    /// `K_sf`, given instead of fitted: keeps the labels' scale when data from other games
    /// (whose results Stockfish's scores predict differently) joins the set.
    k_sf: Option<f64>,
}

const USAGE: &str = "usage: chess_tune --data FILE [--from weights.rs] [--out weights.rs] \
[--epochs N (2000)] [--rate R (1.0)] [--lambda L (1.0)] [--validation F (0.1)] [--limit N] [--threads N (1)] \
[--tune-from INDEX (0)] [--source NAME (Stockfish)] [--data-about TEXT] [--k K (fitted)] \
[--k-sf K (fitted)]";

fn options() -> Options {
    let mut o = Options {
        data: String::new(),
        from: None,
        out: None,
        epochs: 2000,
        rate: 1.0,
        lambda: 1.0,
        validation: 0.1,
        limit: usize::MAX,
        threads: 1,
        tune_from: 0,
        source: "Stockfish".to_string(),
        data_about: None,
        k: None,
        k_sf: None,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let fail = |msg: String| -> ! {
        eprintln!("{msg}\n{USAGE}");
        std::process::exit(1)
    };
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        if flag == "--help" || flag == "-h" {
            println!("{USAGE}");
            std::process::exit(0)
        }
        let Some(value) = args.get(i + 1) else {
            fail(format!("{flag} needs a value"))
        };
        let number = |what: &str| -> f64 {
            value
                .parse()
                .unwrap_or_else(|_| fail(format!("{what}: '{value}' is not a number")))
        };
        match flag {
            "--data" => o.data = value.clone(),
            "--from" => o.from = Some(value.clone()),
            "--out" => o.out = Some(value.clone()),
            "--epochs" => o.epochs = number(flag) as usize,
            "--rate" => o.rate = number(flag),
            "--lambda" => o.lambda = number(flag).clamp(0.0, 1.0),
            "--validation" => o.validation = number(flag).clamp(0.0, 0.9),
            "--limit" => o.limit = number(flag) as usize,
            "--threads" => o.threads = (number(flag) as usize).max(1),
            "--tune-from" => o.tune_from = number(flag) as usize,
            "--source" => o.source = value.clone(),
            "--data-about" => o.data_about = Some(value.clone()),
            "--k" => o.k = Some(number(flag)).filter(|&k| k > 0.0),
            "--k-sf" => o.k_sf = Some(number(flag)).filter(|&k| k > 0.0),
            other => fail(format!("unknown option {other}")),
        }
        i += 2;
    }
    if o.data.is_empty() {
        fail("--data is required".into());
    }
    o
}

/// The weights of a `weights.rs` file: every `S(mg, eg)` after the table's declaration.
fn read_table(path: &str) -> Vec<S> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1)
    });
    let body = &text[text.find("WEIGHTS").unwrap_or(0)..];
    let table: Vec<S> = body
        .split("S(")
        .skip(1)
        .filter_map(|t| {
            let (pair, _) = t.split_once(')')?;
            let (a, b) = pair.split_once(',')?;
            Some(S(a.trim().parse().ok()?, b.trim().parse().ok()?))
        })
        .collect();
    if table.len() != NUM_WEIGHTS {
        eprintln!("{path}: {} weights, expected {NUM_WEIGHTS}", table.len());
        std::process::exit(1)
    }
    table
}

/// One data line: FEN, result, and Stockfish's score (NaN when absent).
fn parse_line(line: &str) -> Option<(&str, f32, f32)> {
    let mut fields = line.split('|');
    let fen = fields.next()?.trim();
    let result: f32 = fields.next()?.trim().parse().ok()?;
    let score = match fields.next() {
        Some(s) => s.trim().parse().ok()?,
        None => f32::NAN,
    };
    ((0.0..=1.0).contains(&result) && fields.next().is_none()).then_some((fen, result, score))
}

fn read(o: &Options) -> (Set, Set, usize) {
    let file = std::fs::File::open(&o.data).unwrap_or_else(|e| {
        eprintln!("{}: {e}", o.data);
        std::process::exit(1)
    });
    let mut lines: Vec<String> = Vec::new();
    for line in BufReader::new(file).lines() {
        lines.push(line.expect("readable data"));
        if lines.len() >= o.limit {
            break;
        }
    }
    let split = lines.len() - (lines.len() as f64 * o.validation) as usize;
    let rules = Chess::default();
    let (mut train, mut valid) = (Set::default(), Set::default());
    let mut skipped = 0;
    for (i, line) in lines.iter().enumerate() {
        let Some((fen, result, score)) = parse_line(line) else {
            skipped += 1;
            continue;
        };
        // Finished positions carry no evaluation: the search never asks for one.
        let Ok(pos) = rules.from_fen(fen) else {
            skipped += 1;
            continue;
        };
        if pos.outcome().is_some() {
            skipped += 1;
            continue;
        }
        let set = if i < split { &mut train } else { &mut valid };
        let t = eval::trace(pos.board());
        let share = t.phase as f32 / 24.0;
        let scale = t.eg_scale as f32 / eval::SCALE_NORMAL as f32;
        set.push(&t.counts, share, scale, result, score);
    }
    (train, valid, skipped)
}

/// The `K_sf` with which Stockfish's scores best predict the results, over the positions of
/// `set` that have a score.
fn fit_k_sf(set: &Set) -> Option<f64> {
    let scored: Vec<usize> = (0..set.len()).filter(|&p| !set.score[p].is_nan()).collect();
    if scored.is_empty() {
        return None;
    }
    Some(minimise(0.05, 5.0, |k| {
        scored
            .iter()
            .map(|&p| {
                let d = sigmoid(k, set.score[p] as f64) - set.result[p] as f64;
                d * d
            })
            .sum()
    }))
}

/// Sets the labels of the positions that have Stockfish's score to the blend.
fn blend_labels(set: &mut Set, lambda: f64, k_sf: f64) {
    for p in 0..set.len() {
        if !set.score[p].is_nan() {
            let sf = sigmoid(k_sf, set.score[p] as f64);
            set.label[p] = (lambda * set.result[p] as f64 + (1.0 - lambda) * sf) as f32;
        }
    }
}

/// Moves each piece-square table's mean (over the squares the piece can stand on) into its
/// material value; the king, which has no material weight, only gets its table centred.
fn centre_tables(w: &mut [f64]) {
    for piece in 0..6 {
        for phase in 0..2 {
            let squares: Vec<usize> = (0..64)
                .filter(|sq| piece != 0 || (8..56).contains(sq))
                .collect();
            let at = |sq: usize| 2 * (PST + piece * 64 + sq) + phase;
            let mean = squares.iter().map(|&sq| w[at(sq)]).sum::<f64>() / squares.len() as f64;
            for &sq in &squares {
                w[at(sq)] -= mean;
            }
            if piece < 5 {
                w[2 * (eval::MATERIAL + piece) + phase] += mean;
            }
        }
    }
}

fn to_table(w: &[f64]) -> Vec<S> {
    (0..NUM_WEIGHTS)
        .map(|i| S(w[2 * i].round() as i32, w[2 * i + 1].round() as i32))
        .collect()
}

/// Full-batch Adam from `w`; returns the weights of the epoch with the lowest held-out label
/// error, and that epoch.
fn descend(o: &Options, train: &Set, valid: &Set, mut w: Vec<f64>, k: f64) -> (Vec<f64>, usize) {
    let t0 = Instant::now();
    let (beta1, beta2, eps): (f64, f64, f64) = (0.9, 0.999, 1e-8);
    let mut m = vec![0.0; w.len()];
    let mut v = vec![0.0; w.len()];
    let held_out = |w: &[f64]| error(valid, &valid.label, w, k, o.threads);
    let mut best = (held_out(&w), w.clone(), 0);
    for epoch in 1..=o.epochs {
        let g = gradient(train, &w, k, o.threads);
        let (c1, c2) = (
            1.0 - beta1.powi(epoch as i32),
            1.0 - beta2.powi(epoch as i32),
        );
        for i in 2 * o.tune_from..w.len() {
            m[i] = beta1 * m[i] + (1.0 - beta1) * g[i];
            v[i] = beta2 * v[i] + (1.0 - beta2) * g[i] * g[i];
            w[i] -= o.rate * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
        }
        if epoch % 10 == 0 && valid.len() > 0 {
            let e = held_out(&w);
            if e < best.0 {
                best = (e, w.clone(), epoch);
            }
        }
        if epoch % 100 == 0 || epoch == o.epochs {
            eprintln!(
                "epoch {epoch}: labels: training {:.6}, held out {:.6}; results: training {:.6}, held out {:.6} ({:.0} s)",
                error(train, &train.label, &w, k, o.threads),
                held_out(&w),
                error(train, &train.result, &w, k, o.threads),
                error(valid, &valid.result, &w, k, o.threads),
                t0.elapsed().as_secs_f64()
            );
        }
    }
    if valid.len() == 0 {
        return (w, o.epochs);
    }
    (best.1, best.2)
}

fn main() {
    let o = options();
    let t0 = Instant::now();
    let (mut train, mut valid, skipped) = read(&o);
    eprintln!(
        "{} training and {} held-out positions ({skipped} lines skipped), read in {:.1} s",
        train.len(),
        valid.len(),
        t0.elapsed().as_secs_f64()
    );
    let k_sf = o
        .k_sf
        .or_else(|| fit_k_sf(&train))
        .filter(|_| o.lambda < 1.0);
    if let Some(k_sf) = k_sf {
        blend_labels(&mut train, o.lambda, k_sf);
        blend_labels(&mut valid, o.lambda, k_sf);
        eprintln!(
            "labels: {} x result + {} x sigmoid({k_sf:.4} x Stockfish / 400)",
            o.lambda,
            1.0 - o.lambda
        );
    }
    let start = match &o.from {
        Some(path) => read_table(path),
        None => WEIGHTS.to_vec(),
    };
    let w: Vec<f64> = start
        .iter()
        .flat_map(|s| [s.0 as f64, s.1 as f64])
        .collect();
    let k = o.k.unwrap_or_else(|| {
        minimise(0.05, 5.0, |k| {
            error(&train, &train.result, &w, k, o.threads)
        })
    });
    // Errors against the results (training, held out) and the labels (held out).
    let errors = |w: &[f64]| {
        [
            error(&train, &train.result, w, k, o.threads),
            error(&valid, &valid.result, w, k, o.threads),
            error(&valid, &valid.label, w, k, o.threads),
        ]
    };
    let before = errors(&w);
    eprintln!(
        "K = {k:.4}; before: results: training {:.6}, held out {:.6}; labels: held out {:.6}",
        before[0], before[1], before[2]
    );

    let (mut w, epoch) = descend(&o, &train, &valid, w, k);
    eprintln!("keeping epoch {epoch}");
    if o.tune_from == 0 {
        centre_tables(&mut w);
    }
    let table = to_table(&w);
    let rounded: Vec<f64> = table
        .iter()
        .flat_map(|s| [s.0 as f64, s.1 as f64])
        .collect();
    let after = errors(&rounded);
    eprintln!(
        "after (integer weights): results: training {:.6}, held out {:.6}; labels: held out {:.6}",
        after[0], after[1], after[2]
    );
    for g in GROUPS.iter().filter(|g| g.len <= 8) {
        eprintln!("{:>20}: {:?}", g.name, &table[g.start..g.start + g.len]);
    }
    let Some(out) = &o.out else { return };
    let labels = match k_sf {
        Some(k_sf) => format!(
            "{} x result + {} x sigmoid({k_sf:.4} x {}'s score / 400)",
            o.lambda,
            1.0 - o.lambda,
            o.source
        ),
        None => "the game results".to_string(),
    };
    let fitted = if o.tune_from == 0 {
        String::new()
    } else {
        format!(
            "//! - Only the weights from index {} on were fitted; the others were kept from the table\n\
             //!   started from (docs/chess.md, Tuning, has how each part was made).\n",
            o.tune_from
        )
    };
    let data = match &o.data_about {
        Some(about) => doc_item(&format!(
            "Data: {} quiet positions {about}; {} more held out.",
            train.len(),
            valid.len()
        )),
        None => format!(
            "//! - Data: {} quiet positions from {}'s self-play games, {} more from later\n\
             //!   games held out.\n",
            train.len(),
            o.source,
            valid.len()
        ),
    };
    let header = format!(
        "//! The chess evaluation's weights (see `eval.rs` for the features and the table's layout).\n\
         //!\n\
         //! Written by `scripts/tuning/chess_tune.sh` (`examples/chess_tune.rs`, Texel tuning).\n\
         {data}\
         //! - Labels: {labels}.\n\
         {fitted}\
         //! - Fit: {epoch} epochs. Mean squared error of sigmoid(K * eval / 400), K = {k:.4},\n\
         //!   against the game results: training {:.6} before, {:.6} after; held out {:.6}\n\
         //!   before, {:.6} after. Against the labels, held out: {:.6} before, {:.6} after.\n\n",
        before[0], after[0], before[1], after[1], before[2], after[2]
    );
    std::fs::write(out, eval::table_source(&table, &header)).unwrap_or_else(|e| {
        eprintln!("{out}: {e}");
        std::process::exit(1)
    });
    eprintln!("wrote {out}");
}

/// `text` as a list item of the table's doc comment: `//! - ` and then `//!   ` on the lines
/// it wraps to, each within 92 columns.
fn doc_item(text: &str) -> String {
    let mut out = String::new();
    let mut line = String::from("//! -");
    for word in text.split_whitespace() {
        if line.len() + 1 + word.len() > 92 && line.len() > 6 {
            out.push_str(&line);
            out.push('\n');
            line = String::from("//!  ");
        }
        line.push(' ');
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}
