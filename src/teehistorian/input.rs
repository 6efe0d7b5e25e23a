//! [`PackedInput`]: a player input as a message holds it, compact, its
//! ten ints given by [`PackedInput::get`].
//!
//! ```
//! use gamefmt::teehistorian::PackedInput;
//! let input = [1, -300, 200, 0, 0, 0, 0, 0, 0, 0];
//! // Its packed ints as a file holds them (-300 and 200 take two bytes).
//! let bytes = [1, 0xEB, 0x04, 0x88, 0x03, 0, 0, 0, 0, 0, 0, 0];
//! let packed = PackedInput::new(&bytes).unwrap();
//! assert_eq!(packed.get(), input);
//! // One to write: the ints themselves, borrowed.
//! assert_eq!(PackedInput::from_ints(&input), packed);
//! ```

use core::fmt;

use crate::bytes::Cursor;

/// Number of ints in a player input (`CNetObj_PlayerInput`): direction,
/// target x, target y, jump, fire, hook, player flags, wanted weapon, next
/// weapon, previous weapon.
pub const INPUT_INTS: usize = 10;

/// One player input, or the component-wise (wrapping) difference of two.
pub type Input = [i32; INPUT_INTS];

/// The ten ints of a player input (INPUT_DIFF, INPUT_NEW), kept compact:
/// [`PackedInput::get`] gives them.
///
/// A message keeps this rather than the [`Input`] itself (40 bytes): that
/// made every [`Message`](super::Message), and so every record a decoder
/// yields, 16 bytes wider, which a loop that stores its records (a `for`
/// loop handing each to opaque code) wrote for every message. An input of
/// the usual shape (the aim in one or two bytes per int, every other int
/// in one) is kept decoded, eight of its ints a byte each; any other
/// borrows its packed ints from the file (checked by the decoder: exactly
/// ten); one made to be written borrows its ints
/// ([`PackedInput::from_ints`]). Two inputs are equal when their ints are.
#[derive(Clone, Copy)]
pub struct PackedInput<'a>(Repr<'a>);

#[derive(Clone, Copy)]
enum Repr<'a> {
    /// The aim (ints 1 and 2) and the other eight ints, a byte each
    /// (little-endian: the direction, then ints 3 to 9).
    Short { ones: u64, x: i32, y: i32 },
    /// Exactly ten packed ints.
    Packed(&'a [u8]),
    /// The ints themselves.
    Ints(&'a Input),
}

impl<'a> PackedInput<'a> {
    /// The input packed in `bytes`, if they are exactly ten packed ints.
    #[must_use]
    pub fn new(bytes: &'a [u8]) -> Option<Self> {
        let mut c = Cursor::new(bytes);
        read_ints(&mut c).ok()?;
        c.is_empty().then_some(Self(Repr::Packed(bytes)))
    }

    /// `ints`, decoded from `bytes` (exactly their packed form): kept
    /// decoded if every int but the aim fits in a byte, else as `bytes`.
    pub(crate) fn from_decoded(ints: &Input, bytes: &'a [u8]) -> Self {
        let [direction, x, y, rest @ ..] = *ints;
        let mut ones = [0u8; 8];
        for (byte, &v) in ones
            .iter_mut()
            .zip(core::iter::once(&direction).chain(&rest))
        {
            match i8::try_from(v) {
                Ok(small) => *byte = small.to_le_bytes()[0],
                Err(_) => return Self(Repr::Packed(bytes)),
            }
        }
        Self::short(u64::from_le_bytes(ones), x, y)
    }

    /// An input of the usual shape: the aim `x` and `y`, and the other
    /// eight ints as bytes (`ones`, little-endian: the direction, then
    /// ints 3 to 9), each an `i8`.
    #[inline(always)]
    pub(crate) const fn short(ones: u64, x: i32, y: i32) -> Self {
        Self(Repr::Short { ones, x, y })
    }

    /// An input of these ints (to write one, or to compare).
    #[must_use]
    pub const fn from_ints(input: &'a Input) -> Self {
        Self(Repr::Ints(input))
    }

    /// The ten ints.
    #[inline]
    #[must_use]
    pub fn get(&self) -> Input {
        match self.0 {
            Repr::Short { ones, x, y } => {
                let [direction, r0, r1, r2, r3, r4, r5, r6] = ones
                    .to_le_bytes()
                    .map(|b| i32::from(i8::from_le_bytes([b])));
                [direction, x, y, r0, r1, r2, r3, r4, r5, r6]
            }
            Repr::Packed(bytes) => unpack(bytes),
            Repr::Ints(&input) => input,
        }
    }
}

/// Ten packed ints (checked: [`PackedInput::new`] or the decoder, so the
/// default is never taken). Out of line: the usual input is the short
/// form, and this inlined into [`PackedInput::get`] grew every consumer's
/// code (corpus instructions a pass, callgrind: `for_each` +2.8%, `for`
/// loop +1.7%).
#[inline(never)]
fn unpack(bytes: &[u8]) -> Input {
    read_ints(&mut Cursor::new(bytes)).unwrap_or_default()
}

/// Reads the ten packed ints of an input, in order.
#[inline]
pub(crate) fn read_ints(c: &mut Cursor<'_>) -> crate::error::Result<Input> {
    let mut out = [0i32; INPUT_INTS];
    for v in &mut out {
        *v = c.packed_int()?;
    }
    Ok(out)
}

impl PartialEq for PackedInput<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

impl Eq for PackedInput<'_> {}

impl fmt::Debug for PackedInput<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.get().fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::varint;

    #[test]
    fn checks_and_compares_by_value() {
        let input = [0, 63, -64, 64, -65, 8191, -8192, i32::MAX, i32::MIN, 7];
        let mut bytes = [0u8; 50];
        let mut len = 0;
        for v in input {
            let mut one = [0u8; varint::MAX_LEN];
            let n = varint::encode(v, &mut one);
            bytes[len..len + n].copy_from_slice(&one[..n]);
            len += n;
        }
        // 1 + 1 + 1 + 2 + 2 + 2 + 2 + 5 + 5 + 1 bytes.
        assert_eq!(len, 22);
        let packed = PackedInput::new(&bytes[..22]).unwrap();
        assert_eq!(packed.get(), input);
        assert_eq!(packed, PackedInput::from_ints(&input));
        // One int short, one byte more, ten ints cut: not an input.
        assert_eq!(PackedInput::new(&bytes[..21]), None);
        assert_eq!(PackedInput::new(&bytes[..23]), None);
        assert_eq!(PackedInput::new(&[0; 9]), None);
        // A longer (non-canonical) form of 0 is 0.
        let mut wide = [0u8; 11];
        wide[0] = 0x80;
        assert_eq!(PackedInput::new(&wide), PackedInput::new(&[0; 10]));
        // The short form: the same ints, however kept.
        let ints = [-1, 300, -200, 2, -3, 4, -64, 63, 0, 1];
        let ones = u64::from_le_bytes([-1i8, 2, -3, 4, -64, 63, 0, 1].map(|b| b as u8));
        let short = PackedInput::short(ones, 300, -200);
        assert_eq!(short.get(), ints);
        assert_eq!(short, PackedInput::from_ints(&ints));
        assert_ne!(short, PackedInput::from_ints(&input));
    }
}
