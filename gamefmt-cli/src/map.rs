//! `gamefmt` on map content: the `map` object of `inspect --json` and
//! `dump --map`.

use std::collections::{BTreeMap, HashMap};
use std::io::Write;

use gamefmt::ErrorKind;
use gamefmt::datafile::{DatafileView, ITEMTYPE_EX, UUID_AUTOMAPPER_CONFIG, UUID_ENVPOINTS_BEZIER};
use gamefmt::map::{
    AutomapperConfig, ITEM_ENVELOPE, ITEM_ENVPOINTS, ITEM_GROUP, ITEM_IMAGE, ITEM_INFO, ITEM_LAYER,
    ITEM_SOUND, ITEM_VERSION, ImageFormat, Layer, MapView, Name,
};
use serde_json::{Value, json};

use crate::{CliError, Ctx, json_line};

/// The `map` object of `inspect --json`: counts over the map's content, or
/// `legacy: true` with empty counts for 2007-era maps. `Err` when the
/// datafile is not a readable map for another reason.
pub fn summary(df: &DatafileView<'_>, ctx: &mut Ctx) -> Result<Value, gamefmt::Error> {
    let map = match MapView::new_with(*df, &mut ctx.warnings) {
        Ok(map) => map,
        Err(e) if e.kind == ErrorKind::LegacyLayout => {
            return Ok(json!({
                "groups": 0, "layers": 0, "layer_kinds": {}, "images": 0,
                "embedded_images": 0, "envelopes": 0, "envelope_points": 0,
                "quads": 0, "sounds": 0, "game_layer": null, "legacy": true,
            }));
        }
        Err(e) => return Err(e),
    };
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    let mut quads = 0usize;
    for layer in map.layers() {
        let n = kinds.entry(layer.kind().name()).or_default();
        *n = n.saturating_add(1);
        if let Layer::Quads(q) = layer {
            quads = quads.saturating_add(q.quad_count());
        }
    }
    let game_layer = map
        .game_layer()
        .map(|g| json!({"width": g.width(), "height": g.height()}));
    Ok(json!({
        "groups": map.group_count(),
        "layers": map.layer_count(),
        "layer_kinds": kinds,
        "images": map.image_count(),
        "embedded_images": map.images().filter(|i| !i.is_external()).count(),
        "envelopes": map.envelope_count(),
        "envelope_points": map.env_point_count(),
        "quads": quads,
        "sounds": map.sound_count(),
        "game_layer": game_layer,
        "legacy": false,
    }))
}

/// `gamefmt validate`'s map part: the map-level parse, then every layer's
/// data decoded and every embedded image inflated. Returns what was
/// checked, for the `ok:` line.
pub fn validate(df: &DatafileView<'_>, ctx: &mut Ctx) -> Result<String, CliError> {
    let map = match MapView::new_with(*df, &mut ctx.warnings) {
        Ok(map) => map,
        Err(e) if e.kind == ErrorKind::LegacyLayout && !ctx.strict => {
            return Ok("2007-era map layout, content not decoded".to_owned());
        }
        Err(e) => return Err(CliError::Invalid(format!("not a valid map: {e}"))),
    };
    let invalid = |what: String, e: gamefmt::Error| CliError::Invalid(format!("{what}: {e}"));
    for (index, layer) in map.layers().enumerate() {
        let what = || format!("layer {index} ({})", layer.kind().name());
        match layer {
            Layer::Tiles(t) => {
                let mut buf = vec![0u8; t.buffer_len().map_err(|e| invalid(what(), e))?];
                t.data_into(&mut buf).map_err(|e| invalid(what(), e))?;
            }
            Layer::Quads(q) => {
                q.quads_into(&mut vec![0u8; q.buffer_len()])
                    .map_err(|e| invalid(what(), e))?;
            }
            Layer::Sounds(s) => {
                s.sources_into(&mut vec![0u8; s.buffer_len()])
                    .map_err(|e| invalid(what(), e))?;
            }
            Layer::Unknown(_) => {}
        }
    }
    for (index, image) in map.images().enumerate() {
        if let Some(len) = image.data_len() {
            image
                .pixels_into(&mut vec![0u8; len])
                .map_err(|e| invalid(format!("image {index}"), e))?;
        }
    }
    Ok(format!(
        "map with {} layers and {} images decoded",
        map.layer_count(),
        map.image_count()
    ))
}

