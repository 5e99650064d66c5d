//! Depth-first proof-number search (Nagai's df-pn) with the 1+epsilon threshold trick, hand
//! dominance through proof and disproof hands, delayed expansion of interposing drops (see
//! [`Solver::set_delayed_drops`]), node and time limits, and repetition handling that keeps
//! path-dependent disproofs out of the main table.
//!
//! Repetition: in a mate problem every attacker move is a check, so a repeated position means
//! perpetual check, a loss for the attacker. Such a "disproof" holds only for the path that
//! repeats; storing it as an ordinary disproof would let another path read a false "no mate"
//! (the graph-history-interaction problem). Disproofs that depend on a repetition are kept in
//! a side table keyed by a hash of the whole path from the root, so they are reused only when
//! the same path is searched again. Proofs never depend on the path (a proof tree is finite).

use crate::game::{HandSet, MateGame};
use crate::move_cache::MoveCache;
use crate::tt::{Probe, Table, INF};
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
    /// At a defender node, the index of the drop on the same square listed before this one
    /// ([`NO_PRED`]: none): this child waits until that one is proven (see [`deferred`]).
    pred: u16,
    /// What the child's last search from this node returned, when it rested on no
    /// repetition: read again if the table has lost the child's entry since (see
    /// [`Solver::read_children`]).
    searched: Option<NodeResult<H>>,
}

/// No earlier drop on the same square.
const NO_PRED: u16 = u16::MAX;

/// Whether child `i` waits for the drop on its square listed before it (delayed expansion):
/// undecided, and that drop not yet proven. Such a child counts in neither of the node's
/// numbers (but a node whose one open answer has drops waiting behind it counts one more:
/// see [`Summary::of_and_node`]) and is not searched until then; proven or disproven it
/// counts as usual.
#[inline]
fn deferred<M, H>(kids: &[Child<M, H>], i: usize) -> bool {
    let k = &kids[i];
    k.pred != NO_PRED && k.pn != 0 && k.dn != 0 && kids[k.pred as usize].pn != 0
}

/// A df-pn solver with its table. Reusable across problems (the table is kept unless cleared).
pub struct Solver<G: MateGame> {
    table: Table<G::Hand>,
    /// Path-dependent disproofs: path hash -> index of the earliest path position they
    /// depend on.
    rep_table: HashMap<u64, u32, KeyHasher>,
    /// Most entries `rep_table` holds (see [`rep_table_cap`]).
    rep_cap: usize,
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
    /// Per depth, the storage the node searched there expands into (see [`Expansion`]).
    expansions: Vec<Expansion<G>>,
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
    /// Drops on one square searched one at a time (see [`deferred`]).
    delayed: bool,
    /// The mate-in-three test at the root (see [`Solver::set_mate_in_three`]).
    mate3: bool,
    /// Storage of the mate-in-three test, lent to it while it runs.
    mate3_scratch: Option<Box<Mate3Scratch<G>>>,
}

