//! Every teehistorian file of the shared corpus, decoded three ways and
//! compared with the independently known facts in
//! `teeworlds/teehistorian.expected.jsonl` and `SOURCES.md`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use crate::common;

use std::collections::BTreeMap;

use gamefmt::ErrorKind;
use gamefmt::stream::{Decoded, End, ReadError};
use gamefmt::teehistorian::{
    Decoder, ExMessage, Item, Message, PlayerState, Reader, Record, TeehistorianIter,
    TeehistorianWriter,
};
use serde_json::{Value, json};

const SUB: &str = "teeworlds/teehistorian";

/// The header JSON a teehistorian `Reader` starts with (its first item,
/// or its pieces when it is longer than the buffer, joined and read).
fn reader_header<R: std::io::Read>(reader: &mut Reader<R>) -> Result<String, ReadError> {
    let mut json = Vec::new();
    loop {
        match reader.next() {
            Some(Ok(Item::Header(h))) => return Ok(h.json().to_owned()),
            Some(Ok(Item::HeaderPiece { json: piece, last })) => {
                json.extend_from_slice(piece);
                if last {
                    let json = String::from_utf8(json).map_err(|_| {
                        ReadError::Decode(gamefmt::Error::new(ErrorKind::InvalidString, 16))
                    })?;
                    // Checked as opening a file checks it (its version).
                    let mut file = gamefmt::teehistorian::uuids::TEEHISTORIAN
                        .as_bytes()
                        .to_vec();
                    file.extend_from_slice(json.as_bytes());
                    file.push(0);
                    TeehistorianIter::new(&file).map_err(ReadError::Decode)?;
                    return Ok(json);
                }
            }
            Some(Ok(other)) => panic!("not a header: {other:?}"),
            Some(Err(e)) => return Err(e),
            None => return Err(ReadError::Decode(gamefmt::Error::truncated(0))),
        }
    }
}

/// A teehistorian `Reader`'s next message (after its header).
fn message<'r>(item: Result<Item<'r>, ReadError>) -> Result<Record<'r>, ReadError> {
    match item? {
        Item::Message(r) => Ok(r),
        other => panic!("not a message: {other:?}"),
    }
}

/// The corpus files with their expected facts (by file name).
fn corpus(test: &str) -> Option<Vec<(String, Vec<u8>, Value)>> {
    let files = common::corpus_files(test, SUB, ".teehistorian")?;
    let text = common::corpus_text(test, "teeworlds/teehistorian.expected.jsonl")?;
    let mut expected: BTreeMap<String, Value> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (v["file"].as_str().unwrap().to_owned(), v)
        })
        .collect();
    let out: Vec<_> = files
        .into_iter()
        .map(|(name, bytes)| {
            let facts = expected
                .remove(&name)
                .unwrap_or_else(|| panic!("no expected facts for {name}"));
            (name, bytes, facts)
        })
        .collect();
    assert!(
        expected.is_empty(),
        "expected facts without file: {expected:?}"
    );
    Some(out)
}

/// Every record of a slice, and how it ended (`Err` if it did not decode).
fn slice_records(bytes: &[u8]) -> (Vec<Record<'_>>, Result<End, gamefmt::Error>) {
    let mut iter = match TeehistorianIter::new(bytes) {
        Ok(iter) => iter,
        Err(e) => return (Vec::new(), Err(e)),
    };
    let mut records = Vec::new();
    for r in iter.by_ref() {
        match r {
            Ok(r) => records.push(r),
            Err(e) if e.kind == ErrorKind::Truncated => break,
            Err(e) => return (records, Err(e)),
        }
    }
    (records, Ok(iter.end()))
}

/// The facts `gamefmt inspect --json` reports, computed from records.
fn facts(bytes: &[u8]) -> Value {
    let (records, end) = slice_records(bytes);
    let end = match end {
        Ok(end) => end,
        Err(e) => return json!({ "error": e.to_string() }),
    };
    let mut counts: BTreeMap<&str, u64> = BTreeMap::new();
    let mut ex_counts: BTreeMap<String, u64> = BTreeMap::new();
    for r in &records {
        *counts.entry(r.message.kind().name()).or_default() += 1;
        if let Message::Ex(ex) = r.message {
            *ex_counts.entry(ex.uuid.to_string()).or_default() += 1;
        }
    }
    let header = TeehistorianIter::new(bytes).unwrap();
    json!({
        "counts": counts,
        "ex_counts": ex_counts,
        "messages": records.len(),
        "last_tick": records.last().map_or(0, |r| r.tick),
        // The expected files name FINISH as teehistorian does.
        "end": if end == End::Complete { "finish" } else { end.name() },
        "version": header.header().version(),
        "format": "teehistorian",
    })
}

