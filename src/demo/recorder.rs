//! Recording demos as DDNet's `CDemoRecorder` does, byte for byte
//! (feature `alloc`; [`DemoWriter`] over `std::io` with `std`).
//!
//! A [`Recorder`] writes the header and the map when it is made, then a
//! tick marker and a snapshot (or a delta) per
//! [`Recorder::snapshot`], a message chunk per [`Recorder::message`].
//! The length and the timeline markers, which DDNet writes over the
//! header when it stops, are a [`HeaderPatch`]
//! ([`Recorder::header_patch`]); [`Recorder::finish`] applies it to the
//! bytes it still holds. The bytes collect in the recorder until taken
//! ([`Recorder::take_bytes`]); [`DemoWriter`] takes them into any
//! `io::Write` after every call and patches the header itself when the
//! writer can seek.
//!
//! ```
//! # fn main() -> Result<(), gamefmt::Error> {
//! use gamefmt::demo::{DemoMap, DemoView, Recorder, RecorderOptions};
//! use gamefmt::snapshot::SnapshotBuilder;
//!
//! // Streaming: the bytes go out as they come, the header is patched last.
//! let map = DemoMap { name: "dm1", crc: 0, sha256: [0; 32], data: None };
//! let mut rec = Recorder::new(&RecorderOptions::ddnet("2026-11-28_20-00-00"), &map)?;
//! let mut file = rec.take_bytes(); // say, written to a pipe
//! let mut b = SnapshotBuilder::new();
//! b.add(9, 0, &[0; 22])?;
//! for tick in 0..500 {
//!     rec.snapshot(tick, &b.snapshot())?;
//!     file.extend(rec.take_bytes());
//! }
//! rec.header_patch().apply(&mut file)?; // where the file landed
//! assert_eq!(DemoView::parse(&file)?.header().length_seconds(), 9);
//! # Ok(()) }
//! ```

use alloc::vec::Vec;

use zerocopy::little_endian::I32;

use super::SHA256_EXTENSION;
use super::chunk::{MAX_TICK, MIN_TICK};
use super::raw::MAX_MARKERS;
use crate::error::{Error, ErrorKind, Result};
use crate::snapshot::{DeltaCreator, SnapshotView};

/// Ticks a second on a Teeworlds/DDNet server (`SERVER_TICK_SPEED`).
pub const TICK_SPEED: i32 = 50;
/// A keyframe is written once more than this many ticks passed since the
/// last one (DDNet: `SERVER_TICK_SPEED * 5`).
pub const KEYFRAME_INTERVAL: i32 = TICK_SPEED * 5;
/// The largest snapshot or message the recorder takes, in bytes (DDNet's
/// 64 KiB chunk buffer).
pub const MAX_DATA: usize = 64 * 1024;

/// Byte offset of the header's map size field.
pub const MAP_SIZE_OFFSET: usize = 136;
/// Byte offset of the header's length field.
pub const LENGTH_OFFSET: usize = 152;
/// Byte offset of the timeline markers (their count, then 64 ticks).
pub const MARKERS_OFFSET: usize = 176;
/// Bytes of the timeline markers block.
pub const MARKERS_LEN: usize = 4 + 4 * MAX_MARKERS;

const TICKMARKER: u8 = 0x80;
const KEYFRAME: u8 = 0x40;
const TICK_COMPRESSED: u8 = 0x20;
const TICK_MASK: i32 = 0x1F;
const TICK_MASK_LEGACY: i32 = 0x3F;
const TYPE_SNAPSHOT: u8 = 1;
const TYPE_MESSAGE: u8 = 2;
const TYPE_DELTA: u8 = 3;

