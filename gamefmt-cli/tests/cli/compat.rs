//! The compatibility policy, quirk by quirk: each quirk built with the
//! crate's own writers is read as the engines that play such files read it,
//! reported as a warning, and refused by the strict parse where current
//! DDNet refuses it. Then the corpus: every map reads the same strict and
//! lenient except Teeworlds' Test.map, whose 2010 switch layer converts.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects,
    reason = "tests: a panic is the failure report"
)]

use crate::common;

use std::path::PathBuf;
use std::process::{Command, Output};

use gamefmt::datafile::{DatafileView, DatafileWriter, WriteVersion};
use gamefmt::map::{
    ITEM_ENVELOPE, Layer, MapView, TILESLAYERFLAG_SPEEDUP, TILESLAYERFLAG_SWITCH, TileData,
};
use gamefmt::slippi::{Event, PayloadSizes, SlippiEventIter, SlippiView, SlippiWriter};
use gamefmt::{Error, ErrorKind, Warning, WarningKind};

/// What the stock 0.6 editor stores for an empty quads layer's data: a
/// zlib stream of nothing.
const EMPTY_ZLIB: [u8; 8] = [0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01];

fn warnings_of_datafile(bytes: &[u8]) -> Vec<Warning> {
    let mut w = Vec::new();
    DatafileView::parse_with(bytes, &mut w).unwrap();
    w
}

fn warnings_of_map(bytes: &[u8]) -> Vec<Warning> {
    let mut w = Vec::new();
    MapView::parse_with(bytes, &mut w).unwrap();
    w
}

/// A map with the VERSION item, one group over `layers` layers after a
/// 3 × 2 game layer (layer 0; DDNet requires one), and whatever the caller
/// adds (layer items with ids from 1).
fn map_writer(layers: i32) -> DatafileWriter {
    let mut w = DatafileWriter::new();
    w.add_item(0, 0, &[1]).unwrap();
    w.add_item(4, 0, &[2, 0, 0, 100, 100, 0, layers + 1, 0, 0, 0, 0, 0])
        .unwrap();
    let game = w.add_data(&[0; 3 * 2 * 4]);
    let mut layer = vec![
        0,
        2,
        0,
        3,
        3,
        2,
        1,
        255,
        255,
        255,
        255,
        -1,
        0,
        -1,
        game as i32,
    ];
    layer.extend(NAME_GAME);
    w.add_item(5, 0, &layer).unwrap();
    w
}

/// The empty name as DDNet stores it (every byte + 128, NUL included).
const NAME_EMPTY: [i32; 3] = [
    i32::from_be_bytes([128; 4]),
    i32::from_be_bytes([128; 4]),
    i32::from_be_bytes([128, 128, 128, 0]),
];

/// "Game" as DDNet stores a layer name in 3 ints (bytes + 128, big-endian).
const NAME_GAME: [i32; 3] = [
    i32::from_be_bytes([b'G' + 128, b'a' + 128, b'm' + 128, b'e' + 128]),
    i32::from_be_bytes([128, 128, 128, 128]),
    i32::from_be_bytes([128, 128, 128, 0]),
];

/// A version 3 tilemap item of `kind_flags`, `w` × `h`, whose design grid is
/// data item `tiles` and whose physics data (for `slot`: 0 tele, 1 speedup,
/// 2 front, 3 switch, 4 tune) is data item `physics`.
fn physics_layer(
    w: i32,
    h: i32,
    flags: i32,
    tiles: usize,
    slot: usize,
    physics: usize,
) -> Vec<i32> {
    let mut v = vec![0, 2, 0, 3, w, h, flags, 255, 255, 255, 255, -1, 0, -1];
    v.push(tiles as i32);
    v.extend(NAME_EMPTY);
    let mut indices = [-1i32; 5];
    indices[slot] = physics as i32;
    v.extend(indices);
    v
}

// ------------------------------------------------------------- 1. empty data

/// A map whose only layer is an empty quads layer with a 0-byte data item,
/// as the 0.6 editor saves it.
fn empty_quads_map() -> (Vec<u8>, usize) {
    let mut w = map_writer(1);
    let data = w.add_data(b"");
    w.add_item(5, 1, &[0, 3, 0, 2, 0, data as i32, -1]).unwrap();
    (w.finish(WriteVersion::V4).unwrap(), data)
}

#[test]
fn empty_data_item_reads_as_empty() {
    let (bytes, data) = empty_quads_map();
    let view = DatafileView::parse(&bytes).unwrap();
    assert_eq!(
        view.data_raw(data),
        Some(&EMPTY_ZLIB[..]),
        "the editor's stream"
    );
    assert_eq!(view.data_size(data), Some(0));
    assert_eq!(view.decompress(data).unwrap(), b"");
    assert_eq!(view.decompress_into(data, &mut []).unwrap(), b"");
    assert_eq!(
        warnings_of_datafile(&bytes),
        [Warning::new(
            WarningKind::EmptyDataItem { index: data },
            view.data_offset(data).unwrap()
        )]
    );
    // The map reads: one quads layer with no quads.
    let map = MapView::parse(&bytes).unwrap();
    let Some(Layer::Quads(q)) = map.layer(1) else {
        panic!("not a quads layer")
    };
    assert_eq!(q.quad_count(), 0);
    assert_eq!(q.quads_into(&mut []).unwrap().len(), 0);

    // Strict, as DDNet since e3d028bd: the file opens, that item does not.
    let strict = DatafileView::parse_strict(&bytes).unwrap();
    assert_eq!(
        strict.decompress(data).unwrap_err(),
        Error::new(
            ErrorKind::Refused(WarningKind::EmptyDataItem { index: data }),
            view.data_offset(data).unwrap()
        )
    );
}

