//! Datafiles (`.map` files and other Teeworlds/DDNet datafiles): open,
//! items, and data items inflated into a caller buffer.
//!
//! ```
//! use gamefmt_ffi::*;
//! let file = gamefmt::datafile::SAMPLE;
//! let (mut df, mut info) = (GamefmtDatafile::default(), GamefmtDatafileInfo::default());
//! let mut buf = vec![0u8; 1 << 16];
//! let mut written = 0;
//! // SAFETY: pointers to live locals and into `file` and `buf`.
//! unsafe {
//!     let null = core::ptr::null_mut();
//!     let st = gamefmt_datafile_open(file.as_ptr(), file.len(), false, &mut df, null, 0, null.cast(), null.cast());
//!     assert_eq!(st, GamefmtStatus::Ok);
//!     gamefmt_datafile_info(&df, &mut info, null.cast());
//!     let st = gamefmt_datafile_data(&df, 0, buf.as_mut_ptr(), buf.len(), &mut written, null.cast());
//!     assert_eq!(st, GamefmtStatus::Ok);
//! }
//! assert!(info.items > 0 && written > 0);
//! ```

use gamefmt::datafile::DatafileView;
use gamefmt::warning::Warning;

use crate::error::{GamefmtError, GamefmtStatus, null, status_of};
use crate::opaque::{self, bytes, bytes_mut, get, opaque, out_status, put_result};
use crate::warning::{GamefmtWarning, WarningSink};

/// Words of [`GamefmtDatafile`].
pub const GAMEFMT_DATAFILE_WORDS: usize = 32;

/// An open datafile: a view of the caller's file bytes (which must stay
/// alive and unchanged while it is used). Declare one anywhere; fill it
/// with [`gamefmt_datafile_open`].
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GamefmtDatafile {
    /// Opaque state (a tag word and gamefmt's `DatafileView`).
    pub opaque: [u64; GAMEFMT_DATAFILE_WORDS],
}

opaque!(GamefmtDatafile, DatafileView<'static>, 0x6466_0001);

/// A datafile's counts.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct GamefmtDatafileInfo {
    /// Format version (3 or 4).
    pub version: u32,
    /// Distinct item types.
    pub item_types: usize,
    /// Items.
    pub items: usize,
    /// Data items.
    pub data_items: usize,
}

/// One item of a datafile, borrowing from the file.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GamefmtDatafileItem {
    /// Item type id.
    pub type_id: u16,
    /// Item id.
    pub id: u16,
    /// The item's ints: `ints` little-endian int32 values, not aligned.
    pub data: *const u8,
    /// Number of ints at `data`.
    pub ints: usize,
    /// Byte offset of the item in the file.
    pub offset: u64,
}

impl Default for GamefmtDatafileItem {
    fn default() -> Self {
        Self {
            type_id: 0,
            id: 0,
            data: core::ptr::null(),
            ints: 0,
            offset: 0,
        }
    }
}

/// Parses the datafile in `data[0..len]` into `*out`. With `strict`,
/// quirks current DDNet refuses are errors (`GAMEFMT_STATUS_REFUSED`); without,
/// they are warnings: the first `warnings_cap` go to `warnings`, and
/// `*warnings_count` (if not `NULL`) is set to how many there were.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_datafile_open(
    data: *const u8,
    len: usize,
    strict: bool,
    out: *mut GamefmtDatafile,
    warnings: *mut GamefmtWarning,
    warnings_cap: usize,
    warnings_count: *mut usize,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let (Some(file), false) = (bytes(data, len), out.is_null()) else {
        return null(err);
    };
    let mut sink = WarningSink::new(warnings, warnings_cap, warnings_count);
    let view = if strict {
        DatafileView::parse_strict(file)
    } else {
        DatafileView::parse_with(file, &mut |w: Warning| sink.push(w))
    };
    put_result(out, view, err)
}

/// The datafile's counts.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_datafile_info(
    df: *const GamefmtDatafile,
    info: *mut GamefmtDatafileInfo,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let Some(df) = get(df) else { return null(err) };
    let value = GamefmtDatafileInfo {
        version: df.version(),
        item_types: df.item_type_count(),
        items: df.item_count(),
        data_items: df.data_count(),
    };
    out_status(info, value, err)
}

/// Item `index` (0 to `items - 1`, in file order); `GAMEFMT_STATUS_ABSENT` past
/// the end.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_datafile_item(
    df: *const GamefmtDatafile,
    index: usize,
    item: *mut GamefmtDatafileItem,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let Some(df) = get(df) else { return null(err) };
    let Some(found) = df.item(index) else {
        return GamefmtStatus::Absent;
    };
    let ints = found.data();
    let value = GamefmtDatafileItem {
        type_id: found.type_id(),
        id: found.id(),
        data: ints.as_ptr().cast::<u8>(),
        ints: ints.len(),
        offset: found.offset() as u64,
    };
    out_status(item, value, err)
}

/// The inflated size in bytes of data item `index` into `*size`
/// (`GAMEFMT_STATUS_ABSENT` past the end).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_datafile_data_size(
    df: *const GamefmtDatafile,
    index: usize,
    size: *mut usize,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let Some(df) = get(df) else { return null(err) };
    let Some(n) = df.data_size(index) else {
        return GamefmtStatus::Absent;
    };
    out_status(size, n, err)
}

/// Inflates data item `index` into the caller's buffer `buf` of `cap`
/// bytes (at least its `gamefmt_datafile_data_size`; else
/// `GAMEFMT_STATUS_BUFFER_TOO_SMALL` with the size in `detail`) and sets
/// `*written`. Allocates nothing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_datafile_data(
    df: *const GamefmtDatafile,
    index: usize,
    buf: *mut u8,
    cap: usize,
    written: *mut usize,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let (Some(df), Some(buf)) = (get(df), bytes_mut(buf, cap)) else {
        return null(err);
    };
    let result = df.decompress_into(index, buf).map(|data| {
        opaque::out(written, data.len());
    });
    status_of(result, err)
}
