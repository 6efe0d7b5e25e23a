//! Small buffers and stages from any source, on every corpus stream file.
//!
//! - Every teehistorian recording (`teeworlds/teehistorian`, not `large/`)
//!   and every Slippi replay decodes through its push decoder with a
//!   4 KiB buffer — the teehistorian header (about 4.2 KiB in DDNet's
//!   recordings) in pieces — to the same records and the same ending as
//!   the slice iterator; so does the std `Reader` with a fixed 4 KiB
//!   buffer.
//! - Every demo's chunk stream decodes through the push decoder with a
//!   buffer exactly as long as its largest chunk (and not with one byte
//!   less), and through the demo `Reader` with a fixed buffer of that size
//!   (or of the header's, if larger).
//! - The stages: Slippi frame grouping fed from a `Reader` gives the frames
//!   `slippi::Frames` gives over the slice, and demo snapshot
//!   reconstruction fed from a demo `Reader` gives the frames
//!   `demo::Frames` gives.
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::panic,
    reason = "tests: a panic is the failure report"
)]

use crate::common;

use gamefmt::demo::{self, DemoView, OwnedBuffers};
use gamefmt::slippi::{self, Event, FrameGrouper, SlippiEventIter};
use gamefmt::stream::{Decoded, Decoder, End};
use gamefmt::teehistorian::{self, Header, Item, TeehistorianIter};

/// The caller's buffer of the embedded hosts the design targets.
const SMALL: usize = 4096;

