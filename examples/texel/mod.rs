//! Texel tuning's shared machinery for `examples/chess_tune.rs` and
//! `examples/checkers_tune.rs` (each includes this file as a module): positions stored as
//! sparse feature counts with the share of a weight pair's first value, the mean squared
//! error of `sigmoid(K * eval / 400)` against labels, its gradient, on several threads, and
//! a golden-section search for `K`.

/// Positions as the tuner sees them: position `p`'s counts are
/// `counts[start[p]..start[p + 1]]`.
#[derive(Default)]
pub struct Set {
    pub start: Vec<u32>,
    pub counts: Vec<(u16, i16)>,
    /// The share of each weight pair's first value (the chess midgame's, the checkers full
    /// board's), in 0..=1; the second gets the rest.
    pub share: Vec<f32>,
    /// A factor on the second value's part (the chess endgame's scale, 1 elsewhere).
    pub second_scale: Vec<f32>,
    /// The first player's score in the game.
    pub result: Vec<f32>,
    /// A searched score of the position (the first player's view), NaN when not given.
    pub score: Vec<f32>,
    /// What the weights are fitted to; the result until a tuner blends in the score.
    pub label: Vec<f32>,
}

impl Set {
    pub fn len(&self) -> usize {
        self.result.len()
    }

    /// Adds a position: its counts, the first value's share, the factor on the second
    /// value's part, the result and the searched score.
    pub fn push(
        &mut self,
        counts: &[(u16, i16)],
        share: f32,
        second_scale: f32,
        result: f32,
        score: f32,
    ) {
        if self.start.is_empty() {
            self.start.push(0);
        }
        self.counts.extend_from_slice(counts);
        self.start.push(self.counts.len() as u32);
        self.share.push(share);
        self.second_scale.push(second_scale);
        self.result.push(result);
        self.score.push(score);
        self.label.push(result);
    }

    /// The evaluation of position `p` under `w` (`w[2i]` the first value, `w[2i+1]` the
    /// second).
    #[inline]
    pub fn eval(&self, p: usize, w: &[f64]) -> f64 {
        let (mut first, mut second) = (0.0, 0.0);
        for &(i, n) in &self.counts[self.start[p] as usize..self.start[p + 1] as usize] {
            first += w[2 * i as usize] * n as f64;
            second += w[2 * i as usize + 1] * n as f64;
        }
        let share = self.share[p] as f64;
        first * share + second * (1.0 - share) * self.second_scale[p] as f64
    }
}

pub fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + (-k * e / 400.0).exp())
}

pub fn split_range(n: usize, parts: usize) -> Vec<std::ops::Range<usize>> {
    (0..parts)
        .map(|i| n * i / parts..n * (i + 1) / parts)
        .collect()
}

/// Sums `f(p)` over every position of `set`, on `threads` threads.
pub fn par_sum<T: Send>(
    set: &Set,
    threads: usize,
    zero: impl Fn() -> T + Sync,
    add: impl Fn(&mut T, usize) + Sync,
    merge: impl Fn(T, T) -> T,
) -> T {
    let parts: Vec<T> = std::thread::scope(|s| {
        let handles: Vec<_> = split_range(set.len(), threads)
            .into_iter()
            .map(|r| {
                let (zero, add) = (&zero, &add);
                s.spawn(move || {
                    let mut acc = zero();
                    for p in r {
                        add(&mut acc, p);
                    }
                    acc
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    parts.into_iter().fold(zero(), merge)
}

/// Mean squared error of the predictions of `w` (with `k`) against `labels`.
pub fn error(set: &Set, labels: &[f32], w: &[f64], k: f64, threads: usize) -> f64 {
    let total = par_sum(
        set,
        threads,
        || 0.0,
        |acc, p| {
            let d = sigmoid(k, set.eval(p, w)) - labels[p] as f64;
            *acc += d * d;
        },
        |a, b| a + b,
    );
    total / set.len().max(1) as f64
}

/// The gradient of the mean squared error against the labels.
pub fn gradient(set: &Set, w: &[f64], k: f64, threads: usize) -> Vec<f64> {
    let g = par_sum(
        set,
        threads,
        || vec![0.0; w.len()],
        |g, p| {
            let sig = sigmoid(k, set.eval(p, w));
            let d = 2.0 * (sig - set.label[p] as f64) * sig * (1.0 - sig) * k / 400.0;
            let share = set.share[p] as f64;
            let second = (1.0 - share) * set.second_scale[p] as f64;
            for &(i, n) in &set.counts[set.start[p] as usize..set.start[p + 1] as usize] {
                g[2 * i as usize] += d * n as f64 * share;
                g[2 * i as usize + 1] += d * n as f64 * second;
            }
        },
        |mut a, b| {
            a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
            a
        },
    );
    let n = set.len().max(1) as f64;
    g.into_iter().map(|x| x / n).collect()
}

/// The minimum of a unimodal `f` on `lo..hi` (golden-section search).
pub fn minimise(mut lo: f64, mut hi: f64, f: impl Fn(f64) -> f64) -> f64 {
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let c = hi - phi * (hi - lo);
        let d = lo + phi * (hi - lo);
        if f(c) < f(d) {
            hi = d;
        } else {
            lo = c;
        }
    }
    (lo + hi) / 2.0
}
