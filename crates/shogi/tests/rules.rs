//! Rule edge cases: uchifuzume, nifu, dead squares, promotion zone entry and exit, drop
//! checks, double check, SFEN errors, USI text, sennichite.

use shogi::{Game, Move, MoveList, PieceKind, Position, Sennichite, Square};

fn pos(s: &str) -> Position {
    Position::from_sfen(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn legal(p: &Position) -> Vec<String> {
    let mut l = MoveList::new();
    p.legal_moves(&mut l);
    l.iter().map(|m| m.usi()).collect()
}

#[test]
fn uchifuzume_is_illegal_but_other_pawn_drop_checks_are_legal() {
    // Silver on 2c guards 1b, gold on 3b covers 2a and 2b: P*1b would mate.
    let p = pos("8k/6G2/7S1/9/9/9/9/9/K8 b P 1");
    assert!(!legal(&p).contains(&"P*1b".to_string()));
    assert!(p.pawn_drop_mates(Square::parse("1b").unwrap()));
    // Without the gold the king escapes to 2a: the drop check is legal.
    let p = pos("8k/9/7S1/9/9/9/9/9/K8 b P 1");
    assert!(legal(&p).contains(&"P*1b".to_string()));
    let mut checks = MoveList::new();
    p.check_moves(&mut checks);
    assert!(checks.iter().any(|m| m.usi() == "P*1b"));
    // A pawn *move* that mates is legal.
    let p = pos("8k/6G2/7SP/9/9/9/9/9/K8 b - 1");
    assert!(legal(&p).contains(&"1c1b".to_string()) || legal(&p).contains(&"1c1b+".to_string()));
}

#[test]
fn nifu_forbids_a_second_unpromoted_pawn_on_a_file() {
    let p = pos("4k4/9/9/9/9/9/4P4/9/4K4 b P 1");
    let l = legal(&p);
    assert!(!l.iter().any(|m| m.starts_with("P*5")));
    assert!(l.contains(&"P*4e".to_string()));
    // A tokin does not count.
    let p = pos("4k4/9/9/9/9/9/4+P4/9/4K4 b P 1");
    assert!(legal(&p).contains(&"P*5e".to_string()));
    let e = Position::from_sfen("4k4/9/9/4P4/9/9/4P4/9/4K4 b - 1").unwrap_err();
    assert!(e.to_string().contains("nifu"), "{e}");
}

#[test]
fn dead_squares_force_promotion_and_forbid_drops() {
    // Pawn to the last rank must promote; knight to the last two ranks must promote.
    let p = pos("k8/9/4N4/4P4/9/9/9/9/K8 b LN 1");
    let l = legal(&p);
    assert!(l.contains(&"5d5c+".to_string()) || !l.iter().any(|m| m.starts_with("5d5c")));
    assert!(l.contains(&"5c6a+".to_string()));
    assert!(!l.contains(&"5c6a".to_string()));
    assert!(!l.iter().any(|m| m.starts_with("L*") && m.ends_with('a')));
    assert!(!l
        .iter()
        .any(|m| m.starts_with("N*") && (m.ends_with('a') || m.ends_with('b'))));
    assert!(l.contains(&"L*5b".to_string()));
    assert!(l.contains(&"N*5e".to_string()));
    let p = pos("k8/9/9/9/9/9/9/8p/K8 w - 1");
    assert!(legal(&p).contains(&"1h1i+".to_string()));
    assert!(!legal(&p).contains(&"1h1i".to_string()));
    assert!(Position::from_sfen("k3P4/9/9/9/9/9/9/9/K8 b - 1").is_err());
    assert!(Position::from_sfen("k8/4N4/9/9/9/9/9/9/K8 b - 1").is_err());
}

#[test]
fn promotion_on_entering_leaving_and_inside_the_zone() {
    // Silver entering (4d-4c), leaving (6c-6d), and moving inside (2b-2a).
    let p = pos("k8/7S1/3S5/5S3/9/9/9/9/K8 b - 1");
    let l = legal(&p);
    for m in ["4d4c+", "4d4c", "6c7d+", "6c7d", "2b2a+", "2b2a"] {
        assert!(l.contains(&m.to_string()), "{m} missing");
    }
    // Outside the zone there is no promotion.
    assert!(!l.iter().any(|m| m.starts_with("4d4e") && m.ends_with('+')));
    // Gold and king never promote.
    let p = pos("k8/9/4G4/9/9/9/9/9/K8 b - 1");
    assert!(!legal(&p).iter().any(|m| m.ends_with('+')));
}

#[test]
fn drop_checks_and_double_check() {
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b RG 1");
    let mut l = MoveList::new();
    p.check_moves(&mut l);
    let v: Vec<String> = l.iter().map(|m| m.usi()).collect();
    assert!(v.contains(&"G*5b".to_string()));
    assert!(v.contains(&"R*5e".to_string()));
    assert!(!v.contains(&"G*5c".to_string()));
    let dbl = pos("4k4/9/6N2/9/4R4/9/9/9/K8 w - 1");
    let mut ev = MoveList::new();
    dbl.evasions(&mut ev);
    assert!(ev.iter().all(|m| !m.is_drop()));
}

#[test]
fn double_check_allows_only_king_moves() {
    // Rook on 5e and knight on 4c both check the king on 5a; white holds a gold.
    let p = pos("4k4/9/5N3/9/4R4/9/9/9/K8 w G 1");
    assert_eq!(p.checkers().count(), 2);
    let mut l = MoveList::new();
    p.legal_moves(&mut l);
    assert!(!l.is_empty());
    assert!(l
        .iter()
        .all(|m| !m.is_drop() && m.from() == Square::parse("5a").unwrap()));
}

#[test]
fn sfen_round_trip_and_errors_say_where() {
    let s = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    assert_eq!(pos(s).to_sfen(), s);
    let s = "9/7Sk/1+R7/9/9/9/9/9/9 b r2b4g3s4n4l18p 1";
    assert_eq!(pos(s).to_sfen(), s);
    let bad = [
        ("9/9/9 b - 1", "9 ranks"),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1",
            "rank i",
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1",
            "'X'",
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",
            "side",
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 3K 1",
            "hand",
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1",
            "pieces of kind P",
        ),
        ("4k4/9/9/9/9/9/9/9/4+G4 b - 1", "cannot be promoted"),
        ("4k4/9/9/9/4R4/9/9/9/4K4 b - 1", "not to move is in check"),
        ("4k4/9/9/9/9/9/9/9/4K4 b - 0", "move number"),
    ];
    for (s, want) in bad {
        let e = Position::from_sfen(s).expect_err(s).to_string();
        assert!(e.contains(want), "{s}: {e}");
    }
}

#[test]
fn usi_moves_parse_print_and_reject() {
    let p = Position::startpos();
    assert_eq!(p.parse_usi("7g7f").map(|m| m.usi()), Ok("7g7f".to_string()));
    for bad in ["", "7g7", "7g7e", "P*5e", "0a1b", "7g7f++", "k*5e", "ééé"] {
        assert!(p.parse_usi(bad).is_err(), "{bad}");
    }
    let m = Move::drop(PieceKind::Gold, Square::parse("5e").unwrap());
    assert_eq!(m.usi(), "G*5e");
}

#[test]
fn zobrist_keys_are_incremental_and_include_hands() {
    let a = pos("4k4/9/9/9/9/9/9/9/4K4 b P 1");
    let b = pos("4k4/9/9/9/9/9/9/9/4K4 b p 1");
    assert_eq!(a.board_key(), b.board_key());
    assert_ne!(a.key(), b.key());
    // Keys after moves equal keys of the same position parsed from scratch.
    let mut p = Position::startpos();
    for m in ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"] {
        let mv = p.parse_usi(m).unwrap();
        p.play(mv);
        let q = pos(&p.to_sfen());
        assert_eq!(p.key(), q.key(), "after {m}");
    }
}

#[test]
fn sennichite_draw_and_perpetual_check_loss() {
    let mut g = Game::new(pos("4k4/9/9/9/9/9/9/9/4K4 b - 1"));
    for _ in 0..3 {
        for m in ["5i5h", "5a5b", "5h5i", "5b5a"] {
            assert_eq!(g.sennichite(), None);
            let mv = g.position().parse_usi(m).unwrap();
            g.play(mv);
        }
    }
    assert_eq!(g.sennichite(), Some(Sennichite::Draw));
    // Black's rook checks every move: Black loses.
    let mut g = Game::new(pos("3k5/9/9/9/9/9/9/9/K3R4 b - 1"));
    for _ in 0..3 {
        for m in ["5i6i", "6a5a", "6i5i", "5a6a"] {
            let mv = g.position().parse_usi(m).unwrap();
            g.play(mv);
        }
    }
    assert_eq!(g.occurrences(), 4);
    assert_eq!(
        g.sennichite(),
        Some(Sennichite::PerpetualCheckBy(shogi::Color::Black))
    );
}
