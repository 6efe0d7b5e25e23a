//! DDNet teehistorian: the push decoder, its items as tagged C structs,
//! and the header's fields.

use core::ffi::c_char;

use gamefmt::teehistorian::{Decoder, Ex, Header, Item, Message, Record};
use gamefmt::uuid::Uuid;

use crate::error::{GamefmtError, GamefmtStatus, fail, null};
use crate::opaque::{bytes, get, get_mut, opaque, out, put_result};
use crate::stream::{GamefmtEnd, answer, end_status};
use crate::text::display_out;

/// Words of [`GamefmtThDecoder`].
pub const GAMEFMT_TH_DECODER_WORDS: usize = 16;

/// The teehistorian push decoder (constant size; keeps only the tick and
/// the position). Fill it with [`gamefmt_th_decoder_init`].
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GamefmtThDecoder {
    /// Opaque state (a tag word and gamefmt's `teehistorian::Decoder`).
    pub opaque: [u64; GAMEFMT_TH_DECODER_WORDS],
}

opaque!(GamefmtThDecoder, Decoder, 0x7468_0001);

/// Words of [`GamefmtThHeader`].
pub const GAMEFMT_TH_HEADER_WORDS: usize = 64;

/// A parsed teehistorian header, borrowing its JSON text. Fill it with
/// [`gamefmt_th_header_parse`].
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GamefmtThHeader {
    /// Opaque state (a tag word and gamefmt's `teehistorian::Header`).
    pub opaque: [u64; GAMEFMT_TH_HEADER_WORDS],
}

