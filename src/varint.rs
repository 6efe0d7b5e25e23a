//! The Teeworlds packed integer ("varint") and packed int arrays.
//!
//! A signed 32-bit value is stored as a sign bit and a 31-bit magnitude
//! (`!v` for negative `v`), little-endian in 6 + 7 + 7 + 7 + 4 bits over at
//! most five bytes; bit 7 of each of the first four bytes says another byte
//! follows. Decoding follows DDNet: over-long encodings are accepted, only
//! the low 4 bits of a fifth byte count, and a sixth byte is never read.
//! Encoding always produces the shortest form.
//!
//! ```
//! use gamefmt::varint;
//! let mut buf = [0u8; varint::MAX_LEN];
//! let n = varint::encode(-65, &mut buf);
//! assert_eq!(&buf[..n], &[0xC0, 0x01]);
//! assert_eq!(varint::decode(&buf[..n]), Ok((-65, 2)));
//! ```

use crate::error::{Error, ErrorKind, Result};

/// The longest encoding of one packed int, in bytes.
pub const MAX_LEN: usize = 5;

const EXTEND: u8 = 0x80;
const SIGN: u8 = 0x40;

/// Decodes one packed int from the start of `src`.
///
/// Returns the value and the number of bytes it took. Fails with
/// [`ErrorKind::InvalidVarint`] at offset 0 if `src` ends while another byte
/// is announced.
#[inline]
pub fn decode(src: &[u8]) -> Result<(i32, usize)> {
    let Some(&first) = src.first() else {
        return Err(Error::new(ErrorKind::InvalidVarint, 0));
    };
    let sign = u32::from(first & SIGN != 0);
    let mut magnitude = u32::from(first & 0x3F);
    let mut len = 1usize;
    if first & EXTEND != 0 {
        // Bytes 2..=4 carry 7 bits each; byte 5 carries 4.
        let mut shift = 6u32;
        loop {
            let Some(&b) = src.get(len) else {
                return Err(Error::new(ErrorKind::InvalidVarint, 0));
            };
            len = len.wrapping_add(1);
            if len == MAX_LEN {
                magnitude |= u32::from(b & 0x0F) << shift;
                break;
            }
            magnitude |= u32::from(b & 0x7F) << shift;
            if b & EXTEND == 0 {
                break;
            }
            shift = shift.wrapping_add(7);
        }
    }
    Ok(((magnitude ^ sign.wrapping_neg()) as i32, len))
}

/// Decodes a packed int that fits in one byte, by table: the value
/// [`decode`] gives for `[byte]` when bit 7 (the "another byte follows"
/// flag) is clear, which a fast path checks first. Bit 7 is ignored: when
/// it is set, the int goes on in the next byte and this is not its value.
#[inline(always)]
#[must_use]
pub fn decode_one_byte(byte: u8) -> i32 {
    // A table of 256 takes any byte, so the index needs no check.
    ONE_BYTE.get(usize::from(byte)).map_or(0, |&v| i32::from(v))
}

/// Every one-byte packed int, by its byte: six magnitude bits, flipped
/// (`!v`) when the sign bit 0x40 is set; bit 7 is ignored.
#[allow(
    clippy::indexing_slicing,
    reason = "compile-time table: b < 256 by the loop condition"
)]
const ONE_BYTE: [i8; 256] = {
    let mut table = [0i8; 256];
    let mut b = 0;
    while b < 256 {
        let magnitude = (b & 0x3F) as i8;
        table[b] = if b & 0x40 != 0 { !magnitude } else { magnitude };
        b += 1;
    }
    table
};

