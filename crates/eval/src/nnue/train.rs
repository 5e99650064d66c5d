//! Training the network on `estuary datagen` data (`estuary nnue train` prints what this
//! module computes).
//!
//! [`Trainer`] fits a float [`Model`], the `768 -> HIDDEN x2 -> 1` perspective network
//! ([`FloatNet`]) or a chip net ([`crate::chip::ChipFloat`]), with Adam on shuffled
//! mini-batches, the gradient of each batch summed over [`TrainConfig::threads`] threads. The
//! target blends the search score and the game result, both from the side to move:
//! `(1 - W) * sigmoid(score / 400) + W * result`; the loss is the squared error of
//! `sigmoid(output)` (of `sigmoid(output + hce / 400)` for a hybrid net, which learns a
//! correction to the hand-crafted evaluation). The last positions read (whole games, the data
//! being written game by game) are held out, and each epoch reports their loss and whether it
//! is the best so far: the caller keeps that net (early stopping). The learning rate decays
//! along a cosine to 5% of its start over the epochs.
//!
//! With [`TrainConfig::mirror`] each position or its left-right mirror (files a-h swapped; the
//! net does not see castling rights) is trained on, picked at random every epoch.
//!
//! A run is deterministic: the same data, configuration and thread count give the same net.

mod backprop;
mod dataset;
mod model;

pub(crate) use backprop::black_feature;
pub(crate) use dataset::output_error;
pub use dataset::{Dataset, Loss, Pos};
pub use model::{Model, QuantisedNet};

use super::{FloatNet, Network};
use chess::rng::Rng;
use dataset::hce_error;
use std::fmt;

/// Settings of a training run; the defaults are `estuary nnue train`'s.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per Adam step.
    pub batch: usize,
    /// Learning rate of the first epoch.
    pub lr: f32,
    /// Weight of the game result in the target (the rest is the search score's).
    pub wdl: f32,
    /// Fraction of the positions, the last ones read, held out for validation (at most half).
    pub validation: f64,
    /// Threads computing a batch's gradient.
    pub threads: usize,
    /// Seed of the random starting weights and of the shuffles.
    pub seed: u64,
    /// Train on each position or its left-right mirror, picked at random every epoch.
    pub mirror: bool,
    /// Train a correction to the hand-crafted evaluation instead of a whole evaluation.
    pub hybrid: bool,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            epochs: 20,
            batch: 16384,
            lr: 0.001,
            wdl: 0.3,
            validation: 0.02,
            threads: 2,
            seed: 1,
            mirror: false,
            hybrid: false,
        }
    }
}

/// Why training could not start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TrainError {
    /// A data file could not be read (the message names it).
    Io(String),
    /// Nothing is left to train on once the validation positions are held out.
    NoTrainingPositions,
    /// A stand-alone net was given as the start of a hybrid run.
    StandAloneStart,
}

impl fmt::Display for TrainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainError::Io(e) => f.write_str(e),
            TrainError::NoTrainingPositions => f.write_str("no training positions"),
            TrainError::StandAloneStart => f.write_str(
                "a stand-alone net cannot start a hybrid run (a correction to the hand-crafted evaluation)",
            ),
        }
    }
}

impl std::error::Error for TrainError {}

/// The weights a run of model `M` starts from.
#[derive(Clone, Debug, PartialEq)]
pub enum Start<M: Model> {
    /// Small random weights of this shape from [`TrainConfig::seed`] (a hybrid net starts as
    /// the hand-crafted evaluation: no correction yet).
    Random(M::Shape),
    /// A net's weights (fine-tuning it on new data; its kind, hybrid or not, is kept). The
    /// start is a candidate: an epoch must beat its validation loss to count as the best.
    Net(M),
}

