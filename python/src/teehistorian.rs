//! DDNet teehistorian recordings: `Teehistorian`, its records as dicts,
//! read through the crate's streaming `teehistorian::Reader`.

use gamefmt::stream::End;
use gamefmt::teehistorian::{
    ClientProtocols, CommandSource, ExMessage, Item, MAX_CLIENTS, Message, PlayerNames, Reader,
    Record,
};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};

use crate::dict::dict;
use crate::error;
use crate::source::{Input, Stream};
use crate::stream_end;

/// A DDNet teehistorian server recording.
///
/// `header` is the JSON header as a dict; iterating gives the records as
/// dicts (`kind`, `tick`, `offset`, fields, and `player`, the name of the
/// client the record is about when known; a MESSAGE record's network
/// message has its bytes in `data`, its name in `message`, `ClSay`, … or
/// None when it does not decode, and its text, when it has one, in
/// `text`). Each pass streams the source
/// again in constant memory.
#[pyclass(module = "gamefmt")]
pub struct Teehistorian {
    input: Input,
    header: Option<PyObject>,
    end: Option<End>,
}

impl Teehistorian {
    /// A recording over `input`.
    pub fn new(input: Input) -> Self {
        Self {
            input,
            header: None,
            end: None,
        }
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

/// The typed fields of an EX record.
fn ex_fields<'py>(py: Python<'py>, ex: &ExMessage<'_>) -> PyResult<Bound<'py, PyDict>> {
    match *ex {
        ExMessage::DdnetVersionOld { cid, version } => {
            dict!(py, {"cid" => cid, "version" => version})
        }
        ExMessage::DdnetVersion {
            cid,
            connection_id,
            version,
            version_str,
        } => dict!(py, {
            "cid" => cid, "connection_id" => connection_id.to_string(),
            "version" => version, "version_str" => text(py, version_str),
        }),
        ExMessage::AuthInit {
            cid,
            level,
            auth_name,
        }
        | ExMessage::AuthLogin {
            cid,
            level,
            auth_name,
        } => {
            dict!(py, {"cid" => cid, "level" => level, "auth_name" => text(py, auth_name)})
        }
        ExMessage::AuthLogout { cid }
        | ExMessage::JoinVer6 { cid }
        | ExMessage::JoinVer7 { cid }
        | ExMessage::PlayerReady { cid }
        | ExMessage::PlayerRejoin { cid } => dict!(py, {"cid" => cid}),
        ExMessage::PlayerSwitch { cid1, cid2 } => dict!(py, {"cid1" => cid1, "cid2" => cid2}),
        ExMessage::SaveSuccess {
            team,
            save_id,
            save,
        }
        | ExMessage::LoadSuccess {
            team,
            save_id,
            save,
        } => dict!(py, {
            "team" => team, "save_id" => save_id.to_string(), "save" => text(py, save),
        }),
        ExMessage::SaveFailure { team } | ExMessage::LoadFailure { team } => {
            dict!(py, {"team" => team})
        }
        ExMessage::PlayerTeam { cid, team } => dict!(py, {"cid" => cid, "team" => team}),
        ExMessage::TeamPractice { team, practice } => {
            dict!(py, {"team" => team, "practice" => practice})
        }
        ExMessage::PlayerName { cid, name } => dict!(py, {"cid" => cid, "name" => text(py, name)}),
        ExMessage::PlayerFinish { cid, time } => dict!(py, {"cid" => cid, "time" => time}),
        ExMessage::TeamFinish { team, time } => dict!(py, {"team" => team, "time" => time}),
        ExMessage::Antibot { data } | ExMessage::Unknown { data, .. } => {
            dict!(py, {"data" => PyBytes::new(py, data)})
        }
        _ => Ok(PyDict::new(py)),
    }
}

/// One record as a dict (`kind` and `player` given as Python strings;
/// `protocol`, the client's, decodes a MESSAGE record's network message).
fn record<'py>(
    py: Python<'py>,
    r: &Record<'_>,
    kind: &Bound<'py, PyString>,
    player: Option<Bound<'py, PyString>>,
    protocol: gamefmt::Protocol,
) -> PyResult<Bound<'py, PyDict>> {
    let d = dict!(py, {
        "kind" => kind,
        "tick" => r.tick,
        "offset" => r.offset,
    })?;
    match r.message {
        Message::PlayerDiff { cid, dx, dy } => {
            d.set_item(pyo3::intern!(py, "cid"), cid)?;
            d.set_item(pyo3::intern!(py, "dx"), dx)?;
            d.set_item(pyo3::intern!(py, "dy"), dy)?;
        }
        Message::Finish => {}
        Message::TickSkip { dt } => d.set_item(pyo3::intern!(py, "dt"), dt)?,
        Message::PlayerNew { cid, x, y } => {
            d.set_item(pyo3::intern!(py, "cid"), cid)?;
            d.set_item(pyo3::intern!(py, "x"), x)?;
            d.set_item(pyo3::intern!(py, "y"), y)?;
        }
        Message::PlayerOld { cid } | Message::Join { cid } => {
            d.set_item(pyo3::intern!(py, "cid"), cid)?
        }
        Message::InputDiff { cid, diff } => {
            d.set_item(pyo3::intern!(py, "cid"), cid)?;
            d.set_item(pyo3::intern!(py, "diff"), diff.to_vec())?;
        }
        Message::InputNew { cid, input } => {
            d.set_item(pyo3::intern!(py, "cid"), cid)?;
            d.set_item(pyo3::intern!(py, "input"), input.to_vec())?;
        }
        Message::PlayerMessage { cid, data } => {
            d.set_item(pyo3::intern!(py, "cid"), cid)?;
            d.set_item(pyo3::intern!(py, "data"), PyBytes::new(py, data))?;
            let (message, text) = gamefmt_arrow::netmsg::describe(protocol, data);
            d.set_item(pyo3::intern!(py, "message"), message)?;
            if let Some(text) = text {
                d.set_item(pyo3::intern!(py, "text"), text)?;
            }
        }
        Message::Drop { cid, reason } => {
            d.set_item(pyo3::intern!(py, "cid"), cid)?;
            d.set_item(pyo3::intern!(py, "reason"), text(py, reason))?;
        }
        Message::ConsoleCommand {
            cid,
            flags,
            cmd,
            args,
        } => {
            d.set_item(pyo3::intern!(py, "cid"), cid)?;
            d.set_item(pyo3::intern!(py, "flags"), flags)?;
            d.set_item(
                pyo3::intern!(py, "source"),
                CommandSource::of(cid, flags).name(),
            )?;
            d.set_item(pyo3::intern!(py, "cmd"), text(py, cmd))?;
            let list = PyList::empty(py);
            for a in args.iter() {
                list.append(text(py, a))?;
            }
            d.set_item(pyo3::intern!(py, "args"), list)?;
        }
        Message::Ex(ex) => {
            d.set_item(pyo3::intern!(py, "uuid"), ex.uuid.to_string())?;
            d.set_item(pyo3::intern!(py, "name"), ex.name())?;
            match ex.parse() {
                Ok(typed) => d.set_item(pyo3::intern!(py, "fields"), ex_fields(py, &typed)?)?,
                Err(e) => d.set_item(pyo3::intern!(py, "error"), e.to_string())?,
            }
        }
    }
    if let Some(name) = player {
        d.set_item(pyo3::intern!(py, "player"), name)?;
    }
    Ok(d)
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
    fn header(&mut self, py: Python<'_>) -> PyResult<PyObject> {
        if let Some(h) = &self.header {
            return Ok(h.clone_ref(py));
        }
        let mut reader = Reader::new(self.input.stream(py)?);
        let h = header_dict(py, &read_header(&mut reader)?)?;
        self.header = Some(h.clone_ref(py));
        Ok(h)
    }

