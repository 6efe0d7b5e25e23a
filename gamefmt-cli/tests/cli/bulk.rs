//! The CLI on many inputs: compressed inputs (made by the system's gzip,
//! zstd and xz, independent of the decompressors the CLI uses) decode
//! exactly as the plain files; stdin; directories and several paths,
//! printed as labelled JSON Lines in input order whatever `--jobs`; the
//! exit status; the progress bar only on a terminal.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn gamefmt(args: &[&str], files: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gamefmt"))
        .args(args)
        .args(files)
        .output()
        .unwrap()
}

/// Two small stream files of each format from the corpus (a teehistorian
/// recording cut by a killed server among them), or `None` (SKIPPED).
fn samples(test: &str) -> Option<Vec<PathBuf>> {
    let dir = common::corpus_dir(test)?;
    let files = [
        "teeworlds/teehistorian/ddnet-server__dm1-30s-6bots-2dummies-clean.teehistorian",
        "teeworlds/teehistorian/ddnet-server__ctf2-2min-12bots-sigkill-no-finish.teehistorian",
        "slippi/v3.9.0_peppi_short_game_tbh10.slp",
        "slippi/v1.7.1_slippi-js_pal.slp",
        "teeworlds/demos/ddnet-server__dm1-30s-6bots-2dummies.demo",
        "teeworlds/demos/teeworlds-traffic-dumps__dumps__075_tw_dm1_join_chat_walk_disconnect__client.demo",
    ];
    let paths: Vec<PathBuf> = files.iter().map(|f| dir.join(f)).collect();
    if let Some(missing) = paths.iter().find(|p| !p.is_file()) {
        eprintln!("SKIPPED {test}: {} not found", missing.display());
        return None;
    }
    Some(paths)
}

/// A fresh scratch folder for `test`.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gamefmt-bulk-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `file` compressed by the system tool `tool` into `dir`, or `None` when
/// the tool is not installed.
fn compress(tool: &str, file: &Path, dir: &Path) -> Option<PathBuf> {
    let out = dir.join(format!(
        "{}.{tool}",
        file.file_name().unwrap().to_string_lossy()
    ));
    let done = Command::new(tool)
        .args(["-c", "-6"])
        .arg(file)
        .stdout(std::fs::File::create(&out).unwrap())
        .status()
        .ok()?;
    assert!(done.success(), "{tool} failed on {}", file.display());
    Some(out)
}

