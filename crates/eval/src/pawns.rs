//! The pawn cache: the pawn-only terms depend on the two pawn sets alone, and pawn
//! structures repeat across most of a search tree, so each search thread keeps their
//! (middlegame, endgame) sum in a small direct-mapped table keyed by [`pawn_key`].

use crate::{pawn_terms, Acc, NoTrace, WEIGHTS};
use chess::{Board, Color, PieceKind};

/// Entries in a [`PawnCache`] (a power of two).
const ENTRIES: usize = 1 << 14;

#[inline(always)]
fn mix(mut x: u64) -> u64 {
    // splitmix64's finaliser: every input bit reaches every output bit.
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// A 64-bit key of the pawn placement of both colours (0 when there are no pawns).
#[inline(always)]
pub fn pawn_key(b: &Board) -> u64 {
    let w = b.pieces(Color::White, PieceKind::Pawn).0;
    let k = b.pieces(Color::Black, PieceKind::Pawn).0;
    if w | k == 0 {
        return 0;
    }
    mix(w ^ mix(k ^ 0x9e37_79b9_7f4a_7c15))
}

#[derive(Copy, Clone, Default)]
struct Entry {
    key: u64,
    mg: i32,
    eg: i32,
}

/// A per-thread cache of the pawn-only evaluation terms (White minus Black, middlegame and
/// endgame), 256 KiB. The empty entry (key 0, score 0) is exactly right for "no pawns".
pub struct PawnCache {
    entries: Box<[Entry]>,
}

impl Default for PawnCache {
    fn default() -> Self {
        PawnCache {
            entries: vec![Entry::default(); ENTRIES].into_boxed_slice(),
        }
    }
}

impl PawnCache {
    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }

    /// The pawn-only (middlegame, endgame) sum of `b`, White minus Black.
    #[inline]
    pub fn pawn_score(&mut self, b: &Board) -> (i32, i32) {
        let key = pawn_key(b);
        let e = &mut self.entries[key as usize & (ENTRIES - 1)];
        if e.key != key {
            let mut acc = Acc {
                mg: 0,
                eg: 0,
                w: &WEIGHTS,
                t: &mut NoTrace,
            };
            for c in Color::ALL {
                pawn_terms(b, c, &mut acc);
            }
            *e = Entry {
                key,
                mg: acc.mg,
                eg: acc.eg,
            };
        }
        (e.mg, e.eg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{evaluate, evaluate_cached};

    #[test]
    fn cached_evaluation_equals_the_plain_one() {
        let mut cache = PawnCache::default();
        let mut b = Board::startpos();
        let mut seed = 0x1234_5678_u64;
        // Random playouts: every position scored twice through the cache (miss, then hit).
        for _ in 0..4000 {
            for _ in 0..2 {
                assert_eq!(
                    evaluate_cached(&b, &mut cache),
                    evaluate(&b),
                    "{}",
                    b.to_fen()
                );
            }
            let mut list = chess::MoveList::new();
            b.generate_into(chess::GenMode::All, &mut list);
            if list.is_empty() || b.halfmove_clock() > 60 {
                b = Board::startpos();
                continue;
            }
            seed = mix(seed);
            b.play(list[(seed % list.len() as u64) as usize]);
        }
    }
}
