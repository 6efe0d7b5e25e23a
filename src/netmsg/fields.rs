//! Reading message fields: packed ints, bools and NUL-terminated strings.
//!
//! The hot path of every message: [`Fields`] keeps the bytes not read yet
//! as a slice (no position to add and check on each read) and the offset
//! of their end (for the errors' offsets only); a packed int of one byte
//! is a table lookup, a longer one is read from an eight-byte word in one
//! go (`varint::decode_word`; near the end of a message, where most ints
//! of the short messages are, the word is loaded zero-padded), and a
//! string's NUL is found by a plain byte loop: the core's word-at-a-time
//! search (`CStr::from_bytes_until_nul`) mispredicted about four branches
//! per string on chat-length strings, the loop one (branch mispredictions
//! per corpus pass 80.0 k -> 55.0 k, cachegrind).

use crate::error::{Error, ErrorKind, Result};

use super::lists::{NetStrs, PackedInts, Strings};
use super::string::NetStr;

/// The fields of one message after its id, in order.
pub(crate) struct Fields<'a> {
    /// The bytes not read yet.
    rest: &'a [u8],
    /// The offset in the message of the end of `rest`.
    end: usize,
}

impl<'a> Fields<'a> {
    /// Fields in `payload`, which starts `base` bytes into the message.
    #[inline]
    pub(crate) const fn new(payload: &'a [u8], base: usize) -> Self {
        Self {
            rest: payload,
            end: base.saturating_add(payload.len()),
        }
    }

    /// The offset in the message of the next byte to read.
    #[inline]
    const fn offset(&self) -> usize {
        self.end.saturating_sub(self.rest.len())
    }

    /// A packed int.
    #[inline(always)]
    pub(crate) fn int(&mut self) -> Result<i32> {
        if let Some((&first, tail)) = self.rest.split_first()
            && first & 0x80 == 0
        {
            self.rest = tail;
            return Ok(crate::varint::decode_one_byte(first));
        }
        // Zeros past the end stop the int there: one that runs past the
        // end is `len > rest.len()`, DDNet's (and `varint::decode`'s)
        // error at this offset.
        let (value, len) = crate::varint::decode_word(self.word());
        match self.rest.get(len..) {
            Some(rest) => {
                self.rest = rest;
                Ok(value)
            }
            None => Err(Error::new(ErrorKind::InvalidVarint, self.offset())),
        }
    }

    /// The next eight bytes, little-endian, zero past the end: one load
    /// when eight are left, two overlapping ones when four to seven are
    /// (most messages are shorter than eight bytes).
    #[inline(always)]
    fn word(&self) -> u64 {
        let rest = self.rest;
        if let Some(word) = rest.first_chunk::<8>() {
            return u64::from_le_bytes(*word);
        }
        if let (Some(lo), Some(hi)) = (rest.first_chunk::<4>(), rest.last_chunk::<4>()) {
            // The last four bytes moved up to their place; the bytes both
            // loads hold are the same in both.
            let up = rest.len().wrapping_sub(4).wrapping_mul(8) as u32;
            return u64::from(u32::from_le_bytes(*lo))
                | u64::from(u32::from_le_bytes(*hi)) << (up & 31);
        }
        let byte = |i: usize| u64::from(rest.get(i).copied().unwrap_or(0));
        byte(0) | byte(1) << 8 | byte(2) << 16
    }

    /// A packed int read as a bool: anything but 0 is true.
    #[inline]
    pub(crate) fn bool(&mut self) -> Result<bool> {
        self.int().map(|v| v != 0)
    }

    /// A NUL-terminated string (without its NUL); `Truncated` at the end
    /// of the message when no NUL is left.
    #[inline]
    pub(crate) fn string(&mut self) -> Result<NetStr<'a>> {
        match self.rest.iter().position(|&b| b == 0) {
            Some(len) => {
                let (bytes, nul_on) = self.rest.split_at(len);
                self.rest = nul_on.get(1..).unwrap_or_default();
                Ok(NetStr(bytes))
            }
            None => Err(Error::truncated(self.end)),
        }
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
        self.rest.is_empty()
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

