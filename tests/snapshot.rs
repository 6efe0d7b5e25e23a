//! Snapshots and deltas: the quartet (parse a fixed array, emit it with the
//! builder, round trip, reject impossible input), extended UUID types, and
//! the property create_delta → apply == new over random snapshot pairs.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use std::collections::BTreeMap;

use gamefmt::ErrorKind;
use gamefmt::snapshot::{
    DeltaView, ITEM_SIZES_06, ITEM_SIZES_07, SnapshotBuilder, SnapshotView, UUID_DDNET_CHARACTER,
    apply, apply_to_vec, create_delta,
};
use zerocopy::little_endian::I32;

fn bytes(ints: &[i32]) -> Vec<u8> {
    ints.iter().flat_map(|v| v.to_le_bytes()).collect()
}

const FLAG: i32 = 5; // 0.6: 3 ints
const PICKUP: i32 = 4; // 0.6: 4 ints
const EXT: i32 = 0x7FFF; // extended type, size sent

/// A snapshot written out by hand: a flag (id 0), a pickup (id 3) and an
/// extended item (type 0x7FFF, id 1, 2 ints).
fn fixed_snapshot() -> Vec<u8> {
    bytes(&[
        // data_size (3 keys + 9 data ints), num_items, offsets
        48,
        3,
        0,
        16,
        36,
        FLAG << 16,
        100,
        -200,
        3,
        PICKUP << 16 | 3,
        1,
        2,
        3,
        4,
        EXT << 16 | 1,
        -1,
        i32::MIN,
    ])
}

#[test]
fn snapshot_parses_fixed_bytes() {
    let bytes = fixed_snapshot();
    let snap = SnapshotView::parse(&bytes).unwrap();
    assert_eq!(snap.item_count(), 3);
    assert_eq!(snap.data_size(), 48);
    let items: Vec<_> = snap
        .items()
        .map(|i| {
            (
                i.type_id(),
                i.id(),
                i.data().iter().map(|v| v.get()).collect::<Vec<_>>(),
            )
        })
        .collect();
    assert_eq!(
        items,
        [
            (5, 0, vec![100, -200, 3]),
            (4, 3, vec![1, 2, 3, 4]),
            (0x7FFF, 1, vec![-1, i32::MIN]),
        ]
    );
    // 100 - 200 + 3 + 10 - 1 + i32::MIN, wrapping.
    assert_eq!(snap.checksum(), (-88i32).wrapping_add(i32::MIN));
    assert_eq!(snap.find(4, 3).unwrap().int(3), Some(4));
    assert_eq!(snap.find(4, 4), None);
    assert_eq!(snap.index_of(0x7FFF_0001), Some(2));
    assert_eq!(snap.type_uuid(0x7FFF), None, "no EX declaration");
}

#[test]
fn builder_emits_the_fixed_bytes() {
    let mut b = SnapshotBuilder::new();
    b.add(5, 0, &[100, -200, 3]).unwrap();
    b.add(4, 3, &[1, 2, 3, 4]).unwrap();
    b.add(0x7FFF, 1, &[-1, i32::MIN]).unwrap();
    assert_eq!(b.finish(), fixed_snapshot());
    assert_eq!(
        b.add(4, 3, &[0]).unwrap_err().kind,
        ErrorKind::Corrupt("duplicate item key")
    );
    assert!(b.add(0x8000, 0, &[]).is_err());
    let empty = SnapshotBuilder::new().finish();
    assert_eq!(empty, bytes(&[0, 0]));
    assert_eq!(SnapshotView::parse(&empty).unwrap().item_count(), 0);
}

