//! The writer and the view agree: every corpus map written back reads as
//! the same items and data; the smoltcp-style quartet on a small map built
//! here; hostile headers fail fast.
#![cfg(feature = "alloc")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use crate::common;

use gamefmt::datafile::{DatafileView, DatafileWriter, SAMPLE, UUID_TEST, WriteVersion};
use gamefmt::{Error, ErrorKind};

/// Items grouped by type in file order, and inflated data items.
type Content = (Vec<(u16, u16, Vec<i32>)>, Vec<Vec<u8>>);

fn content(view: &DatafileView<'_>) -> Content {
    let mut items: Vec<_> = view
        .items()
        .map(|i| {
            (
                i.type_id(),
                i.id(),
                i.data().iter().map(|v| v.get()).collect::<Vec<_>>(),
            )
        })
        .collect();
    // The writer orders types ascending; order within a type is kept.
    items.sort_by_key(|i| i.0);
    let data = (0..view.data_count())
        .map(|i| view.decompress(i).unwrap())
        .collect();
    (items, data)
}

fn rewrite(view: &DatafileView<'_>, version: WriteVersion) -> Vec<u8> {
    let mut w = DatafileWriter::new();
    for item in view.items() {
        let data: Vec<i32> = item.data().iter().map(|v| v.get()).collect();
        w.add_item(item.type_id(), item.id(), &data).unwrap();
    }
    for i in 0..view.data_count() {
        assert_eq!(w.add_data(&view.decompress(i).unwrap()), i);
    }
    w.finish(version).unwrap()
}

#[test]
fn every_corpus_map_round_trips_through_the_writer() {
    let Some(maps) = common::corpus_files("map round trip", "teeworlds/maps", ".map") else {
        return;
    };
    let mut checked = 0;
    for (name, bytes) in &maps {
        let Ok(view) = DatafileView::parse(bytes) else {
            continue;
        };
        let original = content(&view);
        for version in [WriteVersion::V4, WriteVersion::V3] {
            let written = rewrite(&view, version);
            let back = DatafileView::parse(&written).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(content(&back), original, "{name} {version:?}");
            for t in view.item_types() {
                assert_eq!(
                    back.type_uuid(t.type_id),
                    view.type_uuid(t.type_id),
                    "{name}"
                );
            }
        }
        checked += 1;
    }
    if common::shared_corpus() {
        assert_eq!(checked, 51);
    }
}

fn small_map(version: WriteVersion) -> Vec<u8> {
    let mut w = DatafileWriter::new();
    w.add_item(0, 0, &[1]).unwrap();
    w.add_item(4, 1, &[3, 0, 0, 100, 100, 0, 1]).unwrap();
    w.add_item(4, 0, &[3, 0, 0, 100, 100, 1, 1]).unwrap();
    assert_eq!(
        w.add_uuid_item(UUID_TEST, 7, &[1, 2, 3, 4, 5]).unwrap(),
        0xFFFE
    );
    w.add_data_string("author");
    w.add_data(&[0xAB; 1000]);
    w.finish(version).unwrap()
}

/// Parse: a file built from known parts reads back as those parts.
#[test]
fn quartet_parse() {
    let bytes = small_map(WriteVersion::V4);
    let view = DatafileView::parse(&bytes).unwrap();
    assert_eq!(
        (
            view.version(),
            view.item_type_count(),
            view.item_count(),
            view.data_count()
        ),
        (4, 4, 5, 2)
    );
    let groups: Vec<u16> = view.items_of_type(4).map(|i| i.id()).collect();
    assert_eq!(groups, [1, 0], "insertion order kept within a type");
    assert_eq!(view.find_item(4, 0).unwrap().int(5), Some(1));
    assert_eq!(view.find_item(4, 2), None);
    assert_eq!(view.type_uuid(0xFFFE), Some(UUID_TEST));
    assert_eq!(view.type_uuid(4), None);
    let test_items: Vec<_> = view.items_of_uuid(&UUID_TEST).collect();
    assert_eq!(test_items.len(), 1);
    assert_eq!(test_items[0].id(), 7);
    let mut buf = [0u8; 16];
    assert_eq!(view.data_str(0, &mut buf), Ok("author"));
    assert_eq!(view.data_size(1), Some(1000));
    assert!(view.data_raw(1).unwrap().len() < 100, "compressed in v4");
    let mut small = [0u8; 999];
    assert_eq!(
        view.decompress_into(1, &mut small).unwrap_err().kind,
        ErrorKind::BufferTooSmall { needed: 1000 }
    );
}

/// Emit: the on-disk layout is the documented one, byte for byte.
#[test]
fn quartet_emit() {
    assert_eq!(SAMPLE.len(), 120);
    let v3 = {
        let mut w = DatafileWriter::new();
        w.add_item(0, 0, &[1]).unwrap();
        let s = w.add_data_string("gamefmt");
        w.add_item(1, 0, &[1, s as i32, -1, -1, -1]).unwrap();
        w.finish(WriteVersion::V3).unwrap()
    };
    assert_eq!(v3, SAMPLE);
    let ints: Vec<i32> = v3[4..36]
        .chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    // version, size, swaplen, types, items, data, item_size, data_size
    assert_eq!(ints, [3, 104, 96, 2, 2, 1, 40, 8]);
    // The UUID index item stores each 4-byte group big-endian in an LE int.
    let bytes = small_map(WriteVersion::V3);
    let view = DatafileView::parse(&bytes).unwrap();
    let ex = view.find_item(0xFFFF, 0xFFFE).unwrap();
    let at = ex.offset() + 8;
    assert_eq!(&bytes[at..at + 4], &[0x86, 0x21, 0xab, 0xb1]);
}

