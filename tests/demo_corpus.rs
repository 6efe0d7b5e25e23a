//! Every corpus demo: header, embedded map (a valid datafile whose SHA-256
//! matches the v6 header), every chunk decoded, every delta applied (the
//! reconstructor's snapshot passing the full check at every step), a
//! snapshot at every tick; the std reader agrees with the slice iterator;
//! the `gamefmt` CLI reproduces every fact of `demos.expected.jsonl`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use crate::common;

use gamefmt::demo::{
    Chunk, ChunkKind, DemoView, Frames, OwnedBuffers, Reader, Reconstructor, decode_payload,
};
use gamefmt::snapshot::SnapshotView;
use gamefmt::stream::End;
use sha2::{Digest, Sha256};
use zerocopy::little_endian::I32;

fn demos(test: &str) -> Option<Vec<(String, Vec<u8>)>> {
    common::corpus_files(test, "teeworlds/demos", ".demo")
}

#[test]
fn embedded_maps_are_datafiles_matching_the_header_sha256() {
    let Some(demos) = demos("embedded_maps_are_datafiles_matching_the_header_sha256") else {
        return;
    };
    let mut with_sha = 0;
    for (name, bytes) in &demos {
        let view = DemoView::parse(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let map = view.map().unwrap_or_else(|e| panic!("{name}: map: {e}"));
        assert!(map.item_count() > 0, "{name}");
        assert_eq!(view.map_data().len(), view.header().map_size() as usize);
        if let Some(sha) = view.header().map_sha256() {
            assert_eq!(view.header().version(), 6, "{name}");
            let digest: [u8; 32] = Sha256::digest(view.map_data()).into();
            assert_eq!(&digest, sha, "{name}: map SHA-256");
            with_sha += 1;
        }
    }
    // All six version 6 demos carry the extension (SOURCES.md).
    if common::shared_corpus() {
        assert_eq!(with_sha, 6);
    }
}

#[test]
fn every_chunk_decodes_and_every_delta_applies() {
    let Some(demos) = demos("every_chunk_decodes_and_every_delta_applies") else {
        return;
    };
    let mut owned = OwnedBuffers::new();
    let mut scratch = vec![0u8; gamefmt::demo::MAX_PAYLOAD];
    let mut ints = vec![I32::ZERO; gamefmt::demo::MAX_PAYLOAD_INTS];
    for (name, bytes) in &demos {
        let view = DemoView::parse(bytes).unwrap();
        let mut rec = Reconstructor::new(owned.buffers(), view.header().item_sizes());
        let mut chunks = view.chunks();
        let (mut deltas, mut snapshots, mut checks) = (0, 0, 0);
        for chunk in chunks.by_ref() {
            let chunk = chunk.unwrap_or_else(|e| panic!("{name}: {e}"));
            if let Chunk::Data { kind, payload } = chunk {
                let decoded = decode_payload(payload, &mut scratch, &mut ints)
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                match kind {
                    ChunkKind::Snapshot => {
                        SnapshotView::from_ints(decoded).unwrap();
                        snapshots += 1;
                    }
                    ChunkKind::Delta => deltas += 1,
                    ChunkKind::Message => assert!(!decoded.is_empty(), "{name}: empty message"),
                    ChunkKind::Unknown => panic!("{name}: chunk kind 0"),
                }
                rec.feed(&chunk).unwrap_or_else(|e| panic!("{name}: {e}"));
                // The reconstructor lends its snapshot without checking
                // the item offsets again: the full check passes on it, and
                // gives the same items.
                if let Some(kept) = rec.snapshot() {
                    let checked = SnapshotView::from_ints(kept.as_ints())
                        .unwrap_or_else(|e| panic!("{name}: kept snapshot: {e}"));
                    assert!(kept.items().eq(checked.items()), "{name}");
                    checks += 1;
                }
            }
        }
        assert!(snapshots > 0 && deltas > 0 && checks > deltas, "{name}");
        let expected_end = if name.contains("truncated") {
            matches!(chunks.end(), End::Truncated { .. })
        } else {
            chunks.end() == End::Complete
        };
        assert!(expected_end, "{name}: {:?}", chunks.end());
    }
}

#[test]
fn a_snapshot_at_every_tick() {
    let Some(demos) = demos("a_snapshot_at_every_tick") else {
        return;
    };
    let mut owned = OwnedBuffers::new();
    for (name, bytes) in &demos {
        let view = DemoView::parse(bytes).unwrap();
        let ticks = view
            .chunks()
            .filter(|c| matches!(c, Ok(Chunk::Tick { .. })))
            .count();
        let mut frames = Frames::new(&view, owned.buffers());
        let mut n = 0;
        let mut last = None;
        while let Some(frame) = frames.next() {
            let frame = frame.unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(last < Some(frame.tick), "{name}: ticks increase");
            last = Some(frame.tick);
            n += 1;
        }
        // The first tick marker of every corpus demo is followed by a
        // keyframe snapshot, so every tick gets a frame.
        assert_eq!(n, ticks, "{name}");
    }
}

#[test]
fn std_reader_matches_slice_iterator() {
    let Some(demos) = demos("std_reader_matches_slice_iterator") else {
        return;
    };
    for (name, bytes) in &demos {
        let view = DemoView::parse(bytes).unwrap();
        // A reader that returns at most 1000 bytes per call.
        struct Trickle<'a>(&'a [u8]);
        impl std::io::Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let n = buf.len().min(self.0.len()).min(1000);
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut reader = Reader::new(Trickle(bytes)).unwrap();
        assert_eq!(reader.header(), view.header());
        let mut chunks = view.chunks();
        loop {
            let a = chunks.next().map(Result::unwrap);
            let b = reader.next().map(Result::unwrap);
            assert_eq!(a, b, "{name}");
            if a.is_none() {
                break;
            }
        }
        assert_eq!(reader.end(), chunks.end(), "{name}");
    }
}

