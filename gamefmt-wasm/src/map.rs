//! Maps (Teeworlds/DDNet datafiles): `MapFile`, its items in map terms,
//! layers, tiles as typed arrays and embedded images as RGBA.

use gamefmt::datafile::{DatafileView, ITEMTYPE_EX, UUID_AUTOMAPPER_CONFIG, UUID_ENVPOINTS_BEZIER};
use gamefmt::map::{
    AutomapperConfig, ITEM_ENVELOPE, ITEM_ENVPOINTS, ITEM_GROUP, ITEM_IMAGE, ITEM_INFO, ITEM_LAYER,
    ITEM_SOUND, ITEM_VERSION, ImageFormat, Layer, MapView, Name,
};
use gamefmt::{Error, Warning};
use js_sys::{Uint8Array, Uint8ClampedArray};
use wasm_bindgen::prelude::*;

use crate::js::{self, Obj, array, decode_error, opt_num, zeroed};

/// A Teeworlds/DDNet map (a datafile), held in the module's memory.
#[wasm_bindgen]
pub struct MapFile {
    bytes: Vec<u8>,
    warnings: Vec<Warning>,
    map_error: Option<Error>,
}

fn num(v: impl Into<f64>) -> JsValue {
    JsValue::from(v.into())
}

fn pair((a, b): (i32, i32)) -> JsValue {
    array([num(a), num(b)])
}

fn name(n: Option<Name>) -> JsValue {
    n.map_or(JsValue::NULL, |n| JsValue::from(n.to_string()))
}

/// Reads a data string; `null` when absent or invalid (as `gamefmt dump
/// --map`).
fn string(map: &MapView<'_>, index: i32) -> JsValue {
    let size = usize::try_from(index)
        .ok()
        .and_then(|i| map.datafile().data_size(i))
        .unwrap_or(0);
    let Ok(mut buf) = zeroed(size, 0) else {
        return JsValue::NULL;
    };
    match map.string(index, &mut buf) {
        Ok(Some(s)) => JsValue::from(s),
        _ => JsValue::NULL,
    }
}

impl MapFile {
    /// Parses the datafile structure (and the map, whose error is kept for
    /// the map-level methods).
    pub fn new(bytes: Vec<u8>) -> Result<Self, JsValue> {
        let mut warnings = Vec::new();
        let df = DatafileView::parse_with(&bytes, &mut warnings).map_err(decode_error)?;
        let map_error = MapView::new_with(df, &mut warnings).err();
        Ok(Self {
            bytes,
            warnings,
            map_error,
        })
    }

    fn map(&self) -> Result<MapView<'_>, JsValue> {
        if let Some(e) = self.map_error {
            return Err(decode_error(e));
        }
        let df = DatafileView::parse_with(&self.bytes, &mut ()).map_err(decode_error)?;
        MapView::new_with(df, &mut ()).map_err(decode_error)
    }
}

#[wasm_bindgen]
impl MapFile {
    /// `"datafile"`.
    #[wasm_bindgen(getter)]
    pub fn format(&self) -> String {
        "datafile".into()
    }

    /// The quirks read (the core's warnings: `kind`, `offset`, `message`).
    pub fn warnings(&self) -> Result<JsValue, JsValue> {
        js::ser(&self.warnings)
    }

    /// The datafile version (3 or 4).
    #[wasm_bindgen(getter)]
    pub fn version(&self) -> Result<u32, JsValue> {
        Ok(DatafileView::parse_with(&self.bytes, &mut ())
            .map_err(decode_error)?
            .version())
    }

