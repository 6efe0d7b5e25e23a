//! The map views (parse, every accessor, tiles/quads/sources/pixels/strings
//! inflated into caller buffers, envelope points) allocate nothing: proven
//! with a counting global allocator over every corpus map.
#![allow(
    unsafe_code,
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use crate::common;

use crate::counting_alloc::allocations_during;
use gamefmt::datafile::SAMPLE;
use gamefmt::map::{Layer, MapView, SoundSources, TileData};

/// Walks the whole map; returns (tiles, quads, envelope points, strings).
fn walk(bytes: &[u8], buf: &mut [u8]) -> (usize, usize, usize, usize) {
    let Ok(map) = MapView::parse(bytes) else {
        return (0, 0, 0, 0);
    };
    let (mut tiles, mut quads, mut points, mut strings) = (0, 0, 0, 0);
    if let Some(info) = map.info() {
        strings += usize::from(matches!(info.author(buf), Ok(Some(_))));
        if let Ok(settings) = info.settings(buf) {
            strings += settings.count();
        }
    }
    for image in map.images() {
        strings += usize::from(matches!(image.name(buf), Ok(Some(_))));
        let _ = image.pixels_into(buf);
    }
    for env in map.envelopes() {
        let _ = env.name().map(|n| n.decode());
        if let Ok(p) = env.points() {
            points += p.filter(|p| p.time() >= 0).count();
        }
    }
    for group in map.groups() {
        let _ = (group.offset(), group.parallax(), group.clipping());
        let _ = group.name().map(|n| n.decode());
        for layer in group.layers() {
            let _ = layer.name().map(|n| n.decode());
            match layer {
                Layer::Tiles(t) => {
                    if let Ok(data) = t.data_into(buf) {
                        tiles += data.len();
                        if let TileData::Tiles(t) = data {
                            let _ = t.iter().filter(|t| t.index == 1).count();
                        }
                    }
                    let _ = t.tiles_into(buf);
                }
                Layer::Quads(q) => quads += q.quads_into(buf).map_or(0, <[_]>::len),
                Layer::Sounds(s) => {
                    if let Ok(SoundSources::Current(src)) = s.sources_into(buf) {
                        let _ = src.len();
                    }
                }
                Layer::Unknown(_) => {}
            }
        }
    }
    for sound in map.sounds() {
        let _ = sound.data_into(buf);
    }
    let _ = map
        .automapper_configs()
        .filter(|c| c.is_automatic())
        .count();
    let _ = map.game_layer();
    (tiles, quads, points, strings)
}

#[test]
fn sample_map_allocates_nothing() {
    let mut buf = vec![0u8; 1 << 10];
    let ((_, _, _, strings), allocs) = allocations_during(|| walk(SAMPLE, &mut buf));
    assert_eq!(strings, 1);
    assert_eq!(allocs, 0);
}

#[test]
fn corpus_maps_allocate_nothing() {
    let Some(maps) = common::corpus_files("corpus_maps_allocate_nothing", "teeworlds/maps", ".map")
    else {
        return;
    };
    let mut buf = vec![0u8; 64 << 20];
    let (mut tiles, mut quads, mut points) = (0, 0, 0);
    for (name, bytes) in &maps {
        let ((t, q, p, _), allocs) = allocations_during(|| walk(bytes, &mut buf));
        assert_eq!(allocs, 0, "{name}");
        tiles += t;
        quads += q;
        points += p;
    }
    // Totals of the shared corpus (not of another GAMEFMT_CORPUS folder).
    if maps
        .iter()
        .any(|(n, _)| n == "ddnet-map-lib__tests__TestOut.map")
    {
        assert!(tiles > 1_000_000, "{tiles} tiles");
        assert!(quads > 100, "{quads} quads");
        assert!(points > 100, "{points} points");
    }
}

/// Warnings into a `heapless::Vec` and the strict parse allocate nothing.
#[test]
fn warnings_and_strict_parse_allocate_nothing() {
    let check = |bytes: &[u8]| {
        let mut warnings = gamefmt::warning::Warnings::<8>::new();
        let ((lenient, strict), allocs) = allocations_during(|| {
            (
                MapView::parse_with(bytes, &mut warnings).is_ok(),
                MapView::parse_strict(bytes).is_ok(),
            )
        });
        assert_eq!(allocs, 0);
        (lenient, strict, warnings.as_slice().len())
    };
    // The sample has no game layer: a warning, a strict refusal.
    assert_eq!(check(SAMPLE), (true, false, 1));
    let Some(maps) = common::corpus_files(
        "warnings_and_strict_parse_allocate_nothing",
        "teeworlds/maps",
        ".map",
    ) else {
        return;
    };
    let warned = maps.iter().filter(|(_, b)| check(b).2 > 0).count();
    if maps
        .iter()
        .any(|(n, _)| n == "ddnet-map-lib__tests__TestOut.map")
    {
        // Test.map (old switch layer) and HeyTux2Saved (no game layer).
        assert_eq!(warned, 2);
    }
}
