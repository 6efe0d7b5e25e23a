//! Slippi throughput over the corpus replays, in bytes of input per second.
//!
//! `cargo bench --bench slippi`. Skips (prints why) when the corpus folder
//! is absent.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "common/slippi_fields.rs"]
mod slippi_fields;

use divan::counter::BytesCount;
use gamefmt::slippi::{Event, GeckoList, Reassembler, SlippiEventIter, SlippiView};
use slippi_fields::{AsF64, Bits, Fold, read_all, read_all_call};

fn main() {
    divan::main();
}

/// Every corpus replay that decodes to the end, loaded once.
fn replays() -> &'static [(String, Vec<u8>)] {
    static FILES: std::sync::OnceLock<Vec<(String, Vec<u8>)>> = std::sync::OnceLock::new();
    FILES.get_or_init(|| {
        common::corpus_files("bench slippi", "slippi", ".slp")
            .unwrap_or_default()
            .into_iter()
            .filter(|(_, b)| SlippiEventIter::new(b).all(|e| e.is_ok()))
            .collect()
    })
}

fn total_bytes() -> usize {
    replays().iter().map(|(_, b)| b.len()).sum()
}

/// Walks every event by its declared size (command byte only).
#[divan::bench]
fn event_walk(bencher: divan::Bencher) {
    bencher.counter(BytesCount::new(total_bytes())).bench(|| {
        let mut n = 0usize;
        for (_, bytes) in replays() {
            for e in SlippiEventIter::new(divan::black_box(bytes)) {
                n += usize::from(e.unwrap().code());
            }
        }
        n
    });
}

/// Every field of every event through the typed views, the Gecko list
/// reassembled and walked, and the metadata read; each field as an `f64`
/// through a call per event (the consumer of the first rounds).
#[divan::bench]
fn full_decode(bencher: divan::Bencher) {
    full::<AsF64, false>(bencher);
}

/// The same with each field's own bits, the reads inlined into the loop.
#[divan::bench]
fn full_decode_bits(bencher: divan::Bencher) {
    full::<Bits, true>(bencher);
}

fn full<A: Fold + Copy + Default, const INLINE: bool>(bencher: divan::Bencher) {
    let mut buf = vec![0u8; 1 << 17];
    bencher
        .counter(BytesCount::new(total_bytes()))
        .bench_local(|| {
            let mut acc = A::default();
            for (_, bytes) in replays() {
                let bytes = divan::black_box(bytes);
                if let Ok(Some(m)) = SlippiView::parse(bytes).unwrap().metadata() {
                    acc.f(m.last_frame().map(|v| v as f64));
                }
                let mut gecko = Reassembler::new(&mut buf);
                for e in SlippiEventIter::new(bytes) {
                    let e = e.unwrap();
                    if let Event::MessageSplitter(s) = e {
                        if gecko.push(&s).unwrap() {
                            let (_, list) = gecko.message().unwrap();
                            acc.f(Some(GeckoList::new(list).codes().count() as u32));
                        }
                    }
                    if INLINE {
                        read_all(&e, &mut acc);
                    } else {
                        read_all_call(&e, &mut acc);
                    }
                }
            }
            acc
        });
}
