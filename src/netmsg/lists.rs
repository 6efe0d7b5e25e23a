//! Fields that run to the end of a message: [`PackedInts`] (tune
//! parameters, an input's ints, team states) and [`Strings`] (map list
//! entries, 0.7 vote options), both borrowed and read lazily.

use crate::bytes::Cursor;

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
