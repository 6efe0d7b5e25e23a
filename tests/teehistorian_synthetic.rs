//! Teehistorian files made by the crate's own writer (and a few bytes made
//! by hand): every message kind, every EX kind, the tick edge cases of
//! teeworlds.md §2.5, the three endings and the error cases.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use gamefmt::ErrorKind;
use gamefmt::stream::{Decoded, End};
use gamefmt::teehistorian::{
    Args, CommandLine, Ex, ExMessage, Message, PackedInput, Record, TeehistorianIter,
    TeehistorianWriter, uuids,
};
use uuid::Uuid;

const HEADER: &str = r#"{"comment":"teehistorian@ddnet.tw","version":"2","version_minor":"8","game_uuid":"00000000-0000-4000-8000-000000000001","map_name":"synthetic","config":{},"tuning":{}}"#;

fn body_start() -> usize {
    16 + HEADER.len() + 1
}

fn decode(bytes: &[u8]) -> (Vec<Record<'_>>, Option<End>) {
    let mut iter = TeehistorianIter::new(bytes).unwrap();
    let records = iter.by_ref().map(Result::unwrap).collect();
    (records, Some(iter.end()))
}

fn file(body: &[u8]) -> Vec<u8> {
    let mut out = uuids::TEEHISTORIAN.as_bytes().to_vec();
    out.extend_from_slice(HEADER.as_bytes());
    out.push(0);
    out.extend_from_slice(body);
    out
}

const SAVE_ID: Uuid = uuid::uuid!("11111111-2222-3333-4444-555555555555");

fn all_ex() -> Vec<ExMessage<'static>> {
    vec![
        ExMessage::Test,
        ExMessage::DdnetVersionOld {
            cid: 1,
            version: 16050,
        },
        ExMessage::DdnetVersion {
            cid: 1,
            connection_id: SAVE_ID,
            version: 16050,
            version_str: b"DDNet 16.5",
        },
        ExMessage::AuthInit {
            cid: 2,
            level: 3,
            auth_name: b"admin",
        },
        ExMessage::AuthLogin {
            cid: 2,
            level: 3,
            auth_name: b"admin",
        },
        ExMessage::AuthLogout { cid: 2 },
        ExMessage::JoinVer6 { cid: 4 },
        ExMessage::JoinVer7 { cid: 5 },
        ExMessage::PlayerSwitch { cid1: 4, cid2: 5 },
        ExMessage::SaveSuccess {
            team: 7,
            save_id: SAVE_ID,
            save: b"save\tstring\n",
        },
        ExMessage::SaveFailure { team: 7 },
        ExMessage::LoadSuccess {
            team: 7,
            save_id: SAVE_ID,
            save: b"save",
        },
        ExMessage::LoadFailure { team: 8 },
        ExMessage::PlayerTeam { cid: 4, team: 7 },
        ExMessage::TeamPractice {
            team: 7,
            practice: 1,
        },
        ExMessage::PlayerReady { cid: 4 },
        ExMessage::PlayerRejoin { cid: 4 },
        ExMessage::Antibot {
            data: b"\0\x01opaque\0",
        },
        ExMessage::PlayerName {
            cid: 4,
            name: "ünïcode".as_bytes(),
        },
        ExMessage::PlayerFinish {
            cid: 4,
            time: 123_456,
        },
        ExMessage::TeamFinish {
            team: 7,
            time: 123_457,
        },
        ExMessage::Unknown {
            uuid: uuid::uuid!("01234567-89ab-3def-8123-456789abcdef"),
            data: b"whatever",
        },
    ]
}

