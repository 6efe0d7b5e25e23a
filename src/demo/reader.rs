//! [`Reader`]: a demo file from any `io::Read`, through the one generic
//! [`stream::Reader`].

use std::io;

use super::decoder::Decoder;
use crate::stream;

/// Reads a demo from `R` and lends one [`super::Item`] at a time (the
/// header, the embedded map in pieces, then every chunk, its payload still
/// compressed: see [`super::decode_payload`], and [`super::Reconstructor`]
/// for the snapshots): [`stream::Reader`] with the demo [`Decoder`] (see
/// it for buffering, errors and endings). Error offsets are file offsets;
/// as with [`super::DemoChunkIter`], a file cut short ends quietly and
/// `end()` reports [`End::Truncated`](crate::stream::End::Truncated).
///
/// ```
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
/// use gamefmt::demo::{Chunk, Item, Reader};
/// use gamefmt::stream::End;
///
/// let mut reader = Reader::new(&demo[..]); // any io::Read
/// assert!(reader.header().is_none()); // nothing read yet
/// let mut ticks = Vec::new();
/// while let Some(item) = reader.next() {
///     if let Item::Chunk(Chunk::Tick { tick, .. }) = item? {
///         ticks.push(tick);
///     }
/// }
/// assert_eq!(reader.header().map(|h| h.map_name()), Some("dm1"));
/// assert_eq!((ticks, reader.end()), (vec![100, 101], End::Complete));
/// # Ok::<(), gamefmt::stream::ReadError>(())
/// ```
pub type Reader<R> = stream::Reader<R, Decoder>;

impl<R: io::Read> stream::Reader<R, Decoder> {
    /// A reader whose buffer grows as chunks need, up to twice
    /// [`MAX_CHUNK`](super::MAX_CHUNK).
    pub fn new(source: R) -> Self {
        Self::with_decoder(source, Decoder::new())
    }

    /// A reader with a fixed `capacity`-byte buffer, which must hold the
    /// header (at most [`DemoHeader::MAX_LEN`](super::DemoHeader::MAX_LEN)
    /// bytes) and the demo's largest chunk (at most
    /// [`MAX_CHUNK`](super::MAX_CHUNK) bytes): a longer one fails with
    /// [`ErrorKind::BufferTooSmall`](crate::ErrorKind::BufferTooSmall). The
    /// map comes in pieces of any size.
    pub fn with_capacity(source: R, capacity: usize) -> Self {
        Self::with_decoder_and_capacity(source, Decoder::new(), capacity)
    }
}
