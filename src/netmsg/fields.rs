//! Reading message fields: packed ints, bools and NUL-terminated strings.

use crate::bytes::Cursor;
use crate::error::{ErrorKind, Result};

use super::lists::{PackedInts, Strings};
use super::string::NetStr;

/// The fields of one message after its id, in order.
pub(crate) struct Fields<'a> {
    cursor: Cursor<'a>,
}

impl<'a> Fields<'a> {
    /// Fields in `payload`, which starts `base` bytes into the message.
    #[inline]
    pub(crate) const fn new(payload: &'a [u8], base: usize) -> Self {
        Self {
            cursor: Cursor::with_base(payload, base),
        }
    }

    /// A packed int.
    #[inline]
    pub(crate) fn int(&mut self) -> Result<i32> {
        self.cursor.packed_int()
    }

    /// A packed int read as a bool: anything but 0 is true.
    #[inline]
    pub(crate) fn bool(&mut self) -> Result<bool> {
        self.int().map(|v| v != 0)
    }

    /// A NUL-terminated string.
    #[inline]
    pub(crate) fn string(&mut self) -> Result<NetStr<'a>> {
        self.cursor.cstr_bytes().map(NetStr)
    }

    /// `N` strings.
    #[inline]
    pub(crate) fn strings<const N: usize>(&mut self) -> Result<[NetStr<'a>; N]> {
        let mut out = [NetStr::default(); N];
        for s in &mut out {
            *s = self.string()?;
        }
        Ok(out)
    }

    /// `N` bools.
    #[inline]
    pub(crate) fn bools<const N: usize>(&mut self) -> Result<[bool; N]> {
        let mut out = [false; N];
        for b in &mut out {
            *b = self.bool()?;
        }
        Ok(out)
    }

    /// `N` ints.
    #[inline]
    pub(crate) fn ints<const N: usize>(&mut self) -> Result<[i32; N]> {
        let mut out = [0; N];
        for v in &mut out {
            *v = self.int()?;
        }
        Ok(out)
    }

    /// Whether every field has been read.
    #[inline]
    pub(crate) const fn is_empty(&self) -> bool {
        self.cursor.is_empty()
    }

    /// A packed int, or `default` when the message ends before it
    /// (DDNet's `GetIntOrDefault`).
    #[inline]
    pub(crate) fn int_or(&mut self, default: i32) -> Result<i32> {
        if self.is_empty() {
            Ok(default)
        } else {
            self.int()
        }
    }

    /// A bool, or `default` (0 or 1) when the message ends before it.
    #[inline]
    pub(crate) fn bool_or(&mut self, default: i32) -> Result<bool> {
        self.int_or(default).map(|v| v != 0)
    }

    /// `n` raw bytes.
    #[inline]
    pub(crate) fn bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        self.cursor.bytes(n)
    }

    /// As many raw bytes as `size` (an earlier field) says; a negative
    /// size is [`ErrorKind::OutOfBounds`], one past the end `Truncated`.
    #[inline]
    pub(crate) fn sized(&mut self, size: i32) -> Result<&'a [u8]> {
        let n = usize::try_from(size).map_err(|_| self.cursor.error(ErrorKind::OutOfBounds))?;
        self.cursor.bytes(n)
    }

    /// A UUID: 16 raw bytes.
    #[inline]
    pub(crate) fn uuid(&mut self) -> Result<uuid::Uuid> {
        self.cursor.array().map(uuid::Uuid::from_bytes)
    }

    /// Every byte left.
    #[inline]
    pub(crate) fn rest(&mut self) -> &'a [u8] {
        let rest = self.cursor.rest();
        // Cannot fail: exactly the bytes left.
        let _ = self.cursor.skip(rest.len());
        rest
    }

    /// Packed ints up to the end.
    #[inline]
    pub(crate) fn packed_ints(&mut self) -> PackedInts<'a> {
        PackedInts(self.rest())
    }

    /// Strings up to the end.
    #[inline]
    pub(crate) fn strings_rest(&mut self) -> Strings<'a> {
        Strings(self.rest())
    }
}

/// The vocabulary's byte and UUID serializers, under the names the
/// generated code uses.
#[cfg(feature = "serde")]
pub(crate) use crate::vocabulary::{Bytes as SerBytes, UuidStr as SerUuid};
