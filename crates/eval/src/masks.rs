//! Square masks for pawn-structure terms, built at compile time.

use chess::Bitboard;

const fn file_mask(f: usize) -> u64 {
    0x0101_0101_0101_0101u64 << f
}

/// Each file as a set.
pub const FILES: [Bitboard; 8] = {
    let mut t = [Bitboard(0); 8];
    let mut f = 0;
    while f < 8 {
        t[f] = Bitboard(file_mask(f));
        f += 1;
    }
    t
};

/// The files next to each file.
pub const ADJACENT_FILES: [Bitboard; 8] = {
    let mut t = [Bitboard(0); 8];
    let mut f = 0;
    while f < 8 {
        let mut m = 0;
        if f > 0 {
            m |= file_mask(f - 1);
        }
        if f < 7 {
            m |= file_mask(f + 1);
        }
        t[f] = Bitboard(m);
        f += 1;
    }
    t
};

/// `FORWARD_RANKS[colour][rank]`: every rank strictly in front of `rank` from `colour`'s side.
pub const FORWARD_RANKS: [[Bitboard; 8]; 2] = {
    let mut t = [[Bitboard(0); 8]; 2];
    let mut r = 0;
    while r < 8 {
        let white = if r == 7 { 0 } else { !0u64 << (8 * (r + 1)) };
        let black = if r == 0 { 0 } else { !0u64 >> (8 * (8 - r)) };
        t[0][r] = Bitboard(white);
        t[1][r] = Bitboard(black);
        r += 1;
    }
    t
};

/// `PASSED_SPAN[colour][square]`: squares in front of a pawn on its own and adjacent files; a
/// pawn is passed when no enemy pawn stands there.
pub const PASSED_SPAN: [[Bitboard; 64]; 2] = {
    let mut t = [[Bitboard(0); 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 64 {
            let f = s % 8;
            let files = file_mask(f) | ADJACENT_FILES[f].0;
            t[c][s] = Bitboard(files & FORWARD_RANKS[c][s / 8].0);
            s += 1;
        }
        c += 1;
    }
    t
};
