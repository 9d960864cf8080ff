//! Texel tuning of ply's chess evaluation (`src/games/chess/eval.rs`): fits every weight of
//! the table in `src/games/chess/weights.rs` to game results, and writes the table back.
//!
//! Input: lines `<FEN> | <result>`, the result White's score (1.0, 0.5, 0.0), as written by
//! `scripts/chess_texel_data.py` (quiet positions from Stockfish's games). The last
//! `--validation` share of the lines (whole games, since the file is in game order) is held
//! out and only measured.
//!
//! Method (Peter Österlund's "Texel" tuning): the evaluation `e` (White's view, centipawns)
//! predicts White's score as `sigmoid(K * e / 400)`; `K` is fitted first to the starting
//! weights, then the weights minimise the mean squared error between prediction and result.
//! The evaluation is linear in the weights, so each position is stored once as its phase and
//! its feature counts (`eval::trace`), and full-batch gradient descent (Adam) runs over those.
//! Afterwards each piece-square table's mean moves into the piece's material value (the
//! evaluation is unchanged; the tables read as bonuses around zero), and the weights are
//! rounded to integers, which is what the engine uses and what the final error is measured on.
//! The weights kept are those of the epoch with the lowest error on the held-out positions
//! (early stopping), so the held-out error is slightly optimistic.
//!
//! `scripts/chess_tune.sh` runs it; `--help` lists the options.

use std::io::{BufRead, BufReader};
use std::time::Instant;

use ply::game::Game;
use ply::games::Chess;
use ply::games::chess::eval::{self, GROUPS, NUM_WEIGHTS, PST, S};
use ply::games::chess::weights::WEIGHTS;

struct Options {
    data: String,
    /// A weights.rs to start from instead of the compiled-in table.
    from: Option<String>,
    out: Option<String>,
    epochs: usize,
    rate: f64,
    validation: f64,
    limit: usize,
    threads: usize,
}

const USAGE: &str = "usage: chess_tune --data FILE [--from weights.rs] [--out weights.rs] [--epochs N] [--rate R] [--validation F] [--limit N] [--threads N]";

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

fn options() -> Options {
    let mut o = Options {
        data: String::new(),
        from: None,
        out: None,
        epochs: 2000,
        rate: 1.0,
        validation: 0.1,
        limit: usize::MAX,
        threads: 1,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = || -> &str {
            args.get(i + 1).map(String::as_str).unwrap_or_else(|| {
                eprintln!("{} needs a value\n{USAGE}", args[i]);
                std::process::exit(1)
            })
        };
        let bad = |what: &str| -> ! {
            eprintln!("{what}: bad value\n{USAGE}");
            std::process::exit(1)
        };
        match args[i].as_str() {
            "--data" => o.data = value().to_string(),
            "--out" => o.out = Some(value().to_string()),
            "--from" => o.from = Some(value().to_string()),
            "--epochs" => o.epochs = value().parse().unwrap_or_else(|_| bad("--epochs")),
            "--rate" => o.rate = value().parse().unwrap_or_else(|_| bad("--rate")),
            "--validation" => {
                o.validation = value().parse().unwrap_or_else(|_| bad("--validation"))
            }
            "--limit" => o.limit = value().parse().unwrap_or_else(|_| bad("--limit")),
            "--threads" => o.threads = value().parse().unwrap_or_else(|_| bad("--threads")),
            "--help" | "-h" => {
                println!("{USAGE}");
                std::process::exit(0)
            }
            other => bad(other),
        }
        i += 2;
    }
    if o.data.is_empty() {
        eprintln!("{USAGE}");
        std::process::exit(1);
    }
    o
}

/// Positions as the tuner sees them: for position `p`, its counts are
/// `counts[start[p]..start[p + 1]]`.
#[derive(Default)]
struct Set {
    start: Vec<u32>,
    counts: Vec<(u16, i16)>,
    /// Phase / 24, in 0..=1: the midgame share.
    mg: Vec<f32>,
    result: Vec<f32>,
}

impl Set {
    fn len(&self) -> usize {
        self.result.len()
    }

