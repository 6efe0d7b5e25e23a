//! The Teeworlds Huffman code, used for demo chunks and network packets.
//!
//! The code has 257 symbols: the 256 byte values and an end-of-stream
//! symbol ([`EOF_SYMBOL`]). Its tree is fixed: it is built (at compile time)
//! from the frequency table [`FREQUENCIES`] the way Teeworlds builds it, so
//! every implementation agrees on it bit for bit. Codes are written
//! least-significant bit first; a compressed stream is the codes of its
//! bytes, then the end symbol, then zero bits up to the next byte boundary.
//!
//! [`decode`] writes into a buffer the caller owns and never allocates;
//! [`encode`] (feature `alloc`) returns a `Vec`.
//!
//! ```
//! # fn main() -> Result<(), gamefmt::Error> {
//! use gamefmt::huffman;
//! // The empty stream is just the 15-bit end symbol.
//! let mut out = [0u8; 16];
//! assert_eq!(huffman::decode(&[0x8A, 0x1B], &mut out)?, 0);
//! // Bytes after the end symbol are ignored.
//! assert_eq!(huffman::decode(&[0x8A, 0x1B, 0xFF], &mut out)?, 0);
//! # Ok(()) }
//! ```

use crate::error::{Error, ErrorKind, Result};

/// Number of symbols: 256 byte values plus the end symbol.
pub const SYMBOLS: usize = 257;
/// The symbol that ends a compressed stream.
pub const EOF_SYMBOL: usize = 256;

/// Frequencies the Teeworlds Huffman tree is built from, one per symbol
/// (spec `teeworlds.md` §4.7; DDNet `src/engine/shared/huffman.cpp`). The
/// end symbol's frequency is 1.
pub const FREQUENCIES: [u32; SYMBOLS] = [
    1073741824, 4545, 2657, 431, 1950, 919, 444, 482, 2244, 617, 838, 542, 715, 1814, 304, 240,
    754, 212, 647, 186, 283, 131, 146, 166, 543, 164, 167, 136, 179, 859, 363, 113, 157, 154, 204,
    108, 137, 180, 202, 176, 872, 404, 168, 134, 151, 111, 113, 109, 120, 126, 129, 100, 41, 20,
    16, 22, 18, 18, 17, 19, 16, 37, 13, 21, 362, 166, 99, 78, 95, 88, 81, 70, 83, 284, 91, 187, 77,
    68, 52, 68, 59, 66, 61, 638, 71, 157, 50, 46, 69, 43, 11, 24, 13, 19, 10, 12, 12, 20, 14, 9,
    20, 20, 10, 10, 15, 15, 12, 12, 7, 19, 15, 14, 13, 18, 35, 19, 17, 14, 8, 5, 15, 17, 9, 15, 14,
    18, 8, 10, 2173, 134, 157, 68, 188, 60, 170, 60, 194, 62, 175, 71, 148, 67, 167, 78, 211, 67,
    156, 69, 1674, 90, 174, 53, 147, 89, 181, 51, 174, 63, 163, 80, 167, 94, 128, 122, 223, 153,
    218, 77, 200, 110, 190, 73, 174, 69, 145, 66, 277, 143, 141, 60, 136, 53, 180, 57, 142, 57,
    158, 61, 166, 112, 152, 92, 26, 22, 21, 28, 20, 26, 30, 21, 32, 27, 20, 17, 23, 21, 30, 22, 22,
    21, 27, 25, 17, 27, 23, 18, 39, 26, 15, 21, 12, 18, 18, 27, 20, 18, 15, 19, 11, 17, 33, 12, 18,
    15, 19, 18, 16, 26, 17, 18, 9, 10, 25, 22, 22, 17, 20, 16, 6, 16, 15, 20, 14, 18, 24, 335, 1,
];

/// Nodes in the tree: 257 leaves (index = symbol) and 256 inner nodes.
const NODES: usize = 2 * SYMBOLS - 1;
/// Bits resolved by one look-up-table step.
const LUT_BITS: u32 = 13;
// An entry packs the bits used (low 6 bits) under the node (10 bits).
const _: () = assert!(LUT_BITS < 64 && 2 * SYMBOLS <= 1 << 10);
/// Bits of a look-up-table entry that hold the bits used.
const USED_BITS: u32 = 6;
const LUT_MASK: u64 = (1 << LUT_BITS) - 1;
/// Bits resolved by the second lookup of a long code: the longest code
/// (15 bits, checked in `build`) less `LUT_BITS`.
const LONG_BITS: u32 = 2;
const LONG_MASK: u64 = (1 << LONG_BITS) - 1;

