//! Demos: the header, the chunk push decoder, and snapshot reconstruction
//! in a caller workspace.
//!
//! ```
//! use gamefmt_ffi::*;
//! let (mut header, mut err) = (GamefmtDemoHeader::default(), GamefmtError::default());
//! let file = b"TWDEMO\0\x06"; // cut right after the version
//! // SAFETY: pointers to live locals and into `file`.
//! let st = unsafe { gamefmt_demo_header_parse(file.as_ptr(), file.len(), &mut header, &mut err) };
//! assert_eq!(st, GamefmtStatus::Truncated);
//! assert_eq!((err.status, err.offset), (st, 8));
//! ```

use core::ffi::c_char;

use gamefmt::demo::{
    Buffers, Chunk, ChunkDecoder, ChunkKind, DemoHeader, MAX_PAYLOAD, MAX_PAYLOAD_INTS,
    Reconstructor,
};
use gamefmt::snapshot::MAX_SNAPSHOT_INTS;
use gamefmt::zerocopy::FromBytes;
use gamefmt::zerocopy::little_endian::I32;

use crate::error::{GamefmtError, GamefmtStatus, fail, null, status_of};
use crate::opaque::{bytes, bytes_mut, get, get_mut, opaque, out, out_status, put, put_result};
use crate::snapshot::GamefmtSnapshot;
use crate::stream::{GamefmtEnd, answer, end_status};
use crate::text::write_display;

/// Words of [`GamefmtDemoHeader`].
pub const GAMEFMT_DEMO_HEADER_WORDS: usize = 80;

/// A parsed demo header (owns its fields). Fill it with
/// [`gamefmt_demo_header_parse`].
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GamefmtDemoHeader {
    /// Opaque state (a tag word and gamefmt's `DemoHeader`).
    pub opaque: [u64; GAMEFMT_DEMO_HEADER_WORDS],
}

opaque!(GamefmtDemoHeader, DemoHeader, 0x646d_0001);

/// Words of [`GamefmtDemoDecoder`].
pub const GAMEFMT_DEMO_DECODER_WORDS: usize = 16;

/// The demo chunk push decoder. Fill it with
/// [`gamefmt_demo_decoder_init`].
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GamefmtDemoDecoder {
    /// Opaque state (a tag word and gamefmt's `demo::ChunkDecoder`).
    pub opaque: [u64; GAMEFMT_DEMO_DECODER_WORDS],
}

opaque!(GamefmtDemoDecoder, ChunkDecoder, 0x646d_0002);

/// Words of [`GamefmtReconstructor`].
pub const GAMEFMT_RECONSTRUCTOR_WORDS: usize = 24;

/// Snapshot reconstruction (the snapshot in effect while chunks are fed),
/// working in a caller workspace. Fill it with
/// [`gamefmt_reconstructor_init`].
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GamefmtReconstructor {
    /// Opaque state (a tag word and gamefmt's `demo::Reconstructor`).
    pub opaque: [u64; GAMEFMT_RECONSTRUCTOR_WORDS],
}

opaque!(GamefmtReconstructor, Reconstructor<'static>, 0x646d_0003);

/// Bytes of the workspace a reconstructor needs: the Huffman scratch, the
/// payload ints and two snapshots, for any demo DDNet can play.
pub const GAMEFMT_RECONSTRUCTOR_WORKSPACE: usize = 270_352;
const _: () = assert!(
    GAMEFMT_RECONSTRUCTOR_WORKSPACE == MAX_PAYLOAD + 4 * (MAX_PAYLOAD_INTS + 2 * MAX_SNAPSHOT_INTS)
);

/// A demo header's fields.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GamefmtDemoInfo {
    /// Demo version (3 to 6).
    pub version: u8,
    /// Network version, e.g. `0.6 626fce9a778df4d4` (NUL-terminated).
    pub net_version: [c_char; 64],
    /// Map name (NUL-terminated).
    pub map_name: [c_char; 64],
    /// Recording kind, `client` or `server` (NUL-terminated).
    pub kind: [c_char; 8],
    /// Recording time as written (NUL-terminated).
    pub timestamp: [c_char; 24],
    /// Map size in bytes.
    pub map_size: u32,
    /// Map CRC.
    pub map_crc: u32,
    /// Length in seconds.
    pub length_seconds: i32,
    /// Timeline markers (ticks) in `markers`.
    pub marker_count: usize,
    /// The timeline markers.
    pub markers: [i32; 64],
    /// `map_sha256` is present (version 6 extension).
    pub has_map_sha256: bool,
    /// The map's SHA-256.
    pub map_sha256: [u8; 32],
    /// File offset of the embedded map.
    pub map_offset: u64,
    /// File offset of the chunk stream (feed the decoder from here).
    pub chunks_offset: u64,
}

