//! Tables declared once: each table's columns as a struct of column
//! builders, from which its schema, its batches and its documentation
//! (the crate docs' column list) all come.
//!
//! Numbers and booleans go into plain vectors ([`Primitive`], [`Bool`]),
//! appended inline a row at a time or a batch at a time ([`Extend`]), with
//! a validity bitmap made only once a row is null; a batch's arrays are
//! made from those buffers without copying. Strings,
//! bytes and lists use Arrow's builders.

use std::sync::Arc;

use arrow_array::builder::{
    ArrayBuilder, BinaryBuilder, BooleanBufferBuilder, Int32Builder, ListBuilder, StringBuilder,
};
use arrow_array::types::{
    ArrowPrimitiveType, Float32Type, Float64Type, Int8Type, Int32Type, Int64Type, UInt8Type,
    UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{
    ArrayRef, BooleanArray, DictionaryArray, Int8Array, Int32Array, PrimitiveArray, StringArray,
};
use arrow_buffer::{NullBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field};

/// A builder that can be a column: it knows its Arrow type.
pub trait Column {
    /// The column's Arrow type.
    fn data_type() -> DataType;
    /// An empty builder with room for `rows` rows.
    fn create(rows: usize) -> Self;
    /// Rows appended so far.
    fn rows(&self) -> usize;
    /// The rows so far as an array; the builder is emptied.
    fn finish_column(&mut self) -> ArrayRef;
}

/// Room reserved up front in a new column: batches of a few rows (a file's
/// `games` row, a small input's rows) do not allocate a whole batch's
/// worth; larger ones grow by doubling.
const FIRST_ROWS: usize = 1024;

/// Which rows of a column are valid. Nothing is kept while every row is
/// valid, or every row null (a field the file's version lacks: a count);
/// a bitmap once they mix.
#[derive(Default)]
struct Validity {
    /// Rows so far, all null, while there is no bitmap.
    nulls: usize,
    bits: Option<BooleanBufferBuilder>,
}

impl Validity {
    /// Records row `row` (the rows before it all recorded) as valid or
    /// null.
    #[inline(always)]
    fn push(&mut self, row: usize, valid: bool) {
        if self.bits.is_none() {
            if valid && self.nulls == 0 {
                return;
            }
            if !valid && self.nulls == row {
                self.nulls = self.nulls.saturating_add(1);
                return;
            }
        }
        self.push_slow(row, valid);
    }

    /// [`Self::push`] once the rows mix.
    #[cold]
    fn push_slow(&mut self, row: usize, valid: bool) {
        self.bits(row).append(valid);
    }

    /// Records the rows after row `row` (the rows before it all
    /// recorded), valid where `valid` says so: counted first (a column
    /// all valid or all null keeps no bitmap), each one recorded only
    /// when they mix.
    #[inline]
    fn extend(&mut self, row: usize, valid: impl Iterator<Item = bool> + Clone) {
        if self.bits.is_none() {
            let (rows, valid_rows) = valid.clone().fold((0usize, 0usize), |(n, v), ok| {
                (n.saturating_add(1), v.saturating_add(usize::from(ok)))
            });
            if valid_rows == rows && self.nulls == 0 {
                return;
            }
            if valid_rows == 0 && self.nulls == row {
                self.nulls = self.nulls.saturating_add(rows);
                return;
            }
        }
        let bits = self.bits(row);
        for ok in valid {
            bits.append(ok);
        }
    }

    /// Records `rows` valid rows after row `row`.
    #[inline]
    fn extend_valid(&mut self, row: usize, rows: usize) {
        if rows == 0 || (self.bits.is_none() && self.nulls == 0) {
            return;
        }
        self.bits(row).append_n(rows, true);
    }

    /// Records `rows` null rows after row `row`.
    #[inline]
    fn extend_null(&mut self, row: usize, rows: usize) {
        if rows == 0 {
            return;
        }
        if self.bits.is_none() && self.nulls == row {
            self.nulls = self.nulls.saturating_add(rows);
            return;
        }
        self.bits(row).append_n(rows, false);
    }

    /// The bitmap of the `row` rows so far, made the first time from
    /// them (all valid, `nulls == 0`, or all null).
    fn bits(&mut self, row: usize) -> &mut BooleanBufferBuilder {
        let nulls = std::mem::take(&mut self.nulls);
        self.bits.get_or_insert_with(|| {
            let mut bits = BooleanBufferBuilder::new(row.saturating_add(1).max(FIRST_ROWS));
            bits.append_n(row, nulls == 0);
            bits
        })
    }

    /// The nulls of the `rows` rows so far (`None`: none), emptied.
    fn finish(&mut self, rows: usize) -> Option<NullBuffer> {
        let nulls = std::mem::take(&mut self.nulls);
        match self.bits.take() {
            Some(mut bits) => Some(NullBuffer::new(bits.finish())),
            None => (nulls > 0).then(|| NullBuffer::new_null(rows)),
        }
    }
}

/// A column of numbers: a vector of values (0 under a null) and its
/// [`Validity`].
pub struct Primitive<T: ArrowPrimitiveType> {
    values: Vec<T::Native>,
    valid: Validity,
}

impl<T: ArrowPrimitiveType> Primitive<T> {
    /// Appends a value.
    #[inline(always)]
    pub fn append_value(&mut self, value: T::Native) {
        self.append_option(Some(value));
    }

    /// Appends a value or a null.
    #[inline(always)]
    pub fn append_option(&mut self, value: Option<T::Native>) {
        self.valid.push(self.values.len(), value.is_some());
        self.values.push(value.unwrap_or_default());
    }
}

impl<T: ArrowPrimitiveType> Column for Primitive<T> {
    fn data_type() -> DataType {
        T::DATA_TYPE
    }
    fn create(rows: usize) -> Self {
        Self {
            values: Vec::with_capacity(rows.min(FIRST_ROWS)),
            valid: Validity::default(),
        }
    }
    fn rows(&self) -> usize {
        self.values.len()
    }
    fn finish_column(&mut self) -> ArrayRef {
        let nulls = self.valid.finish(self.values.len());
        let values = ScalarBuffer::from(std::mem::take(&mut self.values));
        // A validity bit was pushed with every value: the lengths agree.
        Arc::new(PrimitiveArray::<T>::new(values, nulls))
    }
}

/// A column of booleans: a bitmap of values and its [`Validity`].
pub struct Bool {
    values: BooleanBufferBuilder,
    valid: Validity,
}

impl Bool {
    /// Appends a value.
    #[inline(always)]
    pub fn append_value(&mut self, value: bool) {
        self.append_option(Some(value));
    }

    /// Appends a value or a null.
    #[inline(always)]
    pub fn append_option(&mut self, value: Option<bool>) {
        self.valid.push(self.values.len(), value.is_some());
        self.values.append(value.unwrap_or_default());
    }
}

impl Column for Bool {
    fn data_type() -> DataType {
        DataType::Boolean
    }
    fn create(rows: usize) -> Self {
        Self {
            values: BooleanBufferBuilder::new(rows.min(FIRST_ROWS)),
            valid: Validity::default(),
        }
    }
    fn rows(&self) -> usize {
        self.values.len()
    }
    fn finish_column(&mut self) -> ArrayRef {
        let nulls = self.valid.finish(self.values.len());
        Arc::new(BooleanArray::new(self.values.finish(), nulls))
    }
}

/// A column appended a batch at a time, a loop per column (room
/// reserved once, no per-row validity when every row is a value).
pub trait Extend<V> {
    /// Appends a value or a null per item of `values`: the values are
    /// written in one pass and their validity counted in another, so
    /// `values` is iterated twice and should be cheap to repeat.
    fn extend_options(&mut self, values: impl Iterator<Item = Option<V>> + Clone);
    /// Appends the `values`, none null.
    fn extend_values(&mut self, values: impl Iterator<Item = V>);
    /// Appends `rows` nulls.
    fn extend_nulls(&mut self, rows: usize);
}

impl<T: ArrowPrimitiveType> Extend<T::Native> for Primitive<T> {
    #[inline]
    fn extend_options(&mut self, values: impl Iterator<Item = Option<T::Native>> + Clone) {
        self.valid
            .extend(self.values.len(), values.clone().map(|v| v.is_some()));
        self.values.extend(values.map(Option::unwrap_or_default));
    }

    #[inline]
    fn extend_values(&mut self, values: impl Iterator<Item = T::Native>) {
        let row = self.values.len();
        self.values.extend(values);
        self.valid
            .extend_valid(row, self.values.len().saturating_sub(row));
    }

    #[inline]
    fn extend_nulls(&mut self, rows: usize) {
        self.valid.extend_null(self.values.len(), rows);
        self.values
            .resize(self.values.len().saturating_add(rows), T::Native::default());
    }
}

impl Extend<bool> for Bool {
    #[inline]
    fn extend_options(&mut self, values: impl Iterator<Item = Option<bool>> + Clone) {
        self.valid
            .extend(self.values.len(), values.clone().map(|v| v.is_some()));
        for value in values {
            self.values.append(value.unwrap_or_default());
        }
    }

    #[inline]
    fn extend_values(&mut self, values: impl Iterator<Item = bool>) {
        let row = self.values.len();
        for value in values {
            self.values.append(value);
        }
        self.valid
            .extend_valid(row, self.values.len().saturating_sub(row));
    }

    #[inline]
    fn extend_nulls(&mut self, rows: usize) {
        self.valid.extend_null(self.values.len(), rows);
        self.values.append_n(rows, false);
    }
}

/// `Int8` column.
pub type Int8Column = Primitive<Int8Type>;
/// `Int32` column.
pub type Int32Column = Primitive<Int32Type>;
/// `Int64` column.
pub type Int64Column = Primitive<Int64Type>;
/// `UInt8` column.
pub type UInt8Column = Primitive<UInt8Type>;
/// `UInt16` column.
pub type UInt16Column = Primitive<UInt16Type>;
/// `UInt32` column.
pub type UInt32Column = Primitive<UInt32Type>;
/// `UInt64` column.
pub type UInt64Column = Primitive<UInt64Type>;
/// `Float32` column.
pub type Float32Column = Primitive<Float32Type>;
/// `Float64` column.
pub type Float64Column = Primitive<Float64Type>;
/// `Utf8` column (Arrow's builder).
pub type StringColumn = StringBuilder;
/// `Binary` column (Arrow's builder).
pub type BinaryColumn = BinaryBuilder;

/// [`Column`] for Arrow builders of a fixed type.
macro_rules! builder_column {
    ($([$($gen:tt)*] $builder:ty => $ty:expr, $create:expr;)*) => {$(
        impl<$($gen)*> Column for $builder {
            fn data_type() -> DataType {
                $ty
            }
            fn create(rows: usize) -> Self {
                $create(rows.min(FIRST_ROWS))
            }
            fn rows(&self) -> usize {
                ArrayBuilder::len(self)
            }
            fn finish_column(&mut self) -> ArrayRef {
                ArrayBuilder::finish(self)
            }
        }
    )*};
}

/// A list of 32-bit ints (snapshot item data, message ints).
pub type IntList = ListBuilder<Int32Builder>;

builder_column! {
    [] StringBuilder => DataType::Utf8, |rows| Self::with_capacity(rows, rows);
    [] BinaryBuilder => DataType::Binary, |rows| Self::with_capacity(rows, rows);
    [] IntList => DataType::List(Arc::new(Field::new_list_field(DataType::Int32, true))),
        |rows| Self::with_capacity(Int32Builder::with_capacity(rows), rows);
}

/// The `file` column: the same path on every row of an input, so it is
/// kept once and written dictionary-encoded (keys all 0, one value; null
/// without a path), at no cost per row.
#[derive(Default)]
pub struct FileColumn {
    name: Option<Arc<str>>,
    rows: usize,
}

impl FileColumn {
    /// Appends a row of `file`, the same for every row of a table: the
    /// first row's is kept (once per batch, not compared on every row).
    #[inline]
    pub fn append_option(&mut self, file: Option<&str>) {
        self.extend(file, 1);
    }

    /// Appends `rows` rows of `file`, the same for every row (the first
    /// rows' is kept).
    #[inline]
    pub fn extend(&mut self, file: Option<&str>, rows: usize) {
        if self.rows == 0 && rows > 0 {
            self.name = file.map(Arc::from);
        }
        self.rows = self.rows.saturating_add(rows);
    }
}

impl Column for FileColumn {
    fn data_type() -> DataType {
        DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8))
    }
    fn create(_: usize) -> Self {
        Self::default()
    }
    fn rows(&self) -> usize {
        self.rows
    }
    fn finish_column(&mut self) -> ArrayRef {
        let rows = std::mem::take(&mut self.rows);
        let keys = match &self.name {
            Some(_) => Int32Array::from(vec![0; rows]),
            None => Int32Array::new_null(rows),
        };
        let values = StringArray::from_iter_values(self.name.as_deref());
        // One value, every key 0 or null: always a valid dictionary.
        Arc::new(DictionaryArray::<Int32Type>::new(keys, Arc::new(values)))
    }
}

