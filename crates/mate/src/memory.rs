//! A large fixed array for the transposition table, aligned to 2 MiB and, on Linux, backed by
//! transparent huge pages where the system allows them (`madvise(MADV_HUGEPAGE)`): a table of
//! many megabytes probed at random otherwise misses the TLB on nearly every probe.

use std::alloc::{alloc, dealloc, handle_alloc_error, Layout};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// Alignment of the buffer: one huge page.
const HUGE_PAGE: usize = 2 << 20;

#[cfg(target_os = "linux")]
extern "C" {
    fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
}

/// Starts loading the cache line of `value` (a hint; no effect on results).
#[inline]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let p: *const T = value;
        // SAFETY: SSE is part of the x86_64 baseline, so the instruction exists; a prefetch is
        // only a hint and never faults, and `p` comes from a live reference.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(p.cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// `n` values of `T`, filled with `T::default()`.
pub struct LargeArray<T> {
    ptr: NonNull<T>,
    len: usize,
    layout: Layout,
}

// SAFETY: LargeArray owns its values like a Vec does; sending or sharing it is as safe as
// sending or sharing the values.
unsafe impl<T: Send> Send for LargeArray<T> {}
// SAFETY: as above: `&LargeArray<T>` only hands out `&T`.
unsafe impl<T: Sync> Sync for LargeArray<T> {}

impl<T: Copy + Default> LargeArray<T> {
    /// Allocates `n >= 1` values (aborts like `Vec` when memory runs out).
    pub fn new(n: usize) -> LargeArray<T> {
        let n = n.max(1);
        let size = n
            .checked_mul(std::mem::size_of::<T>())
            .expect("table size overflows");
        let align = std::mem::align_of::<T>().max(if size >= HUGE_PAGE { HUGE_PAGE } else { 64 });
        let layout = Layout::from_size_align(size.max(1), align).expect("table layout");
        // SAFETY: the layout has a non-zero size.
        let raw = unsafe { alloc(layout) } as *mut T;
        let Some(ptr) = NonNull::new(raw) else {
            handle_alloc_error(layout)
        };
        #[cfg(target_os = "linux")]
        if size >= HUGE_PAGE {
            // SAFETY: the range is the allocation just made, and the advice only changes how
            // the kernel backs it (a failure leaves ordinary pages).
            unsafe {
                madvise(ptr.as_ptr().cast(), size, 14 /* MADV_HUGEPAGE */);
            }
        }
        for i in 0..n {
            // SAFETY: `i < n`, inside the allocation; writing initialises the value.
            unsafe { ptr.as_ptr().add(i).write(T::default()) };
        }
        LargeArray {
            ptr,
            len: n,
            layout,
        }
    }
}

impl<T> Deref for LargeArray<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` holds `len` initialised values for the lifetime of `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> DerefMut for LargeArray<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> Drop for LargeArray<T> {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout; the values are `Copy` (no drop glue).
        unsafe { dealloc(self.ptr.as_ptr().cast(), self.layout) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_start_default_and_keep_writes() {
        for n in [1usize, 1000, (4 << 20) / 8] {
            let mut a: LargeArray<u64> = LargeArray::new(n);
            assert_eq!(a.len(), n);
            assert!(a.iter().all(|&x| x == 0));
            a[n - 1] = 7;
            assert_eq!(a[n - 1], 7);
        }
    }
}
