//! The attack unit: which squares each piece attacks.
//!
//! Leaper tables (pawn, knight, king) and the square-relation tables (`between`, `line`) are built
//! by `const fn` at compile time. Sliding attacks come from tables that `build.rs` writes into
//! OUT_DIR, indexed either by a magic multiply or by the BMI2 `PEXT` instruction; the PEXT path is
//! chosen at run time when the CPU has BMI2 and gives identical results (tested).

use crate::bitboard::Bitboard;
use crate::types::{Color, PieceKind, Square};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;

#[derive(Copy, Clone)]
pub(crate) struct SliderEntry {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

include!(concat!(env!("OUT_DIR"), "/slider_tables.rs"));

const fn leaper(sq: usize, deltas: &[(i32, i32)]) -> u64 {
    let f = (sq % 8) as i32;
    let r = (sq / 8) as i32;
    let mut out = 0u64;
    let mut i = 0;
    while i < deltas.len() {
        let (nf, nr) = (f + deltas[i].0, r + deltas[i].1);
        if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
            out |= 1u64 << (nr * 8 + nf);
        }
        i += 1;
    }
    out
}

const fn leaper_table(deltas: &[(i32, i32)]) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut s = 0;
    while s < 64 {
        t[s] = leaper(s, deltas);
        s += 1;
    }
    t
}

const KNIGHT_DELTAS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_DELTAS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

static KNIGHT: [u64; 64] = leaper_table(&KNIGHT_DELTAS);
static KING: [u64; 64] = leaper_table(&KING_DELTAS);
static PAWN: [[u64; 64]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];

/// Slow ray walk, used to build the relation tables and as a test oracle.
const fn ray_attacks(sq: usize, occ: u64, rook: bool) -> u64 {
    let dirs: [(i32, i32); 4] = if rook {
        [(1, 0), (-1, 0), (0, 1), (0, -1)]
    } else {
        [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    };
    let f0 = (sq % 8) as i32;
    let r0 = (sq / 8) as i32;
    let mut out = 0u64;
    let mut d = 0;
    while d < 4 {
        let mut f = f0 + dirs[d].0;
        let mut r = r0 + dirs[d].1;
        while f >= 0 && f < 8 && r >= 0 && r < 8 {
            let b = 1u64 << (r * 8 + f);
            out |= b;
            if occ & b != 0 {
                break;
            }
            f += dirs[d].0;
            r += dirs[d].1;
        }
        d += 1;
    }
    out
}

/// `BETWEEN[a][b]`: squares strictly between a and b on a shared line, plus b itself
/// (so a check by a slider on b is answered by capture or interposition: `between(k, checker)`).
/// For squares on no shared line it is just b.
const fn between_table() -> [[u64; 64]; 64] {
    let mut t = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let bb = 1u64 << b;
            let mut v = bb;
            if a != b {
                let mut rook = true;
                let mut k = 0;
                while k < 2 {
                    if ray_attacks(a, 0, rook) & bb != 0 {
                        v |= ray_attacks(a, bb, rook) & ray_attacks(b, 1u64 << a, rook);
                    }
                    rook = false;
                    k += 1;
                }
            }
            t[a][b] = v;
            b += 1;
        }
        a += 1;
    }
    t
}

/// `LINE[a][b]`: the whole line (edge to edge) through a and b, or empty when they share none.
const fn line_table() -> [[u64; 64]; 64] {
    let mut t = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            if a != b {
                let bb = 1u64 << b;
                let mut rook = true;
                let mut k = 0;
                while k < 2 {
                    if ray_attacks(a, 0, rook) & bb != 0 {
                        t[a][b] =
                            (ray_attacks(a, 0, rook) & ray_attacks(b, 0, rook)) | (1u64 << a) | bb;
                    }
                    rook = false;
                    k += 1;
                }
            }
            b += 1;
        }
        a += 1;
    }
    t
}

static BETWEEN: [[u64; 64]; 64] = between_table();

const fn rays_table(rook: bool) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut s = 0;
    while s < 64 {
        t[s] = ray_attacks(s, 0, rook);
        s += 1;
    }
    t
}

static ROOK_RAYS: [u64; 64] = rays_table(true);
static BISHOP_RAYS: [u64; 64] = rays_table(false);

/// Rook attacks from `s` on an empty board.
#[inline(always)]
pub fn rook_rays(s: Square) -> Bitboard {
    Bitboard(ROOK_RAYS[s.index()])
}

/// Bishop attacks from `s` on an empty board.
#[inline(always)]
pub fn bishop_rays(s: Square) -> Bitboard {
    Bitboard(BISHOP_RAYS[s.index()])
}
static LINE: [[u64; 64]; 64] = line_table();

static USE_PEXT: AtomicBool = AtomicBool::new(false);
static DETECT: Once = Once::new();

/// Which sliding-attack lookup is in use.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SliderBackend {
    /// Magic multiply and shift; works on every CPU.
    Magic,
    /// BMI2 `PEXT`; only on x86-64 CPUs that have BMI2.
    Pext,
}

/// Picks the sliding-attack backend from the CPU's features (PEXT when BMI2 is present).
/// Called by `Board` constructors; cheap after the first call.
pub fn init() {
    DETECT.call_once(|| {
        #[cfg(target_arch = "x86_64")]
        {
            let want = std::env::var("ESTUARY_SLIDERS").ok();
            let pext = std::is_x86_feature_detected!("bmi2") && want.as_deref() != Some("magic");
            USE_PEXT.store(pext, Ordering::Relaxed);
        }
    });
}

