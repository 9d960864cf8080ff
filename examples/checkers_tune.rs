//! Texel tuning of ply's checkers evaluation (`src/games/checkers/eval.rs`): fits every
//! weight of `src/games/checkers/weights.rs` to games, and writes the table back.
//!
//! Input: `ply-referee` records (JSON Lines, `--records`) of checkers games whose moves carry
//! the engines' scores (`cp N`, the mover's view). Every position of a finished game where
//! the side to move has no capture (the positions the search evaluates: with a capture on, it
//! searches on) is kept with the game's result for Black and the score searched for it, turned
//! to Black's view (left out when it is not `cp`, or 1,000 or more: won endings the databases
//! or the search had settled). The last `--validation` share of the games is held out.
//!
//! Method (Peter Österlund's "Texel" tuning, as `examples/chess_tune.rs`): the evaluation `e`
//! (Black's view) predicts Black's score as `sigmoid(K * e / 400)`, `K` fitted to the starting
//! weights; the label is `lambda * result + (1 - lambda) * sigmoid(K_s * score / 400)`, `K_s`
//! fitted so that the searched scores best predict the results (a game's result is one noisy
//! outcome shared by all its positions; the search's judgement of each position lowers the
//! noise). The evaluation is linear in the weights (`eval::trace` gives each position's
//! feature counts and piece count), so full-batch gradient descent (Adam) fits them, starting
//! from the table compiled into this build (a new feature starts at zero); the
//! epoch with the lowest held-out error is kept, then the weights are rounded to integers
//! and the errors measured again on those.
//!
//! ```text
//! cargo run --release --example checkers_tune -- --out src/games/checkers/weights.rs \
//!     --lambda 0.5 RECORDS.jsonl ...
//! ```

use std::io::{BufRead, BufReader};
use std::time::Instant;

use ply::game::{Game, Player};
use ply::games::Checkers;
use ply::games::checkers::eval::{self, FULL, GROUPS, NUM_WEIGHTS, S};
use ply::games::checkers::weights::WEIGHTS;
use ply::referee::records::GameRecord;

#[path = "texel/mod.rs"]
mod texel;
use texel::{Set, error, gradient, minimise, sigmoid};

struct Options {
    records: Vec<String>,
    out: Option<String>,
    epochs: usize,
    rate: f64,
    lambda: f64,
    validation: f64,
    threads: usize,
}

const USAGE: &str = "usage: checkers_tune [--out weights.rs] [--epochs N (2000)] [--rate R (0.5)] \
[--lambda L (0.5)] [--validation F (0.1)] [--threads N (2)] RECORDS.jsonl ...";

fn options() -> Options {
    let mut o = Options {
        records: Vec::new(),
        out: None,
        epochs: 2000,
        rate: 0.5,
        lambda: 0.5,
        validation: 0.1,
        threads: 2,
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
        if !flag.starts_with("--") {
            o.records.push(args[i].clone());
            i += 1;
            continue;
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
            "--out" => o.out = Some(value.clone()),
            "--epochs" => o.epochs = number(flag) as usize,
            "--rate" => o.rate = number(flag),
            "--lambda" => o.lambda = number(flag).clamp(0.0, 1.0),
            "--validation" => o.validation = number(flag).clamp(0.0, 0.9),
            "--threads" => o.threads = (number(flag) as usize).max(1),
            other => fail(format!("unknown option {other}")),
        }
        i += 2;
    }
    if o.records.is_empty() {
        fail("no records given".into());
    }
    o
}

/// Every finished checkers game of the files, in order.
fn games(paths: &[String]) -> Vec<GameRecord> {
    let mut out = Vec::new();
    for path in paths {
        let file = std::fs::File::open(path).unwrap_or_else(|e| {
            eprintln!("{path}: {e}");
            std::process::exit(1)
        });
        for line in BufReader::new(file).lines() {
            let line = line.expect("readable records");
            let Ok(g) = serde_json::from_str::<GameRecord>(&line) else {
                continue;
            };
            if g.game == "checkers" && ["1-0", "0-1", "1/2-1/2"].contains(&g.result.as_str()) {
                out.push(g);
            }
        }
    }
    out
}

/// The kept positions of one game into `set`; false if a move does not replay.
fn replay(g: &GameRecord, set: &mut Set, counts: &mut Vec<(u16, i16)>) -> bool {
    let result = match g.result.as_str() {
        "1-0" => 1.0,
        "0-1" => 0.0,
        _ => 0.5,
    };
    let rules = Checkers::default();
    let mut pos = match &g.opening.fen {
        Some(fen) => match rules.from_fen(fen) {
            Ok(p) => p,
            Err(_) => return false,
        },
        None => rules,
    };
    for mv in &g.opening.moves {
        match pos.parse_move(mv) {
            Ok(m) => pos.play(m),
            Err(_) => return false,
        }
    }
    for m in &g.moves {
        let cp = m
            .score
            .as_deref()
            .and_then(|s| s.strip_prefix("cp "))
            .and_then(|s| s.parse::<i32>().ok());
        if let Some(cp) = cp.filter(|cp| cp.abs() < 1000)
            && !pos.must_capture()
            && pos.outcome().is_none()
        {
            let black = match pos.side_to_move() {
                Player::First => cp,
                Player::Second => -cp,
            };
            let pieces = eval::trace(pos.board(), counts);
            set.push(
                counts,
                pieces.min(FULL) as f32 / FULL as f32,
                1.0,
                result,
                black as f32,
            );
        }
        match pos.parse_move(&m.mv) {
            Ok(mv) => pos.play(mv),
            Err(_) => return false,
        }
    }
    true
}

