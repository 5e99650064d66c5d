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
use crate::play::game_over;
use chess::rng::Rng;
use chess::{Board, Color, Move, Position};
use search::{Event, Job, Limits, Listener, ThreadPool};
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

/// One self-play game's training positions.
pub struct Game {
    /// Quiet positions: FEN and the search score from White's side.
    pub samples: Vec<(String, i32)>,
    /// The result from White's side: 1.0, 0.5 or 0.0.
    pub result: f32,
    /// Plies played.
    pub plies: usize,
}

/// Plays the engine against itself on a one-thread pool (16 MB table).
pub struct SelfPlay {
    pool: ThreadPool,
    slot: Arc<Mutex<(Move, i32)>>,
    listener: Listener,
}

impl SelfPlay {
    /// A fresh player.
    pub fn new() -> SelfPlay {
        let slot = Arc::new(Mutex::new((Move::NULL, 0)));
        let s2 = slot.clone();
        let listener: Listener = Arc::new(move |_: &Board, ev: Event| {
            if let Event::BestMove { best, score, .. } = ev {
                if let Ok(mut s) = s2.lock() {
                    *s = (best, score);
                }
            }
        });
        SelfPlay {
            pool: ThreadPool::new(1, 16, device::SoftwareDevice::default),
            slot,
            listener,
        }
    }

    /// One game: `random_plies` random moves from the start position, then `nodes` a move,
    /// with the adjudication of the module's description. Returns the quiet positions (side
    /// to move not in check, the engine's move not a capture or promotion, |score| < 2500),
    /// or `None` when the random opening already ended the game.
    pub fn play(&self, rng: &mut Rng, random_plies: usize, nodes: u64) -> Option<Game> {
        self.pool.clear();
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        for _ in 0..random_plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                return None;
            }
            let m = legal[rng.below(legal.len())];
            pos.make(m);
            moves.push(m);
        }
        if game_over(&pos).is_some() {
            return None;
        }
        let mut samples = Vec::new();
        let (mut win_run, mut win_side, mut draw_run) = (0, 0, 0);
        let result = loop {
            if let Some((r, _)) = game_over(&pos) {
                break match r {
                    "1-0" => 1.0,
                    "0-1" => 0.0,
                    _ => 0.5,
                };
            }
            if pos.ply() >= 400 {
                break 0.5;
            }
            let job = Job {
                start: Board::startpos(),
                moves: moves.clone(),
                limits: Limits::nodes(nodes),
                multipv: 1,
                move_overhead: 0,
                listener: self.listener.clone(),
                tt: self.pool.tt().clone(),
            };
            self.pool.search_sync(job);
            let (m, score) = self.slot.lock().map(|s| *s).unwrap_or((Move::NULL, 0));
            if m == Move::NULL {
                break 0.5;
            }
            let white = if pos.side_to_move() == Color::White {
                score
            } else {
                -score
            };
            if white.abs() > 1000 {
                let side = white.signum();
                win_run = if side == win_side { win_run + 1 } else { 1 };
                win_side = side;
                if win_run >= 8 {
                    break if side > 0 { 1.0 } else { 0.0 };
                }
            } else {
                win_run = 0;
            }
            if pos.ply() >= 80 && white.abs() <= 10 {
                draw_run += 1;
                if draw_run >= 20 {
                    break 0.5;
                }
            } else {
                draw_run = 0;
            }
            if !pos.in_check() && !m.is_tactical() && white.abs() < 2500 {
                samples.push((pos.to_fen(), white));
            }
            pos.make(m);
            moves.push(m);
        };
        Some(Game {
            samples,
            result,
            plies: pos.ply(),
        })
    }
}
