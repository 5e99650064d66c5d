//! Estuary's alpha-beta chess search.
//!
//! Negamax principal-variation search in iterative deepening with aspiration windows,
//! quiescence on the captures-only generator (evasions in check), a lockless transposition
//! table, null-move, reverse-futility, futility and late-move pruning, late-move reductions,
//! check extension, mate-distance pruning and staged move ordering; Lazy SMP over a pool of
//! long-lived threads.
//!
//! The search reaches move generation only through [`device::MoveGenDevice`] and evaluation
//! only through [`device::Evaluator`], generic over both backends, so the software ones cost
//! nothing and a co-simulated or accelerated one plugs in unchanged (each thread builds its
//! own devices from factories: [`ThreadPool::new`] for the software evaluation,
//! [`ThreadPool::with_evaluator`] for any other).
//!
//! ```no_run
//! use search::{Job, Limits, ThreadPool, Event};
//! use std::sync::Arc;
//! let pool = ThreadPool::new(1, 16, || device::SoftwareDevice::default());
//! let listener: search::Listener = Arc::new(|_root, ev| {
//!     if let Event::BestMove { best, .. } = ev { println!("{best:?}") }
//! });
//! pool.search_sync(Job { start: chess::Board::startpos(), moves: vec![], limits: Limits::depth(6),
//!     multipv: 1, move_overhead: 0, listener, tt: pool.tt().clone() });
//! ```

pub mod bench;
pub mod history;
pub mod limits;
pub mod movepick;
pub mod profile;
pub mod score;
pub mod see;
pub mod selfplay;
pub mod threads;
pub mod tt;
pub mod wdl;
pub mod worker;

pub use limits::{IterationSignals, Limits, TimeBudget};
pub use threads::{
    vote, Event, Info, Job, Listener, PreSearch, ScoreBound, Shared, ThreadPool, NNUE_BY_DEFAULT,
};
pub use tt::Tt;
pub use worker::{RootMove, ThreadResult, Worker};
