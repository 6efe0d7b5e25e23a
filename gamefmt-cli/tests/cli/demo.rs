//! The `gamefmt` command on corpus demos: dump prints one line per chunk
//! (counts and final snapshot as in `demos.expected.jsonl`), validate
//! accepts every demo, and a damaged demo is one error line with exit 1.
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn gamefmt(args: &[&str], file: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gamefmt"))
        .args(args)
        .arg(file)
        .output()
        .unwrap()
}

/// `demos.expected.jsonl`; `None` (after a SKIPPED line) without it.
fn expected(test: &str) -> Option<Vec<serde_json::Value>> {
    let text = common::corpus_text(test, "teeworlds/demos.expected.jsonl")?;
    Some(
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect(),
    )
}

#[test]
fn dump_lines_match_expected_counts() {
    let test = "dump_lines_match_expected_counts";
    let (Some(dir), Some(expected)) = (common::corpus_dir(test), expected(test)) else {
        return;
    };
    for want in expected {
        let file = dir
            .join("teeworlds/demos")
            .join(want["file"].as_str().unwrap());
        let out = gamefmt(&["dump"], &file);
        assert!(out.status.success());
        let lines: Vec<serde_json::Value> = out
            .stdout
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| serde_json::from_slice(l).unwrap())
            .collect();
        let count = |kind: &str| lines.iter().filter(|l| l["kind"] == kind).count();
        assert_eq!(lines.len() as u64, want["chunks"].as_u64().unwrap());
        assert_eq!(count("tick") as u64, want["tick_markers"].as_u64().unwrap());
        assert_eq!(
            count("snapshot") as u64,
            want["snapshots"].as_u64().unwrap()
        );
        assert_eq!(count("delta") as u64, want["deltas"].as_u64().unwrap());
        assert_eq!(count("message") as u64, want["messages"].as_u64().unwrap());
        // The last snapshot or delta line carries the final snapshot.
        let last = lines
            .iter()
            .rev()
            .find(|l| l["kind"] == "snapshot" || l["kind"] == "delta")
            .unwrap();
        assert_eq!(last["items"], want["final_snapshot_items"]);
        assert_eq!(last["crc"], want["final_snapshot_crc"]);
    }
}

#[test]
fn validate_accepts_every_corpus_demo() {
    let Some(demos) = common::corpus_files(
        "validate_accepts_every_corpus_demo",
        "teeworlds/demos",
        ".demo",
    ) else {
        return;
    };
    let dir = common::corpus_dir("validate_accepts_every_corpus_demo").unwrap();
    for (name, _) in demos {
        let out = gamefmt(&["validate"], &dir.join("teeworlds/demos").join(&name));
        assert!(out.status.success(), "{name}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.starts_with("ok: demo version "), "{text}");
    }
}

#[test]
fn damaged_demo_is_one_error_line() {
    let Some(demos) =
        common::corpus_files("damaged_demo_is_one_error_line", "teeworlds/demos", ".demo")
    else {
        return;
    };
    let (name, bytes) = demos
        .iter()
        .find(|(n, _)| n.contains("client_bar"))
        .unwrap();
    let temp = |tag: &str, b: &[u8]| -> PathBuf {
        let p = std::env::temp_dir().join(format!("gamefmt-{}-{tag}-{name}", std::process::id()));
        std::fs::write(&p, b).unwrap();
        p
    };
    // The file cut inside the header (timeline markers).
    let cut = temp("cut", &bytes[..300]);
    // A bad version byte.
    let mut v2 = bytes.clone();
    v2[7] = 2;
    let v2 = temp("v2", &v2);
    for (file, what) in [(&cut, "input ends"), (&v2, "unsupported version 2")] {
        for cmd in [&["inspect", "--json"][..], &["dump"], &["validate"]] {
            let out = gamefmt(cmd, file);
            assert_eq!(out.status.code(), Some(1));
            let err = String::from_utf8(out.stderr).unwrap();
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(err.contains(what), "{err}");
        }
    }
}

#[test]
fn cli_facts_match_demos_expected() {
    let test = "cli_facts_match_demos_expected";
    let (Some(dir), Some(expected)) = (
        common::corpus_dir(test),
        common::corpus_text(test, "teeworlds/demos.expected.jsonl"),
    ) else {
        return;
    };
    let mut files = 0;
    let mut facts = 0;
    for line in expected.lines() {
        let mut want: serde_json::Value = serde_json::from_str(line).unwrap();
        let file = want
            .as_object_mut()
            .unwrap()
            .remove("file")
            .unwrap()
            .as_str()
            .unwrap()
            .to_owned();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_gamefmt"))
            .args(["inspect", "--json"])
            .arg(dir.join("teeworlds/demos").join(&file))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{file}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let got: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let got = got.as_object().unwrap();
        for (key, value) in want.as_object().unwrap() {
            assert_eq!(got.get(key), Some(value), "{file}: {key}");
            facts += 1;
        }
        assert_eq!(
            got.len(),
            want.as_object().unwrap().len(),
            "{file}: extra keys"
        );
        files += 1;
    }
    let on_disk =
        common::corpus_files("cli_facts_match_demos_expected", "teeworlds/demos", ".demo")
            .unwrap()
            .len();
    assert_eq!(files, on_disk, "one expected line per demo");
    assert_eq!(facts, files * 18);
}
