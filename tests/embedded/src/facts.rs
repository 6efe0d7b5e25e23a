//! The facts the firmware prints for each stream file, gathered record by
//! record through gamefmt's `embedded-io` readers: the numbers run.sh
//! checks against `gamefmt inspect --json` (a recording's `messages` and
//! `last_tick`, a replay's events — the sum of `event_counts` — and frames,
//! a demo's chunks by kind), and how the stream ended.

use core::fmt;

use crate::host_file::HostFile;

/// One line of facts, printed after the file's path.
pub enum Line {
    /// The file could not be read at all.
    Error(&'static str),
    #[cfg(feature = "teehistorian")]
    Recording { records: u32, end: &'static str, last_tick: i32 },
    #[cfg(feature = "slippi")]
    Replay {
        records: u32,
        end: &'static str,
        frames: Option<(i32, i32)>,
        unique_frames: u32,
    },
    #[cfg(feature = "demo")]
    Demo {
        records: u32,
        end: &'static str,
        snapshots: u32,
        deltas: u32,
        messages: u32,
        last_tick: Option<i32>,
    },
    #[cfg(feature = "map")]
    Map {
        items: usize,
        data_items: usize,
        groups: usize,
        layers: usize,
        game: (usize, usize),
        tiles: usize,
    },
}

impl Line {
    pub fn error(what: &'static str) -> Self {
        Self::Error(what)
    }
}

/// `Some(n)` as `n`, `None` as `none` (as compare.py writes JSON null).
struct Opt(Option<i32>);

impl fmt::Display for Opt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(n) => write!(f, "{n}"),
            None => f.write_str("none"),
        }
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Error(what) => write!(f, "error={what}"),
            #[cfg(feature = "teehistorian")]
            Self::Recording { records, end, last_tick } => write!(
                f,
                "format=teehistorian records={records} end={end} last_tick={last_tick}"
            ),
            #[cfg(feature = "slippi")]
            Self::Replay { records, end, frames, unique_frames } => write!(
                f,
                "format=slippi records={records} end={end} first_frame={} last_frame={} unique_frames={unique_frames}",
                Opt(frames.map(|f| f.0)),
                Opt(frames.map(|f| f.1)),
            ),
            #[cfg(feature = "demo")]
            Self::Demo { records, end, snapshots, deltas, messages, last_tick } => write!(
                f,
                "format=demo records={records} end={end} snapshots={snapshots} deltas={deltas} messages={messages} last_tick={}",
                Opt(*last_tick)
            ),
            #[cfg(feature = "map")]
            Self::Map { items, data_items, groups, layers, game, tiles } => write!(
                f,
                "format=map items={items} data_items={data_items} groups={groups} layers={layers} game={}x{} tiles={tiles}",
                game.0, game.1
            ),
        }
    }
}

/// A teehistorian recording through a 4 KiB buffer (DDNet's headers are
/// longer: they arrive in pieces).
#[cfg(feature = "teehistorian")]
// Never inlined: its frame is then below the painted baseline (measured)
// and exists only while this format decodes.
#[inline(never)]
pub fn recording(file: HostFile, buf: &mut [u8]) -> Line {
    use gamefmt::stream::EmbeddedReader;
    use gamefmt::teehistorian::{Decoder, Item};
    let mut reader = EmbeddedReader::with_decoder(file, buf, Decoder::new());
    let (mut records, mut last_tick) = (0, 0);
    while let Some(Ok(item)) = reader.next() {
        if let Item::Message(record) = item {
            records += 1;
            last_tick = record.tick;
        }
    }
    Line::Recording { records, end: reader.end().name(), last_tick }
}

/// A Slippi replay through a 4 KiB buffer.
#[cfg(feature = "slippi")]
// Never inlined: its frame is then below the painted baseline (measured)
// and exists only while this format decodes.
#[inline(never)]
pub fn replay(file: HostFile, buf: &mut [u8]) -> Line {
    use gamefmt::slippi::{Decoder, Item};
    use gamefmt::stream::EmbeddedReader;
    let mut reader = EmbeddedReader::with_decoder(file, buf, Decoder::new());
    let (mut records, mut frames, mut unique_frames) = (0, None::<(i32, i32)>, 0);
    while let Some(Ok(item)) = reader.next() {
        let Item::Event(event) = item else { continue };
        records += 1;
        // Frames come in order and rollbacks only revisit lower numbers,
        // so a number above every earlier one is a frame seen first.
        if let Some(n) = event.frame() {
            if frames.is_none_or(|(_, hi)| n > hi) {
                unique_frames += 1;
            }
            frames = Some(frames.map_or((n, n), |(lo, hi)| (lo.min(n), hi.max(n))));
        }
    }
    Line::Replay { records, end: reader.end().name(), frames, unique_frames }
}

/// A demo's chunks through the caller's buffer, which holds the header and
/// the largest chunk (the map comes in pieces, not counted).
#[cfg(feature = "demo")]
// Never inlined: its frame is then below the painted baseline (measured)
// and exists only while this format decodes.
#[inline(never)]
pub fn demo(file: HostFile, buf: &mut [u8]) -> Line {
    use gamefmt::demo::{Chunk, ChunkKind, Decoder, Item};
    use gamefmt::stream::EmbeddedReader;
    let mut reader = EmbeddedReader::with_decoder(file, buf, Decoder::new());
    let (mut records, mut snapshots, mut deltas, mut messages) = (0, 0, 0, 0);
    let mut last_tick = None;
    while let Some(Ok(item)) = reader.next() {
        let Item::Chunk(chunk) = item else { continue };
        records += 1;
        match chunk {
            Chunk::Tick { tick, .. } => last_tick = Some(tick),
            Chunk::Data { kind: ChunkKind::Snapshot, .. } => snapshots += 1,
            Chunk::Data { kind: ChunkKind::Delta, .. } => deltas += 1,
            Chunk::Data { kind: ChunkKind::Message, .. } => messages += 1,
            Chunk::Data { .. } => {}
        }
    }
    Line::Demo { records, end: reader.end().name(), snapshots, deltas, messages, last_tick }
}
