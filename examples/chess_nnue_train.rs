//! Trains the chess network (`src/games/chess/nnue.rs`; docs/chess.md, "The network") on
//! positions written by `examples/chess_datagen.rs`, and writes it in the engine's format.
//!
//! Usage:
//!
//! ```text
//! cargo run --release --example chess_nnue_train -- --out NET DATA... [--epochs 3]
//!   [--lr 0.001] [--batch 4096] [--lambda 0] [--base full|none] [--validation 0.02]
//!   [--threads 2] [--seed 1] [--init NET]
//! ```
//!
//! Each position's target is `lambda × result + (1 − lambda) × sigmoid(score / 400)`, both
//! from the side to move's view; the prediction is `sigmoid(base / 400 + y)` for the network's
//! output `y`, where `base` is the weighted evaluation (`evaluate_full`, which the engine's
//! network corrects; `--base none`: 0, a network on its own), so the engine adds `400 y` to
//! it (scaled down in drawish endgames and by the fifty-move clock, which the training does
//! not model: docs/chess.md, "The twenty-seventh round"); the loss is the mean squared
//! error. The
//! last `validation` share of the positions (the data's last games) is held out and its
//! loss printed after each epoch (and first the base's alone). Full precision (f32) with Adam, the learning rate cut to
//! 0.3 of itself at 60% and again at 85% of the epochs, then quantised as the engine reads it.
//! `--init NET` starts from a network file (read back to full precision) instead of random
//! weights: a generation trained on new positions keeps what the last one learnt.

use std::io::{BufRead, BufReader, Write};

use cozy_chess::{Board, Color};
use ply::games::chess::eval;
use ply::games::chess::nnue::{self, HIDDEN, INPUTS, MAGIC, QA, QB, SCALE};
use ply::util::Rng;

const H: usize = HIDDEN;

/// The positions, flattened: each one's inputs for White's view and Black's.
struct Data {
    white: Vec<u16>,
    black: Vec<u16>,
    /// Position `i`'s inputs are `start[i]..start[i + 1]` of both.
    start: Vec<u32>,
    white_to_move: Vec<bool>,
    /// The target, from the side to move's view.
    target: Vec<f32>,
    /// The weighted evaluation (`evaluate_full`) for the side to move, in the output's units
    /// (divided by `SCALE`): the network learns what to add to it. Zero with `--base none`.
    base: Vec<f32>,
}