impl<M: Model> Start<M> {
    /// Starts from a trained model; a stand-alone one cannot start a hybrid run.
    pub fn from_model(m: M, cfg: &TrainConfig) -> Result<Start<M>, TrainError> {
        if cfg.hybrid && !m.is_hybrid() {
            return Err(TrainError::StandAloneStart);
        }
        Ok(Start::Net(m))
    }
}

impl Start<FloatNet> {
    /// Starts from `net`'s weights; a stand-alone net cannot start a hybrid run.
    pub fn from_network(net: &Network, cfg: &TrainConfig) -> Result<Start<FloatNet>, TrainError> {
        Start::from_model(FloatNet::from_network(net), cfg)
    }
}

/// What one epoch of a run fitting model `M` did.
#[derive(Debug)]
pub struct Epoch<M: Model> {
    /// The epoch's number, from 1.
    pub number: usize,
    /// Its learning rate.
    pub lr: f32,
    /// Mean loss over the training positions, each taken as its batch met it.
    pub train_loss: f64,
    /// Mean loss on the held-out positions after the epoch (NaN without any).
    pub validation_loss: f64,
    /// The lowest validation loss yet, the start's included (always, without held-out
    /// positions): the net to keep.
    pub best: bool,
    /// The quantised net after the epoch.
    pub net: M::Quantised,
}

/// A training run of model `M`: the positions split into training and validation, the float
/// net and the optimiser's state. [`Trainer::next_epoch`] runs the epochs one by one.
pub struct Trainer<M: Model> {
    cfg: TrainConfig,
    train: Vec<Pos>,
    val: Vec<Pos>,
    rng: Rng,
    fit: Fit<M>,
    start_loss: f64,
    best: f64,
    epochs_done: usize,
}

impl<M: Model> Trainer<M> {
    /// Holds out the validation positions of `data` and sets up the starting net.
    pub fn new(cfg: TrainConfig, start: Start<M>, data: Dataset) -> Result<Trainer<M>, TrainError> {
        let mut all = data.positions;
        // Validation: the last positions read, i.e. whole games the training never sees
        // (positions of one game are alike, so a random split would flatter the net).
        let n_val = ((all.len() as f64 * cfg.validation) as usize).min(all.len() / 2);
        let val = all.split_off(all.len() - n_val);
        let train = all;
        if train.is_empty() {
            return Err(TrainError::NoTrainingPositions);
        }
        let (net, start_is_candidate) = match start {
            Start::Net(n) => (n, true),
            Start::Random(shape) => {
                let mut n = M::random(&shape, cfg.seed);
                if cfg.hybrid {
                    n.start_hybrid();
                }
                (n, false)
            }
        };
        let threads = cfg.threads.max(1);
        let mut t = Trainer {
            rng: Rng::new(cfg.seed),
            cfg,
            train,
            val,
            fit: Fit::new(net, threads),
            start_loss: f64::NAN,
            best: f64::INFINITY,
            epochs_done: 0,
        };
        t.start_loss = t.validation_loss();
        if start_is_candidate && !t.val.is_empty() {
            t.best = t.start_loss;
        }
        Ok(t)
    }

    /// Positions trained on.
    pub fn training_positions(&self) -> usize {
        self.train.len()
    }

    /// Positions held out.
    pub fn validation_positions(&self) -> usize {
        self.val.len()
    }

    /// The starting net's validation loss (NaN without held-out positions).
    pub fn start_loss(&self) -> f64 {
        self.start_loss
    }

    /// The hand-crafted evaluation's loss on the held-out positions: the baseline to beat.
    pub fn baseline_loss(&self) -> f64 {
        self.val
            .iter()
            .map(|p| hce_error(p, self.cfg.wdl) as f64)
            .sum::<f64>()
            / self.val.len().max(1) as f64
    }

    /// The float net as trained so far.
    pub fn net(&self) -> &M {
        &self.fit.net
    }

