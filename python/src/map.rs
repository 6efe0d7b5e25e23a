//! Teeworlds/DDNet maps (datafiles): `Map`, with its items, layers and
//! tiles as numpy arrays (the crate's `DatafileView` and `MapView`).

use gamefmt::datafile::DatafileView;
use gamefmt::map::{Layer, MapView, TileKind};
use gamefmt::{ErrorKind, Format};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

use crate::arrow::File;
use crate::dict::dict;
use crate::error;
use crate::source::Input;

/// A Teeworlds/DDNet map, or any datafile.
///
/// A datafile is not a stream: it is read whole into memory once and
/// validated (`gamefmt.DecodeError` if damaged). Iterating gives the
/// datafile items (`type_id`, `id`, `data`); `layers` describes the
/// layers, `tiles(i)` returns layer `i`'s tiles as a numpy array.
#[pyclass(module = "gamefmt", extends = File)]
pub struct Map {
    bytes: Py<PyBytes>,
}

impl Map {
    /// Reads the whole datafile and validates it.
    pub fn new(py: Python<'_>, mut input: Input) -> PyResult<PyClassInitializer<Self>> {
        let bytes = input.read_all(py)?;
        DatafileView::parse(bytes.as_bytes(py)).map_err(error::decode)?;
        Ok(PyClassInitializer::from(File::new(input, Format::Datafile))
            .add_subclass(Self { bytes }))
    }
}

/// The datafile, already validated once.
fn datafile<'a>(py: Python<'_>, bytes: &'a Py<PyBytes>) -> PyResult<DatafileView<'a>> {
    let b: &'a [u8] = bytes.as_bytes(py);
    DatafileView::parse(b).map_err(error::decode)
}

/// A string data item as text, if present and valid.
fn string(map: &MapView<'_>, index: i32) -> Option<String> {
    let size = usize::try_from(index)
        .ok()
        .and_then(|i| map.datafile().data_size(i))?;
    let mut buf = vec![0u8; size];
    map.string(index, &mut buf)
        .ok()
        .flatten()
        .map(str::to_owned)
}

/// The numpy dtype of a tile kind's tiles (the crate's wire structs).
fn dtype<'py>(py: Python<'py>, kind: TileKind) -> PyResult<Bound<'py, PyAny>> {
    let fields: &[(&str, &str)] = match kind {
        TileKind::Game | TileKind::Tiles | TileKind::Front => &[
            ("index", "u1"),
            ("flags", "u1"),
            ("skip", "u1"),
            ("reserved", "u1"),
        ],
        TileKind::Tele => &[("number", "u1"), ("type", "u1")],
        TileKind::Speedup => &[
            ("force", "u1"),
            ("max_speed", "u1"),
            ("type", "u1"),
            ("reserved", "u1"),
            ("angle", "<i2"),
        ],
        TileKind::Switch => &[
            ("number", "u1"),
            ("type", "u1"),
            ("flags", "u1"),
            ("delay", "u1"),
        ],
        TileKind::Tune => &[("number", "u1"), ("type", "u1")],
    };
    let np = py.import("numpy")?;
    np.call_method1("dtype", (fields.to_vec(),))
}