/// The tree and the tables derived from it.
struct Tables {
    /// Code of each symbol, first bit in bit 0.
    codes: [u32; SYMBOLS],
    /// Code length of each symbol, in bits.
    lens: [u8; SYMBOLS],
    /// For every `LUT_BITS`-bit window: the node reached (upper 10 bits)
    /// and the bits used to reach it (low 6 bits, so that the entry itself
    /// is the shift amount); a leaf if the node is `< SYMBOLS`. 13 bits
    /// (16 KiB, still in L1) resolve most symbols in one lookup: measured
    /// 2.5x -> 2.9x libtw2 on the corpus demos with 12 bits against 10;
    /// 13 bits, with `long`, take a quarter of the branch mispredictions
    /// of the Huffman decode off (callgrind, corpus demos).
    lut: [u16; 1 << LUT_BITS],
    /// For inner node `SYMBOLS + i` at depth `LUT_BITS` (where a code
    /// longer than the table leaves the lookup), for every `LONG_BITS`-bit
    /// window after it: the symbol (upper bits) and the further bits used
    /// (low 6 bits). One more lookup instead of a walk bit by bit (7.7% of
    /// the bytes of the corpus demos have codes longer than 12 bits).
    long: [[u16; 1 << LONG_BITS]; NODES - SYMBOLS],
    /// Longest code, in bits.
    #[allow(dead_code, reason = "read only by the const assertion below")]
    max_len: u32,
}

const ROOT: usize = NODES - 1;

/// Builds the tree as Teeworlds does: keep the remaining nodes stably
/// sorted by descending frequency, merge the last two (the least frequent
/// becomes child 0), and put the merged node where the second-least was
/// before sorting again.
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    reason = "const-evaluated on fixed data: a fault fails the build"
)]
const fn build() -> Tables {
    // (frequency, node) of the nodes not yet merged.
    let mut left = [(0u32, 0u16); SYMBOLS];
    let mut n = 0;
    while n < SYMBOLS {
        // Stable insertion by descending frequency.
        let freq = FREQUENCIES[n];
        let mut at = n;
        while at > 0 && left[at - 1].0 < freq {
            left[at] = left[at - 1];
            at -= 1;
        }
        left[at] = (freq, n as u16);
        n += 1;
    }
    let mut children = [[0u16; 2]; NODES - SYMBOLS];
    let mut parent = [(0u16, 0u8); NODES];
    let mut next = SYMBOLS;
    while n > 1 {
        let least = left[n - 1];
        let second = left[n - 2];
        children[next - SYMBOLS] = [least.1, second.1];
        parent[least.1 as usize] = (next as u16, 0);
        parent[second.1 as usize] = (next as u16, 1);
        let merged = (least.0 + second.0, next as u16);
        n -= 1;
        // The merged node sits at the end; a stable sort moves it before
        // every node with a strictly smaller frequency.
        let mut at = n - 1;
        while at > 0 && left[at - 1].0 < merged.0 {
            left[at] = left[at - 1];
            at -= 1;
        }
        left[at] = merged;
        next += 1;
    }
    let mut codes = [0u32; SYMBOLS];
    let mut lens = [0u8; SYMBOLS];
    let mut max_len = 0;
    let mut s = 0;
    while s < SYMBOLS {
        // Walk up to the root; the bit seen last is the code's first bit.
        let mut node = s;
        let mut code = 0u32;
        let mut len = 0u32;
        while node != ROOT {
            let (up, bit) = parent[node];
            code = (code << 1) | bit as u32;
            len += 1;
            node = up as usize;
        }
        codes[s] = code;
        lens[s] = len as u8;
        if len > max_len {
            max_len = len;
        }
        s += 1;
    }
    let mut lut = [0u16; 1 << LUT_BITS];
    let mut long = [[0u16; 1 << LONG_BITS]; NODES - SYMBOLS];
    let mut window = 0;
    while window < (1 << LUT_BITS) {
        let mut node = ROOT;
        let mut used = 0;
        while used < LUT_BITS && node >= SYMBOLS {
            node = children[node - SYMBOLS][(window >> used) & 1] as usize;
            used += 1;
        }
        lut[window] = ((node as u16) << USED_BITS) | used as u16;
        if node >= SYMBOLS {
            // A code longer than the table: its second lookup.
            let mut rest = 0;
            while rest < (1 << LONG_BITS) {
                let mut leaf = node;
                let mut more = 0;
                while more < LONG_BITS && leaf >= SYMBOLS {
                    leaf = children[leaf - SYMBOLS][(rest >> more) & 1] as usize;
                    more += 1;
                }
                assert!(leaf < SYMBOLS, "a code longer than LUT_BITS + LONG_BITS");
                long[node - SYMBOLS][rest] = ((leaf as u16) << USED_BITS) | more as u16;
                rest += 1;
            }
        }
        window += 1;
    }
    Tables {
        codes,
        lens,
        lut,
        long,
        max_len,
    }
}