#[test]
fn empty_declared_item_with_content_is_still_an_error() {
    // Declared 0 bytes, but the stream inflates to 5: a real failure.
    let mut w = DatafileWriter::new();
    w.add_item(0, 0, &[1]).unwrap();
    w.add_data(b"hello");
    let mut bytes = w.finish(WriteVersion::V4).unwrap();
    // The size table: header 36, one type (12), one item offset, one data
    // offset, then data item 0's size.
    let at = 36 + 12 + 4 + 4;
    assert_eq!(bytes[at..at + 4], 5i32.to_le_bytes());
    bytes[at..at + 4].copy_from_slice(&0i32.to_le_bytes());
    let view = DatafileView::parse(&bytes).unwrap();
    assert_eq!(view.decompress(0).unwrap_err().kind, ErrorKind::Decompress);
}

// ------------------------------------------------------- 2. duplicate item ids

fn duplicate_envelopes_map() -> Vec<u8> {
    let mut w = map_writer(0);
    // Two envelopes with id 0 (version 1, 4 channels, points 0.. and 1..).
    w.add_item(
        ITEM_ENVELOPE,
        0,
        &[1, 4, 0, 1, -1, -1, -1, -1, -1, -1, -1, -1],
    )
    .unwrap();
    w.add_duplicate_item(
        ITEM_ENVELOPE,
        0,
        &[1, 4, 1, 1, -1, -1, -1, -1, -1, -1, -1, -1],
    )
    .unwrap();
    w.add_item(6, 0, &[0, 0, 0, 0, 0, 0, 100, 1, 0, 0, 0, 0])
        .unwrap();
    w.finish(WriteVersion::V4).unwrap()
}

#[test]
fn duplicate_item_ids_warn_and_first_wins() {
    let bytes = duplicate_envelopes_map();
    let view = DatafileView::parse(&bytes).unwrap();
    let envelopes: Vec<_> = view.items_of_type(ITEM_ENVELOPE).collect();
    assert_eq!(envelopes.len(), 2);
    assert_eq!((envelopes[0].id(), envelopes[1].id()), (0, 0));
    // Lookup by id: the first in file order.
    let found = view.find_item(ITEM_ENVELOPE, 0).unwrap();
    assert_eq!(found.offset(), envelopes[0].offset());
    assert_eq!(found.int(2), Some(0));
    assert_eq!(
        warnings_of_datafile(&bytes),
        [Warning::new(
            WarningKind::DuplicateItemId {
                type_id: ITEM_ENVELOPE,
                id: 0
            },
            envelopes[1].offset()
        )]
    );
    // The map's facts are all there: envelopes are looked up by position.
    let map = MapView::parse(&bytes).unwrap();
    assert_eq!(map.envelope_count(), 2);
    assert_eq!(map.envelope(1).unwrap().start_point(), 1);
    assert_eq!(map.env_point_count(), 2);

    // Strict, as DDNet since 4de2f4f6: the whole file is refused.
    let e = DatafileView::parse_strict(&bytes).unwrap_err();
    assert_eq!(
        e,
        Error::new(
            ErrorKind::Refused(WarningKind::DuplicateItemId {
                type_id: ITEM_ENVELOPE,
                id: 0
            }),
            envelopes[1].offset()
        )
    );
    assert_eq!(MapView::parse_strict(&bytes).unwrap_err(), e);
}

#[test]
fn duplicate_uuid_index_items_are_no_quirk() {
    // 0xFFFF items repeat in many DDNet-tool maps; DDNet accepts them.
    let mut w = DatafileWriter::new();
    w.add_item(0, 0, &[1]).unwrap();
    w.add_item(0xFFFF, 0xFFFE, &[1, 2, 3, 4]).unwrap();
    w.add_item(0xFFFF, 0xFFFE, &[1, 2, 3, 4]).unwrap();
    let bytes = w.finish(WriteVersion::V4).unwrap();
    assert_eq!(warnings_of_datafile(&bytes), []);
    assert!(DatafileView::parse_strict(&bytes).is_ok());
}

// ---------------------------------------------- 3. 2010-era physics layouts

/// A 3 × 2 map with one physics layer of `flags` in `slot` whose data item
/// holds `old` (old-layout tiles).
fn old_layout_map(flags: i32, slot: usize, old: &[u8], version: WriteVersion) -> Vec<u8> {
    let mut w = map_writer(1);
    let tiles = w.add_data(&[0; 3 * 2 * 4]);
    let physics = w.add_data(old);
    w.add_item(5, 1, &physics_layer(3, 2, flags, tiles, slot, physics))
        .unwrap();
    w.finish(version).unwrap()
}

