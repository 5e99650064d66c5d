//! Shogi rules for Estuary: 81-square bitboards, the 14 piece kinds, hands and drops, forced
//! and optional promotion, dead squares, nifu and uchifuzume, legal move generation with
//! dedicated check and evasion generators, SFEN and USI text, Zobrist keys including hands,
//! sennichite, perft. No dependencies.
//!
//! ```
//! use shogi::{perft, Position, MoveList};
//! let pos = Position::startpos();
//! let mut moves = MoveList::new();
//! pos.legal_moves(&mut moves);
//! assert_eq!(moves.len(), 30);
//! let m = pos.parse_usi("7g7f").unwrap();
//! let next = pos.after(m);
//! assert_eq!(next.to_sfen(), "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
//! assert_eq!(perft(&pos, 2), 900);
//! ```

pub mod attacks;
mod bitboard;
mod hand;
mod movegen;
mod moves;
mod perft;
mod position;
mod repetition;
mod sfen;
mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use hand::{Hand, MAX_IN_SET};
pub use movegen::live_squares;
pub use moves::{Move, MoveList, MAX_MOVES};
pub use perft::{perft, perft_divide};
pub use position::Position;
pub use repetition::{Game, Sennichite};
pub use sfen::{MoveError, SfenError, STARTPOS};
pub use types::{Color, Piece, PieceKind, Square, ALL_KINDS, HAND_KINDS};
