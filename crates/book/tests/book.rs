//! The Polyglot book: keys against the format's published values, the move encoding of
//! castling and promotion, building a book from PGN and reading it back, the weighted choice,
//! and malformed files.

use book::{build, decode_move, encode_move, polyglot_key, Book, BookError, Entry};
use chess::pgn::read_games;
use chess::rng::Rng;
use chess::{Board, Move};

/// The format's published test positions: moves from the start, the FEN after them, the key.
const PUBLISHED: &[(&str, &str, u64)] = &[
    (
        "",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        0x463b96181691fc9c,
    ),
    (
        "e2e4",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        0x823c9b50fd114196,
    ),
    (
        "e2e4 d7d5",
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
        0x0756b94461c50fb0,
    ),
    (
        "e2e4 d7d5 e4e5",
        "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
        0x662fafb965db29d4,
    ),
    (
        "e2e4 d7d5 e4e5 f7f5",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        0x22a48b5a8e47ff78,
    ),
    (
        "e2e4 d7d5 e4e5 f7f5 e1e2",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3",
        0x652a607ca3f242c1,
    ),
    (
        "e2e4 d7d5 e4e5 f7f5 e1e2 e8f7",
        "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4",
        0x00fdd303c946bdd9,
    ),
    (
        "a2a4 b7b5 h2h4 b5b4 c2c4",
        "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3",
        0x3c8123ea7b067637,
    ),
    (
        "a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3",
        "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4",
        0x5c3f9b829b279560,
    ),
];

fn after(moves: &str) -> Board {
    let mut b = Board::startpos();
    for m in moves.split_whitespace() {
        let m = b.parse_uci_move(m).unwrap();
        b.play(m);
    }
    b
}

#[test]
fn keys_are_the_published_ones() {
    for &(moves, fen, key) in PUBLISHED {
        let played = after(moves);
        let from_fen = Board::from_fen(fen).unwrap();
        // The same pieces, side to move and castling rights (the published halfmove clocks
        // and en-passant squares do not all follow FEN's rules; the key does not use them).
        let fields = |b: &Board| b.to_fen().split(' ').take(3).collect::<Vec<_>>().join(" ");
        assert_eq!(fields(&played), fields(&from_fen), "after '{moves}'");
        assert_eq!(polyglot_key(&played), key, "after '{moves}'");
        assert_eq!(polyglot_key(&from_fen), key, "from {fen}");
    }
}