/// What a demo's header says besides the map, and the recorder's
/// generation: [`Recorder::new`]'s settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecorderOptions<'a> {
    /// The demo version: 6 (DDNet's, with the map's SHA-256), 5
    /// (Teeworlds 0.7.6 and later, without it) or 4 (Teeworlds 0.6 and
    /// 0.7 to 0.7.5: one-byte tick markers for gaps up to 63 ticks, no
    /// compressed flag; a repeated tick, which they would write as a
    /// broken marker, gets a full one).
    pub version: u8,
    /// The network protocol version, e.g. `0.6 626fce9a778df4d4`
    /// (DDNet's `GAME_NETVERSION`) or `0.7 802f1be60a05665f`; it also
    /// picks the static item size table of deltas
    /// ([`super::net_item_sizes`]).
    pub net_version: &'a str,
    /// `client` or `server`.
    pub kind: &'a str,
    /// The recording time as DDNet writes it (`%Y-%m-%d_%H-%M-%S`, local
    /// time), at most 19 bytes.
    pub timestamp: &'a str,
    /// Write a zero byte after every Huffman payload whose end symbol ends
    /// on a byte boundary, as Teeworlds and DDNet before May 2026 (commit
    /// 4354f8c664) did: `false` for current DDNet's files, `true` for
    /// older ones'.
    pub trailing_zero: bool,
}

impl<'a> RecorderOptions<'a> {
    /// DDNet's server demo: version 6, net version
    /// `0.6 626fce9a778df4d4`, kind `server`.
    #[must_use]
    pub const fn ddnet(timestamp: &'a str) -> Self {
        Self {
            version: 6,
            net_version: "0.6 626fce9a778df4d4",
            kind: "server",
            timestamp,
            trailing_zero: false,
        }
    }
}

/// The map a demo is recorded on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DemoMap<'a> {
    /// The map's name (without `.map`).
    pub name: &'a str,
    /// CRC32 of the map file.
    pub crc: u32,
    /// SHA-256 of the map file (version 6 writes it; version 5 has no
    /// place for it).
    pub sha256: [u8; 32],
    /// The map file, embedded after the header; `None` records without it
    /// (DDNet's `NoMapData`: map size 0), as [`super::strip_map`] leaves a
    /// demo.
    pub data: Option<&'a [u8]>,
}

/// The header fields DDNet patches when it stops recording: the length in
/// seconds at [`LENGTH_OFFSET`] and the timeline markers at
/// [`MARKERS_OFFSET`], as bytes ready to write there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderPatch {
    length: [u8; 4],
    markers: [u8; MARKERS_LEN],
}

impl HeaderPatch {
    /// The patch for a length in seconds and up to 64 marker ticks (more
    /// are left out).
    #[must_use]
    pub fn new(length_seconds: i32, markers: &[i32]) -> Self {
        let markers = markers.get(..MAX_MARKERS).unwrap_or(markers);
        let mut block = [0u8; MARKERS_LEN];
        let num = i32::try_from(markers.len()).unwrap_or(0);
        for (dst, v) in block
            .chunks_exact_mut(4)
            .zip(core::iter::once(num).chain(markers.iter().copied()))
        {
            dst.copy_from_slice(&v.to_be_bytes());
        }
        Self {
            length: length_seconds.to_be_bytes(),
            markers: block,
        }
    }

    /// The writes that patch a demo: (file offset, bytes), the length
    /// first.
    #[must_use]
    pub fn writes(&self) -> [(usize, &[u8]); 2] {
        [
            (LENGTH_OFFSET, &self.length[..]),
            (MARKERS_OFFSET, &self.markers[..]),
        ]
    }

    /// Patches a demo in memory (`demo` starts with its header).
    ///
    /// # Errors
    /// [`ErrorKind::Truncated`] if `demo` is shorter than the markers'
    /// end; nothing is changed then.
    pub fn apply(&self, demo: &mut [u8]) -> Result<()> {
        let end = MARKERS_OFFSET.saturating_add(MARKERS_LEN);
        if demo.len() < end {
            return Err(Error::truncated(demo.len()));
        }
        for (at, bytes) in self.writes() {
            if let Some(dst) = demo.get_mut(at..at.saturating_add(bytes.len())) {
                dst.copy_from_slice(bytes);
            }
        }
        Ok(())
    }

