//! A small, allocation-free UBJSON (Draft 12) reader for the metadata
//! element.
//!
//! Every Draft 12 marker is accepted (`Z N T F i U I L l d D C H S [ {`,
//! with optimized `$`/`#` containers). Containers are skipped with an
//! explicit stack of at most [`MAX_DEPTH`] levels — the reader never
//! recurses on input depth — and a typed array of payload-less values is
//! skipped without looping over its claimed count.

use crate::bytes::Cursor;
use crate::error::{Error, Result};

/// Deepest container nesting accepted.
pub const MAX_DEPTH: usize = 32;

/// One UBJSON value, borrowed from the input.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value<'a> {
    /// `Z` null or `N` no-op.
    Null,
    /// `T` / `F`.
    Bool(bool),
    /// `i U I l L`, widened.
    Int(i64),
    /// `d D`, widened.
    Float(f64),
    /// `C`.
    Char(u8),
    /// `S`: the string's bytes (UTF-8 by the spec, not checked here).
    Str(&'a [u8]),
    /// `H`: a high-precision number as its decimal text.
    HighPrecision(&'a [u8]),
    /// `[`.
    Array(Container<'a>),
    /// `{`.
    Object(Container<'a>),
}

impl<'a> Value<'a> {
    /// The integer, if this is one.
    #[must_use]
    pub const fn as_int(&self) -> Option<i64> {
        match self {
            Self::Int(v) => Some(*v),
            _ => None,
        }
    }

    /// The string as `&str`, if this is a valid UTF-8 string.
    #[must_use]
    pub fn as_str(&self) -> Option<&'a str> {
        match self {
            Self::Str(s) => core::str::from_utf8(s).ok(),
            _ => None,
        }
    }

    /// The object, if this is one.
    #[must_use]
    pub const fn as_object(&self) -> Option<Container<'a>> {
        match self {
            Self::Object(c) => Some(*c),
            _ => None,
        }
    }
}

/// An array or object: its bytes after the opening marker, through the
/// closing marker (or last element of a counted container).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Container<'a> {
    object: bool,
    body: &'a [u8],
}

impl<'a> Container<'a> {
    /// Whether this is an object (`{`) rather than an array.
    #[must_use]
    pub const fn is_object(&self) -> bool {
        self.object
    }

    /// The elements in order: (key, value) for objects, (`b""`, value) for
    /// arrays. Fused after the first error.
    #[must_use]
    pub fn entries(&self) -> Entries<'a> {
        let mut c = Cursor::new(self.body);
        // Payload-less typed elements (`[$Z#L...`) cost no bytes, so their
        // count is a bare claim: one larger than the container's bytes is
        // refused rather than looped over.
        let header = header(&mut c).and_then(|(typed, count)| {
            if !self.object
                && typed.and_then(scalar_size) == Some(0)
                && count > Some(self.body.len() as u64)
            {
                return Err(c.error(crate::ErrorKind::Corrupt(
                    "UBJSON typed array claims more payload-less values than it has bytes",
                )));
            }
            Ok((typed, count))
        });
        let (typed, remaining, pending) = match header {
            Ok((t, n)) => (t, n, None),
            Err(e) => (None, None, Some(e)),
        };
        Entries {
            data: self.body,
            c,
            object: self.object,
            typed,
            remaining,
            pending,
            failed: false,
        }
    }

    /// The bytes of an optimized array of bytes (`[$U#n` or `[$i#n`, as
    /// Slippi's console protocol sends replay data and cursors), lent
    /// without copying; `None` for any other container.
    #[must_use]
    pub fn bytes(&self) -> Option<&'a [u8]> {
        if self.object {
            return None;
        }
        let mut c = Cursor::new(self.body);
        match header(&mut c).ok()? {
            (Some(b'U' | b'i'), Some(n)) => c.bytes(usize::try_from(n).ok()?).ok(),
            _ => None,
        }
    }

    /// The value of the first entry named `key` (objects only).
    #[must_use]
    pub fn get(&self, key: &str) -> Option<Value<'a>> {
        let [value] = self.get_many([key]);
        value
    }

    /// [`get`](Self::get) of each of `keys`, in one walk of the entries
    /// (it stops once all are found, or at the first damaged entry).
    #[must_use]
    pub fn get_many<const N: usize>(&self, keys: [&str; N]) -> [Option<Value<'a>>; N] {
        let mut out = [None; N];
        if !self.object {
            return out;
        }
        let mut missing = N;
        for (k, v) in self.entries().map_while(core::result::Result::ok) {
            for (slot, key) in out.iter_mut().zip(keys) {
                if slot.is_none() && k == key.as_bytes() {
                    *slot = Some(v);
                    missing = missing.saturating_sub(1);
                }
            }
            if missing == 0 {
                break;
            }
        }
        out
    }
}

