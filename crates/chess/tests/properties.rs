//! Property tests over random playouts: make/unmake restores everything, the incremental hash
//! equals the from-scratch one, FEN round-trips, every generation mode equals the matching filter
//! of all legal moves, and the parsers never panic on random input.

use chess::{Board, GenMode, Move, Position};

use chess::rng::Rng;

const STARTS: &[&str] = &[
    chess::STARTPOS,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2r1k2r/8/8/8/8/8/8/R1K3R1 w GAhc - 0 1",
];

/// Walks random games and calls `f` on every position reached.
fn playouts(seed: u64, games: usize, mut f: impl FnMut(&mut Position, &mut Rng)) {
    let mut rng = Rng::xorshift64(seed);
    for g in 0..games {
        let mut pos = Position::from_fen(STARTS[g % STARTS.len()]).unwrap();
        for _ in 0..150 {
            f(&mut pos, &mut rng);
            let list = pos.legal_moves();
            if list.is_empty() || pos.is_draw() {
                break;
            }
            pos.make(list[rng.below(list.len())]);
        }
    }
}

#[test]
fn make_unmake_restores_board_and_hash() {
    playouts(1, 400, |pos, _| {
        let before = *pos.board();
        for &m in pos.legal_moves().iter() {
            pos.make(m);
            assert_eq!(
                pos.hash(),
                pos.hash_from_scratch(),
                "hash after {m:?} from {}",
                before.to_fen()
            );
            assert!(
                !pos.is_attacked_by(
                    pos.king(!pos.side_to_move()),
                    pos.side_to_move(),
                    pos.occupied()
                ),
                "move left king in check"
            );
            pos.unmake();
            assert!(
                *pos.board() == before,
                "unmake of {m:?} did not restore {}",
                before.to_fen()
            );
        }
        if !pos.in_check() {
            pos.make_null();
            assert_eq!(pos.hash(), pos.hash_from_scratch());
            pos.unmake();
            assert!(*pos.board() == before);
        }
    });
}

#[test]
fn fen_round_trips() {
    playouts(2, 300, |pos, _| {
        let fen = pos.to_fen();
        let back = Board::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(back.to_fen(), fen);
        assert_eq!(
            back.hash(),
            pos.hash(),
            "hash after FEN round trip of {fen}"
        );
        let sfen = pos.to_shredder_fen();
        let back2 = Board::from_fen(&sfen).unwrap();
        assert_eq!(
            back2.hash(),
            pos.hash(),
            "Shredder-FEN round trip of {sfen}"
        );
        assert_eq!(back2.legal_moves().len(), pos.legal_moves().len());
    });
}

fn sorted(v: &[Move]) -> Vec<u16> {
    let mut x: Vec<u16> = v.iter().map(|m| m.raw()).collect();
    x.sort();
    x
}

#[test]
fn generation_modes_equal_filters_of_all_moves() {
    playouts(3, 500, |pos, _| {
        let all = pos.generate(GenMode::All);
        let filt = |f: &dyn Fn(Move) -> bool| -> Vec<u16> {
            sorted(&all.iter().copied().filter(|&m| f(m)).collect::<Vec<_>>())
        };
        let fen = pos.to_fen();
        assert_eq!(
            sorted(&pos.generate(GenMode::Captures)),
            filt(&|m| m.is_tactical()),
            "captures in {fen}"
        );
        assert_eq!(
            sorted(&pos.generate(GenMode::Quiet)),
            filt(&|m| !m.is_tactical()),
            "quiet in {fen}"
        );
        let in_check = pos.in_check();
        assert_eq!(
            sorted(&pos.generate(GenMode::Evasions)),
            filt(&|_| in_check),
            "evasions in {fen}"
        );
        // Checks: decided by playing the move, independent of gives_check.
        let checks = filt(&|m| !m.is_tactical() && pos.board().played(m).in_check());
        assert_eq!(
            sorted(&pos.generate(GenMode::QuietChecks)),
            checks,
            "checks in {fen}"
        );
        assert_eq!(
            pos.count_legal() as usize,
            all.len(),
            "count_legal in {fen}"
        );
        for &m in all.iter() {
            assert_eq!(
                pos.gives_check(m),
                pos.board().played(m).in_check(),
                "gives_check {m:?} in {fen}"
            );
        }
    });
}