opaque!(GamefmtThHeader, Header<'static>, 0x7468_0002);

/// One teehistorian message (DDNet's names), tagged by kind. Pointers
/// borrow from the input given to the decoder.
#[repr(C, u8)]
#[derive(Clone, Copy, Debug)]
pub enum GamefmtThMessage {
    /// PLAYER_DIFF: the character of `cid` moved by (`dx`, `dy`).
    PlayerDiff {
        /// Client id.
        cid: i32,
        /// Change of x (add with wrapping).
        dx: i32,
        /// Change of y (add with wrapping).
        dy: i32,
    },
    /// FINISH: the end of the recording.
    Finish,
    /// TICK_SKIP: the next tick is the previous one plus `dt + 1`.
    TickSkip {
        /// Ticks skipped.
        dt: i32,
    },
    /// PLAYER_NEW: a character of `cid` appeared at (`x`, `y`).
    PlayerNew {
        /// Client id.
        cid: i32,
        /// World x.
        x: i32,
        /// World y.
        y: i32,
    },
    /// PLAYER_OLD: the character of `cid` disappeared.
    PlayerOld {
        /// Client id.
        cid: i32,
    },
    /// INPUT_DIFF: `cid` sent an input; add `diff` to its previous one.
    InputDiff {
        /// Client id.
        cid: i32,
        /// Component-wise wrapping difference.
        diff: [i32; 10],
    },
    /// INPUT_NEW: `cid` sent an absolute input.
    InputNew {
        /// Client id.
        cid: i32,
        /// The input.
        input: [i32; 10],
    },
    /// MESSAGE: `cid` sent a packed game message.
    Message {
        /// Client id.
        cid: i32,
        /// The packed network message (`(msg_id << 1) | sys`, fields).
        data: *const u8,
        /// Its length in bytes.
        len: usize,
    },
    /// JOIN: `cid` joined.
    Join {
        /// Client id.
        cid: i32,
    },
    /// DROP: `cid` left.
    Drop {
        /// Client id.
        cid: i32,
        /// The reason (not NUL-terminated; may be empty).
        reason: *const u8,
        /// Its length in bytes.
        len: usize,
    },
    /// CONSOLE_COMMAND: a console command was executed.
    ConsoleCommand {
        /// Client id, -1 for the server.
        cid: i32,
        /// The console's flag mask.
        flags: i32,
        /// The command name (not NUL-terminated).
        cmd: *const u8,
        /// Its length in bytes.
        cmd_len: usize,
        /// The arguments: `args_count` NUL-terminated strings in a row.
        args: *const u8,
        /// Bytes at `args`.
        args_len: usize,
        /// Number of arguments.
        args_count: usize,
    },
    /// EX: an extension message named by a UUID.
    Ex {
        /// The UUID's 16 bytes.
        uuid: [u8; 16],
        /// The payload.
        data: *const u8,
        /// Its length in bytes.
        len: usize,
    },
}

impl GamefmtThMessage {
    fn new(m: &Message<'_>) -> Self {
        match *m {
            Message::PlayerDiff { cid, dx, dy } => Self::PlayerDiff { cid, dx, dy },
            Message::Finish => Self::Finish,
            Message::TickSkip { dt } => Self::TickSkip { dt },
            Message::PlayerNew { cid, x, y } => Self::PlayerNew { cid, x, y },
            Message::PlayerOld { cid } => Self::PlayerOld { cid },
            Message::InputDiff { cid, diff } => Self::InputDiff {
                cid,
                diff: diff.get(),
            },
            Message::InputNew { cid, input } => Self::InputNew {
                cid,
                input: input.get(),
            },
            Message::PlayerMessage { cid, data } => Self::Message {
                cid,
                data: data.as_ptr(),
                len: data.len(),
            },
            Message::Join { cid } => Self::Join { cid },
            Message::Drop { cid, reason } => Self::Drop {
                cid,
                reason: reason.as_ptr(),
                len: reason.len(),
            },
            Message::ConsoleCommand { cid, flags, line } => {
                let (cmd, args) = (line.cmd(), line.args());
                Self::ConsoleCommand {
                    cid,
                    flags,
                    cmd: cmd.as_ptr(),
                    cmd_len: cmd.len(),
                    args: args.raw().as_ptr(),
                    args_len: args.raw().len(),
                    args_count: args.len(),
                }
            }
            Message::Ex(ex) => Self::Ex {
                uuid: *ex.uuid.as_bytes(),
                data: ex.data.as_ptr(),
                len: ex.data.len(),
            },
        }
    }
}

/// What [`GamefmtThItem`] holds.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GamefmtThItemKind {
    /// The header: `json`/`json_len` is its whole JSON text (parse it
    /// with [`gamefmt_th_header_parse`]).
    #[default]
    Header,
    /// A piece of a header longer than the caller's buffer (from
    /// [`gamefmt_th_decode_piece`]): `json` holds the next bytes; `last`
    /// ends it.
    HeaderPiece,
    /// A message: `message`, `tick`, `offset`.
    Message,
}

/// One decoded record, with the bytes it consumed.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GamefmtThItem {
    /// What this is.
    pub kind: GamefmtThItemKind,
    /// Bytes of the input it took (drop them before the next call); for
    /// `GAMEFMT_STATUS_DONE`, the closing bytes.
    pub consumed: usize,
    /// After `GAMEFMT_STATUS_NEED_MORE`: the input length needed, 0 when
    /// unknown.
    pub needed: usize,
    /// Header or piece: the JSON text (not NUL-terminated).
    pub json: *const u8,
    /// Bytes at `json`.
    pub json_len: usize,
    /// Header piece: it is the last one.
    pub last: bool,
    /// Message: the tick it belongs to.
    pub tick: i32,
    /// Message: its byte offset in the file.
    pub offset: u64,
    /// Message: the message.
    pub message: GamefmtThMessage,
}

impl Default for GamefmtThItem {
    fn default() -> Self {
        Self {
            kind: GamefmtThItemKind::Header,
            consumed: 0,
            needed: 0,
            json: core::ptr::null(),
            json_len: 0,
            last: false,
            tick: 0,
            offset: 0,
            message: GamefmtThMessage::Finish,
        }
    }
}

