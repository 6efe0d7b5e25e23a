//! Every net message of every corpus demo (message chunks) and teehistorian
//! recording (MESSAGE records), decoded by `gamefmt::netmsg`: the messages
//! of each kind per file equal what libtw2's gamenet crates decoded
//! (`tests/data/netmsg_libtw2.tsv`, printed by
//! `benches/peers/src/bin/netmsg.rs --facts`, which also compares every
//! field of every typed message).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod common;

use std::collections::{BTreeMap, BTreeSet};

use gamefmt::demo::{Chunk, ChunkKind, DemoView, MAX_PAYLOAD, MAX_PAYLOAD_INTS, decode_payload};
use gamefmt::netmsg::{self, NetMsg, Protocol};
use gamefmt::teehistorian::{ClientProtocols, Message, TeehistorianIter};
use zerocopy::IntoBytes;
use zerocopy::little_endian::I32;

type Counts = BTreeMap<(String, String), u64>;

/// The kind as libtw2 names it: the variant name of a typed message, else
/// its id or UUID.
fn kind(msg: &NetMsg<'_>) -> String {
    let variant = |debug: String| {
        debug
            .split(|c: char| !c.is_alphanumeric())
            .next()
            .unwrap()
            .to_owned()
    };
    match msg {
        NetMsg::System { id, .. } => format!("sys {id}"),
        NetMsg::Ex { system, uuid, .. } => {
            format!("{} ex {uuid}", if *system { "sys" } else { "game" })
        }
        NetMsg::Game06(netmsg::Game06::Other { id, .. })
        | NetMsg::Game07(netmsg::Game07::Other { id, .. }) => format!("game {id}"),
        NetMsg::Game06(g) => variant(format!("{g:?}")),
        NetMsg::Game07(g) => variant(format!("{g:?}")),
        other => panic!("unexpected {other:?}"),
    }
}

fn count(counts: &mut Counts, file: &str, protocol: Protocol, bytes: &[u8]) {
    let msg = netmsg::decode(protocol, bytes).unwrap_or_else(|e| panic!("{file}: {e}"));
    *counts.entry((file.to_owned(), kind(&msg))).or_default() += 1;
}

fn expected() -> Counts {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/netmsg_libtw2.tsv");
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .map(|l| {
            let cells: Vec<&str> = l.split('\t').collect();
            (
                (cells[0].to_owned(), cells[1].to_owned()),
                cells[2].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn message_kinds_per_file_equal_libtw2() {
    let demos = common::corpus_files("netmsg_demos", "teeworlds/demos", ".demo");
    let recordings = common::corpus_files(
        "netmsg_teehistorian",
        "teeworlds/teehistorian",
        ".teehistorian",
    );
    if demos.is_none() && recordings.is_none() {
        return;
    }
    let mut ours = Counts::new();
    let mut files = BTreeSet::new();
    let (mut scratch, mut ints) = (vec![0u8; MAX_PAYLOAD], vec![I32::ZERO; MAX_PAYLOAD_INTS]);
    for (name, bytes) in demos.iter().flatten() {
        let Ok(view) = DemoView::parse(bytes) else {
            continue;
        };
        files.insert(name.clone());
        let protocol = Protocol::of_net_version(view.header().net_version());
        for chunk in view.chunks() {
            let Ok(chunk) = chunk else { break };
            let Chunk::Data {
                kind: ChunkKind::Message,
                payload,
            } = chunk
            else {
                continue;
            };
            let Ok(msg) = decode_payload(payload, &mut scratch, &mut ints) else {
                continue;
            };
            count(&mut ours, name, protocol, msg.as_bytes());
        }
    }
    for (name, bytes) in recordings.iter().flatten() {
        let Ok(iter) = TeehistorianIter::new(bytes) else {
            continue;
        };
        files.insert(name.clone());
        let mut protocols = ClientProtocols::<128>::new();
        for record in iter {
            let Ok(record) = record else { break };
            protocols.apply(&record.message);
            if let Message::PlayerMessage { cid, data } = record.message {
                count(&mut ours, name, protocols.get(cid), data);
            }
        }
    }
    // Only files the table knows (a corpus may hold new ones).
    let known: BTreeSet<String> = expected().keys().map(|(f, _)| f.clone()).collect();
    let theirs: Counts = expected()
        .into_iter()
        .filter(|((f, _), _)| files.contains(f))
        .collect();
    ours.retain(|(f, _), _| known.contains(f));
    let total: u64 = ours.values().sum();
    eprintln!(
        "net messages: {total} in {} files, kinds per file compared with libtw2",
        known.intersection(&files).count()
    );
    assert!(total > 0, "no corpus file is in netmsg_libtw2.tsv");
    assert_eq!(ours, theirs);
}

/// Strings keep their bytes (control characters, invalid UTF-8) and are
/// sanitised only on request, as `str_sanitize_cc` would; short fields
/// fail at their offset; unknown ids pass through.
#[test]
fn strings_are_borrowed_and_sanitised_on_request() {
    let bytes = [17 << 1, 0, b't', 0x1F, 0xFF, 0];
    let Ok(NetMsg::Game06(netmsg::Game06::ClSay { message, .. })) =
        netmsg::decode(Protocol::V06, &bytes)
    else {
        panic!("Cl_Say");
    };
    assert_eq!(message.bytes(), b"t\x1F\xFF");
    assert_eq!(message.to_str(), None);
    assert_eq!(message.sanitized().collect::<String>(), "t \u{FFFD}");
    assert_eq!(message.to_string(), "t \u{FFFD}");
    // Truncated fields are an error at their offset.
    let err = netmsg::decode(Protocol::V06, &[3 << 1, 0]).unwrap_err();
    assert_eq!(err.offset, 2);
    // An unknown id passes through with its raw fields.
    let Ok(NetMsg::Game06(netmsg::Game06::Other { id: 99, payload })) =
        netmsg::decode(Protocol::V06, &[0x86, 0x03, 7])
    else {
        panic!("pass-through");
    };
    assert_eq!(payload, [7]);
}
