//! Recording demos as DDNet's `CDemoRecorder` does, byte for byte: gamefmt's
//! [`gamefmt::demo::DemoWriter`] behind a handle, writing into a file or
//! through a caller's write callback.
//!
//! Open a recorder with the map ([`gamefmt_recorder_open_file`] or
//! [`gamefmt_recorder_open_callback`]), then per tick record the snapshot
//! ([`gamefmt_recorder_snapshot`], or [`gamefmt_recorder_snapshot_data`]
//! with DDNet's `CSnapshot` bytes) and the messages
//! ([`gamefmt_recorder_message`]), add timeline markers
//! ([`gamefmt_recorder_add_marker`]) and finish
//! ([`gamefmt_recorder_finish`]): a file gets its header patched (length
//! and markers); a callback gets every byte as it is recorded and the
//! patch is handed back ([`GamefmtHeaderPatch`]) to write over the
//! stream's first bytes where it landed. A recorder dropped with
//! [`gamefmt_recorder_free`] leaves the demo as a crash would (header
//! unpatched, which `gamefmt demo repair` mends).
//!
//! ```
//! use gamefmt_ffi::*;
//! use std::ffi::c_void;
//!
//! // The callback appends to a Vec<u8> behind `user`.
//! unsafe extern "C" fn sink(user: *mut c_void, data: *const u8, len: usize) -> i32 {
//!     // SAFETY: `user` is the Vec below; `data` holds `len` bytes.
//!     unsafe { (*user.cast::<Vec<u8>>()).extend_from_slice(core::slice::from_raw_parts(data, len)) };
//!     0
//! }
//! let mut file: Vec<u8> = Vec::new();
//! let options = GamefmtRecorderOptions {
//!     version: 6, net_version: c"0.6 626fce9a778df4d4".as_ptr(), kind: c"server".as_ptr(),
//!     timestamp: c"2026-11-28_20-00-00".as_ptr(), trailing_zero: false,
//! };
//! let map = GamefmtDemoMap {
//!     name: c"dm1".as_ptr(), crc: 0x1234, sha256: core::ptr::null(), data: core::ptr::null(), len: 0,
//! };
//! let mut rec = core::ptr::null_mut();
//! let mut patch = GamefmtHeaderPatch::default();
//! let err = core::ptr::null_mut();
//! // SAFETY: pointers to live locals; `rec` is used until finished.
//! unsafe {
//!     let user = (&raw mut file).cast::<c_void>();
//!     assert_eq!(gamefmt_recorder_open_callback(Some(sink), user, &options, &map, &mut rec, err), GamefmtStatus::Ok);
//!     let b = gamefmt_builder_new();
//!     gamefmt_builder_add(b, 9, 0, [0; 22].as_ptr(), 22, err);
//!     let mut snap = GamefmtSnapshot::default();
//!     gamefmt_builder_snapshot(b, &mut snap, err);
//!     for tick in 0..120 {
//!         assert_eq!(gamefmt_recorder_snapshot(rec, tick, &snap, err), GamefmtStatus::Ok);
//!     }
//!     assert_eq!(gamefmt_recorder_finish(rec, &mut patch, err), GamefmtStatus::Ok);
//!     gamefmt_builder_free(b);
//!     assert_eq!(gamefmt_header_patch_apply(&patch, file.as_mut_ptr(), file.len(), err), GamefmtStatus::Ok);
//! }
//! let view = gamefmt::demo::DemoView::parse(&file).unwrap();
//! assert_eq!((view.header().length_seconds(), patch.length_seconds), (2, 2));
//! ```

use core::ffi::{CStr, c_char, c_void};
use std::fs::File;
use std::io::{self, BufWriter, Write};

use gamefmt::demo::{
    DemoMap, DemoWriter, HeaderPatch, LENGTH_OFFSET, MARKERS_LEN, MARKERS_OFFSET, RecorderOptions,
};
use gamefmt::snapshot::SnapshotView;
use gamefmt::{Error, ErrorKind};

use crate::error::{GamefmtError, GamefmtStatus, fail, null};
use crate::opaque::{bytes, bytes_mut, get, out};
use crate::snapshot::GamefmtSnapshot;
use crate::text::write_display;

/// Bytes of [`GamefmtHeaderPatch::markers`]: the marker count and 64
/// marker ticks, big-endian int32s.
pub const GAMEFMT_DEMO_MARKERS_LEN: usize = 260;
const _: () = assert!(GAMEFMT_DEMO_MARKERS_LEN == MARKERS_LEN);

