//! Depth-first proof-number search (Nagai's df-pn) with the 1+epsilon threshold trick, hand
//! dominance through proof and disproof hands, node and time limits, and repetition handling
//! that keeps path-dependent disproofs out of the main table.
//!
//! Repetition: in a mate problem every attacker move is a check, so a repeated position means
//! perpetual check, a loss for the attacker. Such a "disproof" holds only for the path that
//! repeats; storing it as an ordinary disproof would let another path read a false "no mate"
//! (the graph-history-interaction problem). Disproofs that depend on a repetition are kept in
//! a side table keyed by a hash of the whole path from the root, so they are reused only when
//! the same path is searched again. Proofs never depend on the path (a proof tree is finite).

use crate::game::{HandSet, MateGame};
use crate::move_cache::MoveCache;
use crate::tt::{Table, INF};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A progress callback, called with the counters about once a second.
pub type Progress = Box<dyn FnMut(&Stats) + Send>;

/// Search limits and table size.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Stop after this many nodes (positions expanded).
    pub nodes: u64,
    /// Stop after this much time.
    pub time: Option<Duration>,
    /// Memory for the transposition table, bytes.
    pub table_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            nodes: u64::MAX,
            time: None,
            table_bytes: 64 << 20,
        }
    }
}

/// Counters of one search.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Positions expanded (moves generated).
    pub nodes: u64,
    /// Wall time.
    pub time: Duration,
    /// Table entries in use, per mille, at the end.
    pub table_fill_permille: usize,
    /// Garbage collections of the table.
    pub collections: u64,
    /// Path-dependent (repetition) disproofs stored.
    pub repetition_disproofs: u64,
    /// Positions given up at the ply cap ([`Solver::set_max_ply`]).
    pub ply_cutoffs: u64,
}

impl Stats {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let s = self.time.as_secs_f64();
        if s > 0.0 {
            (self.nodes as f64 / s) as u64
        } else {
            0
        }
    }
}

/// The value of the root after a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The attacker mates.
    Mate,
    /// No mate (every line ends without check or in perpetual check).
    NoMate,
    /// A limit was reached first.
    Unknown,
}

#[derive(Clone, Copy, Debug)]
struct Child<M, H> {
    mv: M,
    key: u64,
    full: u64,
    hand: H,
    pn: u32,
    dn: u32,
    /// First proof number before the child is searched.
    init_pn: u32,
    len: u16,
    /// Disproven by a repetition of the path position at this index ([`NO_REP`]: not).
    rep: u32,
    /// Proof or disproof hand when decided.
    dhand: H,
}

/// A df-pn solver with its table. Reusable across problems (the table is kept unless cleared).
pub struct Solver<G: MateGame> {
    table: Table<G::Hand>,
    /// Path-dependent disproofs: path hash -> index of the earliest path position they
    /// depend on.
    rep_table: HashMap<u64, u32, KeyHasher>,
    path: Vec<u64>,
    /// How many path positions have each value of the low key bits: a zero proves a position
    /// is not on the path without scanning it (deep problems have paths of thousands).
    path_filter: Vec<u32>,
    /// Numbers of answers of checks met at expansion, by position key (see
    /// [`Solver::answer_count`]).
    answers: Vec<u64>,
    /// The checks or evasions of positions expanded, by position key.
    move_cache: MoveCache<G::Move>,
    /// Plies below the root past which positions are given up (see [`Solver::set_max_ply`]).
    max_ply: u32,
    /// Positions given up at the ply cap.
    ply_cutoffs: u64,
    buffers: Vec<Vec<Child<G::Move, G::Hand>>>,
    /// Per depth, the storage where the node there builds its children (see [`Scratch`]).
    scratch: Vec<ScratchSlot<G>>,
    moves: Vec<Vec<G::Move>>,
    limits: Limits,
    stop: Arc<AtomicBool>,
    start: Instant,
    nodes: u64,
    aborted: bool,
    rep_disproofs: u64,
    /// Remaining-plies limit for shortest-mate searches (`None`: unlimited).
    depth_limit: Option<u32>,
    /// Progress report, about once a second.
    progress: Option<Progress>,
    next_report: Duration,
    /// Skip futile interpositions in depth-limited searches.
    pub(crate) skip_futile: bool,
    /// Search the next node [`Solver::mid`] enters even if the table has it decided (used to
    /// bring back the proofs of its children after they were replaced).
    force_expand: bool,
    /// Weak proof numbers at defender nodes (see [`Solver::set_weak_proof_numbers`]).
    weak_pn: bool,
}

