//! Every net message of every corpus demo (message chunks) and teehistorian
//! recording (MESSAGE records), decoded by `gamefmt::netmsg`: every one is
//! typed, and the messages of each kind per file equal what libtw2's
//! gamenet crates decoded (`tests/data/netmsg_libtw2.tsv`, printed by
//! `benches/peers/src/bin/netmsg.rs --facts`, which also compares every
//! field of every typed message). Without the corpus: SKIPPED.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use crate::common;

use std::collections::{BTreeMap, BTreeSet};

use gamefmt::demo::{Chunk, ChunkKind, DemoView, MAX_PAYLOAD, MAX_PAYLOAD_INTS, decode_payload};
use gamefmt::netmsg::{self, NetMsg, Protocol};
use gamefmt::teehistorian::{ClientProtocols, Message, TeehistorianIter};
use zerocopy::IntoBytes;
use zerocopy::little_endian::I32;

type Counts = BTreeMap<(String, String), u64>;

/// The kind's name as the comparison spells both sides': lower case,
/// without underscores and `NETMSG_` (`Sv_DDRaceTime` ~ libtw2's
/// `SvDdraceTime`, `NETMSG_SNAPEMPTY` ~ `SnapEmpty`).
fn norm(name: &str) -> String {
    name.trim_start_matches("NETMSG_")
        .replace('_', "")
        .to_lowercase()
}

fn count(counts: &mut Counts, file: &str, protocol: Protocol, bytes: &[u8]) {
    let msg = netmsg::decode(protocol, bytes).unwrap_or_else(|e| panic!("{file}: {e}"));
    assert!(msg.is_known(), "{file}: untyped {msg:?}");
    *counts
        .entry((file.to_owned(), norm(msg.name())))
        .or_default() += 1;
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
                (cells[0].to_owned(), norm(cells[1])),
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
        "net messages: {total} in {} files, all typed, kinds per file compared with libtw2",
        known.intersection(&files).count()
    );
    if common::shared_corpus() {
        assert!(total > 0, "no corpus file is in netmsg_libtw2.tsv");
    }
    // libtw2 refuses the tune parameter and team state lengths it does not
    // expect; those kinds hold at least what libtw2 decoded.
    let lenient = ["svtuneparams", "svteamsstate"];
    for (key, n) in &theirs {
        let got = ours.get(key).copied().unwrap_or(0);
        if lenient.contains(&key.1.as_str()) {
            assert!(got >= *n, "{key:?}: ours {got}, libtw2 {n}");
        } else {
            assert_eq!(got, *n, "{key:?}");
        }
    }
    for (key, n) in &ours {
        assert!(
            theirs.contains_key(key) || lenient.contains(&key.1.as_str()),
            "{key:?}: {n} messages libtw2 does not type"
        );
    }
}

