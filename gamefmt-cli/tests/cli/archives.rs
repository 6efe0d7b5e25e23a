//! Zip archives and `.slpz` replays as inputs: a zip built here from
//! corpus replays (deflated and stored members, a folder in it, a hidden
//! member, an `.slpz`) reads as the folder of its members would, member
//! for member the same facts as the files themselves.
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    reason = "tests: a panic is the failure report"
)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::common;

fn gamefmt(args: &[&str], paths: &[&Path]) -> (bool, Vec<Value>) {
    let out = Command::new(env!("CARGO_BIN_EXE_gamefmt"))
        .args(args)
        .args(paths)
        .output()
        .unwrap();
    let lines = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (out.status.success(), lines)
}

#[test]
fn zip_members_and_slpz_read_as_files() {
    let Some(slippi) = common::corpus_subdir("zip_members_and_slpz_read_as_files", "slippi") else {
        return;
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(slippi)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            name.starts_with("v3.1") && name.ends_with(".slp")
        })
        .collect();
    files.sort();
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/sample.slpz");
    let tmp = std::env::temp_dir().join(format!("gamefmt-zip-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let archive = tmp.join("replays.zip");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&archive).unwrap());
    let mut names = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let method = if i % 2 == 0 {
            zip::CompressionMethod::Deflated
        } else {
            zip::CompressionMethod::Stored
        };
        let options = zip::write::SimpleFileOptions::default().compression_method(method);
        let name = format!("games/{}", f.file_name().unwrap().to_string_lossy());
        zip.start_file(name.as_str(), options).unwrap();
        zip.write_all(&std::fs::read(f).unwrap()).unwrap();
        names.push((name, f.clone()));
    }
    let options = zip::write::SimpleFileOptions::default();
    zip.start_file("sample.slpz", options).unwrap();
    zip.write_all(&std::fs::read(&sample).unwrap()).unwrap();
    names.push(("sample.slpz".into(), sample.clone()));
    zip.start_file(".hidden", options).unwrap();
    zip.write_all(b"not a replay").unwrap();
    zip.finish().unwrap();
    names.sort();

    let (ok, from_zip) = gamefmt(&["inspect", "--json"], &[&archive]);
    assert!(ok);
    let plain: Vec<&Path> = names.iter().map(|(_, f)| f.as_path()).collect();
    let (ok, from_files) = gamefmt(&["inspect", "--json"], &plain);
    assert!(ok);
    assert_eq!(from_zip.len(), names.len());
    for ((name, _), (mut z, mut f)) in names.iter().zip(from_zip.into_iter().zip(from_files)) {
        let label = archive.join(name);
        assert_eq!(z["file"], label.to_str().unwrap());
        z.as_object_mut().unwrap().remove("file");
        f.as_object_mut().unwrap().remove("file");
        assert_eq!(z, f, "{name}");
    }
    // The .slpz decodes to the sample replay: the same facts as the .slp.
    let slp = tmp.join("sample.slp");
    std::fs::write(&slp, gamefmt::slippi::SAMPLE).unwrap();
    let (_, a) = gamefmt(&["inspect", "--json"], &[&sample]);
    let (_, b) = gamefmt(&["inspect", "--json"], &[&slp]);
    assert_eq!(a, b);
    // One member named on the command line.
    let (ok, one) = gamefmt(&["inspect", "--json"], &[&archive.join(&names[0].0)]);
    assert!(ok);
    assert_eq!(one.len(), 1);
    let (ok, _) = gamefmt(&["validate"], &[&archive.join("games/missing.slp")]);
    assert!(!ok);
    std::fs::remove_dir_all(&tmp).unwrap();
    println!("zip: {} members read as their files", names.len());
}

/// An archive holding one game file labels it as a folder holding one
/// does (`file` in `inspect --json`): on a corpus of files never seen, with
/// no `v3.1*` replay to zip beside it, the archive's one member came out
/// without its `file`.
#[test]
fn a_zip_of_one_game_file_labels_it_as_a_folder_does() {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/sample.slpz");
    let tmp = std::env::temp_dir().join(format!("gamefmt-zip-one-{}", std::process::id()));
    let folder = tmp.join("folder");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::copy(&sample, folder.join("sample.slpz")).unwrap();
    let archive = tmp.join("one.zip");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&archive).unwrap());
    let options = zip::write::SimpleFileOptions::default();
    zip.start_file("sample.slpz", options).unwrap();
    zip.write_all(&std::fs::read(&sample).unwrap()).unwrap();
    zip.start_file(".hidden", options).unwrap();
    zip.write_all(b"not a replay").unwrap();
    zip.finish().unwrap();
    let (ok, from_folder) = gamefmt(&["inspect", "--json"], &[&folder]);
    assert!(ok);
    let (ok, from_zip) = gamefmt(&["inspect", "--json"], &[&archive]);
    assert!(ok);
    std::fs::remove_dir_all(&tmp).unwrap();
    assert_eq!(from_folder.len(), 1);
    assert_eq!(
        from_folder[0]["file"],
        folder.join("sample.slpz").to_str().unwrap()
    );
    assert_eq!(from_zip.len(), 1);
    assert_eq!(
        from_zip[0]["file"],
        archive.join("sample.slpz").to_str().unwrap()
    );
}
