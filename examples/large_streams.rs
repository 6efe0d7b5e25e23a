//! Writes large Slippi replays and demos from a real one, for the
//! constant-memory measurements of `benches/rss.sh` (teehistorian
//! recordings come from `examples/teehistorian.rs --generate`, which
//! writes them with `TeehistorianWriter`).
//!
//! ```text
//! cargo run --release --example large_streams --features std -- slippi OUT MB SOURCE.slp
//! cargo run --release --example large_streams --features std -- demo   OUT MB SOURCE.demo
//! ```
//!
//! - `slippi`: the header and Game Start through `SlippiWriter`, then
//!   SOURCE's frame events (everything between Game Start and Game End)
//!   over and over until about MB megabytes, then its Game End; the raw
//!   length is patched and the file closed without metadata.
//! - `demo`: SOURCE's header and embedded map, then its whole chunk stream
//!   over and over. Each repetition starts again with SOURCE's first tick
//!   marker and full snapshot, so the stream stays valid (ticks restart).
//!
//! Both stream to the file: the generator's own memory stays small.
//! `benches/peers`' `memcheck gen-slp` calls [`slippi`] (it includes this
//! file as a module).
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use std::fs::File;
use std::io::{BufWriter, Seek, SeekFrom, Write};

use gamefmt::demo::DemoView;
use gamefmt::slippi::{
    CMD_EVENT_PAYLOADS, CMD_GAME_END, CMD_GAME_START, HEADER_LEN, SlippiView, SlippiWriter,
};

type R<T> = Result<T, Box<dyn std::error::Error>>;

fn main() -> R<()> {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let [kind, out, mb, src] = a.as_slice() else {
        return Err("usage: large_streams slippi|demo OUT MB SOURCE".into());
    };
    let target = mb.parse::<usize>()? << 20;
    let bytes = std::fs::read(src)?;
    let written = match kind.as_str() {
        "slippi" => slippi(out, target, &bytes)?,
        "demo" => demo(out, target, &bytes)?,
        _ => return Err("the kind is slippi or demo".into()),
    };
    println!("wrote {out}: {written} bytes");
    Ok(())
}

/// Writes to `out` the replay `bytes`' Game Start, then its frame events
/// repeated until about `target` bytes, then its Game End; returns the
/// file's length.
pub fn slippi(out: &str, target: usize, bytes: &[u8]) -> R<usize> {
    let view = SlippiView::parse(bytes)?;
    let mut head = SlippiWriter::new(&view.payload_sizes()?)?;
    let (mut frames, mut end) = (Vec::new(), None);
    for e in view.events() {
        let e = e?;
        match e.code() {
            CMD_EVENT_PAYLOADS => {}
            CMD_GAME_START => {
                head.event(CMD_GAME_START, e.payload())?;
            }
            CMD_GAME_END => end = Some(e.payload().to_vec()),
            c => {
                frames.push(c);
                frames.extend_from_slice(e.payload());
            }
        }
    }
    let end = end.ok_or("source has no Game End")?;
    let mut w = BufWriter::new(File::create(out)?);
    let header = head.live_bytes();
    w.write_all(header)?;
    let mut len = header.len();
    while len < target {
        w.write_all(&frames)?;
        len += frames.len();
    }
    w.write_all(&[CMD_GAME_END])?;
    w.write_all(&end)?;
    len += 1 + end.len();
    w.write_all(b"}")?;
    let raw_len = u32::try_from(len - HEADER_LEN)?;
    let mut f = w.into_inner()?;
    // The raw length: the header's last 4 bytes.
    f.seek(SeekFrom::Start(HEADER_LEN as u64 - 4))?;
    f.write_all(&raw_len.to_be_bytes())?;
    Ok(len + 1)
}

fn demo(out: &str, target: usize, bytes: &[u8]) -> R<usize> {
    let view = DemoView::parse(bytes)?;
    let mut w = BufWriter::new(File::create(out)?);
    let prefix = &bytes[..view.chunks_offset()];
    w.write_all(prefix)?;
    let chunks = view.chunk_bytes();
    let mut len = prefix.len();
    while len < target {
        w.write_all(chunks)?;
        len += chunks.len();
    }
    w.flush()?;
    Ok(len)
}
