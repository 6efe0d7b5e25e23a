//! Base64 decoding into a caller's buffer: the payloads of Dolphin's
//! spectator messages.

use crate::error::{Error, ErrorKind, Result};

/// The value of one base64 digit: the standard alphabet, and the URL-safe
/// `-` and `_` that Node's `Buffer.from(s, "base64")` (slippi-js's
/// decoder) also reads.
const fn digit(c: u8) -> Option<u8> {
    Some(match c {
        b'A'..=b'Z' => c.wrapping_sub(b'A'),
        b'a'..=b'z' => c.wrapping_sub(b'a').wrapping_add(26),
        b'0'..=b'9' => c.wrapping_sub(b'0').wrapping_add(52),
        b'+' | b'-' => 62,
        b'/' | b'_' => 63,
        _ => return None,
    })
}

/// The text without its trailing `=` padding (at most two).
fn unpadded(text: &[u8]) -> &[u8] {
    let mut t = text;
    for _ in 0..2 {
        if let Some((b'=', rest)) = t.split_last() {
            t = rest;
        }
    }
    t
}

/// How many bytes `text` decodes to (padding optional).
#[must_use]
pub fn decoded_len(text: &[u8]) -> usize {
    let n = unpadded(text).len();
    // 3 bytes per 4 digits; a tail of 2 or 3 digits gives 1 or 2 bytes.
    (n / 4)
        .saturating_mul(3)
        .saturating_add((n % 4).saturating_sub(1))
}

/// Decodes base64 `text` into `out`, returning the bytes written.
///
/// ```
/// use gamefmt::slippi::live::base64;
/// let mut out = [0u8; 8];
/// let n = base64::decode(b"NQ8=", &mut out)?;
/// assert_eq!(&out[..n], &[0x35, 0x0f]);
/// # Ok::<(), gamefmt::Error>(())
/// ```
///
/// # Errors
/// [`ErrorKind::BufferTooSmall`] (with [`decoded_len`]) when `out` is too
/// small; [`ErrorKind::Corrupt`] at the first character that is not a
/// base64 digit, or for a lone digit at the end.
pub fn decode(text: &[u8], out: &mut [u8]) -> Result<usize> {
    let needed = decoded_len(text);
    let Some(out) = out.get_mut(..needed) else {
        return Err(Error::new(ErrorKind::BufferTooSmall { needed }, 0));
    };
    let digits = unpadded(text);
    if digits.len() % 4 == 1 {
        return Err(Error::corrupt(
            "base64 text ends with a lone digit",
            digits.len(),
        ));
    }
    let mut acc: u32 = 0;
    let mut bits = 0u32;
    let mut written = 0usize;
    for (i, &c) in digits.iter().enumerate() {
        let Some(d) = digit(c) else {
            return Err(Error::corrupt("not a base64 digit", i));
        };
        acc = (acc << 6) | u32::from(d);
        bits = bits.wrapping_add(6);
        if bits >= 8 {
            bits = bits.wrapping_sub(8);
            if let Some(slot) = out.get_mut(written) {
                *slot = (acc >> bits).to_be_bytes()[3];
            }
            written = written.saturating_add(1);
            acc &= (1u32 << bits).wrapping_sub(1);
        }
    }
    Ok(written.min(needed))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing, reason = "unit tests")]
mod tests {
    use super::*;

    #[test]
    fn rfc4648_vectors() {
        // RFC 4648 section 10.
        let cases: [(&[u8], &[u8]); 7] = [
            (b"", b""),
            (b"Zg==", b"f"),
            (b"Zm8=", b"fo"),
            (b"Zm9v", b"foo"),
            (b"Zm9vYg==", b"foob"),
            (b"Zm9vYmE=", b"fooba"),
            (b"Zm9vYmFy", b"foobar"),
        ];
        for (text, bytes) in cases {
            let mut out = [0u8; 8];
            assert_eq!(decoded_len(text), bytes.len());
            let n = decode(text, &mut out).unwrap();
            assert_eq!(&out[..n], bytes);
            // Unpadded too.
            let bare = unpadded(text);
            let n = decode(bare, &mut out).unwrap();
            assert_eq!(&out[..n], bytes);
        }
        let mut small = [0u8; 2];
        assert_eq!(
            decode(b"Zm9v", &mut small).unwrap_err().kind,
            ErrorKind::BufferTooSmall { needed: 3 }
        );
        assert!(decode(b"Zm9*", &mut [0u8; 8]).is_err());
        assert!(decode(b"Zm9vY", &mut [0u8; 8]).is_err());
        // Every byte value through the URL-safe digits.
        let mut out = [0u8; 3];
        assert_eq!(decode(b"-_-_", &mut out).unwrap(), 3);
        assert_eq!(out, [0xfb, 0xff, 0xbf]);
    }
}
