//! `.slpz` reading and writing (feature `slpz`): the compressed replays of
//! the `slpz` crate (version 0 of its format, read by rwing), decoded back
//! to the original `.slp` bytes, and made from them.
//!
//! An `.slpz` file is a 24-byte header (format version, then the offsets
//! of the Event Payloads event, the Game Start event, the metadata element
//! with the file's closing `}`, and the compressed events, and the size of
//! the events once decompressed; all big-endian `u32`), those three
//! sections as the `.slp` has them, and one zstd stream of the other
//! events *reordered*: their count (`u32`), their command bytes in order,
//! then, command by command in ascending order, the first payload byte of
//! every event of that command, then every second byte, and so on.
//!
//! zstd is `ruzstd` (pure Rust), or with feature `fast-zstd` the zstd
//! library itself (the `zstd` crate, which compiles its C sources): the
//! same bytes out of [`decompress_slpz`], several times faster, and
//! [`compress_slpz`] at zstd's level 3 (the slpz crate's) instead of
//! ruzstd's fastest level.
//!
//! ```
//! # fn main() -> Result<(), gamefmt::Error> {
//! use gamefmt::slippi::{SAMPLE, compress_slpz, decompress_slpz, is_slpz};
//! let slpz = compress_slpz(SAMPLE)?;
//! assert!(is_slpz(&slpz) && slpz.len() < SAMPLE.len());
//! assert_eq!(decompress_slpz(&slpz)?, SAMPLE);
//! # Ok(()) }
//! ```

use alloc::vec::Vec;

use crate::error::{Error, ErrorKind, Result};

use super::payloads::PayloadSizes;
use super::{CMD_EVENT_PAYLOADS, CMD_GAME_START, HEADER_LEN, SIGNATURE};

/// The zstd level of [`compress_slpz`] with feature `fast-zstd` (the slpz
/// crate's default).
#[cfg(feature = "fast-zstd")]
const ZSTD_LEVEL: i32 = 3;

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
    let limit = u64::try_from(len).unwrap_or(u64::MAX).saturating_add(1);
    let mut out = Vec::new();
    #[cfg(feature = "fast-zstd")]
    zstd::stream::read::Decoder::with_buffer(compressed)
        .map_err(fail)?
        .single_frame()
        .take(limit)
        .read_to_end(&mut out)
        .map_err(fail)?;
    #[cfg(not(feature = "fast-zstd"))]
    {
        let mut input = compressed;
        ruzstd::decoding::StreamingDecoder::new(&mut input)
            .map_err(|_| fail(()))?
            .take(limit)
            .read_to_end(&mut out)
            .map_err(|_| fail(()))?;
    }
    if out.len() != len {
        return Err(Error::corrupt(
            "slpz events differ from their declared size",
            20,
        ));
    }
    Ok(out)
}

/// Compresses `bytes` into one zstd frame.
fn zstd(bytes: &[u8]) -> Result<Vec<u8>> {
    #[cfg(feature = "fast-zstd")]
    {
        zstd::bulk::compress(bytes, ZSTD_LEVEL).map_err(|_| Error::new(ErrorKind::Decompress, 0))
    }
    #[cfg(not(feature = "fast-zstd"))]
    {
        Ok(ruzstd::encoding::compress_to_vec(
            bytes,
            ruzstd::encoding::CompressionLevel::Fastest,
        ))
    }
}

/// Compresses an `.slp` file into an `.slpz` file that
/// [`decompress_slpz`] (and the slpz crate) restore byte for byte.
///
/// ```
/// # fn main() -> Result<(), gamefmt::Error> {
/// let slpz = gamefmt::slippi::compress_slpz(gamefmt::slippi::SAMPLE)?;
/// assert_eq!(gamefmt::slippi::decompress_slpz(&slpz)?, gamefmt::slippi::SAMPLE);
/// # Ok(()) }
/// ```
///
/// # Errors
/// What the slpz crate refuses too: [`ErrorKind::Corrupt`] for a file
/// that is not an `.slp`, whose events do not start with Event Payloads
/// then Game Start, or whose raw length is 0 (a replay still being
/// written: its events' end is unknown); `Truncated` when the raw length
/// passes the end of the file or an event its events; `Corrupt` for an
/// event whose command has no size in Event Payloads. Offsets in the
/// `.slp` file.
pub fn compress_slpz(slp: &[u8]) -> Result<Vec<u8>> {
    if slp.get(..SIGNATURE.len()) != Some(&SIGNATURE[..]) {
        return Err(Error::corrupt("not an .slp file (no raw element)", 0));
    }
    let raw_len = be32(slp, SIGNATURE.len())?;
    if raw_len == 0 {
        return Err(Error::corrupt(
            "raw length is 0 (a replay still being written): its events' end is unknown",
            SIGNATURE.len(),
        ));
    }
    let raw_end = HEADER_LEN.saturating_add(raw_len);
    let raw = slp
        .get(HEADER_LEN..raw_end)
        .ok_or(Error::truncated(slp.len()))?;
    let metadata = slp.get(raw_end..).unwrap_or_default();
    let payloads_len = raw
        .get(1)
        .map_or(1, |&size| usize::from(size).saturating_add(1));
    let payloads = raw.get(..payloads_len).ok_or(Error::truncated(raw_end))?;
    let sizes = PayloadSizes::parse(payloads, HEADER_LEN)?;
    let start_at = HEADER_LEN.saturating_add(payloads_len);
    let game_start_len = match raw.get(payloads_len) {
        Some(&CMD_GAME_START) => sizes
            .get(CMD_GAME_START)
            .map_or(1, |s| usize::from(s).saturating_add(1)),
        _ => {
            return Err(Error::corrupt(
                "Game Start does not follow Event Payloads",
                start_at,
            ));
        }
    };
    let events_from = payloads_len.saturating_add(game_start_len);
    let game_start = raw
        .get(payloads_len..events_from)
        .ok_or(Error::truncated(raw_end))?;
    let events = raw.get(events_from..).unwrap_or_default();
    let reordered = reorder(events, &sizes, start_at.saturating_add(game_start_len))?;
    let compressed = zstd(&reordered)?;

    let header = |at: usize| u32::try_from(at).map_err(|_| Error::new(ErrorKind::OutOfBounds, 0));
    let sizes_at = SLPZ_HEADER;
    let start_at = sizes_at.saturating_add(payloads.len());
    let meta_at = start_at.saturating_add(game_start.len());
    let events_at = meta_at.saturating_add(metadata.len());
    let mut slpz = Vec::with_capacity(events_at.saturating_add(compressed.len()));
    for field in [
        SLPZ_VERSION,
        header(sizes_at)?,
        header(start_at)?,
        header(meta_at)?,
    ] {
        slpz.extend_from_slice(&field.to_be_bytes());
    }
    slpz.extend_from_slice(&header(events_at)?.to_be_bytes());
    slpz.extend_from_slice(&header(reordered.len())?.to_be_bytes());
    slpz.extend_from_slice(payloads);
    slpz.extend_from_slice(game_start);
    slpz.extend_from_slice(metadata);
    slpz.extend_from_slice(&compressed);
    Ok(slpz)
}

