//! Chess rules for Estuary: bitboards, the attack unit, exact legal move generation in the
//! hardware generators' modes, make/unmake, FEN/SAN/UCI text, PGN and perft. No dependencies.
//!
//! ```
//! use chess::{GenMode, Position};
//! let mut pos = Position::startpos();
//! let moves = pos.generate(GenMode::All);
//! assert_eq!(moves.len(), 20);
//! let m = pos.parse_san("Nf3").unwrap();
//! pos.make(m);
//! assert_eq!(pos.to_fen(), "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
//! assert_eq!(chess::perft(pos.board(), 2), 440);
//! ```

pub mod attacks;
mod bitboard;
mod board;
pub mod fen;
mod movegen;
mod moves;
mod notation;
mod perft;
pub mod pgn;
mod position;
pub mod rng;
mod types;
mod zobrist;

pub use bitboard::Bitboard;
pub use board::{Board, CastleSide};
pub use fen::{FenError, STARTPOS};
pub use movegen::GenMode;
pub use moves::{Move, MoveFlag, MoveList, MAX_MOVES};
pub use notation::MoveError;
pub use perft::{
    parse_perft_suite, perft, perft_divide, perft_divide_parallel, perft_parallel, PerftLine,
};
pub use position::Position;
pub use types::{sq, Color, Piece, PieceKind, Square};
pub use zobrist::table as zobrist_keys;