/// Decodes the packed int at the start of `word` (the next eight bytes of
/// the input, little-endian; an int takes at most five) as [`decode`]
/// does: returns the value and the length (1 to 5). One branch per
/// length, as in [`decode`] (predicted, they keep the position of the
/// next int off the chain of this one's bytes), but no load or bounds
/// check per byte.
#[cfg(any(feature = "snapshot", feature = "netmsg"))]
#[inline(always)]
#[must_use]
pub(crate) fn decode_word(word: u64) -> (i32, usize) {
    // Six bits of the first byte, seven of each next one, four of the
    // fifth.
    let b1 = word >> 2 & 0x1FC0;
    let b2 = word >> 3 & 0xF_E000;
    let b3 = word >> 4 & 0x7F0_0000;
    let b4 = word >> 5 & 0x7800_0000;
    let (magnitude, len) = if word & 0x80 == 0 {
        (0, 1)
    } else if word & 0x8000 == 0 {
        (b1, 2)
    } else if word & 0x80_0000 == 0 {
        (b1 | b2, 3)
    } else if word & 0x8000_0000 == 0 {
        (b1 | b2 | b3, 4)
    } else {
        (b1 | b2 | b3 | b4, 5)
    };
    let sign = (word >> 6 & 1) as u32;
    (
        ((magnitude | word & 0x3F) as u32 ^ sign.wrapping_neg()) as i32,
        len,
    )
}

/// Decodes a packed int that takes one or two bytes, from its first two
/// bytes (`second` is ignored when `first` ends the int), without a
/// branch: returns the value, the length, and whether the int does end
/// within the two (when it does not, the value and length mean nothing
/// and [`decode`] must handle it).
#[cfg(any(test, feature = "teehistorian"))]
#[inline(always)]
#[must_use]
pub(crate) fn decode_up_to_two_bytes(first: u8, second: u8) -> (i32, usize, bool) {
    let two = first >> 7;
    let ends = two & (second >> 7) == 0;
    // The second byte's seven bits count only when the first goes on.
    let high = (u32::from(second & 0x7F) << 6) & u32::from(two).wrapping_neg();
    let sign = u32::from(first & SIGN != 0).wrapping_neg();
    let value = ((u32::from(first & 0x3F) | high) ^ sign) as i32;
    (value, 1usize.wrapping_add(usize::from(two)), ends)
}

/// Encodes `value` in its shortest form into `out`; returns the length used.
#[inline]
pub fn encode(value: i32, out: &mut [u8; MAX_LEN]) -> usize {
    let sign = if value < 0 { SIGN } else { 0 };
    // For negative values the magnitude is !v, which is non-negative.
    let mut magnitude = (if value < 0 { !value } else { value }) as u32;
    let mut len = 0usize;
    let mut byte = sign | (magnitude & 0x3F) as u8;
    magnitude >>= 6;
    for slot in out.iter_mut() {
        if magnitude == 0 {
            *slot = byte;
            len = len.wrapping_add(1);
            break;
        }
        *slot = byte | EXTEND;
        len = len.wrapping_add(1);
        byte = (magnitude & 0x7F) as u8;
        magnitude >>= 7;
    }
    len
}

/// Unpacks a stream of packed ints (`src`) into `dst`.
///
/// Returns the number of ints written. Fails with
/// [`ErrorKind::InvalidVarint`] at the offset of an int cut short by the end
/// of `src`, or with [`ErrorKind::BufferTooSmall`] (at the offset of the
/// first int that did not fit, `needed` = total ints in `src`) when `dst` is
/// too short.
pub fn unpack_ints(src: &[u8], dst: &mut [i32]) -> Result<usize> {
    let mut pos = 0usize;
    let mut count = 0usize;
    while let Some(rest) = src.get(pos..).filter(|r| !r.is_empty()) {
        let (value, len) = decode(rest).map_err(|e| e.shifted(pos))?;
        match dst.get_mut(count) {
            Some(slot) => *slot = value,
            None => {
                let needed = count.saturating_add(count_ints(rest)?);
                return Err(Error::new(ErrorKind::BufferTooSmall { needed }, pos));
            }
        }
        pos = pos.saturating_add(len);
        count = count.saturating_add(1);
    }
    Ok(count)
}

