//! Records a demo as a DDNet server does: ten seconds of a made-up game
//! (one player running right, a chat message every two seconds, a
//! timeline marker), the map given by name, CRC and SHA-256; then reads it
//! back and cuts seconds 2 to 4 out of it.
//!
//! ```sh
//! cargo run --example record_demo -- out.demo
//! gamefmt inspect out.demo
//! ```
#![allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    reason = "a made-up game's numbers, all small"
)]

use std::fs::File;
use std::io::BufWriter;

use gamefmt::demo::{self, DemoMap, DemoView, DemoWriter, RecorderOptions};
use gamefmt::snapshot::SnapshotBuilder;

/// DDNet's snapshot object types (`src/game/generated/protocol.h`).
const NETOBJTYPE_CHARACTER: u16 = 9;
const NETOBJTYPE_PLAYERINFO: u16 = 10;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "record_demo.demo".into());
    let map = DemoMap {
        name: "dm1",
        crc: 0xf215_9e6e,
        sha256: [0xab; 32],
        // `Some(&map_file)` embeds the map, as DDNet does by default.
        data: None,
    };
    let options = RecorderOptions::ddnet("2026-11-29_00-00-00");
    // A seekable writer: `finish` patches the header (length, markers).
    let mut w = DemoWriter::new(BufWriter::new(File::create(&path)?), &options, &map)?;
    let mut b = SnapshotBuilder::new();
    for tick in 0..=500 {
        // One snapshot per tick: a keyframe every five seconds, otherwise
        // only what changed (a delta), as DDNet.
        b.clear();
        b.add(NETOBJTYPE_PLAYERINFO, 0, &[1, 0, 0, tick / 500, 20])?;
        let mut character = [0i32; 22];
        character[..4].copy_from_slice(&[tick, 1000 + 4 * (tick % 500), 800, 4 * 256]);
        b.add(NETOBJTYPE_CHARACTER, 0, &character)?;
        w.snapshot(tick, &b.snapshot())?;
        if tick % 100 == 50 {
            // Sv_Chat (id 3 << 1), team 0, client id -1, the text: a
            // message packed as the server sends it.
            w.message(b"\x06\x00\x40hello from Rust\0")?;
        }
        if tick == 250 {
            w.add_marker(tick);
        }
    }
    w.finish()?;

    let bytes = std::fs::read(&path)?;
    let header = DemoView::parse(&bytes)?.header().clone();
    println!(
        "{path}: version {}, map {}, {} s, markers {:?}, {} bytes",
        header.version(),
        header.map_name(),
        header.length_seconds(),
        header.markers(),
        bytes.len()
    );
    let part = demo::cut(&bytes, 100, 200)?;
    let part_header = DemoView::parse(&part)?.header().clone();
    println!(
        "ticks 100..=200 cut out: {} s, {} bytes",
        part_header.length_seconds(),
        part.len()
    );
    Ok(())
}
