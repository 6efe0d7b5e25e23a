//! Chunk headers: the push decoder and the slice iterator over it.

use core::iter::FusedIterator;

use crate::error::{Error, Result};

/// First tick value DDNet accepts.
pub const MIN_TICK: i32 = 0;
/// Ticks must be below this (DDNet `MAX_TICK`).
pub const MAX_TICK: i32 = 0x6FFF_FFFF;

const TICKMARKER: u8 = 0x80;
const KEYFRAME: u8 = 0x40;
const TICK_COMPRESSED: u8 = 0x20;
const TICK_MASK: u8 = 0x1F;
const TICK_MASK_LEGACY: u8 = 0x3F;
/// First version whose tick markers use the compressed flag.
const VERSION_TICK_COMPRESSION: u8 = 5;

/// The kind of a data chunk (bits 6..5 of its first byte).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ChunkKind {
    /// A full snapshot (1).
    Snapshot,
    /// A network message (2).
    Message,
    /// A snapshot delta against the previous snapshot (3).
    Delta,
    /// Kind 0, which no recorder writes; passed through.
    Unknown,
}

/// One chunk of the demo stream. Payloads are still Huffman-compressed;
/// decode them with [`super::decode_payload`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chunk<'a> {
    /// A tick marker: the following chunks belong to `tick`.
    Tick {
        /// The absolute tick.
        tick: i32,
        /// A full snapshot follows.
        keyframe: bool,
    },
    /// A data chunk.
    Data {
        /// Snapshot, message, delta or unknown.
        kind: ChunkKind,
        /// The compressed payload.
        payload: &'a [u8],
    },
}

/// What [`ChunkDecoder::decode`] found at the start of its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decoded<T> {
    /// A whole record and the bytes it took.
    Record {
        /// The record.
        value: T,
        /// Bytes consumed from the input.
        consumed: usize,
    },
    /// The input ends inside a record (or is empty): feed more bytes.
    NeedMore,
}

/// The chunk-header state machine: the demo version and the last tick.
///
/// Feed it bytes that start at a chunk boundary; it returns one chunk
/// borrowed from them or [`Decoded::NeedMore`]. Its state changes only when
/// it returns a chunk.
#[derive(Clone, Copy, Debug)]
pub struct ChunkDecoder {
    version: u8,
    tick: Option<i32>,
}

impl ChunkDecoder {
    /// A decoder for a demo of `version` (3 to 6) before its first chunk.
    #[must_use]
    pub const fn new(version: u8) -> Self {
        Self {
            version,
            tick: None,
        }
    }

    /// The tick of the last tick marker, if any.
    #[must_use]
    pub const fn tick(&self) -> Option<i32> {
        self.tick
    }

