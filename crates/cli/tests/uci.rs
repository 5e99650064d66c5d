//! Scripted UCI sessions over a pipe against the built `estuary` binary: every pitfall the
//! engine issue lists, each in its own test.

#[path = "common/engine.rs"]
mod engine;

use engine::{bestmove, Engine};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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
    e.exits_within(5.0);
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

/// Published mates (Win at Chess, `../shared/data/chess/wac.epd`) with their distance as
/// Stockfish 15.1 gives it; the mate in one is WAC.001 two plies on.
const WAC_MATES: [(&str, &str, i32); 5] = [
    (
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
        "g3g6 b6a4",
        1,
    ),
    (
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
        "",
        2,
    ),
    (
        "k4r2/1R4pb/1pQp1n1p/3P4/5p1P/3P2P1/r1q1R2K/8 w - - 0 1",
        "",
        3,
    ),
    (
        "r2rb1k1/pp1q1p1p/2n1p1p1/2bp4/5P2/PP1BPR1Q/1BPN2PP/R5K1 w - - 0 1",
        "",
        4,
    ),
    (
        "3q1rk1/p4pp1/2pb3p/3p4/6Pr/1PNQ4/P1PB1PP1/4RRK1 b - - 0 1",
        "",
        5,
    ),
];

fn position_command(fen: &str, moves: &str) -> String {
    if moves.is_empty() {
        format!("position fen {fen}")
    } else {
        format!("position fen {fen} moves {moves}")
    }
}

/// The mate distance Debian's Stockfish reports for a position, if it is installed.
fn stockfish_mate(position: &str) -> Option<i32> {
    let path = "/usr/games/stockfish";
    if !std::path::Path::new(path).exists() {
        return None;
    }
    let out = Command::new(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            let mut stdin = c.stdin.take().unwrap();
            writeln!(stdin, "{position}\ngo nodes 2000000")?;
            let mut reader = BufReader::new(c.stdout.take().unwrap());
            let mut mate = None;
            let mut line = String::new();
            while reader.read_line(&mut line)? > 0 {
                if let Some(rest) = line.split(" score mate ").nth(1) {
                    mate = rest.split_whitespace().next().and_then(|t| t.parse().ok());
                }
                if line.starts_with("bestmove") {
                    break;
                }
                line.clear();
            }
            writeln!(stdin, "quit")?;
            c.wait()?;
            Ok(mate)
        });
    out.ok().flatten()
}

#[test]
fn go_mate_reports_the_shortest_mate_from_the_solver() {
    let mut e = Engine::start();
    for (fen, moves, n) in WAC_MATES {
        let position = position_command(fen, moves);
        if let Some(sf) = stockfish_mate(&position) {
            assert_eq!(sf, n, "Stockfish disagrees on {position}");
        }
        e.send(&position);
        e.send(&format!("go mate {n}"));
        let lines = e.until("bestmove", 60.0);
        let info = lines
            .iter()
            .rev()
            .find(|l| l.contains(" score mate "))
            .unwrap_or_else(|| panic!("no mate for {position}: {lines:#?}"));
        assert!(
            info.contains(&format!(" score mate {n} ")),
            "{position}: {info}"
        );
        for field in [" depth ", " nodes ", " nps ", " time "] {
            assert!(info.contains(field), "{field} missing in {info}");
        }
        // The line is legal, has the announced length and ends in checkmate.
        let mut b = chess::Board::from_fen(fen).unwrap();
        for m in moves.split_whitespace() {
            b.play(b.parse_uci_move(m).unwrap());
        }
        let pv: Vec<&str> = info
            .split(" pv ")
            .nth(1)
            .unwrap()
            .split_whitespace()
            .collect();
        assert_eq!(pv.len() as i32, 2 * n - 1, "{info}");
        for m in &pv {
            let mv = b
                .parse_uci_move(m)
                .unwrap_or_else(|err| panic!("{m} in {info}: {err}"));
            b.play(mv);
        }
        assert!(b.in_check() && !b.has_legal_move(), "{info} does not mate");
        let last = lines.last().unwrap();
        assert_eq!(bestmove(&lines), pv[0], "{last}");
        if pv.len() > 1 {
            assert!(last.ends_with(&format!(" ponder {}", pv[1])), "{last}");
        }
    }
}

