//! Chunk headers: the push decoder and the slice iterator over it.

use crate::error::{Error, Result};
use crate::stream::{self, Decoded, End, Sealed, SliceDecoder, SliceIter};

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

impl ChunkKind {
    /// The kind's name in lower case: `snapshot`, `message`, `delta` or
    /// `unknown` (as the CLI's JSON and the Python package spell it).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Snapshot => "snapshot",
            Self::Message => "message",
            Self::Delta => "delta",
            Self::Unknown => "unknown",
        }
    }
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

/// The largest chunk: a 3-byte header and a 65 535-byte payload. A push
/// caller's buffer (and a [`Reader`](super::Reader)'s) must hold the
/// largest chunk of its demo; this many bytes hold any.
pub const MAX_CHUNK: usize = 3 + 65_535;

/// The chunk-header state machine, a push decoder of the chunk stream
/// alone (after the header and the embedded map) following the [stream
/// contract](crate::stream): the demo version, the last tick and the
/// position. The whole file's decoder, [`Decoder`](super::Decoder), runs
/// it after the map; [`DemoHeader::chunk_decoder`](super::DemoHeader::chunk_decoder)
/// makes one for a caller that has read the header itself.
///
/// Feed it bytes that start at a chunk boundary; it returns one chunk
/// borrowed from them or [`Decoded::NeedMore`]. Its state changes only when
/// it returns a chunk or an error (after which it is fused). The caller's
/// buffer must hold the demo's largest chunk (at most [`MAX_CHUNK`] bytes).
///
/// ```
/// use gamefmt::demo::{Chunk, ChunkDecoder};
/// use gamefmt::stream::{Decoded, End};
///
/// // A tick marker (absolute tick 100), then a 3-byte message chunk, cut.
/// let stream = [0x80, 0, 0, 0, 100, 0x43, 1, 2, 3];
/// let mut decoder = ChunkDecoder::new(5, 0);
/// let Decoded::Record { record, consumed } = decoder.decode(&stream)? else { panic!() };
/// assert_eq!((record, consumed), (Chunk::Tick { tick: 100, keyframe: false }, 5));
/// let rest = &stream[5..8];
/// assert_eq!(decoder.decode(rest)?, Decoded::NeedMore { needed: Some(4) });
/// assert_eq!(decoder.end(rest.len()), End::Truncated { offset: 5 });
/// # Ok::<(), gamefmt::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ChunkDecoder {
    version: u8,
    tick: Option<i32>,
    offset: usize,
    failed: Option<Error>,
}

impl ChunkDecoder {
    /// A decoder for a demo of `version` (3 to 6) before its first chunk,
    /// which is at input offset `offset` (the base of error offsets: 0 for
    /// a caller feeding the chunk stream alone, the chunk stream's file
    /// offset for one feeding the file).
    #[must_use]
    pub const fn new(version: u8, offset: usize) -> Self {
        Self {
            version,
            tick: None,
            offset,
            failed: None,
        }
    }

    /// A decoder fused with `error` before the chunk stream (the
    /// whole-file decoder's error in the header, nothing consumed): every
    /// call returns it.
    pub(crate) const fn failed(error: Error) -> Self {
        Self {
            version: 0,
            tick: None,
            offset: 0,
            failed: Some(error),
        }
    }

    /// The offset of the next chunk.
    #[must_use]
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// How the stream ended if the input ends now with `unconsumed` bytes
    /// left over: [`End::Complete`] between two chunks (demos have no end
    /// marker), [`End::Truncated`] inside one, [`End::Damaged`] after an
    /// error.
    #[must_use]
    pub const fn end(&self, unconsumed: usize) -> End {
        match self.failed {
            Some(e) => End::Damaged(e),
            None if unconsumed == 0 => End::Complete,
            None => End::Truncated {
                offset: self.offset,
            },
        }
    }

    /// The tick of the last tick marker, if any.
    #[must_use]
    pub const fn tick(&self) -> Option<i32> {
        self.tick
    }

