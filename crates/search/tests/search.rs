//! Search behaviour: exact mate scores, draws, determinism, the device boundary, SMP.

use chess::{Board, Move};
use search::score::{mate_moves, MATE_BOUND};
use search::{Event, Job, Limits, Listener, ThreadPool};
use std::sync::{Arc, Mutex};

#[derive(Default, Clone, Debug)]
struct Outcome {
    best: Option<Move>,
    score: i32,
    depth: i32,
    infos: usize,
}

fn run(pool: &ThreadPool, fen: &str, limits: Limits) -> Outcome {
    let out = Arc::new(Mutex::new(Outcome::default()));
    let o = out.clone();
    let listener: Listener = Arc::new(move |_: &Board, ev: Event| {
        let mut o = o.lock().unwrap();
        match ev {
            Event::Info(_) => o.infos += 1,
            Event::BestMove {
                best, score, depth, ..
            } => {
                o.best = Some(best);
                o.score = score;
                o.depth = depth;
            }
        }
    });
    let job = Job {
        start: Board::from_fen(fen).unwrap(),
        moves: vec![],
        limits,
        multipv: 1,
        move_overhead: 0,
        listener,
        tt: pool.tt().clone(),
    };
    pool.search_sync(job);
    let r = out.lock().unwrap().clone();
    r
}

/// Mate-in-N positions; distances checked with Stockfish 15.1.
const MATES: [(&str, i32); 6] = [
    (
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        1,
    ),
    (
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
        2,
    ),
    ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 3),
    ("k7/8/8/3K4/8/8/8/6R1 w - - 0 1", 3),
    ("8/8/k7/8/2K5/8/8/7Q w - - 0 1", 4),
    ("8/8/8/8/8/1k6/3K4/7R w - - 0 1", 5),
];

#[test]
fn finds_mates_in_one_to_five_with_exact_scores() {
    let pool = ThreadPool::new(1, 16, device::SoftwareDevice::default);
    for (fen, n) in MATES {
        pool.clear();
        // Quiet mating moves sit behind late-move pruning at shallow depth: give depth to spare.
        let o = run(&pool, fen, Limits::depth(30));
        assert!(o.score >= MATE_BOUND, "{fen}: score {}", o.score);
        assert_eq!(mate_moves(o.score), n, "{fen}");
        let b = Board::from_fen(fen).unwrap();
        assert!(b.is_legal(o.best.unwrap()));
    }
}

#[test]
fn go_mate_stops_once_the_mate_is_proven() {
    let pool = ThreadPool::new(1, 16, device::SoftwareDevice::default);
    let o = run(
        &pool,
        MATES[4].0,
        Limits {
            mate: Some(4),
            ..Limits::default()
        },
    );
    assert_eq!(mate_moves(o.score), 4);
    assert!(o.depth < 40, "kept searching to depth {}", o.depth);
}

#[test]
fn mated_and_stalemated_roots_return_the_null_move() {
    let pool = ThreadPool::new(1, 16, device::SoftwareDevice::default);
    let mated = run(
        &pool,
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        Limits::depth(5),
    );
    assert_eq!(mated.best, Some(Move::NULL));
    let stalemate = run(&pool, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", Limits::depth(5));
    assert_eq!(stalemate.best, Some(Move::NULL));
}

#[test]
fn sees_draws_by_material_and_avoids_stalemating() {
    let pool = ThreadPool::new(1, 16, device::SoftwareDevice::default);
    let kbk = run(&pool, "8/8/4k3/8/8/3BK3/8/8 w - - 0 1", Limits::depth(8));
    assert_eq!(kbk.score, 0);
    // Queen up: any move but the stalemating one keeps a winning score.
    let o = run(&pool, "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", Limits::depth(6));
    let b = Board::from_fen("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1").unwrap();
    let after = b.played(o.best.unwrap());
    assert!(after.has_legal_move() || after.in_check(), "stalemated");
}

#[test]
fn fixed_depth_search_is_deterministic() {
    let fens = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        chess::STARTPOS,
    ];
    let nodes = |_: ()| {
        let pool = ThreadPool::new(1, 16, device::SoftwareDevice::default);
        fens.iter()
            .map(|f| {
                run(&pool, f, Limits::depth(8));
                pool.last_nodes()
            })
            .collect::<Vec<_>>()
    };
    let a = nodes(());
    let b = nodes(());
    assert_eq!(a, b);
    assert!(a.iter().all(|&n| n > 1000));
}