    /// Writes the patch into `w` (positioned anywhere; the demo starts at
    /// stream position `base`), then seeks back to where `w` was.
    ///
    /// # Errors
    /// Those of `w`.
    #[cfg(feature = "std")]
    pub fn write_to<W: std::io::Write + std::io::Seek>(
        &self,
        w: &mut W,
        base: u64,
    ) -> std::io::Result<()> {
        use std::io::SeekFrom;
        let back = w.stream_position()?;
        for (at, bytes) in self.writes() {
            w.seek(SeekFrom::Start(base.saturating_add(at as u64)))?;
            w.write_all(bytes)?;
        }
        w.seek(SeekFrom::Start(back))?;
        Ok(())
    }
}

/// Copies `s` into a zeroed field of `N` bytes as DDNet's `str_copy`
/// does: at most `N - 1` bytes, cut before a NUL and at a character
/// boundary.
fn copy_str<const N: usize>(s: &str) -> [u8; N] {
    let s = s.split('\0').next().unwrap_or_default();
    let mut end = s.len().min(N.saturating_sub(1));
    while !s.is_char_boundary(end) {
        end = end.saturating_sub(1);
    }
    let mut field = [0u8; N];
    if let (Some(dst), Some(src)) = (field.get_mut(..end), s.as_bytes().get(..end)) {
        dst.copy_from_slice(src);
    }
    field
}

/// The header DDNet writes at the start (length and markers zero), the
/// SHA-256 extension from version 6.
fn header(options: &RecorderOptions<'_>, map: &DemoMap<'_>, map_size: u32) -> Vec<u8> {
    let mut out = Vec::with_capacity(super::DemoHeader::MAX_LEN);
    out.extend_from_slice(super::raw::MAGIC);
    out.push(options.version);
    out.extend_from_slice(&copy_str::<64>(options.net_version));
    out.extend_from_slice(&copy_str::<64>(map.name));
    out.extend_from_slice(&map_size.to_be_bytes());
    out.extend_from_slice(&map.crc.to_be_bytes());
    out.extend_from_slice(&copy_str::<8>(options.kind));
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&copy_str::<20>(options.timestamp));
    out.extend_from_slice(&[0; MARKERS_LEN]);
    if options.version >= 6 {
        out.extend_from_slice(SHA256_EXTENSION.as_bytes());
        out.extend_from_slice(&map.sha256);
    }
    out
}

