//! The snapshot, Huffman and demo core paths (views, lookups, checksums,
//! delta application, payload decoding, chunk iteration, reconstruction)
//! allocate nothing: proven with a counting global allocator over every
//! corpus demo.
#![allow(
    unsafe_code,
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use crate::common;

use crate::counting_alloc::allocations_during;
use gamefmt::demo::{Buffers, Chunk, ChunkKind, DemoView, Frames, decode_payload};
use gamefmt::snapshot::{DeltaView, SnapshotView, apply};
use zerocopy::IntoBytes;
use zerocopy::little_endian::I32;

struct Bufs {
    scratch: Vec<u8>,
    payload: Vec<I32>,
    a: Vec<I32>,
    b: Vec<I32>,
    ints: Vec<I32>,
    out: Vec<I32>,
}

impl Bufs {
    fn new() -> Self {
        let n = gamefmt::snapshot::MAX_SNAPSHOT_INTS;
        Self {
            scratch: vec![0; gamefmt::demo::MAX_PAYLOAD],
            payload: vec![I32::ZERO; gamefmt::demo::MAX_PAYLOAD_INTS],
            a: vec![I32::ZERO; n],
            b: vec![I32::ZERO; n],
            ints: vec![I32::ZERO; n],
            out: vec![I32::ZERO; n],
        }
    }
}

/// Walks one demo through every core entry point; returns a checksum of
/// everything seen so the work cannot be optimised away.
fn walk(bytes: &[u8], bufs: &mut Bufs) -> i64 {
    let view = DemoView::parse(bytes).unwrap();
    let sizes = view.header().item_sizes();
    let _ = view.map().unwrap().item_count();
    let mut sum = 0i64;

    // The snapshot API by hand: decode payloads, apply deltas, swap.
    let mut len = None;
    for chunk in view.chunks() {
        let Chunk::Data { kind, payload } = chunk.unwrap() else {
            continue;
        };
        match kind {
            ChunkKind::Snapshot => {
                let n = decode_payload(payload, &mut bufs.scratch, &mut bufs.a)
                    .unwrap()
                    .len();
                SnapshotView::from_ints(&bufs.a[..n]).unwrap();
                len = Some(n);
            }
            ChunkKind::Delta => {
                let d = decode_payload(payload, &mut bufs.scratch, &mut bufs.ints).unwrap();
                let delta = DeltaView::from_ints(d, sizes).unwrap();
                let base = SnapshotView::from_ints(&bufs.a[..len.unwrap()]).unwrap();
                let next = apply(&base, &delta, &mut bufs.b).unwrap();
                len = Some(next.as_ints().len());
                std::mem::swap(&mut bufs.a, &mut bufs.b);
            }
            _ => {
                let msg = decode_payload(payload, &mut bufs.scratch, &mut bufs.ints).unwrap();
                if let Some((id, _)) = gamefmt::demo::message_id(msg.as_bytes()) {
                    sum += i64::from(id);
                }
            }
        }
    }
    let last = SnapshotView::from_ints(&bufs.a[..len.unwrap()])
        .unwrap()
        .checksum();

    // The same through Frames, with lookups on every frame.
    let buffers = Buffers {
        scratch: &mut bufs.scratch,
        payload: &mut bufs.payload,
        current: &mut bufs.out,
        next: &mut bufs.b,
    };
    let mut frames = Frames::new(&view, buffers);
    let mut final_crc = None;
    while let Some(frame) = frames.next() {
        let snap = frame.unwrap().snapshot;
        for item in snap.items() {
            assert!(snap.find_key(item.key()).is_some());
            if let Some(uuid) = snap.type_uuid(item.type_id()) {
                sum += i64::from(snap.type_for_uuid(&uuid).unwrap());
            }
        }
        final_crc = Some(snap.checksum());
    }
    assert_eq!(final_crc, Some(last));
    sum + i64::from(last)
}

#[test]
fn corpus_demos_allocate_nothing() {
    let Some(demos) =
        common::corpus_files("corpus_demos_allocate_nothing", "teeworlds/demos", ".demo")
    else {
        return;
    };
    let mut bufs = Bufs::new();
    for (name, bytes) in &demos {
        let (_, allocs) = allocations_during(|| walk(bytes, &mut bufs));
        assert_eq!(allocs, 0, "{name}");
    }
}

