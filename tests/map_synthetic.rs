//! Map layouts built with the crate's own `DatafileWriter`: every item
//! layout of spec §3.3 that the corpus does not show directly (DDNet's
//! bezier item, extra trailing ints, truncated physics indices, RGB images,
//! run-length tiles with known contents), and the error cases.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use gamefmt::ErrorKind;
use gamefmt::datafile::{DatafileWriter, UUID_ENVPOINTS_BEZIER, WriteVersion};
use gamefmt::map::{ImageFormat, Layer, MapView, TileData, TileKind};

/// A name as DDNet stores it in 3 ints: bytes + 128, big-endian, last NUL.
fn name3(s: &str) -> [i32; 3] {
    let mut b = [0u8; 12];
    b[..s.len()].copy_from_slice(s.as_bytes());
    let mut ints = [0i32; 3];
    for (i, int) in ints.iter_mut().enumerate() {
        let chunk: [u8; 4] = std::array::from_fn(|j| b[i * 4 + j].wrapping_add(128));
        *int = i32::from_be_bytes(chunk);
    }
    ints[2] &= !0xFF; // DDNet stores the last byte as a plain 0
    ints
}

/// A writer holding the VERSION item and one group over `layers` layers.
fn base(layers: i32) -> DatafileWriter {
    let mut w = DatafileWriter::new();
    w.add_item(0, 0, &[1]).unwrap();
    let mut group = vec![3, 0, 0, 100, 100, 0, layers, 0, 0, 0, 0, 0];
    group.extend(name3("Game"));
    w.add_item(4, 0, &group).unwrap();
    w
}

/// A tilemap item: head, version, size, flags, colour, envelope, image,
/// data, then `tail` (name and/or physics indices).
fn tilemap(version: i32, w: i32, h: i32, flags: i32, data: usize, tail: &[i32]) -> Vec<i32> {
    let mut v = vec![
        0,
        2,
        0,
        version,
        w,
        h,
        flags,
        255,
        255,
        255,
        255,
        -1,
        0,
        -1,
        data as i32,
    ];
    v.extend_from_slice(tail);
    v
}

#[test]
fn ddrace_v2_prefix_of_physics_indices_reads_like_ddnet() {
    let mut w = base(2);
    let game = w.add_data(&[1, 0, 0, 0].repeat(4));
    let dummy = w.add_data(&[0u8; 16]);
    let speedup = w.add_data(&[10, 20, 28, 0, 0x2c, 0x01].repeat(4));
    // 17 ints: tele and speedup indices only (tele unused: -1).
    w.add_item(5, 0, &tilemap(2, 2, 2, 1, game, &[-1, 0]))
        .unwrap();
    w.add_item(5, 1, &tilemap(2, 2, 2, 4, dummy, &[-1, speedup as i32]))
        .unwrap();
    let bytes = w.finish(WriteVersion::V4).unwrap();
    let map = MapView::parse(&bytes).unwrap();
    let sp = map.layer(1).unwrap().as_tiles().unwrap();
    assert_eq!(sp.kind(), TileKind::Speedup);
    assert!(sp.name().is_none(), "version 2 has no name");
    assert_eq!(
        sp.physics_data_index(TileKind::Speedup),
        Some(speedup as i32)
    );
    // Front, switch and tune lie past the item: read as absent.
    assert_eq!(sp.physics_data_index(TileKind::Front), None);
    assert_eq!(sp.physics_data_index(TileKind::Tune), None);
    let mut buf = vec![0u8; sp.buffer_len().unwrap()];
    let TileData::Speedup(tiles) = sp.data_into(&mut buf).unwrap() else {
        panic!()
    };
    assert_eq!(tiles.len(), 4);
    assert_eq!(
        (tiles[0].force, tiles[0].max_speed, tiles[0].kind),
        (10, 20, 28)
    );
    assert_eq!(tiles[0].angle.get(), 300);
    assert_eq!(map.game_layer().unwrap().width(), 2);

    // A front layer whose item is too short to hold the front index is
    // refused, as DDNet refuses it.
    let mut w = base(1);
    let d = w.add_data(&[0u8; 16]);
    w.add_item(5, 0, &tilemap(2, 2, 2, 8, d, &[-1, -1]))
        .unwrap();
    let e = MapView::parse(&w.finish(WriteVersion::V4).unwrap()).unwrap_err();
    assert_eq!(
        e.kind,
        ErrorKind::Corrupt("physics tile layer lacks its data index")
    );
}

