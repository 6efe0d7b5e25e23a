//! Tables declared once: each table's columns as a struct of Arrow
//! builders, from which its schema, its batches and its documentation
//! (the crate docs' column list) all come.

use std::sync::Arc;

use arrow::array::{
    ArrayBuilder, BinaryBuilder, BooleanBuilder, Int32Builder, ListBuilder, PrimitiveBuilder,
    StringBuilder,
};
use arrow::datatypes::{ArrowPrimitiveType, DataType, Field};

/// A builder that can be a column: it knows its Arrow type.
pub trait Column: ArrayBuilder {
    /// The column's Arrow type.
    fn data_type() -> DataType;
    /// An empty builder.
    fn create() -> Self;
}

impl<T: ArrowPrimitiveType> Column for PrimitiveBuilder<T> {
    fn data_type() -> DataType {
        T::DATA_TYPE
    }
    fn create() -> Self {
        Self::new()
    }
}

impl Column for BooleanBuilder {
    fn data_type() -> DataType {
        DataType::Boolean
    }
    fn create() -> Self {
        Self::new()
    }
}

impl Column for StringBuilder {
    fn data_type() -> DataType {
        DataType::Utf8
    }
    fn create() -> Self {
        Self::new()
    }
}

impl Column for BinaryBuilder {
    fn data_type() -> DataType {
        DataType::Binary
    }
    fn create() -> Self {
        Self::new()
    }
}

/// A list of 32-bit ints (snapshot item data, message ints).
pub type IntList = ListBuilder<Int32Builder>;

impl Column for IntList {
    fn data_type() -> DataType {
        DataType::List(Arc::new(Field::new_list_field(DataType::Int32, true)))
    }
    fn create() -> Self {
        Self::new(Int32Builder::new())
    }
}

/// Declares a table: a struct of column builders, every column nullable,
/// each with its one-line description.
///
/// Generates `new`, `docs` (name, Arrow type, description per column:
/// the schema and the docs come from it), `len` (rows so far; every table's
/// first column is `file`) and `finish` (the rows so far as one batch, the
/// builders emptied).
macro_rules! table {
    ($(#[$meta:meta])* $name:ident { $($col:ident : $builder:ty = $doc:literal,)* }) => {
        $(#[$meta])*
        pub struct $name {
            $(#[doc = $doc] pub $col: $builder,)*
        }

        impl $name {
            /// Empty builders.
            pub fn new() -> Self {
                Self { $($col: <$builder as $crate::columns::Column>::create(),)* }
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
                arrow::array::ArrayBuilder::len(&self.file)
            }

            /// The rows so far as one batch; the builders are emptied.
            pub fn finish(
                &mut self,
                schema: arrow::datatypes::SchemaRef,
            ) -> Result<arrow::record_batch::RecordBatch, arrow::error::ArrowError> {
                arrow::record_batch::RecordBatch::try_new(
                    schema,
                    vec![$(std::sync::Arc::new(self.$col.finish()) as arrow::array::ArrayRef,)*],
                )
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