    fn push(&mut self, t: eval::Trace, result: f32) {
        if self.start.is_empty() {
            self.start.push(0);
        }
        self.counts.extend_from_slice(&t.counts);
        self.start.push(self.counts.len() as u32);
        self.mg.push(t.phase as f32 / 24.0);
        self.result.push(result);
    }

    /// White's evaluation of position `p` under weights `w` (`w[2i]` midgame, `w[2i+1]` endgame).
    #[inline]
    fn eval(&self, p: usize, w: &[f64]) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(i, n) in &self.counts[self.start[p] as usize..self.start[p + 1] as usize] {
            mg += w[2 * i as usize] * n as f64;
            eg += w[2 * i as usize + 1] * n as f64;
        }
        let phase = self.mg[p] as f64;
        mg * phase + eg * (1.0 - phase)
    }
}

fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + (-k * e / 400.0).exp())
}

fn read(o: &Options) -> (Set, Set, usize) {
    let file = std::fs::File::open(&o.data).unwrap_or_else(|e| {
        eprintln!("{}: {e}", o.data);
        std::process::exit(1)
    });
    let start = Chess::default();
    let mut lines: Vec<(String, f32)> = Vec::new();
    let mut skipped = 0;
    for line in BufReader::new(file).lines() {
        let line = line.expect("readable data");
        let Some((fen, result)) = line.rsplit_once('|') else {
            skipped += 1;
            continue;
        };
        match result.trim().parse::<f32>() {
            Ok(r) if (0.0..=1.0).contains(&r) => lines.push((fen.trim().to_string(), r)),
            _ => skipped += 1,
        }
        if lines.len() >= o.limit {
            break;
        }
    }
    let held = (lines.len() as f64 * o.validation) as usize;
    let split = lines.len() - held;
    let (mut train, mut valid) = (Set::default(), Set::default());
    for (i, (fen, r)) in lines.iter().enumerate() {
        let Ok(pos) = start.from_fen(fen) else {
            skipped += 1;
            continue;
        };
        // Finished positions carry no evaluation; the search never asks for one.
        if pos.outcome().is_some() {
            skipped += 1;
            continue;
        }
        let t = eval::trace(pos.board());
        if i < split {
            train.push(t, *r);
        } else {
            valid.push(t, *r);
        }
    }
    (train, valid, skipped)
}

