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

/// The Slippi generator of `benches/rss.sh`, shared.
#[allow(dead_code, clippy::all)]
#[path = "../../../../examples/large_streams.rs"]
mod large_streams;

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};

use gamefmt::slippi::{self, Event, Item};
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
        ["gen-slp", out, _, src] => {
            let n = large_streams::slippi(out, mb(&a[2])?, &std::fs::read(src)?)?;
            println!("wrote {n} bytes");
        }
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
