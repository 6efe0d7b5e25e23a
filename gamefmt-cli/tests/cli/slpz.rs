//! `gamefmt slpz` and `gamefmt slpz -d`: every corpus replay the slpz
//! format takes goes to `.slpz` and back byte for byte (through the CLI
//! both ways, the `.slpz` decoded by the input layer on the way back), the
//! others are refused with exit status 1 and a message naming the file;
//! a file that is not a replay is refused too.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn gamefmt(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gamefmt"))
        .arg("slpz")
        .args(args)
        .output()
        .unwrap()
}

fn out_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("slpz");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn corpus_round_trips_through_the_cli() {
    let Some(dir) = common::corpus_subdir("corpus_round_trips_through_the_cli", "slippi") else {
        return;
    };
    let Some(files) = common::corpus_files("corpus_round_trips_through_the_cli", "slippi", ".slp")
    else {
        return;
    };
    let out = out_dir();
    let (mut same, mut refused) = (0, 0);
    for (name, slp) in &files {
        let input = dir.join(name);
        let z = out.join(format!("{name}z"));
        let back = out.join(name);
        let made = gamefmt(&[input.to_str().unwrap(), "-o", z.to_str().unwrap()]);
        if made.status.code() == Some(1) {
            let stderr = String::from_utf8_lossy(&made.stderr);
            // A damaged replay may not even start like one.
            assert!(
                stderr.contains(name.as_str())
                    && (stderr.contains("cannot compress")
                        || stderr.contains("not a Slippi replay")),
                "{stderr}"
            );
            refused += 1;
            continue;
        }
        assert!(made.status.success(), "{name}: {made:?}");
        let z_bytes = std::fs::read(&z).unwrap();
        assert!(gamefmt::slippi::is_slpz(&z_bytes), "{name}");
        let restored = gamefmt(&["-d", z.to_str().unwrap(), "-o", back.to_str().unwrap()]);
        assert!(restored.status.success(), "{name}: {restored:?}");
        assert!(std::fs::read(&back).unwrap() == *slp, "{name}");
        same += 1;
    }
    println!("gamefmt slpz: {same} corpus replays round-trip, {refused} refused");
    // The slpz crate takes 57 of the 62 corpus replays (benches/peers/slpz).
    assert!(same > 0 && refused < same);
}

#[test]
fn not_a_replay_is_refused() {
    let out = out_dir();
    let notes = out.join("notes.txt");
    std::fs::write(&notes, b"not a replay").unwrap();
    let o = gamefmt(&[
        notes.to_str().unwrap(),
        "-o",
        out.join("x.slpz").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a Slippi replay"));
    assert!(!out.join("x.slpz").exists());
}