/// Records a demo as DDNet's `CDemoRecorder` does.
///
/// ```
/// # fn main() -> Result<(), gamefmt::Error> {
/// use gamefmt::demo::{DemoMap, DemoView, Frames, OwnedBuffers, Recorder, RecorderOptions};
/// use gamefmt::snapshot::SnapshotBuilder;
///
/// let options = RecorderOptions::ddnet("2026-11-28_20-00-00");
/// let map = DemoMap { name: "dm1", crc: 0xf2159e6e, sha256: [0; 32], data: None };
/// let mut rec = Recorder::new(&options, &map)?;
/// let mut b = SnapshotBuilder::new();
/// for tick in 100..200 {
///     b.clear();
///     b.add(9, 0, &[tick; 22])?; // a character (type 9, 22 ints)
///     rec.snapshot(tick, &b.snapshot())?;
/// }
/// rec.message(&[0x09, 0x00, 0x00, 0x00])?;
/// assert!(rec.add_marker(150));
/// let bytes = rec.finish(); // the header patched in place
///
/// let view = DemoView::parse(&bytes)?;
/// assert_eq!((view.header().length_seconds(), view.header().markers()), (1, &[150][..]));
/// let mut owned = OwnedBuffers::new();
/// let mut frames = Frames::new(&view, owned.buffers());
/// let mut n = 0;
/// while let Some(frame) = frames.next() {
///     let frame = frame?;
///     assert_eq!(frame.snapshot.find(9, 0).and_then(|c| c.int(0)), Some(frame.tick));
///     n += 1;
/// }
/// assert_eq!(n, 100);
/// # Ok(()) }
/// ```
///
/// The rules are those of DDNet's `src/engine/shared/demo.cpp`:
/// - a tick marker before each snapshot: the full tick (5 bytes) on a
///   keyframe, on the first marker and after a gap of more than 31 ticks,
///   otherwise one byte with the difference;
/// - a keyframe (the whole snapshot) when none was written yet or more
///   than 250 ticks (5 seconds at 50 ticks a second) passed since the
///   last one; otherwise the delta against the last snapshot recorded,
///   nothing at all (the tick marker alone) when the delta is empty, and
///   then the last snapshot recorded stays the one before;
/// - every data chunk zero-padded to 4 bytes, packed as ints,
///   Huffman-compressed, with a 1-, 2- or 3-byte header by size;
/// - timeline markers at most 64, at least a second (50 ticks) apart;
/// - the length in seconds: (last tick marker - first) / 50.
///
/// Where DDNet drops a chunk silently (a snapshot or message over 64 KiB,
/// a compressed payload that does not fit its 64 KiB buffer), the
/// recorder returns an error and writes nothing, not even the tick
/// marker; DDNet's message filter is the caller's to apply.
///
/// The bytes collect in the recorder: take them as you go with
/// [`Recorder::take_bytes`] (and patch the header at the end with
/// [`Recorder::header_patch`]), or keep them all and take the whole file,
/// patched, from [`Recorder::finish`]. After the first snapshot of the
/// largest size, recording allocates nothing but the output's growth.
#[derive(Clone, Debug)]
pub struct Recorder {
    out: Vec<u8>,
    /// Bytes taken out of `out` so far.
    taken: usize,
    version: u8,
    trailing_zero: bool,
    /// Whether `out` still starts with the header.
    header_in_out: bool,
    sizes: &'static [u16],
    last_tick_marker: Option<i32>,
    first_tick: Option<i32>,
    last_keyframe: Option<i32>,
    /// The last snapshot recorded (the base of the next delta).
    last: Vec<I32>,
    creator: DeltaCreator,
    packed: Vec<u8>,
    compressed: Vec<u8>,
    markers: marker_list::Markers,
}

/// A fixed list of up to 64 marker ticks (no dependency on `heapless`).
mod marker_list {
    use super::MAX_MARKERS;

    #[derive(Clone, Debug)]
    pub(super) struct Markers {
        ticks: [i32; MAX_MARKERS],
        len: usize,
    }

    impl Markers {
        pub(super) const fn new() -> Self {
            Self {
                ticks: [0; MAX_MARKERS],
                len: 0,
            }
        }

        pub(super) fn as_slice(&self) -> &[i32] {
            self.ticks.get(..self.len).unwrap_or_default()
        }

        pub(super) fn push(&mut self, tick: i32) -> bool {
            let Some(slot) = self.ticks.get_mut(self.len) else {
                return false;
            };
            *slot = tick;
            self.len = self.len.saturating_add(1);
            true
        }
    }
}

impl Recorder {
    /// Starts a demo: the header (length and markers zero until patched)
    /// and the map data, if embedded.
    ///
    /// # Errors
    /// [`ErrorKind::UnsupportedVersion`] for a version other than 4, 5 or
    /// 6;
    /// [`ErrorKind::OutOfBounds`] for map data over 4 GiB. Strings too long
    /// for their fields are cut as DDNet cuts them.
    pub fn new(options: &RecorderOptions<'_>, map: &DemoMap<'_>) -> Result<Self> {
        if !(4..=6).contains(&options.version) {
            let version = i64::from(options.version);
            return Err(Error::new(ErrorKind::UnsupportedVersion(version), 7));
        }
        let data = map.data.unwrap_or_default();
        let map_size =
            u32::try_from(data.len()).map_err(|_| Error::new(ErrorKind::OutOfBounds, 136))?;
        let mut out = header(options, map, map_size);
        out.extend_from_slice(data);
        Ok(Self {
            out,
            taken: 0,
            version: options.version,
            trailing_zero: options.trailing_zero,
            header_in_out: true,
            sizes: super::net_item_sizes(options.net_version),
            last_tick_marker: None,
            first_tick: None,
            last_keyframe: None,
            last: Vec::new(),
            creator: DeltaCreator::new(),
            packed: Vec::new(),
            compressed: Vec::new(),
            markers: marker_list::Markers::new(),
        })
    }

