//! [`Reader`]: records of any stream format from an `io::Read` (feature
//! `std`).

use std::io;
use std::vec::Vec;

use super::refill::{ByteSource, Refill};
use super::{Decoder, End, ReadError};

/// The buffer [`Reader::with_decoder`] starts with: 16 KiB.
pub const DEFAULT_CAPACITY: usize = 16 << 10;

impl From<ReadError> for io::Error {
    /// The I/O error itself, or an `InvalidData` error wrapping the
    /// decoding error.
    fn from(e: ReadError) -> Self {
        match e {
            ReadError::Io(e) => e,
            ReadError::Decode(e) => Self::new(io::ErrorKind::InvalidData, e),
        }
    }
}

/// An `io::Read` as a byte source: retries when interrupted.
#[derive(Debug)]
pub(crate) struct Io<'r, R>(pub(crate) &'r mut R);

impl<R: io::Read> ByteSource for Io<'_, R> {
    type Error = io::Error;

    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            match self.0.read(buf) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                other => return other,
            }
        }
    }
}

/// Reads a stream of any format from an `io::Read` through one buffer,
/// lending one record at a time: the records of the format's push
/// decoder `D` (for each format, `<format>::Reader<R>` names this type and
/// has its own `new`).
///
/// The buffer either has a fixed size ([`Reader::with_decoder_and_capacity`]:
/// memory stays constant whatever the file size; a record longer than the
/// buffer fails with
/// [`ErrorKind::BufferTooSmall`](crate::ErrorKind::BufferTooSmall), unless
/// the format delivers it in pieces), or starts at [`DEFAULT_CAPACITY`] and
/// grows when a record does not fit, up to twice the format's largest
/// record ([`Decoder::MAX_RECORD`]), then fails the same way.
///
/// It reads only when the bytes it holds do not make a whole record, so a
/// record that has arrived is returned without waiting for more (a live
/// source). Errors carry offsets from the start of the source. After the
/// last record, [`Reader::end`] tells how the stream ended
/// ([the truncation rule](super#the-truncation-rule)). Not an
/// `Iterator`: each record borrows the buffer until the next call.
///
/// ```
/// use gamefmt::slippi::{Item, Reader, SAMPLE};
/// use gamefmt::stream::End;
///
/// let mut reader = Reader::new(SAMPLE); // any io::Read
/// let mut events = 0;
/// while let Some(item) = reader.next() {
///     if let Item::Event(_) = item? {
///         events += 1;
///     }
/// }
/// assert_eq!((events, reader.end()), (9, End::Complete));
/// # Ok::<(), gamefmt::stream::ReadError>(())
/// ```
#[derive(Debug)]
pub struct Reader<R, D> {
    source: R,
    core: Refill<Vec<u8>, D>,
}

impl<R: io::Read, D: Decoder> Reader<R, D> {
    /// A reader whose buffer starts at [`DEFAULT_CAPACITY`] bytes and grows
    /// up to `2 * D::MAX_RECORD`.
    pub fn with_decoder(source: R, decoder: D) -> Self {
        let limit = D::MAX_RECORD.saturating_mul(2);
        let start = DEFAULT_CAPACITY.min(limit);
        Self {
            source,
            core: Refill::new(std::vec![0; start], limit, decoder),
        }
    }

    /// A reader with a fixed buffer of `capacity` bytes (at least 16).
    pub fn with_decoder_and_capacity(source: R, decoder: D, capacity: usize) -> Self {
        let capacity = capacity.max(16);
        Self {
            source,
            core: Refill::new(std::vec![0; capacity], capacity, decoder),
        }
    }

    /// The next record, borrowed from the buffer until the next call;
    /// `None` at the end of the stream (see [`Reader::end`]). Fused after
    /// an error.
    #[allow(
        clippy::should_implement_trait,
        reason = "records borrow the buffer: a lending `next`, which `Iterator` cannot express"
    )]
    pub fn next(&mut self) -> Option<Result<D::Record<'_>, ReadError>> {
        let mut src = Io(&mut self.source);
        self.core.next(&mut src)
    }

    /// How the stream ended (meaningful once [`Reader::next`] returned
    /// `None` or an error; before that, as if the input ended now).
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

    /// The buffer's current length.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.core.capacity()
    }
}
