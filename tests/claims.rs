//! Claims are not trusted: hostile inputs built in code, whose headers claim
//! huge counts or sizes, in every format. Each must fail fast (each takes
//! milliseconds in a debug build; the bound is two seconds, so that a
//! loaded CI machine does not flake, where a loop over the claim would take
//! minutes) with a clean error or a clean ending, and
//! a counting allocator proves that nothing allocates in proportion to the
//! claim: the core paths allocate nothing at all, the `alloc` and `std`
//! paths no more than the input can actually hold (or their fixed buffer).
#![allow(
    unsafe_code,
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects,
    reason = "tests: a panic is the failure report"
)]

use std::time::{Duration, Instant};

use crate::counting_alloc::{allocations_during, largest_allocation_during};
use gamefmt::datafile::{DatafileView, DatafileWriter, WriteVersion};
use gamefmt::map::{Layer, MapView};
use gamefmt::snapshot::{self, DeltaView, SnapshotBuilder, SnapshotView};
use gamefmt::stream::{Decoded, End};
use gamefmt::{ErrorKind, demo, huffman, slippi, teehistorian};
use zerocopy::IntoBytes;
use zerocopy::little_endian::I32;

/// What "fast" means here: far below the time a loop over the claim takes.
const FAST: Duration = Duration::from_secs(2);

/// Runs `f` on a core (no-alloc) path: it must allocate nothing and
/// return quickly.
fn core<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let started = Instant::now();
    let (out, allocs) = allocations_during(f);
    let took = started.elapsed();
    assert_eq!(allocs, 0, "{what}: {allocs} allocations");
    assert!(took < FAST, "{what}: took {took:?}");
    out
}

/// Runs `f` on an alloc path: no single allocation above `limit` bytes,
/// and quickly.
fn capped<T>(what: &str, limit: usize, f: impl FnOnce() -> T) -> T {
    let started = Instant::now();
    let (out, largest) = largest_allocation_during(f);
    let took = started.elapsed();
    assert!(
        largest <= limit,
        "{what}: allocated {largest} bytes at once"
    );
    assert!(took < FAST, "{what}: took {took:?}");
    out
}

fn set_i32(bytes: &mut [u8], at: usize, v: i32) {
    bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn get_i32(bytes: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

// ------------------------------------------------------------------ datafile

/// A small version 4 datafile: two items and one data item holding
/// `data`.
fn datafile(data: &[u8]) -> Vec<u8> {
    let mut w = DatafileWriter::new();
    w.add_item(0, 0, &[1]).unwrap();
    w.add_item(1, 0, &[1, 2, 3]).unwrap();
    w.add_data(data);
    w.finish(WriteVersion::V4).unwrap()
}

/// Offset of data item `index`'s declared (inflated) size.
fn data_size_at(df: &[u8], index: usize) -> usize {
    let (types, items, data) = (get_i32(df, 16), get_i32(df, 20), get_i32(df, 24));
    36 + 12 * types as usize + 4 * items as usize + 4 * data as usize + 4 * index
}

#[test]
fn datafile_header_counts_near_i32_max() {
    let good = datafile(b"some data");
    DatafileView::parse(&good).unwrap();
    let mut checked = 0;
    // size, swaplen, item types, items, data items, item and data bytes.
    for field in (8..36).step_by(4) {
        for claim in [i32::MAX, i32::MAX - 3, 0x4000_0000, 1 << 24] {
            let mut bad = good.clone();
            set_i32(&mut bad, field, claim);
            let err = core("datafile header claim", || DatafileView::parse(&bad)).unwrap_err();
            assert!(err.offset <= bad.len(), "{err}");
            checked += 1;
        }
    }
    // An item type claiming i32::MAX items.
    let mut bad = good.clone();
    set_i32(&mut bad, 36 + 8, i32::MAX);
    core("item type count", || DatafileView::parse(&bad)).unwrap_err();
    assert_eq!(checked, 28);
}

#[test]
fn datafile_data_item_claiming_2_gib() {
    let mut bad = datafile(&[7u8; 4000]);
    let at = data_size_at(&bad, 0);
    assert_eq!(get_i32(&bad, at), 4000);
    set_i32(&mut bad, at, i32::MAX);
    let view = DatafileView::parse(&bad).unwrap();
    let mut buf = [0u8; 1 << 16];
    let err = core("decompress_into", || view.decompress_into(0, &mut buf)).unwrap_err();
    assert_eq!(
        err.kind,
        ErrorKind::BufferTooSmall {
            needed: i32::MAX as usize
        }
    );
    // The Vec path refuses before allocating: the stored bytes cannot
    // inflate to 2 GiB.
    let err = capped("decompress", 1 << 16, || view.decompress(0)).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Decompress);
}

#[test]
fn zlib_stream_inflating_past_its_declared_size() {
    // 1 MiB of zeros compresses to about a kilobyte; declare 1000 bytes.
    let mut bad = datafile(&vec![0u8; 1 << 20]);
    let at = data_size_at(&bad, 0);
    set_i32(&mut bad, at, 1000);
    assert!(bad.len() < 8 << 10, "{}", bad.len());
    let view = DatafileView::parse(&bad).unwrap();
    let mut buf = vec![0u8; 2 << 20];
    let err = core("inflate past the declared size", || {
        view.decompress_into(0, &mut buf)
    })
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Decompress);
    let err = capped("decompress past the declared size", 1000, || {
        view.decompress(0)
    })
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Decompress);
}

