//! The mate line tsume convention asks for: the attacker's shortest mate against the
//! defender's longest resistance, futile interpositions (muda-ai) not counted.
//!
//! After df-pn proves the root, a second solver with a ply limit and its own table finds the
//! shortest length: a proof of length `l` is followed by a search limited to `l - 2` until
//! that fails. In limited searches a drop between the king and a lone long-range checker is
//! futile, and skipped, when the position with the checker moved onto the drop square is
//! mate within the same number of plies (the drop changes nothing but adds two plies).
//! The line is then read move by move: the attacker plays a check that mates within the
//! plies left, the defender a non-futile evasion that is not mated two plies sooner.

use crate::dfpn::{Limits, Solver, Stats, Verdict};
use crate::game::MateGame;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The answer for one problem.
#[derive(Clone, Debug)]
pub struct Solution<M> {
    /// Mate, no mate, or unknown (a limit was hit).
    pub verdict: Verdict,
    /// The mate line (empty unless mate).
    pub line: Vec<M>,
    /// True when the line is proven shortest (against longest resistance).
    pub shortest: bool,
    /// Counters of both searches together.
    pub stats: Stats,
    /// Of `stats.nodes`, the nodes spent finding the shortest line.
    pub line_nodes: u64,
}

/// A reusable solver pair: the main df-pn and the ply-limited one for the shortest line.
pub struct MateSolver<G: MateGame> {
    main: Solver<G>,
    limited: Solver<G>,
    limits: Limits,
}

impl<G: MateGame> MateSolver<G> {
    /// Two solvers sharing `limits.table_bytes` (three quarters to the main search).
    pub fn new(limits: Limits) -> MateSolver<G> {
        let main_bytes = limits.table_bytes / 4 * 3;
        let mut l = limits.clone();
        l.table_bytes = main_bytes;
        let mut l2 = limits.clone();
        l2.table_bytes = limits.table_bytes - main_bytes;
        MateSolver {
            main: Solver::new(l),
            limited: Solver::new(l2),
            limits,
        }
    }

    /// Whether futile interpositions (muda-ai) are left out of the length. Off by default:
    /// on the tanuki collection, counting every interposition matches more published
    /// lengths (1952 of 1979) than this rule (1928): see the README.
    pub fn set_skip_futile(&mut self, on: bool) {
        self.limited.skip_futile = on;
    }

    /// Bytes held by both tables.
    pub fn table_bytes(&self) -> usize {
        self.main.table_bytes() + self.limited.table_bytes()
    }

    /// Shares `flag` as the stop flag of both solvers.
    pub fn set_stop_flag(&mut self, flag: Arc<AtomicBool>) {
        self.main.set_stop_flag(flag.clone());
        self.limited.set_stop_flag(flag);
    }

    /// Changes the node and time limits.
    pub fn set_limits(&mut self, nodes: u64, time: Option<Duration>) {
        self.limits.nodes = nodes;
        self.limits.time = time;
    }

    /// Solves `root` from scratch (tables cleared) and extracts the line.
    pub fn solve(&mut self, root: &G) -> Solution<G::Move> {
        let start = Instant::now();
        self.main.clear();
        self.limited.clear();
        self.main.set_limits(self.limits.nodes, self.limits.time);
        let verdict = self.main.solve(root);
        let mut stats = self.main.stats();
        if verdict != Verdict::Mate {
            stats.time = start.elapsed();
            return Solution {
                verdict,
                line: Vec::new(),
                shortest: false,
                stats,
                line_nodes: 0,
            };
        }
        let (_, _, _, upper) = self.main.probe(root, 0);
        // Budget for the line: what is left of the limits, at least as much again as the
        // proof took when there is no limit.
        let nodes_left = self
            .limits
            .nodes
            .saturating_sub(stats.nodes)
            .max(stats.nodes * 4 + 100_000);
        let time_left = self
            .limits
            .time
            .map(|t| t.saturating_sub(start.elapsed()).max(t / 2));
        self.limited.set_limits(nodes_left, time_left);
        self.limited.begin();
        let line = self.shortest_line(root, upper as u32);
        let shortest = line.is_some();
        let line = match line {
            Some(l) => l,
            None => self.table_line(root),
        };
        let ls = self.limited.stats();
        stats.nodes += ls.nodes;
        stats.time = start.elapsed();
        Solution {
            verdict,
            line,
            shortest,
            stats,
            line_nodes: ls.nodes,
        }
    }