/// What a demo chunk is.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GamefmtDemoChunkKind {
    /// A tick marker: `tick`, `keyframe`.
    #[default]
    Tick,
    /// A full snapshot (payload).
    Snapshot,
    /// Network messages (payload).
    Message,
    /// A snapshot delta (payload).
    Delta,
    /// A data chunk of an unknown type (payload).
    Unknown,
}

/// One demo chunk, with the bytes it consumed.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GamefmtDemoChunk {
    /// What it is.
    pub kind: GamefmtDemoChunkKind,
    /// Bytes of the input it took.
    pub consumed: usize,
    /// After `GAMEFMT_STATUS_NEED_MORE`: the input length needed (0:
    /// unknown).
    pub needed: usize,
    /// Tick marker: the tick.
    pub tick: i32,
    /// Tick marker: a keyframe follows.
    pub keyframe: bool,
    /// Data chunk: the Huffman-coded payload (borrowing the input).
    pub payload: *const u8,
    /// Bytes at `payload`.
    pub payload_len: usize,
}

impl Default for GamefmtDemoChunk {
    fn default() -> Self {
        Self {
            kind: GamefmtDemoChunkKind::Tick,
            consumed: 0,
            needed: 0,
            tick: 0,
            keyframe: false,
            payload: core::ptr::null(),
            payload_len: 0,
        }
    }
}

impl GamefmtDemoChunk {
    fn new(chunk: &Chunk<'_>) -> Self {
        let mut out = Self::default();
        match *chunk {
            Chunk::Tick { tick, keyframe } => {
                out.tick = tick;
                out.keyframe = keyframe;
            }
            Chunk::Data { kind, payload } => {
                out.kind = match kind {
                    ChunkKind::Snapshot => GamefmtDemoChunkKind::Snapshot,
                    ChunkKind::Message => GamefmtDemoChunkKind::Message,
                    ChunkKind::Delta => GamefmtDemoChunkKind::Delta,
                    ChunkKind::Unknown => GamefmtDemoChunkKind::Unknown,
                };
                out.payload = payload.as_ptr();
                out.payload_len = payload.len();
            }
        }
        out
    }

    /// The chunk again, borrowing the caller's payload.
    fn chunk<'a>(&self) -> Option<Chunk<'a>> {
        let kind = match self.kind {
            GamefmtDemoChunkKind::Tick => {
                return Some(Chunk::Tick {
                    tick: self.tick,
                    keyframe: self.keyframe,
                });
            }
            GamefmtDemoChunkKind::Snapshot => ChunkKind::Snapshot,
            GamefmtDemoChunkKind::Message => ChunkKind::Message,
            GamefmtDemoChunkKind::Delta => ChunkKind::Delta,
            GamefmtDemoChunkKind::Unknown => ChunkKind::Unknown,
        };
        let payload = bytes(self.payload, self.payload_len)?;
        Some(Chunk::Data { kind, payload })
    }
}

/// Parses the demo header at the start of `data[0..len]` (the file, or at
/// least its first bytes) into `*out`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_demo_header_parse(
    data: *const u8,
    len: usize,
    out: *mut GamefmtDemoHeader,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let (Some(data), false) = (bytes(data, len), out.is_null()) else {
        return null(err);
    };
    put_result(out, DemoHeader::parse(data), err)
}

/// The header's fields.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_demo_header_info(
    header: *const GamefmtDemoHeader,
    info: *mut GamefmtDemoInfo,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let Some(h) = get(header) else {
        return null(err);
    };
    let mut v = GamefmtDemoInfo {
        version: h.version(),
        net_version: [0; 64],
        map_name: [0; 64],
        kind: [0; 8],
        timestamp: [0; 24],
        map_size: h.map_size(),
        map_crc: h.map_crc(),
        length_seconds: h.length_seconds(),
        marker_count: h.markers().len(),
        markers: [0; 64],
        has_map_sha256: h.map_sha256().is_some(),
        map_sha256: h.map_sha256().copied().unwrap_or_default(),
        map_offset: h.map_offset() as u64,
        chunks_offset: h.chunks_offset() as u64,
    };
    write_display(&mut v.net_version, &h.net_version());
    write_display(&mut v.map_name, &h.map_name());
    write_display(&mut v.kind, &h.kind());
    write_display(&mut v.timestamp, &h.timestamp());
    for (dst, &m) in v.markers.iter_mut().zip(h.markers()) {
        *dst = m;
    }
    out_status(info, v, err)
}

/// Sets up `*dec` for the chunk stream of the demo with `header`; feed it
/// the file from `chunks_offset` on (error offsets are file offsets).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_demo_decoder_init(
    dec: *mut GamefmtDemoDecoder,
    header: *const GamefmtDemoHeader,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let Some(h) = get(header) else {
        return null(err);
    };
    if !put(dec, h.chunk_decoder()) {
        return null(err);
    }
    GamefmtStatus::Ok
}