static TABLES: Tables = build();

/// Symbols decoded per refill of the bit window without a check.
const SYMBOLS_PER_REFILL: usize = 3;
/// The longest code, in bits.
const MAX_CODE_LEN: u32 = 15;
const _: () = assert!(build().max_len == MAX_CODE_LEN);
// The decoder refills the window to at least 56 bits, enough for this many
// codes of the longest length.
const _: () = assert!(SYMBOLS_PER_REFILL as u32 * MAX_CODE_LEN <= 56);
/// Symbols decoded per refill at most: those past [`SYMBOLS_PER_REFILL`]
/// while the window still holds a longest code (it nearly always does:
/// codes average about 9 bits).
const MAX_SYMBOLS_PER_REFILL: usize = 5;
// The end symbol's code is longer than the table: a first lookup never
// ends at it, so only the second lookup checks for it.
const _: () = assert!(build().lens[EOF_SYMBOL] as u32 > LUT_BITS);

/// The code of `symbol` (first bit in bit 0) and its length in bits, or
/// `None` if `symbol` is not below [`SYMBOLS`].
#[must_use]
pub fn code(symbol: usize) -> Option<(u32, u32)> {
    Some((
        *TABLES.codes.get(symbol)?,
        u32::from(*TABLES.lens.get(symbol)?),
    ))
}

/// Decodes the Huffman stream `src` into `dst`; returns the number of bytes
/// written.
///
/// Decoding stops at the end symbol; anything after it is ignored. As in
/// DDNet, the end symbol's last bits may be missing if they are zeros.
/// Fails with [`ErrorKind::Truncated`] (offset `src.len()`) if `src` ends
/// before the end symbol, and with [`ErrorKind::BufferTooSmall`] (`needed` = the
/// decoded length) if `dst` is too short. Never allocates.
pub fn decode(src: &[u8], dst: &mut [u8]) -> Result<usize> {
    // The bit window: its low `count` bits are the stream's next bits;
    // above them are either the bits after those (after a whole-word
    // refill) or zeros. `next` bytes of the stream (zero bytes past its
    // end) have been loaded, so `8 * next - count` bits are consumed.
    let mut bits = 0u64;
    let mut count = 0u32;
    let mut next = 0usize;
    let mut out = Output {
        dst,
        written: 0,
        overflow: false,
    };
    // While a whole word is left: no bit is padding, so no symbol needs
    // the end check below.
    while let Some(word) = src.get(next..).and_then(<[u8]>::first_chunk::<8>) {
        refill(&mut bits, &mut count, &mut next, word);
        // The window holds the longest code this many times: no refill
        // check between them, which keeps the chain from one symbol's
        // table entry to the next symbol's lookup short; then a symbol or
        // two more while the window holds a longest code.
        let at = out.written;
        if let Some(slots) = out
            .dst
            .get_mut(at..)
            .and_then(<[u8]>::first_chunk_mut::<MAX_SYMBOLS_PER_REFILL>)
        {
            // Room for all of them (the common case): one bounds check
            // for the group, and no overflow bookkeeping.
            let mut done = slots.len();
            for (i, slot) in slots.iter_mut().enumerate() {
                if i >= SYMBOLS_PER_REFILL && count < MAX_CODE_LEN {
                    done = i;
                    break;
                }
                let Some(byte) = symbol(&mut bits, &mut count) else {
                    out.written = at.wrapping_add(i);
                    return out.finish(src.len());
                };
                *slot = byte;
            }
            out.written = at.wrapping_add(done);
        } else {
            for _ in 0..SYMBOLS_PER_REFILL {
                let Some(byte) = symbol(&mut bits, &mut count) else {
                    return out.finish(src.len());
                };
                out.push(byte);
            }
        }
    }
    // The last bytes (fewer than eight), padded with zero bytes: the same
    // whole-word refills, from the pad.
    let rest = src.get(next..).unwrap_or_default();
    let mut pad = [0u8; 16];
    if let Some(head) = pad.get_mut(..rest.len()) {
        head.copy_from_slice(rest);
    }
    let (start, total_bits) = (next, src.len().saturating_mul(8));
    loop {
        let at = next.wrapping_sub(start);
        let word = pad.get(at..).and_then(<[u8]>::first_chunk::<8>);
        refill(&mut bits, &mut count, &mut next, word.unwrap_or(&[0; 8]));
        for _ in 0..SYMBOLS_PER_REFILL {
            let Some(byte) = symbol(&mut bits, &mut count) else {
                return out.finish(src.len());
            };
            // Only the end symbol may be completed by the zero padding
            // (DDNet's decoder reads zeros past the end; a data symbol
            // there would be followed by endless zeros, which never form
            // the end symbol).
            let consumed = next.saturating_mul(8).saturating_sub(count as usize);
            if consumed > total_bits {
                return Err(Error::truncated(src.len()));
            }
            out.push(byte);
        }
    }
}

