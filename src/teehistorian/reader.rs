//! [`Reader`]: teehistorian records from any `io::Read`, through the one
//! generic [`stream::Reader`].

use std::io;

use super::decoder::Decoder;
use crate::stream;

/// Reads a teehistorian stream from `R` and lends one [`super::Item`] at a
/// time (the header, or its pieces when it is longer than a fixed buffer,
/// then every message): [`stream::Reader`] with the teehistorian
/// [`Decoder`] (see it for buffering, errors and endings). The largest
/// message is [`MAX_RECORD`](super::MAX_RECORD).
///
/// ```
/// use gamefmt::stream::End;
/// use gamefmt::teehistorian::{Item, Reader, SAMPLE};
///
/// let mut reader = Reader::new(SAMPLE); // any io::Read
/// let mut messages = 0;
/// while let Some(item) = reader.next() {
///     match item? {
///         Item::Header(header) => assert_eq!(header.version(), 2),
///         Item::Message(record) => messages += 1,
///         Item::HeaderPiece { .. } => unreachable!("the header fits"),
///     }
/// }
/// assert_eq!(reader.end(), End::Complete);
/// # assert!(messages > 0);
/// # Ok::<(), gamefmt::stream::ReadError>(())
/// ```
pub type Reader<R> = stream::Reader<R, Decoder>;

impl<R: io::Read> stream::Reader<R, Decoder> {
    /// A reader whose buffer grows as records need, up to twice
    /// [`MAX_RECORD`](super::MAX_RECORD).
    pub fn new(source: R) -> Self {
        Self::with_decoder(source, Decoder::new())
    }

    /// A reader with a fixed `capacity`-byte buffer: a message longer than
    /// it fails with [`ErrorKind::BufferTooSmall`](crate::ErrorKind::BufferTooSmall),
    /// a header longer than it comes in pieces.
    pub fn with_capacity(source: R, capacity: usize) -> Self {
        Self::with_decoder_and_capacity(source, Decoder::new(), capacity)
    }
}
