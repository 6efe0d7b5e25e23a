//! The one error type shared by every decoder in the crate.
//!
//! [`Error`] is small and `Copy`: a [`ErrorKind`] saying what went wrong and
//! the byte offset in the input where decoding failed. It never allocates.

use core::fmt;

/// What went wrong while decoding.
///
/// New kinds may be added in minor releases, so match with a wildcard arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended before a complete structure could be read.
    Truncated,
    /// The input does not start with the format's magic bytes.
    BadMagic,
    /// The format version is not one this crate decodes.
    UnsupportedVersion(i64),
    /// An offset, index or length points outside the input or its section.
    OutOfBounds,
    /// A packed (variable-width) integer is malformed or cut short.
    InvalidVarint,
    /// A string is not valid UTF-8 or is not terminated as the format requires.
    InvalidString,
    /// A caller-provided buffer is too small; `needed` bytes or elements
    /// (as documented by the function) are required.
    BufferTooSmall {
        /// How many bytes or elements the buffer must hold.
        needed: usize,
    },
    /// A compressed stream is invalid or does not inflate to its declared size.
    Decompress,
    /// A structural rule of the format is violated; the text names the rule.
    Corrupt(&'static str),
    /// The input is a valid container holding an old layout that this crate
    /// recognises but does not decode (e.g. 2007-era Teeworlds maps).
    LegacyLayout,
    /// A strict parse refused a quirk that the default (lenient) parse reads
    /// with a [`Warning`](crate::warning::Warning) of this kind.
    Refused(crate::warning::WarningKind),
}

impl ErrorKind {
    /// The kind's name, snake_case: `truncated`, `bad_magic`,
    /// `unsupported_version`, `out_of_bounds`, `invalid_varint`,
    /// `invalid_string`, `buffer_too_small`, `decompress`, `corrupt`,
    /// `legacy_layout`, `refused`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Truncated => "truncated",
            Self::BadMagic => "bad_magic",
            Self::UnsupportedVersion(_) => "unsupported_version",
            Self::OutOfBounds => "out_of_bounds",
            Self::InvalidVarint => "invalid_varint",
            Self::InvalidString => "invalid_string",
            Self::BufferTooSmall { .. } => "buffer_too_small",
            Self::Decompress => "decompress",
            Self::Corrupt(_) => "corrupt",
            Self::LegacyLayout => "legacy_layout",
            Self::Refused(_) => "refused",
        }
    }
}

/// A decoding error: what went wrong and where.
///
/// `offset` is the byte position in the decoded input (the whole file, for
/// file-level views) at which decoding failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Error {
    /// What went wrong.
    pub kind: ErrorKind,
    /// Byte offset in the input where decoding failed.
    pub offset: usize,
}

impl Error {
    /// An error of `kind` at byte `offset`.
    #[must_use]
    pub const fn new(kind: ErrorKind, offset: usize) -> Self {
        Self { kind, offset }
    }

    /// The input ended at `offset` before a complete structure.
    #[must_use]
    pub const fn truncated(offset: usize) -> Self {
        Self::new(ErrorKind::Truncated, offset)
    }

    /// A structural rule named by `what` is violated at `offset`.
    #[must_use]
    pub const fn corrupt(what: &'static str, offset: usize) -> Self {
        Self::new(ErrorKind::Corrupt(what), offset)
    }

    /// The same error with `base` added to its offset, for errors found in a
    /// sub-slice that starts `base` bytes into the input. Saturates instead
    /// of overflowing.
    #[must_use]
    pub const fn shifted(self, base: usize) -> Self {
        Self::new(self.kind, self.offset.saturating_add(base))
    }
}

/// The error a strict parse reports for a quirk: [`ErrorKind::Refused`] at
/// the warning's offset.
impl From<crate::warning::Warning> for Error {
    fn from(w: crate::warning::Warning) -> Self {
        Self::new(ErrorKind::Refused(w.kind), w.offset)
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Truncated => f.write_str("input ends inside a structure"),
            Self::BadMagic => f.write_str("bad magic bytes"),
            Self::UnsupportedVersion(v) => write!(f, "unsupported version {v}"),
            Self::OutOfBounds => f.write_str("offset or length out of bounds"),
            Self::InvalidVarint => f.write_str("invalid packed integer"),
            Self::InvalidString => f.write_str("invalid string"),
            Self::BufferTooSmall { needed } => {
                write!(f, "buffer too small: {needed} needed")
            }
            Self::Decompress => f.write_str("invalid compressed data"),
            Self::Corrupt(what) => write!(f, "corrupt: {what}"),
            Self::LegacyLayout => f.write_str("legacy layout, recognised but not decoded"),
            Self::Refused(quirk) => write!(f, "refused in strict mode: {quirk}"),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte offset {}", self.kind, self.offset)
    }
}

impl core::error::Error for Error {}

/// Result type of every fallible decoding function in the crate.
pub type Result<T, E = Error> = core::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn display_names_kind_and_offset() {
        let e = Error::corrupt("item offsets not increasing", 52);
        assert_eq!(
            format_args!("{e}").to_string(),
            "corrupt: item offsets not increasing at byte offset 52"
        );
        let e = Error::new(ErrorKind::BufferTooSmall { needed: 7 }, 0);
        assert_eq!(
            format_args!("{e}").to_string(),
            "buffer too small: 7 needed at byte offset 0"
        );
    }

    #[test]
    fn shifted_saturates() {
        assert_eq!(Error::truncated(5).shifted(10).offset, 15);
        assert_eq!(Error::truncated(usize::MAX).shifted(1).offset, usize::MAX);
    }
}
