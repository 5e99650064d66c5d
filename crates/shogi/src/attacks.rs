//! Attack sets, all tables built at compile time by `const fn`.
//!
//! Step pieces read a table per color, kind and square. Sliders (lance, bishop, rook and their
//! promotions) use one ray table per direction: the first blocker along a ray is found with a
//! leading/trailing-zero count and the ray behind it is cut off.

use crate::bitboard::Bitboard;
use crate::types::{Color, PieceKind, Square};

/// The eight directions as (rank step, column step). Rank step -1 is toward rank `a`
/// (Black's forward); column step +1 is toward file 1.
pub const DIRS: [(i8, i8); 8] = [
    (-1, 0),  // 0 N  (Black's forward)
    (-1, 1),  // 1 NE
    (0, 1),   // 2 E
    (1, 1),   // 3 SE
    (1, 0),   // 4 S
    (1, -1),  // 5 SW
    (0, -1),  // 6 W
    (-1, -1), // 7 NW
];

const fn on_board(r: i32, c: i32) -> bool {
    r >= 0 && r < 9 && c >= 0 && c < 9
}

const fn build_rays() -> [[u128; 81]; 8] {
    let mut t = [[0u128; 81]; 8];
    let mut d = 0;
    while d < 8 {
        let mut s = 0;
        while s < 81 {
            let mut r = (s / 9) as i32 + DIRS[d].0 as i32;
            let mut c = (s % 9) as i32 + DIRS[d].1 as i32;
            while on_board(r, c) {
                t[d][s] |= 1u128 << (r * 9 + c);
                r += DIRS[d].0 as i32;
                c += DIRS[d].1 as i32;
            }
            s += 1;
        }
        d += 1;
    }
    t
}

/// Rays from each square in each direction, excluding the square itself.
pub static RAYS: [[u128; 81]; 8] = build_rays();

/// Union of the rays in directions `dirs` from each square (attacks on an empty board).
const fn build_empty_board(dirs: [usize; 4]) -> [u128; 81] {
    let rays = build_rays();
    let mut t = [0u128; 81];
    let mut s = 0;
    while s < 81 {
        let mut i = 0;
        while i < 4 {
            t[s] |= rays[dirs[i]][s];
            i += 1;
        }
        s += 1;
    }
    t
}

static ROOK_EMPTY: [u128; 81] = build_empty_board([0, 2, 4, 6]);
static BISHOP_EMPTY: [u128; 81] = build_empty_board([1, 3, 5, 7]);

/// Direction index from each square toward each other square (8: not aligned or the same).
const fn build_directions() -> [[u8; 81]; 81] {
    let rays = build_rays();
    let mut t = [[8u8; 81]; 81];
    let mut d = 0;
    while d < 8 {
        let mut a = 0;
        while a < 81 {
            let mut b = 0;
            while b < 81 {
                if rays[d][a] & (1u128 << b) != 0 {
                    t[a][b] = d as u8;
                }
                b += 1;
            }
            a += 1;
        }
        d += 1;
    }
    t
}

static DIRECTIONS: [[u8; 81]; 81] = build_directions();

/// Rook attacks from `sq` on an empty board.
#[inline]
pub fn rook_empty(sq: Square) -> Bitboard {
    Bitboard(ROOK_EMPTY[sq.index()])
}

/// Bishop attacks from `sq` on an empty board.
#[inline]
pub fn bishop_empty(sq: Square) -> Bitboard {
    Bitboard(BISHOP_EMPTY[sq.index()])
}

/// Step offsets (rank, col) for Black's pieces; White's are mirrored in rank.
const fn steps(kind: usize) -> &'static [(i8, i8)] {
    match kind {
        0 => &[(-1, 0)],
        2 => &[(-2, -1), (-2, 1)],
        3 => &[(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 1)],
        4 => &[(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0)],
        7 => &[
            (-1, -1),
            (-1, 0),
            (-1, 1),
            (0, -1),
            (0, 1),
            (1, -1),
            (1, 0),
            (1, 1),
        ],
        _ => &[],
    }
}

const fn build_steps() -> [[[u128; 81]; 8]; 2] {
    let mut t = [[[0u128; 81]; 8]; 2];
    let mut color = 0;
    while color < 2 {
        let mut k = 0;
        while k < 8 {
            let st = steps(k);
            let mut s = 0;
            while s < 81 {
                let mut i = 0;
                while i < st.len() {
                    let dr = if color == 0 { st[i].0 } else { -st[i].0 } as i32;
                    let r = (s / 9) as i32 + dr;
                    let c = (s % 9) as i32 + st[i].1 as i32;
                    if on_board(r, c) {
                        t[color][k][s] |= 1u128 << (r * 9 + c);
                    }
                    i += 1;
                }
                s += 1;
            }
            k += 1;
        }
        color += 1;
    }
    t
}

