//! What the three push decoders (teehistorian, Slippi, demo chunks) share:
//! how a stream ended, and the mapping of gamefmt's `Decoded` answer to a
//! status.

use core::ffi::c_char;

use gamefmt::Error;
use gamefmt::stream::{Decoded, End};

use crate::error::{GamefmtError, GamefmtStatus, error_struct, fail};
use crate::opaque::out;
use crate::text::write_display;

/// How a stream ended (gamefmt's `stream::End`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GamefmtEndKind {
    /// The end marker was decoded.
    #[default]
    Complete,
    /// The input ended between two records, without the end marker.
    Eof,
    /// The input ended inside a record (`offset`: where it starts).
    Truncated,
    /// Decoding failed (`error`).
    Damaged,
}

/// How a stream ended, from `gamefmt_th_end`, `gamefmt_slp_end` or
/// `gamefmt_demo_end`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct GamefmtEnd {
    /// Which ending.
    pub kind: GamefmtEndKind,
    /// For `Truncated`: the offset of the cut record; for `Damaged`: the
    /// error's offset.
    pub offset: u64,
    /// The ending's name (`complete`, `eof`, `truncated`, `damaged`),
    /// NUL-terminated.
    pub name: [c_char; 16],
    /// For `Damaged`: the error.
    pub error: GamefmtError,
}

impl GamefmtEnd {
    pub(crate) fn new(end: End) -> Self {
        let mut out = Self::default();
        write_display(&mut out.name, &end.name());
        match end {
            End::Complete => {}
            End::Eof => out.kind = GamefmtEndKind::Eof,
            End::Truncated { offset } => {
                out.kind = GamefmtEndKind::Truncated;
                out.offset = offset as u64;
            }
            End::Damaged(e) => {
                out.kind = GamefmtEndKind::Damaged;
                out.offset = e.offset as u64;
                out.error = error_struct(&e);
            }
        }
        out
    }
}

/// Writes how a stream ended (`None`: the decoder was not set up) to
/// `dst`.
pub(crate) fn end_status(end: Option<End>, dst: *mut GamefmtEnd) -> GamefmtStatus {
    match end {
        Some(end) if out(dst, GamefmtEnd::new(end)) => GamefmtStatus::Ok,
        _ => GamefmtStatus::NullPointer,
    }
}

/// A push decoder's answer without its record: the status, the bytes
/// consumed and, after `NeedMore`, the input length needed (0: unknown).
pub(crate) struct Answer<T> {
    pub(crate) status: GamefmtStatus,
    pub(crate) record: Option<T>,
    pub(crate) consumed: usize,
    pub(crate) needed: usize,
}

/// Splits a decoder's result, reporting an error through `err`.
pub(crate) fn answer<T>(result: Result<Decoded<T>, Error>, err: *mut GamefmtError) -> Answer<T> {
    let (status, record, consumed, needed) = match result {
        Ok(Decoded::Record { record, consumed }) => (GamefmtStatus::Ok, Some(record), consumed, 0),
        Ok(Decoded::NeedMore { needed }) => (GamefmtStatus::NeedMore, None, 0, needed.unwrap_or(0)),
        Ok(Decoded::Done { consumed }) => (GamefmtStatus::Done, None, consumed, 0),
        Err(e) => (fail(err, &e), None, 0, 0),
    };
    Answer {
        status,
        record,
        consumed,
        needed,
    }
}
