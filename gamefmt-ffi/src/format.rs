//! Which format a file is, from its first bytes.
//!
//! ```
//! use gamefmt_ffi::*;
//! let file = gamefmt::teehistorian::SAMPLE;
//! // SAFETY: a pointer into `file` and its length.
//! assert_eq!(unsafe { gamefmt_detect(file.as_ptr(), file.len()) }, GamefmtFormat::Teehistorian);
//! ```

use gamefmt::Format;

use crate::opaque::bytes;

/// A file format gamefmt reads.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GamefmtFormat {
    /// Not one of these (or too few bytes to tell).
    Unknown,
    /// A Teeworlds/DDNet datafile (`.map` and others).
    Datafile,
    /// A Teeworlds/DDNet demo.
    Demo,
    /// A Slippi replay.
    Slippi,
    /// A DDNet teehistorian recording.
    Teehistorian,
}

/// The format of the file starting with `head[0..len]` (16 bytes suffice).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_detect(head: *const u8, len: usize) -> GamefmtFormat {
    match bytes(head, len).and_then(Format::detect) {
        Some(Format::Datafile) => GamefmtFormat::Datafile,
        Some(Format::Demo) => GamefmtFormat::Demo,
        Some(Format::Slippi) => GamefmtFormat::Slippi,
        Some(Format::Teehistorian) => GamefmtFormat::Teehistorian,
        _ => GamefmtFormat::Unknown,
    }
}
