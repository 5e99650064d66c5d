//! `estuary perft` as a user runs it: output format, suites, failures and bad input.

mod common;
use common::estuary;

fn tmp_file(name: &str, text: &str) -> std::path::PathBuf {
    let p = std::env::temp_dir().join(format!("estuary-perft-{}-{name}", std::process::id()));
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn single_position_ends_with_nodes_line() {
    let (code, out, _) = estuary(&["perft", "4"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().last(), Some("nodes 197281"));
    assert!(out.contains("nodes/s"));
}

#[test]
fn divide_lists_every_root_move_and_threads_agree() {
    let kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (code, out, _) = estuary(&["perft", "3", "--fen", kiwi, "--divide", "--threads", "2"]);
    assert_eq!(code, 0);
    let rows: Vec<&str> = out.lines().filter(|l| l.contains(": ")).collect();
    assert_eq!(rows.len(), 48);
    let sum: u64 = rows
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 97862);
    assert!(
        rows.iter().any(|l| l.starts_with("e1g1: ")),
        "standard castling notation"
    );
    assert_eq!(out.lines().last(), Some("nodes 97862"));
}

#[test]
fn chess960_divide_uses_king_takes_rook() {
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let (code, out, _) = estuary(&["perft", "1", "--fen", fen, "--divide"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().last(), Some("nodes 21"));
}

#[test]
fn suite_reports_failures_and_exit_code() {
    let good = tmp_file("good.epd", "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;D2 9\n");
    let (code, out, _) = estuary(&["perft", "--epd", good.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out.lines().last(), Some("2 passed, 0 failed"));
    let bad = tmp_file("bad.epd", "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;D2 10\n");
    let (code, out, _) = estuary(&["perft", "--epd", bad.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        out.contains("FAIL 8/8/8/8/8/8/8/K6k w - - 0 1 depth 2: expected 10, got 9"),
        "{out}"
    );
    assert_eq!(out.lines().last(), Some("1 passed, 1 failed"));
    let depth_cap = tmp_file("cap.epd", "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;D2 10\n");
    let (code, out, _) = estuary(&[
        "perft",
        "--epd",
        depth_cap.to_str().unwrap(),
        "--max-depth",
        "1",
    ]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().last(), Some("1 passed, 0 failed"));
}

#[test]
fn malformed_input_is_an_error_not_a_panic() {
    let broken = tmp_file(
        "broken.epd",
        "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3\n\nnot a fen ;D1 4\n",
    );
    let (code, _, err) = estuary(&["perft", "--epd", broken.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("line 3"), "{err}");
    for args in [
        vec!["perft"],
        vec!["perft", "x"],
        vec!["perft", "3", "--fen", "8/8/8 w - -"],
        vec!["perft", "3", "--threads", "many"],
        vec!["perft", "3", "--frobnicate"],
        vec!["perft", "--epd", "/nonexistent/file.epd"],
    ] {
        let (code, _, err) = estuary(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