#[test]
fn owned_reconstructor_beside_its_reader_matches_borrowed_frames() {
    let Some(demos) = demos("owned_reconstructor_beside_its_reader_matches_borrowed_frames") else {
        return;
    };
    // What the Python and Arrow demo sources hold: a reader and an owning
    // reconstructor side by side, no self-borrow.
    struct Walk<R> {
        reader: Reader<R>,
        rec: Reconstructor<'static, OwnedBuffers>,
    }
    let mut owned = OwnedBuffers::new();
    let mut total = 0;
    for (name, bytes) in &demos {
        let view = DemoView::parse(bytes).unwrap();
        let mut borrowed = Vec::new();
        let mut frames = Frames::new(&view, owned.buffers());
        while let Some(frame) = frames.next() {
            let f = frame.unwrap_or_else(|e| panic!("{name}: {e}"));
            let ints: Vec<i32> = f.snapshot.as_ints().iter().map(|v| v.get()).collect();
            borrowed.push((f.tick, f.keyframe, f.snapshot.checksum(), ints));
        }
        let reader = Reader::new(&bytes[..]).unwrap();
        let sizes = reader.header().item_sizes();
        let mut walk = Walk {
            reader,
            rec: Reconstructor::owned(sizes),
        };
        let mut streamed = Vec::new();
        let mut keep = |f: gamefmt::demo::Frame<'_>| {
            let ints: Vec<i32> = f.snapshot.as_ints().iter().map(|v| v.get()).collect();
            streamed.push((f.tick, f.keyframe, f.snapshot.checksum(), ints));
        };
        while let Some(chunk) = walk.reader.next() {
            let chunk = chunk.unwrap_or_else(|e| panic!("{name}: {e}"));
            if let Some(f) = walk
                .rec
                .push(&chunk)
                .unwrap_or_else(|e| panic!("{name}: {e}"))
            {
                keep(f);
            }
        }
        if let Some(f) = walk.rec.finish() {
            keep(f);
        }
        assert!(!borrowed.is_empty(), "{name}");
        assert!(
            borrowed == streamed,
            "{name}: owned and borrowed frames differ"
        );
        total += borrowed.len();
        // The buffers come back, and serve a borrowed reconstructor.
        let mut back = walk.rec.into_storage();
        let rec = Reconstructor::new(&mut back, view.header().item_sizes());
        assert!(rec.snapshot().is_none());
    }
    println!("{} demos, {total} frames equal", demos.len());
}

