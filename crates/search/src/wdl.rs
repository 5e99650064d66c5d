//! Win/draw/loss: what a score means in results, from a model fitted on our own self-play.
//!
//! For a score `s` in centipawns from the side to move's view and the material `m` on the
//! board (pawns 1, knights and bishops 3, rooks 5, queens 9, both sides: 78 at the start),
//! with `x = clamp(m, 10, 78) / 78`:
//!
//! ```text
//! a(x) = a0 + a1 x          the score at which a win is as likely as not
//! b(x) = b0 + b1 x          how quickly the chances turn with the score
//! W = 1 / (1 + exp((a - s) / b))      L = 1 / (1 + exp((a + s) / b))      D = 1 - W - L
//! ```
//!
//! so a win and a loss are two logistic curves mirrored about 0 and a draw is what they leave
//! between them; with `a` and `b` free to change with the material, the same score can mean
//! more or less in an endgame than with every piece on. Mate scores are a win or a loss
//! outright. The constants ([`FITTED`]) come from [`fit`] on self-play positions; the
//! command and the data behind them are in docs/results/wdl.md.

use crate::score::{is_mate, MATE_BOUND};
use chess::{Board, PieceKind};

/// The material of the model (both sides: pawns 1, knights and bishops 3, rooks 5, queens 9).
pub fn material(board: &Board) -> u32 {
    const VALUE: [(PieceKind, u32); 5] = [
        (PieceKind::Pawn, 1),
        (PieceKind::Knight, 3),
        (PieceKind::Bishop, 3),
        (PieceKind::Rook, 5),
        (PieceKind::Queen, 9),
    ];
    VALUE.iter().map(|&(k, v)| board.kind(k).count() * v).sum()
}

/// The material in the model's units: `clamp(m, 10, 78) / 78`.
fn material_fraction(material: u32) -> f64 {
    f64::from(material.clamp(10, 78)) / 78.0
}

/// The model's parameters (centipawns).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct WdlModel {
    /// `a0` and `a1`: the score of an even chance of a win, `a0 + a1 x`.
    pub a: [f64; 2],
    /// `b0` and `b1`: the logistic's spread, `b0 + b1 x`.
    pub b: [f64; 2],
}

/// Fitted on 31,290 positions of 400 self-play games at 5,000 nodes a move
/// (docs/results/wdl.md): an even chance of a win at +0.51 with every piece on the board,
/// at +2.5 in an endgame of little material.
pub const FITTED: WdlModel = WdlModel {
    a: [278.4, -227.3],
    b: [110.8, 34.3],
};

/// Win, draw and loss, per mille, summing to 1000.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Wdl {
    /// Wins in 1000 games.
    pub win: u32,
    /// Draws in 1000 games.
    pub draw: u32,
    /// Losses in 1000 games.
    pub loss: u32,
}

impl WdlModel {
    /// `a` and `b` at material fraction `x`, kept where the model makes sense (`a >= 0`, so
    /// the draw's share is never negative; `b >= 1`).
    fn params(&self, x: f64) -> (f64, f64) {
        (
            (self.a[0] + self.a[1] * x).max(0.0),
            (self.b[0] + self.b[1] * x).max(1.0),
        )
    }

    /// Probabilities of a win, a draw and a loss for the side whose score `score` (not a mate
    /// score) is, at material fraction `x`.
    fn probabilities(&self, score: f64, x: f64) -> (f64, f64, f64) {
        let (a, b) = self.params(x);
        let win = 1.0 / (1.0 + ((a - score) / b).exp());
        let loss = 1.0 / (1.0 + ((a + score) / b).exp());
        (win, (1.0 - win - loss).max(0.0), loss)
    }

    /// Win, draw and loss per mille for the side whose search score `score` is (mate scores
    /// included), with `material` on the board ([`material`]).
    pub fn wdl(&self, score: i32, material: u32) -> Wdl {
        if is_mate(score) {
            let won = score >= MATE_BOUND;
            return Wdl {
                win: if won { 1000 } else { 0 },
                draw: 0,
                loss: if won { 0 } else { 1000 },
            };
        }
        let (w, _, l) = self.probabilities(f64::from(score), material_fraction(material));
        let win = (1000.0 * w).round() as u32;
        let loss = ((1000.0 * l).round() as u32).min(1000 - win);
        Wdl {
            win,
            draw: 1000 - win - loss,
            loss,
        }
    }
}

/// One position of a fit: the score from one side's view, the material, and the result for
/// that side (1 won, 0.5 drawn, 0 lost).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sample {
    /// Search score, centipawns (mate scores are left out of a fit).
    pub score: i32,
    /// [`material`] of the position.
    pub material: u32,
    /// The game's result for the side the score is from.
    pub result: f32,
}

/// The mean negative log-likelihood of `samples`' results under `model`, and its gradient
/// with respect to `[a0, a1, b0, b1]`.
fn loss_and_gradient(model: &WdlModel, samples: &[Sample]) -> (f64, [f64; 4]) {
    let mut total = 0.0;
    let mut grad = [0.0; 4];
    for s in samples {
        let x = material_fraction(s.material);
        let (a, b) = model.params(x);
        let score = f64::from(s.score);
        let (u, v) = ((score - a) / b, (-score - a) / b);
        let (w, l) = (1.0 / (1.0 + (-u).exp()), 1.0 / (1.0 + (-v).exp()));
        // d/da and d/db of W and L.
        let (dw_da, dw_db) = (-w * (1.0 - w) / b, -w * (1.0 - w) * u / b);
        let (dl_da, dl_db) = (-l * (1.0 - l) / b, -l * (1.0 - l) * v / b);
        let (p, dp_da, dp_db) = if s.result > 0.75 {
            (w, dw_da, dw_db)
        } else if s.result < 0.25 {
            (l, dl_da, dl_db)
        } else {
            (1.0 - w - l, -dw_da - dl_da, -dw_db - dl_db)
        };
        let p = p.max(1e-12);
        total -= p.ln();
        let (ga, gb) = (-dp_da / p, -dp_db / p);
        grad[0] += ga;
        grad[1] += ga * x;
        grad[2] += gb;
        grad[3] += gb * x;
    }
    let n = samples.len().max(1) as f64;
    (total / n, grad.map(|g| g / n))
}