#[test]
fn parsers_never_panic_on_random_input() {
    let mut rng = Rng::xorshift64(99);
    let alphabet = b"pnbrqkPNBRQK12345678/ -wbKQkqacdefghx+#=O0e.p;\x00\xff";
    let b = Board::startpos();
    let k = Board::from_fen(STARTS[1]).unwrap();
    for _ in 0..200_000 {
        let len = rng.below(80);
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                if rng.below(4) == 0 {
                    rng.next() as u8
                } else {
                    alphabet[rng.below(alphabet.len())]
                }
            })
            .collect();
        let s = String::from_utf8_lossy(&bytes);
        let _ = Board::from_fen(&s);
        let _ = b.parse_uci_move(&s);
        let _ = b.parse_san(&s);
        let _ = k.parse_san(&s);
        let _ = chess::parse_perft_suite(&s);
    }
    // Mutations of valid FENs: swap or replace one character.
    for _ in 0..100_000 {
        let base = STARTS[rng.below(STARTS.len())].as_bytes().to_vec();
        let mut v = base.clone();
        let i = rng.below(v.len());
        v[i] = alphabet[rng.below(alphabet.len())];
        if let Ok(s) = String::from_utf8(v) {
            if let Ok(bd) = Board::from_fen(&s) {
                // Whatever is accepted must be a position we can work with.
                let _ = bd.legal_moves();
                let _ = chess::perft(&bd, 2);
            }
        }
    }
}

#[test]
fn fen_errors_say_what_and_where() {
    let cases: &[(&str, &str)] = &[
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
            "found 3",
        ),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "8 ranks"),
        (
            "rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "'X' is not a piece letter",
        ),
        (
            "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rank 7 has 7 squares",
        ),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rank 6",
        ),
        (
            "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "Black has 0 kings",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w KQkq - 0 1",
            "White has 2 kings",
        ),
        (
            "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQkq - 0 1",
            "pawn on h8",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2r b - - 0 1",
            "side not to move is in check",
        ),
        (
            "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",
            "side not to move is in check",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1",
            "not on rank 3",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1",
            "no pawn on e4",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
            "no White rook on the king's h-side",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1",
            "kings",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "not 'w' or 'b'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - z 1",
            "halfmove clock",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkZ - 0 1",
            "'Z' is not a castling letter",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w G - 0 1",
            "no White rook on g1",
        ),
    ];
    for (fen, want) in cases {
        let e = Board::from_fen(fen).expect_err(fen).to_string();
        assert!(
            e.contains(want),
            "{fen}: error '{e}' does not mention '{want}'"
        );
    }
}