/// Loads `word`, the stream's bytes from `next` on, above the window's
/// `count` bits: as many whole bytes as fit, 56 to 63 bits in all. Bits
/// the window already held are loaded again at the same place, unchanged.
#[inline(always)]
fn refill(bits: &mut u64, count: &mut u32, next: &mut usize, word: &[u8; 8]) {
    *bits |= u64::from_le_bytes(*word) << (*count & 63);
    *next = next.wrapping_add((63u32.wrapping_sub(*count) >> 3) as usize);
    *count |= 56;
}

/// The next byte from the bit window (which holds its code), the window
/// moved past it; `None` for the end symbol.
#[inline(always)]
fn symbol(bits: &mut u64, count: &mut u32) -> Option<u8> {
    let entry = TABLES
        .lut
        .get((*bits & LUT_MASK) as usize)
        .copied()
        .unwrap_or_default();
    // Shifts by the bits used: the entry's low 6 bits.
    *bits = bits.wrapping_shr(u32::from(entry));
    *count = count.wrapping_sub(u32::from(entry) & ((1 << USED_BITS) - 1));
    // A byte (never the end symbol, whose code is longer than the table),
    // or the node a longer code leads to.
    if let Ok(byte) = u8::try_from(entry >> USED_BITS) {
        return Some(byte);
    }
    long_symbol(bits, count, usize::from(entry >> USED_BITS))
}

/// The second lookup of a code longer than the table, from its `node`
/// at depth [`LUT_BITS`]: the byte, or `None` for the end symbol.
#[inline(always)]
fn long_symbol(bits: &mut u64, count: &mut u32, node: usize) -> Option<u8> {
    let long = node.checked_sub(SYMBOLS).and_then(|i| TABLES.long.get(i))?;
    let entry = long
        .get((*bits & LONG_MASK) as usize)
        .copied()
        .unwrap_or_default();
    *bits = bits.wrapping_shr(u32::from(entry));
    *count = count.wrapping_sub(u32::from(entry) & ((1 << USED_BITS) - 1));
    u8::try_from(entry >> USED_BITS).ok()
}

/// Where [`decode`] writes: past the end of `dst` it only counts.
struct Output<'d> {
    dst: &'d mut [u8],
    written: usize,
    overflow: bool,
}

impl Output<'_> {
    #[inline(always)]
    fn push(&mut self, byte: u8) {
        match self.dst.get_mut(self.written) {
            Some(slot) => *slot = byte,
            None => self.overflow = true,
        }
        self.written = self.written.saturating_add(1);
    }

    /// The answer at the end symbol, for a source of `len` bytes.
    fn finish(&self, len: usize) -> Result<usize> {
        if self.overflow {
            return Err(Error::new(
                ErrorKind::BufferTooSmall {
                    needed: self.written,
                },
                len,
            ));
        }
        Ok(self.written)
    }
}

/// Encodes `src`, the end symbol, and zero bits up to a byte boundary.
#[cfg(feature = "alloc")]
#[must_use]
pub fn encode(src: &[u8]) -> alloc::vec::Vec<u8> {
    let mut out = alloc::vec::Vec::with_capacity(src.len() / 2);
    let _ = encode_append(src, &mut out);
    out
}

