//! Streams a demo file in constant memory and prints the snapshot in effect
//! at every keyframe and at the end.
//!
//! Run with `cargo run --example demo --features std -- FILE.demo`.

use std::fs::File;
use std::io::BufReader;

use gamefmt::demo::{Chunk, OwnedBuffers, Reader, Reconstructor};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: demo FILE.demo")?;
    let mut reader = Reader::new(BufReader::new(File::open(path)?))?;
    let header = reader.header().clone();
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
    let mut tick = None;
    while let Some(chunk) = reader.next_chunk() {
        let chunk = chunk?;
        if let Chunk::Tick { tick: t, keyframe } = chunk {
            if let Some(snap) = rec.snapshot().filter(|_| keyframe) {
                println!("  before keyframe {t}: {} items", snap.item_count());
            }
            tick = Some(t);
        }
        rec.feed(&chunk)?;
    }
    if let (Some(tick), Some(snap)) = (tick, rec.snapshot()) {
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