impl GamefmtThItem {
    fn new(item: &Item<'_>) -> Self {
        let mut out = Self::default();
        match *item {
            Item::Header(h) => {
                out.json = h.json().as_ptr();
                out.json_len = h.json().len();
            }
            Item::HeaderPiece { json, last } => {
                out.kind = GamefmtThItemKind::HeaderPiece;
                out.json = json.as_ptr();
                out.json_len = json.len();
                out.last = last;
            }
            Item::Message(Record {
                tick,
                offset,
                message,
            }) => {
                out.kind = GamefmtThItemKind::Message;
                out.tick = tick;
                out.offset = offset as u64;
                out.message = GamefmtThMessage::new(&message);
            }
        }
        out
    }
}

/// Sets up `*dec` at the start of a file.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_th_decoder_init(dec: *mut GamefmtThDecoder) -> GamefmtStatus {
    put_result(dec, Ok(Decoder::new()), core::ptr::null_mut())
}

/// Decodes the next record from the start of `input[0..len]` (the bytes
/// not consumed so far): `GAMEFMT_STATUS_OK` with `*item` filled,
/// `GAMEFMT_STATUS_NEED_MORE`, `GAMEFMT_STATUS_DONE` after FINISH, or an
/// error (offsets from the start of the file; the decoder stays failed).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_th_decode(
    dec: *mut GamefmtThDecoder,
    input: *const u8,
    len: usize,
    item: *mut GamefmtThItem,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let (Some(dec), Some(input), false) = (get_mut(dec), bytes(input, len), item.is_null()) else {
        return null(err);
    };
    let a = answer(dec.decode(input), err);
    let mut value = a
        .record
        .as_ref()
        .map_or_else(GamefmtThItem::default, GamefmtThItem::new);
    value.consumed = a.consumed;
    value.needed = a.needed;
    out(item, value);
    a.status
}

/// When the caller's buffer is full and [`gamefmt_th_decode`] still needs
/// more: inside the header, its next piece (`GAMEFMT_STATUS_OK`, kind
/// `HeaderPiece`); `GAMEFMT_STATUS_ABSENT` elsewhere (a message longer
/// than the buffer).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_th_decode_piece(
    dec: *mut GamefmtThDecoder,
    input: *const u8,
    len: usize,
    item: *mut GamefmtThItem,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let (Some(dec), Some(input), false) = (get_mut(dec), bytes(input, len), item.is_null()) else {
        return null(err);
    };
    match dec.decode_piece(input) {
        Ok(Some((piece, consumed))) => {
            let mut value = GamefmtThItem::new(&piece);
            value.consumed = consumed;
            out(item, value);
            GamefmtStatus::Ok
        }
        Ok(None) => GamefmtStatus::Absent,
        Err(e) => fail(err, &e),
    }
}

/// How the stream ended if the input ends now with `unconsumed` bytes left
/// that did not form a record.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_th_end(
    dec: *const GamefmtThDecoder,
    unconsumed: usize,
    end: *mut GamefmtEnd,
) -> GamefmtStatus {
    end_status(get(dec).map(|d| d.end(unconsumed)), end)
}

/// DDNet's name of a message's kind (`PLAYER_DIFF`, `EX`, ...) into `buf`
/// (`snprintf` rules); returns its length.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_th_message_name(
    message: *const GamefmtThMessage,
    buf: *mut c_char,
    cap: usize,
) -> isize {
    use gamefmt::teehistorian::Kind;
    // SAFETY: `message` is NULL or points to a message the decoder filled
    // (the crate's contract).
    let Some(m) = (unsafe { message.as_ref() }) else {
        return -1;
    };
    let kind = match m {
        GamefmtThMessage::PlayerDiff { .. } => Kind::PlayerDiff,
        GamefmtThMessage::Finish => Kind::Finish,
        GamefmtThMessage::TickSkip { .. } => Kind::TickSkip,
        GamefmtThMessage::PlayerNew { .. } => Kind::PlayerNew,
        GamefmtThMessage::PlayerOld { .. } => Kind::PlayerOld,
        GamefmtThMessage::InputDiff { .. } => Kind::InputDiff,
        GamefmtThMessage::InputNew { .. } => Kind::InputNew,
        GamefmtThMessage::Message { .. } => Kind::Message,
        GamefmtThMessage::Join { .. } => Kind::Join,
        GamefmtThMessage::Drop { .. } => Kind::Drop,
        GamefmtThMessage::ConsoleCommand { .. } => Kind::ConsoleCommand,
        GamefmtThMessage::Ex { .. } => Kind::Ex,
    };
    display_out(&kind.name(), buf, cap)
}