// ----------------------------------------------------------------------- map

#[test]
fn map_tile_layer_claiming_huge_dimensions() {
    // VERSION, one group, one tile layer 2×2 with real tile data.
    let mut w = DatafileWriter::new();
    w.add_item(0, 0, &[1]).unwrap();
    w.add_item(4, 0, &[3, 0, 0, 100, 100, 0, 1, 0, 0, 0, 0, 0])
        .unwrap();
    let data = w.add_data(&[1, 0, 0, 0].repeat(4));
    // Layer head, tilemap version 3, width, height, game flag, colour,
    // colour envelope, image, data index, then a 3-int name.
    let mut layer = vec![0, 2, 0, 3, 2, 2, 1, 255, 255, 255, 255, -1, 0, -1];
    layer.extend([data as i32, 0, 0, 0]);
    w.add_item(5, 0, &layer).unwrap();
    let good = w.finish(WriteVersion::V4).unwrap();
    let tiles = |bytes: &[u8]| {
        let map = MapView::parse(bytes).unwrap();
        let Some(Layer::Tiles(t)) = map.layer(0) else {
            panic!("no tile layer")
        };
        (t.data_to_vec(), t.tile_count())
    };
    assert!(tiles(&good).0.is_ok());
    // Width and height ints of the tile layer item (after the 8-byte item
    // header): 30000 × 30000 tiles = 3.6 GB of tiles claimed.
    let item = DatafileView::parse(&good)
        .unwrap()
        .items()
        .find(|i| i.type_id() == 5)
        .unwrap()
        .offset()
        + 8;
    for (w, h) in [(30_000, 30_000), (i32::MAX, 2), (65_536, 65_536)] {
        let mut bad = good.clone();
        set_i32(&mut bad, item + 4 * 4, w);
        set_i32(&mut bad, item + 5 * 4, h);
        let (out, _) = capped("tile layer data_to_vec", 1 << 16, || tiles(&bad));
        assert!(out.is_err(), "{w}×{h}");
    }
}

// ------------------------------------------------------------------ snapshot

#[test]
fn snapshot_and_delta_counts_near_i32_max() {
    let mut b = SnapshotBuilder::new();
    b.add(9, 0, &[1, 2, 3]).unwrap();
    b.add(10, 1, &[4, 5]).unwrap();
    let snap = b.finish();
    let ints = <[I32] as zerocopy::FromBytes>::ref_from_bytes(&snap).unwrap();
    SnapshotView::from_ints(ints).unwrap();
    for (field, claim) in [(0, i32::MAX - 3), (1, i32::MAX), (1, 5_000_000)] {
        let mut bad = ints.to_vec();
        bad[field] = I32::new(claim);
        core("snapshot claim", || SnapshotView::from_ints(&bad)).unwrap_err();
    }
    // A delta claiming millions of removed keys and updated items.
    let sizes = snapshot::ITEM_SIZES_06;
    for (removed, updates) in [(0, 5_000_000), (0, i32::MAX), (i32::MAX, 0), (1, i32::MAX)] {
        // One removed key (or the start of an item delta), then a
        // character item delta (22 ints) cut after three.
        let mut delta = vec![removed, updates, 0, 5];
        delta.extend([9, 0, 1, 2, 3]);
        let delta: Vec<I32> = delta.into_iter().map(I32::new).collect();
        core("delta claim", || DeltaView::from_ints(&delta, sizes)).unwrap_err();
    }
    // An item delta claiming i32::MAX ints (a type without static size).
    let delta: Vec<I32> = [0, 1, 0, 0x7000, 0, i32::MAX, 1, 2]
        .into_iter()
        .map(I32::new)
        .collect();
    core("item delta size", || DeltaView::from_ints(&delta, sizes)).unwrap_err();
}

