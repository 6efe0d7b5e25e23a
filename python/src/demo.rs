//! Teeworlds/DDNet demos: `Demo`, its chunks as dicts with the snapshot
//! in effect rebuilt as they go (the crate's `demo::Reader` and
//! `demo::Reconstructor`).

use gamefmt::Format;
use gamefmt::demo::{
    Chunk, ChunkKind, DemoHeader, Item, OwnedBuffers, Reader, Reconstructor, message_id,
};
use gamefmt::stream::End;
use gamefmt::zerocopy::IntoBytes;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

use crate::arrow::File;
use crate::dict::dict;
use crate::error;
use crate::source::{Input, Stream};
use crate::stream_end;

/// A Teeworlds/DDNet demo.
///
/// `header` gives the demo header; iterating gives the chunks as dicts
/// (`kind`: `tick`, `snapshot`, `delta`, `message` or `unknown`); each
/// snapshot or delta chunk carries the rebuilt snapshot's item count and
/// CRC, and with `chunks(snapshots=True)` its items. Each pass streams the
/// source again in constant memory.
#[pyclass(module = "gamefmt", extends = File)]
pub struct Demo {
    header: Option<Py<PyDict>>,
    end: Option<End>,
}

impl Demo {
    /// A demo over `input`.
    pub fn new(input: Input) -> PyClassInitializer<Self> {
        PyClassInitializer::from(File::new(input, Format::Demo)).add_subclass(Self {
            header: None,
            end: None,
        })
    }
}

fn header<'py>(py: Python<'py>, h: &DemoHeader) -> PyResult<Bound<'py, PyDict>> {
    dict!(py, {
        "version" => h.version(),
        "net_version" => h.net_version(),
        "map_name" => h.map_name(),
        "map_size" => h.map_size(),
        "map_crc" => h.map_crc(),
        "map_sha256" => h.map_sha256().map(|s| PyBytes::new(py, s)),
        "type" => h.kind(),
        "length_seconds" => h.length_seconds(),
        "timestamp" => h.timestamp(),
        "markers" => h.markers().to_vec(),
    })
}

#[pymethods]
impl Demo {
    /// `"demo"`.
    #[getter]
    fn format(&self) -> &'static str {
        "demo"
    }

    /// The demo header as a dict: `version`, `net_version`, `map_name`,
    /// `map_size`, `map_crc`, `map_sha256`, `type`, `length_seconds`,
    /// `timestamp`, `markers`.
    #[getter]
    fn header(mut slf: PyRefMut<'_, Self>) -> PyResult<Py<PyDict>> {
        let py = slf.py();
        if let Some(h) = &slf.header {
            return Ok(h.clone_ref(py));
        }
        let (_, facts) = open(slf.as_super().input.stream(py)?)?;
        let h = header(py, &facts)?.unbind();
        slf.header = Some(h.clone_ref(py));
        Ok(h)
    }

    /// The header too: a demo has no other metadata.
    #[getter]
    fn metadata(slf: PyRefMut<'_, Self>) -> PyResult<Py<PyDict>> {
        Self::header(slf)
    }

    /// How the last complete pass ended: `"complete"`, `"truncated"`, or
    /// None before a pass ended.
    #[getter]
    fn end(&self) -> Option<&'static str> {
        self.end.map(stream_end)
    }

    /// The chunks as dicts (a new pass); with `snapshots`, snapshot and
    /// delta chunks carry the rebuilt snapshot's `items` as
    /// `(type_id, id, [ints])` tuples.
    #[pyo3(signature = (snapshots = false))]
    fn chunks(slf: Bound<'_, Self>, snapshots: bool) -> PyResult<Py<Chunks>> {
        let py = slf.py();
        let stream = slf.borrow_mut().as_super().input.stream(py)?;
        let (reader, facts) = open(stream)?;
        let h = header(py, &facts)?.unbind();
        slf.borrow_mut().header.get_or_insert(h);
        let rec = Reconstructor::owned(facts.item_sizes());
        Py::new(
            py,
            Chunks {
                owner: slf.unbind(),
                reader: Some(reader),
                rec,
                tick: None,
                snapshots,
            },
        )
    }

    fn __iter__(slf: Bound<'_, Self>) -> PyResult<Py<Chunks>> {
        Self::chunks(slf, false)
    }

    fn __repr__(&self) -> String {
        "<gamefmt.Demo>".to_owned()
    }
}

