//! The transposition table: buckets of four entries on a cache line, each entry two
//! `AtomicU64`s holding `key ^ data` and `data` (lockless XOR verification: a torn write from
//! another thread fails the key check and reads as a miss).

use chess::Move;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// What a stored score is known to be.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most this.
    Upper = 1,
    /// The true score is at least this.
    Lower = 2,
    /// The true score.
    Exact = 3,
}

/// A decoded hit.
#[derive(Copy, Clone, Debug)]
pub struct TtHit {
    /// Best or refuting move (`Move::NULL` if none).
    pub mv: Move,
    /// Node-relative score (see `score::from_tt`).
    pub score: i32,
    /// Static evaluation.
    pub eval: i32,
    /// Draft (remaining depth) of the search that stored it.
    pub depth: i32,
    /// Bound type.
    pub bound: Bound,
}

#[derive(Default)]
struct Entry {
    key: AtomicU64,
    data: AtomicU64,
}

const WAYS: usize = 4;

#[derive(Default)]
#[repr(align(64))]
struct Bucket([Entry; WAYS]);

/// The shared transposition table.
pub struct Tt {
    buckets: Box<[Bucket]>,
    generation: AtomicU8,
}

fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, gen: u8) -> u64 {
    (mv.raw() as u64)
        | ((score as i16 as u16 as u64) << 16)
        | ((eval as i16 as u16 as u64) << 32)
        | (((depth + 1).clamp(0, 255) as u64) << 48)
        | ((bound as u64) << 56)
        | (((gen & 63) as u64) << 58)
}

fn unpack(d: u64) -> TtHit {
    let bound = match (d >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    };
    TtHit {
        mv: Move::from_raw(d as u16),
        score: (d >> 16) as u16 as i16 as i32,
        eval: (d >> 32) as u16 as i16 as i32,
        depth: ((d >> 48) & 255) as i32 - 1,
        bound,
    }
}

fn gen_of(d: u64) -> u8 {
    (d >> 58) as u8 & 63
}

impl Tt {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> Tt {
        let n = (mb.max(1) * 1024 * 1024 / std::mem::size_of::<Bucket>()).max(1);
        let buckets = (0..n)
            .map(|_| Bucket::default())
            .collect::<Vec<_>>()
            .into_boxed_slice();
        Tt {
            buckets,
            generation: AtomicU8::new(0),
        }
    }

    /// Size in megabytes.
    pub fn size_mb(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Forgets every entry.
    pub fn clear(&self) {
        for b in self.buckets.iter() {
            for e in &b.0 {
                e.key.store(0, Relaxed);
                e.data.store(0, Relaxed);
            }
        }
        self.generation.store(0, Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.generation
            .store(self.generation.load(Relaxed).wrapping_add(1) & 63, Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Looks `key` up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        for e in &self.bucket(key).0 {
            let data = e.data.load(Relaxed);
            if data != 0 && e.key.load(Relaxed) ^ data == key {
                return Some(unpack(data));
            }
        }
        None
    }

    /// Stores a result for `key` (score already node-relative).
    #[inline]
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) {
        let gen = self.generation.load(Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket.0[0];
        let mut victim_worth = i32::MAX;
        for e in &bucket.0 {
            let data = e.data.load(Relaxed);
            if data == 0 || e.key.load(Relaxed) ^ data == key {
                if data != 0 {
                    let old = unpack(data);
                    // Keep a deeper entry of this same search unless the new one is exact.
                    if bound != Bound::Exact && old.depth > depth + 3 && gen_of(data) == gen {
                        return;
                    }
                    let mv = if mv == Move::NULL { old.mv } else { mv };
                    let d = pack(mv, score, eval, depth, bound, gen);
                    e.key.store(key ^ d, Relaxed);
                    e.data.store(d, Relaxed);
                    return;
                }
                victim = e;
                break;
            }
            let age = (gen.wrapping_sub(gen_of(data)) & 63) as i32;
            let worth = unpack(data).depth - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = e;
            }
        }
        let d = pack(mv, score, eval, depth, bound, gen);
        victim.key.store(key ^ d, Relaxed);
        victim.data.store(d, Relaxed);
    }

    /// Permille of sampled entries written by the current search.
    pub fn hashfull(&self) -> u32 {
        let gen = self.generation.load(Relaxed);
        let n = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..n] {
            for e in &b.0 {
                let d = e.data.load(Relaxed);
                if d != 0 && gen_of(d) == gen {
                    used += 1;
                }
            }
        }
        (used * 1000 / (n * WAYS).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_verifies_keys() {
        let tt = Tt::new(1);
        let m = Move::from_raw(0x1234);
        tt.store(0xdead_beef_0000_0001, m, -250, 17, 9, Bound::Lower);
        let h = tt.probe(0xdead_beef_0000_0001).expect("hit");
        assert_eq!(
            (h.mv, h.score, h.eval, h.depth, h.bound),
            (m, -250, 17, 9, Bound::Lower)
        );
        assert!(tt.probe(0xdead_beef_0000_0002).is_none());
        tt.store(0x77, Move::NULL, 5, 0, -1, Bound::Exact);
        assert_eq!(tt.probe(0x77).unwrap().depth, -1);
        assert!(tt.hashfull() > 0);
        tt.clear();
        assert!(tt.probe(0xdead_beef_0000_0001).is_none());
    }
}
