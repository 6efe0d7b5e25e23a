//! `to_arrow(table)`: one table of the `gamefmt-arrow` export (the same
//! tables and columns as `gamefmt export`'s Parquet), handed to Python
//! through the Arrow PyCapsule interface (`__arrow_c_stream__`), so
//! pyarrow, polars and duckdb read it without a pinned pyarrow.

use std::ffi::CString;

use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{RecordBatch, RecordBatchIterator, RecordBatchReader};
use arrow_schema::ffi::FFI_ArrowSchema;
use gamefmt::Format;
use gamefmt_arrow::Table;
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyDict};

use crate::error;
use crate::source::{Input, Replayable};

/// The table of `format` named `name` (`frames`, `games`, …).
fn table(format: Format, name: &str) -> PyResult<Table> {
    let tables = Table::of(format);
    tables
        .iter()
        .copied()
        .find(|t| t.name() == name)
        .ok_or_else(|| {
            let names: Vec<&str> = tables.iter().map(|t| t.name()).collect();
            error::usage(format!(
                "no table {name:?} for {} files; the tables are {}",
                format.name(),
                names.join(", ")
            ))
        })
}

/// The names of `format`'s tables.
fn tables(format: Format) -> Vec<&'static str> {
    Table::of(format).iter().map(|t| t.name()).collect()
}

/// An `export` error as a `gamefmt.Error`.
fn export_error(e: gamefmt_arrow::Error) -> PyErr {
    match e {
        gamefmt_arrow::Error::Decode(e) => error::decode(e),
        gamefmt_arrow::Error::Io(e) => error::source(e, None),
        other => error::decode_message(other.to_string(), other.offset()),
    }
}

/// A [`gamefmt_arrow::table_reader`] error as a `gamefmt.Error`: the
/// reader wraps gamefmt's own error in an `ArrowError::ExternalError`.
fn reader_error(e: arrow_schema::ArrowError) -> PyErr {
    match e {
        arrow_schema::ArrowError::ExternalError(inner) => {
            match inner.downcast::<gamefmt_arrow::Error>() {
                Ok(e) => export_error(*e),
                Err(other) => error::decode_message(other.to_string(), None),
            }
        }
        other => error::decode_message(other.to_string(), None),
    }
}

/// What every format's class offers: its source, read again for each
/// pass, and the format's Arrow tables (`tables`, `to_arrow`,
/// `arrow_tables`).
// A base class holds them, so that each class has one `#[pymethods]`
// block: with pyo3's `multiple-pymethods`, making any object (a record
// too) boxed an iterator over its class's methods each time.
#[pyclass(module = "gamefmt", name = "_File", subclass)]
pub struct File {
    /// Where the bytes come from.
    pub input: Input,
    format: Format,
}

impl File {
    /// A file of `format` read from `input`.
    pub const fn new(input: Input, format: Format) -> Self {
        Self { input, format }
    }
}

#[pymethods]
impl File {
    /// The names of the Arrow tables of this format (`to_arrow`).
    #[getter]
    fn tables(&self) -> Vec<&'static str> {
        tables(self.format)
    }

    /// Table `table` (one of `tables`) as Arrow data, the same table as
    /// `gamefmt export` writes: give it to `pyarrow.table`,
    /// `polars.DataFrame`, duckdb, … (Arrow PyCapsule interface). Each
    /// read decodes the file again, whole, before handing the rows over,
    /// so a damaged file raises `gamefmt.Error` there; with
    /// `stream=True` the rows are handed over as they are decoded
    /// (constant memory), and an error met on the way reaches the
    /// consumer as its own exception (pyarrow's `ArrowInvalid`, ...), with
    /// gamefmt's message and byte offset.
    #[pyo3(name = "to_arrow", signature = (table, batch_rows = 65536, stream = false))]
    fn arrow_table(
        &mut self,
        py: Python<'_>,
        table: &str,
        batch_rows: usize,
        stream: bool,
    ) -> PyResult<ArrowStream> {
        to_arrow(py, &mut self.input, self.format, table, batch_rows, stream)
    }

    /// Every table of this format from one decode of the source, as a
    /// dict of table name to `ArrowTable` (its rows held in memory): for
    /// several tables of one file, faster than a `to_arrow` per table,
    /// which decodes again each time. Errors are raised here, as
    /// `gamefmt.Error`.
    #[pyo3(name = "arrow_tables", signature = (batch_rows = 65536))]
    fn all_tables<'py>(
        &mut self,
        py: Python<'py>,
        batch_rows: usize,
    ) -> PyResult<Bound<'py, PyDict>> {
        arrow_tables(py, &mut self.input, self.format, batch_rows)
    }
}

/// Table `name` of `input`, streamed `batch_rows` rows a batch each time
/// it is asked for.
fn to_arrow(
    py: Python<'_>,
    input: &mut Input,
    format: Format,
    name: &str,
    batch_rows: usize,
    stream: bool,
) -> PyResult<ArrowStream> {
    Ok(ArrowStream {
        source: input.replayable(py)?,
        file: input.name(),
        table: table(format, name)?,
        batch_rows: batch_rows.max(1),
        stream,
    })
}