#[test]
fn ddnet_v3_layer_keeps_unknown_trailing_ints() {
    let mut w = base(1);
    let game = w.add_data(&[0u8; 4 * 6]);
    let mut tail = name3("Game").to_vec();
    tail.extend([-1, -1, -1, -1, -1, 77, 88]);
    w.add_item(5, 0, &tilemap(3, 3, 2, 1, game, &tail)).unwrap();
    let bytes = w.finish(WriteVersion::V3).unwrap();
    let map = MapView::parse(&bytes).unwrap();
    let l = map.layer(0).unwrap();
    assert_eq!(l.name().unwrap().decode().to_str().unwrap(), "Game");
    let t = l.as_tiles().unwrap();
    let extra: Vec<i32> = t.extra().iter().map(|v| v.get()).collect();
    assert_eq!(extra, [77, 88]);
    assert_eq!(
        map.group(0)
            .unwrap()
            .name()
            .unwrap()
            .decode()
            .to_str()
            .unwrap(),
        "Game"
    );
}

#[test]
fn tw07_run_length_tiles_expand_into_the_caller_buffer() {
    let mut w = base(1);
    // 3 + 1 + 2 = 6 tiles for a 3x2 layer.
    let packed = w.add_data(&[1, 0, 2, 0, 2, 4, 0, 0, 3, 0, 1, 0]);
    let mut tail = name3("Game").to_vec();
    tail.truncate(3);
    w.add_item(5, 0, &tilemap(4, 3, 2, 1, packed, &tail))
        .unwrap();
    let bytes = w.finish(WriteVersion::V4).unwrap();
    let map = MapView::parse(&bytes).unwrap();
    let game = map.game_layer().unwrap();
    assert_eq!(game.buffer_len().unwrap(), 24);
    let mut small = [0u8; 20];
    let e = game.data_into(&mut small).unwrap_err();
    assert_eq!(e.kind, ErrorKind::BufferTooSmall { needed: 24 });
    let mut buf = [0u8; 24];
    let TileData::Tiles(tiles) = game.data_into(&mut buf).unwrap() else {
        panic!()
    };
    let got: Vec<(u8, u8, u8)> = tiles.iter().map(|t| (t.index, t.flags, t.skip)).collect();
    assert_eq!(
        got,
        [
            (1, 0, 0),
            (1, 0, 0),
            (1, 0, 0),
            (2, 4, 0),
            (3, 0, 0),
            (3, 0, 0)
        ]
    );
    assert_eq!(game.data_to_vec().unwrap().as_bytes(), &buf[..]);
}

#[test]
fn envelope_points_with_ddnet_bezier_item() {
    let mut w = base(0);
    let mut env = vec![2, 1, 0, 2];
    env.extend([0; 8]); // empty name
    env.push(1); // synchronized
    w.add_item(3, 0, &env).unwrap();
    w.add_item(6, 0, &[0, 5, 1024, 0, 0, 0, 500, 1, 0, 0, 0, 0])
        .unwrap();
    let bezier: Vec<i32> = (0..32).collect();
    w.add_uuid_item(UUID_ENVPOINTS_BEZIER, 0, &bezier).unwrap();
    let bytes = w.finish(WriteVersion::V4).unwrap();
    let map = MapView::parse(&bytes).unwrap();
    let env = map.envelope(0).unwrap();
    assert_eq!(env.synchronized(), Some(true));
    let points: Vec<_> = env.points().unwrap().collect();
    assert_eq!(points.len(), 2);
    assert_eq!(
        (
            points[0].time(),
            points[0].curve_type(),
            points[0].values()[0]
        ),
        (0, 5, 1024)
    );
    assert_eq!(points[1].time(), 500);
    let b = points[1].bezier().unwrap();
    assert_eq!(b.in_dx[0].get(), 16);
    assert_eq!(b.out_dy[3].get(), 31);
}

#[test]
fn tw07_envelope_points_carry_inline_tangents() {
    let mut w = base(0);
    let mut env = vec![3, 4, 0, 1];
    env.extend([0; 9]);
    w.add_item(3, 0, &env).unwrap();
    let point: Vec<i32> = (100..122).collect();
    w.add_item(6, 0, &point).unwrap();
    let map_bytes = w.finish(WriteVersion::V4).unwrap();
    let map = MapView::parse(&map_bytes).unwrap();
    assert_eq!(map.env_point_ints(), 22);
    assert_eq!(map.env_point_count(), 1);
    let p = map.env_point(0).unwrap();
    assert_eq!(p.time(), 100);
    assert_eq!(p.bezier().unwrap().in_dx[0].get(), 106);
    // An envelope pointing past the stored points is an error, not a panic.
    let mut w = base(0);
    w.add_item(3, 0, &[1, 4, 0, 3, -1]).unwrap();
    w.add_item(6, 0, &[0; 12]).unwrap();
    let bytes = w.finish(WriteVersion::V4).unwrap();
    let map = MapView::parse(&bytes).unwrap();
    let env = map.envelope(0).unwrap();
    assert!(env.name().is_none(), "0.5-era envelopes have no name");
    assert!(env.points().is_err());
}

