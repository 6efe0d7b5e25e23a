//! A global allocator that counts allocations, to prove a code path
//! allocates nothing. Install it in a test binary with
//! `#[global_allocator] static ALLOC: CountingAlloc = CountingAlloc;`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    static COUNT: Cell<usize> = const { Cell::new(0) };
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

fn note(size: usize) {
    let _ = COUNT.try_with(|c| c.set(c.get().wrapping_add(1)));
    let _ = LARGEST.try_with(|c| c.set(c.get().max(size)));
}

/// Counts allocations made by the current thread, then defers to `System`.
pub struct CountingAlloc;

// SAFETY: defers every call to the system allocator unchanged.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Runs `f` and returns its result with the number of allocations the
/// current thread made meanwhile.
#[allow(dead_code, reason = "used by the modules that need a format's feature")]
pub fn allocations_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = COUNT.with(Cell::get);
    let out = f();
    let after = COUNT.with(Cell::get);
    (out, after.wrapping_sub(before))
}

/// Runs `f` and returns its result with the size in bytes of the largest
/// single allocation (or reallocation) the current thread made meanwhile.
#[allow(dead_code, reason = "not every test binary that counts uses it")]
pub fn largest_allocation_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = LARGEST.with(|c| c.replace(0));
    let out = f();
    let largest = LARGEST.with(|c| c.replace(before.max(c.get())));
    (out, largest)
}
