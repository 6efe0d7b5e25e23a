//! `.slpz` reading and writing: `tests/data/sample.slpz` (made by the slpz
//! crate 1.3.0 from `slippi::SAMPLE`, level 3) decodes to `SAMPLE` byte for
//! byte; every truncation and a few damaged headers fail cleanly;
//! `compress_slpz` stores the same sections and the same reordered events
//! as the slpz crate (only zstd's own bytes differ), every corpus replay
//! the slpz crate takes round-trips, and the ones it refuses are refused
//! for its reasons; and, with
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
use gamefmt::slippi::{SAMPLE, compress_slpz, decompress_slpz, is_slpz};

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

/// The header's six fields, the three sections and the zstd stream
/// decoded (through ruzstd, whichever backend gamefmt uses).
fn parts(slpz: &[u8]) -> ([u32; 6], Vec<u8>, Vec<u8>) {
    use std::io::Read as _;
    let field = |i: usize| u32::from_be_bytes(slpz[i * 4..i * 4 + 4].try_into().unwrap());
    let header = [0, 1, 2, 3, 4, 5].map(field);
    let events_at = header[4] as usize;
    let mut compressed = &slpz[events_at..];
    let mut events = Vec::new();
    ruzstd::decoding::StreamingDecoder::new(&mut compressed)
        .unwrap()
        .read_to_end(&mut events)
        .unwrap();
    (header, slpz[24..events_at].to_vec(), events)
}

#[test]
fn compress_stores_what_the_slpz_crate_stores() {
    let ours = compress_slpz(SAMPLE).unwrap();
    assert!(is_slpz(&ours));
    assert_eq!(parts(&ours), parts(SAMPLE_SLPZ));
    assert_eq!(decompress_slpz(&ours).unwrap(), SAMPLE);
}

#[test]
fn compress_refuses_damage_cleanly() {
    for n in 0..SAMPLE.len() {
        // A prefix cut inside the raw element is refused; past it (in the
        // metadata) the events are whole and the file round-trips.
        match compress_slpz(&SAMPLE[..n]) {
            Ok(z) => assert_eq!(decompress_slpz(&z).unwrap(), &SAMPLE[..n], "prefix {n}"),
            Err(_) => assert!(
                n < 15 + u32::from_be_bytes(SAMPLE[11..15].try_into().unwrap()) as usize,
                "prefix {n}"
            ),
        }
    }
    let mut unfinished = SAMPLE.to_vec();
    unfinished[11..15].fill(0);
    let e = compress_slpz(&unfinished).unwrap_err();
    assert!(
        matches!(e.kind, ErrorKind::Corrupt(_)) && e.offset == 11,
        "{e}"
    );
    assert!(compress_slpz(SAMPLE_SLPZ).is_err());
    for at in 0..SAMPLE.len().min(4096) {
        let mut bad = SAMPLE.to_vec();
        bad[at] ^= 0x80;
        if let Ok(z) = compress_slpz(&bad) {
            assert_eq!(decompress_slpz(&z).unwrap(), bad, "byte {at}");
        }
    }
}

#[test]
fn corpus_round_trips_and_refusals() {
    let Some(files) = common::corpus_files("corpus_round_trips_and_refusals", "slippi", ".slp")
    else {
        return;
    };
    let slpz_dir = std::env::var_os("GAMEFMT_SLPZ_DIR");
    let (mut same, mut refused, mut as_theirs) = (0, 0, 0);
    for (name, slp) in &files {
        match compress_slpz(slp) {
            Ok(z) => {
                assert!(decompress_slpz(&z).unwrap() == *slp, "{name}");
                same += 1;
                if let Some(dir) = &slpz_dir
                    && let Ok(theirs) =
                        std::fs::read(std::path::Path::new(dir).join(format!("{name}z")))
                {
                    assert!(parts(&z) == parts(&theirs), "{name}");
                    as_theirs += 1;
                }
            }
            Err(e) => {
                // The slpz crate's two refusals: a raw length of 0, or no
                // Game Start right after Event Payloads.
                let raw_len = u32::from_be_bytes(slp[11..15].try_into().unwrap());
                let payloads_end = 15 + 1 + usize::from(slp[16]);
                assert!(
                    raw_len == 0 || slp.get(payloads_end) != Some(&0x36),
                    "{name}: {e}"
                );
                refused += 1;
            }
        }
    }
    println!(
        "slpz: {same} corpus replays round-trip ({as_theirs} compared with the slpz crate's), {refused} refused as the slpz crate refuses them"
    );
    assert!(same > 0);
}
