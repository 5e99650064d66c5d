//! The gradient of the trainer's loss for one position of the software net, by hand: a
//! forward pass through the float network and, when asked, the backward pass accumulated into
//! a gradient of the same layout ([`Model::error`] for [`FloatNet`]).

use super::dataset::{output_error, Pos};
use super::model::{Model, QuantisedNet};
use crate::nnue::float::screlu;
use crate::nnue::{FloatNet, Network, HIDDEN, INPUTS};
use chess::Board;

/// The same piece from Black's side: own and enemy swapped, ranks flipped.
#[inline(always)]
pub(crate) fn black_feature(f: usize) -> usize {
    ((f + 384) % INPUTS) ^ 56
}

pub(super) fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Model for FloatNet {
    type Quantised = Box<Network>;
    type Shape = ();

    fn random(_: &(), seed: u64) -> FloatNet {
        FloatNet::random(seed)
    }

    fn is_hybrid(&self) -> bool {
        self.hybrid
    }

    fn start_hybrid(&mut self) {
        self.hybrid = true;
        self.w2.iter_mut().for_each(|w| *w = 0.0);
        self.b2 = 0.0;
    }

    fn params(&self) -> Vec<&[f32]> {
        vec![&self.w1, &self.b1, &self.w2, std::slice::from_ref(&self.b2)]
    }

    fn params_mut(&mut self) -> Vec<&mut [f32]> {
        vec![
            &mut self.w1,
            &mut self.b1,
            &mut self.w2,
            std::slice::from_mut(&mut self.b2),
        ]
    }

    // The loops walk several parallel arrays by lane index; iterator chains would hide that.
    #[allow(clippy::needless_range_loop)]
    fn error(&self, p: &Pos, flip: usize, wdl: f32, grad: Option<&mut FloatNet>) -> f32 {
        let net = self;
        let mut acc = [[0f32; HIDDEN]; 2]; // [White's view, Black's view]
        acc[0].copy_from_slice(&net.b1);
        acc[1].copy_from_slice(&net.b1);
        let feats = &p.feats[..p.n as usize];
        for &f in feats {
            let f = f as usize ^ flip;
            let (rw, rb) = (
                &net.w1[f * HIDDEN..(f + 1) * HIDDEN],
                &net.w1[black_feature(f) * HIDDEN..(black_feature(f) + 1) * HIDDEN],
            );
            for i in 0..HIDDEN {
                acc[0][i] += rw[i];
                acc[1][i] += rb[i];
            }
        }
        let (us, them) = if p.white_to_move { (0, 1) } else { (1, 0) };
        let mut out = net.b2;
        for i in 0..HIDDEN {
            out += screlu(acc[us][i]) * net.w2[i] + screlu(acc[them][i]) * net.w2[HIDDEN + i];
        }
        let (err2, d_out) = output_error(p, out, net.hybrid, wdl);
        if let Some(g) = grad {
            g.b2 += d_out;
            let mut d_acc = [[0f32; HIDDEN]; 2];
            for (side, ofs) in [(us, 0), (them, HIDDEN)] {
                for i in 0..HIDDEN {
                    let x = acc[side][i];
                    let c = x.clamp(0.0, 1.0);
                    g.w2[ofs + i] += d_out * c * c;
                    if x > 0.0 && x < 1.0 {
                        d_acc[side][i] = d_out * net.w2[ofs + i] * 2.0 * x;
                    }
                }
            }
            for i in 0..HIDDEN {
                g.b1[i] += d_acc[0][i] + d_acc[1][i];
            }
            for &f in feats {
                let f = f as usize ^ flip;
                let b = black_feature(f);
                for i in 0..HIDDEN {
                    g.w1[f * HIDDEN + i] += d_acc[0][i];
                }
                for i in 0..HIDDEN {
                    g.w1[b * HIDDEN + i] += d_acc[1][i];
                }
            }
        }
        err2
    }

    fn clip(&mut self) {
        FloatNet::clip(self);
    }

    fn quantise(&self) -> Box<Network> {
        FloatNet::quantise(self)
    }
}

impl QuantisedNet for Box<Network> {
    fn to_bytes(&self) -> Vec<u8> {
        Network::to_bytes(self)
    }

    fn evaluate_board(&self, b: &Board) -> i32 {
        Network::evaluate_board(self, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::data;

    #[test]
    fn black_features_mirror_white_ones() {
        let b = chess::Board::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        for c in chess::Color::ALL {
            for k in chess::PieceKind::ALL {
                for sq in b.pieces(c, k) {
                    let w = crate::nnue::feature(chess::Color::White, c, k, sq);
                    let bl = crate::nnue::feature(chess::Color::Black, c, k, sq);
                    assert_eq!(black_feature(w), bl);
                }
            }
        }
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let s = data::parse_line(
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 4 4 | 35 | 1.0",
        )
        .unwrap();
        let p = Pos::from_sample(&s).unwrap();
        let mut net = FloatNet::random(3);
        net.w2.iter_mut().for_each(|w| *w *= 8.0);
        let mut g = super::super::model::zeroed(&net);
        net.error(&p, 0, 0.3, Some(&mut g));
        let f = crate::nnue::feature(
            chess::Color::Black,
            chess::Color::Black,
            chess::PieceKind::Knight,
            chess::Square::new(42),
        );
        for (which, idx) in [(0, f * HIDDEN + 3), (1, 5), (2, HIDDEN + 7), (2, 2)] {
            let h = 1e-3f32;
            let bump = |n: &FloatNet, d: f32| {
                let mut n = n.clone();
                match which {
                    0 => n.w1[idx] += d,
                    1 => n.b1[idx] += d,
                    _ => n.w2[idx] += d,
                }
                n
            };
            let (plus, minus) = (bump(&net, h), bump(&net, -h));
            let numeric =
                (plus.error(&p, 0, 0.3, None) - minus.error(&p, 0, 0.3, None)) / (2.0 * h);
            let analytic = match which {
                0 => g.w1[idx],
                1 => g.b1[idx],
                _ => g.w2[idx],
            };
            assert!(
                (numeric - analytic).abs() <= 1e-3 * analytic.abs().max(1e-2),
                "param {which}/{idx}: numeric {numeric}, analytic {analytic}"
            );
        }
    }
}