#[test]
fn images_info_and_quads() {
    let mut w = base(1);
    let name = w.add_data_string("grass");
    let rgb = w.add_data(&[1, 2, 3, 4, 5, 6]);
    w.add_item(2, 0, &[2, 2, 1, 0, name as i32, rgb as i32, 0])
        .unwrap();
    let bad = w.add_data(&[0; 8]);
    w.add_item(2, 1, &[2, 2, 1, 0, name as i32, bad as i32, 0])
        .unwrap();
    w.add_item(2, 2, &[1, 64, 64, 1, name as i32, -1]).unwrap();
    let author = w.add_data_string("me");
    let settings = w.add_data(b"sv_a 1\0sv_b 2\0");
    w.add_item(1, 0, &[1, author as i32, -1, -1, -1, settings as i32])
        .unwrap();
    let mut quad = [0i32; 38];
    quad[34] = 7; // pos_env
    let quad_bytes: Vec<u8> = quad.iter().flat_map(|v| v.to_le_bytes()).collect();
    let quads = w.add_data(&quad_bytes);
    let mut layer = vec![0, 3, 1, 2, 1, quads as i32, -1];
    layer.extend(name3("Quads"));
    w.add_item(5, 0, &layer).unwrap();
    let bytes = w.finish(WriteVersion::V4).unwrap();
    let map = MapView::parse(&bytes).unwrap();

    let img = map.image(0).unwrap();
    assert_eq!(img.format(), ImageFormat::Rgb);
    let mut buf = [0u8; 64];
    assert_eq!(img.pixels_into(&mut buf).unwrap(), [1, 2, 3, 4, 5, 6]);
    assert_eq!(img.name(&mut buf).unwrap(), Some("grass"));
    let e = map.image(1).unwrap().pixels_into(&mut buf).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Corrupt(_)));
    let ext = map.image(2).unwrap();
    assert!(ext.is_external());
    assert_eq!((ext.format(), ext.data_len()), (ImageFormat::Rgba, None));

    let info = map.info().unwrap();
    assert_eq!(info.author(&mut buf).unwrap(), Some("me"));
    assert_eq!(info.credits(&mut buf).unwrap(), None);
    let cmds: Vec<&str> = info.settings(&mut buf).unwrap().collect();
    assert_eq!(cmds, ["sv_a 1", "sv_b 2"]);
    assert_eq!(info.settings_owned().unwrap(), ["sv_a 1", "sv_b 2"]);

    let Layer::Quads(q) = map.layer(0).unwrap() else {
        panic!()
    };
    assert!(map.layer(0).unwrap().is_detail());
    assert_eq!(q.name().unwrap().decode().to_str().unwrap(), "Quads");
    let mut qbuf = vec![0u8; q.buffer_len()];
    let quads = q.quads_into(&mut qbuf).unwrap();
    assert_eq!(quads.len(), 1);
    assert_eq!(quads[0].pos_env.get(), 7);
}

#[test]
fn legacy_and_bad_versions_are_reported() {
    // 2007-era scheme: no VERSION item, own types above 0x8000.
    let mut w = DatafileWriter::new();
    w.add_item(0x8001, 0, &[1, 2, 3]).unwrap();
    let bytes = w.finish(WriteVersion::V4).unwrap();
    assert_eq!(
        MapView::parse(&bytes).unwrap_err().kind,
        ErrorKind::LegacyLayout
    );
    // No VERSION item and nothing legacy about it: corrupt.
    let mut w = DatafileWriter::new();
    w.add_item(4, 0, &[1, 0, 0, 100, 100, 0, 0]).unwrap();
    let bytes = w.finish(WriteVersion::V4).unwrap();
    assert!(matches!(
        MapView::parse(&bytes).unwrap_err().kind,
        ErrorKind::Corrupt(_)
    ));
    // VERSION 2 is not a map version anyone writes.
    let mut w = DatafileWriter::new();
    w.add_item(0, 0, &[2]).unwrap();
    let bytes = w.finish(WriteVersion::V4).unwrap();
    assert_eq!(
        MapView::parse(&bytes).unwrap_err().kind,
        ErrorKind::UnsupportedVersion(2)
    );
    // A group pointing past the layers.
    let w = base(3);
    let bytes = w.finish(WriteVersion::V4).unwrap();
    assert!(matches!(
        MapView::parse(&bytes).unwrap_err().kind,
        ErrorKind::Corrupt(_)
    ));
}