#[test]
fn snapshot_rejects_impossible_layouts() {
    let good = fixed_snapshot();
    // Every strict prefix fails (the sizes no longer add up).
    for n in 0..good.len() {
        assert!(SnapshotView::parse(&good[..n]).is_err(), "prefix {n}");
    }
    let cases: &[(&[i32], &str)] = &[
        (&[-4, 0], "negative data size"),
        (&[0, -1], "negative item count"),
        (&[4, 1, 0, 7, 0], "trailing int"),
        (&[6, 1, 0, 7, 0], "data size not a multiple of 4"),
        (&[8, 2, 4, 0, 7, 8], "offsets decreasing"),
        (&[8, 2, 0, 2, 7, 8], "offset not aligned"),
        (&[8, 2, 0, 8, 7, 8], "item without room for a key"),
        (&[4, 1, -4, 7], "negative offset"),
        (&[4, 1, 8, 7], "offset past the data"),
    ];
    for (ints, what) in cases {
        assert!(SnapshotView::parse(&bytes(ints)).is_err(), "{what}");
    }
    // An item of just a key is valid (0 data ints).
    let key_only = bytes(&[4, 1, 0, 7]);
    let snap = SnapshotView::parse(&key_only).unwrap();
    assert_eq!(snap.item(0).unwrap().data().len(), 0);
    assert!(
        SnapshotView::parse(&[0, 0, 0, 0, 0, 0, 0, 0, 0]).is_err(),
        "not a multiple of 4"
    );
}

/// The delta from `fixed_snapshot` to: flag changed (+1, 0, -3), pickup
/// removed, extended item unchanged, new extended item id 2, new flag id 1.
fn fixed_delta() -> Vec<u8> {
    bytes(&[
        1,
        3,
        0,
        PICKUP << 16 | 3,
        FLAG,
        0,
        1,
        0,
        -3,
        EXT,
        2,
        1,
        42,
        FLAG,
        1,
        7,
        8,
        9,
    ])
}

fn next_snapshot() -> Vec<u8> {
    let mut b = SnapshotBuilder::new();
    b.add(5, 0, &[101, -200, 0]).unwrap();
    b.add(0x7FFF, 1, &[-1, i32::MIN]).unwrap();
    b.add(0x7FFF, 2, &[42]).unwrap();
    b.add(5, 1, &[7, 8, 9]).unwrap();
    b.finish()
}

#[test]
fn delta_parses_fixed_bytes() {
    let bytes = fixed_delta();
    let delta = DeltaView::parse(&bytes, ITEM_SIZES_06).unwrap();
    assert_eq!(delta.removed_keys().collect::<Vec<_>>(), [0x0004_0003]);
    assert_eq!(delta.update_count(), 3);
    let items: Vec<_> = delta
        .items()
        .map(|d| {
            (
                d.type_id(),
                d.id(),
                d.data().iter().map(|v| v.get()).collect::<Vec<_>>(),
            )
        })
        .collect();
    assert_eq!(
        items,
        [
            (5, 0, vec![1, 0, -3]),
            (0x7FFF, 2, vec![42]),
            (5, 1, vec![7, 8, 9])
        ]
    );
    // Under the 0.7 table type 5 is also 3 ints: same reading.
    assert_eq!(
        DeltaView::parse(&bytes, ITEM_SIZES_07)
            .unwrap()
            .items()
            .count(),
        3
    );
}

#[test]
fn create_delta_emits_the_fixed_bytes() {
    let base = fixed_snapshot();
    let next = next_snapshot();
    let base = SnapshotView::parse(&base).unwrap();
    let next = SnapshotView::parse(&next).unwrap();
    assert_eq!(
        create_delta(&base, &next, ITEM_SIZES_06).unwrap(),
        fixed_delta()
    );
}

#[test]
fn apply_round_trips_and_reports_buffer_size() {
    let base = fixed_snapshot();
    let base = SnapshotView::parse(&base).unwrap();
    let delta = fixed_delta();
    let delta = DeltaView::parse(&delta, ITEM_SIZES_06).unwrap();
    // Kept items keep their order, new ones follow: here the same order as
    // the builder's, so the bytes are equal.
    let expected = next_snapshot();
    assert_eq!(apply_to_vec(&base, &delta).unwrap(), expected);
    let needed = expected.len() / 4;
    let mut small = vec![I32::ZERO; needed - 1];
    assert_eq!(
        apply(&base, &delta, &mut small).unwrap_err().kind,
        ErrorKind::BufferTooSmall { needed }
    );
    let mut exact = vec![I32::ZERO; needed];
    let next = apply(&base, &delta, &mut exact).unwrap();
    assert_eq!(next.find(5, 0).unwrap().int(0), Some(101));
    assert_eq!(
        next.checksum(),
        SnapshotView::parse(&expected).unwrap().checksum()
    );
}

