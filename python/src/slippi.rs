//! Slippi replays: `Replay`, its events and frames as dicts, read through
//! the crate's streaming `slippi::Reader` (constant memory).

use std::collections::VecDeque;

use gamefmt::Format;
use gamefmt::slippi::stats::SlippiStats;
use gamefmt::slippi::{
    ClosedFrame, Event, FrameGrouper, Item, Metadata, Reader, SlippiView,
    ubjson::{self, Value},
};
use gamefmt::stream::End;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::arrow::File;
use crate::dict::dict;
use crate::error;
use crate::source::{Input, Stream};
use crate::stream_end;

/// A Slippi `.slp` replay (Super Smash Bros. Melee).
///
/// Iterating gives the events as dicts (`kind`, `frame`, fields);
/// `frames()` groups them by frame. Each pass streams the source again in
/// constant memory.
#[pyclass(module = "gamefmt", extends = File)]
pub struct Replay {
    header: Option<Py<PyDict>>,
    metadata: Option<Option<PyObject>>,
    end: Option<End>,
}

impl Replay {
    /// A replay over `input`.
    pub fn new(input: Input) -> PyClassInitializer<Self> {
        PyClassInitializer::from(File::new(input, Format::Slippi)).add_subclass(Self {
            header: None,
            metadata: None,
            end: None,
        })
    }
}

/// A core value as Python, through its `Serialize` (the one vocabulary,
/// `gamefmt::vocabulary`): maps become dicts.
pub(crate) fn serialized<'py, T: serde::Serialize + ?Sized>(
    py: Python<'py>,
    value: &T,
) -> PyResult<Bound<'py, PyDict>> {
    Ok(pythonize::pythonize(py, value)?.downcast_into::<PyDict>()?)
}

/// Game Start as the replay's header: the event's fields without `kind`
/// and `code`, with `raw_len` (the length of the raw element).
fn game_start<'py>(py: Python<'py>, e: &Event<'_>, raw_len: u32) -> PyResult<Bound<'py, PyDict>> {
    let d = serialized(py, e)?;
    d.del_item(pyo3::intern!(py, "kind"))?;
    d.del_item(pyo3::intern!(py, "code"))?;
    d.set_item(pyo3::intern!(py, "raw_len"), raw_len)?;
    Ok(d)
}

/// A UBJSON value as Python (objects as dicts, arrays as lists).
fn ubjson_value(py: Python<'_>, v: Value<'_>) -> PyResult<PyObject> {
    Ok(match v {
        Value::Null => py.None(),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        Value::Int(i) => i.into_pyobject(py)?.into_any().unbind(),
        Value::Float(f) => f.into_pyobject(py)?.into_any().unbind(),
        Value::Char(c) => char::from(c)
            .to_string()
            .into_pyobject(py)?
            .into_any()
            .unbind(),
        Value::Str(s) | Value::HighPrecision(s) => String::from_utf8_lossy(s)
            .into_pyobject(py)?
            .into_any()
            .unbind(),
        Value::Array(c) => {
            let list = PyList::empty(py);
            for entry in c.entries() {
                let (_, v) = entry.map_err(error::decode)?;
                list.append(ubjson_value(py, v)?)?;
            }
            list.into_any().unbind()
        }
        Value::Object(c) => {
            let d = PyDict::new(py);
            for entry in c.entries() {
                let (k, v) = entry.map_err(error::decode)?;
                d.set_item(String::from_utf8_lossy(k), ubjson_value(py, v)?)?;
            }
            d.into_any().unbind()
        }
    })
}

/// The metadata element as a dict.
fn metadata(py: Python<'_>, bytes: &[u8]) -> PyResult<PyObject> {
    Metadata::parse(bytes).map_err(error::decode)?;
    let (v, _) = ubjson::parse_value(bytes).map_err(error::decode)?;
    ubjson_value(py, v)
}

/// One event as a dict: the core's serialized event (`kind`, `code`, its
/// fields) and `offset`, the event's byte offset in the file.
fn event<'py>(py: Python<'py>, offset: usize, e: &Event<'_>) -> PyResult<Bound<'py, PyDict>> {
    let d = serialized(py, e)?;
    if let Event::GameEnd(_) = e {
        // pythonize makes serde's tuples (the array of placements) Python
        // tuples; a list, as every other sequence.
        let key = pyo3::intern!(py, "placements");
        if let Some(t) = d
            .get_item(key)?
            .and_then(|p| p.downcast_into::<PyTuple>().ok())
        {
            d.set_item(key, t.to_list())?;
        }
    }
    d.set_item(pyo3::intern!(py, "offset"), offset)?;
    Ok(d)
}

