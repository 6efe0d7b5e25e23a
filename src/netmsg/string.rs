//! [`NetStr`]: a string field of a net message, borrowed as sent.

use core::fmt;

/// A string field, borrowed from the message without its NUL and without
/// any change: servers and clients send arbitrary bytes (old clients are
/// not UTF-8 clean, hostile ones send control characters). Decide how to
/// show it: [`NetStr::to_str`] (strict UTF-8) or [`NetStr::sanitized`]
/// (what Teeworlds' `str_sanitize_cc` shows).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct NetStr<'a>(pub &'a [u8]);

impl<'a> NetStr<'a> {
    /// The bytes as sent.
    #[must_use]
    pub const fn bytes(&self) -> &'a [u8] {
        self.0
    }

    /// The string when it is valid UTF-8.
    #[must_use]
    pub fn to_str(&self) -> Option<&'a str> {
        core::str::from_utf8(self.0).ok()
    }

    /// The characters, sanitised on request: invalid UTF-8 becomes
    /// U+FFFD and every control character below U+0020 a space (as
    /// `str_sanitize_cc` does before text is shown).
    pub fn sanitized(&self) -> impl Iterator<Item = char> + 'a {
        self.0.utf8_chunks().flat_map(|chunk| {
            let invalid = (!chunk.invalid().is_empty()).then_some(char::REPLACEMENT_CHARACTER);
            chunk
                .valid()
                .chars()
                .map(|c| if c < ' ' { ' ' } else { c })
                .chain(invalid)
        })
    }
}

impl fmt::Debug for NetStr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"")?;
        for chunk in self.0.utf8_chunks() {
            write!(f, "{}", chunk.valid().escape_debug())?;
            for b in chunk.invalid() {
                write!(f, "\\x{b:02x}")?;
            }
        }
        f.write_str("\"")
    }
}

impl fmt::Display for NetStr<'_> {
    /// The [sanitised](NetStr::sanitized) text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.sanitized()
            .try_for_each(|c| fmt::Write::write_char(f, c))
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for NetStr<'_> {
    /// The string as sent when it is UTF-8 (control characters kept, for
    /// the serializer to escape), else with each invalid sequence replaced
    /// by U+FFFD.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.to_str() {
            Some(text) => s.serialize_str(text),
            None => s.collect_str(&Lossy(self.0)),
        }
    }
}

/// Bytes shown as UTF-8, invalid sequences as U+FFFD, nothing else changed.
#[cfg(feature = "serde")]
struct Lossy<'a>(&'a [u8]);

#[cfg(feature = "serde")]
impl fmt::Display for Lossy<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for chunk in self.0.utf8_chunks() {
            f.write_str(chunk.valid())?;
            if !chunk.invalid().is_empty() {
                fmt::Write::write_char(f, char::REPLACEMENT_CHARACTER)?;
            }
        }
        Ok(())
    }
}
