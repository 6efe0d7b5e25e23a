//! `gamefmt inspect --json` and `gamefmt dump --map` on every corpus map,
//! compared with the facts an independent reader computed
//! (`tests/data/map_facts.py` → `tests/data/map_facts.jsonl`).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use crate::common;

use std::process::Command;

use serde_json::Value;

const FACTS: &str = include_str!("../../../tests/data/map_facts.jsonl");
/// A file only the shared corpus has: totals are checked only there.
const SHARED_MARKER: &str = "ddnet-map-lib__tests__TestOut.map";
const KEYS: [&str; 11] = [
    "embedded_images",
    "envelope_points",
    "envelopes",
    "game_layer",
    "groups",
    "images",
    "layer_kinds",
    "layers",
    "legacy",
    "quads",
    "sounds",
];

fn gamefmt(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gamefmt"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn inspect_map_object_matches_independent_facts() {
    let Some(dir) = common::corpus_dir("inspect_map_object_matches_independent_facts") else {
        return;
    };
    let dir = dir.join("teeworlds/maps");
    let mut checked = 0;
    for line in FACTS.lines() {
        let expected: Value = serde_json::from_str(line).unwrap();
        let file = expected["file"].as_str().unwrap();
        let path = dir.join(file);
        if !path.exists() {
            continue; // another corpus (GAMEFMT_CORPUS)
        }
        let (ok, stdout, _) = gamefmt(&["inspect", "--json", path.to_str().unwrap()]);
        if expected.get("error").is_some() {
            assert!(!ok, "{file} should not read");
            continue;
        }
        assert!(ok, "{file}");
        let got: Value = serde_json::from_str(&stdout).unwrap();
        let map = got["map"].as_object().unwrap();
        let mut keys: Vec<&str> = map.keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(keys, KEYS, "{file}: exactly the issue's keys");
        assert_eq!(got["map"], expected["map"], "{file}");
        checked += 1;
    }
    if dir.join(SHARED_MARKER).exists() {
        assert_eq!(checked, 51);
    }
}

#[test]
fn dump_map_prints_one_line_per_item() {
    let Some(maps) = common::corpus_files(
        "dump_map_prints_one_line_per_item",
        "teeworlds/maps",
        ".map",
    ) else {
        return;
    };
    let dir = common::corpus_dir("dump").unwrap().join("teeworlds/maps");
    let mut dumped = 0;
    for (name, bytes) in &maps {
        let path = dir.join(name);
        let (ok, stdout, stderr) = gamefmt(&["dump", "--map", path.to_str().unwrap()]);
        match gamefmt::map::MapView::parse(bytes) {
            Ok(map) => {
                assert!(ok, "{name}: {stderr}");
                let lines: Vec<Value> = stdout
                    .lines()
                    .map(|l| serde_json::from_str(l).unwrap())
                    .collect();
                assert_eq!(lines.len(), map.datafile().item_count(), "{name}");
                let count = |kind: &str| lines.iter().filter(|l| l["item"] == kind).count();
                assert_eq!(count("layer"), map.layer_count(), "{name}");
                assert_eq!(count("group"), map.group_count(), "{name}");
                assert_eq!(count("image"), map.image_count(), "{name}");
                assert_eq!(count("unknown"), 0, "{name}");
                dumped += 1;
            }
            Err(e) => {
                assert!(!ok, "{name}");
                // Without a datafile's magic the file is no map at all.
                assert!(
                    stderr.contains(&e.kind.to_string())
                        || (!bytes.starts_with(b"DATA")
                            && !bytes.starts_with(b"ATAD")
                            && stderr.contains("unrecognised file format")),
                    "{name}: {stderr}"
                );
            }
        }
    }
    if dir.join(SHARED_MARKER).exists() {
        assert_eq!(dumped, 49);
    }
}

/// Golden `dump --map` output of two small maps (checked by hand against the
/// raw items when recorded: names decoded from their ints, sizes, kinds), to
/// catch regressions in a diff.
#[test]
fn dump_map_golden() {
    let Some(dir) = common::corpus_dir("dump_map_golden") else {
        return;
    };
    let dir = dir.join("teeworlds/maps");
    for (file, golden) in [
        (
            "maps-workflow__tests__maps__tiny_finishable_map.map",
            include_str!("../../../tests/data/tiny_finishable_map.dump-map.jsonl"),
        ),
        (
            "crate-twmap-0.16.0__tests__editor.map",
            include_str!("../../../tests/data/twmap_editor.dump-map.jsonl"),
        ),
    ] {
        let path = dir.join(file);
        if !path.exists() {
            continue;
        }
        let (ok, stdout, stderr) = gamefmt(&["dump", "--map", path.to_str().unwrap()]);
        assert!(ok, "{file}: {stderr}");
        assert_eq!(stdout, golden, "{file}");
    }
}