#[test]
fn en_passant_counts_when_a_pawn_stands_next_to_the_pawn_that_moved() {
    let key = |fen: &str| polyglot_key(&Board::from_fen(fen).unwrap());
    // After e2e4 no black pawn can take: the same key as without the square.
    assert_eq!(
        key("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"),
        key("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
    );
    // A pawn next to it counts even when the capture is illegal (here it would expose the
    // king on a5 to the rook on h5).
    let pinned = "8/8/8/KPp4r/8/8/8/7k w - c6 0 1";
    assert!(Board::from_fen(pinned)
        .unwrap()
        .legal_moves()
        .iter()
        .all(|m| !m.is_en_passant()));
    assert_ne!(key(pinned), key("8/8/8/KPp4r/8/8/8/7k w - - 0 1"));
}

#[test]
fn castling_and_promotion_in_the_polyglot_encoding() {
    let board = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    let black = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1").unwrap();
    let cases: [(&Board, &str, u16, &str); 4] = [
        (&board, "O-O", 4 << 6 | 7, "e1g1"),
        (&board, "O-O-O", 4 << 6, "e1c1"),
        (&black, "O-O", 60 << 6 | 63, "e8g8"),
        (&black, "O-O-O", 60 << 6 | 56, "e8c8"),
    ];
    for (b, san, raw, uci) in cases {
        let m = b.parse_san(san).unwrap();
        assert_eq!(encode_move(m), raw, "{san}: the king takes its rook");
        assert_eq!(decode_move(b, raw), Some(m));
        // The king's two-square step, as some books write it, reads as the same castling.
        let two = b.parse_uci_move(uci).unwrap();
        assert_eq!(two, m);
        let to = chess::Square::parse(&uci[2..]).unwrap();
        assert_eq!(decode_move(b, (raw & !63) | to.index() as u16), Some(m));
    }

    let promo = Board::from_fen("r3k3/1P6/8/8/8/8/8/4K3 w q - 0 1").unwrap();
    for (san, code) in [
        ("b8=Q", 4),
        ("b8=R", 3),
        ("b8=B", 2),
        ("b8=N", 1),
        ("bxa8=N", 1),
    ] {
        let m = promo.parse_san(san).unwrap();
        let to = m.to().index() as u16;
        let raw = code << 12 | 49 << 6 | to;
        assert_eq!(encode_move(m), raw, "{san}");
        assert_eq!(decode_move(&promo, raw), Some(m), "{san}");
    }
    assert_eq!(
        decode_move(&promo, 5 << 12 | 49 << 6 | 57),
        None,
        "no piece 5"
    );
    assert_eq!(decode_move(&promo, 49 << 6 | 57), None, "b8 needs a piece");
    assert_eq!(decode_move(&Board::startpos(), 12 << 6 | 36), None, "e2e5");
}

#[test]
fn entries_are_16_big_endian_bytes() {
    let e = Entry {
        key: 0x0102_0304_0506_0708,
        raw_move: 0x090a,
        weight: 0x0b0c,
        learn: 0x0d0e_0f10,
    };
    let bytes = e.to_bytes();
    assert_eq!(bytes, core::array::from_fn(|i| i as u8 + 1));
    assert_eq!(Entry::from_bytes(&bytes), e);
}

/// Games with a transposition (1. d4 Nf6 2. c4 e6 and 1. c4 e6 2. d4 Nf6), a repetition, a
/// set-up position and every kind of result.
const GAMES: &str = r#"
[Result "1-0"]
1. e4 e5 2. Nf3 Nc6 3. Bb5 1-0

[Result "0-1"]
1. e4 c5 2. Nf3 d6 0-1

[Result "1/2-1/2"]
1. e4 e5 2. Nf3 Nf6 (2... Nc6 {a variation: not counted}) 1/2-1/2

1. d4 Nf6 2. c4 e6 1-0

1. c4 e6 2. d4 Nf6 *

1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 0-1

[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]
1. e4 Kd7 1-0
"#;

/// (SAN in `board`, weight) of each book move, in book order.
fn weights(book: &Book, board: &Board) -> Vec<(String, u16)> {
    book.probe(board)
        .iter()
        .map(|m| (board.move_to_san(m.mv), m.weight))
        .collect()
}

fn w(list: &[(&str, u16)]) -> Vec<(String, u16)> {
    list.iter().map(|&(s, n)| (s.to_string(), n)).collect()
}

#[test]
fn a_book_built_from_pgn_reads_back_from_its_file() {
    let (games, err) = read_games(GAMES);
    assert_eq!((games.len(), err), (7, None));
    let book = build(&games, 4, 1);
    let path = std::env::temp_dir().join(format!("estuary-book-{}.bin", std::process::id()));
    book.write(&path).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(bytes.len(), book.len() * Entry::SIZE);
    let read = Book::open(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(read, book);
    assert!(read.entries().windows(2).all(|p| p[0].key <= p[1].key));

    let start = Board::startpos();
    // e4: 2 (won) + 0 (lost) + 1 (drawn); d4 won; c4 unfinished; Nf3 lost.
    assert_eq!(
        weights(&read, &start),
        w(&[("e4", 3), ("d4", 2), ("c4", 1), ("Nf3", 0)])
    );
    // Black's replies to 1. e4, weighted for Black: c5 won, e5 lost once and drew once.
    assert_eq!(weights(&read, &after("e2e4")), w(&[("c5", 2), ("e5", 1)]));
    // The transposition: both games reach it, one won by White (Black's e6 lost) and one
    // unfinished.
    let d4_c4 = after("d2d4 g8f6 c2c4 e7e6");
    assert_eq!(
        polyglot_key(&d4_c4),
        polyglot_key(&after("c2c4 e7e6 d2d4 g8f6"))
    );
    // Ply 4 is the last counted: 2... e6 and 2... Nf6 are in, 3. moves are not.
    assert_eq!(weights(&read, &after("d2d4 g8f6 c2c4")), w(&[("e6", 0)]));
    assert!(read.probe(&d4_c4).is_empty());
    // The set-up game.
    let setup = Board::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
    assert_eq!(weights(&read, &setup), w(&[("e4", 2)]));

    // min_games 2: only moves played in two games or more.
    let two = build(&games, 4, 2);
    assert_eq!(weights(&two, &start), w(&[("e4", 3)]));
    assert_eq!(weights(&two, &after("e2e4")), w(&[("e5", 1)]));
    assert_eq!(two.positions(), 3, "start, 1. e4, 1. e4 e5");
    // A repetition counts its game once: over 8 plies the sixth game plays 1. Nf3 twice from
    // the start, yet with min_games 2 it is still not in the book.
    let eight = build(&games, 8, 2);
    assert_eq!(weights(&eight, &start), w(&[("e4", 3)]));
    assert!(eight.probe(&after("g1f3")).is_empty());
    // max_ply 1: the first move of each game only.
    let one = build(&games, 1, 1);
    assert_eq!(one.positions(), 2);
    assert_eq!(one.len(), 5);
}

#[test]
fn the_choice_follows_the_weights() {
    let key = polyglot_key(&Board::startpos());
    let start = Board::startpos();
    let e4 = encode_move(start.parse_san("e4").unwrap());
    let d4 = encode_move(start.parse_san("d4").unwrap());
    let c4 = encode_move(start.parse_san("c4").unwrap());
    let entry = |raw_move, weight| Entry {
        key,
        raw_move,
        weight,
        learn: 0,
    };
    let book = Book::from_entries(vec![entry(e4, 3), entry(d4, 1), entry(c4, 0)]);
    let mut rng = Rng::new(1);
    let mut counts = [0u32; 3];
    let moves: Vec<Move> = book.probe(&start).iter().map(|m| m.mv).collect();
    assert_eq!(moves.len(), 3);
    for _ in 0..40_000 {
        let m = book.choose(&start, &mut rng).unwrap().mv;
        counts[moves.iter().position(|&x| x == m).unwrap()] += 1;
    }
    assert_eq!(counts[2], 0, "weight 0 is never chosen");
    let share = counts[0] as f64 / 40_000.0;
    assert!((share - 0.75).abs() < 0.01, "e4 chosen {share}");
    // Out of the book, and a position whose weights are all 0.
    assert_eq!(book.choose(&after("e2e4"), &mut rng), None);
    let zero = Book::from_entries(vec![entry(c4, 0)]);
    assert_eq!(zero.choose(&start, &mut rng), None);
}

#[test]
fn malformed_files_are_errors() {
    let start = polyglot_key(&Board::startpos());
    let good = |key: u64| Entry {
        key,
        raw_move: encode_move(Board::startpos().parse_san("e4").unwrap()),
        weight: 1,
        learn: 0,
    };
    let mut bytes = Book::from_entries(vec![good(1), good(start), good(u64::MAX)]).to_bytes();
    assert_eq!(Book::from_bytes(&bytes).unwrap().len(), 3);
    assert_eq!(Book::from_bytes(&[]).unwrap().len(), 0, "an empty book");
    bytes.push(0);
    let e = Book::from_bytes(&bytes).unwrap_err();
    assert!(matches!(e, BookError::Size { bytes: 49 }), "{e}");
    assert!(e.to_string().contains("49 bytes"), "{e}");
    // Entries out of key order.
    let mut swapped = good(u64::MAX).to_bytes().to_vec();
    swapped.extend(good(1).to_bytes());
    let e = Book::from_bytes(&swapped).unwrap_err();
    assert!(matches!(e, BookError::Unsorted { index: 1 }), "{e}");
    assert!(e.to_string().contains("sorted"), "{e}");
    let e = Book::open("/nonexistent/estuary/book.bin").unwrap_err();
    assert!(matches!(e, BookError::Io { .. }));
    assert!(
        e.to_string().contains("/nonexistent/estuary/book.bin"),
        "{e}"
    );
    // Entries whose moves are not legal in the position are left out of a probe.
    let bad = Book::from_entries(vec![Entry {
        key: start,
        raw_move: 0xffff,
        weight: 9,
        learn: 0,
    }]);
    assert!(bad.probe(&Board::startpos()).is_empty());
    // Random bytes never panic: they are a book or an error.
    let mut rng = Rng::new(9);
    for len in 0..200 {
        let junk: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        if let Ok(b) = Book::from_bytes(&junk) {
            let _ = b.probe(&Board::startpos());
        }
    }
}

/// The book shipped with the program reads as a valid book, small, and answers the start
/// position with legal moves of some weight.
#[test]
fn the_shipped_book_reads_and_covers_the_start() {
    let book = Book::from_bytes(book::SHIPPED).expect("the shipped book is a valid book");
    assert_eq!(book, book::shipped());
    assert!(book.len() >= 50, "{} entries", book.len());
    assert!(
        book::SHIPPED.len() <= 32 * 1024,
        "{} bytes",
        book::SHIPPED.len()
    );
    let start = Board::startpos();
    let moves = book.probe(&start);
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|m| start.is_legal(m.mv)));
    assert!(moves.iter().any(|m| m.weight > 0));
}
