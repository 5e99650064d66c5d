//! Hardware in the loop: the engine's search with the co-simulated generator behind the device
//! interface visits exactly the nodes of the software run, and the boundary counters add up.

mod common;

use chess::Board;
use common::simulator_present;
use cosim::movegen::{compare_searches, RtlDevice};
use device::MoveGenDevice;

const FENS: [&str; 3] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

#[test]
fn search_on_the_rtl_device_visits_the_software_tree() {
    if !simulator_present() {
        return;
    }
    let boards: Vec<Board> = FENS.iter().map(|f| Board::from_fen(f).unwrap()).collect();
    let mut reports = 0;
    let c = compare_searches(&boards, 7, 8, |_| reports += 1).expect("verilated model");
    assert_eq!(reports, FENS.len());
    assert_eq!(c.software, c.rtl);
    assert!(c.equal());
    // The RTL device's counters reached the caller through its meter.
    assert!(c.stats.loads > 0 && c.stats.makes > 0 && c.stats.cycles > 0);
    eprintln!("depth-7 searches, nodes per position: {:?}", c.rtl);
}

#[test]
fn device_counters_follow_the_traffic_model() {
    if !simulator_present() {
        return;
    }
    let mut d = RtlDevice::new(&Board::startpos()).expect("verilated model");
    let mut list = chess::MoveList::new();
    d.generate(chess::GenMode::All, &mut list);
    d.make(list[0]);
    d.unmake();
    let s = d.stats();
    assert_eq!(
        (s.loads, s.makes, s.unmakes, s.generates, s.moves_out),
        (1, 1, 1, 1, 20)
    );
    // load 18 + generate (command, 10 words of two moves, status) + make + unmake.
    assert_eq!(s.words, 18 + 12 + 1 + 1);
    assert!(s.cycles > 0);
}
