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

mod common;
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
