//! Slippi events built in the test: the sample file, the test quartet
//! (parse a known byte layout, emit it with the writer, round-trip it,
//! reject impossible lengths), live-file endings and the Reader.
#![cfg(feature = "std")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

#[path = "common/slippi_build.rs"]
mod slippi_build;

use gamefmt::ErrorKind;
use gamefmt::slippi::{
    Decoder, Event, Frames, GeckoList, Item, MessageSplitter, Reader, Reassembler, SAMPLE,
    SlippiEventIter, SlippiView, SlippiWriter, Version,
};
use gamefmt::stream::{Decoded, End};
use slippi_build::{METADATA, build_sample, payload, sizes_3_18};

#[test]
fn sample_is_written_by_slp_writer() {
    let (w, _) = build_sample();
    let bytes = w.finish(Some(METADATA)).unwrap();
    if std::env::var_os("GAMEFMT_BLESS").is_some() {
        std::fs::write(
            concat!(env!("CARGO_MANIFEST_DIR"), "/src/slippi/sample.slp"),
            &bytes,
        )
        .unwrap();
    }
    assert_eq!(bytes, SAMPLE);
}

#[test]
fn quartet_parse_known_layout() {
    let slp = SlippiView::parse(SAMPLE).unwrap();
    assert_eq!(slp.declared_raw_len() as usize, slp.raw().len());
    let g = slp.game_start().unwrap();
    assert_eq!(g.version(), Some(Version::new(3, 18, 0)));
    assert_eq!(g.stage(), Some(31));
    let players: Vec<_> = g
        .players()
        .map(|(i, p)| (i, p.character(), p.player_type()))
        .collect();
    assert_eq!(players, [(0, Some(2), Some(0)), (1, Some(20), Some(1))]);
    assert_eq!(g.is_pal(), Some(false));
    assert_eq!(g.tiebreaker_number(), Some(0));
    assert_eq!(g.player(6), None);
    assert_eq!(g.dashback_fix(4), None);
    let end = slp.game_end().unwrap();
    assert_eq!(end.method(), Some(2));
    assert_eq!(end.lras_initiator(), Some(-1));
    assert_eq!(end.placements(), Some([0, 1, -1, -1]));
    let m = slp.metadata().unwrap().unwrap();
    assert_eq!(m.start_at(), Some("2026-01-01T00:00:00Z"));
    assert_eq!(m.last_frame(), Some(-123));
    assert_eq!(m.played_on(), Some("dolphin"));
    assert_eq!(m.console_nick(), None);

    let events: Vec<_> = slp.events().collect::<Result<_, _>>().unwrap();
    let codes: Vec<u8> = events.iter().map(Event::code).collect();
    assert_eq!(
        codes,
        [0x35, 0x36, 0x3A, 0x37, 0x37, 0x38, 0x38, 0x3C, 0x39]
    );
    let Event::PreFrame(pre) = events[4] else {
        panic!()
    };
    assert_eq!(pre.player_index(), Some(1));
    assert_eq!(pre.position_x(), Some(30.0));
    assert_eq!(pre.raw_cstick_y(), Some(0)); // 66 bytes: present
    let Event::PostFrame(post) = events[6] else {
        panic!()
    };
    assert_eq!(post.internal_character(), Some(22));
    assert_eq!(post.percent(), Some(12.5));
    assert_eq!(post.stocks_remaining(), Some(4));
    assert_eq!(post.instance_id(), Some(0));
    let Event::FrameStart(fs) = events[2] else {
        panic!()
    };
    assert_eq!(fs.random_seed(), Some(0xDEAD_BEEF));

    let frames: Vec<_> = Frames::new(SAMPLE).collect::<Result<_, _>>().unwrap();
    assert_eq!(frames.len(), 1);
    assert_eq!(frames[0].number, -123);
    assert_eq!(frames[0].characters().count(), 2);
    assert!(frames[0].bookend.is_some());
}