/// A caller's write callback: write `len` bytes at `data` (the demo's
/// next bytes, in order) and return 0, or anything else on failure (the
/// recorder's call then fails with `GAMEFMT_STATUS_IO`, that value in
/// `detail`).
pub type GamefmtWriteFn =
    Option<unsafe extern "C" fn(user: *mut c_void, data: *const u8, len: usize) -> i32>;

/// What the demo's header says besides the map (the recorder's settings).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GamefmtRecorderOptions {
    /// The demo version: 6 (DDNet's, with the map's SHA-256), 5 or 4.
    pub version: u8,
    /// The network protocol version, NUL-terminated (DDNet's
    /// `GAME_NETVERSION`, `"0.6 626fce9a778df4d4"`); it also picks the
    /// item size table of deltas.
    pub net_version: *const c_char,
    /// `"server"` or `"client"`, NUL-terminated.
    pub kind: *const c_char,
    /// The recording time as DDNet writes it (`%Y-%m-%d_%H-%M-%S`),
    /// NUL-terminated, at most 19 bytes.
    pub timestamp: *const c_char,
    /// Write a zero byte after a Huffman payload ending on a byte boundary,
    /// as DDNet before May 2026 did (`false` for current DDNet).
    pub trailing_zero: bool,
}

/// The map a demo is recorded on.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GamefmtDemoMap {
    /// The map's name (without `.map`), NUL-terminated.
    pub name: *const c_char,
    /// CRC32 of the map file.
    pub crc: u32,
    /// SHA-256 of the map file: 32 bytes, or `NULL` for none (zeros).
    pub sha256: *const u8,
    /// The map file to embed, or `NULL` (with `len` 0) to record without
    /// it (DDNet's `NoMapData`).
    pub data: *const u8,
    /// Bytes at `data`.
    pub len: usize,
}

/// The header fields DDNet writes when it stops recording, as bytes to
/// write at their offsets from the demo's first byte.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GamefmtHeaderPatch {
    /// The length in seconds (also as bytes in `length`).
    pub length_seconds: i32,
    /// Where `length` goes (152).
    pub length_offset: usize,
    /// The length, big-endian.
    pub length: [u8; 4],
    /// Where `markers` goes (176).
    pub markers_offset: usize,
    /// The timeline markers: count and 64 ticks, big-endian int32s.
    pub markers: [u8; GAMEFMT_DEMO_MARKERS_LEN],
}

impl Default for GamefmtHeaderPatch {
    fn default() -> Self {
        Self {
            length_seconds: 0,
            length_offset: LENGTH_OFFSET,
            length: [0; 4],
            markers_offset: MARKERS_OFFSET,
            markers: [0; GAMEFMT_DEMO_MARKERS_LEN],
        }
    }
}

impl GamefmtHeaderPatch {
    fn of(patch: &HeaderPatch, length_seconds: i32) -> Self {
        let mut out = Self {
            length_seconds,
            ..Self::default()
        };
        let [(_, length), (_, markers)] = patch.writes();
        for (dst, src) in out.length.iter_mut().zip(length) {
            *dst = *src;
        }
        for (dst, src) in out.markers.iter_mut().zip(markers) {
            *dst = *src;
        }
        out
    }
}

/// The write callback as an `io::Write`.
struct Callback {
    write: unsafe extern "C" fn(user: *mut c_void, data: *const u8, len: usize) -> i32,
    user: *mut c_void,
}

/// A callback's nonzero answer, carried through `io::Error`.
#[derive(Debug)]
struct CallbackFailed(i32);

impl core::fmt::Display for CallbackFailed {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "the write callback returned {}", self.0)
    }
}

impl core::error::Error for CallbackFailed {}

