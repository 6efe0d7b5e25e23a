//! [`Error`]: why an input could not be exported.

use std::fmt;
use std::io;

use arrow_schema::ArrowError;
use gamefmt::Format;
use parquet::errors::ParquetError;

use crate::Table;

/// Why an input could not be exported (or a table read).
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// Reading the input or writing the output failed.
    Io(io::Error),
    /// The first bytes match no format `gamefmt` reads.
    UnknownFormat,
    /// [`crate::table_reader`] was given an input of another format than
    /// its table's.
    WrongFormat {
        /// The table asked for.
        table: Table,
        /// The input's format.
        found: Format,
    },
    /// The input is invalid; [`Error::offset`] says where.
    Decode(gamefmt::Error),
    /// Building a batch or writing Arrow IPC failed.
    Arrow(ArrowError),
    /// Writing Parquet failed.
    Parquet(ParquetError),
}

impl Error {
    /// The byte offset in the (decompressed) input where decoding failed,
    /// for [`Error::Decode`].
    #[must_use]
    pub const fn offset(&self) -> Option<usize> {
        match self {
            Self::Decode(e) => Some(e.offset),
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io(e) => write!(f, "{e}"),
            Self::UnknownFormat => f.write_str("unrecognised file format"),
            Self::WrongFormat { table, found } => write!(
                f,
                "table {}/{} asked of a {found:?} file",
                table.format(),
                table.name()
            ),
            Self::Decode(e) => write!(f, "{e}"),
            Self::Arrow(e) => write!(f, "arrow: {e}"),
            Self::Parquet(e) => write!(f, "parquet: {e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Io(e) => Some(e),
            Self::Decode(e) => Some(e),
            Self::Arrow(e) => Some(e),
            Self::Parquet(e) => Some(e),
            Self::UnknownFormat | Self::WrongFormat { .. } => None,
        }
    }
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Self {
        Self::Io(e)
    }
}

impl From<gamefmt::Error> for Error {
    fn from(e: gamefmt::Error) -> Self {
        Self::Decode(e)
    }
}

impl From<gamefmt::stream::ReadError> for Error {
    fn from(e: gamefmt::stream::ReadError) -> Self {
        match e {
            gamefmt::stream::ReadError::Io(e) => Self::Io(e),
            gamefmt::stream::ReadError::Decode(e) => Self::Decode(e),
        }
    }
}

impl From<ArrowError> for Error {
    fn from(e: ArrowError) -> Self {
        Self::Arrow(e)
    }
}

impl From<ParquetError> for Error {
    fn from(e: ParquetError) -> Self {
        Self::Parquet(e)
    }
}