impl Data {
    fn len(&self) -> usize {
        self.target.len()
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

fn load(paths: &[String], lambda: f32, residual: bool) -> Data {
    let mut d = Data {
        white: Vec::new(),
        black: Vec::new(),
        start: vec![0],
        white_to_move: Vec::new(),
        target: Vec::new(),
        base: Vec::new(),
    };
    let mut skipped = 0usize;
    for path in paths {
        let file = std::fs::File::open(path).unwrap_or_else(|e| {
            eprintln!("chess_nnue_train: {path}: {e}");
            std::process::exit(1)
        });
        for line in BufReader::new(file).lines() {
            let line = line.expect("readable data");
            let mut parts = line.split(';');
            let (Some(fen), Some(score), Some(result)) = (parts.next(), parts.next(), parts.next())
            else {
                skipped += 1;
                continue;
            };
            let (Ok(board), Ok(score), Ok(result)) = (
                Board::from_fen(fen, false),
                score.trim().parse::<f32>(),
                result.trim().parse::<f32>(),
            ) else {
                skipped += 1;
                continue;
            };
            let white = board.side_to_move() == Color::White;
            let (score, result) = if white {
                (score, result)
            } else {
                (-score, 1.0 - result)
            };
            nnue::for_each_feature(&board, |w, b| {
                d.white.push(w as u16);
                d.black.push(b as u16);
            });
            d.start.push(d.white.len() as u32);
            d.white_to_move.push(white);
            d.base.push(if residual {
                eval::evaluate_full(&board) as f32 / SCALE as f32
            } else {
                0.0
            });
            d.target
                .push(lambda * result + (1.0 - lambda) * sigmoid(score / SCALE as f32));
        }
    }
    if skipped > 0 {
        eprintln!("chess_nnue_train: {skipped} lines skipped (not FEN;score;result)");
    }
    d
}

/// The network in full precision, or a gradient of the same shape.
#[derive(Clone)]
struct Net {
    hidden: Vec<f32>,
    bias: Vec<f32>,
    out: Vec<f32>,
    out_bias: f32,
}

impl Net {
    fn zeros() -> Net {
        Net {
            hidden: vec![0.0; INPUTS * H],
            bias: vec![0.0; H],
            out: vec![0.0; 2 * H],
            out_bias: 0.0,
        }
    }

    fn random(seed: u64) -> Net {
        let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut uniform = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f32 / (1u64 << 53) as f32 * 2.0 - 1.0
        };
        let mut n = Net::zeros();
        n.hidden.iter_mut().for_each(|w| *w = 0.17 * uniform());
        n.bias.iter_mut().for_each(|w| *w = 0.1);
        n.out.iter_mut().for_each(|w| *w = 0.06 * uniform());
        n
    }

    /// A network file (the engine's format, `src/games/chess/nnue.rs`) in full precision.
    fn from_file(bytes: &[u8]) -> Result<Net, String> {
        nnue::Network::from_bytes(bytes).map_err(|e| e.0)?;
        let mut words = bytes[12..bytes.len() - 4]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]) as f32);
        let mut n = Net::zeros();
        for w in n.hidden.iter_mut().chain(n.bias.iter_mut()) {
            *w = words.next().ok_or("short file")? / QA as f32;
        }
        for w in n.out.iter_mut() {
            *w = words.next().ok_or("short file")? / QB as f32;
        }
        let tail: [u8; 4] = bytes[bytes.len() - 4..]
            .try_into()
            .map_err(|_| "short file")?;
        n.out_bias = i32::from_le_bytes(tail) as f32 / (QA * QB) as f32;
        Ok(n)
    }

    fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.hidden
            .iter_mut()
            .chain(self.bias.iter_mut())
            .chain(self.out.iter_mut())
            .chain(std::iter::once(&mut self.out_bias))
    }

    fn add(&mut self, other: &Net) {
        for (a, b) in self.params_mut().zip(other.params()) {
            *a += b;
        }
    }

    fn params(&self) -> impl Iterator<Item = f32> + '_ {
        self.hidden
            .iter()
            .chain(&self.bias)
            .chain(&self.out)
            .chain(std::iter::once(&self.out_bias))
            .copied()
    }

    /// The accumulators of position `i` (White's view, Black's).
    fn accumulate(&self, d: &Data, i: usize, white: &mut [f32; H], black: &mut [f32; H]) {
        white.copy_from_slice(&self.bias);
        black.copy_from_slice(&self.bias);
        let (a, b) = (d.start[i] as usize, d.start[i + 1] as usize);
        for k in a..b {
            let rw = &self.hidden[d.white[k] as usize * H..][..H];
            let rb = &self.hidden[d.black[k] as usize * H..][..H];
            for j in 0..H {
                white[j] += rw[j];
                black[j] += rb[j];
            }
        }
    }

    /// The output for accumulators seen by the side to move and the other.
    fn output(&self, us: &[f32; H], them: &[f32; H]) -> f32 {
        let mut y = self.out_bias;
        for j in 0..H {
            y += self.out[j] * us[j].clamp(0.0, 1.0) + self.out[H + j] * them[j].clamp(0.0, 1.0);
        }
        y
    }

    /// Adds position `i`'s gradient of the squared error to `g`; returns the error.
    fn backward(&self, d: &Data, i: usize, g: &mut Net) -> f32 {
        let mut white = [0.0; H];
        let mut black = [0.0; H];
        self.accumulate(d, i, &mut white, &mut black);
        let stm_white = d.white_to_move[i];
        let (us, them) = if stm_white {
            (&white, &black)
        } else {
            (&black, &white)
        };
        let p = sigmoid(d.base[i] + self.output(us, them));
        let err = p - d.target[i];
        let dy = 2.0 * err * p * (1.0 - p);
        g.out_bias += dy;
        let mut d_us = [0.0; H];
        let mut d_them = [0.0; H];
        for j in 0..H {
            g.out[j] += dy * us[j].clamp(0.0, 1.0);
            g.out[H + j] += dy * them[j].clamp(0.0, 1.0);
            if us[j] > 0.0 && us[j] < 1.0 {
                d_us[j] = dy * self.out[j];
            }
            if them[j] > 0.0 && them[j] < 1.0 {
                d_them[j] = dy * self.out[H + j];
            }
        }
        let (d_white, d_black) = if stm_white {
            (&d_us, &d_them)
        } else {
            (&d_them, &d_us)
        };
        for j in 0..H {
            g.bias[j] += d_white[j] + d_black[j];
        }
        let (a, b) = (d.start[i] as usize, d.start[i + 1] as usize);
        for k in a..b {
            let rw = &mut g.hidden[d.white[k] as usize * H..][..H];
            for j in 0..H {
                rw[j] += d_white[j];
            }
            let rb = &mut g.hidden[d.black[k] as usize * H..][..H];
            for j in 0..H {
                rb[j] += d_black[j];
            }
        }
        err * err
    }

    fn loss(&self, d: &Data, range: std::ops::Range<usize>) -> f64 {
        let n = range.len().max(1);
        let mut sum = 0.0f64;
        let mut white = [0.0; H];
        let mut black = [0.0; H];
        for i in range {
            self.accumulate(d, i, &mut white, &mut black);
            let (us, them) = if d.white_to_move[i] {
                (&white, &black)
            } else {
                (&black, &white)
            };
            let e = sigmoid(d.base[i] + self.output(us, them)) - d.target[i];
            sum += (e * e) as f64;
        }
        sum / n as f64
    }

    /// The engine's file.
    fn quantised(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(12 + 2 * (INPUTS * H + 3 * H) + 4);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(H as u32).to_le_bytes());
        let q = |x: f32, by: i32| -> [u8; 2] {
            let v = (x * by as f32).round();
            (v.clamp(i16::MIN as f32, i16::MAX as f32) as i16).to_le_bytes()
        };
        for &w in &self.hidden {
            out.extend_from_slice(&q(w, QA));
        }
        for &w in &self.bias {
            out.extend_from_slice(&q(w, QA));
        }
        for &w in &self.out {
            out.extend_from_slice(&q(w, QB));
        }
        out.extend_from_slice(&((self.out_bias * (QA * QB) as f32).round() as i32).to_le_bytes());
        out
    }
}

struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    fn step(&mut self, net: &mut Net, grad: &Net, lr: f32, scale: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        for (((w, g), m), v) in net
            .params_mut()
            .zip(grad.params())
            .zip(self.m.iter_mut())
            .zip(self.v.iter_mut())
        {
            let g = g * scale;
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            *w -= lr * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut data = Vec::new();
    let mut out = None;
    let (mut epochs, mut lr, mut batch, mut lambda, mut validation, mut threads, mut seed) =
        (3usize, 0.001f32, 4096usize, 0.0f32, 0.02f64, 2usize, 1u64);
    let mut residual = true;
    let mut init = None;
    while let Some(a) = args.next() {
        let mut value = |name: &str| {
            args.next().unwrap_or_else(|| {
                eprintln!("chess_nnue_train: {name} needs a value");
                std::process::exit(2)
            })
        };
        fn num<T: std::str::FromStr>(s: String) -> T {
            s.parse().unwrap_or_else(|_| {
                eprintln!("chess_nnue_train: not a number: {s}");
                std::process::exit(2)
            })
        }
        match a.as_str() {
            "--out" => out = Some(value("--out")),
            "--epochs" => epochs = num(value("--epochs")),
            "--lr" => lr = num(value("--lr")),
            "--batch" => batch = num(value("--batch")),
            "--lambda" => lambda = num(value("--lambda")),
            "--validation" => validation = num(value("--validation")),
            "--threads" => threads = num::<usize>(value("--threads")).max(1),
            "--seed" => seed = num(value("--seed")),
            "--init" => init = Some(value("--init")),
            "--base" => {
                residual = match value("--base").as_str() {
                    "full" => true,
                    "none" => false,
                    other => {
                        eprintln!("chess_nnue_train: --base is full or none, not {other}");
                        std::process::exit(2)
                    }
                }
            }
            _ => data.push(a),
        }
    }
    let Some(out) = out else {
        eprintln!("usage: chess_nnue_train --out NET DATA... (see the file's header)");
        std::process::exit(2)
    };
    let t0 = std::time::Instant::now();
    let d = load(&data, lambda, residual);
    let held = ((d.len() as f64 * validation) as usize).min(d.len());
    let train = d.len() - held;
    eprintln!(
        "chess_nnue_train: {} positions ({train} to train, {held} held out), {:.0} s",
        d.len(),
        t0.elapsed().as_secs_f64()
    );
    eprintln!(
        "chess_nnue_train: held-out loss of the base alone {:.6}",
        Net::zeros().loss(&d, train..d.len())
    );
    let mut net = match &init {
        Some(path) => {
            let net = std::fs::read(path)
                .map_err(|e| e.to_string())
                .and_then(|b| Net::from_file(&b))
                .unwrap_or_else(|e| {
                    eprintln!("chess_nnue_train: {path}: {e}");
                    std::process::exit(1)
                });
            eprintln!(
                "chess_nnue_train: held-out loss of {path} before training {:.6}",
                net.loss(&d, train..d.len())
            );
            net
        }
        None => {
            let mut net = Net::random(seed);
            if residual {
                // Start from the weighted evaluation itself: nothing added.
                net.out.iter_mut().for_each(|w| *w = 0.0);
            }
            net
        }
    };
    let n_params = net.params().count();
    let mut adam = Adam {
        m: vec![0.0; n_params],
        v: vec![0.0; n_params],
        t: 0,
    };
    let mut order: Vec<u32> = (0..train as u32).collect();
    let mut rng = Rng::new(seed);
    let mut grads: Vec<Net> = (0..threads).map(|_| Net::zeros()).collect();
    for epoch in 0..epochs {
        rng.shuffle(&mut order);
        let rate = lr
            * if epoch * 100 >= epochs * 85 {
                0.09
            } else if epoch * 100 >= epochs * 60 {
                0.3
            } else {
                1.0
            };
        let mut train_loss = 0.0f64;
        for chunk in order.chunks(batch) {
            let per = chunk.len().div_ceil(threads);
            let net_ref = &net;
            let d_ref = &d;
            let losses: Vec<f64> = std::thread::scope(|s| {
                let handles: Vec<_> = grads
                    .iter_mut()
                    .zip(chunk.chunks(per))
                    .map(|(g, part)| {
                        s.spawn(move || {
                            let mut loss = 0.0f64;
                            for &i in part {
                                loss += net_ref.backward(d_ref, i as usize, g) as f64;
                            }
                            loss
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("no panic"))
                    .collect()
            });
            train_loss += losses.iter().sum::<f64>();
            let (first, rest) = grads.split_first_mut().expect("one thread at least");
            for g in rest.iter_mut() {
                first.add(g);
                *g = Net::zeros();
            }
            adam.step(&mut net, first, rate, 1.0 / chunk.len() as f32);
            *first = Net::zeros();
        }
        let val = net.loss(&d, train..d.len());
        eprintln!(
            "epoch {:>3}  lr {rate:.5}  train {:.6}  held out {val:.6}  {:.0} s",
            epoch + 1,
            train_loss / train.max(1) as f64,
            t0.elapsed().as_secs_f64()
        );
    }
    let bytes = net.quantised();
    // The quantised network against the full-precision one, on the held-out positions.
    let q = nnue::Network::from_bytes(&bytes).expect("the written network reads back");
    let mut diff = 0.0f64;
    let sample = (train..d.len()).step_by(((d.len() - train) / 1000).max(1));
    let mut n = 0;
    for i in sample {
        let mut white = [0.0; H];
        let mut black = [0.0; H];
        net.accumulate(&d, i, &mut white, &mut black);
        let (us, them) = if d.white_to_move[i] {
            (&white, &black)
        } else {
            (&black, &white)
        };
        let full = net.output(us, them) * SCALE as f32;
        let quant = q.evaluate_features(
            &d.white[d.start[i] as usize..d.start[i + 1] as usize],
            &d.black[d.start[i] as usize..d.start[i + 1] as usize],
            d.white_to_move[i],
        );
        diff += (full - quant as f32).abs() as f64;
        n += 1;
    }
    eprintln!(
        "quantised: mean |difference| {:.2} units over {n} held-out positions",
        diff / n.max(1) as f64
    );
    std::fs::File::create(&out)
        .and_then(|mut f| f.write_all(&bytes))
        .unwrap_or_else(|e| {
            eprintln!("chess_nnue_train: {out}: {e}");
            std::process::exit(1)
        });
    eprintln!("chess_nnue_train: wrote {out} ({} bytes)", bytes.len());
}