/// Round trip: v3 and v4 of the same content read back equal.
#[test]
fn quartet_round_trip() {
    let a = DatafileView::parse(&small_map(WriteVersion::V3))
        .map(|v| content(&v))
        .unwrap();
    let b = DatafileView::parse(&small_map(WriteVersion::V4))
        .map(|v| content(&v))
        .unwrap();
    assert_eq!(a, b);
}

fn put(bytes: &mut [u8], at: usize, v: i32) {
    bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

/// Reject: impossible lengths, counts and offsets are errors at the right
/// place.
#[test]
fn quartet_reject() {
    let good = small_map(WriteVersion::V4);
    let err = |f: &dyn Fn(&mut Vec<u8>)| {
        let mut b = good.clone();
        f(&mut b);
        DatafileView::parse(&b).unwrap_err()
    };
    assert_eq!(err(&|b| b[0] = b'X'), Error::new(ErrorKind::BadMagic, 0));
    assert_eq!(
        err(&|b| put(b, 4, 5)),
        Error::new(ErrorKind::UnsupportedVersion(5), 4)
    );
    assert_eq!(err(&|b| b.truncate(20)), Error::truncated(20));
    assert_eq!(err(&|b| b.push(0)).offset, 8);
    assert_eq!(
        err(&|b| put(b, 20, -1)),
        Error::corrupt("negative header field", 20)
    );
    // Item counts near i32::MAX: rejected by the length check, no loop.
    assert_eq!(err(&|b| put(b, 20, i32::MAX)).offset, 8);
    assert_eq!(
        err(&|b| put(b, 16, i32::MAX)),
        Error::corrupt("more than 65536 item types", 16)
    );
    // An item offset out of range (the first item offset table entry is at 36 + 12*4).
    let item_offsets = 36 + 12 * 4;
    assert_eq!(
        err(&|b| put(b, item_offsets + 4, 1 << 20)).kind,
        ErrorKind::OutOfBounds
    );
    assert_eq!(err(&|b| put(b, item_offsets, 4)).offset, item_offsets);
    // The item type table entry pointing at the wrong start.
    assert_eq!(err(&|b| put(b, 36 + 12 + 4, 3)).offset, 36 + 12 + 4);
}

#[test]
fn zlib_stream_is_never_inflated_past_its_declared_size() {
    let good = small_map(WriteVersion::V4);
    // The size table follows the type table (4 types), item offsets (5) and
    // data offsets (2); data item 1 is the 1000-byte one.
    let size_at = 36 + 12 * 4 + 4 * 5 + 4 * 2 + 4;
    let with_declared = |size: i32| {
        let mut b = good.clone();
        put(&mut b, size_at, size);
        b
    };
    // Declare 999 bytes for the 1000-byte item: the stream has more output.
    let bytes = with_declared(999);
    let view = DatafileView::parse(&bytes).unwrap();
    let mut buf = vec![0u8; 4096];
    assert_eq!(
        view.decompress_into(1, &mut buf).unwrap_err().kind,
        ErrorKind::Decompress
    );
    assert!(
        buf[999..].iter().all(|&b| b == 0),
        "nothing written past the declared size"
    );
    // Declaring more than the stream holds is an error too.
    let bytes = with_declared(1001);
    let view = DatafileView::parse(&bytes).unwrap();
    assert_eq!(view.decompress(1).unwrap_err().kind, ErrorKind::Decompress);
    // A size claim the stream cannot reach fails before allocating it.
    let bytes = with_declared(i32::MAX);
    let view = DatafileView::parse(&bytes).unwrap();
    assert_eq!(view.decompress(1).unwrap_err().kind, ErrorKind::Decompress);
    // A declared size of 0 is tolerated by parse, refused by load (DDNet).
    let bytes = with_declared(0);
    let view = DatafileView::parse(&bytes).unwrap();
    assert_eq!(view.decompress(1).unwrap_err().kind, ErrorKind::Decompress);
}

#[test]
fn writer_refuses_duplicates_and_empty_v3_data() {
    let mut w = DatafileWriter::new();
    w.add_item(3, 1, &[]).unwrap();
    assert!(w.add_item(3, 1, &[]).is_err());
    w.add_data(&[]);
    assert!(w.finish(WriteVersion::V3).is_err());
    let v4 = w.finish(WriteVersion::V4).unwrap();
    // Declared size 0: refused as DDNet does by a strict view, read as
    // empty by default (issue 15; tests/compat.rs).
    let view = DatafileView::parse_strict(&v4).unwrap();
    assert_eq!(
        view.decompress(0).unwrap_err().kind,
        ErrorKind::Refused(gamefmt::WarningKind::EmptyDataItem { index: 0 }),
        "declared size 0"
    );
    assert_eq!(
        DatafileView::parse(&v4).unwrap().decompress(0).unwrap(),
        b""
    );
}