#[test]
fn compressed_inputs_decode_as_the_plain_files() {
    let Some(files) = samples("compressed inputs") else {
        return;
    };
    let dir = scratch("compressed");
    let mut checked = 0;
    for file in &files {
        for cmd in [&["inspect", "--json"][..], &["validate"], &["dump"]] {
            let plain = gamefmt(cmd, &[file]);
            for tool in ["gzip", "zstd", "xz"] {
                let Some(packed) = compress(tool, file, &dir) else {
                    eprintln!("SKIPPED compressed inputs: no {tool} command");
                    continue;
                };
                let got = gamefmt(cmd, &[&packed]);
                assert_eq!(got.status.code(), plain.status.code(), "{tool} {cmd:?}");
                assert_eq!(
                    got.stdout,
                    plain.stdout,
                    "{tool} {cmd:?} {}",
                    file.display()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file compressed in two halves and concatenated (two zstd frames, two
/// gzip members, as parallel compressors write them) decodes whole.
#[test]
fn multi_frame_inputs_decode_whole() {
    let Some(files) = samples("multi-frame inputs") else {
        return;
    };
    let dir = scratch("multi");
    let file = &files[4]; // a demo: its chunks run past the halfway mark
    let bytes = std::fs::read(file).unwrap();
    let (first, second) = bytes.split_at(bytes.len() / 2);
    let plain = gamefmt(&["inspect", "--json"], &[file]);
    for tool in ["zstd", "gzip"] {
        let mut joined = Vec::new();
        for (i, half) in [first, second].iter().enumerate() {
            let part = dir.join(format!("part{i}"));
            std::fs::write(&part, half).unwrap();
            let Some(packed) = compress(tool, &part, &dir) else {
                eprintln!("SKIPPED multi-frame inputs: no {tool} command");
                return;
            };
            joined.extend(std::fs::read(packed).unwrap());
        }
        let path = dir.join(format!("joined.{tool}"));
        std::fs::write(&path, joined).unwrap();
        let got = gamefmt(&["inspect", "--json"], &[&path]);
        assert_eq!(got.stdout, plain.stdout, "{tool}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stdin_decodes_as_the_file() {
    let Some(files) = samples("stdin") else {
        return;
    };
    for file in &files {
        let plain = gamefmt(&["inspect", "--json"], &[file]);
        let mut child = Command::new(env!("CARGO_BIN_EXE_gamefmt"))
            .args(["inspect", "--json", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let bytes = std::fs::read(file).unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let writer = std::thread::spawn(move || {
            // The CLI may stop reading early on a damaged file.
            let _ = stdin.write_all(&bytes);
        });
        let got = child.wait_with_output().unwrap();
        writer.join().unwrap();
        assert_eq!(got.stdout, plain.stdout, "{}", file.display());
    }
}

/// The `file` and the rest of every JSON line.
fn lines(out: &Output) -> Vec<(String, Value)> {
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            let file = v
                .as_object_mut()
                .unwrap()
                .remove("file")
                .unwrap()
                .as_str()
                .unwrap()
                .to_owned();
            (file, v)
        })
        .collect()
}

#[test]
fn several_inputs_print_labelled_json_lines_in_order() {
    let Some(files) = samples("several inputs") else {
        return;
    };
    // Each file alone is the oracle for its line.
    let alone: Vec<Value> = files
        .iter()
        .map(|f| serde_json::from_slice(&gamefmt(&["inspect", "--json"], &[f]).stdout).unwrap())
        .collect();
    let paths: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    for jobs in ["1", "2", "4"] {
        let out = gamefmt(&["inspect", "--json", "--jobs", jobs], &paths);
        assert_eq!(out.status.code(), Some(0), "jobs {jobs}");
        let got = lines(&out);
        assert_eq!(got.len(), files.len());
        for ((file, value), (path, want)) in got.iter().zip(files.iter().zip(&alone)) {
            assert_eq!(
                file,
                &path.display().to_string(),
                "jobs {jobs}: input order"
            );
            assert_eq!(value, want, "jobs {jobs}: {file}");
        }
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains(&format!("{} files: {} decoded", files.len(), files.len())),
            "summary: {err}"
        );
    }
    // dump: every line labelled, the files' lines one after the other.
    let two = [paths[0], paths[2]];
    let out = gamefmt(&["dump", "--jobs", "2"], &two);
    let got = lines(&out);
    for (path, skip) in [
        (two[0], 0),
        (
            two[1],
            gamefmt(&["dump"], &[two[0]])
                .stdout
                .iter()
                .filter(|&&b| b == b'\n')
                .count(),
        ),
    ] {
        let want = String::from_utf8(gamefmt(&["dump"], &[path]).stdout).unwrap();
        for (i, line) in want.lines().enumerate() {
            let (file, value) = &got[skip + i];
            assert_eq!(file, &path.display().to_string());
            assert_eq!(value, &serde_json::from_str::<Value>(line).unwrap());
        }
    }
}

#[test]
fn directories_are_read_recursively_in_path_order() {
    let Some(files) = samples("directories") else {
        return;
    };
    let dir = scratch("dirs");
    std::fs::create_dir_all(dir.join("b/c")).unwrap();
    let copies = [
        dir.join("b/c/2.slp"),
        dir.join("a.teehistorian"),
        dir.join("b/1.demo"),
    ];
    for (copy, src) in copies.iter().zip([&files[2], &files[0], &files[4]]) {
        std::fs::copy(src, copy).unwrap();
    }
    std::fs::write(dir.join(".hidden"), b"not a game file").unwrap();
    let out = gamefmt(&["validate"], &[&dir]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let named: Vec<&str> = text
        .lines()
        .map(|l| l.split(": ok").next().unwrap())
        .collect();
    let want: Vec<String> = ["a.teehistorian", "b/1.demo", "b/c/2.slp"]
        .iter()
        .map(|f| dir.join(f).display().to_string())
        .collect();
    assert_eq!(named, want);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn exit_status_tells_decoded_refused_and_unreadable() {
    let Some(files) = samples("exit status") else {
        return;
    };
    let dir = scratch("exit");
    let junk = dir.join("junk.bin");
    std::fs::write(&junk, b"no format starts like this").unwrap();
    let missing = dir.join("missing.slp");
    let good = files[0].as_path();
    assert_eq!(gamefmt(&["validate"], &[good]).status.code(), Some(0));
    let refused = gamefmt(&["inspect", "--json"], &[good, &junk]);
    assert_eq!(refused.status.code(), Some(1));
    let got = lines(&refused);
    assert_eq!(got.len(), 2, "the refused file has its line too");
    assert!(got[1].1["error"].as_str().unwrap().contains("unrecognised"));
    let err = String::from_utf8(refused.stderr).unwrap();
    assert!(
        err.contains("2 files: 1 decoded (0 with warnings), 1 refused"),
        "{err}"
    );
    assert_eq!(
        gamefmt(&["validate"], &[good, &junk, &missing])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(gamefmt(&["validate"], &[&missing]).status.code(), Some(2));
    assert_eq!(
        gamefmt(&["validate", "--no-such-flag"], &[good])
            .status
            .code(),
        Some(2)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `gamefmt validate FILES` under `script` (a pseudo-terminal), or
/// with stderr piped; returns what stderr showed.
fn stderr_of(files: &[PathBuf], terminal: bool) -> Option<String> {
    let list: Vec<String> = files.iter().map(|f| format!("'{}'", f.display())).collect();
    let cmd = format!(
        "{} validate {}",
        env!("CARGO_BIN_EXE_gamefmt"),
        list.join(" ")
    );
    if terminal {
        let out = Command::new("script")
            .args(["-qec", &format!("{cmd} >/dev/null"), "/dev/null"])
            .output()
            .ok()?;
        Some(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        let out = Command::new("sh").args(["-c", &cmd]).output().unwrap();
        Some(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

#[test]
fn progress_bar_only_on_a_terminal() {
    let Some(files) = samples("progress bar") else {
        return;
    };
    let Some(tty) = stderr_of(&files, true) else {
        eprintln!("SKIPPED progress bar: no script command");
        return;
    };
    let n = files.len();
    assert!(tty.contains(&format!("{n}/{n} files")), "{tty}");
    assert!(tty.contains("ETA"), "{tty}");
    let piped = stderr_of(&files, false).unwrap();
    assert!(!piped.contains("ETA"), "{piped}");
    assert!(!piped.contains('\r'), "{piped}");
    assert!(
        piped.contains(&format!("{n} files: ")),
        "the summary: {piped}"
    );
}

/// The streamed `inspect` finds the winners `SlippiView::winners` finds
/// reading the file in memory backwards from its Game End.
#[test]
fn streamed_winners_match_the_view() {
    let Some(files) = common::corpus_files("streamed winners", "slippi", ".slp") else {
        return;
    };
    let mut checked = 0;
    for (name, bytes) in &files {
        let Ok(view) = gamefmt::slippi::SlippiView::parse(bytes) else {
            continue;
        };
        let dir = common::corpus_dir("streamed winners").unwrap();
        let out = gamefmt(&["inspect", "--json"], &[&dir.join("slippi").join(name)]);
        if !out.status.success() {
            continue;
        }
        let j: Value = serde_json::from_slice(&out.stdout).unwrap();
        let want: Vec<Value> = view
            .winners()
            .iter()
            .map(|w| serde_json::json!({"port": w.player_index + 1, "position": w.position}))
            .collect();
        assert_eq!(j["winners"], Value::Array(want), "{name}");
        checked += 1;
    }
    // Not vacuous on any folder: most of its replays decode and are
    // compared (62 corpus files: 60; 47 replays never seen: 47).
    assert!(
        checked * 2 > files.len(),
        "{checked} of {} replays",
        files.len()
    );
}

/// A folder of game files and the other files replay folders hold (a
/// readme, a notes file, a zipped-up text): the walk skips the others,
/// counts them in the summary and exits 0; `--all` reports each as
/// refused (exit 1); a file named on the command line is always reported.
#[test]
fn directory_walks_skip_files_that_are_not_game_files() {
    let Some(files) = samples("stray files") else {
        return;
    };
    let dir = scratch("stray");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::copy(&files[0], dir.join("a.teehistorian")).unwrap();
    std::fs::copy(&files[2], dir.join("sub/b.slp")).unwrap();
    std::fs::write(dir.join("README.txt"), b"my replays").unwrap();
    std::fs::write(dir.join("sub/notes.json"), b"{\"a\": 1}").unwrap();
    // A game file's name, not its bytes: damaged, reported.
    let broken = dir.join("sub/broken.slp.gz");
    std::fs::write(&broken, b"not gzip, not slippi").unwrap();
    let out = gamefmt(&["validate"], &[&dir]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("broken.slp.gz: unrecognised file format"),
        "{err}"
    );
    assert!(err.contains("1 refused, 0 unreadable, 2 skipped"), "{err}");
    std::fs::remove_file(&broken).unwrap();
    for command in [&["validate"][..], &["inspect", "--json"][..]] {
        let out = gamefmt(command, &[&dir]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{command:?}: {err}");
        assert!(!err.contains("unrecognised"), "{command:?}: {err}");
        assert!(
            err.contains(
                "4 files: 2 decoded (0 with warnings), 0 refused, 0 unreadable, 2 skipped"
            ),
            "{command:?}: {err}"
        );
        if command[0] == "inspect" {
            assert_eq!(lines(&out).len(), 2, "no line for a skipped file");
        }
    }
    let all = gamefmt(&["validate", "--all"], &[&dir]);
    let err = String::from_utf8_lossy(&all.stderr);
    assert_eq!(all.status.code(), Some(1), "{err}");
    assert_eq!(err.matches("unrecognised file format").count(), 2, "{err}");
    assert!(err.contains("2 refused, 0 unreadable, 0 skipped"), "{err}");
    // Named, not found: refused.
    let readme = dir.join("README.txt");
    let named = gamefmt(&["validate"], &[&dir.join("a.teehistorian"), &readme]);
    assert_eq!(named.status.code(), Some(1));
    // Export skips them alike.
    let out_dir = scratch("stray-out").join("out");
    let export = gamefmt(&["export", "--to", "arrow"], &[&out_dir, &dir]);
    let err = String::from_utf8_lossy(&export.stderr);
    if !err.contains("unrecognized subcommand") {
        assert_eq!(export.status.code(), Some(0), "{err}");
        assert!(err.contains("2 skipped"), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(out_dir.parent().unwrap());
}