/// The name of a known EX UUID (e.g. `teehistorian-player-name@ddnet.org`)
/// into `buf` (`snprintf` rules); returns its length, or -1 for an unknown
/// UUID.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_th_ex_name(
    uuid: *const [u8; 16],
    buf: *mut c_char,
    cap: usize,
) -> isize {
    // SAFETY: `uuid` is NULL or points to 16 readable bytes (the crate's
    // contract).
    let Some(uuid) = (unsafe { uuid.as_ref() }) else {
        return -1;
    };
    let ex = Ex {
        uuid: Uuid::from_bytes_ref(uuid),
        data: &[],
    };
    ex.name().map_or(-1, |name| display_out(&name, buf, cap))
}

/// Parses a header's JSON text (`json[0..len]`, e.g. from a `Header`
/// item, or the pieces joined) into `*out`; it borrows the text.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_th_header_parse(
    json: *const u8,
    len: usize,
    out: *mut GamefmtThHeader,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let (Some(json), false) = (bytes(json, len), out.is_null()) else {
        return null(err);
    };
    let Ok(text) = core::str::from_utf8(json) else {
        let e = gamefmt::Error::new(gamefmt::ErrorKind::InvalidString, 0);
        return fail(err, &e);
    };
    put_result(out, Header::parse(text), err)
}

/// The header's format version (1 or 2; 0 when `header` is not parsed).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_th_header_version(header: *const GamefmtThHeader) -> u32 {
    get(header).map_or(0, Header::version)
}

/// A header field named by DDNet's key.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GamefmtThField {
    /// `version_minor` as written.
    VersionMinor,
    /// `game_uuid`, parsed and written as a lowercase hyphenated UUID.
    GameUuid,
    /// `prev_game_uuid`, likewise.
    PrevGameUuid,
    /// `comment`.
    Comment,
    /// `server_version`.
    ServerVersion,
    /// `start_time`.
    StartTime,
    /// `server_name`.
    ServerName,
    /// `game_type`.
    GameType,
    /// `map_name`.
    MapName,
}

/// Header field `field`, unescaped, into `buf` (`snprintf` rules); returns
/// its length, or -1 when absent (or `header` not parsed).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_th_header_str(
    header: *const GamefmtThHeader,
    field: GamefmtThField,
    buf: *mut c_char,
    cap: usize,
) -> isize {
    let Some(h) = get(header) else { return -1 };
    let text = match field {
        GamefmtThField::GameUuid => return h.game_uuid().map_or(-1, |u| display_out(&u, buf, cap)),
        GamefmtThField::PrevGameUuid => {
            return h.prev_game_uuid().map_or(-1, |u| display_out(&u, buf, cap));
        }
        GamefmtThField::VersionMinor => h.version_minor_str(),
        GamefmtThField::Comment => h.comment(),
        GamefmtThField::ServerVersion => h.server_version(),
        GamefmtThField::StartTime => h.start_time(),
        GamefmtThField::ServerName => h.server_name(),
        GamefmtThField::GameType => h.game_type(),
        GamefmtThField::MapName => h.map_name(),
    };
    text.map_or(-1, |t| display_out(&t, buf, cap))
}