/// Feeds `bytes` to `decoder` through a buffer of `cap` bytes (refilled
/// as a caller with that much memory would), handing every record to
/// `each`; the ending, or `None` when a record does not fit the buffer.
fn push_through<D: Decoder>(
    mut decoder: D,
    bytes: &[u8],
    cap: usize,
    mut each: impl FnMut(D::Record<'_>),
) -> Option<End> {
    let mut buf = vec![0u8; cap];
    let (mut start, mut filled, mut fed) = (0, 0, 0);
    loop {
        let need_more = match decoder.decode(&buf[start..filled]) {
            Ok(Decoded::Record { record, consumed }) => {
                each(record);
                start += consumed;
                false
            }
            Ok(Decoded::Done { consumed }) => {
                start += consumed;
                return Some(decoder.end(filled - start));
            }
            Err(_) => return Some(decoder.end(filled - start)),
            Ok(Decoded::NeedMore { .. }) => true,
        };
        if !need_more {
            continue;
        }
        buf.copy_within(start..filled, 0);
        filled -= start;
        start = 0;
        if filled == cap {
            // Full: what the format delivers in pieces, or stuck.
            let (record, consumed) = decoder.decode_piece(&buf[..filled]).ok()??;
            each(record);
            start += consumed;
        } else if fed == bytes.len() {
            return Some(decoder.end(filled));
        } else {
            let n = (cap - filled).min(bytes.len() - fed);
            buf[filled..filled + n].copy_from_slice(&bytes[fed..fed + n]);
            filled += n;
            fed += n;
        }
    }
}

/// What a teehistorian stream delivered: the header JSON (joined from
/// its pieces, if any) and every message, as text.
#[derive(Debug, Default, PartialEq)]
struct Teehistorian {
    header: Vec<u8>,
    pieces: usize,
    messages: Vec<String>,
}

impl Teehistorian {
    fn add(&mut self, item: Item<'_>) {
        match item {
            Item::Header(h) => self.header.extend_from_slice(h.json().as_bytes()),
            Item::HeaderPiece { json, .. } => {
                self.header.extend_from_slice(json);
                self.pieces += 1;
            }
            Item::Message(r) => self.messages.push(format!("{r:?}")),
        }
    }
}

#[test]
fn teehistorian_in_4_kib() {
    let Some(files) = common::corpus_files(
        "teehistorian_in_4_kib",
        "teeworlds/teehistorian",
        ".teehistorian",
    ) else {
        return;
    };
    let mut pieced = 0;
    for (name, bytes) in &files {
        let mut iter = match TeehistorianIter::new(bytes) {
            Ok(iter) => iter,
            Err(e) => {
                let end = push_through(teehistorian::Decoder::new(), bytes, SMALL, |_| {});
                assert_eq!(end, Some(End::Damaged(e)), "{name}: push");
                continue;
            }
        };
        let mut want = Teehistorian {
            header: iter.header().json().as_bytes().to_vec(),
            ..Teehistorian::default()
        };
        for r in iter.by_ref() {
            want.messages.push(format!("{:?}", r.unwrap()));
        }
        let want_end = iter.end();

        let mut got = Teehistorian::default();
        let end = push_through(teehistorian::Decoder::new(), bytes, SMALL, |i| got.add(i));
        assert_eq!(end, Some(want_end), "{name}: push ending");
        // A header longer than the buffer came in pieces, and parses.
        if want.header.len() + 17 > SMALL {
            assert!(got.pieces >= 2, "{name}: {} pieces", got.pieces);
            Header::parse(std::str::from_utf8(&got.header).unwrap()).unwrap();
            pieced += 1;
        }
        got.pieces = 0;
        assert!(got == want, "{name}: push records");

        let mut reader = teehistorian::Reader::with_capacity(&bytes[..], SMALL);
        let mut got = Teehistorian::default();
        while let Some(item) = reader.next() {
            got.add(item.unwrap());
        }
        assert_eq!(reader.end(), want_end, "{name}: reader ending");
        assert_eq!(reader.capacity(), SMALL, "{name}: the reader's buffer grew");
        got.pieces = 0;
        assert!(got == want, "{name}: reader records");
    }
    // SOURCES.md: DDNet's headers are 4,175–4,222 bytes.
    if common::shared_corpus() {
        assert!(pieced >= 4, "only {pieced} headers over 4 KiB");
    }
}

#[test]
fn slippi_in_4_kib() {
    let Some(files) = common::corpus_files("slippi_in_4_kib", "slippi", ".slp") else {
        return;
    };
    let mut checked = 0;
    for (name, bytes) in &files {
        let mut iter = SlippiEventIter::new(bytes);
        let mut want = Vec::new();
        for e in iter.by_ref() {
            let Ok(e) = e else { break };
            want.push((e.code(), e.payload().to_vec()));
        }
        let want_end = iter.end();

        let mut got = Vec::new();
        let end = push_through(slippi::Decoder::new(), bytes, SMALL, |item| {
            if let slippi::Item::Event(e) = item {
                got.push((e.code(), e.payload().to_vec()));
            }
        });
        assert_eq!(end, Some(want_end), "{name}: push ending");
        assert!(got == want, "{name}: push events");

        let mut reader = slippi::Reader::with_capacity(&bytes[..], SMALL);
        let mut got = Vec::new();
        while let Some(item) = reader.next() {
            let Ok(item) = item else { break };
            if let slippi::Item::Event(e) = item {
                got.push((e.code(), e.payload().to_vec()));
            }
        }
        assert_eq!(reader.end(), want_end, "{name}: reader ending");
        assert!(got == want, "{name}: reader events");
        checked += 1;
    }
    if common::shared_corpus() {
        assert!(checked >= 60, "only {checked} files");
    }
}

#[test]
fn demos_in_their_largest_chunk() {
    let Some(files) =
        common::corpus_files("demos_in_their_largest_chunk", "teeworlds/demos", ".demo")
    else {
        return;
    };
    let mut checked = 0;
    for (name, bytes) in &files {
        let Ok(view) = DemoView::parse(bytes) else {
            continue;
        };
        let mut chunks = view.chunks();
        let mut want = Vec::new();
        let mut largest = 1;
        let mut at = chunks.offset();
        while let Some(c) = chunks.next() {
            let Ok(c) = c else { break };
            want.push(format!("{c:?}"));
            largest = largest.max(chunks.offset() - at);
            at = chunks.offset();
        }
        let want_end = chunks.end();
        let stream = &bytes[view.chunks_offset()..];
        let decoder = view.header().chunk_decoder();
        let mut got = Vec::new();
        let end = push_through(decoder, stream, largest, |c| got.push(format!("{c:?}")));
        assert_eq!(end, Some(want_end), "{name}: ending with {largest} bytes");
        assert!(got == want, "{name}: chunks with {largest} bytes");
        // The demo Reader with a fixed buffer that holds the header and
        // the largest chunk.
        let cap = largest.max(demo::DemoHeader::MAX_LEN);
        let mut reader = demo::Reader::with_capacity(&bytes[..], cap);
        let mut got = Vec::new();
        while let Some(item) = reader.next() {
            let Ok(item) = item else { break };
            if let demo::Item::Chunk(c) = item {
                got.push(format!("{c:?}"));
            }
        }
        assert_eq!(
            reader.end(),
            want_end,
            "{name}: reader ending with {cap} bytes"
        );
        assert!(got == want, "{name}: reader chunks with {cap} bytes");
        if largest > 1 && want_end == End::Complete {
            let decoder = view.header().chunk_decoder();
            let end = push_through(decoder, stream, largest - 1, |_| {});
            assert_eq!(end, None, "{name}: {} bytes sufficed", largest - 1);
        }
        checked += 1;
    }
    if common::shared_corpus() {
        assert!(checked >= 8, "only {checked} demos");
    }
}

/// A frame as compared: number, rollback flag, and its events' bytes,
/// sorted.
type OwnedFrame = (i32, bool, Vec<Vec<u8>>);

fn event_bytes(e: &Event<'_>) -> Vec<u8> {
    let mut v = vec![e.code()];
    v.extend_from_slice(e.payload());
    v
}

#[test]
fn slippi_frames_from_a_reader() {
    let Some(files) = common::corpus_files("slippi_frames_from_a_reader", "slippi", ".slp") else {
        return;
    };
    let mut frames_checked = 0;
    for (name, bytes) in files.iter().filter(|(n, _)| !n.starts_with("bad_")) {
        // The slice: slippi::Frames.
        let mut frames = slippi::Frames::new(bytes);
        let mut want: Vec<OwnedFrame> = Vec::new();
        let mut overflow = 0;
        for f in frames.by_ref() {
            let Ok(f) = f else { break };
            let mut events: Vec<Vec<u8>> = Vec::new();
            events.extend(f.start.map(|e| event_bytes(&Event::FrameStart(e))));
            events.extend(f.bookend.map(|e| event_bytes(&Event::FrameBookend(e))));
            for (_, _, c) in f.characters() {
                events.extend(c.pre.map(|e| event_bytes(&Event::PreFrame(e))));
                events.extend(c.post.map(|e| event_bytes(&Event::PostFrame(e))));
            }
            events.extend(f.items.iter().map(|e| event_bytes(&Event::ItemUpdate(*e))));
            events.extend(f.stage_events.iter().map(event_bytes));
            events.sort();
            overflow += f.overflow;
            want.push((f.number, f.is_rollback, events));
        }
        let want_game_end = frames.game_end().map(|g| g.bytes().to_vec());

        // The stage fed from a Reader with a small buffer.
        let mut reader = slippi::Reader::with_capacity(&bytes[..], SMALL);
        let mut grouper = FrameGrouper::new();
        let mut got: Vec<OwnedFrame> = Vec::new();
        let mut open: Vec<Vec<u8>> = Vec::new();
        let mut game_end = None;
        let close = |c: slippi::ClosedFrame, events: &mut Vec<Vec<u8>>, got: &mut Vec<_>| {
            let mut events = std::mem::take(events);
            events.sort();
            got.push((c.number, c.is_rollback, events));
        };
        while let Some(item) = reader.next() {
            let Ok(slippi::Item::Event(event)) = item else {
                continue;
            };
            if let Event::GameEnd(g) = event {
                game_end = Some(g.bytes().to_vec());
            }
            let placed = grouper.push(&event);
            if let Some(c) = placed.closes {
                close(c, &mut open, &mut got);
            }
            if placed.frame.is_some() {
                open.push(event_bytes(&event));
            }
            if let Some(c) = placed.completes {
                close(c, &mut open, &mut got);
            }
        }
        if let Some(c) = grouper.finish() {
            close(c, &mut open, &mut got);
        }
        assert_eq!(got.len(), want.len(), "{name}: frames");
        if overflow == 0 {
            assert!(got == want, "{name}: frames differ");
        }
        assert_eq!(game_end, want_game_end, "{name}: Game End");
        frames_checked += got.len();
    }
    assert!(frames_checked > 10_000, "only {frames_checked} frames");
}

#[test]
fn demo_frames_from_a_reader() {
    let Some(files) = common::corpus_files("demo_frames_from_a_reader", "teeworlds/demos", ".demo")
    else {
        return;
    };
    let mut owned = OwnedBuffers::new();
    let mut frames_checked = 0;
    for (name, bytes) in &files {
        let Ok(view) = DemoView::parse(bytes) else {
            continue;
        };
        let summary = |f: &demo::Frame<'_>| {
            let ints: Vec<i32> = f.snapshot.as_ints().iter().map(|i| i.get()).collect();
            (f.tick, f.keyframe, ints)
        };
        let mut frames = demo::Frames::new(&view, owned.buffers());
        let mut want = Vec::new();
        while let Some(f) = frames.next() {
            let Ok(f) = f else { break };
            want.push(summary(&f));
        }

        let mut reader = demo::Reader::new(&bytes[..]);
        reader.next().unwrap().unwrap(); // the header
        let mut buffers = OwnedBuffers::new();
        let sizes = reader.header().unwrap().item_sizes();
        let mut rec = demo::Reconstructor::new(buffers.buffers(), sizes);
        let mut got = Vec::new();
        let mut failed = false;
        while let Some(item) = reader.next() {
            let Ok(item) = item else {
                failed = true;
                break;
            };
            let demo::Item::Chunk(chunk) = item else {
                continue; // the map's pieces
            };
            match rec.push(&chunk) {
                Ok(Some(f)) => got.push(summary(&f)),
                Ok(None) => {}
                Err(_) => {
                    failed = true;
                    break;
                }
            }
        }
        // As demo::Frames: the last tick's frame, unless decoding failed.
        if let Some(f) = rec.finish().filter(|_| !failed) {
            got.push(summary(&f));
        }
        assert!(
            got == want,
            "{name}: {} frames, want {}",
            got.len(),
            want.len()
        );
        frames_checked += got.len();
    }
    assert!(frames_checked > 1000, "only {frames_checked} frames");
}

