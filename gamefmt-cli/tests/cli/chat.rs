//! `gamefmt chat` on the corpus: every chat message of a demo (as many as
//! libtw2 decoded Sv_Chat messages, `tests/data/netmsg_libtw2.tsv`), named
//! with the names the same server run recorded in its teehistorian file,
//! and every chat command of a recording (CONSOLE_COMMAND with DDNet's
//! `CFGFLAG_CHAT`).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use crate::common;
use crate::run::stdout_of;
#[allow(
    clippy::collapsible_if,
    reason = "shared with the core's tests, whose Rust 1.85 has no let chains"
)]
#[path = "../../../tests/common/names.rs"]
mod names;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use gamefmt::teehistorian::{Message, TeehistorianIter};
use serde_json::Value;

fn chat(path: &Path) -> Vec<Value> {
    chat_with(&["--json"], path)
}

fn chat_with(flags: &[&str], path: &Path) -> Vec<Value> {
    String::from_utf8(chat_out(flags, path))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `gamefmt chat FLAGS PATH`'s standard output (the command must succeed).
fn chat_out(flags: &[&str], path: &Path) -> Vec<u8> {
    stdout_of(&[&["chat"], flags].concat(), path)
}

/// Messages of libtw2's `kind` per demo, as it counted them.
fn libtw2_counts(kind: &str) -> BTreeMap<String, usize> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/netmsg_libtw2.tsv");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('\t').collect();
            (cells.get(1) == Some(&kind)).then(|| (cells[0].to_owned(), cells[2].parse().unwrap()))
        })
        .collect()
}

