//! A chip net in floating point: what the trainer fits, and the source of the quantised
//! [`ChipNet`] (the scales are docs/evalunit.md's).
//!
//! Activations are `clamp(x, 0, 1)` where the integer net's are `clamp(x, 0, 127)`: a float
//! 1.0 is 127 in the accumulators and in every hidden activation, and the output 1.0 is
//! [`crate::nnue::SCALE`] centipawns.

use super::{Arch, ChipNet, ACT_MAX, INPUTS, MAX_LAYERS, MAX_WIDTH};
use crate::nnue::{feature, train::black_feature, SCALE};
use chess::{Board, Color, PieceKind};

/// Hidden dense weights are `i8` in units of 1/64.
const HIDDEN_Q: f32 = 64.0;
/// The output layer's weights are `i8` in units of 127/8192, its bias in units of 1/8192.
const OUT_Q: f32 = 8192.0;
/// First-layer (and hidden activation) scale.
const ACT_Q: f32 = ACT_MAX as f32;

/// Largest first-layer weight or bias of a net whose first layer is `i8`
/// ([`Arch::first_layer_i8`]: one-perspective or wide nets).
pub const ONECHAN_FT_CLIP: f32 = 1.0;
/// Largest first-layer weight or bias otherwise: 32 pieces and the bias then fit an `i16`
/// accumulator (`33 x 7 x 127 < 32767`), so no sum wraps.
pub const FT_CLIP: f32 = 7.0;
/// Largest hidden dense weight: 127 units of 1/64.
pub const HIDDEN_CLIP: f32 = 127.0 / HIDDEN_Q;
/// Largest output weight: 127 units of 127/8192.
pub const OUT_CLIP: f32 = 127.0 * 127.0 / OUT_Q;

/// One dense layer in floating point.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatDense {
    /// `weights[j * inputs + i]`: output `j`'s weight of input `i`.
    pub weights: Vec<f32>,
    /// One per output.
    pub bias: Vec<f32>,
}

/// Float weights of a chip net of any [`Arch`].
#[derive(Clone, Debug, PartialEq)]
pub struct ChipFloat {
    /// Its shape.
    pub arch: Arch,
    /// The output is a correction added to the hand-crafted evaluation.
    pub hybrid: bool,
    /// First layer, feature-major: `ft[f * lanes + i]`.
    pub ft: Vec<f32>,
    /// First-layer biases.
    pub ft_bias: Vec<f32>,
    /// The dense layers, first to last.
    pub dense: Vec<FloatDense>,
}

/// A forward pass's intermediate values, kept for the backward pass.
pub(crate) struct Activations {
    /// First-layer sums by perspective (`Color::index`), before clipping.
    pub(crate) acc: [[f32; MAX_WIDTH]; 2],
    /// `x[l]`: the input of dense layer `l` (clipped activations).
    pub(crate) x: [[f32; 2 * MAX_WIDTH]; MAX_LAYERS],
    /// `z[l]`: the sums of dense layer `l` before clipping.
    pub(crate) z: [[f32; 2 * MAX_WIDTH]; MAX_LAYERS],
    /// The perspectives in input order: the side to move's first (one-perspective: White).
    pub(crate) order: [Color; 2],
}

impl Default for Activations {
    fn default() -> Self {
        Activations {
            acc: [[0.0; MAX_WIDTH]; 2],
            x: [[0.0; 2 * MAX_WIDTH]; MAX_LAYERS],
            z: [[0.0; 2 * MAX_WIDTH]; MAX_LAYERS],
            order: [Color::White, Color::Black],
        }
    }
}

