//! Every corpus map read through `MapView`, checked against the spec's
//! consistency rules (§3.3) and DDNet's load rules, plus a round trip through
//! `DatafileWriter`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use crate::common;

use gamefmt::ErrorKind;
use gamefmt::datafile::{DatafileView, DatafileWriter, WriteVersion};
use gamefmt::map::{
    ITEM_GROUP, ITEM_LAYER, ImageFormat, Layer, LayerKind, MapView, SoundSources, TileData,
    TileKind,
};

/// The 2007-era maps of the corpus (SOURCES.md, spec §3.2): valid
/// datafiles without a VERSION item.
const LEGACY: [&str; 2] = [
    "teeworlds__data__maps__ctf2.map",
    "teeworlds__data__maps__dm1.map",
];
/// Fails the datafile length check (spec §3.1).
const NOT_A_DATAFILE: &str = "ddnet-map-lib__tests__TestOut.map";
/// Teeworlds' `Test.map` is an early DDRace map whose switch layer stores 2
/// bytes per tile, half of what DDNet's loader requires (it refuses the
/// map: "tile data is truncated"), and so does a strict view; the default
/// view converts it (tests/compat.rs). The only such layer in the corpus.
const EARLY_DDRACE_SWITCH: (&str, TileKind) = ("teeworlds__data__maps__Test.map", TileKind::Switch);

fn maps(test: &str) -> Option<Vec<(String, Vec<u8>)>> {
    common::corpus_files(test, "teeworlds/maps", ".map")
}

/// Whether `maps` is the shared corpus these tests know file by file (the
/// general checks also run on any other folder of maps given through
/// `GAMEFMT_CORPUS`; the per-file expectations and totals only here).
fn is_shared_corpus(maps: &[(String, Vec<u8>)]) -> bool {
    maps.iter().any(|(n, _)| n == NOT_A_DATAFILE)
}

#[test]
fn every_corpus_map_reads_or_is_legacy() {
    let Some(maps) = maps("every_corpus_map_reads_or_is_legacy") else {
        return;
    };
    let shared = is_shared_corpus(&maps);
    let (mut read, mut legacy) = (0, 0);
    for (name, bytes) in &maps {
        let Ok(df) = DatafileView::parse(bytes) else {
            // Not a datafile at all: the datafile tests' concern.
            assert!(!shared || name == NOT_A_DATAFILE, "{name}");
            continue;
        };
        match MapView::new(df) {
            Ok(_) => {
                assert!(!LEGACY.contains(&name.as_str()), "{name} read as modern");
                read += 1;
            }
            Err(e) => {
                assert_eq!(e.kind, ErrorKind::LegacyLayout, "{name}: {e}");
                assert!(MapView::is_legacy(&df), "{name}");
                assert!(!shared || LEGACY.contains(&name.as_str()), "{name} legacy");
                legacy += 1;
            }
        }
    }
    if shared {
        assert_eq!(legacy, LEGACY.len());
        assert_eq!(read + legacy + 1, maps.len());
    }
}

/// What [`check_map`] found.
#[derive(Default)]
struct Checked {
    tile_layers: usize,
    /// Layers whose data is shorter than width × height × element size:
    /// DDNet refuses them, and the view reports an error.
    refused: Vec<(String, TileKind)>,
    /// Physics layers (version 3+) whose I32String name is not the one
    /// DDNet's editor gives their kind ("Game", "Tele", ...).
    misnamed: Vec<(String, String)>,
}

