//! [`I32String`]: short names stored inside items as ints — map layer,
//! group and envelope names, and player names, clans and skins in snapshot
//! client info objects.
//!
//! ```
//! use gamefmt::i32string::I32String;
//! use zerocopy::little_endian::I32;
//!
//! // "ab" in 2 ints: each byte + 128, big-endian, last byte forced to NUL.
//! let ints = [I32::new(i32::from_be_bytes([0xE1, 0xE2, 0x80, 0x80])), I32::new(0)];
//! assert_eq!(I32String::new(&ints).decode().as_bytes(), b"ab");
//! ```

use core::fmt;

use zerocopy::little_endian::I32;

use crate::error::{Error, ErrorKind, Result};

/// Longest I32String in a map item: an envelope name, 8 ints.
const MAX_BYTES: usize = 32;

/// A name stored in an item as a few ints (layer and group names: 3 ints,
/// envelope names: 8 ints), borrowed in place.
///
/// Each int holds 4 bytes in big-endian order, each byte stored plus 128;
/// the last byte is always treated as NUL and the name ends at the first
/// NUL, so a 3-int name holds at most 11 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct I32String<'a> {
    ints: &'a [I32],
}

impl<'a> I32String<'a> {
    /// Wraps the ints of a name.
    #[must_use]
    pub const fn new(ints: &'a [I32]) -> Self {
        Self { ints }
    }

    /// The stored ints.
    #[must_use]
    pub const fn ints(&self) -> &'a [I32] {
        self.ints
    }

    /// Decodes the name into a small inline buffer (up to 31 bytes are kept).
    #[must_use]
    pub fn decode(&self) -> Name {
        let mut bytes = [0u8; MAX_BYTES];
        let mut len = 0usize;
        let total = self.ints.len().saturating_mul(4).min(MAX_BYTES);
        'outer: for int in self.ints {
            for b in int.get().to_be_bytes() {
                let c = b.wrapping_sub(128);
                // The last byte is forced to NUL.
                if c == 0 || len.saturating_add(1) >= total {
                    break 'outer;
                }
                if let Some(slot) = bytes.get_mut(len) {
                    *slot = c;
                }
                len = len.saturating_add(1);
            }
        }
        Name {
            bytes,
            len: len as u8,
        }
    }
}

/// A decoded [`I32String`]: up to 31 bytes, `Copy`, no allocation.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Name {
    bytes: [u8; MAX_BYTES],
    len: u8,
}

impl Name {
    /// The name's bytes (no NUL).
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.get(..usize::from(self.len)).unwrap_or_default()
    }

    /// The name as UTF-8, as DDNet requires it to be.
    pub fn to_str(&self) -> Result<&str> {
        core::str::from_utf8(self.as_bytes())
            .map_err(|e| Error::new(ErrorKind::InvalidString, e.valid_up_to()))
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Name(\"{self}\")")
    }
}

impl fmt::Display for Name {
    /// Writes the name, replacing invalid UTF-8 by U+FFFD.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for chunk in self.as_bytes().utf8_chunks() {
            f.write_str(chunk.valid())?;
            if !chunk.invalid().is_empty() {
                f.write_str("\u{FFFD}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
#[allow(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::arithmetic_side_effects,
    reason = "unit tests: a panic is the failure report"
)]
mod tests {
    use super::*;

    fn encode(s: &[u8], n: usize) -> [I32; 8] {
        let mut ints = [I32::new(0); 8];
        for (i, int) in ints.iter_mut().take(n).enumerate() {
            let mut b = [0u8; 4];
            for (j, byte) in b.iter_mut().enumerate() {
                *byte = s.get(i * 4 + j).copied().unwrap_or(0).wrapping_add(128);
            }
            *int = I32::new(i32::from_be_bytes(b));
        }
        ints
    }

    #[test]
    fn decodes_and_forces_last_nul() {
        let ints = encode(b"Game", 3);
        let name = I32String::new(&ints[..3]).decode();
        assert_eq!(name.to_str().unwrap(), "Game");
        // 12 bytes of text in 3 ints: the 12th is dropped (forced NUL).
        let ints = encode(b"abcdefghijkl", 3);
        assert_eq!(
            I32String::new(&ints[..3]).decode().as_bytes(),
            b"abcdefghijk"
        );
        assert_eq!(I32String::new(&[]).decode().as_bytes(), b"");
    }
}
