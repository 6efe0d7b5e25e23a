//! Slippi replays: the push decoder, events, and what the game-level
//! events tell (Game Start, Game End, metadata, winners, Gecko codes).
//!
//! ```
//! use gamefmt_ffi::*;
//! let file = gamefmt::slippi::SAMPLE;
//! let (mut dec, mut item) = (GamefmtSlpDecoder::default(), GamefmtSlpItem::default());
//! // SAFETY: pointers to live locals and into `file`.
//! unsafe {
//!     assert_eq!(gamefmt_detect(file.as_ptr(), file.len()), GamefmtFormat::Slippi);
//!     gamefmt_slp_decoder_init(&mut dec);
//!     let st = gamefmt_slp_decode(&mut dec, file.as_ptr(), file.len(), &mut item, core::ptr::null_mut());
//!     assert_eq!(st, GamefmtStatus::Ok);
//! }
//! assert_eq!(item.kind, GamefmtSlpItemKind::Header);
//! ```

use core::ffi::c_char;

use gamefmt::slippi::{
    ClosedFrame, Decoder, Event, FrameGrouper, GameEnd, GameStart, GeckoList, Item, Metadata,
    PORTS, Reassembler, StartingCharacters, character_name, stage_name, winners,
};

use crate::error::{GamefmtError, GamefmtStatus, fail, null, status_of};
use crate::opaque::{bytes, bytes_mut, get, get_mut, opaque, out, out_status, put, put_result};
use crate::stream::{GamefmtEnd, answer, end_status};
use crate::text::display_out;
use crate::warning::{GamefmtWarning, WarningSink};

/// Words of [`GamefmtSlpDecoder`].
pub const GAMEFMT_SLP_DECODER_WORDS: usize = 128;

/// The Slippi push decoder (constant size). Fill it with
/// [`gamefmt_slp_decoder_init`].
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GamefmtSlpDecoder {
    /// Opaque state (a tag word and gamefmt's `slippi::Decoder`).
    pub opaque: [u64; GAMEFMT_SLP_DECODER_WORDS],
}

opaque!(GamefmtSlpDecoder, Decoder, 0x736c_0001);

/// Words of [`GamefmtSlpCharacters`].
pub const GAMEFMT_SLP_CHARACTERS_WORDS: usize = 4;

/// Each port's starting character with the pre-1.6.0 Zelda/Sheik fix
/// (gamefmt's `StartingCharacters`). Fill it with
/// [`gamefmt_slp_characters_init`].
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GamefmtSlpCharacters {
    /// Opaque state.
    pub opaque: [u64; GAMEFMT_SLP_CHARACTERS_WORDS],
}

opaque!(GamefmtSlpCharacters, StartingCharacters, 0x736c_0002);

/// Words of [`GamefmtSlpReassembler`].
pub const GAMEFMT_SLP_REASSEMBLER_WORDS: usize = 8;

/// Joins Message Splitter chunks (the Gecko code list) into a caller
/// buffer. Fill it with [`gamefmt_slp_reassembler_init`].
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GamefmtSlpReassembler {
    /// Opaque state.
    pub opaque: [u64; GAMEFMT_SLP_REASSEMBLER_WORDS],
}

opaque!(GamefmtSlpReassembler, Reassembler<'static>, 0x736c_0003);

/// What [`GamefmtSlpItem`] holds.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GamefmtSlpItemKind {
    /// The file header: `raw_len`.
    #[default]
    Header,
    /// One event: `code`, `frame`, `data`/`len` (the whole event, command
    /// byte first).
    Event,
    /// The metadata element: `data`/`len` (its UBJSON value).
    Metadata,
    /// Something this version of the ABI does not describe.
    Other,
}

/// One decoded record, with the bytes it consumed.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GamefmtSlpItem {
    /// What this is.
    pub kind: GamefmtSlpItemKind,
    /// Bytes of the input it took.
    pub consumed: usize,
    /// After `GAMEFMT_STATUS_NEED_MORE`: the input length needed (0:
    /// unknown).
    pub needed: usize,
    /// Header: the raw array's declared length.
    pub raw_len: u32,
    /// Event: its command byte.
    pub code: u8,
    /// Event: it carries a frame number.
    pub has_frame: bool,
    /// Event: the frame number.
    pub frame: i32,
    /// Event or metadata bytes (borrowing the input).
    pub data: *const u8,
    /// Bytes at `data`.
    pub len: usize,
}

