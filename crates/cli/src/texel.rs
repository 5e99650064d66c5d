//! `estuary texel`: the evaluation tuner's two steps.
//!
//! * `texel gen --games N --nodes K --out FILE [--seed S]` plays the engine against itself
//!   (6 to 10 random opening plies, then K nodes a move; `search::selfplay::SelfPlay`, adjudication
//!   included) and writes `FEN;result` lines for the quiet positions of each game (not in
//!   check, engine's move not a capture or promotion, |score| < 2500).
//! * `texel tune FILE... [--epochs E] [--l2 L] [--out PATH]` fits the weights to those results (Texel's
//!   method, see `eval::tune`) and writes `weights.rs`.

use crate::args::Args;
use chess::rng::Rng;
use chess::Board;
use search::selfplay::SelfPlay;
use std::io::Write;
use std::process::ExitCode;

/// Dispatches `texel gen` and `texel tune`.
pub fn run(raw: &[String]) -> Result<ExitCode, String> {
    match raw.split_first() {
        Some((c, rest)) if c == "gen" => generate(rest),
        Some((c, rest)) if c == "tune" => tune(rest),
        _ => Err("usage: estuary texel gen --games N --nodes K --out FILE | estuary texel tune FILE... [--epochs E] [--l2 L] [--out PATH]".into()),
    }
}

fn generate(raw: &[String]) -> Result<ExitCode, String> {
    let mut args = Args::parse(raw, &[]).map_err(|e| e.to_string())?;
    let games: usize = args
        .parsed("games")
        .map_err(|e| e.to_string())?
        .unwrap_or(100);
    let nodes: u64 = args
        .parsed("nodes")
        .map_err(|e| e.to_string())?
        .unwrap_or(3000);
    let seed: u64 = args.parsed("seed").map_err(|e| e.to_string())?.unwrap_or(1);
    let out = args.value("out").ok_or("texel gen needs --out FILE")?;
    args.finish().map_err(|e| e.to_string())?;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&out)
        .map_err(|e| format!("{out}: {e}"))?;
    let player = SelfPlay::new();
    let mut rng = Rng::new(seed);
    let mut total = 0;
    for g in 0..games {
        // 6 to 10 random opening plies for variety.
        let plies = 6 + rng.below(5);
        let Some(game) = player.play(&mut rng, plies, nodes) else {
            continue;
        };
        for (fen, _) in &game.samples {
            writeln!(file, "{fen};{:.1}", game.result).map_err(|e| e.to_string())?;
        }
        total += game.samples.len();
        eprintln!(
            "game {}/{games}: {} after {} plies, {} positions (total {total})",
            g + 1,
            game.result,
            game.plies,
            game.samples.len()
        );
    }
    println!("wrote {total} positions to {out}");
    Ok(ExitCode::SUCCESS)
}

fn tune(raw: &[String]) -> Result<ExitCode, String> {
    let mut args = Args::parse(raw, &[]).map_err(|e| e.to_string())?;
    let epochs: usize = args
        .parsed("epochs")
        .map_err(|e| e.to_string())?
        .unwrap_or(500);
    let l2: f64 = args
        .parsed("l2")
        .map_err(|e| e.to_string())?
        .unwrap_or(2e-8);
    let out = args
        .value("out")
        .unwrap_or_else(|| "crates/eval/src/weights.rs".into());
    args.finish().map_err(|e| e.to_string())?;
    if args.positional().is_empty() {
        return Err("texel tune needs data files (FEN;result lines)".into());
    }
    let start: Vec<eval::S> = eval::WEIGHTS.to_vec();
    let mut data = Vec::new();
    for path in args.positional() {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        for (n, line) in text.lines().enumerate() {
            let Some((fen, r)) = line.rsplit_once(';') else {
                continue;
            };
            let b = Board::from_fen(fen.trim()).map_err(|e| format!("{path}:{}: {e}", n + 1))?;
            let r: f64 = r
                .trim()
                .parse()
                .map_err(|_| format!("{path}:{}: bad result", n + 1))?;
            data.push(eval::tune::Sample::new(&b, r, &start));
        }
    }
    eprintln!("{} positions", data.len());
    let k = eval::tune::fit_k(&data, &start);
    let real: Vec<[f64; 2]> = start.iter().map(|s| [s.0 as f64, s.1 as f64]).collect();
    let before = eval::tune::error(&data, &real, k);
    eprintln!("K = {k:.3}, error {before:.6}");
    // The king has no material value; its slot stays zero.
    let frozen = [eval::params::MATERIAL + 5];
    let tuned = eval::tune::tune(&data, &start, k, epochs, &frozen, l2, |e, err| {
        eprintln!("epoch {e}: error {err:.6}")
    });
    let real: Vec<[f64; 2]> = tuned.iter().map(|s| [s.0 as f64, s.1 as f64]).collect();
    let after = eval::tune::error(&data, &real, k);
    let header = format!(
        "Texel-tuned by `estuary texel tune` on {} positions from the engine's own games\n(K = {k:.3}, {epochs} epochs of Adam, L2 {l2:e} toward the hand-set start values):\nmean squared error {before:.6} -> {after:.6}.",
        data.len()
    );
    std::fs::write(&out, eval::params::weights_source(&tuned, &header))
        .map_err(|e| format!("{out}: {e}"))?;
    println!("error {before:.6} -> {after:.6}; wrote {out}");
    Ok(ExitCode::SUCCESS)
}