#[test]
fn delta_apply_to_vec_allocates_what_the_input_holds() {
    let mut b = SnapshotBuilder::new();
    for id in 0..64 {
        b.add(0x7000, id, &[id.into(); 8]).unwrap();
    }
    let base_bytes = b.finish();
    let base = SnapshotView::parse(&base_bytes).unwrap();
    // A delta adding 1000 new items of 16 ints each: the result is bounded
    // by base plus delta.
    let mut d = vec![0, 1000, 0];
    for k in 0..1000 {
        d.extend([0x7001, k, 16]);
        d.extend([k; 16]);
    }
    let delta_bytes = d.as_bytes().to_vec();
    let delta = DeltaView::parse(&delta_bytes, snapshot::ITEM_SIZES_06).unwrap();
    let limit = base_bytes.len() + delta_bytes.len() + 4096;
    let out = capped("apply_to_vec", limit, || {
        snapshot::apply_to_vec(&base, &delta)
    });
    // 1064 items are beyond the snapshot item limit, or fit: either way
    // the allocation stayed within what the input holds.
    let _ = out;
}

// ---------------------------------------------------------------------- demo

/// A version 5 demo header (no map) followed by `chunks`.
fn demo_with(map_size: u32, chunks: &[u8]) -> Vec<u8> {
    let field = |s: &[u8], n: usize| {
        let mut f = s.to_vec();
        f.resize(n, 0);
        f
    };
    let mut d = b"TWDEMO\0\x05".to_vec();
    d.extend(field(b"0.6 626fce9a778df4d4", 64));
    d.extend(field(b"dm1", 64));
    d.extend(map_size.to_be_bytes());
    d.extend([0; 4]); // map CRC
    d.extend(field(b"client", 8));
    d.extend(1i32.to_be_bytes());
    d.extend(field(b"2026-01-01_00-00-00", 20));
    d.extend([0; 260]);
    d.extend_from_slice(chunks);
    d
}

#[test]
fn demo_map_larger_than_its_file() {
    for claim in [u32::MAX, i32::MAX as u32, 1 << 30, 100_000] {
        let bad = demo_with(claim, &[0u8; 1000]);
        core("demo map size claim", || demo::DemoView::parse(&bad)).unwrap_err();
        // The std reader delivers the map in pieces of what is there (the
        // 1000 bytes after the header), allocating nothing by the claim,
        // and ends cut inside the map, where the file ends.
        let (map, end) = capped("demo reader map claim", 1 << 18, || {
            let mut reader = demo::Reader::new(&bad[..]);
            let mut map = 0;
            while let Some(item) = reader.next() {
                if let demo::Item::MapPiece { bytes, .. } = item.unwrap() {
                    map += bytes.len();
                }
            }
            (map, reader.end())
        });
        let offset = bad.len();
        assert_eq!((map, end), (1000, End::Truncated { offset }), "{claim}");
    }
}

