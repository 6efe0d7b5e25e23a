//! Huffman decode on arbitrary bytes: no panic; what decodes re-encodes to
//! a stream that decodes the same; encode → decode is the identity.
#![no_main]

use gamefmt::huffman::{decode, encode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let mut out = vec![0u8; 1 << 16];
    if let Ok(n) = decode(bytes, &mut out) {
        let again = encode(&out[..n]);
        let mut back = vec![0u8; n];
        assert_eq!(decode(&again, &mut back), Ok(n));
        assert_eq!(back, out[..n]);
    }
    let packed = encode(bytes);
    let mut back = vec![0u8; bytes.len()];
    assert_eq!(decode(&packed, &mut back), Ok(bytes.len()));
    assert_eq!(back, bytes);
});