#[test]
fn huffman_decode_allocates_nothing() {
    // 8 zero bytes, then the end symbol.
    let mut out = [0u8; 16];
    let (n, allocs) =
        allocations_during(|| gamefmt::huffman::decode(&[0xFF, 0x8A, 0x1B], &mut out));
    assert_eq!((n, allocs), (Ok(8), 0));
}

/// A server's tick, 300 items: build the snapshot, diff it against the
/// previous one, keep it. Ticks move, add and remove items.
#[cfg(feature = "alloc")]
fn server_ticks(
    builder: &mut gamefmt::snapshot::SnapshotBuilder,
    creator: &mut gamefmt::snapshot::DeltaCreator,
    prev: &mut Vec<I32>,
    ticks: std::ops::Range<i32>,
) -> usize {
    use gamefmt::snapshot::{ITEM_SIZES_06, static_size};
    let mut bytes = 0;
    for tick in ticks {
        builder.clear();
        for i in 0..300u16 {
            let t = i / 16 + 1;
            // Every 7th tick, items 100..110 are gone; ids shift by tick.
            if tick % 7 == 0 && (100..110).contains(&i) {
                continue;
            }
            let id = i.wrapping_mul(97).wrapping_add((tick / 50) as u16);
            let len = static_size(ITEM_SIZES_06, t).unwrap();
            let v = if i % 10 == 0 { tick } else { i32::from(i) };
            builder.add(t, id, &[v; 22][..len]).unwrap();
        }
        let snap = builder.snapshot();
        let base = SnapshotView::from_ints(prev).unwrap();
        bytes += creator.create(&base, &snap, ITEM_SIZES_06).unwrap().len();
        prev.clear();
        prev.extend_from_slice(snap.as_ints());
    }
    bytes
}

#[cfg(feature = "alloc")]
#[test]
fn building_and_creating_deltas_allocate_nothing_after_warm_up() {
    use gamefmt::snapshot::{DeltaCreator, SnapshotBuilder};
    let mut builder = SnapshotBuilder::new();
    let mut creator = DeltaCreator::new();
    let mut prev = Vec::with_capacity(gamefmt::snapshot::MAX_SNAPSHOT_INTS);
    prev.extend([I32::ZERO; 2]);
    // Warm-up: the first ticks size the creator's output buffer.
    let warm = server_ticks(&mut builder, &mut creator, &mut prev, 0..10);
    let (bytes, allocs) =
        allocations_during(|| server_ticks(&mut builder, &mut creator, &mut prev, 10..500));
    assert!(warm > 0 && bytes > 0);
    assert_eq!(allocs, 0);
}

#[cfg(feature = "alloc")]
#[test]
fn corpus_pairs_build_and_diff_without_allocating() {
    use gamefmt::snapshot::{DeltaCreator, SnapshotBuilder};
    let Some(demos) = common::corpus_files(
        "corpus_pairs_build_and_diff_without_allocating",
        "teeworlds/demos",
        ".demo",
    ) else {
        return;
    };
    let mut builder = SnapshotBuilder::new();
    let mut creator = DeltaCreator::new();
    let mut owned = gamefmt::demo::OwnedBuffers::new();
    let mut prev = vec![I32::ZERO; 2];
    let mut data = Vec::with_capacity(gamefmt::snapshot::MAX_SIZE / 4);
    for round in 0..2 {
        let mut allocs = 0;
        let mut pairs = 0;
        for (_, bytes) in &demos {
            let view = DemoView::parse(bytes).unwrap();
            let sizes = view.header().item_sizes();
            let mut frames = Frames::new(&view, owned.buffers());
            prev.clear();
            prev.extend([I32::ZERO; 2]);
            while let Some(frame) = frames.next() {
                let next = frame.unwrap().snapshot;
                let (_, n) = allocations_during(|| {
                    builder.clear();
                    for item in next.items() {
                        data.clear();
                        data.extend(item.data().iter().map(|v| v.get()));
                        builder.add(item.type_id(), item.id(), &data).unwrap();
                    }
                    let snap = builder.snapshot();
                    assert_eq!(snap.as_ints(), next.as_ints());
                    let base = SnapshotView::from_ints(&prev).unwrap();
                    creator.create(&base, &snap, sizes).unwrap();
                });
                allocs += n;
                pairs += 1;
                prev.clear();
                prev.extend_from_slice(next.as_ints());
            }
        }
        // The first round is the warm-up.
        if round == 1 {
            assert!(pairs > 0);
            assert_eq!(allocs, 0, "{pairs} pairs");
        }
    }
}