impl Write for Callback {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.write_all(buf)?;
        Ok(buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        if buf.is_empty() {
            return Ok(());
        }
        // SAFETY: the caller's callback, called with its `user` and
        // `buf.len()` readable bytes (the contract of
        // `gamefmt_recorder_open_callback`).
        let answer = unsafe { (self.write)(self.user, buf.as_ptr(), buf.len()) };
        if answer == 0 {
            Ok(())
        } else {
            Err(io::Error::other(CallbackFailed(answer)))
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Where the demo goes.
enum Sink {
    File(DemoWriter<BufWriter<File>>),
    Callback(DemoWriter<Callback>),
}

/// A demo recorder, created by [`gamefmt_recorder_open_file`] or
/// [`gamefmt_recorder_open_callback`], freed by
/// [`gamefmt_recorder_finish`] or [`gamefmt_recorder_free`]. Not to be
/// used from two threads at once.
pub struct GamefmtRecorder(Sink);

impl GamefmtRecorder {
    fn snapshot(&mut self, tick: i32, snap: &SnapshotView<'_>) -> io::Result<()> {
        match &mut self.0 {
            Sink::File(w) => w.snapshot(tick, snap),
            Sink::Callback(w) => w.snapshot(tick, snap),
        }
    }

    fn message(&mut self, bytes: &[u8]) -> io::Result<()> {
        match &mut self.0 {
            Sink::File(w) => w.message(bytes),
            Sink::Callback(w) => w.message(bytes),
        }
    }

    fn recorder(&self) -> &gamefmt::demo::Recorder {
        match &self.0 {
            Sink::File(w) => w.recorder(),
            Sink::Callback(w) => w.recorder(),
        }
    }

    fn add_marker(&mut self, tick: i32) -> bool {
        match &mut self.0 {
            Sink::File(w) => w.add_marker(tick),
            Sink::Callback(w) => w.add_marker(tick),
        }
    }
}

/// Reports an `io::Error` from recording: the crate's own error where it
/// wraps one (a refused snapshot or message), else `GAMEFMT_STATUS_IO`
/// with the OS error code or the callback's answer in `detail`.
fn fail_io(err: *mut GamefmtError, e: &io::Error) -> GamefmtStatus {
    if let Some(inner) = e.get_ref().and_then(|i| i.downcast_ref::<Error>()) {
        return fail(err, inner);
    }
    let detail = match e.get_ref().and_then(|i| i.downcast_ref::<CallbackFailed>()) {
        Some(CallbackFailed(code)) => i64::from(*code),
        None => e.raw_os_error().map_or(0, i64::from),
    };
    let mut details = GamefmtError {
        status: GamefmtStatus::Io,
        detail,
        ..GamefmtError::default()
    };
    write_display(&mut details.message, e);
    report(err, details)
}

fn report(err: *mut GamefmtError, details: GamefmtError) -> GamefmtStatus {
    let status = details.status;
    out(err, details);
    status
}

/// A NUL-terminated UTF-8 string of the caller's; `None` for `NULL`.
fn c_str<'a>(s: *const c_char) -> Option<Result<&'a str, Error>> {
    if s.is_null() {
        return None;
    }
    // SAFETY: a non-NULL `s` points to a NUL-terminated string that stays
    // alive during the call (the function's contract).
    let s = unsafe { CStr::from_ptr(s) };
    Some(
        s.to_str()
            .map_err(|_| Error::new(ErrorKind::InvalidString, 0)),
    )
}

/// The caller's options and map as gamefmt's, or the status to return.
fn settings<'a>(
    options: *const GamefmtRecorderOptions,
    map: *const GamefmtDemoMap,
    err: *mut GamefmtError,
) -> Result<(RecorderOptions<'a>, DemoMap<'a>), GamefmtStatus> {
    // SAFETY: NULL or pointers to the caller's live structs (the crate's
    // contract); `as_ref` rules out NULL.
    let (Some(o), Some(m)) = (unsafe { options.as_ref() }, unsafe { map.as_ref() }) else {
        return Err(null(err));
    };
    let text = |s: *const c_char| match c_str(s) {
        None => Err(null(err)),
        Some(Err(e)) => Err(fail(err, &e)),
        Some(Ok(s)) => Ok(s),
    };
    let options = RecorderOptions {
        version: o.version,
        net_version: text(o.net_version)?,
        kind: text(o.kind)?,
        timestamp: text(o.timestamp)?,
        trailing_zero: o.trailing_zero,
    };
    let mut sha256 = [0u8; 32];
    if !m.sha256.is_null() {
        let Some(src) = bytes(m.sha256, 32) else {
            return Err(null(err));
        };
        sha256.copy_from_slice(src);
    }
    let Some(data) = bytes(m.data, m.len) else {
        return Err(null(err));
    };
    let map = DemoMap {
        name: text(m.name)?,
        crc: m.crc,
        sha256,
        data: (!m.data.is_null()).then_some(data),
    };
    Ok((options, map))
}

/// Hands a new recorder to the caller.
fn give(sink: Sink, recorder: *mut *mut GamefmtRecorder, err: *mut GamefmtError) -> GamefmtStatus {
    let handle = Box::into_raw(Box::new(GamefmtRecorder(sink)));
    if out(recorder, handle) {
        GamefmtStatus::Ok
    } else {
        // SAFETY: `handle` came from Box::into_raw just above and was not
        // handed out.
        drop(unsafe { Box::from_raw(handle) });
        null(err)
    }
}

/// Starts recording into the file at `path` (NUL-terminated; created or
/// truncated): writes the header and the map, and puts the recorder in
/// `*recorder`. Bytes are buffered; [`gamefmt_recorder_finish`] flushes
/// them and patches the header.
///
/// Errors: `GAMEFMT_STATUS_UNSUPPORTED_VERSION` (version not 4, 5 or 6),
/// `GAMEFMT_STATUS_INVALID_STRING` (a string not UTF-8),
/// `GAMEFMT_STATUS_IO` (the file cannot be created or written; `detail`:
/// `errno`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_recorder_open_file(
    path: *const c_char,
    options: *const GamefmtRecorderOptions,
    map: *const GamefmtDemoMap,
    recorder: *mut *mut GamefmtRecorder,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    if recorder.is_null() {
        return null(err);
    }
    let (options, map) = match settings(options, map, err) {
        Ok(s) => s,
        Err(status) => return status,
    };
    let path = match c_str(path) {
        None => return null(err),
        Some(Err(e)) => return fail(err, &e),
        Some(Ok(p)) => p,
    };
    let file = match File::create(path) {
        Ok(f) => BufWriter::with_capacity(1 << 16, f),
        Err(e) => return fail_io(err, &e),
    };
    match DemoWriter::new(file, &options, &map) {
        Ok(w) => give(Sink::File(w), recorder, err),
        Err(e) => fail_io(err, &e),
    }
}

/// Starts recording through `write`: the header and the map are passed
/// to it at once, then each call's bytes as they are recorded. `write`
/// and `user` must stay valid until the recorder is finished or freed.
///
/// Errors: as [`gamefmt_recorder_open_file`], `GAMEFMT_STATUS_IO` when
/// `write` fails.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_recorder_open_callback(
    write: GamefmtWriteFn,
    user: *mut c_void,
    options: *const GamefmtRecorderOptions,
    map: *const GamefmtDemoMap,
    recorder: *mut *mut GamefmtRecorder,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let (Some(write), false) = (write, recorder.is_null()) else {
        return null(err);
    };
    let (options, map) = match settings(options, map, err) {
        Ok(s) => s,
        Err(status) => return status,
    };
    match DemoWriter::new(Callback { write, user }, &options, &map) {
        Ok(w) => give(Sink::Callback(w), recorder, err),
        Err(e) => fail_io(err, &e),
    }
}

