//! Several search cores over one position, as Deep Blue and Hydra scaled: a splitter hands
//! the cores root moves (issue 19, item 4). A model, not RTL: one core fills the LFE5U-85F
//! (docs/chip.md), so this says what more cores would buy on a larger device.
//!
//! Each iteration searches the root as [`Machine::go`] does (aspiration window from depth 5,
//! PVS), but its moves go to whichever core is free first: the first move (last iteration's
//! best) to core 0 with the window while the others wait for its score (young brothers
//! wait), then every other move to the core that is idle earliest, with a null window at the
//! best score known *in that clock*, and a re-search with the window on the same core when it
//! fails high inside it. A move's result counts from the clock its core finishes it; a
//! score at or above beta ends the window in that clock (the other cores are stopped there).
//!
//! The simulation is exact in clocks and deterministic: each hand-off runs the core's subtree
//! to its end at once, and hand-offs go in the order of their clocks, so every score a
//! hand-off may see is known when it is made. The transposition table is one of two bounds
//! on what the chip's would do, as [`Table`] says: each core its own (a move searched on
//! another core than last iteration's finds less in its table: the pessimistic bound), or
//! one table shared in the order of the hand-offs (a subtree sees all of every subtree handed
//! out before it, also the parts another core would reach only later: the optimistic bound;
//! a table shared clock by clock would need the subtrees interleaved). A core stopped by a
//! cutoff is modelled as having finished its subtree (the table keeps its entries), which
//! only an aspiration fail-high at the root makes happen. With one core the search visits
//! GO's tree node for node. With the SDRAM table ([`Config::sdram`]) each core reads and
//! writes in the clocks of a controller of its own: a device with one SDRAM would make the
//! cores wait for each other there, which this model does not count.

use super::search::{ASPIRATION_CP, ASPIRATION_DEPTH, INF};
use super::tt;
use super::*;
use crate::movegen::stream;
use chess::{Board, Move, MoveList};
use eval::chip::ChipNet;
use std::sync::Arc;

/// Clocks for the splitter to hand an idle core a root move (read from the root list, sent).
pub const HAND_CLOCKS: u64 = 2;

/// One completed iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// The iteration's depth.
    pub depth: u32,
    /// The score from the root's side.
    pub score: i32,
    /// The best move and the line below it (from the core that searched it).
    pub pv: Vec<Move>,
    /// Nodes of all cores since GO, the root's windows included.
    pub nodes: u64,
    /// The clock the iteration's last window ended: its time to depth.
    pub clocks: u64,
}

/// What a search on the cores found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The best move of the last iteration; none with no legal move.
    pub best: Option<Move>,
    /// Every completed iteration, shallowest first.
    pub iterations: Vec<Iteration>,
    /// Clocks the cores spent searching, added over the cores (their use: this over the
    /// cores x the last iteration's clocks).
    pub busy: u64,
}

/// Which transposition table the cores search with.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Table {
    /// Each core its own.
    Private,
    /// One for all, shared in the order of the hand-offs.
    Shared,
}

/// The search cores, each a [`Machine`].
pub struct Cores {
    cores: Vec<Machine>,
    root: Board,
    /// The shared table (between hand-offs; a core holds it during one).
    shared: Option<tt::Table>,
}

/// What one window of an iteration gives: the best move with its score and line (none
/// when every move failed low), and the clock the window ended.
struct Window {
    best: Option<(i32, Vec<Move>)>,
    end: u64,
}

