//! The bench: fixed-depth searches of built-in positions with one thread and a 16 MB table
//! (`estuary bench`). Its node count is deterministic and is the search's signature
//! (`Bench: N` in commit messages).

use crate::{Event, Job, Limits, Listener, ThreadPool, Tt};
use chess::Board;
use std::sync::Arc;
use std::time::Instant;

/// Default bench depth.
pub const DEFAULT_DEPTH: i32 = 12;

/// The bench's search of one position: fixed depth, one line, no move overhead.
pub fn depth_job(start: Board, depth: i32, listener: &Listener, tt: &Arc<Tt>) -> Job {
    job(start, Limits::depth(depth), listener, tt)
}

/// A search of `start` under `limits`: one line, no move overhead, reporting to `listener`.
pub fn job(start: Board, limits: Limits, listener: &Listener, tt: &Arc<Tt>) -> Job {
    Job {
        start,
        moves: vec![],
        limits,
        multipv: 1,
        move_overhead: 0,
        listener: listener.clone(),
        tt: tt.clone(),
    }
}

/// The bench positions: openings, middlegames, endgames, tactics and a few odd cases.
pub const POSITIONS: [&str; 40] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbqkb1r/pp1ppppp/5n2/2p5/2P5/2N5/PP1PPPPP/R1BQKBNR w KQkq - 2 3",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "rnbqkb1r/ppp2ppp/4pn2/3p4/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 0 4",
    "rnbqk2r/ppp1ppbp/3p1np1/8/2PPP3/2N5/PP3PPP/R1BQKBNR w KQkq - 0 5",
    "r1bq1rk1/ppp1ppbp/2np1np1/8/2PPP3/2N2N2/PP2BPPP/R1BQK2R w KQ - 3 7",
    "r2q1rk1/pp2bppp/2n1pn2/2pp4/3P1B2/2PBPN2/PP1N1PPP/R2QK2R w KQ - 0 9",
    "2rq1rk1/pp1bppbp/2np1np1/8/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 6 12",
    "r1b2rk1/2q1bppp/p2p1n2/np2p3/3PP3/2P2N1P/PPB2PP1/RNBQR1K1 w - - 1 13",
    "r2qr1k1/1b1nbppp/p2p1n2/1p2p3/3PP3/1BP2N1P/PP1N1PP1/R1BQR1K1 w - - 2 13",
    "2r2rk1/1bqnbppp/p2ppn2/1p6/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 4 13",
    "r1bq1rk1/pp3ppp/2n1pn2/2bp4/2P5/P1N1PN2/1P1B1PPP/R2QKB1R w KQ - 0 9",
    "3r1rk1/p4ppp/1pq1pn2/2b5/2P5/1P2BN2/P3QPPP/3R1RK1 w - - 0 18",
    "r4rk1/pp2qppp/2n1pn2/3p4/3P4/2PBPN2/P1Q2PPP/R4RK1 w - - 0 14",
    "6k1/pp3ppp/4p3/3p4/3P4/4P3/PP3PPP/6K1 w - - 0 30",
    "8/5pk1/6p1/7p/7P/6P1/5PK1/8 w - - 0 40",
    "8/8/4k3/8/2p5/2P5/4K3/8 w - - 0 50",
    "8/8/1p3k2/p1p5/P1P3K1/1P6/8/8 w - - 0 45",
    "4r1k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 35",
    "8/8/3k4/8/8/3K4/3R4/8 w - - 0 60",
    "8/8/8/4k3/8/8/3QK3/8 w - - 0 60",
    "8/3kp3/8/8/8/8/3K4/3R4 w - - 0 55",
    "2k5/8/1K6/8/8/8/8/7R w - - 0 70",
    "6k1/5p2/6p1/8/7P/6P1/5PK1/1r6 b - - 0 40",
    "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - 0 7",
    "r2qk2r/ppp1bppp/2n5/3p4/3Pn1b1/2PB1N2/PP3PPP/RNBQR1K1 b kq - 0 8",
    "rnb2rk1/ppp1qppp/3p1n2/4p3/1bPPP3/2N2N2/PP2BPPP/R1BQK2R b KQ - 0 6",
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1",
    "2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1",
    "rnbqkb1r/p3pppp/1p6/2ppP3/3N4/2P5/PPP1QPPP/R1B1KB1R w KQkq - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "2r3k1/pppR1pp1/4p3/4P1P1/5P2/1P4K1/P1P5/8 w - - 0 1",
    "1nk1r1r1/pp2n1pp/4p3/q2pPp1N/b1pP1P2/B1P2R2/2P1B1PP/R2Q2K1 w - - 0 1",
];

/// Result of a bench run.
pub struct BenchResult {
    /// Total nodes.
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub ms: u64,
}

/// Searches every bench position to `depth` on a fresh single-thread pool, with the default
/// evaluation or (`net`: `Some`) the given one (`Some(None)`: hand-crafted).
pub fn bench(
    depth: i32,
    hash_mb: usize,
    threads: usize,
    net: Option<Option<eval::Net>>,
    mut progress: impl FnMut(usize, &str, u64),
) -> BenchResult {
    let pool = ThreadPool::new(threads, hash_mb, device::SoftwareDevice::default);
    if let Some(net) = net {
        pool.set_network(net);
    }
    pool.clear();
    let listener: Listener = Arc::new(|_: &Board, _: Event| {});
    let mut nodes = 0;
    let t0 = Instant::now();
    for (i, fen) in POSITIONS.iter().enumerate() {
        // The table is invariant-checked by a test: every bench FEN parses.
        let start = Board::from_fen(fen).expect("bench FEN");
        pool.search_sync(depth_job(start, depth, &listener, pool.tt()));
        let n = pool.last_nodes();
        nodes += n;
        progress(i, fen, n);
    }
    BenchResult {
        nodes,
        ms: t0.elapsed().as_millis() as u64,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_bench_position_is_a_legal_position() {
        for fen in super::POSITIONS {
            let b = chess::Board::from_fen(fen).expect("bench FEN");
            assert!(!b.legal_moves().is_empty(), "{fen}: no legal move");
        }
    }
}
