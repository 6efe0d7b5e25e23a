//! Helpers shared by the fuzz targets: how push decoders are fed, and
//! "touch everything" walks that call every accessor of a decoded value so
//! that a panic anywhere behind them shows up.
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use std::hint::black_box;

pub mod map;
pub mod slippi;
pub mod ubjson;

/// Splits `bytes` into consecutive pieces of varying length (1 byte up to a
/// few KiB), chosen from the input itself so that every input always splits
/// the same way and the fuzzer steers the split points through the bytes.
pub fn pieces(bytes: &[u8]) -> Vec<&[u8]> {
    // FNV-1a of the length and the first bytes seeds a xorshift.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ bytes.len() as u64;
    for &b in bytes.iter().take(32) {
        h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
    }
    let mut out = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        h ^= h << 13;
        h ^= h >> 7;
        h ^= h << 17;
        let n = match h % 4 {
            0 => 1 + (h >> 8) % 4,
            1 => 1 + (h >> 8) % 64,
            2 => 1 + (h >> 8) % 1024,
            _ => 1 + (h >> 8) % 8192,
        };
        let (a, b) = rest.split_at((n as usize).min(rest.len()));
        out.push(a);
        rest = b;
    }
    out
}

/// Keeps a value alive for the optimiser.
pub fn touch<T>(v: T) {
    black_box(v);
}
