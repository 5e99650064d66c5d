//! `estuary hw`: the hardware models of `hw::movegen` from the command line.
//!
//! * `hw gen [--out DIR]` writes the Verilog move generator's ROMs and constants
//!   (`hw::movegen::tables`, by default into hw/movegen/gen).
//! * `hw traffic [--depth D] [--offload K] [--mhz F] [--ns-per-word N]` prints the device
//!   clocks per generate at the four positions, then the words across the boundary and the
//!   projected time of perft trees with every node on the bus (the thesis' split) against
//!   offloading the last K plies as one command (`hw::movegen::traffic`, on the co-simulated
//!   RTL).

use crate::args::Args;
use cosim::movegen::RtlDevice;
use hw::movegen::tables::{files, GEN_DIR};
use hw::movegen::traffic::{root_generates, trees, Bus};
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str =
    "usage: estuary hw gen [--out DIR] | estuary hw traffic [--depth D] [--offload K]";

/// Runs `estuary hw gen|traffic ...`.
pub fn run(rest: &[String]) -> Result<ExitCode, String> {
    let (sub, rest) = match rest.split_first() {
        Some((s, r)) => (s.as_str(), r),
        None => return Err(USAGE.into()),
    };
    match sub {
        "gen" => gen(rest),
        "traffic" => traffic(rest),
        _ => Err(format!("unknown hw command '{sub}'\n{USAGE}")),
    }
}

fn gen(rest: &[String]) -> Result<ExitCode, String> {
    let mut args = Args::parse(rest, &[]).map_err(|e| e.to_string())?;
    let out = PathBuf::from(args.value("out").unwrap_or_else(|| GEN_DIR.to_string()));
    args.finish().map_err(|e| e.to_string())?;
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    for (name, text) in files() {
        let p = out.join(name);
        std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))?;
        println!("wrote {}", p.display());
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