/// Step attacks `[color][kind 0..8][square]` for pawn, knight, silver, gold and king.
static STEPS: [[[u128; 81]; 8]; 2] = build_steps();

/// Squares from which a step piece of color `c` (pawn, knight, silver, gold or king steps)
/// attacks at least one square next to a king on each square: `[c][king square]`. King
/// escapes look only at the pieces this selects.
const fn build_near_king() -> [[u128; 81]; 2] {
    let steps = build_steps();
    let mut t = [[0u128; 81]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 81 {
            let mut around = steps[0][7][sq];
            while around != 0 {
                let a = around.trailing_zeros() as usize;
                around &= around - 1;
                // A piece of `c` attacks `a` from where a piece of the other color on `a`
                // would attack; the kinds without steps (lance, bishop, rook) add nothing.
                let mut k = 0;
                while k < 8 {
                    t[c][sq] |= steps[1 - c][k][a];
                    k += 1;
                }
            }
            sq += 1;
        }
        c += 1;
    }
    t
}

static NEAR_KING: [[u128; 81]; 2] = build_near_king();

/// Squares from which a step piece of color `c` (of any kind) attacks some square next to
/// `king`.
#[inline]
pub fn near_king(c: Color, king: Square) -> Bitboard {
    Bitboard(NEAR_KING[c.index()][king.index()])
}

/// The step table of each piece kind: its own for pawn, knight, silver, gold and king, the
/// empty tables of lance, bishop and rook (they only slide), gold's for the promoted minor
/// pieces and king's for horse and dragon (their steps; their slides are not included).
const STEP_OF_KIND: [usize; 14] = [0, 1, 2, 3, 4, 5, 6, 7, 4, 4, 4, 4, 7, 7];

/// The squares a piece of `kind` and color `c` on `sq` attacks by a single step: none for
/// lance, bishop and rook, the king's steps for horse and dragon.
#[inline]
pub fn step_attacks(kind: PieceKind, c: Color, sq: Square) -> Bitboard {
    Bitboard(STEPS[c.index()][STEP_OF_KIND[kind.index()]][sq.index()])
}

#[inline]
fn ray_pos(d: usize, sq: usize, occ: u128) -> u128 {
    let ray = RAYS[d][sq];
    let b = ray & occ;
    if b == 0 {
        ray
    } else {
        ray ^ RAYS[d][b.trailing_zeros() as usize]
    }
}

#[inline]
fn ray_neg(d: usize, sq: usize, occ: u128) -> u128 {
    let ray = RAYS[d][sq];
    let b = ray & occ;
    if b == 0 {
        ray
    } else {
        ray ^ RAYS[d][127 - b.leading_zeros() as usize]
    }
}

/// Rook attacks from `sq` with blockers `occ`.
#[inline]
pub fn rook(sq: Square, occ: Bitboard) -> Bitboard {
    let s = sq.index();
    let o = occ.0;
    Bitboard(ray_neg(0, s, o) | ray_pos(2, s, o) | ray_pos(4, s, o) | ray_neg(6, s, o))
}

/// Bishop attacks from `sq` with blockers `occ`.
#[inline]
pub fn bishop(sq: Square, occ: Bitboard) -> Bitboard {
    let s = sq.index();
    let o = occ.0;
    Bitboard(ray_neg(1, s, o) | ray_pos(3, s, o) | ray_pos(5, s, o) | ray_neg(7, s, o))
}

/// Lance attacks of `c` from `sq` with blockers `occ`.
#[inline]
pub fn lance(c: Color, sq: Square, occ: Bitboard) -> Bitboard {
    match c {
        Color::Black => Bitboard(ray_neg(0, sq.index(), occ.0)),
        Color::White => Bitboard(ray_pos(4, sq.index(), occ.0)),
    }
}

/// Step attacks of a pawn of `c`.
#[inline]
pub fn pawn(c: Color, sq: Square) -> Bitboard {
    Bitboard(STEPS[c.index()][0][sq.index()])
}

/// Step attacks of a knight of `c`.
#[inline]
pub fn knight(c: Color, sq: Square) -> Bitboard {
    Bitboard(STEPS[c.index()][2][sq.index()])
}

