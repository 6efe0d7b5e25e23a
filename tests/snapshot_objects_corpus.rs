//! Snapshot objects in the corpus demos: every item typed, and the player
//! names decoded from client info objects checked against independent
//! facts — the teehistorian recording the same DDNet server wrote in the
//! same run (SOURCES.md: the dm1 and ctf2 demos and recordings), which
//! names every player in its EX player-name records.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use crate::common;
#[path = "common/names.rs"]
mod names;

use std::collections::BTreeSet;

use gamefmt::Protocol;
use gamefmt::demo::{DemoView, Frames, OwnedBuffers};
use gamefmt::snapshot::objects::{Object, Object06, Object07};

/// Every name in client info objects of every snapshot of `demo`, and the
/// number of typed objects (and of characters) seen.
fn demo_names(demo: &[u8]) -> (BTreeSet<String>, usize, usize) {
    let view = DemoView::parse(demo).unwrap();
    let protocol = Protocol::of_net_version(view.header().net_version());
    let mut owned = OwnedBuffers::new();
    let mut frames = Frames::new(&view, owned.buffers());
    let (mut names, mut typed, mut characters) = (BTreeSet::new(), 0, 0);
    while let Some(frame) = frames.next() {
        let Ok(frame) = frame else { break };
        let snap = frame.snapshot;
        for item in snap.items() {
            match Object::parse(protocol, &snap, &item) {
                Object::V06(Object06::Unknown { .. }) | Object::V07(Object07::Unknown { .. }) => {}
                object => {
                    typed += 1;
                    match object {
                        Object::V06(Object06::ClientInfo(info)) => {
                            names.insert(info.name().to_str().unwrap().to_owned());
                        }
                        Object::V07(Object07::ClientInfo(info)) => {
                            names.insert(info.name().to_str().unwrap().to_owned());
                        }
                        Object::V06(Object06::Character(_))
                        | Object::V07(Object07::Character(_)) => {
                            characters += 1;
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    (names, typed, characters)
}

#[test]
fn client_info_names_are_the_names_the_server_recorded() {
    let Some(demos) = common::corpus_files("objects_demos", "teeworlds/demos", ".demo") else {
        return;
    };
    let Some(recordings) = common::corpus_files(
        "objects_teehistorian",
        "teeworlds/teehistorian",
        ".teehistorian",
    ) else {
        return;
    };
    let mut runs = 0;
    for (run, demo_name, th_name) in [
        (
            "dm1",
            "ddnet-server__dm1-30s-6bots-2dummies.demo",
            "ddnet-server__dm1-30s-6bots-2dummies-clean.teehistorian",
        ),
        (
            "ctf2",
            "ddnet-server__ctf2-2min-12bots-sigkill-truncated.demo",
            "ddnet-server__ctf2-2min-12bots-sigkill-no-finish.teehistorian",
        ),
    ] {
        let (Some((_, demo)), Some((_, th))) = (
            demos.iter().find(|(n, _)| n == demo_name),
            recordings.iter().find(|(n, _)| n == th_name),
        ) else {
            eprintln!("SKIPPED {run}: files not in this corpus");
            continue;
        };
        let (names, typed, characters) = demo_names(demo);
        // The ctf2 recording ends without FINISH: the names before it count.
        let (recorded, _) = names::recorded_names(th);
        eprintln!(
            "{run}: {} names in the demo, {} recorded; {typed} typed objects",
            names.len(),
            recorded.len()
        );
        assert!(!names.is_empty() && characters > 0, "{run}");
        assert!(
            names.is_subset(&recorded),
            "{run}: {names:?} vs {recorded:?}"
        );
        runs += 1;
    }
    // Every demo: all snapshots type without panicking, 0.6 and 0.7.
    let mut with_players = 0;
    for (_, bytes) in &demos {
        if DemoView::parse(bytes).is_ok() && !demo_names(bytes).0.is_empty() {
            with_players += 1;
        }
    }
    assert!(runs > 0 || with_players > 0);
    eprintln!(
        "{with_players} of {} demos name players in client info objects",
        demos.len()
    );
}

/// Every item of every snapshot of the corpus demos is typed, and the
/// kinds are the ones libtw2's `SnapObj::decode_obj` gives the same items
/// (`benches/peers/src/bin/netmsg.rs --objects` compares them item by
/// item: the kind of every item libtw2 knows is equal, and its fields
/// re-encode to the item's ints except where libtw2 appends a default).
#[test]
fn every_item_is_typed_as_libtw2_types_it() {
    // Items per kind over the nine corpus demos of the comparison.
    const KINDS: [(&str, u64); 25] = [
        ("Character", 89_612),
        ("ClientInfo", 105_344),
        ("DDNetCharacter", 89_145),
        ("DDNetLaser", 1_207),
        ("DDNetPickup", 499_803),
        ("DDNetPlayer", 105_344),
        ("DDNetProjectile", 803),
        ("DDNetSpectatorInfo", 240),
        ("DamageInd", 1_615),
        ("De_ClientInfo", 492),
        ("De_GameInfo", 431),
        ("Death", 41),
        ("GameData", 431),
        ("GameInfo", 9_483),
        ("GameInfoEx", 9_483),
        ("HammerHit", 11),
        ("MapBestTime", 7_886),
        ("NETOBJTYPE_EX", 82_841),
        ("Pickup", 3_169),
        ("PlayerInfo", 105_836),
        ("Projectile", 50),
        ("SoundWorld", 1_024),
        ("Spawn", 57),
        ("SpectatorInfo", 55),
        ("SwitchState", 1_049),
    ];
    const FILES: [&str; 9] = [
        "ddnet-server__ctf2-2min-12bots-sigkill-truncated.demo",
        "ddnet-server__dm1-30s-6bots-2dummies.demo",
        "ddnet_demo_web_viewer__assets__demo__big_chungus.demo",
        "ddnet_demo_web_viewer__assets__demo__gigachad_gameplay.demo",
        "ddnet_demo_web_viewer__goat-demo.demo",
        "teeworlds-traffic-dumps__dumps__064_ddnet_join_chat_walk_disconnect__client.demo",
        "teeworlds-traffic-dumps__dumps__075_tw_dm1_join_chat_walk_disconnect__client.demo",
        "teeworlds-traffic-dumps__dumps__075_tw_tinycave_other_player_disconnect__client_bar.demo",
        "teeworlds-traffic-dumps__dumps__075_tw_tinycave_other_player_join_round_start__client_foo.demo",
    ];
    let Some(demos) = common::corpus_files("objects_all_typed", "teeworlds/demos", ".demo") else {
        return;
    };
    let mut counts = std::collections::BTreeMap::<&str, u64>::new();
    let mut seen = 0;
    for (name, bytes) in &demos {
        let Ok(view) = DemoView::parse(bytes) else {
            continue;
        };
        let known = FILES.contains(&name.as_str());
        seen += usize::from(known);
        let protocol = Protocol::of_net_version(view.header().net_version());
        let mut owned = OwnedBuffers::new();
        let mut frames = Frames::new(&view, owned.buffers());
        while let Some(frame) = frames.next() {
            let Ok(frame) = frame else { break };
            let snap = frame.snapshot;
            for item in snap.items() {
                let kind = match Object::parse(protocol, &snap, &item) {
                    Object::V06(o) => o.name(),
                    Object::V07(o) => o.name(),
                };
                assert_ne!(kind, "unknown", "{name}: item type {}", item.type_id());
                if known {
                    *counts.entry(kind).or_default() += 1;
                }
            }
        }
    }
    if seen < FILES.len() {
        println!("SKIPPED kind counts: {seen} of the {} demos", FILES.len());
        return;
    }
    assert_eq!(counts, KINDS.into_iter().collect());
}

/// The serialized form (feature `serde`): `kind` = `name()`, datasrc's
/// field names by position, strings stored as ints decoded, appended
/// fields an item lacks `null`.
#[cfg(feature = "serde")]
#[test]
fn objects_serialize_with_datasrc_names() {
    let Some(demos) = common::corpus_files("objects_serde", "teeworlds/demos", ".demo") else {
        return;
    };
    let mut checked = 0;
    for (_, bytes) in &demos {
        let Ok(view) = DemoView::parse(bytes) else {
            continue;
        };
        let protocol = Protocol::of_net_version(view.header().net_version());
        let mut owned = OwnedBuffers::new();
        let mut frames = Frames::new(&view, owned.buffers());
        while let Some(frame) = frames.next() {
            let Ok(frame) = frame else { break };
            let snap = frame.snapshot;
            for item in snap.items() {
                let object = Object::parse(protocol, &snap, &item);
                let json = match object {
                    Object::V06(o) => serde_json::to_value(o).unwrap(),
                    Object::V07(o) => serde_json::to_value(o).unwrap(),
                };
                let name = match object {
                    Object::V06(o) => o.name(),
                    Object::V07(o) => o.name(),
                };
                assert_eq!(json["kind"], name);
                match object {
                    Object::V06(Object06::ClientInfo(c)) => {
                        assert_eq!(json["name"], c.name().to_str().unwrap());
                        assert_eq!(json["skin"], c.skin().to_str().unwrap());
                        checked += 1;
                    }
                    Object::V07(Object07::ClientInfo(c)) => {
                        assert_eq!(json["name"], c.name().to_str().unwrap());
                        checked += 1;
                    }
                    Object::V06(Object06::Character(c)) => {
                        assert_eq!(json["x"], c.core.x.get());
                        assert_eq!(json["hooked_player"], c.core.hooked_player.get());
                        assert_eq!(json["weapon"], c.weapon.get());
                        checked += 1;
                    }
                    Object::V07(Object07::Character(c)) => {
                        assert_eq!(json["x"], c.core.x.get());
                        assert_eq!(json["weapon"], c.weapon.get());
                        checked += 1;
                    }
                    _ => {}
                }
            }
        }
    }
    assert!(checked > 0);
}
