//! A bounds-checked byte cursor: every read returns an error instead of
//! panicking, and every error carries the byte offset where it happened.

use crate::error::{Error, ErrorKind, Result};

/// Returns `data[start..start + len]`, or an [`ErrorKind::OutOfBounds`]
/// error at `start` if that range does not lie inside `data`.
#[inline]
pub fn subslice(data: &[u8], start: usize, len: usize) -> Result<&[u8]> {
    start
        .checked_add(len)
        .and_then(|end| data.get(start..end))
        .ok_or(Error::new(ErrorKind::OutOfBounds, start))
}

/// The index of the first NUL byte in `bytes`, if any: eight bytes at a
/// time, then the last few one by one.
///
/// Against `iter().position`, on the messages of the corpus's tutorial
/// recording that are neither PLAYER_DIFF nor INPUT_DIFF (console commands
/// and their arguments, names, drop reasons: strings of 5 bytes on
/// average), a `for` loop took 950,697 -> 917,928 instructions a pass
/// (callgrind, `benches/peers` `repeat`).
#[inline]
#[must_use]
pub(crate) fn find_nul(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut chunks = bytes.chunks_exact(8);
    let mut at = 0usize;
    for chunk in &mut chunks {
        let Ok(word) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let word = u64::from_le_bytes(word);
        // A byte's high bit here is set for a zero byte; a byte above a
        // zero one may be flagged too, but the lowest flag (the first byte
        // in little-endian order) is always a true zero.
        let zeros = word.wrapping_sub(ONES) & !word & HIGHS;
        if zeros != 0 {
            return Some(at.wrapping_add((zeros.trailing_zeros() / 8) as usize));
        }
        at = at.wrapping_add(8);
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| b == 0)
        .map(|i| at.wrapping_add(i))
}

/// Decodes a UUID stored as four little-endian ints, each holding four of
/// its bytes big-endian (datafile and snapshot extended types); `None` if
/// `ints` has fewer than four.
#[cfg(any(feature = "datafile", feature = "snapshot"))]
#[must_use]
pub fn uuid_from_ints(ints: &[zerocopy::little_endian::I32]) -> Option<uuid::Uuid> {
    let mut bytes = [0u8; 16];
    for (chunk, int) in bytes.chunks_exact_mut(4).zip(ints.get(..4)?) {
        chunk.copy_from_slice(&int.get().to_be_bytes());
    }
    Some(uuid::Uuid::from_bytes(bytes))
}

