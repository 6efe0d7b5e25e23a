//! Teeworlds/DDNet demo files (versions 3 to 6), which carry snapshots and
//! deltas.
//!
//! A demo is a header (big-endian fields: net version, map name, size and
//! CRC, length, timestamp; timeline markers from version 4; the map's
//! SHA-256 in a version 6 extension), the embedded map file, then a stream
//! of chunks: tick markers and data chunks (full snapshots, deltas, network
//! messages). Every data payload is Huffman-compressed packed ints.
//!
//! The pieces, all allocation-free:
//! - [`DemoView::parse`] reads the header and locates the map
//!   ([`DemoView::map`] gives it as a [`crate::datafile::DatafileView`]) and
//!   the chunk stream.
//! - [`DemoView::chunks`] is a pull iterator over [`Chunk`]s
//!   ([`DemoChunkIter`], built on the chunk stream's push decoder
//!   [`ChunkDecoder`], following the [stream contract](crate::stream));
//!   [`decode_payload`] Huffman-decodes and unpacks a payload into buffers
//!   the caller owns. A stream cut short ends quietly after the last whole
//!   chunk, and [`DemoChunkIter::end`] says so.
//! - [`Decoder`] is the push decoder of the whole file, fed whatever bytes
//!   the caller has: it answers the header ([`Item::Header`], its facts
//!   kept as a [`DemoHeader`]), the embedded map in pieces
//!   ([`Item::MapPiece`]), then the chunks ([`Item::Chunk`]). The caller's
//!   buffer must hold the header and the demo's largest chunk (at most
//!   [`MAX_CHUNK`] bytes).
//! - With `std`, `Reader` is it over any `io::Read` (the one generic
//!   [`crate::stream::Reader`]); with `embedded-io`, `stream::EmbeddedReader`
//!   and `stream::AsyncReader` with a [`Decoder`] do the same over a
//!   caller's buffer.
//! - [`Reconstructor`] keeps the full snapshot in effect while chunks from
//!   any of them are fed to it, and yields it at every tick, in buffers it
//!   borrows or (with `alloc`) owns ([`Storage`]); [`Frames`] is it over a
//!   demo in memory.
//!
//! - With `alloc`, `Recorder` writes demos as DDNet's recorder does,
//!   byte for byte (`DemoWriter` into any `io::Write` with `std`), and
//!   `cut`, `repair` and `strip_map` make demos of demos.
//!
//! Message payloads are passed through as bytes (their ids are not
//! interpreted, so unknown ones are no problem); [`message_id`] reads the
//! id.
//!
//! ```
//! # fn main() -> Result<(), gamefmt::Error> {
//! use gamefmt::demo::{Buffers, DemoView, Frames};
//! use zerocopy::little_endian::I32;
//!
//! // A version 5 demo without a map: a keyframe at tick 100 with an empty
//! // snapshot, then a tick-delta marker for tick 101.
//! let field = |s: &[u8], n: usize| { let mut f = s.to_vec(); f.resize(n, 0); f };
//! let mut demo = b"TWDEMO\0\x05".to_vec();
//! demo.extend(field(b"0.6 626fce9a778df4d4", 64));
//! demo.extend(field(b"dm1", 64));
//! demo.extend([0; 8]); // map size and CRC
//! demo.extend(field(b"client", 8));
//! demo.extend(1i32.to_be_bytes()); // length in seconds
//! demo.extend(field(b"2026-01-01_00-00-00", 20));
//! demo.extend([0; 260]); // no timeline markers
//! demo.extend([0xC0, 0, 0, 0, 100, 0x23, 0x2B, 0x6E, 0x00, 0xA1]);
//!
//! let view = DemoView::parse(&demo)?;
//! assert_eq!(view.header().map_name(), "dm1");
//! let (mut scratch, mut payload) = ([0u8; 64], [I32::ZERO; 16]);
//! let (mut a, mut b) = ([I32::ZERO; 16], [I32::ZERO; 16]);
//! let buffers = Buffers { scratch: &mut scratch, payload: &mut payload, current: &mut a, next: &mut b };
//! let mut frames = Frames::new(&view, buffers);
//! let mut ticks = Vec::new();
//! while let Some(frame) = frames.next() {
//!     let frame = frame?;
//!     ticks.push((frame.tick, frame.snapshot.item_count()));
//! }
//! assert_eq!(ticks, [(100, 0), (101, 0)]);
//! # Ok(()) }
//! ```

