//! One book entry as stored: 16 bytes, big-endian: the position's key (8 bytes), the move
//! (2), its weight (2) and a learn value (4) that this crate keeps but does not use.
//!
//! The move word: bits 0-5 the destination square, 6-11 the origin square (square index
//! 8 * rank + file, a1 = 0), 12-14 the promotion piece (0 none, 1 knight, 2 bishop, 3 rook,
//! 4 queen). Castling is written as the king taking its own rook: e1h1, e1a1, e8h8, e8a8.

use chess::{Board, Move, PieceKind, Square};

/// A book entry: a move of the position with key `key`, and how often to play it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    /// The position's Polyglot key.
    pub key: u64,
    /// The move in the Polyglot encoding (see [`encode_move`]).
    pub raw_move: u16,
    /// Its weight: moves are chosen with probability proportional to it; 0 never.
    pub weight: u16,
    /// The learn field, kept as read.
    pub learn: u32,
}

impl Entry {
    /// Bytes an entry takes in a book file.
    pub const SIZE: usize = 16;

    /// The entry as stored in a file.
    pub fn to_bytes(&self) -> [u8; Entry::SIZE] {
        let mut b = [0; Entry::SIZE];
        b[0..8].copy_from_slice(&self.key.to_be_bytes());
        b[8..10].copy_from_slice(&self.raw_move.to_be_bytes());
        b[10..12].copy_from_slice(&self.weight.to_be_bytes());
        b[12..16].copy_from_slice(&self.learn.to_be_bytes());
        b
    }

    /// An entry read from a file.
    pub fn from_bytes(b: &[u8; Entry::SIZE]) -> Entry {
        let mut key = [0; 8];
        key.copy_from_slice(&b[0..8]);
        let mut learn = [0; 4];
        learn.copy_from_slice(&b[12..16]);
        Entry {
            key: u64::from_be_bytes(key),
            raw_move: u16::from_be_bytes([b[8], b[9]]),
            weight: u16::from_be_bytes([b[10], b[11]]),
            learn: u32::from_be_bytes(learn),
        }
    }
}

/// The Polyglot word of a move (castling as king takes rook, which is how [`Move`] stores it).
///
/// ```
/// let board = chess::Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
/// let castle = board.parse_san("O-O").unwrap();
/// assert_eq!(book::encode_move(castle), 0x0107); // e1 (4) << 6 | h1 (7)
/// ```
pub fn encode_move(m: Move) -> u16 {
    let promotion = m.promotion().map_or(0, |k| k.index() as u16); // knight 1 .. queen 4
    m.to().index() as u16 | (m.from().index() as u16) << 6 | promotion << 12
}

/// The legal move of `board` that the Polyglot word `raw` stands for, if there is one. Castling
/// is read as king takes rook, and also, from books that write it so, as the king's two-square
/// step (e1g1).
pub fn decode_move(board: &Board, raw: u16) -> Option<Move> {
    let to = Square::new((raw & 63) as u8);
    let from = Square::new((raw >> 6 & 63) as u8);
    let promotion = match raw >> 12 & 7 {
        0 => None,
        k @ 1..=4 => Some(PieceKind::from_index(k as usize)),
        _ => return None,
    };
    let legal = board.legal_moves();
    let exact = legal
        .iter()
        .copied()
        .find(|m| m.from() == from && m.to() == to && m.promotion() == promotion);
    exact.or_else(|| {
        // The king's two-square step: the castling move toward that side.
        let two_files = from.rank() == to.rank() && from.file().abs_diff(to.file()) == 2;
        let king = board.kind_on(from) == Some(PieceKind::King);
        (two_files && king && promotion.is_none())
            .then(|| {
                legal
                    .iter()
                    .copied()
                    .find(|m| m.is_castle() && m.from() == from && (m.to() > from) == (to > from))
            })
            .flatten()
    })
}
