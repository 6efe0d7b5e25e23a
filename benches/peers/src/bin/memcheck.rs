//! Generates big teehistorian and Slippi files and reads them back with the
//! crate's streaming `std` readers, for peak-RSS measurements under
//! `/usr/bin/time -v` (see README.md).
//!
//! ```text
//! memcheck gen-th  OUT MB               writer-made recording of about MB MB
//! memcheck gen-slp OUT MB SOURCE.slp    SOURCE's frame events repeated
//! memcheck read-th  FILE                teehistorian::Reader, every message
//! memcheck read-slp FILE                slippi::Reader, every event
//! ```
//!
//! Both generators stream to the file: their own memory stays small too.

#[allow(dead_code, clippy::all)]
#[path = "../../../../tests/common/teehistorian_gen.rs"]
mod teehistorian_gen;

use std::fs::File;
use std::io::{BufReader, BufWriter, Seek, SeekFrom, Write};

use gamefmt::slippi::{self, Event, Item, SlippiView, SlippiWriter};
use gamefmt::teehistorian;

type R<T> = Result<T, Box<dyn std::error::Error>>;

fn main() -> R<()> {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let mb = |s: &String| -> R<usize> { Ok(s.parse::<usize>()? << 20) };
    match a.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["gen-th", out, _] => {
            let mut w = BufWriter::new(File::create(out)?);
            let mut err = None;
            let (bytes, n) = teehistorian_gen::generate(mb(&a[2])?, |chunk| {
                if let Err(e) = w.write_all(chunk) {
                    err.get_or_insert(e);
                }
            });
            if let Some(e) = err {
                return Err(e.into());
            }
            w.flush()?;
            println!("wrote {bytes} bytes, {n} messages");
        }
        ["gen-slp", out, _, src] => gen_slp(out, mb(&a[2])?, src)?,
        ["read-th", file] => {
            let mut r =
                teehistorian::Reader::new(BufReader::with_capacity(1 << 16, File::open(file)?));
            let (mut n, mut ticks) = (0u64, 0i64);
            while let Some(item) = r.next() {
                if let teehistorian::Item::Message(rec) = item? {
                    ticks += i64::from(rec.tick);
                    n += 1;
                }
            }
            println!("{n} messages, tick sum {ticks}");
        }
        ["read-slp", file] => {
            let mut r = slippi::Reader::new(File::open(file)?);
            let (mut n, mut frames) = (0u64, 0u64);
            while let Some(d) = r.next() {
                if let Item::Event(e) = d? {
                    n += 1;
                    frames += u64::from(matches!(e, Event::FrameBookend(_)));
                }
            }
            println!("{n} events, {frames} frame bookends, ending {:?}", r.end());
        }
        _ => return Err("usage: see the source's header".into()),
    }
    Ok(())
}

/// Writes SOURCE's header, Event Payloads and Game Start, then its frame
/// events (everything between Game Start and Game End) over and over until
/// the file holds `target` bytes, then its Game End; patches the raw
/// length and closes the object (no metadata).
fn gen_slp(out: &str, target: usize, src: &str) -> R<()> {
    let bytes = std::fs::read(src)?;
    let view = SlippiView::parse(&bytes)?;
    let mut head = SlippiWriter::new(&view.payload_sizes()?)?;
    let (mut frames, mut end) = (Vec::new(), None);
    for e in view.events() {
        let e = e?;
        match e.code() {
            0x35 => {}
            0x36 => {
                head.event(0x36, e.payload())?;
            }
            0x39 => end = Some(e.payload().to_vec()),
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
    w.write_all(&[0x39])?;
    w.write_all(&end)?;
    len += 1 + end.len();
    w.write_all(b"}")?;
    let raw_len = u32::try_from(len - 15)?;
    let mut f = w.into_inner()?;
    f.seek(SeekFrom::Start(11))?;
    f.write_all(&raw_len.to_be_bytes())?;
    println!("wrote {} bytes", len + 1);
    Ok(())
}
