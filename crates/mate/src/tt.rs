//! The fixed-memory transposition table of the df-pn solver.
//!
//! Entries are keyed by the board (without the attacker's hand) and hold the attacker's hand
//! they were searched with. A probe scans one cluster: a proof stored for hand P answers every
//! hand that covers P, a disproof stored for hand D answers every hand that D covers (hand
//! dominance). A cluster is three 20-byte entries and a 16-bit generation in one aligned 64-byte
//! cache line, so a probe costs at most one memory access, and the solver prefetches the
//! clusters of a node's children while it generates them. When a cluster is full the entry with
//! the least search work is replaced; when the table is fuller than [`GC_FILL`], the entries
//! with the least work are collected. A search starts in a small region of the table and
//! moves to the whole table as it fills (see [`Table`]); for a while after the move a probe
//! may read a second cluster.

use crate::game::HandSet;
use crate::memory::LargeArray;

/// Proof and disproof numbers at or above this are infinite.
pub const INF: u32 = 1 << 30;
/// Entries per cluster (one cache line).
const WAYS: usize = 3;
/// Fill ratio (per mille) that triggers garbage collection.
const GC_FILL: usize = 800;
/// Clusters a search starts in (16 MiB): see [`Table`]. A 4 MiB region, like a 4 MiB table,
/// let two boards of one cluster evict each other for ever (musou-003, -007, -080 ran out of
/// nodes that way) until a node kept its children's results (`Child::searched` in dfpn.rs);
/// 4 MiB has not been measured since.
const FIRST_REGION: usize = 1 << 18;
/// Fill ratio (per mille) of the first region at which the search moves to the whole table:
/// a quarter, so that few clusters are full while the region is small.
const GROW_FILL: usize = 250;

/// One entry. `amount == 0` marks a free slot.
#[derive(Clone, Copy, Debug, Default)]
struct Entry<H> {
    /// The key's upper 32 bits (the lower bits chose the cluster).
    check: u32,
    pn: u32,
    dn: u32,
    hand: H,
    /// For proofs: plies to mate along the proof found.
    len: u16,
    /// Nodes searched below this entry, in the compressed scale of [`encode_work`]: the
    /// replacement priority.
    amount: u16,
}

/// One cache line of entries. Entries of a cluster whose generation is not the table's are free.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
struct Cluster<H> {
    entries: [Entry<H>; WAYS],
    gen: u16,
    /// Set once an entry of this cluster's boards went to its spill cluster (see
    /// [`Table::store`]): probes then read that cluster too.
    spill: bool,
}

/// Work (node counts) in 16 bits: exact below 2048, then a 10-bit mantissa per power of two.
/// Monotone, and `decode_work(encode_work(x)) <= x`.
fn encode_work(work: u64) -> u16 {
    if work < 2048 {
        return work as u16;
    }
    let e = 63 - work.leading_zeros() as u64; // 11..=63
    let m = (work >> (e - 10)) & 1023;
    (2048 + (e - 11) * 1024 + m) as u16
}

fn decode_work(code: u16) -> u64 {
    if code < 2048 {
        return u64::from(code);
    }
    let c = u64::from(code) - 2048;
    let (e, m) = (c / 1024 + 11, c % 1024);
    (1024 + m) << (e - 10)
}

/// Reads the entries of board `check` in `c` for `hand`: a proof or disproof that answers it,
/// else the numbers of its own entry and of dominating hands' entries raised into `pn`, `dn`.
#[inline]
fn scan<H: HandSet>(
    c: &Cluster<H>,
    check: u32,
    hand: H,
    pn: &mut u32,
    dn: &mut u32,
) -> Option<Probe<H>> {
    for e in c.entries.iter() {
        if e.amount == 0 || e.check != check {
            continue;
        }
        if e.pn == 0 {
            if hand.covers(e.hand) {
                return Some(Probe {
                    pn: 0,
                    dn: INF,
                    hand: e.hand,
                    len: e.len,
                });
            }
        } else if e.dn == 0 {
            if e.hand.covers(hand) {
                return Some(Probe {
                    pn: INF,
                    dn: 0,
                    hand: e.hand,
                    len: 0,
                });
            }
        } else if e.hand == hand {
            *pn = (*pn).max(e.pn);
            *dn = (*dn).max(e.dn);
        } else if e.hand.covers(hand) {
            // We hold less than the entry: at least as hard to prove.
            *pn = (*pn).max(e.pn);
        } else if hand.covers(e.hand) {
            *dn = (*dn).max(e.dn);
        }
    }
    None
}

