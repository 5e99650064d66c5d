//! A direct-mapped cache of the move lists the solver generates, by position key. Df-pn
//! expands the same nodes again and again (and the shortest-line searches the same positions
//! at each ply limit), each time generating the same checks or evasions: a list read back from
//! here costs a copy instead of a generation.

/// Moves an entry holds; longer lists are not cached. With 16-bit moves an entry is one
/// 64-byte cache line.
const CAP: usize = 27;

#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Entry<M> {
    key: u64,
    /// Number of moves plus one (0: empty, so that an empty slot never matches).
    len: u8,
    moves: [M; CAP],
}

/// Move lists by the key of the position they were generated in.
pub(crate) struct MoveCache<M> {
    entries: Vec<Entry<M>>,
}

impl<M: Copy + Default> MoveCache<M> {
    /// A cache of `n` (a power of two) entries.
    pub(crate) fn new(n: usize) -> MoveCache<M> {
        debug_assert!(n.is_power_of_two());
        MoveCache {
            entries: vec![Entry::default(); n],
        }
    }

    /// Fills `out` with the list cached for `key`, if any; true when it did.
    #[inline]
    pub(crate) fn get(&self, key: u64, out: &mut Vec<M>) -> bool {
        let e = &self.entries[key as usize & (self.entries.len() - 1)];
        if e.key != key || e.len == 0 {
            return false;
        }
        out.clear();
        out.extend_from_slice(&e.moves[..usize::from(e.len - 1)]);
        true
    }

    /// Caches `moves` (the whole list generated for `key`) when it fits.
    #[inline]
    pub(crate) fn put(&mut self, key: u64, moves: &[M]) {
        if moves.len() > CAP {
            return;
        }
        let i = key as usize & (self.entries.len() - 1);
        let e = &mut self.entries[i];
        e.key = key;
        e.len = moves.len() as u8 + 1;
        e.moves[..moves.len()].copy_from_slice(moves);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_is_one_cache_line() {
        assert_eq!(std::mem::size_of::<Entry<shogi::Move>>(), 64);
    }

    #[test]
    fn lists_come_back_and_long_ones_are_not_kept() {
        let mut c: MoveCache<u16> = MoveCache::new(16);
        let mut out = Vec::new();
        assert!(
            !c.get(0, &mut out),
            "an empty slot matches no key, not even 0"
        );
        c.put(0, &[]);
        assert!(c.get(0, &mut out) && out.is_empty());
        c.put(5, &[1, 2, 3]);
        assert!(c.get(5, &mut out));
        assert_eq!(out, [1, 2, 3]);
        assert!(!c.get(21, &mut out), "same slot, another key");
        let long: Vec<u16> = (0..CAP as u16 + 1).collect();
        c.put(37, &long);
        assert!(!c.get(37, &mut out));
    }
}
