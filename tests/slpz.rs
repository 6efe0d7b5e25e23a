//! `.slpz` reading: `tests/data/sample.slpz` (made by the slpz crate 1.3.0
//! from `slippi::SAMPLE`, level 3) decodes to `SAMPLE` byte for byte; every
//! truncation and a few damaged headers fail cleanly; and, with
//! `GAMEFMT_SLPZ_DIR` naming a folder of `<name>.slpz` made by the slpz
//! crate from the corpus replays (`benches/peers/slpz/`), each decodes to
//! its corpus `.slp` byte for byte (SKIPPED otherwise).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use crate::common;

use gamefmt::ErrorKind;
use gamefmt::slippi::{SAMPLE, decompress_slpz, is_slpz};

const SAMPLE_SLPZ: &[u8] = include_bytes!("data/sample.slpz");

#[test]
fn sample_round_trips() {
    assert!(is_slpz(SAMPLE_SLPZ));
    assert!(!is_slpz(SAMPLE));
    assert_eq!(decompress_slpz(SAMPLE_SLPZ).unwrap(), SAMPLE);
}

#[test]
fn damage_fails_cleanly() {
    for n in 0..SAMPLE_SLPZ.len() {
        assert!(decompress_slpz(&SAMPLE_SLPZ[..n]).is_err(), "prefix {n}");
    }
    let mut v1 = SAMPLE_SLPZ.to_vec();
    v1[3] = 1;
    assert_eq!(
        decompress_slpz(&v1).unwrap_err().kind,
        ErrorKind::UnsupportedVersion(1)
    );
    // Every single-byte change: an error or some bytes, never a panic.
    for at in 0..SAMPLE_SLPZ.len() {
        for x in [0x01, 0x80, 0xff] {
            let mut bad = SAMPLE_SLPZ.to_vec();
            bad[at] ^= x;
            let _ = decompress_slpz(&bad);
        }
    }
    // A claimed size far beyond the stream is refused, not allocated.
    let mut huge = SAMPLE_SLPZ.to_vec();
    huge[20..24].copy_from_slice(&u32::MAX.to_be_bytes());
    assert!(decompress_slpz(&huge).is_err());
}

#[test]
fn corpus_slpz_made_by_the_slpz_crate() {
    let Some(dir) = std::env::var_os("GAMEFMT_SLPZ_DIR") else {
        eprintln!("SKIPPED corpus_slpz_made_by_the_slpz_crate: GAMEFMT_SLPZ_DIR not set");
        return;
    };
    let Some(files) = common::corpus_files("corpus_slpz_made_by_the_slpz_crate", "slippi", ".slp")
    else {
        return;
    };
    let (mut same, mut absent) = (0, 0);
    for (name, slp) in &files {
        let Ok(z) = std::fs::read(std::path::Path::new(&dir).join(format!("{name}z"))) else {
            absent += 1;
            continue;
        };
        assert!(decompress_slpz(&z).unwrap() == *slp, "{name}");
        same += 1;
    }
    println!(
        "slpz: {same} corpus replays restored byte for byte; {absent} have no .slpz (the slpz crate refuses them)"
    );
    assert!(same > 0);
}
