//! Hardware in the loop: the engine's search with the co-simulated generator behind the device
//! interface visits exactly the nodes of the software run, and the boundary counters add up.

use chess::Board;
use device::MoveGenDevice;
use search::{Event, Job, Limits, Listener, ThreadPool};
use std::sync::Arc;

const FENS: [&str; 3] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

fn nodes<D: MoveGenDevice + 'static>(factory: impl Fn() -> D + Send + Sync + 'static) -> Vec<u64> {
    let pool = ThreadPool::new(1, 8, factory);
    let listener: Listener = Arc::new(|_: &Board, _: Event| {});
    FENS.iter()
        .map(|fen| {
            pool.clear();
            let start = Board::from_fen(fen).unwrap();
            let job = Job {
                start,
                moves: vec![],
                limits: Limits::depth(7),
                multipv: 1,
                move_overhead: 0,
                listener: listener.clone(),
                tt: pool.tt().clone(),
            };
            pool.search_sync(job);
            pool.last_nodes()
        })
        .collect()
}

/// False (skipped) without Verilator, a failure instead under CI=true or ESTUARY_REQUIRE_RTL=1.
fn simulator_present() -> bool {
    if rtl::available() {
        return true;
    }
    let required = std::env::var("CI").is_ok_and(|v| v == "true")
        || std::env::var("ESTUARY_REQUIRE_RTL").is_ok_and(|v| v == "1");
    assert!(
        !required,
        "verilator not installed, but CI=true or ESTUARY_REQUIRE_RTL=1"
    );
    eprintln!("skipped: verilator not installed");
    false
}

#[test]
fn search_on_the_rtl_device_visits_the_software_tree() {
    if !rtl::available() {
        let required = std::env::var("CI").is_ok_and(|v| v == "true")
            || std::env::var("ESTUARY_REQUIRE_RTL").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "verilator not installed, but CI=true or ESTUARY_REQUIRE_RTL=1"
        );
        eprintln!("skipped: verilator not installed");
        return;
    }
    let sw = nodes(device::SoftwareDevice::default);
    let hw = nodes(|| rtl::RtlDevice::new(&Board::startpos()).expect("verilated model"));
    assert_eq!(sw, hw);
    eprintln!("depth-7 searches, nodes per position: {hw:?}");
}

#[test]
fn device_counters_follow_the_traffic_model() {
    if !simulator_present() {
        return;
    }
    let mut d = rtl::RtlDevice::new(&Board::startpos()).expect("verilated model");
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
