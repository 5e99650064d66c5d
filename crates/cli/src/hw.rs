//! `estuary hw`: the hardware models of `hw::movegen` from the command line.
//!
//! * `hw gen [--out DIR] [--net FILE]` writes the Verilog move generator's ROMs and constants
//!   (`hw::movegen::tables`, by default into hw/movegen/gen), the evaluation unit's RAM
//!   images of a chip net (`hw::evalunit::Image`, the built-in pure net by default: the
//!   search machine's, which a board carries; into
//!   hw/evalunit/gen) and the search machine's key ROM (`hw::chip::tables`, into hw/chip/gen);
//!   with `--out DIR`, into DIR/movegen, DIR/evalunit and DIR/chip.
//! * `hw traffic [--depth D] [--offload K] [--mhz F] [--ns-per-word N]` prints the device
//!   clocks per generate at the four positions, then the words across the boundary and the
//!   projected time of perft trees with every node on the bus (the thesis' split) against
//!   offloading the last K plies as one command (`hw::movegen::traffic`, on the co-simulated
//!   RTL).
//! * `hw eval [--net FILE] [--mhz F] [--repeat R]` times the chip net's inference on this CPU
//!   (AVX2 and scalar: ns per incremental update and per evaluation) on every move of the
//!   bench positions, and runs the same updates and evaluations on the co-simulated
//!   evaluation unit: clocks per call, and time and throughput at F MHz.

use crate::args::Args;
use cosim::movegen::RtlDevice;
use hw::movegen::tables::{files, GEN_DIR};
use hw::movegen::traffic::{root_generates, trees, Bus};
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str =
    "usage: estuary hw gen [--out DIR] [--net FILE] | estuary hw traffic [--depth D] \
     [--offload K] | estuary hw eval [--net FILE] [--mhz F] [--repeat R]";

/// Runs `estuary hw gen|traffic ...`.
pub fn run(rest: &[String]) -> Result<ExitCode, String> {
    let (sub, rest) = match rest.split_first() {
        Some((s, r)) => (s.as_str(), r),
        None => return Err(USAGE.into()),
    };
    match sub {
        "gen" => gen(rest),
        "traffic" => traffic(rest),
        "eval" => eval_unit(rest),
        _ => Err(format!("unknown hw command '{sub}'\n{USAGE}")),
    }
}