    /// Every item in file order, in map terms: the objects `gamefmt dump
    /// --map` prints (`item`: `version`, `info`, `image`, `envelope`,
    /// `group`, `layer`, `envpoints`, `sound`, `uuid_type`,
    /// `automapper_config`, `envpoints_bezier`, `unknown`; and `id`).
    pub fn items(&self) -> Result<JsValue, JsValue> {
        let map = self.map()?;
        let df = map.datafile();
        let mut layer_group = std::collections::HashMap::new();
        for (g, group) in map.groups().enumerate() {
            for l in 0..group.layer_count() {
                layer_group.insert(group.start_layer().saturating_add(l), g);
            }
        }
        let mut index_in_type: std::collections::HashMap<u16, usize> =
            std::collections::HashMap::new();
        let out = js_sys::Array::new();
        for item in df.items() {
            let t = item.type_id();
            let counter = index_in_type.entry(t).or_default();
            let index = *counter;
            *counter = counter.saturating_add(1);
            let uuid = df.type_uuid(t);
            let line: Option<Obj> = match t {
                ITEM_VERSION => Some(
                    Obj::new()
                        .set("item", "version")
                        .set("version", map.version())
                        .take(),
                ),
                ITEM_INFO => Some(info(&map)),
                ITEM_IMAGE => image(&map, index),
                ITEM_ENVELOPE => envelope(&map, index),
                ITEM_GROUP => group(&map, index),
                ITEM_LAYER => layer(&map, index, layer_group.get(&index).copied()),
                ITEM_ENVPOINTS => Some(
                    Obj::new()
                        .set("item", "envpoints")
                        .set("points", map.env_point_count() as f64)
                        .set("ints_per_point", map.env_point_ints() as f64)
                        .take(),
                ),
                ITEM_SOUND => sound(&map, index),
                ITEMTYPE_EX => Some(
                    Obj::new()
                        .set("item", "uuid_type")
                        .set("type_id", item.id())
                        .set(
                            "uuid",
                            df.type_uuid(item.id())
                                .map_or(JsValue::NULL, |u| JsValue::from(u.to_string())),
                        )
                        .take(),
                ),
                _ if uuid == Some(UUID_AUTOMAPPER_CONFIG) => {
                    Some(match AutomapperConfig::new(item) {
                        Some(c) => Obj::new()
                            .set("item", "automapper_config")
                            .set("group", c.group())
                            .set("layer", c.layer())
                            .set("config", c.config())
                            .set("seed", c.seed())
                            .set("automatic", c.is_automatic())
                            .take(),
                        None => Obj::new()
                            .set("item", "automapper_config")
                            .set("ints", item.data().len() as f64)
                            .take(),
                    })
                }
                _ if uuid == Some(UUID_ENVPOINTS_BEZIER) => Some(
                    Obj::new()
                        .set("item", "envpoints_bezier")
                        .set("points", (item.data().len() / 16) as f64)
                        .take(),
                ),
                _ => Some(
                    Obj::new()
                        .set("item", "unknown")
                        .set("type_id", t)
                        .set(
                            "type_uuid",
                            uuid.map_or(JsValue::NULL, |u| JsValue::from(u.to_string())),
                        )
                        .set("ints", item.data().len() as f64)
                        .take(),
                ),
            };
            out.push(&match line {
                Some(o) => o.set("id", item.id()).take().done(),
                None => JsValue::NULL,
            });
        }
        Ok(out.into())
    }

    /// The info item: `author`, `map_version`, `credits`, `license`,
    /// `settings` (`null` when absent).
    pub fn info(&self) -> Result<JsValue, JsValue> {
        Ok(info(&self.map()?).done())
    }

    /// The layers in order, each as its `items()` object (`index`,
    /// `group`, `kind`, `name`, `width`, `height`, ...).
    pub fn layers(&self) -> Result<JsValue, JsValue> {
        let map = self.map()?;
        let mut layer_group = std::collections::HashMap::new();
        for (g, group) in map.groups().enumerate() {
            for l in 0..group.layer_count() {
                layer_group.insert(group.start_layer().saturating_add(l), g);
            }
        }
        Ok(array((0..map.layer_count()).map(|i| {
            layer(&map, i, layer_group.get(&i).copied()).map_or(JsValue::NULL, |o| o.done())
        })))
    }

    /// The groups in order, as in `items()`.
    pub fn groups(&self) -> Result<JsValue, JsValue> {
        let map = self.map()?;
        Ok(array((0..map.group_count()).map(|i| {
            group(&map, i).map_or(JsValue::NULL, |o| o.done())
        })))
    }

