//! Where the bytes come from: a path, a `bytes`-like object, or a binary
//! file-like object, each opened as an `io::Read` for one pass.
//!
//! A path is reopened for every pass, through the CLI's inputs
//! (`gamefmt_cli::input::Input`): a zip member named
//! `replays.zip/games/a.slp` streams from the archive, an `.slpz` replay
//! is decoded, gzip/zstd/xz decompressed; bytes are read in place (no copy
//! for `bytes`); a file-like object is read through its `read(n)` (a zip
//! member streams without a temporary file) and, for a second pass, sought
//! back to where it was when opened (`UsageError` when it cannot seek).

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use gamefmt_cli::input::indicatif::ProgressBar;
use gamefmt_cli::input::{Input as CliInput, SlpzError};

use gamefmt::Format;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyMemoryView, PyString};

use crate::error;

/// A source of bytes, opened once per pass.
#[derive(Debug)]
pub enum Source {
    /// A file path, opened for each pass.
    Path(PathBuf),
    /// Bytes held by Python, read in place.
    Bytes(Py<PyBytes>),
    /// A binary file-like object.
    File {
        /// The object.
        obj: Py<PyAny>,
        /// `tell()` when opened, if it can seek back there.
        start: Option<Py<PyAny>>,
        /// Whether a pass has begun.
        used: bool,
    },
}

/// An `io::Read` for one pass over a source.
pub type Stream = Box<dyn Read + Send + Sync>;

impl Source {
    /// Takes `src`: `str` or `os.PathLike` (a path), `bytes`, `bytearray` or
    /// `memoryview` (the bytes), or an object with `read` (a file).
    pub fn extract(src: &Bound<'_, PyAny>) -> PyResult<Self> {
        let py = src.py();
        if let Ok(b) = src.downcast::<PyBytes>() {
            return Ok(Self::Bytes(b.clone().unbind()));
        }
        if src.is_instance_of::<PyByteArray>() || src.is_instance_of::<PyMemoryView>() {
            let b = py.get_type::<PyBytes>().call1((src,))?;
            let b = b.downcast_into::<PyBytes>()?;
            return Ok(Self::Bytes(b.unbind()));
        }
        if src.is_instance_of::<PyString>() || src.hasattr(intern!(py, "__fspath__"))? {
            let os = py.import("os")?;
            let path: PathBuf = os.call_method1("fsdecode", (src,))?.extract()?;
            return Ok(Self::Path(path));
        }
        if src.hasattr(intern!(py, "read"))? {
            let seekable = src
                .call_method0(intern!(py, "seekable"))
                .and_then(|s| s.is_truthy())
                .unwrap_or(false);
            let start = if seekable {
                src.call_method0(intern!(py, "tell"))
                    .ok()
                    .map(Bound::unbind)
            } else {
                None
            };
            return Ok(Self::File {
                obj: src.clone().unbind(),
                start,
                used: false,
            });
        }
        Err(error::usage(format!(
            "gamefmt.open takes a path, bytes, bytearray, memoryview or a binary file-like \
             object, not {}",
            src.get_type().name()?
        )))
    }

    /// A path's text, or a file-like object's `name` when it is a string.
    fn name(&self, py: Python<'_>) -> Option<String> {
        match self {
            Self::Path(path) => Some(path.to_string_lossy().into_owned()),
            Self::Bytes(_) => None,
            Self::File { obj, .. } => obj
                .bind(py)
                .getattr(intern!(py, "name"))
                .ok()
                .and_then(|n| n.extract::<String>().ok()),
        }
    }

