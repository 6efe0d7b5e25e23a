//! `TeehistorianRecord`: one teehistorian record as a light object.
//!
//! Iteration makes one per record, so it holds the decoded values as they
//! are (the kind as an enum, the player's name as one Python string shared
//! by a client's records) and makes Python objects only for what is read.
//! The common kinds keep their fields inline; the rare ones (MESSAGE, DROP,
//! CONSOLE_COMMAND, EX) carry a dict of theirs. It reads like the dict
//! records used to be: attributes (`r.tick`, `r.cid`, …) and the read-only
//! mapping protocol (`r["kind"]`, `r.get(…)`, `keys()`, `items()`,
//! `to_dict()`).

use gamefmt::teehistorian::Kind;
use pyo3::exceptions::{PyAttributeError, PyKeyError};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyDict, PyList, PyString};
use pyo3::{IntoPyObjectExt, intern};

/// What a record carries beyond its kind, tick, offset and player.
pub enum Body {
    /// FINISH: nothing.
    Empty,
    /// TICK_SKIP.
    TickSkip {
        /// Ticks skipped.
        dt: i32,
    },
    /// PLAYER_DIFF.
    Move {
        /// Client id.
        cid: i32,
        /// Moved by x.
        dx: i32,
        /// Moved by y.
        dy: i32,
    },
    /// PLAYER_NEW.
    New {
        /// Client id.
        cid: i32,
        /// Absolute x.
        x: i32,
        /// Absolute y.
        y: i32,
    },
    /// PLAYER_OLD and JOIN: the client id alone.
    Client {
        /// Client id.
        cid: i32,
    },
    /// INPUT_NEW (`new`: the input, key `input`) and INPUT_DIFF (the
    /// diff, key `diff`).
    Input {
        /// Client id.
        cid: i32,
        /// INPUT_NEW rather than INPUT_DIFF.
        new: bool,
        /// The ten ints.
        ints: [i32; 10],
    },
    /// The rarer kinds: their fields, in order.
    Dict(Py<PyDict>),
}

/// One teehistorian record (iterating a `Teehistorian` gives them).
///
/// Attributes: `kind` (`"PLAYER_DIFF"`, `"INPUT_NEW"`, …), `tick`,
/// `offset` (of the record in the file), `player` (the name of the client
/// the record is about, None when unknown), and the kind's fields: `cid`,
/// `dx`, `dy` (PLAYER_DIFF), `x`, `y` (PLAYER_NEW), `dt` (TICK_SKIP),
/// `input` / `diff` (ten ints), `data`, `message`, `text` (MESSAGE),
/// `reason` (DROP), `flags`, `source`, `cmd`, `args` (CONSOLE_COMMAND),
/// `uuid`, `name`, `fields` or `error` (EX). A field the record's kind
/// lacks raises AttributeError.
///
/// It is also a read-only mapping of the same keys (`player` only when
/// known), as the dicts of earlier versions were: `r["kind"]`,
/// `r.get("player")`, `"cid" in r`, `keys()`, `items()`, `values()`,
/// `len(r)`, `dict(r)`, and `to_dict()`; it compares equal to that dict.
#[pyclass(module = "gamefmt", frozen)]
pub struct TeehistorianRecord {
    kind: Kind,
    tick: i32,
    offset: usize,
    player: Option<Py<PyString>>,
    body: Body,
}

/// The kinds' names as Python strings (in `Kind::ALL`'s order), made once.
static KIND_NAMES: GILOnceCell<Vec<Py<PyString>>> = GILOnceCell::new();

