//! The 16-bit move word and the fixed-capacity move list.
//!
//! Layout: bits 0-5 from square, 6-11 to square, 12-15 flags. Castling is stored as
//! king-takes-own-rook (to = the rook's square), which covers Chess960 and standard chess alike.

use crate::types::{PieceKind, Square};
use core::fmt;

/// What kind of move a [`Move`] is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum MoveFlag {
    Quiet = 0,
    DoublePush = 1,
    Castle = 2,
    EnPassant = 3,
    Capture = 4,
    PromoKnight = 8,
    PromoBishop = 9,
    PromoRook = 10,
    PromoQueen = 11,
    PromoCaptureKnight = 12,
    PromoCaptureBishop = 13,
    PromoCaptureRook = 14,
    PromoCaptureQueen = 15,
}

/// A move in 16 bits. `Move::NULL` (all zero) is never a legal move.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    /// The empty move (a1a1); UCI prints it as `0000`.
    pub const NULL: Move = Move(0);

    /// Builds a move from parts.
    #[inline(always)]
    pub const fn new(from: Square, to: Square, flag: MoveFlag) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | (flag as u16) << 12)
    }

    /// The raw 16-bit word.
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// Rebuilds a move from its raw word (no legality implied).
    #[inline(always)]
    pub const fn from_raw(r: u16) -> Move {
        Move(r)
    }

    /// Origin square.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::new((self.0 & 63) as u8)
    }

    /// Destination square (for castling: the rook's square).
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::new((self.0 >> 6 & 63) as u8)
    }

    /// The flag nibble.
    #[inline(always)]
    pub const fn flag_bits(self) -> u16 {
        self.0 >> 12
    }

    /// True for captures, en passant and capturing promotions.
    #[inline(always)]
    pub const fn is_capture(self) -> bool {
        let f = self.flag_bits();
        f & 4 != 0 || f == 3
    }

    /// True for en passant captures.
    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.flag_bits() == 3
    }

    /// True for castling.
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.flag_bits() == 2
    }

    /// True for a two-square pawn push.
    #[inline(always)]
    pub const fn is_double_push(self) -> bool {
        self.flag_bits() == 1
    }

    /// The piece a pawn promotes to, if any.
    #[inline(always)]
    pub const fn promotion(self) -> Option<PieceKind> {
        let f = self.flag_bits();
        if f & 8 == 0 {
            None
        } else {
            Some(match f & 3 {
                0 => PieceKind::Knight,
                1 => PieceKind::Bishop,
                2 => PieceKind::Rook,
                _ => PieceKind::Queen,
            })
        }
    }

    /// True for moves the captures-only generator emits: captures and queen promotions.
    #[inline(always)]
    pub const fn is_tactical(self) -> bool {
        self.is_capture() || self.flag_bits() == MoveFlag::PromoQueen as u16
    }

    /// Promotion flag for `kind` (knight..queen), capturing or not.
    #[inline(always)]
    pub(crate) const fn promo_flag(kind: usize, capture: bool) -> MoveFlag {
        match (kind, capture) {
            (1, false) => MoveFlag::PromoKnight,
            (2, false) => MoveFlag::PromoBishop,
            (3, false) => MoveFlag::PromoRook,
            (_, false) => MoveFlag::PromoQueen,
            (1, true) => MoveFlag::PromoCaptureKnight,
            (2, true) => MoveFlag::PromoCaptureBishop,
            (3, true) => MoveFlag::PromoCaptureRook,
            (_, true) => MoveFlag::PromoCaptureQueen,
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Move::NULL {
            return f.write_str("0000");
        }
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(p) = self.promotion() {
            write!(f, "{}", p.char())?;
        }
        if self.is_castle() {
            f.write_str("(O)")?;
        }
        Ok(())
    }
}

/// Most legal moves any chess position has is 218; 256 leaves room.
pub const MAX_MOVES: usize = 256;

/// A fixed-capacity list of moves; never allocates.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move::NULL; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < MAX_MOVES);
        // The list cannot overflow: no chess position has more than 218 legal moves.
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes every move.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for sorting).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// True when `m` is in the list.
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    /// Keeps only the moves for which `f` is true.
    pub fn retain(&mut self, mut f: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if f(m) {
                self.moves[j] = m;
                j += 1;
            }
        }
        self.len = j;
    }
}

impl core::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl core::ops::DerefMut for MoveList {
    fn deref_mut(&mut self) -> &mut [Move] {
        self.as_mut_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}