/// Full-batch Adam from `w`; the weights of the epoch with the lowest held-out label error,
/// and that epoch.
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
        for i in 0..w.len() {
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
        if epoch % 200 == 0 || epoch == o.epochs {
            eprintln!(
                "epoch {epoch}: labels: training {:.6}, held out {:.6} ({:.0} s)",
                error(train, &train.label, &w, k, o.threads),
                held_out(&w),
                t0.elapsed().as_secs_f64()
            );
        }
    }
    if valid.len() == 0 {
        return (w, o.epochs);
    }
    (best.1, best.2)
}

/// The table as Rust source, one commented group after another.
fn table_source(table: &[S], header: &str) -> String {
    let mut s = String::from(header);
    s.push_str("use super::eval::{NUM_WEIGHTS, S};\n\n#[rustfmt::skip]\n");
    s.push_str("pub static WEIGHTS: [S; NUM_WEIGHTS] = [\n");
    for (start, name, len) in GROUPS {
        s.push_str(&format!("    // {name}\n"));
        for row in table[start..start + len].chunks(4) {
            let cells: Vec<String> = row
                .iter()
                .map(|w| format!("S({}, {}),", w.0, w.1))
                .collect();
            s.push_str(&format!("    {}\n", cells.join(" ")));
        }
    }
    s.push_str("];\n");
    s
}

fn main() {
    let o = options();
    let t0 = Instant::now();
    let all = games(&o.records);
    let split = all.len() - (all.len() as f64 * o.validation) as usize;
    let (mut train, mut valid) = (Set::default(), Set::default());
    let mut counts = Vec::new();
    let mut broken = 0;
    for (i, g) in all.iter().enumerate() {
        let set = if i < split { &mut train } else { &mut valid };
        if !replay(g, set, &mut counts) {
            broken += 1;
        }
    }
    eprintln!(
        "{} games ({broken} did not replay to the end); {} training and {} held-out positions, read in {:.1} s",
        all.len(),
        train.len(),
        valid.len(),
        t0.elapsed().as_secs_f64()
    );
    let k_s = minimise(0.05, 30.0, |k| {
        (0..train.len())
            .map(|p| {
                let d = sigmoid(k, train.score[p] as f64) - train.result[p] as f64;
                d * d
            })
            .sum()
    });
    for set in [&mut train, &mut valid] {
        for p in 0..set.len() {
            let s = sigmoid(k_s, set.score[p] as f64);
            set.label[p] = (o.lambda * set.result[p] as f64 + (1.0 - o.lambda) * s) as f32;
        }
    }
    let labels = format!(
        "{} x result + {} x sigmoid({k_s:.4} x score / 400)",
        o.lambda,
        1.0 - o.lambda
    );
    eprintln!("labels: {labels}");
    let w: Vec<f64> = WEIGHTS
        .iter()
        .flat_map(|s| [s.0 as f64, s.1 as f64])
        .collect();
    let k = minimise(0.05, 30.0, |k| {
        error(&train, &train.result, &w, k, o.threads)
    });
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
    let (w, epoch) = descend(&o, &train, &valid, w, k);
    let table: Vec<S> = (0..NUM_WEIGHTS)
        .map(|i| S(w[2 * i].round() as i32, w[2 * i + 1].round() as i32))
        .collect();
    let rounded: Vec<f64> = table
        .iter()
        .flat_map(|s| [s.0 as f64, s.1 as f64])
        .collect();
    let after = errors(&rounded);
    eprintln!(
        "kept epoch {epoch}; after (integer weights): results: training {:.6}, held out {:.6}; labels: held out {:.6}",
        after[0], after[1], after[2]
    );
    for (start, name, len) in GROUPS.iter().filter(|g| g.2 <= 8) {
        eprintln!("{name:>50}: {:?}", &table[*start..*start + *len]);
    }
    let Some(out) = &o.out else { return };
    let header = format!(
        "//! The checkers evaluation's weights (see `eval.rs` for the features and the table's layout).\n\
         //!\n\
         //! Written by `examples/checkers_tune.rs` (Texel tuning; docs/checkers.md has the command).\n\
         //! - Data: {} positions without a capture from {} games of ply-referee records,\n\
         //!   {} more from the last games held out.\n\
         //! - Labels: {labels}.\n\
         //! - Fit: {epoch} epochs. Mean squared error of sigmoid(K * eval / 400), K = {k:.4},\n\
         //!   against the game results: training {:.6} before, {:.6} after; held out {:.6}\n\
         //!   before, {:.6} after. Against the labels, held out: {:.6} before, {:.6} after.\n\n",
        train.len(),
        all.len(),
        valid.len(),
        before[0],
        after[0],
        before[1],
        after[1],
        before[2],
        after[2]
    );
    std::fs::write(out, table_source(&table, &header)).unwrap_or_else(|e| {
        eprintln!("{out}: {e}");
        std::process::exit(1)
    });
    eprintln!("wrote {out}");
}
