//! Solver behaviour: no mate, limits, perpetual check, hand dominance, long lines.

use mate::{Found, Limits, MateGame, MateSolver, Solver, Tsume, Verdict};
use shogi::Position;
use std::sync::{Arc, Mutex};

fn tsume(s: &str) -> Tsume {
    Tsume::new(Position::from_sfen_relaxed(s).unwrap_or_else(|e| panic!("{s}: {e}")))
}

fn small() -> Limits {
    Limits {
        table_bytes: 4 << 20,
        nodes: 2_000_000,
        ..Limits::default()
    }
}

#[test]
fn no_check_means_no_mate() {
    let mut s = Solver::new(small());
    assert_eq!(
        s.solve(&tsume("4k4/9/9/9/9/9/9/9/9 b - 1")),
        Verdict::NoMate
    );
}

#[test]
fn perpetual_check_is_never_mate() {
    // A lone rook against a lone king (no pieces in hand): every line ends in perpetual
    // check, a loss for the attacker. Disproving all of it takes long; the solver may run out
    // of nodes but must never claim a mate.
    let mut s = MateSolver::new(Limits {
        nodes: 200_000,
        ..small()
    });
    let sol = s.solve(&tsume("8k/9/9/9/9/9/9/9/R8 b - 1"));
    assert_ne!(sol.verdict, Verdict::Mate);
}

#[test]
fn a_mate_is_found_past_a_repetition_trap() {
    // Transpositions and repeated positions on the way must not hide the mate: the same
    // problem solved twice with the table kept and cleared gives the same length.
    let g = tsume("6SR1/6P1B/6GG1/8k/8B/8N/9/9/9 b r2g3s3n4l17p 1");
    let mut s = MateSolver::new(small());
    let a = s.solve(&g);
    let b = s.solve(&g);
    assert_eq!(a.verdict, Verdict::Mate);
    assert_eq!(a.line.len(), 11);
    assert_eq!(b.line.len(), 11);
}

#[test]
fn node_limit_gives_unknown() {
    let mut s = MateSolver::new(Limits {
        nodes: 5,
        ..small()
    });
    let sol = s.solve(&tsume("6SR1/6P1B/6GG1/8k/8B/8N/9/9/9 b r2g3s3n4l17p 1"));
    assert_eq!(sol.verdict, Verdict::Unknown);
}

#[test]
fn three_ply_mate_with_drops() {
    // Gold drop then gold drop: a classic head-of-king mate.
    let mut s = MateSolver::new(small());
    let sol = s.solve(&tsume("4k4/9/4P4/9/9/9/9/9/9 b 2G2r2b2g4s4n4l17p 1"));
    assert_eq!(sol.verdict, Verdict::Mate);
    assert_eq!(sol.line.len(), 1, "{:?}", sol.line);
}

#[test]
fn stop_flag_ends_the_search() {
    let mut s = MateSolver::new(small());
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    s.set_stop_flag(flag);
    let sol = s.solve(&tsume("6SR1/6P1B/6GG1/8k/8B/8N/9/9/9 b r2g3s3n4l17p 1"));
    assert_eq!(sol.verdict, Verdict::Unknown);
}

#[test]
fn a_tiny_table_still_proves_mate() {
    // 1024 entries: entries are replaced all the time; the proof and its line stay right.
    let mut s = MateSolver::new(Limits {
        table_bytes: 32 << 10,
        nodes: 300_000,
        ..Limits::default()
    });
    // tanuki-9-484: about 4,800 nodes, several times the table.
    let sol = s.solve(&tsume("7S1/9/5RP1P/7Sk/9/9/9/9/9 b RS2b4gs4n4l16p 1"));
    assert_eq!(sol.verdict, Verdict::Mate);
    let mut p =
        Position::from_sfen_relaxed("7S1/9/5RP1P/7Sk/9/9/9/9/9 b RS2b4gs4n4l16p 1").unwrap();
    for &m in &sol.line {
        assert!(p.is_legal(m));
        p.play(m);
    }
    assert!(p.is_checkmate());
}

#[test]
fn hand_dominance_reuses_proofs_and_disproofs() {
    // Proven with a silver and a rook in hand: the same board with one more gold in hand is
    // answered by the stored proof (the root probe hits it).
    let mut s = Solver::new(small());
    let base = "7S1/9/5RP1P/7Sk/9/9/9/9/9 b RS2b4gs4n4l16p 1";
    assert_eq!(s.solve(&tsume(base)), Verdict::Mate);
    let superior = "7S1/9/5RP1P/7Sk/9/9/9/9/9 b GRS2b3gs4n4l16p 1";
    assert_eq!(s.solve(&tsume(superior)), Verdict::Mate);
    assert_eq!(s.stats().nodes, 1, "answered by dominance");
    // A board with no check at all, disproven with a pawn in hand, answers the empty hand.
    let mut s = Solver::new(small());
    assert_eq!(
        s.solve(&tsume("k8/9/9/9/9/9/9/9/8K b P 1")),
        Verdict::NoMate
    );
    assert_eq!(
        s.solve(&tsume("k8/9/9/9/9/9/9/9/8K b - 1")),
        Verdict::NoMate
    );
    assert_eq!(s.stats().nodes, 1, "answered by dominance");
}

