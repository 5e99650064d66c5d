//! `estuary nnue`: train the neural evaluation on `estuary datagen` data, and check a net.
//!
//! * `nnue train DATA... --out FILE [--epochs E] [--batch B] [--lr LR] [--wdl W] [--val V]
//!   [--threads T] [--seed S] [--max N] [--mirror] [--hybrid] [--init NET]` fits the `768 -> HIDDEN x2 -> 1` perspective network
//!   (`eval::nnue`) with Adam on shuffled mini-batches. The target blends the search score and
//!   the game result, both from the side to move: `(1 - W) * sigmoid(score / 400) + W * result`;
//!   the loss is the squared error of `sigmoid(output)`. The last V of the positions (default 2%:
//!   whole games, the file being written game by game) are held out and their loss reported
//!   after every epoch. The quantised
//!   net is written to FILE whenever the validation loss improves (early stopping; an
//!   interrupted run leaves the best net so far). The hand-crafted evaluation's loss on the
//!   same positions is printed as the baseline.
//!   `--mirror` trains on each position or its left-right mirror (files a-h swapped; the net
//!   does not see castling rights), picked at random every epoch: more data from few games.
//!   `--hybrid` trains a correction to the hand-crafted evaluation instead of a whole one:
//!   the prediction is `sigmoid(output + hce / 400)` and the net file says so (`ESTNNUH1`).
//!   `--init NET` starts from a net file's weights instead of random ones (fine-tuning a
//!   shipped net on new data; the net's kind, hybrid or not, is kept). FILE first receives the
//!   starting net, so it always holds the best net seen, the start included.
//! * `nnue check FILE [DATA... [--wdl W]]` reads a net file and prints its start-position
//!   score; with data files, also the quantised net's loss on their positions (the trainer's
//!   loss, target weight W, default 0) next to the hand-crafted evaluation's: nets trained on
//!   different data compared on the same held-out games.

use crate::args::Args;
use chess::rng::Rng;
use eval::nnue::{data, FloatNet, Network, HIDDEN, INPUTS, SCALE};
use std::io::BufRead;
use std::process::ExitCode;
use std::time::Instant;

/// Dispatches `nnue train` and `nnue check`.
pub fn run(raw: &[String]) -> Result<ExitCode, String> {
    match raw.split_first() {
        Some((c, rest)) if c == "train" => train(rest),
        Some((c, rest)) if c == "check" => check(rest),
        _ => Err("usage: estuary nnue train DATA... --out FILE [--epochs E] [--batch B] [--lr LR] [--wdl W] [--val V] [--threads T] [--seed S] [--max N] [--mirror] [--hybrid] [--init NET] | estuary nnue check FILE [DATA... [--wdl W]]".into()),
    }
}