#[test]
fn quartet_short_events_have_no_late_fields() {
    // A 1.0.0-sized pre-frame (58 bytes) and a 0.1.0 post-frame (33 bytes):
    // fields added later are absent, whatever the version says.
    let pre = payload(58, &[(1, &5i32.to_be_bytes()), (5, &[4])]);
    let mut ev = vec![0x37];
    ev.extend_from_slice(&pre);
    let e = gamefmt::slippi::PreFrame::new(&ev);
    assert_eq!(e.frame(), Some(5));
    assert_eq!(e.player_index(), Some(4)); // index 4 is data, not an error
    assert_eq!(e.physical_r(), Some(0.0));
    assert_eq!(e.raw_joystick_x(), None);
    assert_eq!(e.percent(), None);
    let mut post = vec![0x38];
    post.extend_from_slice(&payload(33, &[]));
    let p = gamefmt::slippi::PostFrame::new(&post);
    assert_eq!(p.stocks_remaining(), Some(0));
    assert_eq!(p.action_state_frame_counter(), None);
    assert_eq!(p.state_flags(), None);
    let end = gamefmt::slippi::GameEnd::new(&[0x39, 3]);
    assert_eq!(
        (end.method(), end.lras_initiator(), end.placements()),
        (Some(3), None, None)
    );
}

#[test]
fn quartet_round_trip_through_writer() {
    // Re-emit every event of the sample with the writer: identical bytes.
    let slp = SlippiView::parse(SAMPLE).unwrap();
    let sizes = slp.payload_sizes().unwrap();
    let mut w = SlippiWriter::new(&sizes).unwrap();
    for e in slp.events().skip(1) {
        let e = e.unwrap();
        let bytes = match e {
            Event::GameStart(x) => x.bytes(),
            Event::PreFrame(x) => x.bytes(),
            Event::PostFrame(x) => x.bytes(),
            Event::FrameStart(x) => x.bytes(),
            Event::FrameBookend(x) => x.bytes(),
            Event::GameEnd(x) => x.bytes(),
            other => panic!("unexpected {other:?}"),
        };
        w.event(bytes[0], &bytes[1..]).unwrap();
    }
    let meta = slp.metadata_bytes().unwrap();
    assert_eq!(w.finish(Some(meta)).unwrap(), SAMPLE);
}

#[test]
fn quartet_rejects_impossible_lengths() {
    let sizes = sizes_3_18();
    let mut w = SlippiWriter::new(&sizes).unwrap();
    assert!(w.event(0x37, &[0; 65]).is_err());
    assert!(w.event(0x50, &[0; 1]).is_err());

    let header = |len: u32| {
        let mut v = b"{U\x03raw[$U#l".to_vec();
        v.extend_from_slice(&len.to_be_bytes());
        v
    };
    let first_error = |file: &[u8]| SlippiEventIter::new(file).find_map(Result::err);
    // Payload table size not 3n+1.
    let mut f = header(0);
    f.extend_from_slice(&[0x35, 3, 0x36, 0]);
    assert_eq!(
        first_error(&f).unwrap(),
        gamefmt::Error::corrupt("Event Payloads size is not 3n+1", 16)
    );
    // A command that is not in the table.
    let mut f = header(0);
    f.extend_from_slice(&[0x35, 4, 0x36, 0, 1, 0x36, 9, 0x37]);
    let e = first_error(&f).unwrap();
    assert_eq!(
        (e.kind, e.offset),
        (
            ErrorKind::Corrupt("command not in the Event Payloads table"),
            22
        )
    );
    // A command declared with size 0, which then appears: its command byte
    // alone, as slippi-js reads it (issue 15; tests/compat.rs), then a
    // command missing from the table.
    let mut f = header(0);
    f.extend_from_slice(&[0x35, 4, 0xFF, 0, 0, 0xFF, 0x36]);
    assert_eq!(
        first_error(&f).unwrap(),
        gamefmt::Error::corrupt("command not in the Event Payloads table", 15 + 6)
    );
    // An event crossing the declared raw length.
    let mut f = header(7);
    f.extend_from_slice(&[0x35, 4, 0x36, 0, 4, 0x36, 1, 2, 3, 4]);
    assert!(matches!(
        first_error(&f).unwrap().kind,
        ErrorKind::Corrupt(_)
    ));
    // Not a replay at all.
    assert_eq!(
        SlippiView::parse(b"This is not a replay, just text")
            .unwrap_err()
            .kind,
        ErrorKind::BadMagic
    );
    assert_eq!(
        SlippiView::parse(b"{U\x03raw").unwrap_err().kind,
        ErrorKind::Truncated
    );
}