/// Checks one modern map.
fn check_map(name: &str, map: &MapView<'_>, found: &mut Checked) {
    let df = map.datafile();
    // Layer and group counts equal the raw item counts, and no layer belongs
    // to two groups (DDNet's rule).
    let raw_count = |t| df.item_type(t).map_or(0, |e| e.count);
    assert_eq!(map.layer_count(), raw_count(ITEM_LAYER), "{name}");
    assert_eq!(map.group_count(), raw_count(ITEM_GROUP), "{name}");
    let mut owner = vec![None; map.layer_count()];
    for (gi, g) in map.groups().enumerate() {
        assert_eq!(g.layers().count(), g.layer_count());
        let start = g.start_layer();
        for (l, o) in owner
            .iter_mut()
            .enumerate()
            .skip(start)
            .take(g.layer_count())
        {
            assert_eq!(o.replace(gi), None, "{name}: layer {l} in two groups");
        }
    }

    let mut buf = vec![0u8; 1 << 25];
    let game = map.game_layer();
    let games = map
        .layers()
        .filter(|l| l.kind() == LayerKind::Tiles(TileKind::Game))
        .count();
    // Every map with layers has a game layer (DDNet refuses maps without;
    // the one map here without is PyTeeworldsMap's 64-byte file, which
    // holds only a VERSION item).
    assert!(games >= usize::from(map.layer_count() > 0), "{name}");
    for layer in map.layers() {
        match layer {
            Layer::Tiles(t) => {
                found.tile_layers += 1;
                let (w, h) = (t.width(), t.height());
                let kind = t.kind();
                if kind != TileKind::Tiles && t.version() >= 3 {
                    let got = t.name().unwrap().decode().to_str().unwrap().to_owned();
                    let mut want = kind.name().to_owned();
                    want[..1].make_ascii_uppercase();
                    if got != want {
                        found.misnamed.push((name.to_owned(), got));
                    }
                }
                // Spec §3.3: the layer's own data inflates to exactly
                // width × height × element size (TW0.7 v4: once expanded).
                if t.version() < 4 {
                    let idx = usize::try_from(t.data_index()).unwrap();
                    let size = df.data_size(idx).unwrap();
                    if size < w * h * kind.element_size() {
                        // DDNet refuses this layer ("tile data truncated"),
                        // and so does the strict view.
                        assert!(t.is_old_layout(), "{name}");
                        let strict = DatafileView::parse_strict(df.as_bytes()).unwrap();
                        let strict = MapView::new(strict).unwrap();
                        let same = |l: &Layer<'_>| l.item().offset() == t.item().offset();
                        let st = strict.layers().find(same).unwrap().as_tiles().unwrap();
                        let e = st.data_into(&mut buf).unwrap_err();
                        assert!(matches!(e.kind, ErrorKind::Refused(_)), "{e}");
                        found.refused.push((name.to_owned(), kind));
                        continue;
                    }
                    assert_eq!(size, w * h * kind.element_size(), "{name}: {kind:?}");
                }
                let data = t
                    .data_into(&mut buf[..t.buffer_len().unwrap()])
                    .unwrap_or_else(|e| panic!("{name}: {kind:?} {w}x{h}: {e}"));
                assert_eq!(data.len(), w * h, "{name}: {kind:?} tiles");
                if let (TileData::Tiles(tiles), true) = (data, kind != TileKind::Tiles) {
                    assert!(tiles.iter().all(|t| t.skip == 0), "{name}: skip left");
                }
                // Physics layers also carry a Tile grid of the same size.
                if t.version() < 4 {
                    let idx = usize::try_from(t.tiles_data_index()).unwrap();
                    assert_eq!(df.data_size(idx), Some(w * h * 4), "{name}");
                }
                assert_eq!(t.tiles_into(&mut buf).unwrap().len(), w * h);
                // Physics layers hold at least the game layer's tiles.
                if !matches!(kind, TileKind::Tiles) {
                    let g = game.unwrap();
                    assert!(w * h >= g.width() * g.height(), "{name}: {kind:?}");
                }
            }
            Layer::Quads(q) => {
                let quads = q.quads_into(&mut buf).unwrap();
                assert_eq!(quads.len(), q.quad_count());
                if q.quad_count() > 0 {
                    let idx = usize::try_from(q.data_index()).unwrap();
                    assert_eq!(df.data_size(idx), Some(q.quad_count() * 152), "{name}");
                }
            }
            Layer::Sounds(s) => match s.sources_into(&mut buf).unwrap() {
                SoundSources::Current(src) => assert_eq!(src.len(), s.source_count()),
                SoundSources::Deprecated(src) => assert_eq!(src.len(), s.source_count()),
            },
            Layer::Unknown(item) => panic!("{name}: unknown layer {:?}", item.data()),
        }
    }
    // Spec §3.3: embedded image data is width × height × channels.
    for image in map.images() {
        let mut name_buf = [0u8; 256];
        assert!(image.name(&mut name_buf).unwrap().is_some(), "{name}");
        if image.is_external() {
            assert_eq!(image.data_len(), None);
            continue;
        }
        let channels = match image.format() {
            ImageFormat::Rgb => 3,
            ImageFormat::Rgba => 4,
            ImageFormat::Unknown(f) => panic!("{name}: image format {f}"),
        };
        let expected = usize::try_from(image.width() * image.height()).unwrap() * channels;
        assert_eq!(image.data_len(), Some(expected), "{name}: image size");
        assert_eq!(image.pixels_into(&mut buf).unwrap().len(), expected);
    }
    // Envelope points stay inside the ENVPOINTS item.
    let mut points = 0;
    for env in map.envelopes() {
        let p = env.points().unwrap();
        assert_eq!(p.len(), usize::try_from(env.point_count()).unwrap());
        points += p.count();
        assert!(matches!(env.channels(), 1 | 3 | 4), "{name}");
    }
    assert!(points <= map.env_point_count());
    // Strings decode.
    if let Some(info) = map.info() {
        let mut s = vec![0u8; 1 << 16];
        info.author(&mut s).unwrap();
        info.credits(&mut s).unwrap();
        info.license(&mut s).unwrap();
        info.map_version(&mut s).unwrap();
        let commands: Vec<&str> = info.settings(&mut s).unwrap().collect();
        assert!(commands.iter().all(|c| !c.is_empty()));
        assert_eq!(info.settings_owned().unwrap(), commands);
    }
    for sound in map.sounds() {
        if let Some(len) = sound.data_len() {
            assert_eq!(sound.data_into(&mut buf).unwrap().len(), len);
        }
    }
    for cfg in map.automapper_configs() {
        let group = map.group(usize::try_from(cfg.group()).unwrap()).unwrap();
        assert!(
            usize::try_from(cfg.layer()).unwrap() < group.layer_count(),
            "{name}"
        );
    }
}

