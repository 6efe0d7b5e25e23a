//! The push decoder of a whole demo file: the header, the embedded map in
//! pieces, then the chunks, as one stream of [`Item`]s.
//!
//! [`Decoder`] follows the [stream contract](crate::stream): it is fed the
//! file from its first byte, whatever bytes the caller has, and answers one
//! [`Item`] at a time. The header comes first ([`Item::Header`], its facts
//! kept for [`Decoder::header`]), then the embedded map as
//! [`Item::MapPiece`]s of whatever input is there (so a small buffer
//! streams a large map), then every [`Chunk`]. [`Reader`](super::Reader)
//! and the embedded readers ([`crate::stream::EmbeddedReader`],
//! [`crate::stream::AsyncReader`]) are this decoder in the one refill loop.
//!
//! ```
//! use gamefmt::demo::{Chunk, Decoder, Item};
//! use gamefmt::stream::{Decoded, End};
//!
//! // A version 3 demo (fixed header only), a 2-byte map and one tick marker.
//! let field = |s: &[u8], n: usize| { let mut f = s.to_vec(); f.resize(n, 0); f };
//! let mut demo = b"TWDEMO\0\x03".to_vec();
//! demo.extend(field(b"0.6 626fce9a778df4d4", 64));
//! demo.extend(field(b"dm1", 64));
//! demo.extend(2u32.to_be_bytes()); // map size
//! demo.extend([0; 4]); // map CRC
//! demo.extend(field(b"client", 8));
//! demo.extend(1i32.to_be_bytes()); // length in seconds
//! demo.extend(field(b"2026-01-01_00-00-00", 20));
//! demo.extend([0xAB, 0xCD]); // the "map"
//! demo.extend([0x80, 0, 0, 0, 100]); // tick 100
//!
//! let mut decoder = Decoder::new();
//! let mut input = &demo[..];
//! let mut items = Vec::new();
//! while let Decoded::Record { record, consumed } = decoder.decode(input)? {
//!     items.push(match record {
//!         Item::Header { bytes } => format!("header of {} bytes", bytes.len()),
//!         Item::MapPiece { bytes, last } => format!("map {bytes:02x?} {last}"),
//!         Item::Chunk(Chunk::Tick { tick, .. }) => format!("tick {tick}"),
//!         Item::Chunk(_) => format!("data"),
//!     });
//!     input = &input[consumed..];
//! }
//! assert_eq!(items, ["header of 176 bytes", "map [ab, cd] true", "tick 100"]);
//! assert_eq!(decoder.header().map(|h| h.map_name()), Some("dm1"));
//! assert_eq!(decoder.end(input.len()), End::Complete);
//! # Ok::<(), gamefmt::Error>(())
//! ```

use super::chunk::{Chunk, ChunkDecoder, MAX_CHUNK};
use super::view::{DemoHeader, MIN_VERSION};
use crate::error::Result;
use crate::stream::{self, Decoded, End};

/// One record of a demo file, borrowing from the caller's input: what
/// [`Decoder::decode`] and [`Reader`](super::Reader) deliver, in this
/// order: the header, the map's pieces, the chunks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item<'a> {
    /// The header (the first record): its bytes as the file holds them
    /// (from the magic to the end of the version 6 extension, if any).
    /// Its facts are [`Decoder::header`]'s (and `header()` on every
    /// reader), parsed once.
    Header {
        /// The header's bytes.
        bytes: &'a [u8],
    },
    /// The next piece of the embedded map file: whatever input there is,
    /// up to the map's end, in order; `last` for the piece that ends it.
    /// Their concatenation is the map ([`super::DemoView::map_data`]). A
    /// demo without a map (map size 0) has no pieces.
    MapPiece {
        /// The next bytes of the map.
        bytes: &'a [u8],
        /// This piece ends the map: chunks follow.
        last: bool,
    },
    /// One chunk of the stream after the map.
    Chunk(Chunk<'a>),
}