#[test]
fn demo_chunk_larger_than_its_file() {
    // A keyframe tick, then a snapshot chunk claiming 65535 bytes (size
    // code 31) of which 10 exist.
    let mut chunks = vec![0xC0, 0, 0, 0, 100];
    chunks.extend([0x20 | 31, 0xFF, 0xFF]);
    chunks.extend([0u8; 10]);
    let bad = demo_with(0, &chunks);
    let view = demo::DemoView::parse(&bad).unwrap();
    let mut it = view.chunks();
    let n = core("demo chunk claim", || {
        it.by_ref().map(Result::unwrap).count()
    });
    assert_eq!(n, 1);
    assert!(matches!(it.end(), End::Truncated { .. }), "{:?}", it.end());
    let mut reader = demo::Reader::new(&bad[..]);
    let n = capped("demo reader chunk claim", 1 << 18, || {
        let mut n = 0;
        while let Some(item) = reader.next() {
            if let demo::Item::Chunk(_) = item.unwrap() {
                n += 1;
            }
        }
        n
    });
    assert_eq!(n, 1);
    assert!(matches!(reader.end(), End::Truncated { .. }));
    // A Huffman payload claiming more output than the buffer holds.
    let payload = huffman::encode(&[0xAB; 4000]);
    let mut small = [0u8; 100];
    core("huffman past the buffer", || {
        huffman::decode(&payload, &mut small)
    })
    .unwrap_err();
}

// -------------------------------------------------------------- teehistorian

