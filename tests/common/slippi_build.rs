//! Synthetic Slippi replays built with the crate's own writer, shared by
//! the core's tests and the CLI's.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use gamefmt::slippi::{PayloadSizes, SlippiWriter};

/// A payload of `size` bytes (command byte not included) with `fields`
/// written at their *event* offsets (command byte = offset 0).
pub fn payload(size: usize, fields: &[(usize, &[u8])]) -> Vec<u8> {
    let mut p = vec![0u8; size];
    for (off, bytes) in fields {
        p[off - 1..off - 1 + bytes.len()].copy_from_slice(bytes);
    }
    p
}

pub fn sizes_3_18() -> PayloadSizes {
    let mut s = PayloadSizes::new();
    for (c, n) in [
        (0x36, 760),
        (0x37, 66),
        (0x38, 84),
        (0x39, 6),
        (0x3A, 12),
        (0x3C, 8),
    ] {
        s.set(c, n);
    }
    s
}

pub const METADATA: &[u8] = b"{U\x07startAtSU\x142026-01-01T00:00:00ZU\x09lastFramel\xff\xff\xff\x85U\x08playedOnSU\x07dolphin}";

/// Writes the replay embedded as `SAMPLE` (its doc says what it holds).
pub fn build_sample() -> (SlippiWriter, Vec<u8>) {
    let mut w = SlippiWriter::new(&sizes_3_18()).unwrap();
    let empty = [0u8, 3];
    let start = payload(
        760,
        &[
            (0x1, &[3, 18, 0, 0]),
            (0x13, &31u16.to_be_bytes()),
            (0x65, &[2, 0, 4, 0]),
            (0x65 + 0x24, &[20, 1, 4, 0]),
            (0x65 + 0x24 * 2, &empty),
            (0x65 + 0x24 * 3, &empty),
            (0x65 + 0x24 * 4, &empty),
            (0x65 + 0x24 * 5, &empty),
        ],
    );
    w.event(0x36, &start).unwrap();
    let frame = (-123i32).to_be_bytes();
    w.event(
        0x3A,
        &payload(12, &[(1, &frame), (5, &0xDEAD_BEEFu32.to_be_bytes())]),
    )
    .unwrap();
    for (i, x) in [(0u8, -30.0f32), (1, 30.0)] {
        let pre = payload(66, &[(1, &frame), (5, &[i, 0]), (0xD, &x.to_be_bytes())]);
        w.event(0x37, &pre).unwrap();
    }
    for (i, ch) in [(0u8, 1u8), (1, 22)] {
        let post = payload(
            84,
            &[
                (1, &frame),
                (5, &[i, 0, ch]),
                (0x16, &12.5f32.to_be_bytes()),
                (0x21, &[4]),
            ],
        );
        w.event(0x38, &post).unwrap();
    }
    w.event(0x3C, &payload(8, &[(1, &frame), (5, &frame)]))
        .unwrap();
    let live = w.live_bytes().to_vec();
    w.event(0x39, &payload(6, &[(1, &[2, 0xFF, 0, 1, 0xFF, 0xFF])]))
        .unwrap();
    (w, live)
}
