//! `DemoWriter`: demos recorded as DDNet's `CDemoRecorder` records them
//! (the crate's `demo::Recorder`), into memory, a file by path, or a
//! binary file-like object.

use std::fs::File;
use std::io::{BufWriter, Write};

use gamefmt::demo::{DemoMap, DemoWriter as CoreWriter, HeaderPatch, Recorder, RecorderOptions};
use gamefmt::snapshot::{SnapshotBuilder, SnapshotView};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};

use crate::error;

/// Where the demo goes.
enum Sink {
    /// Kept in memory; `finish` returns it.
    Memory(Recorder),
    /// A file by path; `finish` patches its header.
    Path(CoreWriter<BufWriter<File>>),
    /// A file-like object's `write`; `finish` patches it through `seek`
    /// when it can, else returns the patch. `start`: its position when the
    /// demo began (`tell()`), when it is seekable.
    Object {
        rec: Recorder,
        obj: Py<PyAny>,
        start: Option<u64>,
    },
}

/// Records a Teeworlds/DDNet demo, byte for byte as DDNet's recorder.
///
/// `DemoWriter(dest=None, *, map_name, map_crc=0, map_sha256=None,
/// map_data=None, version=6, net_version="0.6 626fce9a778df4d4",
/// kind="server", timestamp="1970-01-01_00-00-00", trailing_zero=False)`:
/// `dest` is None (the demo is kept in memory and `finish()` returns it),
/// a path, or a binary file-like object with `write` (patched through
/// `seek` at the end when `seekable()`, else `finish()` returns the patch
/// as `[(offset, bytes), ...]`). Then `snapshot(tick, snap)` per tick
/// (`snap`: DDNet's `CSnapshot` bytes, or items `[(type_id, id, [ints])]`
/// as `Demo.chunks(snapshots=True)` gives them), `message(data)`,
/// `add_marker(tick=None)` and `finish()`. A context manager: `with`
/// finishes on a normal exit.
#[pyclass(module = "gamefmt", unsendable)]
pub struct DemoWriter {
    sink: Option<Sink>,
    builder: SnapshotBuilder,
    /// The result of `finish`, returned again by a second call.
    finished: Option<PyObject>,
}

/// A recording error as `gamefmt.DecodeError` (the core's error and its
/// offset in the demo written), an I/O error as `gamefmt.SourceError`.
fn io_error(e: std::io::Error) -> PyErr {
    match e.get_ref().and_then(|i| i.downcast_ref::<gamefmt::Error>()) {
        Some(inner) => error::decode(*inner),
        None => error::source(e, None),
    }
}

impl DemoWriter {
    fn sink(&mut self) -> PyResult<&mut Sink> {
        self.sink
            .as_mut()
            .ok_or_else(|| error::usage("the DemoWriter is finished"))
    }

    /// Writes what the recorder holds to a file-like object.
    fn drain(py: Python<'_>, rec: &mut Recorder, obj: &Py<PyAny>) -> PyResult<()> {
        let bytes = rec.take_bytes();
        if !bytes.is_empty() {
            obj.call_method1(py, "write", (PyBytes::new(py, &bytes),))?;
        }
        Ok(())
    }

    /// Records `snap`.
    fn record(&mut self, py: Python<'_>, tick: i32, snap: &SnapshotView<'_>) -> PyResult<()> {
        match self.sink()? {
            Sink::Memory(rec) => rec.snapshot(tick, snap).map_err(error::decode),
            Sink::Path(w) => w.snapshot(tick, snap).map_err(io_error),
            Sink::Object { rec, obj, .. } => {
                rec.snapshot(tick, snap).map_err(error::decode)?;
                Self::drain(py, rec, obj)
            }
        }
    }

    fn recorder(&self) -> Option<&Recorder> {
        match self.sink.as_ref()? {
            Sink::Memory(rec) | Sink::Object { rec, .. } => Some(rec),
            Sink::Path(w) => Some(w.recorder()),
        }
    }
}

