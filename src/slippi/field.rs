//! Big-endian reads at fixed offsets of an event, `None` past its end.
//!
//! Offsets count the command byte as offset 0, exactly like the spec tables,
//! so every typed view keeps the whole event (command byte included) and
//! reads its fields here. A field exists when the payload is long enough for
//! it — the version number is never consulted.

/// `N` bytes at `off`. `BASE` is a length that most events of the view's
/// kind have (the layout of its first version; 0: none): a field within it
/// is read from the event's first `BASE` bytes, checked once, so that the
/// compiler shares that one check among all such fields a caller reads
/// (with a check per field, it kept one compare and branch per field). An
/// event shorter than `BASE` takes a cold call doing the per-field check:
/// kept out of line so that the compiler cannot merge the two paths back
/// into one check per field. The result is the same either way.
#[inline(always)]
fn arr<const BASE: usize, const N: usize>(b: &[u8], off: usize) -> Option<[u8; N]> {
    if off.saturating_add(N) <= BASE {
        return match b.first_chunk::<BASE>() {
            Some(head) => head.get(off..).and_then(|s| s.first_chunk()).copied(),
            None => arr_short(b, off),
        };
    }
    arr_short_inline(b, off)
}

#[cold]
#[inline(never)]
fn arr_short<const N: usize>(b: &[u8], off: usize) -> Option<[u8; N]> {
    arr_short_inline(b, off)
}

#[inline(always)]
fn arr_short_inline<const N: usize>(b: &[u8], off: usize) -> Option<[u8; N]> {
    b.get(off..)?.first_chunk::<N>().copied()
}

#[inline]
pub(crate) fn u8<const BASE: usize>(b: &[u8], off: usize) -> Option<u8> {
    arr::<BASE, 1>(b, off).map(|[v]| v)
}

#[inline]
pub(crate) fn i8<const BASE: usize>(b: &[u8], off: usize) -> Option<i8> {
    arr::<BASE, 1>(b, off).map(i8::from_be_bytes)
}

#[inline]
pub(crate) fn bool<const BASE: usize>(b: &[u8], off: usize) -> Option<bool> {
    u8::<BASE>(b, off).map(|v| v != 0)
}

#[inline]
pub(crate) fn u16<const BASE: usize>(b: &[u8], off: usize) -> Option<u16> {
    arr::<BASE, 2>(b, off).map(u16::from_be_bytes)
}

#[inline]
pub(crate) fn u32<const BASE: usize>(b: &[u8], off: usize) -> Option<u32> {
    arr::<BASE, 4>(b, off).map(u32::from_be_bytes)
}

#[inline]
pub(crate) fn i32<const BASE: usize>(b: &[u8], off: usize) -> Option<i32> {
    arr::<BASE, 4>(b, off).map(i32::from_be_bytes)
}

#[inline]
pub(crate) fn f32<const BASE: usize>(b: &[u8], off: usize) -> Option<f32> {
    arr::<BASE, 4>(b, off).map(f32::from_be_bytes)
}

/// `len` bytes at `off`, or `None` when they do not all lie in `b`.
#[inline]
pub(crate) fn bytes(b: &[u8], off: usize, len: usize) -> Option<&[u8]> {
    b.get(off..off.checked_add(len)?)
}

/// Offset of element `index` of a per-port array starting at `base` with
/// elements `stride` bytes apart; `None` when `index >= count`.
#[inline]
pub(crate) fn indexed(base: usize, stride: usize, index: usize, count: usize) -> Option<usize> {
    if index >= count {
        return None;
    }
    base.checked_add(stride.checked_mul(index)?)
}

/// The bytes before the first NUL (all of them when there is none).
#[must_use]
pub fn trim_nul(b: &[u8]) -> &[u8] {
    let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
    b.get(..end).unwrap_or(b)
}

/// Generates one `Option`-returning accessor per `name: type @ offset`;
/// after an optional `base = LEN;`, the length most events of the kind
/// have (see `arr`).
macro_rules! accessors {
    (base = $base:literal; $($(#[doc = $doc:literal])* $name:ident: $ty:ident @ $off:literal;)*) => {
        $(
            $(#[doc = $doc])*
            #[must_use]
            #[inline]
            pub fn $name(&self) -> Option<$ty> {
                $crate::slippi::field::$ty::<$base>(self.bytes, $off)
            }
        )*
    };
    ($($(#[doc = $doc:literal])* $name:ident: $ty:ident @ $off:literal;)*) => {
        $crate::slippi::field::accessors! {
            base = 0;
            $($(#[doc = $doc])* $name: $ty @ $off;)*
        }
    };
}
pub(crate) use accessors;

/// Declares a borrowed, `Copy` view over one whole event (command byte
/// included) with `new` and `bytes`.
macro_rules! event_view {
    ($(#[doc = $doc:literal])* $name:ident) => {
        $(#[doc = $doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $name<'a> {
            bytes: &'a [u8],
        }

        impl<'a> $name<'a> {
            /// Wraps a whole event (command byte first). Any length is
            /// accepted: fields beyond the end read as `None`.
            #[must_use]
            pub const fn new(bytes: &'a [u8]) -> Self {
                Self { bytes }
            }

            /// The whole event, command byte included.
            #[must_use]
            pub const fn bytes(&self) -> &'a [u8] {
                self.bytes
            }
        }
    };
}
pub(crate) use event_view;

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::panic,
    reason = "unit tests: a panic is the failure report"
)]
mod tests {
    use super::*;

    #[test]
    fn reads_big_endian_and_stops_at_end() {
        let b = [0x36, 0x00, 0x01, 0xff, 0xff, 0xff, 0xfe];
        assert_eq!(u16::<0>(&b, 1), Some(1));
        assert_eq!(i32::<0>(&b, 3), Some(-2));
        assert_eq!(i32::<0>(&b, 4), None);
        assert_eq!(u8::<0>(&b, 7), None);
        assert_eq!(i8::<0>(&b, 6), Some(-2));
        // The same through a base longer, equal to and shorter than `b`.
        for (off, want) in [(0, Some(0x3600_01ff)), (3, Some(0xffff_fffe)), (4, None)] {
            assert_eq!(u32::<9>(&b, off), want);
            assert_eq!(u32::<7>(&b, off), want);
            assert_eq!(u32::<5>(&b, off), want);
        }
        assert_eq!(u8::<7>(&b, 6), Some(0xfe));
        assert_eq!(u8::<9>(&b, 7), None);
        assert_eq!(bytes(&b, usize::MAX, 2), None);
        assert_eq!(indexed(0x141, 8, 4, 4), None);
        assert_eq!(indexed(0x141, 8, 3, 4), Some(0x159));
        assert_eq!(trim_nul(b"ab\0cd"), b"ab");
    }
}
