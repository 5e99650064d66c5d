//! Lazy SMP: a pool of long-lived search threads sharing the transposition table and node
//! counters. `start` is called from the protocol's input thread and is the only place the stop
//! flag is cleared, so a `stop` that follows `go` can never be lost. The main thread (id 0)
//! reports; it prints the best move only after every helper has stopped, and never while
//! pondering or searching infinitely before `stop`/`ponderhit`.

use crate::limits::Limits;
use crate::tt::Tt;
use crate::worker::{ThreadResult, Worker};
use chess::{Board, Move};
use device::profile::{NoProbe, Probe};
use device::{Evaluator, MoveGenDevice, SoftwareEval};
use eval::nnue::Network;
use eval::Net;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Whether a new pool evaluates with the embedded network (`true`) or the hand-crafted
/// evaluation; whichever measured stronger (see the README).
pub const NNUE_BY_DEFAULT: bool = true;

/// How an `info` score relates to the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// The score is exact.
    Exact,
    /// The true score is at least this (`lowerbound`).
    Lower,
    /// The true score is at most this (`upperbound`).
    Upper,
}

/// One progress report (a UCI `info` line).
#[derive(Clone, Debug)]
pub struct Info {
    /// Iteration depth.
    pub depth: i32,
    /// Selective depth.
    pub seldepth: usize,
    /// 1-based line number.
    pub multipv: usize,
    /// Score in centipawns or a mate score (see `score`).
    pub score: i32,
    /// Bound type of `score`.
    pub bound: ScoreBound,
    /// Nodes of all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// TT fill in permille.
    pub hashfull: u32,
    /// Milliseconds since the clock started.
    pub time_ms: u64,
    /// Principal variation from the root.
    pub pv: Vec<Move>,
}

/// What the search tells its front end.
#[derive(Clone, Debug)]
pub enum Event {
    /// Progress.
    Info(Info),
    /// The final answer; `Move::NULL` when there is no legal move.
    BestMove {
        /// Move to play.
        best: Move,
        /// Expected reply (`Move::NULL` if unknown).
        ponder: Move,
        /// Its score.
        score: i32,
        /// Depth reached.
        depth: i32,
    },
}

/// Receives events with the root board (for move notation).
pub type Listener = Arc<dyn Fn(&Board, Event) + Send + Sync>;

/// Work the main thread does before alpha-beta, such as `go mate` through a proof-number
/// solver. It gets the root position, the pool's shared state (clock, stop flag) and the
/// limits alpha-beta will run under, which it may tighten for the time and nodes it used.
/// It returns the answer (an `Info` whose PV starts with the best move; the pool reports it,
/// then `bestmove`), or `None` to let alpha-beta search.
pub type PreSearch = Arc<dyn Fn(&Board, &Shared, &mut Limits) -> Option<Info> + Send + Sync>;

/// One search request.
#[derive(Clone)]
pub struct Job {
    /// Position the game started from.
    pub start: Board,
    /// Moves played since (they give the search its repetition history).
    pub moves: Vec<Move>,
    /// `go` limits.
    pub limits: Limits,
    /// Lines to report.
    pub multipv: usize,
    /// Milliseconds kept back from every move for communication.
    pub move_overhead: u64,
    /// Where events go.
    pub listener: Listener,
    /// The table to use.
    pub tt: Arc<Tt>,
}

#[repr(align(64))]
#[derive(Default)]
pub(crate) struct PaddedCounter(AtomicU64);

impl core::ops::Deref for PaddedCounter {
    type Target = AtomicU64;
    fn deref(&self) -> &AtomicU64 {
        &self.0
    }
}

/// State shared by all threads of a pool.
pub struct Shared {
    /// Set to end the search.
    pub stop: AtomicBool,
    /// True while pondering: no clock, no best move before `ponderhit` or `stop`.
    pub ponder: AtomicBool,
    epoch: Instant,
    start_ms: AtomicU64,
    pub(crate) nodes: Box<[PaddedCounter]>,
    /// The neural network the evaluation uses; `None`: the hand-crafted evaluation. Each
    /// thread reads it when a search starts.
    network: Mutex<Option<Net>>,
}

impl Shared {
    /// Milliseconds since the clock started (at `go`, or at `ponderhit`).
    pub fn elapsed_ms(&self) -> u64 {
        (self.epoch.elapsed().as_millis() as u64).saturating_sub(self.start_ms.load(Relaxed))
    }

    fn restart_clock(&self) {
        self.start_ms
            .store(self.epoch.elapsed().as_millis() as u64, Relaxed);
    }

    /// The network searches use (`None`: the hand-crafted evaluation).
    pub fn network(&self) -> Option<Net> {
        self.network.lock().ok().and_then(|n| n.clone())
    }

