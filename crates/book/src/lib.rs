//! Polyglot opening books: the format's keys of positions, reading `.bin` books and probing
//! them (moves with weights, a weighted random choice), and building books from PGN games.
//!
//! A Polyglot book is a file of 16-byte big-endian entries (key, move, weight, learn) sorted
//! by key; the key of a position is computed from the format's published Random64 numbers, so
//! books made by any program work with any other. See docs/book.md.
//!
//! ```
//! use chess::pgn::read_games;
//! let (games, _) = read_games("1. e4 e5 1-0\n\n1. e4 c5 0-1\n\n1. d4 d5 1/2-1/2");
//! let book = book::build(&games, 10, 1);
//! let moves = book.probe(&chess::Board::startpos());
//! // 1. e4: a win and a loss for White (2 + 0 points), 1. d4: a draw (1 point).
//! let weights: Vec<(String, u16)> =
//!     moves.iter().map(|m| (chess::Board::startpos().move_to_san(m.mv), m.weight)).collect();
//! assert_eq!(weights, [("e4".to_string(), 2), ("d4".to_string(), 1)]);
//! let bytes = book.to_bytes();
//! assert_eq!(book::Book::from_bytes(&bytes).unwrap(), book);
//! ```

mod book;
mod builder;
mod entry;
mod key;
mod random64;

pub use book::{Book, BookError, BookMove};
pub use builder::{build, BookBuilder};
pub use entry::{decode_move, encode_move, Entry};
pub use key::polyglot_key;

/// The small book shipped with the program, built from the engine's own games by
/// `tools/book/build-shipped.sh` (docs/book.md), embedded at compile time.
pub const SHIPPED: &[u8] = include_bytes!("../books/estuary.bin");

/// The shipped book ([`SHIPPED`]), read.
pub fn shipped() -> Book {
    // A damaged file is caught by this crate's tests; the program would play without a book.
    Book::from_bytes(SHIPPED).unwrap_or_else(|_| Book::from_entries(Vec::new()))
}