#[test]
fn corpus_facts_match_expected() {
    let Some(files) = corpus("corpus_facts_match_expected") else {
        return;
    };
    let mut checked = 0;
    for (name, bytes, expected) in &files {
        if expected.get("error").is_some() {
            let err = TeehistorianIter::new(bytes).unwrap_err();
            assert_eq!(err.kind, ErrorKind::BadMagic, "{name}");
            checked += 1;
            continue;
        }
        let got = facts(bytes);
        for key in [
            "counts",
            "ex_counts",
            "messages",
            "last_tick",
            "end",
            "version",
            "format",
        ] {
            assert_eq!(got[key], expected[key], "{name}: {key}");
        }
        checked += 1;
    }
    assert_eq!(checked, files.len());
    assert!(checked >= 6, "only {checked} files");
}

/// Facts from SOURCES.md that the expected file does not carry.
#[test]
fn corpus_facts_from_sources_md() {
    let Some(files) = corpus("corpus_facts_from_sources_md") else {
        return;
    };
    for (name, bytes, _) in &files {
        let Ok(iter) = TeehistorianIter::new(bytes) else {
            continue;
        };
        let header = iter.header();
        let mut drops: BTreeMap<Vec<u8>, u64> = BTreeMap::new();
        let mut finishes = 0;
        let mut names = 0;
        for r in iter {
            let r = r.unwrap();
            match r.message {
                Message::Drop { reason, .. } => *drops.entry(reason.to_vec()).or_default() += 1,
                Message::Ex(ex) => match ex.parse().unwrap() {
                    ExMessage::PlayerFinish { .. } => finishes += 1,
                    ExMessage::PlayerName { .. } => names += 1,
                    _ => {}
                },
                _ => {}
            }
        }
        if name.starts_with("ddnet-server__") {
            // "teehistorian v2.22", server_version "0.6, 20.1".
            assert_eq!(header.version(), 2, "{name}");
            assert_eq!(header.version_minor(), Some(22), "{name}");
            assert_eq!(header.server_version().unwrap().raw(), "0.6, 20.1");
            assert!(header.game_uuid().is_some(), "{name}");
            // Config lines common to every run (SOURCES.md).
            let config = |k| header.config(k).map(|v| v.to_string());
            assert_eq!(config("sv_tee_historian").as_deref(), Some("1"), "{name}");
            assert_eq!(config("bindaddr").as_deref(), Some("127.0.0.1"), "{name}");
            assert_eq!(config("sv_max_clients_per_ip").as_deref(), Some("128"));
            let mut entries = 0;
            header.for_each_config(|_, _| entries += 1).unwrap();
            assert!(entries >= 10, "{name}: {entries} config entries");
        }
        if name.contains("dm1-30s") {
            assert_eq!(header.map_name().unwrap().raw(), "dm1");
            assert_eq!(header.config("dbg_dummies").unwrap().raw(), "2");
            assert_eq!(drops.get(&b""[..]), Some(&6));
            assert_eq!(drops.get(&b"Server shutdown"[..]), Some(&2));
        }
        if name.contains("race-corridor") {
            assert_eq!(finishes, 53);
        }
        if name.contains("ctf2-2min") {
            assert_eq!(header.map_name().unwrap().raw(), "ctf2");
            assert_eq!(header.config("dbg_dummies").unwrap().raw(), "3");
            assert_eq!(drops.get(&b"Kicked (Kicked by vote)"[..]), Some(&4));
        }
        if name.contains("tutorial-9min") {
            assert_eq!(header.map_name().unwrap().raw(), "Tutorial");
            assert_eq!(names, 256);
            for reason in [
                &b""[..],
                b"Kicked (Kicked by vote)",
                b"Timeout",
                b"Too weak connection (not acked for 100 seconds)",
                b"Dropping debug dummy",
                b"Kicked (kicked by econ)",
            ] {
                assert!(drops.contains_key(reason), "{name}: {reason:?}");
            }
        }
    }
}

/// Feeds `bytes` to a push decoder in chunks of the sizes `next_size`
/// gives, comparing every record with the slice iterator's.
fn check_chunked(name: &str, bytes: &[u8], mut next_size: impl FnMut() -> usize) {
    let (expected, end) = slice_records(bytes);
    let end = end.unwrap();
    let mut decoder = Decoder::new();
    let mut pending: Vec<u8> = Vec::new();
    let mut fed = 0;
    let mut index = 0;
    while fed < bytes.len() {
        let n = next_size().clamp(1, bytes.len() - fed);
        pending.extend_from_slice(&bytes[fed..fed + n]);
        fed += n;
        let mut used = 0;
        loop {
            match decoder.decode(&pending[used..]).unwrap() {
                Decoded::Record {
                    record: Item::Message(record),
                    consumed,
                } => {
                    assert_eq!(record, expected[index], "{name}: record {index}");
                    index += 1;
                    used += consumed;
                }
                Decoded::Record { consumed, .. } => used += consumed,
                Decoded::NeedMore { .. } | Decoded::Done { .. } => break,
            }
        }
        pending.drain(..used);
    }
    assert_eq!(index, expected.len(), "{name}");
    assert_eq!(decoder.end(pending.len()), end, "{name}");
}