    /// Nodes searched by all threads in the current search.
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Relaxed)).sum()
    }
}

enum Task {
    Idle,
    Search(Arc<Job>, Option<PreSearch>),
    Clear,
}

struct Control {
    task: Task,
    /// Incremented per task so every thread runs each task once.
    serial: u64,
    /// Threads still busy with the current task.
    running: usize,
    quit: bool,
    results: Vec<ThreadResult>,
}

struct Sync2 {
    control: Mutex<Control>,
    wake: Condvar,
    done: Condvar,
}

/// A pool of search threads, each driving its own move-generator device.
pub struct ThreadPool {
    shared: Arc<Shared>,
    sync: Arc<Sync2>,
    handles: Vec<JoinHandle<()>>,
    tt: Arc<Tt>,
    /// Total nodes of the last finished search.
    last_nodes: Arc<AtomicU64>,
}

/// Picks the move most threads back, weighting each by depth and score (Lazy SMP's vote).
pub fn vote(results: &[ThreadResult]) -> usize {
    let valid: Vec<usize> = (0..results.len())
        .filter(|&i| results[i].best != Move::NULL && results[i].depth > 0)
        .collect();
    if valid.is_empty() {
        return 0;
    }
    let min_score = valid.iter().map(|&i| results[i].score).min().unwrap_or(0);
    let weight = |i: usize| (results[i].score - min_score + 14) as i64 * results[i].depth as i64;
    let mut best = valid[0];
    let mut best_votes = i64::MIN;
    for &i in &valid {
        let votes: i64 = valid
            .iter()
            .filter(|&&j| results[j].best == results[i].best)
            .map(|&j| weight(j))
            .sum();
        if votes > best_votes || (votes == best_votes && results[i].depth > results[best].depth) {
            best_votes = votes;
            best = i;
        }
    }
    best
}

impl ThreadPool {
    /// Starts `threads` search threads, each building its own move generator with `factory`
    /// and evaluating in software ([`SoftwareEval`]), sharing a `hash_mb` table.
    pub fn new<D, F>(threads: usize, hash_mb: usize, factory: F) -> ThreadPool
    where
        D: MoveGenDevice + 'static,
        F: Fn() -> D + Send + Sync + 'static,
    {
        ThreadPool::with_evaluator(threads, hash_mb, factory, SoftwareEval::default)
    }

    /// Starts `threads` search threads, each building its own move generator with `factory`
    /// and its own evaluator with `evaluators`, sharing a `hash_mb` table.
    pub fn with_evaluator<D, E, F, G>(
        threads: usize,
        hash_mb: usize,
        factory: F,
        evaluators: G,
    ) -> ThreadPool
    where
        D: MoveGenDevice + 'static,
        E: Evaluator + 'static,
        F: Fn() -> D + Send + Sync + 'static,
        G: Fn() -> E + Send + Sync + 'static,
    {
        ThreadPool::with_probe(threads, hash_mb, factory, evaluators, NoProbe)
    }

    /// As [`ThreadPool::with_evaluator`], each thread's units timed by a clone of `probe`
    /// (`estuary profile`).
    pub fn with_probe<D, E, P, F, G>(
        threads: usize,
        hash_mb: usize,
        factory: F,
        evaluators: G,
        probe: P,
    ) -> ThreadPool
    where
        D: MoveGenDevice + 'static,
        E: Evaluator + 'static,
        P: Probe + Clone + Send + 'static,
        F: Fn() -> D + Send + Sync + 'static,
        G: Fn() -> E + Send + Sync + 'static,
    {
        let threads = threads.max(1);
        let tt = Arc::new(Tt::new(hash_mb));
        let shared = Arc::new(Shared {
            stop: AtomicBool::new(false),
            ponder: AtomicBool::new(false),
            epoch: Instant::now(),
            start_ms: AtomicU64::new(0),
            nodes: (0..threads).map(|_| PaddedCounter::default()).collect(),
            network: Mutex::new(NNUE_BY_DEFAULT.then(|| Net::Nnue(Network::embedded()))),
        });
        let sync = Arc::new(Sync2 {
            control: Mutex::new(Control {
                task: Task::Idle,
                serial: 0,
                running: 0,
                quit: false,
                results: vec![ThreadResult::default(); threads],
            }),
            wake: Condvar::new(),
            done: Condvar::new(),
        });
        let factory = Arc::new(factory);
        let evaluators = Arc::new(evaluators);
        let last_nodes = Arc::new(AtomicU64::new(0));
        let handles = (0..threads)
            .map(|id| {
                let (shared, sync, factory, evaluators, tt, last_nodes, probe) = (
                    shared.clone(),
                    sync.clone(),
                    factory.clone(),
                    evaluators.clone(),
                    tt.clone(),
                    last_nodes.clone(),
                    probe.clone(),
                );
                std::thread::Builder::new()
                    .name(format!("search-{id}"))
                    .stack_size(32 << 20)
                    .spawn(move || {
                        let (dev, evaluator) = (factory(), evaluators());
                        let mut worker =
                            Worker::with_probe(id, dev, evaluator, probe, tt, shared.clone());
                        thread_loop(&mut worker, &shared, &sync, threads, &last_nodes);
                    })
                    .expect("spawning a search thread")
            })
            .collect();
        ThreadPool {
            shared,
            sync,
            handles,
            tt,
            last_nodes,
        }
    }