    /// Opens a pass over the bytes from the start.
    pub fn open(&mut self, py: Python<'_>) -> PyResult<Stream> {
        match self {
            Self::Path(path) => open_path(path),
            Self::Bytes(b) => Ok(Box::new(BytesReader {
                bytes: b.clone_ref(py),
                pos: 0,
            })),
            Self::File { obj, start, used } => {
                if *used {
                    let Some(start) = start else {
                        return Err(error::usage(
                            "this file-like object cannot seek: it can be read once; \
                             pass bytes or a path for several passes",
                        ));
                    };
                    obj.call_method1(py, intern!(py, "seek"), (start.clone_ref(py),))
                        .map_err(|e| error::source(io::Error::other(e), None))?;
                }
                *used = true;
                Ok(Box::new(FileReader {
                    obj: obj.clone_ref(py),
                }))
            }
        }
    }

    /// The whole content, for formats read as a whole (datafiles).
    pub fn read_all(&mut self, py: Python<'_>) -> PyResult<Py<PyBytes>> {
        if let Self::Bytes(b) = self {
            return Ok(b.clone_ref(py));
        }
        let mut stream = self.open(py)?;
        let mut all = Vec::new();
        stream
            .read_to_end(&mut all)
            .map_err(|e| error::source(e, None))?;
        Ok(PyBytes::new(py, &all).unbind())
    }
}

/// Opens the file at `path` as the CLI opens its inputs
/// (`gamefmt_cli::input::Input::open`): a zip archive's member by its
/// path below the archive, streamed; an `.slpz` replay decoded to its
/// `.slp` bytes; gzip, zstd and xz decompressed. A damaged `.slpz` is a
/// `DecodeError` at its offset in the `.slpz` bytes; any other failure a
/// `SourceError` naming the path.
pub fn open_path(path: &Path) -> PyResult<Stream> {
    // `-` is a file of that name here, not standard input.
    if path.as_os_str() == gamefmt_cli::input::STDIN {
        return match File::open(path) {
            Ok(f) => Ok(Box::new(f)),
            Err(e) => Err(path_error(path, e)),
        };
    }
    match CliInput::open(path, &ProgressBar::hidden()) {
        Ok(input) => Ok(Box::new(Opened(Mutex::new(input)))),
        Err(e) => Err(path_error(path, e)),
    }
}

/// An error opening `path`: a damaged `.slpz` as a decoding error, the
/// rest as the source's, prefixed with the path.
fn path_error(path: &Path, e: io::Error) -> PyErr {
    if let Some(slpz) = e.get_ref().and_then(|e| e.downcast_ref::<SlpzError>()) {
        return error::decode(slpz.0);
    }
    error::source(
        io::Error::new(e.kind(), format!("{}: {e}", path.display())),
        None,
    )
}

/// A CLI input as a [`Stream`] (which is `Sync`: the lock is never
/// contended, reads take it through `&mut`).
struct Opened(Mutex<CliInput>);

impl Read for Opened {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0
            .get_mut()
            .map_err(|_| io::Error::other("input lock poisoned"))?
            .read(buf)
    }
}

/// Reads up to 16 bytes to tell the format, then gives them back in front
/// of the rest of the stream.
pub fn detect(mut stream: Stream) -> PyResult<(Option<Format>, Stream)> {
    let mut head = [0u8; 16];
    let mut filled = 0;
    while let Some(rest) = head.get_mut(filled..) {
        if rest.is_empty() {
            break;
        }
        match stream.read(rest) {
            Ok(0) => break,
            Ok(n) => filled = filled.saturating_add(n.min(rest.len())),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(error::source(e, Some(filled))),
        }
    }
    let head = head.get(..filled).unwrap_or_default().to_vec();
    let format = Format::detect(&head);
    Ok((format, Box::new(io::Cursor::new(head).chain(stream))))
}

/// A source that opens passes without the GIL.
#[derive(Clone, Debug)]
pub enum Replayable {
    /// A file path.
    Path(PathBuf),
    /// Bytes owned by Rust.
    Bytes(Arc<[u8]>),
}

impl Replayable {
    /// A pass from the start.
    pub fn open(&self) -> PyResult<Stream> {
        match self {
            Self::Path(path) => open_path(path),
            Self::Bytes(b) => Ok(Box::new(io::Cursor::new(Arc::clone(b)))),
        }
    }
}

