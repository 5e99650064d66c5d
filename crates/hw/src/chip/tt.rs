//! The search machine's transposition table: one entry an address in block RAM (or behind
//! the external-memory port), always replaced, read with a fixed latency.

use chess::Move;

/// Bound of a stored score.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact score (a PV node).
    Exact,
    /// At least this score (a cut node).
    Lower,
    /// At most this score (an all node).
    Upper,
}

/// One entry: 64 bits in the RAM (a valid bit, 16 of key, 16 of move, 16 of score, 8 of
/// depth, 2 of bound, 5 of the table's generation).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The hash's top 16 bits.
    pub key: u16,
    /// The best or refuting move, or `Move::NULL`.
    pub mv: Move,
    /// The score, mate scores counted from the entry's node.
    pub score: i16,
    /// The draft it was searched to.
    pub depth: i8,
    /// What the score is.
    pub bound: Bound,
    /// The table's generation when it was written: an entry of another is a miss.
    pub generation: u8,
}

/// The table: `entries` (a power of two) entries addressed by the hash's low bits.
pub struct Table {
    slots: Vec<Option<Entry>>,
    mask: u64,
    generation: u8,
}

impl Table {
    /// A cleared table of `entries` entries (rounded down to a power of two, at least 1).
    pub fn new(entries: usize) -> Table {
        let n = entries.max(1);
        let n = 1usize << (usize::BITS - 1 - n.leading_zeros());
        Table {
            slots: vec![None; n],
            mask: n as u64 - 1,
            generation: 0,
        }
    }

    /// Entries in the table.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Always false: a table has at least one entry.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Empties every entry (the host's clear command on the block-RAM table).
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
    }

    /// Starts a new generation (the clear command on the SDRAM table, which writes no
    /// entry): the entries written before are misses, until the 5-bit generation comes
    /// round to theirs again.
    pub fn new_generation(&mut self) {
        self.generation = (self.generation + 1) & 31;
    }

    fn key(hash: u64) -> u16 {
        (hash >> 48) as u16
    }

    /// The entry of `hash`, if the slot holds it.
    pub fn probe(&self, hash: u64) -> Option<Entry> {
        self.slots[(hash & self.mask) as usize]
            .filter(|e| e.key == Self::key(hash) && e.generation == self.generation)
    }

    /// Writes the entry of `hash` over whatever its slot held.
    pub fn store(&mut self, hash: u64, mv: Move, score: i16, depth: i8, bound: Bound) {
        self.slots[(hash & self.mask) as usize] = Some(Entry {
            key: Self::key(hash),
            mv,
            score,
            depth,
            bound,
            generation: self.generation,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_is_found_by_its_hash_and_replaced_by_a_collision() {
        let mut t = Table::new(1000);
        assert_eq!(t.len(), 512);
        let h = 0xabcd_0000_0000_0123;
        t.store(h, Move::NULL, 7, 3, Bound::Lower);
        assert_eq!(t.probe(h).map(|e| e.score), Some(7));
        // The same slot, another key: not a hit, and it replaces the entry.
        let other = 0x1234_0000_0000_0123;
        assert!(t.probe(other).is_none());
        t.store(other, Move::NULL, -5, 1, Bound::Upper);
        assert!(t.probe(h).is_none());
        t.clear();
        assert!(t.probe(other).is_none());
    }

    #[test]
    fn a_new_generation_hides_the_entries_until_it_comes_round_again() {
        let mut t = Table::new(16);
        let h = 0x5555_0000_0000_0003;
        t.store(h, Move::NULL, 1, 1, Bound::Exact);
        t.new_generation();
        assert!(t.probe(h).is_none());
        for _ in 0..31 {
            t.new_generation();
        }
        assert_eq!(t.probe(h).map(|e| e.score), Some(1));
    }
}
