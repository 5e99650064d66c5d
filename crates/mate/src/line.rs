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
//! Proofs too long for that are read from the table (`proven_line`) and the
//! attacker's detours taken out afterwards (`shorten.rs`).

use crate::dfpn::{KeySet, Limits, Progress, Solver, Stats, Verdict};
use crate::game::MateGame;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

mod shorten;

/// Nodes the shortest-line search may always take, however quick the proof was.
const SHORTEST_LINE_MIN_NODES: u64 = 2_000_000;

/// Longest proof (plies) the shortest-line search from the root is tried on: ply-limited
/// searches of the whole problem at over a few hundred plies do not finish in any budget
/// here (ACT no Yume, 467 plies, takes 1.7 times its proof's nodes; Microcosmos' 1525 do not
/// finish in as many nodes as its proof).
const DESCENDING_MAX_PLIES: u32 = 600;
/// Below this bound (plies) the rest of a line read from the table is searched exactly.
const EXACT_TAIL: u32 = 40;
/// Largest bound the defender's choice is checked against with a ply-limited search.
const MAX_CHECKED_BOUND: u32 = 127;
/// Node budget, per ply of its limit, of the first check of a defender's choice.
const LINE_STEP_NODES: u64 = 25_000;
/// Rounds of the comparison between evasions that all have a mate within
/// [`MAX_CHECKED_BOUND`] (each lowers one bound or ends it; a position can have dozens of
/// interpositions sharing one bound).
const ALL_SHORT_ROUNDS: usize = 64;
/// Largest stored bound of a lone unsearched evasion that is still compared with the others.
const LONE_CHECKED_BOUND: u32 = 2 * MAX_CHECKED_BOUND;
/// Node budget of each comparison search for such an evasion.
const LONE_CHECK_NODES: u64 = 800_000;
/// Node budget of a search for a mate within the bound a position of a line was read at.
const RELINK_NODES: u64 = 4_000_000;
/// Node budget of one exact search of a line's tail.
const TAIL_NODES: u64 = 8_000_000;

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
    /// The first proven line, as reported the moment the proof was complete (`None` unless
    /// mate; its `line` can be longer than the final one).
    pub first: Option<Found<M>>,
}

/// A mating line as it was proven: the line, and the nodes and time spent (from the start of
/// the solve) when it was ready.
#[derive(Clone, Debug)]
pub struct Found<M> {
    /// The moves, attacker first, ending in mate.
    pub line: Vec<M>,
    /// Nodes searched until the line was ready.
    pub nodes: u64,
    /// Time from the start of the solve until the line was ready.
    pub time: Duration,
    /// True for the conventional line (shortest mate, longest resistance), the last report.
    pub shortest: bool,
}

/// Called with each mating line as it is proven: the first one at once after the proof, then
/// each better one while the line is improved (see [`MateSolver::set_on_line`]).
pub type OnLine<M> = Box<dyn FnMut(&Found<M>) + Send>;

/// A reusable solver: df-pn, then ply-limited df-pn runs for the shortest line. Both share
/// one table (ply-limited entries are keyed with the plies left), so the limited runs read
/// the main run's proofs and disproofs.
pub struct MateSolver<G: MateGame> {
    main: Solver<G>,
    limits: Limits,
    /// Longest proof the shortest-line search from the root is tried on.
    descending_max_plies: u32,
    /// Bound below which a line read from the table finishes with an exact search.
    exact_tail: u32,
    /// Improve the first line towards the conventional one (see [`MateSolver::set_polish`]).
    polish: bool,
    /// Called with each line as it is proven.
    on_line: Option<OnLine<G::Move>>,
    /// When the current solve started.
    started: Instant,
    /// Length of the last line reported in this solve.
    best_len: Option<usize>,
}

impl<G: MateGame> MateSolver<G> {
    /// A solver with one table of `limits.table_bytes`.
    pub fn new(limits: Limits) -> MateSolver<G> {
        MateSolver {
            main: Solver::new(limits.clone()),
            limits,
            descending_max_plies: DESCENDING_MAX_PLIES,
            exact_tail: EXACT_TAIL,
            polish: true,
            on_line: None,
            started: Instant::now(),
            best_len: None,
        }
    }