/// The events reordered as `.slpz` stores them (before zstd); `base` is
/// their offset in the `.slp`, for errors.
fn reorder(events: &[u8], sizes: &PayloadSizes, base: usize) -> Result<Vec<u8>> {
    let size = |c: u8| usize::from(sizes.get(c).unwrap_or(0));
    // First pass: every event's command, and each command's count.
    let mut order = Vec::new();
    let mut counts = [0usize; 256];
    let mut at = 0usize;
    while let Some(&c) = events.get(at) {
        if sizes.get(c).is_none() {
            return Err(Error::corrupt(
                "an event whose command Event Payloads does not size",
                base.saturating_add(at),
            ));
        }
        let end = at.saturating_add(1).saturating_add(size(c));
        if end > events.len() {
            return Err(Error::truncated(base.saturating_add(events.len())));
        }
        order.push(c);
        if let Some(n) = counts.get_mut(usize::from(c)) {
            *n = n.saturating_add(1);
        }
        at = end;
    }
    let columns = column_starts(&counts, size);
    let total = u32::try_from(order.len()).map_err(|_| Error::new(ErrorKind::OutOfBounds, base))?;
    let mut out = Vec::with_capacity(4usize.saturating_add(events.len()));
    out.extend_from_slice(&total.to_be_bytes());
    out.extend_from_slice(&order);
    let head = out.len();
    out.resize(head.saturating_add(columns.len), 0);
    let body = out.get_mut(head..).unwrap_or_default();
    // Second pass: byte j of the n-th event of command c goes to
    // c's column block at j * count(c) + n.
    let mut seen = [0usize; 256];
    let mut at = 0usize;
    for &c in &order {
        let i = usize::from(c);
        let n = seen.get(i).copied().unwrap_or(0);
        let stride = counts.get(i).copied().unwrap_or(0);
        let start = columns.starts.get(i).copied().unwrap_or(0);
        let payload = events
            .get(at.saturating_add(1)..at.saturating_add(1).saturating_add(size(c)))
            .unwrap_or_default();
        let block = body.get_mut(start..).unwrap_or_default();
        for (slot, &byte) in block.iter_mut().skip(n).step_by(stride.max(1)).zip(payload) {
            *slot = byte;
        }
        if let Some(s) = seen.get_mut(i) {
            *s = n.saturating_add(1);
        }
        at = at.saturating_add(1).saturating_add(size(c));
    }
    Ok(out)
}

/// Where each command's column block starts, and their total length.
struct Columns {
    starts: [usize; 256],
    len: usize,
}

fn column_starts(counts: &[usize; 256], size: impl Fn(u8) -> usize) -> Columns {
    let mut starts = [0usize; 256];
    let mut len = 0usize;
    for (c, (start, &count)) in (0u8..=255).zip(starts.iter_mut().zip(counts)) {
        *start = len;
        len = len.saturating_add(size(c).saturating_mul(count));
    }
    Columns { starts, len }
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
    let blocks = column_starts(&counts, size);
    if blocks.len != columns.len() {
        return Err(Error::corrupt("slpz reordered events do not add up", 0));
    }
    let mut seen = [0usize; 256];
    out.reserve(columns.len().saturating_add(total));
    for &c in order {
        let i = usize::from(c);
        let (Some(&start), Some(&stride), Some(nth)) =
            (blocks.starts.get(i), counts.get(i), seen.get_mut(i))
        else {
            continue;
        };
        out.push(c);
        // Byte j of this event is at start + nth + j * stride; the
        // blocks add up to `columns`, so every one is there.
        let block = columns
            .get(start.saturating_add(*nth)..)
            .unwrap_or_default();
        let before = out.len();
        out.extend(block.iter().step_by(stride.max(1)).take(size(c)));
        if out.len().saturating_sub(before) != size(c) {
            return Err(Error::corrupt("slpz reordered events do not add up", 0));
        }
        *nth = nth.saturating_add(1);
    }
    Ok(())
}