/// Iterator over a [`Container`]'s elements.
#[derive(Clone, Debug)]
pub struct Entries<'a> {
    data: &'a [u8],
    c: Cursor<'a>,
    object: bool,
    typed: Option<u8>,
    remaining: Option<u64>,
    /// A damaged container header, reported by the first `next`.
    pending: Option<Error>,
    failed: bool,
}

impl<'a> Entries<'a> {
    fn step(&mut self) -> Result<Option<(&'a [u8], Value<'a>)>> {
        match self.remaining.as_mut() {
            Some(0) => return Ok(None),
            Some(n) => *n = n.saturating_sub(1),
            None => {
                let close = if self.object { b'}' } else { b']' };
                if self.c.peek_u8() == Some(close) || self.c.is_empty() {
                    return Ok(None);
                }
            }
        }
        let key = if self.object { key(&mut self.c)? } else { &[] };
        let marker = match self.typed {
            Some(t) => t,
            None => self.c.u8()?,
        };
        let value = read_value(self.data, &mut self.c, marker)?;
        Ok(Some((key, value)))
    }
}

impl<'a> Iterator for Entries<'a> {
    type Item = Result<(&'a [u8], Value<'a>)>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        if let Some(e) = self.pending.take() {
            self.failed = true;
            return Some(Err(e));
        }
        let out = self.step().transpose();
        if matches!(out, Some(Err(_)) | None) {
            self.failed = true;
        }
        out
    }
}

impl core::iter::FusedIterator for Entries<'_> {}

/// Reads one whole value (marker first) from the start of `bytes`.
///
/// # Errors
/// `Truncated` when `bytes` ends inside the value, `Corrupt` for an unknown
/// marker, a negative length or nesting deeper than [`MAX_DEPTH`].
pub fn parse_value(bytes: &[u8]) -> Result<(Value<'_>, usize)> {
    let mut c = Cursor::new(bytes);
    let marker = c.u8()?;
    let v = read_value(bytes, &mut c, marker)?;
    Ok((v, c.position()))
}

/// The length in bytes of the one whole value (marker first) at the start
/// of `bytes`; errors as [`parse_value`].
pub fn value_len(bytes: &[u8]) -> Result<usize> {
    let mut c = Cursor::new(bytes);
    let marker = c.u8()?;
    skip(&mut c, marker)?;
    Ok(c.position())
}

/// The object that `value`, one whole value (as [`value_len`] measured
/// it: the slice ends where the value does), is when it starts with `{`;
/// the same as [`parse_value`] would give, without walking it again.
pub(crate) fn whole_object(value: &[u8]) -> Option<Container<'_>> {
    match value.split_first() {
        Some((b'{', body)) => Some(Container { object: true, body }),
        _ => None,
    }
}

/// Reads the value whose marker was just read; `data` is the cursor's slice.
fn read_value<'a>(data: &'a [u8], c: &mut Cursor<'a>, marker: u8) -> Result<Value<'a>> {
    Ok(match marker {
        b'Z' | b'N' => Value::Null,
        b'T' => Value::Bool(true),
        b'F' => Value::Bool(false),
        b'i' => Value::Int(i64::from(c.i8()?)),
        b'U' => Value::Int(i64::from(c.u8()?)),
        b'I' => Value::Int(i64::from(c.i16_be()?)),
        b'l' => Value::Int(i64::from(c.i32_be()?)),
        b'L' => Value::Int(c.i64_be()?),
        b'd' => Value::Float(f64::from(c.f32_be()?)),
        b'D' => Value::Float(f64::from_be_bytes(c.array()?)),
        b'C' => Value::Char(c.u8()?),
        b'S' => {
            let n = length(c)?;
            Value::Str(c.bytes(n)?)
        }
        b'H' => {
            let n = length(c)?;
            Value::HighPrecision(c.bytes(n)?)
        }
        b'[' | b'{' => {
            let start = c.position();
            skip(c, marker)?;
            let body = data.get(start..c.position()).unwrap_or_default();
            let container = Container {
                object: marker == b'{',
                body,
            };
            if container.object {
                Value::Object(container)
            } else {
                Value::Array(container)
            }
        }
        _ => return Err(c.error(crate::ErrorKind::Corrupt("unknown UBJSON marker"))),
    })
}

