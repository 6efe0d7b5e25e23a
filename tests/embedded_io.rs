//! The `embedded-io` readers on every corpus stream file, on the host:
//! `stream::EmbeddedReader` (blocking) and `stream::AsyncReader` (driven
//! here by a minimal executor) with a 4 KiB caller buffer give the records
//! and the ending of the slice iterators; with the demo decoder and a
//! buffer of the demo's largest chunk (or header), its header, map and
//! chunks. (tests/embedded runs the
//! same readers on an emulated Cortex-M.)
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::panic,
    reason = "tests: a panic is the failure report"
)]

use crate::common;

use core::future::Future;
use core::pin::pin;
use core::task::{Context, Poll, Waker};

use gamefmt::demo::{self, DemoChunkIter, DemoView};
use gamefmt::slippi::{self, SlippiEventIter};
use gamefmt::stream::{AsyncReader, EmbeddedReader};
use gamefmt::teehistorian::{self, TeehistorianIter};

/// The buffer of the embedded hosts the design targets.
const SMALL: usize = 4096;

/// Runs a future whose every await is ready at once (a byte slice as the
/// async source never waits).
fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return out;
        }
    }
}

/// A teehistorian message as the test compares it.
fn th_key(record: &teehistorian::Record<'_>) -> String {
    format!("{} {} {:?}", record.tick, record.offset, record.message)
}

#[test]
fn teehistorian_through_embedded_readers() {
    let Some(files) = common::corpus_files(
        "teehistorian_through_embedded_readers",
        "teeworlds/teehistorian",
        ".teehistorian",
    ) else {
        return;
    };
    let mut compared = 0;
    for (name, bytes) in &files {
        let Ok(mut iter) = TeehistorianIter::new(bytes) else {
            continue;
        };
        let want: Vec<String> = iter
            .by_ref()
            .map_while(Result::ok)
            .map(|r| th_key(&r))
            .collect();
        let want_end = iter.end();
        // The header's facts: the version the whole parse read, the text
        // up to the first NUL after the 16-byte magic.
        let json_len = bytes[16..].iter().position(|&b| b == 0).unwrap();
        let want_header = (Some(iter.header().version()), json_len);
        let facts = |h: Option<&teehistorian::TeehistorianHeader>| {
            let h = h.unwrap();
            (h.version(), h.json_len())
        };

        let mut buf = [0u8; SMALL];
        let mut reader =
            EmbeddedReader::with_decoder(&bytes[..], &mut buf, teehistorian::Decoder::new());
        assert_eq!(reader.header(), None, "{name}: before the first record");
        let mut got = Vec::new();
        while let Some(Ok(item)) = reader.next() {
            if let teehistorian::Item::Message(record) = item {
                got.push(th_key(&record));
            }
        }
        assert_eq!(
            (&got, reader.end()),
            (&want, want_end),
            "{name}: EmbeddedReader"
        );
        assert_eq!(facts(reader.header()), want_header, "{name}: header()");
        // With a buffer that holds the header whole, the same facts.
        let mut big = vec![0u8; json_len + 64];
        let mut reader =
            EmbeddedReader::with_decoder(&bytes[..], &mut big, teehistorian::Decoder::new());
        let first = reader.next();
        assert!(
            matches!(first, Some(Ok(teehistorian::Item::Header(_)))),
            "{name}"
        );
        assert_eq!(facts(reader.header()), want_header, "{name}: whole header");

        let mut buf = [0u8; SMALL];
        let (got, end, header) = block_on(async {
            let mut reader =
                AsyncReader::with_decoder(&bytes[..], &mut buf, teehistorian::Decoder::new());
            let mut got = Vec::new();
            while let Some(Ok(item)) = reader.next().await {
                if let teehistorian::Item::Message(record) = item {
                    got.push(th_key(&record));
                }
            }
            (got, reader.end(), facts(reader.header()))
        });
        assert_eq!(
            (&got, end, header),
            (&want, want_end, want_header),
            "{name}: AsyncReader"
        );
        compared += 1;
    }
    assert!(compared > 0, "no corpus recording decoded");
}

