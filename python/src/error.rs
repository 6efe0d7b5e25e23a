//! The exception tree: every failure surfaces as `gamefmt.Error` or one of
//! its subclasses, with the byte offset where decoding failed.

use std::io;

use gamefmt::ErrorKind;
use gamefmt::stream::ReadError;
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

create_exception!(
    gamefmt,
    Error,
    PyException,
    "Every error gamefmt raises. `offset` is the byte offset in the input where \
     decoding failed (None when not about a byte), `kind` a short name of the cause."
);
create_exception!(
    gamefmt,
    DecodeError,
    Error,
    "The input is damaged, cut inside a structure where that is fatal, or not a format \
     gamefmt reads."
);
create_exception!(
    gamefmt,
    SourceError,
    Error,
    "Reading the source failed: the file could not be opened, or the file-like object's \
     `read` raised (that exception is the `__cause__`)."
);
create_exception!(
    gamefmt,
    UsageError,
    Error,
    "The call cannot be served: an unsupported source type, an unknown table or layer, \
     or a second pass over a file-like object that cannot seek."
);

/// A short name for an error kind (`kind` attribute).
fn kind_name(kind: ErrorKind) -> &'static str {
    match kind {
        ErrorKind::Truncated => "truncated",
        ErrorKind::BadMagic => "bad_magic",
        ErrorKind::UnsupportedVersion(_) => "unsupported_version",
        ErrorKind::OutOfBounds => "out_of_bounds",
        ErrorKind::InvalidVarint => "invalid_varint",
        ErrorKind::InvalidString => "invalid_string",
        ErrorKind::BufferTooSmall { .. } => "buffer_too_small",
        ErrorKind::Decompress => "decompress",
        ErrorKind::Corrupt(_) => "corrupt",
        ErrorKind::LegacyLayout => "legacy_layout",
        ErrorKind::Refused(_) => "refused",
        _ => "other",
    }
}

/// Sets `offset` and `kind` on a new exception.
fn with_attrs(err: PyErr, offset: Option<usize>, kind: &str) -> PyErr {
    Python::with_gil(|py| {
        let value = err.value(py);
        // Setting attributes on a fresh exception instance cannot fail in
        // practice; if it did, the exception still says what happened.
        let _ = value.setattr("offset", offset);
        let _ = value.setattr("kind", kind);
    });
    err
}

/// A decoding error as `gamefmt.DecodeError`.
pub fn decode(e: gamefmt::Error) -> PyErr {
    with_attrs(
        DecodeError::new_err(e.to_string()),
        Some(e.offset),
        kind_name(e.kind),
    )
}

/// A decoding failure told as a message, with its offset if known.
pub fn decode_message(message: String, offset: Option<usize>) -> PyErr {
    with_attrs(DecodeError::new_err(message), offset, "export")
}

/// A reader's error: a decoding error, or the source's.
pub fn read(e: ReadError) -> PyErr {
    match e {
        ReadError::Decode(e) => decode(e),
        ReadError::Io(e) => source(e, None),
    }
}

/// A source failure as `gamefmt.SourceError`, chained to the Python
/// exception the source raised, if any.
pub fn source(e: io::Error, offset: Option<usize>) -> PyErr {
    let message = e.to_string();
    let cause = e
        .into_inner()
        .and_then(|inner| inner.downcast::<PyErr>().ok());
    let err = with_attrs(SourceError::new_err(message), offset, "source");
    if let Some(cause) = cause {
        Python::with_gil(|py| err.set_cause(py, Some(*cause)));
    }
    err
}

/// A misuse as `gamefmt.UsageError`.
pub fn usage(message: impl Into<String>) -> PyErr {
    with_attrs(UsageError::new_err(message.into()), None, "usage")
}

/// Registers the exception classes in the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("Error", py.get_type::<Error>())?;
    m.add("DecodeError", py.get_type::<DecodeError>())?;
    m.add("SourceError", py.get_type::<SourceError>())?;
    m.add("UsageError", py.get_type::<UsageError>())?;
    Ok(())
}