fn decoded_tiles(bytes: &[u8]) -> (MapView<'_>, Vec<u8>) {
    let map = MapView::parse(bytes).unwrap();
    let layer = map.layer(1).unwrap().as_tiles().unwrap();
    assert!(layer.is_old_layout());
    let mut buf = vec![0u8; layer.buffer_len().unwrap()];
    let n = layer.data_into(&mut buf).unwrap().len();
    assert_eq!(n, 6);
    let owned = layer.data_to_vec().unwrap();
    assert_eq!(owned.as_bytes(), &buf[..owned.as_bytes().len()]);
    (map, buf)
}

#[test]
fn old_switch_layer_converted() {
    // (number, type) per tile; type 0 clears the number (DDNet's converter).
    let old = [1, 22, 0, 0, 2, 23, 9, 0, 3, 24, 4, 25];
    for version in [WriteVersion::V3, WriteVersion::V4] {
        let bytes = old_layout_map(TILESLAYERFLAG_SWITCH, 3, &old, version);
        let (map, buf) = decoded_tiles(&bytes);
        let layer = map.layer(1).unwrap().as_tiles().unwrap();
        let mut again = vec![0u8; buf.len()];
        let TileData::Switch(t) = layer.data_into(&mut again).unwrap() else {
            panic!("not switch tiles")
        };
        let got: Vec<_> = t
            .iter()
            .map(|t| (t.number, t.kind, t.flags, t.delay))
            .collect();
        assert_eq!(
            got,
            [
                (1, 22, 0, 0),
                (0, 0, 0, 0),
                (2, 23, 0, 0),
                (0, 0, 0, 0),
                (3, 24, 0, 0),
                (4, 25, 0, 0)
            ]
        );
        assert_eq!(
            warnings_of_map(&bytes),
            [Warning::new(
                WarningKind::OldSwitchLayout,
                layer.item().offset()
            )]
        );
        // Strict: the map opens, the layer's tiles are refused (DDNet's
        // "tile data ... is truncated").
        let strict = MapView::parse_strict(&bytes).unwrap();
        let layer = strict.layer(1).unwrap().as_tiles().unwrap();
        assert_eq!(
            layer.data_into(&mut again).unwrap_err().kind,
            ErrorKind::Refused(WarningKind::OldSwitchLayout)
        );
    }
}

#[test]
fn old_speedup_layer_converted() {
    // (force, type, angle i16 LE) per tile; type 0 (the first layout's
    // padding) reads as the old boost, 28, as twmap reads it.
    let mut old = Vec::new();
    for (force, kind, angle) in [
        (10u8, 28u8, 90i16),
        (0, 0, 0),
        (255, 28, -45),
        (3, 0, 359),
        (0, 0, 0),
        (50, 28, 180),
    ] {
        old.extend([force, kind]);
        old.extend(angle.to_le_bytes());
    }
    let bytes = old_layout_map(TILESLAYERFLAG_SPEEDUP, 1, &old, WriteVersion::V4);
    let (map, mut buf) = decoded_tiles(&bytes);
    let layer = map.layer(1).unwrap().as_tiles().unwrap();
    let TileData::Speedup(t) = layer.data_into(&mut buf).unwrap() else {
        panic!("not speedup tiles")
    };
    let got: Vec<_> = t
        .iter()
        .map(|t| (t.force, t.max_speed, t.kind, t.angle.get()))
        .collect();
    assert_eq!(
        got,
        [
            (10, 0, 28, 90),
            (0, 0, 28, 0),
            (255, 0, 28, -45),
            (3, 0, 28, 359),
            (0, 0, 28, 0),
            (50, 0, 28, 180)
        ]
    );
    assert_eq!(
        warnings_of_map(&bytes),
        [Warning::new(
            WarningKind::OldSpeedupLayout,
            layer.item().offset()
        )]
    );
    let strict = MapView::parse_strict(&bytes).unwrap();
    let layer = strict.layer(1).unwrap().as_tiles().unwrap();
    assert_eq!(
        layer.data_into(&mut buf).unwrap_err().kind,
        ErrorKind::Refused(WarningKind::OldSpeedupLayout)
    );
}

#[test]
fn data_of_no_known_layout_stays_an_error() {
    // 3 bytes a tile is neither layout: too short, as before.
    let bytes = old_layout_map(TILESLAYERFLAG_SWITCH, 3, &[1; 18], WriteVersion::V4);
    assert_eq!(warnings_of_map(&bytes), []);
    let map = MapView::parse(&bytes).unwrap();
    let layer = map.layer(1).unwrap().as_tiles().unwrap();
    assert!(!layer.is_old_layout());
    let mut buf = vec![0u8; layer.buffer_len().unwrap()];
    assert!(matches!(
        layer.data_into(&mut buf).unwrap_err().kind,
        ErrorKind::Corrupt(_)
    ));
}

// ------------------------------------------- current DDNet's loader rules

