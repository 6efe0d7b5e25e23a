//! [`ReadError`]: why a reader failed, whatever its byte source.

use crate::error::Error;

/// The byte source error a [`ReadError`] carries unless told otherwise:
/// `std::io::Error` with feature `std` (the [`Reader`](super::Reader)'s),
/// else `Infallible`.
#[cfg(feature = "std")]
pub type DefaultSourceError = std::io::Error;
/// The byte source error a [`ReadError`] carries unless told otherwise:
/// `std::io::Error` with feature `std` (the `Reader`'s), else `Infallible`.
#[cfg(not(feature = "std"))]
pub type DefaultSourceError = core::convert::Infallible;

/// Why a reader failed: its byte source (`E`: `io::Error` for the std
/// [`Reader`](super::Reader), the source's `embedded_io` error for the
/// embedded readers), or the stream itself.
#[derive(Debug)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ReadError<E = DefaultSourceError> {
    /// Reading from the source failed.
    Io(E),
    /// The stream is invalid, or a record does not fit the buffer
    /// ([`ErrorKind::BufferTooSmall`](crate::ErrorKind::BufferTooSmall)).
    /// The offset counts from the start of the source.
    Decode(Error),
}

impl<E> ReadError<E> {
    /// The decoding error, if that is what this is.
    #[must_use]
    pub const fn decode_error(&self) -> Option<Error> {
        match self {
            Self::Io(_) => None,
            Self::Decode(e) => Some(*e),
        }
    }
}

impl<E> core::fmt::Display for ReadError<E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Io(_) => f.write_str("reading the stream failed"),
            Self::Decode(_) => f.write_str("decoding the stream failed"),
        }
    }
}

impl<E: core::error::Error + 'static> core::error::Error for ReadError<E> {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            Self::Io(e) => Some(e),
            Self::Decode(e) => Some(e),
        }
    }
}
