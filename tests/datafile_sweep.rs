//! Robustness sweeps over every corpus map: every prefix (all of them up to
//! 64 KiB, 2000 evenly spaced ones beyond) and 300 fixed-seed single-byte
//! corruptions per file each end in a clean result or a clean error. A
//! panic fails the test.
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod common;

use gamefmt::ErrorKind;
use gamefmt::datafile::DatafileView;

/// Reads everything a view offers; inflates the data items overlapping
/// `touched` (all of them when `None`).
fn exercise(bytes: &[u8], touched: Option<usize>, buf: &mut [u8]) -> usize {
    let Ok(map) = DatafileView::parse(bytes) else {
        return 0;
    };
    let mut n = 0usize;
    for item in map.items() {
        n = n.wrapping_add(item.data().len());
        let _ = map.type_uuid(item.type_id());
    }
    for t in map.item_types() {
        n = n.wrapping_add(map.items_of_type(t.type_id).count());
    }
    for i in 0..map.data_count() {
        let start = map.data_offset(i).unwrap();
        let len = map.data_raw(i).unwrap().len();
        let hit = touched.is_none_or(|at| (start..start + len).contains(&at));
        if hit {
            match map.decompress_into(i, buf) {
                Ok(out) => n = n.wrapping_add(out.len()),
                Err(e) => assert!(
                    matches!(
                        e.kind,
                        ErrorKind::Decompress | ErrorKind::BufferTooSmall { .. }
                    ),
                    "{e}"
                ),
            }
        }
    }
    n
}

fn prefix_lengths(len: usize) -> Vec<usize> {
    if len <= 64 << 10 {
        (0..len).collect()
    } else {
        (0..2000).map(|k| k * len / 2000).collect()
    }
}

#[test]
fn every_prefix_is_a_clean_error() {
    let Some(maps) = common::corpus_files("datafile prefix sweep", "teeworlds/maps", ".map") else {
        return;
    };
    let mut checked = 0usize;
    for (name, bytes) in &maps {
        for len in prefix_lengths(bytes.len()) {
            // A datafile states its exact length, so every strict prefix is
            // invalid — and must say so cleanly.
            let err = DatafileView::parse(&bytes[..len]).unwrap_err();
            assert!(err.offset <= len.max(36), "{name}[..{len}]: {err}");
            checked += 1;
        }
    }
    assert!(checked > 100_000, "{checked}");
}

#[test]
fn single_byte_corruptions_never_panic() {
    let Some(maps) = common::corpus_files("datafile corruption sweep", "teeworlds/maps", ".map")
    else {
        return;
    };
    let mut buf = vec![0u8; 64 << 20];
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut parsed, mut rejected) = (0usize, 0usize);
    for (_, bytes) in &maps {
        let samples = if bytes.len() <= 16 << 10 { 1000 } else { 300 };
        let mut copy = bytes.clone();
        for _ in 0..samples {
            let at = (next() % bytes.len() as u64) as usize;
            let value = (next() & 0xFF) as u8;
            copy[at] = value;
            let small = bytes.len() <= 64 << 10;
            exercise(&copy, if small { None } else { Some(at) }, &mut buf);
            if DatafileView::parse(&copy).is_ok() {
                parsed += 1
            } else {
                rejected += 1
            }
            copy[at] = bytes[at];
        }
    }
    // Both outcomes occur: corruption in item data is legal, in tables not.
    assert!(
        parsed > 1000 && rejected > 1000,
        "parsed {parsed}, rejected {rejected}"
    );
}