mod chunk;
mod decoder;
pub mod raw;
#[cfg(feature = "std")]
mod reader;
mod reconstruct;
#[cfg(feature = "alloc")]
mod recorder;
#[cfg(feature = "alloc")]
mod tools;
mod view;

pub use chunk::{Chunk, ChunkDecoder, ChunkKind, DemoChunkIter, MAX_CHUNK, MAX_TICK, MIN_TICK};
pub use decoder::{Decoder, Item};
#[cfg(feature = "std")]
pub use reader::Reader;
#[cfg(feature = "alloc")]
pub use reconstruct::OwnedBuffers;
pub use reconstruct::{
    Buffers, Frame, Frames, MAX_PAYLOAD, MAX_PAYLOAD_INTS, Reconstructor, Storage,
};
#[cfg(feature = "std")]
pub use recorder::DemoWriter;
#[cfg(feature = "alloc")]
pub use recorder::{
    DemoMap, HeaderPatch, KEYFRAME_INTERVAL, LENGTH_OFFSET, MAP_SIZE_OFFSET, MARKERS_LEN,
    MARKERS_OFFSET, MAX_DATA, Recorder, RecorderOptions, TICK_SPEED,
};
#[cfg(feature = "alloc")]
pub use tools::{RepairReport, cut, repair, strip_map};
pub use view::{DemoHeader, DemoView, MAX_VERSION, MIN_VERSION};

use uuid::{Uuid, uuid};
use zerocopy::little_endian::I32;

use crate::error::{Error, Result};
use crate::snapshot::{ITEM_SIZES_06, ITEM_SIZES_07};

/// `demoitem-sha256@ddnet.tw`: the version 6 header extension that carries
/// the map's SHA-256.
pub const SHA256_EXTENSION: Uuid = uuid!("6be6da4a-cebd-380c-9b5b-1289c842d780");

/// The static item size table for a demo's net version: Teeworlds 0.7's
/// for `0.7 …`, 0.6/DDNet's otherwise. (The net version, not the demo
/// version, decides: a version 6 demo can carry a 0.7 game.)
#[must_use]
pub fn net_item_sizes(net_version: &str) -> &'static [u16] {
    match crate::Protocol::of_net_version(net_version) {
        crate::Protocol::V07 => ITEM_SIZES_07,
        crate::Protocol::V06 => ITEM_SIZES_06,
    }
}

/// Huffman-decodes a chunk payload into `scratch`, then unpacks the packed
/// ints into `out`; returns the ints.
///
/// # Errors
/// Those of [`crate::huffman::decode`], at their offset in `payload`, and
/// of [`crate::snapshot::unpack_ints`]: damage in the decoded bytes,
/// which have no place in `payload`, is reported at offset 0 (the
/// payload's start).
pub fn decode_payload<'o>(
    payload: &[u8],
    scratch: &mut [u8],
    out: &'o mut [I32],
) -> Result<&'o [I32]> {
    let n = crate::huffman::decode(payload, scratch)?;
    crate::snapshot::unpack_ints(scratch.get(..n).unwrap_or_default(), out).map_err(in_decoded)
}

/// An error found in a payload's decoded data, reported at the payload's
/// start (offset 0): the decoded data has no place in the input.
fn in_decoded(e: Error) -> Error {
    Error::new(e.kind, 0)
}

/// The id and system flag of a message payload (its decoded ints viewed as
/// bytes, see [`zerocopy::IntoBytes::as_bytes`]): the first packed int is
/// `id << 1 | system`. `None` if the payload does not start with one.
#[must_use]
pub fn message_id(bytes: &[u8]) -> Option<(i32, bool)> {
    let (v, _) = crate::varint::decode(bytes).ok()?;
    Some((v >> 1, v & 1 != 0))
}