#[test]
fn corpus_maps_are_consistent() {
    let Some(maps) = maps("corpus_maps_are_consistent") else {
        return;
    };
    let mut checked = 0;
    let mut found = Checked::default();
    for (name, bytes) in &maps {
        if let Ok(map) = MapView::parse(bytes) {
            check_map(name, &map, &mut found);
            checked += 1;
        }
    }
    if is_shared_corpus(&maps) {
        assert_eq!(checked, maps.len() - LEGACY.len() - 1);
        assert!(
            found.tile_layers > 400,
            "only {} tile layers",
            found.tile_layers
        );
        let early = (EARLY_DDRACE_SWITCH.0.to_owned(), EARLY_DDRACE_SWITCH.1);
        assert_eq!(found.refused, [early]);
        assert_eq!(found.misnamed, []);
    } else {
        eprintln!(
            "{checked} maps checked; refused layers: {:?}",
            found.refused
        );
    }
}

/// The layouts spec §3.3 lists as seen in real maps are all in the corpus
/// and all read: tilemaps (2,15) (2,17) (2,19) (3,18) (3,23) (4,18).
#[test]
fn every_tilemap_layout_is_read() {
    let Some(maps) = maps("every_tilemap_layout_is_read") else {
        return;
    };
    let mut seen = std::collections::BTreeSet::new();
    for (_, bytes) in &maps {
        if let Ok(map) = MapView::parse(bytes) {
            for t in map.layers().filter_map(|l| l.as_tiles()) {
                seen.insert((t.version(), t.item().data().len()));
            }
        }
    }
    let expected = [(2, 15), (2, 17), (2, 19), (3, 18), (3, 23), (4, 18)];
    if is_shared_corpus(&maps) {
        assert_eq!(seen.into_iter().collect::<Vec<_>>(), expected);
    }
}

/// A map read through the view and written back with `DatafileWriter`
/// gives the same content: the same items and data, and the same map.
/// Every map is written as version 3 (stored data); maps with less than
/// 4 MiB of data also as version 4 (deflated, which is slow for the rest).
#[test]
fn corpus_maps_round_trip_through_writer() {
    let Some(maps) = maps("corpus_maps_round_trip_through_writer") else {
        return;
    };
    for (name, bytes) in &maps {
        let Ok(map) = MapView::parse(bytes) else {
            continue;
        };
        let df = map.datafile();
        let mut w = DatafileWriter::new();
        for item in df.items() {
            let ints: Vec<i32> = item.data().iter().map(|v| v.get()).collect();
            w.add_item(item.type_id(), item.id(), &ints).unwrap();
        }
        let data: Vec<Vec<u8>> = (0..df.data_count())
            .map(|i| df.decompress(i).unwrap())
            .collect();
        for d in &data {
            w.add_data(d);
        }
        let total: usize = data.iter().map(Vec::len).sum();
        let mut versions = vec![WriteVersion::V3];
        if total < 4 << 20 {
            versions.push(WriteVersion::V4);
        }
        for version in versions {
            let out = w.finish(version).unwrap();
            same_content(name, &map, &data, &MapView::parse(&out).unwrap());
        }
    }
}

fn same_content(name: &str, map: &MapView<'_>, data: &[Vec<u8>], again: &MapView<'_>) {
    let (a, b) = (map.datafile(), again.datafile());
    let items = |d: &DatafileView<'_>| -> Vec<(u16, u16, Vec<i32>)> {
        d.items()
            .map(|i| {
                (
                    i.type_id(),
                    i.id(),
                    i.data().iter().map(|v| v.get()).collect(),
                )
            })
            .collect()
    };
    assert_eq!(items(a), items(b), "{name}");
    assert_eq!(b.data_count(), data.len(), "{name}");
    for (i, d) in data.iter().enumerate() {
        assert_eq!(&b.decompress(i).unwrap(), d, "{name}");
    }
    // Map-level content agrees too.
    assert_eq!(map.group_count(), again.group_count());
    for (l1, l2) in map.layers().zip(again.layers()) {
        assert_eq!(l1.kind(), l2.kind(), "{name}");
        if let (Some(t1), Some(t2)) = (l1.as_tiles(), l2.as_tiles()) {
            assert_eq!(t1.data_to_vec().ok(), t2.data_to_vec().ok(), "{name}");
        }
    }
}