/// One line of text for `inspect` from a [`summary`] object.
pub fn describe(summary: &Value) -> String {
    if summary["legacy"] == true {
        return "2007-era legacy layout (no VERSION item), not decoded".to_owned();
    }
    let kinds: Vec<String> = summary["layer_kinds"]
        .as_object()
        .map(|k| k.iter().map(|(name, n)| format!("{name} {n}")).collect())
        .unwrap_or_default();
    let game = match &summary["game_layer"] {
        Value::Null => "no game layer".to_owned(),
        g => format!("game layer {}x{}", g["width"], g["height"]),
    };
    format!(
        "{} groups, {} layers ({}), {} images ({} embedded), {} envelopes ({} points), {} quads, {} sounds, {game}",
        summary["groups"],
        summary["layers"],
        kinds.join(", "),
        summary["images"],
        summary["embedded_images"],
        summary["envelopes"],
        summary["envelope_points"],
        summary["quads"],
        summary["sounds"],
    )
}

fn name(n: Option<Name>) -> Value {
    n.map_or(Value::Null, |n| Value::String(n.to_string()))
}

/// Reads a data string; `null` when absent or invalid.
fn string(map: &MapView<'_>, index: i32) -> Value {
    let size = usize::try_from(index)
        .ok()
        .and_then(|i| map.datafile().data_size(i))
        .unwrap_or(0);
    let mut buf = vec![0u8; size];
    match map.string(index, &mut buf) {
        Ok(Some(s)) => Value::String(s.to_owned()),
        _ => Value::Null,
    }
}

/// `gamefmt dump --map`: one JSON line per item, in file order, in map
/// terms.
pub fn dump(bytes: &[u8], ctx: &mut Ctx, out: &mut dyn Write) -> Result<(), CliError> {
    let df = ctx.open_datafile(bytes)?;
    let map = MapView::new_with(df, &mut ctx.warnings)?;
    let df = map.datafile();
    // Group of each layer index.
    let mut layer_group = HashMap::new();
    for (g, group) in map.groups().enumerate() {
        for l in 0..group.layer_count() {
            layer_group.insert(group.start_layer().saturating_add(l), g);
        }
    }
    let mut index_in_type: HashMap<u16, usize> = HashMap::new();
    for item in df.items() {
        let t = item.type_id();
        let counter = index_in_type.entry(t).or_default();
        let index = *counter;
        *counter = counter.saturating_add(1);
        let uuid = df.type_uuid(t);
        let line = match t {
            ITEM_VERSION => json!({"item": "version", "version": map.version()}),
            ITEM_INFO => info(&map),
            ITEM_IMAGE => image(&map, index),
            ITEM_ENVELOPE => envelope(&map, index),
            ITEM_GROUP => group(&map, index),
            ITEM_LAYER => layer(&map, index, layer_group.get(&index).copied()),
            ITEM_ENVPOINTS => json!({
                "item": "envpoints",
                "points": map.env_point_count(),
                "ints_per_point": map.env_point_ints(),
            }),
            ITEM_SOUND => sound(&map, index),
            ITEMTYPE_EX => json!({
                "item": "uuid_type",
                "type_id": item.id(),
                "uuid": df.type_uuid(item.id()).map(|u| u.to_string()),
            }),
            _ if uuid == Some(UUID_AUTOMAPPER_CONFIG) => match AutomapperConfig::new(item) {
                Some(c) => json!({
                    "item": "automapper_config",
                    "group": c.group(),
                    "layer": c.layer(),
                    "config": c.config(),
                    "seed": c.seed(),
                    "automatic": c.is_automatic(),
                }),
                None => json!({"item": "automapper_config", "ints": item.data().len()}),
            },
            _ if uuid == Some(UUID_ENVPOINTS_BEZIER) => json!({
                "item": "envpoints_bezier",
                "points": item.data().len() / 16,
            }),
            _ => json!({
                "item": "unknown",
                "type_id": t,
                "type_uuid": uuid.map(|u| u.to_string()),
                "ints": item.data().len(),
            }),
        };
        let mut line = line;
        if let Some(obj) = line.as_object_mut() {
            obj.insert("id".into(), json!(item.id()));
        }
        json_line(out, &line)?;
    }
    Ok(())
}

