//! Pieces in hand, packed in a `u32` with a guard bit above each count so that "this hand holds
//! at least as much of every kind as that one" is one subtraction (used by hand dominance).

use crate::types::{PieceKind, HAND_KINDS};

const SHIFT: [u32; 7] = [0, 6, 10, 14, 18, 22, 25];
const MASK: [u32; 7] = [31, 7, 7, 7, 7, 3, 3];
const GUARDS: u32 = 1 << 5 | 1 << 9 | 1 << 13 | 1 << 17 | 1 << 21 | 1 << 24 | 1 << 27;

/// The most pieces of each hand kind in a set: 18 pawns, 4 lances ... 2 rooks.
pub const MAX_IN_SET: [u32; 7] = [18, 4, 4, 4, 4, 2, 2];

/// The pieces one player holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hand(pub u32);

impl Hand {
    /// The empty hand.
    pub const EMPTY: Hand = Hand(0);

    /// How many of hand kind `k` (index 0..7) are held.
    #[inline]
    pub const fn count_index(self, k: usize) -> u32 {
        self.0 >> SHIFT[k] & MASK[k]
    }

    /// How many of `kind` are held (0 for kinds a hand cannot hold).
    #[inline]
    pub fn count(self, kind: PieceKind) -> u32 {
        if kind.index() < 7 {
            self.count_index(kind.index())
        } else {
            0
        }
    }

    /// True when at least one of `kind` is held.
    #[inline]
    pub fn has(self, kind: PieceKind) -> bool {
        self.count(kind) != 0
    }

    /// Adds one of hand kind `kind`. The caller keeps counts within [`MAX_IN_SET`].
    #[inline]
    pub fn add(&mut self, kind: PieceKind) {
        debug_assert!(kind.index() < 7);
        self.0 += 1 << SHIFT[kind.index()];
    }

    /// Removes one of `kind`; the caller checks that one is held.
    #[inline]
    pub fn remove(&mut self, kind: PieceKind) {
        debug_assert!(self.has(kind));
        self.0 -= 1 << SHIFT[kind.index()];
    }

    /// Sets the count of hand kind index `k`.
    #[inline]
    pub fn set_count_index(&mut self, k: usize, n: u32) {
        self.0 = self.0 & !(MASK[k] << SHIFT[k]) | (n.min(MASK[k]) << SHIFT[k]);
    }

    /// True when this hand holds at least as many of every kind as `other`.
    #[inline]
    pub const fn covers(self, other: Hand) -> bool {
        (self.0 | GUARDS).wrapping_sub(other.0) & GUARDS == GUARDS
    }

    /// The kind-by-kind maximum.
    pub fn max(self, o: Hand) -> Hand {
        let mut h = Hand::EMPTY;
        for k in 0..7 {
            h.set_count_index(k, self.count_index(k).max(o.count_index(k)));
        }
        h
    }

    /// The kind-by-kind minimum.
    pub fn min(self, o: Hand) -> Hand {
        let mut h = Hand::EMPTY;
        for k in 0..7 {
            h.set_count_index(k, self.count_index(k).min(o.count_index(k)));
        }
        h
    }

    /// Removes one of `kind` if any is held.
    #[inline]
    pub fn remove_saturating(&mut self, kind: PieceKind) {
        if self.has(kind) {
            self.remove(kind);
        }
    }

    /// True when nothing is held.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Total number of pieces held.
    pub fn total(self) -> u32 {
        (0..7).map(|k| self.count_index(k)).sum()
    }

    /// The kinds held, in hand order.
    pub fn kinds(self) -> impl Iterator<Item = PieceKind> {
        HAND_KINDS.into_iter().filter(move |&k| self.has(k))
    }
}
