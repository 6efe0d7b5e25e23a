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

mod common;
#[path = "common/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::{CountingAlloc, allocations_during};
use gamefmt::demo::{Buffers, Chunk, ChunkKind, DemoView, Frames, decode_payload};
use gamefmt::snapshot::{DeltaView, SnapshotView, apply};
use zerocopy::IntoBytes;
use zerocopy::little_endian::I32;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

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
