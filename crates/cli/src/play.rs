//! `estuary play`: a game against the engine in the terminal. Moves in SAN or UCI; `undo`,
//! `new`, `go` (engine moves now / switch sides), `time S`, `nodes N`, `depth D`,
//! `save FILE` (PGN), `fen`, `quit`. The engine plays from the shipped opening book
//! (`book::shipped()`) while the position is in it, unless `--no-book`.

use crate::analyze::human_score;
use crate::args::Args;
use chess::{Board, Color, Move, Position};
use search::selfplay::game_over;
use search::{Event, Job, Limits, Listener, ThreadPool};
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

const HELP: &str = "\
moves: SAN (Nf3, exd5, O-O, e8=Q) or UCI (g1f3)
  undo        take back your last move (and the engine's reply)
  new         start a new game (same side)
  go          let the engine play the side to move (switches sides)
  time S      engine thinks S seconds a move
  nodes N     engine searches N nodes a move
  depth D     engine searches to depth D
  save FILE   write the game as PGN
  fen         print the position's FEN
  board       redraw the board
  quit        leave";

/// The engine's strength setting.
#[derive(Clone, Debug)]
enum Strength {
    Time(f64),
    Nodes(u64),
    Depth(i32),
}

impl Strength {
    fn limits(&self) -> Limits {
        match *self {
            Strength::Time(s) => Limits::movetime((s * 1000.0) as i64),
            Strength::Nodes(n) => Limits::nodes(n),
            Strength::Depth(d) => Limits::depth(d),
        }
    }
}

/// PGN text of a game from `start` with `moves`.
pub fn pgn(start: &Board, moves: &[Move], white: &str, black: &str, result: &str) -> String {
    let mut s = String::new();
    s.push_str(
        "[Event \"Estuary terminal game\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"-\"]\n",
    );
    s.push_str(&format!(
        "[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n"
    ));
    if start.to_fen() != chess::STARTPOS {
        s.push_str(&format!("[SetUp \"1\"]\n[FEN \"{}\"]\n", start.to_fen()));
    }
    s.push('\n');
    let line = crate::analyze::san_line(start, moves);
    let mut col = 0;
    for tok in line.split(' ').chain(std::iter::once(result)) {
        if col + tok.len() > 79 {
            s.push('\n');
            col = 0;
        } else if col > 0 {
            s.push(' ');
            col += 1;
        }
        s.push_str(tok);
        col += tok.len();
    }
    s.push('\n');
    s
}

struct Game {
    start: Board,
    moves: Vec<Move>,
}

impl Game {
    fn position(&self) -> Position {
        let mut p = Position::new(self.start);
        for &m in &self.moves {
            p.make(m);
        }
        p
    }
}

/// Runs the terminal game.
pub fn run(raw: &[String]) -> Result<ExitCode, String> {
    let mut args = Args::parse(raw, &["black", "no-book"]).map_err(|e| e.to_string())?;
    let opening_book = (!args.flag("no-book")).then(book::shipped);
    let mut rng = chess::rng::Rng::new(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
            | 1,
    );
    let fen = args
        .value("fen")
        .unwrap_or_else(|| chess::STARTPOS.to_string());
    let start = Board::from_fen(&fen).map_err(|e| format!("bad FEN '{fen}': {e}"))?;
    let mut strength = Strength::Time(1.0);
    if let Some(t) = args.parsed::<f64>("time").map_err(|e| e.to_string())? {
        strength = Strength::Time(t);
    }
    if let Some(n) = args.parsed::<u64>("nodes").map_err(|e| e.to_string())? {
        strength = Strength::Nodes(n);
    }
    if let Some(d) = args.parsed::<i32>("depth").map_err(|e| e.to_string())? {
        strength = Strength::Depth(d);
    }
    let mut human = if args.flag("black") {
        Color::Black
    } else {
        Color::White
    };
    args.finish().map_err(|e| e.to_string())?;

    let pool = ThreadPool::new(1, 64, device::SoftwareDevice::default);
    let mut game = Game {
        start,
        moves: Vec::new(),
    };
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    println!(
        "Estuary: you play {}. Type 'help' for commands.",
        if human == Color::White {
            "White"
        } else {
            "Black"
        }
    );
    let mut show = true;
    let mut finished = false;
    loop {
        let pos = game.position();
        if show {
            println!("\n{}", *pos);
            show = false;
        }
        if !finished {
            if let Some((result, why)) = game_over(&pos) {
                println!(
                    "Game over: {why} ({result}). 'new' for another game, 'save FILE' to keep it."
                );
                finished = true;
            }
        }
        if !finished && pos.side_to_move() != human {
            if let Some(m) = opening_book.as_ref().and_then(|b| b.choose(&pos, &mut rng)) {
                println!("Estuary plays {} (book)", pos.move_to_san(m.mv));
                game.moves.push(m.mv);
                show = true;
                continue;
            }
            let best = engine_move(&pool, &game, &strength);
            if best == Move::NULL {
                finished = true;
                continue;
            }
            println!("Estuary plays {}", pos.move_to_san(best));
            game.moves.push(best);
            show = true;
            continue;
        }
        print!(
            "{}> ",
            if finished {
                "game over"
            } else if human == Color::White {
                "white"
            } else {
                "black"
            }
        );
        let _ = std::io::stdout().flush();
        let Some(Ok(line)) = lines.next() else { break };
        let line = line.trim();
        let (cmd, arg) = line
            .split_once(' ')
            .map_or((line, ""), |(c, a)| (c, a.trim()));
        match cmd {
            "" => {}
            "quit" | "exit" => break,
            "help" | "?" => println!("{HELP}"),
            "board" => show = true,
            "fen" => println!("{}", pos.to_fen()),
            "new" => {
                game.moves.clear();
                pool.clear();
                finished = false;
                show = true;
            }
            "undo" => {
                // Take back to the human's previous turn.
                let mut n = 0;
                while let Some(_m) = game.moves.pop() {
                    n += 1;
                    if game.position().side_to_move() == human {
                        break;
                    }
                }
                println!("took back {n} move(s)");
                finished = false;
                show = true;
            }
            "go" => {
                human = !pos.side_to_move();
            }
            "time" | "nodes" | "depth" => {
                let s = match cmd {
                    "time" => arg
                        .parse()
                        .ok()
                        .filter(|&t: &f64| t > 0.0)
                        .map(Strength::Time),
                    "nodes" => arg
                        .parse()
                        .ok()
                        .filter(|&n: &u64| n > 0)
                        .map(Strength::Nodes),
                    _ => arg
                        .parse()
                        .ok()
                        .filter(|&d: &i32| d > 0)
                        .map(Strength::Depth),
                };
                match s {
                    Some(s) => {
                        println!("engine strength: {s:?}");
                        strength = s;
                    }
                    None => println!("error: '{cmd}' needs a positive number"),
                }
            }
            "save" => {
                if arg.is_empty() {
                    println!("error: save needs a file name");
                    continue;
                }
                let result = game_over(&pos).map_or("*", |(r, _)| r);
                let (w, b) = if human == Color::White {
                    ("Human", "Estuary")
                } else {
                    ("Estuary", "Human")
                };
                match std::fs::write(arg, pgn(&game.start, &game.moves, w, b, result)) {
                    Ok(()) => println!("saved {arg}"),
                    Err(e) => println!("error: cannot write {arg}: {e}"),
                }
            }
            _ if finished => println!("the game is over: 'new', 'undo', 'save FILE' or 'quit'"),
            _ => {
                let m = pos.parse_san(line).or_else(|_| pos.parse_uci_move(line));
                match m {
                    Ok(m) => {
                        game.moves.push(m);
                        show = true;
                    }
                    Err(e) => println!(
                        "error: '{line}' is not a legal move here ({e}); 'help' for commands"
                    ),
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn engine_move(pool: &ThreadPool, game: &Game, strength: &Strength) -> Move {
    let best = Arc::new(Mutex::new((Move::NULL, 0)));
    let slot = best.clone();
    let listener: Listener = Arc::new(move |_: &Board, ev: Event| {
        if let Event::BestMove { best, score, .. } = ev {
            if let Ok(mut s) = slot.lock() {
                *s = (best, score);
            }
        }
    });
    let job = Job {
        start: game.start,
        moves: game.moves.clone(),
        limits: strength.limits(),
        multipv: 1,
        move_overhead: 0,
        listener,
        tt: pool.tt().clone(),
    };
    pool.search_sync(job);
    let (m, score) = *best.lock().expect("result lock");
    if m != Move::NULL {
        println!("(engine score {} from its side)", human_score(score));
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_mate_and_writes_pgn() {
        let mut p = Position::startpos();
        for san in ["f3", "e5", "g4", "Qh4#"] {
            let m = p.parse_san(san).unwrap();
            p.make(m);
        }
        assert_eq!(game_over(&p).map(|g| g.0), Some("0-1"));
        let moves: Vec<Move> = {
            let mut q = Position::startpos();
            ["f3", "e5", "g4", "Qh4#"]
                .iter()
                .map(|s| {
                    let m = q.parse_san(s).unwrap();
                    q.make(m);
                    m
                })
                .collect()
        };
        let text = pgn(&Board::startpos(), &moves, "A", "B", "0-1");
        assert!(text.contains("1. f3 e5 2. g4 Qh4# 0-1"), "{text}");
    }
}
