//! The chip net's inner loops, scalar and AVX2 (`std::arch`, chosen at run time). The AVX2
//! dot product multiplies the activations (0..=127) by the int8 weights with `maddubs`, whose
//! pairwise `i16` sums cannot saturate at these ranges, then widens to `i32`: the same bits as
//! the scalar loop (tested).

/// True when this CPU runs AVX2 (`std` caches the check).
#[inline(always)]
pub fn avx2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `sum w[i] * x[i]` over the shorter of the two, in `i32`.
#[inline(always)]
pub fn dot(w: &[i8], x: &[u8], avx2: bool) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if avx2 {
        // SAFETY: `avx2` is only true when the CPU supports AVX2 (see `avx2_available`).
        return unsafe { dot_avx2(w, x) };
    }
    let _ = avx2;
    dot_scalar(w, x)
}

/// The scalar twin of [`dot`].
#[inline(always)]
pub fn dot_scalar(w: &[i8], x: &[u8]) -> i32 {
    w.iter()
        .zip(x)
        .fold(0i32, |s, (&w, &x)| s.wrapping_add(w as i32 * x as i32))
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn dot_avx2(w: &[i8], x: &[u8]) -> i32 {
    use std::arch::x86_64::*;
    let n = w.len().min(x.len());
    let mut acc = _mm256_setzero_si256();
    let ones = _mm256_set1_epi16(1);
    let mut i = 0;
    while i + 32 <= n {
        // SAFETY: i + 32 <= n, so both 32-byte loads are inside their slices.
        let (xv, wv) = unsafe {
            (
                _mm256_loadu_si256(x.as_ptr().add(i) as *const __m256i),
                _mm256_loadu_si256(w.as_ptr().add(i) as *const __m256i),
            )
        };
        // u8 x i8 products summed in pairs to i16 (|pair| <= 2 x 127 x 128 < 2^15), then to i32.
        acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_maddubs_epi16(xv, wv), ones));
        i += 32;
    }
    let sum = _mm_add_epi32(
        _mm256_castsi256_si128(acc),
        _mm256_extracti128_si256(acc, 1),
    );
    let sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, 0b01_00_11_10));
    let sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, 0b10_11_00_01));
    _mm_cvtsi128_si32(sum).wrapping_add(dot_scalar(&w[i..n], &x[i..n]))
}

/// `lanes += row` (or `-=`), lane by lane, wrapping.
#[inline(always)]
pub fn add_row(lanes: &mut [i16], row: &[i16], subtract: bool, avx2: bool) {
    #[cfg(target_arch = "x86_64")]
    if avx2 {
        // SAFETY: `avx2` is only true when the CPU supports AVX2 (see `avx2_available`).
        unsafe { add_row_avx2(lanes, row, subtract) };
        return;
    }
    let _ = avx2;
    add_row_scalar(lanes, row, subtract);
}

/// The scalar twin of [`add_row`].
#[inline(always)]
pub fn add_row_scalar(lanes: &mut [i16], row: &[i16], subtract: bool) {
    for (a, &w) in lanes.iter_mut().zip(row) {
        *a = if subtract {
            a.wrapping_sub(w)
        } else {
            a.wrapping_add(w)
        };
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn add_row_avx2(lanes: &mut [i16], row: &[i16], subtract: bool) {
    use std::arch::x86_64::*;
    let n = lanes.len().min(row.len());
    let mut i = 0;
    while i + 16 <= n {
        // SAFETY: i + 16 <= n, so the 32-byte loads and the store are inside their slices.
        unsafe {
            let a = _mm256_loadu_si256(lanes.as_ptr().add(i) as *const __m256i);
            let r = _mm256_loadu_si256(row.as_ptr().add(i) as *const __m256i);
            let v = if subtract {
                _mm256_sub_epi16(a, r)
            } else {
                _mm256_add_epi16(a, r)
            };
            _mm256_storeu_si256(lanes.as_mut_ptr().add(i) as *mut __m256i, v);
        }
        i += 16;
    }
    add_row_scalar(&mut lanes[i..n], &row[i..n], subtract);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn avx2_and_scalar_give_the_same_bits() {
        if !avx2_available() {
            eprintln!("skipped: no AVX2 on this CPU");
            return;
        }
        let mut rng = chess::rng::Rng::new(5);
        for n in [1, 8, 16, 31, 32, 33, 64, 100, 128, 256] {
            let w: Vec<i8> = (0..n).map(|_| rng.below(256) as u8 as i8).collect();
            let x: Vec<u8> = (0..n).map(|_| rng.below(128) as u8).collect();
            assert_eq!(dot(&w, &x, true), dot_scalar(&w, &x), "dot of {n}");
            let row: Vec<i16> = (0..n).map(|_| rng.next() as i16).collect();
            for subtract in [false, true] {
                let mut a: Vec<i16> = (0..n).map(|_| rng.next() as i16).collect();
                let mut b = a.clone();
                add_row(&mut a, &row, subtract, true);
                add_row_scalar(&mut b, &row, subtract);
                assert_eq!(a, b, "row of {n}");
            }
        }
    }
}