#[test]
fn delta_rejects_impossible_input() {
    let good = fixed_delta();
    for n in 0..good.len() / 4 {
        assert!(
            DeltaView::parse(&good[..n * 4], ITEM_SIZES_06).is_err(),
            "prefix {n} ints"
        );
    }
    let cases: &[(&[i32], &str)] = &[
        (&[-1, 0, 0], "negative removed count"),
        (&[0, -1, 0], "negative update count"),
        (&[2, 0, 0, 1], "removed keys past the end"),
        (&[0, 1, 0, 0x8000, 0, 0], "type too large"),
        (&[0, 1, 0, -1, 0, 0], "negative type"),
        (&[0, 1, 0, 30, 0x10000, 0], "id too large"),
        (&[0, 1, 0, 30, 0, -1], "negative size"),
        (&[0, 1, 0, 30, 0, 3, 1, 2], "data past the end"),
        (&[0, 0x7FFF_FFFF, 0, 30, 0, 0], "hostile count"),
    ];
    for (ints, what) in cases {
        assert!(
            DeltaView::parse(&bytes(ints), ITEM_SIZES_06).is_err(),
            "{what}"
        );
    }
    // Trailing ints after the last item delta are ignored, as in DDNet.
    assert!(DeltaView::parse(&bytes(&[0, 0, 0, 99]), ITEM_SIZES_06).is_ok());

    let base = fixed_snapshot();
    let base = SnapshotView::parse(&base).unwrap();
    let mut out = vec![I32::ZERO; 256];
    // Size differs from the base item (DDNet -207).
    let d = bytes(&[0, 1, 0, EXT, 1, 3, 0, 0, 0]);
    let d = DeltaView::parse(&d, ITEM_SIZES_06).unwrap();
    assert_eq!(
        apply(&base, &d, &mut out).unwrap_err().kind,
        ErrorKind::Corrupt("item delta size differs from the base item")
    );
    // The same new key twice with different sizes (DDNet -206).
    let d = bytes(&[0, 2, 0, EXT, 9, 1, 5, EXT, 9, 2, 5, 6]);
    let d = DeltaView::parse(&d, ITEM_SIZES_06).unwrap();
    assert!(apply(&base, &d, &mut out).is_err());
    // ... and with the same size, the second one wins.
    let d = bytes(&[0, 2, 0, EXT, 9, 1, 5, EXT, 9, 1, 6]);
    let d = DeltaView::parse(&d, ITEM_SIZES_06).unwrap();
    let next = apply(&base, &d, &mut out).unwrap();
    assert_eq!(next.item_count(), 4);
    assert_eq!(next.find(0x7FFF, 9).unwrap().int(0), Some(6));
}

#[test]
fn extended_types_resolve_to_uuids() {
    // The declaration: type 0, id 0x7FFF, the UUID as four big-endian ints.
    let uuid = UUID_DDNET_CHARACTER.as_bytes();
    let decl: Vec<i32> = uuid
        .chunks(4)
        .map(|c| i32::from_be_bytes(c.try_into().unwrap()))
        .collect();
    let mut b = SnapshotBuilder::new();
    b.add(0, 0x7FFF, &decl).unwrap();
    b.add(0x7FFF, 3, &[0; 11]).unwrap();
    b.add(0x4000, 0, &[1]).unwrap();
    let bytes = b.finish();
    let snap = SnapshotView::parse(&bytes).unwrap();
    assert_eq!(snap.type_uuid(0x7FFF), Some(UUID_DDNET_CHARACTER));
    assert_eq!(snap.type_for_uuid(&UUID_DDNET_CHARACTER), Some(0x7FFF));
    assert_eq!(snap.type_uuid(0x4000), None, "undeclared");
    assert_eq!(snap.type_uuid(9), None, "not an extended type");
}