/// What [`Solver::mate_in_three`] works in: the check order, the answers to a check, the
/// checks after an answer, and the two positions below the node's child.
struct Mate3Scratch<G: MateGame> {
    order: Vec<(u32, u32)>,
    answers: Vec<G::Move>,
    checks: Vec<G::Move>,
    after_answer: G,
    after_check: G,
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
pub(crate) struct KeyHasher;

/// A set of position keys (already hashes: stored as they are).
pub(crate) type KeySet = std::collections::HashSet<u64, KeyHasher>;

impl std::hash::BuildHasher for KeyHasher {
    type Hasher = KeyHash;
    fn build_hasher(&self) -> KeyHash {
        KeyHash(0)
    }
}

pub(crate) struct KeyHash(u64);

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

/// Entries of the side table of path-dependent disproofs for a main table of `table_bytes`:
/// a map entry takes about 16 bytes and a map up to twice its entries, so the side table stays
/// within about an eighth of the main table's memory (at least 1024 entries).
fn rep_table_cap(table_bytes: usize) -> usize {
    (table_bytes / 256).max(1024)
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
            rep_cap: rep_table_cap(limits.table_bytes),
            path: Vec::new(),
            path_filter: vec![0; PATH_FILTER],
            answers: vec![0; ANSWERS],
            move_cache: MoveCache::new(MOVE_LISTS),
            max_ply: DEFAULT_MAX_PLY,
            ply_cutoffs: 0,
            expansions: Vec::new(),
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
            delayed: true,
            mate3: true,
            mate3_scratch: None,
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

    /// Delayed expansion of interpositions (on by default): at a defender node, of the drops
    /// that interpose on one square, one is searched at a time, the next once it is proven.
    /// A check along a long line can be answered by a drop of each kind in hand on each
    /// square between; their proofs are alike (the checker takes, the attack goes on), and
    /// counting them all at once made such a check look dozens of times harder than it is.
    /// Proofs and disproofs are the same either way (a proof still needs every drop proven);
    /// only the order of the search changes. Off: every drop counts from the start.
    /// A check's first proof number (df-pn+, the number of answers) counts the drops on one
    /// square once as well, as the defender node will have them open: counted in full, a
    /// check answered from afar read as dozens of times harder before its first expansion
    /// than after it.
    pub fn set_delayed_drops(&mut self, on: bool) {
        if on != self.delayed {
            // The cached answer counts are counted the other way.
            self.answers.fill(0);
        }
        self.delayed = on;
    }

    /// The mate-in-three test at the root of unlimited searches (on by default): a root whose
    /// checks have no mate in one looks, before its children are searched, for a check every
    /// answer to which has a mate in one ([`Solver::mate_in_three`]), so a mate in three is
    /// one node. Its work is not counted in nodes (a node is a call of the df-pn recursion).
    /// Tried at every new attacker node it cut tanuki's nodes from 108,184 to 45,190 but
    /// cost 56% more instructions: most such nodes have no mate in three, and each check
    /// tried costs an answer's mate-in-one test.
    pub fn set_mate_in_three(&mut self, on: bool) {
        self.mate3 = on;
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
        let r = self.mid(root, true, Thresholds::NONE, 0, path_hash(0, root.key()));
        if r.pn == 0 {
            Verdict::Mate
        } else if r.dn == 0 {
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
    /// search (a fresh path).
    pub(crate) fn prove_at(&mut self, g: &G, or_node: bool, ply: u32) -> NodeResult<G::Hand> {
        let saved = std::mem::take(&mut self.path);
        let seed = self.path_seed(ply);
        let r = self.mid(g, or_node, Thresholds::NONE, ply, path_hash(seed, g.key()));
        self.path = saved;
        r
    }

    /// Like [`Solver::prove_at`], but `g` itself is searched even when the table has it
    /// decided: the children its proof needs are proven (and stored) again. Used when
    /// reading a line whose entries were replaced.
    pub(crate) fn reprove_at(&mut self, g: &G, or_node: bool, ply: u32) -> NodeResult<G::Hand> {
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

    /// What the table says about `g` at `ply` (the hand: the proof or disproof hand when
    /// decided).
    pub(crate) fn probe(&self, g: &G, ply: u32) -> NodeResult<G::Hand> {
        self.probe_keys(g.board_key(), g.attacker_hand(), ply)
    }

    /// [`Solver::probe`] of the position with board key `board_key` and attacker hand
    /// `hand` (a child's, from [`MateGame::child_keys`], without building it).
    pub(crate) fn probe_keys(
        &self,
        board_key: u64,
        hand: G::Hand,
        ply: u32,
    ) -> NodeResult<G::Hand> {
        let p = self.table.probe(self.table_key_of(board_key, ply), hand);
        if let (Some(l), true) = (self.depth_limit, p.pn != 0 && p.dn != 0) {
            // Fall back on the unlimited run's result where it decides the question.
            let u = self.table.probe(board_key, hand);
            if u.dn == 0 {
                return NodeResult::disproof(u.hand);
            }
            if u.pn == 0 && u32::from(u.len) <= l.saturating_sub(ply) {
                return NodeResult::proof(u.len, u.hand);
            }
        }
        NodeResult {
            len: p.len,
            ..NodeResult::open(p.pn, p.dn, p.hand)
        }
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
        // With delayed drops, the answers the defender node will have open at first: the
        // drops on one square count once.
        let n = if self.delayed {
            c.defender_move_groups()
        } else {
            c.defender_move_count()
        };
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

    /// Multiple iterative deepening at one node: searches `g` until it is decided, its proof
    /// or disproof number reaches its threshold, or a limit stops the search. The steps:
    /// what is known without expanding ([`Solver::settle_unexpanded`]), the expansion
    /// ([`Solver::expand`]), the search of the children ([`Solver::search_children`]) and
    /// the conclusion ([`Solver::conclude`]).
    fn mid(
        &mut self,
        g: &G,
        or_node: bool,
        th: Thresholds,
        ply: u32,
        path_hash: u64,
    ) -> NodeResult<G::Hand> {
        self.nodes += 1;
        self.check_limits();
        let node = Node {
            pos: g,
            or_node,
            ply,
            path_hash,
            table_key: self.table_key(g, ply),
            hand: g.attacker_hand(),
            remaining: self.depth_limit.map(|l| l.saturating_sub(ply)),
        };
        if let Some(r) = self.settle_unexpanded(&node) {
            return r;
        }
        // The node expands into the storage kept for its depth, lent to it until it is done:
        // the one way out from here gives it back.
        let depth = ply as usize;
        if self.expansions.len() <= depth {
            self.expansions.resize_with(depth + 1, Expansion::default);
        }
        let mut x = std::mem::take(&mut self.expansions[depth]);
        x.reset();
        let r = match self.expand(&mut x, &node) {
            Some(decided) => decided,
            None => self.search_children(&mut x, &node, th),
        };
        self.expansions[depth] = x;
        r
    }

    /// Stores `r` as the table's entry for `key`, which took `work` nodes, and returns it.
    #[inline]
    fn store(&mut self, key: u64, r: NodeResult<G::Hand>, work: u64) -> NodeResult<G::Hand> {
        self.table.store(key, r.hand, r.pn, r.dn, r.len, work);
        r
    }

    /// The value of `node` when it is known without generating its moves: past the ply cap,
    /// decided in the table (unless the node is to be searched anyway), decided by the
    /// unlimited run for a ply-limited one, or an attacker node with no ply left.
    fn settle_unexpanded(&mut self, node: &Node<G>) -> Option<NodeResult<G::Hand>> {
        if node.ply >= self.max_ply {
            // Too deep for the stack: unprovable here, but not disproven. Stored so that the
            // parent reads it and turns elsewhere; it is never a proof or a disproof.
            self.ply_cutoffs += 1;
            return Some(self.store(node.table_key, NodeResult::open(INF, 1, node.hand), 1));
        }
        let forced = std::mem::replace(&mut self.force_expand, false);
        if !forced {
            // Already decided (reached again through a nested or line-reading search).
            let known = self.table.probe(node.table_key, node.hand);
            if known.pn == 0 {
                return Some(NodeResult::proof(known.len, known.hand));
            }
            if known.dn == 0 {
                return Some(NodeResult::disproof(known.hand));
            }
            // Ply-limited runs read what the unlimited run decided: no mate at all, or a
            // proof no longer than the plies left.
            if let Some(r) = node.remaining {
                let u = self.table.probe(node.pos.board_key(), node.hand);
                if u.dn == 0 {
                    return Some(self.store(node.table_key, NodeResult::disproof(u.hand), 1));
                }
                if u.pn == 0 && u32::from(u.len) <= r {
                    let proof = NodeResult::proof(u.len, u.hand);
                    return Some(self.store(node.table_key, proof, 1));
                }
            }
        }
        // Depth limit: an attacker node with no ply left cannot mate.
        if node.or_node && node.remaining == Some(0) {
            return Some(self.store(node.table_key, NodeResult::disproof(node.hand), 1));
        }
        None
    }

    /// Expands `node` into `x`: its moves, then its children with their keys and first
    /// proof numbers. Returns the node's value when the expansion alone decides it: no move,
    /// every evasion futile, a check that mates at once, or no such check with one ply left.
    fn expand(&mut self, x: &mut Expansion<G>, node: &Node<G>) -> Option<NodeResult<G::Hand>> {
        let g = node.pos;
        self.generate_moves(g, node.or_node, &mut x.moves);
        if x.moves.is_empty() {
            return Some(self.without_moves(node));
        }
        // Futile interpositions are left out in depth-limited (shortest mate) searches, where
        // they must not count.
        let mut futile: Vec<G::Move> = Vec::new();
        if !node.or_node && node.remaining.is_some() && self.skip_futile {
            futile.extend(x.moves.iter().filter(|&&m| g.is_futile_interposition(m)));
            // When every evasion is such a drop, the check mates by the convention (the drops
            // only add their own capture). Proven for this hand and larger ones: with fewer
            // pieces the defender has fewer such drops, each still futile.
            if futile.len() == x.moves.len() {
                return Some(self.store(node.table_key, NodeResult::proof(0, node.hand), 1));
            }
        }
        self.list_children(x, node, &futile);
        if node.or_node {
            if let Some(mate) = self.first_proof_numbers(x, node) {
                return Some(mate);
            }
            if self.mate3 && node.ply == 0 && node.remaining.is_none() && 3 < self.max_ply {
                if let Some(mate) = self.mate_in_three(x, node) {
                    return Some(mate);
                }
            }
            if node.remaining == Some(1) && !self.aborted {
                // One ply left and no check mates at once.
                return Some(self.store(node.table_key, NodeResult::disproof(node.hand), 1));
            }
        }
        None
    }

    /// Fills `moves` with the checks (`or_node`) or evasions of `g`, from the cache when it
    /// has them.
    #[inline]
    pub(crate) fn generate_moves(&mut self, g: &G, or_node: bool, moves: &mut Vec<G::Move>) {
        if !self.move_cache.get(g.key(), moves) {
            if or_node {
                g.attacker_moves(moves);
            } else {
                g.defender_moves(moves);
            }
            self.move_cache.put(g.key(), moves);
        }
    }

    /// The value of a node with no move, stored: an attacker without a check has failed; a
    /// defender without an evasion is mated, unless it is not in check after all (stalemate
    /// in chess: the attacker has failed).
    fn without_moves(&mut self, node: &Node<G>) -> NodeResult<G::Hand> {
        let g = node.pos;
        let r = if !node.or_node && g.is_mated() {
            NodeResult::proof(0, g.mated_proof_hand())
        } else {
            NodeResult::disproof(g.no_check_disproof_hand())
        };
        self.store(node.table_key, r, 1)
    }

    /// Lists the children of `node` in `x` (its moves but `futile`) with their keys, their
    /// numbers at one. Their table clusters start loading here, and at attacker nodes their
    /// answer-count slots, which [`Solver::first_proof_numbers`] reads next (the game
    /// computes a child's keys and hand without building the position).
    #[inline]
    fn list_children(&self, x: &mut Expansion<G>, node: &Node<G>, futile: &[G::Move]) {
        for &m in x.moves.iter() {
            if futile.contains(&m) {
                continue;
            }
            let (board_key, full, h) = node.pos.child_keys(m);
            if node.or_node {
                crate::memory::prefetch(&self.answers[full as usize & (ANSWERS - 1)]);
            }
            let pred = if node.or_node || !self.delayed {
                NO_PRED
            } else {
                node.pos.interposition_square(m).map_or(NO_PRED, |sq| {
                    x.kids
                        .iter()
                        .rposition(|k| node.pos.interposition_square(k.mv) == Some(sq))
                        .map_or(NO_PRED, |j| j as u16)
                })
            };
            x.kids.push(Child {
                pred,
                mv: m,
                key: self.prefetch_child(board_key, node.ply),
                full,
                hand: h,
                pn: 1,
                dn: 1,
                init_pn: 1,
                len: 0,
                rep: NO_REP,
                dhand: h,
                searched: None,
            });
        }
    }

    /// The first proof number of each check of attacker node `node`: the child is looked at
    /// one ply further, and the number of answers is its first proof number (df-pn+). The
    /// child is built only when its count is not cached, or to tell a mate. Returns the
    /// node's proof, stored, when a check mates at once (with muda-ai also a check answered
    /// only by futile drops).
    fn first_proof_numbers(
        &mut self,
        x: &mut Expansion<G>,
        node: &Node<G>,
    ) -> Option<NodeResult<G::Hand>> {
        let muda = self.skip_futile && node.remaining.is_some();
        for i in 0..x.kids.len() {
            let (m, ck, full) = (x.kids[i].mv, x.kids[i].key, x.kids[i].full);
            let answers = match self.cached_answers(full) {
                Some(n) if n > 0 && !muda => n,
                cached => {
                    let c: &G = x.scratch.child(node.pos, m);
                    let answers = cached.unwrap_or_else(|| self.count_answers(c));
                    let futile_mate = answers > 0 && muda && c.mated_but_for_futile_drops();
                    if (answers == 0 && c.is_mated()) || futile_mate {
                        let cp = if futile_mate {
                            c.attacker_hand()
                        } else {
                            c.mated_proof_hand()
                        };
                        self.store(ck, NodeResult::proof(0, cp), 1);
                        let proof = NodeResult::proof(1, node.pos.or_proof_hand(m, cp));
                        return Some(self.store(node.table_key, proof, 1));
                    }
                    answers
                }
            };
            x.kids[i].init_pn = (answers as u32).max(1);
        }
        None
    }

    /// A mate in three at attacker node `node`, whose checks (in `x`, with their answer
    /// counts) have no mate in one: a check every answer to which has a check that mates at
    /// once. The checks are tried fewest answers first, and each is given up at its first
    /// answer without a mate in one. On success the proofs of the mated positions, of the
    /// answers' positions, of the check's position and of the node are stored (so that the
    /// line is read from the table as after a search) and the node's proof is returned.
    /// Answers to the other checks found mated in one along the way are stored too.
    fn mate_in_three(
        &mut self,
        x: &mut Expansion<G>,
        node: &Node<G>,
    ) -> Option<NodeResult<G::Hand>> {
        let mut m3 = match self.mate3_scratch.take() {
            Some(m3) => m3,
            None => Box::new(Mate3Scratch {
                order: Vec::new(),
                answers: Vec::new(),
                checks: Vec::new(),
                after_answer: node.pos.clone(),
                after_check: node.pos.clone(),
            }),
        };
        m3.order.clear();
        m3.order
            .extend((0..x.kids.len() as u32).map(|i| (x.kids[i as usize].init_pn, i)));
        m3.order.sort_unstable();
        let mut found = None;
        for oi in 0..m3.order.len() {
            let k = x.kids[m3.order[oi].1 as usize];
            let c: &G = x.scratch.child(node.pos, k.mv);
            if let Some(hand) = self.answers_mated_in_one(c, node.ply + 1, &mut m3) {
                self.store(k.key, NodeResult::proof(2, hand), 1);
                let proof = NodeResult::proof(3, node.pos.or_proof_hand(k.mv, hand));
                found = Some(self.store(node.table_key, proof, 1));
                break;
            }
        }
        self.mate3_scratch = Some(m3);
        found
    }

    /// If every answer in `c` (defender to move, `ply` plies down) has a check that mates at
    /// once, the proof hand of `c`, with the answers' and the mated positions' proofs stored.
    fn answers_mated_in_one(
        &mut self,
        c: &G,
        ply: u32,
        m3: &mut Mate3Scratch<G>,
    ) -> Option<G::Hand> {
        let mut answers = std::mem::take(&mut m3.answers);
        self.generate_moves(c, false, &mut answers);
        let mut most = G::Hand::default();
        let mut all = !answers.is_empty();
        for &a in answers.iter() {
            c.after_into(a, &mut m3.after_answer);
            match self.mate_in_one(ply + 1, m3) {
                Some(hand) => most = most.max(hand),
                None => {
                    all = false;
                    break;
                }
            }
        }
        m3.answers = answers;
        all.then(|| c.and_proof_hand(most))
    }

    /// A check that mates at once in `m3.after_answer` (attacker to move, `ply` plies down):
    /// the position's proof hand, with its proof and the mated position's stored.
    fn mate_in_one(&mut self, ply: u32, m3: &mut Mate3Scratch<G>) -> Option<G::Hand> {
        let mut checks = std::mem::take(&mut m3.checks);
        let g = &m3.after_answer;
        g.mate_candidates(&mut checks);
        let mut found = None;
        for &m in checks.iter() {
            let (board_key, full, _) = g.child_keys(m);
            let cached = self.cached_answers(full);
            if cached.is_some_and(|n| n > 0) {
                continue;
            }
            g.after_into(m, &mut m3.after_check);
            let mated = &m3.after_check;
            let answers = cached.unwrap_or_else(|| self.count_answers(mated));
            if answers == 0 && mated.is_mated() {
                let cp = mated.mated_proof_hand();
                self.store(
                    self.table_key_of(board_key, ply + 1),
                    NodeResult::proof(0, cp),
                    1,
                );
                let hand = g.or_proof_hand(m, cp);
                self.store(self.table_key(g, ply), NodeResult::proof(1, hand), 1);
                found = Some(hand);
                break;
            }
        }
        m3.checks = checks;
        found
    }

    /// The df-pn loop at an expanded node: read the children; while the node stays undecided
    /// within its thresholds `th`, search the most promising child within thresholds of its
    /// own and read again; then conclude.
    fn search_children(
        &mut self,
        x: &mut Expansion<G>,
        node: &Node<G>,
        th: Thresholds,
    ) -> NodeResult<G::Hand> {
        let start_nodes = self.nodes;
        let path_index = self.enter_path(node.pos.key());
        let s = loop {
            self.read_children(&mut x.kids, node);
            let s = if node.or_node {
                Summary::of_or_node(&x.kids)
            } else {
                Summary::of_and_node(&x.kids, self.weak_pn)
            };
            if s.pn == 0 || s.dn == 0 || s.pn >= th.pn || s.dn >= th.dn || self.aborted {
                break s;
            }
            let (best, child_th) = select_child(&x.kids, node.or_node, th, &s);
            let k = x.kids[best];
            let c: &G = x.scratch.child(node.pos, k.mv);
            let child_hash = path_hash(node.path_hash, k.full);
            let r = self.mid(c, !node.or_node, child_th, node.ply + 1, child_hash);
            if r.rep == NO_REP {
                x.kids[best].searched = Some(r);
            }
            if r.dn == 0 && r.rep != NO_REP {
                if self.rep_table.len() >= self.rep_cap {
                    // Saved work only (met again, such a disproof is derived again): emptied
                    // rather than grown past its share of the memory.
                    self.rep_table.clear();
                }
                self.rep_table.insert(child_hash, r.rep);
                self.rep_disproofs += 1;
            }
            // After a stop the next pass reads the child's values from the table and ends.
        };
        self.leave_path(node.pos.key());
        let work = self.nodes - start_nodes + 1;
        self.conclude(x, node, &s, path_index, work)
    }

    /// Puts the position with key `full` on the path; returns its index there.
    #[inline]
    fn enter_path(&mut self, full: u64) -> u32 {
        let index = self.path.len() as u32;
        self.path.push(full);
        self.path_filter[full as usize & (PATH_FILTER - 1)] += 1;
        index
    }

    /// Takes the last position, with key `full`, off the path.
    #[inline]
    fn leave_path(&mut self, full: u64) {
        self.path.pop();
        self.path_filter[full as usize & (PATH_FILTER - 1)] -= 1;
    }

    /// Where the position with key `full` stands on the path, if it does.
    #[inline]
    fn path_index(&self, full: u64) -> Option<usize> {
        if self.path_filter[full as usize & (PATH_FILTER - 1)] == 0 {
            None
        } else {
            self.path.iter().position(|&x| x == full)
        }
    }

    /// Reads what is known of each child of `node` not yet decided: a repetition of a path
    /// position, a repetition disproof recorded for this path, or else the table's entry.
    #[inline]
    fn read_children(&self, kids: &mut [Child<G::Move, G::Hand>], node: &Node<G>) {
        for k in kids.iter_mut() {
            if k.rep == NO_REP && (k.pn == 0 || k.dn == 0) {
                // Decided on an earlier pass: proofs and disproofs do not change.
                continue;
            }
            k.rep = match self.path_index(k.full) {
                Some(i) => i as u32,
                None => {
                    let child_hash = path_hash(node.path_hash, k.full);
                    self.rep_table.get(&child_hash).copied().unwrap_or(NO_REP)
                }
            };
            if k.rep != NO_REP {
                k.pn = INF;
                k.dn = 0;
            } else {
                let mut p = self.table.probe(k.key, k.hand);
                if let (1, 1, Some(r)) = (p.pn, p.dn, k.searched) {
                    // Searched from here and lost from the table since (its cluster taken by
                    // another board): what the search returned, not the first numbers again.
                    // Read afresh, two children evicting each other from one cluster would
                    // each look new every pass and be searched in turn for ever (musou-003
                    // with a 4 MiB table).
                    p = Probe {
                        pn: r.pn,
                        dn: r.dn,
                        hand: r.hand,
                        len: r.len,
                    };
                }
                k.pn = p.pn;
                k.dn = p.dn;
                if p.pn == 1 && p.dn == 1 {
                    k.pn = k.init_pn;
                }
                k.len = p.len;
                k.dhand = p.hand;
            }
        }
    }

    /// The value of `node` after its search, whose children's numbers `s` sums up; stored,
    /// but for a disproof that rests on a repetition of a position above the node (at
    /// `path_index` on the path), which the caller records under the path's hash instead.
    /// `work`: the nodes the search took.
    fn conclude(
        &mut self,
        x: &Expansion<G>,
        node: &Node<G>,
        s: &Summary,
        path_index: u32,
        work: u64,
    ) -> NodeResult<G::Hand> {
        if s.pn == 0 {
            let proof = NodeResult::proof(s.len, x.proof_hand(node));
            self.store(node.table_key, proof, work)
        } else if s.dn == 0 {
            // A disproof that rests only on positions from this node down holds whatever
            // the path to it; one that rests on earlier path positions stays out of the table.
            let hand = if node.or_node && s.any_rep {
                node.hand
            } else {
                x.disproof_hand(node)
            };
            if s.rep_dep != NO_REP && s.rep_dep < path_index {
                NodeResult {
                    rep: s.rep_dep,
                    ..NodeResult::disproof(hand)
                }
            } else {
                self.store(node.table_key, NodeResult::disproof(hand), work)
            }
        } else {
            self.store(
                node.table_key,
                NodeResult::open(s.pn, s.dn, node.hand),
                work,
            )
        }
    }
}

/// The most promising child of a node with thresholds `th` whose children's numbers `s`
/// sums up (the first with the smallest proof number at an attacker node, disproof number
/// at a defender node), and the child's thresholds.
#[inline]
fn select_child<M, H>(
    kids: &[Child<M, H>],
    or_node: bool,
    th: Thresholds,
    s: &Summary,
) -> (usize, Thresholds) {
    let (mut bi, mut best, mut second) = (0usize, u32::MAX, u32::MAX);
    for (i, k) in kids.iter().enumerate() {
        if !or_node && deferred(kids, i) {
            continue;
        }
        let v = if or_node { k.pn } else { k.dn };
        if v < best {
            second = best;
            best = v;
            bi = i;
        } else if v < second {
            second = v;
        }
    }
    let k = &kids[bi];
    // The child may go on while its number stays below the second-best one's widened by
    // 1 + epsilon (and this node's threshold), and its other number below what keeps this
    // node's sum under its threshold. An infinite threshold stays infinite: sums of disproof
    // numbers along a long line saturate at INF - 1, and a child's threshold computed from a
    // saturated sum (INF - (INF - 1) + its own INF - 1, capped at INF - 1) would be no more
    // than the child's number, so it would return at once, forever (Astral Traveler's root
    // did, after 16M nodes).
    let child = if or_node {
        let t_pn = th.pn.min(widen(second));
        let t_dn = if th.dn >= INF {
            INF
        } else {
            add(th.dn.saturating_sub(s.dn), k.dn).min(INF)
        };
        // A saturated second-best (INF - 1, widened to no more) would give the child no
        // room: it then gets this node's threshold, which its number is below.
        let t_pn = if t_pn <= k.pn { th.pn } else { t_pn };
        Thresholds { pn: t_pn, dn: t_dn }
    } else {
        let t_dn = th.dn.min(widen(second));
        let t_dn = if t_dn <= k.dn { th.dn } else { t_dn };
        let t_pn = if th.pn >= INF {
            INF
        } else {
            add(th.pn.saturating_sub(s.pn), k.pn).min(INF)
        };
        Thresholds { pn: t_pn, dn: t_dn }
    };
    (bi, child)
}

/// What the search of a node tells its parent.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NodeResult<H> {
    /// Proof number: 0 when proven.
    pub(crate) pn: u32,
    /// Disproof number: 0 when disproven.
    pub(crate) dn: u32,
    /// Plies of the mate when proven, else 0.
    pub(crate) len: u16,
    /// The proof or disproof hand when decided, else the attacker's hand.
    pub(crate) hand: H,
    /// For a disproof that rests on a repetition of a position above the node: that
    /// position's index on the path ([`NO_REP`]: none; the result is then in the table).
    pub(crate) rep: u32,
}

impl<H> NodeResult<H> {
    /// Proven, mate in `len` plies with `hand` or more.
    fn proof(len: u16, hand: H) -> Self {
        NodeResult {
            pn: 0,
            dn: INF,
            len,
            hand,
            rep: NO_REP,
        }
    }

    /// Disproven with `hand` or less.
    fn disproof(hand: H) -> Self {
        NodeResult {
            pn: INF,
            dn: 0,
            len: 0,
            hand,
            rep: NO_REP,
        }
    }

    /// Undecided, with these numbers.
    fn open(pn: u32, dn: u32, hand: H) -> Self {
        NodeResult {
            pn,
            dn,
            len: 0,
            hand,
            rep: NO_REP,
        }
    }
}

/// The bounds a node is searched within: it returns once its proof number reaches `pn` or
/// its disproof number reaches `dn`.
#[derive(Clone, Copy, Debug)]
struct Thresholds {
    pn: u32,
    dn: u32,
}

impl Thresholds {
    /// No bound: search until decided or stopped.
    const NONE: Thresholds = Thresholds { pn: INF, dn: INF };
}

/// A node as [`Solver::mid`] searches it: the position and what is derived from it once.
struct Node<'a, G: MateGame> {
    pos: &'a G,
    /// The attacker is to move.
    or_node: bool,
    /// Plies below the root.
    ply: u32,
    /// Hash of the path from the root to here (repetition disproofs are kept under it).
    path_hash: u64,
    /// The node's key in the table ([`Solver::table_key`]).
    table_key: u64,
    /// The attacker's hand.
    hand: G::Hand,
    /// Plies left in a depth-limited search (`None`: unlimited).
    remaining: Option<u32>,
}

/// A node's numbers summed up from its children's.
struct Summary {
    pn: u32,
    dn: u32,
    /// Attacker node: one more than the shortest proven child's mate; defender node: one more
    /// than the longest child's.
    len: u16,
    /// Attacker node: the earliest path position any child's disproof depends on; defender
    /// node: the latest one among the disproven children, none if one is disproven outright
    /// or the node is not disproven ([`NO_REP`]: none).
    rep_dep: u32,
    /// Attacker node: some child is disproven by a repetition.
    any_rep: bool,
}

impl Summary {
    /// An attacker node's numbers: the least proof number, the sum of the disproof numbers.
    #[inline]
    fn of_or_node<M, H>(kids: &[Child<M, H>]) -> Summary {
        let mut s = Summary {
            pn: INF,
            dn: 0,
            len: u16::MAX,
            rep_dep: NO_REP,
            any_rep: false,
        };
        for k in kids {
            s.pn = s.pn.min(k.pn);
            s.dn = add(s.dn, k.dn);
            if k.pn == 0 {
                s.len = s.len.min(k.len.saturating_add(1));
            }
            s.rep_dep = s.rep_dep.min(k.rep);
            s.any_rep |= k.rep != NO_REP;
        }
        s
    }

    /// A defender node's numbers: the sum of the proof numbers (with `weak`, the largest
    /// plus one for each other unproven child: see [`Solver::set_weak_proof_numbers`]), the
    /// least disproof number.
    #[inline]
    fn of_and_node<M, H>(kids: &[Child<M, H>], weak: bool) -> Summary {
        let mut s = Summary {
            pn: 0,
            dn: INF,
            len: 0,
            rep_dep: 0,
            any_rep: false,
        };
        let mut clean_disproof = false;
        let (mut weak_max, mut weak_open) = (0u32, 0u32);
        let mut waiting = false;
        for (i, k) in kids.iter().enumerate() {
            if deferred(kids, i) {
                waiting = true;
                continue;
            }
            s.pn = add(s.pn, k.pn);
            if k.pn != 0 {
                weak_max = weak_max.max(k.pn);
                weak_open += 1;
            }
            s.dn = s.dn.min(k.dn);
            s.len = s.len.max(k.len.saturating_add(1));
            if k.dn == 0 {
                if k.rep == NO_REP {
                    clean_disproof = true;
                } else {
                    s.rep_dep = s.rep_dep.max(k.rep);
                }
            }
        }
        // One open answer with drops waiting behind it on its square (a waiting drop's
        // predecessor is open, so that answer is the square's first drop): the node is not
        // forced, and counting it as such sends the search down lines where each check has
        // one drop shown and the rest held back, the proof numbers never rising above one
        // (tanuki-5-227: 4,339 nodes against 199 with every drop shown). It counts one more.
        if waiting && weak_open == 1 {
            s.pn = add(s.pn, 1);
            weak_open += 1;
        }
        if weak {
            s.pn = if weak_open == 0 {
                0
            } else {
                add(weak_max, weak_open - 1)
            };
        }
        if clean_disproof || s.dn != 0 {
            s.rep_dep = NO_REP;
        }
        s
    }
}

/// A node's local expansion: its moves, its children with their numbers, and the place where
/// the children are built. One is kept per depth and lent to the node searched there, so
/// that the search allocates nothing once it has been that deep.
struct Expansion<G: MateGame> {
    /// The node's checks or evasions.
    moves: Vec<G::Move>,
    /// The children searched (all moves but futile interpositions).
    kids: Vec<Child<G::Move, G::Hand>>,
    /// Where the children are built.
    scratch: Scratch<G>,
}

impl<G: MateGame> Default for Expansion<G> {
    fn default() -> Self {
        Expansion {
            moves: Vec::new(),
            kids: Vec::new(),
            scratch: Scratch {
                slot: None,
                built: false,
            },
        }
    }
}

impl<G: MateGame> Expansion<G> {
    /// Readies the storage for a new node: no children, and the scratch position (left by an
    /// earlier node at this depth) not one of them.
    #[inline]
    fn reset(&mut self) {
        self.kids.clear();
        self.scratch.built = false;
    }

    /// The proof hand of proven `node`: through the shortest proven check at an attacker
    /// node, the largest of the children's at a defender node.
    fn proof_hand(&self, node: &Node<G>) -> G::Hand {
        let g = node.pos;
        if node.or_node {
            match self.kids.iter().filter(|k| k.pn == 0).min_by_key(|k| k.len) {
                Some(k) => g.or_proof_hand(k.mv, k.dhand),
                None => node.hand,
            }
        } else {
            let mut m = G::Hand::default();
            for k in self.kids.iter() {
                m = m.max(k.dhand);
            }
            g.and_proof_hand(m)
        }
    }

    /// The disproof hand of disproven `node`: the least of the children's at an attacker
    /// node, through the first evasion disproven outright at a defender node.
    fn disproof_hand(&self, node: &Node<G>) -> G::Hand {
        let g = node.pos;
        if node.or_node {
            let mut m: Option<G::Hand> = None;
            for k in self.kids.iter() {
                let h = g.or_disproof_hand(k.mv, k.dhand);
                m = Some(match m {
                    Some(x) => x.min(h),
                    None => h,
                });
            }
            g.or_disproof_hand_final(m.unwrap_or(node.hand))
        } else {
            match self.kids.iter().find(|k| k.dn == 0 && k.rep == NO_REP) {
                Some(k) => g.and_disproof_hand(k.mv, k.dhand),
                None => node.hand,
            }
        }
    }
}

/// Where a node builds its children, one after another in one place: each from the one before
/// (only what the previous move changed is undone), the first by one copy of the node into
/// storage kept per depth.
struct Scratch<G: MateGame> {
    /// A position and the move it was built with, boxed so that it moves in and out of the
    /// solver by pointer.
    slot: Option<Box<(G, G::Move)>>,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Tsume;

    /// The side table of path-dependent disproofs stays within its cap however many are
    /// found, and emptying it costs only work: a lone rook against a lone king is all
    /// perpetual checks (over a hundred repetition disproofs), searched with the cap cut to 16
    /// here; the search still never claims a mate. The cap is 1024 for a small table and an
    /// eighth of a large one's bytes at 32 bytes an entry.
    #[test]
    fn repetition_disproofs_stay_within_their_cap() {
        let pos = shogi::Position::from_sfen_relaxed("8k/9/9/9/9/9/9/9/R8 b - 1").expect("parses");
        let mut s = Solver::new(Limits {
            nodes: 300_000,
            table_bytes: 64 << 10,
            ..Limits::default()
        });
        assert_eq!(s.rep_cap, 1024);
        assert_eq!(rep_table_cap(512 << 20) * 32, (512 << 20) / 8);
        s.rep_cap = 16;
        let v = s.solve(&Tsume::new(pos));
        assert_ne!(v, Verdict::Mate);
        let found = s.stats().repetition_disproofs;
        assert!(
            found > 4 * s.rep_cap as u64,
            "only {found} repetition disproofs"
        );
        assert!(s.rep_table.len() <= s.rep_cap);
    }

    fn kid(pn: u32, dn: u32, pred: u16) -> Child<u16, ()> {
        Child {
            mv: 0,
            key: 0,
            full: 0,
            hand: (),
            pn,
            dn,
            init_pn: pn,
            len: 3,
            rep: NO_REP,
            dhand: (),
            pred,
            searched: None,
        }
    }

    /// Delayed expansion: of the drops on one square (kids 1 and 2 here, kid 2 listed after
    /// kid 1), the later one counts in neither number and is never selected until the one
    /// before it is proven; a proven or disproven waiting drop counts at once; a node whose
    /// one open answer has drops waiting behind it counts one more.
    #[test]
    fn a_drop_waits_for_the_drop_before_it_on_its_square() {
        let th = Thresholds { pn: INF, dn: INF };
        let mut kids = vec![kid(4, 9, NO_PRED), kid(3, 8, NO_PRED), kid(2, 1, 1)];
        let s = Summary::of_and_node(&kids, false);
        assert_eq!((s.pn, s.dn), (7, 8), "kid 2 waits for kid 1");
        assert_eq!(select_child(&kids, false, th, &s).0, 1);
        let w = Summary::of_and_node(&kids, true);
        assert_eq!(w.pn, 5, "weak: the largest plus one for the other open kid");
        kids[1] = kid(0, INF, NO_PRED);
        let s = Summary::of_and_node(&kids, false);
        assert_eq!((s.pn, s.dn), (6, 1), "kid 1 proven: kid 2 counts");
        assert_eq!(select_child(&kids, false, th, &s).0, 2);
        kids[0] = kid(0, INF, NO_PRED);
        kids[2] = kid(0, INF, 1);
        assert_eq!(Summary::of_and_node(&kids, false).pn, 0, "all proven");
        // A waiting drop disproven (read from the table) disproves the node at once.
        let kids = vec![kid(4, 9, NO_PRED), kid(3, 8, NO_PRED), kid(INF, 0, 1)];
        assert_eq!(Summary::of_and_node(&kids, false).dn, 0);
        // A chain of three: only the first open drop counts, and as the node's one open
        // answer with drops waiting behind it, one more (two open answers, as above, do not).
        let kids = vec![kid(5, 5, NO_PRED), kid(6, 6, 0), kid(7, 7, 1)];
        let s = Summary::of_and_node(&kids, false);
        assert_eq!((s.pn, s.dn), (6, 5));
        assert_eq!(Summary::of_and_node(&kids, true).pn, 6, "weak: the same");
    }
}
