//! The `OwnBook` and `BookFile` options: a Polyglot opening book that `go` plays from at once,
//! a weighted random choice among the position's book moves, before any search.

use book::{Book, BookMove};
use chess::rng::Rng;
use chess::Board;
use search::Limits;

/// `BookFile` value meaning no book (its default, as `uci` shows it).
pub const NO_BOOK: &str = "<empty>";

/// The book options' state.
pub(crate) struct OwnBook {
    /// `OwnBook`: play from the book.
    pub on: bool,
    /// `BookFile`: the file of `book`, or [`NO_BOOK`].
    pub file: String,
    book: Option<Book>,
    rng: Rng,
}

impl OwnBook {
    /// Off, with no book; the choice seeded from the clock so that games differ.
    pub fn new() -> OwnBook {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
            ^ u64::from(std::process::id());
        OwnBook {
            on: false,
            file: NO_BOOK.into(),
            book: None,
            rng: Rng::new(seed),
        }
    }

    /// Reads the book at `path` (empty or [`NO_BOOK`]: no book). Returns its size for a
    /// message; on an error there is no book and the error says why.
    pub fn set_file(&mut self, path: &str) -> Result<Option<(usize, usize)>, String> {
        self.book = None;
        self.file = NO_BOOK.into();
        if path.is_empty() || path == NO_BOOK {
            return Ok(None);
        }
        let book = Book::open(path).map_err(|e| match e {
            book::BookError::Io { .. } => e.to_string(),
            _ => format!("{path}: {e}"),
        })?;
        let size = (book.len(), book.positions());
        self.book = Some(book);
        self.file = path.into();
        Ok(Some(size))
    }

    /// The book move to play at once for `go` with `limits` from `board`, with the total
    /// weight of the position's moves: only when `OwnBook` is on, a book is loaded, the
    /// position is in it, and the search is not analysis (`infinite`, `ponder`, `mate`,
    /// `searchmoves`).
    pub fn choose(&mut self, board: &Board, limits: &Limits) -> Option<(BookMove, u64)> {
        let analysis = limits.infinite
            || limits.ponder
            || limits.mate.is_some()
            || !limits.searchmoves.is_empty();
        if !self.on || analysis {
            return None;
        }
        let book = self.book.as_ref()?;
        let m = book.choose(board, &mut self.rng)?;
        let total = book.probe(board).iter().map(|m| u64::from(m.weight)).sum();
        Some((m, total))
    }
}

#[cfg(test)]
mod tests {
    use crate::Uci;
    use std::sync::{Arc, Mutex};

    /// An engine whose output lines are collected.
    fn engine() -> (Uci<device::SoftwareDevice>, Arc<Mutex<Vec<String>>>) {
        let lines = Arc::new(Mutex::new(Vec::new()));
        let sink = lines.clone();
        let uci = Uci::new(Arc::new(move |l: &str| {
            if let Ok(mut v) = sink.lock() {
                v.push(l.to_string());
            }
        }));
        (uci, lines)
    }

    /// Sends `commands`, waits for the search, and returns (and forgets) what was said.
    fn session(
        uci: &mut Uci<device::SoftwareDevice>,
        lines: &Mutex<Vec<String>>,
        commands: &[&str],
    ) -> Vec<String> {
        for c in commands {
            uci.handle(c);
        }
        uci.wait();
        std::mem::take(&mut *lines.lock().unwrap())
    }

    /// The move of the `bestmove` line.
    fn bestmove(said: &[String]) -> &str {
        said.iter()
            .find_map(|l| l.strip_prefix("bestmove "))
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| panic!("no bestmove in {said:?}"))
    }

    /// Sets `BookFile` to `path` and searches the start position to depth 2.
    fn set_book_and_search(
        uci: &mut Uci<device::SoftwareDevice>,
        lines: &Mutex<Vec<String>>,
        path: &str,
    ) -> Vec<String> {
        session(
            uci,
            lines,
            &[
                &format!("setoption name BookFile value {path}"),
                "position startpos",
                "go depth 2",
            ],
        )
    }

    /// True when a search reported an iteration.
    fn searched(said: &[String]) -> bool {
        said.iter().any(|l| l.starts_with("info depth"))
    }

    #[test]
    fn own_book_plays_book_moves_at_once_and_searches_outside_the_book() {
        let (games, _) = chess::pgn::read_games(
            "1. e4 e5 2. Nf3 1/2-1/2\n\n1. d4 d5 1/2-1/2\n\n1. e4 e5 1/2-1/2\n",
        );
        let path =
            std::env::temp_dir().join(format!("estuary-uci-book-{}.bin", std::process::id()));
        book::build(&games, 4, 1).write(&path).unwrap();
        let path = path.to_str().unwrap().to_string();
        let (mut uci, lines) = engine();

        let said = session(&mut uci, &lines, &["uci"]);
        assert!(said.contains(&"option name OwnBook type check default false".to_string()));
        assert!(said.contains(&"option name BookFile type string default <empty>".to_string()));

        // Off by default: the engine searches.
        let said = set_book_and_search(&mut uci, &lines, &path);
        assert!(said[0].contains("4 positions"), "{said:?}");
        assert!(searched(&said), "{said:?}");

        // On: 1. e4 (weight 2) or 1. d4 (weight 1) at once, with an info string, no search.
        let mut seen = Vec::new();
        for _ in 0..40 {
            let said = session(
                &mut uci,
                &lines,
                &[
                    "setoption name OwnBook value true",
                    "position startpos",
                    "go wtime 10000 btime 10000",
                ],
            );
            assert!(!searched(&said), "{said:?}");
            assert!(
                said.iter().any(|l| l.starts_with("info string book move")),
                "{said:?}"
            );
            seen.push(bestmove(&said).to_string());
        }
        assert!(seen.iter().all(|m| m == "e2e4" || m == "d2d4"), "{seen:?}");
        assert!(
            seen.iter().any(|m| m == "e2e4") && seen.iter().any(|m| m == "d2d4"),
            "{seen:?}"
        );
        let said = session(
            &mut uci,
            &lines,
            &["position startpos moves e2e4", "go movetime 50"],
        );
        assert_eq!(bestmove(&said), "e7e5");

        // Out of the book, or analysis: a search.
        let said = session(
            &mut uci,
            &lines,
            &["position startpos moves e2e4 e7e5 g1f3", "go depth 2"],
        );
        assert!(searched(&said), "{said:?}");
        let said = session(
            &mut uci,
            &lines,
            &["position startpos", "go depth 2 searchmoves g1f3"],
        );
        assert!(searched(&said) && bestmove(&said) == "g1f3", "{said:?}");

        // A book that cannot be read: an error, then no book.
        std::fs::write(&path, [0u8; 17]).unwrap();
        let said = set_book_and_search(&mut uci, &lines, &path);
        assert!(
            said[0].starts_with("info string error: BookFile") && said[0].contains("17 bytes"),
            "{said:?}"
        );
        assert!(searched(&said), "{said:?}");
        let said = session(
            &mut uci,
            &lines,
            &[
                "setoption name BookFile value /nonexistent/book.bin",
                "go depth 1",
            ],
        );
        assert!(
            said[0].starts_with("info string error: BookFile"),
            "{said:?}"
        );
        assert!(searched(&said), "{said:?}");
        std::fs::remove_file(&path).unwrap();
    }
}