#[test]
fn cut_demos_end_cleanly_after_the_last_whole_chunk() {
    let Some(demos) = demos("cut_demos_end_cleanly_after_the_last_whole_chunk") else {
        return;
    };
    let Some((name, bytes)) = demos
        .iter()
        .find(|(n, _)| n.contains("tinycave_other_player_disconnect"))
    else {
        eprintln!("SKIPPED cut_demos: no tinycave_other_player_disconnect demo in this corpus");
        return;
    };
    let full = DemoView::parse(bytes).unwrap();
    let start = full.chunks_offset();
    let total = full.chunks().count();
    let mut owned = OwnedBuffers::new();
    for cut in start..bytes.len() {
        let view = DemoView::parse(&bytes[..cut]).unwrap();
        let mut chunks = view.chunks();
        let got = chunks.by_ref().map(Result::unwrap).count();
        assert!(got <= total, "{name} cut at {cut}");
        match chunks.end() {
            End::Complete => {}
            End::Truncated { offset } => assert!(offset < cut, "{name} cut at {cut}"),
            other => panic!("{name} cut at {cut}: {other:?}"),
        }
        // Reconstruction over the prefix never fails either.
        let mut frames = Frames::new(&view, owned.buffers());
        while let Some(frame) = frames.next() {
            frame.unwrap();
        }
    }
    // Cutting inside the header or map is a clean error.
    for cut in 0..start {
        assert!(DemoView::parse(&bytes[..cut]).is_err());
    }
}

#[test]
fn corrupted_demos_never_panic() {
    let Some(demos) = demos("corrupted_demos_never_panic") else {
        return;
    };
    let (_, bytes) = demos
        .iter()
        .find(|(n, _)| n.contains("tinycave_other_player_join"))
        .unwrap();
    let start = DemoView::parse(bytes).unwrap().chunks_offset();
    let mut owned = OwnedBuffers::new();
    let mut copy = bytes.clone();
    let mut x = 0x9E37_79B9u32;
    for i in 0..4000u32 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        // Half of the corruptions hit the chunk stream.
        let at = if i % 2 == 0 {
            start + x as usize % (bytes.len() - start)
        } else {
            x as usize % bytes.len()
        };
        copy[at] ^= (x >> 24) as u8 | 1;
        if let Ok(view) = DemoView::parse(&copy) {
            let mut frames = Frames::new(&view, owned.buffers());
            while let Some(frame) = frames.next() {
                if frame.is_err() {
                    break;
                }
            }
        }
        copy[at] = bytes[at];
    }
}

#[test]
fn ddnet_extended_types_resolve_to_known_uuids() {
    use gamefmt::snapshot::{DDNET_NET_OBJECTS, EX_TYPES, UUID_DDNET_CHARACTER, UUID_GAME_INFO_EX};
    let Some(demos) = demos("ddnet_extended_types_resolve_to_known_uuids") else {
        return;
    };
    let mut owned = OwnedBuffers::new();
    for (name, bytes) in &demos {
        let view = DemoView::parse(bytes).unwrap();
        let ddnet = view.header().net_version().starts_with("0.6");
        let mut seen = std::collections::BTreeSet::new();
        let mut frames = Frames::new(&view, owned.buffers());
        while let Some(frame) = frames.next() {
            let snap = frame.unwrap().snapshot;
            for item in snap.items().filter(|i| EX_TYPES.contains(&i.type_id())) {
                let uuid = snap
                    .type_uuid(item.type_id())
                    .unwrap_or_else(|| panic!("{name}: type {:#x} undeclared", item.type_id()));
                assert!(
                    DDNET_NET_OBJECTS.iter().any(|(_, u)| *u == uuid),
                    "{name}: unknown {uuid}"
                );
                assert_eq!(snap.type_for_uuid(&uuid), Some(item.type_id()));
                seen.insert(uuid);
            }
        }
        if ddnet {
            // Every DDNet server sends these two on every snapshot.
            assert!(seen.contains(&UUID_DDNET_CHARACTER), "{name}");
            assert!(seen.contains(&UUID_GAME_INFO_EX), "{name}");
        } else if common::shared_corpus() {
            // The corpus's 0.7 demos come from Teeworlds 0.7 servers; a
            // DDNet server sends its extended objects to 0.7 clients too
            // (a 0.7.5 client's demo never seen before has them).
            assert!(seen.is_empty(), "{name}: 0.7 has no DDNet objects");
        }
    }
}
