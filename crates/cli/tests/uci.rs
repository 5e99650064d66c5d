//! Scripted UCI sessions over a pipe against the built `estuary` binary: every pitfall the
//! engine issue lists, each in its own test.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<String>,
}

impl Engine {
    /// `estuary` with no arguments: it must speak UCI.
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_estuary"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start estuary");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { child, stdin, rx }
    }

    fn send(&mut self, text: &str) {
        self.stdin.write_all(text.as_bytes()).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix`; panics after `secs`.
    fn until(&self, prefix: &str, secs: f64) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs_f64(secs);
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(l) => {
                    let done = l.starts_with(prefix);
                    seen.push(l);
                    if done {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no '{prefix}' within {secs}s; saw {seen:#?}")
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("engine exited waiting for '{prefix}'; saw {seen:#?}")
                }
            }
        }
    }

    /// Asserts no line starting with `prefix` arrives within `ms`; returns what did.
    fn none(&self, prefix: &str, ms: u64) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_millis(ms);
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(l) => {
                    assert!(!l.starts_with(prefix), "unexpected '{l}'");
                    seen.push(l);
                }
                Err(_) => return seen,
            }
        }
    }

    fn ready(&mut self) {
        self.send("isready");
        self.until("readyok", 10.0);
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.stdin.write_all(b"quit\n");
        let _ = self.child.wait();
    }
}

fn bestmove(lines: &[String]) -> String {
    lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string()
}

#[test]
fn handshake_lists_options() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok", 10.0);
    assert!(lines.iter().any(|l| l.starts_with("id name Estuary")));
    for opt in [
        "Hash",
        "Threads",
        "Ponder",
        "MultiPV",
        "Move Overhead",
        "UCI_Chess960",
        "Clear Hash",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {opt} type"))),
            "{opt}"
        );
    }
    e.ready();
}

#[test]
fn isready_mid_search_is_answered_without_stopping() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    e.send("isready");
    let lines = e.until("readyok", 2.0);
    assert!(
        t.elapsed() < Duration::from_millis(500),
        "readyok took {:?}",
        t.elapsed()
    );
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")));
    e.none("bestmove", 300);
    e.send("stop");
    let lines = e.until("bestmove", 5.0);
    assert_ne!(bestmove(&lines), "0000");
}

#[test]
fn stop_right_after_go_is_never_lost() {
    let mut e = Engine::start();
    for i in 0..30 {
        let pos = if i % 2 == 0 {
            "position startpos"
        } else {
            "position startpos moves e2e4 e7e5"
        };
        e.send(&format!("{pos}\ngo infinite\nstop"));
        let lines = e.until("bestmove", 5.0);
        assert_ne!(bestmove(&lines), "0000");
    }
    e.ready();
}

#[test]
fn infinite_and_ponder_hold_the_best_move() {
    let mut e = Engine::start();
    // Mate in one: the search is done at once, but go infinite must wait for stop.
    e.send("position fen r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
    e.send("go infinite");
    e.none("bestmove", 700);
    e.send("stop");
    assert_eq!(bestmove(&e.until("bestmove", 5.0)), "h5f7");
    // Ponder: no best move before ponderhit; afterwards the clock applies.
    e.send("position startpos moves e2e4");
    e.send("go ponder wtime 1000 btime 1000");
    e.none("bestmove", 700);
    e.send("ponderhit");
    let lines = e.until("bestmove", 5.0);
    assert!(lines.last().unwrap().starts_with("bestmove "));
    // Ponder then stop (the opponent played something else).
    e.send("go ponder wtime 100000 btime 100000");
    e.none("bestmove", 300);
    e.send("stop");
    e.until("bestmove", 5.0);
    e.ready();
}

#[test]
fn bestmove_reports_a_ponder_move() {
    let mut e = Engine::start();
    e.send("setoption name Ponder value true");
    e.send("position startpos");
    e.send("go depth 8");
    let lines = e.until("bestmove", 20.0);
    let last = lines.last().unwrap();
    assert!(last.contains(" ponder "), "{last}");
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    for field in [
        " seldepth ",
        " multipv 1 ",
        " score cp ",
        " nodes ",
        " nps ",
        " hashfull ",
        " time ",
        " pv ",
    ] {
        assert!(info.contains(field), "{field} missing in {info}");
    }
}

#[test]
fn no_legal_move_gives_bestmove_0000() {
    let mut e = Engine::start();
    e.send("position fen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    e.send("go depth 5");
    let lines = e.until("bestmove", 5.0);
    assert_eq!(lines.last().unwrap(), "bestmove 0000");
    assert!(lines.iter().any(|l| l.contains("score mate 0")));
    e.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    e.send("go wtime 1000 btime 1000");
    assert_eq!(e.until("bestmove", 5.0).last().unwrap(), "bestmove 0000");
}

#[test]
fn zero_and_negative_clocks_and_movestogo_one() {
    let mut e = Engine::start();
    e.send("position startpos moves d2d4");
    for go in [
        "go wtime 0 btime 0",
        "go wtime -1000 btime -1000 winc 0 binc 0",
        "go btime 0 binc 100",
        "go wtime 50 btime 50 movestogo 1",
    ] {
        let t = Instant::now();
        e.send(go);
        let lines = e.until("bestmove", 5.0);
        assert_ne!(bestmove(&lines), "0000", "{go}");
        assert!(
            t.elapsed() < Duration::from_millis(1500),
            "{go} took {:?}",
            t.elapsed()
        );
    }
    let t = Instant::now();
    e.send("go wtime 2000 btime 2000 movestogo 1");
    e.until("bestmove", 5.0);
    assert!(
        t.elapsed() < Duration::from_millis(1900),
        "movestogo 1 took {:?}",
        t.elapsed()
    );
}

#[test]
fn move_overhead_is_honoured() {
    let mut e = Engine::start();
    e.send("setoption name Move Overhead value 700");
    e.send("position startpos");
    let t = Instant::now();
    e.send("go movetime 1000");
    e.until("bestmove", 5.0);
    let took = t.elapsed();
    assert!(
        took < Duration::from_millis(700),
        "took {took:?} with 700 ms overhead of 1000"
    );
}

#[test]
fn errors_keep_the_previous_position() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4");
    e.send("position fen this is not a fen");
    let l = e.until("info string", 5.0);
    assert!(l.last().unwrap().contains("error"));
    e.send("position startpos moves e2e5");
    e.until("info string", 5.0);
    e.send("frobnicate");
    assert!(e
        .until("info string", 5.0)
        .last()
        .unwrap()
        .contains("unknown command"));
    e.send("setoption name NoSuchOption value 3");
    e.until("info string", 5.0);
    e.send("d");
    let lines = e.until("Fen:", 5.0);
    assert!(
        lines
            .last()
            .unwrap()
            .contains("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq"),
        "{:?}",
        lines.last()
    );
    e.send("go depth 3");
    let mv = bestmove(&e.until("bestmove", 5.0));
    assert!(
        mv.starts_with(|c: char| c.is_ascii_lowercase()) && mv.len() >= 4 && &mv[1..2] >= "5",
        "black move {mv}"
    );
}

#[test]
fn threads_multipv_and_clear_hash() {
    let mut e = Engine::start();
    e.send("setoption name Threads value 3");
    e.send("setoption name Hash value 32");
    e.send("setoption name MultiPV value 3");
    e.send("setoption name Clear Hash");
    e.ready();
    e.send("position startpos");
    e.send("go depth 8");
    let lines = e.until("bestmove", 30.0);
    for k in 1..=3 {
        assert!(
            lines.iter().any(|l| l.contains(&format!(" multipv {k} "))),
            "multipv {k}"
        );
    }
    // Every thread has stopped before bestmove: the next search starts and ends cleanly.
    e.send("setoption name MultiPV value 1");
    e.send("go movetime 200");
    e.until("bestmove", 5.0);
    e.ready();
}

#[test]
fn go_parameters_depth_nodes_mate_searchmoves() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go depth 4");
    let lines = e.until("bestmove", 10.0);
    assert!(lines.iter().any(|l| l.starts_with("info depth 4 ")));
    assert!(!lines.iter().any(|l| l.starts_with("info depth 5 ")));
    e.send("go nodes 3000");
    e.until("bestmove", 10.0);
    e.send("go depth 6 searchmoves a2a3 h2h4");
    let mv = bestmove(&e.until("bestmove", 10.0));
    assert!(mv == "a2a3" || mv == "h2h4", "{mv}");
    e.send("position fen r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1");
    e.send("go mate 2");
    let lines = e.until("bestmove", 20.0);
    assert!(lines.iter().any(|l| l.contains("score mate 2")));
    assert_eq!(bestmove(&lines), "d5f6");
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Chess960 value true");
    e.send("position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    e.send("go depth 3 searchmoves e1h1");
    assert_eq!(bestmove(&e.until("bestmove", 5.0)), "e1h1");
    e.send("setoption name UCI_Chess960 value false");
    e.send("position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    e.send("go depth 3 searchmoves e1g1");
    assert_eq!(bestmove(&e.until("bestmove", 5.0)), "e1g1");
}

#[test]
fn quit_mid_search_exits() {
    let mut e = Engine::start();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("quit");
    let t = Instant::now();
    loop {
        if let Some(status) = e.child.try_wait().unwrap() {
            assert!(status.success());
            break;
        }
        assert!(t.elapsed() < Duration::from_secs(5), "engine did not quit");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn bench_is_deterministic() {
    let run = || {
        let out = Command::new(env!("CARGO_BIN_EXE_estuary"))
            .args(["bench", "6", "--quiet"])
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        let nodes = text
            .lines()
            .find(|l| l.starts_with("Nodes searched: "))
            .expect("Nodes searched line")
            .to_string();
        assert!(text.lines().any(|l| l.starts_with("Nodes/second: ")));
        nodes
    };
    assert_eq!(run(), run());
}

#[test]
fn eval_and_analyze_subcommands() {
    let out = Command::new(env!("CARGO_BIN_EXE_estuary"))
        .args(["eval", "8/8/4k3/8/8/4K3/4P3/8 w - - 0 1"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    for term in [
        "Material",
        "Piece-square",
        "Mobility",
        "Passed pawns",
        "Pawn structure",
        "King safety",
        "Pieces",
        "Tempo",
        "Final evaluation",
    ] {
        assert!(text.contains(term), "{term} missing:\n{text}");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_estuary"))
        .args([
            "analyze",
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
            "--depth",
            "4",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("#1") && text.contains("Qxf7#"), "{text}");
}

#[test]
fn play_takes_san_and_uci_moves_and_saves_pgn() {
    let dir = std::env::temp_dir().join(format!("estuary-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("g.pgn");
    let mut child = Command::new(env!("CARGO_BIN_EXE_estuary"))
        .args(["play", "--depth", "2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let script = format!("e4\nbogus\nd2d4\nundo\nNf3\nsave {}\nquit\n", pgn.display());
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Estuary plays"), "{text}");
    assert!(text.contains("not a legal move"), "{text}");
    let saved = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        saved.contains("1. e4 ") && saved.contains("[Result \"*\"]"),
        "{saved}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