/// Muda-ai: a check whose every answer is a drop that the checker takes with mate mates by
/// the convention (the drops are futile). Without the option each drop and its capture count.
/// The rook check `2g1g` here (from tanuki-11-101's line) is answered only by drops on 1f.
#[test]
fn a_check_answered_only_by_futile_drops_mates_with_muda_ai() {
    let g = tsume("4S3S/6S1L/7pB/9/7Sk/9/7R1/7R1/9 b b4g4n3l17p 9");
    let mut s = MateSolver::new(small());
    let counted = s.solve(&g);
    assert_eq!(counted.verdict, Verdict::Mate);
    let usi: Vec<String> = counted.line.iter().map(|m| m.usi()).collect();
    assert_eq!(usi.len(), 3, "{usi:?}");
    assert_eq!(usi[0], "2g1g");
    s.set_skip_futile(true);
    let futile = s.solve(&g);
    assert_eq!(futile.verdict, Verdict::Mate);
    let usi: Vec<String> = futile.line.iter().map(|m| m.usi()).collect();
    assert_eq!(usi, ["2g1g"]);
    let after = g.after(futile.line[0]);
    assert!(!after.is_mated() && after.mated_but_for_futile_drops());
}

/// The answer first, then better lines: tanuki-5-148 is proven along a 7-ply line with every
/// interposing drop searched from the start (with the drops delayed, its first line is the
/// shortest already), and the shortest mate is 5. The callback hears the 7-ply line first
/// (the one `first` keeps), then the 5-ply one marked shortest; lengths fall and nodes and
/// times rise from report to report.
#[test]
fn lines_are_reported_first_to_best() {
    let sfen = "5R2G/9/7Bn/7k1/9/7B1/9/9/9 b R3g4s3n4l18p 1";
    let heard: Arc<Mutex<Vec<Found<shogi::Move>>>> = Arc::default();
    let sink = heard.clone();
    let mut s = MateSolver::new(small());
    s.set_delayed_drops(false);
    s.set_on_line(Box::new(move |f: &Found<shogi::Move>| {
        sink.lock().expect("lock").push(f.clone())
    }));
    let sol = s.solve(&tsume(sfen));
    let heard = heard.lock().expect("lock").clone();
    assert_eq!(sol.verdict, Verdict::Mate);
    assert!(sol.shortest);
    assert_eq!(sol.line.len(), 5);
    assert!(heard.len() >= 2, "{heard:?}");
    let first = sol.first.as_ref().expect("first line");
    assert_eq!(heard[0].line, first.line);
    assert_eq!(first.line.len(), 7);
    assert!(!heard[0].shortest);
    let last = heard.last().expect("reports");
    assert!(last.shortest);
    assert_eq!(last.line, sol.line);
    for w in heard.windows(2) {
        assert!(w[1].line.len() <= w[0].line.len(), "{heard:?}");
        assert!(w[1].nodes >= w[0].nodes && w[1].time >= w[0].time);
    }
    for f in &heard {
        let mut p = Position::from_sfen_relaxed(sfen).expect("parses");
        for &m in &f.line {
            assert!(p.is_legal(m));
            p.play(m);
        }
        assert!(p.is_checkmate(), "{f:?}");
    }
    // Without the polish the first line is the answer, and only it is reported.
    let count = Arc::new(Mutex::new(0usize));
    let c2 = count.clone();
    s.set_polish(false);
    s.set_on_line(Box::new(move |_: &Found<shogi::Move>| {
        *c2.lock().expect("lock") += 1
    }));
    let quick = s.solve(&tsume(sfen));
    assert_eq!(quick.line, first.line);
    assert!(!quick.shortest);
    assert!(quick.stats.nodes < sol.stats.nodes);
    assert_eq!(*count.lock().expect("lock"), 1);
}

/// The mate-in-three test at the root: tanuki-3-113 (a mate in three that df-pn alone first
/// proves along a 5-ply line) is decided at the root, one node, with the 3-ply line read from
/// the proofs it stored; without the test it takes more nodes and the first line is longer.
/// Both lines replay to mate.
#[test]
fn a_mate_in_three_is_found_at_the_root() {
    let sfen = "5B2r/8k/9/8B/9/9/9/9/9 b r4g4s4n4l18p 1";
    let mut s = MateSolver::new(small());
    s.set_polish(false);
    let with = s.solve(&tsume(sfen));
    s.set_mate_in_three(false);
    let without = s.solve(&tsume(sfen));
    assert_eq!(with.verdict, Verdict::Mate);
    assert_eq!(without.verdict, Verdict::Mate);
    assert_eq!(with.stats.nodes, 1);
    assert_eq!(with.line.len(), 3);
    assert!(without.stats.nodes > 1);
    assert_eq!(without.line.len(), 5);
    for line in [&with.line, &without.line] {
        let mut p = Position::from_sfen_relaxed(sfen).expect("parses");
        for &m in line.iter() {
            assert!(p.is_legal(m));
            p.play(m);
        }
        assert!(p.is_checkmate());
    }
}
