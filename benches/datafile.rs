//! Datafile throughput over the corpus maps, in bytes of input per second.
//!
//! `cargo bench --bench datafile --features alloc`. Skips (prints why) when
//! the corpus folder is absent.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

#[path = "../tests/common/mod.rs"]
mod common;

use divan::counter::{BytesCount, ItemsCount};
use gamefmt::datafile::DatafileView;

fn main() {
    divan::main();
}

/// Every corpus map that parses, loaded once.
fn maps() -> &'static [(String, Vec<u8>)] {
    static MAPS: std::sync::OnceLock<Vec<(String, Vec<u8>)>> = std::sync::OnceLock::new();
    MAPS.get_or_init(|| {
        common::corpus_files("bench datafile", "teeworlds/maps", ".map")
            .unwrap_or_default()
            .into_iter()
            .filter(|(_, b)| DatafileView::parse(b).is_ok())
            .collect()
    })
}

fn total_bytes() -> usize {
    maps().iter().map(|(_, b)| b.len()).sum()
}

/// Parse (full structural validation) of every map; counts items too.
#[divan::bench]
fn parse_only(bencher: divan::Bencher) {
    let items: usize = maps()
        .iter()
        .map(|(_, b)| DatafileView::parse(b).unwrap().item_count())
        .sum();
    bencher
        .counter(BytesCount::new(total_bytes()))
        .counter(ItemsCount::new(items))
        .bench(|| {
            let mut items = 0usize;
            for (_, bytes) in maps() {
                items += DatafileView::parse(divan::black_box(bytes))
                    .unwrap()
                    .item_count();
            }
            items
        });
}

/// Parse plus inflating every data item into one reused buffer.
#[divan::bench]
fn parse_and_inflate_all(bencher: divan::Bencher) {
    let mut buf = vec![0u8; 64 << 20];
    bencher
        .counter(BytesCount::new(total_bytes()))
        .bench_local(|| {
            let mut inflated = 0usize;
            for (_, bytes) in maps() {
                let map = DatafileView::parse(divan::black_box(bytes)).unwrap();
                for i in 0..map.data_count() {
                    if let Ok(out) = map.decompress_into(i, &mut buf) {
                        inflated += out.len();
                    }
                }
            }
            inflated
        });
}

/// Baseline for the ratio: the same zlib streams inflated by calling
/// miniz_oxide directly (no view, no validation), into the same buffer.
#[divan::bench]
fn baseline_bare_inflate(bencher: divan::Bencher) {
    let streams: Vec<(&[u8], usize)> = maps()
        .iter()
        .flat_map(|(_, bytes)| {
            let map = DatafileView::parse(bytes).unwrap();
            (0..map.data_count())
                .map(|i| (map.data_raw(i).unwrap(), map.data_size(i).unwrap()))
                .collect::<Vec<_>>()
        })
        .collect();
    let mut buf = vec![0u8; 64 << 20];
    bencher
        .counter(BytesCount::new(total_bytes()))
        .bench_local(|| {
            let mut inflated = 0usize;
            for &(raw, size) in &streams {
                let out = &mut buf[..size];
                if let Ok(n) = miniz_oxide::inflate::decompress_slice_iter_to_slice(
                    out,
                    std::iter::once(raw),
                    true,
                    false,
                ) {
                    inflated += n;
                }
            }
            inflated
        });
}