/// The name of `kind` as a Python string (PLAYER_DIFF, the most common,
/// is the first looked at).
fn kind_name(py: Python<'_>, kind: Kind) -> Bound<'_, PyString> {
    let names = KIND_NAMES.get_or_init(py, || {
        Kind::ALL
            .iter()
            .map(|k| PyString::new(py, k.name()).unbind())
            .collect()
    });
    Kind::ALL
        .iter()
        .position(|k| *k == kind)
        .and_then(|i| names.get(i))
        .map_or_else(|| PyString::new(py, kind.name()), |s| s.bind(py).clone())
}

impl TeehistorianRecord {
    /// A record of kind `kind`, about the player named `player`.
    pub const fn new(
        kind: Kind,
        tick: i32,
        offset: usize,
        player: Option<Py<PyString>>,
        body: Body,
    ) -> Self {
        Self {
            kind,
            tick,
            offset,
            player,
            body,
        }
    }

    /// The keys of the body's fields, in order.
    fn body_keys<'py>(&self, py: Python<'py>) -> Vec<Bound<'py, PyAny>> {
        let names: &[&str] = match &self.body {
            Body::Empty => &[],
            Body::TickSkip { .. } => &["dt"],
            Body::Move { .. } => &["cid", "dx", "dy"],
            Body::New { .. } => &["cid", "x", "y"],
            Body::Client { .. } => &["cid"],
            Body::Input { new: true, .. } => &["cid", "input"],
            Body::Input { new: false, .. } => &["cid", "diff"],
            Body::Dict(d) => return d.bind(py).keys().iter().collect(),
        };
        names
            .iter()
            .map(|n| PyString::new(py, n).into_any())
            .collect()
    }

    /// Field `key`, `None` when the record has no such key.
    fn field<'py>(&self, py: Python<'py>, key: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
        let int = |v: i32| v.into_bound_py_any(py).map(Some);
        match (key, &self.body) {
            ("kind", _) => Ok(Some(kind_name(py, self.kind).into_any())),
            ("tick", _) => int(self.tick),
            ("offset", _) => self.offset.into_bound_py_any(py).map(Some),
            ("player", _) => Ok(self.player.as_ref().map(|p| p.bind(py).clone().into_any())),
            (
                "cid",
                Body::Move { cid, .. }
                | Body::New { cid, .. }
                | Body::Client { cid }
                | Body::Input { cid, .. },
            ) => int(*cid),
            ("dx", Body::Move { dx, .. }) => int(*dx),
            ("dy", Body::Move { dy, .. }) => int(*dy),
            ("x", Body::New { x, .. }) => int(*x),
            ("y", Body::New { y, .. }) => int(*y),
            ("dt", Body::TickSkip { dt }) => int(*dt),
            (
                "input",
                Body::Input {
                    new: true, ints, ..
                },
            )
            | (
                "diff",
                Body::Input {
                    new: false, ints, ..
                },
            ) => PyList::new(py, ints).map(|l| Some(l.into_any())),
            (_, Body::Dict(d)) => d.bind(py).get_item(key),
            _ => Ok(None),
        }
    }

    /// Field `key` as an attribute: AttributeError when absent.
    fn attribute<'py>(&self, py: Python<'py>, key: &str) -> PyResult<Bound<'py, PyAny>> {
        self.field(py, key)?.ok_or_else(|| {
            PyAttributeError::new_err(format!(
                "a {} record has no field {key:?}",
                self.kind.name()
            ))
        })
    }
}

