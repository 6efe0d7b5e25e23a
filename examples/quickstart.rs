//! Builds a small map in memory with the writer, then decodes it in place.
//!
//! Run with `cargo run --example quickstart `; needs no input file.

use gamefmt::datafile::{DatafileView, DatafileWriter, UUID_AUTOMAPPER_CONFIG, WriteVersion};

fn main() -> Result<(), gamefmt::Error> {
    let mut writer = DatafileWriter::new();
    writer.add_item(0, 0, &[1])?; // VERSION
    let author = writer.add_data_string("gamefmt quickstart");
    writer.add_item(1, 0, &[1, i32::try_from(author).unwrap_or(-1), -1, -1, -1])?; // INFO
    writer.add_uuid_item(UUID_AUTOMAPPER_CONFIG, 0, &[1, 0, 0, -1, 0, 1])?;
    let tiles = writer.add_data(&[1u8; 4 * 50 * 50]);
    let bytes = writer.finish(WriteVersion::V4)?;

    let map = DatafileView::parse(&bytes)?;
    println!(
        "datafile v{}: {} bytes, {} item types, {} items, {} data items",
        map.version(),
        bytes.len(),
        map.item_type_count(),
        map.item_count(),
        map.data_count()
    );
    for item in map.items() {
        let kind = match map.type_uuid(item.type_id()) {
            Some(uuid) => format!("uuid {uuid}"),
            None => format!("type {}", item.type_id()),
        };
        let ints: Vec<i32> = item.data().iter().map(|v| v.get()).collect();
        println!("  item {kind} id {}: {ints:?}", item.id());
    }
    let mut buf = [0u8; 64];
    println!("  author: {:?}", map.data_str(author, &mut buf)?);
    let mut tile_buf = vec![0u8; map.data_size(tiles).unwrap_or(0)];
    let inflated = map.decompress_into(tiles, &mut tile_buf)?;
    println!(
        "  tile data: {} bytes stored, {} inflated",
        map.data_raw(tiles).map_or(0, <[u8]>::len),
        inflated.len()
    );
    Ok(())
}