/// The oracle of [`Decoder::need_more`]: a decode on a copy of the decoder
/// (what the readers did before each format answered from its framing).
fn need_more_on_copy<D: Decoder + Clone>(decoder: &D, input: &[u8]) -> Option<Option<usize>> {
    match decoder.clone().decode(input) {
        Ok(Decoded::NeedMore { needed }) => Some(needed),
        _ => None,
    }
}

/// Walks `bytes` record by record with `decoder`; before each record,
/// `need_more` answers as a decode on a copy would for every prefix of the
/// rest up to the record's length and a few bytes more, and for the whole
/// rest (and, after damage, for whatever follows): before the first 300
/// records and every 97th after (a debug build checks a corpus in
/// seconds). Returns the prefixes checked.
fn need_more_matches<D: Decoder + Clone>(name: &str, mut decoder: D, bytes: &[u8]) -> usize {
    let (mut at, mut checked, mut records) = (0, 0, 0usize);
    loop {
        let rest = &bytes[at..];
        records += 1;
        if records > 300 && records % 97 != 0 {
            match decoder.decode(rest) {
                Ok(Decoded::Record { consumed, .. }) if consumed > 0 => at += consumed,
                _ => return checked,
            }
            continue;
        }
        let consumed = match decoder.clone().decode(rest) {
            Ok(Decoded::Record { consumed, .. }) => consumed,
            _ => rest.len(),
        };
        let mut lengths: Vec<usize> = (0..=rest.len().min(consumed + 3)).collect();
        lengths.push(rest.len());
        for n in lengths {
            assert_eq!(
                decoder.need_more(&rest[..n]),
                need_more_on_copy(&decoder, &rest[..n]),
                "{name}: at {at}, {n} bytes"
            );
            checked += 1;
        }
        match decoder.decode(rest) {
            Ok(Decoded::Record { consumed, .. }) if consumed > 0 => at += consumed,
            _ => return checked,
        }
    }
}