    /// The header too: a recording has no other metadata.
    #[getter]
    fn metadata(&mut self, py: Python<'_>) -> PyResult<PyObject> {
        self.header(py)
    }

    /// How the last complete pass ended: `"complete"` (the FINISH
    /// record), `"eof"`, `"truncated"`, or None before a pass ended.
    #[getter]
    fn end(&self) -> Option<&'static str> {
        self.end.map(stream_end)
    }

    /// The records as dicts (a new pass).
    fn records(slf: Bound<'_, Self>) -> PyResult<Py<Records>> {
        let py = slf.py();
        let mut reader = Reader::new(slf.borrow_mut().input.stream(py)?);
        let h = header_dict(py, &read_header(&mut reader)?)?;
        slf.borrow_mut().header.get_or_insert(h);
        Py::new(
            py,
            Records {
                owner: slf.unbind(),
                reader: Some(reader),
                strings: Strings {
                    names: Box::new(PlayerNames::new()),
                    protocols: Box::default(),
                    name_strings: Vec::new(),
                    kind_strings: Vec::new(),
                },
            },
        )
    }

    fn __iter__(slf: Bound<'_, Self>) -> PyResult<Py<Records>> {
        Self::records(slf)
    }

    fn __repr__(&self) -> String {
        "<gamefmt.Teehistorian>".to_owned()
    }
}