    /// The images in order, as in `items()`.
    pub fn images(&self) -> Result<JsValue, JsValue> {
        let map = self.map()?;
        Ok(array((0..map.image_count()).map(|i| {
            image(&map, i).map_or(JsValue::NULL, |o| o.done())
        })))
    }

    /// The envelopes in order, as in `items()`.
    pub fn envelopes(&self) -> Result<JsValue, JsValue> {
        let map = self.map()?;
        Ok(array((0..map.envelope_count()).map(|i| {
            envelope(&map, i).map_or(JsValue::NULL, |o| o.done())
        })))
    }

    /// The index of the game layer, or `undefined`.
    #[wasm_bindgen(js_name = gameLayer)]
    pub fn game_layer(&self) -> Result<Option<usize>, JsValue> {
        let map = self.map()?;
        Ok(map.layers().position(
            |l| matches!(&l, Layer::Tiles(t) if matches!(t.kind(), gamefmt::map::TileKind::Game)),
        ))
    }

    /// A tile layer's tiles: `{kind, width, height, element_size, data}`,
    /// `data` a `Uint8Array` of width × height elements row by row (game,
    /// front, design and switch layers: 4 bytes per tile, the tile index
    /// first, then flags; tele and tune 2; speedup 6). Throws for a layer
    /// that is not a tile layer.
    pub fn tiles(&self, layer: usize) -> Result<JsValue, JsValue> {
        let map = self.map()?;
        let Some(Layer::Tiles(t)) = map.layer(layer) else {
            return Err(js::error(
                "out_of_bounds",
                &format!("layer {layer} is not a tile layer"),
                0,
            ));
        };
        let len = t.buffer_len().map_err(decode_error)?;
        let mut buf = zeroed(len, 0)?;
        t.data_into(&mut buf).map_err(decode_error)?;
        let size = t.kind().element_size();
        let used = t
            .tile_count()
            .and_then(|n| n.checked_mul(size))
            .unwrap_or(0)
            .min(buf.len());
        let data = Uint8Array::from(buf.get(..used).unwrap_or_default());
        Ok(Obj::new()
            .set("kind", t.kind().name())
            .set("width", t.width() as f64)
            .set("height", t.height() as f64)
            .set("element_size", size as f64)
            .set("image", t.image())
            .set("color", array(t.color().map(num)))
            .set("data", data)
            .take()
            .done())
    }

    /// An image: `{name, width, height, external, rgba}`, `rgba` a
    /// `Uint8ClampedArray` of width × height × 4 bytes (RGB images get an
    /// opaque alpha) ready for `new ImageData(rgba, width, height)`, `null`
    /// for external images.
    pub fn image(&self, index: usize) -> Result<JsValue, JsValue> {
        let map = self.map()?;
        let Some(img) = map.image(index) else {
            return Err(js::error("out_of_bounds", &format!("no image {index}"), 0));
        };
        let rgba = match img.data_len() {
            Some(len) => {
                let mut buf = zeroed(len, 0)?;
                let pixels = img.pixels_into(&mut buf).map_err(decode_error)?;
                let rgba = match img.format() {
                    ImageFormat::Rgb => {
                        let mut out = Vec::new();
                        out.try_reserve_exact(pixels.len().saturating_add(pixels.len() / 3))
                            .map_err(|_| js::error("out_of_memory", "image too large", 0))?;
                        for px in pixels.chunks_exact(3) {
                            out.extend_from_slice(px);
                            out.push(255);
                        }
                        out
                    }
                    _ => pixels.to_vec(),
                };
                Uint8ClampedArray::from(rgba.as_slice()).into()
            }
            None => JsValue::NULL,
        };
        Ok(Obj::new()
            .set("name", string(&map, img.name_index()))
            .set("width", img.width())
            .set("height", img.height())
            .set("external", img.is_external())
            .set("rgba", rgba)
            .take()
            .done())
    }
}

impl Obj {
    /// Moves the builder out of a `&Self` chain.
    fn take(&self) -> Self {
        Self::wrap(self.object())
    }
}

