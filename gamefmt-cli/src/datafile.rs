//! `gamefmt` on Teeworlds/DDNet datafiles.

use std::io::Write;

use gamefmt::datafile::DatafileView;
use serde_json::json;

use crate::{CliError, Ctx, json_line};

/// The facts `inspect` reports about a datafile.
struct Facts {
    version: u32,
    item_types: usize,
    items: usize,
    data_items: usize,
    item_checksum: i32,
    data_bytes: u64,
    data_errors: usize,
}

/// The facts of `inspect`. Data items that do not inflate are counted in
/// `data_errors`; an empty data item (a quirk, reported as a warning) is
/// no error unless the view is strict.
fn facts(view: &DatafileView<'_>) -> Facts {
    let item_checksum = view
        .items()
        .flat_map(|item| item.data().iter())
        .fold(0i32, |sum, v| sum.wrapping_add(v.get()));
    let (mut data_bytes, mut data_errors) = (0u64, 0usize);
    for index in 0..view.data_count() {
        match view.decompress(index) {
            Ok(data) => data_bytes = data_bytes.saturating_add(data.len() as u64),
            Err(_) => data_errors = data_errors.saturating_add(1),
        }
    }
    Facts {
        version: view.version(),
        item_types: view.item_type_count(),
        items: view.item_count(),
        data_items: view.data_count(),
        item_checksum,
        data_bytes,
        data_errors,
    }
}

/// `gamefmt inspect` for a datafile.
pub fn inspect(
    bytes: &[u8],
    as_json: bool,
    ctx: &mut Ctx,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let view = ctx.open_datafile(bytes)?;
    let f = facts(&view);
    let map = crate::map::summary(&view, ctx);
    if as_json {
        let mut value = json!({
                "format": "map",
                "version": f.version,
                "item_types": f.item_types,
                "items": f.items,
                "data_items": f.data_items,
                "item_checksum": f.item_checksum,
                "data_bytes": f.data_bytes,
                "data_errors": f.data_errors,
                "warnings": ctx.warnings_json(),
        });
        if let Some(obj) = value.as_object_mut() {
            match &map {
                Ok(m) => {
                    obj.insert("map".into(), m.clone());
                }
                Err(e) => {
                    obj.insert("map".into(), serde_json::Value::Null);
                    obj.insert("map_error".into(), e.to_string().into());
                }
            }
        }
        json_line(out, &value)?;
        return Ok(());
    }
    writeln!(
        out,
        "datafile version {} ({} bytes)",
        f.version,
        bytes.len()
    )?;
    writeln!(out, "  item types:  {}", f.item_types)?;
    for t in view.item_types() {
        match view.type_uuid(t.type_id) {
            Some(uuid) => writeln!(out, "    type {:5} ({uuid}): {} items", t.type_id, t.count)?,
            None => writeln!(out, "    type {:5}: {} items", t.type_id, t.count)?,
        }
    }
    writeln!(
        out,
        "  items:       {} (checksum {})",
        f.items, f.item_checksum
    )?;
    writeln!(
        out,
        "  data items:  {} ({} bytes inflated, {} failed)",
        f.data_items, f.data_bytes, f.data_errors
    )?;
    match map {
        Ok(m) => writeln!(out, "  map:         {}", crate::map::describe(&m))?,
        Err(e) => writeln!(out, "  map:         not readable as a map: {e}")?,
    }
    Ok(())
}

/// `gamefmt dump` for a datafile: one JSON line per item, then one per data
/// item.
pub fn dump(bytes: &[u8], ctx: &mut Ctx, out: &mut dyn Write) -> Result<(), CliError> {
    let view = ctx.open_datafile(bytes)?;
    for (index, item) in view.items().enumerate() {
        let data: Vec<i32> = item.data().iter().map(|v| v.get()).collect();
        let uuid = view.type_uuid(item.type_id()).map(|u| u.to_string());
        json_line(
            out,
            &json!({
                "item": index,
                "type_id": item.type_id(),
                "type_uuid": uuid,
                "id": item.id(),
                "offset": item.offset(),
                "data": data,
            }),
        )?;
    }
    for index in 0..view.data_count() {
        let size = view.decompress(index).map(|d| d.len());
        json_line(
            out,
            &json!({
                "data_item": index,
                "offset": view.data_offset(index),
                "stored_size": view.data_raw(index).map(<[u8]>::len),
                "declared_size": view.data_size(index),
                "error": size.err().map(|e| e.to_string()),
            }),
        )?;
    }
    Ok(())
}

/// `gamefmt validate` for a datafile: the structure, the map it holds
/// (every datafile is read as a map, as DDNet does), then every data item
/// (so that damage the map's layers meet is told as the Arrow tables,
/// which read the map, tell it).
pub fn validate(bytes: &[u8], ctx: &mut Ctx, out: &mut dyn Write) -> Result<(), CliError> {
    let view = ctx.open_datafile(bytes)?;
    let map = crate::map::validate(&view, ctx)?;
    for index in 0..view.data_count() {
        view.decompress(index).map_err(|e| {
            CliError::Invalid(format!(
                "data item {index} does not inflate to its declared size: {e}"
            ))
        })?;
    }
    writeln!(
        out,
        "ok: datafile version {}, {} items, {} data items; {map}",
        view.version(),
        view.item_count(),
        view.data_count()
    )?;
    Ok(())
}
