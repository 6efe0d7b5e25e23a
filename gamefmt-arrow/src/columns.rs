//! Tables declared once: each table's columns as a struct of Arrow
//! builders, from which its schema, its batches and its documentation
//! (the crate docs' column list) all come.

use std::sync::Arc;

use arrow::array::{
    ArrayBuilder, ArrayRef, BinaryBuilder, BooleanBuilder, DictionaryArray, Int32Array,
    Int32Builder, ListBuilder, PrimitiveBuilder, StringArray, StringBuilder,
};
use arrow::datatypes::{ArrowPrimitiveType, DataType, Field, Int32Type};

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

/// [`Column`] for Arrow builders of a fixed type.
macro_rules! builder_column {
    ($([$($gen:tt)*] $builder:ty => $ty:expr, $create:expr;)*) => {$(
        impl<$($gen)*> Column for $builder {
            fn data_type() -> DataType {
                $ty
            }
            fn create(rows: usize) -> Self {
                $create(rows)
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
    [T: ArrowPrimitiveType] PrimitiveBuilder<T> => T::DATA_TYPE, Self::with_capacity;
    [] BooleanBuilder => DataType::Boolean, Self::with_capacity;
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
    /// Appends a row of `file` (the same for every row of a table).
    pub fn append_option(&mut self, file: Option<&str>) {
        if self.name.as_deref() != file {
            self.name = file.map(Arc::from);
        }
        self.rows = self.rows.saturating_add(1);
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
            pub fn docs() -> Vec<(&'static str, arrow::datatypes::DataType, &'static str)> {
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
                schema: arrow::datatypes::SchemaRef,
            ) -> Result<arrow::record_batch::RecordBatch, arrow::error::ArrowError> {
                let columns = vec![$($crate::columns::Column::finish_column(&mut self.$col),)*];
                *self = Self::with_capacity(self.capacity);
                arrow::record_batch::RecordBatch::try_new(schema, columns)
            }
        }

        impl $crate::columns::Rows for $name {
            fn rows(&self) -> usize {
                self.len()
            }
            fn batch(
                &mut self,
                schema: arrow::datatypes::SchemaRef,
            ) -> Result<arrow::record_batch::RecordBatch, arrow::error::ArrowError> {
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
        schema: arrow::datatypes::SchemaRef,
    ) -> Result<arrow::record_batch::RecordBatch, arrow::error::ArrowError>;
}