/// The DDNet rules a default parse warns about and a strict parse refuses.
#[test]
fn ddnet_loader_rules_warn_and_strict_refuses() {
    let rule = |bytes: &[u8]| -> Vec<WarningKind> {
        let kinds: Vec<_> = warnings_of_map(bytes).iter().map(|w| w.kind).collect();
        let strict = MapView::parse_strict(bytes).map(|_| ()).map_err(|e| e.kind);
        match kinds.first() {
            Some(&k) => assert_eq!(strict, Err(ErrorKind::Refused(k))),
            None => assert_eq!(strict, Ok(())),
        }
        kinds
    };
    let ddnet = |rule| WarningKind::DdnetRule { rule };
    let design = |w: i32, h: i32, color: i32, data: usize| {
        let mut v = vec![
            0,
            2,
            0,
            3,
            w,
            h,
            0,
            color,
            255,
            255,
            255,
            -1,
            0,
            -1,
            data as i32,
        ];
        v.extend(NAME_EMPTY);
        v
    };
    // The fixture itself breaks no rule.
    assert_eq!(rule(&map_writer(0).finish(WriteVersion::V4).unwrap()), []);
    // A 1-tile-wide design layer.
    let mut one = map_writer(1);
    let d1 = one.add_data(&[0; 8]);
    one.add_item(5, 1, &design(1, 2, 255, d1)).unwrap();
    assert_eq!(
        rule(&one.finish(WriteVersion::V4).unwrap()),
        [ddnet("tile layer narrower or lower than 2 tiles")]
    );
    // A name that is not UTF-8 (a lone 0xFF byte).
    let mut bad_name = map_writer(1);
    let d = bad_name.add_data(&[0; 24]);
    let mut layer = design(3, 2, 255, d);
    layer[15] = i32::from_be_bytes([0x7F, 0x80, 0x80, 0x80]);
    layer[16] = i32::from_be_bytes([0x80; 4]);
    bad_name.add_item(5, 1, &layer).unwrap();
    assert_eq!(
        rule(&bad_name.finish(WriteVersion::V4).unwrap()),
        [ddnet("tile layer name not valid UTF-8")]
    );
    // A colour of 300.
    let mut red = map_writer(1);
    let d = red.add_data(&[0; 24]);
    red.add_item(5, 1, &design(3, 2, 300, d)).unwrap();
    assert_eq!(
        rule(&red.finish(WriteVersion::V4).unwrap()),
        [ddnet("tile layer colour outside 0..=255")]
    );
    // A design layer reusing the game layer's data item (data item 0).
    let mut shared = map_writer(1);
    shared.add_item(5, 1, &design(3, 2, 255, 0)).unwrap();
    assert_eq!(
        rule(&shared.finish(WriteVersion::V4).unwrap()),
        [ddnet("two tile layers share a data item")]
    );
    // A 2 x 2 front layer under the 3 x 2 game layer.
    let mut small = map_writer(1);
    let (t, f) = (small.add_data(&[0; 16]), small.add_data(&[0; 16]));
    let mut front = physics_layer(2, 2, 8, t, 2, f);
    front[4] = 2;
    small.add_item(5, 1, &front).unwrap();
    assert_eq!(
        rule(&small.finish(WriteVersion::V4).unwrap()),
        [ddnet("physics layer smaller than the game layer")]
    );
    // Two groups over the same game layer.
    let mut twice = map_writer(0);
    twice
        .add_item(4, 1, &[2, 0, 0, 100, 100, 0, 1, 0, 0, 0, 0, 0])
        .unwrap();
    let kinds = rule(&twice.finish(WriteVersion::V4).unwrap());
    assert_eq!(kinds[0], ddnet("a layer belongs to two groups"));
}

#[test]
fn strict_refuses_tile_padding_on_read() {
    // The game layer's data with a padding byte set: Teeworlds ignores it,
    // DDNet refuses the data.
    let mut w = DatafileWriter::new();
    w.add_item(0, 0, &[1]).unwrap();
    w.add_item(4, 0, &[2, 0, 0, 100, 100, 0, 1, 0, 0, 0, 0, 0])
        .unwrap();
    let mut tiles = [0u8; 3 * 2 * 4];
    tiles[0] = 1;
    tiles[7] = 9; // tile 1's padding byte
    let d = w.add_data(&tiles);
    let mut layer = vec![0, 2, 0, 3, 3, 2, 1, 255, 255, 255, 255, -1, 0, -1, d as i32];
    layer.extend(NAME_GAME);
    w.add_item(5, 0, &layer).unwrap();
    let bytes = w.finish(WriteVersion::V4).unwrap();
    let mut buf = [0u8; 24];
    let map = MapView::parse(&bytes).unwrap();
    let TileData::Tiles(t) = map.game_layer().unwrap().data_into(&mut buf).unwrap() else {
        panic!("not tiles")
    };
    assert_eq!((t[0].index, t[1].reserved), (1, 9));
    let strict = MapView::parse_strict(&bytes).unwrap();
    assert_eq!(
        strict
            .game_layer()
            .unwrap()
            .data_into(&mut buf)
            .unwrap_err()
            .kind,
        ErrorKind::Refused(WarningKind::DdnetRule {
            rule: "tile data has a skip or padding byte set"
        })
    );
}

