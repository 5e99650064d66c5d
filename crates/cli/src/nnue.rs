//! `estuary nnue`: train the neural evaluation on `estuary datagen` data, and check a net.
//!
//! * `nnue train DATA... --out FILE [--epochs E] [--batch B] [--lr LR] [--wdl W] [--val V]
//!   [--threads T] [--seed S] [--max N] [--mirror] [--hybrid] [--init NET] [--arch chip|chip-narrow|onechan]` fits the `768 -> HIDDEN x2 -> 1` perspective network
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
//!   `--arch chip|chip-narrow|onechan` trains a chip net instead (`eval::chip`, the evaluation unit's
//!   network: `Arch::estuary()`, `Arch::estuary_narrow()` or `Arch::onechan()`) with the same trainer, and writes an
//!   `ESTCHIP1` file; `--init` then takes a chip net of that shape.
//! * `nnue check FILE [DATA... [--wdl W]]` reads a net file (a software net or an `ESTCHIP1`
//!   chip net) and prints its shape and its scores of a few positions; with data files, also
//!   the quantised net's loss on their positions (the trainer's loss, target weight W,
//!   default 0) next to the hand-crafted evaluation's: nets trained on different data
//!   compared on the same held-out games.

use crate::args::{ArgError, Args};
use eval::chip::{Arch, ChipFloat, ChipNet};
use eval::nnue::train::{Dataset, Model, QuantisedNet, Start, TrainConfig, Trainer};
use eval::nnue::{FloatNet, Network, HIDDEN};
use std::process::ExitCode;
use std::time::Instant;

const USAGE_TRAIN: &str = "estuary nnue train DATA... --out FILE [--epochs E] [--batch B] [--lr LR] [--wdl W] [--val V] [--threads T] [--seed S] [--max N] [--mirror] [--hybrid] [--init NET] [--arch chip|chip-narrow|onechan]";
const USAGE_CHECK: &str = "estuary nnue check FILE [DATA... [--wdl W]]";