/// xorshift32
struct Rng(u32);
impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0
    }
    fn below(&mut self, n: u32) -> u32 {
        self.next() % n
    }
    fn value(&mut self) -> i32 {
        match self.below(4) {
            0 => 0,
            1 => self.below(100) as i32 - 50,
            _ => self.next() as i32,
        }
    }
}

/// A random item key and size valid under `sizes`: a static type with its
/// size, or an extended type whose size is a function of the type (so a
/// key never changes size).
fn random_key(rng: &mut Rng, sizes: &[u16]) -> (u16, u16, usize) {
    let id = rng.below(8) as u16;
    if rng.below(3) == 0 {
        let t = 0x7FFF - rng.below(4) as u16;
        (t, id, usize::from(0x7FFF - t) * 3)
    } else {
        let t = 1 + rng.below(sizes.len() as u32 - 1) as u16;
        (t, id, usize::from(sizes[usize::from(t)]))
    }
}

fn random_snapshot(rng: &mut Rng, sizes: &[u16], base: Option<&SnapshotView<'_>>) -> Vec<u8> {
    let mut b = SnapshotBuilder::new();
    let mut keys = BTreeMap::new();
    if let Some(base) = base {
        for item in base.items() {
            match rng.below(4) {
                0 => {} // removed
                1 => {
                    let data: Vec<i32> = item.data().iter().map(|v| v.get()).collect();
                    keys.insert(item.key(), (item.type_id(), item.id(), data));
                }
                _ => {
                    let data: Vec<i32> = item
                        .data()
                        .iter()
                        .map(|v| {
                            if rng.below(3) == 0 {
                                rng.value()
                            } else {
                                v.get()
                            }
                        })
                        .collect();
                    keys.insert(item.key(), (item.type_id(), item.id(), data));
                }
            }
        }
    }
    for _ in 0..rng.below(40) {
        let (t, id, len) = random_key(rng, sizes);
        let key = u32::from(t) << 16 | u32::from(id);
        if base.is_some_and(|b| b.index_of(key).is_some()) {
            continue; // a removed base key must not come back with another size
        }
        let data = (0..len).map(|_| rng.value()).collect();
        keys.entry(key).or_insert((t, id, data));
    }
    // Random order.
    let mut items: Vec<_> = keys.into_values().collect();
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i as u32 + 1) as usize);
    }
    for (t, id, data) in items {
        b.add(t, id, &data).unwrap();
    }
    b.finish()
}

fn as_map(snap: &SnapshotView<'_>) -> BTreeMap<u32, Vec<i32>> {
    snap.items()
        .map(|i| (i.key(), i.data().iter().map(|v| v.get()).collect()))
        .collect()
}

#[test]
fn create_then_apply_gives_the_new_snapshot() {
    let mut rng = Rng(0x1234_5678);
    let mut out = vec![I32::ZERO; gamefmt::snapshot::MAX_SNAPSHOT_INTS];
    for round in 0..2000u32 {
        let sizes = if round % 2 == 0 {
            ITEM_SIZES_06
        } else {
            ITEM_SIZES_07
        };
        let old = random_snapshot(&mut rng, sizes, None);
        let old = SnapshotView::parse(&old).unwrap();
        let new = random_snapshot(&mut rng, sizes, Some(&old));
        let new = SnapshotView::parse(&new).unwrap();
        let delta = create_delta(&old, &new, sizes).unwrap();
        let delta = DeltaView::parse(&delta, sizes).unwrap();
        let got = apply(&old, &delta, &mut out).unwrap();
        assert_eq!(as_map(&got), as_map(&new), "round {round}");
        assert_eq!(got.item_count(), new.item_count());
        assert_eq!(got.checksum(), new.checksum());
        // Applying the same delta twice is not the identity unless nothing
        // changed; but a delta from a snapshot to itself is empty.
        let same = create_delta(&new, &new, sizes).unwrap();
        assert_eq!(same, bytes(&[0, 0, 0]));
    }
}

