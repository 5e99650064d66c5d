//! The same solver on chess positions through the chess adapter.

use mate::{ChessMate, Limits, MateSolver, Verdict};

fn solve(fen: &str, plies: u32) -> (Verdict, Vec<String>) {
    let board = chess::Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut s = MateSolver::new(Limits {
        table_bytes: 8 << 20,
        nodes: 5_000_000,
        ..Limits::default()
    });
    let g = ChessMate::new(board);
    let sol = s.solve_within(&g, plies);
    let mut b = board;
    let mut text = Vec::new();
    for &m in &sol.line {
        text.push(b.move_to_uci(m));
        b = b.played(m);
    }
    if sol.verdict == Verdict::Mate {
        assert!(
            b.in_check() && !b.has_legal_move(),
            "line {text:?} does not end in mate"
        );
    }
    (sol.verdict, text)
}

#[test]
fn back_rank_mate_in_one() {
    let (v, line) = solve("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1);
    assert_eq!(v, Verdict::Mate);
    assert_eq!(line, vec!["a1a8"]);
}

#[test]
fn mate_in_two_with_a_quiet_first_move() {
    // 1. Kf7 (no check) and 2. Rh1# (or Rg8#) whatever Black does; no check mates sooner.
    let (v, line) = solve("7k/8/5K2/8/8/8/8/6R1 w - - 0 1", 3);
    assert_eq!(v, Verdict::Mate, "{line:?}");
    assert_eq!(line.len(), 3, "{line:?}");
    let (v, _) = solve("7k/8/5K2/8/8/8/8/6R1 w - - 0 1", 1);
    assert_eq!(v, Verdict::NoMate);
}

#[test]
fn stalemate_is_not_mate_and_no_short_mate_is_reported() {
    // Qb7 is mate (the king guards the queen).
    let (v, _) = solve("k7/8/2K5/8/8/8/8/1Q6 w - - 0 1", 1);
    assert_eq!(v, Verdict::Mate);
    // Bare kings: no mate at any length.
    let (v, _) = solve("k7/8/8/8/8/8/8/K7 w - - 0 1", 5);
    assert_eq!(v, Verdict::NoMate);
    // Several queen moves (Qb5) stalemate; they must not count as mate, and the line
    // returned (checked by `solve`) must end in a real mate.
    let (v, _) = solve("k7/2Q5/1K6/8/8/8/8/8 w - - 0 1", 1);
    assert_eq!(v, Verdict::Mate);
}
