//! `gamefmt inspect --json` on every corpus recording reports the facts in
//! `teeworlds/teehistorian.expected.jsonl`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use crate::common;

use std::process::Command;

use gamefmt::teehistorian::uuids;
use serde_json::{Map, Value};

#[test]
fn inspect_json_matches_expected_facts() {
    let test = "inspect_json_matches_expected_facts";
    let (Some(dir), Some(text)) = (
        common::corpus_dir(test),
        common::corpus_text(test, "teeworlds/teehistorian.expected.jsonl"),
    ) else {
        return;
    };
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let expected: Value = serde_json::from_str(line).unwrap();
        let file = dir
            .join("teeworlds/teehistorian")
            .join(expected["file"].as_str().unwrap());
        let out = Command::new(env!("CARGO_BIN_EXE_gamefmt"))
            .args(["inspect", "--json"])
            .arg(&file)
            .output()
            .unwrap();
        if expected.get("error").is_some() {
            assert!(!out.status.success(), "{}", file.display());
            assert_eq!(String::from_utf8(out.stderr).unwrap().lines().count(), 1);
            checked += 1;
            continue;
        }
        assert!(out.status.success(), "{}", file.display());
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert_eq!(stdout.lines().count(), 1, "one JSON object");
        let got: Value = serde_json::from_str(&stdout).unwrap();
        for key in ["format", "version", "messages", "counts", "last_tick"] {
            assert_eq!(got[key], expected[key], "{}: {key}", file.display());
        }
        // The facts say "finish" (FINISH read) where the vocabulary says
        // End::Complete's name.
        let end = match expected["end"].as_str() {
            Some("finish") => "complete",
            other => other.unwrap(),
        };
        assert_eq!(got["end"], end, "{}: end", file.display());
        // ex_counts are keyed by UUID name; the expected facts by UUID.
        let by_uuid: Map<String, Value> = got["ex_counts"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(name, n)| {
                let uuid = uuids::NAMES
                    .iter()
                    .find(|(_, nm)| nm == name)
                    .map_or_else(|| name.clone(), |(u, _)| u.to_string());
                (uuid, n.clone())
            })
            .collect();
        assert_eq!(
            Value::Object(by_uuid),
            expected["ex_counts"],
            "{}",
            file.display()
        );
        assert_eq!(
            got["ex_counts_by_uuid"],
            expected["ex_counts"],
            "{}",
            file.display()
        );
        assert!(got["version_minor"].is_string() || got["version_minor"].is_null());
        checked += 1;
    }
    assert!(checked >= 6);
}

#[test]
fn dump_prints_one_line_per_message() {
    let Some(dir) = common::corpus_dir("dump_prints_one_line_per_message") else {
        return;
    };
    let file =
        dir.join("teeworlds/teehistorian/ddnet-server__dm1-30s-6bots-2dummies-clean.teehistorian");
    if !file.is_file() {
        eprintln!(
            "SKIPPED dump_prints_one_line_per_message: no file {}",
            file.display()
        );
        return;
    }
    let out = Command::new(env!("CARGO_BIN_EXE_gamefmt"))
        .arg("dump")
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // Header line, 3491 messages (SOURCES.md counts), end line.
    assert_eq!(lines.len(), 1 + 3491 + 1);
    assert_eq!(lines[0]["header"]["map_name"], "dm1");
    assert_eq!(lines[3491]["kind"], "FINISH");
    assert_eq!(lines[3491]["tick"], 1797);
    assert_eq!(lines[3492]["end"], "complete");
    let drops = lines.iter().filter(|l| l["kind"] == "DROP").count();
    assert_eq!(drops, 8);
}

/// On damaged recordings (prefixes and single-byte changes of a corpus
/// recording), `inspect` fails exactly where and as `validate` does
/// whenever it fails: both run the same checks of each message, so
/// neither reports a later damage than the first (before, `inspect`
/// skipped the player state and said "unknown message id" bytes after
/// the "player record for a dead player" that `validate` named).
#[test]
fn inspect_fails_where_validate_does() {
    let test = "inspect_fails_where_validate_does";
    let Some(dir) = common::corpus_subdir(test, "teeworlds/teehistorian") else {
        return;
    };
    let file = dir.join("ddnet-server__dm1-30s-6bots-2dummies-clean.teehistorian");
    let Ok(data) = std::fs::read(&file) else {
        eprintln!("SKIPPED {test}: no {}", file.display());
        return;
    };
    let tmp = std::env::temp_dir().join(format!("gamefmt-inspect-validate-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    // Every 61st byte changed (in turn, one per copy), and 40 prefixes.
    for at in (0..data.len()).step_by(61) {
        let mut copy = data.clone();
        copy[at] ^= 0x5a;
        std::fs::write(tmp.join(format!("byte-{at}.teehistorian")), copy).unwrap();
    }
    for i in 0..40 {
        let cut = data.len() * i / 40;
        std::fs::write(tmp.join(format!("prefix-{cut}.teehistorian")), &data[..cut]).unwrap();
    }
    let said = |command: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_gamefmt"))
            .args([command, "--jobs", "2"])
            .arg(&tmp)
            .output()
            .unwrap();
        let prefix = format!("gamefmt: {}/", tmp.display());
        String::from_utf8(out.stderr)
            .unwrap()
            .lines()
            .filter_map(|l| l.strip_prefix(&prefix))
            .filter(|l| !l.contains(": warning: "))
            .filter_map(|l| l.split_once(": "))
            .map(|(file, message)| (file.to_owned(), message.to_owned()))
            .collect::<std::collections::BTreeMap<_, _>>()
    };
    let (inspect, validate) = (said("inspect"), said("validate"));
    std::fs::remove_dir_all(&tmp).unwrap();
    // 90 of the 460 copies fail inspect (the rest read with warnings).
    assert!(
        inspect.len() > 50,
        "{} of the copies failed inspect",
        inspect.len()
    );
    for (file, message) in &inspect {
        assert_eq!(Some(message), validate.get(file), "{file}");
    }
}