#[test]
fn slippi_through_embedded_readers() {
    let Some(files) = common::corpus_files("slippi_through_embedded_readers", "slippi", ".slp")
    else {
        return;
    };
    for (name, bytes) in &files {
        let mut iter = SlippiEventIter::new(bytes);
        let want: Vec<String> = iter
            .by_ref()
            .map_while(Result::ok)
            .map(|e| format!("{e:?}"))
            .collect();
        let want_end = iter.end();
        // The raw length as the file's bytes 11..15 declare it, after the
        // 11-byte signature.
        let raw_len = (bytes.len() >= 15 && bytes.starts_with(b"{U\x03raw[$U#l"))
            .then(|| u32::from_be_bytes(bytes[11..15].try_into().unwrap()));

        let mut buf = [0u8; SMALL];
        let mut reader = EmbeddedReader::with_decoder(&bytes[..], &mut buf, slippi::Decoder::new());
        assert_eq!(reader.header(), None, "{name}: before the first record");
        let mut got = Vec::new();
        while let Some(Ok(item)) = reader.next() {
            if let slippi::Item::Event(event) = item {
                got.push(format!("{event:?}"));
            }
        }
        assert_eq!(got.len(), want.len(), "{name}: EmbeddedReader event count");
        assert_eq!(
            reader.header().map(slippi::SlippiHeader::raw_len),
            raw_len,
            "{name}: header()"
        );
        assert_eq!(
            (&got, reader.end()),
            (&want, want_end),
            "{name}: EmbeddedReader"
        );

        let mut buf = [0u8; SMALL];
        let (got, end, header) = block_on(async {
            let mut reader =
                AsyncReader::with_decoder(&bytes[..], &mut buf, slippi::Decoder::new());
            let mut got = Vec::new();
            while let Some(Ok(item)) = reader.next().await {
                if let slippi::Item::Event(event) = item {
                    got.push(format!("{event:?}"));
                }
            }
            (got, reader.end(), reader.header().map(|h| h.raw_len()))
        });
        assert_eq!(
            (&got, end, header),
            (&want, want_end, raw_len),
            "{name}: AsyncReader"
        );
    }
}

#[test]
fn demos_through_embedded_readers() {
    let Some(files) =
        common::corpus_files("demos_through_embedded_readers", "teeworlds/demos", ".demo")
    else {
        return;
    };
    for (name, bytes) in &files {
        let Ok(view) = DemoView::parse(bytes) else {
            continue;
        };
        let mut iter: DemoChunkIter<'_> = view.chunks();
        let want: Vec<String> = iter
            .by_ref()
            .map_while(Result::ok)
            .map(|c| format!("{c:?}"))
            .collect();
        let want_end = iter.end();
        // The largest chunk, or the header: what the buffer must hold.
        let mut largest = demo::DemoHeader::MAX_LEN;
        let mut sizes = view.chunks();
        let mut at = sizes.offset();
        while let Some(Ok(_)) = sizes.next() {
            largest = largest.max(sizes.offset() - at);
            at = sizes.offset();
        }
        // Chunks and the map's bytes, the header's facts.
        type Got = (Vec<String>, Vec<u8>, Option<demo::DemoHeader>);
        fn keep(got: &mut Got, item: demo::Item<'_>) {
            match item {
                demo::Item::Header { .. } => {}
                demo::Item::MapPiece { bytes, .. } => got.1.extend_from_slice(bytes),
                demo::Item::Chunk(chunk) => got.0.push(format!("{chunk:?}")),
            }
        }
        let want = (want, view.map_data().to_vec(), Some(view.header().clone()));
        let mut buf = vec![0u8; largest];
        let mut reader = EmbeddedReader::with_decoder(&bytes[..], &mut buf, demo::Decoder::new());
        let mut got = Got::default();
        while let Some(Ok(item)) = reader.next() {
            keep(&mut got, item);
        }
        got.2 = reader.header().cloned();
        assert!(
            (&got, reader.end()) == (&want, want_end),
            "{name}: EmbeddedReader with demo::Decoder"
        );

        let mut buf = vec![0u8; largest];
        let (got, end) = block_on(async {
            let mut reader = AsyncReader::with_decoder(&bytes[..], &mut buf, demo::Decoder::new());
            let mut got = Got::default();
            while let Some(Ok(item)) = reader.next().await {
                keep(&mut got, item);
            }
            got.2 = reader.header().cloned();
            (got, reader.end())
        });
        assert!(
            (&got, end) == (&want, want_end),
            "{name}: AsyncReader with demo::Decoder"
        );
    }
}