#[test]
fn go_mate_is_stopped_answers_isready_and_quits() {
    let mut e = Engine::start();
    // No mate in 12 from the start: the solver would take far longer than the test allows.
    e.send("position startpos");
    e.send("go mate 12");
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    e.ready();
    assert!(
        t.elapsed() < Duration::from_secs(2),
        "isready waited for the solver"
    );
    e.none("bestmove", 200);
    e.send("stop");
    let lines = e.until("bestmove", 5.0);
    assert!(bestmove(&lines) != "0000");
    assert!(
        t.elapsed() < Duration::from_secs(5),
        "stop did not reach the solver"
    );
    e.send("go mate 12");
    std::thread::sleep(Duration::from_millis(200));
    e.send("quit");
    e.exits_within(5.0);
}

#[test]
fn go_mate_without_a_mate_falls_back_to_alpha_beta() {
    let mut e = Engine::start();
    // WAC.008 is a mate in 7, not in 2: the solver disproves, alpha-beta still answers.
    let fen = "r4q1k/p2bR1rp/2p2Q1N/5p2/5p2/2P5/PP3PPP/R5K1 w - - 0 1";
    e.send(&format!("position fen {fen}"));
    e.send("go mate 2 movetime 1000");
    let t = Instant::now();
    let lines = e.until("bestmove", 10.0);
    assert!(
        t.elapsed() < Duration::from_secs(5),
        "movetime not honoured"
    );
    let b = chess::Board::from_fen(fen).unwrap();
    assert!(b.parse_uci_move(&bestmove(&lines)).is_ok(), "{lines:#?}");
    assert!(!lines
        .iter()
        .any(|l| l.contains(" score mate 1 ") || l.contains(" score mate 2 ")));
    e.send("go mate 2 nodes 20000");
    let lines = e.until("bestmove", 10.0);
    assert!(b.parse_uci_move(&bestmove(&lines)).is_ok(), "{lines:#?}");
    // The start position, no limit but the mate: the solver disproves, alpha-beta runs a
    // bounded search.
    e.send("position startpos");
    e.send("go mate 2");
    let lines = e.until("bestmove", 60.0);
    assert!(lines.last().unwrap().starts_with("bestmove "));
    // Mated: no legal move, bestmove 0000.
    e.send("position fen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    e.send("go mate 3");
    assert_eq!(e.until("bestmove", 5.0).last().unwrap(), "bestmove 0000");
}

#[test]
fn nnue_options_switch_the_evaluation_and_bad_net_files_are_errors() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok", 10.0);
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name Use NNUE type check")));
    assert!(lines
        .iter()
        .any(|l| l == "option name EvalFile type string default <embedded>"));
    let bad = std::env::temp_dir().join(format!("estuary-bad-{}.nnue", std::process::id()));
    std::fs::write(&bad, b"ESTNNUE1 not a net").unwrap();
    e.send(&format!("setoption name EvalFile value {}", bad.display()));
    let l = e.until("info string error", 10.0);
    assert!(l.last().unwrap().contains("EvalFile"), "{l:?}");
    e.send("setoption name EvalFile value /nonexistent/x.nnue");
    e.until("info string error: EvalFile: /nonexistent/x.nnue", 10.0);
    e.send("setoption name Use NNUE value maybe");
    e.until("info string error: bad Use NNUE value", 10.0);
    let _ = std::fs::remove_file(&bad);
    // Both evaluations search and answer; the engine is still alive after the errors.
    for on in ["true", "false", "true"] {
        e.send(&format!("setoption name Use NNUE value {on}"));
        e.send("setoption name EvalFile value <embedded>");
        e.send("position startpos moves e2e4");
        e.send("go depth 6");
        let l = e.until("bestmove", 30.0);
        assert_ne!(bestmove(&l), "0000");
    }
    e.ready();
}

#[test]
fn a_line_that_is_not_utf8_does_not_end_the_session() {
    // Found by tools/fuzz-uci (regressions/non-utf8-line-ends-input.txt): a Latin-1 file name
    // used to end the input loop as if the GUI had closed the pipe.
    let mut e = Engine::start();
    e.send("isready");
    e.until("readyok", 10.0);
    e.stdin
        .write_all(b"setoption name EvalFile value /tmp/caf\xe9.nnue\n")
        .unwrap();
    e.send("isready");
    e.until("readyok", 10.0);
    e.send("go depth 1");
    let lines = e.until("bestmove", 10.0);
    assert_ne!(bestmove(&lines), "0000");
    e.send("quit");
}

