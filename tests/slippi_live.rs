//! `slippi::live` on every corpus replay: its raw events sent as a console
//! would (framed UBJSON messages of random sizes, cut into random TCP
//! reads), as Dolphin would (JSON + base64), and as a legacy raw stream;
//! the events that come out equal the file's, event for event; cursor
//! gaps are reported; the recorder's `.slp` re-reads to the same events
//! and equals, byte for byte, what slippi-js 9.1.2's `SlpFileWriter` wrote
//! for the same events (`benches/peers/slippi-js/record_oracle.tsv`, made
//! by `record_oracle.mjs` beside it). Set `GAMEFMT_LIVE_DIR` to run the same
//! checks on another folder of replays (the never-seen set), with
//! `GAMEFMT_LIVE_ORACLE` naming `record_oracle.mjs`'s output for it.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation
)]

use crate::common;

use std::collections::HashMap;
use std::io::Cursor;

use gamefmt::slippi::live::{
    ConsoleDecoder, ConsoleMessage, Continuity, DolphinMessage, DolphinSession, FeedItem, GameFeed,
    Handshake, Protocol, RecordMetadata, Recorder, Replay, base64, client_handshake,
    encode_message,
};
use gamefmt::slippi::{Event, SlippiView};
use gamefmt::stream::{Decoded, End};
use sha2::{Digest, Sha256};

/// A fixed-seed xorshift generator.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// The replays to run on: `GAMEFMT_LIVE_DIR`'s, else the corpus's.
fn replays(test: &str) -> Option<Vec<(String, Vec<u8>)>> {
    if let Some(dir) = std::env::var_os("GAMEFMT_LIVE_DIR") {
        let mut out = Vec::new();
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "slp") {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                out.push((name, std::fs::read(&p).unwrap()));
            }
        }
        out.sort();
        return Some(out);
    }
    common::corpus_files(test, "slippi", ".slp")
}

/// A replay's raw events and each event's bytes, as the file decodes; `None`
/// for a file that does not start with Event Payloads or is damaged.
fn events_of(file: &[u8]) -> Option<(&[u8], Vec<Vec<u8>>)> {
    let view = SlippiView::parse(file).ok()?;
    let raw = view.raw();
    if raw.first() != Some(&0x35) {
        return None;
    }
    let mut events = Vec::new();
    let mut iter = view.events();
    for e in iter.by_ref() {
        events.push(whole(&e.ok()?));
    }
    if iter.end().is_cut() {
        return None;
    }
    // The raw events alone, as a console sends them (an unpatched file's
    // `raw` may run on past them).
    let len: usize = events.iter().map(Vec::len).sum();
    Some((&raw[..len], events))
}

/// Asserts two event lists equal, naming the first difference (not
/// printing megabytes).
fn same_events(got: &[Vec<u8>], want: &[Vec<u8>], name: &str) {
    if let Some(i) = (0..got.len().max(want.len())).find(|&i| got.get(i) != want.get(i)) {
        panic!(
            "{name}: events differ at #{i} of {} (got {}): {:?} vs {:?}",
            want.len(),
            got.len(),
            got.get(i).map(|e| &e[..e.len().min(16)]),
            want.get(i).map(|e| &e[..e.len().min(16)]),
        );
    }
}

fn whole(e: &Event<'_>) -> Vec<u8> {
    let mut v = vec![e.code()];
    v.extend_from_slice(e.payload());
    v
}

