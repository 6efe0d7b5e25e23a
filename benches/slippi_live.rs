//! `slippi::live` throughput: every corpus replay sent as a console would
//! (replay messages of 512 bytes), received in 4 KiB reads, framed, split
//! into games and decoded to events; counted in game frames (a game is
//! 3,600 frames a minute), without and with slippi-js's stats computed
//! live. `cargo bench --bench slippi_live`. Skips (prints
//! why) when the corpus folder is absent.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

#[path = "../tests/common/mod.rs"]
mod common;

use divan::counter::ItemsCount;
use gamefmt::slippi::live::{
    ConsoleDecoder, ConsoleMessage, Continuity, FeedItem, GameFeed, Replay, encode_message,
};
use gamefmt::slippi::{SlippiEventIter, SlippiStats, SlippiView};
use gamefmt::stream::Decoded;

fn main() {
    divan::main();
}

/// (wire bytes, frames) of every corpus replay that decodes whole and has
/// a last frame.
fn feeds() -> &'static [(Vec<u8>, u64)] {
    static FEEDS: std::sync::OnceLock<Vec<(Vec<u8>, u64)>> = std::sync::OnceLock::new();
    FEEDS.get_or_init(|| {
        let mut out = Vec::new();
        let mut buf = vec![0u8; 1 << 12];
        for (_, file) in
            common::corpus_files("bench slippi_live", "slippi", ".slp").unwrap_or_default()
        {
            if !SlippiEventIter::new(&file).all(|e| e.is_ok()) {
                continue;
            }
            let view = SlippiView::parse(&file).unwrap();
            let Some(last) = view.metadata().ok().flatten().and_then(|m| m.last_frame()) else {
                continue;
            };
            let mut wire = Vec::new();
            let mut pos = 0u64;
            for data in view.raw().chunks(512) {
                let next = pos + data.len() as u64;
                let m = ConsoleMessage::Replay(Replay {
                    pos: pos.to_be_bytes(),
                    next_pos: next.to_be_bytes(),
                    force_pos: false,
                    data,
                    continuity: Continuity::Continuous,
                });
                let n = encode_message(&m, &mut buf).unwrap();
                wire.extend_from_slice(&buf[..n]);
                pos = next;
            }
            out.push((wire, u64::try_from(last + 124).unwrap_or(0)));
        }
        out
    })
}

/// Framing, cursor checks, game split and event decode, as a client
/// reading a socket would run them.
#[divan::bench]
fn console_feed(bencher: divan::Bencher) {
    feed_bench(bencher, false);
}

/// The same, and slippi-js's stats computed live ([`SlippiStats`]: stocks,
/// combos, conversions, actions, inputs) from every event, as
/// `gamefmt watch` runs it.
#[divan::bench]
fn console_feed_stats(bencher: divan::Bencher) {
    feed_bench(bencher, true);
}

fn feed_bench(bencher: divan::Bencher, with_stats: bool) {
    let frames: u64 = feeds().iter().map(|f| f.1).sum();
    bencher.counter(ItemsCount::new(frames)).bench(|| {
        let mut events = 0usize;
        let (mut pending, mut replay) = (Vec::with_capacity(1 << 13), Vec::with_capacity(1 << 17));
        for (wire, _) in feeds() {
            let (mut console, mut feed) = (ConsoleDecoder::new(), GameFeed::new());
            let mut stats = SlippiStats::new();
            pending.clear();
            replay.clear();
            for read in divan::black_box(wire).chunks(4096) {
                pending.extend_from_slice(read);
                let mut used = 0;
                while let Decoded::Record { record, consumed } =
                    console.decode(&pending[used..]).unwrap()
                {
                    used += consumed;
                    if let Some(data) = record.replay_bytes() {
                        replay.extend_from_slice(data);
                    }
                }
                pending.drain(..used);
                let mut at = 0;
                while let Decoded::Record { record, consumed } = feed.decode(&replay[at..]).unwrap()
                {
                    at += consumed;
                    if let FeedItem::Event(e) = record {
                        events += usize::from(e.code() != 0);
                        if with_stats {
                            stats.push(&e);
                        }
                    }
                }
                replay.drain(..at);
            }
            events += stats.stocks().len();
        }
        events
    });
}
