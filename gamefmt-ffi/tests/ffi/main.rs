//! The C ABI's tests, one binary (one link): the calling contract (null
//! pointers, unfilled structs, garbage), the committed header against
//! cbindgen, allocation-free paths through the ABI, and the format
//! registry. `cargo test -p gamefmt-ffi --test ffi -- header::` runs one
//! part.

#[path = "../../../tests/common/mod.rs"]
mod common;
#[path = "../../../tests/common/counting_alloc.rs"]
mod counting_alloc;

mod contract;
mod header;
mod no_alloc;
mod registry;
mod stats;

/// Counts allocations for `no_alloc` (per thread: the other tests'
/// allocations on their own threads do not count).
#[global_allocator]
static ALLOC: counting_alloc::CountingAlloc = counting_alloc::CountingAlloc;