/// Step attacks of a silver of `c`.
#[inline]
pub fn silver(c: Color, sq: Square) -> Bitboard {
    Bitboard(STEPS[c.index()][3][sq.index()])
}

/// Step attacks of a gold (or any gold-moving promoted piece) of `c`.
#[inline]
pub fn gold(c: Color, sq: Square) -> Bitboard {
    Bitboard(STEPS[c.index()][4][sq.index()])
}

/// King attacks.
#[inline]
pub fn king(sq: Square) -> Bitboard {
    Bitboard(STEPS[0][7][sq.index()])
}

/// Attacks of a piece of `kind` and color `c` on `sq` with blockers `occ`.
#[inline]
pub fn attacks(kind: PieceKind, c: Color, sq: Square, occ: Bitboard) -> Bitboard {
    match kind {
        PieceKind::Pawn => pawn(c, sq),
        PieceKind::Lance => lance(c, sq, occ),
        PieceKind::Knight => knight(c, sq),
        PieceKind::Silver => silver(c, sq),
        PieceKind::Gold
        | PieceKind::ProPawn
        | PieceKind::ProLance
        | PieceKind::ProKnight
        | PieceKind::ProSilver => gold(c, sq),
        PieceKind::Bishop => bishop(sq, occ),
        PieceKind::Rook => rook(sq, occ),
        PieceKind::King => king(sq),
        PieceKind::Horse => bishop(sq, occ) | king(sq),
        PieceKind::Dragon => rook(sq, occ) | king(sq),
    }
}

/// The squares a piece of `kind` and color `c` on `sq` attacks on an empty board (a superset
/// of its attacks on any board).
#[inline]
pub fn attacks_empty(kind: PieceKind, c: Color, sq: Square) -> Bitboard {
    match kind {
        PieceKind::Lance => lance(c, sq, Bitboard::EMPTY),
        PieceKind::Bishop => bishop_empty(sq),
        PieceKind::Rook => rook_empty(sq),
        PieceKind::Horse => bishop_empty(sq) | king(sq),
        PieceKind::Dragon => rook_empty(sq) | king(sq),
        _ => step_attacks(kind, c, sq),
    }
}

/// True when a piece of `kind` and color `c` on `from` attacks `target` with blockers `occ`:
/// a slider needs only its empty-board line and a clear path, not its whole attack set.
#[inline]
pub fn attacks_square(
    kind: PieceKind,
    c: Color,
    from: Square,
    target: Square,
    occ: Bitboard,
) -> bool {
    let line = match kind {
        PieceKind::Lance => lance(c, from, Bitboard::EMPTY),
        PieceKind::Bishop => bishop_empty(from),
        PieceKind::Rook => rook_empty(from),
        PieceKind::Horse => bishop_empty(from) | king(from),
        PieceKind::Dragon => rook_empty(from) | king(from),
        _ => return step_attacks(kind, c, from).has(target),
    };
    line.has(target) && (between(from, target) & occ).is_empty()
}

/// The direction index from `a` toward `b` when they share a rank, file or diagonal.
#[inline]
pub fn direction(a: Square, b: Square) -> Option<usize> {
    let d = DIRECTIONS[a.index()][b.index()];
    (d < 8).then_some(d as usize)
}

/// The first occupied square from `sq` (excluded) along direction `d`, if any.
#[inline]
pub fn first_on_ray(d: usize, sq: Square, occ: Bitboard) -> Option<Square> {
    let b = RAYS[d][sq.index()] & occ.0;
    if b == 0 {
        None
    } else if (2..=5).contains(&d) {
        // East, south-east, south and south-west run toward higher square indices.
        Some(Square(b.trailing_zeros() as u8))
    } else {
        Some(Square((127 - b.leading_zeros()) as u8))
    }
}

/// Squares strictly between `a` and `b` when aligned, else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    match direction(a, b) {
        Some(d) => Bitboard(RAYS[d][a.index()] & !RAYS[d][b.index()] & !(1u128 << b.0)),
        None => Bitboard::EMPTY,
    }
}

/// The ray from `a` through `b` and beyond (excluding `a`), when aligned, else empty.
#[inline]
pub fn ray_through(a: Square, b: Square) -> Bitboard {
    match direction(a, b) {
        Some(d) => Bitboard(RAYS[d][a.index()]),
        None => Bitboard::EMPTY,
    }
}