impl Default for GamefmtSlpItem {
    fn default() -> Self {
        Self {
            kind: GamefmtSlpItemKind::Header,
            consumed: 0,
            needed: 0,
            raw_len: 0,
            code: 0,
            has_frame: false,
            frame: 0,
            data: core::ptr::null(),
            len: 0,
        }
    }
}

impl GamefmtSlpItem {
    fn new(input: &[u8], item: &Item<'_>) -> Self {
        let mut out = Self::default();
        match *item {
            Item::Header { raw_len } => out.raw_len = raw_len,
            Item::Event(e) => {
                let bytes = event_bytes(input, &e);
                out.kind = GamefmtSlpItemKind::Event;
                out.code = e.code();
                out.has_frame = e.frame().is_some();
                out.frame = e.frame().unwrap_or(0);
                out.data = bytes.as_ptr();
                out.len = bytes.len();
            }
            Item::Metadata(m) => {
                out.kind = GamefmtSlpItemKind::Metadata;
                out.data = m.as_ptr();
                out.len = m.len();
            }
            _ => out.kind = GamefmtSlpItemKind::Other,
        }
        out
    }
}

/// The whole event, command byte first: the payload and the byte before
/// it in `input` (the decoder lends events from the input it was given).
fn event_bytes<'a>(input: &'a [u8], e: &Event<'a>) -> &'a [u8] {
    let payload = e.payload();
    let start = (payload.as_ptr() as usize).wrapping_sub(input.as_ptr() as usize);
    start
        .checked_sub(1)
        .and_then(|from| input.get(from..start.saturating_add(payload.len())))
        .unwrap_or(payload)
}

/// Sets up `*dec` at the start of a file.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_slp_decoder_init(dec: *mut GamefmtSlpDecoder) -> GamefmtStatus {
    put_result(dec, Ok(Decoder::new()), core::ptr::null_mut())
}

/// Decodes the next record from the start of `input[0..len]`:
/// `GAMEFMT_STATUS_OK` with `*item` filled, `GAMEFMT_STATUS_NEED_MORE`,
/// `GAMEFMT_STATUS_DONE`, or an error (the decoder stays failed).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_slp_decode(
    dec: *mut GamefmtSlpDecoder,
    input: *const u8,
    len: usize,
    item: *mut GamefmtSlpItem,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let (Some(dec), Some(input), false) = (get_mut(dec), bytes(input, len), item.is_null()) else {
        return null(err);
    };
    let a = answer(dec.decode(input), err);
    let mut value = a
        .record
        .as_ref()
        .map_or_else(GamefmtSlpItem::default, |r| GamefmtSlpItem::new(input, r));
    value.consumed = a.consumed;
    value.needed = a.needed;
    out(item, value);
    a.status
}

/// How the stream ended if the input ends now with `unconsumed` bytes left.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_slp_end(
    dec: *const GamefmtSlpDecoder,
    unconsumed: usize,
    end: *mut GamefmtEnd,
) -> GamefmtStatus {
    end_status(get(dec).map(|d| d.end(unconsumed)), end)
}

/// Whether the decoder is inside the raw event array (false before it and
/// in the metadata after it).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_slp_in_raw(dec: *const GamefmtSlpDecoder) -> bool {
    get(dec).is_some_and(Decoder::in_raw)
}

/// Whether the replay's Event Payloads declared command `code`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_slp_declares(dec: *const GamefmtSlpDecoder, code: u8) -> bool {
    get(dec).is_some_and(|d| d.payload_sizes().get(code).is_some())
}

/// The quirks of an Event Payloads event (`event[0..len]`, command byte
/// first, at file offset `offset`) as warnings (see
/// `gamefmt_datafile_open`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_slp_payload_warnings(
    event: *const u8,
    len: usize,
    offset: usize,
    warnings: *mut GamefmtWarning,
    warnings_cap: usize,
    warnings_count: *mut usize,
) -> GamefmtStatus {
    let Some(event) = bytes(event, len) else {
        return GamefmtStatus::NullPointer;
    };
    let mut sink = WarningSink::new(warnings, warnings_cap, warnings_count);
    if let Event::EventPayloads(p) = Event::parse(event) {
        p.zero_size_warnings(offset).for_each(|w| sink.push(w));
    }
    GamefmtStatus::Ok
}

/// One port of a Game Start.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct GamefmtSlpPort {
    /// The port is in use (not empty).
    pub present: bool,
    /// `character` is known.
    pub has_character: bool,
    /// External character id.
    pub character: u8,
    /// Player type (0 human, 1 CPU, 2 demo).
    pub player_type: u8,
}

