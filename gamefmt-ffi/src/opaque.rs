//! Library state in caller memory: the opaque structs of a published size
//! (`GamefmtDatafile`, `GamefmtThDecoder`, ...). Each is `N` 64-bit words:
//! a tag word that `put` sets, then the Rust value. `get` answers `None`
//! for a struct that no `*_init`/`*_open` filled (tag not set), so a C
//! caller that skips the check of an open gets an error, not undefined
//! behaviour.

use crate::error::{GamefmtError, GamefmtStatus, fail, null};

/// An opaque struct of the C ABI holding an `Inner`.
///
/// # Safety
/// Implementors are `#[repr(C)]` structs of `u64` words only, large and
/// aligned enough for a tag word followed by `Inner` (checked at compile
/// time by [`opaque!`]), and `Inner` needs no drop (it is overwritten in
/// place).
pub(crate) unsafe trait Opaque: Sized {
    /// The Rust value kept inside.
    type Inner;
    /// The tag word of a filled struct: distinct per type.
    const TAG: u64;
}

/// Declares `$name` (defined in C-visible form beside it) as an opaque
/// struct holding `$inner`, checked to fit at compile time.
macro_rules! opaque {
    ($name:ident, $inner:ty, $tag:literal) => {
        // SAFETY: the assertions below check size, alignment and drop.
        unsafe impl crate::opaque::Opaque for $name {
            type Inner = $inner;
            const TAG: u64 = $tag;
        }
        const _: () = {
            assert!(core::mem::size_of::<$inner>() + 8 <= core::mem::size_of::<$name>());
            assert!(core::mem::align_of::<$inner>() <= 8);
            assert!(!core::mem::needs_drop::<$inner>());
        };
        impl Default for $name {
            fn default() -> Self {
                Self {
                    opaque: [0; core::mem::size_of::<$name>() / 8],
                }
            }
        }
    };
}
pub(crate) use opaque;

/// Fills the struct at `dst` with `value`; `false` when `dst` is `NULL`.
pub(crate) fn put<O: Opaque>(dst: *mut O, value: O::Inner) -> bool {
    if dst.is_null() {
        return false;
    }
    let tag = dst.cast::<u64>();
    // SAFETY: `dst` is not NULL and points to a writable `O` (the crate's
    // contract): its first word is the tag, and the words after it are
    // large and aligned enough for `Inner` (`Opaque`'s contract). The old
    // value needs no drop, so overwriting it with `write` leaks nothing.
    unsafe {
        tag.write(O::TAG);
        tag.add(1).cast::<O::Inner>().write(value);
    }
    true
}

/// The value in the struct at `src`; `None` when `src` is `NULL` or was
/// never filled.
pub(crate) fn get<'a, O: Opaque>(src: *const O) -> Option<&'a O::Inner> {
    if src.is_null() {
        return None;
    }
    let tag = src.cast::<u64>();
    // SAFETY: `src` points to a readable `O` (the crate's contract); its
    // words are plain integers, so reading the tag is defined for any
    // content, and when it is set `put` wrote a valid `Inner` after it.
    // The caller does not use the struct from elsewhere during the call.
    unsafe {
        if tag.read() != O::TAG {
            return None;
        }
        tag.add(1).cast::<O::Inner>().as_ref()
    }
}

/// [`get`] for changing the value.
pub(crate) fn get_mut<'a, O: Opaque>(src: *mut O) -> Option<&'a mut O::Inner> {
    if src.is_null() {
        return None;
    }
    let tag = src.cast::<u64>();
    // SAFETY: as in `get`, with `src` writable and not aliased during the
    // call.
    unsafe {
        if tag.read() != O::TAG {
            return None;
        }
        tag.add(1).cast::<O::Inner>().as_mut()
    }
}

/// The caller's `len` bytes at `ptr` as a slice (empty for `len` 0, even
/// with a `NULL` pointer); `None` for `NULL` with a nonzero length.
pub(crate) fn bytes<'a>(ptr: *const u8, len: usize) -> Option<&'a [u8]> {
    if len == 0 {
        return Some(&[]);
    }
    if ptr.is_null() {
        return None;
    }
    // SAFETY: the caller passes `len` readable bytes at `ptr` that stay
    // alive and unchanged while the result (or a view made from it) is in
    // use (the crate's contract); `ptr` is not NULL; u8 has no alignment.
    Some(unsafe { core::slice::from_raw_parts(ptr, len) })
}

/// The caller's writable buffer of `len` bytes; as [`bytes`].
pub(crate) fn bytes_mut<'a>(ptr: *mut u8, len: usize) -> Option<&'a mut [u8]> {
    if len == 0 {
        return Some(&mut []);
    }
    if ptr.is_null() {
        return None;
    }
    // SAFETY: as in `bytes`, writable and not aliased while in use.
    Some(unsafe { core::slice::from_raw_parts_mut(ptr, len) })
}

/// Writes `value` to the caller's out-parameter; `false` when `NULL`.
pub(crate) fn out<T>(dst: *mut T, value: T) -> bool {
    if dst.is_null() {
        return false;
    }
    // SAFETY: `dst` is not NULL and points to a writable, aligned `T` (the
    // crate's contract); `write` drops nothing (the memory may be
    // uninitialised).
    unsafe { dst.write(value) };
    true
}

/// Fills the struct at `dst` from `result`: `GAMEFMT_STATUS_OK`, or the
/// error reported through `err` (`NULL` `dst`: `GAMEFMT_STATUS_NULL_POINTER`).
pub(crate) fn put_result<O: Opaque>(
    dst: *mut O,
    result: Result<O::Inner, gamefmt::Error>,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    match result {
        Ok(value) => {
            if put(dst, value) {
                GamefmtStatus::Ok
            } else {
                null(err)
            }
        }
        Err(e) => fail(err, &e),
    }
}

/// Writes `value` to the out-parameter `dst`: `GAMEFMT_STATUS_OK`, or
/// `GAMEFMT_STATUS_NULL_POINTER` (reported through `err`) when `NULL`.
pub(crate) fn out_status<T>(dst: *mut T, value: T, err: *mut GamefmtError) -> GamefmtStatus {
    if out(dst, value) {
        GamefmtStatus::Ok
    } else {
        null(err)
    }
}

/// The caller's `n` int32s at `ptr` (empty for `n` 0, even with `NULL`);
/// `None` for `NULL` with a nonzero count.
pub(crate) fn ints<'a>(ptr: *const i32, n: usize) -> Option<&'a [i32]> {
    if n == 0 {
        return Some(&[]);
    }
    if ptr.is_null() {
        return None;
    }
    // SAFETY: the caller passes `n` readable, aligned int32s at `ptr`
    // (the crate's contract); `ptr` is not NULL.
    Some(unsafe { core::slice::from_raw_parts(ptr, n) })
}
