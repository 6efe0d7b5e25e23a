//! Snapshots: views, the builder, delta creation and application, and the
//! packed-int form a server sends.
//!
//! ```
//! use gamefmt_ffi::*;
//! let b = gamefmt_builder_new();
//! let mut snap = GamefmtSnapshot::default();
//! let mut info = GamefmtSnapshotInfo { items: 0, data_size: 0, checksum: 0, bytes: core::ptr::null(), len: 0 };
//! // SAFETY: `b` is live until freed; pointers to live locals.
//! unsafe {
//!     let err = core::ptr::null_mut();
//!     assert_eq!(gamefmt_builder_add(b, 4, 1, [1, 2, 3].as_ptr(), 3, err), GamefmtStatus::Ok);
//!     assert_eq!(gamefmt_builder_add(b, 4, 1, [1, 2, 3].as_ptr(), 3, err), GamefmtStatus::Corrupt);
//!     gamefmt_builder_snapshot(b, &mut snap, err);
//!     gamefmt_snapshot_info(&snap, &mut info, err);
//!     assert_eq!((info.items, info.len), (1, 4 * (2 + 1 + 1 + 3)));
//!     gamefmt_builder_free(b);
//! }
//! ```

use gamefmt::snapshot::{
    DeltaCreator, DeltaView, ITEM_SIZES_06, ITEM_SIZES_07, SnapshotBuilder, SnapshotView, apply,
};
use gamefmt::zerocopy::FromBytes;
use gamefmt::zerocopy::little_endian::I32;

use crate::error::{GamefmtError, GamefmtStatus, fail, null, status_of};
use crate::opaque::{
    bytes, bytes_mut, get, ints as ints_in, opaque, out, out_status, put, put_result,
};

/// Words of [`GamefmtSnapshot`].
pub const GAMEFMT_SNAPSHOT_WORDS: usize = 16;

/// Ints (4 bytes each) of the largest snapshot: a buffer of
/// `4 * GAMEFMT_MAX_SNAPSHOT_INTS` bytes holds any delta's result.
pub const GAMEFMT_MAX_SNAPSHOT_INTS: usize = 17_410;
const _: () = assert!(GAMEFMT_MAX_SNAPSHOT_INTS == gamefmt::snapshot::MAX_SNAPSHOT_INTS);

/// A snapshot view (DDNet's in-memory `CSnapshot` layout), borrowing its
/// bytes: from [`gamefmt_snapshot_parse`], a builder, a delta applied or
/// a demo's reconstructor.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GamefmtSnapshot {
    /// Opaque state (a tag word and gamefmt's `SnapshotView`).
    pub opaque: [u64; GAMEFMT_SNAPSHOT_WORDS],
}

opaque!(GamefmtSnapshot, SnapshotView<'static>, 0x736e_0001);

/// A snapshot's size, checksum and bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GamefmtSnapshotInfo {
    /// Items.
    pub items: usize,
    /// Bytes of the item area.
    pub data_size: usize,
    /// DDNet's checksum (`CSnapshot::Crc`).
    pub checksum: i32,
    /// The whole snapshot in DDNet's layout (little-endian int32s).
    pub bytes: *const u8,
    /// Bytes at `bytes`.
    pub len: usize,
}

/// One snapshot item.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GamefmtSnapshotItem {
    /// Item type.
    pub type_id: u16,
    /// Item id.
    pub id: u16,
    /// `type_id << 16 | id`.
    pub key: u32,
    /// The item's ints (little-endian int32s, not aligned).
    pub data: *const u8,
    /// Number of ints at `data`.
    pub ints: usize,
}

/// The item size table a delta is read with.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GamefmtItemSizes {
    /// Teeworlds 0.6 and DDNet (what a DDNet server installs).
    Teeworlds06,
    /// Teeworlds 0.7.
    Teeworlds07,
}

impl GamefmtItemSizes {
    const fn table(self) -> &'static [u16] {
        match self {
            Self::Teeworlds06 => ITEM_SIZES_06,
            Self::Teeworlds07 => ITEM_SIZES_07,
        }
    }
}