/// The search machine's model behind UCI: a legal answer at a fixed depth with its chip
/// clocks, `stop` ending `go infinite` at once, `go movetime` answered in time, bad input
/// answered with an error and the engine still working.
#[test]
fn the_chip_model_speaks_uci() {
    let mut e = Engine::start_with(&["uci", "--device", "chip-model"]);
    e.send("uci");
    let lines = e.until("uciok", 10.0);
    assert!(lines.iter().any(|l| l.contains("chip-model")), "{lines:?}");
    e.ready();
    e.send("position startpos moves e2e4 e7e5");
    e.send("go depth 4");
    let lines = e.until("bestmove", 30.0);
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 4 ")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.contains("chip clocks")), "{lines:?}");
    let best = bestmove(&lines);
    let mut b = chess::Board::startpos();
    for m in ["e2e4", "e7e5"] {
        let mv = b.parse_uci_move(m).unwrap();
        b.play(mv);
    }
    assert!(b.parse_uci_move(&best).is_ok(), "illegal bestmove {best}");
    // Decide now: stop ends an infinite search with a move.
    e.send("go infinite");
    e.none("bestmove", 300);
    let t = Instant::now();
    e.send("stop");
    e.until("bestmove", 2.0);
    assert!(t.elapsed() < Duration::from_millis(500));
    // The wall clock is kept whatever the chip budget.
    let t = Instant::now();
    e.send("go movetime 300");
    e.until("bestmove", 5.0);
    assert!(
        t.elapsed() < Duration::from_millis(600),
        "{:?}",
        t.elapsed()
    );
    // With `Wall Clock` off only the chip's budget ends a timed search. At 1000 MHz the model
    // runs slower than the chip, so with the wall watched it stops short of the 50 ms budget
    // (`movetime 100` less the 50 ms overhead: 50M clocks), and without it spends it.
    let spent = |lines: &[String]| -> u64 {
        let l = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info string chip nodes "))
            .expect("the chip's closing report");
        let t: Vec<&str> = l.split_whitespace().collect();
        let i = t.iter().position(|&w| w == "clocks").expect("clocks");
        t[i + 1].parse().expect("a number")
    };
    e.send("setoption name Clock MHz value 1000");
    e.send("position startpos");
    e.send("go movetime 100");
    let watched = spent(&e.until("bestmove", 5.0));
    e.send("setoption name Wall Clock value false");
    e.send("go movetime 100");
    let budget = spent(&e.until("bestmove", 120.0));
    assert!(budget >= 49_000_000, "{budget}");
    assert!(watched < budget / 2, "{watched} against {budget}");
    e.send("setoption name Wall Clock value true");
    e.send("setoption name Clock MHz value 101");
    // Late-move pruning: offered, on by default, and a smaller tree than without it.
    assert!(lines_of_uci(&mut e)
        .contains(&"option name Late Move Pruning type check default true".to_string()));
    let nodes = |e: &mut Engine| -> u64 {
        e.send("ucinewgame");
        e.send("position startpos moves d2d4 g8f6 c2c4 e7e6");
        e.send("go depth 7");
        let lines = e.until("bestmove", 60.0);
        let l = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth 7 "))
            .expect("depth 7 reported")
            .clone();
        let t: Vec<&str> = l.split_whitespace().collect();
        let i = t.iter().position(|&w| w == "nodes").expect("nodes");
        t[i + 1].parse().expect("a number")
    };
    let pruned = nodes(&mut e);
    e.send("setoption name Late Move Pruning value false");
    let plain = nodes(&mut e);
    assert!(pruned < plain, "{pruned} nodes against {plain}");
    e.send("setoption name Late Move Pruning value true");
    assert_eq!(nodes(&mut e), pruned);
    // Bad input: an error line, the engine unchanged.
    for bad in [
        "position fen not a fen",
        "position startpos moves e2e5",
        "go depth x",
        "setoption name Wall Clock value maybe",
        "setoption name Late Move Pruning value 2",
        "setoption name TT Entries value 0",
        "setoption name EvalFile value /no/such/net",
        "frobnicate",
    ] {
        e.send(bad);
        let l = e.until("info string error", 5.0);
        assert!(!l.is_empty(), "{bad}");
    }
    // A mated position: no move.
    e.send("position fen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    e.send("go depth 2");
    let lines = e.until("bestmove", 5.0);
    assert_eq!(lines.last().unwrap(), "bestmove 0000");
    e.send("quit");
    e.exits_within(5.0);
}

/// The options the engine lists in answer to `uci`.
fn lines_of_uci(e: &mut Engine) -> Vec<String> {
    e.send("uci");
    e.until("uciok", 10.0)
}

/// `--device chip-rtl`: the verilated search machine, spoken to over its simulated UART,
/// plays a short game through UCI (each answer legal, the repetition history carried), stops
/// on `stop`, and refuses to change the options its build fixes.
#[test]
fn the_chip_rtl_plays_a_short_game_over_uci() {
    if !cosim::available() {
        eprintln!("skipped: built without verilator");
        return;
    }
    let mut e = Engine::start_with(&["uci", "--device", "chip-rtl"]);
    e.send("uci");
    let lines = e.until("uciok", 10.0);
    assert!(lines.iter().any(|l| l.contains("chip-rtl")), "{lines:?}");
    e.ready();
    e.send("ucinewgame");
    let mut board = chess::Board::startpos();
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..6 {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send("go nodes 400");
        let lines = e.until("bestmove", 60.0);
        assert!(
            lines.iter().any(|l| l.starts_with("info depth")),
            "{lines:?}"
        );
        let best = bestmove(&lines);
        let m = board
            .parse_uci_move(&best)
            .unwrap_or_else(|_| panic!("illegal bestmove {best} after {moves:?}"));
        board.play(m);
        moves.push(best);
    }
    // Decide now.
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.send("go infinite");
    e.none("bestmove", 300);
    e.send("stop");
    let lines = e.until("bestmove", 10.0);
    let best = bestmove(&lines);
    assert!(
        board.parse_uci_move(&best).is_ok(),
        "illegal bestmove {best}"
    );
    e.send("setoption name TT Entries value 1024");
    assert!(!e.until("info string error", 5.0).is_empty());
    e.send("quit");
    e.exits_within(10.0);
}

/// `--device chip` without a port, or with one that is not there: a clear error, no engine.
#[test]
fn a_chip_on_a_missing_port_is_a_clear_error() {
    for args in [
        &["uci", "--device", "chip"][..],
        &[
            "uci",
            "--device",
            "chip",
            "--port",
            "/dev/estuary-no-such-port",
        ][..],
        &["uci", "--port", "/dev/ttyUSB0"][..],
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_estuary"))
            .args(args)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("port"), "{args:?}: {err}");
    }
}