#[test]
fn special_rules() {
    // En passant that would expose the king along the rank is illegal.
    let b = Board::from_fen("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1").unwrap();
    assert!(b.parse_uci_move("e5d6").is_err());
    // ... and allowed when it removes the checking pawn.
    let b = Board::from_fen("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1").unwrap();
    assert!(b.in_check());
    assert!(b.parse_uci_move("e4d3").is_ok());
    // Castling through an attacked square is illegal; into check too.
    let b = Board::from_fen("4k3/8/8/8/8/8/5r2/4K2R w K - 0 1").unwrap();
    assert!(b.parse_uci_move("e1g1").is_err());
    let b = Board::from_fen("4k3/8/8/8/8/8/6r1/4K2R w K - 0 1").unwrap();
    assert!(b.parse_uci_move("e1g1").is_err());
    // Chess960: king or rook already on its destination square.
    for (fen, uci, after) in [
        (
            "4k3/8/8/8/8/8/8/6KR w H - 0 1",
            "g1h1",
            "4k3/8/8/8/8/8/8/5RK1 b - - 1 1",
        ),
        (
            "4k3/8/8/8/8/8/8/2KR4 w D - 0 1",
            "c1d1",
            "4k3/8/8/8/8/8/8/5RK1 b - - 1 1",
        ),
        (
            "4k3/8/8/8/8/8/8/3R1K2 w D - 0 1",
            "f1d1",
            "4k3/8/8/8/8/8/8/2KR4 b - - 1 1",
        ),
        (
            "4k3/8/8/8/8/8/8/RK6 w A - 0 1",
            "b1a1",
            "4k3/8/8/8/8/8/8/2KR4 b - - 1 1",
        ),
    ] {
        let mut b = Board::from_fen(fen).unwrap();
        b.set_chess960(true);
        let m = b
            .parse_uci_move(uci)
            .unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert!(m.is_castle(), "{fen} {uci}");
        assert_eq!(b.played(m).to_fen(), after);
        assert_eq!(b.move_to_uci(m), uci);
    }
    // Chess960: the castling rook shields the king from a rook on a1 (king c1, rook b1):
    // queenside castling would leave the king in check.
    let b = Board::from_fen("4k3/8/8/8/8/8/8/rRK5 w B - 0 1").unwrap();
    assert!(!b.legal_moves().iter().any(|m| m.is_castle()));
    // Underpromotions are all generated; the captures mode keeps only the queen push.
    let b = Board::from_fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    assert_eq!(
        b.legal_moves()
            .iter()
            .filter(|m| m.promotion().is_some())
            .count(),
        4
    );
    assert_eq!(b.generate(GenMode::Captures).len(), 1);
    // SAN disambiguation and suffixes.
    let b = Board::from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
    let m = b.parse_san("O-O-O").unwrap();
    assert_eq!(b.move_to_san(m), "O-O-O");
    let b = Board::from_fen("7k/8/8/8/8/4N3/8/N3K3 w - - 0 1").unwrap();
    assert_eq!(b.move_to_san(b.parse_uci_move("a1c2").unwrap()), "Nac2");
    let b = Board::from_fen("6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
    assert_eq!(b.move_to_san(b.parse_uci_move("a1a8").unwrap()), "Ra8#");
    // Insufficient material.
    assert!(Board::from_fen("8/8/8/4k3/8/8/8/2B1K3 w - - 0 1")
        .unwrap()
        .is_insufficient_material());
    assert!(!Board::from_fen("8/8/8/4k3/8/8/8/2BBK3 w - - 0 1")
        .unwrap()
        .is_insufficient_material());
}

#[test]
fn repetition_and_fifty_move_draws() {
    let mut pos = Position::startpos();
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    for (i, uci) in cycle.iter().enumerate() {
        let m = pos.parse_uci_move(uci).unwrap();
        pos.make(m);
        assert_eq!(pos.is_repetition(), i == 3, "after {uci}");
    }
    assert!(!pos.is_draw(), "one repetition is not yet threefold");
    for uci in cycle {
        let m = pos.parse_uci_move(uci).unwrap();
        pos.make(m);
    }
    assert_eq!(pos.repetitions(), 2);
    assert!(pos.is_draw());
    // A pawn move resets the window.
    pos.make(pos.parse_uci_move("e2e4").unwrap());
    assert!(!pos.is_repetition());
    for _ in 0..8 {
        assert!(pos.unmake());
    }
    let after_nf3 = Board::startpos().played(Board::startpos().parse_uci_move("g1f3").unwrap());
    assert!(*pos.board() == after_nf3);
    let fifty = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w - - 100 80").unwrap();
    assert!(fifty.is_draw());
    // Mate on the hundredth ply is still mate, not a draw.
    let mated = Position::from_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 80").unwrap();
    assert!(mated.in_check() && !mated.has_legal_move() && !mated.is_draw());
}
