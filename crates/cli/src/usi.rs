//! `estuary usi`: enough USI for shogi GUIs' mate search. `go mate <ms> | infinite` runs the
//! df-pn solver on a worker thread and answers `checkmate <moves>`, `checkmate nomate` or
//! `checkmate timeout` (never `bestmove`); `isready` is answered at once, also mid-search;
//! `stop` and `quit` end the search, which then reports. A `position`, `go` or `usinewgame`
//! that arrives mid-search waits for the search to end.
//!
//! The answer comes first: `checkmate` follows as soon as the proof is complete, with a line
//! read from it. With the option `ShortestMate` set the solver goes on within the time left
//! to the conventional line (shortest mate, longest resistance): each line goes out as an
//! `info ... score mate P pv ...` the moment it is proven, and `checkmate` carries the last
//! (after a `stop`, the best line proven so far).

use mate::{Found, Limits, MateSolver, Tsume, Verdict};
use shogi::Position;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

struct Search {
    handle: JoinHandle<()>,
    stop: Arc<AtomicBool>,
}

impl Search {
    fn finish(self, stop: bool) {
        if stop {
            self.stop.store(true, Ordering::Relaxed);
        }
        let _ = self.handle.join();
    }
}

/// Parses `position (startpos | sfen <4 fields>) [moves ...]`.
fn parse_position(tokens: &[&str]) -> Result<Position, String> {
    let (mut pos, rest) = match tokens.first() {
        Some(&"startpos") => (Position::startpos(), &tokens[1..]),
        Some(&"sfen") => {
            let end = tokens
                .iter()
                .position(|&t| t == "moves")
                .unwrap_or(tokens.len());
            let text = tokens[1..end].join(" ");
            let p = Position::from_sfen_relaxed(&text).map_err(|e| e.to_string())?;
            (p, &tokens[end..])
        }
        _ => return Err("position needs 'startpos' or 'sfen'".into()),
    };
    if let Some((&"moves", moves)) = rest.split_first() {
        for m in moves {
            let mv = pos.parse_usi(m).map_err(|e| e.to_string())?;
            pos.play(mv);
        }
    } else if !rest.is_empty() {
        return Err(format!("unexpected '{}'", rest[0]));
    }
    Ok(pos)
}

fn start_mate(pos: Position, time: Option<Duration>, hash_mb: usize, shortest: bool) -> Search {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    // The search recurses once a ply: a big stack and the matching ply cap.
    let handle = crate::tsume::spawn_solver_thread("usi-mate", move || {
        let limits = Limits {
            nodes: u64::MAX,
            time,
            table_bytes: hash_mb.max(1) << 20,
        };
        let mut solver = MateSolver::<Tsume>::new(limits);
        solver.set_max_ply(crate::tsume::SOLVER_MAX_PLY);
        solver.set_stop_flag(flag);
        solver.set_polish(shortest);
        solver.set_on_line(Box::new(|f: &Found<shogi::Move>| {
            println!(
                "info time {} nodes {} score mate {} pv {}",
                f.time.as_millis(),
                f.nodes,
                f.line.len(),
                crate::tsume::usi_line(&f.line)
            );
        }));
        solver.set_progress(Box::new(|s: &mate::Stats| {
            println!(
                "info time {} nodes {} nps {} hashfull {}",
                s.time.as_millis(),
                s.nodes,
                s.nps(),
                s.table_fill_permille
            );
        }));
        let s = solver.solve(&Tsume::new(pos));
        println!(
            "info nodes {} time {} nps {} hashfull {}",
            s.stats.nodes,
            s.stats.time.as_millis(),
            s.stats.nps(),
            s.stats.table_fill_permille
        );
        match s.verdict {
            Verdict::Mate => {
                println!("checkmate {}", crate::tsume::usi_line(&s.line));
            }
            Verdict::NoMate => println!("checkmate nomate"),
            Verdict::Unknown => println!("checkmate timeout"),
        }
    })
    // Spawning fails only when the system is out of threads or memory.
    .expect("cannot start the mate search thread");
    Search { handle, stop }
}

/// Runs the USI loop on stdin/stdout.
pub fn run(raw: &[String]) -> Result<ExitCode, String> {
    if let Some(a) = raw.first() {
        return Err(format!("usi: unexpected argument '{a}'"));
    }
    let mut pos = Position::startpos();
    let mut hash_mb = crate::tsume::DEFAULT_HASH_MB;
    let mut shortest = false;
    let mut search: Option<Search> = None;
    let stdin = std::io::stdin();
    for line in uci::lossy_lines(stdin.lock()) {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = tokens.split_first() else {
            continue;
        };
        match cmd {
            "usi" => {
                println!("id name Estuary tsume {}", env!("CARGO_PKG_VERSION"));
                println!("id author the Estuary authors");
                println!(
                    "option name USI_Hash type spin default {} min 1 max 65536",
                    crate::tsume::DEFAULT_HASH_MB
                );
                println!("option name ShortestMate type check default false");
                println!("usiok");
            }
            "isready" => println!("readyok"),
            "setoption" => {
                // setoption name <id> [value <x>]
                let name = args.iter().skip_while(|&&t| t != "name").nth(1);
                let value = args.iter().skip_while(|&&t| t != "value").nth(1);
                match (name, value) {
                    (Some(&"USI_Hash"), Some(v)) => match v.parse::<usize>() {
                        Ok(mb) if mb >= 1 => hash_mb = mb,
                        _ => println!("info string bad USI_Hash value '{v}'"),
                    },
                    (Some(&"ShortestMate"), Some(v)) => match *v {
                        "true" => shortest = true,
                        "false" => shortest = false,
                        _ => println!("info string bad ShortestMate value '{v}'"),
                    },
                    _ => {}
                }
            }
            "usinewgame" => {
                if let Some(s) = search.take() {
                    s.finish(false);
                }
            }
            "position" => {
                // A GUI waits for the answer (or sends stop) first; a script may not, so
                // the running search is allowed to finish.
                if let Some(s) = search.take() {
                    s.finish(false);
                }
                match parse_position(args) {
                    Ok(p) => pos = p,
                    Err(e) => println!("info string error: {e}"),
                }
            }
            "go" => {
                if let Some(s) = search.take() {
                    s.finish(false);
                }
                if args.first() != Some(&"mate") {
                    println!("info string only 'go mate' is supported");
                    println!("bestmove resign");
                    continue;
                }
                let time = match args.get(1) {
                    None | Some(&"infinite") => None,
                    Some(t) => match t.parse::<u64>() {
                        Ok(ms) => Some(Duration::from_millis(ms)),
                        Err(_) => {
                            println!("info string bad mate time '{t}'");
                            println!("checkmate timeout");
                            continue;
                        }
                    },
                };
                search = Some(start_mate(pos.clone(), time, hash_mb, shortest));
            }
            "stop" => {
                if let Some(s) = search.take() {
                    s.finish(true);
                }
            }
            "ponderhit" | "gameover" => {}
            "quit" => break,
            other => println!("info string unknown command '{other}'"),
        }
    }
    if let Some(s) = search.take() {
        s.finish(true);
    }
    Ok(ExitCode::SUCCESS)
}