    /// Records the snapshot of `tick`: its tick marker, then the snapshot
    /// itself on a keyframe, else its delta against the last snapshot
    /// recorded (nothing if that is empty).
    ///
    /// # Errors
    /// Nothing is written, and the recorder is as before, if `tick` is
    /// outside `0..0x6FFFFFFF` or before the last tick recorded (a reader
    /// could not follow), the snapshot exceeds [`MAX_DATA`] bytes, the
    /// delta cannot be made (see [`DeltaCreator::create`]), or a payload
    /// does not compress into 65 535 bytes.
    pub fn snapshot(&mut self, tick: i32, snap: &SnapshotView<'_>) -> Result<()> {
        let at = self.position();
        if !(MIN_TICK..MAX_TICK).contains(&tick) {
            return Err(Error::corrupt("tick out of range", at));
        }
        if self.last_tick_marker.is_some_and(|last| tick < last) {
            return Err(Error::corrupt("tick goes backwards", at));
        }
        let ints = snap.as_ints();
        if ints.len().saturating_mul(4) > MAX_DATA {
            return Err(Error::corrupt("snapshot over 64 KiB", at));
        }
        let keyframe = self
            .last_keyframe
            .is_none_or(|k| tick.saturating_sub(k) > KEYFRAME_INTERVAL);
        if keyframe {
            self.compress(ints_bytes(ints), at)?;
            self.tick_marker(tick, true);
            self.chunk(TYPE_SNAPSHOT);
            self.last_keyframe = Some(tick);
            self.last.clear();
            self.last.extend_from_slice(ints);
            return Ok(());
        }
        let base = SnapshotView::from_valid_ints(&self.last).unwrap_or(SnapshotView::EMPTY);
        let delta = self
            .creator
            .create(&base, snap, self.sizes)
            .map_err(|e| Error::new(e.kind, at))?;
        let empty =
            matches!(delta, [removed, updated, ..] if removed.get() == 0 && updated.get() == 0);
        if empty {
            self.tick_marker(tick, false);
            return Ok(());
        }
        pack_into(delta, &mut self.packed);
        self.huffman(at)?;
        self.tick_marker(tick, false);
        self.chunk(TYPE_DELTA);
        self.last.clear();
        self.last.extend_from_slice(ints);
        Ok(())
    }

    /// Records a message: its bytes (a packed message as the network
    /// carries it: the id, then its fields), zero-padded to 4 bytes.
    ///
    /// # Errors
    /// Nothing is written if the message exceeds [`MAX_DATA`] bytes or
    /// does not compress into 65 535 bytes.
    pub fn message(&mut self, bytes: &[u8]) -> Result<()> {
        let at = self.position();
        if bytes.len() > MAX_DATA {
            return Err(Error::corrupt("message over 64 KiB", at));
        }
        self.compress(MessageBytes(bytes), at)?;
        self.chunk(TYPE_MESSAGE);
        Ok(())
    }

    /// Adds a timeline marker at `tick`, as DDNet does: refused (`false`)
    /// when 64 are set already or the last one is less than a second (50
    /// ticks) before `tick`.
    ///
    /// # Errors
    /// None; a negative tick is refused (`false`), where DDNet asserts.
    pub fn add_marker(&mut self, tick: i32) -> bool {
        if tick < 0 {
            return false;
        }
        if let Some(&last) = self.markers.as_slice().last() {
            if tick.saturating_sub(last) < TICK_SPEED {
                return false;
            }
        }
        self.markers.push(tick)
    }

    /// Adds a timeline marker at the last tick recorded (DDNet's
    /// `AddDemoMarker()`); `false` before the first tick or when refused
    /// (see [`Recorder::add_marker`]).
    pub fn add_marker_now(&mut self) -> bool {
        match self.last_tick_marker {
            Some(tick) => self.add_marker(tick),
            None => false,
        }
    }

