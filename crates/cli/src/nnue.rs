//! `estuary nnue`: train the neural evaluation on `estuary datagen` data, and check a net.
//!
//! * `nnue train DATA... --out FILE [--epochs E] [--batch B] [--lr LR] [--wdl W] [--val V]
//!   [--threads T] [--seed S] [--max N] [--mirror] [--hybrid] [--init NET]` fits the `768 -> HIDDEN x2 -> 1` perspective network
//!   (`eval::nnue`, trained by `eval::nnue::train`) with Adam on shuffled mini-batches. The target blends the search score and
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

use crate::args::{ArgError, Args};
use eval::nnue::train::{Dataset, Start, TrainConfig, Trainer};
use eval::nnue::{Network, HIDDEN};
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
        let positions = Dataset::read_with_boards(data).map_err(|e| e.to_string())?;
        print_skipped(&positions);
        let loss = positions.loss(&net, wdl);
        println!(
            "{} positions, wdl {wdl}: loss {:.6} (the hand-crafted evaluation {:.6})",
            positions.len(),
            loss.net,
            loss.hce
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The first few lines a data set could not read (a run killed mid-write leaves a partial
/// last line).
fn print_skipped(data: &Dataset) {
    for (path, line) in data.skipped().iter().take(5) {
        eprintln!("{path}:{line}: skipped unreadable line");
    }
}

fn train(raw: &[String]) -> Result<ExitCode, String> {
    let mut args = Args::parse(raw, &["mirror", "hybrid"]).map_err(|e| e.to_string())?;
    let e = |e: ArgError| e.to_string();
    let d = TrainConfig::default();
    let cfg = TrainConfig {
        epochs: args.parsed("epochs").map_err(e)?.unwrap_or(d.epochs),
        batch: args.parsed("batch").map_err(e)?.unwrap_or(d.batch),
        lr: args.parsed("lr").map_err(e)?.unwrap_or(d.lr),
        wdl: args.parsed("wdl").map_err(e)?.unwrap_or(d.wdl),
        validation: args.parsed("val").map_err(e)?.unwrap_or(d.validation),
        threads: args
            .parsed("threads")
            .map_err(e)?
            .unwrap_or(d.threads)
            .max(1),
        seed: args.parsed("seed").map_err(e)?.unwrap_or(d.seed),
        mirror: args.flag("mirror"),
        hybrid: args.flag("hybrid"),
    };
    let max: usize = args.parsed("max").map_err(e)?.unwrap_or(usize::MAX);
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
            Start::from_network(&n, &cfg).map_err(|e| format!("--init {path}: {e}"))?
        }
        None => Start::Random,
    };
    let t0 = Instant::now();
    let data = Dataset::read(args.positional(), max).map_err(|e| e.to_string())?;
    print_skipped(&data);
    let mut trainer = Trainer::new(cfg.clone(), start, data).map_err(|e| e.to_string())?;
    eprintln!(
        "{} training, {} validation positions (read in {:.1}s); 768 -> {HIDDEN} x2 -> 1, batch {}, lr {}, wdl {}, {} threads",
        trainer.training_positions(),
        trainer.validation_positions(),
        t0.elapsed().as_secs_f64(),
        cfg.batch,
        cfg.lr,
        cfg.wdl,
        cfg.threads
    );
    eprintln!(
        "epoch 0: validation loss {:.6} (the hand-crafted evaluation scores {:.6} on it)",
        trainer.start_loss(),
        trainer.baseline_loss()
    );
    let write =
        |net: &Network| std::fs::write(&out, net.to_bytes()).map_err(|e| format!("{out}: {e}"));
    if init.is_some() {
        // The starting net is a candidate too: FILE holds the best net seen, the start included.
        write(&trainer.net().quantise())?;
    }
    let mut te = Instant::now();
    while let Some(epoch) = trainer.next_epoch() {
        if epoch.best {
            write(&epoch.net)?;
        }
        eprintln!(
            "epoch {}: lr {:.6}, train loss {:.6}, validation loss {:.6}, {:.0}s; start position {} cp{}",
            epoch.number,
            epoch.lr,
            epoch.train_loss,
            epoch.validation_loss,
            te.elapsed().as_secs_f64(),
            epoch.net.evaluate_board(&chess::Board::startpos()),
            if epoch.best { format!("; wrote {out}") } else { String::new() }
        );
        te = Instant::now();
    }
    Ok(ExitCode::SUCCESS)
}