/// Counts the packed ints in `src` without storing them.
pub fn count_ints(src: &[u8]) -> Result<usize> {
    let mut pos = 0usize;
    let mut count = 0usize;
    while let Some(rest) = src.get(pos..).filter(|r| !r.is_empty()) {
        let (_, len) = decode(rest).map_err(|e| e.shifted(pos))?;
        pos = pos.saturating_add(len);
        count = count.saturating_add(1);
    }
    Ok(count)
}

/// Packs `src` into `dst` as back-to-back packed ints; returns the number of
/// bytes written, or [`ErrorKind::BufferTooSmall`] with `needed` = the bytes
/// the whole array takes.
pub fn pack_ints(src: &[i32], dst: &mut [u8]) -> Result<usize> {
    let mut pos = 0usize;
    let mut buf = [0u8; MAX_LEN];
    for &value in src {
        let len = encode(value, &mut buf);
        let end = pos.saturating_add(len);
        let (Some(out), Some(encoded)) = (dst.get_mut(pos..end), buf.get(..len)) else {
            let needed = src
                .iter()
                .fold(0usize, |n, &v| n.saturating_add(encode(v, &mut buf)));
            return Err(Error::new(ErrorKind::BufferTooSmall { needed }, 0));
        };
        out.copy_from_slice(encoded);
        pos = end;
    }
    Ok(pos)
}

/// Appends the packed form of `value` to `out`.
#[cfg(feature = "alloc")]
pub fn encode_to_vec(value: i32, out: &mut alloc::vec::Vec<u8>) {
    let mut buf = [0u8; MAX_LEN];
    let len = encode(value, &mut buf);
    out.extend_from_slice(buf.get(..len).unwrap_or_default());
}

#[cfg(test)]
#[allow(
    clippy::indexing_slicing,
    reason = "unit tests: a panic is the failure report"
)]
mod tests {
    use super::*;

    /// (value, shortest encoding) — every length boundary of the format.
    const CANONICAL: &[(i32, &[u8])] = &[
        (0, &[0x00]),
        (1, &[0x01]),
        (63, &[0x3F]),
        (64, &[0x80, 0x01]),
        (-1, &[0x40]),
        (-64, &[0x7F]),
        (-65, &[0xC0, 0x01]),
        (8191, &[0xBF, 0x7F]),
        (8192, &[0x80, 0x80, 0x01]),
        (-8192, &[0xFF, 0x7F]),
        (-8193, &[0xC0, 0x80, 0x01]),
        (1_048_575, &[0xBF, 0xFF, 0x7F]),
        (1_048_576, &[0x80, 0x80, 0x80, 0x01]),
        (-1_048_577, &[0xC0, 0x80, 0x80, 0x01]),
        (134_217_727, &[0xBF, 0xFF, 0xFF, 0x7F]),
        (134_217_728, &[0x80, 0x80, 0x80, 0x80, 0x01]),
        (-134_217_729, &[0xC0, 0x80, 0x80, 0x80, 0x01]),
        (i32::MAX, &[0xBF, 0xFF, 0xFF, 0xFF, 0x0F]),
        (i32::MIN, &[0xFF, 0xFF, 0xFF, 0xFF, 0x0F]),
    ];

    #[test]
    fn canonical_encodings_round_trip() {
        for &(value, bytes) in CANONICAL {
            let mut buf = [0u8; MAX_LEN];
            let len = encode(value, &mut buf);
            assert_eq!(&buf[..len], bytes, "encode {value}");
            assert_eq!(decode(bytes), Ok((value, bytes.len())), "decode {value}");
        }
    }

    /// Non-canonical inputs, decoded the way DDNet decodes them.
    const LENIENT: &[(&[u8], i32, usize)] = &[
        (&[0x80, 0x00], 0, 2),                          // over-long zero
        (&[0xC0, 0x00], -1, 2),                         // over-long -1
        (&[0x80, 0x80, 0x80, 0x80, 0x00], 0, 5),        // five-byte zero
        (&[0xFF, 0xFF, 0xFF, 0xFF, 0xFF], i32::MIN, 5), // fifth byte masked to 4 bits
        (&[0xBF, 0xFF, 0xFF, 0xFF, 0xFF], i32::MAX, 5),
        (&[0x81, 0x80, 0x80, 0x80, 0x80, 0x05], 1, 5), // never reads a sixth byte
        (&[0x05, 0xFF], 5, 1),                         // stops at a clear extend bit
    ];