/// The float activation: `clamp(x, 0, 1)`.
#[inline(always)]
pub(crate) fn crelu(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

impl ChipFloat {
    /// A net of shape `arch` with every weight zero.
    pub fn zeroed(arch: Arch) -> ChipFloat {
        let dense = (0..arch.layers.len())
            .map(|l| FloatDense {
                weights: vec![0.0; arch.dense_inputs(l) * arch.layers[l]],
                bias: vec![0.0; arch.layers[l]],
            })
            .collect();
        ChipFloat {
            ft: vec![0.0; INPUTS * arch.lanes],
            ft_bias: vec![0.0; arch.lanes],
            dense,
            hybrid: false,
            arch,
        }
    }

    /// Random weights from `seed` (the trainer's starting point), scaled so that the
    /// activations start mostly inside the clipped ReLUs' linear range `(0, 1)`.
    pub fn random(arch: Arch, seed: u64) -> ChipFloat {
        let mut rng = chess::rng::Rng::new(seed);
        let mut uniform = move || rng.symmetric();
        let mut net = ChipFloat::zeroed(arch);
        // About 30 pieces are on the board: sums of 30 rows spread by about 0.6 around 0.3.
        let r1 = 1.0 / 32f32.sqrt();
        net.ft.iter_mut().for_each(|w| *w = uniform() * r1);
        net.ft_bias
            .iter_mut()
            .for_each(|b| *b = 0.3 + uniform() * 0.05);
        let last = net.dense.len() - 1;
        for (l, d) in net.dense.iter_mut().enumerate() {
            let r = 1.0 / (net.arch.dense_inputs(l) as f32).sqrt();
            d.weights.iter_mut().for_each(|w| *w = uniform() * r);
            // Hidden sums centred in the linear range; the output starts near 0.
            let centre = if l == last { 0.0 } else { 0.5 };
            d.bias
                .iter_mut()
                .for_each(|b| *b = centre + uniform() * 0.05);
        }
        net.clip();
        net
    }

    /// The float weights a quantised net stands for (each integer divided by its scale).
    /// `from_chip(n).quantise()` gives `n` back exactly (for dense weights within
    /// `-127..=127`, which [`ChipFloat::quantise`] keeps to).
    pub fn from_chip(n: &ChipNet) -> ChipFloat {
        let last = n.dense.len() - 1;
        let dense = n
            .dense
            .iter()
            .enumerate()
            .map(|(l, d)| {
                let (w_unit, b_unit) = scales(l == last);
                FloatDense {
                    weights: d.weights.iter().map(|&w| w as f32 / w_unit).collect(),
                    bias: d.bias.iter().map(|&b| (b as f64 / b_unit) as f32).collect(),
                }
            })
            .collect();
        ChipFloat {
            arch: n.arch.clone(),
            hybrid: n.hybrid,
            ft: n.ft.iter().map(|&w| w as f32 / ACT_Q).collect(),
            ft_bias: n.ft_bias.iter().map(|&w| w as f32 / ACT_Q).collect(),
            dense,
        }
    }

    /// The integer net (docs/evalunit.md): first layer `round(w * 127)` as `i16`; hidden
    /// weights `round(w * 64)` and biases `round(b * 127 * 64)`; output weights
    /// `round(w * 8192 / 127)` and bias `round(b * 8192)`; `i8` weights clipped to
    /// `-127..=127`.
    pub fn quantise(&self) -> ChipNet {
        let mut net = ChipNet::zeroed(self.arch.clone(), self.hybrid);
        let i16q = |w: f32| (w * ACT_Q).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16;
        net.ft = self.ft.iter().map(|&w| i16q(w)).collect();
        net.ft_bias = self.ft_bias.iter().map(|&w| i16q(w)).collect();
        let last = self.dense.len() - 1;
        for (l, (q, d)) in net.dense.iter_mut().zip(&self.dense).enumerate() {
            let (w_unit, b_unit) = scales(l == last);
            let wq = |w: f32| (w * w_unit).round().clamp(-127.0, 127.0) as i8;
            q.weights = d.weights.iter().map(|&w| wq(w)).collect();
            q.bias = d
                .bias
                .iter()
                .map(|&b| (b as f64 * b_unit).round() as i32)
                .collect();
        }
        net
    }

    /// Clips the weights so the quantised ones fit (the trainer does this after each step):
    /// the first layer to [`FT_CLIP`] ([`ONECHAN_FT_CLIP`] for a net whose first layer is
    /// `i8`, weights and biases), hidden weights to [`HIDDEN_CLIP`], output weights to
    /// [`OUT_CLIP`].
    pub fn clip(&mut self) {
        let ft = if self.arch.first_layer_i8() {
            ONECHAN_FT_CLIP
        } else {
            FT_CLIP
        };
        self.ft.iter_mut().for_each(|w| *w = w.clamp(-ft, ft));
        self.ft_bias.iter_mut().for_each(|w| *w = w.clamp(-ft, ft));
        let last = self.dense.len() - 1;
        for (l, d) in self.dense.iter_mut().enumerate() {
            let c = if l == last { OUT_CLIP } else { HIDDEN_CLIP };
            d.weights.iter_mut().for_each(|w| *w = w.clamp(-c, c));
        }
    }

    /// The forward pass over the pieces given as White-perspective feature indices
    /// (`feats`, each `^ flip`: 7 mirrors the files), `white` to move. Returns the raw output
    /// for the side to move (1.0 = `SCALE` centipawns; a one-perspective net's negated for
    /// Black) and fills `act`.
    pub(crate) fn forward(
        &self,
        feats: &[u16],
        flip: usize,
        white: bool,
        act: &mut Activations,
    ) -> f32 {
        let n = self.arch.lanes;
        for a in &mut act.acc {
            a[..n].copy_from_slice(&self.ft_bias);
        }
        for &f in feats {
            let f = f as usize ^ flip;
            // By colour index: White's view, then Black's.
            let rows = [f, black_feature(f)];
            for (acc, &r) in act.acc.iter_mut().zip(&rows[..self.arch.perspectives]) {
                let row = &self.ft[r * n..(r + 1) * n];
                acc[..n].iter_mut().zip(row).for_each(|(a, w)| *a += w);
            }
        }
        let (stm, other) = if white {
            (Color::White, Color::Black)
        } else {
            (Color::Black, Color::White)
        };
        act.order = if self.arch.perspectives == 2 {
            [stm, other]
        } else {
            [Color::White, Color::Black]
        };
        for (i, p) in act.order[..self.arch.perspectives].iter().enumerate() {
            for k in 0..n {
                act.x[0][i * n + k] = crelu(act.acc[p.index()][k]);
            }
        }
        let last = self.dense.len() - 1;
        let mut out = 0.0;
        for (l, d) in self.dense.iter().enumerate() {
            let inputs = self.arch.dense_inputs(l);
            for j in 0..self.arch.layers[l] {
                let w = &d.weights[j * inputs..(j + 1) * inputs];
                let s = d.bias[j]
                    + w.iter()
                        .zip(&act.x[l][..inputs])
                        .map(|(w, x)| w * x)
                        .sum::<f32>();
                act.z[l][j] = s;
                if l == last {
                    out = s;
                } else {
                    act.x[l + 1][j] = crelu(s);
                }
            }
        }
        if self.arch.perspectives == 1 && !white {
            -out
        } else {
            out
        }
    }

    /// Raw output (1.0 = `SCALE` centipawns) for the side to move of `b`.
    pub fn output(&self, b: &Board) -> f32 {
        let mut feats = Vec::with_capacity(32);
        for c in Color::ALL {
            for k in PieceKind::ALL {
                for sq in b.pieces(c, k) {
                    feats.push(feature(Color::White, c, k, sq) as u16);
                }
            }
        }
        let mut act = Box::default();
        self.forward(&feats, 0, b.side_to_move() == Color::White, &mut act)
    }

    /// Score in centipawns for the side to move (a hybrid net adds the hand-crafted score).
    pub fn evaluate(&self, b: &Board) -> f32 {
        let hce = if self.hybrid { crate::evaluate(b) } else { 0 };
        self.output(b) * SCALE as f32 + hce as f32
    }
}

/// Units per 1.0 of a dense layer's weights and biases.
fn scales(output_layer: bool) -> (f32, f64) {
    if output_layer {
        (OUT_Q / ACT_Q, OUT_Q as f64)
    } else {
        (HIDDEN_Q, (ACT_Q * HIDDEN_Q) as f64)
    }
}
