//! Records as columns: a `serde::Serializer` that files each record's
//! fields (the core's `Serialize`, the one vocabulary) into one
//! `Float64Array` per key and kind, so JavaScript reads a whole replay's
//! events from a few typed arrays instead of building an object per
//! event key by key (serde-wasm-bindgen) or parsing a JSON text.
//!
//! Every number, boolean (0/1) and `None` (a field the record is too short
//! for) is kept exactly: an `f32` widens to the same `f64` JavaScript's
//! `DataView.getFloat32` gives, NaN included. Text fields (`kind`, names)
//! are not kept: a column of them reads as missing.

use std::fmt;

use js_sys::{Float64Array, Uint8Array};
use serde::Serialize;
use serde::ser::{self, Impossible, SerializeMap};
use wasm_bindgen::prelude::*;

use crate::js::{self, Obj};

/// Why a record does not fit in columns (a nested value).
#[derive(Debug)]
pub struct NotFlat(String);

impl fmt::Display for NotFlat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotFlat {}

impl ser::Error for NotFlat {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Self(msg.to_string())
    }
}

/// One column: its values and, once one is missing, which are present.
struct Column {
    key: String,
    values: Vec<f64>,
    present: Option<Vec<u8>>,
}

impl Column {
    fn push(&mut self, v: Option<f64>) {
        if v.is_none() && self.present.is_none() {
            self.present = Some(vec![1; self.values.len()]);
        }
        if let Some(p) = self.present.as_mut() {
            p.push(u8::from(v.is_some()));
        }
        self.values.push(v.unwrap_or(f64::NAN));
    }
}

/// The records of one kind.
struct Table {
    kind: &'static str,
    rows: usize,
    columns: Vec<Column>,
}

impl Table {
    /// The column of `key` (made on first sight, earlier rows missing);
    /// `hint` is where it was in the previous row.
    fn column(&mut self, key: &str, hint: usize) -> usize {
        if self.columns.get(hint).is_some_and(|c| c.key == key) {
            return hint;
        }
        if let Some(i) = self.columns.iter().position(|c| c.key == key) {
            return i;
        }
        let mut c = Column {
            key: key.to_owned(),
            values: Vec::new(),
            present: None,
        };
        for _ in 0..self.rows {
            c.push(None);
        }
        self.columns.push(c);
        self.columns.len().saturating_sub(1)
    }

    /// Closes a row: columns it did not name read as missing.
    fn end_row(&mut self) {
        self.rows = self.rows.saturating_add(1);
        for c in &mut self.columns {
            while c.values.len() < self.rows {
                c.push(None);
            }
        }
    }
}

/// Records of several kinds, in their order.
#[derive(Default)]
pub struct EventColumns {
    order: Vec<u8>,
    tables: Vec<Table>,
}

impl EventColumns {
    fn table(&mut self, kind: &'static str) -> Result<(usize, u8), NotFlat> {
        let at = match self.tables.iter().position(|t| t.kind == kind) {
            Some(i) => i,
            None => {
                self.tables.push(Table {
                    kind,
                    rows: 0,
                    columns: Vec::new(),
                });
                self.tables.len().saturating_sub(1)
            }
        };
        let index = u8::try_from(at).map_err(|_| NotFlat("more than 255 kinds".into()))?;
        Ok((at, index))
    }

    /// Files a record of `kind` without its fields (its place in the
    /// order only).
    ///
    /// # Errors
    /// `NotFlat` past 255 kinds.
    pub fn push_kind(&mut self, kind: &'static str) -> Result<(), NotFlat> {
        let (at, index) = self.table(kind)?;
        if let Some(t) = self.tables.get_mut(at) {
            t.end_row();
        }
        self.order.push(index);
        Ok(())
    }

    /// Files one record of `kind` (its `Serialize` must be a flat map).
    ///
    /// # Errors
    /// `NotFlat` for a record with nested values, or past 255 kinds.
    pub fn push<T: Serialize + ?Sized>(
        &mut self,
        kind: &'static str,
        record: &T,
    ) -> Result<(), NotFlat> {
        let (at, index) = self.table(kind)?;
        let table = self
            .tables
            .get_mut(at)
            .ok_or_else(|| NotFlat("no table".into()))?;
        let result = record.serialize(RowSerializer {
            table: &mut *table,
            next: 0,
        });
        table.end_row();
        self.order.push(index);
        result
    }

