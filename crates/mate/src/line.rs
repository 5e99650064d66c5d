//! The mate line tsume convention asks for: the attacker's shortest mate against the
//! defender's longest resistance, futile interpositions (muda-ai) not counted.
//!
//! After df-pn proves the root with a proof of length `l`, ply-limited df-pn runs at
//! `l - 2`, `l - 4` ... find the shortest mate (the first limit that fails ends it; for
//! [`MateSolver::solve_within`] the limits grow 1, 3, 5 ... instead). They share the table,
//! keyed with the plies left, and read the unlimited run's proofs (a proof of length l
//! mates within l plies) and disproofs; repetition disproofs are keyed by path and limit. Optionally (see [`MateSolver::set_skip_futile`]) futile interpositions are
//! left out. The line is then read move by move: the attacker plays a check that mates
//! within the plies left, the defender an evasion that is not mated two plies sooner.

use crate::dfpn::{Limits, Progress, Solver, Stats, Verdict};
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

/// A reusable solver: df-pn, then ply-limited df-pn runs for the shortest line. Both share
/// one table (ply-limited entries are keyed with the plies left), so the limited runs read
/// the main run's proofs and disproofs.
pub struct MateSolver<G: MateGame> {
    main: Solver<G>,
    limits: Limits,
}

impl<G: MateGame> MateSolver<G> {
    /// A solver with one table of `limits.table_bytes`.
    pub fn new(limits: Limits) -> MateSolver<G> {
        MateSolver {
            main: Solver::new(limits.clone()),
            limits,
        }
    }

    /// Whether futile interpositions (muda-ai) are left out of the length: a drop between the
    /// king and a lone long-range checker is futile when the checker capturing it would mate
    /// on the spot, unless every evasion is such a drop. Off by default: on the tanuki
    /// collection both ways match 1968 of 1979 published lengths, and counting every
    /// interposition costs less than half the nodes (see the README).
    pub fn set_skip_futile(&mut self, on: bool) {
        self.main.skip_futile = on;
    }

    /// Gives up positions more than `plies` below the root (see [`Solver::set_max_ply`]; the
    /// default fits a 2 MiB thread stack).
    pub fn set_max_ply(&mut self, plies: u32) {
        self.main.set_max_ply(plies);
    }

    /// Bytes held by both tables.
    pub fn table_bytes(&self) -> usize {
        self.main.table_bytes()
    }

    /// Shares `flag` as the stop flag of both solvers.
    pub fn set_stop_flag(&mut self, flag: Arc<AtomicBool>) {
        self.main.set_stop_flag(flag);
    }

    /// Calls `f` with the counters about once a second while searching.
    pub fn set_progress(&mut self, f: Progress) {
        self.main.set_progress(f);
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
        self.main.set_depth_limit(None);
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
        // The line search works within the same node and time limits (the clock started
        // with the proof); when they run out the line is read from the table as proven.
        let proof_nodes = stats.nodes;
        self.main.set_limits(self.limits.nodes, self.limits.time);
        let line = self.shortest_line_descending(root, upper as u32);
        self.main.set_depth_limit(None);
        let shortest = line.is_some();
        let line = match line {
            Some(l) => l,
            None => self.table_line(root),
        };
        let all = self.main.stats();
        stats.nodes = all.nodes;
        stats.table_fill_permille = all.table_fill_permille;
        stats.collections = all.collections;
        stats.time = start.elapsed();
        let line_nodes = all.nodes - proof_nodes;
        Solution {
            verdict,
            line,
            shortest,
            stats,
            line_nodes,
        }
    }

    /// Searches for a mate within `max_plies` plies only (tables cleared), e.g. UCI
    /// `go mate N` with `max_plies = 2N - 1`: `NoMate` then means no mate that short.
    pub fn solve_within(&mut self, root: &G, max_plies: u32) -> Solution<G::Move> {
        let start = Instant::now();
        self.main.clear();
        self.main.begin();
        self.main.set_limits(self.limits.nodes, self.limits.time);
        let line = self.shortest_line(root, max_plies);
        let mut stats = self.main.stats();
        stats.time = start.elapsed();
        let verdict = match (&line, self.main.aborted()) {
            (Some(_), _) => Verdict::Mate,
            (None, true) => Verdict::Unknown,
            (None, false) => Verdict::NoMate,
        };
        self.main.set_depth_limit(None);
        let nodes = stats.nodes;
        Solution {
            verdict,
            line: line.unwrap_or_default(),
            shortest: verdict == Verdict::Mate,
            stats,
            line_nodes: nodes,
        }
    }

    /// The shortest line by ply-limited searches with growing limits 1, 3, 5 ... up to the
    /// length of the proof df-pn found (results at each remaining depth are kept and
    /// reused), or `None` when none succeeds within that or the budget.
    fn shortest_line(&mut self, root: &G, upper: u32) -> Option<Vec<G::Move>> {
        let mut limit = 1;
        while limit <= upper.max(1) {
            self.main.set_depth_limit(Some(limit));
            let (pn, dn, _) = self.main.prove_at(root, true, 0);
            if self.main.aborted() {
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

    /// Like [`MateSolver::shortest_line`] but from the top: the proof df-pn found has length
    /// `upper`; try `upper - 2`, and so on down, until a limit fails.
    fn shortest_line_descending(&mut self, root: &G, upper: u32) -> Option<Vec<G::Move>> {
        let mut best = upper.max(1);
        self.main.set_depth_limit(Some(best));
        if self.main.prove_at(root, true, 0).0 != 0 {
            return None;
        }
        while best >= 3 {
            let limit = best - 2;
            self.main.set_depth_limit(Some(limit));
            let (pn, dn, len) = self.main.prove_at(root, true, 0);
            if self.main.aborted() {
                return None;
            }
            if pn == 0 {
                best = u32::from(len).clamp(1, limit);
            } else if dn == 0 {
                break;
            } else {
                return None;
            }
        }
        self.main.set_depth_limit(Some(best));
        self.read_line(root, best)
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
                    let (pn, _, _, len) = self.main.probe(&g.after(m), ply + 1);
                    if pn == 0 && pick.is_none_or(|(_, l)| len < l) {
                        pick = Some((m, len));
                    }
                }
                for &m in moves.iter() {
                    if pick.is_some() {
                        break;
                    }
                    let c = g.after(m);
                    let (pn, _, len) = self.main.prove_at(&c, false, ply + 1);
                    if self.main.aborted() {
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
                let mut futile = Vec::new();
                if self.main.skip_futile {
                    for &m in moves.iter() {
                        if let Some(c) = g.checker_moved_to_interposition(m) {
                            if self.main.prove_at(&c, false, e).0 == 0 {
                                futile.push(m);
                            }
                        }
                    }
                    if futile.len() == moves.len() {
                        futile.clear();
                    }
                }
                let mut pick = None;
                for &m in moves.iter() {
                    if futile.contains(&m) {
                        continue;
                    }
                    let c = g.after(m);
                    // Longest resistance: not mated within `remaining - 3` plies.
                    let quick = if remaining >= 3 {
                        self.main.prove_at(&c, true, ply + 3).0 == 0
                    } else {
                        false
                    };
                    if self.main.aborted() {
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