/// An iterator over a recording's records (dicts).
#[pyclass(module = "gamefmt")]
pub struct Records {
    owner: Py<Teehistorian>,
    reader: Option<Reader<Stream>>,
    strings: Strings,
}

/// Player names tracked over the records, and the Python strings made
/// for names and kinds (made once, not per record).
struct Strings {
    names: Box<PlayerNames<MAX_CLIENTS>>,
    /// Each client's network protocol, to decode its messages.
    protocols: Box<ClientProtocols<MAX_CLIENTS>>,
    /// Each client's name as last made a Python string, by client id
    /// (records of one client share it until the name changes).
    name_strings: Vec<Option<(Vec<u8>, Py<PyString>)>>,
    /// Record kind names made Python strings once.
    kind_strings: Vec<(&'static str, Py<PyString>)>,
}

impl Strings {
    /// The Python string of a kind name, made once.
    fn kind<'py>(&mut self, py: Python<'py>, name: &'static str) -> Bound<'py, PyString> {
        if let Some((_, s)) = self.kind_strings.iter().find(|(n, _)| *n == name) {
            return s.bind(py).clone();
        }
        let s = PyString::new(py, name);
        self.kind_strings.push((name, s.clone().unbind()));
        s
    }

    /// The Python string of client `cid`'s name, remade only when it
    /// changes.
    fn player<'py>(&mut self, py: Python<'py>, cid: i32) -> Option<Bound<'py, PyString>> {
        let name = self.names.get(cid)?;
        let index = usize::try_from(cid).ok()?;
        if self.name_strings.len() <= index {
            self.name_strings
                .resize_with(index.saturating_add(1), || None);
        }
        let slot = self.name_strings.get_mut(index)?;
        if let Some((bytes, s)) = slot.as_ref()
            && bytes.as_slice() == name
        {
            return Some(s.bind(py).clone());
        }
        let s = text(py, name);
        *slot = Some((name.to_vec(), s.clone().unbind()));
        Some(s)
    }
}

#[pymethods]
impl Records {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyDict>>> {
        let Some(reader) = self.reader.as_mut() else {
            return Ok(None);
        };
        match reader.next() {
            Some(Ok(Item::Message(r))) => {
                let strings = &mut self.strings;
                strings.names.apply(&r.message);
                strings.protocols.apply(&r.message);
                let cid = r.message.client_id();
                let player = cid.and_then(|cid| strings.player(py, cid));
                let protocol = cid.map_or(gamefmt::Protocol::V06, |c| strings.protocols.get(c));
                let kind = strings.kind(py, r.message.kind().name());
                Ok(Some(record(py, &r, &kind, player, protocol)?.unbind()))
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

crate::arrow::arrow_methods!(Teehistorian, gamefmt::Format::Teehistorian);