    /// Chooses the evaluation of the following searches: a network, or `None` for the
    /// hand-crafted one.
    pub fn set_network(&self, net: Option<Net>) {
        if let Ok(mut n) = self.shared.network.lock() {
            *n = net;
        }
    }

    /// Number of threads.
    pub fn threads(&self) -> usize {
        self.handles.len()
    }

    /// The shared table.
    pub fn tt(&self) -> &Arc<Tt> {
        &self.tt
    }

    /// Shared flags and counters.
    pub fn shared(&self) -> &Arc<Shared> {
        &self.shared
    }

    /// True while a task runs.
    pub fn is_searching(&self) -> bool {
        self.sync
            .control
            .lock()
            .map(|c| c.running > 0)
            .unwrap_or(false)
    }

    /// Blocks until no task runs.
    pub fn wait(&self) {
        let mut c = self.sync.control.lock().expect("pool lock");
        while c.running > 0 {
            c = self.sync.done.wait(c).expect("pool lock");
        }
    }

    fn launch(&self, task: Task) {
        let mut c = self.sync.control.lock().expect("pool lock");
        while c.running > 0 {
            c = self.sync.done.wait(c).expect("pool lock");
        }
        c.task = task;
        c.serial += 1;
        c.running = self.handles.len();
        self.sync.wake.notify_all();
    }

    /// Starts a search (waiting for any previous one to finish first). The stop flag is
    /// cleared here and nowhere else.
    pub fn start(&self, job: Job) {
        self.start_with(job, None);
    }

    /// Starts a search whose main thread first runs `pre` (see [`PreSearch`]); helpers start
    /// alpha-beta at once and stop with the main thread.
    pub fn start_with(&self, job: Job, pre: Option<PreSearch>) {
        self.wait();
        self.shared.stop.store(false, Relaxed);
        self.shared.ponder.store(job.limits.ponder, Relaxed);
        self.shared.restart_clock();
        for n in self.shared.nodes.iter() {
            n.store(0, Relaxed);
        }
        job.tt.new_search();
        self.launch(Task::Search(Arc::new(job), pre));
    }

    /// Asks the running search to stop (it still reports its best move).
    pub fn stop(&self) {
        self.shared.stop.store(true, Relaxed);
    }

    /// The opponent played the expected move: the clock starts now.
    pub fn ponderhit(&self) {
        self.shared.restart_clock();
        self.shared.ponder.store(false, Relaxed);
    }

    /// Clears the table and every thread's history (new game); waits for it.
    pub fn clear(&self) {
        self.wait();
        self.tt.clear();
        self.launch(Task::Clear);
        self.wait();
    }

    /// Nodes of the last finished search.
    pub fn last_nodes(&self) -> u64 {
        self.last_nodes.load(Relaxed)
    }

    /// Runs a search and blocks until it has reported its best move.
    pub fn search_sync(&self, job: Job) {
        self.start(job);
        self.wait();
    }
}

