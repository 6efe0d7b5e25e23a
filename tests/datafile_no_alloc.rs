//! The datafile core paths (parse, iteration, lookups, decompress_into)
//! allocate nothing: proven with a counting global allocator.
#![allow(
    unsafe_code,
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use crate::common;

use crate::counting_alloc::allocations_during;
use gamefmt::datafile::{DatafileView, SAMPLE, UUID_AUTOMAPPER_CONFIG};

fn walk(bytes: &[u8], buf: &mut [u8]) -> (usize, i64) {
    let Ok(map) = DatafileView::parse(bytes) else {
        return (0, 0);
    };
    let mut sum = 0i64;
    for item in map.items() {
        sum += item.data().iter().map(|v| i64::from(v.get())).sum::<i64>();
        let _ = map.find_item(item.type_id(), item.id());
        let _ = map.type_uuid(item.type_id());
    }
    let _ = map.items_of_uuid(&UUID_AUTOMAPPER_CONFIG).count();
    let mut inflated = 0;
    for i in 0..map.data_count() {
        if let Ok(out) = map.decompress_into(i, buf) {
            inflated += out.len();
        }
    }
    (inflated, sum)
}

#[test]
fn sample_map_allocates_nothing() {
    let mut buf = vec![0u8; 1 << 10];
    let ((inflated, _), allocs) = allocations_during(|| walk(SAMPLE, &mut buf));
    assert_eq!(inflated, 8);
    assert_eq!(allocs, 0);
}

#[test]
fn corpus_maps_allocate_nothing() {
    let Some(maps) = common::corpus_files("corpus_maps_allocate_nothing", "teeworlds/maps", ".map")
    else {
        return;
    };
    let mut buf = vec![0u8; 64 << 20];
    let mut total = 0;
    for (name, bytes) in &maps {
        let ((inflated, _), allocs) = allocations_during(|| walk(bytes, &mut buf));
        assert_eq!(allocs, 0, "{name}");
        total += inflated;
    }
    assert!(total > 50_000_000, "inflated only {total} bytes");
}
