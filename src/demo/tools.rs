//! Demo tools (feature `alloc`): [`cut`] a tick range, [`repair`] a demo
//! left broken by a crash, [`strip_map`] the embedded map.
//!
//! ```
//! # fn main() -> Result<(), gamefmt::Error> {
//! use gamefmt::demo::{self, DemoMap, DemoView, Recorder, RecorderOptions};
//! use gamefmt::snapshot::SnapshotBuilder;
//!
//! // A demo of ticks 0..600 on an embedded (here: made-up) map.
//! let map = DemoMap { name: "dm1", crc: 1, sha256: [2; 32], data: Some(&[0u8; 100]) };
//! let mut rec = Recorder::new(&RecorderOptions::ddnet("2026-11-28_21-00-00"), &map)?;
//! let mut b = SnapshotBuilder::new();
//! for tick in 0..600 {
//!     b.clear();
//!     b.add(9, 0, &[tick; 22])?;
//!     rec.snapshot(tick, &b.snapshot())?;
//! }
//! let full = rec.finish();
//!
//! // Ticks 300..=400: starts with a keyframe at 300.
//! let part = demo::cut(&full, 300, 400)?;
//! let view = DemoView::parse(&part)?;
//! assert_eq!(view.header().length_seconds(), 2);
//! assert!(matches!(view.chunks().next(), Some(Ok(demo::Chunk::Tick { tick: 300, keyframe: true }))));
//!
//! // Without the map: name, CRC and SHA-256 stay.
//! let stripped = demo::strip_map(&full)?;
//! let h = DemoView::parse(&stripped)?.header().clone();
//! assert_eq!((h.map_size(), h.map_crc(), h.map_sha256()), (0, 1, Some(&[2; 32])));
//! assert_eq!(stripped.len(), full.len() - 100);
//!
//! // A crash: the file ends inside a chunk and the header was never patched.
//! let crashed = &full[..full.len() - 3];
//! let (fixed, report) = demo::repair(crashed)?;
//! assert!(report.dropped_bytes > 0);
//! assert_eq!(DemoView::parse(&fixed)?.header().length_seconds(), 11);
//! # Ok(()) }
//! ```

use alloc::vec::Vec;

use zerocopy::little_endian::I32;

use super::chunk::{Chunk, ChunkKind};
use super::reconstruct::{OwnedBuffers, Reconstructor};
use super::recorder::{
    DemoMap, HeaderPatch, LENGTH_OFFSET, MAP_SIZE_OFFSET, Recorder, RecorderOptions, TICK_SPEED,
};
use super::{DemoHeader, DemoView};
use crate::error::{Error, Result};
use crate::snapshot::SnapshotView;

/// What a demo holds, call by call, as a recorder was fed it.
enum Event<'s> {
    /// The snapshot of a tick.
    Snapshot(i32, SnapshotView<'s>),
    /// A message (its ints, padding included), after the tick marker of
    /// the tick given (`None` before the first).
    Message(Option<i32>, &'s [I32]),
}

/// Walks `view` as DDNet's player does and calls `f` with each snapshot
/// and message in order: a tick marker with no chunk after it (DDNet
/// writes no empty delta) is the snapshot in effect again. Stops at the
/// end of the stream or where it is cut short; fails where it is damaged.
fn replay(view: &DemoView<'_>, mut f: impl FnMut(Event<'_>) -> Result<()>) -> Result<()> {
    let mut owned = OwnedBuffers::new();
    let mut rec = Reconstructor::new(owned.buffers(), view.header().item_sizes());
    let mut pending: Option<i32> = None;
    let mut last_tick: Option<i32> = None;
    let mut chunks = view.chunks();
    while let Some(chunk) = chunks.next() {
        let chunk = chunk?;
        let at = chunks.offset();
        match chunk {
            Chunk::Tick { tick, .. } => {
                if let (Some(t), Some(snap)) = (pending.take(), rec.snapshot()) {
                    f(Event::Snapshot(t, snap))?;
                }
                pending = Some(tick);
                last_tick = Some(tick);
            }
            Chunk::Data {
                kind: ChunkKind::Snapshot | ChunkKind::Delta,
                ..
            } => {
                rec.feed(&chunk).map_err(|e| Error::new(e.kind, at))?;
                if let (Some(t), Some(snap)) = (pending.take(), rec.snapshot()) {
                    f(Event::Snapshot(t, snap))?;
                }
            }
            Chunk::Data {
                kind: ChunkKind::Message,
                payload,
            } => {
                if let (Some(t), Some(snap)) = (pending.take(), rec.snapshot()) {
                    f(Event::Snapshot(t, snap))?;
                }
                let ints = rec.decode(payload).map_err(|e| Error::new(e.kind, at))?;
                f(Event::Message(last_tick, ints))?;
            }
            Chunk::Data { .. } => {}
        }
    }
    if let (Some(t), Some(snap)) = (pending.take(), rec.snapshot()) {
        f(Event::Snapshot(t, snap))?;
    }
    Ok(())
}

