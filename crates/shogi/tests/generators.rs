//! The check and evasion generators against filtered legal moves on many positions.

mod common;

use common::random_playouts;
use shogi::{Move, MoveList};

fn sorted(l: &MoveList) -> Vec<u16> {
    let mut v: Vec<u16> = l.iter().map(|m| m.0).collect();
    v.sort_unstable();
    v
}

#[test]
fn checks_and_evasions_equal_filtered_legal_moves() {
    let mut legal = MoveList::new();
    let mut gen = MoveList::new();
    let mut evasions = MoveList::new();
    let (mut positions, mut in_check, mut with_checks) = (0usize, 0usize, 0usize);
    let mut check_children = 0usize;
    random_playouts(0xC4EC, 900, 130, |pos| {
        positions += 1;
        pos.legal_moves(&mut legal);
        if pos.in_check() {
            in_check += 1;
            pos.evasions(&mut gen);
            assert_eq!(
                sorted(&gen),
                sorted(&legal),
                "evasions of {}",
                pos.to_sfen()
            );
            assert_eq!(
                pos.evasion_count(),
                legal.len(),
                "evasion count of {}",
                pos.to_sfen()
            );
        }
        pos.check_moves(&mut gen);
        let mut want = MoveList::new();
        for &m in legal.iter() {
            let next = pos.after(m);
            if next.in_check() {
                want.push(m);
                // Every position a check leads to: the evasion count equals the legal moves.
                next.legal_moves(&mut evasions);
                assert_eq!(
                    next.evasion_count(),
                    evasions.len(),
                    "evasion count of {}",
                    next.to_sfen()
                );
                // Counted by drop square: the moves, but one for all drops on a square.
                let mut drop_squares: Vec<u8> = evasions
                    .iter()
                    .filter(|m| m.is_drop())
                    .map(|m| m.to().0)
                    .collect();
                drop_squares.sort_unstable();
                drop_squares.dedup();
                let plain = evasions.iter().filter(|m| !m.is_drop()).count();
                assert_eq!(
                    next.evasion_count_by_drop_square(),
                    plain + drop_squares.len(),
                    "evasion count by drop square of {}",
                    next.to_sfen()
                );
                check_children += 1;
            }
        }
        if !want.is_empty() {
            with_checks += 1;
        }
        if sorted(&gen) != sorted(&want) {
            let g: Vec<Move> = gen.to_vec();
            let w: Vec<Move> = want.to_vec();
            let extra: Vec<String> = g
                .iter()
                .filter(|m| !w.contains(m))
                .map(|m| m.usi())
                .collect();
            let missing: Vec<String> = w
                .iter()
                .filter(|m| !g.contains(m))
                .map(|m| m.usi())
                .collect();
            panic!(
                "checks of {}: extra {extra:?}, missing {missing:?}",
                pos.to_sfen()
            );
        }
    });
    eprintln!(
        "{positions} positions, {in_check} in check, {with_checks} with checks, \
         {check_children} positions after a check"
    );
    assert!(positions >= 100_000, "only {positions} positions");
    assert!(in_check >= 5_000, "only {in_check} positions in check");
}

/// The checkers a move leaves (computed from the moved piece and the line it uncovered) equal
/// those computed from scratch for the same position (parsed back from its SFEN), and the keys
/// computed without playing the move equal those of the position played.
#[test]
fn checkers_after_a_move_equal_checkers_from_scratch() {
    let mut legal = MoveList::new();
    let mut moves = 0usize;
    random_playouts(0xC8EC, 300, 130, |pos| {
        pos.legal_moves(&mut legal);
        for &m in legal.iter() {
            let next = pos.after(m);
            let fresh =
                shogi::Position::from_sfen_relaxed(&next.to_sfen()).expect("own SFEN parses");
            assert_eq!(
                next.checkers(),
                fresh.checkers(),
                "{} after {}",
                pos.to_sfen(),
                m.usi()
            );
            assert_eq!(
                pos.keys_after(m),
                (next.board_key(), next.key()),
                "keys of {} after {}",
                pos.to_sfen(),
                m.usi()
            );
            moves += 1;
        }
    });
    assert!(moves >= 1_000_000, "only {moves} moves");
}

/// Building the children of a position one after another in one place, each from the one
/// before (`replay_from` copies back only what the previous move changed), gives every child
/// exactly as a fresh copy played does.
#[test]
fn children_replayed_in_one_place_equal_fresh_children() {
    let mut legal = MoveList::new();
    let mut moves = 0usize;
    random_playouts(0x5CA7, 200, 130, |pos| {
        pos.legal_moves(&mut legal);
        let Some(&first) = legal.iter().next() else {
            return;
        };
        let mut child = pos.after(first);
        let mut prev = first;
        for &m in legal.iter() {
            child.replay_from(pos, prev, m);
            assert_eq!(child, pos.after(m), "{} after {}", pos.to_sfen(), m.usi());
            prev = m;
            moves += 1;
        }
    });
    assert!(moves >= 500_000, "only {moves} moves");
}

/// `mate_candidates` against playing every check: on the attacker positions of tsume
/// problems (../shared/data/tsume/tanuki.tsv, each problem and every position two plies
/// down), the candidates are checks, every check that mates is a candidate, and the
/// candidates leave out most checks (the filter must do its job, not just be safe).
#[test]
fn mate_candidates_hold_every_mating_check() {
    let p = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/tsume/tanuki.tsv");
    let text = match std::fs::read_to_string(&p) {
        Ok(t) => t,
        Err(e) if std::env::var_os("CI").is_none() => {
            eprintln!("note: {} not found ({e}); skipping", p.display());
            return;
        }
        Err(e) => panic!("{} missing under CI: {e}", p.display()),
    };
    let (mut positions, mut checks_total, mut candidates_total, mut mates) = (0, 0, 0, 0);
    let mut check = |pos: &shogi::Position| {
        let (mut checks, mut cands) = (MoveList::new(), MoveList::new());
        pos.check_moves(&mut checks);
        pos.mate_candidates(&mut cands);
        for &m in cands.iter() {
            assert!(
                checks.contains(m),
                "{} is no check in {}",
                m.usi(),
                pos.to_sfen()
            );
        }
        for &m in checks.iter() {
            if pos.after(m).is_checkmate() {
                mates += 1;
                assert!(
                    cands.contains(m),
                    "mate {} missing from the candidates of {}",
                    m.usi(),
                    pos.to_sfen()
                );
            }
        }
        positions += 1;
        checks_total += checks.len();
        candidates_total += cands.len();
    };
    let (mut checks, mut answers) = (MoveList::new(), MoveList::new());
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let sfen = line.split('\t').next().expect("a field");
        let root = shogi::Position::from_sfen_relaxed(sfen).expect("parses");
        check(&root);
        root.check_moves(&mut checks);
        for &c in checks.iter() {
            let after_check = root.after(c);
            after_check.evasions(&mut answers);
            for &a in answers.iter() {
                check(&after_check.after(a));
            }
        }
    }
    assert!(positions > 50_000, "only {positions} positions");
    assert!(mates > 5_000, "only {mates} mates");
    assert!(
        2 * candidates_total < checks_total,
        "{candidates_total} candidates of {checks_total} checks"
    );
    eprintln!("{positions} positions, {checks_total} checks, {candidates_total} candidates, {mates} mates");
}