/// The map a DDNet server demo announces, as libtw2 decodes it
/// (`benches/peers/src/bin/netmsg.rs --facts`): NETMSG_MAP_CHANGE and
/// DDNet's NETMSG_MAP_DETAILS.
#[test]
fn map_change_and_details_equal_libtw2() {
    let Some(demos) = common::corpus_files("netmsg_map", "teeworlds/demos", ".demo") else {
        return;
    };
    let Some((_, bytes)) = demos
        .iter()
        .find(|(n, _)| n == "ddnet-server__dm1-30s-6bots-2dummies.demo")
    else {
        println!("SKIPPED: ddnet-server__dm1-30s-6bots-2dummies.demo not in the corpus");
        return;
    };
    let view = DemoView::parse(bytes).unwrap();
    let (mut scratch, mut ints) = (vec![0u8; MAX_PAYLOAD], vec![I32::ZERO; MAX_PAYLOAD_INTS]);
    let (mut changes, mut details) = (0, 0);
    for chunk in view.chunks() {
        let Ok(Chunk::Data {
            kind: ChunkKind::Message,
            payload,
        }) = chunk
        else {
            continue;
        };
        let msg = decode_payload(payload, &mut scratch, &mut ints).unwrap();
        match netmsg::decode(Protocol::V06, msg.as_bytes()).unwrap() {
            NetMsg::System06(netmsg::System06::MapChange {
                name,
                map_crc,
                map_size,
            }) => {
                assert_eq!(
                    (name.bytes(), map_crc, map_size),
                    (&b"dm1"[..], -233_464_210, 5805)
                );
                changes += 1;
            }
            NetMsg::Extended(netmsg::Extended::MapDetails {
                name, sha256, crc, ..
            }) => {
                assert_eq!((name.bytes(), crc), (&b"dm1"[..], -233_464_210));
                let hex: String = sha256.iter().map(|b| format!("{b:02x}")).collect();
                assert_eq!(
                    hex,
                    "0b0c481d77519c32fbe85624ef16ec0fa9991aec7367ad538bd280f28d8c26cf"
                );
                details += 1;
            }
            _ => {}
        }
    }
    assert!(
        changes > 0 && details > 0,
        "{changes} map changes, {details} map details"
    );
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

/// Multi-byte ints read the same near the end of a message (byte by byte)
/// as with eight bytes left (from one word); an int cut short is an error
/// at its offset; strings in a row (`NetStrs`) keep every string and fail
/// as the separate fields did when one is missing.
#[test]
fn ints_and_string_groups_read_alike_everywhere() {
    // NETMSG_INPUTTIMING (system 9): 64 is [0x80, 0x01], -65 [0xC0, 0x01]
    // (the varint module's documented encodings).
    let short = [9 << 1 | 1, 0x80, 0x01, 0xC0, 0x01];
    let mut padded = short.to_vec();
    padded.extend([0; 12]);
    for bytes in [&short[..], &padded[..]] {
        let msg = netmsg::decode(Protocol::V06, bytes).unwrap();
        assert_eq!(
            format!("{msg:?}"),
            "System06(InputTiming { intended_tick: 64, time_left: -65 })"
        );
    }
    let err = netmsg::decode(Protocol::V06, &[9 << 1 | 1, 0x80, 0x01, 0xC0]).unwrap_err();
    assert_eq!(
        (err.kind, err.offset),
        (gamefmt::ErrorKind::InvalidVarint, 3)
    );
    // Sv_VoteOptionListAdd (12): two options, then 13 empty descriptions.
    let mut bytes = vec![12 << 1, 2, b'a', 0, b'b', b'c', 0];
    bytes.extend([0; 13]);
    let Ok(NetMsg::Game06(netmsg::Game06::SvVoteOptionListAdd {
        num_options: 2,
        descriptions,
    })) = netmsg::decode(Protocol::V06, &bytes)
    else {
        panic!("a vote option list");
    };
    let texts: Vec<&[u8]> = descriptions.iter().map(|d| d.bytes()).collect();
    assert_eq!(texts.len(), 15);
    assert_eq!(
        (texts[0], texts[1], texts[14]),
        (&b"a"[..], &b"bc"[..], &b""[..])
    );
    assert_eq!(descriptions.get(1).map(|d| d.bytes()), Some(&b"bc"[..]));
    assert_eq!(descriptions.to_array()[14].bytes(), b"");
    #[cfg(feature = "serde")]
    {
        let json = serde_json::to_value(netmsg::decode(Protocol::V06, &bytes).unwrap()).unwrap();
        assert_eq!(json["description1"], "bc");
        assert_eq!(json["description14"], "");
        assert_eq!(json.as_object().map(|m| m.len()), Some(17));
    }
    // A 0.7 Cl_StartInfo: its six skin part names serialize as an array.
    #[cfg(feature = "serde")]
    {
        let id = netmsg::KINDS
            .iter()
            .find(|k| k.protocol == Some(Protocol::V07) && !k.system && k.name == "Cl_StartInfo")
            .map(|k| k.id)
            .unwrap();
        let mut info = vec![u8::try_from(id << 1).unwrap()];
        info.extend(b"me\0\0\x00a\0b\0c\0d\0e\0f\0");
        info.extend([1, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7]);
        let json = serde_json::to_value(netmsg::decode(Protocol::V07, &info).unwrap()).unwrap();
        assert_eq!(
            json["skin_part_names"],
            serde_json::json!(["a", "b", "c", "d", "e", "f"])
        );
        assert_eq!(
            json["use_custom_colors"],
            serde_json::json!([true, false, false, false, false, true])
        );
        assert_eq!(
            json["skin_part_colors"],
            serde_json::json!([2, 3, 4, 5, 6, 7])
        );
    }
    // One NUL short: truncated at the end of the message.
    let err = netmsg::decode(Protocol::V06, &bytes[..bytes.len() - 1]).unwrap_err();
    assert_eq!(
        (err.kind, err.offset),
        (gamefmt::ErrorKind::Truncated, bytes.len() - 1)
    );
}

/// The serialized form: `kind` = `name()`, datasrc's field names in
/// snake_case (`m_pType` as `type`), raw bytes as bytes, lists as arrays.
#[cfg(feature = "serde")]
#[test]
fn serialized_with_datasrc_names() {
    // Cl_CallVote (25): "option", "map dm1", "" (strings NUL-terminated).
    let bytes = b"\x32option\0map dm1\0\0";
    let msg = netmsg::decode(Protocol::V06, bytes).unwrap();
    assert_eq!(msg.name(), "Cl_CallVote");
    assert_eq!(
        serde_json::to_value(msg).unwrap(),
        serde_json::json!({"kind": "Cl_CallVote", "type": "option", "value": "map dm1", "reason": ""})
    );
    // Cl_StartInfo's grouped identity serializes flat.
    let bytes = b"\x28me\0\0\x00default\0\x01\x02\x03";
    let msg = netmsg::decode(Protocol::V06, bytes).unwrap();
    assert_eq!(
        serde_json::to_value(msg).unwrap(),
        serde_json::json!({"kind": "Cl_StartInfo", "name": "me", "clan": "", "country": 0,
            "skin": "default", "use_custom_color": true, "color_body": 2, "color_feet": 3})
    );
    // NETMSG_INPUTTIMING (system 9) and Sv_TuneParams (game 6, a list).
    let msg = netmsg::decode(Protocol::V06, &[9 << 1 | 1, 5, 7]).unwrap();
    assert_eq!(
        serde_json::to_value(msg).unwrap(),
        serde_json::json!({"kind": "NETMSG_INPUTTIMING", "intended_tick": 5, "time_left": 7})
    );
    let msg = netmsg::decode(Protocol::V06, &[6 << 1, 1, 2, 0x40]).unwrap();
    assert_eq!(
        serde_json::to_value(msg).unwrap(),
        serde_json::json!({"kind": "Sv_TuneParams", "params": [1, 2, -1]})
    );
    // Unknown ids pass through, named as unknown.
    let msg = netmsg::decode(Protocol::V06, &[0x86, 0x03, 7]).unwrap();
    assert_eq!(msg.name(), "unknown_game");
    assert_eq!(
        serde_json::to_value(msg).unwrap(),
        serde_json::json!({"kind": "unknown_game", "id": 99, "payload": [7]})
    );
}

/// The README's table of message and object kinds per protocol version is
/// the generated tables' (`netmsg::KINDS`, `snapshot::objects::v06::KINDS`
/// and `v07::KINDS`) with the DDNet commit they were generated from. Run
/// with `GAMEFMT_BLESS=1` to rewrite it after regenerating.
#[test]
fn readme_lists_every_kind() {
    use gamefmt::snapshot::objects::{v06, v07};
    const BEGIN: &str = "<!-- netmsg-kinds:begin (tests/netmsg_corpus.rs writes this table) -->\n";
    const END: &str = "<!-- netmsg-kinds:end -->";
    let generated = include_str!("../src/netmsg/generated.rs");
    let rev = generated
        .split("commit ")
        .nth(1)
        .and_then(|s| s.get(..40))
        .unwrap();
    let messages = |protocol: Option<Protocol>, system: bool| -> Vec<&str> {
        netmsg::KINDS
            .iter()
            .filter(|k| k.protocol == protocol && k.system == system)
            .map(|k| k.name)
            .collect()
    };
    let objects = |kinds: &[(&'static str, u16, &'static str, usize, usize)], ex: bool| {
        kinds
            .iter()
            .filter(|k| (k.1 == 0) == ex)
            .map(|k| k.0)
            .collect::<Vec<_>>()
    };
    let rows: [(&str, &str, Vec<&str>, &str); 9] = [
        (
            "0.6/DDNet",
            "game messages",
            messages(Some(Protocol::V06), false),
            "`datasrc/network.py`",
        ),
        (
            "0.6/DDNet",
            "system messages",
            messages(Some(Protocol::V06), true),
            "`src/engine/shared/protocol.h` (fields: `tools/netmsg-gen/spec.py`)",
        ),
        (
            "0.7",
            "game messages",
            messages(Some(Protocol::V07), false),
            "`datasrc/seven/network.py`",
        ),
        (
            "0.7",
            "system messages",
            messages(Some(Protocol::V07), true),
            "`src/engine/shared/protocol7.h` (fields: `tools/netmsg-gen/spec.py`)",
        ),
        (
            "DDNet extended (UUID)",
            "game messages",
            messages(None, false),
            "`datasrc/network.py`",
        ),
        (
            "DDNet extended (UUID)",
            "system messages",
            messages(None, true),
            "`src/engine/shared/protocol_ex_msgs.h` (fields: `tools/netmsg-gen/spec.py`)",
        ),
        (
            "0.6/DDNet",
            "snapshot objects and events",
            objects(&v06::KINDS, false),
            "`datasrc/network.py`",
        ),
        (
            "DDNet extended (UUID)",
            "snapshot objects and events",
            objects(&v06::KINDS, true),
            "`datasrc/network.py`",
        ),
        (
            "0.7",
            "snapshot objects and events",
            objects(&v07::KINDS, false),
            "`datasrc/seven/network.py`",
        ),
    ];
    let mut table = format!(
        "Generated by `tools/netmsg-gen/generate.py` from DDNet's protocol description at commit [`{}`](https://github.com/ddnet/ddnet/tree/{rev}); \
         unknown ids and UUIDs pass through as `unknown_system`, `unknown_game`, `unknown_ex`.\n\n\
         | protocol | kinds | count | names | source |\n|---|---|---|---|---|\n",
        &rev[..12]
    );
    for (protocol, what, names, source) in &rows {
        assert!(!names.is_empty(), "{protocol} {what}");
        table += &format!(
            "| {protocol} | {what} | {} | {} | {source} |\n",
            names.len(),
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
    let readme = std::fs::read_to_string(path).unwrap();
    let start = readme
        .find(BEGIN)
        .expect("README has the netmsg-kinds markers")
        + BEGIN.len();
    let end = readme[start..].find(END).unwrap() + start;
    if std::env::var_os("GAMEFMT_BLESS").is_some() {
        let mut new = readme.clone();
        new.replace_range(start..end, &table);
        std::fs::write(path, new).unwrap();
        return;
    }
    assert!(
        readme[start..end] == table,
        "README's message and object kinds are out of date: rerun with GAMEFMT_BLESS=1"
    );
}
