//! The Polyglot key of a position: the XOR of the published Random64 numbers for each piece on
//! its square, each castling right, the en-passant file (only when a pawn of the side to move
//! stands next to the pawn that just made a double step, whether or not the capture would be
//! legal) and White to move.

use crate::random64::RANDOM64;
use chess::attacks::pawn_attacks;
use chess::{Board, Color, PieceKind};

/// First castling key (white short; then white long, black short, black long).
const CASTLE: usize = 768;
/// First en-passant key (file a; then b to h).
const EN_PASSANT: usize = 772;
/// The key of White to move.
const WHITE_TO_MOVE: usize = 780;

/// The Polyglot key of `board`.
///
/// ```
/// let board = chess::Board::startpos();
/// assert_eq!(book::polyglot_key(&board), 0x463b_9618_1691_fc9c);
/// ```
pub fn polyglot_key(board: &Board) -> u64 {
    let mut key = 0;
    for s in board.occupied() {
        if let Some(p) = board.piece_on(s) {
            // Kinds of piece in the format's order: black pawn, white pawn, black knight, ...
            let kind = 2 * p.kind.index() + usize::from(p.color == Color::White);
            key ^= RANDOM64[64 * kind + s.index()];
        }
    }
    // `castle_bits` has the format's order: white short, white long, black short, black long.
    let rights = board.castle_bits();
    for i in 0..4 {
        if rights >> i & 1 != 0 {
            key ^= RANDOM64[CASTLE + i];
        }
    }
    let us = board.side_to_move();
    if let Some(ep) = board.ep_square() {
        // A pawn of ours attacks the square behind the pawn that moved: it stands next to it.
        if (pawn_attacks(us.flip(), ep) & board.pieces(us, PieceKind::Pawn)).any() {
            key ^= RANDOM64[EN_PASSANT + ep.file() as usize];
        }
    }
    if us == Color::White {
        key ^= RANDOM64[WHITE_TO_MOVE];
    }
    key
}