    /// The shortest line by ply-limited searches with growing limits 1, 3, 5 ... up to the
    /// length of the proof df-pn found (results at each remaining depth are kept and
    /// reused), or `None` when none succeeds within that or the budget.
    fn shortest_line(&mut self, root: &G, upper: u32) -> Option<Vec<G::Move>> {
        let mut limit = 1;
        while limit <= upper.max(1) {
            self.limited.set_depth_limit(Some(limit));
            let (pn, dn, _) = self.limited.prove_at(root, true, 0);
            if self.limited.aborted() {
                return None;
            }
            if pn == 0 {
                return self.read_line(root, limit);
            }
            if dn != 0 {
                return None;
            }
            limit += 2;
        }
        None
    }

    /// Reads the line at exact length `e` from the ply-limited solver.
    fn read_line(&mut self, root: &G, e: u32) -> Option<Vec<G::Move>> {
        let mut line = Vec::new();
        let mut g = root.clone();
        let mut moves = Vec::new();
        for ply in 0..e {
            let or_node = ply % 2 == 0;
            if or_node {
                g.attacker_moves(&mut moves);
                let mut pick = None;
                // Children the limited search proved are in its table; search the others only
                // when none is.
                for &m in moves.iter() {
                    let (pn, _, _, len) = self.limited.probe(&g.after(m), ply + 1);
                    if pn == 0 && pick.is_none_or(|(_, l)| len < l) {
                        pick = Some((m, len));
                    }
                }
                for &m in moves.iter() {
                    if pick.is_some() {
                        break;
                    }
                    let c = g.after(m);
                    let (pn, _, len) = self.limited.prove_at(&c, false, ply + 1);
                    if self.limited.aborted() {
                        return None;
                    }
                    if pn == 0 && pick.is_none_or(|(_, l)| len < l) {
                        pick = Some((m, len));
                    }
                }
                let (m, _) = pick?;
                line.push(m);
                g = g.after(m);
            } else {
                g.defender_moves(&mut moves);
                let remaining = e - ply;
                let mut pick = None;
                for &m in moves.iter() {
                    let futile = if self.limited.skip_futile {
                        g.checker_moved_to_interposition(m)
                    } else {
                        None
                    };
                    if let Some(c) = futile {
                        let (pn, _, _) = self.limited.prove_at(&c, false, ply);
                        if pn == 0 {
                            continue;
                        }
                    }
                    let c = g.after(m);
                    // Longest resistance: not mated within `remaining - 3` plies.
                    let quick = if remaining >= 3 {
                        self.limited.prove_at(&c, true, ply + 3).0 == 0
                    } else {
                        false
                    };
                    if self.limited.aborted() {
                        return None;
                    }
                    if !quick {
                        pick = Some(m);
                        break;
                    }
                    pick = pick.or(Some(m));
                }
                match pick {
                    Some(m) => {
                        line.push(m);
                        g = g.after(m);
                    }
                    None => break,
                }
            }
        }
        Some(line)
    }

    /// A line read from the main table (proof lengths as found, not minimised).
    fn table_line(&mut self, root: &G) -> Vec<G::Move> {
        let mut line = Vec::new();
        let mut g = root.clone();
        let mut moves = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for ply in 0..10_000u32 {
            if !seen.insert(g.key()) {
                break;
            }
            let or_node = ply % 2 == 0;
            if or_node {
                g.attacker_moves(&mut moves);
            } else {
                g.defender_moves(&mut moves);
            }
            let mut pick: Option<(G::Move, u16)> = None;
            for &m in moves.iter() {
                let c = g.after(m);
                let (pn, _, _, len) = self.main.probe(&c, ply + 1);
                if pn != 0 {
                    continue;
                }
                let better = match pick {
                    None => true,
                    Some((_, l)) => {
                        if or_node {
                            len < l
                        } else {
                            len > l
                        }
                    }
                };
                if better {
                    pick = Some((m, len));
                }
            }
            match pick {
                Some((m, _)) => {
                    line.push(m);
                    g = g.after(m);
                }
                None => break,
            }
        }
        line
    }
}