/// What a console sends for `raw`: its handshake, then replay messages of
/// random sizes from cursor `start`, with keep-alives among them; the
/// messages (for dropping some) and the cursor after each.
fn console_messages(raw: &[u8], start: u64, rng: &mut Rng) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut buf = vec![0u8; 1 << 16];
    let hs = ConsoleMessage::Handshake(Handshake {
        nick: Some("gamefmt"),
        nintendont_version: Some("1.9.0"),
        client_token: Some(0x0102_0304),
        pos: start.to_be_bytes(),
    });
    let n = encode_message(&hs, &mut buf).unwrap();
    out.push(buf[..n].to_vec());
    let mut pos = start;
    let mut at = 0;
    while at < raw.len() {
        let len = (1 + rng.below(3000)).min(raw.len() - at);
        let next = pos + len as u64;
        let m = ConsoleMessage::Replay(Replay {
            pos: pos.to_be_bytes(),
            next_pos: next.to_be_bytes(),
            force_pos: false,
            data: &raw[at..at + len],
            continuity: Continuity::Continuous,
        });
        let n = encode_message(&m, &mut buf).unwrap();
        out.push(buf[..n].to_vec());
        if rng.below(20) == 0 {
            let n = encode_message(&ConsoleMessage::KeepAlive, &mut buf).unwrap();
            out.push(buf[..n].to_vec());
        }
        at += len;
        pos = next;
    }
    out
}

#[derive(Default, Debug)]
struct Seen {
    messages: usize,
    handshakes: usize,
    replays: usize,
    keep_alives: usize,
    bytes: Vec<u8>,
    continuity: Vec<(Continuity, Option<u64>)>,
    protocol: Option<Protocol>,
    cursor: [u8; 8],
}

/// Decodes `wire` fed in random reads, as a TCP client would.
fn decode_console(wire: &[u8], rng: &mut Rng) -> Seen {
    let mut d = ConsoleDecoder::new();
    let mut seen = Seen::default();
    let mut pending: Vec<u8> = Vec::new();
    let mut at = 0;
    while at < wire.len() {
        let n = (1 + rng.below(1500)).min(wire.len() - at);
        pending.extend_from_slice(&wire[at..at + n]);
        at += n;
        let mut used = 0;
        while let Decoded::Record { record, consumed } = d.decode(&pending[used..]).unwrap() {
            used += consumed;
            seen.messages += 1;
            match record {
                ConsoleMessage::Handshake(h) => {
                    assert_eq!(h.nick, Some("gamefmt"));
                    assert_eq!(h.client_token, Some(0x0102_0304));
                    seen.handshakes += 1;
                }
                ConsoleMessage::Replay(r) => {
                    seen.replays += 1;
                    seen.bytes.extend_from_slice(r.data);
                    if r.continuity != Continuity::Continuous {
                        seen.continuity.push((r.continuity, r.skipped()));
                    }
                }
                ConsoleMessage::KeepAlive => seen.keep_alives += 1,
                ConsoleMessage::Legacy { data } => seen.bytes.extend_from_slice(data),
                other => panic!("unexpected {other:?}"),
            }
        }
        pending.drain(..used);
    }
    assert!(pending.is_empty());
    seen.protocol = d.protocol();
    seen.cursor = d.expected_cursor();
    seen
}

/// The games a feed of `bytes` (fed in random pieces) holds: each game's
/// events and how it ended; and the skipped byte count.
/// One game of a feed: its events, and how it ended.
type Game = (Vec<Vec<u8>>, Option<End>);

fn feed_games(bytes: &[u8], rng: &mut Rng) -> (Vec<Game>, usize) {
    let mut feed = GameFeed::new();
    let mut games: Vec<Game> = Vec::new();
    let mut skipped = 0;
    let mut pending: Vec<u8> = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let n = (1 + rng.below(700)).min(bytes.len() - at);
        pending.extend_from_slice(&bytes[at..at + n]);
        at += n;
        let mut used = 0;
        while let Decoded::Record { record, consumed } = feed.decode(&pending[used..]).unwrap() {
            used += consumed;
            match record {
                FeedItem::NewGame { game } => {
                    assert_eq!(game as usize, games.len());
                    games.push((Vec::new(), None));
                }
                FeedItem::Event(e) => games.last_mut().unwrap().0.push(whole(&e)),
                FeedItem::GameOver { game, end } => games[game as usize].1 = Some(end),
                FeedItem::Skipped { len } => skipped += len,
                FeedItem::KeepAlive => {}
                other => panic!("unexpected {other:?}"),
            }
        }
        pending.drain(..used);
    }
    if let (Some(end), Some(last)) = (feed.end(pending.len()), games.last_mut()) {
        if last.1.is_none() {
            last.1 = Some(end);
        }
    }
    (games, skipped)
}