/// `(score cp or None for a mate, [w, d, l])` of every `info ... wdl` line.
fn wdl_of(lines: &[String]) -> Vec<(Option<i32>, [u32; 3])> {
    let mut out = Vec::new();
    for l in lines.iter().filter(|l| l.starts_with("info depth")) {
        let t: Vec<&str> = l.split_whitespace().collect();
        let at = |k: &str| t.iter().position(|w| *w == k);
        let w = at("wdl").unwrap_or_else(|| panic!("no wdl in '{l}'"));
        let s = at("score").unwrap();
        let cp = (t[s + 1] == "cp").then(|| t[s + 2].parse().unwrap());
        let v: Vec<u32> = t[w + 1..w + 4].iter().map(|x| x.parse().unwrap()).collect();
        out.push((cp, [v[0], v[1], v[2]]));
    }
    out
}

#[test]
fn show_wdl_adds_win_draw_loss_per_mille() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok", 10.0);
    assert!(lines
        .iter()
        .any(|l| l == "option name UCI_ShowWDL type check default false"));
    // Off by default.
    e.send("position startpos");
    e.send("go depth 6");
    let lines = e.until("bestmove", 30.0);
    assert!(lines.iter().all(|l| !l.contains(" wdl ")), "{lines:#?}");
    e.send("setoption name UCI_ShowWDL value true");
    e.send("setoption name UCI_ShowWDL value maybe");
    e.until("info string error: bad UCI_ShowWDL value", 5.0);
    // Positions of every kind of score, the same material in each (the model's other
    // input), so that a higher score must mean no fewer wins and no more losses.
    let mut all = Vec::new();
    for (moves, mate) in [
        ("", false),
        ("e2e4 e7e5 g1f3 b8c6 f1c4 g8f6", false),
        ("f2f3 e7e5 g2g4", true),
        ("e2e4 e7e5 d1h5 b8c6 f1c4 g8f6", true),
        ("f2f3 e7e5 g2g4 d7d5", false),
    ] {
        e.send(&format!("position startpos moves {moves}"));
        e.send("go depth 7");
        let lines = e.until("bestmove", 30.0);
        let wdl = wdl_of(&lines);
        assert!(!wdl.is_empty(), "{lines:#?}");
        for (cp, v) in &wdl {
            assert_eq!(v.iter().sum::<u32>(), 1000, "{lines:#?}");
            if cp.is_none() {
                assert!(*v == [1000, 0, 0] || *v == [0, 0, 1000], "{lines:#?}");
            }
        }
        assert_eq!(mate, wdl.last().unwrap().0.is_none(), "{lines:#?}");
        all.extend(wdl.into_iter().filter_map(|(cp, v)| cp.map(|c| (c, v))));
    }
    all.sort();
    for pair in all.windows(2) {
        let ((_, a), (_, b)) = (pair[0], pair[1]);
        assert!(b[0] >= a[0] && b[2] <= a[2], "not monotone: {pair:?}");
    }
    assert!(
        all.first().unwrap().0 < 0 && all.last().unwrap().0 > 0,
        "{all:?}"
    );
}

