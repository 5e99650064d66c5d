//! One position's evaluation by the engine: a search on a pool kept for the whole analysis.

use chess::{Board, Move, Position};
use search::score::MATE;
use search::{Event, Job, Limits, Listener, ThreadPool};
use std::sync::{Arc, Mutex};

/// What the engine thinks of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// The score from the side to move's view: centipawns, or a mate score of
    /// [`search::score`] (`-MATE` in a position that is checkmate, 0 in stalemate).
    pub score: i32,
    /// Depth of the search's last iteration (0 for a position with no legal move).
    pub depth: i32,
    /// The principal variation, its first move the engine's choice; empty when there is no
    /// legal move.
    pub pv: Vec<Move>,
}

impl Evaluation {
    /// The engine's choice, if the position has a legal move.
    pub fn best(&self) -> Option<Move> {
        self.pv.first().copied()
    }
}

/// What the listener collects during one search.
#[derive(Default)]
struct Report {
    /// The last principal variation reported (multipv 1) with its score and depth.
    pv: Vec<Move>,
    /// The final answer: move, score, depth.
    best: Option<(Move, i32, i32)>,
}

/// Searches positions one at a time under fixed limits, on a pool of search threads that
/// keeps its table between the positions of a game.
pub struct Analyser {
    pool: ThreadPool,
    limits: Limits,
    report: Arc<Mutex<Report>>,
    listener: Listener,
}

impl Analyser {
    /// An analyser with `threads` search threads and a `hash_mb` table, searching every
    /// position under `limits` (a node count or a move time, typically).
    pub fn new(threads: usize, hash_mb: usize, limits: Limits) -> Analyser {
        let report = Arc::new(Mutex::new(Report::default()));
        let sink = report.clone();
        let listener: Listener = Arc::new(move |_: &Board, ev: Event| {
            let Ok(mut r) = sink.lock() else { return };
            match ev {
                Event::Info(i) if i.multipv == 1 && !i.pv.is_empty() => r.pv = i.pv,
                Event::Info(_) => {}
                Event::BestMove {
                    best, score, depth, ..
                } => r.best = Some((best, score, depth)),
            }
        });
        Analyser {
            pool: ThreadPool::new(threads, hash_mb, device::SoftwareDevice::default),
            limits,
            report,
            listener,
        }
    }

    /// Forgets what earlier games taught the table and the histories, so each game's
    /// analysis is the same whatever came before it.
    pub fn new_game(&self) {
        self.pool.clear();
    }

    /// Evaluates the position after `moves` from `start` (the moves give the search its
    /// repetition history). A position with no legal move is scored by the rules without a
    /// search.
    pub fn evaluate(&self, start: &Board, moves: &[Move]) -> Evaluation {
        let mut pos = Position::new(*start);
        for &m in moves {
            pos.make(m);
        }
        if !pos.has_legal_move() {
            let score = if pos.in_check() { -MATE } else { 0 };
            return Evaluation {
                score,
                depth: 0,
                pv: Vec::new(),
            };
        }
        if let Ok(mut r) = self.report.lock() {
            *r = Report::default();
        }
        self.pool.search_sync(Job {
            start: *start,
            moves: moves.to_vec(),
            limits: self.limits.clone(),
            multipv: 1,
            move_overhead: 0,
            listener: self.listener.clone(),
            tt: self.pool.tt().clone(),
        });
        let report = self
            .report
            .lock()
            .map(|mut r| std::mem::take(&mut *r))
            .unwrap_or_default();
        let (best, score, depth) = report.best.unwrap_or((Move::NULL, 0, 0));
        // The reported line stands when it starts with the answer; a search stopped part way
        // through an iteration may answer with a move whose line was never reported.
        let pv = match report.pv.first() {
            Some(&m) if m == best => report.pv,
            _ if best != Move::NULL => vec![best],
            _ => Vec::new(),
        };
        Evaluation { score, depth, pv }
    }
}
