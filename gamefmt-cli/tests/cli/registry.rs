//! The CLI's registry: every format the core knows (`gamefmt::Format::ALL`)
//! goes through `inspect`, `dump` and `validate`, on a file of that format
//! made here (the core's samples, a demo recorded by the core), so a new
//! format fails this test until the CLI handles it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::Command;

use gamefmt::Format;
use gamefmt::demo::{DemoMap, Recorder, RecorderOptions};
use gamefmt::snapshot::SnapshotBuilder;

/// A small valid file of `format`.
fn sample(format: Format) -> Vec<u8> {
    match format {
        Format::Datafile => gamefmt::datafile::SAMPLE.to_vec(),
        Format::Slippi => gamefmt::slippi::SAMPLE.to_vec(),
        Format::Teehistorian => gamefmt::teehistorian::SAMPLE.to_vec(),
        Format::Demo => {
            let map = DemoMap {
                name: "dm1",
                crc: 0,
                sha256: [0; 32],
                data: None,
            };
            let mut rec =
                Recorder::new(&RecorderOptions::ddnet("2026-11-29_00-00-00"), &map).unwrap();
            let mut file = rec.take_bytes();
            let mut b = SnapshotBuilder::new();
            b.add(9, 0, &[0; 22]).unwrap();
            for tick in 0..100 {
                rec.snapshot(tick, &b.snapshot()).unwrap();
                file.extend(rec.take_bytes());
            }
            rec.header_patch().apply(&mut file).unwrap();
            file
        }
        other => panic!("the CLI's registry test has no sample of {}", other.name()),
    }
}

#[test]
fn every_format_goes_through_inspect_dump_and_validate() {
    let dir = std::env::temp_dir().join(format!("gamefmt-cli-registry-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for format in Format::ALL {
        let path = dir.join(format!("sample.{}", format.name()));
        std::fs::write(&path, sample(format)).unwrap();
        for command in ["inspect", "dump", "validate"] {
            let out = Command::new(env!("CARGO_BIN_EXE_gamefmt"))
                .arg(command)
                .arg(&path)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "gamefmt {command} on a {} file: {}",
                format.name(),
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(
                !out.stdout.is_empty(),
                "gamefmt {command} printed nothing for {}",
                format.name()
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
