//! Moves in 16 bits and a fixed-capacity move list.

use crate::types::{PieceKind, Square};
use std::mem::MaybeUninit;

/// A move: a board move (from, to, promote) or a drop (kind, to). Bits 0-6: destination,
/// bits 7-13: origin square or 81 + hand kind for a drop, bit 14: promotion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Move(pub u16);

impl Move {
    /// No move (never generated).
    pub const NONE: Move = Move(0);

    /// A board move.
    #[inline]
    pub const fn normal(from: Square, to: Square, promote: bool) -> Move {
        Move(to.0 as u16 | (from.0 as u16) << 7 | (promote as u16) << 14)
    }

    /// A drop of a hand kind.
    #[inline]
    pub const fn drop(kind: PieceKind, to: Square) -> Move {
        Move(to.0 as u16 | (81 + kind as u16) << 7)
    }

    /// Destination square.
    #[inline]
    pub const fn to(self) -> Square {
        Square((self.0 & 127) as u8)
    }

    /// True for drops.
    #[inline]
    pub const fn is_drop(self) -> bool {
        (self.0 >> 7 & 127) >= 81
    }

    /// Origin square of a board move.
    #[inline]
    pub const fn from(self) -> Square {
        Square((self.0 >> 7 & 127) as u8)
    }

    /// Kind dropped (for drops).
    #[inline]
    pub const fn drop_kind(self) -> PieceKind {
        PieceKind::from_index(((self.0 >> 7 & 127) - 81) as usize)
    }

    /// True when the moving piece promotes.
    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.0 & 1 << 14 != 0
    }

    /// USI text: `7g7f`, `8h2b+`, `P*5e`.
    pub fn usi(self) -> String {
        if self.is_drop() {
            format!("{}*{}", self.drop_kind().letter(), self.to())
        } else if self.is_promotion() {
            format!("{}{}+", self.from(), self.to())
        } else {
            format!("{}{}", self.from(), self.to())
        }
    }
}

impl std::fmt::Display for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.usi())
    }
}

/// More than the most legal moves any shogi position has (593).
pub const MAX_MOVES: usize = 600;

/// A list of moves on the stack. Creating one costs nothing: the storage is left
/// uninitialised and only the first `len` slots, written by `push`, are ever read.
#[derive(Clone)]
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move.
    #[inline]
    pub fn push(&mut self, m: Move) {
        // Capacity exceeds the maximum number of legal (and of generated) moves; the index is
        // checked all the same.
        self.moves[self.len].write(m);
        self.len += 1;
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: slots `0..len` were written by `push` or `retain` (which only moves written
        // values down), `len <= MAX_MOVES`, and `MaybeUninit<Move>` has `Move`'s layout.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Move>(), self.len) }
    }

    /// Keeps only moves for which `f` is true.
    pub fn retain(&mut self, mut f: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let m = self.as_slice()[i];
            if f(m) {
                self.moves[j].write(m);
                j += 1;
            }
        }
        self.len = j;
    }

    /// True when `m` is in the list.
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}
