//! `estuary datagen`: self-play training data for the neural evaluation.
//!
//! `datagen --out FILE [--threads T] [--nodes K] [--games G] [--positions P] [--seed S]
//! [--random-plies R]` plays the engine against itself from openings of R random plies (default
//! 8) after the start position, K nodes a move (default 5000), and appends one line per quiet
//! position (side to move not in check, the engine's move not a capture or promotion, |score|
//! below 2500) to FILE:
//!
//! ```text
//! rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | -23 | 0.5
//! ```
//!
//! the FEN, the search score in centipawns from White's side, and the game's result from
//! White's side (1.0, 0.5, 0.0). Whole games are appended at once, so stopping the program
//! loses only the games in progress and a later run adds to the same file (give it another
//! `--seed`; the default seed comes from the clock). Games end by the rules, at 400 plies, or
//! by adjudication: a win when the score stays beyond 1000 for 8 plies in a row, a draw when
//! it stays within 10 for 20 plies after ply 80.

use crate::args::Args;
use chess::rng::Rng;
use search::selfplay::SelfPlay;
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::Instant;

struct Config {
    nodes: u64,
    random_plies: usize,
    games: u64,
    positions: u64,
}

/// Runs `estuary datagen`.
pub fn run(raw: &[String]) -> Result<ExitCode, String> {
    let mut args = Args::parse(raw, &[]).map_err(|e| e.to_string())?;
    let e = |e: crate::args::ArgError| e.to_string();
    let threads: usize = args.parsed("threads").map_err(e)?.unwrap_or(1);
    let nodes: u64 = args.parsed("nodes").map_err(e)?.unwrap_or(5000);
    let games: u64 = args.parsed("games").map_err(e)?.unwrap_or(u64::MAX);
    let positions: u64 = args.parsed("positions").map_err(e)?.unwrap_or(u64::MAX);
    let random_plies: usize = args.parsed("random-plies").map_err(e)?.unwrap_or(8);
    let seed: u64 = match args.parsed("seed").map_err(e)? {
        Some(s) => s,
        None => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1),
    };
    let out = args.value("out").ok_or("datagen needs --out FILE")?;
    args.finish().map_err(e)?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&out)
        .map_err(|e| format!("{out}: {e}"))?;
    eprintln!("datagen: seed {seed}, {threads} threads, {nodes} nodes a move, appending to {out}");
    let file = Arc::new(Mutex::new(file));
    let cfg = Arc::new(Config {
        nodes,
        random_plies,
        games,
        positions,
    });
    let counters = Arc::new((AtomicU64::new(0), AtomicU64::new(0)));
    let start = Instant::now();
    let handles: Vec<_> = (0..threads.max(1))
        .map(|t| {
            let (file, cfg, counters) = (file.clone(), cfg.clone(), counters.clone());
            let seed = seed.wrapping_add(t as u64);
            std::thread::spawn(move || worker(seed, &cfg, &file, &counters, start))
        })
        .collect();
    for h in handles {
        h.join().map_err(|_| "a datagen thread panicked")??;
    }
    println!(
        "wrote {} positions from {} games to {out}",
        counters.1.load(Relaxed),
        counters.0.load(Relaxed)
    );
    Ok(ExitCode::SUCCESS)
}

fn worker(
    seed: u64,
    cfg: &Config,
    file: &Mutex<std::fs::File>,
    counters: &(AtomicU64, AtomicU64),
    start: Instant,
) -> Result<(), String> {
    let games = SelfPlay::new();
    let mut rng = Rng::new(seed);
    loop {
        if counters.0.load(Relaxed) >= cfg.games || counters.1.load(Relaxed) >= cfg.positions {
            return Ok(());
        }
        let Some(game) = games.play(&mut rng, cfg.random_plies, cfg.nodes) else {
            continue;
        };
        let mut text = String::with_capacity(game.samples.len() * 80);
        for (fen, score) in &game.samples {
            text.push_str(&eval::nnue::data::format_line(fen, *score, game.result));
            text.push('\n');
        }
        file.lock()
            .map_err(|_| "output lock poisoned")?
            .write_all(text.as_bytes())
            .map_err(|e| e.to_string())?;
        let n = game.samples.len() as u64;
        let g = counters.0.fetch_add(1, Relaxed) + 1;
        let p = counters.1.fetch_add(n, Relaxed) + n;
        if g.is_multiple_of(20) {
            let s = start.elapsed().as_secs_f64();
            eprintln!(
                "{g} games, {p} positions, {:.0} positions/s",
                p as f64 / s.max(1e-9)
            );
        }
    }
}
