//! The fixed-memory transposition table of the df-pn solver.
//!
//! Entries are keyed by the board (without the attacker's hand) and hold the attacker's hand
//! they were searched with. A probe scans one cluster: a proof stored for hand P answers every
//! hand that covers P, a disproof stored for hand D answers every hand that D covers (hand
//! dominance). Clusters are four entries, aligned. When a cluster is full the entry with the least search work is replaced; when
//! the table is fuller than [`GC_FILL`], the entries with the least work are collected.

use crate::game::HandSet;

/// Proof and disproof numbers at or above this are infinite.
pub const INF: u32 = 1 << 30;
/// Entries probed per key.
const CLUSTER: usize = 4;
/// Fill ratio (per mille) that triggers garbage collection.
const GC_FILL: usize = 800;

#[derive(Clone, Copy, Debug, Default)]
struct Entry<H> {
    key: u64,
    hand: H,
    pn: u32,
    dn: u32,
    /// Nodes searched below this entry (saturating): the replacement priority.
    amount: u32,
    /// For proofs: plies to mate along the proof found.
    len: u16,
    /// Table generation that wrote the entry; entries of other generations are free.
    gen: u8,
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

/// Fixed-size table of entries.
pub struct Table<H> {
    entries: Vec<Entry<H>>,
    mask: usize,
    used: usize,
    gen: u8,
    /// Garbage collections run so far.
    pub collections: u64,
}

impl<H: HandSet> Table<H> {
    /// A table using about `bytes` of memory (rounded down to a power of two entries).
    pub fn new(bytes: usize) -> Table<H> {
        let per = std::mem::size_of::<Entry<H>>().max(1);
        let n = (bytes / per).max(1024).next_power_of_two() / 2;
        let n = n.max(1024);
        Table {
            entries: vec![Entry::default(); n],
            mask: n - 1,
            used: 0,
            gen: 1,
            collections: 0,
        }
    }

    /// Number of entries.
    #[allow(dead_code)]
    pub fn capacity(&self) -> usize {
        self.entries.len()
    }

    /// Entries in use, per mille.
    pub fn fill_permille(&self) -> usize {
        self.used * 1000 / self.entries.len()
    }

    /// Bytes of memory held by the entries.
    pub fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry<H>>()
    }

    /// Empties the table (in constant time: entries of older generations read as free).
    pub fn clear(&mut self) {
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            self.entries.iter_mut().for_each(|e| *e = Entry::default());
            self.gen = 1;
        }
        self.used = 0;
    }

    #[inline]
    fn slot(&self, key: u64, i: usize) -> usize {
        // Clusters are aligned so that one probe touches consecutive cache lines.
        ((key as usize) & self.mask & !(CLUSTER - 1)) + i
    }

    /// Looks up `key` with attacker hand `hand`. Unknown positions read as pn = dn = 1,
    /// raised by what entries of the same board with dominating hands imply.
    pub fn probe(&self, key: u64, hand: H) -> Probe<H> {
        let mut pn = 1;
        let mut dn = 1;
        for i in 0..CLUSTER {
            let e = &self.entries[self.slot(key, i)];
            if e.gen != self.gen || e.key != key {
                continue;
            }
            if e.pn == 0 {
                if hand.covers(e.hand) {
                    return Probe {
                        pn: 0,
                        dn: INF,
                        hand: e.hand,
                        len: e.len,
                    };
                }
            } else if e.dn == 0 {
                if e.hand.covers(hand) {
                    return Probe {
                        pn: INF,
                        dn: 0,
                        hand: e.hand,
                        len: 0,
                    };
                }
            } else if e.hand == hand {
                pn = pn.max(e.pn);
                dn = dn.max(e.dn);
            } else if e.hand.covers(hand) {
                // We hold less than the entry: at least as hard to prove.
                pn = pn.max(e.pn);
            } else if hand.covers(e.hand) {
                dn = dn.max(e.dn);
            }
        }
        Probe {
            pn,
            dn,
            hand,
            len: 0,
        }
    }

    /// Stores a result for (`key`, `hand`), adding `work` to the entry's amount.
    pub fn store(&mut self, key: u64, hand: H, pn: u32, dn: u32, len: u16, work: u64) {
        let mut target = None;
        let mut victim = 0usize;
        let mut victim_amount = u32::MAX;
        let mut amount = work.min(u32::MAX as u64) as u32;
        for i in 0..CLUSTER {
            let s = self.slot(key, i);
            let e = self.entries[s];
            if e.gen != self.gen {
                if target.is_none() {
                    target = Some(s);
                }
                continue;
            }
            if e.key == key {
                if e.hand == hand {
                    amount = amount.saturating_add(e.amount);
                    target = Some(s);
                    continue;
                }
                // A new proof makes unproven entries with covering hands redundant, a new
                // disproof those with covered hands.
                let redundant = (pn == 0 && e.pn != 0 && e.hand.covers(hand))
                    || (dn == 0 && e.dn != 0 && hand.covers(e.hand));
                if redundant {
                    amount = amount.saturating_add(e.amount);
                    self.entries[s].gen = 0;
                    self.used -= 1;
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
        let s = match target {
            Some(s) => s,
            None => victim,
        };
        if self.entries[s].gen != self.gen {
            self.used += 1;
        }
        self.entries[s] = Entry {
            key,
            hand,
            pn,
            dn,
            amount,
            len,
            gen: self.gen,
        };
        if self.used * 1000 > self.entries.len() * GC_FILL {
            self.collect();
        }
    }

    /// Removes the entries with the least work until at most about half the table is used.
    pub fn collect(&mut self) {
        self.collections += 1;
        let mut amounts: Vec<u32> = self
            .entries
            .iter()
            .filter(|e| e.gen == self.gen)
            .map(|e| e.amount)
            .collect();
        if amounts.is_empty() {
            return;
        }
        let keep = self.entries.len() / 2;
        let cut = amounts.len().saturating_sub(keep);
        let nth = cut.min(amounts.len() - 1);
        let (_, &mut threshold, _) = amounts.select_nth_unstable(nth);
        let mut removed = 0;
        let gen = self.gen;
        for e in self.entries.iter_mut() {
            if e.gen == gen && e.amount <= threshold {
                e.gen = 0;
                removed += 1;
            } else if e.gen == gen {
                // Age the survivors so that old work does not pin the table forever.
                e.amount -= e.amount / 4;
            }
        }
        self.used -= removed;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
