//! perft: the number of leaf nodes of the legal move tree, the move generator's acceptance test.

use crate::board::Board;
use crate::moves::Move;

/// Leaf count at `depth` below `board`, with bulk counting at the last ply.
///
/// ```
/// let b = chess::Board::startpos();
/// assert_eq!(chess::perft(&b, 3), 8902);
/// ```
pub fn perft(board: &Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => board.count_legal(),
        _ => {
            let moves = board.legal_moves();
            let mut n = 0;
            for &m in moves.iter() {
                n += perft(&board.played(m), depth - 1);
            }
            n
        }
    }
}

/// Leaf counts per root move (`--divide`).
pub fn perft_divide(board: &Board, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    board.legal_moves().iter().map(|&m| (m, perft(&board.played(m), depth - 1))).collect()
}

/// Leaf count with the root moves shared among `threads` threads.
pub fn perft_parallel(board: &Board, depth: u32, threads: usize) -> u64 {
    perft_divide_parallel(board, depth, threads).iter().map(|x| x.1).sum::<u64>().max(u64::from(depth == 0))
}

/// `perft_divide` with the root moves shared among `threads` threads (result in move order).
pub fn perft_divide_parallel(board: &Board, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = board.legal_moves();
    let threads = threads.clamp(1, moves.len().max(1));
    if threads == 1 {
        return perft_divide(board, depth);
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut results = vec![0u64; moves.len()];
    let chunks: Vec<Vec<(usize, u64)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if i >= moves.len() {
                            break;
                        }
                        out.push((i, perft(&board.played(moves[i]), depth - 1)));
                    }
                    out
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("perft worker panicked")).collect()
    });
    for (i, n) in chunks.into_iter().flatten() {
        results[i] = n;
    }
    moves.iter().copied().zip(results).collect()
}