/// What a Game Start event tells. `has_*` flags say whether the event was
/// long enough for a field.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct GamefmtSlpGameStart {
    /// `version` is known.
    pub has_version: bool,
    /// Replay spec version: major, minor, build.
    pub version: [u8; 3],
    /// `stage` is known.
    pub has_stage: bool,
    /// Stage id.
    pub stage: u16,
    /// `is_pal` is known.
    pub has_is_pal: bool,
    /// PAL version of the game.
    pub is_pal: bool,
    /// Ports 1 to 4.
    pub ports: [GamefmtSlpPort; 4],
}

/// Reads a Game Start event (`event[0..len]`, command byte first).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_slp_game_start(
    event: *const u8,
    len: usize,
    start: *mut GamefmtSlpGameStart,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let Some(event) = bytes(event, len) else {
        return null(err);
    };
    let g = GameStart::new(event);
    let version = g.version();
    let mut value = GamefmtSlpGameStart {
        has_version: version.is_some(),
        version: version.map_or([0; 3], |v| [v.major, v.minor, v.build]),
        has_stage: g.stage().is_some(),
        stage: g.stage().unwrap_or(0),
        has_is_pal: g.is_pal().is_some(),
        is_pal: g.is_pal().unwrap_or(false),
        ports: [GamefmtSlpPort::default(); 4],
    };
    for (index, slot) in g.players() {
        if let Some(port) = value.ports.get_mut(index) {
            *port = GamefmtSlpPort {
                present: true,
                has_character: slot.character().is_some(),
                character: slot.character().unwrap_or(0),
                player_type: slot.player_type().unwrap_or(0),
            };
        }
    }
    out_status(start, value, err)
}

/// What a Game End event tells.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct GamefmtSlpGameEnd {
    /// `method` is known.
    pub has_method: bool,
    /// How the game ended.
    pub method: u8,
    /// `lras_initiator` is known.
    pub has_lras_initiator: bool,
    /// Who pressed L+R+A+Start (-1: nobody).
    pub lras_initiator: i8,
    /// `placements` is known.
    pub has_placements: bool,
    /// Each port's placement.
    pub placements: [i8; 4],
}

/// Reads a Game End event (`event[0..len]`, command byte first).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_slp_game_end(
    event: *const u8,
    len: usize,
    end: *mut GamefmtSlpGameEnd,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let Some(event) = bytes(event, len) else {
        return null(err);
    };
    let e = GameEnd::new(event);
    let value = GamefmtSlpGameEnd {
        has_method: e.method().is_some(),
        method: e.method().unwrap_or(0),
        has_lras_initiator: e.lras_initiator().is_some(),
        lras_initiator: e.lras_initiator().unwrap_or(0),
        has_placements: e.placements().is_some(),
        placements: e.placements().unwrap_or_default(),
    };
    out_status(end, value, err)
}

/// What the metadata element tells. Strings borrow the metadata bytes
/// (not NUL-terminated; `NULL` when absent).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GamefmtSlpMetadata {
    /// `last_frame` is known.
    pub has_last_frame: bool,
    /// `lastFrame`.
    pub last_frame: i64,
    /// `playedOn`.
    pub played_on: *const u8,
    /// Bytes at `played_on`.
    pub played_on_len: usize,
    /// `startAt`.
    pub start_at: *const u8,
    /// Bytes at `start_at`.
    pub start_at_len: usize,
}

/// Reads the metadata element's UBJSON value (`data[0..len]`, as the
/// decoder's `Metadata` item gives it).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_slp_metadata(
    data: *const u8,
    len: usize,
    meta: *mut GamefmtSlpMetadata,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let Some(data) = bytes(data, len) else {
        return null(err);
    };
    let m = match Metadata::parse(data) {
        Ok(m) => m,
        Err(e) => return fail(err, &e),
    };
    let text = |s: Option<&str>| s.map_or((core::ptr::null(), 0), |s| (s.as_ptr(), s.len()));
    let (played_on, played_on_len) = text(m.played_on());
    let (start_at, start_at_len) = text(m.start_at());
    let value = GamefmtSlpMetadata {
        has_last_frame: m.last_frame().is_some(),
        last_frame: m.last_frame().unwrap_or(0),
        played_on,
        played_on_len,
        start_at,
        start_at_len,
    };
    out_status(meta, value, err)
}

/// Starts tracking the characters of the Game Start event
/// `event[0..len]`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_slp_characters_init(
    chars: *mut GamefmtSlpCharacters,
    event: *const u8,
    len: usize,
) -> GamefmtStatus {
    let Some(event) = bytes(event, len) else {
        return GamefmtStatus::NullPointer;
    };
    if put(chars, StartingCharacters::new(&GameStart::new(event))) {
        GamefmtStatus::Ok
    } else {
        GamefmtStatus::NullPointer
    }
}