fn expected_end(events: &[Vec<u8>]) -> End {
    if events.iter().any(|e| e[0] == 0x39) {
        End::Complete
    } else {
        End::Eof
    }
}

#[test]
fn console_framing_round_trips() {
    let Some(files) = replays("console_framing_round_trips") else {
        return;
    };
    let (mut checked, mut messages, mut bytes, mut unusable) = (0, 0, 0, 0);
    for (seed, (name, file)) in files.iter().enumerate() {
        let Some((raw, events)) = events_of(file) else {
            unusable += 1;
            continue;
        };
        let mut rng = Rng(0x5eed_0000 + seed as u64);
        let msgs = console_messages(raw, 1 << 40, &mut rng);
        let wire = msgs.concat();
        let seen = decode_console(&wire, &mut rng);
        // The same through the generic stream::Reader over an io::Read.
        let mut reader = gamefmt::stream::Reader::with_decoder(&wire[..], ConsoleDecoder::new());
        let (mut via_reader, mut data) = (0, Vec::new());
        while let Some(m) = reader.next() {
            if let Some(d) = m.unwrap().replay_bytes() {
                data.extend_from_slice(d);
            }
            via_reader += 1;
        }
        assert_eq!((via_reader, reader.end()), (msgs.len(), End::Eof), "{name}");
        assert!(data == raw, "{name}: replay bytes through the Reader");
        if let Some(dir) = std::env::var_os("GAMEFMT_LIVE_WIRE_OUT") {
            // For console_oracle.mjs: the wire, and what we decoded of it.
            let dir = std::path::PathBuf::from(dir);
            std::fs::write(dir.join(format!("{name}.wire")), &wire).unwrap();
            let line = format!(
                "{name}\t{}\t{}\t{}\t{}\t{:x}\t{}\n",
                seen.messages,
                seen.handshakes,
                seen.replays,
                seen.keep_alives,
                Sha256::digest(&seen.bytes),
                seen.cursor
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect::<String>()
            );
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(dir.join("ours.tsv"))
                .unwrap();
            std::io::Write::write_all(&mut f, line.as_bytes()).unwrap();
        }
        assert_eq!(seen.protocol, Some(Protocol::Framed), "{name}");
        assert_eq!(seen.messages, msgs.len(), "{name}");
        assert_eq!(seen.handshakes, 1);
        assert!(seen.continuity.is_empty(), "{name}: {:?}", seen.continuity);
        assert!(seen.bytes == raw, "{name}: replay bytes differ");
        let (games, skipped) = feed_games(&seen.bytes, &mut rng);
        assert_eq!(skipped, 0, "{name}");
        assert_eq!(games.len(), 1, "{name}");
        same_events(&games[0].0, &events, name);
        assert_eq!(games[0].1, Some(expected_end(&events)), "{name}");
        checked += 1;
        messages += msgs.len();
        bytes += raw.len();
    }
    println!(
        "console framing: {checked} replays ({unusable} unusable), {messages} messages, {bytes} replay bytes: equal"
    );
    assert!(checked > 0);
}

