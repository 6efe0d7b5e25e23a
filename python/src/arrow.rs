//! `to_arrow(table)`: one table of the `gamefmt-arrow` export (the same
//! tables and columns as `gamefmt-export`'s Parquet), handed to Python
//! through the Arrow PyCapsule interface (`__arrow_c_stream__`), so
//! pyarrow, polars and duckdb read it without a pinned pyarrow.

use std::ffi::CString;
use std::sync::Mutex;

use arrow::ffi_stream::FFI_ArrowArrayStream;
use gamefmt::Format;
use gamefmt_arrow::{RecordBatchReader, Table};
use pyo3::prelude::*;
use pyo3::types::PyCapsule;

use crate::error;
use crate::source::Input;

/// Rows per batch unless told otherwise.
pub const BATCH_ROWS: usize = 65_536;

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
pub fn tables(format: Format) -> Vec<&'static str> {
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

/// Streams table `name` of a pass over `input`, `batch_rows` rows a batch.
pub fn to_arrow(
    py: Python<'_>,
    input: &mut Input,
    format: Format,
    name: &str,
    batch_rows: usize,
) -> PyResult<ArrowStream> {
    let table = table(format, name)?;
    let reader = gamefmt_arrow::table_reader(input.gil_free_stream(py)?, table, batch_rows.max(1))
        .map_err(export_error)?;
    Ok(ArrowStream {
        reader: Mutex::new(Some(reader)),
        name: format!("{}/{}", table.format(), table.name()),
    })
}

/// One table as an Arrow stream: pass it to `pyarrow.table(...)`,
/// `polars.DataFrame(...)`, `duckdb.sql("FROM t")`, or anything else that
/// takes an object with `__arrow_c_stream__`. It can be consumed once.
#[pyclass(module = "gamefmt")]
pub struct ArrowStream {
    /// The reader, until consumed (a `Mutex` makes it `Sync`).
    reader: Mutex<Option<Box<dyn RecordBatchReader + Send>>>,
    name: String,
}

#[pymethods]
impl ArrowStream {
    /// The Arrow PyCapsule interface: a capsule named
    /// `arrow_array_stream` holding an `ArrowArrayStream`. A requested
    /// schema is not applied (the table's own schema is given).
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &mut self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        let taken = self.reader.get_mut().ok().and_then(Option::take);
        let Some(reader) = taken else {
            return Err(error::usage(format!(
                "the Arrow stream of {} was consumed already; call to_arrow again",
                self.name
            )));
        };
        let stream = FFI_ArrowArrayStream::new(reader);
        let name = CString::new("arrow_array_stream").map_err(|e| error::usage(e.to_string()))?;
        PyCapsule::new(py, stream, Some(name))
    }

    fn __repr__(&self) -> String {
        format!("<gamefmt.ArrowStream {}>", self.name)
    }
}
