//! The search machine's model (`hw::chip`): mates found at their published distance (checked
//! against Debian's Stockfish where it is installed), the draw rules, a legal principal
//! variation, the budgets and the stop line, the same nodes and clocks every run, and every
//! clock accounted for.

use chess::{Board, Move};
use eval::chip::ChipNet;
use hw::chip::{mate_in, Config, Faster, Limits, Machine, Outcome, Report};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn machine() -> Machine {
    Machine::new(ChipNet::embedded_pure(), Config::default()).expect("the pure net runs on chip")
}

fn search(fen: &str, moves: &[&str], limits: Limits) -> (Board, Outcome) {
    search_with(Config::default(), fen, moves, limits)
}

fn search_with(config: Config, fen: &str, moves: &[&str], limits: Limits) -> (Board, Outcome) {
    let mut b = Board::from_fen(fen).expect("test FEN");
    let mut history = Vec::new();
    for u in moves {
        let m = b.parse_uci_move(u).expect("test move");
        history.push(b);
        b.play(m);
    }
    let mut m = Machine::new(ChipNet::embedded_pure(), config).expect("the pure net runs on chip");
    m.load(&b, &history);
    let out = m.go(limits, |_: &Report| {});
    (b, out)
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: d,
        ..Limits::default()
    }
}

/// Every move of the line is legal where it is played.
fn assert_legal(b: &Board, pv: &[Move]) {
    let mut b = *b;
    for m in pv {
        assert!(b.is_legal(*m), "{m:?} is not legal in {}", b.to_fen());
        b.play(*m);
    }
}

/// The score Debian's Stockfish gives a position at `depth` (`"mate N"` or `"cp N"`), if it
/// is installed.
fn stockfish_score(fen: &str, moves: &[&str], depth: u32) -> Option<String> {
    let path = "/usr/games/stockfish";
    if !std::path::Path::new(path).exists() {
        return None;
    }
    let mut c = Command::new(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .ok()?;
    let mut stdin = c.stdin.take()?;
    let position = if moves.is_empty() {
        format!("position fen {fen}")
    } else {
        format!("position fen {fen} moves {}", moves.join(" "))
    };
    writeln!(stdin, "{position}\ngo depth {depth}").ok()?;
    let mut score = None;
    for line in BufReader::new(c.stdout.take()?).lines() {
        let line = line.ok()?;
        if let Some(rest) = line.split(" score ").nth(1) {
            let t: Vec<&str> = rest.split_whitespace().take(2).collect();
            score = Some(t.join(" "));
        }
        if line.starts_with("bestmove") {
            break;
        }
    }
    writeln!(stdin, "quit").ok()?;
    c.wait().ok()?;
    score
}

/// Published mates (Win At Chess): position, moves played, mate distance in moves.
const MATES: [(&str, &[&str], i32); 3] = [
    (
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
        &["g3g6", "b6a4"],
        1,
    ),
    (
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
        &[],
        2,
    ),
    (
        "k4r2/1R4pb/1pQp1n1p/3P4/5p1P/3P2P1/r1q1R2K/8 w - - 0 1",
        &[],
        3,
    ),
];

#[test]
fn mates_are_found_at_their_distance_with_a_legal_mating_line() {
    for (fen, moves, n) in MATES {
        if let Some(sf) = stockfish_score(fen, moves, 20) {
            assert_eq!(sf, format!("mate {n}"), "Stockfish on {fen} {moves:?}");
        }
        // Within two plies of the mate's length: the pruning below the PV (reverse futility
        // on a side that is a queen up but mated) may hide a quiet mate at the exact depth.
        let (b, out) = search(fen, moves, depth(2 * n as u32 + 3));
        assert_eq!(
            mate_in(out.report.score),
            Some(n),
            "{fen} {moves:?}: {out:?}"
        );
        assert_legal(&b, &out.report.pv);
        // The line mates: after its moves the side to move has no legal move, in check.
        let mut end = b;
        for m in &out.report.pv[..(2 * n - 1) as usize] {
            end.play(*m);
        }
        assert!(
            end.in_check() && end.legal_moves().is_empty(),
            "{fen}: {:?} does not mate",
            out.report.pv
        );
    }
}

#[test]
fn late_move_pruning_keeps_the_mates_and_every_clock_and_prunes_the_tree() {
    // Late-move pruning is the default (the other tests' build); the build without it keeps
    // the mates too.
    let lmp = Config::sdram();
    assert!(lmp.lmp);
    let plain_config = Config {
        lmp: false,
        ..Config::sdram()
    };
    for (fen, moves, n) in MATES {
        let (b, out) = search_with(plain_config, fen, moves, depth(2 * n as u32 + 3));
        assert_eq!(
            mate_in(out.report.score),
            Some(n),
            "{fen} {moves:?}: {out:?}"
        );
        assert_legal(&b, &out.report.pv);
    }
    // The bench's middle-game positions at depth 7: a smaller tree, every clock accounted
    // for, a legal line.
    let fens = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
        "rnbqkb1r/pp1p1ppp/4pn2/2p5/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 0 4",
    ];
    let (mut plain_nodes, mut lmp_nodes) = (0, 0);
    for fen in fens {
        let (_, plain) = search_with(plain_config, fen, &[], depth(7));
        let (b, out) = search_with(lmp, fen, &[], depth(7));
        assert_eq!(out.spent.total(), out.clocks, "{fen}: {out:?}");
        assert_legal(&b, &out.report.pv);
        assert!(out.best.is_some_and(|m| b.is_legal(m)));
        plain_nodes += plain.nodes;
        lmp_nodes += out.nodes;
    }
    assert!(
        4 * lmp_nodes < 3 * plain_nodes,
        "late-move pruning: {lmp_nodes} nodes against {plain_nodes}"
    );
}

