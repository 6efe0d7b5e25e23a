//! Reading message fields: packed ints, bools and NUL-terminated strings.

use crate::bytes::Cursor;
use crate::error::Result;

use super::string::NetStr;

/// The fields of one message after its id, in order.
pub(crate) struct Fields<'a> {
    cursor: Cursor<'a>,
}

impl<'a> Fields<'a> {
    /// Fields in `payload`, which starts `base` bytes into the message.
    pub(crate) const fn new(payload: &'a [u8], base: usize) -> Self {
        Self {
            cursor: Cursor::with_base(payload, base),
        }
    }

    /// A packed int.
    pub(crate) fn int(&mut self) -> Result<i32> {
        self.cursor.packed_int()
    }

    /// A packed int read as a bool: anything but 0 is true.
    pub(crate) fn bool(&mut self) -> Result<bool> {
        self.int().map(|v| v != 0)
    }

    /// A NUL-terminated string.
    pub(crate) fn string(&mut self) -> Result<NetStr<'a>> {
        self.cursor.cstr_bytes().map(NetStr)
    }

    /// `N` strings.
    pub(crate) fn strings<const N: usize>(&mut self) -> Result<[NetStr<'a>; N]> {
        let mut out = [NetStr::default(); N];
        for s in &mut out {
            *s = self.string()?;
        }
        Ok(out)
    }

    /// `N` bools.
    pub(crate) fn bools<const N: usize>(&mut self) -> Result<[bool; N]> {
        let mut out = [false; N];
        for b in &mut out {
            *b = self.bool()?;
        }
        Ok(out)
    }

    /// `N` ints.
    pub(crate) fn ints<const N: usize>(&mut self) -> Result<[i32; N]> {
        let mut out = [0; N];
        for v in &mut out {
            *v = self.int()?;
        }
        Ok(out)
    }
}