    /// Decodes the chunk at the start of `buf`.
    ///
    /// Tick markers follow DDNet: versions 3–4 carry a 6-bit tick delta
    /// (0 = a 4-byte big-endian tick follows), versions 5–6 a 5-bit delta
    /// when bit 5 is set and a 4-byte tick otherwise.
    ///
    /// # Errors
    /// A delta before the first absolute tick and ticks outside
    /// `0..0x6FFFFFFF`, at the chunk's offset (counted from the offset
    /// given to [`ChunkDecoder::new`]). Fused afterwards.
    #[inline]
    pub fn decode<'b>(&mut self, buf: &'b [u8]) -> Result<Decoded<Chunk<'b>>> {
        self.decode_as(buf, |chunk| chunk)
    }

    /// [`Self::decode`], with each chunk wrapped by `wrap` where it is
    /// returned (the whole-file decoder's [`Item::Chunk`](super::Item::Chunk)),
    /// so that it is not moved out of one result into another.
    #[inline(always)]
    pub(crate) fn decode_as<'b, T>(
        &mut self,
        buf: &'b [u8],
        wrap: impl FnOnce(Chunk<'b>) -> T,
    ) -> Result<Decoded<T>> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        match self.decode_unfused(buf) {
            Ok(Decoded::Record { record, consumed }) => {
                self.offset = self.offset.saturating_add(consumed);
                Ok(Decoded::Record {
                    record: wrap(record),
                    consumed,
                })
            }
            Ok(Decoded::NeedMore { needed }) => Ok(Decoded::NeedMore { needed }),
            Ok(Decoded::Done { consumed }) => Ok(Decoded::Done { consumed }),
            Err(e) => {
                self.failed = Some(e);
                Err(e)
            }
        }
    }

    #[inline]
    fn decode_unfused<'b>(&mut self, buf: &'b [u8]) -> Result<Decoded<Chunk<'b>>> {
        let Some(&first) = buf.first() else {
            return Ok(Decoded::NeedMore { needed: Some(1) });
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
                        self.offset,
                    ))?;
                    (prev.checked_add(i32::from(delta)), 1)
                }
                None => {
                    let Some(bytes) = buf.get(1..5) else {
                        return Ok(Decoded::NeedMore { needed: Some(5) });
                    };
                    let mut be = [0u8; 4];
                    be.copy_from_slice(bytes);
                    (i32::try_from(u32::from_be_bytes(be)).ok(), 5)
                }
            };
            let tick = tick
                .filter(|t| (MIN_TICK..MAX_TICK).contains(t))
                .ok_or(Error::corrupt("tick out of range", self.offset))?;
            self.tick = Some(tick);
            return Ok(Decoded::Record {
                record: Chunk::Tick {
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
                None => return Ok(Decoded::NeedMore { needed: Some(2) }),
            },
            31 => match (buf.get(1), buf.get(2)) {
                (Some(&lo), Some(&hi)) => (usize::from(u16::from_le_bytes([lo, hi])), 3),
                _ => return Ok(Decoded::NeedMore { needed: Some(3) }),
            },
            n => (usize::from(n), 1usize),
        };
        let end = head.saturating_add(size);
        let Some(payload) = buf.get(head..end) else {
            return Ok(Decoded::NeedMore { needed: Some(end) });
        };
        Ok(Decoded::Record {
            record: Chunk::Data { kind, payload },
            consumed: end,
        })
    }
}

impl stream::Decoder for ChunkDecoder {
    type Record<'a> = Chunk<'a>;

    /// The chunk stream alone has no header: the file's is a
    /// [`DemoHeader`](super::DemoHeader), read before it (by
    /// [`Decoder`](super::Decoder), for one).
    type Header = ();

    const MAX_RECORD: usize = MAX_CHUNK;

    #[inline]
    fn decode<'a>(&mut self, input: &'a [u8]) -> Result<Decoded<Chunk<'a>>> {
        Self::decode(self, input)
    }

    /// Told from the chunk's first bytes: an absolute tick marker is 5
    /// bytes, a data chunk its header and the payload size it gives.
    fn need_more(&self, input: &[u8]) -> Option<Option<usize>> {
        if self.failed.is_some() {
            return None;
        }
        let Some(&first) = input.first() else {
            return Some(Some(1));
        };
        let needed = if first & TICKMARKER != 0 {
            let legacy = first & TICK_MASK_LEGACY;
            let delta = (self.version < VERSION_TICK_COMPRESSION && legacy != 0)
                || first & TICK_COMPRESSED != 0;
            if delta { 1 } else { 5 }
        } else {
            match first & 0x1F {
                30 => match input.get(1) {
                    Some(&b) => 2usize.saturating_add(usize::from(b)),
                    None => 2,
                },
                31 => match (input.get(1), input.get(2)) {
                    (Some(&lo), Some(&hi)) => {
                        3usize.saturating_add(usize::from(u16::from_le_bytes([lo, hi])))
                    }
                    _ => 3,
                },
                n => 1usize.saturating_add(usize::from(n)),
            }
        };
        (input.len() < needed).then_some(Some(needed))
    }

    fn offset(&self) -> usize {
        self.offset
    }

    fn header(&self) -> Option<&()> {
        None
    }

    fn end(&self, unconsumed: usize) -> End {
        Self::end(self, unconsumed)
    }
}

/// Pull iterator over the chunks of a demo in memory; see
/// [`super::DemoView::chunks`]: the [`SliceIter`] of [`ChunkDecoder`].
///
/// Yields `Result<Chunk>`, fused after an error; error offsets are file
/// offsets. A stream cut short inside a chunk ends quietly after the last
/// whole chunk ([the truncation rule](crate::stream#the-truncation-rule));
/// [`SliceIter::end`] then says [`End::Truncated`].
pub type DemoChunkIter<'a> = SliceIter<'a, ChunkDecoder>;

impl<'a> SliceIter<'a, ChunkDecoder> {
    /// Chunks of a demo of `version` from `bytes`, which start at file
    /// offset `base`.
    #[must_use]
    pub const fn new(bytes: &'a [u8], version: u8, base: usize) -> Self {
        Self::with_decoder(ChunkDecoder::new(version, base), bytes, bytes)
    }

    /// The tick of the last tick marker returned.
    #[must_use]
    pub const fn tick(&self) -> Option<i32> {
        self.decoder.tick()
    }
}

impl Sealed for ChunkDecoder {}

impl SliceDecoder for ChunkDecoder {
    type Item<'a> = Chunk<'a>;

    #[inline]
    fn next_item<'a>(iter: &mut SliceIter<'a, Self>) -> Option<Result<Chunk<'a>>> {
        stream::next_record(iter)
    }
}
