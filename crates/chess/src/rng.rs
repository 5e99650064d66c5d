//! The workspace's one pseudo-random generator: Marsaglia's xorshift over 64 bits of state,
//! the same sequence from the same seed on every machine. It finds the magic multipliers in
//! `build.rs` (which includes this file), drives the random playouts and fuzzing of the chess
//! and shogi tests, and the weight initialisation, shuffling and random openings of
//! training and data generation (`estuary nnue-train`, `texel`, `datagen`). Not for
//! cryptography. No dependencies.
//!
//! Two output functions are kept, because recorded results depend on each exact sequence
//! (the generated magic numbers, data sets and nets, test positions checked against other
//! engines): xorshift64 (shifts 13, 7, 17; the state is the output) and xorshift64* (shifts
//! 12, 25, 27; the state times a constant is the output). The constructor picks one.
//!
//! ```
//! use chess::rng::Rng;
//! let mut a = Rng::xorshift64(1);
//! assert_eq!(a.next(), 0x4082_2041);
//! let mut b = Rng::new(7);
//! assert!(b.below(10) < 10);
//! assert!((-1.0..1.0).contains(&b.symmetric()));
//! ```

/// A xorshift generator: see the module documentation.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
    /// xorshift64* rather than xorshift64.
    star: bool,
}

impl Rng {
    /// xorshift64 from any seed, scrambled by the golden-ratio multiplier and made non-zero
    /// (the generator of training and data generation).
    pub const fn new(seed: u64) -> Rng {
        Rng::xorshift64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// xorshift64 starting from `state` as given (not zero: zero stays zero).
    pub const fn xorshift64(state: u64) -> Rng {
        Rng { state, star: false }
    }

    /// xorshift64* starting from `state` as given (not zero: zero stays zero).
    pub const fn xorshift64_star(state: u64) -> Rng {
        Rng { state, star: true }
    }

    /// The next 64 random bits.
    #[allow(clippy::should_implement_trait)]
    #[inline]
    pub fn next(&mut self) -> u64 {
        let mut x = self.state;
        if self.star {
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            self.state = x;
            x.wrapping_mul(0x2545_F491_4F6C_DD1D)
        } else {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            self.state = x;
            x
        }
    }

    /// Uniform in `0..n` (`n > 0`; the tiny modulo bias does not matter here).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Uniform in `[-1, 1)`.
    #[inline]
    pub fn symmetric(&mut self) -> f32 {
        (self.next() >> 11) as f32 / (1u64 << 53) as f32 * 2.0 - 1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first outputs of both generators, as the code this module replaced produced them
    /// (the sequences that recorded tables, data and test positions came from).
    #[test]
    fn sequences_are_the_recorded_ones() {
        let mut x = 0x1234_5678_9ABC_DEF1u64;
        let mut s = Rng::xorshift64(x);
        for _ in 0..1000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            assert_eq!(s.next(), x);
        }
        let mut y = 0x9E37_79B9_7F4A_7C15u64;
        let mut t = Rng::xorshift64_star(y);
        for _ in 0..1000 {
            y ^= y >> 12;
            y ^= y << 25;
            y ^= y >> 27;
            assert_eq!(t.next(), y.wrapping_mul(0x2545_F491_4F6C_DD1D));
        }
        let mut n = Rng::new(5);
        let mut z = 5u64.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        for _ in 0..1000 {
            z ^= z << 13;
            z ^= z >> 7;
            z ^= z << 17;
            assert_eq!(n.next(), z);
        }
    }
}
