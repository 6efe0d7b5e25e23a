//! Robustness sweeps over every corpus map: every prefix (all of them up to
//! 64 KiB, 2000 evenly spaced ones beyond) and fixed-seed single-byte
//! corruptions (1000 per file up to 16 KiB, 300 beyond) each end in a
//! clean result or a clean error. A panic fails the test. The sample sizes
//! come from `common/sweep.rs`; `GAMEFMT_SWEEP=full` takes ten times more.
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use crate::common;
use crate::sweep;

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

#[test]
fn every_prefix_is_a_clean_error() {
    let Some(maps) = common::corpus_files("datafile prefix sweep", "teeworlds/maps", ".map") else {
        return;
    };
    let mut checked = 0usize;
    let started = std::time::Instant::now();
    for (name, bytes) in &maps {
        let full = DatafileView::parse(bytes).ok();
        for len in sweep::prefix_lengths(bytes.len()) {
            // A datafile states its length, so a strict prefix is invalid —
            // and must say so cleanly — unless all it cut was trailing
            // bytes: then it holds the same items.
            match DatafileView::parse(&bytes[..len]) {
                Err(err) => assert!(err.offset <= len.max(36), "{name}[..{len}]: {err}"),
                Ok(view) => {
                    let full = full.as_ref().expect("a prefix parses, the whole file not");
                    let items = |v: &DatafileView<'_>| {
                        v.items()
                            .map(|i| (i.type_id(), i.id(), i.data().to_vec()))
                            .collect::<Vec<_>>()
                    };
                    assert_eq!(items(&view), items(full), "{name}[..{len}]");
                }
            }
            checked += 1;
        }
    }
    eprintln!(
        "sweep datafile: {} files, {checked} prefixes in {:.1?}",
        maps.len(),
        started.elapsed()
    );
    assert!(checked >= maps.len(), "{checked}");
}

#[test]
fn single_byte_corruptions_never_panic() {
    let Some(maps) = common::corpus_files("datafile corruption sweep", "teeworlds/maps", ".map")
    else {
        return;
    };
    let mut buf = vec![0u8; 64 << 20];
    let (mut parsed, mut rejected) = (0usize, 0usize);
    let started = std::time::Instant::now();
    for (_, bytes) in &maps {
        let mut copy = bytes.clone();
        for (at, value) in sweep::corruptions(bytes, 0x9E37_79B9_7F4A_7C15) {
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
    eprintln!(
        "sweep datafile: {} files, {} corruptions in {:.1?}",
        maps.len(),
        parsed + rejected,
        started.elapsed()
    );
    // Both outcomes occur (corruption in item data is legal, in tables
    // not), so the sweep reaches past the header: checked on a corpus of
    // some size, not of every file (GAMEFMT_CORPUS may name a few).
    if maps.len() >= 10 {
        assert!(
            parsed > 1000 && rejected > 1000,
            "parsed {parsed}, rejected {rejected}"
        );
    }
}
