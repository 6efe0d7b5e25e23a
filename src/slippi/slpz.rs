//! `.slpz` reading (feature `slpz`): the compressed replays of the `slpz`
//! crate (version 0 of its format, read by rwing), decoded back to the
//! original `.slp` bytes.
//!
//! An `.slpz` file is a 24-byte header (format version, then the offsets
//! of the Event Payloads event, the Game Start event, the metadata element
//! with the file's closing `}`, and the compressed events, and the size of
//! the events once decompressed; all big-endian `u32`), those three
//! sections as the `.slp` has them, and one zstd stream (decoded here by
//! `ruzstd`) of the other events *reordered*: their count (`u32`), their
//! command bytes in order, then, command by command in ascending order,
//! the first payload byte of every event of that command, then every
//! second byte, and so on.

use alloc::vec::Vec;

use crate::error::{Error, ErrorKind, Result};

use super::payloads::PayloadSizes;
use super::{CMD_EVENT_PAYLOADS, CMD_GAME_START, HEADER_LEN, SIGNATURE};

/// The `.slpz` format version read (the `slpz` crate's `VERSION`).
pub const SLPZ_VERSION: u32 = 0;

/// Length of the `.slpz` header.
const SLPZ_HEADER: usize = 24;

/// Whether `bytes` starts like an `.slpz` file: version 0, the Event
/// Payloads event right after the header.
#[must_use]
pub fn is_slpz(bytes: &[u8]) -> bool {
    bytes.get(..8) == Some(&[0, 0, 0, 0, 0, 0, 0, 24][..])
        && bytes.get(SLPZ_HEADER) == Some(&CMD_EVENT_PAYLOADS)
}

fn be32(bytes: &[u8], at: usize) -> Result<usize> {
    let b: [u8; 4] = bytes
        .get(at..at.saturating_add(4))
        .and_then(|b| b.try_into().ok())
        .ok_or(Error::truncated(at))?;
    usize::try_from(u32::from_be_bytes(b)).map_err(|_| Error::new(ErrorKind::OutOfBounds, at))
}

/// Decodes an `.slpz` file to the `.slp` file it was made from, byte for
/// byte.
///
/// ```
/// # fn main() -> Result<(), gamefmt::Error> {
/// // An .slpz made by the slpz crate (1.3.0) from gamefmt's SAMPLE.
/// # let slpz = include_bytes!("../../tests/data/sample.slpz");
/// let slp = gamefmt::slippi::decompress_slpz(slpz)?;
/// assert_eq!(slp, gamefmt::slippi::SAMPLE);
/// # Ok(()) }
/// ```
///
/// # Errors
/// [`ErrorKind::UnsupportedVersion`] for a format version above 0;
/// `Truncated`/`OutOfBounds` when the offsets do not fit the file;
/// [`ErrorKind::Decompress`] for a damaged zstd stream;
/// [`ErrorKind::Corrupt`] when the sections or the reordered events do not
/// add up. Offsets in the `.slpz` file (in the decompressed events for
/// the last kind).
pub fn decompress_slpz(slpz: &[u8]) -> Result<Vec<u8>> {
    let version = be32(slpz, 0)?;
    if version != 0 {
        return Err(Error::new(
            ErrorKind::UnsupportedVersion(i64::try_from(version).unwrap_or(i64::MAX)),
            0,
        ));
    }
    let [sizes_at, start_at, meta_at, events_at, events_len] =
        [4, 8, 12, 16, 20].map(|at| be32(slpz, at));
    let (sizes_at, start_at, meta_at, events_at, events_len) =
        (sizes_at?, start_at?, meta_at?, events_at?, events_len?);
    let section = |from: usize, to: usize, at: usize| {
        slpz.get(from..to)
            .ok_or(Error::new(ErrorKind::OutOfBounds, at))
    };
    let payloads = section(sizes_at, start_at, 4)?;
    let game_start = section(start_at, meta_at, 8)?;
    let metadata = section(meta_at, events_at, 12)?;
    let compressed = slpz
        .get(events_at..)
        .ok_or(Error::new(ErrorKind::OutOfBounds, 16))?;
    if payloads.first() != Some(&CMD_EVENT_PAYLOADS) {
        return Err(Error::corrupt(
            "slpz event sizes are not Event Payloads",
            sizes_at,
        ));
    }
    if game_start.first().is_some_and(|&c| c != CMD_GAME_START) {
        return Err(Error::corrupt(
            "slpz game start is not Game Start",
            start_at,
        ));
    }
    let sizes = PayloadSizes::parse(payloads, sizes_at)?;

    let reordered = unzstd(compressed, events_len).map_err(|e| e.shifted(events_at))?;
    let mut slp = Vec::with_capacity(
        HEADER_LEN
            .saturating_add(payloads.len())
            .saturating_add(game_start.len())
            .saturating_add(reordered.len())
            .saturating_add(metadata.len()),
    );
    slp.extend_from_slice(SIGNATURE);
    slp.extend_from_slice(&[0; 4]);
    slp.extend_from_slice(payloads);
    slp.extend_from_slice(game_start);
    unorder(&reordered, &sizes, &mut slp)?;
    let raw_len = u32::try_from(slp.len().saturating_sub(HEADER_LEN))
        .map_err(|_| Error::new(ErrorKind::OutOfBounds, 20))?;
    if let Some(len) = slp.get_mut(SIGNATURE.len()..HEADER_LEN) {
        len.copy_from_slice(&raw_len.to_be_bytes());
    }
    slp.extend_from_slice(metadata);
    Ok(slp)
}

