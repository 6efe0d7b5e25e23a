//! Snapshot delta application (deltas/s) and whole-demo decoding to a full
//! snapshot at every tick (bytes of chunk stream per second) over the
//! corpus demos.
//!
//! `cargo bench --bench snapshot --features alloc`. Skips (prints why) when
//! the corpus folder is absent.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

#[path = "../tests/common/mod.rs"]
mod common;

use divan::counter::{BytesCount, ItemsCount};
use gamefmt::demo::{Chunk, ChunkKind, DemoView, Frames, OwnedBuffers, Reconstructor};
use gamefmt::snapshot::{DeltaView, MAX_SNAPSHOT_INTS, SnapshotView, apply};
use zerocopy::little_endian::I32;

fn main() {
    divan::main();
}

fn demos() -> &'static [(String, Vec<u8>)] {
    static DEMOS: std::sync::OnceLock<Vec<(String, Vec<u8>)>> = std::sync::OnceLock::new();
    DEMOS.get_or_init(|| {
        common::corpus_files("bench snapshot", "teeworlds/demos", ".demo").unwrap_or_default()
    })
}

/// Every delta of every corpus demo with the snapshot it applies to, in
/// int form, and the item size table.
struct Pair {
    base: Vec<I32>,
    delta: Vec<I32>,
    sizes: &'static [u16],
}

fn pairs() -> &'static [Pair] {
    static PAIRS: std::sync::OnceLock<Vec<Pair>> = std::sync::OnceLock::new();
    PAIRS.get_or_init(|| {
        let mut out = Vec::new();
        let mut owned = OwnedBuffers::new();
        for (_, bytes) in demos() {
            let view = DemoView::parse(bytes).unwrap();
            let sizes = view.header().item_sizes();
            let mut rec = Reconstructor::new(owned.buffers(), sizes);
            for chunk in view.chunks() {
                let chunk = chunk.unwrap();
                if let Chunk::Data {
                    kind: ChunkKind::Delta,
                    payload,
                } = chunk
                {
                    let base = rec.snapshot().unwrap().as_ints().to_vec();
                    let delta = rec.decode(payload).unwrap().to_vec();
                    out.push(Pair { base, delta, sizes });
                }
                rec.feed(&chunk).unwrap();
            }
        }
        out
    })
}

/// Validating and applying every corpus delta into one reused buffer.
#[divan::bench]
fn apply_deltas(bencher: divan::Bencher) {
    let mut out = vec![I32::ZERO; MAX_SNAPSHOT_INTS];
    bencher
        .counter(ItemsCount::new(pairs().len()))
        .bench_local(|| {
            let mut crc = 0i32;
            for p in pairs() {
                let base = SnapshotView::from_ints(&p.base).unwrap();
                let delta = DeltaView::from_ints(&p.delta, p.sizes).unwrap();
                crc = crc.wrapping_add(apply(&base, &delta, &mut out).unwrap().item_count() as i32);
            }
            crc
        });
}

/// Whole demos: chunk headers, Huffman and packed ints of every payload
/// (messages included), keyframes and deltas applied, so the full snapshot
/// is rebuilt at every tick. Counted in bytes of chunk stream.
#[divan::bench]
fn decode_demos_to_snapshots(bencher: divan::Bencher) {
    let total: usize = demos()
        .iter()
        .map(|(_, b)| DemoView::parse(b).unwrap().chunk_bytes().len())
        .sum();
    let mut owned = OwnedBuffers::new();
    bencher.counter(BytesCount::new(total)).bench_local(|| {
        let mut sum = 0usize;
        for (_, bytes) in demos() {
            let view = DemoView::parse(divan::black_box(bytes)).unwrap();
            let mut rec = Reconstructor::new(owned.buffers(), view.header().item_sizes());
            for chunk in view.chunks() {
                let chunk = chunk.unwrap();
                match chunk {
                    Chunk::Data {
                        kind: ChunkKind::Message | ChunkKind::Unknown,
                        payload,
                    } => {
                        sum += rec.decode(payload).unwrap().len();
                    }
                    Chunk::Data { .. } => {
                        rec.feed(&chunk).unwrap();
                        sum += rec.snapshot().unwrap().item_count();
                    }
                    Chunk::Tick { .. } => {}
                }
            }
        }
        sum
    });
}