#[test]
fn node_limit_is_honoured() {
    let pool = ThreadPool::new(1, 16, device::SoftwareDevice::default);
    run(&pool, chess::STARTPOS, Limits::nodes(20_000));
    let n = pool.last_nodes();
    assert!((20_000..25_000).contains(&n), "{n}");
}

#[test]
fn lazy_smp_smoke() {
    let pool = ThreadPool::new(4, 32, device::SoftwareDevice::default);
    for fen in [
        chess::STARTPOS,
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    ] {
        let o = run(&pool, fen, Limits::depth(9));
        let b = Board::from_fen(fen).unwrap();
        assert!(b.is_legal(o.best.unwrap()), "{fen}");
        assert!(o.infos > 0);
    }
    let o = run(&pool, MATES[1].0, Limits::depth(8));
    assert_eq!(mate_moves(o.score), 2);
}

/// A device that counts calls, to show the search reaches move generation only through the
/// boundary and that another backend plugs in without touching the search.
#[derive(Default)]
struct Counting {
    inner: device::SoftwareDevice,
    generates: Arc<std::sync::atomic::AtomicU64>,
}

impl device::MoveGenDevice for Counting {
    fn load(&mut self, b: &Board) {
        self.inner.load(b)
    }
    fn make(&mut self, m: Move) {
        self.inner.make(m)
    }
    fn make_null(&mut self) {
        self.inner.make_null()
    }
    fn unmake(&mut self) {
        self.inner.unmake()
    }
    fn generate(&mut self, mode: chess::GenMode, out: &mut chess::MoveList) {
        self.generates
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.inner.generate(mode, out)
    }
    fn in_check(&self) -> bool {
        self.inner.in_check()
    }
    fn position(&self) -> &chess::Position {
        self.inner.position()
    }
    fn name(&self) -> &'static str {
        "counting"
    }
}

#[test]
fn search_runs_on_any_device() {
    let count = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let c = count.clone();
    let pool = ThreadPool::new(1, 16, move || Counting {
        inner: Default::default(),
        generates: c.clone(),
    });
    let o = run(&pool, MATES[0].0, Limits::depth(4));
    assert_eq!(mate_moves(o.score), 1);
    assert!(count.load(std::sync::atomic::Ordering::Relaxed) > 10);
}

#[test]
fn the_network_evaluation_searches_finds_mates_and_is_deterministic() {
    let net: Arc<eval::nnue::Network> = Arc::from(eval::nnue::FloatNet::random(9).quantise());
    let nodes = |net: Option<Arc<eval::nnue::Network>>| {
        let pool = ThreadPool::new(1, 16, device::SoftwareDevice::default);
        pool.set_network(net.map(eval::Net::Nnue));
        run(&pool, chess::STARTPOS, Limits::depth(8));
        let a = pool.last_nodes();
        // Castling, en passant and promotions on the way exercise the incremental updates.
        run(
            &pool,
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            Limits::depth(7),
        );
        (a, pool.last_nodes())
    };
    let with_net = nodes(Some(net.clone()));
    assert_eq!(with_net, nodes(Some(net.clone())));
    assert_ne!(with_net, nodes(None), "the network was not used");
    let pool = ThreadPool::new(1, 16, device::SoftwareDevice::default);
    pool.set_network(Some(eval::Net::Nnue(net)));
    // Mates in 1 to 3 with tactics (a random net misleads the pruning in slow mates).
    for (fen, n) in MATES.iter().take(3) {
        let o = run(&pool, fen, Limits::depth(2 * n + 2));
        assert!(
            o.score >= MATE_BOUND && mate_moves(o.score) == *n,
            "{fen}: {}",
            o.score
        );
    }
}

#[test]
fn a_chip_net_plays_in_the_software_engine_and_a_zero_hybrid_one_is_the_hand_crafted_eval() {
    use eval::chip::{Arch, ChipNet};
    let nodes = |net: Option<eval::Net>| {
        let pool = ThreadPool::new(1, 16, device::SoftwareDevice::default);
        pool.set_network(net);
        run(
            &pool,
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            Limits::depth(7),
        );
        pool.last_nodes()
    };
    for arch in [Arch::estuary(), Arch::onechan()] {
        let chip = eval::Net::Chip(Arc::new(ChipNet::random(arch.clone(), 8)));
        let n = nodes(Some(chip.clone()));
        assert_eq!(n, nodes(Some(chip)), "{arch}");
        assert_ne!(n, nodes(None), "{arch}: the chip net was not used");
        let mut zero = ChipNet::random(arch, 8);
        zero.hybrid = true;
        zero.dense.iter_mut().for_each(|d| {
            d.weights.iter_mut().for_each(|w| *w = 0);
            d.bias.iter_mut().for_each(|b| *b = 0);
        });
        assert_eq!(nodes(Some(eval::Net::Chip(Arc::new(zero)))), nodes(None));
    }
}