#[pymethods]
impl Map {
    /// `"map"`.
    #[getter]
    fn format(&self) -> &'static str {
        "map"
    }

    /// The datafile's header facts: `version` (3 or 4), `item_types`,
    /// `items`, `data`, `size`.
    #[getter]
    fn header(&self, py: Python<'_>) -> PyResult<Py<PyDict>> {
        let df = datafile(py, &self.bytes)?;
        Ok(dict!(py, {
            "version" => df.version(),
            "item_types" => df.item_type_count(),
            "items" => df.item_count(),
            "data" => df.data_count(),
            "size" => df.as_bytes().len(),
        })?
        .unbind())
    }

    /// The map's info item: `author`, `map_version`, `credits`,
    /// `license`, `settings` (None when absent), plus the map `version`.
    #[getter]
    fn metadata(&self, py: Python<'_>) -> PyResult<Py<PyDict>> {
        let map = MapView::new(datafile(py, &self.bytes)?).map_err(error::decode)?;
        let d = dict!(py, {"version" => map.version()})?;
        if let Some(info) = map.info() {
            let settings = info
                .settings_index()
                .map(|_| info.settings_owned().unwrap_or_default());
            d.set_item(
                pyo3::intern!(py, "author"),
                string(&map, info.author_index()),
            )?;
            d.set_item(
                pyo3::intern!(py, "map_version"),
                string(&map, info.map_version_index()),
            )?;
            d.set_item(
                pyo3::intern!(py, "credits"),
                string(&map, info.credits_index()),
            )?;
            d.set_item(
                pyo3::intern!(py, "license"),
                string(&map, info.license_index()),
            )?;
            d.set_item(pyo3::intern!(py, "settings"), settings)?;
        }
        Ok(d.unbind())
    }

    /// The groups in file order, each a dict: `index`, `name`, `offset`
    /// (x, y), `parallax` (x, y, percent), `clip` (x, y, width, height, or
    /// None), `start_layer` and `layer_count` (a group may have no
    /// layers). Empty for a 2007-era map (legacy layout).
    #[getter]
    fn groups(&self, py: Python<'_>) -> PyResult<Py<PyList>> {
        let list = PyList::empty(py);
        let map = match MapView::new(datafile(py, &self.bytes)?) {
            Ok(map) => map,
            Err(e) if e.kind == ErrorKind::LegacyLayout => return Ok(list.unbind()),
            Err(e) => return Err(error::decode(e)),
        };
        for (index, group) in map.groups().enumerate() {
            let clip = group.clipping().map(|c| (c.x, c.y, c.w, c.h));
            list.append(dict!(py, {
                "index" => index,
                "name" => group.name().map(|n| n.decode().to_string()),
                "offset" => group.offset(),
                "parallax" => group.parallax(),
                "clip" => clip,
                "start_layer" => group.start_layer(),
                "layer_count" => group.layer_count(),
            })?)?;
        }
        Ok(list.unbind())
    }

    /// The layers in file order, each a dict: `index`, `group`, `kind`
    /// (`tiles`, `quads`, `sounds`, …), `name`, `detail`; tile layers add
    /// `tile_kind` (`game`, `tiles`, `tele`, `speedup`, `front`, `switch`,
    /// `tune`), `width`, `height`, `image`, `color`; quad layers `quads`.
    /// Empty for a 2007-era map (legacy layout).
    #[getter]
    fn layers(&self, py: Python<'_>) -> PyResult<Py<PyList>> {
        let list = PyList::empty(py);
        let map = match MapView::new(datafile(py, &self.bytes)?) {
            Ok(map) => map,
            Err(e) if e.kind == ErrorKind::LegacyLayout => return Ok(list.unbind()),
            Err(e) => return Err(error::decode(e)),
        };
        let mut group_of = vec![None; map.layer_count()];
        for (g, group) in map.groups().enumerate() {
            for l in 0..group.layer_count() {
                if let Some(slot) = group_of.get_mut(group.start_layer().saturating_add(l)) {
                    slot.get_or_insert(g);
                }
            }
        }
        for (index, layer) in map.layers().enumerate() {
            let d = dict!(py, {
                "index" => index,
                "group" => group_of.get(index).copied().flatten(),
                "kind" => layer.kind().name(),
                "name" => layer.name().map(|n| n.decode().to_string()),
                "detail" => layer.is_detail(),
            })?;
            match layer {
                Layer::Tiles(t) => {
                    d.set_item(pyo3::intern!(py, "tile_kind"), t.kind().name())?;
                    d.set_item(pyo3::intern!(py, "width"), t.width())?;
                    d.set_item(pyo3::intern!(py, "height"), t.height())?;
                    d.set_item(pyo3::intern!(py, "image"), t.image())?;
                    d.set_item(pyo3::intern!(py, "color"), t.color().to_vec())?;
                }
                Layer::Quads(q) => d.set_item(pyo3::intern!(py, "quads"), q.quad_count())?,
                Layer::Sounds(s) => d.set_item(pyo3::intern!(py, "sources"), s.source_count())?,
                Layer::Unknown(_) => d.set_item(pyo3::intern!(py, "type"), layer.layer_type())?,
            }
            list.append(d)?;
        }
        Ok(list.unbind())
    }

    /// Layer `layer`'s tiles as a numpy structured array of shape
    /// (height, width); fields by tile kind: `index`, `flags`, `skip`,
    /// `reserved` (game, design, front); `number`, `type` (tele, tune);
    /// `force`, `max_speed`, `type`, `angle` (speedup); `number`, `type`,
    /// `flags`, `delay` (switch). Needs numpy.
    fn tiles(&self, py: Python<'_>, layer: usize) -> PyResult<PyObject> {
        let map = MapView::new(datafile(py, &self.bytes)?).map_err(error::decode)?;
        let Some(t) = map.layer(layer).and_then(|l| l.as_tiles()) else {
            return Err(error::usage(format!("layer {layer} is not a tile layer")));
        };
        let tiles = t.data_to_vec().map_err(error::decode)?;
        let bytes = PyBytes::new(py, tiles.as_bytes());
        let np = py.import("numpy")?;
        let arr = np.call_method1("frombuffer", (bytes, dtype(py, t.kind())?))?;
        Ok(arr
            .call_method1("reshape", ((t.height(), t.width()),))?
            .unbind())
    }

    /// The datafile items, each `{"type_id", "id", "data": [ints]}`.
    fn items(&self, py: Python<'_>) -> PyResult<Py<PyList>> {
        let df = datafile(py, &self.bytes)?;
        let list = PyList::empty(py);
        for item in df.items() {
            let data: Vec<i32> = item.data().iter().map(|v| v.get()).collect();
            list.append(
                dict!(py, {"type_id" => item.type_id(), "id" => item.id(), "data" => data})?,
            )?;
        }
        Ok(list.unbind())
    }

    fn __iter__(&self, py: Python<'_>) -> PyResult<PyObject> {
        Ok(self.items(py)?.bind(py).try_iter()?.into_any().unbind())
    }

    /// The raw bytes of the datafile.
    fn to_bytes(&self, py: Python<'_>) -> Py<PyBytes> {
        self.bytes.clone_ref(py)
    }

    fn __repr__(&self) -> String {
        "<gamefmt.Map>".to_owned()
    }
}
