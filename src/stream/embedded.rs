//! Readers over `embedded-io` byte sources with a caller's buffer:
//! [`EmbeddedReader`] (`embedded_io::Read`, feature `embedded-io`) and
//! [`AsyncReader`] (`embedded_io_async::Read`, feature
//! `embedded-io-async`). They run the same refill loop as the std
//! [`Reader`](super::Reader), never allocate, and never grow the buffer:
//! a record longer than it fails with
//! [`ErrorKind::BufferTooSmall`](crate::ErrorKind::BufferTooSmall),
//! except a teehistorian header, which comes in pieces.
//!
//! ```
//! use gamefmt::stream::{EmbeddedReader, End};
//! use gamefmt::teehistorian::{Decoder, Item, SAMPLE};
//!
//! let mut buf = [0u8; 4096]; // on a microcontroller: a static buffer
//! let source = SAMPLE; // any embedded_io::Read: flash, SD card, UART
//! let mut reader = EmbeddedReader::with_decoder(source, &mut buf, Decoder::new());
//! let mut messages = 0;
//! while let Some(item) = reader.next() {
//!     if let Item::Message(_) = item? {
//!         messages += 1;
//!     }
//! }
//! assert_eq!(reader.end(), End::Complete);
//! # assert!(messages > 0);
//! # Ok::<(), gamefmt::stream::ReadError<core::convert::Infallible>>(())
//! ```

use super::refill::{ByteSource, Refill};
use super::{Decoder, End, ReadError};

/// An `embedded_io::Read` as a byte source.
#[cfg(feature = "embedded-io")]
struct Blocking<'r, R>(&'r mut R);

#[cfg(feature = "embedded-io")]
impl<R: embedded_io::Read> ByteSource for Blocking<'_, R> {
    type Error = R::Error;

    fn read(&mut self, buf: &mut [u8]) -> Result<usize, R::Error> {
        self.0.read(buf)
    }
}

/// Reads a stream of any format from an `embedded_io::Read` through the
/// caller's buffer, lending one record at a time (the records of the
/// format's push decoder `D`).
///
/// Memory is the buffer and the decoder: nothing is allocated and the
/// buffer never grows. It holds the longest record of the stream: 4 KiB
/// is enough for teehistorian and Slippi files (a longer teehistorian
/// header is delivered in pieces, as
/// [`Item::HeaderPiece`](crate::teehistorian::Item::HeaderPiece)); a demo
/// needs its header and largest chunk (its map comes in pieces, see
/// [`crate::demo::Decoder`]).
/// Otherwise it behaves as the std [`Reader`](super::Reader): same
/// records, same [`End`], file offsets in errors.
#[cfg(feature = "embedded-io")]
#[derive(Debug)]
pub struct EmbeddedReader<'b, R, D> {
    source: R,
    core: Refill<&'b mut [u8], D>,
}

#[cfg(feature = "embedded-io")]
impl<'b, R: embedded_io::Read, D: Decoder> EmbeddedReader<'b, R, D> {
    /// A reader of `source` through `buf`, decoding with `decoder`.
    pub fn with_decoder(source: R, buf: &'b mut [u8], decoder: D) -> Self {
        let limit = buf.len();
        Self {
            source,
            core: Refill::new(buf, limit, decoder),
        }
    }

    /// The next record, borrowed from the buffer until the next call;
    /// `None` at the end of the stream (see [`EmbeddedReader::end`]).
    /// Fused after an error.
    #[allow(
        clippy::should_implement_trait,
        reason = "records borrow the buffer: a lending `next`, which `Iterator` cannot express"
    )]
    pub fn next(&mut self) -> Option<Result<D::Record<'_>, ReadError<R::Error>>> {
        self.core.next(&mut Blocking(&mut self.source))
    }

    /// How the stream ended (meaningful once [`EmbeddedReader::next`]
    /// returned `None` or an error).
    #[must_use]
    pub fn end(&self) -> End {
        self.core.end()
    }

    /// The decoder's state.
    #[must_use]
    pub const fn decoder(&self) -> &D {
        self.core.decoder()
    }

    /// The facts of the stream's header, once it came as the first record;
    /// `None` before (see [the header-first
    /// rule](crate::stream#the-header-first-rule)).
    #[must_use]
    pub fn header(&self) -> Option<&D::Header> {
        self.core.decoder().header()
    }

    /// The offset in the source of the next byte to decode.
    #[must_use]
    pub fn offset(&self) -> usize {
        self.core.decoder().offset()
    }
}

/// [`EmbeddedReader`] over an `embedded_io_async::Read`: the same refill
/// steps, each read awaited.
#[cfg(feature = "embedded-io-async")]
#[derive(Debug)]
pub struct AsyncReader<'b, R, D> {
    source: R,
    core: Refill<&'b mut [u8], D>,
}

#[cfg(feature = "embedded-io-async")]
impl<'b, R: embedded_io_async::Read, D: Decoder> AsyncReader<'b, R, D> {
    /// A reader of `source` through `buf`, decoding with `decoder`.
    pub fn with_decoder(source: R, buf: &'b mut [u8], decoder: D) -> Self {
        let limit = buf.len();
        Self {
            source,
            core: Refill::new(buf, limit, decoder),
        }
    }

    /// Reads once into the buffer's free space.
    async fn read_once(&mut self) -> Result<(), ReadError<R::Error>> {
        let n = match self.core.space() {
            Some(space) => self.source.read(space).await.map_err(ReadError::Io)?,
            None => return Ok(()),
        };
        self.core.filled(n);
        Ok(())
    }

    /// The next record, borrowed from the buffer until the next call;
    /// `None` at the end of the stream. Fused after an error.
    pub async fn next(&mut self) -> Option<Result<D::Record<'_>, ReadError<R::Error>>> {
        while let Some(want) = self.core.want_record() {
            while self.core.short_of(want) {
                if let Err(e) = self.read_once().await {
                    self.core.read_failed();
                    return Some(Err(e));
                }
            }
        }
        Some(self.core.take()?.map_err(ReadError::Decode))
    }

    /// How the stream ended (meaningful once [`AsyncReader::next`]
    /// returned `None` or an error).
    #[must_use]
    pub fn end(&self) -> End {
        self.core.end()
    }

    /// The decoder's state.
    #[must_use]
    pub const fn decoder(&self) -> &D {
        self.core.decoder()
    }

    /// The facts of the stream's header, once it came as the first record;
    /// `None` before (see [the header-first
    /// rule](crate::stream#the-header-first-rule)).
    #[must_use]
    pub fn header(&self) -> Option<&D::Header> {
        self.core.decoder().header()
    }

    /// The offset in the source of the next byte to decode.
    #[must_use]
    pub fn offset(&self) -> usize {
        self.core.decoder().offset()
    }
}