/// The snapshot builder (DDNet's `CSnapshotBuilder`), created by
/// [`gamefmt_builder_new`]; its buffers are allocated once and reused.
pub struct GamefmtBuilder(SnapshotBuilder);

/// The delta creator (DDNet's `CSnapshotDelta::CreateDelta`), created by
/// [`gamefmt_delta_creator_new`]; its buffers grow once and are reused.
pub struct GamefmtDeltaCreator(DeltaCreator);

/// Reads the snapshot `data[0..len]` (DDNet's layout) into `*out`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_snapshot_parse(
    data: *const u8,
    len: usize,
    out: *mut GamefmtSnapshot,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let (Some(data), false) = (bytes(data, len), out.is_null()) else {
        return null(err);
    };
    put_result(out, SnapshotView::parse(data), err)
}

/// The snapshot's size, checksum and bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_snapshot_info(
    snap: *const GamefmtSnapshot,
    info: *mut GamefmtSnapshotInfo,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let Some(s) = get(snap) else { return null(err) };
    let ints = s.as_ints();
    let value = GamefmtSnapshotInfo {
        items: s.item_count(),
        data_size: s.data_size(),
        checksum: s.checksum(),
        bytes: ints.as_ptr().cast::<u8>(),
        len: core::mem::size_of_val(ints),
    };
    out_status(info, value, err)
}

/// Item `index` (`GAMEFMT_STATUS_ABSENT` past the end).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_snapshot_item(
    snap: *const GamefmtSnapshot,
    index: usize,
    item: *mut GamefmtSnapshotItem,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let Some(s) = get(snap) else { return null(err) };
    let Some(found) = s.item(index) else {
        return GamefmtStatus::Absent;
    };
    let value = GamefmtSnapshotItem {
        type_id: found.type_id(),
        id: found.id(),
        key: found.key(),
        data: found.data().as_ptr().cast::<u8>(),
        ints: found.data().len(),
    };
    out_status(item, value, err)
}

/// A new, empty snapshot builder (`NULL` only if memory is exhausted,
/// which aborts in Rust's default allocator instead).
#[unsafe(no_mangle)]
pub extern "C" fn gamefmt_builder_new() -> *mut GamefmtBuilder {
    Box::into_raw(Box::new(GamefmtBuilder(SnapshotBuilder::new())))
}

/// Frees a builder from [`gamefmt_builder_new`] (`NULL` is ignored).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_builder_free(builder: *mut GamefmtBuilder) {
    if !builder.is_null() {
        // SAFETY: a non-NULL `builder` came from `gamefmt_builder_new`
        // (Box::into_raw) and is freed once (the crate's contract).
        drop(unsafe { Box::from_raw(builder) });
    }
}

/// The builder as a Rust reference.
fn builder<'a>(b: *mut GamefmtBuilder) -> Option<&'a mut SnapshotBuilder> {
    // SAFETY: `b` is NULL or a live builder from `gamefmt_builder_new`,
    // not used elsewhere during the call (the crate's contract).
    unsafe { b.as_mut() }.map(|b| &mut b.0)
}

/// Empties the builder for the next snapshot (keeps its buffers).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_builder_clear(builder_: *mut GamefmtBuilder) {
    if let Some(b) = builder(builder_) {
        b.clear();
    }
}

/// Adds item (`type_id`, `id`) with `ints` ints at `data`. A duplicate
/// key, a type above 0x7FFF or a full snapshot (1024 items or 64 KiB) is
/// `GAMEFMT_STATUS_CORRUPT`, never a crash.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_builder_add(
    builder_: *mut GamefmtBuilder,
    type_id: u16,
    id: u16,
    data: *const i32,
    ints: usize,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let Some(b) = builder(builder_) else {
        return null(err);
    };
    let Some(data) = ints_in(data, ints) else {
        return null(err);
    };
    status_of(b.add(type_id, id, data), err)
}

