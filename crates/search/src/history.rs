//! Move-ordering statistics: butterfly history (side, from, to), continuation history (the
//! previous piece-and-square pair followed by this one), capture history (piece, square,
//! victim), countermoves and killers.

use chess::{Board, Color, Move};

/// Entries saturate at this magnitude.
pub const HISTORY_MAX: i32 = 16_384;

/// Index of a (piece, destination) pair: `piece.index() * 64 + to`.
pub type PieceTo = usize;
/// "No previous move" (null move or root).
pub const NO_PIECE_TO: PieceTo = 12 * 64;

/// Per-thread ordering statistics.
pub struct History {
    butterfly: Box<[[[i16; 64]; 64]; 2]>,
    /// `cont[prev_piece_to * 768 + piece_to]`; the row for `NO_PIECE_TO` is a sink.
    cont: Box<[i16]>,
    counter: Box<[Move; 12 * 64 + 1]>,
    /// `capture[piece_to][victim kind]` (kind 5, the king's slot, for a promotion that
    /// captures nothing).
    capture: Box<[[i16; 6]; NO_PIECE_TO]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: Box::new([[[0; 64]; 64]; 2]),
            cont: vec![0i16; (NO_PIECE_TO + 1) * NO_PIECE_TO].into_boxed_slice(),
            counter: Box::new([Move::NULL; 12 * 64 + 1]),
            capture: Box::new([[0; 6]; NO_PIECE_TO]),
        }
    }
}

/// The capture-history victim slot of the tactical move `m` on `b`: the captured kind, or
/// 5 (the king's slot, never captured) for a promotion onto an empty square.
#[inline(always)]
pub fn victim_of(b: &Board, m: Move) -> usize {
    if m.is_en_passant() {
        0
    } else {
        b.kind_on(m.to()).map_or(5, |k| k.index())
    }
}

/// `entry` moved by `bonus` (clamped to the bound), the less the nearer it already is to the
/// bound it moves towards: `e + b - e |b| / HISTORY_MAX`, the division rounding towards zero.
/// The search machine's signed history (`hw::chip::signed_update`) is the same rule.
#[inline(always)]
pub fn gravity(entry: &mut i16, bonus: i32) {
    let e = *entry as i32;
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *entry = (e + b - e * b.abs() / HISTORY_MAX) as i16;
}

/// The history bonus for a cutoff at `depth`.
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (depth * depth * 16 + depth * 32).min(1600)
}

impl History {
    /// Forgets everything.
    pub fn clear(&mut self) {
        *self = History::default();
    }

    /// Butterfly score of `m` for `side`.
    #[inline(always)]
    pub fn butterfly(&self, side: Color, m: Move) -> i32 {
        self.butterfly[side.index()][m.from().index()][m.to().index()] as i32
    }

    /// Continuation score of `pt` after the earlier move `prev`.
    #[inline(always)]
    pub fn cont(&self, prev: PieceTo, pt: PieceTo) -> i32 {
        self.cont[prev * NO_PIECE_TO + pt] as i32
    }

    /// Combined quiet score: butterfly plus one- and two-ply continuation.
    #[inline(always)]
    pub fn quiet_score(
        &self,
        side: Color,
        m: Move,
        pt: PieceTo,
        prev1: PieceTo,
        prev2: PieceTo,
    ) -> i32 {
        self.butterfly(side, m) + self.cont(prev1, pt) + self.cont(prev2, pt)
    }

    /// Rewards (`bonus > 0`) or punishes a quiet move.
    #[inline]
    pub fn update_quiet(
        &mut self,
        side: Color,
        m: Move,
        pt: PieceTo,
        prev1: PieceTo,
        prev2: PieceTo,
        bonus: i32,
    ) {
        gravity(
            &mut self.butterfly[side.index()][m.from().index()][m.to().index()],
            bonus,
        );
        if prev1 != NO_PIECE_TO {
            gravity(&mut self.cont[prev1 * NO_PIECE_TO + pt], bonus);
        }
        if prev2 != NO_PIECE_TO {
            gravity(&mut self.cont[prev2 * NO_PIECE_TO + pt], bonus);
        }
    }

    /// Capture history of the piece-to `pt` taking `victim` (a kind index, see
    /// [`victim_of`]).
    #[inline(always)]
    pub fn capture(&self, pt: PieceTo, victim: usize) -> i32 {
        self.capture[pt][victim] as i32
    }

    /// Rewards (`bonus > 0`) or punishes a capture.
    #[inline]
    pub fn update_capture(&mut self, pt: PieceTo, victim: usize, bonus: i32) {
        gravity(&mut self.capture[pt][victim], bonus);
    }

    /// The remembered reply to the previous move.
    #[inline(always)]
    pub fn counter(&self, prev: PieceTo) -> Move {
        self.counter[prev]
    }

    /// Remembers `m` as the reply to `prev`.
    #[inline(always)]
    pub fn set_counter(&mut self, prev: PieceTo, m: Move) {
        if prev != NO_PIECE_TO {
            self.counter[prev] = m;
        }
    }
}