fn gen(rest: &[String]) -> Result<ExitCode, String> {
    let mut args = Args::parse(rest, &[]).map_err(|e| e.to_string())?;
    let out = args.value("out").map(PathBuf::from);
    // The evaluation unit's initial RAMs hold the search machine's net (the built-in pure
    // chip net) unless --net names another.
    let net = match args.value("net") {
        Some(p) => eval::chip::ChipNet::load(&p).map_err(|e| e.to_string())?,
        None => (*eval::chip::ChipNet::embedded_pure()).clone(),
    };
    args.finish().map_err(|e| e.to_string())?;
    let image = hw::evalunit::Image::of(&net).map_err(|e| e.to_string())?;
    // With --out, the units' files go to DIR/movegen, DIR/evalunit and DIR/chip.
    let dirs = match &out {
        Some(d) => [d.join("movegen"), d.join("evalunit"), d.join("chip")],
        None => [
            PathBuf::from(GEN_DIR),
            PathBuf::from(hw::evalunit::GEN_DIR),
            PathBuf::from(hw::chip::tables::GEN_DIR),
        ],
    };
    let named = |files: Vec<(&str, String)>| -> Vec<(String, String)> {
        files.into_iter().map(|(n, t)| (n.to_string(), t)).collect()
    };
    let chip = named(hw::chip::tables::files());
    for (dir, files) in dirs.iter().zip([named(files()), image.files(), chip]) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for (name, text) in files {
            let p = dir.join(name);
            std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))?;
            println!("wrote {}", p.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn traffic(rest: &[String]) -> Result<ExitCode, String> {
    let mut args = Args::parse(rest, &[]).map_err(|e| e.to_string())?;
    let e = |e: crate::args::ArgError| e.to_string();
    let depth: u32 = args.parsed("depth").map_err(e)?.unwrap_or(3);
    let offload: u32 = args.parsed("offload").map_err(e)?.unwrap_or(2);
    let bus = Bus {
        mhz: args.parsed("mhz").map_err(e)?.unwrap_or(50.0),
        ns_per_word: args.parsed("ns-per-word").map_err(e)?.unwrap_or(100.0),
    };
    args.finish().map_err(e)?;
    let roots = root_generates(RtlDevice::new).map_err(|e| e.to_string())?;
    println!("One generate at the root, device clock {} MHz:", bus.mhz);
    println!(
        "{:<11} {:>6} {:>7} {:>9} {:>10} {:>6} {:>7} {:>7}",
        "position", "moves", "clocks", "moves/clk", "moves/s", "capts", "clocks", "count"
    );
    for (name, r) in &roots {
        println!(
            "{:<11} {:>6} {:>7} {:>9.3} {:>9.1}M {:>6} {:>7} {:>7}",
            name,
            r.moves,
            r.clocks,
            r.moves_per_clock(),
            r.moves_per_clock() * bus.mhz,
            r.captures,
            r.capture_clocks,
            r.count_clocks
        );
    }
    let trees = trees(RtlDevice::new, depth, offload).map_err(|e| e.to_string())?;
    println!();
    println!(
        "perft {depth} trees; bus {} ns per 32-bit word; last {offload} plies offloaded as one command:",
        bus.ns_per_word
    );
    println!(
        "{:<11} {:>8} {:>9} {:>10} {:>10} {:>9} {:>9} {:>10} {:>10} {:>7}",
        "position", "nodes", "clocks", "words", "words/node", "ms", "clocks", "words", "ms", "less"
    );
    println!(
        "{:<11} {:>8} {:>9} {:>10} {:>10} {:>9} {:>9} {:>10} {:>10} {:>7}",
        "", "", "", "per-node", "per-node", "per-node", "offload", "offload", "offload", "words"
    );
    for (name, t) in &trees {
        println!(
            "{:<11} {:>8} {:>9} {:>10} {:>10.2} {:>9.2} {:>9} {:>10} {:>10.2} {:>6.0}x",
            name,
            t.nodes,
            t.per_node.clocks,
            t.per_node.words,
            t.words_per_node(),
            bus.ms(t.per_node),
            t.offloaded.clocks,
            t.offloaded.words,
            bus.ms(t.offloaded),
            t.word_reduction()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `estuary hw eval`: the chip net on this CPU against the co-simulated evaluation unit.
fn eval_unit(rest: &[String]) -> Result<ExitCode, String> {
    use chess::{Board, GenMode, MoveList};
    use device::Evaluator;
    use eval::chip::ChipAcc;
    use eval::nnue::PieceBoards;
    use std::hint::black_box;
    use std::time::Instant;

    let mut args = Args::parse(rest, &[]).map_err(|e| e.to_string())?;
    let e = |e: crate::args::ArgError| e.to_string();
    let mhz: f64 = args
        .parsed("mhz")
        .map_err(e)?
        .unwrap_or(hw::evalunit::ROUTED_FMAX_MHZ);
    let repeat: usize = args.parsed("repeat").map_err(e)?.unwrap_or(200);
    let net = crate::chip_net(args.value("net"))?;
    args.finish().map_err(e)?;
    if !(mhz > 0.0 && mhz.is_finite()) || repeat == 0 {
        return Err("--mhz and --repeat must be positive".into());
    }

    // Every move of every bench position: the parent's accumulators and both placements.
    let mut cases = Vec::new();
    for fen in search::bench::POSITIONS {
        let b = Board::from_fen(fen).map_err(|e| format!("{fen}: {e}"))?;
        let mut acc = ChipAcc::default();
        net.refresh(&mut acc, &b);
        let mut list = MoveList::new();
        b.generate_into(GenMode::All, &mut list);
        for &m in list.iter() {
            let after = b.played(m);
            cases.push((b, m, acc, PieceBoards::of(&b), after));
        }
    }
    let n = cases.len();
    let children: Vec<ChipAcc> = cases
        .iter()
        .map(|(_, _, parent, before, after)| {
            let mut c = ChipAcc::default();
            net.update(&mut c, parent, before, &PieceBoards::of(after));
            c
        })
        .collect();
    println!(
        "Chip net {} on {n} moves of the {} bench positions",
        net.arch,
        search::bench::POSITIONS.len()
    );
    println!(
        "{:<26} {:>12} {:>12} {:>16}",
        "", "ns/update", "ns/evaluate", "update+eval/s"
    );
    let mut cpu_best = f64::INFINITY;
    let kinds: &[(&str, bool)] = if eval::chip::simd::avx2_available() {
        &[("CPU, AVX2 (this machine)", true), ("CPU, scalar", false)]
    } else {
        &[("CPU, scalar (no AVX2)", false)]
    };
    for &(name, avx2) in kinds {
        let mut child = ChipAcc::default();
        let t = Instant::now();
        for _ in 0..repeat {
            for (_, _, parent, before, after) in &cases {
                net.update_using(
                    &mut child,
                    black_box(parent),
                    before,
                    &PieceBoards::of(after),
                    avx2,
                );
                black_box(&child);
            }
        }
        let update = t.elapsed().as_nanos() as f64 / (repeat * n) as f64;
        let t = Instant::now();
        let mut sum = 0i64;
        for _ in 0..repeat {
            for (c, (_, _, _, _, after)) in children.iter().zip(&cases) {
                sum += net.evaluate_using(black_box(c), after.side_to_move(), avx2) as i64;
            }
        }
        black_box(sum);
        let evaluate = t.elapsed().as_nanos() as f64 / (repeat * n) as f64;
        cpu_best = cpu_best.min(update + evaluate);
        println!(
            "{name:<26} {update:>12.1} {evaluate:>12.1} {:>15.2}M",
            1e3 / (update + evaluate)
        );
    }
    if !cosim::available() {
        println!(
            "(no co-simulation in this build: install verilator and rebuild for the unit's clocks)"
        );
        return Ok(ExitCode::SUCCESS);
    }
    let mut unit = cosim::evalunit::RtlEval::new(std::sync::Arc::new(net.clone()))
        .map_err(|e| e.to_string())?;
    let mut last = None;
    for (b, m, _, _, after) in &cases {
        if last != Some(*b) {
            unit.load(b);
            last = Some(*b);
        }
        unit.make(*m, b, after);
        unit.evaluate(after);
        unit.unmake();
    }
    let (s, c) = (unit.stats(), unit.clocks());
    let (cu, ce) = (
        c.make as f64 / s.makes as f64,
        c.eval as f64 / s.evals as f64,
    );
    let goal = hw::evalunit::GOAL_MHZ;
    for (what, f) in [("routed Fmax", mhz), ("the 100 MHz goal", goal)] {
        if what.starts_with("the") && f <= mhz {
            continue;
        }
        let ns = 1e3 / f;
        println!(
            "{:<26} {:>12.1} {:>12.1} {:>15.2}M   ({cu:.2} + {ce:.2} clocks at {f} MHz, {what}; unmake {:.2})",
            "evaluation unit (RTL)",
            cu * ns,
            ce * ns,
            f / (cu + ce),
            c.unmake as f64 / s.unmakes as f64
        );
        println!(
            "  against the fastest CPU kernel at {f} MHz: {:.2}x per update + evaluate",
            cpu_best / ((cu + ce) * ns)
        );
    }
    Ok(ExitCode::SUCCESS)
}