#[test]
fn demo_chat_has_every_chat_message_with_recorded_names() {
    let Some(dir) = common::corpus_dir("chat_demos") else {
        return;
    };
    let counts = libtw2_counts("SvChat");
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
    if checked == 0 && !counts.is_empty() {
        // A corpus without these demos (GAMEFMT_CORPUS, or an empty folder).
        eprintln!("SKIPPED chat_demos: no demo of the table in the corpus");
        return;
    }
    // The dm1 demo and recording are one server run: every author named
    // in the demo's chat is a player the recording names.
    let demo = dir.join("teeworlds/demos/ddnet-server__dm1-30s-6bots-2dummies.demo");
    let th =
        dir.join("teeworlds/teehistorian/ddnet-server__dm1-30s-6bots-2dummies-clean.teehistorian");
    if demo.is_file() && th.is_file() {
        let (recorded, end) = names::recorded_names(&std::fs::read(&th).unwrap());
        end.unwrap();
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
                Message::ConsoleCommand { cid, flags, line } if cid >= 0 && flags & 128 != 0 => {
                    Some(format!("/{}", String::from_utf8_lossy(line.cmd())))
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

/// `dump` of the dm1 demo: kills typed (as many as libtw2 decoded), their
/// killers and victims named, and every snapshot's players named with names
/// the same run's recording knows.
#[test]
fn demo_dump_types_kills_and_players() {
    let Some(dir) = common::corpus_dir("dump_typed") else {
        return;
    };
    let file = "ddnet-server__dm1-30s-6bots-2dummies.demo";
    let demo = dir.join("teeworlds/demos").join(file);
    let th =
        dir.join("teeworlds/teehistorian/ddnet-server__dm1-30s-6bots-2dummies-clean.teehistorian");
    if !demo.is_file() || !th.is_file() {
        eprintln!("SKIPPED dump_typed: dm1 run not in this corpus");
        return;
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gamefmt"))
        .arg("dump")
        .arg(&demo)
        .output()
        .unwrap();
    assert!(out.status.success());
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let kills: Vec<&Value> = lines
        .iter()
        .filter(|l| l["message"]["kind"] == "Sv_KillMsg")
        .collect();
    assert_eq!(kills.len(), libtw2_counts("SvKillMsg")[file]);
    assert!(
        kills
            .iter()
            .any(|k| k["message"]["victim_name"].is_string())
    );
    let (recorded, end) = names::recorded_names(&std::fs::read(&th).unwrap());
    end.unwrap();
    let mut named = BTreeSet::new();
    for line in lines
        .iter()
        .filter(|l| l["kind"] == "snapshot" || l["kind"] == "delta")
    {
        for player in line["players"].as_array().unwrap() {
            if let Some(name) = player["name"].as_str() {
                named.insert(name.to_owned());
            }
        }
    }
    assert!(!named.is_empty());
    assert!(named.is_subset(&recorded), "{named:?} vs {recorded:?}");
}

/// `gamefmt chat DIR/` reads the folder like every command: each file's
/// lines (as `chat FILE` prints them), labelled with the file, in path
/// order; in parallel the same. Maps have no chat and are no error.
#[test]
fn chat_reads_a_directory_like_every_command() {
    let Some(demos) = common::corpus_subdir("chat_directory", "teeworlds/demos") else {
        return;
    };
    let mut files: Vec<_> = std::fs::read_dir(&demos)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with('.'))
        .collect();
    if files.is_empty() {
        eprintln!("SKIPPED chat_directory: no demo in the corpus");
        return;
    }
    files.sort();
    let mut want = Vec::new();
    for file in &files {
        let single = String::from_utf8(chat_out(&["--rcon", "--broadcast"], file)).unwrap();
        for line in single.lines() {
            want.push(format!("{}: {line}", file.display()));
        }
    }
    // The corpus demos hold 100+ lines, other folders may hold few: the
    // comparison needs one.
    if want.is_empty() {
        eprintln!("SKIPPED chat_directory: no chat line in the demos");
        return;
    }
    for jobs in ["1", "2"] {
        let got =
            String::from_utf8(chat_out(&["--rcon", "--broadcast", "-j", jobs], &demos)).unwrap();
        assert_eq!(got.lines().collect::<Vec<_>>(), want, "--jobs {jobs}");
    }
    // A maps folder: no chat; success unless a file named `.map` is not
    // a map (one of the maps never seen is a symbolic link's text).
    let maps = demos.join("../maps");
    if maps.is_dir() {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_gamefmt"))
            .arg("chat")
            .arg(&maps)
            .output()
            .unwrap();
        assert!(out.stdout.is_empty());
        let refused = String::from_utf8_lossy(&out.stderr).contains("unrecognised file format");
        assert_eq!(out.status.success(), !refused);
    }
}

/// A compressed demo and a compressed recording (made by the system's
/// gzip, zstd and xz) give the plain file's chat; so does standard input.
#[test]
fn chat_reads_compressed_inputs_and_stdin() {
    let Some(dir) = common::corpus_dir("chat_compressed") else {
        return;
    };
    let demo = dir.join("teeworlds/demos/ddnet-server__dm1-30s-6bots-2dummies.demo");
    let th = dir.join(
        "teeworlds/teehistorian/ddnet-server__ctf2-2min-12bots-sigkill-no-finish.teehistorian",
    );
    if !demo.is_file() || !th.is_file() {
        eprintln!("SKIPPED chat_compressed: dm1 demo or ctf2 recording not in this corpus");
        return;
    }
    let scratch = std::env::temp_dir().join(format!("gamefmt-chat-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    for file in [&demo, &th] {
        let plain = chat_out(&["--json", "--rcon"], file);
        assert!(!plain.is_empty());
        for (tool, ext) in [("gzip", "gz"), ("zstd", "zst"), ("xz", "xz")] {
            let packed = scratch.join(format!(
                "{}.{ext}",
                file.file_name().unwrap().to_string_lossy()
            ));
            let bytes = std::process::Command::new(tool)
                .args(["-c"])
                .arg(file)
                .output();
            let Ok(bytes) = bytes.map(|o| o.stdout) else {
                eprintln!("SKIPPED chat_compressed with {tool}: not installed");
                continue;
            };
            std::fs::write(&packed, bytes).unwrap();
            assert_eq!(
                chat_out(&["--json", "--rcon"], &packed),
                plain,
                "{tool} {}",
                file.display()
            );
        }
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_gamefmt"))
            .args(["chat", "--json", "--rcon", "-"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let bytes = std::fs::read(file).unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let writer = std::thread::spawn(move || {
            use std::io::Write;
            stdin.write_all(&bytes).unwrap();
        });
        let out = child.wait_with_output().unwrap();
        writer.join().unwrap();
        assert_eq!(out.stdout, plain, "stdin {}", file.display());
    }
    let _ = std::fs::remove_dir_all(&scratch);
}

/// `--rcon`: the dm1 recording's rcon commands (CONSOLE_COMMAND records of
/// a client without DDNet's CFGFLAG_CHAT) appear, in order; without the
/// flag they do not. In the demos: as many broadcasts (`--broadcast`) and
/// rcon lines (`--rcon`) as libtw2 decoded Sv_Broadcast and
/// NETMSG_RCON_LINE messages.
#[test]
fn rcon_and_broadcast_lines_behind_their_flags() {
    let Some(dir) = common::corpus_dir("chat_rcon") else {
        return;
    };
    let th = dir.join(
        "teeworlds/teehistorian/ddnet-server__ctf2-2min-12bots-sigkill-no-finish.teehistorian",
    );
    if !th.is_file() {
        eprintln!("SKIPPED chat_rcon: ctf2 recording not in this corpus");
        return;
    }
    let bytes = std::fs::read(&th).unwrap();
    let want: Vec<String> = TeehistorianIter::new(&bytes)
        .unwrap()
        .map_while(Result::ok)
        .filter_map(|r| match r.message {
            Message::ConsoleCommand { cid, flags, line } if cid >= 0 && flags & 128 == 0 => {
                Some(String::from_utf8_lossy(line.cmd()).into_owned())
            }
            _ => None,
        })
        .collect();
    assert!(!want.is_empty());
    let got: Vec<String> = chat_with(&["--json", "--rcon"], &th)
        .iter()
        .filter(|l| l["kind"] == "rcon")
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
    assert_eq!(got, want);
    assert!(chat(&th).iter().all(|l| l["kind"] != "rcon"));

    let counts = libtw2_counts("SvBroadcast");
    let mut checked = 0;
    for (file, want) in &counts {
        let path = dir.join("teeworlds/demos").join(file);
        if !path.is_file() {
            continue;
        }
        let lines = chat_with(&["--json", "--broadcast"], &path);
        let got = lines.iter().filter(|l| l["kind"] == "broadcast").count();
        assert_eq!(got, *want, "{file}");
        assert!(chat(&path).iter().all(|l| l["kind"] != "broadcast"));
        let rcon = chat_with(&["--json", "--rcon"], &path)
            .iter()
            .filter(|l| l["kind"] == "rcon")
            .count();
        let want = libtw2_counts("RconLine").get(file).copied().unwrap_or(0);
        assert_eq!(rcon, want, "{file}: rcon lines");
        checked += 1;
    }
    assert!(checked > 0 || counts.is_empty());
}