/// The outcome of [`fit`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Fit {
    /// The fitted model.
    pub model: WdlModel,
    /// Its mean negative log-likelihood on the samples.
    pub loss: f64,
    /// The mean negative log-likelihood of guessing every position by the overall shares of
    /// wins, draws and losses: what the score has to beat.
    pub baseline: f64,
}

/// Fits the model to `samples` by maximum likelihood (Adam on the exact gradient, `steps`
/// steps from `a = 150`, `b = 100`). Deterministic. Mate scores are left out; with no
/// samples the start is returned.
pub fn fit(samples: &[Sample], steps: usize) -> Fit {
    let samples: Vec<Sample> = samples
        .iter()
        .copied()
        .filter(|s| !is_mate(s.score))
        .collect();
    let mut p = [150.0, 0.0, 100.0, 0.0];
    let model = |p: &[f64; 4]| WdlModel {
        a: [p[0], p[1]],
        b: [p[2], p[3]],
    };
    let (mut m, mut v) = ([0.0; 4], [0.0; 4]);
    let (beta1, beta2, rate) = (0.9, 0.999, 2.0);
    for t in 1..=steps {
        let (_, g) = loss_and_gradient(&model(&p), &samples);
        for i in 0..4 {
            m[i] = beta1 * m[i] + (1.0 - beta1) * g[i];
            v[i] = beta2 * v[i] + (1.0 - beta2) * g[i] * g[i];
            let mh = m[i] / (1.0 - f64::powi(beta1, t as i32));
            let vh = v[i] / (1.0 - f64::powi(beta2, t as i32));
            p[i] -= rate * mh / (vh.sqrt() + 1e-9);
        }
    }
    let (loss, _) = loss_and_gradient(&model(&p), &samples);
    let n = samples.len().max(1) as f64;
    let share =
        |keep: fn(f32) -> bool| samples.iter().filter(|s| keep(s.result)).count() as f64 / n;
    let baseline = [
        share(|r| r > 0.75),
        share(|r| (0.25..=0.75).contains(&r)),
        share(|r| r < 0.25),
    ]
    .iter()
    .filter(|&&q| q > 0.0)
    .map(|&q| -q * q.ln())
    .sum();
    Fit {
        model: model(&p),
        loss,
        baseline,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::MATE;

    #[test]
    fn per_mille_sums_to_1000_and_is_monotone_in_score() {
        for material in [10, 30, 50, 78] {
            let mut last = FITTED.wdl(-3000, material);
            assert_eq!(last.win + last.draw + last.loss, 1000);
            for s in (-3000..=3000).step_by(5) {
                let w = FITTED.wdl(s, material);
                assert_eq!(w.win + w.draw + w.loss, 1000, "{s} {material}");
                assert!(w.win >= last.win && w.loss <= last.loss, "{s} {material}");
                last = w;
            }
            let (w, l) = (FITTED.wdl(0, material), FITTED.wdl(0, material));
            assert_eq!(w.win, l.loss, "symmetric at 0");
        }
        assert_eq!(
            FITTED.wdl(MATE - 5, 40),
            Wdl {
                win: 1000,
                draw: 0,
                loss: 0
            }
        );
        assert_eq!(
            FITTED.wdl(-MATE + 2, 40),
            Wdl {
                win: 0,
                draw: 0,
                loss: 1000
            }
        );
        assert_eq!(material(&Board::startpos()), 78);
    }

    #[test]
    fn the_fit_finds_the_model_that_made_the_data() {
        // Results drawn from a known model (a = 120 + 60x, b = 80 + 40x) by a fixed
        // generator: the fit must come back near it and beat the baseline.
        let truth = WdlModel {
            a: [120.0, 60.0],
            b: [80.0, 40.0],
        };
        let mut rng = chess::rng::Rng::new(5);
        let mut samples = Vec::new();
        for i in 0..10_000 {
            let score = i % 1201 - 600;
            let material = 10 + (i * 7 % 69) as u32;
            let (w, d, _) = truth.probabilities(f64::from(score), material_fraction(material));
            let r = rng.below(1_000_000) as f64 / 1e6;
            let result = if r < w {
                1.0
            } else if r < w + d {
                0.5
            } else {
                0.0
            };
            samples.push(Sample {
                score,
                material,
                result,
            });
        }
        let f = fit(&samples, 1000);
        assert!(f.loss < f.baseline);
        for (x, (got, want)) in [0.2, 0.6, 1.0]
            .into_iter()
            .map(|x| (x, (f.model.params(x), truth.params(x))))
        {
            assert!((got.0 - want.0).abs() < 15.0, "a at {x}: {got:?} {want:?}");
            assert!((got.1 - want.1).abs() < 15.0, "b at {x}: {got:?} {want:?}");
        }
    }
}