// ------------------------------------------------ 5. zero-size Slippi events

/// A replay whose table declares command 0x20 (no known event) with size 0, which appears
/// twice among the events before Game End.
fn zero_size_replay() -> Vec<u8> {
    let mut sizes = PayloadSizes::new();
    sizes.set(0x20, 0);
    sizes.set(0x3A, 12);
    sizes.set(0x39, 6);
    let mut w = SlippiWriter::new(&sizes).unwrap();
    w.event(0x3A, &[0xFF, 0xFF, 0xFF, 0x85, 0, 0, 0, 0, 0, 0, 0, 0])
        .unwrap();
    w.event(0x20, &[]).unwrap();
    w.event(0x20, &[]).unwrap();
    w.event(0x3A, &[0xFF, 0xFF, 0xFF, 0x86, 0, 0, 0, 0, 0, 0, 0, 0])
        .unwrap();
    w.event(0x39, &[2, 0xFF, 0, 1, 0xFF, 0xFF]).unwrap();
    w.finish(None).unwrap()
}

#[test]
fn zero_size_slippi_event_is_its_command_byte() {
    let bytes = zero_size_replay();
    let codes: Vec<(u8, usize)> = SlippiEventIter::new(&bytes)
        .map(|e| {
            let e = e.unwrap();
            (e.code(), e.payload().len())
        })
        .collect();
    assert_eq!(
        codes,
        [
            (0x35, 10),
            (0x3A, 12),
            (0x20, 0),
            (0x20, 0),
            (0x3A, 12),
            (0x39, 6)
        ]
    );
    let view = SlippiView::parse(&bytes).unwrap();
    assert!(matches!(view.events().last(), Some(Ok(Event::GameEnd(_)))));
    // The 0x20 entry is the first of the table (command order), at 15 + 2.
    let mut warnings = gamefmt::warning::Warnings::<4>::new();
    SlippiView::parse_with(&bytes, &mut warnings).unwrap();
    let zero = Warning::new(WarningKind::ZeroSizeEvent { command: 0x20 }, 17);
    assert_eq!(warnings.as_slice(), &[zero]);
    assert_eq!(
        SlippiView::parse_strict(&bytes).unwrap_err(),
        Error::from(zero)
    );
    assert!(SlippiView::parse_strict(gamefmt::slippi::SAMPLE).is_ok());
}

// --------------------------------------------------------------------- CLI

fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let path = std::env::temp_dir().join(format!("gamefmt-compat-{}-{name}", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    path
}

fn gamefmt(args: &[&str], file: &PathBuf) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gamefmt"))
        .args(args)
        .arg(file)
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

/// `inspect --json`'s object, and the `warnings` kinds in it.
fn inspect_json(file: &PathBuf) -> (serde_json::Value, Vec<String>) {
    let out = gamefmt(&["inspect", "--json"], file);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let kinds = v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["kind"].as_str().unwrap().to_owned())
        .collect();
    (v, kinds)
}

#[test]
fn cli_reads_empty_data_items_with_a_warning() {
    let (bytes, data) = empty_quads_map();
    let file = temp_file("empty.map", &bytes);
    let (v, kinds) = inspect_json(&file);
    assert_eq!(kinds, ["empty_data_item"]);
    let at = DatafileView::parse(&bytes)
        .unwrap()
        .data_offset(data)
        .unwrap();
    assert_eq!(v["warnings"][0]["offset"], at);
    assert_eq!(v["data_errors"], 0, "an empty data item is no failure");
    assert_eq!(v["map"]["layer_kinds"]["quads"], 1);
    let out = gamefmt(&["validate"], &file);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "gamefmt: {}: warning: data item {data} is declared 0 bytes long at byte offset {at}\n",
            file.display()
        )
    );
    // Strict: the item is refused, so validate fails and inspect counts it.
    let out = gamefmt(&["--strict", "validate"], &file);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("refused in strict mode"),
        "{}",
        stderr(&out)
    );
    let out = gamefmt(&["inspect", "--json", "--strict"], &file);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (
            v["data_errors"].as_u64(),
            v["warnings"].as_array().map(Vec::len)
        ),
        (Some(1), Some(0))
    );
}

