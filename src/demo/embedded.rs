//! A demo's header and chunks from an `embedded-io` byte source through
//! the caller's buffer: [`EmbeddedReader`] (feature `embedded-io`) and
//! [`AsyncReader`] (feature `embedded-io-async`), the demo forms of
//! [`stream::EmbeddedReader`] and [`stream::AsyncReader`].
//!
//! ```
//! # let field = |s: &[u8], n: usize| { let mut f = s.to_vec(); f.resize(n, 0); f };
//! # let mut demo = b"TWDEMO\0\x05".to_vec();
//! # demo.extend(field(b"0.6 626fce9a778df4d4", 64));
//! # demo.extend(field(b"dm1", 64));
//! # demo.extend([0; 8]);
//! # demo.extend(field(b"client", 8));
//! # demo.extend(1i32.to_be_bytes());
//! # demo.extend(field(b"2026-01-01_00-00-00", 20));
//! # demo.extend([0; 260]);
//! # demo.extend([0xC0, 0, 0, 0, 100, 0x23, 0x2B, 0x6E, 0x00, 0xA1]);
//! use gamefmt::demo::{Chunk, EmbeddedReader};
//! use gamefmt::stream::End;
//!
//! let mut buf = [0u8; 4096]; // the header and the demo's largest chunk
//! let mut reader = EmbeddedReader::new(&demo[..], &mut buf)?; // any embedded_io::Read
//! assert_eq!(reader.header().map_name(), "dm1");
//! let mut ticks = 0;
//! while let Some(chunk) = reader.next() {
//!     if let Chunk::Tick { .. } = chunk? {
//!         ticks += 1;
//!     }
//! }
//! assert_eq!((ticks, reader.end()), (2, End::Complete));
//! # Ok::<(), gamefmt::stream::ReadError<core::convert::Infallible>>(())
//! ```

use super::chunk::{Chunk, Decoder};
use super::view::{DemoHeader, MIN_VERSION};
use crate::error::{Error, ErrorKind};
use crate::stream::{self, End, ReadError};

/// Fails unless `buf_len` holds the header.
fn check_buffer<E>(buf_len: usize) -> Result<(), ReadError<E>> {
    if buf_len < DemoHeader::MAX_LEN {
        let kind = ErrorKind::BufferTooSmall {
            needed: DemoHeader::MAX_LEN,
        };
        return Err(ReadError::Decode(Error::new(kind, 0)));
    }
    Ok(())
}

/// A demo from an `embedded_io::Read`: the header, then its chunks (the
/// embedded map is skipped), through the caller's buffer, which must hold
/// the header ([`DemoHeader::MAX_LEN`] bytes) and the demo's largest chunk
/// (at most [`MAX_CHUNK`](super::MAX_CHUNK) bytes; a longer one fails with
/// [`ErrorKind::BufferTooSmall`]). No allocation.
#[cfg(feature = "embedded-io")]
#[derive(Debug)]
pub struct EmbeddedReader<'b, R> {
    chunks: stream::EmbeddedReader<'b, R, Decoder>,
    header: DemoHeader,
}

#[cfg(feature = "embedded-io")]
impl<'b, R: embedded_io::Read> EmbeddedReader<'b, R> {
    /// Reads the header and skips the embedded map.
    ///
    /// # Errors
    /// Reading fails, the header is invalid, the file ends inside the
    /// header or the map, or `buf` is shorter than the header.
    pub fn new(source: R, buf: &'b mut [u8]) -> Result<Self, ReadError<R::Error>> {
        check_buffer(buf.len())?;
        let decoder = Decoder::new(MIN_VERSION, 0);
        let mut this = Self {
            chunks: stream::EmbeddedReader::with_decoder(source, buf, decoder),
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

    /// The next chunk, `None` at the end of the stream. Fused after an
    /// error.
    #[allow(
        clippy::should_implement_trait,
        reason = "records borrow the buffer: a lending `next`, which `Iterator` cannot express"
    )]
    pub fn next(&mut self) -> Option<Result<Chunk<'_>, ReadError<R::Error>>> {
        self.chunks.next()
    }

    /// How the chunk stream ended.
    #[must_use]
    pub fn end(&self) -> End {
        self.chunks.end()
    }
}

/// [`EmbeddedReader`] over an `embedded_io_async::Read`.
#[cfg(feature = "embedded-io-async")]
#[derive(Debug)]
pub struct AsyncReader<'b, R> {
    chunks: stream::AsyncReader<'b, R, Decoder>,
    header: DemoHeader,
}

#[cfg(feature = "embedded-io-async")]
impl<'b, R: embedded_io_async::Read> AsyncReader<'b, R> {
    /// Reads the header and skips the embedded map.
    ///
    /// # Errors
    /// As [`EmbeddedReader::new`].
    pub async fn new(source: R, buf: &'b mut [u8]) -> Result<Self, ReadError<R::Error>> {
        check_buffer(buf.len())?;
        let decoder = Decoder::new(MIN_VERSION, 0);
        let mut this = Self {
            chunks: stream::AsyncReader::with_decoder(source, buf, decoder),
            header: DemoHeader::EMPTY,
        };
        let head = this.chunks.fill_to(DemoHeader::MAX_LEN).await?;
        this.header
            .parse_in_place(head)
            .map_err(ReadError::Decode)?;
        this.chunks.skip(this.header.chunks_offset(), 0).await?;
        this.chunks.set_decoder(this.header.chunk_decoder());
        Ok(this)
    }

    /// The demo header.
    #[must_use]
    pub const fn header(&self) -> &DemoHeader {
        &self.header
    }

    /// The next chunk, `None` at the end of the stream. Fused after an
    /// error.
    pub async fn next(&mut self) -> Option<Result<Chunk<'_>, ReadError<R::Error>>> {
        self.chunks.next().await
    }

    /// How the chunk stream ended.
    #[must_use]
    pub fn end(&self) -> End {
        self.chunks.end()
    }
}
