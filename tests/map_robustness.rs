//! Hostile maps: every int of every item of the small (< 4 KiB) corpus maps replaced
//! by edge values. The map view must end in a clean `Error` or a clean
//! reading — never a panic, a hang or a huge allocation.
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use crate::common;

use gamefmt::datafile::DatafileView;
use gamefmt::map::{Layer, MapView};

/// Reads everything the map view offers; returns how many parts read.
fn walk(bytes: &[u8], buf: &mut [u8]) -> usize {
    let Ok(map) = MapView::parse(bytes) else {
        return 0;
    };
    let mut ok = 1;
    if let Some(info) = map.info() {
        ok += usize::from(info.author(buf).is_ok());
        ok += info.settings(buf).map_or(0, Iterator::count);
    }
    for image in map.images() {
        ok += usize::from(image.pixels_into(buf).is_ok());
        ok += usize::from(image.name(buf).is_ok());
        let _ = image.pixel_len();
    }
    for env in map.envelopes() {
        let _ = env.name().map(|n| n.decode());
        ok += env.points().map_or(0, Iterator::count);
    }
    ok += map.env_points().count();
    for group in map.groups() {
        let _ = (group.clipping(), group.name(), group.extra());
        for layer in group.layers() {
            match layer {
                Layer::Tiles(t) => {
                    ok += usize::from(t.data_into(buf).is_ok());
                    ok += usize::from(t.tiles_into(buf).is_ok());
                    ok += usize::from(t.data_to_vec().is_ok());
                    let _ = (t.buffer_len(), t.extra(), t.tile_count());
                }
                Layer::Quads(q) => ok += usize::from(q.quads_into(buf).is_ok()),
                Layer::Sounds(s) => ok += usize::from(s.sources_into(buf).is_ok()),
                Layer::Unknown(_) => {}
            }
        }
    }
    for sound in map.sounds() {
        ok += usize::from(sound.data_into(buf).is_ok());
    }
    ok + map.automapper_configs().count()
}

#[test]
fn corrupted_item_ints_never_panic() {
    let Some(maps) =
        common::corpus_files("corrupted_item_ints_never_panic", "teeworlds/maps", ".map")
    else {
        return;
    };
    let mut buf = vec![0u8; 1 << 20];
    let mut mutations = 0;
    for (name, bytes) in maps.iter().filter(|(_, b)| b.len() < 4 << 10) {
        let Ok(df) = DatafileView::parse(bytes) else {
            continue;
        };
        let original = walk(bytes, &mut buf);
        // Every int of every item, after its 8-byte header.
        let ranges: Vec<(usize, usize)> = df
            .items()
            .map(|i| (i.offset() + 8, i.data().len()))
            .collect();
        let mut copy = bytes.clone();
        for (start, ints) in ranges {
            for k in 0..ints {
                let at = start + 4 * k;
                let saved: [u8; 4] = copy[at..at + 4].try_into().unwrap();
                for v in [-1i32, 0, 1, 4, 1 << 20, i32::MIN] {
                    copy[at..at + 4].copy_from_slice(&v.to_le_bytes());
                    walk(&copy, &mut buf);
                    mutations += 1;
                }
                copy[at..at + 4].copy_from_slice(&saved);
            }
        }
        assert_eq!(walk(&copy, &mut buf), original, "{name}");
    }
    if maps
        .iter()
        .any(|(n, _)| n == "ddnet-map-lib__tests__TestOut.map")
    {
        assert!(mutations > 3_000, "{mutations}");
    }
}