/// Where the decoder is in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Before the header, at offset 0.
    Header,
    /// Inside the embedded map: the next piece at file offset `offset`,
    /// `left` bytes of it still to come (never 0).
    Map { offset: usize, left: usize },
    /// In the chunk stream (the chunk decoder fuses its own errors).
    Chunks,
    /// Fused after an error in the header, which the chunk decoder holds
    /// and returns (a state without data, so that the chunks' path checks
    /// one tag: 0.8% fewer instructions reading the corpus demos).
    Failed,
}

/// The push decoder of a whole demo file, following the [stream
/// contract](crate::stream): fed the file from its first byte, it answers
/// one [`Item`] (the header, the map's pieces, then the chunks) and the
/// bytes it took, or [`Decoded::NeedMore`].
///
/// The caller owns the buffer: after a record, drop `consumed` bytes and
/// call again; after `NeedMore`, call again with the same bytes plus more.
/// The buffer must hold the header (at most [`DemoHeader::MAX_LEN`] bytes:
/// a shorter one fails in a reader with
/// [`ErrorKind::BufferTooSmall`](crate::ErrorKind::BufferTooSmall) naming
/// the length this header needs) and the demo's largest chunk (at most
/// [`MAX_CHUNK`] bytes); the map comes in pieces of any size. Error offsets
/// are file offsets. A file that ends inside the header or the map ends
/// quietly and [`Decoder::end`] says [`End::Truncated`]; a demo has no end
/// marker, so one that ends between two chunks is [`End::Complete`].
///
/// Memory: the header's facts ([`DemoHeader`], about 500 bytes) and the
/// [`ChunkDecoder`], which does the chunks (for a caller that feeds the
/// chunk stream alone, without the header and the map).
///
/// ```
/// use gamefmt::demo::{Decoder, Item};
/// use gamefmt::stream::{Decoded, End};
///
/// // Fed part of the header: "need more", as many bytes as the version
/// // byte tells; then the whole header.
/// let mut header = b"TWDEMO\0\x03".to_vec();
/// header.resize(176, 0); // the version 3 header's length
/// header[8] = b'x'; // a net version "x" (the string fields need a NUL, which the zeros give)
/// let mut decoder = Decoder::new();
/// assert_eq!(decoder.decode(&header[..100])?, Decoded::NeedMore { needed: Some(176) });
/// assert_eq!(decoder.end(100), End::Truncated { offset: 0 });
/// let Decoded::Record { record: Item::Header { bytes }, consumed: 176 } = decoder.decode(&header)? else {
///     panic!("the header");
/// };
/// assert_eq!(bytes, &header[..]);
/// assert_eq!(decoder.header().map(|h| (h.version(), h.net_version())), Some((3, "x")));
/// assert_eq!(decoder.end(0), End::Complete); // no map, no chunks
/// # Ok::<(), gamefmt::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Decoder {
    state: State,
    /// The header's facts (valid once the state is past the header).
    header: DemoHeader,
    /// The chunk stream's decoder, set when the header is decoded.
    chunks: ChunkDecoder,
}

impl Default for Decoder {
    fn default() -> Self {
        Self::new()
    }
}

