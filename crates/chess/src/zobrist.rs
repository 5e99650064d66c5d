//! Zobrist keys, generated at compile time from a fixed-seed SplitMix64 stream.

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// All keys in one block: 12*64 piece-square keys, side, 4 castling rights, 8 en-passant files.
const N: usize = 12 * 64 + 1 + 4 + 8;

const fn keys() -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = 0x5EED_E57A_0A21_u64;
    let mut i = 0;
    while i < N {
        let (s, v) = splitmix(state);
        state = s;
        out[i] = v;
        i += 1;
    }
    out
}

static KEYS: [u64; N] = keys();

/// Every key, in the order of the functions below: the 768 piece-square keys (piece index
/// `colour * 6 + kind`, times 64, plus the square), the side key, the four castling keys and the
/// eight en-passant keys (for ROMs built from them: the hardware's Zobrist key ROM).
pub fn table() -> &'static [u64] {
    &KEYS
}

/// Key of piece index `p` (0..12) on square `s`.
#[inline(always)]
pub(crate) fn piece(p: usize, s: usize) -> u64 {
    KEYS[p * 64 + s]
}

/// Key toggled when Black is to move.
#[inline(always)]
pub(crate) fn side() -> u64 {
    KEYS[768]
}

/// Key of castling right bit `i` (0..4: white short, white long, black short, black long).
#[inline(always)]
pub(crate) fn castle(i: usize) -> u64 {
    KEYS[769 + i]
}

/// Key of the en-passant file.
#[inline(always)]
pub(crate) fn ep_file(f: usize) -> u64 {
    KEYS[773 + f]
}
