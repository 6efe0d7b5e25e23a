//! Byte identity with DDNet's own snapshot code on the 43 snapshot pairs of
//! `teeworlds/snapshot-vectors` (see its SOURCES.md): DDNet's
//! `CreateDelta` output in int and packed form, its `UnpackDelta` output,
//! and the snapshots its `CSnapshotBuilder` lays out.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use crate::common;

use gamefmt::snapshot::{
    DeltaCreator, DeltaView, ITEM_SIZES_06, MAX_SNAPSHOT_INTS, SnapshotBuilder, SnapshotView, apply,
};
use zerocopy::IntoBytes;
use zerocopy::little_endian::I32;

/// One vector folder's files.
struct Vector {
    path: String,
    old: Vec<u8>,
    new: Vec<u8>,
    delta: Vec<u8>,
    packed: Vec<u8>,
    applied: Vec<u8>,
}

fn vectors() -> Option<Vec<Vector>> {
    let dir = common::corpus_dir("snapshot vectors")?.join("teeworlds/snapshot-vectors");
    let Ok(manifest) = std::fs::read_to_string(dir.join("manifest.jsonl")) else {
        eprintln!("SKIPPED snapshot vectors: no {}", dir.display());
        return None;
    };
    let vectors = manifest
        .lines()
        .map(|line| {
            let entry: serde_json::Value = serde_json::from_str(line).unwrap();
            let path = entry["path"].as_str().unwrap().to_owned();
            let read = |name: &str| std::fs::read(dir.join(&path).join(name)).unwrap();
            Vector {
                old: read("old.snap"),
                new: read("new.snap"),
                delta: read("ddnet.delta"),
                packed: read("ddnet.packed"),
                applied: read("ddnet.applied"),
                path,
            }
        })
        .collect();
    Some(vectors)
}

#[test]
fn deltas_match_ddnet_byte_for_byte() {
    let Some(vectors) = vectors() else { return };
    assert_eq!(vectors.len(), 43, "SOURCES.md: 43 pairs");
    let mut creator = DeltaCreator::new();
    let mut out = vec![I32::ZERO; MAX_SNAPSHOT_INTS];
    let mut packed = vec![0u8; 5 * MAX_SNAPSHOT_INTS];
    let mut empty = 0;
    for v in &vectors {
        let old = SnapshotView::parse(&v.old).unwrap();
        let new = SnapshotView::parse(&v.new).unwrap();
        let delta = creator.create(&old, &new, ITEM_SIZES_06).unwrap();
        if v.delta.is_empty() {
            // DDNet's CreateDelta returns 0 where this gives the empty delta.
            assert_eq!(delta.as_bytes(), [0u8; 12], "{}", v.path);
            empty += 1;
        } else {
            assert_eq!(delta.as_bytes(), v.delta, "{}: int form", v.path);
            let ints: Vec<i32> = delta.iter().map(|x| x.get()).collect();
            let n = gamefmt::varint::pack_ints(&ints, &mut packed).unwrap();
            assert_eq!(&packed[..n], v.packed, "{}: packed form", v.path);
        }

        // UnpackDelta of DDNet's own delta (or of the empty delta).
        let theirs = if v.delta.is_empty() {
            vec![0u8; 12]
        } else {
            v.delta.clone()
        };
        let theirs = DeltaView::parse(&theirs, ITEM_SIZES_06).unwrap();
        let got = apply(&old, &theirs, &mut out).unwrap();
        assert_eq!(got.as_ints().as_bytes(), v.applied, "{}: applied", v.path);
    }
    eprintln!(
        "{} snapshot vectors identical to DDNet ({empty} with nothing changed)",
        vectors.len()
    );
}

#[test]
fn builder_lays_out_snapshots_as_ddnet() {
    let Some(vectors) = vectors() else { return };
    let mut b = SnapshotBuilder::new();
    for v in &vectors {
        for bytes in [&v.old, &v.new] {
            let snap = SnapshotView::parse(bytes).unwrap();
            b.clear();
            for item in snap.items() {
                let data: Vec<i32> = item.data().iter().map(|x| x.get()).collect();
                b.add(item.type_id(), item.id(), &data).unwrap();
            }
            assert_eq!(b.snapshot().as_ints().as_bytes(), &bytes[..], "{}", v.path);
            assert_eq!(b.finish(), bytes[..], "{}", v.path);
        }
    }
}