/// Positions whose scores `nnue check` prints.
const CHECK_FENS: [(&str, &str); 3] = [
    (
        "start position",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "after 1. e4",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    ),
    (
        "White a queen up",
        "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
];

const USAGE_DISTILL: &str = "estuary nnue distill DATA... --out FILE [--net FILE] [--children]";

/// `nnue distill`: the positions of self-play data (and with `--children`, every position one
/// quiet move on) labelled with a teacher net's static evaluation (the built-in net unless
/// `--net`), the game's result kept: data for training a smaller net to evaluate as the
/// teacher does. Positions in check are left out.
fn distill(raw: &[String]) -> Result<ExitCode, String> {
    use chess::{GenMode, MoveList};
    use std::io::{BufRead, Write};
    let mut args = Args::parse(raw, &["children"]).map_err(|e| e.to_string())?;
    let out = args.value("out").ok_or(format!("usage: {USAGE_DISTILL}"))?;
    let teacher = match args.value("net") {
        Some(p) => eval::Net::load(&p).map_err(|e| e.to_string())?,
        None => eval::Net::Nnue(eval::nnue::Network::embedded()),
    };
    let children = args.flag("children");
    let inputs: Vec<String> = args.positional().to_vec();
    args.finish().map_err(|e| e.to_string())?;
    if inputs.is_empty() {
        return Err(format!("usage: {USAGE_DISTILL}"));
    }
    let file = std::fs::File::create(&out).map_err(|e| format!("{out}: {e}"))?;
    let mut w = std::io::BufWriter::new(file);
    let (mut read, mut written, mut bad) = (0u64, 0u64, 0u64);
    let emit = |w: &mut std::io::BufWriter<std::fs::File>, b: &chess::Board, result: f32| {
        if b.in_check() {
            return Ok::<u64, String>(0);
        }
        let stm = teacher.evaluate_board(b);
        let white = if b.side_to_move() == chess::Color::White {
            stm
        } else {
            -stm
        };
        writeln!(
            w,
            "{}",
            eval::nnue::data::format_line(&b.to_fen(), white, result)
        )
        .map_err(|e| format!("{out}: {e}"))?;
        Ok(1)
    };
    for path in &inputs {
        let f = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
        for line in std::io::BufReader::new(f).lines() {
            let line = line.map_err(|e| format!("{path}: {e}"))?;
            let Ok(s) = eval::nnue::data::parse_line(&line) else {
                bad += 1;
                continue;
            };
            read += 1;
            written += emit(&mut w, &s.board, s.result)?;
            if children {
                let mut list = MoveList::new();
                s.board.generate_into(GenMode::All, &mut list);
                for &m in list.iter().filter(|m| !m.is_tactical()) {
                    written += emit(&mut w, &s.board.played(m), s.result)?;
                }
            }
        }
    }
    w.flush().map_err(|e| format!("{out}: {e}"))?;
    println!("{read} positions read ({bad} lines skipped), {written} written to {out}, labelled by {teacher}");
    Ok(ExitCode::SUCCESS)
}

/// Dispatches `nnue train`, `nnue check` and `nnue distill`.
pub fn run(raw: &[String]) -> Result<ExitCode, String> {
    match raw.split_first() {
        Some((c, rest)) if c == "train" => train(rest),
        Some((c, rest)) if c == "check" => check(rest),
        Some((c, rest)) if c == "distill" => distill(rest),
        _ => Err(format!(
            "usage: {USAGE_TRAIN} | {USAGE_CHECK} | {USAGE_DISTILL}"
        )),
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
        return Err(format!("usage: {USAGE_CHECK}"));
    };
    let net = eval::Net::load(path).map_err(|e| match e {
        eval::net::NetFileError::Io(e) => e,
        e => format!("{path}: {e}"),
    })?;
    println!(
        "{path}: {net}, start position {} cp",
        net.evaluate_board(&chess::Board::startpos())
    );
    for (name, fen) in &CHECK_FENS[1..] {
        // The FENs are constants of this file, and valid.
        let b = chess::Board::from_fen(fen).expect("a valid FEN");
        println!("  {name}: {} cp (side to move)", net.evaluate_board(&b));
    }
    if !data.is_empty() {
        let positions = Dataset::read_with_boards(data).map_err(|e| e.to_string())?;
        print_skipped(&positions);
        let loss = positions.loss(|b| net.evaluate_board(b), wdl);
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
    let arch = match args.value("arch").as_deref() {
        None => None,
        Some("chip") => Some(Arch::estuary()),
        Some("chip-narrow") => Some(Arch::estuary_narrow()),
        Some("onechan") => Some(Arch::onechan()),
        Some(other) => return Err(format!("--arch {other}: chip, chip-narrow or onechan")),
    };
    args.finish().map_err(e)?;
    if args.positional().is_empty() {
        return Err("nnue train needs data files (estuary datagen output)".into());
    }
    let run = Run {
        cfg,
        data: args.positional(),
        max,
        out,
        init: init.is_some(),
    };
    // Read the starting net before the data, so a bad file fails at once.
    match arch {
        None => {
            let start = match &init {
                Some(path) => {
                    let n = Network::load(path).map_err(|e| format!("--init: {e}"))?;
                    Start::from_network(&n, &run.cfg).map_err(|e| format!("--init {path}: {e}"))?
                }
                None => Start::<FloatNet>::Random(()),
            };
            run.fit(start, &format!("768 -> {HIDDEN} x2 -> 1"))
        }
        Some(arch) => {
            let start = match &init {
                Some(path) => {
                    let n = ChipNet::load(path).map_err(|e| format!("--init: {e}"))?;
                    if n.arch != arch {
                        return Err(format!("--init {path}: a chip net {}, not {arch}", n.arch));
                    }
                    Start::from_model(ChipFloat::from_chip(&n), &run.cfg)
                        .map_err(|e| format!("--init {path}: {e}"))?
                }
                None => Start::<ChipFloat>::Random(arch.clone()),
            };
            run.fit(start, &format!("chip net {arch}"))
        }
    }
}

/// A training run's settings, whatever the model.
struct Run<'a> {
    cfg: TrainConfig,
    data: &'a [String],
    max: usize,
    out: String,
    /// The run starts from a net file.
    init: bool,
}

impl Run<'_> {
    /// Reads the data and runs the epochs from `start`, writing the best net to the output
    /// file; `shape` names the model in the log.
    fn fit<M: Model>(self, start: Start<M>, shape: &str) -> Result<ExitCode, String> {
        let (cfg, out) = (&self.cfg, &self.out);
        let t0 = Instant::now();
        let data = Dataset::read(self.data, self.max).map_err(|e| e.to_string())?;
        print_skipped(&data);
        let mut trainer = Trainer::new(cfg.clone(), start, data).map_err(|e| e.to_string())?;
        eprintln!(
            "{} training, {} validation positions (read in {:.1}s); {shape}, batch {}, lr {}, wdl {}, {} threads",
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
        let write = |net: &M::Quantised| {
            std::fs::write(out, net.to_bytes()).map_err(|e| format!("{out}: {e}"))
        };
        if self.init {
            // The starting net is a candidate too: FILE holds the best net seen, the start
            // included.
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
}
