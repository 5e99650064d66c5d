//! `go mate N` through the df-pn solver of `crates/mate`: run on the main search thread
//! before alpha-beta (a [`PreSearch`]), it looks for the shortest mate within `2N - 1` plies
//! and answers with its exact distance and line. When it finds none (no mate that short, or
//! out of its share of the limits) alpha-beta searches as for any other `go`.

use crate::Output;
use chess::Board;
use mate::{ChessMate, MateSolver, Stats, Verdict};
use search::score::MATE;
use search::{Info, Limits, PreSearch, ScoreBound, Shared, TimeBudget};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// Nodes for the solver, and afterwards for alpha-beta, when `go mate` comes without a time,
/// node or depth limit (and is not `infinite`): a few seconds each.
pub const UNBOUNDED_MATE_NODES: u64 = 2_000_000;

/// Largest solver table, MB (it otherwise takes the `Hash` size).
const MAX_TABLE_MB: usize = 256;

/// The solver's share of the limits: half the soft time and half the nodes, the rest left to
/// the fallback search (`limits` is updated). Returns (nodes, time) for the solver.
fn split_limits(limits: &mut Limits, plan: TimeBudget, elapsed_ms: u64) -> (u64, Option<Duration>) {
    if limits.infinite {
        return (u64::MAX, None);
    }
    let time = plan
        .soft
        .map(|t| Duration::from_millis((t / 2).saturating_sub(elapsed_ms).max(1)));
    let nodes = match limits.nodes {
        Some(n) => {
            let share = n / 2;
            limits.nodes = Some((n - share).max(1));
            share.max(1)
        }
        None if time.is_some() => u64::MAX,
        None if limits.depth.is_some() => UNBOUNDED_MATE_NODES,
        None => {
            limits.nodes = Some(UNBOUNDED_MATE_NODES);
            UNBOUNDED_MATE_NODES
        }
    };
    (nodes, time)
}

/// The pre-search for `go mate n`: `stop` is the solver's stop flag (set with the pool's),
/// `out` receives its progress lines about once a second.
pub fn pre_search(
    n: u32,
    hash_mb: usize,
    overhead: u64,
    stop: Arc<AtomicBool>,
    out: Output,
) -> PreSearch {
    Arc::new(move |root: &Board, shared: &Shared, limits: &mut Limits| {
        if !root.has_legal_move() {
            return None;
        }
        let plan = TimeBudget::plan(limits, root.side_to_move(), overhead);
        let (nodes, time) = split_limits(limits, plan, shared.elapsed_ms());
        let mut solver = MateSolver::new(mate::Limits {
            nodes,
            time,
            table_bytes: hash_mb.min(MAX_TABLE_MB) << 20,
        });
        solver.set_stop_flag(stop.clone());
        let progress = out.clone();
        solver.set_progress(Box::new(move |s: &Stats| {
            progress(&format!(
                "info nodes {} nps {} hashfull {} time {}",
                s.nodes,
                s.nps(),
                s.table_fill_permille,
                s.time.as_millis()
            ))
        }));
        let plies = n.saturating_mul(2).saturating_sub(1).max(1);
        let sol = solver.solve_within(&ChessMate::new(*root), plies);
        if sol.verdict != Verdict::Mate || sol.line.is_empty() {
            return None;
        }
        let len = sol.line.len() as i32;
        Some(Info {
            depth: len,
            seldepth: sol.line.len(),
            multipv: 1,
            score: MATE - len,
            bound: ScoreBound::Exact,
            nodes: sol.stats.nodes,
            nps: sol.stats.nps(),
            hashfull: sol.stats.table_fill_permille as u32,
            time_ms: shared.elapsed_ms(),
            pv: sol.line,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_solver_gets_half_of_each_limit() {
        let split = |l: &mut Limits, elapsed: u64| {
            let plan = TimeBudget::plan(l, chess::Color::White, 0);
            split_limits(l, plan, elapsed)
        };
        let mut l = Limits {
            nodes: Some(1001),
            mate: Some(3),
            ..Limits::default()
        };
        assert_eq!(split(&mut l, 0), (500, None));
        assert_eq!(l.nodes, Some(501));
        let mut l = Limits::movetime(1000);
        let (n, t) = split(&mut l, 100);
        assert_eq!((n, t), (u64::MAX, Some(Duration::from_millis(400))));
        assert_eq!(l.nodes, None);
        let mut l = Limits::default();
        assert_eq!(split(&mut l, 0).0, UNBOUNDED_MATE_NODES);
        assert_eq!(l.nodes, Some(UNBOUNDED_MATE_NODES));
        let mut l = Limits {
            infinite: true,
            ..Limits::default()
        };
        assert_eq!(split(&mut l, 0), (u64::MAX, None));
    }
}
