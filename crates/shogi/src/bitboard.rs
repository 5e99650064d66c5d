//! 81-square bitboards on a `u128`: bit `i` is square index `i` (see [`Square`]).

use crate::types::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u128);

/// All 81 squares.
pub const ALL: u128 = (1u128 << 81) - 1;

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 81 squares.
    pub const FULL: Bitboard = Bitboard(ALL);

    /// The one-square set.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.0)
    }

    /// True when empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when not empty.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// True when `sq` is in the set.
    #[inline]
    pub const fn has(self, sq: Square) -> bool {
        self.0 >> sq.0 & 1 != 0
    }

    /// Number of squares.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Number of squares, one bit at a time: cheaper than [`Bitboard::count`] for the small sets
    /// of evasion counting on the x86-64 baseline, which has no POPCNT instruction (a software
    /// popcount of 128 bits is about 30 instructions).
    #[inline]
    pub fn count_few(self) -> u32 {
        let (mut lo, mut hi) = (self.0 as u64, (self.0 >> 64) as u64);
        let mut n = 0;
        while lo != 0 {
            lo &= lo - 1;
            n += 1;
        }
        while hi != 0 {
            hi &= hi - 1;
            n += 1;
        }
        n
    }

    /// True when more than one square.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square(self.0.trailing_zeros() as u8))
        }
    }

    /// The set of all squares on the files of the squares in `self`.
    #[inline]
    pub fn files(self) -> Bitboard {
        // Fold the nine ranks onto rank a (rank r takes ranks r to r + 7, rank a also i),
        // then copy the columns found to every rank.
        let x = self.0 & ALL;
        let mut f = x | x >> 36;
        f |= f >> 18;
        f |= f >> 9;
        let cols = (f | x >> 72) & 0x1ff;
        Bitboard(cols * RANK_REPEAT)
    }
}

/// Bit 0 of every rank: a 9-bit rank pattern times this is that pattern on all nine ranks.
const RANK_REPEAT: u128 = {
    let mut m = 0u128;
    let mut r = 0;
    while r < 9 {
        m |= 1u128 << (r * 9);
        r += 1;
    }
    m
};

/// Masks of each column (index 0 = file 9).
pub const FILE_MASKS: [u128; 9] = {
    let mut m = [0u128; 9];
    let mut c = 0;
    while c < 9 {
        let mut r = 0;
        while r < 9 {
            m[c] |= 1u128 << (r * 9 + c);
            r += 1;
        }
        c += 1;
    }
    m
};

/// Masks of each rank (index 0 = rank a).
pub const RANK_MASKS: [u128; 9] = {
    let mut m = [0u128; 9];
    let mut r = 0;
    while r < 9 {
        m[r] = 0x1ffu128 << (r * 9);
        r += 1;
    }
    m
};

impl Iterator for Bitboard {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let s = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Square(s))
    }
}

macro_rules! binop {
    ($t:ident, $f:ident, $ta:ident, $fa:ident, $op:tt) => {
        impl $t for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, o: Bitboard) -> Bitboard {
                Bitboard(self.0 $op o.0)
            }
        }
        impl $ta for Bitboard {
            #[inline]
            fn $fa(&mut self, o: Bitboard) {
                self.0 = self.0 $op o.0;
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & ALL)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The folded file set equals the union of the file masks the set touches.
    #[test]
    fn files_are_the_files_touched() {
        let mut rng = chess::rng::Rng::xorshift64(0x9E37_79B9_7F4A_7C15);
        for i in 0..20_000 {
            let x = rng.next();
            // Sparse and dense sets, and every single square.
            let bits = if i < 81 {
                1u128 << i
            } else {
                let r = (u128::from(x) << 64 | u128::from(x.rotate_left(29))) & ALL;
                if i % 2 == 0 {
                    r & r >> 7 & r >> 23
                } else {
                    r
                }
            };
            let want = FILE_MASKS
                .iter()
                .filter(|&&m| bits & m != 0)
                .fold(0, |f, &m| f | m);
            assert_eq!(Bitboard(bits).files().0, want, "{bits:#x}");
        }
    }
}
