//! Reads a teehistorian recording with the constant-memory `Reader` and
//! prints its message counts, ticks and ending.
//!
//! `cargo run --release --example teehistorian --features std -- FILE`
//!
//! `... -- --generate FILE MEGABYTES` first writes a synthetic recording of
//! that size with the crate's writer (in 1 MiB pieces), e.g. to check with
//! `/usr/bin/time -v` that reading a 1 GB file stays in constant memory.
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

#[path = "../tests/common/teehistorian_gen.rs"]
mod teehistorian_gen;

use std::io::Write;

use gamefmt::teehistorian::{Header, Item, Kind, Reader};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--generate") {
        let (path, mb): (&str, usize) = (&args[1], args[2].parse()?);
        let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
        let (bytes, messages) =
            teehistorian_gen::generate(mb << 20, |chunk| out.write_all(chunk).unwrap());
        out.flush()?;
        println!("wrote {path}: {bytes} bytes, {messages} messages");
        return Ok(());
    }
    let path = args
        .first()
        .ok_or("usage: teehistorian FILE | --generate FILE MEGABYTES")?;
    let mut reader = Reader::new(std::fs::File::open(path)?);
    let print = |header: Header<'_>| {
        println!(
            "teehistorian v{} map {}",
            header.version(),
            header.map_name().map(|m| m.to_string()).unwrap_or_default()
        );
    };
    let mut counts = [0u64; Kind::ALL.len()];
    let mut total = 0u64;
    let mut json = Vec::new();
    while let Some(item) = reader.next() {
        match item? {
            Item::Header(header) => print(header),
            // A header longer than the buffer: joined, then parsed.
            Item::HeaderPiece { json: piece, last } => {
                json.extend_from_slice(piece);
                if last {
                    print(Header::parse(std::str::from_utf8(&json)?)?);
                }
            }
            Item::Message(record) => {
                counts[record.message.kind() as usize] += 1;
                total += 1;
            }
        }
    }
    println!(
        "{total} messages, last tick {}, end: {:?}",
        reader.decoder().tick(),
        reader.end()
    );
    for (kind, n) in Kind::ALL.iter().zip(counts) {
        if n > 0 {
            println!("  {:<16} {n}", kind.name());
        }
    }
    Ok(())
}
