//! Status codes and the error struct: the one error convention of the C
//! ABI (see the crate documentation).
//!
//! ```
//! use gamefmt_ffi::*;
//! let mut err = GamefmtError::default();
//! // SAFETY: `err` is a live local; the NULL output is the point.
//! let st = unsafe { gamefmt_snapshot_parse([0u8; 8].as_ptr(), 8, core::ptr::null_mut(), &mut err) };
//! assert_eq!((st, err.status), (GamefmtStatus::NullPointer, GamefmtStatus::NullPointer));
//! ```

use core::ffi::c_char;

use gamefmt::{Error, ErrorKind};

use crate::text::write_display;

/// The answer of every fallible function: `GAMEFMT_STATUS_OK`, a stream status
/// (`GAMEFMT_STATUS_NEED_MORE`, `GAMEFMT_STATUS_DONE`, `GAMEFMT_STATUS_ABSENT`) or an error code
/// (negative), one per kind of decoding error.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GamefmtStatus {
    /// Success; for a push decoder: one record was decoded.
    #[default]
    Ok = 0,
    /// A push decoder needs more input (nothing was consumed). Not an error.
    NeedMore = 1,
    /// A push decoder reached the end of the stream. Not an error.
    Done = 2,
    /// The value asked for is not in the input (an optional field). Not an
    /// error.
    Absent = 3,
    /// The input ended before a complete structure.
    Truncated = -1,
    /// The input does not start with the format's magic bytes.
    BadMagic = -2,
    /// A format version this library does not decode (`detail`: the version).
    UnsupportedVersion = -3,
    /// An offset, index or length points outside the input.
    OutOfBounds = -4,
    /// A packed integer is malformed.
    InvalidVarint = -5,
    /// A string is not valid UTF-8 or not terminated.
    InvalidString = -6,
    /// A caller buffer is too small (`detail`: the size needed, in the
    /// unit the function documents).
    BufferTooSmall = -7,
    /// Compressed data does not inflate to its declared size.
    Decompress = -8,
    /// A structural rule of the format is violated (the message names it).
    Corrupt = -9,
    /// An old layout recognised but not decoded (2007-era maps).
    LegacyLayout = -10,
    /// A strict parse refused a quirk (the message names it).
    Refused = -11,
    /// A required pointer argument was `NULL`.
    NullPointer = -12,
    /// Writing failed: a demo recorder's file or write callback (`detail`:
    /// `errno` or the callback's answer).
    Io = -13,
}

/// The details of a failure, filled by every fallible function whose last
/// argument points to one (it may be `NULL`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GamefmtError {
    /// The status the function returned.
    pub status: GamefmtStatus,
    /// Byte offset in the caller's input (the whole stream, for push
    /// decoders) where decoding failed.
    pub offset: u64,
    /// The version for `GAMEFMT_STATUS_UNSUPPORTED_VERSION`, the size needed for
    /// `GAMEFMT_STATUS_BUFFER_TOO_SMALL`, otherwise 0.
    pub detail: i64,
    /// The error as text, NUL-terminated (cut to fit).
    pub message: [c_char; GAMEFMT_MESSAGE_LEN],
}

/// Bytes of [`GamefmtError::message`] and [`GamefmtWarning::message`],
/// NUL included.
pub const GAMEFMT_MESSAGE_LEN: usize = 128;

impl Default for GamefmtError {
    fn default() -> Self {
        Self {
            status: GamefmtStatus::Ok,
            offset: 0,
            detail: 0,
            message: [0; GAMEFMT_MESSAGE_LEN],
        }
    }
}

/// The status code of an error kind.
/// (`ErrorKind` is non-exhaustive: a kind added later reads as
/// `GAMEFMT_STATUS_CORRUPT` until it gets a code.)
const fn status(kind: ErrorKind) -> GamefmtStatus {
    match kind {
        ErrorKind::Truncated => GamefmtStatus::Truncated,
        ErrorKind::BadMagic => GamefmtStatus::BadMagic,
        ErrorKind::UnsupportedVersion(_) => GamefmtStatus::UnsupportedVersion,
        ErrorKind::OutOfBounds => GamefmtStatus::OutOfBounds,
        ErrorKind::InvalidVarint => GamefmtStatus::InvalidVarint,
        ErrorKind::InvalidString => GamefmtStatus::InvalidString,
        ErrorKind::BufferTooSmall { .. } => GamefmtStatus::BufferTooSmall,
        ErrorKind::Decompress => GamefmtStatus::Decompress,
        ErrorKind::Corrupt(_) => GamefmtStatus::Corrupt,
        ErrorKind::LegacyLayout => GamefmtStatus::LegacyLayout,
        ErrorKind::Refused(_) => GamefmtStatus::Refused,
        _ => GamefmtStatus::Corrupt,
    }
}

/// The struct a gamefmt error becomes.
pub(crate) fn error_struct(e: &Error) -> GamefmtError {
    let detail = match e.kind {
        ErrorKind::UnsupportedVersion(v) => v,
        ErrorKind::BufferTooSmall { needed } => i64::try_from(needed).unwrap_or(i64::MAX),
        _ => 0,
    };
    let mut out = GamefmtError {
        status: status(e.kind),
        offset: e.offset as u64,
        detail,
        ..GamefmtError::default()
    };
    write_display(&mut out.message, e);
    out
}

/// Reports `e` through `err` (when not `NULL`) and returns its status.
pub(crate) fn fail(err: *mut GamefmtError, e: &Error) -> GamefmtStatus {
    let details = error_struct(e);
    report(err, details)
}

/// Reports a `NULL` argument through `err`.
pub(crate) fn null(err: *mut GamefmtError) -> GamefmtStatus {
    let mut details = GamefmtError {
        status: GamefmtStatus::NullPointer,
        ..GamefmtError::default()
    };
    write_display(&mut details.message, &"a required pointer argument is NULL");
    report(err, details)
}

fn report(err: *mut GamefmtError, details: GamefmtError) -> GamefmtStatus {
    // SAFETY: the caller passes NULL or a pointer to a writable
    // GamefmtError (the crate's contract); `as_mut` rules out NULL.
    if let Some(err) = unsafe { err.as_mut() } {
        *err = details;
    }
    details.status
}

/// Returns a status from a `Result`, reporting the error through `err`.
pub(crate) fn status_of(result: Result<(), Error>, err: *mut GamefmtError) -> GamefmtStatus {
    match result {
        Ok(()) => GamefmtStatus::Ok,
        Err(e) => fail(err, &e),
    }
}