    /// The timeline markers so far.
    #[must_use]
    pub fn markers(&self) -> &[i32] {
        self.markers.as_slice()
    }

    /// The tick of the last tick marker written.
    #[must_use]
    pub const fn last_tick(&self) -> Option<i32> {
        self.last_tick_marker
    }

    /// The length in seconds so far: (last tick - first tick) / 50, as
    /// DDNet's `Length()`.
    #[must_use]
    pub fn length_seconds(&self) -> i32 {
        match (self.last_tick_marker, self.first_tick) {
            (Some(last), Some(first)) => last.saturating_sub(first) / TICK_SPEED,
            _ => 0,
        }
    }

    /// The header patch for the demo as it stands: length and markers.
    #[must_use]
    pub fn header_patch(&self) -> HeaderPatch {
        HeaderPatch::new(self.length_seconds(), self.markers())
    }

    /// The bytes written and not yet taken.
    #[must_use]
    pub fn bytes(&self) -> &[u8] {
        &self.out
    }

    /// Bytes written since the demo's start, taken or not: the file
    /// offset of the next chunk (and of a refused one, in its error).
    #[must_use]
    pub fn position(&self) -> usize {
        self.taken.saturating_add(self.out.len())
    }

    /// Takes the bytes written so far (to write them to a file), leaving
    /// the recorder ready to go on. The header is then the caller's to
    /// patch at the end ([`Recorder::header_patch`]).
    pub fn take_bytes(&mut self) -> Vec<u8> {
        if !self.out.is_empty() {
            self.header_in_out = false;
        }
        self.taken = self.position();
        core::mem::take(&mut self.out)
    }

    /// Ends the recording: the bytes not yet taken, the header patched if
    /// they still hold it (nothing was taken), else as they are (patch the
    /// file with [`Recorder::header_patch`]).
    #[must_use]
    pub fn finish(self) -> Vec<u8> {
        let patch = self.header_patch();
        let mut out = self.out;
        if self.header_in_out {
            // The header is in `out` (written by `new`): long enough.
            let _ = patch.apply(&mut out);
        }
        out
    }

    /// Writes a tick marker, as DDNet's `WriteTickMarker` (Teeworlds' for
    /// version 4).
    fn tick_marker(&mut self, tick: i32, keyframe: bool) {
        let diff = self.last_tick_marker.map(|last| tick.wrapping_sub(last));
        match diff {
            Some(diff @ 1..=TICK_MASK_LEGACY) if !keyframe && self.version < 5 => {
                self.out
                    .push(TICKMARKER | (diff as u8 & TICK_MASK_LEGACY as u8));
            }
            Some(diff @ 0..=TICK_MASK) if !keyframe && self.version >= 5 => {
                self.out
                    .push(TICKMARKER | TICK_COMPRESSED | (diff as u8 & TICK_MASK as u8));
            }
            _ => {
                let flag = if keyframe { KEYFRAME } else { 0 };
                self.out.push(TICKMARKER | flag);
                self.out.extend_from_slice(&tick.to_be_bytes());
            }
        }
        self.last_tick_marker = Some(tick);
        if self.first_tick.is_none() {
            self.first_tick = Some(tick);
        }
    }

    /// Packs `data` (padded to 4 bytes) as ints and Huffman-compresses
    /// them into `self.compressed`.
    fn compress(&mut self, data: impl PaddedInts, at: usize) -> Result<()> {
        self.packed.clear();
        data.pack(&mut self.packed);
        self.huffman(at)
    }

    /// Huffman-compresses `self.packed` into `self.compressed`, failing
    /// where DDNet's 64 KiB buffers overflow.
    fn huffman(&mut self, at: usize) -> Result<()> {
        // DDNet packs into a 64 KiB buffer and compresses into another; a
        // 3-byte chunk header holds at most 65 535.
        if self.packed.len() > MAX_DATA {
            return Err(Error::corrupt("packed chunk over 64 KiB", at));
        }
        self.compressed.clear();
        let padding = crate::huffman::encode_append(&self.packed, &mut self.compressed);
        if self.trailing_zero && padding == 0 {
            self.compressed.push(0);
        }
        if self.compressed.len() > usize::from(u16::MAX) {
            return Err(Error::corrupt("compressed chunk over 65535 bytes", at));
        }
        Ok(())
    }

