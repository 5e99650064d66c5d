//! perft against published counts: the shared standard and random-game suites (counts from
//! Stockfish 15.1), the 126-position suite, and a published Chess960 set.

use chess::{parse_perft_suite, perft, Board};
use std::path::PathBuf;

fn shared(rel: &str) -> Option<String> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data")
        .join(rel);
    match std::fs::read_to_string(&p) {
        Ok(t) => Some(t),
        Err(e) => {
            assert!(
                std::env::var_os("CI").is_none(),
                "shared test data missing under CI: {}: {e}",
                p.display()
            );
            eprintln!("skipped: {} not found ({e})", p.display());
            None
        }
    }
}

/// Runs every (position, depth) with depth <= max_depth and the expected count <= max_nodes.
fn check(text: &str, max_depth: u32, max_nodes: u64) -> usize {
    let suite = parse_perft_suite(text).expect("suite parses");
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in &suite {
        let b = Board::from_fen(&line.fen).expect("valid FEN");
        for &(d, expected) in &line.counts {
            if d > max_depth || expected > max_nodes {
                continue;
            }
            let got = perft(&b, d);
            checked += 1;
            if got != expected {
                failures.push(format!(
                    "{} depth {d}: expected {expected}, got {got}",
                    line.fen
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "perft failures:\n{}",
        failures.join("\n")
    );
    checked
}

#[test]
fn standard_positions() {
    if let Some(t) = shared("perft/standard.epd") {
        // Up to 200M leaves: startpos 6, Kiwipete 5, position 3 depth 7 ...
        assert!(check(&t, 7, 200_000_000) >= 35);
    }
}

#[test]
fn random_game_positions() {
    if let Some(t) = shared("perft/random-games.epd") {
        assert!(check(&t, 4, u64::MAX) >= 1500);
    }
}

#[test]
fn perftsuite_126() {
    if let Some(t) = shared("perft/perftsuite.epd") {
        assert!(check(&t, 6, 10_000_000) >= 500);
    }
}

#[test]
fn chess960_published_set() {
    let t = include_str!("data/chess960.epd");
    assert!(check(t, 5, 50_000_000) >= 200);
}
