//! The two inner loops of inference, scalar and AVX2 (picked at run time by the network's
//! `avx2` flag). Both use wrapping `i16` sums for the accumulator and wrapping `i32` sums for
//! the output, so their results are equal bit for bit (tested).

use super::{HIDDEN, QA};

/// True when this CPU runs AVX2 (checked once, when a network is built).
pub(crate) fn avx2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `out = inp + sum(adds) - sum(subs)`, lane by lane.
#[inline(always)]
pub(crate) fn add_sub(
    out: &mut [i16; HIDDEN],
    inp: &[i16; HIDDEN],
    adds: &[&[i16; HIDDEN]],
    subs: &[&[i16; HIDDEN]],
    avx2: bool,
) {
    #[cfg(target_arch = "x86_64")]
    if avx2 {
        // SAFETY: `avx2` is only true when the CPU supports AVX2 (see `avx2_available`).
        unsafe { add_sub_avx2(out, inp, adds, subs) };
        return;
    }
    let _ = avx2;
    add_sub_scalar(out, inp, adds, subs);
}

pub(crate) fn add_sub_scalar(
    out: &mut [i16; HIDDEN],
    inp: &[i16; HIDDEN],
    adds: &[&[i16; HIDDEN]],
    subs: &[&[i16; HIDDEN]],
) {
    *out = *inp;
    for a in adds {
        for (o, &x) in out.iter_mut().zip(a.iter()) {
            *o = o.wrapping_add(x);
        }
    }
    for s in subs {
        for (o, &x) in out.iter_mut().zip(s.iter()) {
            *o = o.wrapping_sub(x);
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn add_sub_avx2(
    out: &mut [i16; HIDDEN],
    inp: &[i16; HIDDEN],
    adds: &[&[i16; HIDDEN]],
    subs: &[&[i16; HIDDEN]],
) {
    use std::arch::x86_64::*;
    for i in (0..HIDDEN).step_by(16) {
        // SAFETY: `i + 16 <= HIDDEN` (HIDDEN is a multiple of 16), so every 32-byte unaligned
        // load and store stays inside its array.
        unsafe {
            let mut v = _mm256_loadu_si256(inp.as_ptr().add(i) as *const __m256i);
            for a in adds {
                v = _mm256_add_epi16(v, _mm256_loadu_si256(a.as_ptr().add(i) as *const __m256i));
            }
            for s in subs {
                v = _mm256_sub_epi16(v, _mm256_loadu_si256(s.as_ptr().add(i) as *const __m256i));
            }
            _mm256_storeu_si256(out.as_mut_ptr().add(i) as *mut __m256i, v);
        }
    }
}

/// `sum(clamp(x, 0, QA)^2 * w)`, wrapping in `i32`.
#[inline(always)]
pub(crate) fn screlu_dot(x: &[i16; HIDDEN], w: &[i16; HIDDEN], avx2: bool) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if avx2 {
        // SAFETY: `avx2` is only true when the CPU supports AVX2 (see `avx2_available`).
        return unsafe { screlu_dot_avx2(x, w) };
    }
    let _ = avx2;
    screlu_dot_scalar(x, w)
}

pub(crate) fn screlu_dot_scalar(x: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i32 {
    let mut sum = 0i32;
    for (&x, &w) in x.iter().zip(w.iter()) {
        let v = (x as i32).clamp(0, QA);
        // `v * w` fits an i16 (|w| <= 127 after clipping), as in the AVX2 kernel.
        let vw = (v * w as i32) as i16 as i32;
        sum = sum.wrapping_add(vw * v);
    }
    sum
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn screlu_dot_avx2(x: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i32 {
    use std::arch::x86_64::*;
    let zero = _mm256_setzero_si256();
    let qa = _mm256_set1_epi16(QA as i16);
    let mut acc = _mm256_setzero_si256();
    for i in (0..HIDDEN).step_by(16) {
        // SAFETY: `i + 16 <= HIDDEN`, so both 32-byte unaligned loads stay inside the arrays.
        let (v, ww) = unsafe {
            (
                _mm256_loadu_si256(x.as_ptr().add(i) as *const __m256i),
                _mm256_loadu_si256(w.as_ptr().add(i) as *const __m256i),
            )
        };
        let v = _mm256_min_epi16(_mm256_max_epi16(v, zero), qa);
        let vw = _mm256_mullo_epi16(v, ww);
        acc = _mm256_add_epi32(acc, _mm256_madd_epi16(vw, v));
    }
    let lo = _mm256_castsi256_si128(acc);
    let hi = _mm256_extracti128_si256(acc, 1);
    let s = _mm_add_epi32(lo, hi);
    let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01_00_11_10));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
    _mm_cvtsi128_si32(s)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn rows(seed: u64) -> Vec<[i16; HIDDEN]> {
        let mut rng = chess::rng::Rng::xorshift64(seed | 1);
        (0..6)
            .map(|_| {
                let mut r = [0i16; HIDDEN];
                for x in r.iter_mut() {
                    *x = (rng.next() >> 40) as i16;
                }
                r
            })
            .collect()
    }

    #[test]
    fn avx2_kernels_equal_scalar() {
        if !avx2_available() {
            eprintln!("no AVX2 on this CPU: only the scalar kernels run");
            return;
        }
        for seed in 1..200u64 {
            let r = rows(seed);
            // Output weights as the clipped network has them.
            let mut w = r[5];
            w.iter_mut().for_each(|x| *x %= 128);
            assert_eq!(screlu_dot(&r[0], &w, true), screlu_dot_scalar(&r[0], &w));
            let (mut a, mut b) = ([0i16; HIDDEN], [0i16; HIDDEN]);
            add_sub(&mut a, &r[0], &[&r[1], &r[2]], &[&r[3], &r[4]], true);
            add_sub_scalar(&mut b, &r[0], &[&r[1], &r[2]], &[&r[3], &r[4]]);
            assert_eq!(a, b);
            add_sub(&mut a, &r[0], &[&r[1]], &[&r[3]], true);
            add_sub_scalar(&mut b, &r[0], &[&r[1]], &[&r[3]]);
            assert_eq!(a, b);
        }
    }
}