#[test]
fn multi_game_feed_splits_at_event_payloads() {
    let Some(files) = replays("multi_game_feed_splits_at_event_payloads") else {
        return;
    };
    let games: Vec<_> = files.iter().filter_map(|(_, f)| events_of(f)).collect();
    let mut rng = Rng(77);
    let mut pairs = 0;
    for w in games.windows(2) {
        // Two games back to back with keep-alives and stray bytes before,
        // as a relay joined between games sends them.
        let mut feed = b"HELO\0\x01\x02HELO\0".to_vec();
        feed.extend_from_slice(w[0].0);
        feed.extend_from_slice(b"HELO\0");
        feed.extend_from_slice(w[1].0);
        let (out, skipped) = feed_games(&feed, &mut rng);
        assert_eq!(skipped, 2);
        assert_eq!(out.len(), 2);
        same_events(&out[0].0, &w[0].1, "first of a pair");
        same_events(&out[1].0, &w[1].1, "second of a pair");
        assert_eq!(out[1].1, Some(expected_end(&w[1].1)));
        // A first game without Game End is over when the next one starts.
        assert!(matches!(out[0].1, Some(End::Complete | End::Eof)));
        pairs += 1;
    }
    println!("multi-game feeds: {pairs} pairs of replays split back into their events");
}

#[test]
fn cursor_gaps_are_reported() {
    let Some(files) = replays("cursor_gaps_are_reported") else {
        return;
    };
    let mut reported = 0;
    for (seed, (name, file)) in files.iter().enumerate() {
        let Some((raw, _)) = events_of(file) else {
            continue;
        };
        let mut rng = Rng(0xa11 + seed as u64);
        let msgs = console_messages(raw, 0, &mut rng);
        let replays: Vec<usize> = (1..msgs.len())
            .filter(|&i| msgs[i].len() > 40) // not a keep-alive
            .collect();
        if replays.len() < 3 {
            continue;
        }
        // Drop one replay message: the next one's cursor is ahead by its data.
        let drop = replays[replays.len() / 2];
        let mut d = ConsoleDecoder::new();
        let mut dropped_len = 0;
        if let Decoded::Record {
            record: ConsoleMessage::Replay(r),
            ..
        } = ConsoleDecoder::with_protocol(Protocol::Framed)
            .decode(&msgs[drop])
            .unwrap()
        {
            dropped_len = r.data.len() as u64;
        }
        let wire: Vec<u8> = msgs
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != drop)
            .flat_map(|(_, m)| m.clone())
            .collect();
        let mut gaps = Vec::new();
        let mut input = wire.as_slice();
        while let Decoded::Record { record, consumed } = d.decode(input).unwrap() {
            if let ConsoleMessage::Replay(r) = record {
                if r.continuity != Continuity::Continuous {
                    gaps.push((r.continuity, r.skipped()));
                }
            }
            input = &input[consumed..];
        }
        assert_eq!(gaps.len(), 1, "{name}");
        assert!(matches!(gaps[0].0, Continuity::Unexpected { .. }));
        assert_eq!(gaps[0].1, Some(dropped_len), "{name}");
        reported += 1;
    }
    // forcePos: reported as Forced, with the bytes skipped.
    let mut buf = [0u8; 256];
    let mut wire = Vec::new();
    for (pos, next, force) in [(0u64, 3u64, false), (10, 12, true), (12, 13, false)] {
        let m = ConsoleMessage::Replay(Replay {
            pos: pos.to_be_bytes(),
            next_pos: next.to_be_bytes(),
            force_pos: force,
            data: &[0x35, 0x01, 0x02][..(next - pos) as usize],
            continuity: Continuity::Continuous,
        });
        let n = encode_message(&m, &mut buf).unwrap();
        wire.extend_from_slice(&buf[..n]);
    }
    let mut d = ConsoleDecoder::with_protocol(Protocol::Framed);
    let mut input = wire.as_slice();
    let mut seen = Vec::new();
    while let Decoded::Record { record, consumed } = d.decode(input).unwrap() {
        if let ConsoleMessage::Replay(r) = record {
            seen.push((r.continuity.name(), r.skipped()));
        }
        input = &input[consumed..];
    }
    assert_eq!(
        seen,
        [
            ("continuous", None),
            ("forced", Some(7)),
            ("continuous", None)
        ]
    );
    assert_eq!(d.expected_cursor(), 13u64.to_be_bytes());
    println!("cursor gaps: {reported} replays with a dropped message, each gap reported once");
}

