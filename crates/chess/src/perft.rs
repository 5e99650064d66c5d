//! perft: the number of leaf nodes of the legal move tree, the move generator's acceptance test.

use crate::board::Board;
use crate::moves::Move;

/// Leaf count at `depth` below `board`, with bulk counting at the last ply.
///
/// On x86-64 CPUs with POPCNT, BMI1/2 and LZCNT (detected at run time) the tree walk runs in a
/// copy of the code compiled for those instructions; elsewhere in the portable copy. Both give
/// the same counts.
///
/// ```
/// let b = chess::Board::startpos();
/// assert_eq!(chess::perft(&b, 3), 8902);
/// ```
pub fn perft(board: &Board, depth: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if modern_x86() {
        // SAFETY: `modern_x86` has just confirmed that this CPU has every feature that
        // `perft_modern` is compiled for.
        return unsafe { perft_modern(board, depth) };
    }
    perft_portable(board, depth)
}

/// True when the CPU has the instructions `perft_modern` is compiled for.
#[cfg(target_arch = "x86_64")]
fn modern_x86() -> bool {
    use std::sync::atomic::{AtomicU8, Ordering};
    static STATE: AtomicU8 = AtomicU8::new(0);
    match STATE.load(Ordering::Relaxed) {
        1 => true,
        2 => false,
        _ => {
            let yes = std::is_x86_feature_detected!("popcnt")
                && std::is_x86_feature_detected!("bmi1")
                && std::is_x86_feature_detected!("bmi2")
                && std::is_x86_feature_detected!("lzcnt")
                && std::env::var("ESTUARY_PORTABLE").is_err();
            STATE.store(if yes { 1 } else { 2 }, Ordering::Relaxed);
            yes
        }
    }
}

/// The tree walk; `#[inline(always)]` so each caller below gets its own compiled copy.
macro_rules! perft_body {
    ($board:expr, $depth:expr, $recurse:ident) => {{
        let board: &Board = $board;
        match $depth {
            0 => 1,
            1 => board.count_legal_inline(),
            d => {
                let mut list = crate::moves::MoveList::new();
                board.gen_list_all(&mut list);
                let mut n = 0;
                for &m in list.iter() {
                    n += $recurse(&board.played_unhashed(m), d - 1);
                }
                n
            }
        }
    }};
}

fn perft_portable(board: &Board, depth: u32) -> u64 {
    perft_body!(board, depth, perft_portable)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
unsafe fn perft_modern(board: &Board, depth: u32) -> u64 {
    perft_body!(board, depth, perft_modern)
}

/// Leaf counts per root move (`--divide`).
pub fn perft_divide(board: &Board, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    board
        .legal_moves()
        .iter()
        .map(|&m| (m, perft(&board.played(m), depth - 1)))
        .collect()
}

/// Leaf count with the root moves shared among `threads` threads.
pub fn perft_parallel(board: &Board, depth: u32, threads: usize) -> u64 {
    perft_divide_parallel(board, depth, threads)
        .iter()
        .map(|x| x.1)
        .sum::<u64>()
        .max(u64::from(depth == 0))
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
        handles
            .into_iter()
            .map(|h| h.join().expect("perft worker panicked"))
            .collect()
    });
    for (i, n) in chunks.into_iter().flatten() {
        results[i] = n;
    }
    moves.iter().copied().zip(results).collect()
}

/// One line of a perft suite: the FEN and its expected (depth, count) pairs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftLine {
    /// The position.
    pub fen: String,
    /// Expected leaf counts per depth.
    pub counts: Vec<(u32, u64)>,
}

/// Reads a perft suite, one `FEN ; D1 n ; D2 n ...` a line (space after `;` optional). Blank
/// lines and `#` comments are skipped; a malformed line is an error naming its line number.
///
/// ```
/// let s = chess::parse_perft_suite("8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;D2 9").unwrap();
/// assert_eq!(s[0].counts, vec![(1, 3), (2, 9)]);
/// assert!(chess::parse_perft_suite("junk ; D1 3").unwrap_err().starts_with("line 1"));
/// ```
pub fn parse_perft_suite(text: &str) -> Result<Vec<PerftLine>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let lineno = i + 1;
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or("").trim().to_string();
        let mut counts = Vec::new();
        for p in parts {
            let p = p.trim();
            if p.is_empty() {
                continue;
            }
            let mut w = p.split_whitespace();
            let (d, n) = match (w.next(), w.next(), w.next()) {
                (Some(d), Some(n), None) => (d, n),
                _ => return Err(format!("line {lineno}: expected 'Dn count', found '{p}'")),
            };
            let depth = d
                .strip_prefix('D')
                .and_then(|x| x.parse::<u32>().ok())
                .ok_or_else(|| format!("line {lineno}: bad depth '{d}'"))?;
            let count = n
                .parse::<u64>()
                .map_err(|_| format!("line {lineno}: bad count '{n}'"))?;
            counts.push((depth, count));
        }
        if counts.is_empty() {
            return Err(format!("line {lineno}: no depth counts"));
        }
        Board::from_fen(&fen).map_err(|e| format!("line {lineno}: {e}"))?;
        out.push(PerftLine { fen, counts });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn portable_and_dispatched_walks_agree() {
        for (fen, d, n) in [
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                4,
                4085603,
            ),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674624),
            (
                "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
                4,
                2103487,
            ),
        ] {
            let b = Board::from_fen(fen).unwrap();
            assert_eq!(perft_portable(&b, d), n, "{fen}");
            assert_eq!(perft(&b, d), n, "{fen}");
            assert_eq!(perft_parallel(&b, d, 3), n, "{fen}");
        }
    }
}