#[test]
fn cli_gives_the_facts_of_files_with_duplicate_ids() {
    let file = temp_file("dup.map", &duplicate_envelopes_map());
    let (v, kinds) = inspect_json(&file);
    assert_eq!(kinds, ["duplicate_item_id"]);
    assert_eq!(v["items"], 6);
    assert_eq!(v["map"]["envelopes"], 2);
    assert!(gamefmt(&["validate"], &file).status.success());
    let dump = gamefmt(&["dump", "--map"], &file);
    assert!(dump.status.success());
    assert_eq!(
        dump.stdout
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .count(),
        6
    );
    for args in [
        &["--strict", "inspect"][..],
        &["--strict", "dump"],
        &["--strict", "validate"],
    ] {
        let out = gamefmt(args, &file);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(
            stderr(&out).contains("two items of type 3 have id 0"),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn cli_validate_decodes_every_layer() {
    // A 4 x 4 tile layer whose data holds 3 tiles: the container is fine,
    // the map is not (DDNet: "tile data ... is truncated").
    let mut w = map_writer(1);
    let data = w.add_data(&[1; 12]);
    let mut layer = vec![
        0,
        2,
        0,
        3,
        4,
        4,
        0,
        255,
        255,
        255,
        255,
        -1,
        0,
        -1,
        data as i32,
    ];
    layer.extend(NAME_EMPTY);
    w.add_item(5, 1, &layer).unwrap();
    let file = temp_file("short.map", &w.finish(WriteVersion::V4).unwrap());
    let out = gamefmt(&["validate"], &file);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("layer 1 (tiles)"), "{}", stderr(&out));
    // A map with no VERSION item is no map.
    let mut w = DatafileWriter::new();
    w.add_item(1, 0, &[1, -1, -1, -1, -1]).unwrap();
    let file = temp_file("noversion.map", &w.finish(WriteVersion::V4).unwrap());
    let out = gamefmt(&["validate"], &file);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("not a valid map"), "{}", stderr(&out));
}

#[test]
fn cli_converts_old_switch_layers() {
    let bytes = old_layout_map(TILESLAYERFLAG_SWITCH, 3, &[1; 12], WriteVersion::V4);
    let file = temp_file("oldswitch.map", &bytes);
    let (_, kinds) = inspect_json(&file);
    assert_eq!(kinds, ["old_switch_layout"]);
    let out = gamefmt(&["validate"], &file);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("warning: 2010-era switch layer"));
    let out = gamefmt(&["--strict", "validate"], &file);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("layer 1 (switch): refused in strict mode"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn cli_reads_zero_size_slippi_events() {
    let file = temp_file("zero.slp", &zero_size_replay());
    let (v, kinds) = inspect_json(&file);
    assert_eq!(kinds, ["zero_size_event"]);
    assert_eq!(v["event_counts"]["0x20"], 2);
    assert_eq!(v["end_method"], 2, "the stream goes on to Game End");
    let dump = gamefmt(&["dump"], &file);
    assert!(dump.status.success());
    assert_eq!(
        dump.stdout
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .count(),
        6
    );
    let out = gamefmt(&["--strict", "inspect"], &file);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("command 0x20 declared with payload size 0"));
}

// ------------------------------------------------------------------ corpus

/// `validate` decodes every corpus map; `--strict` refuses exactly the maps
/// current DDNet's loader refuses: the 2007-era maps (no VERSION item),
/// Test.map's 2010 switch layer ("tile data is truncated") and the saved
/// PyTeeworldsMap test map (no game layer).
#[test]
fn cli_validate_reads_every_corpus_map() {
    let test = "cli_validate_reads_every_corpus_map";
    let (Some(files), Some(dir)) = (
        common::corpus_files(test, "teeworlds/maps", ".map"),
        common::corpus_dir(test),
    ) else {
        return;
    };
    let mut strict_refused = Vec::new();
    for (name, bytes) in &files {
        let path = dir.join("teeworlds/maps").join(name);
        let lenient = gamefmt(&["validate"], &path);
        let strict = gamefmt(&["--strict", "validate"], &path);
        if DatafileView::parse(bytes).is_err() {
            assert_eq!(lenient.status.code(), Some(1), "{name}");
            assert_eq!(strict.status.code(), Some(1), "{name}");
            continue;
        }
        assert!(lenient.status.success(), "{name}: {}", stderr(&lenient));
        if !strict.status.success() {
            assert_eq!(stderr(&strict).lines().count(), 1, "{name}");
            strict_refused.push(name.as_str());
        }
    }
    if files
        .iter()
        .any(|(n, _)| n == "teeworlds__data__maps__Test.map")
    {
        assert_eq!(
            strict_refused,
            [
                "PyTeeworldsMap__test_maps__HeyTux2Saved.map",
                "teeworlds__data__maps__Test.map",
                "teeworlds__data__maps__ctf2.map",
                "teeworlds__data__maps__dm1.map",
            ]
        );
    }
}

#[test]
fn corpus_maps_read_alike_strict_and_lenient() {
    let Some(files) = common::corpus_files(
        "corpus_maps_read_alike_strict_and_lenient",
        "teeworlds/maps",
        ".map",
    ) else {
        return;
    };
    let mut layers = 0usize;
    let mut old_switch = 0usize;
    let mut refused_by_ddnet = Vec::new();
    for (name, bytes) in &files {
        if DatafileView::parse(bytes).is_err() {
            continue; // damaged on purpose; the sweeps cover those
        }
        let before = old_switch;
        let mut warnings = Vec::new();
        let lenient = MapView::parse_with(bytes, &mut warnings);
        let strict = MapView::parse_strict(bytes);
        assert!(DatafileView::parse_strict(bytes).is_ok(), "{name}");
        // A broken DDNet loader rule is a warning by default and refuses
        // the map in strict mode; otherwise both read alike.
        if let Some(rule) = warnings
            .iter()
            .find(|w| matches!(w.kind, WarningKind::DdnetRule { .. }))
        {
            assert_eq!(strict.unwrap_err(), Error::from(*rule), "{name}");
            assert!(lenient.is_ok(), "{name}");
            refused_by_ddnet.push((name.clone(), rule.kind));
            continue;
        }
        assert_eq!(
            strict.as_ref().err(),
            lenient.as_ref().err(),
            "{name}: strict and lenient agree"
        );
        let (Ok(map), Ok(strict)) = (lenient, strict) else {
            continue;
        };
        for (layer, strict_layer) in map.layers().zip(strict.layers()) {
            let (Layer::Tiles(t), Layer::Tiles(st)) = (layer, strict_layer) else {
                continue;
            };
            layers += 1;
            let tiles = t.data_to_vec().unwrap();
            if !t.is_old_layout() {
                assert_eq!(st.data_to_vec().unwrap(), tiles, "{name}");
                continue;
            }
            // Teeworlds' Test.map (an early DDRace map) has the only old
            // switch layer of the corpus: each converted tile is the raw
            // (number, type) pair with flags and delay 0.
            old_switch += 1;
            assert!(warnings.contains(&Warning::new(
                WarningKind::OldSwitchLayout,
                t.item().offset()
            )));
            let raw = map
                .datafile()
                .decompress(usize::try_from(t.data_index()).unwrap())
                .unwrap();
            let TileData::Switch(conv) = tiles.data() else {
                panic!("{name}: not switch tiles")
            };
            assert_eq!(raw.len(), conv.len() * 2);
            for (pair, tile) in raw.chunks_exact(2).zip(conv) {
                let number = if pair[1] == 0 { 0 } else { pair[0] };
                assert_eq!(
                    [tile.number, tile.kind, tile.flags, tile.delay],
                    [number, pair[1], 0, 0]
                );
            }
            assert!(conv.iter().any(|t| t.kind != 0), "{name}: some switch tile");
            assert_eq!(
                st.data_to_vec().unwrap_err().kind,
                ErrorKind::Refused(WarningKind::OldSwitchLayout)
            );
        }
        if old_switch == before {
            assert_eq!(warnings, [], "{name}");
        }
    }
    assert!(layers > 0, "some corpus map has tile layers");
    if files
        .iter()
        .any(|(n, _)| n == "teeworlds__data__maps__Test.map")
    {
        // The shared corpus: one old switch layer, and one map DDNet
        // refuses (PyTeeworldsMap's saved test map has no group at all; the
        // independent reader's map_facts.jsonl: 0 groups, no game layer).
        assert_eq!(old_switch, 1);
        let no_game = WarningKind::DdnetRule {
            rule: "no game layer",
        };
        assert_eq!(
            refused_by_ddnet,
            [(
                "PyTeeworldsMap__test_maps__HeyTux2Saved.map".to_owned(),
                no_game
            )]
        );
    }
}

// ------------------------------------- two sets of DDRace physics layers

/// A map whose game group holds two tele and two front layers after the
/// game layer (as 2010-era DDRace maps hold two sets): layer ids 1 and 2
/// are tele (numbers 1 and 2 in every tile), 3 and 4 front.
fn two_physics_sets_map() -> Vec<u8> {
    use gamefmt::map::{TILESLAYERFLAG_FRONT, TILESLAYERFLAG_TELE};
    let mut w = map_writer(4);
    for (id, (flags, slot, tile)) in [
        (TILESLAYERFLAG_TELE, 0, vec![1u8, 26]),
        (TILESLAYERFLAG_TELE, 0, vec![2, 26]),
        (TILESLAYERFLAG_FRONT, 2, vec![0, 0, 0, 0]),
        (TILESLAYERFLAG_FRONT, 2, vec![0, 0, 0, 0]),
    ]
    .into_iter()
    .enumerate()
    {
        let tiles = w.add_data(&[0; 3 * 2 * 4]);
        let physics = w.add_data(&tile.repeat(3 * 2));
        let layer = physics_layer(3, 2, flags, tiles, slot, physics);
        w.add_item(5, id as u16 + 1, &layer).unwrap();
    }
    w.finish(WriteVersion::V4).unwrap()
}

/// DDNet's `CLayers::Init` (src/game/layers.cpp, DDNet 28baa427) walks
/// every group's layers and assigns each physics layer to its kind's
/// pointer, so the last of a kind wins; the editor's loader
/// (`CEditorMap::Load`, `MakeTeleLayer` ...) does the same. gamefmt's
/// `physics_layer` gives that one and warns about each ignored one.
#[test]
fn two_sets_of_physics_layers_warn_and_the_last_is_used() {
    use gamefmt::map::TileKind;
    let bytes = two_physics_sets_map();
    let map = MapView::parse(&bytes).unwrap();
    let layer_offset = |id: u16| {
        map.layers()
            .find(|l| l.item().id() == id)
            .unwrap()
            .item()
            .offset()
    };
    let mut warnings = warnings_of_map(&bytes);
    warnings.sort_by_key(|w| w.offset);
    assert_eq!(
        warnings,
        [
            Warning::new(
                WarningKind::DuplicatePhysicsLayer { kind: "tele" },
                layer_offset(1)
            ),
            Warning::new(
                WarningKind::DuplicatePhysicsLayer { kind: "front" },
                layer_offset(3)
            ),
        ]
    );
    assert_eq!(map.physics_layer(TileKind::Tele).unwrap().item().id(), 2);
    assert_eq!(map.physics_layer(TileKind::Front).unwrap().item().id(), 4);
    assert_eq!(map.physics_layer(TileKind::Game).unwrap().item().id(), 0);
    assert!(map.physics_layer(TileKind::Switch).is_none());
    assert!(map.physics_layer(TileKind::Tiles).is_none());
    // The used tele layer's tiles are the second set's (number 2).
    let tele = map.physics_layer(TileKind::Tele).unwrap();
    let mut buf = vec![0u8; tele.buffer_len().unwrap()];
    match tele.data_into(&mut buf).unwrap() {
        TileData::Tele(tiles) => assert!(tiles.iter().all(|t| t.number == 2)),
        other => panic!("{other:?}"),
    }
    // DDNet refuses nothing here: the strict view reads the map alike.
    let strict = MapView::parse_strict(&bytes).unwrap();
    assert_eq!(strict.physics_layer(TileKind::Tele).unwrap().item().id(), 2);
    // The CLI: the map validates, with the two warnings.
    let file = temp_file("two-physics-sets.map", &bytes);
    let (_, kinds) = inspect_json(&file);
    assert_eq!(
        kinds,
        ["duplicate_physics_layer", "duplicate_physics_layer"]
    );
    let out = gamefmt(&["validate"], &file);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("a second tele layer: DDNet uses the last tele layer"));
    assert!(gamefmt(&["--strict", "validate"], &file).status.success());
    let _ = std::fs::remove_file(file);
}

