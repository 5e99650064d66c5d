//! Co-simulation of the evaluation unit: the verilated unit against the chip net's Rust
//! reference (`eval::chip`) at every node of game trees and of real searches. `RtlEval` compares
//! the unit's accumulators (both perspectives) after every load, make, null move and unmake,
//! and its output at every evaluation, and panics on the first difference.

mod common;

use chess::{GenMode, MoveList, Position};
use common::simulator_present;
use cosim::evalunit::RtlEval;
use device::Evaluator;
use eval::chip::{Arch, ChipNet};
use std::sync::Arc;

const FENS: [&str; 5] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    // Chess960: the king and a rook already on their castling squares.
    "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

/// Every line of the tree to `depth` (null moves too, where not in check), evaluating at every
/// node; returns the nodes.
fn walk(e: &mut RtlEval, pos: &mut Position, depth: u32) -> u64 {
    e.evaluate(pos.board());
    // The unit's accumulators hold this position until the first unmake: its first child's
    // make is a fast one.
    let mut fresh = true;
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.generate_into(GenMode::All, &mut list);
    let mut n = 1;
    for &m in list.iter() {
        let before = *pos.board();
        pos.make(m);
        let c0 = e.clocks();
        e.make(m, &before, pos.board());
        let c1 = e.clocks();
        // The unit takes the clocks of the Rust model of its make schedule, exactly.
        assert_eq!(
            c1.make - c0.make,
            hw::evalunit::make_clocks(m, fresh),
            "{m:?}: make clocks (fast: {fresh})"
        );
        n += walk(e, pos, depth - 1);
        let c2 = e.clocks();
        e.unmake();
        assert_eq!(e.clocks().unmake - c2.unmake, hw::evalunit::UNMAKE_CLOCKS);
        pos.unmake();
        fresh = false;
    }
    if !pos.in_check() {
        pos.make_null();
        let c0 = e.clocks();
        e.make_null();
        assert_eq!(e.clocks().null - c0.null, hw::evalunit::NULL_CLOCKS);
        n += walk(e, pos, depth - 1);
        e.unmake();
        pos.unmake();
    }
    n
}

#[test]
fn both_nets_agree_with_the_reference_at_every_node_of_game_trees() {
    if !simulator_present() {
        return;
    }
    for (arch, seed) in [(Arch::estuary(), 11), (Arch::onechan(), 12)] {
        let net = Arc::new(ChipNet::random(arch, seed));
        let mut e = RtlEval::new(net.clone()).expect("verilated model");
        let mut nodes = 0;
        for fen in FENS {
            let mut pos = Position::from_fen(fen).expect("test FEN");
            e.load(pos.board());
            nodes += walk(&mut e, &mut pos, 2);
        }
        let s = e.stats();
        let c = e.clocks();
        assert_eq!(s.evals, nodes);
        assert!(s.makes > 500, "{s:?}");
        // Every evaluation here follows a load, make or null move: the unit takes the clocks
        // the Rust model of its schedule says (hw::evalunit::Image::eval_clocks).
        let model = hw::evalunit::Image::of(&net)
            .expect("the net fits")
            .eval_clocks();
        assert_eq!(c.eval, s.evals * model, "{}: evaluate clocks", net.arch);
        eprintln!(
            "{}: {nodes} nodes; clocks per make {:.2}, unmake {:.2}, null {:.2}, evaluate {:.2}",
            net.arch,
            c.make as f64 / s.makes as f64,
            c.unmake as f64 / s.unmakes as f64,
            c.null as f64 / s.nulls as f64,
            c.eval as f64 / s.evals as f64
        );
    }
}

#[test]
fn searches_on_the_units_visit_the_software_tree() {
    if !simulator_present() {
        return;
    }
    let boards: Vec<chess::Board> = search::bench::POSITIONS[..4]
        .iter()
        .map(|f| chess::Board::from_fen(f).expect("bench FEN"))
        .collect();
    for (arch, seed, depth) in [
        (Arch::estuary(), 21, 5),
        (Arch::estuary(), 22, 7),
        (Arch::onechan(), 23, 5),
    ] {
        let mut net = ChipNet::random(arch, seed);
        net.hybrid = depth == 7;
        let c = cosim::evalunit::compare_searches(Arc::new(net), &boards, depth, 8, |_| {})
            .expect("verilated model");
        assert!(
            c.equal(),
            "depth {depth}: {:?} against {:?}",
            c.rtl,
            c.software
        );
        assert!(c.eval.evals > 100 && c.movegen.makes > 100, "{:?}", c.eval);
        eprintln!(
            "depth {depth}: nodes {:?}; unit clocks per node {:.1} (evaluate {:.1} per call)",
            c.rtl,
            c.eval.cycles as f64 / c.rtl_nodes() as f64,
            c.clocks.eval as f64 / c.eval.evals as f64
        );
    }
}
