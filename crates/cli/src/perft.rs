//! `estuary perft`: leaf counts of the legal move tree, single positions and EPD suites.

use crate::args::Args;
use crate::outln;
use chess::{parse_perft_suite, perft_divide_parallel, perft_parallel, Board};
use std::process::ExitCode;
use std::time::Instant;

const FLAGS: &[&str] = &["divide", "chess960"];

/// Entry point: `estuary perft DEPTH [--fen FEN] [--divide] [--threads N]` or
/// `estuary perft --epd FILE [--max-depth D] [--threads N]`.
pub fn run(raw: &[String]) -> Result<ExitCode, String> {
    let mut args = Args::parse(raw, FLAGS).map_err(|e| e.to_string())?;
    let threads: usize = args
        .parsed("threads")
        .map_err(|e| e.to_string())?
        .unwrap_or(1)
        .max(1);
    if let Some(file) = args.value("epd") {
        let max_depth: Option<u32> = args.parsed("max-depth").map_err(|e| e.to_string())?;
        args.finish().map_err(|e| e.to_string())?;
        return run_suite(&file, max_depth, threads);
    }
    let depth: u32 = match args.positional() {
        [d] => d
            .parse()
            .map_err(|_| format!("perft: DEPTH must be a number, got '{d}'"))?,
        [] => return Err("perft: missing DEPTH (or --epd FILE)".into()),
        _ => return Err("perft: too many arguments".into()),
    };
    let fen = args
        .value("fen")
        .unwrap_or_else(|| chess::STARTPOS.to_string());
    let divide = args.flag("divide");
    let chess960 = args.flag("chess960");
    args.finish().map_err(|e| e.to_string())?;
    let mut board = Board::from_fen(&fen).map_err(|e| e.to_string())?;
    if chess960 {
        board.set_chess960(true);
    }
    let start = Instant::now();
    let nodes = if divide {
        let rows = perft_divide_parallel(&board, depth, threads);
        for (m, n) in &rows {
            outln!("{}: {n}", board.move_to_uci(*m));
        }
        rows.iter()
            .map(|r| r.1)
            .sum::<u64>()
            .max(u64::from(depth == 0))
    } else {
        perft_parallel(&board, depth, threads)
    };
    let secs = start.elapsed().as_secs_f64();
    outln!(
        "time {:.3} s, {:.0} nodes/s",
        secs,
        nodes as f64 / secs.max(1e-9)
    );
    outln!("nodes {nodes}");
    Ok(ExitCode::SUCCESS)
}

fn run_suite(path: &str, max_depth: Option<u32>, threads: usize) -> Result<ExitCode, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let suite = parse_perft_suite(&text)?;
    let (mut passed, mut failed) = (0usize, 0usize);
    let mut nodes = 0u64;
    let start = Instant::now();
    for line in &suite {
        let board = Board::from_fen(&line.fen).map_err(|e| e.to_string())?;
        for &(d, expected) in &line.counts {
            if max_depth.is_some_and(|m| d > m) {
                continue;
            }
            let got = perft_parallel(&board, d, threads);
            nodes += got;
            if got == expected {
                passed += 1;
            } else {
                failed += 1;
                outln!(
                    "FAIL {} depth {d}: expected {expected}, got {got}",
                    line.fen
                );
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    outln!(
        "time {:.3} s, {nodes} nodes, {:.0} nodes/s",
        secs,
        nodes as f64 / secs.max(1e-9)
    );
    outln!("{passed} passed, {failed} failed");
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