    /// Writes the chunk header of `kind` and `self.compressed`, as DDNet's
    /// `Write`.
    fn chunk(&mut self, kind: u8) {
        let size = self.compressed.len();
        let head = (kind & 3) << 5;
        match u8::try_from(size) {
            Ok(n) if n < 30 => self.out.push(head | n),
            Ok(n) => self.out.extend_from_slice(&[head | 30, n]),
            Err(_) => {
                let [lo, hi] = u16::try_from(size).unwrap_or(u16::MAX).to_le_bytes();
                self.out.extend_from_slice(&[head | 31, lo, hi]);
            }
        }
        self.out.extend_from_slice(&self.compressed);
    }
}

/// Data a chunk carries, packed as ints after zero padding to 4 bytes.
trait PaddedInts {
    fn pack(self, out: &mut Vec<u8>);
}

/// Snapshot ints (already whole ints).
struct SnapshotInts<'a>(&'a [I32]);

fn ints_bytes(ints: &[I32]) -> SnapshotInts<'_> {
    SnapshotInts(ints)
}

impl PaddedInts for SnapshotInts<'_> {
    fn pack(self, out: &mut Vec<u8>) {
        pack_into(self.0, out);
    }
}

/// Message bytes, read as little-endian ints after zero padding.
struct MessageBytes<'a>(&'a [u8]);

impl PaddedInts for MessageBytes<'_> {
    fn pack(self, out: &mut Vec<u8>) {
        let chunks = self.0.chunks_exact(4);
        let rest = chunks.remainder();
        let mut last = [0u8; 4];
        if let Some(dst) = last.get_mut(..rest.len()) {
            dst.copy_from_slice(rest);
        }
        let tail = (!rest.is_empty()).then_some(last);
        let words = chunks.map(|w| {
            let mut a = [0u8; 4];
            a.copy_from_slice(w);
            a
        });
        pack_ints(
            words.chain(tail).map(i32::from_le_bytes),
            self.0.len().div_ceil(4),
            out,
        );
    }
}

/// Replaces `out` with the packed ints.
fn pack_into(ints: &[I32], out: &mut Vec<u8>) {
    pack_ints(ints.iter().map(|v| v.get()), ints.len(), out);
}

/// Replaces `out` with the packed form of `count` ints.
#[inline]
fn pack_ints(ints: impl Iterator<Item = i32>, count: usize, out: &mut Vec<u8>) {
    out.clear();
    out.resize(count.saturating_mul(crate::varint::MAX_LEN), 0);
    let mut pos = 0usize;
    for v in ints {
        let Some(dst) = out
            .get_mut(pos..)
            .and_then(<[u8]>::first_chunk_mut::<{ crate::varint::MAX_LEN }>)
        else {
            break; // cannot happen: five bytes an int
        };
        pos = pos.wrapping_add(if (0..64).contains(&v) {
            dst[0] = v as u8;
            1
        } else {
            crate::varint::encode(v, dst)
        });
    }
    out.truncate(pos);
}