#[test]
fn chunked_decoding_equals_slice_decoding() {
    let Some(files) = corpus("chunked_decoding_equals_slice_decoding") else {
        return;
    };
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    for (name, bytes, _) in &files {
        if TeehistorianIter::new(bytes).is_err() {
            continue;
        }
        check_chunked(name, bytes, || 1);
        check_chunked(name, bytes, || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % 5000) as usize + 1
        });
    }
}

/// `fold` (behind `for_each`, `count`, ...) runs its own loop for the
/// common messages; it yields exactly what `next` yields, errors included.
#[test]
fn fold_equals_next() {
    let Some(files) = corpus("fold_equals_next") else {
        return;
    };
    for (name, bytes, _) in &files {
        let Ok(iter) = TeehistorianIter::new(bytes) else {
            continue;
        };
        // A `for` loop calls `next`.
        let mut by_next = Vec::new();
        for item in iter {
            by_next.push(item);
        }
        let by_fold = TeehistorianIter::new(bytes)
            .unwrap()
            .fold(Vec::new(), |mut v, item| {
                v.push(item);
                v
            });
        assert!(!by_next.is_empty(), "{name}");
        assert_eq!(by_fold, by_next, "{name}");
        // Also when the loop starts part-way, after the general path.
        let mut iter = TeehistorianIter::new(bytes).unwrap();
        let head: Vec<_> = iter.by_ref().take(by_next.len() / 2).collect();
        let tail = iter.fold(head, |mut v, item| {
            v.push(item);
            v
        });
        assert_eq!(tail, by_next, "{name}");
    }
}

#[test]
fn reader_equals_slice_decoding() {
    let Some(files) = corpus("reader_equals_slice_decoding") else {
        return;
    };
    for (name, bytes, _) in &files {
        if TeehistorianIter::new(bytes).is_err() {
            assert!(
                reader_header(&mut Reader::new(&bytes[..])).is_err(),
                "{name}"
            );
            continue;
        }
        let (expected, end) = slice_records(bytes);
        // A small buffer, so that it is refilled many times.
        let mut reader = Reader::with_capacity(&bytes[..], 4096);
        assert_eq!(
            reader_header(&mut reader).unwrap(),
            TeehistorianIter::new(bytes).unwrap().header().json()
        );
        let mut index = 0;
        while let Some(r) = reader.next() {
            assert_eq!(
                message(r).unwrap(),
                expected[index],
                "{name}: record {index}"
            );
            index += 1;
        }
        assert_eq!(index, expected.len(), "{name}");
        assert_eq!(reader.end(), end.unwrap(), "{name}");
    }
}

#[test]
fn writer_round_trip_is_byte_exact() {
    let Some(files) = corpus("writer_round_trip_is_byte_exact") else {
        return;
    };
    let mut round_trips = 0;
    for (name, bytes, _) in &files {
        let Ok(iter) = TeehistorianIter::new(bytes) else {
            continue;
        };
        let mut w = TeehistorianWriter::new(iter.header().json()).unwrap();
        let mut end = None;
        let mut it = iter;
        for r in it.by_ref() {
            let r = r.unwrap();
            w.write(r.tick, &r.message)
                .unwrap_or_else(|e| panic!("{name}: {e} at {}", r.offset));
        }
        if it.end() == End::Complete {
            end = Some(());
        }
        let out = w.into_bytes();
        if end.is_some() {
            assert!(out == *bytes, "{name}: round trip differs");
            round_trips += 1;
        } else {
            // Without FINISH the writer still reproduces every byte.
            assert_eq!(out, *bytes, "{name}");
        }
    }
    assert!(round_trips >= 4, "only {round_trips} files with FINISH");
}

#[test]
fn player_state_follows_every_corpus_file() {
    let Some(files) = corpus("player_state_follows_every_corpus_file") else {
        return;
    };
    for (name, bytes, _) in &files {
        let Ok(iter) = TeehistorianIter::new(bytes) else {
            continue;
        };
        let mut players = PlayerState::<128>::new();
        let mut max_alive = 0;
        for r in iter {
            let r = r.unwrap();
            players
                .apply(&r.message)
                .unwrap_or_else(|e| panic!("{name}: {e} at {}", r.offset));
            let alive = players.iter().filter(|(_, p)| p.pos.is_some()).count();
            max_alive = max_alive.max(alive);
        }
        if name.starts_with("ddnet-server__") {
            assert!(max_alive >= 6, "{name}: at most {max_alive} alive");
        }
    }
}

