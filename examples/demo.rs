//! Streams a demo file in constant memory through the snapshot
//! reconstruction stage and prints the snapshot at every keyframe and at
//! the end.
//!
//! Run with `cargo run --example demo --features std -- FILE.demo`.

use std::fs::File;
use std::io::BufReader;

use gamefmt::demo::{Item, OwnedBuffers, Reader, Reconstructor};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: demo FILE.demo")?;
    let mut reader = Reader::new(BufReader::new(File::open(path)?));
    reader.next().transpose()?; // the header, the first record
    let header = reader
        .header()
        .ok_or("the file ends inside the header")?
        .clone();
    println!(
        "demo v{} ({}), map {} ({} bytes), {} s",
        header.version(),
        header.net_version(),
        header.map_name(),
        header.map_size(),
        header.length_seconds()
    );
    let mut buffers = OwnedBuffers::new();
    let mut rec = Reconstructor::new(buffers.buffers(), header.item_sizes());
    while let Some(item) = reader.next() {
        // The embedded map's pieces (Item::MapPiece) come before the chunks.
        if let Item::Chunk(chunk) = item?
            && let Some(frame) = rec.push(&chunk)?.filter(|f| f.keyframe)
        {
            let items = frame.snapshot.item_count();
            println!("  keyframe {}: {items} items", frame.tick);
        }
    }
    if let Some(frame) = rec.finish() {
        let (tick, snap) = (frame.tick, frame.snapshot);
        println!(
            "  last tick {tick}: {} items, checksum {}",
            snap.item_count(),
            snap.checksum()
        );
        for item in snap.items().take(5) {
            let ty = snap
                .type_uuid(item.type_id())
                .map_or_else(|| item.type_id().to_string(), |u| u.to_string());
            println!("    type {ty} id {}: {} ints", item.id(), item.data().len());
        }
    }
    println!("  end: {:?}", reader.end());
    Ok(())
}