fn thread_loop<D: MoveGenDevice, E: Evaluator, P: Probe>(
    worker: &mut Worker<D, E, P>,
    shared: &Shared,
    sync: &Sync2,
    threads: usize,
    last_nodes: &AtomicU64,
) {
    let mut seen = 0u64;
    loop {
        let task = {
            let mut c = sync.control.lock().expect("pool lock");
            while c.serial == seen && !c.quit {
                c = sync.wake.wait(c).expect("pool lock");
            }
            if c.quit {
                return;
            }
            seen = c.serial;
            match &c.task {
                Task::Search(job, pre) => Task::Search(job.clone(), pre.clone()),
                Task::Clear => Task::Clear,
                Task::Idle => Task::Idle,
            }
        };
        match task {
            Task::Search(job, pre) => {
                let (result, answered) = match (worker.id, pre) {
                    (0, Some(pre)) => pre_then_search(worker, &job, &pre, shared),
                    _ => (worker.run(&job), None),
                };
                if worker.id == 0 {
                    // Hold the answer while pondering or in an infinite search until told.
                    while !shared.stop.load(Relaxed)
                        && (shared.ponder.load(Relaxed) || job.limits.infinite)
                    {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    shared.stop.store(true, Relaxed);
                    let mut c = sync.control.lock().expect("pool lock");
                    c.results[0] = result;
                    while c.running > 1 {
                        c = sync.done.wait(c).expect("pool lock");
                    }
                    let r = if answered.is_some() {
                        result
                    } else {
                        let r = c.results[vote(&c.results[..threads])];
                        if r.best == result.best {
                            result
                        } else {
                            r
                        }
                    };
                    last_nodes.store(shared.total_nodes(), Relaxed);
                    drop(c);
                    (job.listener)(
                        &answered.unwrap_or_else(|| worker.root()),
                        Event::BestMove {
                            best: r.best,
                            ponder: r.ponder,
                            score: r.score,
                            depth: r.depth,
                        },
                    );
                    let mut c = sync.control.lock().expect("pool lock");
                    c.running -= 1;
                    sync.done.notify_all();
                } else {
                    let mut c = sync.control.lock().expect("pool lock");
                    c.results[worker.id] = result;
                    c.running -= 1;
                    sync.done.notify_all();
                }
            }
            Task::Clear => {
                worker.clear();
                let mut c = sync.control.lock().expect("pool lock");
                c.running -= 1;
                sync.done.notify_all();
            }
            Task::Idle => {}
        }
    }
}

/// The main thread with a pre-search: its answer is reported and stands (returned with the
/// root it was found from); without one, alpha-beta runs under the limits it left.
fn pre_then_search<D: MoveGenDevice, E: Evaluator, P: Probe>(
    worker: &mut Worker<D, E, P>,
    job: &Job,
    pre: &PreSearch,
    shared: &Shared,
) -> (ThreadResult, Option<Board>) {
    let mut root = job.start;
    for &m in &job.moves {
        root.play(m);
    }
    let mut limits = job.limits.clone();
    match pre(&root, shared, &mut limits) {
        Some(info) if !info.pv.is_empty() => {
            let result = ThreadResult {
                best: info.pv[0],
                ponder: info.pv.get(1).copied().unwrap_or(Move::NULL),
                score: info.score,
                depth: info.depth,
            };
            (job.listener)(&root, Event::Info(info));
            (result, Some(root))
        }
        _ => {
            let fallback = Job {
                limits,
                ..job.clone()
            };
            (worker.run(&fallback), None)
        }
    }
}

impl Drop for ThreadPool {
    fn drop(&mut self) {
        self.stop();
        if let Ok(mut c) = self.sync.control.lock() {
            c.quit = true;
            self.sync.wake.notify_all();
        }
        for h in self.handles.drain(..) {
            let _ = h.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::Board;

    fn mv(uci: &str) -> Move {
        Board::startpos()
            .parse_uci_move(uci)
            .expect("a legal start move")
    }

    fn r(best: &str, score: i32, depth: i32) -> ThreadResult {
        ThreadResult {
            best: if best.is_empty() {
                Move::NULL
            } else {
                mv(best)
            },
            ponder: Move::NULL,
            score,
            depth,
        }
    }

    #[test]
    fn the_vote_weighs_threads_by_depth_and_score() {
        // One thread: its own answer.
        assert_eq!(vote(&[r("e2e4", 10, 5)]), 0);
        // No thread finished an iteration: the main thread's (empty) answer.
        assert_eq!(vote(&[r("", 0, 0), r("", 0, 0)]), 0);
        // Results with no move or no completed depth have no vote.
        assert_eq!(vote(&[r("", 0, 0), r("d2d4", 5, 3)]), 1);
        assert_eq!(vote(&[r("e2e4", 50, 0), r("d2d4", 5, 3)]), 1);
        // Two threads backing d2d4 outvote one on e2e4 at the same depth and score...
        let rs = [r("e2e4", 20, 10), r("d2d4", 20, 10), r("d2d4", 20, 10)];
        assert_eq!(results_move(&rs, vote(&rs)), mv("d2d4"));
        // ...but not a much deeper, better-scoring one: weights are
        // (score - min + 14) * depth: e2e4 (100 - 0 + 14) * 20 = 2280 against 2 * 14 * 10 = 280.
        let rs = [r("d2d4", 0, 10), r("e2e4", 100, 20), r("d2d4", 0, 10)];
        assert_eq!(results_move(&rs, vote(&rs)), mv("e2e4"));
        // A tie in votes goes to the deeper thread.
        let rs = [r("d2d4", 0, 4), r("e2e4", 0, 8), r("d2d4", 0, 4)];
        assert_eq!(vote(&rs), 1);
        let rs = [r("e2e4", 0, 6), r("e2e4", 0, 9)];
        assert_eq!(vote(&rs), 1);
    }

    fn results_move(rs: &[ThreadResult], i: usize) -> Move {
        rs[i].best
    }
}