    /// Runs the next epoch; `None` once [`TrainConfig::epochs`] have run.
    pub fn next_epoch(&mut self) -> Option<Epoch<M>> {
        if self.epochs_done == self.cfg.epochs {
            return None;
        }
        self.epochs_done += 1;
        let number = self.epochs_done;
        for i in (1..self.train.len()).rev() {
            self.train.swap(i, self.rng.below(i + 1));
        }
        // Cosine decay to 5% of the starting rate.
        let progress = (number - 1) as f32 / self.cfg.epochs as f32;
        let lr =
            self.cfg.lr * (0.05 + 0.95 * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos()));
        let mut train_loss = 0.0f64;
        for chunk in self.train.chunks(self.cfg.batch.max(1)) {
            train_loss += self.fit.batch(chunk, &self.cfg, number, lr);
        }
        let net = self.fit.net.quantise();
        let validation_loss = self.validation_loss();
        let best = validation_loss < self.best || self.val.is_empty();
        if best {
            self.best = validation_loss;
        }
        Some(Epoch {
            number,
            lr,
            train_loss: train_loss / self.train.len() as f64,
            validation_loss,
            best,
            net,
        })
    }

    /// The float net's mean loss on the held-out positions (NaN without any).
    fn validation_loss(&self) -> f64 {
        if self.val.is_empty() {
            return f64::NAN;
        }
        self.val
            .iter()
            .map(|p| self.fit.net.error(p, 0, self.cfg.wdl, None) as f64)
            .sum::<f64>()
            / self.val.len() as f64
    }
}

/// The net being fitted, the optimiser's moments and a gradient buffer per thread.
struct Fit<M: Model> {
    net: M,
    adam: Adam,
    /// Per thread: the gradient (a model of the same shape) and the summed squared error.
    grads: Vec<(M, f64)>,
}

impl<M: Model> Fit<M> {
    fn new(net: M, threads: usize) -> Fit<M> {
        let nparams = model::count(&net);
        Fit {
            adam: Adam {
                m: vec![0.0; nparams],
                v: vec![0.0; nparams],
                t: 0,
            },
            grads: (0..threads).map(|_| (model::zeroed(&net), 0.0)).collect(),
            net,
        }
    }

    /// One Adam step on the mean gradient of `chunk` (epoch `epoch`); returns the chunk's
    /// summed loss.
    fn batch(&mut self, chunk: &[Pos], cfg: &TrainConfig, epoch: usize, lr: f32) -> f64 {
        let per = chunk.len().div_ceil(self.grads.len());
        let net = &self.net;
        std::thread::scope(|s| {
            for ((g, loss), part) in self.grads.iter_mut().zip(chunk.chunks(per)) {
                s.spawn(move || {
                    g.params_mut().into_iter().for_each(|p| p.fill(0.0));
                    *loss = 0.0;
                    for (k, p) in part.iter().enumerate() {
                        // The order is reshuffled every epoch, so this mirrors a random half.
                        let flip = if cfg.mirror && (k + epoch) % 2 == 1 {
                            7
                        } else {
                            0
                        };
                        *loss += net.error(p, flip, cfg.wdl, Some(g)) as f64;
                    }
                });
            }
        });
        let used = chunk.chunks(per).count();
        let (first, rest) = self.grads.split_at_mut(1);
        let (g0, loss0) = &mut first[0];
        for (g, loss) in rest.iter().take(used - 1) {
            for (a, b) in g0.params_mut().into_iter().zip(g.params()) {
                a.iter_mut().zip(b).for_each(|(a, b)| *a += b);
            }
            *loss0 += loss;
        }
        let scale = 1.0 / chunk.len() as f32;
        let mut grads = g0.params_mut();
        grads
            .iter_mut()
            .for_each(|p| p.iter_mut().for_each(|x| *x *= scale));
        let grads: Vec<&[f32]> = grads.into_iter().map(|p| &*p).collect();
        self.adam.update(&mut self.net.params_mut(), &grads, lr);
        self.net.clip();
        *loss0
    }
}

