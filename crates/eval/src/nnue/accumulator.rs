//! Accumulators: the first layer's output for both perspectives, refreshed from scratch or
//! updated from the parent position's by the pieces that changed.

use super::{feature, simd, Network, HIDDEN};
use chess::{Bitboard, Board, Color, PieceKind, Square};

/// The first layer's sums, one row per perspective (indexed by `Color::index`).
#[repr(C, align(64))]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Accumulator {
    /// `v[c]`: the accumulator seen from colour `c`.
    pub v: [[i16; HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            v: [[0; HIDDEN]; 2],
        }
    }
}

/// Where the pieces stand: the 6 kind and 2 colour bitboards of a board, enough to find what
/// a move changed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PieceBoards([Bitboard; 8]);

impl PieceBoards {
    /// The piece placement of `b`.
    #[inline(always)]
    pub fn of(b: &Board) -> PieceBoards {
        PieceBoards([
            b.kind(PieceKind::Pawn),
            b.kind(PieceKind::Knight),
            b.kind(PieceKind::Bishop),
            b.kind(PieceKind::Rook),
            b.kind(PieceKind::Queen),
            b.kind(PieceKind::King),
            b.color(Color::White),
            b.color(Color::Black),
        ])
    }

    /// The squares of colour `c`'s pieces of kind `k`.
    #[inline(always)]
    pub fn pieces(&self, c: Color, k: PieceKind) -> Bitboard {
        Bitboard(self.0[k.index()].0 & self.0[6 + c.index()].0)
    }
}

/// At most this many pieces appear or disappear in one move (castling: 2 and 2).
pub const MAX_CHANGES: usize = 4;

/// A piece a move adds or removes: colour, kind and square.
pub type Change = (Color, PieceKind, Square);

impl PieceBoards {
    /// The pieces that differ between `self` (before a move) and `after`: the ones removed,
    /// then the ones added (each in colour, kind, square order), with their counts.
    #[inline(always)]
    pub fn changes(
        &self,
        after: &PieceBoards,
    ) -> ([Change; MAX_CHANGES], usize, [Change; MAX_CHANGES], usize) {
        let mut adds = [(Color::White, PieceKind::Pawn, Square::new(0)); MAX_CHANGES];
        let mut subs = adds;
        let (mut na, mut ns) = (0, 0);
        for c in Color::ALL {
            for k in PieceKind::ALL {
                let (old, new) = (self.pieces(c, k), after.pieces(c, k));
                if old == new {
                    continue;
                }
                for sq in Bitboard(old.0 & !new.0) {
                    if ns < MAX_CHANGES {
                        subs[ns] = (c, k, sq);
                        ns += 1;
                    }
                }
                for sq in Bitboard(new.0 & !old.0) {
                    if na < MAX_CHANGES {
                        adds[na] = (c, k, sq);
                        na += 1;
                    }
                }
            }
        }
        (subs, ns, adds, na)
    }
}

impl Accumulator {
    /// Recomputes both perspectives from the pieces of `b`.
    pub fn refresh(&mut self, net: &Network, b: &Board) {
        for persp in Color::ALL {
            let row = &mut self.v[persp.index()];
            *row = net.b1;
            for c in Color::ALL {
                for k in PieceKind::ALL {
                    for sq in b.pieces(c, k) {
                        let w = &net.w1[feature(persp, c, k, sq)];
                        for (a, &x) in row.iter_mut().zip(w.iter()) {
                            *a = a.wrapping_add(x);
                        }
                    }
                }
            }
        }
    }

    /// Sets `self` to `parent` updated for the pieces that differ between `before` (the
    /// parent's placement) and `after`. A null move changes nothing: a plain copy.
    #[inline]
    pub fn update_from(
        &mut self,
        parent: &Accumulator,
        net: &Network,
        before: &PieceBoards,
        after: &PieceBoards,
    ) {
        let (subs, ns, adds, na) = before.changes(after);
        for persp in Color::ALL {
            let p = persp.index();
            let mut add_rows: [&[i16; HIDDEN]; MAX_CHANGES] = [&net.b1; MAX_CHANGES];
            let mut sub_rows = add_rows;
            for i in 0..na {
                let (c, k, s) = adds[i];
                add_rows[i] = &net.w1[feature(persp, c, k, s)];
            }
            for i in 0..ns {
                let (c, k, s) = subs[i];
                sub_rows[i] = &net.w1[feature(persp, c, k, s)];
            }
            simd::add_sub(
                &mut self.v[p],
                &parent.v[p],
                &add_rows[..na],
                &sub_rows[..ns],
                net.avx2,
            );
        }
    }
}
