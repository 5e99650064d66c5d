//! The host and a board over a real serial line, without a board: `estuary chip serve --pty`
//! plays the board (the machine's model behind the board's protocol) on a pseudo-terminal, and
//! `estuary uci --device chip --port` drives it as it would drive a ULX3S. The board's answers
//! must be the model's, node for node; damaged and cut frames on the line get the protocol's
//! error replies; a host that quits leaves at once.

#![cfg(target_os = "linux")]

#[path = "common/engine.rs"]
mod engine;

use engine::{bestmove, Engine};
use hw::chip::protocol::{ErrorCode, Reply, ReplyReader, Request};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

const EXE: &str = env!("CARGO_BIN_EXE_estuary");

/// A child process killed when the test ends, however it ends.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `estuary chip serve --pty` and the path of its line.
fn board() -> (Killed, String) {
    let mut child = Command::new(EXE)
        .args(["chip", "serve", "--pty"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run estuary chip serve");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .expect("read the line's path");
    let path = first
        .trim()
        .strip_prefix("serving on ")
        .unwrap_or_else(|| panic!("first line: {first:?}"))
        .to_string();
    assert!(path.starts_with("/dev/pts/"), "{path}");
    (Killed(child), path)
}

/// The last `info depth` line's nodes and PV, and the best move, of a search's lines.
fn summary(lines: &[String]) -> (String, String, String) {
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("an info depth line");
    let w: Vec<&str> = info.split_whitespace().collect();
    let at = |k: &str| w.iter().position(|x| *x == k).expect(k);
    let nodes = w[at("nodes") + 1].to_string();
    let pv = w[at("pv") + 1..].join(" ");
    (nodes, pv, bestmove(lines))
}

#[test]
fn a_host_plays_the_board_over_a_pseudo_terminal() {
    let (_board, path) = board();
    let mut host = Engine::start_with(&["uci", "--device", "chip", "--port", &path]);
    host.send("uci");
    let id = host.until("uciok", 60.0);
    assert!(id.iter().any(|l| l.contains(&path)), "{id:#?}");
    host.ready();
    host.send("position startpos moves e2e4");
    host.send("go depth 4");
    let first = summary(&host.until("bestmove", 60.0));

    // The model, searched here: the board must have answered exactly this.
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let o = Command::new(EXE)
        .args(["chip", "go", "--fen", fen, "--depth", "4", "--sdram"])
        .output()
        .expect("run estuary chip go");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{text}");
    let depth4 = text
        .lines()
        .find(|l| l.starts_with("depth 4 "))
        .expect("depth 4");
    let w: Vec<&str> = depth4.split_whitespace().collect();
    let pv = depth4.split(" pv ").nth(1).unwrap();
    assert_eq!(first.0, w[6], "nodes: board {first:?}, model {depth4}");
    assert_eq!(first.1, pv, "PV: board {first:?}, model {depth4}");
    let best = text
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .and_then(|l| l.split_whitespace().next())
        .unwrap();
    assert_eq!(first.2, best, "{text}");

    // The game goes on, the board keeping its table: a legal reply in the new position.
    host.send(&format!("position startpos moves e2e4 {} g1f3", first.2));
    host.send("go depth 3");
    let second = summary(&host.until("bestmove", 60.0));
    let mut b = chess::Board::startpos();
    for m in ["e2e4", first.2.as_str(), "g1f3"] {
        let mv = b.parse_uci_move(m).expect(m);
        b.play(mv);
    }
    assert!(
        b.parse_uci_move(&second.2).is_ok(),
        "{second:?} in {}",
        b.to_fen()
    );

    // `quit` leaves at once, though the line's reader is still blocked on the port.
    host.send("quit");
    host.exits_within(10.0);
}

/// The board's replies on `line`, read on a thread of their own.
fn replies(mut line: std::fs::File) -> Receiver<Result<Reply, ErrorCode>> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut reader = ReplyReader::default();
        let mut buf = [0u8; 64];
        while let Ok(n) = line.read(&mut buf) {
            for &b in &buf[..n] {
                if let Some(r) = reader.push(b) {
                    if tx.send(r).is_err() {
                        return;
                    }
                }
            }
        }
    });
    rx
}

#[test]
fn damaged_and_cut_frames_get_error_replies_and_the_board_goes_on() {
    let (_board, path) = board();
    let mut line = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&path)
        .expect("open the line");
    let rx = replies(line.try_clone().unwrap());
    let next = || rx.recv_timeout(Duration::from_secs(10)).expect("a reply");

    // A PING whose CRC is wrong.
    let mut bad = Request::Ping.encode();
    *bad.last_mut().unwrap() ^= 0x5a;
    line.write_all(&bad).unwrap();
    assert!(matches!(next(), Ok(Reply::Error(ErrorCode::BadCrc))));

    // A LOAD cut off after a few bytes: the inter-byte timeout ends it.
    let load = Request::Load {
        board: chess::Board::startpos(),
        history: vec![],
    }
    .encode();
    line.write_all(&load[..7]).unwrap();
    assert!(matches!(next(), Ok(Reply::Error(ErrorCode::Truncated))));

    // GO before any LOAD is refused; then a whole LOAD and GO are answered.
    let go = Request::Go {
        depth: 3,
        nodes: 0,
        clocks: 0,
    }
    .encode();
    line.write_all(&go).unwrap();
    assert!(matches!(next(), Ok(Reply::Error(ErrorCode::NoPosition))));
    line.write_all(&Request::Ping.encode()).unwrap();
    assert!(matches!(next(), Ok(Reply::Pong)));
    line.write_all(&load).unwrap();
    line.write_all(&go).unwrap();
    loop {
        match next() {
            Ok(Reply::Info(_)) => {}
            Ok(Reply::Best { best, report, .. }) => {
                assert!(best.is_some() && report.nodes > 0, "{report:?}");
                break;
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn serve_needs_one_line_and_says_why() {
    for args in [
        &["chip", "serve"][..],
        &["chip", "serve", "--pty", "--port", "/dev/null"],
        &["chip", "serve", "--pty", "--baud", "9600"],
        &["chip", "serve", "--port", "/nonexistent/ttyUSB9"],
        &["chip", "serve", "--pty", "--tt-entries", "0"],
    ] {
        let o = Command::new(EXE).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{args:?}");
        assert!(
            !err.contains("panicked") && !err.trim().is_empty(),
            "{args:?}: {err}"
        );
    }
}
