//! The `embedded-io` readers on every corpus stream file, on the host:
//! `stream::EmbeddedReader` (blocking) and `stream::AsyncReader` (driven
//! here by a minimal executor) with a 4 KiB caller buffer give the records
//! and the ending of the slice iterators; the demo readers with a buffer
//! of the demo's largest chunk give its chunks. (tests/embedded runs the
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

        let mut buf = [0u8; SMALL];
        let mut reader =
            EmbeddedReader::with_decoder(&bytes[..], &mut buf, teehistorian::Decoder::new());
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

        let mut buf = [0u8; SMALL];
        let (got, end) = block_on(async {
            let mut reader =
                AsyncReader::with_decoder(&bytes[..], &mut buf, teehistorian::Decoder::new());
            let mut got = Vec::new();
            while let Some(Ok(item)) = reader.next().await {
                if let teehistorian::Item::Message(record) = item {
                    got.push(th_key(&record));
                }
            }
            (got, reader.end())
        });
        assert_eq!((&got, end), (&want, want_end), "{name}: AsyncReader");
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

        let mut buf = [0u8; SMALL];
        let mut reader = EmbeddedReader::with_decoder(&bytes[..], &mut buf, slippi::Decoder::new());
        let mut got = Vec::new();
        while let Some(Ok(item)) = reader.next() {
            if let slippi::Item::Event(event) = item {
                got.push(format!("{event:?}"));
            }
        }
        assert_eq!(got.len(), want.len(), "{name}: EmbeddedReader event count");
        assert_eq!(
            (&got, reader.end()),
            (&want, want_end),
            "{name}: EmbeddedReader"
        );

        let mut buf = [0u8; SMALL];
        let (got, end) = block_on(async {
            let mut reader =
                AsyncReader::with_decoder(&bytes[..], &mut buf, slippi::Decoder::new());
            let mut got = Vec::new();
            while let Some(Ok(item)) = reader.next().await {
                if let slippi::Item::Event(event) = item {
                    got.push(format!("{event:?}"));
                }
            }
            (got, reader.end())
        });
        assert_eq!((&got, end), (&want, want_end), "{name}: AsyncReader");
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
        let mut buf = vec![0u8; largest];
        let mut reader = demo::EmbeddedReader::new(&bytes[..], &mut buf).unwrap();
        let mut got = Vec::new();
        while let Some(Ok(chunk)) = reader.next() {
            got.push(format!("{chunk:?}"));
        }
        assert_eq!(
            (&got, reader.end()),
            (&want, want_end),
            "{name}: demo::EmbeddedReader"
        );

        let mut buf = vec![0u8; largest];
        let (got, end) = block_on(async {
            let mut reader = demo::AsyncReader::new(&bytes[..], &mut buf).await.unwrap();
            let mut got = Vec::new();
            while let Some(Ok(chunk)) = reader.next().await {
                got.push(format!("{chunk:?}"));
            }
            (got, reader.end())
        });
        assert_eq!((&got, end), (&want, want_end), "{name}: demo::AsyncReader");
    }
}