/// `bytes` held by Python, read from `pos`.
struct BytesReader {
    bytes: Py<PyBytes>,
    pos: usize,
}

impl Read for BytesReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        Python::with_gil(|py| {
            let all = self.bytes.as_bytes(py);
            let rest = all.get(self.pos..).unwrap_or_default();
            let n = rest.len().min(buf.len());
            if let (Some(dst), Some(src)) = (buf.get_mut(..n), rest.get(..n)) {
                dst.copy_from_slice(src);
            }
            self.pos = self.pos.saturating_add(n);
            Ok(n)
        })
    }
}

/// A file-like object, read through `read(n)`.
struct FileReader {
    obj: Py<PyAny>,
}

impl Read for FileReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        Python::with_gil(|py| {
            let data = self
                .obj
                .call_method1(py, intern!(py, "read"), (buf.len(),))
                .map_err(io::Error::other)?;
            let data = data.bind(py);
            let Ok(bytes) = data.downcast::<PyBytes>() else {
                if data.is_none() {
                    // A non-blocking stream with nothing available yet: the
                    // reader treats it as the end.
                    return Ok(0);
                }
                let converted = py
                    .get_type::<PyBytes>()
                    .call1((data,))
                    .map_err(io::Error::other)?;
                let converted = converted
                    .downcast_into::<PyBytes>()
                    .map_err(|e| io::Error::other(PyErr::from(e)))?;
                return copy_into(converted.as_bytes(), buf);
            };
            copy_into(bytes.as_bytes(), buf)
        })
    }
}

/// Copies what `read(n)` returned into `buf`, refusing more than asked.
fn copy_into(data: &[u8], buf: &mut [u8]) -> io::Result<usize> {
    let Some(dst) = buf.get_mut(..data.len()) else {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "read(n) returned more than n bytes",
        ));
    };
    dst.copy_from_slice(data);
    Ok(data.len())
}

/// A source and the stream its format was detected on, which the first
/// pass continues (so a file-like object that cannot seek is read once).
pub struct Input {
    source: Source,
    pending: Option<Stream>,
    name: Option<String>,
}

impl Input {
    /// The source, with the stream already begun on it.
    pub fn new(py: Python<'_>, source: Source, pending: Stream) -> Self {
        let name = source.name(py);
        Self {
            source,
            pending: Some(pending),
            name,
        }
    }

    /// The name of the source, for the Arrow tables' `file` column: a
    /// path as given, a file-like object's `name` when it is a string
    /// (a zip member's name, an open file's path); `None` for bytes.
    pub fn name(&self) -> Option<String> {
        self.name.clone()
    }

    /// A pass from the start: the detection stream the first time, a new
    /// one after.
    pub fn stream(&mut self, py: Python<'_>) -> PyResult<Stream> {
        match self.pending.take() {
            Some(s) => Ok(s),
            None => self.source.open(py),
        }
    }

    /// The source as one that reopens without the GIL, for readers that
    /// decode on threads of their own (`to_arrow`): a path as it is, other
    /// sources read into memory once.
    pub fn replayable(&mut self, py: Python<'_>) -> PyResult<Replayable> {
        if let Source::Path(path) = &self.source {
            return Ok(Replayable::Path(path.clone()));
        }
        let bytes = self.read_all(py)?;
        Ok(Replayable::Bytes(Arc::from(bytes.as_bytes(py))))
    }

    /// The whole content (datafiles, and facts read from the whole file).
    pub fn read_all(&mut self, py: Python<'_>) -> PyResult<Py<PyBytes>> {
        if let Some(mut s) = self.pending.take()
            && !matches!(self.source, Source::Bytes(_))
        {
            let mut all = Vec::new();
            s.read_to_end(&mut all)
                .map_err(|e| error::source(e, None))?;
            let bytes = PyBytes::new(py, &all).unbind();
            // Later passes read these bytes again, not the source.
            self.source = Source::Bytes(bytes.clone_ref(py));
            return Ok(bytes);
        }
        self.source.read_all(py)
    }
}
