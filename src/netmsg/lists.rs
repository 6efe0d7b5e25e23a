//! Fields that run to the end of a message: [`PackedInts`] (tune
//! parameters, an input's ints, team states) and [`Strings`] (map list
//! entries, 0.7 vote options), both borrowed and read lazily; and
//! [`NetStrs`], a fixed number of strings in a row (a 0.7 tee's skin
//! parts, a 0.6 vote option list's descriptions), found when the message
//! is decoded and read on request.

use crate::bytes::Cursor;

use super::string::NetStr;

/// Packed ints up to the end of a message, read lazily. Iteration stops
/// at the end or at the first invalid int (see [`PackedInts::is_complete`]).
/// In a demo the chunk's zero padding reads as trailing zeros.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct PackedInts<'a>(pub &'a [u8]);

impl<'a> PackedInts<'a> {
    /// The bytes as sent.
    #[must_use]
    pub const fn bytes(&self) -> &'a [u8] {
        self.0
    }

    /// Whether every byte belongs to a valid packed int.
    #[must_use]
    pub fn is_complete(&self) -> bool {
        let mut c = Cursor::new(self.0);
        while !c.is_empty() {
            if c.packed_int().is_err() {
                return false;
            }
        }
        true
    }

    /// The ints.
    #[must_use]
    #[inline]
    pub fn iter(&self) -> PackedIntsIter<'a> {
        PackedIntsIter(Cursor::new(self.0))
    }
}

impl<'a> IntoIterator for PackedInts<'a> {
    type Item = i32;
    type IntoIter = PackedIntsIter<'a>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl core::fmt::Debug for PackedInts<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The iterator of [`PackedInts`].
#[derive(Clone, Debug)]
pub struct PackedIntsIter<'a>(Cursor<'a>);

impl Iterator for PackedIntsIter<'_> {
    type Item = i32;
    #[inline]
    fn next(&mut self) -> Option<i32> {
        if self.0.is_empty() {
            return None;
        }
        let v = self.0.packed_int().ok();
        if v.is_none() {
            self.0 = Cursor::new(&[]);
        }
        v
    }
}

impl core::iter::FusedIterator for PackedIntsIter<'_> {}

/// NUL-terminated strings up to the end of a message, read lazily; a last
/// string without its NUL is left out. In a demo the chunk's zero padding
/// reads as trailing empty strings.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct Strings<'a>(pub &'a [u8]);

impl<'a> Strings<'a> {
    /// The bytes as sent.
    #[must_use]
    pub const fn bytes(&self) -> &'a [u8] {
        self.0
    }

    /// The strings.
    #[must_use]
    pub fn iter(&self) -> StringsIter<'a> {
        StringsIter(Cursor::new(self.0))
    }
}

impl<'a> IntoIterator for Strings<'a> {
    type Item = super::NetStr<'a>;
    type IntoIter = StringsIter<'a>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl core::fmt::Debug for Strings<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The iterator of [`Strings`].
#[derive(Clone, Debug)]
pub struct StringsIter<'a>(Cursor<'a>);

impl<'a> Iterator for StringsIter<'a> {
    type Item = super::NetStr<'a>;
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let s = self.0.cstr_bytes().ok();
        if s.is_none() {
            self.0 = Cursor::new(&[]);
        }
        s.map(super::NetStr)
    }
}

impl core::iter::FusedIterator for StringsIter<'_> {}

/// `N` NUL-terminated strings in a row (a 0.7 tee's six skin part names,
/// the fifteen descriptions of a 0.6 `Sv_VoteOptionListAdd`), borrowed as
/// sent: the message's decoding finds their `N` NULs (a message that ends
/// before the last fails to decode), [`NetStrs::get`] and
/// [`NetStrs::iter`] read them. Kept as one slice so that a message stays
/// small to move.
///
/// ```
/// use gamefmt::netmsg::{Game06, NetMsg, Protocol, decode};
///
/// // Sv_VoteOptionListAdd (12): one option, "a", then 14 empty strings.
/// let mut bytes = vec![12 << 1, 1, b'a', 0];
/// bytes.extend([0; 14]);
/// let Ok(NetMsg::Game06(Game06::SvVoteOptionListAdd { descriptions, .. })) =
///     decode(Protocol::V06, &bytes)
/// else {
///     panic!("a vote option list");
/// };
/// assert_eq!(descriptions.get(0).map(|d| d.bytes()), Some(&b"a"[..]));
/// assert_eq!(descriptions.iter().count(), 15);
/// assert_eq!(descriptions.get(15), None);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct NetStrs<'a, const N: usize>(pub(crate) &'a [u8]);

impl<'a, const N: usize> NetStrs<'a, N> {
    /// The strings' bytes as sent, each with its NUL.
    #[must_use]
    pub const fn bytes(&self) -> &'a [u8] {
        self.0
    }

    /// The `i`th string (from 0); `None` from `N` on.
    #[must_use]
    pub fn get(&self, i: usize) -> Option<NetStr<'a>> {
        self.iter().nth(i)
    }

    /// The `N` strings, in order.
    #[must_use]
    #[inline]
    pub fn iter(&self) -> StringsIter<'a> {
        StringsIter(Cursor::new(self.0))
    }

    /// The `N` strings as an array.
    #[must_use]
    pub fn to_array(&self) -> [NetStr<'a>; N] {
        let mut out = [NetStr::default(); N];
        for (o, s) in out.iter_mut().zip(self.iter()) {
            *o = s;
        }
        out
    }
}

impl<'a, const N: usize> IntoIterator for NetStrs<'a, N> {
    type Item = NetStr<'a>;
    type IntoIter = StringsIter<'a>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<const N: usize> core::fmt::Debug for NetStrs<'_, N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(feature = "serde")]
impl<const N: usize> serde::Serialize for NetStrs<'_, N> {
    /// The `N` strings (as [`NetStr`] serializes each) as a tuple, as an
    /// array `[NetStr; N]` serializes.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeTuple;
        let mut t = s.serialize_tuple(N)?;
        for string in self.iter() {
            t.serialize_element(&string)?;
        }
        t.end()
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for PackedInts<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Strings<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}