#[pymethods]
impl Replay {
    /// `"slippi"`.
    #[getter]
    fn format(&self) -> &'static str {
        "slippi"
    }

    /// Game Start as a dict: `version`, `stage`, `stage_name`, `is_pal`,
    /// `players` (port, character, character_name, type, …), `raw_len`.
    /// Reads the first events only.
    #[getter]
    fn header(mut slf: PyRefMut<'_, Self>) -> PyResult<Py<PyDict>> {
        let py = slf.py();
        if let Some(h) = &slf.header {
            return Ok(h.clone_ref(py));
        }
        let mut reader = Reader::new(slf.as_super().input.stream(py)?);
        let mut raw_len = 0;
        loop {
            match reader.next() {
                Some(Ok(Item::Header { raw_len: n })) => raw_len = n,
                Some(Ok(Item::Event(e @ Event::GameStart(_)))) => {
                    let h = game_start(py, &e, raw_len)?.unbind();
                    slf.header = Some(h.clone_ref(py));
                    return Ok(h);
                }
                Some(Ok(_)) => {}
                Some(Err(e)) => return Err(error::read(e)),
                None => {
                    return Err(error::decode(gamefmt::Error::corrupt(
                        "no Game Start event",
                        reader.offset(),
                    )));
                }
            }
        }
    }

    /// The metadata element (after the events) as a dict, or None when the
    /// file has none. Reads the whole stream unless a pass already did.
    #[getter]
    fn metadata(slf: Bound<'_, Self>) -> PyResult<PyObject> {
        let py = slf.py();
        if let Some(m) = &slf.borrow().metadata {
            return Ok(m.as_ref().map_or_else(|| py.None(), |m| m.clone_ref(py)));
        }
        let events = Self::events(slf.clone())?;
        let events = events.bind(py);
        while events.borrow_mut().next_event(py)?.is_some() {}
        let m = slf
            .borrow()
            .metadata
            .as_ref()
            .and_then(|m| m.as_ref().map(|m| m.clone_ref(py)));
        Ok(m.unwrap_or_else(|| py.None()))
    }

    /// The winning ports (1-based) with their positions, as slippi-js tells
    /// them (`gamefmt::slippi::winners`): `[{"port": 1, "position": 0}]`;
    /// empty when nobody won. Reads the whole file into memory.
    #[getter]
    fn winners(mut slf: PyRefMut<'_, Self>) -> PyResult<PyObject> {
        let py = slf.py();
        let bytes = slf.as_super().input.read_all(py)?;
        let view = SlippiView::parse(bytes.as_bytes(py)).map_err(error::decode)?;
        Ok(pythonize::pythonize(py, view.winners().as_slice())?.unbind())
    }

    /// The game's stats (`gamefmt::slippi::stats`: slippi-js 9.1.2's
    /// definitions) as a dict with the core's names (`stocks`,
    /// `conversions`, `combos`, `action_counts`, `input_counts`, `overall`,
    /// ...; players as 1-based `port`s). With `slippi_js=True`, slippi-js's
    /// own `getStats()` dict instead (camelCase, 0-based `playerIndex`),
    /// None where slippi-js gives `undefined`. A new pass over the events;
    /// damage after Game Start ends them (the stats so far are kept).
    #[pyo3(signature = (slippi_js = false))]
    fn stats(slf: Bound<'_, Self>, slippi_js: bool) -> PyResult<PyObject> {
        let py = slf.py();
        let stream = slf.borrow_mut().as_super().input.stream(py)?;
        let mut reader = Reader::new(stream);
        let mut stats = Box::new(SlippiStats::new());
        while let Some(item) = reader.next() {
            match item {
                Ok(Item::Event(e)) => stats.push(&e),
                Ok(_) => {}
                // Damage after Game Start ends the events, as a file cut
                // there would (the CLI's `stats` does the same).
                Err(_) if !stats.players().is_empty() => break,
                Err(e) => return Err(error::read(e)),
            }
        }
        stats.finish();
        if slippi_js {
            return Ok(pythonize::pythonize(py, &stats.slippi_js())?.unbind());
        }
        Ok(serialized(py, &*stats)?.into_any().unbind())
    }

    /// How the last complete pass ended: `"complete"`, `"eof"` (no end
    /// marker), `"truncated"` (cut inside a record) or None before a pass
    /// ended.
    #[getter]
    fn end(&self) -> Option<&'static str> {
        self.end.map(stream_end)
    }

    /// The events as dicts, in stream order (a new pass).
    fn events(slf: Bound<'_, Self>) -> PyResult<Py<Events>> {
        let py = slf.py();
        let stream = slf.borrow_mut().as_super().input.stream(py)?;
        Py::new(py, Events::new(slf.unbind(), stream))
    }

    fn __iter__(slf: Bound<'_, Self>) -> PyResult<Py<Events>> {
        Self::events(slf)
    }

    /// The frames, each a dict `{"frame", "rollback", "start", "players":
    /// [pre/post dicts], "items", "end"}`, grouped as the crate's
    /// `FrameGrouper` does; a rolled-back frame comes again with
    /// `rollback` True.
    fn frames(slf: Bound<'_, Self>) -> PyResult<Py<Frames>> {
        let py = slf.py();
        let events = Self::events(slf)?;
        Py::new(
            py,
            Frames {
                events,
                grouper: FrameGrouper::new(),
                open: None,
                ready: VecDeque::new(),
            },
        )
    }

    fn __repr__(&self) -> String {
        "<gamefmt.Replay>".to_owned()
    }
}

