//! The teehistorian core paths (slice iterator, push decoder over a fixed
//! buffer, header access, EX payload decoding, player state) allocate
//! nothing: proven with a counting global allocator.
#![allow(
    unsafe_code,
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use crate::common;

use crate::counting_alloc::allocations_during;
use gamefmt::stream::{Decoded, End};
use gamefmt::teehistorian::{Decoder, Item, Message, PlayerState, SAMPLE, TeehistorianIter};

/// Slice iteration with header access, EX decoding and player state.
fn walk(bytes: &[u8]) -> (usize, Option<End>) {
    let Ok(mut iter) = TeehistorianIter::new(bytes) else {
        return (0, None);
    };
    let header = iter.header();
    let mut config = 0;
    let _ = header.for_each_config(|_, _| config += 1);
    let _ = (
        header.game_uuid(),
        header.map_sha256(),
        header.tuning("gravity"),
    );
    let mut players = PlayerState::<128>::new();
    let mut n = 0;
    for r in iter.by_ref() {
        let Ok(r) = r else { break };
        let _ = players.apply(&r.message);
        if let Message::Ex(ex) = r.message {
            let _ = ex.parse();
        }
        n += 1;
    }
    (n, Some(iter.end()))
}

/// The push decoder fed 1000-byte chunks through an 8 KiB stack buffer.
fn push(bytes: &[u8]) -> (usize, End) {
    let mut buf = [0u8; 8192];
    let (mut filled, mut fed, mut n) = (0usize, 0usize, 0usize);
    let mut decoder = Decoder::new();
    loop {
        let take = (bytes.len() - fed).min(1000).min(buf.len() - filled);
        buf[filled..filled + take].copy_from_slice(&bytes[fed..fed + take]);
        filled += take;
        fed += take;
        let mut used = 0;
        loop {
            match decoder.decode(&buf[used..filled]) {
                Ok(Decoded::Record {
                    record: Item::Header(_),
                    consumed,
                }) => used += consumed,
                Ok(Decoded::Record { consumed, .. }) => {
                    n += 1;
                    used += consumed;
                }
                Ok(Decoded::NeedMore { .. } | Decoded::Done { .. }) => break,
                Err(_) => return (n, decoder.end(0)),
            }
        }
        buf.copy_within(used..filled, 0);
        filled -= used;
        if fed == bytes.len() {
            return (n, decoder.end(filled));
        }
    }
}

#[test]
fn sample_allocates_nothing() {
    let ((n, end), allocs) = allocations_during(|| walk(SAMPLE));
    assert_eq!((n, end, allocs), (8, Some(End::Complete), 0));
    let ((n, end), allocs) = allocations_during(|| push(SAMPLE));
    assert_eq!((n, end, allocs), (8, End::Complete, 0));
}

#[test]
fn corpus_recordings_allocate_nothing() {
    let Some(files) = common::corpus_files(
        "corpus_recordings_allocate_nothing",
        "teeworlds/teehistorian",
        ".teehistorian",
    ) else {
        return;
    };
    let mut total = 0;
    for (name, bytes) in &files {
        let ((n, end), allocs) = allocations_during(|| walk(bytes));
        assert_eq!(allocs, 0, "{name}");
        let ((pushed, push_end), allocs) = allocations_during(|| push(bytes));
        assert_eq!(allocs, 0, "{name}");
        if end.is_some() {
            assert_eq!((pushed, Some(push_end)), (n, end), "{name}");
        }
        total += n;
    }
    if common::shared_corpus() {
        assert!(total > 400_000, "only {total} messages");
    }
}
