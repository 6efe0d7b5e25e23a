//! A demo decoded into what a recorder was fed: each tick's snapshot and
//! each message with the tick marker before it; shared by the recorder's
//! tests and the CLI's demo tool tests.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::cast_possible_wrap
)]

use gamefmt::demo::{Chunk, ChunkKind, DemoView, OwnedBuffers, Reconstructor};
use gamefmt::snapshot::SnapshotView;
use gamefmt::stream::End;
use gamefmt::zerocopy::IntoBytes;

/// What a recorder was fed, as read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A tick's snapshot, as ints.
    Snapshot(i32, Vec<i32>),
    /// A message's bytes (padding included), with the tick marker before
    /// it.
    Message(Option<i32>, Vec<u8>),
}

impl Event {
    /// The tick of a snapshot, or the tick marker before a message.
    pub fn tick(&self) -> Option<i32> {
        match self {
            Self::Snapshot(t, _) => Some(*t),
            Self::Message(t, _) => *t,
        }
    }
}

/// Decodes a demo into the calls that record it again (a tick marker
/// without a chunk is the snapshot of the tick before again), and how its
/// stream ended; stops at the first damaged chunk.
pub fn events(bytes: &[u8]) -> (Vec<Event>, End) {
    let view = DemoView::parse(bytes).unwrap();
    let mut owned = OwnedBuffers::new();
    let mut rec = Reconstructor::new(owned.buffers(), view.header().item_sizes());
    let mut out = Vec::new();
    let mut pending = None;
    let mut last = None;
    let flush = |pending: &mut Option<i32>, rec: &Reconstructor<'_>, out: &mut Vec<Event>| {
        if let (Some(t), Some(s)) = (pending.take(), rec.snapshot()) {
            out.push(Event::Snapshot(
                t,
                s.as_ints().iter().map(|v| v.get()).collect(),
            ));
        }
    };
    let mut chunks = view.chunks();
    for chunk in chunks.by_ref() {
        let Ok(chunk) = chunk else { break };
        match chunk {
            Chunk::Tick { tick, .. } => {
                flush(&mut pending, &rec, &mut out);
                pending = Some(tick);
                last = Some(tick);
            }
            Chunk::Data {
                kind: ChunkKind::Message,
                payload,
            } => {
                flush(&mut pending, &rec, &mut out);
                let Ok(ints) = rec.decode(payload) else { break };
                out.push(Event::Message(last, ints.as_bytes().to_vec()));
            }
            Chunk::Data { .. } => {
                if rec.feed(&chunk).is_err() {
                    break;
                }
                flush(&mut pending, &rec, &mut out);
            }
        }
    }
    flush(&mut pending, &rec, &mut out);
    (out, chunks.end())
}

/// `events` with every snapshot's items sorted by key: a delta keeps the
/// item order of the snapshot it applies to, so that a demo cut
/// elsewhere (its keyframes at other ticks) holds the same items in
/// another order.
pub fn by_key(events: &[Event]) -> Vec<Event> {
    events
        .iter()
        .map(|e| match e {
            Event::Snapshot(t, ints) => {
                let bytes: Vec<u8> = ints.iter().flat_map(|v| v.to_le_bytes()).collect();
                let snap = SnapshotView::parse(&bytes).unwrap();
                let mut items: Vec<Vec<i32>> = snap
                    .items()
                    .map(|i| {
                        let mut v = vec![i.key() as i32];
                        v.extend(i.data().iter().map(|d| d.get()));
                        v
                    })
                    .collect();
                items.sort();
                Event::Snapshot(*t, items.concat())
            }
            Event::Message(..) => e.clone(),
        })
        .collect()
}