/// An iterator over a replay's events (dicts).
#[pyclass(module = "gamefmt")]
pub struct Events {
    owner: Py<Replay>,
    reader: Option<Reader<Stream>>,
}

impl Events {
    fn new(owner: Py<Replay>, stream: Stream) -> Self {
        Self {
            owner,
            reader: Some(Reader::new(stream)),
        }
    }

    /// The next event as a dict and the event itself, handed to `each`.
    fn next_with<T>(
        &mut self,
        py: Python<'_>,
        mut each: impl FnMut(&Event<'_>, Bound<'_, PyDict>) -> PyResult<T>,
    ) -> PyResult<Option<T>> {
        let Some(reader) = self.reader.as_mut() else {
            return Ok(None);
        };
        loop {
            let offset = reader.offset();
            match reader.next() {
                Some(Ok(Item::Event(e))) => {
                    let d = event(py, offset, &e)?;
                    return each(&e, d).map(Some);
                }
                Some(Ok(Item::Metadata(m))) => {
                    let m = metadata(py, m)?;
                    self.owner.borrow_mut(py).metadata = Some(Some(m));
                }
                Some(Ok(_)) => {}
                Some(Err(e)) => {
                    self.reader = None;
                    return Err(error::read(e));
                }
                None => {
                    let end = reader.end();
                    let mut owner = self.owner.borrow_mut(py);
                    owner.end = Some(end);
                    if owner.metadata.is_none() {
                        owner.metadata = Some(None);
                    }
                    self.reader = None;
                    return Ok(None);
                }
            }
        }
    }

    fn next_event(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyDict>>> {
        self.next_with(py, |_, d| Ok(d.unbind()))
    }
}

#[pymethods]
impl Events {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyDict>>> {
        self.next_event(py)
    }
}

/// An iterator over a replay's frames (dicts).
#[pyclass(module = "gamefmt")]
pub struct Frames {
    events: Py<Events>,
    grouper: FrameGrouper,
    /// The frame being filled.
    open: Option<Py<PyDict>>,
    /// Frames closed, not yet returned.
    ready: VecDeque<Py<PyDict>>,
}

/// Moves the open frame to `ready`, marked as `closed` says.
fn close(
    py: Python<'_>,
    open: &mut Option<Py<PyDict>>,
    ready: &mut VecDeque<Py<PyDict>>,
    closed: Option<ClosedFrame>,
) -> PyResult<()> {
    let Some(closed) = closed else {
        return Ok(());
    };
    if let Some(d) = open.take() {
        d.bind(py)
            .set_item(pyo3::intern!(py, "rollback"), closed.is_rollback)?;
        ready.push_back(d);
    }
    Ok(())
}

/// Adds an event (its dict) to the frame `number`, opening it if needed.
fn add(
    py: Python<'_>,
    open: &mut Option<Py<PyDict>>,
    number: i32,
    e: &Event<'_>,
    d: Bound<'_, PyDict>,
) -> PyResult<()> {
    let frame = match open {
        Some(f) => f.bind(py).clone(),
        None => {
            let f = dict!(py, {
                "frame" => number, "rollback" => false, "start" => py.None(),
                "players" => PyList::empty(py), "items" => PyList::empty(py), "end" => py.None(),
            })?;
            *open = Some(f.clone().unbind());
            f
        }
    };
    let list = |key: &str| -> PyResult<Bound<'_, PyList>> {
        Ok(frame.as_any().get_item(key)?.downcast_into::<PyList>()?)
    };
    match e {
        Event::FrameStart(_) => frame.set_item(pyo3::intern!(py, "start"), d)?,
        Event::FrameBookend(_) => frame.set_item(pyo3::intern!(py, "end"), d)?,
        Event::PreFrame(_) | Event::PostFrame(_) => list("players")?.append(d)?,
        _ => list("items")?.append(d)?,
    }
    Ok(())
}

#[pymethods]
impl Frames {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyDict>>> {
        let Self {
            events,
            grouper,
            open,
            ready,
        } = self;
        loop {
            if let Some(d) = ready.pop_front() {
                return Ok(Some(d));
            }
            let more = events.borrow_mut(py).next_with(py, |e, d| {
                let placement = grouper.push(e);
                close(py, open, ready, placement.closes)?;
                if let Some(n) = placement.frame {
                    add(py, open, n, e, d)?;
                }
                close(py, open, ready, placement.completes)
            })?;
            if more.is_none() {
                close(py, open, ready, grouper.finish())?;
                return Ok(ready.pop_front());
            }
        }
    }
}
