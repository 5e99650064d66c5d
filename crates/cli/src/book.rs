//! `estuary book`: Polyglot opening books (docs/book.md).
//!
//! * `book probe [FEN] [--book FILE]` prints the book's moves for FEN (the start position when
//!   none is given) with their weights and shares; FILE is `book.bin` unless told. Exit 1 when
//!   the position is not in the book.
//! * `book build GAMES.pgn... --out FILE [--max-ply N] [--min-games K]` builds a book from the
//!   games' first N plies (20 unless told), keeping the moves played in K games or more (1
//!   unless told), and prints how many games, positions and entries it has. A PGN error is
//!   reported with its line; the games before it are still used, the book is written, and the
//!   exit status is 1.

use crate::args::Args;
use crate::outln;
use book::{Book, BookBuilder, BookError};
use chess::pgn::PgnReader;
use chess::Board;
use std::process::ExitCode;

/// The book `probe` reads unless `--book` names another.
const DEFAULT_BOOK: &str = "book.bin";
/// Plies of each game that `build` counts unless `--max-ply` says otherwise.
const DEFAULT_MAX_PLY: usize = 20;

const USAGE: &str = "usage: estuary book probe [FEN] [--book FILE] | estuary book build GAMES.pgn... --out FILE [--max-ply N] [--min-games K]";

/// Dispatches `book probe` and `book build`.
pub fn run(raw: &[String]) -> Result<ExitCode, String> {
    match raw.split_first() {
        Some((c, rest)) if c == "probe" => probe(rest),
        Some((c, rest)) if c == "build" => build(rest),
        _ => Err(USAGE.into()),
    }
}

/// Reads the book at `path`; the error names the file.
fn open(path: &str) -> Result<Book, String> {
    Book::open(path).map_err(|e| match e {
        BookError::Io { .. } => format!("cannot read the book {e}"),
        _ => format!("{path}: {e}"),
    })
}

fn probe(raw: &[String]) -> Result<ExitCode, String> {
    let mut args = Args::parse(raw, &[]).map_err(|e| e.to_string())?;
    let path = args.value("book").unwrap_or_else(|| DEFAULT_BOOK.into());
    args.finish().map_err(|e| e.to_string())?;
    let fen = match args.positional() {
        [] => chess::STARTPOS.to_string(),
        words => words.join(" "),
    };
    let board = Board::from_fen(&fen).map_err(|e| format!("bad FEN '{fen}': {e}"))?;
    let book = open(&path)?;
    let key = book::polyglot_key(&board);
    let moves = book.probe(&board);
    if moves.is_empty() {
        outln!("not in the book {path} (Polyglot key {key:016x})");
        return Ok(ExitCode::from(1));
    }
    let total: u64 = moves.iter().map(|m| u64::from(m.weight)).sum();
    outln!(
        "{} book moves in {path} (Polyglot key {key:016x}, total weight {total})",
        moves.len()
    );
    for m in &moves {
        let share = if total == 0 {
            0.0
        } else {
            100.0 * f64::from(m.weight) / total as f64
        };
        outln!(
            "  {:<8} {:<6} weight {:>5}  {share:5.1}%",
            board.move_to_san(m.mv),
            board.move_to_uci(m.mv),
            m.weight
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn build(raw: &[String]) -> Result<ExitCode, String> {
    let mut args = Args::parse(raw, &[]).map_err(|e| e.to_string())?;
    let out = args.value("out").ok_or("book build needs --out FILE")?;
    let max_ply: usize = args
        .parsed("max-ply")
        .map_err(|e| e.to_string())?
        .unwrap_or(DEFAULT_MAX_PLY);
    let min_games: u32 = args
        .parsed("min-games")
        .map_err(|e| e.to_string())?
        .unwrap_or(1);
    args.finish().map_err(|e| e.to_string())?;
    if args.positional().is_empty() {
        return Err(format!("book build needs a PGN file\n{USAGE}"));
    }
    let mut builder = BookBuilder::new(max_ply, min_games);
    let mut broken = 0;
    for file in args.positional() {
        let bytes = std::fs::read(file).map_err(|e| format!("{file}: {e}"))?;
        // A file in another encoding (Latin-1 names) still reads: its moves are ASCII.
        let text = String::from_utf8_lossy(&bytes);
        let before = builder.games();
        for game in PgnReader::new(&text) {
            match game {
                Ok(g) => builder.add_game(&g),
                Err(e) => {
                    broken += 1;
                    eprintln!(
                        "error: {file}: {e}; the {} games before it are used, the rest of the file is not",
                        builder.games() - before
                    );
                }
            }
        }
    }
    let games = builder.games();
    let book = builder.finish();
    book.write(&out)
        .map_err(|e| format!("cannot write the book {e}"))?;
    let k = min_games.max(1);
    outln!(
        "{games} games, {} positions, {} entries written to {out} (the first {max_ply} plies; moves played in at least {k} game{})",
        book.positions(),
        book.len(),
        if k == 1 { "" } else { "s" }
    );
    Ok(if broken > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
