//! The core's integration tests, one binary: each file of `tests/` is a
//! module here, compiled when the features it needs are on (the `cfg`
//! beside it), so `cargo test -p gamefmt --no-default-features --features
//! F` runs what F can run. Run one file's tests with a filter:
//! `cargo test -p gamefmt --test integration slippi_stats::`.
//!
//! One binary links once (36 used to) and shares one counting allocator:
//! the `*_no_alloc` modules count allocations per thread with it.

mod common;
#[path = "common/counting_alloc.rs"]
mod counting_alloc;

#[cfg(any(
    feature = "datafile",
    all(
        feature = "std",
        feature = "demo",
        feature = "teehistorian",
        feature = "slippi"
    )
))]
#[path = "common/sweep.rs"]
mod sweep;

#[global_allocator]
static ALLOC: counting_alloc::CountingAlloc = counting_alloc::CountingAlloc;

#[cfg(all(
    feature = "std",
    feature = "map",
    feature = "snapshot",
    feature = "demo",
    feature = "teehistorian",
    feature = "slippi"
))]
mod claims;
#[cfg(feature = "datafile")]
mod datafile_corpus;
#[cfg(feature = "datafile")]
mod datafile_no_alloc;
#[cfg(feature = "datafile")]
mod datafile_roundtrip;
#[cfg(feature = "datafile")]
mod datafile_sweep;
#[cfg(all(feature = "std", feature = "demo", feature = "datafile"))]
mod demo_corpus;
#[cfg(all(feature = "std", feature = "demo"))]
mod demo_record;
#[cfg(all(
    feature = "teehistorian",
    feature = "slippi",
    feature = "demo",
    feature = "embedded-io",
    feature = "embedded-io-async"
))]
mod embedded_io;
#[cfg(all(feature = "alloc", feature = "demo"))]
mod huffman;
#[cfg(all(feature = "alloc", feature = "map"))]
mod map_corpus;
#[cfg(feature = "map")]
mod map_no_alloc;
#[cfg(all(feature = "alloc", feature = "map"))]
mod map_robustness;
#[cfg(all(feature = "alloc", feature = "map"))]
mod map_synthetic;
mod module_cycles;
#[cfg(all(feature = "netmsg", feature = "demo", feature = "teehistorian"))]
mod netmsg_corpus;
#[cfg(feature = "slippi")]
mod slippi;
#[cfg(feature = "slippi")]
mod slippi_corpus;
#[cfg(all(feature = "alloc", feature = "slippi"))]
mod slippi_knowledge;
#[cfg(all(feature = "std", feature = "slippi"))]
mod slippi_live;
#[cfg(feature = "slippi")]
mod slippi_no_alloc;
#[cfg(all(feature = "slippi", feature = "std"))]
mod slippi_stats;
#[cfg(feature = "slpz")]
mod slpz;
#[cfg(all(
    feature = "std",
    feature = "demo",
    feature = "teehistorian",
    feature = "slippi"
))]
mod small_buffers;
#[cfg(all(feature = "alloc", feature = "snapshot"))]
mod snapshot;
#[cfg(all(feature = "demo", feature = "datafile"))]
mod snapshot_no_alloc;
#[cfg(all(feature = "alloc", feature = "demo", feature = "teehistorian"))]
mod snapshot_objects_corpus;
#[cfg(all(feature = "alloc", feature = "snapshot"))]
mod snapshot_vectors;
#[cfg(all(
    feature = "std",
    feature = "map",
    feature = "demo",
    feature = "teehistorian",
    feature = "slippi"
))]
mod stack;
#[cfg(all(
    feature = "std",
    feature = "demo",
    feature = "teehistorian",
    feature = "slippi"
))]
mod sweeps;
#[cfg(all(feature = "std", feature = "teehistorian"))]
mod teehistorian_corpus;
#[cfg(feature = "teehistorian")]
mod teehistorian_knowledge;
#[cfg(feature = "teehistorian")]
mod teehistorian_no_alloc;
#[cfg(all(feature = "alloc", feature = "teehistorian"))]
mod teehistorian_synthetic;
#[cfg(feature = "verify-uuids")]
mod uuids;