/// The recorder as a Rust reference.
fn recorder<'a>(r: *mut GamefmtRecorder) -> Option<&'a mut GamefmtRecorder> {
    // SAFETY: `r` is NULL or a live recorder from an open function, not
    // used elsewhere during the call (the crate's contract).
    unsafe { r.as_mut() }
}

/// Records the snapshot of `tick`: a tick marker, then the snapshot on a
/// keyframe (the first, and then once more than 250 ticks passed), else
/// its delta against the last one (nothing when they are equal).
///
/// Errors (nothing is written): `GAMEFMT_STATUS_CORRUPT` for a tick out
/// of range or before the last one, a snapshot over 64 KiB or a delta
/// that cannot be made; `GAMEFMT_STATUS_IO` when writing fails.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_recorder_snapshot(
    recorder_: *mut GamefmtRecorder,
    tick: i32,
    snap: *const GamefmtSnapshot,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let (Some(r), Some(s)) = (recorder(recorder_), get(snap)) else {
        return null(err);
    };
    match r.snapshot(tick, s) {
        Ok(()) => GamefmtStatus::Ok,
        Err(e) => fail_io(err, &e),
    }
}

/// [`gamefmt_recorder_snapshot`] with the snapshot as DDNet's `CSnapshot`
/// bytes (`data[0..len]`, as `CDemoRecorder::RecordSnapshot` takes it).
///
/// Errors: those of `gamefmt_snapshot_parse` and
/// [`gamefmt_recorder_snapshot`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_recorder_snapshot_data(
    recorder_: *mut GamefmtRecorder,
    tick: i32,
    data: *const u8,
    len: usize,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let (Some(r), Some(data)) = (recorder(recorder_), bytes(data, len)) else {
        return null(err);
    };
    let snap = match SnapshotView::parse(data) {
        Ok(s) => s,
        Err(e) => return fail(err, &e),
    };
    match r.snapshot(tick, &snap) {
        Ok(()) => GamefmtStatus::Ok,
        Err(e) => fail_io(err, &e),
    }
}