impl Decoder {
    /// A decoder at the start of a file.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            state: State::Header,
            header: DemoHeader::EMPTY,
            chunks: ChunkDecoder::new(MIN_VERSION, 0),
        }
    }

    /// The file offset of the next input byte.
    #[must_use]
    pub const fn offset(&self) -> usize {
        match self.state {
            State::Header | State::Failed => 0,
            State::Map { offset, .. } => offset,
            State::Chunks => self.chunks.offset(),
        }
    }

    /// The header's facts, once the header (the first record) has been
    /// decoded; `None` before, and after an error in it.
    #[must_use]
    pub const fn header(&self) -> Option<&DemoHeader> {
        match self.state {
            State::Header | State::Failed => None,
            State::Map { .. } | State::Chunks => Some(&self.header),
        }
    }

    /// How the stream ended if the input ends now, with `unconsumed` bytes
    /// left over: [`End::Truncated`] inside the header or the map (at the
    /// offset of what is missing), otherwise as
    /// [`ChunkDecoder::end`] ([`End::Complete`] between two chunks),
    /// [`End::Damaged`] after an error.
    #[must_use]
    pub const fn end(&self, unconsumed: usize) -> End {
        match self.state {
            State::Header => End::Truncated { offset: 0 },
            State::Map { offset, .. } => End::Truncated { offset },
            State::Chunks | State::Failed => self.chunks.end(unconsumed),
        }
    }

    /// Decodes the next record from the start of `input`.
    ///
    /// # Errors
    /// Those of [`DemoHeader::parse`] (a wrong magic or version as soon as
    /// `input` holds it) and of [`ChunkDecoder::decode`], at file offsets.
    /// The decoder is fused afterwards.
    #[inline]
    pub fn decode<'a>(&mut self, input: &'a [u8]) -> Result<Decoded<Item<'a>>> {
        if let State::Chunks = self.state {
            return self.chunks.decode_as(input, Item::Chunk);
        }
        self.decode_prelude(input)
    }

    /// [`Self::decode`] before the chunks: the header or a map piece. Out
    /// of line, so that the chunks' path (nearly every record, one check
    /// of the state) inlines into the readers' loop, each chunk made as
    /// an [`Item`] where it is decoded: reading the corpus demos through a
    /// [`Reader`](super::Reader) took 14.7% more instructions than the
    /// chunk decoder alone at 30bda50 with one `match` and the chunk moved
    /// into the item afterwards, 5.3% fewer this way (callgrind).
    #[inline(never)]
    fn decode_prelude<'a>(&mut self, input: &'a [u8]) -> Result<Decoded<Item<'a>>> {
        match self.state {
            State::Header => self.decode_header(input).inspect_err(|&e| {
                self.state = State::Failed;
                self.chunks = ChunkDecoder::failed(e);
            }),
            State::Map { offset, left } => Ok(self.map_piece(input, offset, left)),
            State::Chunks | State::Failed => self.chunks.decode_as(input, Item::Chunk),
        }
    }

    /// The header, once `input` holds as many bytes as its framing says.
    fn decode_header<'a>(&mut self, input: &'a [u8]) -> Result<Decoded<Item<'a>>> {
        let needed = DemoHeader::framing_len(input)?;
        if input.len() < needed {
            return Ok(Decoded::NeedMore {
                needed: Some(needed),
            });
        }
        self.header.parse_in_place(input)?;
        let len = self.header.map_offset();
        self.chunks = self.header.chunk_decoder();
        self.state = match usize::try_from(self.header.map_size()) {
            Ok(0) => State::Chunks,
            left => State::Map {
                offset: len,
                left: left.unwrap_or(usize::MAX),
            },
        };
        Ok(Decoded::Record {
            record: Item::Header {
                bytes: input.get(..len).unwrap_or_default(),
            },
            consumed: len,
        })
    }

    /// The next piece of the map, at file offset `offset` with `left`
    /// bytes of it to come: all of `input` up to the map's end.
    fn map_piece<'a>(&mut self, input: &'a [u8], offset: usize, left: usize) -> Decoded<Item<'a>> {
        let n = left.min(input.len());
        let Some(bytes) = input.get(..n).filter(|b| !b.is_empty()) else {
            return Decoded::NeedMore { needed: Some(1) };
        };
        let left = left.saturating_sub(n);
        self.state = match left {
            0 => State::Chunks,
            _ => State::Map {
                offset: offset.saturating_add(n),
                left,
            },
        };
        Decoded::Record {
            record: Item::MapPiece {
                bytes,
                last: left == 0,
            },
            consumed: n,
        }
    }
}

impl stream::Decoder for Decoder {
    type Record<'a> = Item<'a>;

    type Header = DemoHeader;

    /// [`MAX_CHUNK`]: the header is shorter, and the map comes in pieces.
    const MAX_RECORD: usize = MAX_CHUNK;