#[test]
fn legacy_stream_is_detected() {
    let Some(files) = replays("legacy_stream_is_detected") else {
        return;
    };
    let mut checked = 0;
    for (seed, (name, file)) in files.iter().enumerate() {
        let Some((raw, events)) = events_of(file) else {
            continue;
        };
        let mut rng = Rng(0x1e9 + seed as u64);
        assert_eq!(Protocol::detect(raw), Protocol::Legacy);
        let seen = decode_console(raw, &mut rng);
        assert_eq!(seen.protocol, Some(Protocol::Legacy), "{name}");
        assert!(seen.bytes == raw, "{name}: bytes differ");
        let (games, _) = feed_games(&seen.bytes, &mut rng);
        assert_eq!(games.len(), 1);
        same_events(&games[0].0, &events, name);
        checked += 1;
    }
    println!("legacy streams: {checked} replays detected as legacy, events equal");
}

/// slippi-js 9.1.2's `ConsoleCommunication.genHandshakeOut`, printed by
/// `node -e` (see benches/peers/slippi-js/README.md) for these arguments.
#[test]
fn client_handshake_equals_slippi_js() {
    let cases = [
        (
            [0u8; 8],
            0u32,
            false,
            "0000004f7b690474797065690169077061796c6f61647b6906637572736f725b24552369080000000000000000690b636c69656e74546f6b656e5b245523690400000000690a69735265616c74696d65467d7d",
        ),
        (
            [0, 0, 0, 0, 0, 1, 2, 3],
            0xdead_beef,
            true,
            "0000004f7b690474797065690169077061796c6f61647b6906637572736f725b24552369080000000000010203690b636c69656e74546f6b656e5b2455236904deadbeef690a69735265616c74696d65547d7d",
        ),
    ];
    for (cursor, token, realtime, hex) in cases {
        let out = client_handshake(cursor, token, realtime);
        let got: String = out.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(got, hex);
    }
}