/// Shows the tracker an event (only Post-Frame Updates matter).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_slp_characters_observe(
    chars: *mut GamefmtSlpCharacters,
    event: *const u8,
    len: usize,
) {
    if let (Some(c), Some(event)) = (get_mut(chars), bytes(event, len)) {
        if let Event::PostFrame(p) = Event::parse(event) {
            c.observe(&p);
        }
    }
}

/// The external character of port `index` (0 to 3) into `*character`;
/// `GAMEFMT_STATUS_ABSENT` when not known.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_slp_characters_get(
    chars: *const GamefmtSlpCharacters,
    index: usize,
    character: *mut u8,
) -> GamefmtStatus {
    let Some(c) = get(chars) else {
        return GamefmtStatus::NullPointer;
    };
    match c.get(index) {
        Some(v) if out(character, v) => GamefmtStatus::Ok,
        Some(_) => GamefmtStatus::NullPointer,
        None => GamefmtStatus::Absent,
    }
}

/// A character's name (external id) into `buf` (`snprintf` rules);
/// returns its length, or -1 for an unknown id.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_slp_character_name(id: u8, buf: *mut c_char, cap: usize) -> isize {
    character_name(id).map_or(-1, |n| display_out(&n, buf, cap))
}

/// A stage's name into `buf` (`snprintf` rules); returns its length, or -1
/// for an unknown id.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_slp_stage_name(id: u16, buf: *mut c_char, cap: usize) -> isize {
    stage_name(id).map_or(-1, |n| display_out(&n, buf, cap))
}

/// Sets up `*r` to join split messages into the caller's `buf` of `cap`
/// bytes (alive and untouched while `*r` is used).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_slp_reassembler_init(
    r: *mut GamefmtSlpReassembler,
    buf: *mut u8,
    cap: usize,
) -> GamefmtStatus {
    let Some(buf) = bytes_mut(buf, cap) else {
        return GamefmtStatus::NullPointer;
    };
    if put(r, Reassembler::new(buf)) {
        GamefmtStatus::Ok
    } else {
        GamefmtStatus::NullPointer
    }
}

/// Adds a Message Splitter event (`event[0..len]`, command byte first):
/// `GAMEFMT_STATUS_OK` when it completed a message (read it with
/// [`gamefmt_slp_reassembler_message`]), `GAMEFMT_STATUS_NEED_MORE` when
/// not yet, or an error.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_slp_reassembler_push(
    r: *mut GamefmtSlpReassembler,
    event: *const u8,
    len: usize,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let (Some(r), Some(event)) = (get_mut(r), bytes(event, len)) else {
        return null(err);
    };
    let Event::MessageSplitter(s) = Event::parse(event) else {
        let e = gamefmt::Error::corrupt("not a Message Splitter event", 0);
        return fail(err, &e);
    };
    match r.push(&s) {
        Ok(true) => GamefmtStatus::Ok,
        Ok(false) => GamefmtStatus::NeedMore,
        Err(e) => fail(err, &e),
    }
}

/// The message completed last: its command byte and bytes (valid until
/// the next push); `GAMEFMT_STATUS_ABSENT` when none is complete.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_slp_reassembler_message(
    r: *const GamefmtSlpReassembler,
    command: *mut u8,
    data: *mut *const u8,
    len: *mut usize,
) -> GamefmtStatus {
    let Some(r) = get(r) else {
        return GamefmtStatus::NullPointer;
    };
    match r.message() {
        Some((c, m)) => {
            out(command, c);
            out(data, m.as_ptr());
            out(len, m.len());
            GamefmtStatus::Ok
        }
        None => GamefmtStatus::Absent,
    }
}

/// The number of codes in a Gecko code list (the list's bytes: a Gecko
/// List event's payload, or a reassembled message of command 0x3D).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_slp_gecko_count(list: *const u8, len: usize) -> usize {
    bytes(list, len).map_or(0, |l| GeckoList::new(l).codes().count())
}

/// One winner.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct GamefmtSlpPlacement {
    /// Port index (port − 1).
    pub player_index: u8,
    /// Position, 0 = first.
    pub position: i8,
}

/// One borrowed event, for lists of events.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GamefmtSlpBytes {
    /// The event's bytes (command byte first).
    pub data: *const u8,
    /// Bytes at `data`.
    pub len: usize,
}