/// The patch as `[(offset, bytes), ...]`.
fn patch_list<'py>(py: Python<'py>, patch: &HeaderPatch) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for (at, bytes) in patch.writes() {
        list.append((at, PyBytes::new(py, bytes)))?;
    }
    Ok(list)
}

#[pymethods]
impl DemoWriter {
    #[new]
    #[pyo3(signature = (
        dest = None, *, map_name, map_crc = 0, map_sha256 = None, map_data = None,
        version = 6, net_version = "0.6 626fce9a778df4d4", kind = "server",
        timestamp = "1970-01-01_00-00-00", trailing_zero = false
    ))]
    #[allow(clippy::too_many_arguments, reason = "Python keyword arguments")]
    fn new(
        py: Python<'_>,
        dest: Option<&Bound<'_, PyAny>>,
        map_name: &str,
        map_crc: u32,
        map_sha256: Option<&[u8]>,
        map_data: Option<&[u8]>,
        version: u8,
        net_version: &str,
        kind: &str,
        timestamp: &str,
        trailing_zero: bool,
    ) -> PyResult<Self> {
        let sha256 = match map_sha256 {
            None => [0; 32],
            Some(s) => {
                <[u8; 32]>::try_from(s).map_err(|_| error::usage("map_sha256 must be 32 bytes"))?
            }
        };
        let map = DemoMap {
            name: map_name,
            crc: map_crc,
            sha256,
            data: map_data,
        };
        let options = RecorderOptions {
            version,
            net_version,
            kind,
            timestamp,
            trailing_zero,
        };
        let sink = match dest {
            None => Sink::Memory(Recorder::new(&options, &map).map_err(error::decode)?),
            Some(d) if d.hasattr("write")? => {
                let seekable = d.hasattr("seek")?
                    && d.call_method0("seekable")
                        .and_then(|v| v.extract::<bool>())
                        .unwrap_or(false);
                let start = if seekable {
                    Some(d.call_method0("tell")?.extract::<u64>()?)
                } else {
                    None
                };
                let mut rec = Recorder::new(&options, &map).map_err(error::decode)?;
                let obj = d.clone().unbind();
                Self::drain(py, &mut rec, &obj)?;
                Sink::Object { rec, obj, start }
            }
            Some(d) => {
                let path: std::path::PathBuf = d.extract().map_err(|_| {
                    error::usage(
                        "dest must be None, a path or a binary file-like object with write()",
                    )
                })?;
                let file = File::create(&path).map_err(|e| error::source(e, None))?;
                Sink::Path(
                    CoreWriter::new(BufWriter::with_capacity(1 << 16, file), &options, &map)
                        .map_err(io_error)?,
                )
            }
        };
        Ok(Self {
            sink: Some(sink),
            builder: SnapshotBuilder::new(),
            finished: None,
        })
    }

    /// Records the snapshot of `tick`: DDNet's `CSnapshot` bytes, or a
    /// list of items `(type_id, id, [ints])`.
    fn snapshot(&mut self, py: Python<'_>, tick: i32, snap: &Bound<'_, PyAny>) -> PyResult<()> {
        if let Ok(bytes) = snap.extract::<&[u8]>() {
            let view = SnapshotView::parse(bytes).map_err(error::decode)?;
            return self.record(py, tick, &view);
        }
        let items: Vec<(u16, u16, Vec<i32>)> = snap.extract().map_err(|_| {
            error::usage("snap must be snapshot bytes or a list of (type_id, id, [ints]) items")
        })?;
        let mut builder = core::mem::take(&mut self.builder);
        builder.clear();
        let result = items
            .iter()
            .try_for_each(|(type_id, id, ints)| builder.add(*type_id, *id, ints))
            .map_err(error::decode)
            .and_then(|()| self.record(py, tick, &builder.snapshot()));
        self.builder = builder;
        result
    }

    /// Records a message: its bytes as the network carries them (the
    /// packed message id, then its fields).
    fn message(&mut self, py: Python<'_>, data: &[u8]) -> PyResult<()> {
        match self.sink()? {
            Sink::Memory(rec) => rec.message(data).map_err(error::decode),
            Sink::Path(w) => w.message(data).map_err(io_error),
            Sink::Object { rec, obj, .. } => {
                rec.message(data).map_err(error::decode)?;
                Self::drain(py, rec, obj)
            }
        }
    }

    /// Adds a timeline marker at `tick` (None: the last tick recorded);
    /// False when refused, as DDNet refuses (64 markers already, or the
    /// last less than a second before).
    #[pyo3(signature = (tick = None))]
    fn add_marker(&mut self, tick: Option<i32>) -> PyResult<bool> {
        Ok(match (self.sink()?, tick) {
            (Sink::Memory(rec) | Sink::Object { rec, .. }, Some(t)) => rec.add_marker(t),
            (Sink::Memory(rec) | Sink::Object { rec, .. }, None) => rec.add_marker_now(),
            (Sink::Path(w), t) => match t.or(w.recorder().last_tick()) {
                Some(t) => w.add_marker(t),
                None => false,
            },
        })
    }

    /// The length in seconds so far: (last tick - first tick) / 50.
    #[getter]
    fn length_seconds(&self) -> i32 {
        self.recorder().map_or(0, Recorder::length_seconds)
    }

    /// The timeline markers so far.
    #[getter]
    fn markers(&self) -> Vec<i32> {
        self.recorder()
            .map(|r| r.markers().to_vec())
            .unwrap_or_default()
    }

    /// Ends the recording: returns the demo (`bytes`) when kept in memory;
    /// None for a path or a seekable file-like object (their header is
    /// patched); for a file-like object that cannot seek, the header patch
    /// `[(offset, bytes), ...]` to write over the demo's first bytes where
    /// they landed. A second call returns the same.
    fn finish(&mut self, py: Python<'_>) -> PyResult<PyObject> {
        if let Some(done) = &self.finished {
            return Ok(done.clone_ref(py));
        }
        let Some(sink) = self.sink.take() else {
            return Err(error::usage("the DemoWriter is finished"));
        };
        let result = match sink {
            Sink::Memory(rec) => PyBytes::new(py, &rec.finish()).into_any().unbind(),
            Sink::Path(w) => {
                let mut file = w.finish().map_err(io_error)?;
                file.flush().map_err(|e| error::source(e, None))?;
                py.None()
            }
            Sink::Object {
                mut rec,
                obj,
                start,
            } => {
                Self::drain(py, &mut rec, &obj)?;
                let patch = rec.header_patch();
                match start {
                    Some(start) => {
                        let end = obj.call_method0(py, "tell")?;
                        for (at, bytes) in patch.writes() {
                            obj.call_method1(py, "seek", (start.saturating_add(at as u64),))?;
                            obj.call_method1(py, "write", (PyBytes::new(py, bytes),))?;
                        }
                        obj.call_method1(py, "seek", (end,))?;
                        py.None()
                    }
                    None => patch_list(py, &patch)?.into_any().unbind(),
                }
            }
        };
        self.finished = Some(result.clone_ref(py));
        Ok(result)
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// Finishes on a normal exit; leaves the demo unfinished (as a crash
    /// would) when the block raised.
    fn __exit__(
        &mut self,
        py: Python<'_>,
        exc_type: Option<&Bound<'_, PyAny>>,
        _exc: Option<&Bound<'_, PyAny>>,
        _tb: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<bool> {
        if exc_type.is_none() && self.sink.is_some() {
            self.finish(py)?;
        }
        Ok(false)
    }

    fn __repr__(&self) -> String {
        let state = if self.sink.is_some() {
            "recording"
        } else {
            "finished"
        };
        format!("<gamefmt.DemoWriter {state}>")
    }
}
