//! `Serialize` for typed snapshot objects (feature `serde`): `kind` (the
//! object's `name()`) and its fields under datasrc's names in snake_case,
//! read by position from the item's ints; strings stored as ints
//! (`NetTwIntString`, 0.7 client info) decoded; a field the item is too
//! short for is `null`.

use serde::ser::SerializeStruct;
use zerocopy::little_endian::I32;

use crate::i32string::I32String;

/// One field of an object's layout.
pub(crate) struct Field {
    /// Serialized name.
    pub key: &'static str,
    /// Values in the field: 0 for one int (or one string), else an array.
    pub count: u8,
    /// Ints per string (0: the field holds ints).
    pub text: u8,
}

/// The item's ints: a typed base (its bytes) then appended ints.
struct Ints<'a> {
    base: &'a [u8],
    extra: &'a [I32],
}

impl Ints<'_> {
    fn get(&self, i: usize) -> Option<I32> {
        let n = self.base.len() / 4;
        if i < n {
            let at = i.checked_mul(4)?;
            let b: [u8; 4] = self.base.get(at..at.checked_add(4)?)?.try_into().ok()?;
            Some(I32::from_bytes(b))
        } else {
            self.extra.get(i.checked_sub(n)?).copied()
        }
    }
}

struct Text([I32; 8], usize);

impl serde::Serialize for Text {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let name = I32String::new(self.0.get(..self.1).unwrap_or_default()).decode();
        match name.to_str() {
            Ok(text) => s.serialize_str(text),
            Err(_) => s.collect_str(&name),
        }
    }
}

/// A field's value, or `None` past the item's end.
struct Value<'a> {
    ints: &'a Ints<'a>,
    at: usize,
    field: &'a Field,
}

impl Value<'_> {
    fn text(&self, at: usize) -> Option<Text> {
        let n = usize::from(self.field.text);
        let mut out = [I32::ZERO; 8];
        for (i, slot) in out.iter_mut().enumerate().take(n.min(8)) {
            *slot = self.ints.get(at.checked_add(i)?)?;
        }
        Some(Text(out, n.min(8)))
    }
}

impl serde::Serialize for Value<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let f = self.field;
        let width = usize::from(f.text.max(1));
        if f.count == 0 {
            if f.text > 0 {
                return self.text(self.at).serialize(s);
            }
            return self.ints.get(self.at).map(I32::get).serialize(s);
        }
        let mut seq = s.serialize_seq(Some(usize::from(f.count)))?;
        for i in 0..usize::from(f.count) {
            let at = i.checked_mul(width).and_then(|o| self.at.checked_add(o));
            if f.text > 0 {
                seq.serialize_element(&at.and_then(|at| self.text(at)))?;
            } else {
                seq.serialize_element(&at.and_then(|at| self.ints.get(at)).map(I32::get))?;
            }
        }
        seq.end()
    }
}

/// Serializes an object: `kind`, then its fields by position.
pub(crate) fn object<S: serde::Serializer>(
    s: S,
    kind: &'static str,
    fields: &[Field],
    base: &[u8],
    extra: &[I32],
) -> Result<S::Ok, S::Error> {
    let ints = Ints { base, extra };
    let mut m = s.serialize_struct(kind, fields.len().saturating_add(1))?;
    m.serialize_field("kind", kind)?;
    let mut at = 0usize;
    for field in fields {
        m.serialize_field(
            field.key,
            &Value {
                ints: &ints,
                at,
                field,
            },
        )?;
        let width = usize::from(field.text.max(1)).saturating_mul(usize::from(field.count.max(1)));
        at = at.saturating_add(width);
    }
    m.end()
}