/// Every table of `input` from one decode (without the GIL), as a dict of
/// name to [`ArrowTable`], in the format's table order.
fn arrow_tables<'py>(
    py: Python<'py>,
    input: &mut Input,
    format: Format,
    batch_rows: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let source = input.replayable(py)?;
    let file = input.name();
    let mut batches: Vec<(Table, Vec<RecordBatch>)> =
        Table::of(format).iter().map(|&t| (t, Vec::new())).collect();
    let mut sink = |table, batch| {
        if let Some((_, list)) = batches.iter_mut().find(|(t, _)| *t == table) {
            list.push(batch);
        }
        Ok(())
    };
    // The rows are all held in memory, so the input is too (a path is
    // read whole): decoding from memory is faster than streaming.
    py.allow_threads(|| match source {
        Replayable::Path(path) => {
            let bytes = std::fs::read(&path).map_err(|e| error::source(e, None))?;
            gamefmt_arrow::export_bytes(bytes, file.as_deref(), batch_rows.max(1), &mut sink)
                .map_err(export_error)
        }
        Replayable::Bytes(bytes) => {
            gamefmt_arrow::export_bytes(bytes, file.as_deref(), batch_rows.max(1), &mut sink)
                .map_err(export_error)
        }
    })?;
    let dict = PyDict::new(py);
    for (table, batches) in batches {
        dict.set_item(table.name(), ArrowTable { table, batches })?;
    }
    Ok(dict)
}

/// One table's rows, decoded and held in memory (`arrow_tables`): pass it
/// to `pyarrow.table(...)`, `polars.DataFrame(...)` or duckdb, as many
/// times as wanted (Arrow PyCapsule interface).
#[pyclass(module = "gamefmt", frozen)]
pub struct ArrowTable {
    table: Table,
    batches: Vec<RecordBatch>,
}

#[pymethods]
impl ArrowTable {
    /// The Arrow PyCapsule interface: a capsule named
    /// `arrow_array_stream` over the rows (their buffers shared, not
    /// copied). A requested schema is not applied.
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        let reader = RecordBatchIterator::new(
            self.batches.clone().into_iter().map(Ok),
            self.table.schema(),
        );
        stream_capsule(py, Box::new(reader))
    }

    /// The Arrow PyCapsule interface for the schema alone.
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        schema_capsule(py, self.table)
    }

    /// Rows in the table.
    fn __len__(&self) -> usize {
        self.batches.iter().map(RecordBatch::num_rows).sum()
    }

    fn __repr__(&self) -> String {
        format!(
            "<gamefmt.ArrowTable {}/{}, {} rows>",
            self.table.format(),
            self.table.name(),
            self.__len__()
        )
    }
}

/// An Arrow stream as the capsule `__arrow_c_stream__` returns.
fn stream_capsule<'py>(
    py: Python<'py>,
    reader: Box<dyn RecordBatchReader + Send>,
) -> PyResult<Bound<'py, PyCapsule>> {
    let stream = FFI_ArrowArrayStream::new(reader);
    let name = CString::new("arrow_array_stream").map_err(|e| error::usage(e.to_string()))?;
    PyCapsule::new(py, stream, Some(name))
}

/// A table's schema as the capsule `__arrow_c_schema__` returns.
fn schema_capsule(py: Python<'_>, table: Table) -> PyResult<Bound<'_, PyCapsule>> {
    let schema = FFI_ArrowSchema::try_from(table.schema().as_ref())
        .map_err(|e| error::usage(e.to_string()))?;
    let name = CString::new("arrow_schema").map_err(|e| error::usage(e.to_string()))?;
    PyCapsule::new(py, schema, Some(name))
}

/// One table as Arrow data: pass it to `pyarrow.table(...)`,
/// `polars.DataFrame(...)`, duckdb (`duckdb.sql("FROM t")`), or anything
/// that takes an object with `__arrow_c_stream__`. Each request decodes
/// the source again (a path is reopened; other sources were read into
/// memory once), so it can be read more than once.
#[pyclass(module = "gamefmt", frozen)]
pub struct ArrowStream {
    source: Replayable,
    /// The `file` column's value.
    file: Option<String>,
    table: Table,
    batch_rows: usize,
    /// Hand batches over as they are decoded (`to_arrow(stream=True)`).
    stream: bool,
}

impl ArrowStream {
    fn name(&self) -> String {
        format!("{}/{}", self.table.format(), self.table.name())
    }
}

#[pymethods]
impl ArrowStream {
    /// The Arrow PyCapsule interface: a capsule named
    /// `arrow_array_stream` holding an `ArrowArrayStream` over a new
    /// decode. A requested schema is not applied (the table's own is
    /// given). The file is decoded whole first (without the GIL) and a
    /// failure raised here as `gamefmt.Error`; with `stream=True`, errors
    /// met while the stream is read reach the consumer as its own
    /// exception, with gamefmt's message and byte offset.
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        let input = self.source.open()?;
        let (table, batch_rows, file) = (self.table, self.batch_rows, self.file.as_deref());
        let reader = gamefmt_arrow::table_reader_for_file(input, file, table, batch_rows)
            .map_err(export_error)?;
        if self.stream {
            return stream_capsule(py, reader);
        }
        let batches = py
            .allow_threads(|| reader.collect::<Result<Vec<_>, _>>())
            .map_err(reader_error)?;
        let reader = RecordBatchIterator::new(batches.into_iter().map(Ok), table.schema());
        stream_capsule(py, Box::new(reader))
    }

    /// The Arrow PyCapsule interface for the schema alone: a capsule named
    /// `arrow_schema`.
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        schema_capsule(py, self.table)
    }

    fn __repr__(&self) -> String {
        format!("<gamefmt.ArrowStream {}>", self.name())
    }
}