    /// `n` raw bytes; `Truncated` at the end of the message when fewer
    /// are left.
    #[inline]
    pub(crate) fn bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        match self.rest.split_at_checked(n) {
            Some((out, rest)) => {
                self.rest = rest;
                Ok(out)
            }
            None => Err(Error::truncated(self.end)),
        }
    }

    /// As many raw bytes as `size` (an earlier field) says; a negative
    /// size is [`ErrorKind::OutOfBounds`], one past the end `Truncated`.
    #[inline]
    pub(crate) fn sized(&mut self, size: i32) -> Result<&'a [u8]> {
        let n =
            usize::try_from(size).map_err(|_| Error::new(ErrorKind::OutOfBounds, self.offset()))?;
        self.bytes(n)
    }

    /// A UUID: 16 raw bytes.
    #[inline]
    pub(crate) fn uuid(&mut self) -> Result<uuid::Uuid> {
        match self.rest.split_first_chunk::<16>() {
            Some((bytes, rest)) => {
                self.rest = rest;
                Ok(uuid::Uuid::from_bytes(*bytes))
            }
            None => Err(Error::truncated(self.end)),
        }
    }

    /// Every byte left.
    #[inline]
    pub(crate) fn rest(&mut self) -> &'a [u8] {
        core::mem::take(&mut self.rest)
    }

    /// The offset in the message of the next byte to read, and the bytes
    /// left (for what follows a message's id).
    #[inline]
    pub(crate) const fn position(&self) -> (usize, &'a [u8]) {
        (self.offset(), self.rest)
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

/// Read here, beside the other fields, so that `lists` (the types) does
/// not depend on `fields` (the reading).
impl<'a, const N: usize> NetStrs<'a, N> {
    /// Reads the `N` strings' bytes: `Truncated` at the end of the message
    /// when it has fewer than `N` NULs left.
    #[inline]
    pub(crate) fn decode(f: &mut Fields<'a>) -> Result<Self> {
        let all = f.rest;
        let mut len = 0usize;
        for _ in 0..N {
            // Each string and its NUL.
            len = len.saturating_add(f.string()?.0.len()).saturating_add(1);
        }
        Ok(Self(all.get(..len).unwrap_or_default()))
    }
}

#[cfg(test)]
mod tests {
    use super::Fields;
    use crate::varint;

    /// `Fields::int` (one load of up to eight bytes, zeros past the end)
    /// reads what `varint::decode` reads from every short input over
    /// bytes at the format's edges: the same value and length, or the
    /// same error at the same offset.
    #[test]
    fn int_matches_varint_decode_near_the_end() {
        const BYTES: [u8; 8] = [0x00, 0x01, 0x3F, 0x40, 0x7F, 0x80, 0xBF, 0xFF];
        let mut buf = [0u8; 9];
        for len in 0..=7usize {
            let total = BYTES.len().pow(len as u32);
            for mut n in 0..total {
                for b in &mut buf[..len] {
                    *b = BYTES[n % BYTES.len()];
                    n /= BYTES.len();
                }
                let input = &buf[..len];
                let mut f = Fields::new(input, 3);
                let ours = f.int().map(|v| (v, len - f.rest.len()));
                let theirs = varint::decode(input).map_err(|e| e.shifted(3));
                assert_eq!(ours, theirs, "{input:02x?}");
            }
        }
        // With bytes after the int (eight or more left: the one-word load).
        for (bytes, value) in [
            (&[0x80u8, 0x01, 0, 0, 0, 0, 0, 0, 0][..], 64),
            (&[0xC0, 0x01, 9, 9, 9, 9, 9, 9][..], -65),
        ] {
            let mut f = Fields::new(bytes, 0);
            assert_eq!(f.int(), Ok(value));
            assert_eq!(f.rest.len(), bytes.len() - 2);
        }
    }
}
