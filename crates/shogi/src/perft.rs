//! Perft: counting the leaves of the legal move tree.

use crate::moves::MoveList;
use crate::position::Position;

/// Number of leaf nodes `depth` plies below `pos`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    list.iter().map(|&m| perft(&pos.after(m), depth - 1)).sum()
}

/// Perft split by first move, in generation order.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(crate::Move, u64)> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list.iter()
        .map(|&m| (m, perft(&pos.after(m), depth.saturating_sub(1))))
        .collect()
}