    /// `{order: Uint8Array, tables: [{kind, rows, columns: {key:
    /// Float64Array}, present: {key: Uint8Array}}]}`: `order` names each
    /// record's table; `present` is there for the columns with a missing
    /// value (0 where missing).
    pub fn into_js(self) -> JsValue {
        let tables = js::array(self.tables.into_iter().map(|t| {
            let columns = Obj::new();
            let present = Obj::new();
            for c in t.columns {
                columns.set(&c.key, Float64Array::from(c.values.as_slice()));
                if let Some(p) = c.present {
                    present.set(&c.key, Uint8Array::from(p.as_slice()));
                }
            }
            Obj::new()
                .set("kind", t.kind)
                .set("rows", t.rows as f64)
                .set("columns", columns.done())
                .set("present", present.done())
                .done()
        }));
        Obj::new()
            .set("order", Uint8Array::from(self.order.as_slice()))
            .set("tables", tables)
            .done()
    }
}

/// Serializers that take only some of serde's data model: the rest is
/// `NotFlat`.
macro_rules! refuse {
    ($($method:ident($($arg:ty),*) -> $ok:ty;)*) => {
        $(
            fn $method(self, $(_: $arg),*) -> Result<$ok, NotFlat> {
                Err(NotFlat(concat!("not a flat record: ", stringify!($method)).into()))
            }
        )*
    };
}

/// What every serializer here shares: the compound types it refuses,
/// `Some` and newtype structs passed through to their content, and
/// newtype variants refused.
macro_rules! flat_serializer {
    ($ok:ty) => {
        type Ok = $ok;
        type Error = NotFlat;
        type SerializeSeq = Impossible<$ok, NotFlat>;
        type SerializeTuple = Impossible<$ok, NotFlat>;
        type SerializeTupleStruct = Impossible<$ok, NotFlat>;
        type SerializeTupleVariant = Impossible<$ok, NotFlat>;
        type SerializeStructVariant = Impossible<$ok, NotFlat>;

        fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<$ok, NotFlat> {
            v.serialize(self)
        }

        fn serialize_newtype_struct<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            v: &T,
        ) -> Result<$ok, NotFlat> {
            v.serialize(self)
        }

        fn serialize_newtype_variant<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> Result<$ok, NotFlat> {
            Err(NotFlat("not a flat record: newtype variant".into()))
        }
    };
}

/// A whole record: a map of key → value.
struct RowSerializer<'t> {
    table: &'t mut Table,
    next: usize,
}

impl ser::Serializer for RowSerializer<'_> {
    type SerializeMap = Self;
    type SerializeStruct = Impossible<(), NotFlat>;
    flat_serializer!(());

    fn serialize_map(self, _: Option<usize>) -> Result<Self, NotFlat> {
        Ok(self)
    }

    refuse! {
        serialize_bool(bool) -> ();
        serialize_i8(i8) -> (); serialize_i16(i16) -> (); serialize_i32(i32) -> (); serialize_i64(i64) -> ();
        serialize_u8(u8) -> (); serialize_u16(u16) -> (); serialize_u32(u32) -> (); serialize_u64(u64) -> ();
        serialize_f32(f32) -> (); serialize_f64(f64) -> (); serialize_char(char) -> ();
        serialize_str(&str) -> (); serialize_bytes(&[u8]) -> ();
        serialize_none() -> (); serialize_unit() -> (); serialize_unit_struct(&'static str) -> ();
        serialize_unit_variant(&'static str, u32, &'static str) -> ();
        serialize_seq(Option<usize>) -> Impossible<(), NotFlat>;
        serialize_tuple(usize) -> Impossible<(), NotFlat>;
        serialize_tuple_struct(&'static str, usize) -> Impossible<(), NotFlat>;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Impossible<(), NotFlat>;
        serialize_struct(&'static str, usize) -> Impossible<(), NotFlat>;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Impossible<(), NotFlat>;
    }
}

impl SerializeMap for RowSerializer<'_> {
    type Ok = ();
    type Error = NotFlat;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), NotFlat> {
        self.next = key.serialize(KeySerializer {
            table: &mut *self.table,
            hint: self.next,
        })?;
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), NotFlat> {
        let v = value.serialize(ValueSerializer)?;
        if let Some(c) = self.table.columns.get_mut(self.next) {
            // A key named twice in one record: the first value stays.
            if c.values.len() <= self.table.rows {
                c.push(v);
            }
        }
        self.next = self.next.saturating_add(1);
        Ok(())
    }

    fn end(self) -> Result<(), NotFlat> {
        Ok(())
    }
}

/// A map key (text): its column's index.
struct KeySerializer<'t> {
    table: &'t mut Table,
    hint: usize,
}