/// A recorder for a demo like `header`'s (same version, 6 for version 3;
/// same net version, kind, timestamp and map).
fn recorder_like(header: &DemoHeader, map: &[u8]) -> Result<Recorder> {
    let options = RecorderOptions {
        version: header.version().max(4),
        net_version: header.net_version(),
        kind: header.kind(),
        timestamp: header.timestamp(),
        trailing_zero: false,
    };
    let map = DemoMap {
        name: header.map_name(),
        crc: header.map_crc(),
        sha256: header.map_sha256().copied().unwrap_or_default(),
        data: (!map.is_empty()).then_some(map),
    };
    Recorder::new(&options, &map)
}

/// The part of a demo from tick `from` to tick `to` (both included),
/// recorded again as DDNet's demo slicer does: the first snapshot in the
/// range becomes a keyframe, every snapshot and message of the range is
/// kept (a message belongs to the tick marker before it; messages before
/// the first tick marker are kept when the range starts at the demo's
/// first tick or before), and the timeline markers in the range. The
/// header is the original's (its version; version 3, which has no place
/// for markers, becomes 4), with the new length. The snapshots are the
/// same, their items too; but a snapshot that was a keyframe in the
/// original and is a delta in the cut keeps the item order of the
/// snapshot before it (as a player applying it would have it).
///
/// # Errors
/// Those of [`DemoView::parse`], damage in the chunk stream before `to`
/// (a stream cut short is cut where it ends), and those of
/// [`Recorder::snapshot`] and [`Recorder::message`].
pub fn cut(demo: &[u8], from: i32, to: i32) -> Result<Vec<u8>> {
    let view = DemoView::parse(demo)?;
    let header = view.header();
    let mut rec = recorder_like(header, view.map_data())?;
    let mut bytes = Vec::new();
    // Messages before the first tick marker go with the demo's first tick.
    let demo_first = view.chunks().find_map(|c| match c {
        Ok(Chunk::Tick { tick, .. }) => Some(tick),
        _ => None,
    });
    let before_first = demo_first.is_none_or(|t| from <= t);
    let mut first_tick: Option<i32> = None;
    let result = replay(&view, |event| match event {
        Event::Snapshot(tick, snap) => {
            first_tick.get_or_insert(tick);
            if (from..=to).contains(&tick) {
                rec.snapshot(tick, &snap)?;
            }
            Ok(())
        }
        Event::Message(tick, ints) => {
            let inside = match tick {
                Some(t) => (from..=to).contains(&t),
                None => first_tick.is_none() && before_first,
            };
            if inside {
                bytes.clear();
                bytes.extend(ints.iter().flat_map(|v| v.get().to_le_bytes()));
                rec.message(&bytes)?;
            }
            Ok(())
        }
    });
    // Damage after the range does not matter.
    if let Err(e) = result {
        if rec.last_tick().is_none_or(|t| t < to) {
            return Err(e);
        }
    }
    for &m in header.markers() {
        if (from..=to).contains(&m) {
            rec.add_marker(m);
        }
    }
    Ok(rec.finish())
}

/// The demo without its embedded map: the header's map size set to 0
/// (name, CRC and SHA-256 kept, so that a player loads the map by them),
/// the chunks unchanged.
///
/// # Errors
/// Those of [`DemoView::parse`].
pub fn strip_map(demo: &[u8]) -> Result<Vec<u8>> {
    let view = DemoView::parse(demo)?;
    let header_len = view.header().map_offset();
    let mut out = Vec::with_capacity(header_len.saturating_add(view.chunk_bytes().len()));
    out.extend_from_slice(demo.get(..header_len).unwrap_or_default());
    if let Some(size) = out.get_mut(MAP_SIZE_OFFSET..MAP_SIZE_OFFSET.saturating_add(4)) {
        size.copy_from_slice(&[0; 4]);
    }
    out.extend_from_slice(view.chunk_bytes());
    Ok(out)
}

/// What [`repair`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RepairReport {
    /// Bytes of the chunk stream not copied: chunks before the first
    /// snapshot (deltas with nothing to apply to, and tick markers; the
    /// first snapshot's tick marker is written anew, in full), and
    /// everything from the first chunk that is cut short, damaged or does
    /// not apply.
    pub dropped_bytes: usize,
    /// Chunks left out before the first snapshot.
    pub dropped_leading: usize,
    /// The tick of the first tick marker kept.
    pub first_tick: Option<i32>,
    /// The tick of the last tick marker kept.
    pub last_tick: Option<i32>,
    /// The header's length in seconds before (0 if never patched).
    pub length_before: i32,
    /// The header's length in seconds after: (last tick - first tick) / 50.
    pub length_after: i32,
}

