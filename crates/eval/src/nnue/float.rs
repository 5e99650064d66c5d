//! The network in floating point: what the trainer fits, the reference the quantised
//! inference is tested against, and the source of the net file.

use super::{feature, Network, HIDDEN, INPUTS, QA, QB, SCALE, WEIGHT_CLIP};
use chess::{Board, Color, PieceKind};

/// Float weights of the `768 -> HIDDEN x2 -> 1` network (output 1.0 = `SCALE` centipawns).
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// First layer, feature-major: `w1[f * HIDDEN + i]`.
    pub w1: Vec<f32>,
    /// First-layer biases.
    pub b1: Vec<f32>,
    /// Output weights: side to move's `HIDDEN`, then the other side's.
    pub w2: Vec<f32>,
    /// Output bias.
    pub b2: f32,
    /// The output is a correction added to the hand-crafted evaluation.
    pub hybrid: bool,
}

/// `clamp(x, 0, 1)^2`.
#[inline(always)]
pub fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

impl FloatNet {
    /// Small random weights from `seed` (the trainer's starting point).
    pub fn random(seed: u64) -> FloatNet {
        let mut rng = chess::rng::Rng::new(seed);
        let mut uniform = move || rng.symmetric();
        // First layer: about 30 features are active, keep the sums near 0.5.
        let r1 = 1.0 / (32.0f32).sqrt();
        let r2 = 1.0 / (2.0 * HIDDEN as f32).sqrt();
        FloatNet {
            w1: (0..INPUTS * HIDDEN).map(|_| uniform() * r1).collect(),
            b1: (0..HIDDEN).map(|_| 0.1 + uniform() * 0.05).collect(),
            w2: (0..2 * HIDDEN).map(|_| uniform() * r2).collect(),
            b2: 0.0,
            hybrid: false,
        }
    }

    /// The float weights a quantised net stands for (each integer divided by its scale):
    /// the starting point of a training run that continues from a net file.
    /// `from_network(n).quantise()` gives `n` back exactly.
    pub fn from_network(n: &Network) -> FloatNet {
        let (qa, qb) = (QA as f32, QB as f32);
        FloatNet {
            w1: n.w1.iter().flatten().map(|&w| w as f32 / qa).collect(),
            b1: n.b1.iter().map(|&w| w as f32 / qa).collect(),
            w2: n.w2.iter().flatten().map(|&w| w as f32 / qb).collect(),
            b2: n.b2 as f32 / (QA * QB) as f32,
            hybrid: n.hybrid,
        }
    }

    /// First-layer sums of perspective `persp` for board `b`.
    pub fn accumulate(&self, b: &Board, persp: Color) -> Vec<f32> {
        let mut acc = self.b1.clone();
        for c in Color::ALL {
            for k in PieceKind::ALL {
                for sq in b.pieces(c, k) {
                    let f = feature(persp, c, k, sq);
                    for (a, w) in acc.iter_mut().zip(&self.w1[f * HIDDEN..(f + 1) * HIDDEN]) {
                        *a += w;
                    }
                }
            }
        }
        acc
    }

    /// Raw output (1.0 = `SCALE` centipawns) for the side to move.
    pub fn output(&self, b: &Board) -> f32 {
        let stm = b.side_to_move();
        let us = self.accumulate(b, stm);
        let them = self.accumulate(b, stm.flip());
        let mut out = self.b2;
        for i in 0..HIDDEN {
            out += screlu(us[i]) * self.w2[i] + screlu(them[i]) * self.w2[HIDDEN + i];
        }
        out
    }

    /// Score in centipawns for the side to move (a hybrid net adds the hand-crafted score).
    pub fn evaluate(&self, b: &Board) -> f32 {
        let hce = if self.hybrid { crate::evaluate(b) } else { 0 };
        self.output(b) * SCALE as f32 + hce as f32
    }

    /// Clips every weight to `+-WEIGHT_CLIP` (the trainer does this after each step).
    pub fn clip(&mut self) {
        for w in self
            .w1
            .iter_mut()
            .chain(self.b1.iter_mut())
            .chain(self.w2.iter_mut())
        {
            *w = w.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
    }

    /// The integer network: first layer times `QA`, output weights times `QB`, output bias
    /// times `QA * QB`, rounded.
    pub fn quantise(&self) -> Box<Network> {
        let q = |x: f32, s: i32| (x.clamp(-WEIGHT_CLIP, WEIGHT_CLIP) * s as f32).round() as i16;
        let mut net = Network::zeroed();
        for (f, row) in net.w1.iter_mut().enumerate() {
            for (i, w) in row.iter_mut().enumerate() {
                *w = q(self.w1[f * HIDDEN + i], QA);
            }
        }
        for (i, w) in net.b1.iter_mut().enumerate() {
            *w = q(self.b1[i], QA);
        }
        for (p, row) in net.w2.iter_mut().enumerate() {
            for (i, w) in row.iter_mut().enumerate() {
                *w = q(self.w2[p * HIDDEN + i], QB);
            }
        }
        net.b2 = (self.b2 * (QA * QB) as f32).round() as i32;
        net.hybrid = self.hybrid;
        net
    }
}
