//! The Teeworlds Huffman code: known encodings and random round trips.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use gamefmt::huffman::{decode, encode};

fn hex(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).unwrap())
        .collect()
}

/// (plain prefix, compressed) pairs from libtw2's `huffman/data/test_cases`,
/// captured from real Teeworlds traffic. The compressed side carries bytes
/// after the end symbol (ignored by decoders), and the stored plain side
/// is a prefix of what it decodes to.
const LIBTW2_CASES: &[(&str, &str)] = &[
    (
        "00 04 13 80 12 0D 00 04 0D 80",
        "3D 55 80 EB F4 1C C0 15 8A 1B 11 04",
    ),
    (
        "00 04 13 80 15 0B 00 04 0D 80 15",
        "3D 55 C0 37 FF 9E 03 7C 13 8A 1B 04",
    ),
    (
        "01 00 21 80 12 83 12 28 00 01 00",
        "98 11 E0 FA 8D 6B 8D 8F 57 DC 00 00 20 74 65 65 00 00",
    ),
];

#[test]
fn libtw2_test_cases() {
    for &(plain, packed) in LIBTW2_CASES {
        let (plain, packed) = (hex(plain), hex(packed));
        let mut out = [0u8; 64];
        let n = decode(&packed, &mut out).unwrap();
        assert!(out[..n].starts_with(&plain), "{packed:02X?}");
        // Our encoding of what we decoded is the captured stream up to its
        // end symbol.
        let ours = encode(&out[..n]);
        assert!(ours.len() < packed.len());
        assert_eq!(&packed[..ours.len()], &ours[..]);
    }
}

/// libtw2's `decompress_extend_stream`: like DDNet, the end symbol may be
/// completed by zero bits past the end of the input.
#[test]
fn end_symbol_completed_by_implicit_zero_bits() {
    let mut out = [0u8; 8];
    assert_eq!(decode(&[0x57, 0xDC], &mut out), Ok(3));
    assert_eq!(out[..3], [0, 0, 0]);
}

#[test]
fn random_round_trips() {
    let mut x = 0xDEAD_BEEFu32;
    let mut out = vec![0u8; 4096];
    for round in 0..3000 {
        let len = (round * 7) % 2000;
        let data: Vec<u8> = (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                // Mostly small values, like packed ints.
                if x.is_multiple_of(3) {
                    (x >> 8) as u8
                } else {
                    (x >> 8) as u8 & 7
                }
            })
            .collect();
        let packed = encode(&data);
        assert_eq!(decode(&packed, &mut out), Ok(len), "round {round}");
        assert_eq!(&out[..len], &data[..]);
        // A strict prefix fails, or (when the bits at the cut happen to
        // start the end symbol and its missing tail is zeros, which DDNet
        // accepts) decodes to a prefix of the data.
        if round.is_multiple_of(50) {
            let mut accepted = 0;
            for cut in 0..packed.len() {
                match decode(&packed[..cut], &mut out) {
                    Ok(n) => {
                        assert!(n <= len && out[..n] == data[..n]);
                        accepted += 1;
                    }
                    Err(e) => assert_eq!(e, gamefmt::Error::truncated(cut)),
                }
            }
            assert!(
                accepted * 10 <= packed.len().max(10),
                "{accepted} of {}",
                packed.len()
            );
        }
    }
}
