//! Co-simulation: the verilated move generator against the Rust model at every node of perft
//! trees. At each node the hardware, driven only by its own make/unmake words, must produce the
//! same move set (and count) as `Board::generate` in both modes (all, captures-only), report the
//! same in-check flag, flag the quiet moves that give check (`Board::gives_check`), and
//! stream its moves in exactly the order and clocks of the Rust model of its stream
//! (`hw::movegen::stream`: captures first in MVV-LVA order, then promotion pushes, then quiet
//! moves). Leaf counts are checked against the EPD files too, and the
//! clocks per generate are tallied.
//!
//! Depths (kept small so CI stays within minutes on two cores): depth 3 on every position of
//! ../shared/data/perft/standard.epd and every 40th of random-games.epd, depth 2 on the
//! tricky positions of perftsuite.epd (en passant, promotions, castling) and on the Chess960
//! positions of the chess crate's test data.

mod common;

use chess::{Board, GenMode, MoveList};
use common::{required, simulator_present};
use cosim::movegen::RtlDevice;
use device::MoveGenDevice;
use hw::movegen::stream;
use std::path::PathBuf;

fn data(rel: &str) -> Option<String> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel);
    match std::fs::read_to_string(&p) {
        Ok(t) => Some(t),
        Err(e) => {
            if required() {
                panic!("{}: {e}", p.display());
            }
            eprintln!("skipped {}: {e}", p.display());
            None
        }
    }
}

#[derive(Default)]
struct Tally {
    nodes: u64,
    leaves: u64,
    all_cycles: u64,
    all_moves: u64,
    capture_cycles: u64,
    capture_moves: u64,
    count_cycles: u64,
    /// Quiet moves flagged as giving check (castling aside).
    checks: u64,
}

fn sorted(l: &MoveList) -> Vec<u16> {
    let mut v: Vec<u16> = l.iter().map(|m| m.raw()).collect();
    v.sort_unstable();
    v
}

/// Count-only mode: one clock per non-empty source (at most 28) beyond the start-up.
const COUNT_GROUPS: u64 = 29;

fn check_node(dev: &mut RtlDevice, tally: &mut Tally) {
    let b = *dev.position().board();
    let fen = b.to_fen();
    for (captures_only, mode) in [(false, GenMode::All), (true, GenMode::Captures)] {
        let mut hw = MoveList::new();
        let cycles = dev
            .generate_raw(captures_only, &mut hw)
            .unwrap_or_else(|e| panic!("{fen}: {e}"));
        let sw = b.generate(mode);
        if sorted(&hw) != sorted(&sw) {
            let hw_only: Vec<String> = hw
                .iter()
                .filter(|m| !sw.contains(**m))
                .map(|m| format!("{m:?}"))
                .collect();
            let sw_only: Vec<String> = sw
                .iter()
                .filter(|m| !hw.contains(**m))
                .map(|m| format!("{m:?}"))
                .collect();
            panic!("{fen} {mode:?}: hardware {} moves, model {}; hardware only {hw_only:?}, model only {sw_only:?}", hw.len(), sw.len());
        }
        // The exact stream: the model of move_stream.v's order that the search machine's
        // model walks (hw::movegen::stream).
        let mut model = MoveList::new();
        stream::stream_order(&b, captures_only, &mut model);
        assert_eq!(
            hw.as_slice(),
            model.as_slice(),
            "{fen} {mode:?}: stream order (hardware, then model)"
        );
        // The gives-check flag of every quiet move (castling flagged always).
        let flags = dev.sim().check_flags();
        assert_eq!(flags.len(), hw.len(), "{fen}: a flag a move");
        for (m, flag) in hw.iter().zip(&flags) {
            if !m.is_capture() && m.promotion().is_none() {
                assert_eq!(
                    *flag,
                    stream::quiet_check_flag(&b, *m),
                    "{fen}: gives-check flag of {m:?}"
                );
                tally.checks += u64::from(*flag && !m.is_castle());
            }
        }
        // One move per clock after the start-up, which builds the sets of the knights,
        // bishops, rooks and queens one a clock: the clocks the README quotes, exactly (the
        // search machine's model counts on them).
        assert_eq!(
            cycles,
            stream::generate_clocks(&b, hw.len() as u64),
            "{fen}: {cycles} cycles for {} moves",
            hw.len()
        );
        // Count-only mode: the same number, without streaming.
        let (count, count_cycles) = dev
            .sim()
            .count(captures_only)
            .unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(count as usize, sw.len(), "{fen} {mode:?}: count-only mode");
        assert!(
            count_cycles <= stream::generate_clocks(&b, 0) + COUNT_GROUPS,
            "{fen}: {count_cycles} cycles to count {} moves",
            sw.len()
        );
        tally.count_cycles += count_cycles;
        if captures_only {
            tally.capture_cycles += cycles;
            tally.capture_moves += hw.len() as u64;
        } else {
            tally.all_cycles += cycles;
            tally.all_moves += hw.len() as u64;
        }
    }
    assert_eq!(dev.sim().in_check(), b.in_check(), "{fen}: in-check flag");
    tally.nodes += 1;
}

