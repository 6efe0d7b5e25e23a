//! DDNet teehistorian recordings: `Teehistorian`, its records as
//! `TeehistorianRecord` objects, read through the crate's streaming
//! `teehistorian::Reader`.

use gamefmt::Format;
use gamefmt::stream::End;
use gamefmt::teehistorian::{ClientProtocols, Item, MAX_CLIENTS, Message, PlayerNames, Reader};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::arrow::File;
use crate::error;
use crate::record::{Body, TeehistorianRecord};
use crate::source::{Input, Stream};
use crate::stream_end;

/// A DDNet teehistorian server recording.
///
/// `header` is the JSON header as a dict; iterating gives the records as
/// `TeehistorianRecord` objects (`kind`, `tick`, `offset`, the kind's
/// fields, and `player`, the name of the client the record is about when
/// known; a MESSAGE record's network message has its bytes in `data`, its
/// name in `message`, `ClSay`, … or None when it does not decode, and its
/// text, when it has one, in `text`), which also read as the dicts of
/// earlier versions did (`r["kind"]`, `r.get("player")`, `to_dict()`).
/// Each pass streams the source again in constant memory.
#[pyclass(module = "gamefmt", extends = File)]
pub struct Teehistorian {
    header: Option<PyObject>,
    end: Option<End>,
}

impl Teehistorian {
    /// A recording over `input`.
    pub fn new(input: Input) -> PyClassInitializer<Self> {
        PyClassInitializer::from(File::new(input, Format::Teehistorian)).add_subclass(Self {
            header: None,
            end: None,
        })
    }
}

/// Reads the header (whole or in pieces) and returns its JSON text.
fn read_header(reader: &mut Reader<Stream>) -> PyResult<String> {
    let mut pieces = Vec::new();
    loop {
        match reader.next() {
            Some(Ok(Item::Header(h))) => return Ok(h.json().to_owned()),
            Some(Ok(Item::HeaderPiece { json, last })) => {
                pieces.extend_from_slice(json);
                if last {
                    return Ok(String::from_utf8_lossy(&pieces).into_owned());
                }
            }
            Some(Ok(Item::Message(r))) => {
                return Err(error::decode(gamefmt::Error::corrupt(
                    "message before the header",
                    r.offset,
                )));
            }
            Some(Err(e)) => return Err(error::read(e)),
            None => return Err(error::decode(gamefmt::Error::truncated(reader.offset()))),
        }
    }
}

/// The header's JSON as a dict (through Python's `json`).
fn header_dict(py: Python<'_>, text: &str) -> PyResult<PyObject> {
    let json = py.import("json")?;
    json.call_method1("loads", (text,))
        .map(Bound::unbind)
        .map_err(|e| {
            let err = error::decode(gamefmt::Error::corrupt("header is not JSON", 16));
            err.set_cause(py, Some(e));
            err
        })
}

fn text<'py>(py: Python<'py>, bytes: &[u8]) -> Bound<'py, PyString> {
    PyString::new(py, &String::from_utf8_lossy(bytes))
}

/// A message's fields as the core serializes them (the one vocabulary,
/// `gamefmt::vocabulary`), without its `kind` (the record has it).
fn fields<'py>(py: Python<'py>, message: &Message<'_>) -> PyResult<Bound<'py, PyDict>> {
    let d = pythonize::pythonize(py, message)?.downcast_into::<PyDict>()?;
    d.del_item(intern!(py, "kind"))?;
    Ok(d)
}