/// Mean squared error of `set` under `w` and `k`, on `threads` threads.
fn error(set: &Set, w: &[f64], k: f64, threads: usize) -> f64 {
    let chunks = split_range(set.len(), threads);
    let total: f64 = std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .iter()
            .map(|r| {
                let r = r.clone();
                s.spawn(move || {
                    r.map(|p| {
                        let d = sigmoid(k, set.eval(p, w)) - set.result[p] as f64;
                        d * d
                    })
                    .sum::<f64>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    total / set.len().max(1) as f64
}

fn split_range(n: usize, parts: usize) -> Vec<std::ops::Range<usize>> {
    let parts = parts.max(1);
    (0..parts)
        .map(|i| n * i / parts..n * (i + 1) / parts)
        .collect()
}

/// The gradient of the mean squared error with respect to every weight.
fn gradient(set: &Set, w: &[f64], k: f64, threads: usize) -> Vec<f64> {
    let chunks = split_range(set.len(), threads);
    let parts: Vec<Vec<f64>> = std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .iter()
            .map(|r| {
                let r = r.clone();
                s.spawn(move || {
                    let mut g = vec![0.0; w.len()];
                    for p in r {
                        let sig = sigmoid(k, set.eval(p, w));
                        let d = 2.0 * (sig - set.result[p] as f64) * sig * (1.0 - sig) * k / 400.0;
                        let phase = set.mg[p] as f64;
                        let counts = &set.counts[set.start[p] as usize..set.start[p + 1] as usize];
                        for &(i, n) in counts {
                            g[2 * i as usize] += d * n as f64 * phase;
                            g[2 * i as usize + 1] += d * n as f64 * (1.0 - phase);
                        }
                    }
                    g
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let n = set.len().max(1) as f64;
    let mut g = vec![0.0; w.len()];
    for part in parts {
        for (a, b) in g.iter_mut().zip(part) {
            *a += b / n;
        }
    }
    g
}

/// The `K` that minimises the error of the starting weights (golden-section search).
fn fit_k(set: &Set, w: &[f64], threads: usize) -> f64 {
    let (mut a, mut b) = (0.05f64, 5.0f64);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let c = b - phi * (b - a);
        let d = a + phi * (b - a);
        if error(set, w, c, threads) < error(set, w, d, threads) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
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

fn main() {
    let o = options();
    let t0 = Instant::now();
    let (train, valid, skipped) = read(&o);
    eprintln!(
        "{} training and {} validation positions ({} lines skipped), read in {:.1} s",
        train.len(),
        valid.len(),
        skipped,
        t0.elapsed().as_secs_f64()
    );
    let start = match &o.from {
        Some(path) => read_table(path),
        None => WEIGHTS.to_vec(),
    };
    let mut w: Vec<f64> = start
        .iter()
        .flat_map(|s| [s.0 as f64, s.1 as f64])
        .collect();
    let k = fit_k(&train, &w, o.threads);
    let before = (
        error(&train, &w, k, o.threads),
        error(&valid, &w, k, o.threads),
    );
    eprintln!(
        "K = {k:.4}; error before: training {:.6}, validation {:.6}",
        before.0, before.1
    );

    // Adam, full batch.
    let (beta1, beta2, eps) = (0.9, 0.999, 1e-8);
    let mut m = vec![0.0; w.len()];
    let mut v = vec![0.0; w.len()];
    // Early stopping: the weights of the epoch with the lowest validation error are kept.
    let mut best = (before.1, w.clone(), 0);
    for epoch in 1..=o.epochs {
        let g = gradient(&train, &w, k, o.threads);
        for i in 0..w.len() {
            m[i] = beta1 * m[i] + (1.0 - beta1) * g[i];
            v[i] = beta2 * v[i] + (1.0 - beta2) * g[i] * g[i];
            let mh = m[i] / (1.0 - beta1.powi(epoch as i32));
            let vh = v[i] / (1.0 - beta2.powi(epoch as i32));
            w[i] -= o.rate * mh / (vh.sqrt() + eps);
        }
        if epoch % 10 == 0 && valid.len() > 0 {
            let e = error(&valid, &w, k, o.threads);
            if e < best.0 {
                best = (e, w.clone(), epoch);
            }
        }
        if epoch % 100 == 0 || epoch == o.epochs {
            eprintln!(
                "epoch {epoch}: training {:.6}, validation {:.6} ({:.0} s)",
                error(&train, &w, k, o.threads),
                error(&valid, &w, k, o.threads),
                t0.elapsed().as_secs_f64()
            );
        }
    }
    if valid.len() > 0 {
        eprintln!("keeping epoch {} (lowest validation error)", best.2);
        w = best.1;
    }
    centre_tables(&mut w);
    let table = to_table(&w);
    let rounded: Vec<f64> = table
        .iter()
        .flat_map(|s| [s.0 as f64, s.1 as f64])
        .collect();
    let after = (
        error(&train, &rounded, k, o.threads),
        error(&valid, &rounded, k, o.threads),
    );
    eprintln!(
        "error after (integer weights): training {:.6}, validation {:.6}",
        after.0, after.1
    );
    for g in GROUPS.iter().filter(|g| g.len <= 8) {
        eprintln!("{:>20}: {:?}", g.name, &table[g.start..g.start + g.len]);
    }
    if let Some(out) = &o.out {
        let header = format!(
            "//! The chess evaluation's weights (see `eval.rs` for the features and the table's layout).\n\
             //!\n\
             //! Written by `scripts/chess_tune.sh` (`examples/chess_tune.rs`, Texel tuning): fitted to\n\
             //! {} quiet positions from Stockfish's self-play games, {} more held out. Mean squared\n\
             //! error of the predicted score, sigmoid(K * eval / 400) with K = {k:.4}, against the\n\
             //! game results: {:.6} before, {:.6} after on the training positions; {:.6} before,\n\
             //! {:.6} after on the held-out ones.\n\n",
            train.len(),
            valid.len(),
            before.0,
            after.0,
            before.1,
            after.1
        );
        std::fs::write(out, eval::table_source(&table, &header)).unwrap_or_else(|e| {
            eprintln!("{out}: {e}");
            std::process::exit(1)
        });
        eprintln!("wrote {out}");
    }
}