/// A fixed set of labels, the values of a [`LabelColumn`].
pub trait Labels {
    /// The labels, in key order.
    const VALUES: &'static [&'static str];
}

/// A column of labels from a fixed set `L` (a record's kind), never null,
/// written dictionary-encoded (`Int8` keys into `L::VALUES`): a byte per
/// row rather than a string.
pub struct LabelColumn<L> {
    keys: Vec<i8>,
    labels: std::marker::PhantomData<L>,
}

impl<L: Labels> LabelColumn<L> {
    /// Appends the label `L::VALUES[key]`.
    #[inline(always)]
    pub fn append_key(&mut self, key: i8) {
        self.keys.push(key);
    }
}

impl<L: Labels> Column for LabelColumn<L> {
    fn data_type() -> DataType {
        DataType::Dictionary(Box::new(DataType::Int8), Box::new(DataType::Utf8))
    }
    fn create(rows: usize) -> Self {
        Self {
            keys: Vec::with_capacity(rows.min(FIRST_ROWS)),
            labels: std::marker::PhantomData,
        }
    }
    fn rows(&self) -> usize {
        self.keys.len()
    }
    fn finish_column(&mut self) -> ArrayRef {
        let rows = self.keys.len();
        let keys = Int8Array::new(ScalarBuffer::from(std::mem::take(&mut self.keys)), None);
        let values = Arc::new(StringArray::from_iter_values(L::VALUES));
        match DictionaryArray::<Int8Type>::try_new(keys, values) {
            Ok(array) => Arc::new(array),
            // A key out of range (a caller's bug): a column of the wrong
            // type, which the batch refuses with an error.
            Err(_) => Arc::new(StringArray::new_null(rows)),
        }
    }
}

