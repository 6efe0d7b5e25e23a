//! Teeworlds/DDNet maps: the `layers` and `tiles` tables. A map is read
//! whole (maps are small) and walked with [`MapView`] on a thread of its
//! own; each tile layer is expanded in turn, so only one layer's tiles
//! are held at a time.

use std::io::Read;

use gamefmt::map::{Layer, MapView, TileData};

use crate::columns::{
    Bool, FileColumn, Int32Column, StringColumn, UInt8Column, UInt32Column, table,
};
use crate::source::Emitter;
use crate::{Error, Table};

table! {
    /// `format=map/table=layers`: one row per layer, in group order.
    Layers {
        file: FileColumn = "the input's path",
        group: UInt32Column = "group index",
        group_name: StringColumn = "group name",
        layer: UInt32Column = "layer index in the map (the `tiles` table's `layer`)",
        kind: StringColumn = "`tiles`, `game`, `front`, `tele`, `speedup`, `switch`, `tune`, `quads`, `sounds`, `unknown`",
        name: StringColumn = "layer name",
        detail: Bool = "a detail layer (hidden at high detail off)",
        width: UInt32Column = "tile layers: width in tiles",
        height: UInt32Column = "tile layers: height in tiles",
        image: Int32Column = "tile and quad layers: image index, −1 none",
        count: UInt32Column = "quad layers: quads; sound layers: sources",
        tiles: UInt32Column = "tile layers: non-empty tiles (rows in `tiles`); null when the data does not decode",
    }
}

table! {
    /// `format=map/table=tiles`: one row per non-empty tile (index or
    /// type not 0) of every tile layer.
    Tiles {
        file: FileColumn = "the input's path",
        layer: UInt32Column = "layer index (as in `layers`)",
        x: UInt32Column = "column",
        y: UInt32Column = "row",
        index: UInt8Column = "tile index; for tele, speedup, switch and tune layers their type",
        flags: UInt8Column = "tile flags (1 vertical flip, 2 horizontal flip, 4 opaque, 8 rotate); switch flags",
        number: UInt8Column = "tele, switch, tune: number; speedup: force",
    }
}

/// Appends one layer's non-empty tiles; returns how many.
fn tile_rows(
    t: &mut Tiles,
    file: Option<&str>,
    layer: u32,
    width: usize,
    data: &TileData<'_>,
) -> u32 {
    let width = width.max(1);
    let mut count = 0u32;
    let mut row = |i: usize, index: u8, flags: Option<u8>, number: Option<u8>| {
        if index == 0 {
            return;
        }
        let x = i.checked_rem(width).unwrap_or(0);
        let y = i.checked_div(width).unwrap_or(0);
        t.file.append_option(file);
        t.layer.append_value(layer);
        t.x.append_value(u32::try_from(x).unwrap_or(u32::MAX));
        t.y.append_value(u32::try_from(y).unwrap_or(u32::MAX));
        t.index.append_value(index);
        t.flags.append_option(flags);
        t.number.append_option(number);
        count = count.saturating_add(1);
    };
    match data {
        TileData::Tiles(tiles) => {
            for (i, tile) in tiles.iter().enumerate() {
                row(i, tile.index, Some(tile.flags), None);
            }
        }
        TileData::Tele(tiles) => {
            for (i, tile) in tiles.iter().enumerate() {
                row(i, tile.kind, None, Some(tile.number));
            }
        }
        TileData::Speedup(tiles) => {
            for (i, tile) in tiles.iter().enumerate() {
                row(i, tile.kind, None, Some(tile.force));
            }
        }
        TileData::Switch(tiles) => {
            for (i, tile) in tiles.iter().enumerate() {
                row(i, tile.kind, Some(tile.flags), Some(tile.number));
            }
        }
        TileData::Tune(tiles) => {
            for (i, tile) in tiles.iter().enumerate() {
                row(i, tile.kind, None, Some(tile.number));
            }
        }
    }
    count
}

/// Reads a map and sends its tables' batches.
pub fn run(
    mut input: Box<dyn Read + Send>,
    file: Option<String>,
    tables: &[Table],
    emit: &Emitter,
) -> Result<(), Error> {
    let mut layers = tables
        .contains(&Table::MapLayers)
        .then(|| Layers::with_capacity(64));
    let mut tiles = tables
        .contains(&Table::MapTiles)
        .then(|| Tiles::with_capacity(emit.batch_rows()));
    let file = file.as_deref();
    let mut bytes = Vec::new();
    input.read_to_end(&mut bytes)?;
    let map = MapView::parse(&bytes)?;
    let name = |n: Option<gamefmt::i32string::I32String<'_>>| n.map(|n| n.decode().to_string());
    for (group_index, group) in (0u32..).zip(map.groups()) {
        for (i, layer) in group.layers().enumerate() {
            let index = u32::try_from(group.start_layer().saturating_add(i)).unwrap_or(u32::MAX);
            let (mut width, mut height, mut image, mut count, mut non_empty) =
                (None, None, None, None, None);
            match layer {
                Layer::Tiles(t) => {
                    width = u32::try_from(t.width()).ok();
                    height = u32::try_from(t.height()).ok();
                    image = Some(t.image());
                    // A layer whose data does not decode has no tiles rows.
                    if let Ok(buffer) = t.data_to_vec() {
                        let mut scratch = Tiles::with_capacity(0);
                        let rows = tiles.as_mut().unwrap_or(&mut scratch);
                        non_empty = Some(tile_rows(rows, file, index, t.width(), &buffer.data()));
                        emit.flush(Table::MapTiles, tiles.as_mut(), false)?;
                    }
                }
                Layer::Quads(q) => {
                    image = Some(q.image());
                    count = u32::try_from(q.quad_count()).ok();
                }
                Layer::Sounds(s) => count = u32::try_from(s.source_count()).ok(),
                _ => {}
            }
            if let Some(t) = layers.as_mut() {
                t.file.append_option(file);
                t.group.append_value(group_index);
                t.group_name.append_option(name(group.name()));
                t.layer.append_value(index);
                t.kind.append_value(layer.kind().name());
                t.name.append_option(name(layer.name()));
                t.detail.append_value(layer.is_detail());
                t.width.append_option(width);
                t.height.append_option(height);
                t.image.append_option(image);
                t.count.append_option(count);
                t.tiles.append_option(non_empty);
            }
        }
    }
    emit.flush(Table::MapLayers, layers.as_mut(), true)?;
    emit.flush(Table::MapTiles, tiles.as_mut(), true)
}