fn walk(dev: &mut RtlDevice, depth: u32, tally: &mut Tally) -> u64 {
    check_node(dev, tally);
    if depth == 0 {
        tally.leaves += 1;
        return 1;
    }
    let moves = dev.position().board().legal_moves();
    let mut n = 0;
    for &m in moves.iter() {
        dev.make(m);
        n += walk(dev, depth - 1, tally);
        dev.unmake();
    }
    n
}

/// ESTUARY_COSIM_FULL=1 runs every position of each file at depth 3 (minutes, by hand).
fn full() -> bool {
    std::env::var("ESTUARY_COSIM_FULL").is_ok_and(|v| v == "1")
}

fn run_suite(name: &str, text: &str, every: usize, max_depth: u32) {
    let (every, max_depth) = if full() { (1, 3) } else { (every, max_depth) };
    let lines = chess::parse_perft_suite(text).expect("perft suite");
    let mut tally = Tally::default();
    let mut positions = 0;
    for line in lines.iter().step_by(every) {
        let board = Board::from_fen(&line.fen).unwrap_or_else(|e| panic!("{}: {e:?}", line.fen));
        let depth = line
            .counts
            .iter()
            .map(|c| c.0)
            .filter(|d| *d <= max_depth)
            .max()
            .unwrap_or(1);
        let expected = line.counts.iter().find(|c| c.0 == depth).map(|c| c.1);
        let mut dev = RtlDevice::new(&board).expect("RTL model");
        let n = walk(&mut dev, depth, &mut tally);
        if let Some(e) = expected {
            assert_eq!(n, e, "{} perft {depth}", line.fen);
        }
        positions += 1;
    }
    eprintln!(
        "{name} (every {every}, depth <= {max_depth}): {positions} positions, {} nodes compared in both modes; all: {:.2} clocks/generate, \
         {:.3} moves/clock; captures: {:.2} clocks/generate, {:.3} moves/clock; count-only: {:.2} clocks/count; \
         {} quiet checks flagged",
        tally.nodes,
        tally.all_cycles as f64 / tally.nodes as f64,
        tally.all_moves as f64 / tally.all_cycles as f64,
        tally.capture_cycles as f64 / tally.nodes as f64,
        tally.capture_moves as f64 / tally.capture_cycles as f64,
        tally.count_cycles as f64 / (2 * tally.nodes) as f64,
        tally.checks,
    );
}

#[test]
fn standard_perft_positions_depth_3() {
    if !simulator_present() {
        return;
    }
    if let Some(t) = data("../shared/data/perft/standard.epd") {
        run_suite("standard.epd", &t, 1, 3);
    }
}

#[test]
fn random_game_positions_depth_3() {
    if !simulator_present() {
        return;
    }
    if let Some(t) = data("../shared/data/perft/random-games.epd") {
        run_suite("random-games.epd", &t, 40, 3);
    }
}

#[test]
fn perftsuite_positions_depth_2() {
    if !simulator_present() {
        return;
    }
    if let Some(t) = data("../shared/data/perft/perftsuite.epd") {
        run_suite("perftsuite.epd", &t, 1, 2);
    }
}

#[test]
fn chess960_positions_depth_2() {
    if !simulator_present() {
        return;
    }
    if let Some(t) = data("crates/chess/tests/data/chess960.epd") {
        run_suite("chess960.epd", &t, 1, 2);
    }
}

#[test]
fn the_218_move_position() {
    if !simulator_present() {
        return;
    }
    let (name, fen) = hw::movegen::traffic::FOUR_POSITIONS[0];
    assert_eq!(name, "218 moves");
    let b = Board::from_fen(fen).unwrap();
    let mut dev = RtlDevice::new(&b).unwrap();
    let mut tally = Tally::default();
    check_node(&mut dev, &mut tally);
    assert_eq!(tally.all_moves, 218);
    eprintln!(
        "218-move position: {} clocks (all), {} clocks (captures), {} clocks (count-only, both modes)",
        tally.all_cycles, tally.capture_cycles, tally.count_cycles
    );
}