/// Declares a table: a struct of column builders, every column nullable,
/// each with its one-line description.
///
/// Generates `with_capacity`, `docs` (name, Arrow type, description per column:
/// the schema and the docs come from it), `len` (rows so far; every table's
/// first column is `file`) and `finish` (the rows so far as one batch, the
/// builders emptied).
macro_rules! table {
    ($(#[$meta:meta])* $name:ident { $($col:ident : $builder:ty = $doc:literal,)* }) => {
        $(#[$meta])*
        pub struct $name {
            $(#[doc = $doc] pub $col: $builder,)*
            /// The rows each batch is built for (the builders are made
            /// that large again after each batch, not grown).
            capacity: usize,
        }

        impl $name {
            /// Empty builders with room for `capacity` rows.
            pub fn with_capacity(capacity: usize) -> Self {
                Self {
                    $($col: <$builder as $crate::columns::Column>::create(capacity),)*
                    capacity,
                }
            }

            /// Name, Arrow type and description of every column.
            pub fn docs() -> Vec<(&'static str, arrow_schema::DataType, &'static str)> {
                vec![$((
                    stringify!($col),
                    <$builder as $crate::columns::Column>::data_type(),
                    $doc,
                ),)*]
            }

            /// Rows appended so far.
            #[allow(clippy::len_without_is_empty, reason = "a row count, no collection")]
            pub fn len(&self) -> usize {
                $crate::columns::Column::rows(&self.file)
            }

            /// The rows so far as one batch; the builders are emptied.
            pub fn finish(
                &mut self,
                schema: arrow_schema::SchemaRef,
            ) -> Result<arrow_array::RecordBatch, arrow_schema::ArrowError> {
                let columns = vec![$($crate::columns::Column::finish_column(&mut self.$col),)*];
                *self = Self::with_capacity(self.capacity);
                arrow_array::RecordBatch::try_new(schema, columns)
            }
        }

        impl $crate::columns::Rows for $name {
            fn rows(&self) -> usize {
                self.len()
            }
            fn batch(
                &mut self,
                schema: arrow_schema::SchemaRef,
            ) -> Result<arrow_array::RecordBatch, arrow_schema::ArrowError> {
                self.finish(schema)
            }
        }
    };
}

pub(crate) use table;

/// A table's builders, as [`Emitter`] flushes them.
pub trait Rows {
    /// Rows appended so far.
    fn rows(&self) -> usize;
    /// The rows so far as one batch; the builders are emptied.
    fn batch(
        &mut self,
        schema: arrow_schema::SchemaRef,
    ) -> Result<arrow_array::RecordBatch, arrow_schema::ArrowError>;
}

#[cfg(test)]
mod tests {
    use arrow_array::Array;
    use arrow_array::cast::AsArray;

    use super::*;

    /// Every order of valid and null rows gives the values and nulls
    /// appended, whichever way the validity was kept (none, a count, a
    /// bitmap), and an emptied column starts over.
    #[test]
    fn nulls_in_any_order() {
        let cases: [&[Option<i32>]; 6] = [
            &[Some(1), Some(2)],
            &[None, None, None],
            &[Some(1), None, Some(3)],
            &[None, None, Some(3), None],
            &[None],
            &[],
        ];
        let mut col = Int32Column::create(4);
        let mut flags = Bool::create(4);
        for rows in cases {
            for &v in rows {
                col.append_option(v);
                flags.append_option(v.map(|v| v > 1));
            }
            let array = col.finish_column();
            let got: Vec<Option<i32>> = array.as_primitive::<Int32Type>().iter().collect();
            assert_eq!(got, rows);
            let nulls = rows.iter().filter(|v| v.is_none()).count();
            assert_eq!(array.null_count(), nulls);
            let bools = flags.finish_column();
            let got: Vec<Option<bool>> = bools.as_boolean().iter().collect();
            let want: Vec<Option<bool>> = rows.iter().map(|v| v.map(|v| v > 1)).collect();
            assert_eq!(got, want);
        }
    }

    /// Rows appended a batch at a time give the same values and nulls as
    /// rows appended one by one, whichever way the batches split them and
    /// whether a batch is all values, all nulls or mixed.
    #[test]
    fn extend_is_append() {
        let rows = [
            None,
            None,
            Some(3),
            Some(4),
            Some(5),
            None,
            Some(7),
            Some(8),
        ];
        for split in 0..=rows.len() {
            for cut in split..=rows.len() {
                let (a, rest) = rows.split_at(split);
                let (b, c) = rest.split_at(cut.saturating_sub(split));
                let mut one = Int32Column::create(0);
                let mut batch = Int32Column::create(0);
                let mut flags = Bool::create(0);
                for part in [a, b, c] {
                    for &v in part {
                        one.append_option(v);
                    }
                    if !part.is_empty() && part.iter().all(Option::is_none) {
                        batch.extend_nulls(part.len());
                        flags.extend_nulls(part.len());
                    } else if part.iter().all(Option::is_some) {
                        batch.extend_values(part.iter().flatten().copied());
                        flags.extend_values(part.iter().flatten().map(|&v| v > 4));
                    } else {
                        batch.extend_options(part.iter().copied());
                        flags.extend_options(part.iter().map(|v| v.map(|v| v > 4)));
                    }
                }
                let want = one.finish_column();
                let got = batch.finish_column();
                assert_eq!(
                    got.as_primitive::<Int32Type>(),
                    want.as_primitive::<Int32Type>()
                );
                let got: Vec<Option<bool>> = flags.finish_column().as_boolean().iter().collect();
                let want: Vec<Option<bool>> = rows.iter().map(|v| v.map(|v| v > 4)).collect();
                assert_eq!(got, want, "split {split}, {cut}");
            }
        }
        // Empty extends of a column all valid make no bitmap.
        let mut valid = Int32Column::create(0);
        valid.extend_values([1, 2].into_iter());
        valid.extend_nulls(0);
        valid.extend_options(std::iter::empty());
        valid.extend_values(std::iter::empty());
        assert!(valid.finish_column().nulls().is_none());
    }
}
