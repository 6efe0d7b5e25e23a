//! The `gamefmt` command on datafiles built in the test: human summary,
//! JSON, dump and validate, and the one-line error for invalid files.
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use crate::common;
use std::path::PathBuf;
use std::process::{Command, Output};

use gamefmt::datafile::{DatafileWriter, SAMPLE, UUID_AUTOMAPPER_CONFIG, WriteVersion};

fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let path = std::env::temp_dir().join(format!("gamefmt-{}-{name}", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    path
}

fn gamefmt(args: &[&str], file: &PathBuf) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gamefmt"))
        .args(args)
        .arg(file)
        .output()
        .unwrap()
}

#[test]
fn inspect_json_reports_the_seven_facts() {
    let file = temp_file("sample.map", SAMPLE);
    let out = gamefmt(&["inspect", "--json"], &file);
    assert!(out.status.success());
    let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // Map-level facts ride along (tested with the map module); the sample has
    // no groups.
    let map = v.as_object_mut().unwrap().remove("map").unwrap();
    assert_eq!(map["groups"], 0);
    // The sample has no group, so no game layer, which only current DDNet
    // refuses (tests/compat.rs tests the warnings).
    let warnings = v.as_object_mut().unwrap().remove("warnings").unwrap();
    assert_eq!(warnings[0]["kind"], "ddnet_rule");
    assert_eq!(warnings.as_array().map(Vec::len), Some(1));
    assert_eq!(
        v,
        serde_json::json!({
            "format": "map", "version": 3, "item_types": 2, "items": 2, "data_items": 1,
            // 1 (VERSION) + 1 + 0 - 1 - 1 - 1 (INFO)
            "item_checksum": -1, "data_bytes": 8, "data_errors": 0
        })
    );
    let human = gamefmt(&["inspect"], &file);
    let text = String::from_utf8(human.stdout).unwrap();
    assert!(text.starts_with("datafile version 3 (120 bytes)"), "{text}");
}

#[test]
fn dump_prints_one_line_per_item_and_data_item() {
    let mut w = DatafileWriter::new();
    w.add_item(0, 0, &[1]).unwrap();
    w.add_uuid_item(UUID_AUTOMAPPER_CONFIG, 3, &[1, 0, 0, -1, 0, 1])
        .unwrap();
    w.add_data(b"abc");
    let file = temp_file("uuid.map", &w.finish(WriteVersion::V4).unwrap());
    let out = gamefmt(&["dump"], &file);
    assert!(out.status.success());
    let lines: Vec<serde_json::Value> = out
        .stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3 + 1);
    assert_eq!(lines[1]["type_uuid"], UUID_AUTOMAPPER_CONFIG.to_string());
    assert_eq!(lines[1]["data"], serde_json::json!([1, 0, 0, -1, 0, 1]));
    assert_eq!(lines[3]["declared_size"], 3);
}

#[test]
fn invalid_files_exit_1_with_one_line() {
    let mut bad = SAMPLE.to_vec();
    bad.truncate(50);
    let file = temp_file("cut.map", &bad);
    for args in [&["inspect", "--json"][..], &["dump"], &["validate"]] {
        let out = gamefmt(args, &file);
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("at byte offset 8"), "{err}");
    }
    let unknown = temp_file("unknown.bin", b"nothing we know");
    let out = gamefmt(&["inspect"], &unknown);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("unrecognised file format")
    );

    // A data item whose stream is damaged: inspect counts it, validate fails.
    let mut w = DatafileWriter::new();
    w.add_item(0, 0, &[1]).unwrap();
    w.add_data(&[7u8; 100]);
    let mut bytes = w.finish(WriteVersion::V4).unwrap();
    let n = bytes.len();
    bytes[n - 5] ^= 0xFF; // inside the deflate stream / adler32
    let file = temp_file("damaged.map", &bytes);
    let out = gamefmt(&["inspect", "--json"], &file);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["data_errors"], 1);
    assert_eq!(v["data_bytes"], 0);
    assert_eq!(gamefmt(&["validate"], &file).status.code(), Some(1));
}

/// The seven facts `gamefmt inspect --json` prints, for every map, against
/// the independent reader's `maps.expected.jsonl`.
#[test]
fn cli_inspect_json_matches_expected_facts() {
    use std::process::Command;
    let test = "cli_inspect_json_matches_expected_facts";
    let (Some(corpus), Some(expected)) = (
        common::corpus_dir(test),
        common::corpus_text(test, "teeworlds/maps.expected.jsonl"),
    ) else {
        return;
    };
    let mut checked = 0;
    for line in expected.lines() {
        let want: serde_json::Value = serde_json::from_str(line).unwrap();
        let file = corpus
            .join("teeworlds/maps")
            .join(want["file"].as_str().unwrap());
        let out = Command::new(env!("CARGO_BIN_EXE_gamefmt"))
            .args(["inspect", "--json"])
            .arg(&file)
            .output()
            .unwrap();
        if want.get("error").is_some() {
            assert_eq!(out.status.code(), Some(1), "{}", file.display());
            let stderr = String::from_utf8(out.stderr).unwrap();
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
            assert!(
                stderr.contains("do not match the file length at byte offset 8"),
                "{stderr}"
            );
            assert!(out.stdout.is_empty());
            continue;
        }
        assert!(
            out.status.success(),
            "{}: {}",
            file.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert_eq!(stdout.lines().count(), 1, "exactly one line");
        let got: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        for (key, value) in want.as_object().unwrap() {
            match key.as_str() {
                "file" => {}
                // The facts name the format `datafile`, as `inspect` did
                // before a map got one name everywhere (`map`, as in
                // export; CHANGELOG, issue 34).
                "format" => {
                    assert_eq!(value, "datafile", "{}", file.display());
                    assert_eq!(got[key], "map", "{}", file.display());
                }
                _ => assert_eq!(&got[key], value, "{} key {key}", file.display()),
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 51);
}