/// Saturating sum capped below infinity unless a term is infinite.
#[inline]
fn add(a: u32, b: u32) -> u32 {
    if a >= INF || b >= INF {
        INF
    } else {
        (a + b).min(INF - 1)
    }
}

/// 1 + epsilon (epsilon = 1/4) of a second-best value, plus one.
#[inline]
fn widen(x: u32) -> u32 {
    if x >= INF {
        INF
    } else {
        (x + x / 4 + 1).min(INF - 1)
    }
}

/// Hashing for maps keyed by values that are already hashes: the value itself.
#[derive(Clone, Copy, Default)]
struct KeyHasher;

impl std::hash::BuildHasher for KeyHasher {
    type Hasher = KeyHash;
    fn build_hasher(&self) -> KeyHash {
        KeyHash(0)
    }
}

struct KeyHash(u64);

impl std::hash::Hasher for KeyHash {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

/// "Not disproven by a repetition."
const NO_REP: u32 = u32::MAX;

/// Entries of the answer-count cache (a power of two; 512 KiB, its lines prefetched with the
/// children's clusters: on tanuki 1 << 14 saves fewer counts, 1 << 18 more but runs no faster).
const ANSWERS: usize = 1 << 16;

/// Entries of the move-list cache (a power of two; 64 bytes each, 128 KiB: on tanuki 1 << 14
/// saves more generations but runs slower, 1 << 10 to 1 << 12 about the same).
const MOVE_LISTS: usize = 1 << 11;

/// Size of the path filter (a power of two).
const PATH_FILTER: usize = 1 << 12;

/// Default ply cap: the recursion takes about 1.4 KB of stack a ply, so 1,000 plies fit the
/// 2 MiB stack of a spawned thread. Deeper searches need a bigger stack and
/// [`Solver::set_max_ply`].
pub const DEFAULT_MAX_PLY: u32 = 1000;

#[inline]
fn path_hash(parent: u64, key: u64) -> u64 {
    (parent.rotate_left(9) ^ key).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl<G: MateGame> Solver<G> {
    /// A solver with `limits` (the table is allocated now).
    pub fn new(limits: Limits) -> Solver<G> {
        Solver {
            table: Table::new(limits.table_bytes),
            rep_table: HashMap::default(),
            path: Vec::new(),
            path_filter: vec![0; PATH_FILTER],
            answers: vec![0; ANSWERS],
            move_cache: MoveCache::new(MOVE_LISTS),
            max_ply: DEFAULT_MAX_PLY,
            ply_cutoffs: 0,
            buffers: Vec::new(),
            scratch: Vec::new(),
            moves: Vec::new(),
            limits,
            stop: Arc::new(AtomicBool::new(false)),
            start: Instant::now(),
            nodes: 0,
            aborted: false,
            rep_disproofs: 0,
            depth_limit: None,
            progress: None,
            next_report: Duration::from_secs(1),
            skip_futile: false,
            force_expand: false,
            weak_pn: false,
        }
    }

    /// A flag that stops the search when set (from another thread).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Uses `flag` as the stop flag.
    pub fn set_stop_flag(&mut self, flag: Arc<AtomicBool>) {
        self.stop = flag;
    }

    /// Changes the limits for the next search (the table size stays).
    pub fn set_limits(&mut self, nodes: u64, time: Option<Duration>) {
        self.limits.nodes = nodes;
        self.limits.time = time;
    }

    /// Positions more than `plies` below the root are given up: they read as unprovable but
    /// not disproven, so a search that needs them ends `Unknown`, never with a false mate or
    /// no-mate. The search recurses once a ply, about 1.4 KB of stack each: run deep searches
    /// on a thread with a stack to match (the default, [`DEFAULT_MAX_PLY`], fits 2 MiB).
    pub fn set_max_ply(&mut self, plies: u32) {
        self.max_ply = plies.max(1);
    }

    /// Weak proof numbers (Ueda et al.'s WPNS) at defender nodes: the largest proof number of
    /// the children plus one for each other unproven child, instead of their sum. The sum
    /// counts a position reached through several evasions once per path (transpositions are
    /// common in long problems), which can make a proven line look hopeless; the weak number
    /// does not. Proofs and disproofs are the same either way (zero exactly when every child
    /// is proven); only the order of the search changes. Off by default.
    pub fn set_weak_proof_numbers(&mut self, on: bool) {
        self.weak_pn = on;
    }

    /// Forgets everything learned.
    pub fn clear(&mut self) {
        self.table.clear();
        self.rep_table.clear();
    }

    /// Bytes used by the table.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Counters since the last [`Solver::solve`] started.
    pub fn stats(&self) -> Stats {
        Stats {
            nodes: self.nodes,
            time: self.start.elapsed(),
            table_fill_permille: self.table.fill_permille(),
            collections: self.table.collections,
            repetition_disproofs: self.rep_disproofs,
            ply_cutoffs: self.ply_cutoffs,
        }
    }

    /// Nodes searched so far in this search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Searches `root` (attacker to move) until it is proven, disproven or a limit is hit.
    pub fn solve(&mut self, root: &G) -> Verdict {
        self.begin();
        self.run(root)
    }

    /// Continues with the counters of the current search (used by the line extraction).
    pub(crate) fn run(&mut self, root: &G) -> Verdict {
        self.aborted = false;
        self.path.clear();
        let (pn, dn, _, _, _) = self.mid(root, true, INF, INF, 0, path_hash(0, root.key()));
        if pn == 0 {
            Verdict::Mate
        } else if dn == 0 {
            Verdict::NoMate
        } else {
            Verdict::Unknown
        }
    }

    /// True once a limit or the stop flag ended the search.
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// Searches `g` to the end as if it stood `ply` plies below the root of a depth-limited
    /// search (a fresh path). Returns (pn, dn, len).
    pub(crate) fn prove_at(&mut self, g: &G, or_node: bool, ply: u32) -> (u32, u32, u16) {
        let saved = std::mem::take(&mut self.path);
        let seed = self.path_seed(ply);
        let (pn, dn, len, _, _) = self.mid(g, or_node, INF, INF, ply, path_hash(seed, g.key()));
        self.path = saved;
        (pn, dn, len)
    }

    /// Like [`Solver::prove_at`], but `g` itself is searched even when the table has it
    /// decided: the children its proof needs are proven (and stored) again. Used when
    /// reading a line whose entries were replaced.
    pub(crate) fn reprove_at(&mut self, g: &G, or_node: bool, ply: u32) -> (u32, u32, u16) {
        self.force_expand = true;
        let r = self.prove_at(g, or_node, ply);
        self.force_expand = false;
        r
    }

    /// Clears the "limit reached" state so that the search can go on under new limits
    /// (unless the stop flag is set).
    pub(crate) fn resume(&mut self) {
        self.aborted = self.stop.load(Ordering::Relaxed);
    }

    /// Seed of the path hash of a search starting `ply` plies down: repetition disproofs
    /// depend on the path and, in ply-limited runs, on the plies left, so both go in.
    fn path_seed(&self, ply: u32) -> u64 {
        let limit = self.depth_limit.map_or(0, |l| u64::from(l) + 1);
        0x5EED_0000_0000 ^ limit << 16 ^ u64::from(ply)
    }

    /// Resets the counters and starts the clock of a new search.
    pub(crate) fn begin(&mut self) {
        self.start = Instant::now();
        self.next_report = Duration::from_secs(1);
        self.nodes = 0;
        self.aborted = false;
        self.rep_disproofs = 0;
        self.ply_cutoffs = 0;
    }

    pub(crate) fn set_depth_limit(&mut self, d: Option<u32>) {
        self.depth_limit = d;
    }

    /// The key used in the table: the board key, mixed with the remaining depth when the
    /// search is depth-limited.
    #[inline]
    fn table_key(&self, g: &G, ply: u32) -> u64 {
        self.table_key_of(g.board_key(), ply)
    }

    /// The table key of a child `ply + 1` plies down, from its board key. Its cluster (in
    /// ply-limited runs also the cluster of its unlimited entry, which the child reads first)
    /// starts loading while the caller goes on.
    #[inline]
    fn prefetch_child(&self, board_key: u64, ply: u32) -> u64 {
        let ck = self.table_key_of(board_key, ply + 1);
        self.table.prefetch(ck);
        if self.depth_limit.is_some() {
            self.table.prefetch(board_key);
        }
        ck
    }

    /// [`Solver::table_key`] from the board key.
    #[inline]
    fn table_key_of(&self, board_key: u64, ply: u32) -> u64 {
        match self.depth_limit {
            None => board_key,
            Some(l) => {
                let r = l.saturating_sub(ply) as u64 + 1;
                board_key ^ r.wrapping_mul(0xD6E8_FEB8_6659_FD93)
            }
        }
    }

    /// What the table says about `g` at `ply`: (pn, dn, decided hand, len).
    pub(crate) fn probe(&self, g: &G, ply: u32) -> (u32, u32, G::Hand, u16) {
        let p = self.table.probe(self.table_key(g, ply), g.attacker_hand());
        if let (Some(l), true) = (self.depth_limit, p.pn != 0 && p.dn != 0) {
            // Fall back on the unlimited run's result where it decides the question.
            let u = self.table.probe(g.board_key(), g.attacker_hand());
            if u.dn == 0 {
                return (INF, 0, u.hand, 0);
            }
            if u.pn == 0 && u32::from(u.len) <= l.saturating_sub(ply) {
                return (0, INF, u.hand, u.len);
            }
        }
        (p.pn, p.dn, p.hand, p.len)
    }

    /// Records that the attacker mates from `g` within `len` plies (along a line read after
    /// the proof) in the unlimited table, so that ply-limited searches read it; pinned against
    /// replacement. A stored proof at least as short is kept.
    pub(crate) fn record_mate_length(&mut self, g: &G, len: u16) {
        let p = self.table.probe(g.board_key(), g.attacker_hand());
        let hand = match p.pn {
            0 if p.len <= len => return,
            0 => p.hand,
            _ => g.attacker_hand(),
        };
        self.table.store(g.board_key(), hand, 0, INF, len, 1 << 40);
    }

    /// Test hook: the proof of `g` in the unlimited table, if any, made to claim `len` plies
    /// (as an entry from a longer proof would).
    #[cfg(test)]
    pub(crate) fn lengthen_proof(&mut self, g: &G, len: u16) {
        let p = self.table.probe(g.board_key(), g.attacker_hand());
        if p.pn == 0 {
            self.table
                .store(g.board_key(), p.hand, 0, INF, len, 1 << 40);
        }
    }

    /// The number of legal answers to a check, cached by the key `full` of the position it
    /// leads to: df-pn expands the same nodes again and again (and the shortest-line searches
    /// the same positions at each ply limit), so the checks of a node would be counted over and
    /// over; with the count cached the position need not even be built. A direct-mapped entry
    /// holds the key's upper 48 bits and the count plus one (an empty slot never matches).
    #[inline]
    fn cached_answers(&self, full: u64) -> Option<usize> {
        let slot = self.answers[full as usize & (ANSWERS - 1)];
        (slot ^ full <= 0xFFFF && slot & 0xFFFF != 0).then(|| (slot & 0xFFFF) as usize - 1)
    }

    /// Counts the answers in `c` (defender to move) and caches the count by its key.
    #[inline]
    fn count_answers(&mut self, c: &G) -> usize {
        let full = c.key();
        let n = c.defender_move_count();
        self.answers[full as usize & (ANSWERS - 1)] = full & !0xFFFF | (n as u64 + 1).min(0xFFFF);
        n
    }

    fn check_limits(&mut self) {
        if self.nodes >= self.limits.nodes || self.stop.load(Ordering::Relaxed) {
            self.aborted = true;
        }
        if self.nodes & 1023 == 0 {
            let elapsed = self.start.elapsed();
            if let Some(t) = self.limits.time {
                if elapsed >= t {
                    self.aborted = true;
                }
            }
            if self.progress.is_some() && elapsed >= self.next_report {
                self.next_report = elapsed + Duration::from_secs(1);
                let stats = self.stats();
                if let Some(f) = self.progress.as_mut() {
                    f(&stats);
                }
            }
        }
    }

    /// Calls `f` with the counters about once a second while searching (USI `info` lines).
    pub fn set_progress(&mut self, f: Progress) {
        self.progress = Some(f);
    }

    /// Multiple iterative deepening at one node. Returns (pn, dn, len, hand, rep): `hand` is
    /// the proof or disproof hand when decided, `rep` whether a disproof depends on the path.
    fn mid(
        &mut self,
        g: &G,
        or_node: bool,
        th_pn: u32,
        th_dn: u32,
        ply: u32,
        phash: u64,
    ) -> (u32, u32, u16, G::Hand, u32) {
        self.nodes += 1;
        self.check_limits();
        let key = self.table_key(g, ply);
        if ply >= self.max_ply {
            // Too deep for the stack: unprovable here, but not disproven. Stored so that the
            // parent reads it and turns elsewhere; it is never a proof or a disproof.
            self.ply_cutoffs += 1;
            let hand = g.attacker_hand();
            self.table.store(key, hand, INF, 1, 0, 1);
            return (INF, 1, 0, hand, NO_REP);
        }
        let hand = g.attacker_hand();
        let remaining = self.depth_limit.map(|l| l.saturating_sub(ply));

        // Already decided (reached again through a nested or line-reading search).
        let known = self.table.probe(key, hand);
        let force = self.force_expand;
        if force {
            self.force_expand = false;
        } else if known.pn == 0 {
            return (0, INF, known.len, known.hand, NO_REP);
        } else if known.dn == 0 {
            return (INF, 0, 0, known.hand, NO_REP);
        }

        // Ply-limited runs read what the unlimited run decided: no mate at all, or a proof
        // no longer than the plies left (unless forced to search the node itself).
        if let (Some(r), false) = (remaining, force) {
            let u = self.table.probe(g.board_key(), hand);
            if u.dn == 0 {
                self.table.store(key, u.hand, INF, 0, 0, 1);
                return (INF, 0, 0, u.hand, NO_REP);
            }
            if u.pn == 0 && u32::from(u.len) <= r {
                self.table.store(key, u.hand, 0, INF, u.len, 1);
                return (0, INF, u.len, u.hand, NO_REP);
            }
        }

        // Depth limit: an attacker node with no ply left cannot mate.
        if or_node && remaining == Some(0) {
            self.table.store(key, hand, INF, 0, 0, 1);
            return (INF, 0, 0, hand, NO_REP);
        }

        let depth = ply as usize;
        while self.buffers.len() <= depth {
            self.buffers.push(Vec::new());
            self.moves.push(Vec::new());
            self.scratch.push(None);
        }
        let mut moves = std::mem::take(&mut self.moves[depth]);
        if !self.move_cache.get(g.key(), &mut moves) {
            if or_node {
                g.attacker_moves(&mut moves);
            } else {
                g.defender_moves(&mut moves);
            }
            self.move_cache.put(g.key(), &moves);
        }
        if moves.is_empty() {
            self.moves[depth] = moves;
            return if or_node {
                let d = g.no_check_disproof_hand();
                self.table.store(key, d, INF, 0, 0, 1);
                (INF, 0, 0, d, NO_REP)
            } else if g.is_mated() {
                let p = g.mated_proof_hand();
                self.table.store(key, p, 0, INF, 0, 1);
                (0, INF, 0, p, NO_REP)
            } else {
                // No move but not mate (stalemate in chess): the attacker failed.
                let d = g.no_check_disproof_hand();
                self.table.store(key, d, INF, 0, 0, 1);
                (INF, 0, 0, d, NO_REP)
            };
        }

        // Expand: children with their keys; futile interpositions dropped in depth-limited
        // (shortest mate) searches, where they must not count.
        let mut kids = std::mem::take(&mut self.buffers[depth]);
        kids.clear();
        let mut futile: Vec<G::Move> = Vec::new();
        if !or_node && remaining.is_some() && self.skip_futile {
            futile.extend(moves.iter().filter(|&&m| g.is_futile_interposition(m)));
            // When every evasion is such a drop, the check mates by the convention (the drops
            // only add their own capture). Proven for this hand and larger ones: with fewer
            // pieces the defender has fewer such drops, each still futile.
            if futile.len() == moves.len() {
                self.moves[depth] = moves;
                self.buffers[depth] = kids;
                self.table.store(key, hand, 0, INF, 0, 1);
                return (0, INF, 0, hand, NO_REP);
            }
        }
        // Children are built one after another in one place (expansion, then descent).
        let mut scratch = Scratch {
            slot: self.scratch[depth].take(),
            built: false,
        };
        // First every child's keys, its clusters prefetched: they load while the checks'
        // answers are counted (the child needs only its keys and hand, which the game computes
        // without building the position).
        for &m in moves.iter() {
            if futile.contains(&m) {
                continue;
            }
            let (board_key, full, h) = g.child_keys(m);
            if or_node {
                // Its answer count is looked up in the second pass.
                crate::memory::prefetch(&self.answers[full as usize & (ANSWERS - 1)]);
            }
            kids.push(Child {
                mv: m,
                key: self.prefetch_child(board_key, ply),
                full,
                hand: h,
                pn: 1,
                dn: 1,
                init_pn: 1,
                len: 0,
                rep: NO_REP,
                dhand: h,
            });
        }
        // Attacker moves: the child is looked at one ply further (a check with no answer
        // mates; the number of answers is its first proof number, df-pn+); it is built only
        // when its count is not cached, or to tell a mate.
        // With muda-ai, a check answered only by futile drops mates too.
        let muda = self.skip_futile && remaining.is_some();
        let checks = if or_node { kids.len() } else { 0 };
        for i in 0..checks {
            let (m, ck, full) = (kids[i].mv, kids[i].key, kids[i].full);
            let answers = match self.cached_answers(full) {
                Some(n) if n > 0 && !muda => n,
                cached => {
                    let c: &G = scratch.child(g, m);
                    let answers = cached.unwrap_or_else(|| self.count_answers(c));
                    let futile_mate = answers > 0 && muda && c.mated_but_for_futile_drops();
                    if (answers == 0 && c.is_mated()) || futile_mate {
                        // Mate in one: no need to look further.
                        let cp = if futile_mate {
                            c.attacker_hand()
                        } else {
                            c.mated_proof_hand()
                        };
                        self.table.store(ck, cp, 0, INF, 0, 1);
                        let p = g.or_proof_hand(m, cp);
                        self.moves[depth] = moves;
                        self.buffers[depth] = kids;
                        self.scratch[depth] = scratch.slot;
                        self.table.store(key, p, 0, INF, 1, 1);
                        return (0, INF, 1, p, NO_REP);
                    }
                    answers
                }
            };
            kids[i].init_pn = (answers as u32).max(1);
        }
        self.moves[depth] = moves;

        if or_node && remaining == Some(1) && !self.aborted {
            // One ply left and no check mates at once.
            self.buffers[depth] = kids;
            self.scratch[depth] = scratch.slot;
            self.table.store(key, hand, INF, 0, 0, 1);
            return (INF, 0, 0, hand, NO_REP);
        }

        let start_nodes = self.nodes;
        let my_index = self.path.len() as u32;
        self.path.push(g.key());
        self.path_filter[g.key() as usize & (PATH_FILTER - 1)] += 1;
        let (mut pn, mut dn);
        let mut best_len;
        let mut rep_dep;
        let mut any_rep;
        loop {
            // Read the children.
            pn = if or_node { INF } else { 0 };
            dn = if or_node { 0 } else { INF };
            best_len = if or_node { u16::MAX } else { 0 };
            // OR: the earliest path position any disproof depends on; AND: the latest one
            // among disproven children, none if one is disproven outright.
            rep_dep = if or_node { NO_REP } else { 0 };
            any_rep = false;
            let mut clean_disproof = false;
            // Weak proof number: largest child proof number and unproven children.
            let (mut weak_max, mut weak_open) = (0u32, 0u32);
            for k in kids.iter_mut() {
                if k.rep == NO_REP && (k.pn == 0 || k.dn == 0) {
                    // Decided on an earlier pass: proofs and disproofs do not change.
                } else {
                    let child_hash = path_hash(phash, k.full);
                    let on_path = if self.path_filter[k.full as usize & (PATH_FILTER - 1)] == 0 {
                        None
                    } else {
                        self.path.iter().position(|&x| x == k.full)
                    };
                    k.rep = match on_path {
                        Some(i) => i as u32,
                        None => self.rep_table.get(&child_hash).copied().unwrap_or(NO_REP),
                    };
                    if k.rep != NO_REP {
                        k.pn = INF;
                        k.dn = 0;
                    } else {
                        let p = self.table.probe(k.key, k.hand);
                        k.pn = p.pn;
                        k.dn = p.dn;
                        if p.pn == 1 && p.dn == 1 {
                            k.pn = k.init_pn;
                        }
                        k.len = p.len;
                        k.dhand = p.hand;
                    }
                }
                if k.rep != NO_REP {
                    any_rep = true;
                }
                if or_node {
                    pn = pn.min(k.pn);
                    dn = add(dn, k.dn);
                    if k.pn == 0 {
                        best_len = best_len.min(k.len.saturating_add(1));
                    }
                    rep_dep = rep_dep.min(k.rep);
                } else {
                    pn = add(pn, k.pn);
                    if k.pn != 0 {
                        weak_max = weak_max.max(k.pn);
                        weak_open += 1;
                    }
                    dn = dn.min(k.dn);
                    best_len = best_len.max(k.len.saturating_add(1));
                    if k.dn == 0 {
                        if k.rep == NO_REP {
                            clean_disproof = true;
                        } else {
                            rep_dep = rep_dep.max(k.rep);
                        }
                    }
                }
            }
            if !or_node && self.weak_pn {
                pn = if weak_open == 0 {
                    0
                } else {
                    add(weak_max, weak_open - 1)
                };
            }
            if clean_disproof || (!or_node && dn != 0) {
                rep_dep = NO_REP;
            }
            if pn == 0 || dn == 0 || pn >= th_pn || dn >= th_dn || self.aborted {
                break;
            }
            // Select the most promising child and the second-best value.
            let (mut bi, mut best, mut second) = (0usize, u32::MAX, u32::MAX);
            for (i, k) in kids.iter().enumerate() {
                let v = if or_node { k.pn } else { k.dn };
                if v < best {
                    second = best;
                    best = v;
                    bi = i;
                } else if v < second {
                    second = v;
                }
            }
            let k = kids[bi];
            // An infinite threshold stays infinite: sums of disproof numbers along a long
            // line saturate at INF - 1, and a child's threshold computed from a saturated
            // sum (INF - (INF - 1) + its own INF - 1, capped at INF - 1) would be no more
            // than the child's number, so it would return at once, forever (Astral
            // Traveler's root did, after 16M nodes).
            let (c_pn, c_dn) = if or_node {
                let t_pn = th_pn.min(widen(second));
                let t_dn = if th_dn >= INF {
                    INF
                } else {
                    add(th_dn.saturating_sub(dn), k.dn).min(INF)
                };
                // A saturated second-best (INF - 1, widened to no more) would give the child
                // no room: it then gets this node's threshold, which its number is below.
                let t_pn = if t_pn <= k.pn { th_pn } else { t_pn };
                (t_pn, t_dn)
            } else {
                let t_dn = th_dn.min(widen(second));
                let t_dn = if t_dn <= k.dn { th_dn } else { t_dn };
                let t_pn = if th_pn >= INF {
                    INF
                } else {
                    add(th_pn.saturating_sub(pn), k.pn).min(INF)
                };
                (t_pn, t_dn)
            };
            let c: &G = scratch.child(g, k.mv);
            let child_hash = path_hash(phash, k.full);
            let (_, r_dn, _, _, r_rep) = self.mid(c, !or_node, c_pn, c_dn, ply + 1, child_hash);
            if r_dn == 0 && r_rep != NO_REP {
                self.rep_table.insert(child_hash, r_rep);
                self.rep_disproofs += 1;
            }
            if self.aborted {
                // The child's values are in the table; read them once more and stop.
                continue;
            }
        }
        self.path.pop();
        self.path_filter[g.key() as usize & (PATH_FILTER - 1)] -= 1;
        let work = self.nodes - start_nodes + 1;

        // Store the result.
        let result = if pn == 0 {
            let p = if or_node {
                let k = kids
                    .iter()
                    .filter(|k| k.pn == 0)
                    .min_by_key(|k| k.len)
                    .copied();
                match k {
                    Some(k) => g.or_proof_hand(k.mv, k.dhand),
                    None => hand,
                }
            } else {
                let mut m = G::Hand::default();
                for k in kids.iter() {
                    m = m.max(k.dhand);
                }
                g.and_proof_hand(m)
            };
            let len = best_len;
            self.table.store(key, p, 0, INF, len, work);
            (0, INF, len, p, NO_REP)
        } else if dn == 0 {
            let d = if or_node {
                let mut m: Option<G::Hand> = None;
                for k in kids.iter() {
                    let h = g.or_disproof_hand(k.mv, k.dhand);
                    m = Some(match m {
                        Some(x) => x.min(h),
                        None => h,
                    });
                }
                g.or_disproof_hand_final(m.unwrap_or(hand))
            } else {
                match kids.iter().find(|k| k.dn == 0 && k.rep == NO_REP) {
                    Some(k) => g.and_disproof_hand(k.mv, k.dhand),
                    None => hand,
                }
            };
            // A disproof that rests only on positions from this node down holds whatever
            // the path to it; one that rests on earlier path positions is recorded by the
            // caller under the path hash and stays out of the table.
            let d = if or_node && any_rep { hand } else { d };
            if rep_dep != NO_REP && rep_dep < my_index {
                (INF, 0, 0, d, rep_dep)
            } else {
                self.table.store(key, d, INF, 0, 0, work);
                (INF, 0, 0, d, NO_REP)
            }
        } else {
            self.table.store(key, hand, pn, dn, 0, work);
            (pn, dn, 0, hand, NO_REP)
        };
        self.buffers[depth] = kids;
        self.scratch[depth] = scratch.slot;
        result
    }
}

/// A position and the move it was built with, boxed so that it moves in and out of the solver
/// by pointer.
type ScratchSlot<G> = Option<Box<(G, <G as MateGame>::Move)>>;

/// Where a node builds its children, one after another in one place: each from the one before
/// (only what the previous move changed is undone), the first by one copy of the node into
/// storage kept per depth.
struct Scratch<G: MateGame> {
    /// A position and the move it was built with.
    slot: ScratchSlot<G>,
    /// Whether the slot holds a child of this node (else a position left by an earlier node
    /// at this depth).
    built: bool,
}

impl<G: MateGame> Scratch<G> {
    /// The position after `m` from `g` (the node whose scratch this is).
    fn child(&mut self, g: &G, m: G::Move) -> &G {
        match self.slot.as_deref_mut() {
            Some((c, last)) => {
                if self.built {
                    g.next_child_into(*last, m, c);
                } else {
                    g.after_into(m, c);
                }
                *last = m;
            }
            // Allocated once per depth, the first time a node there builds a child.
            None => self.slot = Some(Box::new((g.after(m), m))),
        }
        self.built = true;
        &self.slot.as_deref().expect("filled above").0
    }
}