/// What the table knows about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe<H> {
    /// Proof number (0: proven).
    pub pn: u32,
    /// Disproof number (0: disproven).
    pub dn: u32,
    /// The proof or disproof hand when decided.
    pub hand: H,
    /// Mate length of the stored proof.
    pub len: u16,
}

/// Fixed-size table of clusters.
///
/// A search starts in a region of the first [`FIRST_REGION`] clusters and, once a quarter
/// of it is used, goes on in the whole table. A small problem so stays in megabytes that the
/// cache keeps from one problem to the next, instead of touching new lines of a table of
/// hundreds of megabytes at every node (tanuki.tsv in all, before the region: 45 ms with
/// 512 MiB, 35 ms with 16 MiB). The entries stay where they were stored: for as many stores
/// as the region held entries, a probe also reads the key's cluster in the region, and a
/// store frees the entry there, so what the search goes on with moves. What it does not come
/// back to in that time is read no more and is replaced (Shogi Muso: 3% more nodes than
/// without the region). Growing by doublings instead kept more, but a second probe into a
/// region of hundreds of megabytes cost a quarter more time a node.
pub struct Table<H> {
    clusters: LargeArray<Cluster<H>>,
    /// The region in use: its clusters are `0..=mask`.
    mask: usize,
    /// The first region: its clusters are `0..=first_mask`.
    first_mask: usize,
    /// The whole table.
    full_mask: usize,
    /// Stores left, after the move to the whole table, before probes stop reading the first
    /// region as well (0: one region is read).
    grace: usize,
    used: usize,
    gen: u16,
    /// Garbage collections run so far.
    pub collections: u64,
    /// Entries put in a spill cluster (see [`Table::store`]).
    pub spills: u64,
}

impl<H: HandSet> Table<H> {
    /// A table using about `bytes` of memory (rounded down to a power of two clusters).
    pub fn new(bytes: usize) -> Table<H> {
        let per = std::mem::size_of::<Cluster<H>>();
        let n = (bytes / per).max(256);
        let n = if n.is_power_of_two() {
            n
        } else {
            n.next_power_of_two() / 2
        };
        let first = n.min(FIRST_REGION) - 1;
        Table {
            clusters: LargeArray::new(n),
            mask: first,
            first_mask: first,
            full_mask: n - 1,
            grace: 0,
            used: 0,
            gen: 1,
            collections: 0,
            spills: 0,
        }
    }

    /// Number of entries.
    #[allow(dead_code)]
    pub fn capacity(&self) -> usize {
        self.clusters.len() * WAYS
    }

    /// Entries in use, per mille.
    pub fn fill_permille(&self) -> usize {
        self.used * 1000 / self.capacity()
    }

    /// Bytes of memory held by the clusters.
    pub fn bytes(&self) -> usize {
        self.clusters.len() * std::mem::size_of::<Cluster<H>>()
    }

