//! Zobrist keys, generated at compile time by splitmix64. Hands hash additively: a count `n`
//! of a kind contributes `n` times that kind's key, so adding or removing a piece is one add.

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

type Tables = ([[[u64; 81]; 14]; 2], [[u64; 7]; 2], u64);

const fn build() -> Tables {
    let mut board = [[[0u64; 81]; 14]; 2];
    let mut hand = [[0u64; 7]; 2];
    let mut st = 0x5107_0915_E57A_A12Bu64;
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 14 {
            let mut s = 0;
            while s < 81 {
                let (n, v) = splitmix(st);
                st = n;
                // Bit 0 is left for the side to move.
                board[c][k][s] = v & !1;
                s += 1;
            }
            k += 1;
        }
        let mut k = 0;
        while k < 7 {
            let (n, v) = splitmix(st);
            st = n;
            hand[c][k] = v;
            k += 1;
        }
        c += 1;
    }
    (board, hand, 1)
}

const TABLES: Tables = build();

/// Key of a piece `[color][kind][square]`; bit 0 is always clear.
pub static PIECE: [[[u64; 81]; 14]; 2] = TABLES.0;
/// Key added per piece in hand `[color][hand kind]`.
pub const HAND: [[u64; 7]; 2] = TABLES.1;
/// Xored in when White is to move (bit 0 of the board key is the side to move).
pub const SIDE: u64 = TABLES.2;
