//! Teehistorian on arbitrary bytes: no panic through the slice iterator,
//! EX payload decoding and player state; `fold` agrees with `next`; the
//! push decoder fed in pieces of varying size agrees with the iterator;
//! whatever decoded, written back by TeehistorianWriter, decodes to the
//! same messages at the same ticks.
#![no_main]

use gamefmt::stream::{Decoded, End};
use gamefmt::teehistorian::{
    Decoder, Item, Message, PlayerState, Record, TeehistorianIter, TeehistorianWriter,
};
use libfuzzer_sys::fuzz_target;

/// Every record up to the first error, and the ending if there was one.
fn decode_all(bytes: &[u8]) -> Option<(Vec<Record<'_>>, End)> {
    let mut iter = TeehistorianIter::new(bytes).ok()?;
    let records = iter.by_ref().map_while(Result::ok).collect();
    Some((records, iter.end()))
}

fuzz_target!(|bytes: &[u8]| {
    let Some((records, end)) = decode_all(bytes) else {
        return;
    };

    // `fold` (its own loop for the common messages) yields what `next`
    // yields, the error that stops it included.
    let by_next: Vec<_> = TeehistorianIter::new(bytes).unwrap().collect();
    let by_fold = TeehistorianIter::new(bytes)
        .unwrap()
        .fold(Vec::new(), |mut v, item| {
            v.push(item);
            v
        });
    assert_eq!(by_fold, by_next);
    let mut players = PlayerState::<128>::new();
    for r in &records {
        let _ = players.apply(&r.message);
        if let Message::Ex(ex) = r.message {
            let _ = ex.parse();
        }
    }

    // The push decoder, fed the input in pieces, yields the same records.
    let mut decoder = Decoder::new();
    let mut pending = Vec::new();
    let mut seen = 0;
    'feed: for piece in gamefmt_fuzz::pieces(bytes).into_iter().chain([&[][..]]) {
        pending.extend_from_slice(piece);
        let mut used = 0;
        loop {
            match decoder.decode(&pending[used..]) {
                Ok(Decoded::Record {
                    record: Item::Message(record),
                    consumed,
                }) => {
                    assert_eq!(Some(&record), records.get(seen));
                    seen += 1;
                    used += consumed;
                }
                Ok(Decoded::Record { consumed, .. }) => used += consumed,
                Ok(Decoded::NeedMore { .. } | Decoded::Done { .. }) => break,
                Err(_) => break 'feed,
            }
        }
        pending.drain(..used);
    }
    assert_eq!(seen, records.len());

    // Writing back: TICK_SKIPs are derived again, everything else is equal.
    // (Opening reads the header's version alone; one that is not valid
    // JSON as a whole, which the writer refuses, is only checked to fail
    // without a panic in each of its parses.)
    let header = TeehistorianIter::new(bytes).unwrap().header();
    if header.validate().is_err() {
        let _ = (header.map_name(), header.config("sv_map"), header.version_minor());
        return;
    }
    let mut w = TeehistorianWriter::new(header.json()).unwrap();
    for r in &records {
        w.write(r.tick, &r.message).unwrap();
    }
    let written = w.into_bytes();
    let (back, back_end) = decode_all(&written).unwrap();
    assert_eq!(strip(&back), strip(&records));
    if end == End::Complete {
        assert_eq!(back_end, End::Complete);
    }
});

/// The records other than TICK_SKIP, with their ticks.
fn strip<'a>(rs: &[Record<'a>]) -> Vec<(i32, Message<'a>)> {
    rs.iter()
        .filter(|r| !matches!(r.message, Message::TickSkip { .. }))
        .map(|r| (r.tick, r.message))
        .collect()
}