impl ser::Serializer for KeySerializer<'_> {
    type SerializeMap = Impossible<usize, NotFlat>;
    type SerializeStruct = Impossible<usize, NotFlat>;
    flat_serializer!(usize);

    fn serialize_str(self, v: &str) -> Result<usize, NotFlat> {
        Ok(self.table.column(v, self.hint))
    }

    refuse! {
        serialize_bool(bool) -> usize;
        serialize_i8(i8) -> usize; serialize_i16(i16) -> usize; serialize_i32(i32) -> usize; serialize_i64(i64) -> usize;
        serialize_u8(u8) -> usize; serialize_u16(u16) -> usize; serialize_u32(u32) -> usize; serialize_u64(u64) -> usize;
        serialize_f32(f32) -> usize; serialize_f64(f64) -> usize; serialize_char(char) -> usize;
        serialize_bytes(&[u8]) -> usize;
        serialize_none() -> usize; serialize_unit() -> usize; serialize_unit_struct(&'static str) -> usize;
        serialize_unit_variant(&'static str, u32, &'static str) -> usize;
        serialize_seq(Option<usize>) -> Impossible<usize, NotFlat>;
        serialize_tuple(usize) -> Impossible<usize, NotFlat>;
        serialize_tuple_struct(&'static str, usize) -> Impossible<usize, NotFlat>;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Impossible<usize, NotFlat>;
        serialize_map(Option<usize>) -> Impossible<usize, NotFlat>;
        serialize_struct(&'static str, usize) -> Impossible<usize, NotFlat>;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Impossible<usize, NotFlat>;
    }
}

/// A value: a number or boolean (`Some`), or missing (`None`, text).
struct ValueSerializer;

/// Numeric `serialize_*` methods that widen to `f64`.
macro_rules! number {
    ($($method:ident($ty:ty);)*) => {
        $(
            fn $method(self, v: $ty) -> Result<Option<f64>, NotFlat> {
                Ok(Some(f64::from(v)))
            }
        )*
    };
}

impl ser::Serializer for ValueSerializer {
    type SerializeMap = Impossible<Option<f64>, NotFlat>;
    type SerializeStruct = Impossible<Option<f64>, NotFlat>;
    flat_serializer!(Option<f64>);

    number! {
        serialize_i8(i8); serialize_i16(i16); serialize_i32(i32);
        serialize_u8(u8); serialize_u16(u16); serialize_u32(u32);
        serialize_f32(f32); serialize_f64(f64);
    }

    fn serialize_bool(self, v: bool) -> Result<Option<f64>, NotFlat> {
        Ok(Some(if v { 1.0 } else { 0.0 }))
    }

    #[allow(
        clippy::cast_precision_loss,
        reason = "a 64-bit field as JavaScript holds it"
    )]
    fn serialize_i64(self, v: i64) -> Result<Option<f64>, NotFlat> {
        Ok(Some(v as f64))
    }

    #[allow(
        clippy::cast_precision_loss,
        reason = "a 64-bit field as JavaScript holds it"
    )]
    fn serialize_u64(self, v: u64) -> Result<Option<f64>, NotFlat> {
        Ok(Some(v as f64))
    }

    fn serialize_char(self, _: char) -> Result<Option<f64>, NotFlat> {
        Ok(None)
    }

    fn serialize_str(self, _: &str) -> Result<Option<f64>, NotFlat> {
        Ok(None)
    }

    fn serialize_bytes(self, _: &[u8]) -> Result<Option<f64>, NotFlat> {
        Ok(None)
    }

    fn serialize_none(self) -> Result<Option<f64>, NotFlat> {
        Ok(None)
    }

    fn serialize_unit(self) -> Result<Option<f64>, NotFlat> {
        Ok(None)
    }

    refuse! {
        serialize_unit_struct(&'static str) -> Option<f64>;
        serialize_unit_variant(&'static str, u32, &'static str) -> Option<f64>;
        serialize_seq(Option<usize>) -> Impossible<Option<f64>, NotFlat>;
        serialize_tuple(usize) -> Impossible<Option<f64>, NotFlat>;
        serialize_tuple_struct(&'static str, usize) -> Impossible<Option<f64>, NotFlat>;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Impossible<Option<f64>, NotFlat>;
        serialize_map(Option<usize>) -> Impossible<Option<f64>, NotFlat>;
        serialize_struct(&'static str, usize) -> Impossible<Option<f64>, NotFlat>;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Impossible<Option<f64>, NotFlat>;
    }
}
