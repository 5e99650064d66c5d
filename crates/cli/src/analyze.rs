//! `estuary analyze [FEN] [--depth D | --time S]`: the principal variation in SAN with its
//! score, printed as each iteration completes.

use crate::args::Args;
use chess::{Board, Move};
use search::score::{is_mate, mate_moves};
use search::{Event, Job, Limits, Listener, ScoreBound, ThreadPool};
use std::process::ExitCode;
use std::sync::Arc;

/// A line of moves in SAN with move numbers, starting from `b`.
pub fn san_line(b: &Board, moves: &[Move]) -> String {
    let mut b = *b;
    let mut out = String::new();
    for (i, &m) in moves.iter().enumerate() {
        if !b.is_legal(m) {
            break;
        }
        let white = b.side_to_move() == chess::Color::White;
        if white {
            out.push_str(&format!("{}. ", b.fullmove_number()));
        } else if i == 0 {
            out.push_str(&format!("{}... ", b.fullmove_number()));
        }
        out.push_str(&b.move_to_san(m));
        out.push(' ');
        b.play(m);
    }
    out.trim_end().to_string()
}

/// A score for people: `+0.35`, `#3`, `#-2`.
pub fn human_score(score: i32) -> String {
    if is_mate(score) {
        format!("#{}", mate_moves(score))
    } else {
        format!("{:+.2}", score as f64 / 100.0)
    }
}

/// Runs the analysis.
pub fn run(raw: &[String]) -> Result<ExitCode, String> {
    let mut args = Args::parse(raw, &[]).map_err(|e| e.to_string())?;
    let fen = args.value("fen").unwrap_or_else(|| {
        if args.positional().is_empty() {
            chess::STARTPOS.to_string()
        } else {
            args.positional().join(" ")
        }
    });
    let board = Board::from_fen(&fen).map_err(|e| format!("bad FEN '{fen}': {e}"))?;
    let depth: Option<i32> = args.parsed("depth").map_err(|e| e.to_string())?;
    let time: Option<f64> = args.parsed("time").map_err(|e| e.to_string())?;
    let (threads, hash) = args.threads_and_hash(64).map_err(|e| e.to_string())?;
    let multipv: usize = args
        .parsed("multipv")
        .map_err(|e| e.to_string())?
        .unwrap_or(1);
    args.finish().map_err(|e| e.to_string())?;
    let limits = match (depth, time) {
        (Some(_), Some(_)) => return Err("give --depth or --time, not both".into()),
        (Some(d), None) => Limits::depth(d),
        (None, Some(t)) => Limits::movetime((t * 1000.0) as i64),
        (None, None) => Limits::depth(20),
    };
    println!("{board}");
    println!("Fen: {}", board.to_fen());
    println!("depth  score     time(ms)       nodes     nps  line");
    let listener: Listener = Arc::new(move |root: &Board, ev: Event| match ev {
        Event::Info(i) => {
            let bound = match i.bound {
                ScoreBound::Exact => " ",
                ScoreBound::Lower => "+",
                ScoreBound::Upper => "-",
            };
            let pv = if multipv > 1 {
                format!("[{}] ", i.multipv)
            } else {
                String::new()
            };
            println!(
                "{:>2}/{:<3} {:>7}{} {:>8} {:>11} {:>7}k  {pv}{}",
                i.depth,
                i.seldepth,
                human_score(i.score),
                bound,
                i.time_ms,
                i.nodes,
                i.nps / 1000,
                san_line(root, &i.pv)
            );
        }
        Event::BestMove { best, .. } => {
            if best == Move::NULL {
                println!("no legal move");
            } else {
                println!("best move: {}", root.move_to_san(best));
            }
        }
    });
    let pool = ThreadPool::new(threads, hash, device::SoftwareDevice::default);
    let job = Job {
        start: board,
        moves: vec![],
        limits,
        multipv,
        move_overhead: 0,
        listener,
        tt: pool.tt().clone(),
    };
    pool.search_sync(job);
    Ok(ExitCode::SUCCESS)
}
