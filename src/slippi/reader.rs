//! [`Reader`]: `.slp` records from any `io::Read`, through the one
//! generic [`stream::Reader`].

use std::io;

use super::decoder::Decoder;
use crate::stream;

/// Reads a `.slp` stream from `R` and lends one [`super::Item`] at a time:
/// [`stream::Reader`] with the Slippi [`Decoder`] (see it for buffering,
/// errors and endings). The largest record is
/// [`MAX_RECORD`](super::MAX_RECORD).
pub type Reader<R> = stream::Reader<R, Decoder>;

impl<R: io::Read> stream::Reader<R, Decoder> {
    /// A reader whose buffer grows as records need, up to twice
    /// [`MAX_RECORD`](super::MAX_RECORD).
    pub fn new(source: R) -> Self {
        Self::with_decoder(source, Decoder::new())
    }

    /// A reader with a fixed `capacity`-byte buffer; a record longer than
    /// it fails with [`ErrorKind::BufferTooSmall`](crate::ErrorKind::BufferTooSmall).
    pub fn with_capacity(source: R, capacity: usize) -> Self {
        Self::with_decoder_and_capacity(source, Decoder::new(), capacity)
    }
}