/// The zstd stream's bytes: exactly `len` of them (the header's claim; the
/// buffer grows with what the stream really gives, not with the claim).
fn unzstd(compressed: &[u8], len: usize) -> Result<Vec<u8>> {
    use std::io::Read as _;
    let fail = |_| Error::new(ErrorKind::Decompress, 0);
    let mut input = compressed;
    let decoder = ruzstd::decoding::StreamingDecoder::new(&mut input).map_err(|_| fail(()))?;
    let mut out = Vec::new();
    let limit = u64::try_from(len).unwrap_or(u64::MAX).saturating_add(1);
    decoder
        .take(limit)
        .read_to_end(&mut out)
        .map_err(|_| fail(()))?;
    if out.len() != len {
        return Err(Error::corrupt(
            "slpz events differ from their declared size",
            20,
        ));
    }
    Ok(out)
}

/// Undoes the reordering: appends the events to `out`.
fn unorder(b: &[u8], sizes: &PayloadSizes, out: &mut Vec<u8>) -> Result<()> {
    let total = be32(b, 0)?;
    let order = b
        .get(4..4usize.saturating_add(total))
        .ok_or(Error::corrupt("slpz event count exceeds its events", 0))?;
    let columns = b.get(4usize.saturating_add(total)..).unwrap_or_default();
    let size = |c: u8| usize::from(sizes.get(c).unwrap_or(0));
    let mut counts = [0usize; 256];
    for &c in order {
        if let Some(n) = counts.get_mut(usize::from(c)) {
            *n = n.saturating_add(1);
        }
    }
    // Where each command's columns start.
    let mut starts = [0usize; 256];
    let mut at = 0usize;
    for (c, (start, &count)) in (0u8..=255).zip(starts.iter_mut().zip(&counts)) {
        *start = at;
        at = at.saturating_add(size(c).saturating_mul(count));
    }
    if at != columns.len() {
        return Err(Error::corrupt("slpz reordered events do not add up", 0));
    }
    let mut seen = [0usize; 256];
    out.reserve(columns.len().saturating_add(total));
    for &c in order {
        let i = usize::from(c);
        let (Some(&start), Some(&stride), Some(nth)) =
            (starts.get(i), counts.get(i), seen.get_mut(i))
        else {
            continue;
        };
        out.push(c);
        let first = start.saturating_add(*nth);
        for j in 0..size(c) {
            let byte = columns
                .get(first.saturating_add(j.saturating_mul(stride)))
                .ok_or(Error::corrupt("slpz reordered events do not add up", 0))?;
            out.push(*byte);
        }
        *nth = nth.saturating_add(1);
    }
    Ok(())
}
