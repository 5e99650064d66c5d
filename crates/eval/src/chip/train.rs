//! Training chip nets: [`ChipFloat`] as a [`Model`] of the shared trainer
//! ([`crate::nnue::train::Trainer`]), which brings the data, the targets and loss, the hybrid
//! mode, the validation hold-out with early stopping, Adam and the threads.
//!
//! The gradient is by hand: the forward pass ([`ChipFloat::forward`]) keeps every layer's
//! sums, and the backward pass runs through the output layer, the hidden layers' clipped
//! ReLUs (slope 1 strictly inside `(0, 1)`, 0 outside) and the accumulators' clipping into the
//! first layer's rows of the pieces on the board.

use super::float::{crelu, Activations, ChipFloat};
use super::{Arch, ChipNet, MAX_WIDTH};
use crate::nnue::train::{black_feature, output_error, Model, Pos, QuantisedNet};
use chess::Board;

impl Model for ChipFloat {
    type Quantised = ChipNet;
    type Shape = Arch;

    fn random(arch: &Arch, seed: u64) -> ChipFloat {
        ChipFloat::random(arch.clone(), seed)
    }

    fn is_hybrid(&self) -> bool {
        self.hybrid
    }

    fn start_hybrid(&mut self) {
        self.hybrid = true;
        if let Some(out) = self.dense.last_mut() {
            out.weights.fill(0.0);
            out.bias.fill(0.0);
        }
    }

    fn params(&self) -> Vec<&[f32]> {
        let mut p: Vec<&[f32]> = vec![&self.ft, &self.ft_bias];
        for d in &self.dense {
            p.push(&d.weights);
            p.push(&d.bias);
        }
        p
    }

    fn params_mut(&mut self) -> Vec<&mut [f32]> {
        let mut p: Vec<&mut [f32]> = vec![&mut self.ft, &mut self.ft_bias];
        for d in &mut self.dense {
            p.push(&mut d.weights);
            p.push(&mut d.bias);
        }
        p
    }

    fn error(&self, p: &Pos, flip: usize, wdl: f32, grad: Option<&mut ChipFloat>) -> f32 {
        let mut act = Activations::default();
        let feats = &p.feats[..p.n as usize];
        let out = self.forward(feats, flip, p.white_to_move, &mut act);
        let (err2, d_out) = output_error(p, out, self.hybrid, wdl);
        if let Some(g) = grad {
            // A one-perspective net's output was negated for Black to move.
            let sign = if self.arch.perspectives == 1 && !p.white_to_move {
                -1.0
            } else {
                1.0
            };
            let d_x0 = self.backward_dense(&act, d_out * sign, g);
            self.backward_first_layer(&act, &d_x0, feats, flip, g);
        }
        err2
    }

    fn clip(&mut self) {
        ChipFloat::clip(self);
    }

    fn quantise(&self) -> ChipNet {
        ChipFloat::quantise(self)
    }
}

impl ChipFloat {
    /// Adds the dense layers' gradients to `g`, given the derivative `d_out` of the error by
    /// the output layer's sum; returns the derivative by the first dense layer's inputs.
    fn backward_dense(
        &self,
        act: &Activations,
        d_out: f32,
        g: &mut ChipFloat,
    ) -> [f32; 2 * MAX_WIDTH] {
        // `dz`: the derivative by the current layer's sums.
        let mut dz = [0f32; 2 * MAX_WIDTH];
        dz[0] = d_out;
        let mut dx = [0f32; 2 * MAX_WIDTH];
        for l in (0..self.dense.len()).rev() {
            let (inputs, outputs) = (self.arch.dense_inputs(l), self.arch.layers[l]);
            let (d, gd) = (&self.dense[l], &mut g.dense[l]);
            let x = &act.x[l][..inputs];
            dx[..inputs].fill(0.0);
            for (j, &dzj) in dz[..outputs].iter().enumerate() {
                if dzj == 0.0 {
                    continue;
                }
                gd.bias[j] += dzj;
                let row = j * inputs..(j + 1) * inputs;
                for ((gw, &w), (&xi, dxi)) in gd.weights[row.clone()]
                    .iter_mut()
                    .zip(&d.weights[row])
                    .zip(x.iter().zip(dx.iter_mut()))
                {
                    *gw += dzj * xi;
                    *dxi += dzj * w;
                }
            }
            if l > 0 {
                // Through the previous layer's clipped ReLU.
                for (i, dzi) in dz[..inputs].iter_mut().enumerate() {
                    *dzi = through_crelu(act.z[l - 1][i], dx[i]);
                }
            }
        }
        dx
    }

    /// Adds the first layer's gradient to `g`, given the derivative `d_x0` by the first dense
    /// layer's inputs (the clipped accumulators in input order).
    fn backward_first_layer(
        &self,
        act: &Activations,
        d_x0: &[f32; 2 * MAX_WIDTH],
        feats: &[u16],
        flip: usize,
        g: &mut ChipFloat,
    ) {
        let n = self.arch.lanes;
        // By colour index, like `act.acc`.
        let mut d_acc = [[0f32; MAX_WIDTH]; 2];
        for (i, persp) in act.order[..self.arch.perspectives].iter().enumerate() {
            let c = persp.index();
            for k in 0..n {
                d_acc[c][k] = through_crelu(act.acc[c][k], d_x0[i * n + k]);
            }
        }
        let d_acc = &d_acc[..self.arch.perspectives];
        for d in d_acc {
            g.ft_bias.iter_mut().zip(&d[..n]).for_each(|(g, d)| *g += d);
        }
        for &f in feats {
            let f = f as usize ^ flip;
            for (d, r) in d_acc.iter().zip([f, black_feature(f)]) {
                g.ft[r * n..(r + 1) * n]
                    .iter_mut()
                    .zip(&d[..n])
                    .for_each(|(g, d)| *g += d);
            }
        }
    }
}

/// The derivative `d` by a clipped ReLU's output taken back to its input `z`.
#[inline(always)]
fn through_crelu(z: f32, d: f32) -> f32 {
    if z > 0.0 && z < 1.0 {
        d
    } else {
        debug_assert!(crelu(z) == 0.0 || crelu(z) == 1.0);
        0.0
    }
}

impl QuantisedNet for ChipNet {
    fn to_bytes(&self) -> Vec<u8> {
        ChipNet::to_bytes(self)
    }

    fn evaluate_board(&self, b: &Board) -> i32 {
        ChipNet::evaluate_board(self, b)
    }
}

#[cfg(test)]
mod tests;