/// [`encode`], appending to `out` (whose buffer the caller reuses);
/// returns the zero bits that pad the last byte (0 to 7: 0 when the end
/// symbol ends on a byte boundary, where the Teeworlds coder and DDNet's
/// before May 2026 wrote one more zero byte).
#[cfg(feature = "alloc")]
pub fn encode_append(src: &[u8], out: &mut alloc::vec::Vec<u8>) -> u32 {
    // Room for the longest codes, written four bytes at a time: a 64-bit
    // window holds up to 31 pending bits and one code of 15 at most.
    let start = out.len();
    let worst = src
        .len()
        .saturating_add(1)
        .saturating_mul(MAX_CODE_LEN as usize)
        .div_ceil(8)
        .saturating_add(8);
    out.resize(start.saturating_add(worst), 0);
    let buf = out.get_mut(start..).unwrap_or_default();
    let mut bits = 0u64;
    let mut count = 0u32;
    let mut pos = 0usize;
    let codes = &TABLES.codes;
    let lens = &TABLES.lens;
    for &b in src {
        let (code, len) = (
            codes.get(usize::from(b)).copied().unwrap_or(0),
            lens.get(usize::from(b)).copied().unwrap_or(0),
        );
        bits |= u64::from(code) << count;
        count = count.wrapping_add(u32::from(len));
        if count >= 32 {
            if let Some(dst) = buf.get_mut(pos..pos.wrapping_add(4)) {
                dst.copy_from_slice(&(bits as u32).to_le_bytes());
            }
            pos = pos.wrapping_add(4);
            bits >>= 32;
            count = count.wrapping_sub(32);
        }
    }
    let (code, len) = code(EOF_SYMBOL).unwrap_or_default();
    bits |= u64::from(code) << count;
    count = count.wrapping_add(len);
    // The rest: whole bytes, then the partial one.
    let tail = count.div_ceil(8) as usize;
    if let Some(dst) = buf.get_mut(pos..pos.wrapping_add(8)) {
        dst.copy_from_slice(&bits.to_le_bytes());
    }
    out.truncate(start.saturating_add(pos).saturating_add(tail));
    (8u32.wrapping_sub(count % 8)) % 8
}

#[cfg(test)]
#[allow(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    reason = "unit tests: a panic is the failure report"
)]
mod tests {
    use super::*;

    /// Codes from libtw2's `huffman/data/repr` (computed independently from
    /// the same table), written first bit first.
    const KNOWN_CODES: &[(usize, &str)] = &[
        (0, "1"),
        (1, "0001"),
        (2, "01000"),
        (3, "01101000"),
        (83, "0011011"),
        (b'a' as usize, "001110001010"),
        (255, "01001001"),
        (EOF_SYMBOL, "010100011101100"),
    ];

    #[test]
    fn codes_match_libtw2() {
        for &(symbol, text) in KNOWN_CODES {
            let mut expected = 0u32;
            for (i, c) in text.bytes().enumerate() {
                expected |= u32::from(c == b'1') << i;
            }
            assert_eq!(
                code(symbol),
                Some((expected, text.len() as u32)),
                "{symbol}"
            );
        }
        assert_eq!(code(SYMBOLS), None);
    }

    #[test]
    fn codes_are_prefix_free_and_complete() {
        // Kraft sum of a full binary tree is exactly 1.
        let sum: u64 = (0..SYMBOLS)
            .map(|s| 1u64 << (32 - code(s).unwrap().1))
            .sum();
        assert_eq!(sum, 1 << 32);
    }

    #[cfg(feature = "alloc")]
    #[test]
    fn padding_bits() {
        // The end symbol alone: 15 bits, one bit of padding.
        let mut out = alloc::vec::Vec::new();
        assert_eq!(encode_append(&[], &mut out), 1);
        assert_eq!(out, [0x8A, 0x1B]);
        // A zero byte (code "1") and the end symbol: 16 bits, none.
        out.clear();
        assert_eq!(encode_append(&[0], &mut out), 0);
        assert_eq!(out.len(), 2);
        // Appends.
        assert_eq!(encode_append(&[0, 0], &mut out), 7);
        assert_eq!(out.len(), 5);
    }

    #[test]
    fn errors() {
        let mut out = [0u8; 4];
        // Cut short before the end symbol.
        assert_eq!(decode(&[0x8A], &mut out), Err(Error::truncated(1)));
        assert_eq!(decode(&[], &mut out), Err(Error::truncated(0)));
        // Eight zero bytes ("1" is symbol 0's code, so 0xFF = eight zeros).
        let mut small = [0u8; 2];
        let eight_zeros = [0xFF, 0x8A, 0x1B];
        assert_eq!(decode(&eight_zeros, &mut [0u8; 8]), Ok(8));
        assert_eq!(
            decode(&eight_zeros, &mut small),
            Err(Error::new(ErrorKind::BufferTooSmall { needed: 8 }, 3))
        );
    }
}