/// Makes a valid demo of one a crash left broken (or whose recorder never
/// patched the header): the chunk stream is kept up to the last chunk
/// that decodes (and, for snapshots and deltas, applies), a trailing
/// partial chunk dropped; the stream starts with a keyframe (chunks before
/// the first full snapshot are dropped but messages, and that snapshot's
/// tick marker is written in full, flagged as a keyframe); the length is
/// set from the first and last tick markers kept. Timeline markers are
/// kept as the header has them. Every chunk kept is copied as it is.
///
/// # Errors
/// Those of [`DemoView::parse`] (a file that ends inside the header or
/// the map has nothing to repair).
pub fn repair(demo: &[u8]) -> Result<(Vec<u8>, RepairReport)> {
    let view = DemoView::parse(demo)?;
    let header = view.header();
    let stream = view.chunk_bytes();
    let base = view.chunks_offset();
    let mut out = Vec::with_capacity(demo.len());
    out.extend_from_slice(demo.get(..base).unwrap_or_default());
    let mut owned = OwnedBuffers::new();
    let mut rec = Reconstructor::new(owned.buffers(), header.item_sizes());
    let mut report = RepairReport {
        length_before: header.length_seconds(),
        ..RepairReport::default()
    };
    let mut started = false;
    let mut tick: Option<i32> = None;
    // Before the first snapshot: the last tick marker's bytes, not yet
    // kept or dropped.
    let mut marker: Option<&[u8]> = None;
    let mut copied = 0usize;
    let mut chunks = view.chunks();
    let mut pos = 0usize;
    while let Some(Ok(chunk)) = chunks.next() {
        let end = chunks.offset().saturating_sub(base);
        let bytes = stream.get(pos..end).unwrap_or_default();
        pos = end;
        let keep = match chunk {
            Chunk::Tick { tick: t, .. } => {
                tick = Some(t);
                if started {
                    report.last_tick = Some(t);
                } else if marker.replace(bytes).is_some() {
                    report.dropped_leading = report.dropped_leading.saturating_add(1);
                }
                started
            }
            Chunk::Data { kind, payload } if started => {
                let ok = match kind {
                    ChunkKind::Snapshot | ChunkKind::Delta => rec.feed(&chunk).is_ok(),
                    ChunkKind::Message => rec.decode(payload).is_ok(),
                    ChunkKind::Unknown => true,
                };
                if !ok {
                    // Damage: nothing after it is kept.
                    break;
                }
                true
            }
            Chunk::Data { kind, payload } => match kind {
                ChunkKind::Snapshot if rec.feed(&chunk).is_ok() => {
                    if let Some(t) = tick {
                        // The keyframe's tick marker, in full.
                        let [a, b, c, d] = t.to_be_bytes();
                        let full = [0x80 | 0x40, a, b, c, d];
                        if marker == Some(&full[..]) {
                            copied = copied.saturating_add(full.len());
                        } else {
                            report.dropped_leading = report.dropped_leading.saturating_add(1);
                        }
                        out.extend_from_slice(&full);
                        report.first_tick = Some(t);
                        report.last_tick = Some(t);
                    }
                    started = true;
                    true
                }
                ChunkKind::Message => rec.decode(payload).is_ok(),
                ChunkKind::Unknown => true,
                ChunkKind::Snapshot | ChunkKind::Delta => {
                    if marker.take().is_some() {
                        report.dropped_leading = report.dropped_leading.saturating_add(1);
                    }
                    false
                }
            },
        };
        if keep {
            out.extend_from_slice(bytes);
            copied = copied.saturating_add(bytes.len());
        } else if !started && !matches!(chunk, Chunk::Tick { .. }) {
            report.dropped_leading = report.dropped_leading.saturating_add(1);
        }
    }
    if !started && marker.is_some() {
        report.dropped_leading = report.dropped_leading.saturating_add(1);
    }
    let length = match (report.first_tick, report.last_tick) {
        (Some(first), Some(last)) => last.saturating_sub(first) / TICK_SPEED,
        _ => 0,
    };
    report.length_after = length;
    report.dropped_bytes = stream.len().saturating_sub(copied);
    let patch = HeaderPatch::new(length, header.markers());
    if header.version() >= 4 {
        patch.apply(&mut out)?;
    } else if let Some(dst) = out.get_mut(LENGTH_OFFSET..LENGTH_OFFSET.saturating_add(4)) {
        // No timeline markers before version 4.
        dst.copy_from_slice(&length.to_be_bytes());
    }
    Ok((out, report))
}