    /// Decodes the chunk at the start of `buf`. Error offsets are relative
    /// to `buf`.
    ///
    /// Tick markers follow DDNet: versions 3–4 carry a 6-bit tick delta
    /// (0 = a 4-byte big-endian tick follows), versions 5–6 a 5-bit delta
    /// when bit 5 is set and a 4-byte tick otherwise. A delta before the
    /// first absolute tick and ticks outside `0..0x6FFFFFFF` are errors.
    pub fn decode<'b>(&mut self, buf: &'b [u8]) -> Result<Decoded<Chunk<'b>>> {
        let Some(&first) = buf.first() else {
            return Ok(Decoded::NeedMore);
        };
        if first & TICKMARKER != 0 {
            let legacy = first & TICK_MASK_LEGACY;
            let delta = if self.version < VERSION_TICK_COMPRESSION && legacy != 0 {
                Some(legacy)
            } else if first & TICK_COMPRESSED != 0 {
                Some(first & TICK_MASK)
            } else {
                None
            };
            let (tick, consumed) = match delta {
                Some(delta) => {
                    let prev = self.tick.ok_or(Error::corrupt(
                        "tick delta before the first absolute tick",
                        0,
                    ))?;
                    (prev.checked_add(i32::from(delta)), 1)
                }
                None => {
                    let Some(bytes) = buf.get(1..5) else {
                        return Ok(Decoded::NeedMore);
                    };
                    let mut be = [0u8; 4];
                    be.copy_from_slice(bytes);
                    (i32::try_from(u32::from_be_bytes(be)).ok(), 5)
                }
            };
            let tick = tick
                .filter(|t| (MIN_TICK..MAX_TICK).contains(t))
                .ok_or(Error::corrupt("tick out of range", 0))?;
            self.tick = Some(tick);
            return Ok(Decoded::Record {
                value: Chunk::Tick {
                    tick,
                    keyframe: first & KEYFRAME != 0,
                },
                consumed,
            });
        }
        let kind = match (first >> 5) & 3 {
            1 => ChunkKind::Snapshot,
            2 => ChunkKind::Message,
            3 => ChunkKind::Delta,
            _ => ChunkKind::Unknown,
        };
        let (size, head) = match first & 0x1F {
            30 => match buf.get(1) {
                Some(&b) => (usize::from(b), 2),
                None => return Ok(Decoded::NeedMore),
            },
            31 => match (buf.get(1), buf.get(2)) {
                (Some(&lo), Some(&hi)) => (usize::from(u16::from_le_bytes([lo, hi])), 3),
                _ => return Ok(Decoded::NeedMore),
            },
            n => (usize::from(n), 1usize),
        };
        let end = head.saturating_add(size);
        let Some(payload) = buf.get(head..end) else {
            return Ok(Decoded::NeedMore);
        };
        Ok(Decoded::Record {
            value: Chunk::Data { kind, payload },
            consumed: end,
        })
    }
}

/// How a chunk stream ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum End {
    /// Not at the end yet.
    Open,
    /// The stream ended on a chunk boundary.
    Complete,
    /// The stream ends inside a chunk that starts at `offset` (a recorder
    /// that was killed): every whole chunk before it was returned.
    Truncated {
        /// File offset of the incomplete chunk.
        offset: usize,
    },
    /// Decoding stopped at an error, which was returned.
    Error,
}

/// Pull iterator over the chunks of a demo in memory; see
/// [`super::DemoView::chunks`].
///
/// Yields `Result<Chunk>`. A stream cut short inside a chunk ends cleanly
/// (no error) after the last whole chunk; [`Chunks::end`] then says
/// [`End::Truncated`]. After an error the iterator is fused.
#[derive(Clone, Debug)]
pub struct Chunks<'a> {
    bytes: &'a [u8],
    pos: usize,
    base: usize,
    decoder: ChunkDecoder,
    end: End,
}

impl<'a> Chunks<'a> {
    /// Chunks of a demo of `version` from `bytes`, which start at file
    /// offset `base`.
    #[must_use]
    pub const fn new(bytes: &'a [u8], version: u8, base: usize) -> Self {
        Self {
            bytes,
            pos: 0,
            base,
            decoder: ChunkDecoder::new(version),
            end: End::Open,
        }
    }

    /// How the stream ended ([`End::Open`] until the iterator returned
    /// `None` or an error).
    #[must_use]
    pub const fn end(&self) -> End {
        self.end
    }

    /// File offset of the next chunk.
    #[must_use]
    pub const fn offset(&self) -> usize {
        self.base.saturating_add(self.pos)
    }

    /// The tick of the last tick marker returned.
    #[must_use]
    pub const fn tick(&self) -> Option<i32> {
        self.decoder.tick()
    }
}

impl<'a> Iterator for Chunks<'a> {
    type Item = Result<Chunk<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.end != End::Open {
            return None;
        }
        let rest = self.bytes.get(self.pos..).unwrap_or_default();
        match self.decoder.decode(rest) {
            Ok(Decoded::Record { value, consumed }) => {
                self.pos = self.pos.saturating_add(consumed);
                Some(Ok(value))
            }
            Ok(Decoded::NeedMore) => {
                self.end = if rest.is_empty() {
                    End::Complete
                } else {
                    End::Truncated {
                        offset: self.offset(),
                    }
                };
                None
            }
            Err(e) => {
                self.end = End::Error;
                Some(Err(e.shifted(self.offset())))
            }
        }
    }
}

impl FusedIterator for Chunks<'_> {}
