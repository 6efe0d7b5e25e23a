//! `gamefmt` for Python: the crate's decoders behind `gamefmt.open(src)`.
//!
//! `open` tells the format by its first bytes (`gamefmt::Format::detect`)
//! and returns a `Replay` (Slippi), `Teehistorian`, `Demo` or `Map`. The
//! stream formats are read through the crate's streaming readers, so a
//! file of any size is read in constant memory; teehistorian records come
//! as light `TeehistorianRecord` objects, the other formats' as dicts.
//! Every failure is a `gamefmt.Error` carrying the byte offset; nothing in
//! this layer panics on input (the crate's lints forbid it here too).

mod arrow;
mod demo;
mod demo_writer;
mod dict;
mod error;
mod map;
mod record;
mod slippi;
mod source;
mod teehistorian;
mod watch;

use gamefmt::Format;
use gamefmt::stream::End;
use pyo3::prelude::*;

use source::{Input, Source};

/// The name of a stream's ending, as the `end` attributes give it.
fn stream_end(end: End) -> &'static str {
    end.name()
}

/// Opens `src` (a path, bytes, bytearray, memoryview or binary file-like
/// object) and returns the object for its format: `Replay`, `Teehistorian`,
/// `Demo` or `Map`.
#[pyfunction]
fn open(py: Python<'_>, src: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    let mut source = Source::extract(src)?;
    let (format, stream) = source::detect(source.open(py)?)?;
    let input = Input::new(py, source, stream);
    Ok(match format {
        Some(Format::Slippi) => Py::new(py, slippi::Replay::new(input))?.into_any(),
        Some(Format::Teehistorian) => {
            Py::new(py, teehistorian::Teehistorian::new(input))?.into_any()
        }
        Some(Format::Demo) => Py::new(py, demo::Demo::new(input))?.into_any(),
        Some(Format::Datafile) => Py::new(py, map::Map::new(py, input)?)?.into_any(),
        _ => {
            return Err(error::decode(gamefmt::Error::new(
                gamefmt::ErrorKind::BadMagic,
                0,
            )));
        }
    })
}

/// The files `paths` stand for, as the `gamefmt` command reads them
/// (`gamefmt_cli::input::expand`): a directory's files (recursively,
/// sorted, hidden ones skipped), a zip archive's members as
/// `archive.zip/MEMBER` (each readable by `open`), other paths as given.
#[pyfunction]
#[pyo3(signature = (*paths))]
fn files(paths: Vec<std::path::PathBuf>) -> PyResult<Vec<std::path::PathBuf>> {
    gamefmt_cli::input::expand(&paths).map_err(|e| error::source(e, None))
}

/// The native module, `gamefmt._gamefmt`.
#[pymodule]
fn _gamefmt(m: &Bound<'_, PyModule>) -> PyResult<()> {
    error::register(m)?;
    m.add_function(wrap_pyfunction!(open, m)?)?;
    m.add_function(wrap_pyfunction!(files, m)?)?;
    m.add_class::<watch::Watch>()?;
    m.add_function(wrap_pyfunction!(watch::watch, m)?)?;
    // The core's registry of formats (`Format::ALL`): name -> magic bytes.
    let formats = pyo3::types::PyDict::new(m.py());
    for format in Format::ALL {
        formats.set_item(
            format.name(),
            pyo3::types::PyBytes::new(m.py(), format.magic()),
        )?;
    }
    m.add("FORMATS", formats)?;
    m.add_class::<slippi::Replay>()?;
    m.add_class::<slippi::Events>()?;
    m.add_class::<slippi::Frames>()?;
    m.add_class::<teehistorian::Teehistorian>()?;
    m.add_class::<teehistorian::Records>()?;
    m.add_class::<record::TeehistorianRecord>()?;
    m.add_class::<demo::Demo>()?;
    m.add_class::<demo::Chunks>()?;
    m.add_class::<demo_writer::DemoWriter>()?;
    m.add_class::<map::Map>()?;
    m.add_class::<arrow::ArrowStream>()?;
    m.add_class::<arrow::ArrowTable>()?;
    Ok(())
}