#[test]
fn a_hybrid_net_with_no_correction_searches_exactly_like_the_hand_crafted_eval() {
    let mut zero = eval::nnue::FloatNet::random(4);
    zero.hybrid = true;
    zero.w2.iter_mut().for_each(|w| *w = 0.0);
    let net: Arc<eval::nnue::Network> = Arc::from(zero.quantise());
    let fens = [
        chess::STARTPOS,
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ];
    let nodes = |net: Option<Arc<eval::nnue::Network>>| {
        let pool = ThreadPool::new(1, 16, device::SoftwareDevice::default);
        pool.set_network(net.map(eval::Net::Nnue));
        fens.iter()
            .map(|f| {
                run(&pool, f, Limits::depth(9));
                pool.last_nodes()
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(nodes(Some(net)), nodes(None));
}

/// Calls across the evaluation boundary, shared with the test that owns the pool.
#[derive(Default)]
struct EvalCalls {
    loads: std::sync::atomic::AtomicU64,
    makes: std::sync::atomic::AtomicI64,
    evals: std::sync::atomic::AtomicU64,
}

/// An evaluator that counts every call and either forwards it to the software evaluation or
/// answers a constant: if the search evaluated anywhere but through the interface, the
/// constant one could not make every score equal to its constant.
struct CountingEval {
    inner: device::SoftwareEval,
    constant: Option<i32>,
    calls: Arc<EvalCalls>,
}

impl device::Evaluator for CountingEval {
    fn load(&mut self, b: &Board) {
        self.calls.loads.fetch_add(1, Relaxed);
        self.inner.load(b)
    }
    fn make(&mut self, m: Move, before: &Board, after: &Board) {
        self.calls.makes.fetch_add(1, Relaxed);
        self.inner.make(m, before, after)
    }
    fn make_null(&mut self) {
        self.calls.makes.fetch_add(1, Relaxed);
        self.inner.make_null()
    }
    fn unmake(&mut self) {
        self.calls.makes.fetch_sub(1, Relaxed);
        self.inner.unmake()
    }
    fn evaluate(&mut self, b: &Board) -> i32 {
        self.calls.evals.fetch_add(1, Relaxed);
        let v = self.inner.evaluate(b);
        self.constant.unwrap_or(v)
    }
    fn set_network(&mut self, net: Option<eval::Net>) {
        self.inner.set_network(net)
    }
    fn name(&self) -> &'static str {
        "counting"
    }
}

use std::sync::atomic::Ordering::Relaxed;

fn counting_pool(constant: Option<i32>) -> (ThreadPool, Arc<EvalCalls>) {
    let calls = Arc::new(EvalCalls::default());
    let c = calls.clone();
    let pool = ThreadPool::with_evaluator(1, 16, device::SoftwareDevice::default, move || {
        CountingEval {
            inner: device::SoftwareEval::default(),
            constant,
            calls: c.clone(),
        }
    });
    (pool, calls)
}

const QUIET: [&str; 3] = [
    chess::STARTPOS,
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "8/5pk1/6p1/8/3K4/8/5PPP/8 w - - 0 1",
];

#[test]
fn the_search_evaluates_only_through_the_evaluator() {
    // Forwarding: the same tree as the default pool, every make undone, evaluations counted.
    let (pool, calls) = counting_pool(None);
    let plain = ThreadPool::new(1, 16, device::SoftwareDevice::default);
    for fen in QUIET {
        pool.clear();
        plain.clear();
        let a = run(&pool, fen, Limits::depth(7));
        let b = run(&plain, fen, Limits::depth(7));
        assert_eq!(
            (pool.last_nodes(), a.best, a.score),
            (plain.last_nodes(), b.best, b.score)
        );
        assert_eq!(
            calls.makes.load(Relaxed),
            0,
            "{fen}: make/unmake unbalanced"
        );
    }
    assert_eq!(calls.loads.load(Relaxed), QUIET.len() as u64);
    assert!(calls.evals.load(Relaxed) > 1000);
    // An evaluator that calls everything even: with no mate in sight, every score the search
    // reports is 0, which it could not be if it evaluated anywhere else.
    let (pool, calls) = counting_pool(Some(0));
    for fen in QUIET {
        let o = run(&pool, fen, Limits::depth(6));
        assert_eq!(
            o.score, 0,
            "{fen}: the search saw an evaluation besides the evaluator's"
        );
    }
    assert!(calls.evals.load(Relaxed) > 100);
}