fn info(map: &MapView<'_>) -> Obj {
    let Some(info) = map.info() else {
        return Obj::new().set("item", "info").take();
    };
    let settings = info.settings_index().map(|_| {
        array(
            info.settings_owned()
                .unwrap_or_default()
                .into_iter()
                .map(JsValue::from),
        )
    });
    Obj::new()
        .set("item", "info")
        .set("author", string(map, info.author_index()))
        .set("map_version", string(map, info.map_version_index()))
        .set("credits", string(map, info.credits_index()))
        .set("license", string(map, info.license_index()))
        .set("settings", settings.unwrap_or(JsValue::NULL))
        .take()
}

fn image(map: &MapView<'_>, index: usize) -> Option<Obj> {
    let image = map.image(index)?;
    let format = match image.format() {
        ImageFormat::Rgb => JsValue::from("rgb"),
        ImageFormat::Rgba => JsValue::from("rgba"),
        ImageFormat::Unknown(f) => num(f),
    };
    Some(
        Obj::new()
            .set("item", "image")
            .set("index", index as f64)
            .set("name", string(map, image.name_index()))
            .set("width", image.width())
            .set("height", image.height())
            .set("external", image.is_external())
            .set("format", format)
            .set("data_size", opt_num(image.data_len().map(|n| n as f64)))
            .take(),
    )
}

fn envelope(map: &MapView<'_>, index: usize) -> Option<Obj> {
    let env = map.envelope(index)?;
    Some(
        Obj::new()
            .set("item", "envelope")
            .set("index", index as f64)
            .set("version", env.version())
            .set("name", name(env.name().map(|n| n.decode())))
            .set("channels", env.channels())
            .set("start_point", env.start_point())
            .set("points", env.point_count())
            .set(
                "synchronized",
                env.synchronized().map_or(JsValue::NULL, JsValue::from),
            )
            .take(),
    )
}

fn group(map: &MapView<'_>, index: usize) -> Option<Obj> {
    let group = map.group(index)?;
    let clip = group.clipping().map_or(JsValue::NULL, |c| {
        Obj::new()
            .set("x", c.x)
            .set("y", c.y)
            .set("w", c.w)
            .set("h", c.h)
            .take()
            .done()
    });
    Some(
        Obj::new()
            .set("item", "group")
            .set("index", index as f64)
            .set("version", group.version())
            .set("name", name(group.name().map(|n| n.decode())))
            .set("offset", pair(group.offset()))
            .set("parallax", pair(group.parallax()))
            .set("clipping", clip)
            .set("start_layer", group.start_layer() as f64)
            .set("layers", group.layer_count() as f64)
            .take(),
    )
}

fn layer(map: &MapView<'_>, index: usize, group: Option<usize>) -> Option<Obj> {
    let layer = map.layer(index)?;
    let v = Obj::new()
        .set("item", "layer")
        .set("index", index as f64)
        .set("group", opt_num(group.map(|g| g as f64)))
        .set("kind", layer.kind().name())
        .set("name", name(layer.name().map(|n| n.decode())))
        .set("detail", layer.is_detail())
        .take();
    match &layer {
        Layer::Tiles(t) => {
            v.set("version", t.version())
                .set("width", t.width() as f64)
                .set("height", t.height() as f64)
                .set("image", t.image())
                .set("color", array(t.color().map(num)))
                .set("data", t.data_index());
        }
        Layer::Quads(q) => {
            v.set("version", q.version())
                .set("quads", q.quad_count() as f64)
                .set("image", q.image())
                .set("data", q.data_index());
        }
        Layer::Sounds(s) => {
            v.set("version", s.version())
                .set("sources", s.source_count() as f64)
                .set("sound", s.sound())
                .set("data", s.data_index());
        }
        Layer::Unknown(item) => {
            v.set("type", layer.layer_type())
                .set("ints", item.data().len() as f64);
        }
    }
    Some(v)
}

fn sound(map: &MapView<'_>, index: usize) -> Option<Obj> {
    let sound = map.sound(index)?;
    Some(
        Obj::new()
            .set("item", "sound")
            .set("index", index as f64)
            .set("name", string(map, sound.name_index()))
            .set("external", sound.is_external())
            .set("data_size", opt_num(sound.data_len().map(|n| n as f64)))
            .take(),
    )
}
