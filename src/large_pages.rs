//! Zero-filled arrays placed so the operating system can back them with
//! 2 MB pages. The search reads the hash table at random: with 4 KB pages
//! nearly every probe also misses the TLB, and the page walk stalls the
//! prefetch that should have hidden the load (perf put about a sixth of the
//! search's time there; 2 MB pages made it 3 to 5 % faster). Linux gives an
//! aligned, advised region huge pages under the common
//! `transparent_hugepage=madvise` setting; elsewhere the array is only
//! aligned.

use std::alloc::{self, Layout};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// The size of a large page on x86-64 and most 64-bit ARM Linux systems.
const LARGE_PAGE: usize = 2 << 20;

/// Types whose all-zero bit pattern is a valid value.
///
/// # Safety
/// Implement only for types without drop glue whose all-zero bytes are a
/// valid value: integers, atomics of integers and arrays or structs of them.
pub unsafe trait Zeroable {}

/// A heap array of `len` zero values, aligned to a large page when it is at
/// least one large page long.
pub struct LargePageArray<T: Zeroable> {
    ptr: NonNull<T>,
    len: usize,
    layout: Layout,
}

// SAFETY: the array owns its elements like a `Box<[T]>` does.
unsafe impl<T: Zeroable + Send> Send for LargePageArray<T> {}
// SAFETY: shared access only hands out `&[T]`.
unsafe impl<T: Zeroable + Sync> Sync for LargePageArray<T> {}

impl<T: Zeroable> LargePageArray<T> {
    /// `len` zero values, or `None` if the memory cannot be had.
    pub fn zeroed(len: usize) -> Option<Self> {
        let bytes = len.checked_mul(size_of::<T>())?.max(1);
        let align = if bytes >= LARGE_PAGE {
            LARGE_PAGE
        } else {
            align_of::<T>()
        };
        let layout = Layout::from_size_align(bytes, align).ok()?;
        // SAFETY: the layout has a non-zero size.
        let raw = unsafe { alloc::alloc(layout) };
        let ptr = NonNull::new(raw.cast::<T>())?;
        // Advise before the first write: pages touched earlier are already
        // small ones, which is why this is not `alloc_zeroed`.
        advise_large_pages(raw, bytes);
        // SAFETY: `raw` is valid for `bytes` writes.
        unsafe { raw.write_bytes(0, bytes) };
        Some(Self { ptr, len, layout })
    }
}

#[cfg(target_os = "linux")]
fn advise_large_pages(start: *mut u8, bytes: usize) {
    if bytes < LARGE_PAGE {
        return;
    }
    // SAFETY: the range is one live allocation of ours; the advice changes
    // only how the kernel backs it, never its contents.
    let failed = unsafe { libc::madvise(start.cast(), bytes, libc::MADV_HUGEPAGE) } != 0;
    if failed {
        log::debug!(
            "large pages not available: {}",
            std::io::Error::last_os_error()
        );
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_large_pages(_start: *mut u8, _bytes: usize) {}

impl<T: Zeroable> Deref for LargePageArray<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` holds `len` initialised (zeroed, then written) values
        // of T, valid for as long as `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> DerefMut for LargePageArray<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes the access unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for LargePageArray<T> {
    fn drop(&mut self) {
        // SAFETY: Zeroable types have no drop glue to run, and the pointer
        // came from `alloc` with this layout.
        unsafe { alloc::dealloc(self.ptr.as_ptr().cast(), self.layout) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // SAFETY: integers are valid as all zero and have no drop glue.
    unsafe impl Zeroable for u8 {}
    unsafe impl Zeroable for i16 {}
    unsafe impl Zeroable for u64 {}

    #[test]
    fn large_arrays_start_zeroed_and_aligned_to_a_large_page() {
        let mut a = LargePageArray::<u64>::zeroed(LARGE_PAGE / 8 * 3).unwrap();
        assert_eq!(a.as_ptr() as usize % LARGE_PAGE, 0);
        assert!(a.iter().all(|&x| x == 0));
        a[12345] = 7;
        assert_eq!(a.iter().sum::<u64>(), 7);
    }

    #[test]
    fn small_and_empty_arrays_work_too() {
        let small = LargePageArray::<i16>::zeroed(100).unwrap();
        assert_eq!(small.len(), 100);
        assert!(LargePageArray::<u8>::zeroed(0).unwrap().is_empty());
    }
}