/// Size of a scalar's payload after its marker, `None` for variable-size
/// or container markers.
const fn scalar_size(marker: u8) -> Option<usize> {
    match marker {
        b'Z' | b'N' | b'T' | b'F' => Some(0),
        b'i' | b'U' | b'C' => Some(1),
        b'I' => Some(2),
        b'l' | b'd' => Some(4),
        b'L' | b'D' => Some(8),
        _ => None,
    }
}

/// A length prefix: an integer value (marker first), non-negative.
fn length(c: &mut Cursor<'_>) -> Result<usize> {
    let at = c.offset();
    let v: i64 = match c.u8()? {
        b'i' => i64::from(c.i8()?),
        b'U' => i64::from(c.u8()?),
        b'I' => i64::from(c.i16_be()?),
        b'l' => i64::from(c.i32_be()?),
        b'L' => c.i64_be()?,
        _ => return Err(Error::corrupt("UBJSON length is not an integer", at)),
    };
    usize::try_from(v).map_err(|_| Error::corrupt("negative UBJSON length", at))
}

/// An object key: a length, then that many bytes (no `S` marker).
fn key<'a>(c: &mut Cursor<'a>) -> Result<&'a [u8]> {
    let n = length(c)?;
    c.bytes(n)
}

/// The optional `$type` and `#count` after a container's opening marker.
fn header(c: &mut Cursor<'_>) -> Result<(Option<u8>, Option<u64>)> {
    let mut typed = None;
    if c.peek_u8() == Some(b'$') {
        c.u8()?;
        typed = Some(c.u8()?);
        if c.peek_u8() != Some(b'#') {
            return Err(c.error(crate::ErrorKind::Corrupt("UBJSON $type without #count")));
        }
    }
    let mut count = None;
    if c.peek_u8() == Some(b'#') {
        c.u8()?;
        count = Some(length(c)? as u64);
    }
    Ok((typed, count))
}

#[derive(Clone, Copy)]
struct Level {
    object: bool,
    typed: Option<u8>,
    remaining: Option<u64>,
}