/// A forward-only reader over a byte slice.
///
/// Multi-byte reads come in little- and big-endian forms. Offsets in errors
/// are relative to the start of the slice plus the `base` given to
/// [`Cursor::with_base`], so a cursor over a section of a file reports file
/// offsets.
#[derive(Clone, Debug)]
pub struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
    base: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `data`; error offsets are relative to `data`.
    #[must_use]
    pub const fn new(data: &'a [u8]) -> Self {
        Self::with_base(data, 0)
    }

    /// A cursor over `data`, which starts `base` bytes into the whole input.
    #[must_use]
    pub const fn with_base(data: &'a [u8], base: usize) -> Self {
        Self { data, pos: 0, base }
    }

    /// Position in the input (including `base`) of the next byte to read.
    #[must_use]
    pub const fn offset(&self) -> usize {
        self.base.saturating_add(self.pos)
    }

    /// Position within this cursor's slice of the next byte to read.
    #[must_use]
    pub const fn position(&self) -> usize {
        self.pos
    }

    /// The bytes not read yet.
    #[must_use]
    pub fn rest(&self) -> &'a [u8] {
        self.data.get(self.pos..).unwrap_or_default()
    }

    /// Number of bytes not read yet.
    #[must_use]
    pub const fn remaining(&self) -> usize {
        self.data.len().saturating_sub(self.pos)
    }

    /// Whether every byte has been read.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    /// An error of `kind` at the cursor's current offset.
    #[must_use]
    pub const fn error(&self, kind: ErrorKind) -> Error {
        Error::new(kind, self.offset())
    }

    /// Reads the next `n` bytes, borrowed from the input.
    #[inline]
    pub fn bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        let rest = self.rest();
        match rest.get(..n) {
            Some(out) => {
                self.pos = self.pos.saturating_add(n);
                Ok(out)
            }
            None => Err(Error::truncated(self.base.saturating_add(self.data.len()))),
        }
    }

    /// Reads the next `N` bytes as an array.
    #[inline]
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let bytes = self.bytes(N)?;
        let mut out = [0u8; N];
        out.copy_from_slice(bytes);
        Ok(out)
    }

    /// Runs `read` on this cursor and returns what it returned with the
    /// bytes it took (a field made of several reads, borrowed whole).
    #[inline]
    pub fn span<T>(&mut self, read: impl FnOnce(&mut Self) -> Result<T>) -> Result<(T, &'a [u8])> {
        let start = self.pos;
        let rest = self.rest();
        let value = read(self)?;
        let taken = rest
            .get(..self.pos.saturating_sub(start))
            .unwrap_or_default();
        Ok((value, taken))
    }

    /// The next `N` bytes, borrowed as an array.
    #[inline]
    pub fn array_ref<const N: usize>(&mut self) -> Result<&'a [u8; N]> {
        let at = self.offset();
        <&[u8; N]>::try_from(self.bytes(N)?).map_err(|_| Error::truncated(at))
    }

    /// Skips `n` bytes.
    pub fn skip(&mut self, n: usize) -> Result<()> {
        self.bytes(n).map(|_| ())
    }

    /// The next byte, without consuming it.
    #[must_use]
    pub fn peek_u8(&self) -> Option<u8> {
        self.data.get(self.pos).copied()
    }

    /// Reads one byte.
    #[inline]
    pub fn u8(&mut self) -> Result<u8> {
        match self.data.get(self.pos) {
            Some(&b) => {
                self.pos = self.pos.saturating_add(1);
                Ok(b)
            }
            None => Err(Error::truncated(self.offset())),
        }
    }

    /// Reads one signed byte.
    pub fn i8(&mut self) -> Result<i8> {
        self.u8().map(|b| i8::from_le_bytes([b]))
    }

    /// Reads a little-endian `u16`.
    pub fn u16_le(&mut self) -> Result<u16> {
        self.array().map(u16::from_le_bytes)
    }

    /// Reads a big-endian `u16`.
    pub fn u16_be(&mut self) -> Result<u16> {
        self.array().map(u16::from_be_bytes)
    }

    /// Reads a big-endian `i16`.
    pub fn i16_be(&mut self) -> Result<i16> {
        self.array().map(i16::from_be_bytes)
    }

    /// Reads a little-endian `u32`.
    pub fn u32_le(&mut self) -> Result<u32> {
        self.array().map(u32::from_le_bytes)
    }

    /// Reads a little-endian `i32`.
    pub fn i32_le(&mut self) -> Result<i32> {
        self.array().map(i32::from_le_bytes)
    }

    /// Reads a big-endian `u32`.
    pub fn u32_be(&mut self) -> Result<u32> {
        self.array().map(u32::from_be_bytes)
    }

    /// Reads a big-endian `i32`.
    pub fn i32_be(&mut self) -> Result<i32> {
        self.array().map(i32::from_be_bytes)
    }

    /// Reads a big-endian `i64`.
    pub fn i64_be(&mut self) -> Result<i64> {
        self.array().map(i64::from_be_bytes)
    }

    /// Reads a big-endian IEEE-754 `f32`.
    pub fn f32_be(&mut self) -> Result<f32> {
        self.array().map(f32::from_be_bytes)
    }

    /// Reads one Teeworlds packed int ([`crate::varint`]).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidVarint`] at the int's offset when the input ends
    /// inside it.
    #[inline]
    pub fn packed_int(&mut self) -> Result<i32> {
        // Most ints take one byte (no "another byte follows" flag): by table.
        // Here, not in `varint::decode` (which every packed int reaches):
        // there it cost more than it saved (callgrind, teehistorian `for`
        // loop over the corpus 36.23 M -> 38.89 M instructions, per tiny
        // file 900 -> 1002).
        if let Some(&first) = self.data.get(self.pos) {
            if first & 0x80 == 0 {
                self.pos = self.pos.saturating_add(1);
                return Ok(crate::varint::decode_one_byte(first));
            }
        }
        let (value, len) =
            crate::varint::decode(self.rest()).map_err(|e| e.shifted(self.offset()))?;
        // `len <= rest.len()` always, so this cannot fail; it only advances.
        self.bytes(len)?;
        Ok(value)
    }

    /// Reads bytes up to a NUL byte and consumes the NUL; returns the bytes
    /// before it. Fails with [`ErrorKind::Truncated`] if there is no NUL.
    pub fn cstr_bytes(&mut self) -> Result<&'a [u8]> {
        let rest = self.rest();
        let Some(len) = find_nul(rest) else {
            return Err(Error::truncated(self.base.saturating_add(self.data.len())));
        };
        let out = rest.get(..len).unwrap_or_default();
        // The NUL lies inside the data: no overflow.
        self.pos = self.pos.wrapping_add(len).wrapping_add(1);
        Ok(out)
    }

    /// Reads a NUL-terminated UTF-8 string and consumes the NUL.
    pub fn cstr(&mut self) -> Result<&'a str> {
        let start = self.offset();
        let bytes = self.cstr_bytes()?;
        core::str::from_utf8(bytes).map_err(|_| Error::new(ErrorKind::InvalidString, start))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_endiannesses() {
        let mut c = Cursor::new(&[1, 0, 0, 0, 0, 0, 0, 2, 0xff, 0xfe]);
        assert_eq!(c.u32_le(), Ok(1));
        assert_eq!(c.u32_be(), Ok(2));
        assert_eq!(c.i16_be(), Ok(-2));
        assert!(c.is_empty());
    }

    #[test]
    fn errors_carry_offsets_and_do_not_advance() {
        let mut c = Cursor::with_base(&[1, 2, 3], 100);
        assert_eq!(c.u8(), Ok(1));
        assert_eq!(c.u32_le(), Err(Error::truncated(103)));
        assert_eq!(c.offset(), 101);
        assert_eq!(c.bytes(2), Ok(&[2u8, 3][..]));
        assert_eq!(c.u8(), Err(Error::truncated(103)));
        assert_eq!(c.bytes(usize::MAX), Err(Error::truncated(103)));
    }

    /// Every NUL place (or none) in inputs of 0 to 24 bytes, the other
    /// bytes drawn from those that fool a careless zero-byte test (0x01
    /// after a NUL borrows; 0x80 and 0xFF have the high bit): the same
    /// answer as a search byte by byte.
    #[test]
    fn find_nul_equals_bytewise_search() {
        let fillers = [0x01u8, 0x80, 0xFF, 0x7F, b'a'];
        for len in 0..=24usize {
            for nul in (0..len).map(Some).chain([None]) {
                for (k, _) in fillers.iter().enumerate() {
                    let mut buf = [0u8; 24];
                    for (i, b) in buf.iter_mut().enumerate() {
                        if nul != Some(i) {
                            *b = fillers[(i + k) % fillers.len()];
                        }
                    }
                    let bytes = &buf[..len];
                    let expected = bytes.iter().position(|&b| b == 0);
                    assert_eq!(find_nul(bytes), expected, "{bytes:02x?}");
                }
            }
        }
        // Two NULs in one word: the first counts.
        assert_eq!(find_nul(&[1, 0, 1, 0, 1, 1, 1, 1, 1]), Some(1));
        assert_eq!(find_nul(&[1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0]), Some(9));
    }

    #[test]
    fn cstr_needs_nul_and_utf8() {
        let mut c = Cursor::new(b"ab\0\xff\0cd");
        assert_eq!(c.cstr(), Ok("ab"));
        assert_eq!(c.cstr(), Err(Error::new(ErrorKind::InvalidString, 3)));
        assert_eq!(c.cstr(), Err(Error::truncated(7)));
    }

    #[test]
    fn subslice_is_checked() {
        assert_eq!(subslice(b"abcd", 1, 2), Ok(&b"bc"[..]));
        assert!(subslice(b"abcd", 3, 2).is_err());
        assert!(subslice(b"abcd", usize::MAX, 2).is_err());
    }
}