/// A reader of `stream` past its first record, the header, and the
/// header's facts; a file that ends before it is cut (an error here:
/// nothing can be read).
fn open(stream: Stream) -> PyResult<(Reader<Stream>, DemoHeader)> {
    let mut reader = Reader::new(stream);
    if let Some(item) = reader.next() {
        item.map_err(error::read)?;
    }
    let header = match (reader.header(), reader.end()) {
        (Some(header), _) => header.clone(),
        (None, End::Damaged(e)) => return Err(error::decode(e)),
        (None, _) => return Err(error::decode(gamefmt::Error::truncated(reader.offset()))),
    };
    Ok((reader, header))
}

/// An iterator over a demo's chunks (dicts).
#[pyclass(module = "gamefmt")]
pub struct Chunks {
    owner: Py<Demo>,
    reader: Option<Reader<Stream>>,
    /// The snapshot reconstructor, owning its buffers.
    rec: Reconstructor<'static, OwnedBuffers>,
    tick: Option<i32>,
    snapshots: bool,
}

impl Chunks {
    /// The dict of a data chunk at `at`, rebuilding the snapshot.
    fn data<'py>(
        &mut self,
        py: Python<'py>,
        at: usize,
        chunk: &Chunk<'_>,
        kind: ChunkKind,
        payload: &[u8],
    ) -> PyResult<Bound<'py, PyDict>> {
        let in_chunk = |e: gamefmt::Error| error::decode(gamefmt::Error::new(e.kind, at));
        let d = dict!(py, {
            "kind" => kind.name(), "tick" => self.tick, "offset" => at, "size" => payload.len(),
        })?;
        let rec = &mut self.rec;
        match kind {
            ChunkKind::Message => {
                let ints = rec.decode(payload).map_err(in_chunk)?;
                let bytes = ints.as_bytes();
                if let Some((id, system)) = message_id(bytes) {
                    d.set_item(pyo3::intern!(py, "message_id"), id)?;
                    d.set_item(pyo3::intern!(py, "system"), system)?;
                }
                d.set_item(pyo3::intern!(py, "data"), PyBytes::new(py, bytes))?;
            }
            ChunkKind::Unknown => {
                rec.decode(payload).map_err(in_chunk)?;
            }
            ChunkKind::Snapshot | ChunkKind::Delta => {
                rec.feed(chunk).map_err(in_chunk)?;
                if let Some(snap) = rec.snapshot() {
                    d.set_item(pyo3::intern!(py, "item_count"), snap.item_count())?;
                    d.set_item(pyo3::intern!(py, "crc"), snap.checksum())?;
                    if self.snapshots {
                        let items = PyList::empty(py);
                        for item in snap.items() {
                            let ints: Vec<i32> = item.data().iter().map(|v| v.get()).collect();
                            items.append((item.type_id(), item.id(), ints))?;
                        }
                        d.set_item(pyo3::intern!(py, "items"), items)?;
                    }
                }
            }
        }
        Ok(d)
    }
}

#[pymethods]
impl Chunks {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyDict>>> {
        let Some(mut reader) = self.reader.take() else {
            return Ok(None);
        };
        let out = loop {
            let at = reader.offset();
            break match reader.next() {
                Some(Ok(Item::Chunk(Chunk::Tick { tick, keyframe }))) => {
                    self.tick = Some(tick);
                    dict!(py, {"kind" => "tick", "tick" => tick, "keyframe" => keyframe, "offset" => at})
                        .map(|d| Some(d.unbind()))
                }
                Some(Ok(Item::Chunk(chunk @ Chunk::Data { kind, payload }))) => self
                    .data(py, at, &chunk, kind, payload)
                    .map(|d| Some(d.unbind())),
                // The embedded map's pieces are not read.
                Some(Ok(Item::Header { .. } | Item::MapPiece { .. })) => continue,
                Some(Err(e)) => Err(error::read(e)),
                None => {
                    self.owner.borrow_mut(py).end = Some(reader.end());
                    return Ok(None);
                }
            };
        };
        if out.is_ok() {
            self.reader = Some(reader);
        }
        out
    }
}