/// Standard base64 with padding (the test's encoder; the decoder under
/// test is the crate's).
fn b64(data: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::new();
    for c in data.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= c.len() {
                s.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

#[test]
fn dolphin_feed_round_trips() {
    let Some(files) = replays("dolphin_feed_round_trips") else {
        return;
    };
    let mut checked = 0;
    for (seed, (name, file)) in files.iter().enumerate() {
        let Some((raw, events)) = events_of(file) else {
            continue;
        };
        let mut rng = Rng(0xd01 + seed as u64);
        let mut packets = vec![
            br#"{"type":"connect_reply","nick":"Dolphin","version":"3.4.0","cursor":5}"#.to_vec(),
        ];
        let mut cursor = 5;
        packets.push(
            format!(
                r#"{{"type":"start_game","cursor":{cursor},"next_cursor":{}}}"#,
                cursor + 1
            )
            .into_bytes(),
        );
        cursor += 1;
        let mut at = 0;
        while at < raw.len() {
            let n = (1 + rng.below(900)).min(raw.len() - at);
            packets.push(
                format!(
                    r#"{{"type":"game_event","cursor":{cursor},"next_cursor":{},"payload":"{}"}}"#,
                    cursor + 1,
                    b64(&raw[at..at + n])
                )
                .into_bytes(),
            );
            if rng.below(10) == 0 {
                packets.push(br#"{"type":"menu_event","payload":"AAEC"}"#.to_vec());
            }
            cursor += 1;
            at += n;
        }
        let mut session = DolphinSession::new();
        let mut bytes = Vec::new();
        let mut buf = vec![0u8; 1 << 12];
        for p in &packets {
            let r = session.receive(p).unwrap();
            assert_eq!(r.unexpected_cursor, None, "{name}");
            if let DolphinMessage::GameEvent { payload, .. } = r.message {
                let n = base64::decode(payload.as_bytes(), &mut buf).unwrap();
                bytes.extend_from_slice(&buf[..n]);
            }
        }
        assert_eq!(session.cursor(), cursor);
        assert!(bytes == raw, "{name}: bytes differ");
        let (games, _) = feed_games(&bytes, &mut rng);
        assert_eq!(games.len(), 1);
        same_events(&games[0].0, &events, name);
        checked += 1;
    }
    println!("dolphin feeds: {checked} replays as game_event packets, events equal");
}

/// The recorder's file for `raw`'s games, with slippi-js's oracle settings.
fn record(raw: &[u8]) -> Vec<Vec<u8>> {
    let mut feed = GameFeed::new();
    let mut files = Vec::new();
    let mut rec: Option<Recorder<Cursor<Vec<u8>>>> = None;
    let mut input = raw;
    let meta = || {
        let mut m = RecordMetadata::at(
            std::time::UNIX_EPOCH + std::time::Duration::from_millis(1_714_588_200_123),
        );
        m.console_nick = "gamefmt-oracle".into();
        m
    };
    while let Decoded::Record { record, consumed } = feed.decode(input).unwrap() {
        input = &input[consumed..];
        match record {
            FeedItem::NewGame { .. } => {
                if let Some(r) = rec.take() {
                    files.push(r.finish().unwrap().into_inner());
                }
                rec = Some(Recorder::new(Cursor::new(Vec::new()), meta()).unwrap());
            }
            FeedItem::Event(e) => {
                if let Some(r) = rec.as_mut() {
                    r.event(&e).unwrap();
                    // As slippi-js's file writer: the file ends at Game End.
                    if e.code() == 0x39 {
                        files.push(rec.take().unwrap().finish().unwrap().into_inner());
                    }
                }
            }
            _ => {}
        }
    }
    if let Some(r) = rec.take() {
        files.push(r.finish().unwrap().into_inner());
    }
    files
}

#[test]
fn recorder_equals_slippi_js_file_writer() {
    let Some(files) = replays("recorder_equals_slippi_js_file_writer") else {
        return;
    };
    // GAMEFMT_LIVE_ORACLE: record_oracle.mjs's output for GAMEFMT_LIVE_DIR.
    let text = match std::env::var_os("GAMEFMT_LIVE_ORACLE") {
        Some(p) => std::fs::read_to_string(p).unwrap(),
        None => include_str!("../benches/peers/slippi-js/record_oracle.tsv").to_owned(),
    };
    let oracle: HashMap<&str, Vec<&str>> = text
        .lines()
        .map(|l| {
            let mut cols = l.split('\t');
            (cols.next().unwrap(), cols.collect())
        })
        .collect();
    let (mut reread, mut equal, mut differ, mut no_oracle) = (0, 0, Vec::new(), 0);
    for (name, file) in &files {
        let Some((raw, events)) = events_of(file) else {
            continue;
        };
        let out = record(raw);
        assert_eq!(out.len(), 1, "{name}");
        // As slippi-js's file writer, the file ends at the first Game End
        // (a replay with two keeps the first).
        let upto = events
            .iter()
            .position(|e| e[0] == 0x39)
            .map_or(events.len(), |i| i + 1);
        let events = &events[..upto];
        // Re-read: the same events, event for event, and a whole file.
        let view = SlippiView::parse(&out[0]).unwrap();
        let again: Vec<Vec<u8>> = view.events().map(|e| whole(&e.unwrap())).collect();
        same_events(&again, events, name);
        assert_eq!(view.raw().len(), events.iter().map(Vec::len).sum::<usize>());
        assert!(view.metadata().unwrap().is_some());
        reread += 1;
        match oracle.get(name.as_str()) {
            Some(cols) if cols.first() == Some(&"1") => {
                let got = format!("{}:{:x}", out[0].len(), Sha256::digest(&out[0]));
                if cols[1] == got {
                    equal += 1;
                } else {
                    differ.push(name.clone());
                }
            }
            _ => no_oracle += 1,
        }
    }
    println!(
        "recorder: {reread} replays re-read event for event; equal to slippi-js's file: {equal}, different: {} {differ:?}, no oracle output: {no_oracle}",
        differ.len()
    );
    assert!(reread > 0);
    assert!(differ.is_empty(), "differ from slippi-js: {differ:?}");
}

/// A fake console on the loopback interface: it waits for the client's
/// handshake, answers with its own, then sends one corpus replay's events
/// in replay messages with keep-alives among them and closes. The client
/// (what `gamefmt watch --record` runs) frames, splits and records: the
/// recorded file holds the replay's events and the console's nick.
#[test]
fn loopback_console_is_recorded() {
    use std::io::{Read, Write};
    use std::net::{TcpListener, TcpStream};
    let Some(files) = replays("loopback_console_is_recorded") else {
        return;
    };
    // The largest replay that decodes whole: the longest feed.
    let Some((raw, events)) = files
        .iter()
        .filter_map(|(_, f)| events_of(f))
        .max_by_key(|(raw, _)| raw.len())
    else {
        return;
    };
    let raw = raw.to_vec();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let server = std::thread::spawn(move || {
        let (mut sock, _) = listener.accept().unwrap();
        let mut hello = [0u8; 83];
        sock.read_exact(&mut hello).unwrap();
        let mut rng = Rng(0x100b);
        for m in console_messages(&raw, 0, &mut rng) {
            sock.write_all(&m).unwrap();
        }
        hello
    });
    let mut sock = TcpStream::connect(addr).unwrap();
    sock.set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .unwrap();
    let (mut console, mut feed) = (ConsoleDecoder::new(), GameFeed::new());
    sock.write_all(&client_handshake(console.expected_cursor(), 0, true))
        .unwrap();
    let (mut pending, mut replay) = (Vec::new(), Vec::new());
    let mut nick = String::new();
    let mut recorder: Option<Recorder<Cursor<Vec<u8>>>> = None;
    let mut recorded = Vec::new();
    let mut buf = vec![0u8; 1 << 14];
    loop {
        let n = sock.read(&mut buf).unwrap();
        if n == 0 {
            break;
        }
        pending.extend_from_slice(&buf[..n]);
        let mut used = 0;
        while let Decoded::Record { record, consumed } = console.decode(&pending[used..]).unwrap() {
            used += consumed;
            match record {
                ConsoleMessage::Handshake(h) => nick = h.nick.unwrap_or("unknown").to_owned(),
                ConsoleMessage::Replay(r) => {
                    assert_eq!(r.continuity, Continuity::Continuous);
                    replay.extend_from_slice(r.data);
                }
                _ => {}
            }
        }
        pending.drain(..used);
        let mut at = 0;
        while let Decoded::Record { record, consumed } = feed.decode(&replay[at..]).unwrap() {
            at += consumed;
            match record {
                FeedItem::NewGame { .. } => {
                    let mut meta = RecordMetadata::now();
                    meta.console_nick.clone_from(&nick);
                    recorder = Some(Recorder::new(Cursor::new(Vec::new()), meta).unwrap());
                }
                FeedItem::Event(e) => {
                    if let Some(r) = recorder.as_mut() {
                        r.event(&e).unwrap();
                    }
                }
                FeedItem::GameOver { .. } => {
                    if let Some(r) = recorder.take() {
                        recorded.push(r.finish().unwrap().into_inner());
                    }
                }
                _ => {}
            }
        }
        replay.drain(..at);
    }
    if let Some(r) = recorder.take() {
        recorded.push(r.finish().unwrap().into_inner());
    }
    let hello = server.join().unwrap();
    assert_eq!(hello, client_handshake([0; 8], 0, true));
    assert_eq!(recorded.len(), 1);
    let view = SlippiView::parse(&recorded[0]).unwrap();
    let again: Vec<Vec<u8>> = view.events().map(|e| whole(&e.unwrap())).collect();
    same_events(&again, &events, "loopback");
    let meta = view.metadata().unwrap().unwrap();
    assert_eq!(meta.console_nick(), Some("gamefmt"));
    println!(
        "loopback console: {} events, {} bytes recorded",
        events.len(),
        recorded[0].len()
    );
}