/// Every format's `need_more` (asked by every reader before it decodes)
/// is told from the framing, without a copy of the decoder, and answers as
/// a decode on a copy does: on the crate's samples, every corpus
/// teehistorian recording, Slippi replay and demo, and cut and damaged
/// forms of the samples.
#[test]
fn need_more_from_framing_equals_decode_on_copy() {
    let mut checked = 0;
    let damaged = |sample: &[u8]| {
        let mut out = vec![sample.to_vec(), sample[..sample.len() / 2].to_vec()];
        for at in [0, 5, 16, 20, sample.len() / 3, sample.len() - 3] {
            let mut d = sample.to_vec();
            d[at] ^= 0x5A;
            out.push(d);
        }
        out
    };
    for bytes in damaged(teehistorian::SAMPLE) {
        checked += need_more_matches("sample", teehistorian::Decoder::new(), &bytes);
    }
    for bytes in damaged(slippi::SAMPLE) {
        checked += need_more_matches("sample", slippi::Decoder::new(), &bytes);
    }
    let th = common::corpus_files("need_more", "teeworlds/teehistorian", ".teehistorian");
    for (name, bytes) in th.iter().flatten() {
        checked += need_more_matches(name, teehistorian::Decoder::new(), bytes);
    }
    let slp = common::corpus_files("need_more", "slippi", ".slp");
    for (name, bytes) in slp.iter().flatten() {
        checked += need_more_matches(name, slippi::Decoder::new(), bytes);
    }
    let demos = common::corpus_files("need_more", "teeworlds/demos", ".demo");
    for (name, bytes) in demos.iter().flatten() {
        let Ok(view) = DemoView::parse(bytes) else {
            continue;
        };
        let header = view.header();
        let start = header.chunks_offset();
        checked += need_more_matches(name, header.chunk_decoder(), &bytes[start..]);
        // The whole file: the header at every length, the map, the chunks.
        checked += need_more_matches(name, demo::Decoder::new(), bytes);
    }
    assert!(checked > 1000, "{checked}");
    println!("need_more: {checked} prefixes checked");
}