/// Forces a backend (tests and benchmarks). Returns false if the CPU cannot run it.
pub fn set_slider_backend(b: SliderBackend) -> bool {
    init();
    match b {
        SliderBackend::Magic => {
            USE_PEXT.store(false, Ordering::Relaxed);
            true
        }
        SliderBackend::Pext => {
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("bmi2") {
                USE_PEXT.store(true, Ordering::Relaxed);
                return true;
            }
            false
        }
    }
}

/// The backend in use.
pub fn slider_backend() -> SliderBackend {
    if USE_PEXT.load(Ordering::Relaxed) {
        SliderBackend::Pext
    } else {
        SliderBackend::Magic
    }
}

#[inline(always)]
fn slider(e: &SliderEntry, occ: Bitboard) -> Bitboard {
    #[cfg(target_arch = "x86_64")]
    if USE_PEXT.load(Ordering::Relaxed) {
        let idx: u64;
        // SAFETY: USE_PEXT is only set after `is_x86_feature_detected!("bmi2")` returned true,
        // so the PEXT instruction exists on this CPU. The asm reads two registers and writes
        // one, touching no memory and no flags.
        unsafe {
            core::arch::asm!("pext {0}, {1}, {2}", lateout(reg) idx, in(reg) occ.0, in(reg) e.mask, options(pure, nomem, nostack, preserves_flags));
        }
        return Bitboard(PEXT_TABLE[e.offset + idx as usize]);
    }
    let idx = ((occ.0 & e.mask).wrapping_mul(e.magic) >> e.shift) as usize;
    Bitboard(MAGIC_TABLE[e.offset + idx])
}

/// Squares a rook on `s` attacks given occupancy `occ`.
#[inline(always)]
pub fn rook_attacks(s: Square, occ: Bitboard) -> Bitboard {
    slider(&ROOK_ENTRIES[s.index()], occ)
}

/// Squares a bishop on `s` attacks given occupancy `occ`.
#[inline(always)]
pub fn bishop_attacks(s: Square, occ: Bitboard) -> Bitboard {
    slider(&BISHOP_ENTRIES[s.index()], occ)
}

/// Squares a queen on `s` attacks given occupancy `occ`.
#[inline(always)]
pub fn queen_attacks(s: Square, occ: Bitboard) -> Bitboard {
    rook_attacks(s, occ) | bishop_attacks(s, occ)
}

/// Squares a knight on `s` attacks.
#[inline(always)]
pub fn knight_attacks(s: Square) -> Bitboard {
    Bitboard(KNIGHT[s.index()])
}

/// Squares a king on `s` attacks.
#[inline(always)]
pub fn king_attacks(s: Square) -> Bitboard {
    Bitboard(KING[s.index()])
}

/// Squares a pawn of colour `c` on `s` attacks (captures).
#[inline(always)]
pub fn pawn_attacks(c: Color, s: Square) -> Bitboard {
    Bitboard(PAWN[c.index()][s.index()])
}

/// Squares a piece of kind `k` and colour `c` on `s` attacks given `occ`.
#[inline]
pub fn attacks_from(k: PieceKind, c: Color, s: Square, occ: Bitboard) -> Bitboard {
    match k {
        PieceKind::Pawn => pawn_attacks(c, s),
        PieceKind::Knight => knight_attacks(s),
        PieceKind::Bishop => bishop_attacks(s, occ),
        PieceKind::Rook => rook_attacks(s, occ),
        PieceKind::Queen => queen_attacks(s, occ),
        PieceKind::King => king_attacks(s),
    }
}

/// Squares strictly between `a` and `b` on a shared line, plus `b`; just `b` if no shared line.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a.index()][b.index()])
}

/// The full line through `a` and `b`, or empty when they share no line.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINE[a.index()][b.index()])
}

/// Rook x-ray: what a rook on `s` attacks once the first blockers in `blockers` are removed.
#[inline]
pub fn xray_rook_attacks(s: Square, occ: Bitboard, blockers: Bitboard) -> Bitboard {
    let att = rook_attacks(s, occ);
    let b = blockers & att;
    att ^ rook_attacks(s, occ ^ b)
}

/// Bishop x-ray: what a bishop on `s` attacks once the first blockers in `blockers` are removed.
#[inline]
pub fn xray_bishop_attacks(s: Square, occ: Bitboard, blockers: Bitboard) -> Bitboard {
    let att = bishop_attacks(s, occ);
    let b = blockers & att;
    att ^ bishop_attacks(s, occ ^ b)
}

/// Reference ray walk (slow), exposed for tests and table checks.
pub fn slow_slider_attacks(s: Square, occ: Bitboard, rook: bool) -> Bitboard {
    Bitboard(ray_attacks(s.index(), occ.0, rook))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sliders_match_ray_walk_on_both_backends() {
        let mut rng = crate::rng::Rng::xorshift64(0x1234_5678_9ABC_DEF1);
        let mut next = || rng.next();
        let backends = [SliderBackend::Magic, SliderBackend::Pext];
        for b in backends {
            if !set_slider_backend(b) {
                continue;
            }
            for _ in 0..20000 {
                let occ = Bitboard(next() & next());
                for s in Square::all() {
                    assert_eq!(rook_attacks(s, occ), slow_slider_attacks(s, occ, true));
                    assert_eq!(bishop_attacks(s, occ), slow_slider_attacks(s, occ, false));
                }
            }
        }
        set_slider_backend(SliderBackend::Magic);
    }

    #[test]
    fn between_and_line() {
        let a1 = Square::new(0);
        let h8 = Square::new(63);
        assert_eq!(between(a1, h8).count(), 7);
        assert_eq!(line(a1, h8).count(), 8);
        assert_eq!(line(a1, Square::new(10)).count(), 0);
        assert_eq!(
            between(a1, Square::new(10)),
            Bitboard::from_square(Square::new(10))
        );
    }
}