#[test]
fn live_file_endings() {
    let (_, live) = build_sample();
    // Raw length 0, no Game End yet, cut at an event boundary.
    let mut it = SlippiEventIter::new(&live);
    assert_eq!(it.by_ref().count(), 8);
    assert_eq!(it.end(), End::Eof);
    // Cut inside the last event.
    let mut it = SlippiEventIter::new(&live[..live.len() - 3]);
    assert_eq!(it.by_ref().count(), 7);
    assert!(matches!(it.end(), End::Truncated { .. }));
    let view = SlippiView::parse(&live).unwrap();
    assert_eq!(view.raw().len(), live.len() - 15);
    assert_eq!(view.metadata().unwrap(), None);
    assert_eq!(view.game_end(), None);

    // A finished file whose raw length was never patched: stops at Game End
    // and still finds the metadata.
    let mut unpatched = SAMPLE.to_vec();
    unpatched[11..15].fill(0);
    let view = SlippiView::parse(&unpatched).unwrap();
    assert_eq!(view.raw(), SlippiView::parse(SAMPLE).unwrap().raw());
    assert_eq!(view.metadata().unwrap().unwrap().last_frame(), Some(-123));
    let mut it = SlippiEventIter::new(&unpatched);
    assert_eq!(it.by_ref().count(), 9);
    assert_eq!(it.end(), End::Complete);

    // Empty metadata, missing metadata and trailing garbage.
    let (w, _) = build_sample();
    let empty = w.clone().finish(Some(b"{}")).unwrap();
    let m = SlippiView::parse(&empty)
        .unwrap()
        .metadata()
        .unwrap()
        .unwrap();
    assert_eq!((m.last_frame(), m.object().entries().count()), (None, 0));
    let none = w.clone().finish(None).unwrap();
    assert_eq!(SlippiView::parse(&none).unwrap().metadata().unwrap(), None);
    let mut trailing = w.finish(Some(METADATA)).unwrap();
    trailing.extend_from_slice(b"\n\0garbage");
    let view = SlippiView::parse(&trailing).unwrap();
    assert_eq!(
        view.metadata().unwrap().unwrap().played_on(),
        Some("dolphin")
    );
    let mut d = Decoder::new();
    let mut rest = &trailing[..];
    let mut records = 0;
    loop {
        match d.decode(rest).unwrap() {
            Decoded::Record { consumed, .. } => {
                rest = &rest[consumed..];
                records += 1;
            }
            Decoded::Done { consumed } => {
                rest = &rest[consumed..];
                break;
            }
            Decoded::NeedMore { .. } => panic!("need more"),
        }
    }
    assert_eq!(records, 11); // header, 9 events, metadata
    assert_eq!(rest, b"\n\0garbage");
    // A damaged metadata element is reported, not hidden.
    let mut bad = SAMPLE.to_vec();
    let at = bad.len() - 12; // the `S` marker of "dolphin"
    bad[at] = b'Q';
    assert!(SlippiView::parse(&bad).unwrap().metadata().is_err());
    let mut it = SlippiEventIter::new(&bad);
    assert_eq!(it.by_ref().map(Result::unwrap).count(), 9);
    assert_eq!(it.end(), End::Complete);
    bad[11..15].fill(0); // the same, unpatched
    assert_eq!(SlippiEventIter::new(&bad).map(Result::unwrap).count(), 9);
}