/// Records a message: `data[0..len]`, a packed message as the network
/// carries it (as `CDemoRecorder::RecordMessage` takes it), after the
/// last tick recorded.
///
/// Errors (nothing is written): `GAMEFMT_STATUS_CORRUPT` for a message
/// over 64 KiB; `GAMEFMT_STATUS_IO` when writing fails.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_recorder_message(
    recorder_: *mut GamefmtRecorder,
    data: *const u8,
    len: usize,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let (Some(r), Some(data)) = (recorder(recorder_), bytes(data, len)) else {
        return null(err);
    };
    match r.message(data) {
        Ok(()) => GamefmtStatus::Ok,
        Err(e) => fail_io(err, &e),
    }
}

/// Adds a timeline marker at `tick` (a negative `tick`: at the last tick
/// recorded, as DDNet's `AddDemoMarker()`). `false` when refused, as DDNet
/// refuses: 64 markers already, or the last less than 50 ticks before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_recorder_add_marker(
    recorder_: *mut GamefmtRecorder,
    tick: i32,
) -> bool {
    let Some(r) = recorder(recorder_) else {
        return false;
    };
    let tick = if tick < 0 {
        match r.recorder().last_tick() {
            Some(t) => t,
            None => return false,
        }
    } else {
        tick
    };
    r.add_marker(tick)
}

/// The length in seconds recorded so far ((last tick - first) / 50);
/// 0 for `NULL`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_recorder_length(recorder_: *mut GamefmtRecorder) -> i32 {
    recorder(recorder_).map_or(0, |r| r.recorder().length_seconds())
}

/// Ends the recording and frees the recorder (whatever the result). A
/// file: flushed, its header patched (length and markers) and closed. A
/// callback: no more calls; the patch goes to `*patch` (when not `NULL`),
/// to write over the demo's first bytes where they landed (or with
/// [`gamefmt_header_patch_apply`]). `*patch` is filled for a file too.
///
/// Errors: `GAMEFMT_STATUS_IO` when flushing or patching the file fails.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_recorder_finish(
    recorder_: *mut GamefmtRecorder,
    patch: *mut GamefmtHeaderPatch,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    if recorder_.is_null() {
        return null(err);
    }
    // SAFETY: a non-NULL `recorder_` came from an open function
    // (Box::into_raw) and is finished or freed once (the contract).
    let r = unsafe { Box::from_raw(recorder_) };
    let length = r.recorder().length_seconds();
    let made = GamefmtHeaderPatch::of(&r.recorder().header_patch(), length);
    let result = match r.0 {
        Sink::File(w) => w.finish().and_then(|f| {
            f.into_inner()
                .map_err(io::IntoInnerError::into_error)
                .and_then(|f| f.sync_all())
        }),
        Sink::Callback(w) => w.finish_unpatched().map(|_| ()),
    };
    out(patch, made);
    match result {
        Ok(()) => GamefmtStatus::Ok,
        Err(e) => fail_io(err, &e),
    }
}

/// Frees a recorder without finishing it (`NULL` is ignored): a file is
/// flushed and closed with its header unpatched, as a crash leaves it.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_recorder_free(recorder_: *mut GamefmtRecorder) {
    if !recorder_.is_null() {
        // SAFETY: as in `gamefmt_recorder_finish`.
        drop(unsafe { Box::from_raw(recorder_) });
    }
}

/// Writes `*patch` over a demo in memory (`demo[0..len]`, from its first
/// byte).
///
/// Errors: `GAMEFMT_STATUS_TRUNCATED` if `len` is shorter than the header
/// (nothing is written).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_header_patch_apply(
    patch: *const GamefmtHeaderPatch,
    demo: *mut u8,
    len: usize,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    // SAFETY: NULL or the caller's live patch (the crate's contract).
    let (Some(p), Some(demo)) = (unsafe { patch.as_ref() }, bytes_mut(demo, len)) else {
        return null(err);
    };
    let end = MARKERS_OFFSET.saturating_add(GAMEFMT_DEMO_MARKERS_LEN);
    if demo.len() < end {
        return fail(err, &Error::truncated(demo.len()));
    }
    let writes: [(usize, &[u8]); 2] = [
        (LENGTH_OFFSET, &p.length[..]),
        (MARKERS_OFFSET, &p.markers[..]),
    ];
    for (at, src) in writes {
        if let Some(dst) = demo.get_mut(at..at.saturating_add(src.len())) {
            dst.copy_from_slice(src);
        }
    }
    GamefmtStatus::Ok
}