    /// Whether [`MateSolver::solve`] improves the first proven line towards the conventional
    /// solution (shortest mate, longest resistance, futile interpositions per
    /// [`MateSolver::set_skip_futile`]) before it returns (the default), or returns the first
    /// line read from the proof at once.
    pub fn set_polish(&mut self, on: bool) {
        self.polish = on;
    }

    /// Calls `f` with each mating line as it is proven: the first one as soon as the proof is
    /// complete, then (when polishing) each shorter one the shortest-line search proves, and
    /// the final line, marked `shortest` when it is the conventional one.
    pub fn set_on_line(&mut self, f: OnLine<G::Move>) {
        self.on_line = Some(f);
    }

    /// Brings the proof's counters `stats` up to the whole solve started at `start` (nodes,
    /// table fill, collections, time) and returns its nodes.
    fn totals(&self, stats: &mut Stats, start: Instant) -> u64 {
        let all = self.main.stats();
        stats.nodes = all.nodes;
        stats.table_fill_permille = all.table_fill_permille;
        stats.collections = all.collections;
        stats.time = start.elapsed();
        all.nodes
    }

    /// Reports `line` to the callback, if any, and returns what was reported.
    fn report(&mut self, line: &[G::Move], shortest: bool) -> Found<G::Move> {
        let found = Found {
            line: line.to_vec(),
            nodes: self.main.nodes(),
            time: self.started.elapsed(),
            shortest,
        };
        if let Some(f) = self.on_line.as_mut() {
            f(&found);
        }
        found
    }

    /// Whether futile interpositions (muda-ai) are left out of the length: a drop between the
    /// king and a lone long-range checker is futile when the checker capturing it would mate
    /// on the spot, and a check whose every answer is such a drop mates (the classical
    /// convention: Hashimoto's 587 ends with a check answered only by a futile rook drop).
    /// Off by default: the tanuki collection counts every interposition (1968 of 1979
    /// published lengths matched; 1959 with this, nine of them ending in such a check), and
    /// counting every interposition costs less than half the nodes (see the README).
    pub fn set_skip_futile(&mut self, on: bool) {
        self.main.skip_futile = on;
    }

    /// How the line of a proven problem is read (defaults: 600 and 40 plies). A proof of at
    /// most `descending_max_plies` is shortened by ply-limited searches from the root, which
    /// give the exact line; a longer one (or one whose search runs out of budget) is read from
    /// the table move by move with the defender's choices checked, and the part of the line
    /// left once the attacker's stored bound is under `exact_tail` plies is searched exactly.
    /// `set_line_search(0, 0)` reads every line from the table (used by tests).
    pub fn set_line_search(&mut self, descending_max_plies: u32, exact_tail: u32) {
        self.descending_max_plies = descending_max_plies;
        self.exact_tail = exact_tail;
    }

    /// Weak proof numbers at defender nodes (see [`Solver::set_weak_proof_numbers`]).
    pub fn set_weak_proof_numbers(&mut self, on: bool) {
        self.main.set_weak_proof_numbers(on);
    }

    /// Delayed expansion of interposing drops (see [`Solver::set_delayed_drops`]; on by
    /// default).
    pub fn set_delayed_drops(&mut self, on: bool) {
        self.main.set_delayed_drops(on);
    }

