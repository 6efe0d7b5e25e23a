//! Slippi on arbitrary bytes: no panic, no hang through SlippiView, the event
//! iterator (every typed accessor of every event), Frames, the splitter
//! reassemblers and the metadata. The push Decoder fed in pieces and the
//! std Reader yield the same events and ending as the slice iterator; the
//! events, written back by SlippiWriter, decode to the same events. The
//! stats (SlippiStats) of the events read through the Reader equal those
//! of the slice iterator's.
#![no_main]

use std::io;

use gamefmt::Error;
use gamefmt::slippi::{
    Decoder, Event, Frames, Item, Metadata, Reader, Reassembler, SlippiEventIter, SlippiStats,
    SlippiView, SlippiWriter, VecReassembler, ubjson,
};
use gamefmt::stream::{Decoded, End};
use gamefmt_fuzz::slippi::{touch_event, touch_frame, touch_game_end, touch_game_start};
use gamefmt_fuzz::{pieces, touch};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    // The slice iterator, the reference for everything below.
    let mut iter = SlippiEventIter::new(bytes);
    let mut events = Vec::new();
    let error = loop {
        match iter.next() {
            Some(Ok(e)) => events.push(e),
            None => break None,
            Some(Err(e)) => break Some(e),
        }
    };
    assert!(iter.next().is_none(), "fused after the end or an error");
    let ending = iter.end();

    let mut buf = vec![0u8; 1 << 16];
    let mut fixed = Reassembler::new(&mut buf);
    let mut grown = VecReassembler::new();
    for e in &events {
        touch_event(e);
        if let Event::MessageSplitter(s) = e {
            let a = fixed.push(s);
            let b = grown.push(s);
            if a.is_ok() {
                assert_eq!(a, b);
                assert_eq!(fixed.message(), grown.message());
            }
            if let Some((_, m)) = grown.message() {
                touch_event(&Event::GeckoList(gamefmt::slippi::GeckoList::new(m)));
            }
        }
    }

    for frame in Frames::new(bytes) {
        match frame {
            Ok(f) => touch_frame(&f),
            Err(e) => {
                assert_eq!(Some(e), error);
                break;
            }
        }
    }

    let view = SlippiView::parse(bytes);
    if let Ok(view) = &view {
        touch((view.raw(), view.declared_raw_len(), view.payload_sizes()));
        if let Ok(g) = view.game_start() {
            touch_game_start(&g);
        }
        if let Some(e) = view.game_end() {
            touch_game_end(&e);
        }
        if let Ok(Some(m)) = view.metadata() {
            gamefmt_fuzz::slippi::touch_metadata(&m);
        }
        assert_eq!(view.end(), ending);
        assert!(
            view.events()
                .map_while(Result::ok)
                .eq(events.iter().copied())
        );
    }

    // The push decoder, fed in pieces, agrees with the iterator.
    let (pushed, push_error, push_ending) = push(bytes);
    assert_eq!(pushed, events.iter().map(owned).collect::<Vec<_>>());
    assert_eq!(push_error, error);
    if error.is_none() {
        assert_eq!(push_ending, ending);
    }

    // The stats of the slice's events.
    let mut sliced = Box::new(SlippiStats::new());
    for e in &events {
        sliced.push(e);
    }
    sliced.finish();

    // The std Reader with a small buffer agrees too, stats included.
    let mut reader = Reader::with_capacity(io::Cursor::new(bytes), 64 + bytes.len() % 4096);
    let mut read = Box::new(SlippiStats::new());
    let mut seen = 0;
    let finished = loop {
        match reader.next() {
            Some(Ok(Item::Event(e))) => {
                assert_eq!(events.get(seen), Some(&e));
                read.push(&e);
                seen += 1;
            }
            Some(Ok(_)) => {}
            Some(Err(_)) => break false,
            None => break true,
        }
    };
    if finished {
        assert!(error.is_none());
        assert_eq!(seen, events.len());
        assert_eq!(reader.end(), ending);
        read.finish();
        assert_eq!(stats_summary(&read), stats_summary(&sliced));
    }

    // Re-encoding: the table, then every event after it.
    let Some((Event::EventPayloads(_), rest)) = events.split_first() else {
        return;
    };
    let Ok(view) = view else { return };
    let Ok(sizes) = view.payload_sizes() else {
        return;
    };
    let Ok(mut w) = SlippiWriter::new(&sizes) else {
        return;
    };
    for e in rest {
        w.event(e.code(), e.payload()).unwrap();
    }
    let meta = view
        .metadata_bytes()
        .filter(|m| ubjson::value_len(m).is_ok_and(|n| n == m.len()));
    let written = w.finish(meta).unwrap();
    let back: Vec<Event<'_>> = SlippiEventIter::new(&written)
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(&back[1..], rest);
    let back_view = SlippiView::parse(&written).unwrap();
    assert_eq!(back_view.metadata_bytes(), meta);
    if let Some(m) = meta {
        assert_eq!(back_view.metadata().ok().flatten(), Metadata::parse(m).ok());
    }
});

/// Feeds `bytes` to a Decoder in pieces, as a stream would arrive; returns
/// the events, the error met while still in the raw events, and the ending.
fn push(bytes: &[u8]) -> (Vec<(u8, Vec<u8>)>, Option<Error>, End) {
    let mut decoder = Decoder::new();
    let mut pending: Vec<u8> = Vec::new();
    let mut events = Vec::new();
    for piece in pieces(bytes).into_iter().chain([&[][..]]) {
        pending.extend_from_slice(piece);
        let mut used = 0;
        loop {
            match decoder.decode(&pending[used..]) {
                Ok(Decoded::Record {
                    record: Item::Event(e),
                    consumed,
                }) => {
                    events.push(owned(&e));
                    used += consumed;
                }
                Ok(Decoded::Record { consumed, .. }) => used += consumed,
                Ok(Decoded::NeedMore { .. }) => break,
                Ok(Decoded::Done { consumed }) => {
                    used += consumed;
                    pending.drain(..used);
                    return (events, None, decoder.end(pending.len()));
                }
                // As for the iterator: damage after raw is not an event error.
                Err(e) if decoder.in_raw() => return (events, Some(e), decoder.end(0)),
                Err(_) => {
                    pending.drain(..used);
                    return (events, None, decoder.end(pending.len()));
                }
            }
        }
        pending.drain(..used);
    }
    (events, None, decoder.end(pending.len()))
}

/// An event as its command byte and an owned copy of its payload (the
/// pending buffer it borrows from moves).
fn owned(e: &Event<'_>) -> (u8, Vec<u8>) {
    (e.code(), e.payload().to_vec())
}

/// What the stats say, for comparing two computations.
fn stats_summary(s: &SlippiStats) -> String {
    let punishes = |p: &gamefmt::slippi::stats::Punishes| {
        p.iter()
            .map(|x| (*x, p.moves(x).copied().collect::<Vec<_>>()))
            .collect::<Vec<_>>()
    };
    format!(
        "{} {} {} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {}",
        s.last_frame(),
        s.playable_frame_count(),
        s.game_complete(),
        s.stocks(),
        punishes(s.conversions()),
        punishes(s.combos()),
        s.action_counts(),
        s.input_counts(),
        s.overall(),
        s.target_breaks(),
        s.home_run(),
        s.slippi_js_would_throw(),
    )
}