/// Single-byte corruptions of a real recording end in a clean error or a
/// clean partial result through all three ways in, never a panic or hang.
#[test]
fn corruptions_never_panic() {
    let Some(files) = corpus("corruptions_never_panic") else {
        return;
    };
    let (_, bytes, _) = files
        .iter()
        .find(|(n, _, _)| n.contains("dm1-30s"))
        .expect("dm1 recording");
    let mut seed: u64 = 0xDEAD_BEEF_CAFE_F00D;
    let mut rng = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..300 {
        let mut data = bytes.clone();
        let pos = (rng() % data.len() as u64) as usize;
        data[pos] = rng() as u8;
        let (records, end) = slice_records(&data);
        let mut players = PlayerState::<128>::new();
        for r in &records {
            let _ = players.apply(&r.message);
            if let Message::Ex(ex) = r.message {
                let _ = ex.parse();
            }
        }
        // A header valid whole (opening reads only its version) ...
        let iter = TeehistorianIter::new(&data)
            .ok()
            .filter(|i| i.header().validate().is_ok());
        if let Some(iter) = iter {
            // ... and whatever decoded is written back and decodes to the same
            // messages at the same ticks (TICK_SKIPs are derived again).
            let mut w = TeehistorianWriter::new(iter.header().json()).unwrap();
            for r in &records {
                w.write(r.tick, &r.message).unwrap();
            }
            let written = w.into_bytes();
            let (back, _) = slice_records(&written);
            let strip = |rs: &[Record<'_>]| -> Vec<String> {
                rs.iter()
                    .filter(|r| !matches!(r.message, Message::TickSkip { .. }))
                    .map(|r| format!("{} {:?}", r.tick, r.message))
                    .collect()
            };
            assert_eq!(strip(&back), strip(&records), "corruption at {pos}");
        }
        let mut reader = Reader::with_capacity(&data[..], 2048);
        if reader_header(&mut reader).is_err() {
            assert!(end.is_err());
            continue;
        }
        // The reader yields the same records as the slice iterator, up to
        // where one of them stops.
        let mut n = 0;
        let mut failed = false;
        while let Some(r) = reader.next() {
            let Ok(r) = message(r) else {
                failed = true;
                break;
            };
            assert_eq!(r, records[n], "corruption at {pos}");
            n += 1;
        }
        if !failed && end.is_ok() {
            assert_eq!(n, records.len(), "corruption at {pos}");
            assert_eq!(Ok(reader.end()), end, "corruption at {pos}");
        }
    }
}

/// A message longer than half the `Reader` buffer is a clean
/// `BufferTooSmall` error after the messages before it.
#[test]
fn reader_reports_messages_too_big_for_its_buffer() {
    let mut w = TeehistorianWriter::new(r#"{"version":"2"}"#).unwrap();
    w.write(0, &Message::Join { cid: 1 }).unwrap();
    let big = vec![0x11u8; 5000];
    w.write(0, &Message::PlayerMessage { cid: 1, data: &big })
        .unwrap();
    w.write(0, &Message::Finish).unwrap();
    let bytes = w.into_bytes();
    let mut reader = Reader::with_capacity(&bytes[..], 4096);
    reader_header(&mut reader).unwrap();
    assert_eq!(
        message(reader.next().unwrap()).unwrap().message,
        Message::Join { cid: 1 }
    );
    match reader.next() {
        Some(Err(ReadError::Decode(e))) => {
            assert!(matches!(e.kind, ErrorKind::BufferTooSmall { .. }), "{e}");
        }
        other => panic!("{other:?}"),
    }
    assert!(reader.next().is_none());
    // With a big enough buffer, all three messages come through.
    let mut reader = Reader::with_capacity(&bytes[..], 16384);
    reader_header(&mut reader).unwrap();
    let mut n = 0;
    while let Some(r) = reader.next() {
        message(r).unwrap();
        n += 1;
    }
    assert_eq!((n, reader.end()), (3, End::Complete));
    // Truncated inside the big message: truncation (under the truncation
    // rule, a quiet end after JOIN), not BufferTooSmall.
    let mut reader = Reader::with_capacity(&bytes[..bytes.len() - 10], 16384);
    reader_header(&mut reader).unwrap();
    message(reader.next().unwrap()).unwrap();
    assert!(reader.next().is_none());
    assert!(matches!(reader.end(), End::Truncated { .. }));
}