#[test]
fn every_message_and_ex_kind_round_trips() {
    let args = Args::from_raw(b"first\0\0third arg\0");
    let mut line_buf = [0u8; 32];
    assert_eq!(args.len(), 3);
    let each: Vec<&[u8]> = args.iter().collect();
    assert_eq!(each, [&b"first"[..], b"", b"third arg"]);
    // Bytes after the last NUL are no argument.
    let cut = Args::from_raw(b"a\0bc");
    assert_eq!((cut.len(), cut.raw()), (1, &b"a\0"[..]));
    assert_eq!(cut.iter().collect::<Vec<_>>(), [&b"a"[..]]);
    assert!(Args::from_raw(b"no nul").is_empty());
    let messages: Vec<(i32, Message<'_>)> = vec![
        (0, Message::Join { cid: 4 }),
        (
            1,
            Message::PlayerNew {
                cid: 4,
                x: 100,
                y: -200,
            },
        ),
        (
            1,
            Message::PlayerNew {
                cid: 63,
                x: 1,
                y: 2,
            },
        ),
        (
            1,
            Message::InputNew {
                cid: 4,
                input: PackedInput::from_ints(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
            },
        ),
        (
            2,
            Message::PlayerDiff {
                cid: 4,
                dx: i32::MIN,
                dy: i32::MAX,
            },
        ),
        (2, Message::PlayerOld { cid: 63 }),
        (
            2,
            Message::InputDiff {
                cid: 4,
                diff: PackedInput::from_ints(&[-1, 0, 0, 0, 0, 0, 0, 0, 0, i32::MIN]),
            },
        ),
        (
            2,
            Message::PlayerMessage {
                cid: 4,
                data: &[0x28, 0x00, b'h', b'i', 0],
            },
        ),
        (
            7,
            Message::Drop {
                cid: 4,
                reason: b"Timeout",
            },
        ),
        (
            7,
            Message::ConsoleCommand {
                cid: -1,
                flags: 8,
                line: CommandLine::encode(b"say", args, &mut line_buf).unwrap(),
            },
        ),
        (
            7,
            Message::ConsoleCommand {
                cid: 2,
                flags: 0,
                line: CommandLine::new(b"logout\0\0").unwrap(),
            },
        ),
    ];
    let mut w = TeehistorianWriter::new(HEADER).unwrap();
    for (tick, msg) in &messages {
        w.write(*tick, msg).unwrap();
    }
    let ex = all_ex();
    for e in &ex {
        w.write_ex(9, e).unwrap();
    }
    w.write(9, &Message::Finish).unwrap();
    let bytes = w.into_bytes();

    let (records, end) = decode(&bytes);
    assert_eq!(end, Some(End::Complete));
    let plain: Vec<(i32, Message<'_>)> = records
        .iter()
        .filter(|r| !matches!(r.message, Message::TickSkip { .. } | Message::Ex(_)))
        .map(|r| (r.tick, r.message))
        .collect();
    let mut want = messages.clone();
    want.push((9, Message::Finish));
    assert_eq!(plain, want);
    let typed: Vec<ExMessage<'_>> = records
        .iter()
        .filter_map(|r| match r.message {
            Message::Ex(e) => Some(e.parse().unwrap()),
            _ => None,
        })
        .collect();
    assert_eq!(typed, ex);
    assert!(
        records
            .iter()
            .all(|r| !matches!(r.message, Message::Ex(_)) || r.tick == 9)
    );

    // Decoding and writing back gives the same bytes.
    let mut again = TeehistorianWriter::new(HEADER).unwrap();
    for r in &records {
        again.write(r.tick, &r.message).unwrap();
    }
    assert_eq!(again.into_bytes(), bytes);

    // The console command arguments come back as written.
    let args: Vec<&[u8]> = records
        .iter()
        .find_map(|r| match r.message {
            Message::ConsoleCommand { line, .. } if !line.args().is_empty() => {
                Some(line.args().iter().collect())
            }
            _ => None,
        })
        .unwrap();
    assert_eq!(args, [&b"first"[..], b"", b"third arg"]);
}

#[test]
fn ex_names_and_unknown_uuids() {
    for e in all_ex() {
        let name = uuids::name(&e.uuid());
        assert_eq!(
            name.is_none(),
            matches!(e, ExMessage::Unknown { .. }),
            "{e:?}"
        );
    }
    assert_eq!(
        uuids::name(&uuids::PLAYER_SWITCH),
        Some("teehistorian-player-swap@ddnet.tw")
    );
    assert_eq!(uuids::NAMES.len(), 21);
}

#[test]
fn records_before_the_first_tick_are_tick_0_and_first_player_record_is_tick_1() {
    let mut w = TeehistorianWriter::new(HEADER).unwrap();
    w.write_ex(
        0,
        &ExMessage::AuthInit {
            cid: 0,
            level: 1,
            auth_name: b"a",
        },
    )
    .unwrap();
    w.write(0, &Message::Join { cid: 0 }).unwrap();
    w.write(1, &Message::PlayerNew { cid: 0, x: 0, y: 0 })
        .unwrap();
    let bytes = w.into_bytes();
    // No TICK_SKIP anywhere: tick 1 is implicit.
    let (records, end) = decode(&bytes);
    assert_eq!(end, Some(End::Eof));
    let ticks: Vec<i32> = records.iter().map(|r| r.tick).collect();
    assert_eq!(ticks, [0, 0, 1]);
    assert!(
        !records
            .iter()
            .any(|r| matches!(r.message, Message::TickSkip { .. }))
    );

    // The same by hand: a body that starts with a player record.
    let bytes = file(&[0x42, 0x00, 0x01, 0x02, 0x40]);
    let (records, _) = decode(&bytes);
    assert_eq!(records[0].tick, 1);
    assert_eq!(
        records[0].message,
        Message::PlayerNew { cid: 0, x: 1, y: 2 }
    );
}

#[test]
fn tick_skip_zero_empty_ticks_and_descending_cids() {
    let pd = |cid| Message::PlayerDiff { cid, dx: 1, dy: 0 };
    let pn = |cid| Message::PlayerNew { cid, x: 0, y: 0 };
    let mut w = TeehistorianWriter::new(HEADER).unwrap();
    w.write(1, &pn(3)).unwrap();
    w.write(1, &pn(7)).unwrap();
    // Descending cid: implicit tick.
    w.write(2, &pd(1)).unwrap();
    w.write(2, &pd(2)).unwrap();
    // Same cid as the last one: implicit tick.
    w.write(3, &pd(2)).unwrap();
    // Higher cid in the next tick: TICK_SKIP 0.
    w.write(4, &pd(3)).unwrap();
    // Ticks 5..=9 empty: TICK_SKIP 5.
    w.write(10, &pd(3)).unwrap();
    // A tick with only an input, then players again: TICK_SKIP 0 twice.
    w.write(11, &Message::Join { cid: 9 }).unwrap();
    w.write(12, &pd(1)).unwrap();
    w.write(12, &Message::Finish).unwrap();
    let bytes = w.into_bytes();
    let body = &bytes[body_start()..];
    assert_eq!(
        body,
        [
            0x42, 3, 0, 0, // PLAYER_NEW 3 (tick 1, implicit)
            0x42, 7, 0, 0, // PLAYER_NEW 7
            1, 1, 0, // PLAYER_DIFF 1 (tick 2, implicit)
            2, 1, 0, // PLAYER_DIFF 2
            2, 1, 0, // PLAYER_DIFF 2 (tick 3, implicit)
            0x41, 0, 3, 1, 0, // TICK_SKIP 0, PLAYER_DIFF 3 (tick 4)
            0x41, 5, 3, 1, 0, // TICK_SKIP 5, PLAYER_DIFF 3 (tick 10)
            0x41, 0, 0x47, 9, // TICK_SKIP 0, JOIN 9 (tick 11)
            0x41, 0, 1, 1, 0,    // TICK_SKIP 0, PLAYER_DIFF 1 (tick 12)
            0x40, // FINISH
        ]
    );
    let (records, end) = decode(&bytes);
    assert_eq!(end, Some(End::Complete));
    let ticks: Vec<i32> = records
        .iter()
        .filter(|r| !matches!(r.message, Message::TickSkip { .. }))
        .map(|r| r.tick)
        .collect();
    assert_eq!(ticks, [1, 1, 2, 2, 3, 4, 10, 11, 12, 12]);
    // A TICK_SKIP belongs to the tick it starts.
    let skips: Vec<i32> = records
        .iter()
        .filter(|r| matches!(r.message, Message::TickSkip { .. }))
        .map(|r| r.tick)
        .collect();
    assert_eq!(skips, [4, 10, 11, 12]);
}

#[test]
fn cut_ex_payload_is_reported_not_fatal() {
    // A SAVE_SUCCESS whose string lost its end, as minor < 9 servers wrote
    // big saves, followed by a normal message.
    let mut w = TeehistorianWriter::new(HEADER).unwrap();
    let mut payload = vec![7u8];
    payload.extend_from_slice(SAVE_ID.as_bytes());
    payload.extend_from_slice(b"cut short, no NUL");
    w.write(
        0,
        &Message::Ex(Ex {
            uuid: &uuids::SAVE_SUCCESS,
            data: &payload,
        }),
    )
    .unwrap();
    // Trailing bytes after the known fields are ignored.
    w.write(
        0,
        &Message::Ex(Ex {
            uuid: &uuids::JOINVER6,
            data: &[5, 0xFF, 0xFF],
        }),
    )
    .unwrap();
    w.write(0, &Message::Join { cid: 5 }).unwrap();
    let bytes = w.into_bytes();
    let (records, end) = decode(&bytes);
    assert_eq!(end, Some(End::Eof));
    let Message::Ex(ex) = records[0].message else {
        panic!()
    };
    let err = ex.parse().unwrap_err();
    assert_eq!(err.kind, ErrorKind::Truncated);
    assert_eq!(err.offset, payload.len());
    let Message::Ex(ex) = records[1].message else {
        panic!()
    };
    assert_eq!(ex.parse(), Ok(ExMessage::JoinVer6 { cid: 5 }));
    assert_eq!(records[2].message, Message::Join { cid: 5 });
}

#[test]
fn three_endings() {
    let mut w = TeehistorianWriter::new(HEADER).unwrap();
    w.write(
        1,
        &Message::PlayerNew {
            cid: 0,
            x: 1000,
            y: 1000,
        },
    )
    .unwrap();
    w.write(
        1,
        &Message::Drop {
            cid: 0,
            reason: b"bye",
        },
    )
    .unwrap();
    let open = w.bytes().to_vec();
    w.write(1, &Message::Finish).unwrap();
    let finished = w.into_bytes();

    assert_eq!(decode(&finished).1, Some(End::Complete));
    assert_eq!(decode(&finished).0.len(), 3);
    assert_eq!(decode(&open).1, Some(End::Eof));
    assert_eq!(decode(&open).0.len(), 2);

    // Cut inside DROP: PLAYER_NEW is delivered, then (the truncation rule)
    // a quiet end, truncated at the offset where DROP starts.
    let cut = &open[..open.len() - 2];
    let drop_at = body_start() + 1 + 1 + 2 + 2;
    let mut iter = TeehistorianIter::new(cut).unwrap();
    assert!(matches!(
        iter.next(),
        Some(Ok(Record {
            message: Message::PlayerNew { .. },
            ..
        }))
    ));
    assert!(iter.next().is_none());
    // Fused: the cut message is not tried into anything else.
    assert!(iter.next().is_none());
    assert_eq!(iter.end(), End::Truncated { offset: drop_at });

    // Cut inside the header.
    assert_eq!(
        TeehistorianIter::new(&finished[..20]).unwrap_err().kind,
        ErrorKind::Truncated
    );
}

#[test]
fn player_diffs_after_finish_or_an_error_are_not_read() {
    // Two PLAYER_DIFFs (cid 0, then cid 1: 1-byte ids, dx = dy = 1) after
    // FINISH (-1 packs as 0x40) and after an unknown id (-12, 0x4B): the
    // short path of `next` must not take them.
    let diffs = [0x00, 0x01, 0x01, 0x01, 0x01, 0x01];
    let finished = file(&[&[0x40][..], &diffs].concat());
    let mut iter = TeehistorianIter::new(&finished).unwrap();
    assert_eq!(iter.next().unwrap().unwrap().message, Message::Finish);
    assert!(iter.next().is_none());
    assert!(iter.next().is_none());
    assert_eq!(iter.end(), End::Complete);
    // The offset stays after FINISH (one byte), before the PLAYER_DIFFs.
    assert_eq!(iter.offset(), body_start() + 1);

    let failed = file(&[&[0x4B][..], &diffs].concat());
    let mut iter = TeehistorianIter::new(&failed).unwrap();
    assert!(iter.next().unwrap().is_err());
    assert!(iter.next().is_none());
    assert!(iter.next().is_none());
    assert!(matches!(iter.end(), End::Damaged(_)));
    // The offset stays at the bad message.
    assert_eq!(iter.offset(), body_start());

    // Without the end before them, both are read: cids 0 and 1, one tick.
    let plain = file(&diffs);
    let cids: Vec<_> = TeehistorianIter::new(&plain)
        .unwrap()
        .map(|r| match r.unwrap() {
            Record {
                tick: 1,
                message: Message::PlayerDiff { cid, dx: 1, dy: 1 },
                ..
            } => cid,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(cids, [0, 1]);
}

#[test]
fn invalid_input_is_a_clean_error_and_fuses() {
    // Unknown message id -12 (0x4B) after a valid JOIN.
    let bytes = file(&[0x47, 0x01, 0x4B, 0x47, 0x02]);
    let mut iter = TeehistorianIter::new(&bytes).unwrap();
    assert_eq!(
        iter.next().unwrap().unwrap().message,
        Message::Join { cid: 1 }
    );
    let err = iter.next().unwrap().unwrap_err();
    assert!(matches!(err.kind, ErrorKind::Corrupt(_)), "{err}");
    assert!(iter.next().is_none());
    // Fused for good: no second error, nothing from the bytes after it.
    assert!(iter.next().is_none());
    assert_eq!(iter.by_ref().count(), 0);
    assert!(matches!(iter.end(), End::Damaged(_)));

    // The push decoder is fused too: the same error again, whatever follows.
    let mut decoder = gamefmt::teehistorian::Decoder::new();
    let at = body_start() + 2;
    assert!(matches!(
        decoder.decode(&bytes),
        Ok(Decoded::Record {
            record: gamefmt::teehistorian::Item::Header(_),
            ..
        })
    ));
    let body = &bytes[body_start()..];
    assert!(decoder.decode(body).is_ok());
    let first = decoder.decode(&body[2..]).unwrap_err();
    assert_eq!(first.offset, at);
    assert_eq!(decoder.decode(&[0x47, 0x01]), Err(first));
    assert_eq!(decoder.end(0), End::Damaged(first));

    // Negative sizes.
    for body in [&[0x46, 0x00, 0x41][..], &[0x49, 0x40, 0x00, 0x00, 0x41]] {
        let bytes = file(body);
        let err = TeehistorianIter::new(&bytes)
            .unwrap()
            .next()
            .unwrap()
            .unwrap_err();
        assert!(matches!(err.kind, ErrorKind::Corrupt(_)), "{err}");
    }
    // Negative TICK_SKIP.
    let bytes = file(&[0x41, 0x40]);
    assert!(
        TeehistorianIter::new(&bytes)
            .unwrap()
            .next()
            .unwrap()
            .is_err()
    );
    // Tick overflow.
    let bytes = file(&[0x41, 0xBE, 0xFF, 0xFF, 0xFF, 0x0F, 0x41, 0x00]);
    let mut iter = TeehistorianIter::new(&bytes).unwrap();
    assert_eq!(iter.next().unwrap().unwrap().tick, i32::MAX);
    assert!(iter.next().unwrap().is_err());

    // Bad magic, unsupported version, header without NUL.
    assert_eq!(
        TeehistorianIter::new(b"invalid data\n").unwrap_err().kind,
        ErrorKind::BadMagic
    );
    let mut v3 = uuids::TEEHISTORIAN.as_bytes().to_vec();
    v3.extend_from_slice(b"{\"version\":\"3\"}\0");
    assert_eq!(
        TeehistorianIter::new(&v3).unwrap_err().kind,
        ErrorKind::UnsupportedVersion(3)
    );
    assert!(TeehistorianWriter::new("{\"version\":\"2\"}\0").is_err());
}

/// A body shorter than `fold`'s short-input limit (64 bytes) takes its
/// general path alone, handing each record on after the next is decoded:
/// at every cut and with every byte changed, `fold` yields exactly what
/// `next` yields (odd and even counts, errors, FINISH, a cut message).
#[test]
fn short_input_fold_equals_next_at_every_cut_and_byte() {
    // JOIN 1, TICK_SKIP 0, PLAYER_NEW 1 (3, -5), PLAYER_DIFF 1 (1, 1),
    // INPUT_NEW 1 (ten ints), DROP 1 (empty reason), FINISH.
    let body: Vec<u8> = [
        &[0x47, 0x01][..],
        &[0x41, 0x00],
        &[0x42, 0x01, 0x03, 0x44],
        &[0x01, 0x01, 0x01],
        &[0x45, 0x01, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0],
        &[0x48, 0x01, 0x00],
        &[0x40],
    ]
    .concat();
    assert!(body.len() < 64);
    let whole = file(&body);
    let check = |bytes: &[u8]| {
        let Ok(iter) = TeehistorianIter::new(bytes) else {
            return;
        };
        // A `for` loop calls `next`; `for_each` runs `fold`.
        let mut by_next = Vec::new();
        for item in iter {
            by_next.push(item);
        }
        let mut by_fold = Vec::new();
        TeehistorianIter::new(bytes)
            .unwrap()
            .for_each(|item| by_fold.push(item));
        assert_eq!(by_fold, by_next, "{bytes:?}");
    };
    let (records, end) = decode(&whole);
    assert_eq!(records.len(), 7);
    assert_eq!(records.last().unwrap().message, Message::Finish);
    assert_eq!(end, Some(End::Complete));
    for cut in body_start()..=whole.len() {
        check(&whole[..cut]);
    }
    for at in body_start()..whole.len() {
        for value in [0x00, 0x3F, 0x40, 0x4B, 0x7F, 0x80, 0xFF] {
            let mut bytes = whole.clone();
            bytes[at] = value;
            check(&bytes);
        }
    }
}