// -------------------------------------- RGB data in an image saying RGBA

/// A map with one embedded 4 × 2 image whose item is `version` (1: always
/// RGBA; 2: format field `format`) and whose data is `data`.
fn image_map(version: i32, format: i32, data: &[u8]) -> Vec<u8> {
    let mut w = map_writer(0);
    let name = w.add_data(b"grass\0");
    let pixels = w.add_data(data);
    let mut item = vec![version, 4, 2, 0, name as i32, pixels as i32];
    if version >= 2 {
        item.push(format);
    }
    w.add_item(2, 0, &item).unwrap();
    w.finish(WriteVersion::V4).unwrap()
}

/// Teeworlds 0.6 (`CMapImages::OnMapLoad`, 0.6 branch) uploads an
/// embedded image as RGBA for a version 1 item or format 1, reading
/// width × height × 4 bytes without checking the data's size; DDNet
/// (`CMapImages::OnMapLoadImpl`, 28baa427) requires at least that many
/// bytes and otherwise leaves the image out ("failed to load data"); both
/// play the map. gamefmt warns, reads the pixels as the RGB they are, and
/// refuses them only in strict mode, as DDNet.
#[test]
fn rgb_data_in_an_rgba_image_warns_and_reads_as_rgb() {
    use gamefmt::map::ImageFormat;
    let rgb: Vec<u8> = (0..4 * 2 * 3).map(|i| i as u8).collect();
    for (version, format) in [(1, 1), (2, 1)] {
        let bytes = image_map(version, format, &rgb);
        let map = MapView::parse(&bytes).unwrap();
        let image = map.image(0).unwrap();
        assert_eq!(
            warnings_of_map(&bytes),
            [Warning::new(
                WarningKind::RgbDataInRgbaImage,
                image.item().offset()
            )]
        );
        assert_eq!(image.format(), ImageFormat::Rgba);
        assert_eq!(image.data_format(), ImageFormat::Rgb);
        let mut buf = vec![0u8; image.data_len().unwrap()];
        assert_eq!(image.pixels_into(&mut buf).unwrap(), &rgb[..]);
        let strict = MapView::parse_strict(&bytes).unwrap();
        let err = strict.image(0).unwrap().pixels_into(&mut buf).unwrap_err();
        assert_eq!(
            err.kind,
            ErrorKind::Refused(WarningKind::RgbDataInRgbaImage)
        );
        let file = temp_file(&format!("rgb-image-v{version}.map"), &bytes);
        let out = gamefmt(&["validate"], &file);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("warning: embedded image says RGBA"),
            "{}",
            stderr(&out)
        );
        let strict = gamefmt(&["--strict", "validate"], &file);
        assert_eq!(strict.status.code(), Some(1), "{}", stderr(&strict));
        let _ = std::fs::remove_file(file);
    }
    // RGBA data, and RGB data in an image that says RGB: no quirk.
    let rgba = vec![7u8; 4 * 2 * 4];
    assert!(warnings_of_map(&image_map(1, 1, &rgba)).is_empty());
    assert!(warnings_of_map(&image_map(2, 0, &rgb)).is_empty());
    // Any other size stays an error.
    let bytes = image_map(1, 1, &rgb[..20]);
    let map = MapView::parse(&bytes).unwrap();
    assert!(map.image(0).unwrap().pixels_into(&mut [0u8; 20]).is_err());
}