fn check(raw: &[String]) -> Result<ExitCode, String> {
    let mut args = Args::parse(raw, &[]).map_err(|e| e.to_string())?;
    let wdl: f32 = args
        .parsed("wdl")
        .map_err(|e| e.to_string())?
        .unwrap_or(0.0);
    args.finish().map_err(|e| e.to_string())?;
    let Some((path, data)) = args.positional().split_first() else {
        return Err("usage: estuary nnue check FILE [DATA... [--wdl W]]".into());
    };
    let net = Network::load(path).map_err(|e| e.to_string())?;
    println!(
        "{path}: 768 -> {HIDDEN} x2 -> 1, start position {} cp",
        net.evaluate_board(&chess::Board::startpos())
    );
    if !data.is_empty() {
        // The quantised net as the engine runs it, scored like the trainer's validation.
        let (positions, boards) = load(data, usize::MAX, true)?;
        let (mut net_loss, mut hce_loss) = (0.0f64, 0.0f64);
        for (p, b) in positions.iter().zip(&boards) {
            let t = target(p, wdl);
            let e = sigmoid(net.evaluate_board(b) as f32 / SCALE as f32) - t;
            net_loss += (e * e) as f64;
            let e = sigmoid(p.hce as f32 / SCALE as f32) - t;
            hce_loss += (e * e) as f64;
        }
        let n = positions.len().max(1) as f64;
        println!(
            "{} positions, wdl {wdl}: loss {:.6} (the hand-crafted evaluation {:.6})",
            positions.len(),
            net_loss / n,
            hce_loss / n
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// A training position: White-perspective feature indices, side to move, targets.
#[derive(Clone, Copy)]
struct Pos {
    feats: [u16; 32],
    n: u8,
    white_to_move: bool,
    /// Search score, side to move's view, centipawns.
    score: i16,
    /// Result for the side to move: 0, 1, 2 = loss, draw, win.
    result: u8,
    /// The hand-crafted evaluation, side to move's view (the baseline the net must beat).
    hce: i16,
}

impl Pos {
    fn from_sample(s: &data::Sample) -> Option<Pos> {
        let b = &s.board;
        let mut feats = [0u16; 32];
        let mut n = 0;
        for c in chess::Color::ALL {
            for k in chess::PieceKind::ALL {
                for sq in b.pieces(c, k) {
                    if n == 32 {
                        return None;
                    }
                    feats[n] = eval::nnue::feature(chess::Color::White, c, k, sq) as u16;
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
            hce: eval::evaluate(b).clamp(-3000, 3000) as i16,
        })
    }
}

/// The same piece from Black's side: own and enemy swapped, ranks flipped.
#[inline(always)]
fn black_feature(f: usize) -> usize {
    ((f + 384) % INPUTS) ^ 56
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Gradient buffers (the same layout as `FloatNet`).
struct Grad {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
    loss: f64,
}

impl Grad {
    fn new() -> Grad {
        Grad {
            w1: vec![0.0; INPUTS * HIDDEN],
            b1: vec![0.0; HIDDEN],
            w2: vec![0.0; 2 * HIDDEN],
            b2: 0.0,
            loss: 0.0,
        }
    }
    fn clear(&mut self) {
        self.w1.iter_mut().for_each(|x| *x = 0.0);
        self.b1.iter_mut().for_each(|x| *x = 0.0);
        self.w2.iter_mut().for_each(|x| *x = 0.0);
        self.b2 = 0.0;
        self.loss = 0.0;
    }
}

fn target(p: &Pos, wdl: f32) -> f32 {
    (1.0 - wdl) * sigmoid(p.score as f32 / SCALE as f32) + wdl * p.result as f32 / 2.0
}

/// Forward pass; with `grad`, also accumulates the gradient. Returns the squared error.
// The loops walk several parallel arrays by lane index; iterator chains would hide that.
#[allow(clippy::needless_range_loop)]
/// `flip` is 0, or 7 to mirror the board left to right (files a-h swapped).
fn step(net: &FloatNet, p: &Pos, flip: usize, wdl: f32, grad: Option<&mut Grad>) -> f32 {
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
        out += eval::nnue::float::screlu(acc[us][i]) * net.w2[i]
            + eval::nnue::float::screlu(acc[them][i]) * net.w2[HIDDEN + i];
    }
    let base = if net.hybrid {
        p.hce as f32 / SCALE as f32
    } else {
        0.0
    };
    let pred = sigmoid(out + base);
    let t = target(p, wdl);
    let err = pred - t;
    if let Some(g) = grad {
        let d_out = 2.0 * err * pred * (1.0 - pred);
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
        g.loss += (err * err) as f64;
    }
    err * err
}

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

/// Reads training positions; with `keep_boards`, also the boards (`nnue check` evaluates them).
fn load(
    paths: &[String],
    max: usize,
    keep_boards: bool,
) -> Result<(Vec<Pos>, Vec<chess::Board>), String> {
    let mut out = Vec::new();
    let mut boards = Vec::new();
    let mut bad = 0usize;
    for path in paths {
        let f = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
        for (n, line) in std::io::BufReader::new(f).lines().enumerate() {
            let line = line.map_err(|e| format!("{path}: {e}"))?;
            if line.trim().is_empty() {
                continue;
            }
            let sample = data::parse_line(&line).ok();
            match sample.as_ref().and_then(Pos::from_sample) {
                Some(p) => {
                    out.push(p);
                    if keep_boards {
                        boards.extend(sample.map(|s| s.board));
                    }
                }
                None => {
                    // A run killed mid-write can leave a partial last line.
                    bad += 1;
                    if bad <= 5 {
                        eprintln!("{path}:{}: skipped unreadable line", n + 1);
                    }
                }
            }
            if out.len() >= max {
                return Ok((out, boards));
            }
        }
    }
    Ok((out, boards))
}

fn train(raw: &[String]) -> Result<ExitCode, String> {
    let mut args = Args::parse(raw, &["mirror", "hybrid"]).map_err(|e| e.to_string())?;
    let e = |e: crate::args::ArgError| e.to_string();
    let epochs: usize = args.parsed("epochs").map_err(e)?.unwrap_or(20);
    let batch: usize = args.parsed("batch").map_err(e)?.unwrap_or(16384);
    let lr0: f32 = args.parsed("lr").map_err(e)?.unwrap_or(0.001);
    let wdl: f32 = args.parsed("wdl").map_err(e)?.unwrap_or(0.3);
    let val_frac: f64 = args.parsed("val").map_err(e)?.unwrap_or(0.02);
    let threads: usize = args.parsed("threads").map_err(e)?.unwrap_or(2).max(1);
    let seed: u64 = args.parsed("seed").map_err(e)?.unwrap_or(1);
    let max: usize = args.parsed("max").map_err(e)?.unwrap_or(usize::MAX);
    let mirror = args.flag("mirror");
    let hybrid = args.flag("hybrid");
    let out = args.value("out").ok_or("nnue train needs --out FILE")?;
    let init = args.value("init");
    args.finish().map_err(e)?;
    if args.positional().is_empty() {
        return Err("nnue train needs data files (estuary datagen output)".into());
    }
    // Read the starting net before the data, so a bad file fails at once.
    let start = match &init {
        Some(path) => {
            let n = Network::load(path).map_err(|e| format!("--init: {e}"))?;
            if hybrid && !n.is_hybrid() {
                return Err(format!(
                    "--init {path} is a stand-alone net, --hybrid asks for a correction net"
                ));
            }
            Some(FloatNet::from_network(&n))
        }
        None => None,
    };
    let t0 = Instant::now();
    let (mut all, _) = load(args.positional(), max, false)?;
    let mut rng = Rng::new(seed);
    // Validation: the last positions read, i.e. whole games the training never sees
    // (positions of one game are alike, so a random split would flatter the net).
    let n_val = ((all.len() as f64 * val_frac) as usize).min(all.len() / 2);
    let val = all.split_off(all.len() - n_val);
    let mut trn = all;
    if trn.is_empty() {
        return Err("no training positions".into());
    }
    eprintln!(
        "{} training, {} validation positions (read in {:.1}s); 768 -> {HIDDEN} x2 -> 1, batch {batch}, lr {lr0}, wdl {wdl}, {threads} threads",
        trn.len(),
        val.len(),
        t0.elapsed().as_secs_f64()
    );
    let mut net = match start {
        Some(n) => n,
        None => {
            let mut n = FloatNet::random(seed);
            if hybrid {
                // Start as the hand-crafted evaluation: no correction yet.
                n.hybrid = true;
                n.w2.iter_mut().for_each(|w| *w = 0.0);
            }
            n
        }
    };
    let nparams = INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN + 1;
    let mut adam = Adam {
        m: vec![0.0; nparams],
        v: vec![0.0; nparams],
        t: 0,
    };
    let mut grads: Vec<Grad> = (0..threads).map(|_| Grad::new()).collect();
    let val_loss = |net: &FloatNet| -> f64 {
        if val.is_empty() {
            return f64::NAN;
        }
        val.iter()
            .map(|p| step(net, p, 0, wdl, None) as f64)
            .sum::<f64>()
            / val.len() as f64
    };
    let hce_loss = val
        .iter()
        .map(|p| {
            let e = sigmoid(p.hce as f32 / SCALE as f32) - target(p, wdl);
            (e * e) as f64
        })
        .sum::<f64>()
        / val.len().max(1) as f64;
    let loss0 = val_loss(&net);
    eprintln!(
        "epoch 0: validation loss {loss0:.6} (the hand-crafted evaluation scores {hce_loss:.6} on it)"
    );
    let mut best = f64::INFINITY;
    if init.is_some() {
        // The starting net is a candidate too: an epoch must beat it to replace it.
        std::fs::write(&out, net.quantise().to_bytes()).map_err(|e| format!("{out}: {e}"))?;
        if !val.is_empty() {
            best = loss0;
        }
    }
    for epoch in 1..=epochs {
        let te = Instant::now();
        for i in (1..trn.len()).rev() {
            trn.swap(i, rng.below(i + 1));
        }
        // Cosine decay to 5% of the starting rate.
        let progress = (epoch - 1) as f32 / epochs as f32;
        let lr = lr0 * (0.05 + 0.95 * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos()));
        let mut train_loss = 0.0f64;
        for chunk in trn.chunks(batch) {
            let per = chunk.len().div_ceil(threads);
            std::thread::scope(|s| {
                for (g, part) in grads.iter_mut().zip(chunk.chunks(per)) {
                    let net = &net;
                    s.spawn(move || {
                        g.clear();
                        for (k, p) in part.iter().enumerate() {
                            // The order is reshuffled every epoch, so this mirrors a random half.
                            let flip = if mirror && (k + epoch) % 2 == 1 { 7 } else { 0 };
                            step(net, p, flip, wdl, Some(g));
                        }
                    });
                }
            });
            let used = chunk.chunks(per).count();
            let (first, rest) = grads.split_at_mut(1);
            let g0 = &mut first[0];
            for g in rest.iter().take(used - 1) {
                g0.w1.iter_mut().zip(&g.w1).for_each(|(a, b)| *a += b);
                g0.b1.iter_mut().zip(&g.b1).for_each(|(a, b)| *a += b);
                g0.w2.iter_mut().zip(&g.w2).for_each(|(a, b)| *a += b);
                g0.b2 += g.b2;
                g0.loss += g.loss;
            }
            train_loss += g0.loss;
            let scale = 1.0 / chunk.len() as f32;
            g0.w1.iter_mut().for_each(|x| *x *= scale);
            g0.b1.iter_mut().for_each(|x| *x *= scale);
            g0.w2.iter_mut().for_each(|x| *x *= scale);
            let gb2 = [g0.b2 * scale];
            let mut b2 = [net.b2];
            adam.update(
                &mut [&mut net.w1, &mut net.b1, &mut net.w2, &mut b2],
                &[&g0.w1, &g0.b1, &g0.w2, &gb2],
                lr,
            );
            net.b2 = b2[0];
            net.clip();
        }
        let q = net.quantise();
        // Keep the net that does best on the held-out games (all of them without any).
        let v = val_loss(&net);
        let keep = v < best || val.is_empty();
        if keep {
            best = v;
            std::fs::write(&out, q.to_bytes()).map_err(|e| format!("{out}: {e}"))?;
        }
        eprintln!(
            "epoch {epoch}: lr {lr:.6}, train loss {:.6}, validation loss {v:.6}, {:.0}s; start position {} cp{}",
            train_loss / trn.len() as f64,
            te.elapsed().as_secs_f64(),
            q.evaluate_board(&chess::Board::startpos()),
            if keep { format!("; wrote {out}") } else { String::new() }
        );
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn black_features_mirror_white_ones() {
        let b = chess::Board::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        for c in chess::Color::ALL {
            for k in chess::PieceKind::ALL {
                for sq in b.pieces(c, k) {
                    let w = eval::nnue::feature(chess::Color::White, c, k, sq);
                    let bl = eval::nnue::feature(chess::Color::Black, c, k, sq);
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
        let mut g = Grad::new();
        step(&net, &p, 0, 0.3, Some(&mut g));
        let f = eval::nnue::feature(
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
                (step(&plus, &p, 0, 0.3, None) - step(&minus, &p, 0, 0.3, None)) / (2.0 * h);
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