/// The same through `Frames` (snapshot and delta payloads only; messages
/// are skipped undecoded), a full snapshot per tick. Counted in bytes of
/// chunk stream.
#[divan::bench]
fn frames_only(bencher: divan::Bencher) {
    let total: usize = demos()
        .iter()
        .map(|(_, b)| DemoView::parse(b).unwrap().chunk_bytes().len())
        .sum();
    let mut owned = OwnedBuffers::new();
    bencher.counter(BytesCount::new(total)).bench_local(|| {
        let mut items = 0usize;
        for (_, bytes) in demos() {
            let view = DemoView::parse(divan::black_box(bytes)).unwrap();
            let mut frames = Frames::new(&view, owned.buffers());
            while let Some(frame) = frames.next() {
                items += frame.unwrap().snapshot.item_count();
            }
        }
        items
    });
}

/// Huffman decoding alone of every chunk payload, in compressed bytes.
#[divan::bench]
fn huffman_decode_payloads(bencher: divan::Bencher) {
    let payloads: Vec<&[u8]> = demos()
        .iter()
        .flat_map(|(_, b)| {
            let view = DemoView::parse(b).unwrap();
            view.chunks().filter_map(|c| match c.unwrap() {
                Chunk::Data { payload, .. } => Some(payload),
                Chunk::Tick { .. } => None,
            })
        })
        .collect();
    let total = payloads.iter().map(|p| p.len()).sum::<usize>();
    let mut out = vec![0u8; gamefmt::demo::MAX_PAYLOAD];
    bencher.counter(BytesCount::new(total)).bench_local(|| {
        let mut n = 0;
        for p in &payloads {
            n += gamefmt::huffman::decode(divan::black_box(p), &mut out).unwrap();
        }
        n
    });
}

/// 300 items shaped like libtw2's `delta_300_300` benchmark: item `i` of
/// type `i / 16 + 1` (0.6 static size), a pseudo-random id and value; with
/// `changed`, every tenth item's value differs.
fn items_300(changed: bool) -> Vec<(u16, u16, Vec<i32>)> {
    let mut x = 0x2545_f491u32;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x
    };
    (0..300u16)
        .map(|i| {
            let t = i / 16 + 1;
            let (id, v) = (next() as u16, next() as i32);
            let v = if changed && i % 10 == 0 { v ^ 1 } else { v };
            let len = gamefmt::snapshot::static_size(gamefmt::snapshot::ITEM_SIZES_06, t).unwrap();
            (t, id, vec![v; len])
        })
        .collect()
}

/// A server tick: build 300 items with a reused `SnapshotBuilder`, then the
/// delta against the previous snapshot with a reused `DeltaCreator`.
#[divan::bench(args = [false, true])]
fn build_and_delta_300(bencher: divan::Bencher, changed: bool) {
    use gamefmt::snapshot::{DeltaCreator, ITEM_SIZES_06, SnapshotBuilder};
    let mut b = SnapshotBuilder::new();
    for (t, id, d) in items_300(false) {
        b.add(t, id, &d).unwrap();
    }
    let from = b.finish();
    let from = SnapshotView::parse(&from).unwrap();
    let to = items_300(changed);
    let mut creator = DeltaCreator::new();
    bencher.bench_local(|| {
        b.clear();
        for (t, id, d) in divan::black_box(&to) {
            b.add(*t, *id, d).unwrap();
        }
        let snap = b.snapshot();
        creator.create(&from, &snap, ITEM_SIZES_06).unwrap().len()
    });
}
