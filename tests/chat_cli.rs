//! `gamefmt chat` on the corpus: every chat message of a demo (as many as
//! libtw2 decoded Sv_Chat messages, `tests/data/netmsg_libtw2.tsv`), named
//! with the names the same server run recorded in its teehistorian file,
//! and every chat command of a recording (CONSOLE_COMMAND with DDNet's
//! `CFGFLAG_CHAT`).
#![cfg(feature = "cli")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use gamefmt::teehistorian::{ExMessage, Message, TeehistorianIter};
use serde_json::Value;

fn chat(path: &Path) -> Vec<Value> {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gamefmt"))
        .args(["chat", "--json"])
        .arg(path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Sv_Chat messages per demo, as libtw2 counted them.
fn libtw2_chat_counts() -> BTreeMap<String, usize> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/netmsg_libtw2.tsv");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('\t').collect();
            (cells.get(1) == Some(&"SvChat"))
                .then(|| (cells[0].to_owned(), cells[2].parse().unwrap()))
        })
        .collect()
}

#[test]
fn demo_chat_has_every_chat_message_with_recorded_names() {
    let Some(dir) = common::corpus_dir("chat_demos") else {
        return;
    };
    let counts = libtw2_chat_counts();
    let mut checked = 0;
    for (file, want) in &counts {
        let path = dir.join("teeworlds/demos").join(file);
        if !path.is_file() {
            continue;
        }
        let lines = chat(&path);
        assert_eq!(lines.len(), *want, "{file}");
        assert!(lines.iter().all(|l| l["kind"] == "chat"));
        checked += 1;
    }
    assert!(
        checked > 0 || counts.is_empty(),
        "no demo of the table in the corpus"
    );
    // The dm1 demo and recording are one server run: every author named
    // in the demo's chat is a player the recording names.
    let demo = dir.join("teeworlds/demos/ddnet-server__dm1-30s-6bots-2dummies.demo");
    let th =
        dir.join("teeworlds/teehistorian/ddnet-server__dm1-30s-6bots-2dummies-clean.teehistorian");
    if demo.is_file() && th.is_file() {
        let bytes = std::fs::read(&th).unwrap();
        let mut recorded = BTreeSet::new();
        for record in TeehistorianIter::new(&bytes).unwrap() {
            if let Message::Ex(ex) = record.unwrap().message
                && let Ok(ExMessage::PlayerName { name, .. }) = ex.parse()
            {
                recorded.insert(String::from_utf8(name.to_vec()).unwrap());
            }
        }
        let named: BTreeSet<String> = chat(&demo)
            .iter()
            .filter_map(|l| l["name"].as_str().map(str::to_owned))
            .collect();
        assert!(!named.is_empty());
        assert!(named.is_subset(&recorded), "{named:?} vs {recorded:?}");
    }
}

#[test]
fn recording_chat_lists_every_chat_command() {
    let Some(files) = common::corpus_files(
        "chat_teehistorian",
        "teeworlds/teehistorian",
        ".teehistorian",
    ) else {
        return;
    };
    let dir = common::corpus_dir("chat_teehistorian")
        .unwrap()
        .join("teeworlds/teehistorian");
    let mut total = 0;
    for (name, bytes) in &files {
        let Ok(iter) = TeehistorianIter::new(bytes) else {
            continue;
        };
        // Straight from the records: client commands with CFGFLAG_CHAT (128).
        let want: Vec<String> = iter
            .map_while(Result::ok)
            .filter_map(|r| match r.message {
                Message::ConsoleCommand {
                    cid, flags, cmd, ..
                } if cid >= 0 && flags & 128 != 0 => {
                    Some(format!("/{}", String::from_utf8_lossy(cmd)))
                }
                _ => None,
            })
            .collect();
        let got: Vec<String> = chat(&dir.join(name))
            .iter()
            .filter(|l| l["kind"] == "command")
            .map(|l| {
                l["message"]
                    .as_str()
                    .unwrap()
                    .split(' ')
                    .next()
                    .unwrap()
                    .to_owned()
            })
            .collect();
        assert_eq!(got, want, "{name}");
        total += got.len();
    }
    assert!(total > 0);
}