    #[inline]
    fn decode<'a>(&mut self, input: &'a [u8]) -> Result<Decoded<Item<'a>>> {
        Self::decode(self, input)
    }

    /// Told from the framing: the header's by its magic, version and
    /// extension UUID ([`DemoHeader::MAX_LEN`] at most), a map piece by
    /// any byte, a chunk by [`ChunkDecoder`]'s.
    #[inline]
    fn need_more(&self, input: &[u8]) -> Option<Option<usize>> {
        match self.state {
            State::Chunks => stream::Decoder::need_more(&self.chunks, input),
            State::Header => {
                let needed = DemoHeader::framing_len(input).ok()?;
                (input.len() < needed).then_some(Some(needed))
            }
            State::Map { .. } => input.is_empty().then_some(Some(1)),
            State::Failed => None,
        }
    }

    fn offset(&self) -> usize {
        Self::offset(self)
    }

    fn header(&self) -> Option<&DemoHeader> {
        Self::header(self)
    }

    fn end(&self, unconsumed: usize) -> End {
        Self::end(self, unconsumed)
    }
}

#[cfg(test)]
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::unwrap_used,
    clippy::panic,
    reason = "unit tests: a panic is the failure report"
)]
mod tests {
    use super::*;
    use crate::ErrorKind;
    use crate::demo::SHA256_EXTENSION;

    /// A wrong magic or version fails as soon as the bytes show it, before
    /// the header is whole.
    #[test]
    fn bad_start_fails_early() {
        let mut d = Decoder::new();
        let e = d.decode(b"TWDEMX").unwrap_err();
        assert_eq!((e.kind, e.offset), (ErrorKind::BadMagic, 0));
        assert_eq!(d.end(6), End::Damaged(e));
        assert_eq!(d.decode(b"TWDEMO\0\x03").unwrap_err(), e, "fused");
        let mut d = Decoder::new();
        let e = d.decode(b"TWDEMO\0\x07").unwrap_err();
        assert_eq!((e.kind, e.offset), (ErrorKind::UnsupportedVersion(7), 7));
        assert_eq!(
            stream::Decoder::need_more(&Decoder::new(), b"TWDEMO\0\x07"),
            None
        );
        assert_eq!(
            stream::Decoder::need_more(&Decoder::new(), b"TWDEMO\0"),
            Some(Some(DemoHeader::FIXED_LEN))
        );
    }

    /// A version 6 header without the SHA-256 extension (176 bytes of
    /// fields, 260 of markers) is told by the first byte after it that
    /// differs from the extension's UUID; before it, 16 bytes are needed
    /// to see whether the UUID is there.
    #[test]
    fn version_6_without_the_extension() {
        let mut demo = b"TWDEMO\0\x06".to_vec();
        demo.resize(436, 0);
        let header_only = demo.clone();
        demo.extend([0x80, 0, 0, 0, 7]); // tick 7: 0x80 is not the UUID's 0x6b
        let mut d = Decoder::new();
        assert_eq!(
            d.decode(&header_only).unwrap(),
            Decoded::NeedMore { needed: Some(452) }
        );
        assert_eq!(d.end(436), End::Truncated { offset: 0 });
        let uuid_start = [&header_only[..], &SHA256_EXTENSION.as_bytes()[..3]].concat();
        assert_eq!(stream::Decoder::need_more(&d, &uuid_start), Some(Some(452)));
        assert_eq!(
            d.decode(&demo[..437]).unwrap(),
            Decoded::Record {
                record: Item::Header {
                    bytes: &demo[..436]
                },
                consumed: 436
            }
        );
        assert_eq!(d.header().map(DemoHeader::map_sha256), Some(None));
        let tick = Chunk::Tick {
            tick: 7,
            keyframe: false,
        };
        assert_eq!(
            d.decode(&demo[436..]).unwrap(),
            Decoded::Record {
                record: Item::Chunk(tick),
                consumed: 5
            }
        );
        assert_eq!((d.offset(), d.end(0)), (441, End::Complete));
    }
}