#[pymethods]
impl TeehistorianRecord {
    /// The record's kind: `"PLAYER_DIFF"`, `"INPUT_NEW"`, `"EX"`, …
    #[getter]
    fn kind<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        kind_name(py, self.kind)
    }

    /// The tick the record belongs to.
    #[getter]
    const fn tick(&self) -> i32 {
        self.tick
    }

    /// The record's byte offset in the file.
    #[getter]
    const fn offset(&self) -> usize {
        self.offset
    }

    /// The name of the client the record is about, None when unknown.
    #[getter]
    fn player(&self, py: Python<'_>) -> Option<Py<PyString>> {
        self.player.as_ref().map(|p| p.clone_ref(py))
    }

    // The fields of the kinds, raising AttributeError on a record whose
    // kind lacks one.
    /// Client id (records about a client).
    #[getter]
    fn cid<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.attribute(py, "cid")
    }

    /// PLAYER_DIFF: moved by x.
    #[getter]
    fn dx<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.attribute(py, "dx")
    }

    /// PLAYER_DIFF: moved by y.
    #[getter]
    fn dy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.attribute(py, "dy")
    }

    /// PLAYER_NEW: absolute x.
    #[getter]
    fn x<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.attribute(py, "x")
    }

    /// PLAYER_NEW: absolute y.
    #[getter]
    fn y<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.attribute(py, "y")
    }

    /// TICK_SKIP: ticks skipped.
    #[getter]
    fn dt<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.attribute(py, "dt")
    }

    /// INPUT_NEW: the input, ten ints.
    #[getter]
    fn input<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.attribute(py, "input")
    }

    /// INPUT_DIFF: the difference to the last input, ten ints.
    #[getter]
    fn diff<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.attribute(py, "diff")
    }

    /// MESSAGE: the network message's bytes.
    #[getter]
    fn data<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.attribute(py, "data")
    }

    /// MESSAGE: the network message's name (`ClSay`, …), None when it does not decode.
    #[getter]
    fn message<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.attribute(py, "message")
    }

    /// MESSAGE: the network message's text, when it has one.
    #[getter]
    fn text<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.attribute(py, "text")
    }

    /// DROP: the reason.
    #[getter]
    fn reason<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.attribute(py, "reason")
    }

    /// CONSOLE_COMMAND: the command's flags.
    #[getter]
    fn flags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.attribute(py, "flags")
    }

    /// CONSOLE_COMMAND: `chat command`, `rcon command` or `server command`.
    #[getter]
    fn source<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.attribute(py, "source")
    }

    /// CONSOLE_COMMAND: the command.
    #[getter]
    fn cmd<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.attribute(py, "cmd")
    }

    /// CONSOLE_COMMAND: its arguments.
    #[getter]
    fn args<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.attribute(py, "args")
    }

    /// EX: the extension's UUID.
    #[getter]
    fn uuid<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.attribute(py, "uuid")
    }

    /// EX: the extension's name, None when unknown.
    #[getter]
    fn name<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.attribute(py, "name")
    }

    /// EX: the extension's payload, a dict: `kind` (`player_name`, …) and its fields.
    #[getter]
    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.attribute(py, "fields")
    }

    /// EX: why the extension's payload does not decode: `{kind, offset, message}`.
    #[getter]
    fn error<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.attribute(py, "error")
    }

    fn __getitem__<'py>(&self, py: Python<'py>, key: &str) -> PyResult<Bound<'py, PyAny>> {
        self.field(py, key)?
            .ok_or_else(|| PyKeyError::new_err(key.to_owned()))
    }

    /// Field `key`, or `default` when the record has none.
    #[pyo3(signature = (key, default = None))]
    fn get<'py>(
        &self,
        py: Python<'py>,
        key: &str,
        default: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        Ok(self.field(py, key)?.or(default))
    }

    fn __contains__(&self, py: Python<'_>, key: &str) -> PyResult<bool> {
        Ok(self.field(py, key)?.is_some())
    }

    fn __len__(&self, py: Python<'_>) -> usize {
        self.keys(py).len()
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        PyList::new(py, self.keys(py))?
            .try_iter()
            .map(Bound::into_any)
    }

    /// The record's keys: `kind`, `tick`, `offset`, the kind's fields,
    /// then `player` when known.
    fn keys<'py>(&self, py: Python<'py>) -> Vec<Bound<'py, PyAny>> {
        let mut keys = vec![
            intern!(py, "kind").clone().into_any(),
            intern!(py, "tick").clone().into_any(),
            intern!(py, "offset").clone().into_any(),
        ];
        keys.extend(self.body_keys(py));
        if self.player.is_some() {
            keys.push(intern!(py, "player").clone().into_any());
        }
        keys
    }

    /// The values, in the order of `keys()`.
    fn values<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        Ok(self.items(py)?.into_iter().map(|(_, v)| v).collect())
    }

    /// `(key, value)` pairs, in the order of `keys()`.
    fn items<'py>(&self, py: Python<'py>) -> PyResult<Vec<(Bound<'py, PyAny>, Bound<'py, PyAny>)>> {
        let mut items = Vec::new();
        for key in self.keys(py) {
            let name = key.downcast::<PyString>()?.to_cow()?.into_owned();
            if let Some(value) = self.field(py, &name)? {
                items.push((key, value));
            }
        }
        Ok(items)
    }

    /// The record as a dict (what iteration gave in earlier versions).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (key, value) in self.items(py)? {
            d.set_item(key, value)?;
        }
        Ok(d)
    }

    fn __eq__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> PyResult<PyObject> {
        let mine = self.to_dict(py)?;
        if let Ok(record) = other.downcast::<Self>() {
            return mine.eq(record.get().to_dict(py)?)?.into_py_any(py);
        }
        if other.is_instance_of::<PyDict>() {
            return mine.eq(other)?.into_py_any(py);
        }
        Ok(py.NotImplemented())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("TeehistorianRecord({})", self.to_dict(py)?.repr()?))
    }
}
