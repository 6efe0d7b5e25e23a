//! `gamefmt stats`: `--slippi-js` equal to slippi-js 9.1.2's own
//! `getStats()` / `getStadiumStats()` (the committed oracle of
//! `tests/slippi_stats.rs`), `--json` equal to the core's `Serialize`, the
//! table's numbers equal to the core's, and the usual inputs (directories,
//! `--jobs`, stdin, gzip).
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects,
    reason = "tests: a panic is the failure report"
)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use gamefmt::slippi::stats::SlippiStats;
use serde_json::Value;

use crate::common;

fn gamefmt(args: &[&str], files: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gamefmt"))
        .args(args)
        .args(files)
        .output()
        .unwrap()
}

fn oracle_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../benches/peers/slippi-js/stats")
}

/// The corpus replays slippi-js gives stats for (its oracle has no error);
/// `None` (the tests SKIPPED) when the corpus holds none of them.
fn replays_with_stats() -> Option<Vec<(PathBuf, Value)>> {
    let dir = common::corpus_dir("cli stats")?.join("slippi");
    let mut out = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "slp"))
        .collect();
    names.sort();
    for path in names {
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        let Ok(text) = std::fs::read_to_string(oracle_dir().join(format!("{name}.json"))) else {
            continue;
        };
        let oracle: Value = serde_json::from_str(&text).unwrap();
        if oracle.get("error").is_none() && !oracle["stats"].is_null() {
            out.push((path, oracle));
        }
    }
    if out.is_empty() {
        // A corpus of other files (GAMEFMT_CORPUS): no replay has an oracle.
        eprintln!("SKIPPED cli stats: no corpus replay has a slippi-js oracle");
        return None;
    }
    Some(out)
}

/// One directory run with `--slippi-js --jobs 2`: one line per replay, in
/// input order, each slippi-js's `getStats()` (or `getStadiumStats()`)
/// plus the `file` key.
#[test]
fn slippi_js_output_equals_slippi_js() {
    let Some(replays) = replays_with_stats() else {
        return;
    };
    let dir = common::corpus_dir("cli stats").unwrap().join("slippi");
    let out = gamefmt(&["stats", "--slippi-js", "--jobs", "2"], &[&dir]);
    let lines: Vec<Value> = out
        .stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    let mut compared = 0;
    for (path, oracle) in &replays {
        let file = path.display().to_string();
        let mut line = lines
            .iter()
            .find(|l| l["file"] == file.as_str())
            .unwrap_or_else(|| panic!("{file}: no line"))
            .clone();
        line.as_object_mut().unwrap().remove("file");
        let want = if oracle["stadium"].is_null() {
            &oracle["stats"]
        } else {
            &oracle["stadium"]
        };
        assert_eq!(&line, want, "{file}");
        compared += 1;
    }
    eprintln!("stats --slippi-js: {compared} replays equal to slippi-js 9.1.2");
    assert!(compared > 50);
    // A single file: exactly getStats()'s JSON, no `file` key.
    let (path, oracle) = replays
        .iter()
        .find(|(_, o)| o["stadium"].is_null())
        .unwrap();
    let out = gamefmt(&["stats", "--slippi-js"], &[path]);
    assert!(out.status.success());
    let line: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line, oracle["stats"]);
}

/// `--json` is the core's `Serialize`, byte for byte; the table's rows are the core's
/// overall numbers, one per player.
#[test]
fn json_and_table_are_the_cores() {
    let Some(replays) = replays_with_stats() else {
        return;
    };
    for (path, _) in replays.iter().take(12) {
        let bytes = std::fs::read(path).unwrap();
        let core = SlippiStats::from_slice(&bytes).unwrap();
        let out = gamefmt(&["stats", "--json"], &[path]);
        assert!(out.status.success(), "{}", path.display());
        // As text: the same Serialize walk, the same bytes (parsing back
        // would round some floats without serde_json's float_roundtrip).
        let want = serde_json::to_string(&core).unwrap() + "\n";
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            want,
            "{}",
            path.display()
        );
        let out = gamefmt(&["stats"], &[path]);
        let text = String::from_utf8(out.stdout).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[1].starts_with("port  character"), "{text}");
        let overall = core.overall();
        assert_eq!(lines.len(), 2 + overall.len(), "{text}");
        for (row, o) in lines[2..].iter().zip(&overall) {
            let cells: Vec<&str> = row.split_whitespace().collect();
            assert_eq!(cells[0], (o.player_index + 1).to_string(), "{row}");
            // Character names may hold spaces: count from the right.
            let n = cells.len();
            assert_eq!(cells[n - 11], o.kill_count.to_string(), "{row}");
            assert_eq!(cells[n - 9], format!("{:.1}", o.total_damage), "{row}");
            assert_eq!(cells[n - 8], o.conversion_count.to_string(), "{row}");
        }
    }
}

/// Standard input, gzip-compressed: the same stats as the file.
#[test]
fn stats_from_gzip_stdin() {
    let Some(replays) = replays_with_stats() else {
        return;
    };
    let (path, oracle) = replays
        .iter()
        .find(|(_, o)| o["stadium"].is_null())
        .unwrap();
    let bytes = std::fs::read(path).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&bytes).unwrap();
    let gz = gz.finish().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamefmt"))
        .args(["stats", "--slippi-js", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&gz).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let line: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line, oracle["stats"]);
}

/// A file that is not a replay is refused (exit status 1) with its reason.
#[test]
fn stats_refuses_other_formats() {
    let path = std::env::temp_dir().join(format!("gamefmt-stats-{}.txt", std::process::id()));
    std::fs::write(&path, b"not a replay").unwrap();
    let out = gamefmt(&["stats"], &[&path]);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(!out.stderr.is_empty());
}