#[test]
fn reader_with_small_buffer_matches_slice() {
    let slice: Vec<Vec<u8>> = SlippiEventIter::new(SAMPLE)
        .map(|e| event_bytes(&e.unwrap()))
        .collect();
    let mut reader = Reader::with_capacity(SAMPLE, 1024);
    let mut got = Vec::new();
    let mut meta = None;
    while let Some(r) = reader.next() {
        match r.unwrap() {
            Item::Event(e) => got.push(event_bytes(&e)),
            Item::Metadata(m) => meta = Some(m.to_vec()),
            _ => {}
        }
    }
    assert_eq!(got, slice);
    assert_eq!(meta.as_deref(), Some(METADATA));
    assert_eq!(reader.end(), End::Complete);
    // A buffer smaller than the Game Start event fails cleanly.
    let mut tiny = Reader::with_capacity(SAMPLE, 100);
    let err = loop {
        match tiny.next() {
            Some(Ok(_)) => {}
            Some(Err(e)) => break e,
            None => panic!("no error"),
        }
    };
    let inner = std::error::Error::source(&err)
        .unwrap()
        .downcast_ref::<gamefmt::Error>()
        .unwrap();
    assert!(matches!(inner.kind, ErrorKind::BufferTooSmall { .. }));
}

#[test]
fn splitter_chunks_build_the_gecko_list() {
    let mut s = sizes_3_18();
    s.set(0x10, 516);
    s.set(0x3D, 4); // declared size is ignored: chunks carry 600 bytes
    let mut w = SlippiWriter::new(&s).unwrap();
    w.event(0x36, &payload(760, &[(1, &[3, 13, 0, 0])]))
        .unwrap();
    let mut list = vec![0u8; 600];
    for (i, code) in list.chunks_mut(8).enumerate() {
        code[0] = 0x04;
        code[3] = i as u8;
    }
    for (i, chunk) in list.chunks(512).enumerate() {
        let last = i == 1;
        let mut p = vec![0u8; 516];
        p[..chunk.len()].copy_from_slice(chunk);
        p[512..514].copy_from_slice(&(chunk.len() as u16).to_be_bytes());
        p[514] = 0x3D;
        p[515] = u8::from(last);
        w.event(0x10, &p).unwrap();
    }
    let file = w.finish(None).unwrap();
    let mut buf = [0u8; 1024];
    let mut r = Reassembler::new(&mut buf);
    let mut done = false;
    for e in SlippiEventIter::new(&file) {
        if let Event::MessageSplitter(m) = e.unwrap() {
            done = r.push(&m).unwrap();
        }
    }
    assert!(done);
    let (cmd, msg) = r.message().unwrap();
    assert_eq!((cmd, msg), (0x3D, &list[..]));
    let codes: Vec<_> = GeckoList::new(msg).codes().collect();
    assert_eq!(codes.len(), 75);
    assert_eq!(codes[74].address, 0x8000_004A);
    let _ = MessageSplitter::new(&[]);
}

fn event_bytes(e: &Event<'_>) -> Vec<u8> {
    let mut v = vec![e.code()];
    v.extend_from_slice(match e {
        Event::EventPayloads(x) => &x.bytes()[1..],
        Event::GameStart(x) => &x.bytes()[1..],
        Event::PreFrame(x) => &x.bytes()[1..],
        Event::PostFrame(x) => &x.bytes()[1..],
        Event::GameEnd(x) => &x.bytes()[1..],
        Event::FrameStart(x) => &x.bytes()[1..],
        Event::FrameBookend(x) => &x.bytes()[1..],
        _ => &[],
    });
    v
}