/// The winners by slippi-js's `getWinners()` rules (9.1.2) from the Game Start,
/// the Game End and the Post-Frame Updates of the final frame (`posts`,
/// `n_posts` of them; read whatever the end method): up to 4 into
/// `winners`, their number into `*count`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_slp_winners(
    start: *const u8,
    start_len: usize,
    end: *const u8,
    end_len: usize,
    posts: *const GamefmtSlpBytes,
    n_posts: usize,
    winners_out: *mut GamefmtSlpPlacement,
    count: *mut usize,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let (Some(start), Some(end), false) = (
        bytes(start, start_len),
        bytes(end, end_len),
        winners_out.is_null(),
    ) else {
        return null(err);
    };
    let posts: &[GamefmtSlpBytes] = if n_posts == 0 {
        &[]
    } else if posts.is_null() {
        return null(err);
    } else {
        // SAFETY: `posts` is not NULL and points to `n_posts` readable
        // entries (the crate's contract).
        unsafe { core::slice::from_raw_parts(posts, n_posts) }
    };
    let finals = posts
        .iter()
        .filter_map(|p| bytes(p.data, p.len))
        .filter_map(|b| match Event::parse(b) {
            Event::PostFrame(p) => Some(p),
            _ => None,
        });
    let found = winners(&GameStart::new(start), &GameEnd::new(end), finals);
    // SAFETY: `winners_out` is not NULL and points to 4 writable entries
    // (PORTS, the documented size).
    let dst = unsafe { core::slice::from_raw_parts_mut(winners_out, PORTS) };
    for (d, w) in dst.iter_mut().zip(found.iter()) {
        *d = GamefmtSlpPlacement {
            player_index: w.player_index,
            position: w.position,
        };
    }
    out(count, found.len());
    status_of(Ok(()), err)
}

/// Words of [`GamefmtSlpFrames`].
pub const GAMEFMT_SLP_FRAMES_WORDS: usize = 4;

/// Groups events into frames and flags rollback re-sends (gamefmt's
/// `FrameGrouper`). Fill it with [`gamefmt_slp_frames_init`].
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GamefmtSlpFrames {
    /// Opaque state.
    pub opaque: [u64; GAMEFMT_SLP_FRAMES_WORDS],
}

opaque!(GamefmtSlpFrames, FrameGrouper, 0x736c_0004);

/// A frame that has just closed.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct GamefmtSlpClosedFrame {
    /// A frame closed (the other fields are meaningful).
    pub closed: bool,
    /// Its number.
    pub number: i32,
    /// A rollback re-send: the number is not above every frame closed
    /// before it.
    pub is_rollback: bool,
}

impl GamefmtSlpClosedFrame {
    fn new(frame: Option<ClosedFrame>) -> Self {
        frame.map_or_else(Self::default, |f| Self {
            closed: true,
            number: f.number,
            is_rollback: f.is_rollback,
        })
    }
}

/// Where one event goes in the frames.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct GamefmtSlpFramePlacement {
    /// The frame open before this event, closed by it.
    pub closes: GamefmtSlpClosedFrame,
    /// The event belongs to a frame (`frame`).
    pub in_frame: bool,
    /// The number of that frame.
    pub frame: i32,
    /// The event (a Frame Bookend) closed its own frame.
    pub completes: GamefmtSlpClosedFrame,
}

/// Sets up `*frames` before the first event.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_slp_frames_init(frames: *mut GamefmtSlpFrames) -> GamefmtStatus {
    put_result(frames, Ok(FrameGrouper::new()), core::ptr::null_mut())
}

/// Places the next event (`event[0..len]`, command byte first).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_slp_frames_push(
    frames: *mut GamefmtSlpFrames,
    event: *const u8,
    len: usize,
    placement: *mut GamefmtSlpFramePlacement,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let (Some(g), Some(event)) = (get_mut(frames), bytes(event, len)) else {
        return null(err);
    };
    let p = g.push(&Event::parse(event));
    let value = GamefmtSlpFramePlacement {
        closes: GamefmtSlpClosedFrame::new(p.closes),
        in_frame: p.frame.is_some(),
        frame: p.frame.unwrap_or(0),
        completes: GamefmtSlpClosedFrame::new(p.completes),
    };
    out_status(placement, value, err)
}

/// The end of the stream: closes the open frame, if any, into `*closed`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_slp_frames_finish(
    frames: *mut GamefmtSlpFrames,
    closed: *mut GamefmtSlpClosedFrame,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let Some(g) = get_mut(frames) else {
        return null(err);
    };
    out_status(closed, GamefmtSlpClosedFrame::new(g.finish()), err)
}