impl Cores {
    /// `n` cores (at least one), each running `net` with `config` (the table's size is the
    /// shared table's too).
    pub fn new(
        n: usize,
        net: Arc<ChipNet>,
        config: Config,
        table: Table,
    ) -> Result<Cores, NotForChip> {
        let cores = (0..n.max(1))
            .map(|_| Machine::new(net.clone(), config))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Cores {
            cores,
            root: Board::startpos(),
            shared: (table == Table::Shared).then(|| tt::Table::new(config.tt_entries)),
        })
    }

    /// How many cores.
    pub fn len(&self) -> usize {
        self.cores.len()
    }

    /// Never: there is at least one core.
    pub fn is_empty(&self) -> bool {
        self.cores.is_empty()
    }

    /// Clears every table and every core's killers (a new game).
    pub fn clear(&mut self) {
        self.cores.iter_mut().for_each(Machine::clear);
        if let Some(t) = self.shared.as_mut() {
            t.clear();
        }
    }

    /// Loads the position into every core, with the game before it (oldest first).
    pub fn load(&mut self, board: &Board, history: &[Board]) {
        self.root = *board;
        self.cores.iter_mut().for_each(|c| c.load(board, history));
    }

    /// Iterative deepening to `depth` on the cores; clocks count from the load.
    pub fn go(&mut self, depth: u32) -> Outcome {
        let root = self.root;
        let mut list = MoveList::new();
        stream::stream_order(&root, false, &mut list);
        let n = list.len();
        let mut t = LOAD_CLOCKS + stream::generate_clocks(&root, n as u64) + GEN_DONE_CLOCKS;
        let mut out = Outcome::default();
        if n == 0 {
            return out;
        }
        self.cores.iter_mut().for_each(Machine::begin_split);
        let mut roots: Vec<Move> = list.iter().copied().collect();
        let mut nodes = 0u64;
        let mut last_score: i32 = 0;
        for depth in 1..=depth.clamp(1, MAX_PLY as u32 - 1) {
            let mut window = if depth >= ASPIRATION_DEPTH && last_score.abs() < MATE_BOUND {
                (last_score - ASPIRATION_CP, last_score + ASPIRATION_CP)
            } else {
                (-INF, INF)
            };
            let (score, pv, end) = loop {
                nodes += 1;
                t += WINDOW_CLOCKS;
                let w = self.window(&roots, depth, window, t, &mut nodes, &mut out.busy);
                t = w.end + WINDOW_CLOCKS;
                let (lo, beta) = window;
                match w.best {
                    Some((s, pv)) if (s > lo && s < beta) || window == (-INF, INF) => {
                        break (s, pv, w.end)
                    }
                    _ => window = (-INF, INF),
                }
            };
            let best = pv[0];
            out.best = Some(best);
            out.iterations.push(Iteration {
                depth,
                score,
                pv,
                nodes,
                clocks: end,
            });
            last_score = score;
            let at = roots.iter().position(|r| *r == best).unwrap_or(0);
            roots[..=at].rotate_right(1);
            t += 2 * at as u64 + ITERATION_CLOCKS;
            let plies = mate_in(score).map(|k| if k > 0 { 2 * k - 1 } else { -2 * k });
            if plies.is_some_and(|p| p as u32 <= depth) {
                break;
            }
        }
        out
    }

    /// One window of an iteration over the root moves, from clock `start`.
    fn window(
        &mut self,
        roots: &[Move],
        depth: u32,
        (lo, beta): (i32, i32),
        start: u64,
        nodes: &mut u64,
        busy: &mut u64,
    ) -> Window {
        let shared = &mut self.shared;
        let mut run = |core: &mut Machine, m: Move, a: i32, b: i32, at: u64| {
            if let Some(t) = shared.as_mut() {
                core.swap_table(t);
            }
            let r = core.search_root_move(m, depth, a, b, at);
            if let Some(t) = shared.as_mut() {
                core.swap_table(t);
            }
            *nodes += r.nodes;
            *busy += r.done - at;
            r
        };
        // The first move on core 0 with the window. With the full window the others wait for
        // its score (young brothers wait); in an aspiration window they start at once with
        // a null window at its lower bound, a bound the first move's score can only raise.
        let first = run(&mut self.cores[0], roots[0], lo, beta, start + HAND_CLOCKS);
        let wait = if lo == -INF { first.done } else { start };
        let mut free = vec![wait; self.cores.len()];
        free[0] = first.done;
        // Results not yet seen: (clock, hand-off order, score, line).
        let mut pending = vec![(first.done, 0, first.score, first.pv)];
        let (mut alpha, mut best, mut cut) = (lo, None, None);
        for (i, &m) in roots.iter().enumerate().skip(1) {
            let c = (0..free.len()).min_by_key(|&c| (free[c], c)).unwrap_or(0);
            let at = free[c];
            see(&mut pending, at, &mut alpha, &mut best, beta, &mut cut);
            if cut.is_some() {
                break;
            }
            let core = &mut self.cores[c];
            let mut r = run(core, m, alpha, alpha + 1, at + HAND_CLOCKS);
            if r.score > alpha && r.score < beta {
                // Failed high: against the best score known by now, if that rose meanwhile,
                // with a null window first, then with the window.
                let now = pending
                    .iter()
                    .filter(|p| p.0 <= r.done)
                    .map(|p| p.2)
                    .fold(alpha, i32::max);
                if now > alpha && now < beta {
                    r = run(core, m, now, now + 1, r.done);
                }
                if r.score > now && r.score < beta {
                    r = run(core, m, now, beta, r.done);
                }
            }
            free[c] = r.done;
            pending.push((r.done, i, r.score, r.pv));
        }
        see(
            &mut pending,
            u64::MAX,
            &mut alpha,
            &mut best,
            beta,
            &mut cut,
        );
        Window {
            best,
            end: cut.unwrap_or_else(|| free.iter().copied().max().unwrap_or(start)),
        }
    }
}

