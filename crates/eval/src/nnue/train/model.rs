//! What the trainer needs of a float model: its parameters as flat slices (which the
//! optimiser walks and a gradient of the same layout mirrors), its loss and gradient on one
//! position, its weight clipping and its quantisation into a net file.

use super::dataset::Pos;
use chess::Board;

/// A float model [`super::Trainer`] can fit: the software net ([`crate::nnue::FloatNet`]) or
/// a chip net ([`crate::chip::ChipFloat`]).
///
/// A gradient is a model of the same shape whose parameters are the loss's derivatives, so
/// [`Model::params`] orders both alike.
pub trait Model: Clone + Send + Sync {
    /// The quantised net a model becomes.
    type Quantised: QuantisedNet;
    /// What a random model needs to know besides its seed (its shape).
    type Shape;

    /// Random untrained weights of shape `shape` from `seed`.
    fn random(shape: &Self::Shape, seed: u64) -> Self;

    /// The model learns a correction to the hand-crafted evaluation.
    fn is_hybrid(&self) -> bool;

    /// Makes an untrained model a hybrid one that corrects nothing yet (its output zero).
    fn start_hybrid(&mut self);

    /// Every parameter, in a fixed order.
    fn params(&self) -> Vec<&[f32]>;

    /// Every parameter, in [`Model::params`]'s order.
    fn params_mut(&mut self) -> Vec<&mut [f32]>;

    /// The squared error on `p` (its files mirrored when `flip` is 7; 0 leaves them) with
    /// result weight `wdl`; with `grad`, also adds the error's gradient to it.
    fn error(&self, p: &Pos, flip: usize, wdl: f32, grad: Option<&mut Self>) -> f32;

    /// Clips the weights so that the quantised ones fit their integer types (after each step).
    fn clip(&mut self);

    /// The integer net.
    fn quantise(&self) -> Self::Quantised;
}

/// A quantised net as the trainer's caller handles it: a file and an evaluation.
pub trait QuantisedNet {
    /// The net file's bytes.
    fn to_bytes(&self) -> Vec<u8>;

    /// Score in centipawns for the side to move (a hybrid net's correction included), as the
    /// engine computes it.
    fn evaluate_board(&self, b: &Board) -> i32;
}

/// A model of `m`'s shape with every parameter zero: an empty gradient.
pub(crate) fn zeroed<M: Model>(m: &M) -> M {
    let mut g = m.clone();
    for s in g.params_mut() {
        s.fill(0.0);
    }
    g
}

/// The number of parameters of `m`.
pub(crate) fn count<M: Model>(m: &M) -> usize {
    m.params().iter().map(|s| s.len()).sum()
}