/// [`Recorder`] into any `io::Write` (feature `std`): every call's bytes
/// are written straight away (wrap a file in an `io::BufWriter`).
///
/// [`DemoWriter::finish`] patches the header when the writer can seek;
/// [`DemoWriter::finish_unpatched`] hands the patch back for one that
/// cannot (a pipe, a socket), to apply where the file lands. A writer
/// dropped without either leaves the header as a crash would (length and
/// markers zero), which [`super::repair`] mends. Recording
/// errors come as `io::Error`s of kind `InvalidInput` wrapping the crate's
/// [`Error`].
///
/// ```
/// # fn main() -> std::io::Result<()> {
/// use std::io::Cursor;
/// use gamefmt::demo::{DemoMap, DemoView, DemoWriter, RecorderOptions};
/// use gamefmt::snapshot::SnapshotBuilder;
///
/// let map = DemoMap { name: "dm1", crc: 0, sha256: [0; 32], data: None };
/// let mut w = DemoWriter::new(Cursor::new(Vec::new()), &RecorderOptions::ddnet("2026-11-28_20-00-00"), &map)?;
/// let mut b = SnapshotBuilder::new();
/// b.add(9, 0, &[0; 22]).unwrap();
/// w.snapshot(1000, &b.snapshot())?;
/// w.snapshot(1100, &b.snapshot())?;
/// let file = w.finish()?.into_inner();
/// assert_eq!(DemoView::parse(&file).unwrap().header().length_seconds(), 2);
/// # Ok(()) }
/// ```
#[cfg(feature = "std")]
#[derive(Debug)]
pub struct DemoWriter<W> {
    inner: W,
    rec: Recorder,
    /// Bytes written to `inner` since the demo's start.
    written: u64,
}

#[cfg(feature = "std")]
fn invalid(e: Error) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidInput, e)
}

#[cfg(feature = "std")]
impl<W: std::io::Write> DemoWriter<W> {
    /// Writes the header and map to `inner` (the demo starts at its current
    /// position; [`DemoWriter::finish`] patches the header there).
    ///
    /// # Errors
    /// Those of [`Recorder::new`] (as `InvalidInput`) and of `inner`.
    pub fn new(
        mut inner: W,
        options: &RecorderOptions<'_>,
        map: &DemoMap<'_>,
    ) -> std::io::Result<Self> {
        let mut rec = Recorder::new(options, map).map_err(invalid)?;
        let header = rec.take_bytes();
        inner.write_all(&header)?;
        Ok(Self {
            inner,
            rec,
            written: header.len() as u64,
        })
    }

    fn flush_rec(&mut self) -> std::io::Result<()> {
        self.inner.write_all(self.rec.bytes())?;
        self.written = self.written.saturating_add(self.rec.out.len() as u64);
        self.rec.taken = self.rec.position();
        self.rec.out.clear();
        Ok(())
    }

    /// [`Recorder::snapshot`], written out.
    ///
    /// # Errors
    /// Those of [`Recorder::snapshot`] (as `InvalidInput`, nothing
    /// written) and of the writer.
    pub fn snapshot(&mut self, tick: i32, snap: &SnapshotView<'_>) -> std::io::Result<()> {
        self.rec.snapshot(tick, snap).map_err(invalid)?;
        self.flush_rec()
    }

    /// [`Recorder::message`], written out.
    ///
    /// # Errors
    /// Those of [`Recorder::message`] (as `InvalidInput`, nothing written)
    /// and of the writer.
    pub fn message(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.rec.message(bytes).map_err(invalid)?;
        self.flush_rec()
    }

    /// [`Recorder::add_marker`].
    pub fn add_marker(&mut self, tick: i32) -> bool {
        self.rec.add_marker(tick)
    }

    /// The recorder's state: markers, last tick, length.
    #[must_use]
    pub const fn recorder(&self) -> &Recorder {
        &self.rec
    }

    /// Ends the recording without touching the header: the writer and the
    /// patch to apply to the file's first bytes.
    ///
    /// # Errors
    /// Those of the writer's flush.
    pub fn finish_unpatched(mut self) -> std::io::Result<(W, HeaderPatch)> {
        self.inner.flush()?;
        let patch = self.rec.header_patch();
        Ok((self.inner, patch))
    }
}

#[cfg(feature = "std")]
impl<W: std::io::Write + std::io::Seek> DemoWriter<W> {
    /// Ends the recording: patches length and markers into the header
    /// (the demo started where `inner` was when the writer was made) and
    /// leaves the writer at the end of the demo.
    ///
    /// # Errors
    /// Those of the writer.
    pub fn finish(self) -> std::io::Result<W> {
        let written = self.written;
        let (mut inner, patch) = self.finish_unpatched()?;
        let start = inner.stream_position()?.saturating_sub(written);
        patch.write_to(&mut inner, start)?;
        inner.flush()?;
        Ok(inner)
    }
}