#[test]
fn create_delta_refuses_what_a_delta_cannot_express() {
    let mut a = SnapshotBuilder::new();
    a.add(0x7FFF, 0, &[1, 2]).unwrap();
    let a = a.finish();
    let mut b = SnapshotBuilder::new();
    b.add(0x7FFF, 0, &[1, 2, 3]).unwrap();
    let b = b.finish();
    let (a, b) = (
        SnapshotView::parse(&a).unwrap(),
        SnapshotView::parse(&b).unwrap(),
    );
    assert!(create_delta(&a, &b, ITEM_SIZES_06).is_err(), "size change");
    let mut c = SnapshotBuilder::new();
    c.add(5, 0, &[1, 2]).unwrap(); // flag is 3 ints
    let c = c.finish();
    let c = SnapshotView::parse(&c).unwrap();
    assert!(create_delta(&a, &c, ITEM_SIZES_06).is_err(), "static size");
}

#[test]
fn random_ints_never_panic() {
    let mut rng = Rng(0xC0FF_EE11);
    let mut out = vec![I32::ZERO; 512];
    let base = fixed_snapshot();
    let base = SnapshotView::parse(&base).unwrap();
    for _ in 0..20_000 {
        let len = rng.below(24) as usize;
        let ints: Vec<i32> = (0..len)
            .map(|_| match rng.below(3) {
                0 => rng.below(8) as i32,
                1 => rng.below(64) as i32 * 4,
                _ => rng.value(),
            })
            .collect();
        let bytes = bytes(&ints);
        if let Ok(snap) = SnapshotView::parse(&bytes) {
            let _ = (
                snap.checksum(),
                snap.items().count(),
                snap.type_uuid(0x7FFF),
            );
        }
        for sizes in [ITEM_SIZES_06, ITEM_SIZES_07] {
            if let Ok(delta) = DeltaView::parse(&bytes, sizes) {
                assert_eq!(delta.items().count(), delta.update_count());
                if let Ok(next) = apply(&base, &delta, &mut out) {
                    let _ = next.checksum();
                }
            }
        }
    }
}

#[test]
fn builder_refuses_what_ddnet_refuses_without_panicking() {
    // DDNet's CSnapshotBuilder: at most 1024 items, and header (8 bytes),
    // offsets (4 per item) and items (4 per key and int) within 64 KiB.
    let mut b = SnapshotBuilder::new();
    // One item of 16380 ints: 8 + 4 + 4 + 65520 = 65536 bytes exactly.
    b.add(0x7000, 0, &vec![7; 16_380]).unwrap();
    b.clear();
    assert!(
        b.add(0x7000, 0, &vec![7; 16_381]).is_err(),
        "oversized item"
    );
    assert!(b.is_empty());
    for id in 0..1024 {
        b.add(0x7000, id, &[]).unwrap();
    }
    let full = b.add(0x7000, 1024, &[]).unwrap_err();
    assert_eq!(full.kind, ErrorKind::Corrupt("snapshot limits exceeded"));
    assert_eq!(b.len(), 1024);
    assert_eq!(
        b.add(0x7000, 5, &[]).unwrap_err().kind,
        ErrorKind::Corrupt("snapshot limits exceeded")
    );
    let snap = b.snapshot();
    assert_eq!((snap.item_count(), snap.data_size()), (1024, 4096));
    // After `clear` the same keys are new again.
    b.clear();
    b.add(0x7000, 5, &[1]).unwrap();
    assert_eq!(
        b.add(0x7000, 5, &[1]).unwrap_err().kind,
        ErrorKind::Corrupt("duplicate item key")
    );
}