/// Takes in the results done by clock `now`, in the order of their clocks: a score above
/// alpha raises it; one at or above beta ends the window in its clock (`cut`), and later
/// results are not seen.
fn see(
    pending: &mut Vec<(u64, usize, i32, Vec<Move>)>,
    now: u64,
    alpha: &mut i32,
    best: &mut Option<(i32, Vec<Move>)>,
    beta: i32,
    cut: &mut Option<u64>,
) {
    pending.sort_by_key(|p| (p.0, p.1));
    let ready = pending.partition_point(|p| p.0 <= now);
    for (done, _, score, pv) in pending.drain(..ready) {
        if cut.is_some() {
            continue;
        }
        if score > *alpha {
            *alpha = score;
            *best = Some((score, pv));
            if score >= beta {
                *cut = Some(done);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn net() -> Arc<ChipNet> {
        ChipNet::embedded_pure()
    }

    fn positions() -> impl Iterator<Item = Board> {
        crate::movegen::traffic::FOUR_POSITIONS
            .iter()
            .map(|(_, fen)| Board::from_fen(fen).unwrap())
    }

    #[test]
    fn one_core_searches_gos_tree() {
        let config = Config {
            tt_entries: 1 << 12,
            ..Config::default()
        };
        for b in positions() {
            let fen = b.to_fen();
            let mut m = Machine::new(net(), config).unwrap();
            m.load(&b, &[]);
            let mut reports = Vec::new();
            let go = m.go(
                Limits {
                    depth: 6,
                    ..Limits::default()
                },
                |r| reports.push(r.clone()),
            );
            for table in [Table::Private, Table::Shared] {
                let mut cores = Cores::new(1, net(), config, table).unwrap();
                cores.load(&b, &[]);
                let split = cores.go(6);
                assert_eq!(split.best, go.best, "{fen}");
                assert_eq!(split.iterations.len(), reports.len(), "{fen}");
                for (it, r) in split.iterations.iter().zip(&reports) {
                    assert_eq!((it.depth, it.score), (r.depth, r.score), "{fen}");
                    assert_eq!(it.nodes, r.nodes, "{fen} depth {}", r.depth);
                    assert_eq!(it.pv, r.pv, "{fen} depth {}", r.depth);
                }
            }
        }
    }

    #[test]
    fn more_cores_reach_the_depth_sooner_with_a_legal_line() {
        let config = Config {
            tt_entries: 1 << 12,
            ..Config::default()
        };
        let mut clocks = Vec::new();
        let mut total = [0u64; 3];
        for b in positions() {
            let fen = b.to_fen();
            let runs = [(1, Table::Private), (4, Table::Private), (4, Table::Shared)];
            for (k, (n, table)) in runs.into_iter().enumerate() {
                let mut cores = Cores::new(n, net(), config, table).unwrap();
                cores.load(&b, &[]);
                let out = cores.go(6);
                let last = out.iterations.last().unwrap();
                let mut pos = b;
                for &m in &last.pv {
                    assert!(pos.legal_moves().contains(m), "{fen}: {m:?}");
                    pos = pos.played(m);
                }
                total[k] += last.clocks;
                clocks.push(last.clocks);
            }
        }
        assert!(total[1] < total[0], "{total:?} {clocks:?}");
        assert!(total[2] < total[0], "{total:?} {clocks:?}");
    }

    #[test]
    fn no_move_is_no_search() {
        let mut cores = Cores::new(2, net(), Config::default(), Table::Shared).unwrap();
        cores.load(
            &Board::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap(),
            &[],
        );
        let out = cores.go(4);
        assert_eq!(out.best, None);
        assert!(out.iterations.is_empty());
    }
}
