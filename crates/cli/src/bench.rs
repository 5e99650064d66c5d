//! `estuary bench`: parses the arguments of [`search::bench`] and prints its result.

use crate::args::Args;
use search::bench::{bench, DEFAULT_DEPTH, POSITIONS};
use std::process::ExitCode;

/// `estuary bench [DEPTH] [--depth D] [--hash MB] [--threads N] [--eval hce|nnue] [--quiet]`.
pub fn run(raw: &[String]) -> Result<ExitCode, String> {
    let mut args = Args::parse(raw, &["quiet"]).map_err(|e| e.to_string())?;
    let pos_depth = args.positional().first().cloned();
    let depth = match args.value("depth").or(pos_depth) {
        Some(d) => d.parse::<i32>().map_err(|_| format!("bad depth '{d}'"))?,
        None => DEFAULT_DEPTH,
    };
    let hash = match args.value("hash") {
        Some(h) => h.parse::<usize>().map_err(|_| format!("bad hash '{h}'"))?,
        None => 16,
    };
    let threads = match args.value("threads") {
        Some(t) => t
            .parse::<usize>()
            .map_err(|_| format!("bad threads '{t}'"))?,
        None => 1,
    };
    let quiet = args.flag("quiet");
    let net = match args.value("eval").as_deref() {
        None => None,
        Some("hce") => Some(None),
        Some("nnue") => Some(Some(eval::nnue::Network::embedded())),
        Some(other) => return Err(format!("unknown eval '{other}' (hce, nnue)")),
    };
    if let Some(dev) = args.value("device") {
        // `--device rtl`: the co-simulated Verilog generator (hw.rs), on fewer positions.
        let count = args
            .parsed::<usize>("positions")
            .map_err(|e| e.to_string())?
            .unwrap_or(8);
        return match dev.as_str() {
            "rtl" => crate::hw::bench_rtl(depth, hash, count),
            "software" => Err("--device software is the default: leave --device out".into()),
            other => Err(format!("unknown device '{other}' (rtl)")),
        };
    }
    let r = bench(depth, hash, threads, net, |i, fen, n| {
        if !quiet {
            eprintln!(
                "Position {:2}/{}: {:>10} nodes  {fen}",
                i + 1,
                POSITIONS.len(),
                n
            );
        }
    });
    println!("===========================");
    println!("Total time (ms) : {}", r.ms);
    println!("Nodes searched: {}", r.nodes);
    println!("Nodes/second: {}", r.nodes * 1000 / r.ms.max(1));
    Ok(ExitCode::SUCCESS)
}