fn teehistorian_with(messages: &[u8]) -> Vec<u8> {
    let mut bytes = teehistorian::TeehistorianWriter::new(r#"{"version":"2"}"#)
        .unwrap()
        .into_bytes();
    bytes.extend_from_slice(messages);
    bytes
}

fn varint(v: i32) -> Vec<u8> {
    let mut out = [0u8; gamefmt::varint::MAX_LEN];
    let n = gamefmt::varint::encode(v, &mut out);
    out[..n].to_vec()
}

#[test]
fn teehistorian_message_claiming_2_gib() {
    // MESSAGE (cid 0) with a size of i32::MAX and 100 bytes of data.
    let mut m = varint(teehistorian::ID_MESSAGE);
    m.extend(varint(0));
    m.extend(varint(i32::MAX));
    m.extend([0x11; 100]);
    let bad = teehistorian_with(&m);
    // The truncation rule: a quiet end, and the ending says where.
    let mut it = teehistorian::TeehistorianIter::new(&bad).unwrap();
    assert!(core("teehistorian iterator", || it.next()).is_none());
    assert!(matches!(it.end(), End::Truncated { .. }));
    let mut d = teehistorian::Decoder::new();
    core("teehistorian push decoder", || {
        let Decoded::Record { consumed, .. } = d.decode(&bad).unwrap() else {
            panic!()
        };
        assert_eq!(
            d.decode(&bad[consumed..]),
            Ok(Decoded::NeedMore { needed: None })
        );
    });
    // The reader: a clean end (or, at most, a clean error), within its
    // buffer.
    let mut reader = teehistorian::Reader::with_capacity(&bad[..], 4096);
    capped("teehistorian reader", 8192, || {
        assert!(matches!(
            reader.next(),
            Some(Ok(teehistorian::Item::Header(_)))
        ));
        match reader.next() {
            None => assert!(matches!(reader.end(), End::Truncated { .. })),
            other => panic!("{other:?}"),
        }
    });
    // Console command claiming i32::MAX arguments, then EX claiming
    // i32::MAX bytes.
    let mut m = varint(teehistorian::ID_CONSOLE_COMMAND);
    m.extend(varint(0));
    m.extend(varint(0));
    m.extend(b"say\0");
    m.extend(varint(i32::MAX));
    m.extend(b"a\0b\0");
    let bad = teehistorian_with(&m);
    let mut it = teehistorian::TeehistorianIter::new(&bad).unwrap();
    assert!(core("console command argument count", || it.next()).is_none());
    assert!(matches!(it.end(), End::Truncated { .. }));
    let mut m = varint(teehistorian::ID_EX);
    m.extend([0x42; 16]);
    m.extend(varint(i32::MAX));
    m.extend([0; 64]);
    let bad = teehistorian_with(&m);
    let mut it = teehistorian::TeehistorianIter::new(&bad).unwrap();
    assert!(core("EX size", || it.next()).is_none());
    assert!(matches!(it.end(), End::Truncated { .. }));
}

#[test]
fn teehistorian_header_without_end() {
    // A 4 MiB "header" that never ends: the reader delivers it in pieces
    // within its buffer (which grows to at most twice MAX_RECORD), then
    // reports the cut.
    let mut bad = teehistorian_with(&[]);
    bad.truncate(16);
    bad.push(b'{');
    bad.resize(4 << 20, b' ');
    let mut reader = teehistorian::Reader::new(&bad[..]);
    let pieces = capped(
        "teehistorian reader header",
        4 * teehistorian::MAX_RECORD,
        || {
            let mut pieces = 0;
            while let Some(item) = reader.next() {
                assert!(matches!(
                    item.unwrap(),
                    teehistorian::Item::HeaderPiece { last: false, .. }
                ));
                pieces += 1;
            }
            pieces
        },
    );
    assert!(pieces >= 8, "{pieces}");
    assert_eq!(reader.end(), End::Truncated { offset: 4 << 20 });
    let err = core("teehistorian iterator header", || {
        teehistorian::TeehistorianIter::new(&bad)
    })
    .err()
    .unwrap();
    assert_eq!(err.kind, ErrorKind::Truncated);
}

// -------------------------------------------------------------------- slippi

/// An `.slp` file: header with `raw_len`, then `raw`.
fn slp(raw_len: u32, raw: &[u8]) -> Vec<u8> {
    let mut f = b"{U\x03raw[$U#l".to_vec();
    f.extend(raw_len.to_be_bytes());
    f.extend_from_slice(raw);
    f
}

#[test]
fn slippi_payload_table_with_absurd_sizes() {
    // Every command 0x36..=0x60 declared 65535 bytes long; then one Game
    // Start whose payload is 100 bytes, and the file ends.
    let mut raw = vec![0x35, 3 * 43 + 1];
    for code in 0x36..=0x60u8 {
        raw.push(code);
        raw.extend(0xFFFFu16.to_be_bytes());
    }
    raw.push(0x36);
    raw.extend([0u8; 100]);
    for raw_len in [0, u32::MAX, raw.len() as u32 + 10] {
        let bad = slp(raw_len, &raw);
        let mut it = slippi::SlippiEventIter::new(&bad);
        let n = core("slippi absurd payload sizes", || {
            let mut n = 0;
            while let Some(Ok(_)) = it.next() {
                n += 1;
            }
            n
        });
        assert_eq!(n, 1, "only the payload table is whole");
        let _ = core("slippi view", || {
            slippi::SlippiView::parse(&bad).map(|v| (v.game_end(), v.end()))
        });
        // The reader keeps its fixed buffer.
        let mut reader = slippi::Reader::with_capacity(&bad[..], 1 << 12);
        capped("slippi reader", 1 << 17, || {
            while let Some(r) = reader.next() {
                if r.is_err() {
                    break;
                }
            }
        });
    }
}

#[test]
fn ubjson_string_of_4_gib_and_huge_containers() {
    use slippi::ubjson;
    let claims: [&[u8]; 6] = [
        // A string of 4 GiB, and of i64::MAX bytes.
        b"SL\x00\x00\x00\x01\x00\x00\x00\x00abc",
        b"SL\x7f\xff\xff\xff\xff\xff\xff\xffabc",
        // A counted array of 2^62 ints with three present.
        b"[#L\x40\x00\x00\x00\x00\x00\x00\x00i\x01i\x02i\x03",
        // A typed array of 2^62 four-byte ints.
        b"[$l#L\x40\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01",
        // A counted object of 2^31 entries with one present.
        b"{#l\x7f\xff\xff\xffU\x01ai\x01",
        // A typed array of 2^62 strings.
        b"[$S#L\x40\x00\x00\x00\x00\x00\x00\x00U\x01a",
    ];
    for bytes in claims {
        core("ubjson claim", || ubjson::value_len(bytes)).unwrap_err();
        core("ubjson claim", || ubjson::parse_value(bytes)).unwrap_err();
    }
    // In a file's metadata, after an empty payload table.
    let mut bad = slp(2, &[0x35, 1]);
    bad.extend(b"U\x08metadata{U\x01aSL\x00\x00\x00\x01\x00\x00\x00\x00xyz}}");
    match slippi::SlippiView::parse(&bad) {
        Ok(view) => {
            core("metadata 4 GiB string", || view.metadata()).unwrap_err();
        }
        Err(e) => assert!(
            matches!(e.kind, ErrorKind::Truncated | ErrorKind::Corrupt(_)),
            "{e}"
        ),
    }
}