    #[test]
    fn lenient_decoding_matches_ddnet() {
        for &(bytes, value, len) in LENIENT {
            assert_eq!(decode(bytes), Ok((value, len)), "{bytes:02x?}");
        }
    }

    #[test]
    fn one_byte_form_matches_decode() {
        for byte in 0..0x80u8 {
            assert_eq!(
                decode(&[byte]),
                Ok((decode_one_byte(byte), 1)),
                "{byte:02x}"
            );
        }
    }

    #[test]
    fn up_to_two_bytes_matches_decode() {
        for first in 0..=0xFFu8 {
            for second in 0..=0xFFu8 {
                let (value, len, ends) = decode_up_to_two_bytes(first, second);
                let src = [first, second, 0x80, 0x80, 0x00];
                if ends {
                    assert_eq!(decode(&src), Ok((value, len)), "{src:02x?}");
                } else {
                    assert!(first & EXTEND != 0 && second & EXTEND != 0);
                }
            }
        }
    }

    #[cfg(any(feature = "snapshot", feature = "netmsg"))]
    #[test]
    fn word_form_matches_decode() {
        let check = |bytes: [u8; 8]| {
            let (value, len) = decode_word(u64::from_le_bytes(bytes));
            assert_eq!(decode(&bytes), Ok((value, len)), "{bytes:02x?}");
        };
        // Every length, sign and byte at every place of the int.
        for len in 1..=MAX_LEN {
            for b in 0..=0xFFu8 {
                for place in 0..len {
                    let mut bytes = [0x80u8; 8];
                    bytes[len - 1] = 0x00;
                    bytes[place] = if place + 1 < len { b | 0x80 } else { b & 0x7F };
                    check(bytes);
                    bytes[place] = b;
                    check(bytes);
                }
            }
        }
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..1_000_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            check(x.to_le_bytes());
        }
    }

    #[test]
    fn truncated_input_is_an_error() {
        for bytes in [&[][..], &[0x80], &[0xFF, 0xFF], &[0x80, 0x80, 0x80, 0x80]] {
            assert_eq!(
                decode(bytes),
                Err(Error::new(ErrorKind::InvalidVarint, 0)),
                "{bytes:02x?}"
            );
        }
    }

    #[test]
    fn every_value_class_round_trips() {
        let mut x: u32 = 0x1234_5678;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let v = (x as i32) >> (x % 31);
            let mut buf = [0u8; MAX_LEN];
            let len = encode(v, &mut buf);
            assert_eq!(decode(&buf[..len]), Ok((v, len)));
        }
    }

    #[test]
    fn arrays_pack_and_unpack() {
        let values = [0, -1, 64, i32::MIN, i32::MAX, 8192, -65];
        let mut packed = [0u8; 64];
        let n = pack_ints(&values, &mut packed).unwrap();
        assert_eq!(n, 1 + 1 + 2 + 5 + 5 + 3 + 2);
        let mut out = [0i32; 7];
        assert_eq!(unpack_ints(&packed[..n], &mut out), Ok(7));
        assert_eq!(out, values);

        let mut small = [0i32; 3];
        assert_eq!(
            unpack_ints(&packed[..n], &mut small),
            Err(Error::new(ErrorKind::BufferTooSmall { needed: 7 }, 4))
        );
        assert_eq!(
            pack_ints(&values, &mut packed[..4]),
            Err(Error::new(ErrorKind::BufferTooSmall { needed: 19 }, 0))
        );
        // An int cut short at the end reports its own offset.
        assert_eq!(
            unpack_ints(&[0x01, 0x80], &mut out),
            Err(Error::new(ErrorKind::InvalidVarint, 1))
        );
    }
}