/// Skips the value whose marker was just read, iteratively.
fn skip(c: &mut Cursor<'_>, first: u8) -> Result<()> {
    let mut stack: heapless::Vec<Level, MAX_DEPTH> = heapless::Vec::new();
    let mut marker = first;
    loop {
        match marker {
            b'[' | b'{' => {
                let (typed, remaining) = header(c)?;
                let object = marker == b'{';
                let fixed = typed.and_then(scalar_size);
                match (object, fixed, remaining) {
                    // A typed array of fixed-size scalars: one skip.
                    (false, Some(size), Some(n)) => {
                        let total = usize::try_from(n)
                            .ok()
                            .and_then(|n| n.checked_mul(size))
                            .unwrap_or(usize::MAX);
                        c.skip(total)?;
                    }
                    _ => {
                        if stack
                            .push(Level {
                                object,
                                typed,
                                remaining,
                            })
                            .is_err()
                        {
                            return Err(c.error(crate::ErrorKind::Corrupt(
                                "UBJSON nesting deeper than MAX_DEPTH",
                            )));
                        }
                    }
                }
            }
            b'S' | b'H' => {
                let n = length(c)?;
                c.skip(n)?;
            }
            m => match scalar_size(m) {
                Some(n) => c.skip(n)?,
                None => return Err(c.error(crate::ErrorKind::Corrupt("unknown UBJSON marker"))),
            },
        }
        // Find the next element to read, closing finished containers.
        loop {
            let Some(top) = stack.last().copied() else {
                return Ok(());
            };
            let close = if top.object { b'}' } else { b']' };
            let finished = match top.remaining {
                Some(n) => n == 0,
                None => c.peek_u8() == Some(close),
            };
            if finished {
                if top.remaining.is_none() {
                    c.u8()?;
                }
                stack.pop();
                continue;
            }
            if let (Some(n), Some(level)) = (top.remaining, stack.last_mut()) {
                level.remaining = Some(n.saturating_sub(1));
            }
            if top.object {
                key(c)?;
            }
            marker = match top.typed {
                Some(t) => t,
                None => c.u8()?,
            };
            break;
        }
    }
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::panic,
    reason = "unit tests: a panic is the failure report"
)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    #[test]
    fn reads_objects_and_scalars() {
        let v = b"{U\x01aSU\x02hiU\x01bl\x00\x00\x01\x00U\x01c{U\x01d[TFZ]}U\x01eD\x3f\xf0\0\0\0\0\0\0}";
        let (val, n) = parse_value(v).unwrap();
        assert_eq!(n, v.len());
        assert_eq!(value_len(v).unwrap(), v.len());
        let o = val.as_object().unwrap();
        assert_eq!(o.get("a").unwrap().as_str(), Some("hi"));
        assert_eq!(o.get("b").unwrap().as_int(), Some(256));
        assert_eq!(o.get("e"), Some(Value::Float(1.0)));
        let inner = o.get("c").unwrap().as_object().unwrap();
        let Some(Value::Array(arr)) = inner.get("d") else {
            panic!()
        };
        assert_eq!(arr.entries().count(), 3);
        assert_eq!(o.entries().count(), 4);
        assert_eq!(o.get("zz"), None);
        assert_eq!(whole_object(v), Some(o));
        assert_eq!(whole_object(b"[]"), None);
        assert_eq!(
            o.get_many(["e", "zz", "a", "b"]),
            [o.get("e"), None, o.get("a"), o.get("b")]
        );
    }

    #[test]
    fn optimized_containers_and_limits() {
        let typed = b"[$U#U\x03\x01\x02\x03";
        assert_eq!(value_len(typed).unwrap(), typed.len());
        let (Value::Array(a), _) = parse_value(typed).unwrap() else {
            panic!()
        };
        let items: std::vec::Vec<_> = a.entries().map(|e| e.unwrap().1).collect();
        assert_eq!(items, [Value::Int(1), Value::Int(2), Value::Int(3)]);
        // A huge typed array of nulls costs nothing and claims no bytes.
        assert_eq!(
            value_len(b"[$Z#L\x7f\xff\xff\xff\xff\xff\xff\xff").unwrap(),
            13
        );
        // Iterating it is refused at once instead of yielding 2^63 nulls;
        // a small one yields its nulls.
        let (Value::Array(huge), _) =
            parse_value(b"[$Z#L\x7f\xff\xff\xff\xff\xff\xff\xff").unwrap()
        else {
            panic!()
        };
        let mut entries = huge.entries();
        assert!(matches!(
            entries.next(),
            Some(Err(e)) if matches!(e.kind, ErrorKind::Corrupt(_))
        ));
        assert!(entries.next().is_none());
        let (Value::Array(small), _) = parse_value(b"[$Z#U\x02").unwrap() else {
            panic!()
        };
        let nulls: std::vec::Vec<_> = small.entries().map(|e| e.unwrap().1).collect();
        assert_eq!(nulls, [Value::Null, Value::Null]);
        let counted_obj = b"{#U\x01U\x01kU\x07";
        assert_eq!(value_len(counted_obj).unwrap(), counted_obj.len());
        assert_eq!(
            value_len(b"{U\x01kSU\x05ab").unwrap_err().kind,
            ErrorKind::Truncated
        );
        assert_eq!(value_len(b"{").unwrap_err().kind, ErrorKind::Truncated);
        assert!(matches!(
            value_len(b"Q").unwrap_err().kind,
            ErrorKind::Corrupt(_)
        ));
        assert!(matches!(
            value_len(b"Si\xff").unwrap_err().kind,
            ErrorKind::Corrupt(_)
        ));
        let deep = [b'['; 40];
        assert!(matches!(
            value_len(&deep).unwrap_err().kind,
            ErrorKind::Corrupt(_)
        ));
        let mut ok = [b'['; 64];
        ok[32..].fill(b']');
        assert_eq!(value_len(&ok).unwrap(), 64);
    }
}
