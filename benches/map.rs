//! Map content throughput over the corpus maps, in bytes of map file per
//! second (and tiles per second for the tile benchmark).
//!
//! `cargo bench --bench map`. Skips (prints why) when the corpus folder is
//! absent.
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
use gamefmt::map::{Layer, MapView};

fn main() {
    divan::main();
}

/// Every corpus map that reads as a (modern) map, loaded once.
fn maps() -> &'static [(String, Vec<u8>)] {
    static MAPS: std::sync::OnceLock<Vec<(String, Vec<u8>)>> = std::sync::OnceLock::new();
    MAPS.get_or_init(|| {
        common::corpus_files("bench map", "teeworlds/maps", ".map")
            .unwrap_or_default()
            .into_iter()
            .filter(|(_, b)| MapView::parse(b).is_ok())
            .collect()
    })
}

fn total_bytes() -> usize {
    maps().iter().map(|(_, b)| b.len()).sum()
}

/// Map parse (datafile validation plus every map item checked) and a walk
/// over groups, layers, images and envelope points, inflating nothing.
#[divan::bench]
fn parse_and_walk_items(bencher: divan::Bencher) {
    bencher.counter(BytesCount::new(total_bytes())).bench(|| {
        let mut n = 0usize;
        for (_, bytes) in maps() {
            let map = MapView::parse(divan::black_box(bytes)).unwrap();
            for group in map.groups() {
                n = group
                    .layers()
                    .fold(n, |n, l| n.wrapping_add(l.flags() as usize));
            }
            n += map.images().filter(|i| i.is_external()).count();
            n = map
                .env_points()
                .fold(n, |n, p| n.wrapping_add(p.time() as usize));
        }
        n
    });
}

/// Every tile layer's own tiles inflated (and TW0.7 tiles expanded) into one
/// reused buffer.
#[divan::bench]
fn inflate_all_tiles(bencher: divan::Bencher) {
    let mut buf = vec![0u8; 64 << 20];
    let tiles: usize = maps()
        .iter()
        .map(|(_, b)| {
            let map = MapView::parse(b).unwrap();
            map.layers()
                .filter_map(|l| l.as_tiles())
                .filter(|t| t.data_into(&mut buf).is_ok())
                .map(|t| t.tile_count().unwrap())
                .sum::<usize>()
        })
        .sum();
    bencher.counter(ItemsCount::new(tiles)).bench_local(|| {
        let mut n = 0usize;
        for (_, bytes) in maps() {
            let map = MapView::parse(divan::black_box(bytes)).unwrap();
            for layer in map.layers() {
                if let Layer::Tiles(t) = layer {
                    if let Ok(data) = t.data_into(&mut buf) {
                        n += data.len();
                    }
                }
            }
        }
        n
    });
}
