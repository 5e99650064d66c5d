//! The trainer's data: positions as `estuary datagen` writes them, turned into the feature
//! lists and targets the gradient needs.

use super::backprop::sigmoid;
use super::TrainError;
use crate::nnue::{data, SCALE};
use chess::Board;
use std::io::BufRead;

/// A training position as the trainer keeps it: White-perspective feature indices, side to
/// move, targets (what [`super::Model::error`] fits a model to).
#[derive(Clone, Copy)]
pub struct Pos {
    pub(crate) feats: [u16; 32],
    pub(crate) n: u8,
    pub(crate) white_to_move: bool,
    /// Search score, side to move's view, centipawns.
    pub(crate) score: i16,
    /// Result for the side to move: 0, 1, 2 = loss, draw, win.
    pub(crate) result: u8,
    /// The hand-crafted evaluation, side to move's view (the baseline the net must beat).
    pub(crate) hce: i16,
}

impl Pos {
    /// The position of a sample; `None` with more than 32 pieces.
    pub(crate) fn from_sample(s: &data::Sample) -> Option<Pos> {
        let b = &s.board;
        let mut feats = [0u16; 32];
        let mut n = 0;
        for c in chess::Color::ALL {
            for k in chess::PieceKind::ALL {
                for sq in b.pieces(c, k) {
                    if n == 32 {
                        return None;
                    }
                    feats[n] = crate::nnue::feature(chess::Color::White, c, k, sq) as u16;
                    n += 1;
                }
            }
        }
        let white = b.side_to_move() == chess::Color::White;
        let (score, result) = if white {
            (s.score, s.result)
        } else {
            (-s.score, 1.0 - s.result)
        };
        Some(Pos {
            feats,
            n: n as u8,
            white_to_move: white,
            score: score.clamp(-3000, 3000) as i16,
            result: (result * 2.0).round() as u8,
            hce: crate::evaluate(b).clamp(-3000, 3000) as i16,
        })
    }
}

/// The target the net's `sigmoid(output)` is fitted to: the search score and the game
/// result blended with weight `wdl` on the result.
fn target(p: &Pos, wdl: f32) -> f32 {
    (1.0 - wdl) * sigmoid(p.score as f32 / SCALE as f32) + wdl * p.result as f32 / 2.0
}

/// The squared error of a model whose raw output (1.0 = `SCALE` centipawns, side to move) on
/// `p` is `out`, and its derivative by `out`: the prediction is `sigmoid(out)`, for a
/// `hybrid` model `sigmoid(out + hce / SCALE)`.
pub(crate) fn output_error(p: &Pos, out: f32, hybrid: bool, wdl: f32) -> (f32, f32) {
    let base = if hybrid {
        p.hce as f32 / SCALE as f32
    } else {
        0.0
    };
    let pred = sigmoid(out + base);
    let err = pred - target(p, wdl);
    (err * err, 2.0 * err * pred * (1.0 - pred))
}

/// The squared error of the hand-crafted evaluation on `p`.
pub(super) fn hce_error(p: &Pos, wdl: f32) -> f32 {
    let e = sigmoid(p.hce as f32 / SCALE as f32) - target(p, wdl);
    e * e
}

/// Positions read from data files, in file order.
#[derive(Default)]
pub struct Dataset {
    pub(super) positions: Vec<Pos>,
    /// The boards of `positions`, when read with them.
    boards: Vec<Board>,
    skipped: Vec<(String, usize)>,
}

impl Dataset {
    /// Reads the first `max` positions of `paths` (`FEN | score | result` lines); unreadable
    /// lines are skipped and listed in [`Dataset::skipped`].
    pub fn read(paths: &[String], max: usize) -> Result<Dataset, TrainError> {
        Dataset::read_lines(paths, max, false)
    }

    /// [`Dataset::read`] keeping the boards too, for [`Dataset::loss`].
    pub fn read_with_boards(paths: &[String]) -> Result<Dataset, TrainError> {
        Dataset::read_lines(paths, usize::MAX, true)
    }

    fn read_lines(paths: &[String], max: usize, keep_boards: bool) -> Result<Dataset, TrainError> {
        let mut d = Dataset::default();
        for path in paths {
            let io = |e: std::io::Error| TrainError::Io(format!("{path}: {e}"));
            let f = std::fs::File::open(path).map_err(io)?;
            for (n, line) in std::io::BufReader::new(f).lines().enumerate() {
                let line = line.map_err(io)?;
                if line.trim().is_empty() {
                    continue;
                }
                if d.push_line(&line, keep_boards).is_none() {
                    // A run killed mid-write can leave a partial last line.
                    d.skipped.push((path.clone(), n + 1));
                }
                if d.positions.len() >= max {
                    return Ok(d);
                }
            }
        }
        Ok(d)
    }

    /// Positions from data lines (`FEN | score | result`); unreadable ones are skipped.
    pub fn from_lines<'a>(lines: impl IntoIterator<Item = &'a str>) -> Dataset {
        let mut d = Dataset::default();
        for line in lines {
            d.push_line(line, false);
        }
        d
    }

    /// Adds the position of a data line; `None` if the line could not be read.
    fn push_line(&mut self, line: &str, keep_board: bool) -> Option<()> {
        let sample = data::parse_line(line).ok()?;
        self.positions.push(Pos::from_sample(&sample)?);
        if keep_board {
            self.boards.push(sample.board);
        }
        Some(())
    }

    /// Positions read.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// True when no position was read.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// The lines that could not be read: (file, line number from 1).
    pub fn skipped(&self) -> &[(String, usize)] {
        &self.skipped
    }

    /// The loss of a quantised net, as the engine runs it (`score`: its centipawns for the
    /// side to move), on the positions read with [`Dataset::read_with_boards`] (scored like
    /// the trainer's validation with result weight `wdl`), and the hand-crafted evaluation's
    /// on the same positions.
    pub fn loss(&self, score: impl Fn(&Board) -> i32, wdl: f32) -> Loss {
        let (mut net_loss, mut hce_loss) = (0.0f64, 0.0f64);
        for (p, b) in self.positions.iter().zip(&self.boards) {
            let t = target(p, wdl);
            let e = sigmoid(score(b) as f32 / SCALE as f32) - t;
            net_loss += (e * e) as f64;
            hce_loss += hce_error(p, wdl) as f64;
        }
        let n = self.positions.len().max(1) as f64;
        Loss {
            net: net_loss / n,
            hce: hce_loss / n,
        }
    }
}

/// Mean squared errors on a data set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Loss {
    /// The network's.
    pub net: f64,
    /// The hand-crafted evaluation's.
    pub hce: f64,
}