/// The best moves of a weakened session over a few positions, and how many differed from
/// the search's own first line.
fn weakened_session(setup: &[&str]) -> (Vec<String>, usize) {
    let mut e = Engine::start();
    for s in setup {
        e.send(s);
    }
    e.ready();
    let mut moves = Vec::new();
    let mut not_first = 0;
    for opening in [
        "",
        "e2e4",
        "d2d4 d7d5",
        "e2e4 c7c5 g1f3",
        "c2c4 e7e5 b1c3",
        "g1f3 d7d5 g2g3",
        "e2e4 e7e6 d2d4 d7d5",
        "d2d4 g8f6 c2c4 e7e6",
    ] {
        e.send(&format!("position startpos moves {opening}"));
        e.send("go depth 10");
        let lines = e.until("bestmove", 30.0);
        let best = bestmove(&lines);
        // The move is the first of one of the last completed iteration's lines.
        let infos: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .collect();
        let depth = infos
            .last()
            .unwrap()
            .split_whitespace()
            .nth(2)
            .unwrap()
            .to_string();
        let firsts: Vec<(String, String)> = infos
            .iter()
            .filter(|l| l.split_whitespace().nth(2) == Some(depth.as_str()))
            .map(|l| {
                let t: Vec<&str> = l.split_whitespace().collect();
                let pv = t.iter().position(|w| *w == "pv").unwrap();
                let k = t.iter().position(|w| *w == "multipv").unwrap();
                (t[k + 1].to_string(), t[pv + 1].to_string())
            })
            .collect();
        assert!(firsts.len() >= 4, "{lines:#?}");
        assert!(firsts.iter().any(|(_, m)| *m == best), "{lines:#?}");
        if firsts.iter().any(|(k, m)| k == "1" && *m != best) {
            not_first += 1;
        }
        assert!(lines
            .iter()
            .any(|l| l.starts_with("info string Skill Level")));
        moves.push(best);
    }
    (moves, not_first)
}

#[test]
fn skill_level_and_limit_strength_weaken_reproducibly() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok", 10.0);
    let (lo, hi) = (uci::strength::MIN_ELO, uci::strength::MAX_ELO);
    for opt in [
        "option name Skill Level type spin default 20 min 0 max 20".to_string(),
        "option name UCI_LimitStrength type check default false".into(),
        format!("option name UCI_Elo type spin default {hi} min {lo} max {hi}"),
    ] {
        assert!(lines.contains(&opt), "{opt}");
    }
    for bad in [
        "Skill Level value 21".to_string(),
        "Skill Level value x".into(),
        format!("UCI_Elo value {}", lo - 1),
        "UCI_LimitStrength value 2".into(),
    ] {
        e.send(&format!("setoption name {bad}"));
        e.until("info string error: bad", 5.0);
    }
    // The top of the Elo range is level 19, the strongest weakened level: a draw among lines.
    e.send("setoption name UCI_LimitStrength value true");
    e.send(&format!("setoption name UCI_Elo value {hi}"));
    e.send("position startpos");
    e.send("go depth 5");
    let lines = e.until("bestmove", 30.0);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string Skill Level 19:")),
        "{lines:#?}"
    );
    // Full strength with UCI_LimitStrength off: one line, no draw.
    e.send("setoption name UCI_LimitStrength value false");
    e.send("position startpos");
    e.send("go depth 5");
    let lines = e.until("bestmove", 30.0);
    assert!(lines
        .iter()
        .all(|l| !l.contains("Skill Level") && !l.contains("multipv 2")));
    drop(e);

    // Level 0 by either option: a move drawn among four lines or more, not always the
    // first; the same session twice gives the same moves.
    let (a, not_first) = weakened_session(&["setoption name Skill Level value 0"]);
    assert!(
        not_first > 0,
        "level 0 always played the search's best: {a:?}"
    );
    let (b, _) = weakened_session(&["setoption name Skill Level value 0"]);
    assert_eq!(a, b, "seeded: the same session plays the same moves");
    let (c, _) = weakened_session(&[
        "setoption name UCI_LimitStrength value true",
        &format!("setoption name UCI_Elo value {lo}"),
    ]);
    assert_eq!(a, c, "the lowest UCI_Elo is level 0");
}
