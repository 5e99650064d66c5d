//! A Polyglot book in memory: read from and written to `.bin` files, probed by position, and
//! a weighted random choice among a position's moves.

use crate::entry::{decode_move, Entry};
use crate::key::polyglot_key;
use chess::rng::Rng;
use chess::{Board, Move};
use std::fmt;
use std::path::Path;

/// Why a book could not be read or written.
#[derive(Debug)]
pub enum BookError {
    /// The file could not be read or written.
    Io {
        /// The file.
        path: String,
        /// What the system said.
        error: std::io::Error,
    },
    /// The size is not a whole number of 16-byte entries.
    Size {
        /// The size in bytes.
        bytes: usize,
    },
    /// An entry's key is smaller than the one before it (a book is sorted by key).
    Unsorted {
        /// The entry's place in the file, from 0.
        index: usize,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io { path, error } => write!(f, "{path}: {error}"),
            BookError::Size { bytes } => write!(
                f,
                "not a Polyglot book: {bytes} bytes is not a whole number of {}-byte entries",
                Entry::SIZE
            ),
            BookError::Unsorted { index } => write!(
                f,
                "not a Polyglot book: entry {index} (at byte {}) has a smaller key than the one \
                 before it, and a book is sorted by key",
                index * Entry::SIZE
            ),
        }
    }
}

impl std::error::Error for BookError {}

/// A move of a book position with its weight.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move, legal in the probed position.
    pub mv: Move,
    /// Its weight (probability proportional to it; 0: never chosen).
    pub weight: u16,
    /// The entry's learn field.
    pub learn: u32,
}

/// A Polyglot opening book: entries sorted by key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    entries: Vec<Entry>,
}

impl Book {
    /// A book of `entries`, sorted by key, then weight (highest first), then move.
    pub fn from_entries(mut entries: Vec<Entry>) -> Book {
        entries.sort_by_key(|e| (e.key, u16::MAX - e.weight, e.raw_move));
        Book { entries }
    }

    /// Reads the bytes of a `.bin` file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if !bytes.len().is_multiple_of(Entry::SIZE) {
            return Err(BookError::Size { bytes: bytes.len() });
        }
        let mut entries = Vec::with_capacity(bytes.len() / Entry::SIZE);
        for (index, chunk) in bytes.chunks_exact(Entry::SIZE).enumerate() {
            let mut b = [0; Entry::SIZE];
            b.copy_from_slice(chunk);
            let e = Entry::from_bytes(&b);
            if entries.last().is_some_and(|last: &Entry| last.key > e.key) {
                return Err(BookError::Unsorted { index });
            }
            entries.push(e);
        }
        Ok(Book { entries })
    }

    /// Reads a `.bin` file.
    pub fn open(path: impl AsRef<Path>) -> Result<Book, BookError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|error| BookError::Io {
            path: path.display().to_string(),
            error,
        })?;
        Book::from_bytes(&bytes)
    }

    /// The book as the bytes of a `.bin` file.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.entries.iter().flat_map(|e| e.to_bytes()).collect()
    }

    /// Writes the book to a `.bin` file.
    pub fn write(&self, path: impl AsRef<Path>) -> Result<(), BookError> {
        let path = path.as_ref();
        std::fs::write(path, self.to_bytes()).map_err(|error| BookError::Io {
            path: path.display().to_string(),
            error,
        })
    }

    /// Every entry, in file order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when the book has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Number of distinct positions (keys).
    pub fn positions(&self) -> usize {
        let mut n = 0;
        let mut last = None;
        for e in &self.entries {
            if last != Some(e.key) {
                n += 1;
                last = Some(e.key);
            }
        }
        n
    }

    /// The entries with key `key`, in file order.
    pub fn entries_for(&self, key: u64) -> &[Entry] {
        let start = self.entries.partition_point(|e| e.key < key);
        let len = self.entries[start..].partition_point(|e| e.key == key);
        &self.entries[start..start + len]
    }

    /// The book's moves for `board`, in file order (by weight in books written here). Entries
    /// whose move is not legal here (another position with the same key, or a damaged entry)
    /// are left out.
    pub fn probe(&self, board: &Board) -> Vec<BookMove> {
        self.entries_for(polyglot_key(board))
            .iter()
            .filter_map(|e| {
                decode_move(board, e.raw_move).map(|mv| BookMove {
                    mv,
                    weight: e.weight,
                    learn: e.learn,
                })
            })
            .collect()
    }

    /// A move for `board` chosen at random with probability proportional to its weight, or
    /// `None` when the position is not in the book or all its weights are 0.
    pub fn choose(&self, board: &Board, rng: &mut Rng) -> Option<BookMove> {
        let moves = self.probe(board);
        let total: u64 = moves.iter().map(|m| u64::from(m.weight)).sum();
        if total == 0 {
            return None;
        }
        let mut r = rng.next() % total;
        for m in moves {
            let w = u64::from(m.weight);
            if r < w {
                return Some(m);
            }
            r -= w;
        }
        None
    }
}