/// The fields of a record of the rarer kinds (MESSAGE, DROP,
/// CONSOLE_COMMAND, EX) as a dict, in order (`protocol`, the client's,
/// decodes a MESSAGE record's network message); the common kinds' fields
/// are kept inline.
fn body(py: Python<'_>, message: &Message<'_>, protocol: gamefmt::Protocol) -> PyResult<Body> {
    let d = match *message {
        Message::PlayerDiff { cid, dx, dy } => return Ok(Body::Move { cid, dx, dy }),
        Message::InputDiff { cid, diff } => {
            return Ok(Body::Input {
                cid,
                new: false,
                ints: diff.get(),
            });
        }
        Message::InputNew { cid, input } => {
            return Ok(Body::Input {
                cid,
                new: true,
                ints: input.get(),
            });
        }
        Message::PlayerNew { cid, x, y } => return Ok(Body::New { cid, x, y }),
        Message::PlayerOld { cid } | Message::Join { cid } => return Ok(Body::Client { cid }),
        Message::TickSkip { dt } => return Ok(Body::TickSkip { dt }),
        Message::Finish => return Ok(Body::Empty),
        Message::PlayerMessage { data, .. } => {
            let d = fields(py, message)?;
            let (name, text) = gamefmt_arrow::netmsg::describe(protocol, data);
            d.set_item(intern!(py, "message"), name)?;
            if let Some(text) = text {
                d.set_item(intern!(py, "text"), text)?;
            }
            d
        }
        Message::Drop { .. } | Message::ConsoleCommand { .. } | Message::Ex(_) => {
            fields(py, message)?
        }
    };
    Ok(Body::Dict(d.unbind()))
}

#[pymethods]
impl Teehistorian {
    /// `"teehistorian"`.
    #[getter]
    fn format(&self) -> &'static str {
        "teehistorian"
    }

    /// The JSON header as a dict (`version`, `game_uuid`, `map_name`,
    /// `server_version`, `start_time`, `config`, `tuning`, …).
    #[getter]
    fn header(mut slf: PyRefMut<'_, Self>) -> PyResult<PyObject> {
        let py = slf.py();
        if let Some(h) = &slf.header {
            return Ok(h.clone_ref(py));
        }
        let mut reader = Reader::new(slf.as_super().input.stream(py)?);
        let h = header_dict(py, &read_header(&mut reader)?)?;
        slf.header = Some(h.clone_ref(py));
        Ok(h)
    }

    /// The header too: a recording has no other metadata.
    #[getter]
    fn metadata(slf: PyRefMut<'_, Self>) -> PyResult<PyObject> {
        Self::header(slf)
    }

    /// How the last complete pass ended: `"complete"` (the FINISH
    /// record), `"eof"`, `"truncated"`, or None before a pass ended.
    #[getter]
    fn end(&self) -> Option<&'static str> {
        self.end.map(stream_end)
    }

    /// The records (a new pass), as `TeehistorianRecord` objects: an
    /// iterator (`itertools.chain`) over the `Records` chunks.
    fn records<'py>(slf: Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let stream = slf.borrow_mut().as_super().input.stream(py)?;
        let mut reader = Reader::with_capacity(stream, gamefmt_arrow::READ_BUFFER);
        let h = header_dict(py, &read_header(&mut reader)?)?;
        slf.borrow_mut().header.get_or_insert(h);
        let chunks = Records {
            owner: slf.unbind(),
            reader: Some(reader),
            failed: None,
            strings: Strings {
                names: Box::new(PlayerNames::new()),
                protocols: Box::default(),
                name_strings: Vec::new(),
            },
        };
        py.import(intern!(py, "itertools"))?
            .getattr(intern!(py, "chain"))?
            .call_method1(intern!(py, "from_iterable"), (chunks,))
    }

    fn __iter__<'py>(slf: Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        Self::records(slf)
    }

    fn __repr__(&self) -> String {
        "<gamefmt.Teehistorian>".to_owned()
    }
}

/// The records of a pass in chunks: lists of up to [`CHUNK`]
/// `TeehistorianRecord` objects, decoded one chunk per call, which
/// `records()` chains into one iterator (so that the per-record step is
/// CPython's own, not a call into the extension). A failure is raised
/// after the records decoded before it.
#[pyclass(module = "gamefmt")]
pub struct Records {
    owner: Py<Teehistorian>,
    reader: Option<Reader<Stream>>,
    /// An error met while filling a chunk, raised by the next call.
    failed: Option<PyErr>,
    strings: Strings,
}