/// Decodes the next chunk from the start of `input[0..len]`:
/// `GAMEFMT_STATUS_OK` with `*chunk` filled, `GAMEFMT_STATUS_NEED_MORE`,
/// `GAMEFMT_STATUS_DONE`, or an error.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_demo_decode(
    dec: *mut GamefmtDemoDecoder,
    input: *const u8,
    len: usize,
    chunk: *mut GamefmtDemoChunk,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let (Some(dec), Some(input), false) = (get_mut(dec), bytes(input, len), chunk.is_null()) else {
        return null(err);
    };
    let a = answer(dec.decode(input), err);
    let mut value = a
        .record
        .as_ref()
        .map_or_else(GamefmtDemoChunk::default, GamefmtDemoChunk::new);
    value.consumed = a.consumed;
    value.needed = a.needed;
    out(chunk, value);
    a.status
}

/// How the chunk stream ended if the input ends now with `unconsumed`
/// bytes left.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_demo_end(
    dec: *const GamefmtDemoDecoder,
    unconsumed: usize,
    end: *mut GamefmtEnd,
) -> GamefmtStatus {
    end_status(get(dec).map(|d| d.end(unconsumed)), end)
}

/// Sets up `*rec` for the demo with `header`, working in the caller's
/// `workspace` of `len` bytes (at least `GAMEFMT_RECONSTRUCTOR_WORKSPACE`;
/// it must stay alive and untouched while `*rec` is used).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_reconstructor_init(
    rec: *mut GamefmtReconstructor,
    header: *const GamefmtDemoHeader,
    workspace: *mut u8,
    len: usize,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let (Some(h), Some(ws), false) = (get(header), bytes_mut(workspace, len), rec.is_null()) else {
        return null(err);
    };
    let Some(buffers) = split_workspace(ws) else {
        let needed = GAMEFMT_RECONSTRUCTOR_WORKSPACE;
        let e = gamefmt::Error::new(gamefmt::ErrorKind::BufferTooSmall { needed }, 0);
        return fail(err, &e);
    };
    put(rec, Reconstructor::new(buffers, h.item_sizes()));
    GamefmtStatus::Ok
}

/// The workspace cut into a reconstructor's four buffers.
fn split_workspace(ws: &'static mut [u8]) -> Option<Buffers<'static>> {
    let (scratch, rest) = ws.split_at_mut_checked(MAX_PAYLOAD)?;
    let (payload, rest) = rest.split_at_mut_checked(4 * MAX_PAYLOAD_INTS)?;
    let (current, rest) = rest.split_at_mut_checked(4 * MAX_SNAPSHOT_INTS)?;
    let next = rest.get_mut(..4 * MAX_SNAPSHOT_INTS)?;
    Some(Buffers {
        scratch,
        payload: <[I32]>::mut_from_bytes(payload).ok()?,
        current: <[I32]>::mut_from_bytes(current).ok()?,
        next: <[I32]>::mut_from_bytes(next).ok()?,
    })
}

/// Feeds one chunk (as the decoder gave it): a snapshot replaces the
/// snapshot in effect, a delta is applied to it; other chunks are ignored.
/// An error (offsets inside the payload) leaves it unchanged.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_reconstructor_feed(
    rec: *mut GamefmtReconstructor,
    chunk: *const GamefmtDemoChunk,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    // SAFETY: `chunk` is NULL or points to a chunk the decoder filled,
    // whose payload is still alive (the crate's contract).
    let chunk = unsafe { chunk.as_ref() }.and_then(GamefmtDemoChunk::chunk);
    let (Some(rec), Some(chunk)) = (get_mut(rec), chunk) else {
        return null(err);
    };
    status_of(rec.feed(&chunk), err)
}

/// Huffman-decodes and unpacks a payload (e.g. a message chunk's) into the
/// workspace: `*ints` points to `*count` native int32s, valid until the
/// next call on `rec`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_reconstructor_decode(
    rec: *mut GamefmtReconstructor,
    payload: *const u8,
    len: usize,
    ints: *mut *const u8,
    count: *mut usize,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let (Some(rec), Some(payload)) = (get_mut(rec), bytes(payload, len)) else {
        return null(err);
    };
    match rec.decode(payload) {
        Ok(decoded) => {
            out(ints, decoded.as_ptr().cast::<u8>());
            out(count, decoded.len());
            GamefmtStatus::Ok
        }
        Err(e) => fail(err, &e),
    }
}

/// The snapshot in effect into `*out` (`GAMEFMT_STATUS_ABSENT` before the
/// first snapshot); it borrows the workspace until the next feed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_reconstructor_snapshot(
    rec: *const GamefmtReconstructor,
    out: *mut GamefmtSnapshot,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let (Some(rec), false) = (get(rec), out.is_null()) else {
        return null(err);
    };
    match rec.snapshot() {
        Some(view) => {
            put(out, view);
            GamefmtStatus::Ok
        }
        None => GamefmtStatus::Absent,
    }
}