/// The snapshot built so far, in DDNet's layout, into `*out`; it borrows
/// the builder until its next `add`, `clear` or `free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_builder_snapshot(
    builder_: *mut GamefmtBuilder,
    out: *mut GamefmtSnapshot,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let (Some(b), false) = (builder(builder_), out.is_null()) else {
        return null(err);
    };
    put(out, b.snapshot());
    GamefmtStatus::Ok
}

/// A new delta creator.
#[unsafe(no_mangle)]
pub extern "C" fn gamefmt_delta_creator_new() -> *mut GamefmtDeltaCreator {
    Box::into_raw(Box::new(GamefmtDeltaCreator(DeltaCreator::new())))
}

/// Frees a creator from [`gamefmt_delta_creator_new`] (`NULL` is ignored).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_delta_creator_free(creator: *mut GamefmtDeltaCreator) {
    if !creator.is_null() {
        // SAFETY: a non-NULL `creator` came from
        // `gamefmt_delta_creator_new` (Box::into_raw) and is freed once.
        drop(unsafe { Box::from_raw(creator) });
    }
}

/// The delta from `from` to `to` in DDNet's int form (what
/// `CSnapshotDelta::CreateDelta` writes, byte for byte; nothing changed
/// gives the 12-byte empty delta where DDNet returns 0): `*data` and
/// `*len` point into the creator, valid until its next call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_delta_create(
    creator: *mut GamefmtDeltaCreator,
    from: *const GamefmtSnapshot,
    to: *const GamefmtSnapshot,
    sizes: GamefmtItemSizes,
    data: *mut *const u8,
    len: *mut usize,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    // SAFETY: `creator` is NULL or a live creator from
    // `gamefmt_delta_creator_new`, not used elsewhere during the call.
    let creator = unsafe { creator.as_mut() };
    let (Some(c), Some(from), Some(to)) = (creator, get(from), get(to)) else {
        return null(err);
    };
    match c.0.create(from, to, sizes.table()) {
        Ok(delta) => {
            out(data, delta.as_ptr().cast::<u8>());
            out(len, core::mem::size_of_val(delta));
            GamefmtStatus::Ok
        }
        Err(e) => fail(err, &e),
    }
}

/// Applies the delta `delta[0..len]` (int form) to `base` (DDNet's
/// `UnpackDelta`, byte for byte), writing the new snapshot into the
/// caller's buffer `buf` of `cap` bytes (`4 * GAMEFMT_MAX_SNAPSHOT_INTS`
/// always suffice) and viewing it in `*out`. Allocates nothing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_delta_apply(
    base: *const GamefmtSnapshot,
    delta: *const u8,
    len: usize,
    sizes: GamefmtItemSizes,
    buf: *mut u8,
    cap: usize,
    out: *mut GamefmtSnapshot,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let (Some(base), Some(delta), Some(buf), false) = (
        get(base),
        bytes(delta, len),
        bytes_mut(buf, cap),
        out.is_null(),
    ) else {
        return null(err);
    };
    let whole = buf.len().saturating_sub(buf.len() % 4);
    let Some(ints) = buf
        .get_mut(..whole)
        .and_then(|b| <[I32]>::mut_from_bytes(b).ok())
    else {
        return null(err);
    };
    let result = DeltaView::parse(delta, sizes.table()).and_then(|d| apply(base, &d, ints));
    put_result(out, result, err)
}

/// Packs `n` ints with DDNet's `CVariableInt` (the form a server sends and
/// a demo stores before Huffman coding) into `buf` of `cap` bytes (5 per
/// int always suffice); sets `*written`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_pack_ints(
    ints: *const i32,
    n: usize,
    buf: *mut u8,
    cap: usize,
    written: *mut usize,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let (Some(src), Some(dst)) = (ints_in(ints, n), bytes_mut(buf, cap)) else {
        return null(err);
    };
    let result = gamefmt::varint::pack_ints(src, dst).map(|n| {
        out(written, n);
    });
    status_of(result, err)
}
