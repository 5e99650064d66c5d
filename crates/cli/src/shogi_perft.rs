//! `estuary perft --shogi DEPTH [--sfen SFEN] [--divide]`: shogi perft, ending with `nodes N`.

use crate::args::Args;
use std::process::ExitCode;
use std::time::Instant;

/// True when a `perft` command line asks for shogi.
pub fn wants_shogi(raw: &[String]) -> bool {
    raw.iter().any(|a| a == "--shogi")
}

/// Runs shogi perft.
pub fn run(raw: &[String]) -> Result<ExitCode, String> {
    let mut a = Args::parse(raw, &["shogi", "divide"]).map_err(|e| e.to_string())?;
    a.flag("shogi");
    let divide = a.flag("divide");
    let sfen = a.value("sfen");
    a.finish().map_err(|e| e.to_string())?;
    let depth: u32 = match a.positional() {
        [d] => d
            .parse()
            .map_err(|_| format!("perft --shogi: cannot read depth '{d}'"))?,
        _ => return Err("usage: estuary perft --shogi DEPTH [--sfen SFEN] [--divide]".into()),
    };
    let pos = match sfen {
        Some(s) => shogi::Position::from_sfen(&s).map_err(|e| e.to_string())?,
        None => shogi::Position::startpos(),
    };
    let t = Instant::now();
    let nodes = if divide && depth > 0 {
        let mut total = 0;
        for (m, n) in shogi::perft_divide(&pos, depth) {
            println!("{m}: {n}");
            total += n;
        }
        total
    } else {
        shogi::perft(&pos, depth)
    };
    let ms = t.elapsed().as_millis();
    eprintln!("time {ms} ms");
    println!("nodes {nodes}");
    Ok(ExitCode::SUCCESS)
}
