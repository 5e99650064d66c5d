//! Texel tuning: fit the weights to game results by minimising the squared error between
//! `sigmoid(K * eval)` and the result, over positions from the engine's own games.
//!
//! The evaluation is linear in its weights, so each position is traced once into a sparse list
//! of feature counts; the optimiser (Adam on the full batch) then never calls the evaluation.

use crate::params::{NUM_PARAMS, S};
use crate::{endgame_scale, evaluate_with, phase, Trace, PHASE_MAX};
use chess::{Board, Color};

/// One traced training position.
#[derive(Clone, Debug)]
pub struct Sample {
    /// `(weight index, white count - black count)`, zero counts left out.
    pub features: Vec<(u16, i16)>,
    /// Game phase of the position.
    pub phase: i32,
    /// Endgame scale (out of 64) under the starting weights.
    pub scale: i32,
    /// Game result from White's side: 1, 0.5 or 0.
    pub result: f64,
}

struct Dense(Vec<i32>);

impl Trace for Dense {
    fn add(&mut self, idx: usize, c: Color, n: i32) {
        self.0[idx] += if c == Color::White { n } else { -n };
    }
}

impl Sample {
    /// Traces `b` (scale taken under `w`) with the White-side result `result`.
    pub fn new(b: &Board, result: f64, w: &[S]) -> Sample {
        let mut t = Dense(vec![0; NUM_PARAMS]);
        evaluate_with(b, w, &mut t);
        let features =
            t.0.iter()
                .enumerate()
                .filter(|(_, &n)| n != 0)
                .map(|(i, &n)| (i as u16, n as i16))
                .collect::<Vec<_>>();
        let eg: i32 = features
            .iter()
            .map(|&(i, n)| w[i as usize].1 * n as i32)
            .sum();
        Sample {
            features,
            phase: phase(b),
            scale: endgame_scale(b, eg),
            result,
        }
    }

    /// White-side evaluation under real-valued weights.
    fn eval(&self, w: &[[f64; 2]]) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(i, n) in &self.features {
            mg += w[i as usize][0] * n as f64;
            eg += w[i as usize][1] * n as f64;
        }
        let p = self.phase as f64 / PHASE_MAX as f64;
        mg * p + eg * (1.0 - p) * self.scale as f64 / 64.0
    }
}

fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

/// Mean squared error of `w` on `data` with scaling constant `k`.
pub fn error(data: &[Sample], w: &[[f64; 2]], k: f64) -> f64 {
    data.iter()
        .map(|s| (s.result - sigmoid(k, s.eval(w))).powi(2))
        .sum::<f64>()
        / data.len().max(1) as f64
}

fn to_real(w: &[S]) -> Vec<[f64; 2]> {
    w.iter().map(|s| [s.0 as f64, s.1 as f64]).collect()
}

/// The `K` that best fits the current weights (golden-section search on 0.1..3).
pub fn fit_k(data: &[Sample], w: &[S]) -> f64 {
    let wr = to_real(w);
    let (mut lo, mut hi) = (0.1f64, 3.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if error(data, &wr, a) < error(data, &wr, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Runs `epochs` full-batch Adam steps from `start`; `frozen` indices keep their value and
/// `l2` pulls every weight toward its start value (rarely seen features stay near their
/// hand-set values instead of fitting noise). Calls `report(epoch, error)` every 50 epochs.
/// Returns the rounded weights.
pub fn tune(
    data: &[Sample],
    start: &[S],
    k: f64,
    epochs: usize,
    frozen: &[usize],
    l2: f64,
    mut report: impl FnMut(usize, f64),
) -> Vec<S> {
    let w0 = to_real(start);
    let mut w = w0.clone();
    let n = w.len();
    let (mut m, mut v) = (vec![[0.0f64; 2]; n], vec![[0.0f64; 2]; n]);
    let (b1, b2, lr, eps) = (0.9, 0.999, 1.0, 1e-8);
    let c = k * std::f64::consts::LN_10 / 400.0;
    for epoch in 1..=epochs {
        let mut grad = vec![[0.0f64; 2]; n];
        for s in data {
            let e = s.eval(&w);
            let p = sigmoid(k, e);
            // d/dE of (r - p)^2 = -2 (r - p) p (1 - p) c
            let d = -2.0 * (s.result - p) * p * (1.0 - p) * c;
            let ph = s.phase as f64 / PHASE_MAX as f64;
            let egf = (1.0 - ph) * s.scale as f64 / 64.0;
            for &(i, cnt) in &s.features {
                grad[i as usize][0] += d * cnt as f64 * ph;
                grad[i as usize][1] += d * cnt as f64 * egf;
            }
        }
        let inv = 1.0 / data.len().max(1) as f64;
        for i in 0..n {
            if frozen.contains(&i) {
                continue;
            }
            for j in 0..2 {
                let g = grad[i][j] * inv + l2 * (w[i][j] - w0[i][j]);
                m[i][j] = b1 * m[i][j] + (1.0 - b1) * g;
                v[i][j] = b2 * v[i][j] + (1.0 - b2) * g * g;
                let mh = m[i][j] / (1.0 - b1.powi(epoch as i32));
                let vh = v[i][j] / (1.0 - b2.powi(epoch as i32));
                w[i][j] -= lr * mh / (vh.sqrt() + eps);
            }
        }
        if epoch % 50 == 0 || epoch == epochs {
            report(epoch, error(data, &w, k));
        }
    }
    w.iter()
        .map(|x| S(x[0].round() as i32, x[1].round() as i32))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuning_lowers_the_error_on_a_tiny_set() {
        let start = crate::params::start_weights();
        let fens = [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                0.5,
            ),
            (
                "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                1.0,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1",
                0.0,
            ),
            ("8/8/4k3/8/8/4K3/4P3/8 w - - 0 1", 0.5),
        ];
        let data: Vec<Sample> = fens
            .iter()
            .map(|(f, r)| Sample::new(&Board::from_fen(f).unwrap(), *r, &start))
            .collect();
        let k = 1.0;
        let before = error(&data, &to_real(&start), k);
        let tuned = tune(&data, &start, k, 100, &[], 0.0, |_, _| {});
        let after = error(&data, &to_real(&tuned), k);
        assert!(after < before, "{after} !< {before}");
    }
}
