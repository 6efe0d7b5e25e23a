//! [`Reader`]: a demo's header and chunks from any `io::Read`, through the
//! one generic [`stream::Reader`].

use std::io;

use super::chunk::{Chunk, Decoder};
use super::view::{DemoHeader, MIN_VERSION};
use crate::error::{Error, ErrorKind};
use crate::stream::{self, End, ReadError};

/// Reads a demo from an [`io::Read`]: the header, then (skipping the
/// embedded map) one chunk at a time, each lent until the next call
/// (payload still compressed; see [`super::decode_payload`], and
/// [`super::Reconstructor`] for the snapshots).
///
/// The chunks come from [`stream::Reader`] with the chunk [`Decoder`]
/// (see it for buffering, errors and endings); each is decoded once.
/// Error offsets are file offsets. As with [`super::DemoChunkIter`], a
/// stream cut short inside a chunk ends quietly and [`Reader::end`]
/// reports [`End::Truncated`].
///
/// ```
/// # fn main() -> Result<(), gamefmt::stream::ReadError> {
/// # let field = |s: &[u8], n: usize| { let mut f = s.to_vec(); f.resize(n, 0); f };
/// # let mut demo = b"TWDEMO\0\x05".to_vec();
/// # demo.extend(field(b"0.6 626fce9a778df4d4", 64));
/// # demo.extend(field(b"dm1", 64));
/// # demo.extend([0; 8]);
/// # demo.extend(field(b"client", 8));
/// # demo.extend(1i32.to_be_bytes());
/// # demo.extend(field(b"2026-01-01_00-00-00", 20));
/// # demo.extend([0; 260]);
/// # demo.extend([0xC0, 0, 0, 0, 100, 0x23, 0x2B, 0x6E, 0x00, 0xA1]);
/// use gamefmt::demo::{Chunk, Reader};
/// use gamefmt::stream::End;
///
/// let mut reader = Reader::new(&demo[..])?; // any io::Read
/// assert_eq!(reader.header().map_name(), "dm1");
/// let mut ticks = Vec::new();
/// while let Some(chunk) = reader.next() {
///     if let Chunk::Tick { tick, .. } = chunk? {
///         ticks.push(tick);
///     }
/// }
/// assert_eq!((ticks, reader.end()), (vec![100, 101], End::Complete));
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Reader<R> {
    chunks: stream::Reader<R, Decoder>,
    header: DemoHeader,
}

impl<R: io::Read> Reader<R> {
    /// Reads the header and skips the embedded map, with a buffer that
    /// grows as chunks need (up to twice [`MAX_CHUNK`](super::MAX_CHUNK)).
    ///
    /// # Errors
    /// Reading fails, the header is invalid, or the file ends inside the
    /// header or the map.
    pub fn new(source: R) -> Result<Self, ReadError> {
        Self::prelude(stream::Reader::with_decoder(
            source,
            Decoder::new(MIN_VERSION, 0),
        ))
    }

    /// As [`Reader::new`], with a fixed buffer of `capacity` bytes, which
    /// must hold the header ([`DemoHeader::MAX_LEN`] bytes) and the demo's
    /// largest chunk (at most [`MAX_CHUNK`](super::MAX_CHUNK) bytes): a longer chunk fails
    /// with [`ErrorKind::BufferTooSmall`](crate::ErrorKind::BufferTooSmall).
    ///
    /// # Errors
    /// As [`Reader::new`], and
    /// [`ErrorKind::BufferTooSmall`](crate::ErrorKind::BufferTooSmall) for
    /// a `capacity` below [`DemoHeader::MAX_LEN`].
    pub fn with_capacity(source: R, capacity: usize) -> Result<Self, ReadError> {
        if capacity < DemoHeader::MAX_LEN {
            let needed = DemoHeader::MAX_LEN;
            let kind = ErrorKind::BufferTooSmall { needed };
            return Err(ReadError::Decode(Error::new(kind, 0)));
        }
        let decoder = Decoder::new(MIN_VERSION, 0);
        Self::prelude(stream::Reader::with_decoder_and_capacity(
            source, decoder, capacity,
        ))
    }

    /// Reads the header and skips the map, then sets the chunk decoder.
    fn prelude(chunks: stream::Reader<R, Decoder>) -> Result<Self, ReadError> {
        let mut this = Self {
            chunks,
            header: DemoHeader::EMPTY,
        };
        let head = this.chunks.fill_to(DemoHeader::MAX_LEN)?;
        this.header
            .parse_in_place(head)
            .map_err(ReadError::Decode)?;
        this.chunks.skip(this.header.chunks_offset(), 0)?;
        this.chunks.set_decoder(this.header.chunk_decoder());
        Ok(this)
    }

    /// The demo header.
    #[must_use]
    pub const fn header(&self) -> &DemoHeader {
        &self.header
    }

    /// The next chunk, `None` at the end of the stream (see
    /// [`Reader::end`]). Fused after an error.
    #[allow(
        clippy::should_implement_trait,
        reason = "records borrow the buffer: a lending `next`, which `Iterator` cannot express"
    )]
    pub fn next(&mut self) -> Option<Result<Chunk<'_>, ReadError>> {
        self.chunks.next()
    }

    /// How the chunk stream ended (meaningful once [`Reader::next`]
    /// returned `None` or an error).
    #[must_use]
    pub fn end(&self) -> End {
        self.chunks.end()
    }

    /// File offset of the next chunk.
    #[must_use]
    pub fn offset(&self) -> usize {
        self.chunks.offset()
    }
}
