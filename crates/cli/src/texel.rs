//! `estuary texel`: the evaluation tuner's two steps.
//!
//! * `texel gen --games N --nodes K --out FILE [--seed S]` plays the engine against itself
//!   (a few random opening plies, then K nodes a move) and writes `FEN;result` lines for the
//!   quiet positions of each game (not in check, engine's move not a capture or promotion).
//! * `texel tune FILE... [--epochs E] [--l2 L] [--out PATH]` fits the weights to those results (Texel's
//!   method, see `eval::tune`) and writes `weights.rs`.

use crate::args::Args;
use crate::play::game_over;
use chess::{Board, Color, Move, Position};
use search::{Event, Job, Limits, Listener, ThreadPool};
use std::io::Write;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

/// Dispatches `texel gen` and `texel tune`.
pub fn run(raw: &[String]) -> Result<ExitCode, String> {
    match raw.split_first() {
        Some((c, rest)) if c == "gen" => generate(rest),
        Some((c, rest)) if c == "tune" => tune(rest),
        _ => Err("usage: estuary texel gen --games N --nodes K --out FILE | estuary texel tune FILE... [--epochs E] [--l2 L] [--out PATH]".into()),
    }
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
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
    let pool = ThreadPool::new(1, 16, device::SoftwareDevice::default);
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let slot = Arc::new(Mutex::new((Move::NULL, 0)));
    let s2 = slot.clone();
    let listener: Listener = Arc::new(move |_: &Board, ev: Event| {
        if let Event::BestMove { best, score, .. } = ev {
            *s2.lock().expect("slot") = (best, score);
        }
    });
    let mut total = 0;
    for g in 0..games {
        pool.clear();
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        // Random opening plies for variety.
        let plies = 6 + (rng.next() % 5) as usize;
        let mut ok = true;
        for _ in 0..plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                ok = false;
                break;
            }
            let m = legal[(rng.next() % legal.len() as u64) as usize];
            pos.make(m);
            moves.push(m);
        }
        if !ok || game_over(&pos).is_some() {
            continue;
        }
        let mut samples: Vec<String> = Vec::new();
        let mut big = [0usize; 2];
        let result = loop {
            if let Some((r, _)) = game_over(&pos) {
                break r;
            }
            if pos.ply() > 400 {
                break "1/2-1/2";
            }
            let job = Job {
                start: Board::startpos(),
                moves: moves.clone(),
                limits: Limits::nodes(nodes),
                multipv: 1,
                move_overhead: 0,
                listener: listener.clone(),
                tt: pool.tt().clone(),
            };
            pool.search_sync(job);
            let (m, score) = *slot.lock().expect("slot");
            if m == Move::NULL {
                break "1/2-1/2";
            }
            // Adjudicate clear wins to save time: 4 moves in a row beyond 10 pawns.
            let white_score = if pos.side_to_move() == Color::White {
                score
            } else {
                -score
            };
            if white_score.abs() > 1000 {
                let i = (white_score > 0) as usize;
                big[i] += 1;
                big[1 - i] = 0;
                if big[i] >= 8 {
                    break if i == 1 { "1-0" } else { "0-1" };
                }
            } else {
                big = [0, 0];
            }
            if !pos.in_check() && !m.is_tactical() && pos.ply() >= 12 {
                samples.push(pos.to_fen());
            }
            pos.make(m);
            moves.push(m);
        };
        let r = match result {
            "1-0" => "1.0",
            "0-1" => "0.0",
            _ => "0.5",
        };
        for s in &samples {
            writeln!(file, "{s};{r}").map_err(|e| e.to_string())?;
        }
        total += samples.len();
        eprintln!(
            "game {}/{games}: {result} after {} plies, {} positions (total {total})",
            g + 1,
            pos.ply(),
            samples.len()
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