fn info(map: &MapView<'_>) -> Value {
    let Some(info) = map.info() else {
        return json!({"item": "info"});
    };
    let settings: Option<Vec<String>> = info
        .settings_index()
        .map(|_| info.settings_owned().unwrap_or_default());
    json!({
        "item": "info",
        "author": string(map, info.author_index()),
        "map_version": string(map, info.map_version_index()),
        "credits": string(map, info.credits_index()),
        "license": string(map, info.license_index()),
        "settings": settings,
    })
}

fn image(map: &MapView<'_>, index: usize) -> Value {
    let Some(image) = map.image(index) else {
        return Value::Null;
    };
    let format = match image.format() {
        ImageFormat::Rgb => json!("rgb"),
        ImageFormat::Rgba => json!("rgba"),
        ImageFormat::Unknown(f) => json!(f),
    };
    json!({
        "item": "image",
        "index": index,
        "name": string(map, image.name_index()),
        "width": image.width(),
        "height": image.height(),
        "external": image.is_external(),
        "format": format,
        "data_size": image.data_len(),
    })
}

fn envelope(map: &MapView<'_>, index: usize) -> Value {
    let Some(env) = map.envelope(index) else {
        return Value::Null;
    };
    json!({
        "item": "envelope",
        "index": index,
        "version": env.version(),
        "name": name(env.name().map(|n| n.decode())),
        "channels": env.channels(),
        "start_point": env.start_point(),
        "points": env.point_count(),
        "synchronized": env.synchronized(),
    })
}

fn group(map: &MapView<'_>, index: usize) -> Value {
    let Some(group) = map.group(index) else {
        return Value::Null;
    };
    let clip = group
        .clipping()
        .map(|c| json!({"x": c.x, "y": c.y, "w": c.w, "h": c.h}));
    json!({
        "item": "group",
        "index": index,
        "version": group.version(),
        "name": name(group.name().map(|n| n.decode())),
        "offset": group.offset(),
        "parallax": group.parallax(),
        "clipping": clip,
        "start_layer": group.start_layer(),
        "layers": group.layer_count(),
    })
}

fn layer(map: &MapView<'_>, index: usize, group: Option<usize>) -> Value {
    let Some(layer) = map.layer(index) else {
        return Value::Null;
    };
    let mut v = json!({
        "item": "layer",
        "index": index,
        "group": group,
        "kind": layer.kind().name(),
        "name": name(layer.name().map(|n| n.decode())),
        "detail": layer.is_detail(),
    });
    let extra = match layer {
        Layer::Tiles(t) => json!({
            "version": t.version(),
            "width": t.width(),
            "height": t.height(),
            "image": t.image(),
            "color": t.color(),
            "data": t.data_index(),
        }),
        Layer::Quads(q) => json!({
            "version": q.version(),
            "quads": q.quad_count(),
            "image": q.image(),
            "data": q.data_index(),
        }),
        Layer::Sounds(s) => json!({
            "version": s.version(),
            "sources": s.source_count(),
            "sound": s.sound(),
            "data": s.data_index(),
        }),
        Layer::Unknown(item) => json!({"type": layer.layer_type(), "ints": item.data().len()}),
    };
    if let (Some(obj), Some(extra)) = (v.as_object_mut(), extra.as_object()) {
        obj.extend(extra.clone());
    }
    v
}

fn sound(map: &MapView<'_>, index: usize) -> Value {
    let Some(sound) = map.sound(index) else {
        return Value::Null;
    };
    json!({
        "item": "sound",
        "index": index,
        "name": string(map, sound.name_index()),
        "external": sound.is_external(),
        "data_size": sound.data_len(),
    })
}