    /// The mate-in-three test at the root (see [`Solver::set_mate_in_three`]; on by default).
    pub fn set_mate_in_three(&mut self, on: bool) {
        self.main.set_mate_in_three(on);
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
        self.started = start;
        self.best_len = None;
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
                first: None,
            };
        }
        // The answer first: a line read straight from the proof.
        let quick = self.proven_line(root, true);
        self.main.resume();
        let first = self
            .line_mates(root, &quick)
            .then(|| self.report(&quick, false));
        if let (false, Some(f)) = (self.polish, &first) {
            let nodes = self.totals(&mut stats, start);
            return Solution {
                verdict,
                line: f.line.clone(),
                shortest: false,
                stats,
                line_nodes: nodes - f.nodes.min(nodes),
                first,
            };
        }
        self.best_len = first.as_ref().map(|f| f.line.len());
        let upper = self.main.probe(root, 0).len;
        // The shortest-line search from the root gets twice the nodes the proof took (at
        // least SHORTEST_LINE_MIN_NODES), and at most half the nodes and time the overall
        // limits have left (the clock started with the proof), and is not tried on proofs
        // longer than `descending_max_plies`; without it, the line is read from the table,
        // re-proving what was replaced, with whatever the overall limits leave.
        let proof_nodes = stats.nodes;
        let budget = (2 * proof_nodes)
            .max(SHORTEST_LINE_MIN_NODES)
            .min(self.limits.nodes.saturating_sub(proof_nodes) / 2);
        let elapsed = self.main.stats().time;
        let time = self
            .limits
            .time
            .map(|t| elapsed + t.saturating_sub(elapsed) / 2);
        self.main.set_limits(proof_nodes + budget, time);
        let line = if u32::from(upper) <= self.descending_max_plies {
            self.shortest_line_descending(root, upper as u32)
        } else {
            None
        };
        self.main.set_depth_limit(None);
        let shortest = line.is_some();
        let line = match line {
            Some(l) => l,
            None => {
                self.main.set_limits(self.limits.nodes, self.limits.time);
                self.main.resume();
                let line = self.proven_line(root, false);
                if self.line_mates(root, &line) {
                    self.shorten_attacker(root, line)
                } else {
                    line
                }
            }
        };
        let line_nodes = self.totals(&mut stats, start) - proof_nodes;
        // A limit can end the polishing with a line short of mate: the first line stands.
        let mates = self.line_mates(root, &line);
        let (line, shortest) = match &first {
            Some(f) if !mates => (f.line.clone(), false),
            _ => (line, shortest),
        };
        if mates || first.is_some() {
            self.report(&line, shortest);
        }
        Solution {
            verdict,
            line,
            shortest,
            stats,
            line_nodes,
            first,
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
            first: None,
        }
    }

    /// The shortest line by ply-limited searches with growing limits 1, 3, 5 ... up to the
    /// length of the proof df-pn found (results at each remaining depth are kept and
    /// reused), or `None` when none succeeds within that or the budget.
    fn shortest_line(&mut self, root: &G, upper: u32) -> Option<Vec<G::Move>> {
        let mut limit = 1;
        while limit <= upper.max(1) {
            self.main.set_depth_limit(Some(limit));
            let r = self.main.prove_at(root, true, 0);
            if self.main.aborted() {
                return None;
            }
            if r.pn == 0 {
                return self.read_line(root, limit);
            }
            if r.dn != 0 {
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
        if self.main.prove_at(root, true, 0).pn != 0 {
            return None;
        }
        while best >= 3 {
            let limit = best - 2;
            self.main.set_depth_limit(Some(limit));
            let r = self.main.prove_at(root, true, 0);
            if self.main.aborted() {
                return None;
            }
            if r.pn == 0 {
                best = u32::from(r.len).clamp(1, limit);
                self.report_if_shorter(root);
            } else if r.dn == 0 {
                break;
            } else {
                return None;
            }
        }
        self.main.set_depth_limit(Some(best));
        self.read_line(root, best)
    }

    /// A mating line read straight from the table under the current depth limit: the
    /// attacker's check with the shortest stored proof, the defender's evasion with the
    /// longest; a child the table has lost is proven again, an attacker position none of
    /// whose checks reads proven is searched again. Cheap next to the conventional line (no
    /// defender choice is checked), it is what is reported the moment a proof is complete.
    /// `None` when a limit ran out or the reading came back to a position of the line.
    fn quick_line(&mut self, root: &G) -> Option<Vec<G::Move>> {
        let mut line = Vec::new();
        let mut g = root.clone();
        let mut moves = Vec::new();
        let mut seen = KeySet::default();
        // The bound the position is read at (its stored proof length, then along the line).
        let mut expect = self.main.probe(root, 0).len;
        for ply in 0u32.. {
            let or_node = ply.is_multiple_of(2);
            if !or_node && self.main.skip_futile && g.mated_but_for_futile_drops() {
                return Some(line);
            }
            if !seen.insert(g.key()) || self.main.aborted() {
                return None;
            }
            self.main.generate_moves(&g, or_node, &mut moves);
            if !or_node && moves.is_empty() {
                return Some(line);
            }
            let mut pick: Option<(G::Move, u16)> = None;
            for pass in 0..2 {
                pick = None;
                for &m in moves.iter() {
                    let (board_key, full, hand) = g.child_keys(m);
                    if or_node && seen.contains(&full) {
                        continue;
                    }
                    let len = if or_node {
                        let r = self.main.probe_keys(board_key, hand, ply + 1);
                        if r.pn != 0 {
                            continue;
                        }
                        r.len
                    } else {
                        self.proven_move(&g, m, (board_key, hand), false, ply + 1)?
                    };
                    let better = match pick {
                        None => true,
                        Some((_, l)) if or_node => len < l,
                        Some((_, l)) => len > l,
                    };
                    if better {
                        pick = Some((m, len));
                    }
                }
                // An attacker position whose checks do not show the proof it was read at
                // (replaced entries: following longer proofs can circle) is searched again,
                // which stores its children's proofs anew.
                if !or_node || pass == 1 || pick.is_some_and(|(_, l)| l < expect) {
                    break;
                }
                if self.main.reprove_at(&g, true, ply).pn != 0 || self.main.aborted() {
                    return None;
                }
            }
            let (m, len) = pick?;
            expect = if or_node {
                len
            } else {
                len.min(expect.saturating_sub(1))
            };
            line.push(m);
            g = g.after(m);
        }
        None
    }

    /// Reports the line of the limited search that just proved the root, when it reads and
    /// is shorter than the last one reported (and a callback wants it).
    fn report_if_shorter(&mut self, root: &G) {
        if self.on_line.is_none() {
            return;
        }
        if let Some(l) = self.quick_line(root) {
            if self.best_len.is_none_or(|b| l.len() < b) && self.line_mates(root, &l) {
                self.best_len = Some(l.len());
                self.report(&l, false);
            }
        }
    }

    /// The stored proof length of `c`, a child at `ply` (reached by an evasion when
    /// `!or_node`), or `None` when it does not read proven or a limit ran out. Every evasion
    /// of a proven position is mate, so one the table has lost is proven again.
    fn proven_child(&mut self, c: &G, or_node: bool, ply: u32) -> Option<u16> {
        let mut r = self.main.probe(c, ply);
        if r.pn != 0 && !or_node {
            r = self.main.prove_at(c, true, ply);
        }
        (r.pn == 0 && !self.main.aborted()).then_some(r.len)
    }

    /// [`Self::proven_child`] of the child of `g` by `m`, read by its board key and attacker
    /// hand ([`MateGame::child_keys`]): the child is built only when it must be proven again.
    fn proven_move(
        &mut self,
        g: &G,
        m: G::Move,
        (board_key, hand): (u64, G::Hand),
        or_node: bool,
        ply: u32,
    ) -> Option<u16> {
        let mut r = self.main.probe_keys(board_key, hand, ply);
        if r.pn != 0 && !or_node {
            r = self.main.prove_at(&g.after(m), true, ply);
        }
        (r.pn == 0 && !self.main.aborted()).then_some(r.len)
    }

    /// True when `line` ends with the defender mated.
    fn line_mates(&self, root: &G, line: &[G::Move]) -> bool {
        let mut g = root.clone();
        for &m in line {
            g = g.after(m);
        }
        line.len() % 2 == 1
            && (g.is_mated() || (self.main.skip_futile && g.mated_but_for_futile_drops()))
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
                    let r = self.main.probe(&g.after(m), ply + 1);
                    if r.pn == 0 && pick.is_none_or(|(_, l)| r.len < l) {
                        pick = Some((m, r.len));
                    }
                }
                for &m in moves.iter() {
                    if pick.is_some() {
                        break;
                    }
                    let c = g.after(m);
                    let r = self.main.prove_at(&c, false, ply + 1);
                    if self.main.aborted() {
                        return None;
                    }
                    if r.pn == 0 && pick.is_none_or(|(_, l)| r.len < l) {
                        pick = Some((m, r.len));
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
                    futile.extend(moves.iter().filter(|&&m| g.is_futile_interposition(m)));
                    if futile.len() == moves.len() {
                        // Mate by the convention: every answer is a futile drop.
                        break;
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
                        self.main.prove_at(&c, true, ply + 3).pn == 0
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

    /// Runs `f` with at most `budget` more nodes, and at most a quarter of the nodes and time
    /// the overall limits have left (so that the line can still be finished), then restores
    /// the overall limits. The second value is true when the budget, not `f`, ended it.
    fn with_budget<R>(&mut self, budget: u64, f: impl FnOnce(&mut Self) -> R) -> (R, bool) {
        let used = self.main.nodes();
        let left = self.limits.nodes.saturating_sub(used);
        let elapsed = self.main.stats().time;
        let time = self
            .limits
            .time
            .map(|t| elapsed + t.saturating_sub(elapsed) / 4);
        self.main
            .set_limits(used.saturating_add(budget.min(left / 4)), time);
        let r = f(self);
        let cut = self.main.aborted();
        self.main.set_limits(self.limits.nodes, self.limits.time);
        self.main.resume();
        self.main.set_depth_limit(None);
        (r, cut)
    }

    /// Whether the attacker (to move in `g`) mates within `k` plies: `Some(Some(len))` with
    /// the length of the mate found, `Some(None)` when there is none that short, `None` when
    /// the budget ran out first.
    fn mate_within(&mut self, g: &G, k: u32, budget: u64) -> Option<Option<u16>> {
        let (r, cut) = self.with_budget(budget, |s| {
            s.main.set_depth_limit(Some(k));
            s.main.prove_at(g, true, 0)
        });
        if cut {
            None
        } else if r.pn == 0 {
            Some(Some(r.len))
        } else if r.dn == 0 {
            Some(None)
        } else {
            None
        }
    }

    /// The line read from the unlimited table, move by move, for proofs too long for the
    /// shortest-line search from the root. Entries lost to replacement or collection are
    /// proven again on the way: every evasion of a proven defender position is mate, so each
    /// is re-proven when the table lacks it, and an attacker position none of whose checks
    /// reads proven is searched again itself. Stored lengths are those of the proofs found,
    /// upper bounds that can be far from the truth (a side line whose proof ran into the main
    /// line inherits its length), so
    /// - the defender's choice is checked with ply-limited searches ([`Self::longest_evasion`]):
    ///   the evasion kept must have no mate within the others' bounds;
    /// - once the attacker's best bound is at most [`EXACT_TAIL`] plies, the rest of the line is
    ///   the exact shortest-mate, longest-resistance line of the ply-limited search.
    ///
    /// - each position is read with a bound: a mate within it exists (the root's stored length,
    ///   then the attacker's chosen check's length, and at a defender position one less than
    ///   its own, or the chosen evasion's stored length if smaller). An attacker position none
    ///   of whose checks reads a proof shorter than its bound has lost the proof it was read
    ///   at (replaced, or another hand's entry answers first), and following the longer
    ///   proofs left can circle (in Astral Traveler the king's laps returned to a position
    ///   already on the line after 118 plies): a ply-limited search within the bound
    ///   ([`Self::relink`]) finds the check again. The bound falls every ply, so such a line
    ///   cannot circle.
    ///
    /// The attacker's choices before the tail are the shortest stored proofs, not shown
    /// shortest: a line that mates is then shortened ([`Self::shorten_attacker`], local
    /// shortcuts found by small ply-limited searches). The line stops early (not ending in
    /// mate) when a limit runs out.
    ///
    /// `quick` reads the first line, the one reported the moment the proof is complete: the
    /// defender's evasion with the longest stored proof is taken unchecked and no tail is
    /// searched exactly; only the re-proving and [`Self::relink`] remain, so that the reading
    /// cannot circle.
    fn proven_line(&mut self, root: &G, quick: bool) -> Vec<G::Move> {
        self.main.set_depth_limit(None);
        let mut line = Vec::new();
        let mut g = root.clone();
        let mut moves = Vec::new();
        let mut seen = KeySet::default();
        let mut ply = 0u32;
        let mut kids: Vec<(G::Move, u16)> = Vec::new();
        // After an exact tail search fails at bound b, the next is tried at b / 2.
        let mut tail_below = self.exact_tail;
        // The bound (plies) the position was read at: a mate within it exists.
        let mut expect = u32::from(self.main.probe(root, 0).len);
        loop {
            if !seen.insert(g.key()) {
                break;
            }
            let or_node = ply.is_multiple_of(2);
            self.main.generate_moves(&g, or_node, &mut moves);
            kids.clear();
            for pass in 0..2 {
                for &m in moves.iter() {
                    let (board_key, full, hand) = g.child_keys(m);
                    if seen.contains(&full) {
                        continue;
                    }
                    if let Some(len) = self.proven_move(&g, m, (board_key, hand), or_node, ply + 1)
                    {
                        kids.push((m, len));
                    }
                }
                if !kids.is_empty() || !or_node || pass == 1 || self.main.aborted() {
                    break;
                }
                // No check reads proven: search this position again, which stores the
                // proof of at least one child.
                if self.main.reprove_at(&g, true, ply).pn != 0 {
                    break;
                }
            }
            if self.main.aborted() || (kids.is_empty() && !or_node) {
                break;
            }
            let pick = if or_node {
                let mut best = kids.iter().min_by_key(|k| k.1).copied();
                if best.is_none_or(|(_, l)| u32::from(l) >= expect) {
                    // The proof this position was read at is lost (replaced, or another
                    // hand's entry answers): find a mate within the bound again.
                    if let Some(b) = self.relink(&g, expect, &seen) {
                        best = Some(b);
                    }
                }
                let Some((m, len)) = best else { break };
                expect = u32::from(len);
                if !quick && u32::from(len) < tail_below {
                    let upper = u32::from(len) + 1;
                    tail_below = upper / 2;
                    let (tail, _) =
                        self.with_budget(TAIL_NODES, |s| s.shortest_line_descending(&g, upper));
                    if let Some(t) = tail {
                        line.extend(t);
                        break;
                    }
                }
                m
            } else if quick {
                let Some(&(m, len)) = kids.iter().max_by_key(|k| k.1) else {
                    break;
                };
                expect = u32::from(len).min(expect.saturating_sub(1));
                m
            } else {
                match self.longest_evasion(&g, &kids) {
                    Some(m) => {
                        let len = kids.iter().find(|k| k.0 == m).map_or(0, |k| k.1);
                        expect = u32::from(len).min(expect.saturating_sub(1));
                        m
                    }
                    None => break,
                }
            };
            line.push(pick);
            g = g.after(pick);
            ply += 1;
        }
        line
    }

    /// A check of `g` (attacker to move) leading to a position not in `seen` that mates
    /// within `k - 1` plies, with the length of its mate, found by a ply-limited search
    /// within `k` plies ([`RELINK_NODES`]) that reads the unlimited proofs short enough;
    /// `None` when there is none or the budget runs out. Along a line the bound falls by one
    /// a ply, so successive searches share their ply-limited entries.
    fn relink(&mut self, g: &G, k: u32, seen: &KeySet) -> Option<(G::Move, u16)> {
        let (r, _) = self.with_budget(RELINK_NODES, |s| {
            s.main.set_depth_limit(Some(k));
            // Searched itself: its own entries (limited, or the unlimited one it would
            // otherwise read) can claim the bound without any child that still shows it.
            if s.main.reprove_at(g, true, 0).pn != 0 || s.main.aborted() {
                return None;
            }
            let mut moves = Vec::new();
            g.attacker_moves(&mut moves);
            let mut best: Option<(G::Move, u16)> = None;
            for m in moves {
                let c = g.after(m);
                if seen.contains(&c.key()) {
                    continue;
                }
                let r = s.main.probe(&c, 1);
                if r.pn == 0 && best.is_none_or(|(_, l)| r.len < l) {
                    best = Some((m, r.len));
                }
            }
            best
        });
        r
    }

    /// The defender's longest resistance among proven evasions `kids` of `g` (with the
    /// lengths of their stored proofs: upper bounds, and poor ones where a side line's proof
    /// ran into the main line). Ply-limited searches sort the evasions into short ones (a
    /// mate found within `k` plies, which becomes their bound) and long ones: first at
    /// `k` = 15, each with [`LINE_STEP_NODES`] a ply of `k`; if more than one is left long,
    /// at `k` = [`MAX_CHECKED_BOUND`] in rounds with budgets doubling from 200,000 to 3.2M
    /// nodes (a side line of a hundred plies is proven quickly there, while refuting every
    /// mate within `k` on the main line is not), stopping after a round that settles none
    /// (in Astral Traveler, ten interpositions all stored at 477 to 573 plies took 44M nodes
    /// of rounds that settled three). A lone long one is the answer; with none,
    /// the largest bound once it has no mate within the next largest, or, when several share
    /// the top, within its own less 2 (a mate found lowers it and the next is tried: in Kemuri
    /// two king moves stored 25 plies, one of them mated in 7); with several long ones, the
    /// largest bound among them. Evasions are searched
    /// smallest bound first, and the last one left is taken as long unsearched when all the
    /// others are short (the usual case), unless its bound is at most [`LONE_CHECKED_BOUND`]:
    /// then it is compared like the short ones. A drop between king and checker that the
    /// checker can take counts 2 plies less (the capture): one that only adds those plies is
    /// futile (muda-ai) and not preferred. `None` when a limit ran out.
    fn longest_evasion(&mut self, g: &G, kids: &[(G::Move, u16)]) -> Option<G::Move> {
        // (move, bound, futile-drop allowance, shown short, shown to have no mate within)
        let mut bounds: Vec<(G::Move, u32, u32, bool, u32)> = kids
            .iter()
            .map(|&(m, l)| {
                let adj = if g.checker_moved_to_interposition(m).is_some() {
                    2
                } else {
                    0
                };
                (m, u32::from(l), adj, false, 0)
            })
            .collect();
        let eff = |b: &(G::Move, u32, u32, bool, u32)| b.1.saturating_sub(b.2);
        if bounds.len() == 1 {
            return Some(bounds[0].0);
        }
        bounds.sort_by_key(|b| (eff(b), std::cmp::Reverse(b.2)));
        let rounds = [(15, LINE_STEP_NODES * 17)]
            .into_iter()
            .chain((0..5).map(|i| (MAX_CHECKED_BOUND, 200_000u64 << i)));
        for (k, budget) in rounds {
            let open_before = bounds.iter().filter(|b| !b.3).count();
            let long_before = bounds.iter().filter(|b| b.4 >= k).count();
            let mut searched = false;
            for i in 0..bounds.len() {
                if bounds[i].3 || bounds[i].4 >= k {
                    continue;
                }
                if eff(&bounds[i]) <= k {
                    bounds[i].3 = true;
                    continue;
                }
                let open = bounds.iter().filter(|b| !b.3).count();
                if open <= 1 {
                    break;
                }
                let within = k + bounds[i].2;
                let c = g.after(bounds[i].0);
                searched = true;
                match self.mate_within(&c, within, budget) {
                    Some(Some(len)) => {
                        bounds[i].1 = u32::from(len).min(within);
                        bounds[i].3 = true;
                    }
                    Some(None) => bounds[i].4 = k,
                    None if self.main.aborted() => return None,
                    None => {}
                }
            }
            let open = bounds.iter().filter(|b| !b.3).count();
            if open <= 1 {
                break;
            }
            // A round at k = 127 that settled none of them: larger budgets rarely do (mates
            // of hundreds of plies are never refuted within k), so the bounds decide.
            if k == MAX_CHECKED_BOUND
                && searched
                && open == open_before
                && bounds.iter().filter(|b| b.4 >= k).count() == long_before
            {
                break;
            }
        }
        // A lone evasion left long only because it was never searched (the others' bounds
        // were within k) is shown long only by its stored bound, which can be poor (in
        // Microcosmos a lance interposition stored 133 plies has a mate in 43 where the
        // knight's has 123): when that bound is not far above k it is compared with the
        // others as if short, with a smaller budget.
        let open: Vec<usize> = (0..bounds.len()).filter(|&i| !bounds[i].3).collect();
        let mut budget = 200_000 << 4;
        if let [o] = open[..] {
            if bounds[o].4 < MAX_CHECKED_BOUND && eff(&bounds[o]) <= LONE_CHECKED_BOUND {
                bounds[o].3 = true;
                budget = LONE_CHECK_NODES;
            }
        }
        // All short: the largest bound wins once it is shown to have no mate within the
        // next largest (a mate found within lowers it, and the next is tried). Bounds are
        // upper bounds, so a tie at the top is settled the same way: the top one wins once it
        // has no mate within its own bound less 2 (it is then exact, and no other is longer).
        if bounds.iter().all(|b| b.3) {
            for _ in 0..ALL_SHORT_ROUNDS {
                bounds.sort_by_key(|b| (std::cmp::Reverse(eff(b)), b.2));
                let (top, next) = (eff(&bounds[0]), eff(&bounds[1]));
                let target = if top > next {
                    next
                } else {
                    top.saturating_sub(2)
                };
                if target == 0 || bounds[0].4 >= target {
                    break;
                }
                let within = target + bounds[0].2;
                let c = g.after(bounds[0].0);
                match self.mate_within(&c, within, budget) {
                    Some(Some(len)) => bounds[0].1 = u32::from(len).min(within),
                    Some(None) => {
                        bounds[0].4 = target;
                        break;
                    }
                    None if self.main.aborted() => return None,
                    None => break,
                }
            }
        }
        // The one left long, else the largest bound; plain moves before drops. Of several
        // left long, a plain move goes before any drop the checker can take, whatever their
        // bounds: such a drop's proof, taken and played on, runs into the line the plain
        // moves lead to and inherits its length plus the capture, so its bound says nothing
        // of its own (in Astral Traveler, searched with drops on one square one at a time,
        // a knight dropped between rook and king at ply 69 read longer than the king's
        // step and led to a 291-ply line instead of the published 579).
        let open = bounds.iter().any(|b| !b.3);
        bounds
            .iter()
            .filter(|b| !open || !b.3)
            .min_by_key(|b| (if open { b.2 } else { 0 }, std::cmp::Reverse(eff(b)), b.2))
            .map(|b| b.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Limits, Tsume};

    /// When every check's stored proof claims more than the bound its position was read at
    /// (the entries that gave the bound were replaced by longer proofs), [`MateSolver::relink`]
    /// finds a check that mates within it again. The position's own entry still reads the
    /// bound, so the ply-limited search must search it rather than read it.
    #[test]
    fn relink_finds_a_check_within_the_bound_past_longer_stored_proofs() {
        // tanuki-11-1 (MIT, ../shared/data/tsume/tanuki.tsv): a mate in 11.
        let pos = shogi::Position::from_sfen("6SR1/6P1B/6GG1/8k/8B/8N/9/9/9 b r2g3s3n4l17p 1")
            .expect("parses");
        let root = Tsume::new(pos);
        let mut s = MateSolver::<Tsume>::new(Limits {
            table_bytes: 1 << 20,
            ..Limits::default()
        });
        assert_eq!(s.main.solve(&root), Verdict::Mate);
        let bound = u32::from(s.main.probe(&root, 0).len);
        assert!((11..100).contains(&bound), "root bound {bound}");
        let mut moves = Vec::new();
        root.attacker_moves(&mut moves);
        for &m in &moves {
            s.main.lengthen_proof(&root.after(m), 200);
        }
        for &m in &moves {
            let r = s.main.probe(&root.after(m), 1);
            assert!(
                r.pn != 0 || u32::from(r.len) >= bound,
                "a short proof is left"
            );
        }
        let (m, len) = s
            .relink(&root, bound, &KeySet::default())
            .expect("a check within the bound");
        assert!(u32::from(len) < bound);
        assert!(moves.contains(&m));
    }
}