/// Adam's first and second moments of every parameter, in `FloatNet` order.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    fn update(&mut self, params: &mut [&mut [f32]], grads: &[&[f32]], lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        let mut k = 0;
        for (p, g) in params.iter_mut().zip(grads) {
            for (w, &gr) in p.iter_mut().zip(g.iter()) {
                let (m, v) = (&mut self.m[k], &mut self.v[k]);
                *m = B1 * *m + (1.0 - B1) * gr;
                *v = B2 * *v + (1.0 - B2) * gr * gr;
                *w -= lr * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
                k += 1;
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::nnue::data::format_line;
    use chess::{Board, Color};

    /// Positions of a few random games, scored by the hand-crafted evaluation (White's side),
    /// as data lines.
    pub(crate) fn random_game_lines(games: usize, plies: usize) -> Vec<String> {
        let mut rng = Rng::new(11);
        let mut lines = Vec::new();
        for _ in 0..games {
            let mut b = Board::startpos();
            for _ in 0..plies {
                let moves = b.legal_moves();
                if moves.is_empty() {
                    break;
                }
                b = b.played(moves[rng.below(moves.len())]);
                let e = crate::evaluate(&b);
                let white = if b.side_to_move() == Color::White {
                    e
                } else {
                    -e
                };
                lines.push(format_line(&b.to_fen(), white, 0.5));
            }
        }
        lines
    }

    fn run(lines: &[String], cfg: &TrainConfig) -> (Trainer<FloatNet>, Vec<Epoch<FloatNet>>) {
        let data = Dataset::from_lines(lines.iter().map(|l| l.as_str()));
        assert_eq!(data.len(), lines.len());
        let mut t = Trainer::new(cfg.clone(), Start::Random(()), data).unwrap();
        let epochs = std::iter::from_fn(|| t.next_epoch()).collect();
        (t, epochs)
    }

    #[test]
    fn a_few_epochs_lower_the_loss_and_the_net_round_trips() {
        let lines = random_game_lines(12, 20);
        let cfg = TrainConfig {
            epochs: 4,
            batch: 32,
            lr: 0.005,
            validation: 0.1,
            ..TrainConfig::default()
        };
        let (t, epochs) = run(&lines, &cfg);
        assert_eq!(t.validation_positions(), lines.len() / 10);
        assert_eq!(epochs.len(), 4);
        let (first, last) = (&epochs[0], &epochs[3]);
        assert!(
            last.train_loss < first.train_loss && last.validation_loss < t.start_loss(),
            "train {} -> {}, validation {} -> {}",
            first.train_loss,
            last.train_loss,
            t.start_loss(),
            last.validation_loss
        );
        // The quantised net through its file format and back.
        let bytes = last.net.to_bytes();
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back.to_bytes(), bytes);
        assert_eq!(FloatNet::from_network(&back).quantise().to_bytes(), bytes);
        let b = Board::startpos();
        assert_eq!(back.evaluate_board(&b), last.net.evaluate_board(&b));
        // The same run again gives the same net, bit for bit.
        let (_, again) = run(&lines, &cfg);
        assert_eq!(again[3].net.to_bytes(), bytes);
    }

    #[test]
    fn a_stand_alone_net_cannot_start_a_hybrid_run() {
        let net = FloatNet::random(1).quantise();
        let hybrid = TrainConfig {
            hybrid: true,
            ..TrainConfig::default()
        };
        assert_eq!(
            Start::from_network(&net, &hybrid),
            Err(TrainError::StandAloneStart)
        );
        assert!(Start::from_network(&net, &TrainConfig::default()).is_ok());
        let empty = Trainer::new(
            TrainConfig::default(),
            Start::<FloatNet>::Random(()),
            Dataset::default(),
        );
        assert!(matches!(empty, Err(TrainError::NoTrainingPositions)));
    }
}