    /// Empties the table (in constant time: clusters of older generations read as free; only
    /// when the 16-bit generation wraps, once in 65,535 clears, is every cluster reset, where
    /// an 8-bit one cost a pass over the whole table every 255 problems of a file).
    pub fn clear(&mut self) {
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            self.clusters
                .iter_mut()
                .for_each(|c| *c = Cluster::default());
            self.gen = 1;
        }
        self.used = 0;
        self.mask = self.first_mask;
        self.grace = 0;
    }

    /// Moves the search from the first region to the whole table (see [`Table`]).
    fn grow(&mut self) {
        self.mask = self.full_mask;
        self.grace = self.used;
    }

    /// Clusters in the region in use.
    #[cfg(test)]
    fn region(&self) -> usize {
        self.mask + 1
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        (key as usize) & self.mask
    }

    /// Starts loading the cluster of `key` into the cache (a hint; no effect on results).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        crate::memory::prefetch(&self.clusters[self.index(key)]);
    }

    /// Looks up `key` with attacker hand `hand`. Unknown positions read as pn = dn = 1,
    /// raised by what entries of the same board with dominating hands imply.
    #[inline(always)]
    pub fn probe(&self, key: u64, hand: H) -> Probe<H> {
        // Most probes meet a cluster of an earlier generation (a free one): answered here,
        // where the caller is, without the call and the scan.
        if self.clusters[self.index(key)].gen != self.gen && self.grace == 0 {
            return Probe {
                pn: 1,
                dn: 1,
                hand,
                len: 0,
            };
        }
        self.probe_cluster(key, hand)
    }

    /// [`Table::probe`] of a key whose cluster is of this generation.
    #[inline(never)]
    fn probe_cluster(&self, key: u64, hand: H) -> Probe<H> {
        let mut pn = 1;
        let mut dn = 1;
        let primary = self.index(key);
        if let Some(p) = self.scan_at(primary, self.mask, key, hand, &mut pn, &mut dn) {
            return p;
        }
        // Stored before the move, in the key's cluster of the first region.
        let before = (key as usize) & self.first_mask;
        if self.grace > 0 && before != primary {
            if let Some(p) = self.scan_at(before, self.first_mask, key, hand, &mut pn, &mut dn) {
                return p;
            }
        }
        Probe {
            pn,
            dn,
            hand,
            len: 0,
        }
    }

    /// Reads the entries of `key` in cluster `i`, its cluster in the region `mask`, and in
    /// its spill cluster there (see [`scan`]).
    #[inline]
    fn scan_at(
        &self,
        i: usize,
        mask: usize,
        key: u64,
        hand: H,
        pn: &mut u32,
        dn: &mut u32,
    ) -> Option<Probe<H>> {
        let c = &self.clusters[i];
        if c.gen != self.gen {
            return None;
        }
        let check = (key >> 32) as u32;
        if let Some(p) = scan(c, check, hand, pn, dn) {
            return Some(p);
        }
        if c.spill {
            // Undecided entries of this hand may have gone to the spill cluster.
            let s = Self::spill_index_in(key, hand, mask);
            let sc = &self.clusters[s];
            if s != i && sc.gen == self.gen {
                return scan(sc, check, hand, pn, dn);
            }
        }
        None
    }

    /// Stores a result for (`key`, `hand`), adding `work` to the entry's amount.
    ///
    /// Entries live in the cluster of their board, so that a probe sees the other hands'
    /// entries of the same board (dominance). A board met with many hands (a long problem
    /// whose line comes round to the same board with another hand, lap after lap) would
    /// fill its cluster and its hands would replace one another over and over, losing the
    /// proof and disproof numbers the search runs on. So when the cluster is full and already
    /// holds an entry of the same board, an undecided entry of a new hand goes to a second
    /// cluster chosen by board and hand (it is read for that hand only), and the first
    /// cluster is marked to be read with it.
    pub fn store(&mut self, key: u64, hand: H, pn: u32, dn: u32, len: u16, work: u64) {
        let primary = self.index(key);
        let before = (key as usize) & self.first_mask;
        if self.grace > 0 && before != primary {
            // The entry moves: one left in the first region would be read beside this one,
            // its older numbers raising the new ones.
            self.forget_at(before, key, hand);
        }
        let check = (key >> 32) as u32;
        let c = &self.clusters[primary];
        let mut i = primary;
        // Proofs and disproofs are read by dominance from other hands: they stay in the
        // board's own cluster.
        if c.gen == self.gen && pn != 0 && dn != 0 {
            let (mut exact, mut full, mut same) = (false, true, false);
            for e in c.entries.iter() {
                if e.amount == 0 {
                    full = false;
                } else if e.check == check {
                    same = true;
                    exact |= e.hand == hand;
                }
            }
            if !exact && (c.spill || (full && same)) {
                let s = self.spill_index(key, hand);
                let sc = &self.clusters[s];
                let in_spill = sc.gen == self.gen
                    && sc
                        .entries
                        .iter()
                        .any(|e| e.amount != 0 && e.check == check && e.hand == hand);
                if s != primary && (in_spill || (full && same)) {
                    if !in_spill {
                        self.spills += 1;
                    }
                    self.clusters[primary].spill = true;
                    i = s;
                }
            }
        }
        self.store_in(i, check, hand, pn, dn, len, work);
    }

    /// Frees the entry of (`key`, `hand`) in cluster `i` of the first region, and in its
    /// spill cluster there.
    fn forget_at(&mut self, i: usize, key: u64, hand: H) {
        let check = (key >> 32) as u32;
        let spill = Self::spill_index_in(key, hand, self.first_mask);
        for j in [i, spill] {
            let c = &mut self.clusters[j];
            if c.gen != self.gen {
                continue;
            }
            for e in c.entries.iter_mut() {
                if e.amount != 0 && e.check == check && e.hand == hand {
                    e.amount = 0;
                    self.used -= 1;
                }
            }
            if !c.spill {
                break;
            }
        }
    }

    /// Index of the spill cluster of (`key`, `hand`).
    #[inline]
    fn spill_index(&self, key: u64, hand: H) -> usize {
        Self::spill_index_in(key, hand, self.mask)
    }

    /// Index of the spill cluster of (`key`, `hand`) in the region `mask`.
    #[inline]
    fn spill_index_in(key: u64, hand: H, mask: usize) -> usize {
        let h = (hand.bits() ^ 0x5851_F42D_4C95_7F2D).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((key ^ h.rotate_left(29)) as usize) & mask
    }

    #[allow(clippy::too_many_arguments)]
    fn store_in(&mut self, i: usize, check: u32, hand: H, pn: u32, dn: u32, len: u16, work: u64) {
        let gen = self.gen;
        let c = &mut self.clusters[i];
        if c.gen != gen {
            // Left from an earlier generation: every entry is free.
            *c = Cluster::default();
            c.gen = gen;
        }
        let mut target = None;
        let mut victim = 0usize;
        let mut victim_amount = u16::MAX;
        let mut amount = work;
        let mut freed = 0usize;
        for (s, e) in c.entries.iter_mut().enumerate() {
            if e.amount == 0 {
                if target.is_none() {
                    target = Some(s);
                }
                continue;
            }
            if e.check == check {
                if e.hand == hand {
                    amount = amount.saturating_add(decode_work(e.amount));
                    target = Some(s);
                    continue;
                }
                // A new proof makes unproven entries with covering hands redundant, a new
                // disproof those with covered hands.
                let redundant = (pn == 0 && e.pn != 0 && e.hand.covers(hand))
                    || (dn == 0 && e.dn != 0 && hand.covers(e.hand));
                if redundant {
                    amount = amount.saturating_add(decode_work(e.amount));
                    e.amount = 0;
                    freed += 1;
                    if target.is_none() {
                        target = Some(s);
                    }
                    continue;
                }
            }
            if e.amount < victim_amount {
                victim_amount = e.amount;
                victim = s;
            }
        }
        let s = target.unwrap_or(victim);
        let was_free = c.entries[s].amount == 0;
        c.entries[s] = Entry {
            check,
            pn,
            dn,
            hand,
            len,
            amount: encode_work(amount).max(1),
        };
        self.used = self.used + usize::from(was_free) - freed;
        // Once it reaches 0, what the search went on with has moved: one cluster a probe again.
        self.grace = self.grace.saturating_sub(1);
        if self.mask != self.full_mask && self.used * 1000 > (self.mask + 1) * WAYS * GROW_FILL {
            self.grow();
        }
        if self.used * 1000 > self.capacity() * GC_FILL {
            self.collect();
        }
    }

    /// Removes the entries with the least work until at most about half the table is used;
    /// the survivors' work is aged by a quarter.
    pub fn collect(&mut self) {
        self.collections += 1;
        // Histogram of the compressed amounts: the cut is found without sorting.
        let mut hist = vec![0usize; 1 << 16];
        let gen = self.gen;
        for c in self.clusters.iter().filter(|c| c.gen == gen) {
            for e in c.entries.iter().filter(|e| e.amount != 0) {
                hist[usize::from(e.amount)] += 1;
            }
        }
        let keep = self.capacity() / 2;
        let mut drop = self.used.saturating_sub(keep).max(1);
        let mut threshold = 0u16;
        for (code, &n) in hist.iter().enumerate() {
            threshold = code as u16;
            if n >= drop {
                break;
            }
            drop -= n;
        }
        let mut removed = 0;
        for c in self.clusters.iter_mut().filter(|c| c.gen == gen) {
            for e in c.entries.iter_mut().filter(|e| e.amount != 0) {
                if e.amount <= threshold {
                    e.amount = 0;
                    removed += 1;
                } else {
                    // Age the survivors so that old work does not pin the table forever.
                    let w = decode_work(e.amount);
                    e.amount = encode_work(w - w / 4).max(1);
                }
            }
        }
        self.used -= removed;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cluster_is_one_cache_line() {
        assert_eq!(std::mem::size_of::<Cluster<shogi::Hand>>(), 64);
        assert_eq!(std::mem::align_of::<Cluster<shogi::Hand>>(), 64);
    }

    /// Five pairwise incomparable hands of one board (more than a cluster holds) keep their
    /// own numbers, and a proof stored after them still answers a covering hand.
    #[test]
    fn many_hands_of_one_board_keep_their_numbers() {
        let mut t: Table<shogi::Hand> = Table::new(1 << 20);
        let key = 0x1234_5678_9ABC_DEF0u64;
        let hand = |k: u32| {
            let mut h = shogi::Hand::EMPTY;
            h.set_count_index(0, k);
            h.set_count_index(1, 4 - k);
            h
        };
        for k in 0..5 {
            t.store(key, hand(k), 100 + k, 200 + k, 0, 10);
        }
        for k in 0..5 {
            let p = t.probe(key, hand(k));
            assert_eq!((p.pn, p.dn), (100 + k, 200 + k), "hand {k}");
        }
        assert!(t.spills >= 2);
        let mut small = shogi::Hand::EMPTY;
        small.set_count_index(0, 1);
        t.store(key, small, 0, INF, 7, 1);
        let p = t.probe(key, hand(3));
        assert_eq!((p.pn, p.len), (0, 7));
    }

    #[test]
    fn work_encoding_is_monotone_and_never_overstates() {
        let mut last = 0;
        for x in 0..100_000u64 {
            let c = encode_work(x);
            assert!(decode_work(c) <= x && c >= last);
            last = c;
        }
        for s in 0..64 {
            let x = 1u64 << s;
            assert!(decode_work(encode_work(x)) <= x);
            assert!(encode_work(x) >= encode_work(x - 1));
        }
        assert_eq!(decode_work(encode_work(1500)), 1500);
        assert!(decode_work(encode_work(u64::MAX)) > u64::MAX / 2);
    }

    /// The search moves from the first region to the whole table as it fills; what was
    /// stored before is still read, and an entry stored again after the move is read with
    /// its new numbers only.
    #[test]
    fn the_region_grows_and_keeps_what_it_held() {
        let mut t: Table<()> = Table::new(4 * FIRST_REGION * 64);
        assert_eq!(t.region(), FIRST_REGION);
        // One key per cluster of the first region; the bits above it (the whole table's
        // index bits and the check) random.
        let key = |i: u64| i | (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) << 18);
        let n = FIRST_REGION as u64;
        let mut stored = 0;
        while t.region() == FIRST_REGION {
            t.store(key(stored), (), 5 + stored as u32 % 7, 9, 0, 1);
            stored += 1;
        }
        assert!(stored < n, "grew after {stored} entries");
        assert_eq!(t.region(), 4 * FIRST_REGION);
        for i in 0..stored {
            let p = t.probe(key(i), ());
            assert_eq!((p.pn, p.dn), (5 + i as u32 % 7, 9), "entry {i}");
        }
        // A key whose cluster moved: stored again with smaller numbers, it reads them, not
        // the old ones.
        let moved = (0..stored)
            .find(|&i| (key(i) as usize & t.mask) != (key(i) as usize & t.first_mask))
            .expect("three keys in four move");
        t.store(key(moved), (), 2, 3, 0, 1);
        let p = t.probe(key(moved), ());
        assert_eq!((p.pn, p.dn), (2, 3));
        // After as many stores as the region held, probes read one cluster again.
        assert_ne!(t.grace, 0);
        for i in 0..stored {
            t.store(key(n + i), (), 4, 4, 0, 1);
        }
        assert_eq!(t.grace, 0);
        t.clear();
        assert_eq!(t.region(), FIRST_REGION);
        assert_eq!(t.probe(key(1), ()).pn, 1);
    }

    #[test]
    fn collection_frees_the_least_work_and_keeps_dominance() {
        let mut t: Table<()> = Table::new(0);
        let n = t.capacity() as u64;
        for i in 0..n * 2 {
            let key = i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            t.store(key, (), 5, 5, 0, i);
        }
        assert!(t.collections > 0);
        assert!(t.fill_permille() <= 800);
        // The most recent (most work) entries survive.
        let key = (n * 2 - 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        assert_eq!(t.probe(key, ()).pn, 5);
        t.clear();
        assert_eq!(t.probe(key, ()).pn, 1);
    }
}