/// Records per chunk.
const CHUNK: usize = 256;

/// Player names and protocols tracked over the records, and the names as
/// Python strings (made once per name, not per record).
struct Strings {
    names: Box<PlayerNames<MAX_CLIENTS>>,
    /// Each client's network protocol, to decode its messages.
    protocols: Box<ClientProtocols<MAX_CLIENTS>>,
    /// Each client's name as a Python string, by client id (records of
    /// one client share it); emptied by every record that may change a
    /// name (any but a player's, an input or a tick skip).
    name_strings: Vec<Option<Py<PyString>>>,
}

impl Strings {
    /// Follows `message`: names and protocols, and the name strings
    /// made so far dropped when it may change a name.
    fn apply(&mut self, message: &Message<'_>) {
        self.names.apply(message);
        self.protocols.apply(message);
        let keeps_names = matches!(
            message,
            Message::PlayerDiff { .. }
                | Message::PlayerNew { .. }
                | Message::PlayerOld { .. }
                | Message::InputDiff { .. }
                | Message::InputNew { .. }
                | Message::TickSkip { .. }
        );
        if !keeps_names {
            self.name_strings.clear();
        }
    }

    /// Client `cid`'s name as a Python string, made once.
    fn player(&mut self, py: Python<'_>, cid: i32) -> Option<Py<PyString>> {
        let index = usize::try_from(cid).ok()?;
        if let Some(Some(s)) = self.name_strings.get(index) {
            return Some(s.clone_ref(py));
        }
        let s = text(py, self.names.get(cid)?).unbind();
        if self.name_strings.len() <= index {
            self.name_strings
                .resize_with(index.saturating_add(1), || None);
        }
        if let Some(slot) = self.name_strings.get_mut(index) {
            *slot = Some(s.clone_ref(py));
        }
        Some(s)
    }
}

impl Records {
    /// The next record, `None` at the end (the pass's end recorded).
    fn record<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, TeehistorianRecord>>> {
        let Some(reader) = self.reader.as_mut() else {
            return Ok(None);
        };
        match reader.next() {
            Some(Ok(Item::Message(ref r))) => {
                let strings = &mut self.strings;
                strings.apply(&r.message);
                let cid = r.message.client_id();
                let player = cid.and_then(|cid| strings.player(py, cid));
                let protocol = cid.map_or(gamefmt::Protocol::V06, |c| strings.protocols.get(c));
                let body = body(py, &r.message, protocol)?;
                let kind = r.message.kind();
                let record = TeehistorianRecord::new(kind, r.tick, r.offset, player, body);
                Bound::new(py, record).map(Some)
            }
            Some(Ok(_)) => {
                let at = reader.offset();
                self.reader = None;
                Err(error::decode(gamefmt::Error::corrupt("second header", at)))
            }
            Some(Err(e)) => {
                self.reader = None;
                Err(error::read(e))
            }
            None => {
                self.owner.borrow_mut(py).end = Some(reader.end());
                self.reader = None;
                Ok(None)
            }
        }
    }
}

#[pymethods]
impl Records {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next chunk: a list of up to 256 records, None at the end.
    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyList>>> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        // Gathered first, so that the list is made once at its size.
        let mut chunk = Vec::with_capacity(CHUNK);
        while chunk.len() < CHUNK {
            match self.record(py) {
                Ok(Some(record)) => chunk.push(record),
                Ok(None) => break,
                Err(e) if chunk.is_empty() => return Err(e),
                Err(e) => {
                    self.failed = Some(e);
                    break;
                }
            }
        }
        if chunk.is_empty() {
            return Ok(None);
        }
        PyList::new(py, chunk).map(Some)
    }
}
