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
    pub fn files(self) -> Bitboard {
        let mut f = 0u128;
        for m in FILE_MASKS {
            if self.0 & m != 0 {
                f |= m;
            }
        }
        Bitboard(f)
    }
}

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
