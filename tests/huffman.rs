//! The Teeworlds Huffman code: known encodings, random round trips, and the
//! table-driven decoder against a bit-by-bit reference on every corpus demo
//! payload.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use crate::common;

use std::sync::OnceLock;

use gamefmt::demo::{Chunk, DemoView};
use gamefmt::huffman::{EOF_SYMBOL, SYMBOLS, code, decode, encode};
use gamefmt::{Error, ErrorKind};

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
                if x % 3 == 0 {
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
        if round % 50 == 0 {
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

/// The code tree rebuilt from the code table: children (bit 0, bit 1) of
/// each inner node, the root first; a child `>= SYMBOLS` is inner node
/// `child - SYMBOLS`, else a leaf.
fn tree() -> &'static [[usize; 2]] {
    static TREE: OnceLock<Vec<[usize; 2]>> = OnceLock::new();
    TREE.get_or_init(|| {
        let mut tree = vec![[usize::MAX; 2]];
        for symbol in 0..SYMBOLS {
            let (c, len) = code(symbol).unwrap();
            let mut node = 0;
            for i in 0..len {
                let bit = ((c >> i) & 1) as usize;
                if i + 1 == len {
                    tree[node][bit] = symbol;
                } else {
                    if tree[node][bit] == usize::MAX {
                        tree.push([usize::MAX; 2]);
                        tree[node][bit] = SYMBOLS + tree.len() - 1;
                    }
                    node = tree[node][bit] - SYMBOLS;
                }
            }
        }
        tree
    })
}

/// The decoder's contract, one bit at a time down the tree: zero bits past
/// the end of `src`; a data symbol that needs them is `Truncated`; the end
/// symbol may use them; `BufferTooSmall` with the whole decoded length
/// when `dst` is short (the bytes that fit are written).
fn reference_decode(src: &[u8], dst: &mut [u8]) -> Result<usize, Error> {
    let tree = tree();
    let (mut pos, mut written) = (0usize, 0usize);
    loop {
        let mut node = SYMBOLS;
        while node >= SYMBOLS {
            let bit = src.get(pos / 8).map_or(0, |b| (b >> (pos % 8)) & 1);
            node = tree[node - SYMBOLS][usize::from(bit)];
            pos += 1;
        }
        if node == EOF_SYMBOL {
            break;
        }
        if pos > src.len() * 8 {
            return Err(Error::truncated(src.len()));
        }
        if let Some(slot) = dst.get_mut(written) {
            *slot = node as u8;
        }
        written += 1;
    }
    if written > dst.len() {
        return Err(Error::new(
            ErrorKind::BufferTooSmall { needed: written },
            src.len(),
        ));
    }
    Ok(written)
}

/// `decode` and the reference agree on the result and on every byte of
/// `dst` (the bytes after the decoded ones stay untouched).
fn assert_same(src: &[u8], dst_len: usize, what: &str) {
    let mut ours = vec![0xA5u8; dst_len];
    let mut theirs = vec![0xA5u8; dst_len];
    let r = decode(src, &mut ours);
    assert_eq!(r, reference_decode(src, &mut theirs), "{what}");
    assert!(ours == theirs, "{what}: output bytes differ");
}

/// Every chunk payload of every corpus demo (snapshots, deltas, messages):
/// whole, into a buffer one byte short and into an empty one, and cut at
/// several lengths; plus random streams rich in long and zero-byte runs.
#[test]
fn table_decoder_matches_bit_by_bit_reference() {
    let Some(demos) = common::corpus_files(
        "table_decoder_matches_bit_by_bit_reference",
        "teeworlds/demos",
        ".demo",
    ) else {
        return;
    };
    let mut payloads = 0;
    let mut full = vec![0u8; gamefmt::demo::MAX_PAYLOAD];
    for (name, bytes) in &demos {
        let view = DemoView::parse(bytes).unwrap();
        for (i, chunk) in view.chunks().enumerate() {
            let Ok(Chunk::Data { payload, .. }) = chunk else {
                continue;
            };
            let what = format!("{name} chunk {i}");
            let n = decode(payload, &mut full).unwrap_or(0);
            assert_same(payload, n + 1, &what);
            assert_same(payload, n.saturating_sub(1), &what);
            assert_same(payload, 0, &what);
            // Cuts near the start, the middle and the end (where the
            // decoder switches from word to byte refills).
            if i % 16 == 0 {
                for cut in [
                    1,
                    7,
                    8,
                    9,
                    payload.len() / 2,
                    payload.len().saturating_sub(9),
                ]
                .into_iter()
                .chain(payload.len().saturating_sub(3)..payload.len())
                {
                    assert_same(&payload[..cut.min(payload.len())], n + 1, &what);
                }
            }
            payloads += 1;
        }
    }
    if common::shared_corpus() {
        assert!(payloads > 90_000, "{payloads}");
    }
    let mut x = 0x1234_5678u32;
    for round in 0..2000 {
        let len = (round * 13) % 700;
        let data: Vec<u8> = (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                match x % 4 {
                    0 | 1 => 0,
                    2 => (x >> 8) as u8,
                    _ => 255,
                }
            })
            .collect();
        let packed = encode(&data);
        assert_same(&packed, len, &format!("round {round}"));
        assert_same(&packed, len / 2, &format!("round {round} short"));
        let cut = (x as usize) % (packed.len() + 1);
        assert_same(&packed[..cut], len, &format!("round {round} cut {cut}"));
        // Random bytes: whatever they decode to, or fail with.
        let noise: Vec<u8> = (0..len % 97).map(|i| (x >> (i % 24)) as u8).collect();
        assert_same(&noise, 64, &format!("round {round} noise"));
    }
}