#[test]
fn mated_and_stalemated_positions_have_no_move() {
    // Fool's mate, and a king with no move and no check.
    let (_, out) = search(
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        &[],
        depth(3),
    );
    assert_eq!(out.best, None);
    assert_eq!(mate_in(out.report.score), Some(0));
    let (_, out) = search("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", &[], depth(3));
    assert_eq!((out.best, out.report.score), (None, 0));
}

#[test]
fn the_fifty_move_rule_and_repetition_score_a_draw() {
    // A rook up, the 99th reversible ply: every move draws (no capture, no pawn to move, no
    // mate in one).
    let fifty = "8/8/8/4k3/8/8/8/R3K3 w - - 99 80";
    if let Some(sf) = stockfish_score(fifty, &[], 10) {
        assert_eq!(sf, "cp 0", "Stockfish on {fifty}");
    }
    let (_, out) = search(fifty, &[], depth(4));
    assert_eq!(out.report.score, 0, "{out:?}");
    // The same material without the clock: winning.
    let (_, out) = search("8/8/8/4k3/8/8/8/R3K3 w - - 0 80", &[], depth(4));
    assert!(out.report.score > 200, "{out:?}");
    // Two rooks, a knight and a bishop against a queen, Black checks forever (Qh4+ Kg1 Qe1+
    // Kh2 Qh4+ ...): the repetition
    // along the path is a draw, and the best Black has.
    let perpetual = "3q3k/RR4pp/8/8/8/8/6P1/1NB4K b - - 0 1";
    if let Some(sf) = stockfish_score(perpetual, &[], 16) {
        assert_eq!(sf, "cp 0", "Stockfish on {perpetual}");
    }
    let (b, out) = search(perpetual, &[], depth(8));
    assert_eq!(out.report.score, 0, "{out:?}");
    assert_legal(&b, &out.report.pv);
}

#[test]
fn the_same_search_takes_the_same_nodes_and_clocks() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (_, a) = search(fen, &[], depth(5));
    let (_, b) = search(fen, &[], depth(5));
    assert_eq!((a.nodes, a.clocks, a.best), (b.nodes, b.clocks, b.best));
    assert!(a.clocks > a.nodes * 20, "{a:?}");
    assert!(a.qnodes < a.nodes);
}

#[test]
fn the_budgets_and_the_stop_line_end_the_search_with_a_legal_move() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let b = Board::from_fen(fen).unwrap();
    let (_, out) = search(
        fen,
        &[],
        Limits {
            nodes: 5_000,
            ..Limits::default()
        },
    );
    assert!(out.stopped && out.nodes <= 5_000, "{out:?}");
    assert!(b.is_legal(out.best.unwrap()));
    let (_, out) = search(
        fen,
        &[],
        Limits {
            clocks: 1_000_000,
            ..Limits::default()
        },
    );
    // The clock is looked at each node: one node's steps past the budget at most.
    assert!(out.stopped && out.clocks < 1_000_000 + 2_000, "{out:?}");
    assert!(b.is_legal(out.best.unwrap()));
    // Decide now: the line raised from another thread ends a search without limits.
    let mut m = machine();
    m.load(&b, &[]);
    let stop = m.stop_line();
    let t = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        Instant::now()
    });
    let out = m.go(Limits::default(), |_: &Report| {});
    let raised = t.join().unwrap();
    assert!(raised.elapsed() < Duration::from_millis(100), "late answer");
    assert!(out.stopped);
    assert!(b.is_legal(out.best.unwrap()));
}

#[test]
fn a_hybrid_net_is_refused() {
    let e = Machine::new(ChipNet::embedded(), Config::default());
    assert!(e.is_err());
}

#[test]
fn every_clock_is_spent_on_something_and_faster_units_keep_the_tree() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let b = Board::from_fen(fen).unwrap();
    let run = |config: Config, limits: Limits| {
        let mut m = Machine::new(ChipNet::embedded_pure(), config).unwrap();
        m.load(&b, &[]);
        m.go(limits, |_: &Report| {})
    };
    let stopped = Limits {
        nodes: 3_000,
        ..Limits::default()
    };
    for config in [Config::default(), Config::sdram()] {
        for limits in [depth(5), stopped] {
            let out = run(config, limits);
            assert_eq!(out.spent.total(), out.clocks, "{config:?} {out:?}");
            // A node waits for its generator's moves at least.
            assert!(out.spent.generate > 20 * out.nodes, "{out:?}");
        }
    }
    let base = run(Config::default(), depth(5));
    let quick = |faster: Faster| {
        run(
            Config {
                faster,
                ..Config::default()
            },
            depth(5),
        )
    };
    let gen = quick(Faster {
        generate: 8,
        ..Faster::default()
    });
    let all = quick(Faster {
        eval: 8,
        generate: 8,
        in_check: 8,
    });
    for out in [&gen, &all] {
        // The same tree, in fewer clocks.
        assert_eq!(
            (out.nodes, out.best, &out.report.pv),
            (base.nodes, base.best, &base.report.pv)
        );
        assert!(out.clocks < base.clocks, "{out:?}");
        assert_eq!(out.spent.total(), out.clocks);
    }
    assert!(gen.spent.generate < base.spent.generate);
    assert!(all.clocks < gen.clocks);
}
