//! The messages of a teehistorian stream and their wire decoding.
//!
//! Strings are borrowed as bytes (without their NUL): DDNet writes valid
//! UTF-8, but files from older servers may not, and a decoder that refused
//! them would lose the rest of the file.

use uuid::Uuid;

use super::input::{PackedInput, read_ints};
use super::uuids::{self, Known};
use crate::bytes::Cursor;
use crate::error::{Error, Result};

/// Message id of FINISH.
pub const ID_FINISH: i32 = -1;
/// Message id of TICK_SKIP.
pub const ID_TICK_SKIP: i32 = -2;
/// Message id of PLAYER_NEW.
pub const ID_PLAYER_NEW: i32 = -3;
/// Message id of PLAYER_OLD.
pub const ID_PLAYER_OLD: i32 = -4;
/// Message id of INPUT_DIFF.
pub const ID_INPUT_DIFF: i32 = -5;
/// Message id of INPUT_NEW.
pub const ID_INPUT_NEW: i32 = -6;
/// Message id of MESSAGE.
pub const ID_MESSAGE: i32 = -7;
/// Message id of JOIN.
pub const ID_JOIN: i32 = -8;
/// Message id of DROP.
pub const ID_DROP: i32 = -9;
/// Message id of CONSOLE_COMMAND.
pub const ID_CONSOLE_COMMAND: i32 = -10;
/// Message id of EX.
pub const ID_EX: i32 = -11;

/// One message of a teehistorian stream (spec §2.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Message<'a> {
    /// PLAYER_DIFF: the character of `cid` moved by (`dx`, `dy`).
    PlayerDiff {
        /// Client id (the message id itself; never negative).
        cid: i32,
        /// Change of x, to be added with wrapping arithmetic.
        dx: i32,
        /// Change of y, to be added with wrapping arithmetic.
        dy: i32,
    },
    /// FINISH: the end of the recording.
    Finish,
    /// TICK_SKIP: the next tick is the previous one plus `dt + 1`.
    TickSkip {
        /// Ticks without any record that were skipped (0 = the next tick).
        dt: i32,
    },
    /// PLAYER_NEW: a character of `cid` appeared at (`x`, `y`).
    PlayerNew {
        /// Client id.
        cid: i32,
        /// World x coordinate (32 units per tile).
        x: i32,
        /// World y coordinate.
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
        /// Component-wise wrapping difference to the previous input
        /// ([`PackedInput::get`] decodes it).
        diff: PackedInput<'a>,
    },
    /// INPUT_NEW: `cid` sent an input, absolute (replaces any earlier one).
    InputNew {
        /// Client id.
        cid: i32,
        /// The input ([`PackedInput::get`] decodes it).
        input: PackedInput<'a>,
    },
    /// MESSAGE: `cid` sent a game message (packed: `(msg_id << 1) | sys`,
    /// then the message's fields).
    PlayerMessage {
        /// Client id.
        cid: i32,
        /// The packed network message.
        data: &'a [u8],
    },
    /// JOIN: `cid` joined on the engine level.
    Join {
        /// Client id.
        cid: i32,
    },
    /// DROP: `cid` left, was kicked or dropped.
    Drop {
        /// Client id.
        cid: i32,
        /// The reason (may be empty).
        reason: &'a [u8],
    },
    /// CONSOLE_COMMAND: a console command was executed.
    ConsoleCommand {
        /// Client id, -1 for the server console, config or votes.
        cid: i32,
        /// The console's flag mask (chat command, ...).
        flags: i32,
        /// The command name and its arguments ([`CommandLine::cmd`],
        /// [`CommandLine::args`]).
        line: CommandLine<'a>,
    },
    /// EX: an extension message, named by a UUID (version 2 only).
    Ex(Ex<'a>),
}

/// The kind of a [`Message`], with DDNet's names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Kind {
    /// PLAYER_DIFF (ids 0 and up).
    PlayerDiff,
    /// FINISH (-1).
    Finish,
    /// TICK_SKIP (-2).
    TickSkip,
    /// PLAYER_NEW (-3).
    PlayerNew,
    /// PLAYER_OLD (-4).
    PlayerOld,
    /// INPUT_DIFF (-5).
    InputDiff,
    /// INPUT_NEW (-6).
    InputNew,
    /// MESSAGE (-7).
    Message,
    /// JOIN (-8).
    Join,
    /// DROP (-9).
    Drop,
    /// CONSOLE_COMMAND (-10).
    ConsoleCommand,
    /// EX (-11).
    Ex,
}

impl Kind {
    /// Every kind, in message-id order.
    pub const ALL: [Self; 12] = [
        Self::PlayerDiff,
        Self::Finish,
        Self::TickSkip,
        Self::PlayerNew,
        Self::PlayerOld,
        Self::InputDiff,
        Self::InputNew,
        Self::Message,
        Self::Join,
        Self::Drop,
        Self::ConsoleCommand,
        Self::Ex,
    ];

    /// DDNet's name, e.g. `"PLAYER_DIFF"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::PlayerDiff => "PLAYER_DIFF",
            Self::Finish => "FINISH",
            Self::TickSkip => "TICK_SKIP",
            Self::PlayerNew => "PLAYER_NEW",
            Self::PlayerOld => "PLAYER_OLD",
            Self::InputDiff => "INPUT_DIFF",
            Self::InputNew => "INPUT_NEW",
            Self::Message => "MESSAGE",
            Self::Join => "JOIN",
            Self::Drop => "DROP",
            Self::ConsoleCommand => "CONSOLE_COMMAND",
            Self::Ex => "EX",
        }
    }
}

impl Message<'_> {
    /// This message's kind.
    #[must_use]
    pub const fn kind(&self) -> Kind {
        match self {
            Self::PlayerDiff { .. } => Kind::PlayerDiff,
            Self::Finish => Kind::Finish,
            Self::TickSkip { .. } => Kind::TickSkip,
            Self::PlayerNew { .. } => Kind::PlayerNew,
            Self::PlayerOld { .. } => Kind::PlayerOld,
            Self::InputDiff { .. } => Kind::InputDiff,
            Self::InputNew { .. } => Kind::InputNew,
            Self::PlayerMessage { .. } => Kind::Message,
            Self::Join { .. } => Kind::Join,
            Self::Drop { .. } => Kind::Drop,
            Self::ConsoleCommand { .. } => Kind::ConsoleCommand,
            Self::Ex(_) => Kind::Ex,
        }
    }

    /// The client id of a player record (PLAYER_DIFF/NEW/OLD), the only
    /// messages that can start a tick implicitly.
    #[must_use]
    pub const fn player_record_cid(&self) -> Option<i32> {
        match *self {
            Self::PlayerDiff { cid, .. }
            | Self::PlayerNew { cid, .. }
            | Self::PlayerOld { cid } => Some(cid),
            _ => None,
        }
    }
}

/// The arguments of a CONSOLE_COMMAND: NUL-terminated strings.
///
/// Only the bytes are kept, the count is told from them: a stored count
/// made every [`Message`] (and so every record) a word wider, which a
/// `for` loop copies per message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Args<'a> {
    /// Every argument followed by its NUL (empty for none).
    raw: &'a [u8],
}

impl<'a> Args<'a> {
    /// Arguments from their wire form: NUL-terminated strings back to back
    /// (empty for none). Bytes after the last NUL are ignored.
    #[must_use]
    pub fn from_raw(raw: &'a [u8]) -> Self {
        let len = raw
            .iter()
            .rposition(|&b| b == 0)
            .map_or(0, |p| p.saturating_add(1));
        Self {
            raw: raw.get(..len).unwrap_or_default(),
        }
    }

    /// Number of arguments (counted: the NULs).
    #[must_use]
    pub fn len(&self) -> usize {
        self.raw.iter().filter(|&&b| b == 0).count()
    }

    /// Whether there are no arguments.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }

    /// The wire form: every argument followed by its NUL.
    #[must_use]
    pub const fn raw(&self) -> &'a [u8] {
        self.raw
    }

    /// The arguments, without their NULs.
    pub fn iter(&self) -> impl Iterator<Item = &'a [u8]> + use<'a> {
        // The bytes end with a NUL (or are empty): each piece up to and
        // with its NUL is one argument.
        self.raw
            .split_inclusive(|&b| b == 0)
            .map(|arg| arg.split_last().map_or(arg, |(_, text)| text))
    }
}

/// The command of a CONSOLE_COMMAND and its arguments, borrowed as the
/// file holds them: the name and its NUL, the number of arguments (a
/// packed int), each argument and its NUL.
///
/// One slice for both (two made every [`Message`], and so every record a
/// decoder yields, 16 bytes wider, which a loop that stores its records
/// wrote for every message); the decoder has checked it. Two are equal
/// when their names and arguments are (however the count was packed).
///
/// ```
/// use gamefmt::teehistorian::{Args, CommandLine};
/// let mut buf = [0u8; 32];
/// let line = CommandLine::encode(b"tune", Args::from_raw(b"gravity\00.25\0"), &mut buf).unwrap();
/// assert_eq!(line.cmd(), b"tune");
/// assert_eq!(line.args().iter().collect::<Vec<_>>(), [&b"gravity"[..], b"0.25"]);
/// // The count 2 in a longer form than DDNet's: the same command line.
/// assert_eq!(CommandLine::new(b"tune\0\x82\x00gravity\00.25\0"), Some(line));
/// assert_eq!(CommandLine::new(b"tune\0\x02gravity\0"), None);
/// ```
#[derive(Clone, Copy)]
pub struct CommandLine<'a> {
    raw: &'a [u8],
}

impl<'a> CommandLine<'a> {
    /// A command line from its wire form (see the type), if `raw` is
    /// exactly one.
    #[must_use]
    pub fn new(raw: &'a [u8]) -> Option<Self> {
        let mut c = Cursor::new(raw);
        let line = read_line(&mut c).ok()?;
        c.is_empty().then_some(line)
    }

    /// `cmd` and `args` in their wire form, written into `buf`; `None` if
    /// `buf` is too short or `cmd` holds a NUL.
    pub fn encode(cmd: &[u8], args: Args<'_>, buf: &'a mut [u8]) -> Option<Self> {
        if cmd.contains(&0) {
            return None;
        }
        let mut count = [0u8; crate::varint::MAX_LEN];
        let count_len = crate::varint::encode(i32::try_from(args.len()).ok()?, &mut count);
        let parts: [&[u8]; 4] = [cmd, &[0], count.get(..count_len)?, args.raw()];
        let mut len = 0usize;
        for part in parts {
            let end = len.checked_add(part.len())?;
            buf.get_mut(len..end)?.copy_from_slice(part);
            len = end;
        }
        Some(Self {
            raw: buf.get(..len)?,
        })
    }

    /// The command name.
    #[must_use]
    pub fn cmd(&self) -> &'a [u8] {
        let end = crate::bytes::find_nul(self.raw).unwrap_or(self.raw.len());
        self.raw.get(..end).unwrap_or_default()
    }

    /// The arguments.
    #[must_use]
    pub fn args(&self) -> Args<'a> {
        let mut c = Cursor::new(self.raw);
        let _ = c.cstr_bytes();
        let _ = int(&mut c);
        Args { raw: c.rest() }
    }

    /// The wire form (see the type).
    #[must_use]
    pub const fn as_bytes(&self) -> &'a [u8] {
        self.raw
    }
}

impl PartialEq for CommandLine<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.cmd() == other.cmd() && self.args() == other.args()
    }
}

impl Eq for CommandLine<'_> {}

impl core::fmt::Debug for CommandLine<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("CommandLine")
            .field("cmd", &self.cmd())
            .field("args", &self.args())
            .finish()
    }
}

/// An EX message: a UUID and its payload, borrowed. [`Ex::parse`] decodes
/// the payload of the known kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ex<'a> {
    /// The extension's UUID (borrowed from the file: a UUID kept by
    /// value made every [`Message`], and so every record, 8 bytes wider).
    pub uuid: &'a Uuid,
    /// The payload, exactly `size` bytes.
    pub data: &'a [u8],
}

impl<'a> Ex<'a> {
    /// The name of a known UUID, e.g. `"teehistorian-player-name@ddnet.org"`.
    #[must_use]
    pub fn name(&self) -> Option<&'static str> {
        uuids::name(self.uuid)
    }

    /// Decodes the payload: a typed [`ExMessage`] for every UUID of
    /// teeworlds.md §2.4, [`ExMessage::Unknown`] for the rest. Bytes after
    /// the known fields are ignored. A payload shorter than its layout (as
    /// DDNet wrote big saves before `version_minor` 9) is an error with an
    /// offset inside the payload; the stream itself stays readable.
    pub fn parse(&self) -> Result<ExMessage<'a>> {
        let mut c = Cursor::new(self.data);
        let c = &mut c;
        Ok(match uuids::known(self.uuid) {
            Some(Known::Test) => ExMessage::Test,
            Some(Known::DdnetVersionOld) => ExMessage::DdnetVersionOld {
                cid: int(c)?,
                version: int(c)?,
            },
            Some(Known::DdnetVersion) => ExMessage::DdnetVersion {
                cid: int(c)?,
                connection_id: uuid(c)?,
                version: int(c)?,
                version_str: c.cstr_bytes()?,
            },
            Some(Known::AuthInit) => ExMessage::AuthInit {
                cid: int(c)?,
                level: int(c)?,
                auth_name: c.cstr_bytes()?,
            },
            Some(Known::AuthLogin) => ExMessage::AuthLogin {
                cid: int(c)?,
                level: int(c)?,
                auth_name: c.cstr_bytes()?,
            },
            Some(Known::AuthLogout) => ExMessage::AuthLogout { cid: int(c)? },
            Some(Known::JoinVer6) => ExMessage::JoinVer6 { cid: int(c)? },
            Some(Known::JoinVer7) => ExMessage::JoinVer7 { cid: int(c)? },
            Some(Known::PlayerSwitch) => ExMessage::PlayerSwitch {
                cid1: int(c)?,
                cid2: int(c)?,
            },
            Some(Known::SaveSuccess) => ExMessage::SaveSuccess {
                team: int(c)?,
                save_id: uuid(c)?,
                save: c.cstr_bytes()?,
            },
            Some(Known::SaveFailure) => ExMessage::SaveFailure { team: int(c)? },
            Some(Known::LoadSuccess) => ExMessage::LoadSuccess {
                team: int(c)?,
                save_id: uuid(c)?,
                save: c.cstr_bytes()?,
            },
            Some(Known::LoadFailure) => ExMessage::LoadFailure { team: int(c)? },
            Some(Known::PlayerTeam) => ExMessage::PlayerTeam {
                cid: int(c)?,
                team: int(c)?,
            },
            Some(Known::TeamPractice) => ExMessage::TeamPractice {
                team: int(c)?,
                practice: int(c)?,
            },
            Some(Known::PlayerReady) => ExMessage::PlayerReady { cid: int(c)? },
            Some(Known::PlayerRejoin) => ExMessage::PlayerRejoin { cid: int(c)? },
            Some(Known::Antibot) => ExMessage::Antibot { data: self.data },
            Some(Known::PlayerName) => ExMessage::PlayerName {
                cid: int(c)?,
                name: c.cstr_bytes()?,
            },
            Some(Known::PlayerFinish) => ExMessage::PlayerFinish {
                cid: int(c)?,
                time: int(c)?,
            },
            Some(Known::TeamFinish) => ExMessage::TeamFinish {
                team: int(c)?,
                time: int(c)?,
            },
            None => ExMessage::Unknown {
                uuid: *self.uuid,
                data: self.data,
            },
        })
    }
}

/// The decoded payload of an EX message (teeworlds.md §2.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExMessage<'a> {
    /// `teehistorian-test@ddnet.tw`.
    Test,
    /// `teehistorian-ddnetver-old@ddnet.tw`.
    DdnetVersionOld {
        /// Client id.
        cid: i32,
        /// DDNet version number, e.g. 16050.
        version: i32,
    },
    /// `teehistorian-ddnetver@ddnet.tw`.
    DdnetVersion {
        /// Client id.
        cid: i32,
        /// The connection's random id.
        connection_id: Uuid,
        /// DDNet version number.
        version: i32,
        /// Version text.
        version_str: &'a [u8],
    },
    /// `teehistorian-auth-init@ddnet.tw`.
    AuthInit {
        /// Client id.
        cid: i32,
        /// Authentication level.
        level: i32,
        /// Account name.
        auth_name: &'a [u8],
    },
    /// `teehistorian-auth-login@ddnet.tw`.
    AuthLogin {
        /// Client id.
        cid: i32,
        /// Authentication level.
        level: i32,
        /// Account name.
        auth_name: &'a [u8],
    },
    /// `teehistorian-auth-logout@ddnet.tw`.
    AuthLogout {
        /// Client id.
        cid: i32,
    },
    /// `teehistorian-joinver6@ddnet.tw`.
    JoinVer6 {
        /// Client id.
        cid: i32,
    },
    /// `teehistorian-joinver7@ddnet.tw`.
    JoinVer7 {
        /// Client id.
        cid: i32,
    },
    /// `teehistorian-player-swap@ddnet.tw`.
    PlayerSwitch {
        /// First client id.
        cid1: i32,
        /// Second client id.
        cid2: i32,
    },
    /// `teehistorian-save-success@ddnet.tw`.
    SaveSuccess {
        /// Team number.
        team: i32,
        /// Id of the save.
        save_id: Uuid,
        /// The save string.
        save: &'a [u8],
    },
    /// `teehistorian-save-failure@ddnet.tw`.
    SaveFailure {
        /// Team number.
        team: i32,
    },
    /// `teehistorian-load-success@ddnet.tw`.
    LoadSuccess {
        /// Team number.
        team: i32,
        /// Id of the save.
        save_id: Uuid,
        /// The save string.
        save: &'a [u8],
    },
    /// `teehistorian-load-failure@ddnet.tw`.
    LoadFailure {
        /// Team number.
        team: i32,
    },
    /// `teehistorian-player-team@ddnet.tw`.
    PlayerTeam {
        /// Client id.
        cid: i32,
        /// New team.
        team: i32,
    },
    /// `teehistorian-team-practice@ddnet.tw`.
    TeamPractice {
        /// Team number.
        team: i32,
        /// 1 when entering practice mode, 0 when leaving.
        practice: i32,
    },
    /// `teehistorian-player-ready@ddnet.tw`.
    PlayerReady {
        /// Client id.
        cid: i32,
    },
    /// `teehistorian-rejoinver6@ddnet.org`.
    PlayerRejoin {
        /// Client id.
        cid: i32,
    },
    /// `teehistorian-antibot@ddnet.org`: opaque bytes.
    Antibot {
        /// The whole payload.
        data: &'a [u8],
    },
    /// `teehistorian-player-name@ddnet.org`.
    PlayerName {
        /// Client id.
        cid: i32,
        /// The name.
        name: &'a [u8],
    },
    /// `teehistorian-player-finish@ddnet.org`.
    PlayerFinish {
        /// Client id.
        cid: i32,
        /// Race time in ticks.
        time: i32,
    },
    /// `teehistorian-team-finish@ddnet.org`.
    TeamFinish {
        /// Team number.
        team: i32,
        /// Race time in ticks.
        time: i32,
    },
    /// Any other UUID.
    Unknown {
        /// The UUID.
        uuid: Uuid,
        /// The payload.
        data: &'a [u8],
    },
}

impl ExMessage<'_> {
    /// The UUID this message is sent under.
    #[must_use]
    pub const fn uuid(&self) -> Uuid {
        match *self {
            Self::Test => uuids::TEST,
            Self::DdnetVersionOld { .. } => uuids::DDNETVER_OLD,
            Self::DdnetVersion { .. } => uuids::DDNETVER,
            Self::AuthInit { .. } => uuids::AUTH_INIT,
            Self::AuthLogin { .. } => uuids::AUTH_LOGIN,
            Self::AuthLogout { .. } => uuids::AUTH_LOGOUT,
            Self::JoinVer6 { .. } => uuids::JOINVER6,
            Self::JoinVer7 { .. } => uuids::JOINVER7,
            Self::PlayerSwitch { .. } => uuids::PLAYER_SWITCH,
            Self::SaveSuccess { .. } => uuids::SAVE_SUCCESS,
            Self::SaveFailure { .. } => uuids::SAVE_FAILURE,
            Self::LoadSuccess { .. } => uuids::LOAD_SUCCESS,
            Self::LoadFailure { .. } => uuids::LOAD_FAILURE,
            Self::PlayerTeam { .. } => uuids::PLAYER_TEAM,
            Self::TeamPractice { .. } => uuids::TEAM_PRACTICE,
            Self::PlayerReady { .. } => uuids::PLAYER_READY,
            Self::PlayerRejoin { .. } => uuids::PLAYER_REJOIN,
            Self::Antibot { .. } => uuids::ANTIBOT,
            Self::PlayerName { .. } => uuids::PLAYER_NAME,
            Self::PlayerFinish { .. } => uuids::PLAYER_FINISH,
            Self::TeamFinish { .. } => uuids::TEAM_FINISH,
            Self::Unknown { uuid, .. } => uuid,
        }
    }
}

/// Reads one packed int.
#[inline]
pub(crate) fn int(c: &mut Cursor<'_>) -> Result<i32> {
    c.packed_int()
}

/// Reads a 16-byte big-endian UUID.
fn uuid(c: &mut Cursor<'_>) -> Result<Uuid> {
    c.array().map(Uuid::from_bytes)
}

/// Reads a non-negative packed int used as a length. Inlined in every
/// message that has one (a call, it took 8% of the instructions of a `for`
/// loop over the tutorial recording's rare messages: 1,026,662 -> 950,697
/// a pass with `#[inline]`, which left the CONSOLE_COMMAND's a call, and
/// 910,917 -> 890,781 with `#[inline(always)]`).
#[inline(always)]
fn len(c: &mut Cursor<'_>, what: &'static str) -> Result<usize> {
    let at = c.offset();
    usize::try_from(int(c)?).map_err(|_| Error::corrupt(what, at))
}

/// Decodes one message (everything after its id) with id `id`; the
/// message starts at file offset `start`.
///
/// Running out of input gives [`ErrorKind::Truncated`](crate::ErrorKind::Truncated)
/// or [`ErrorKind::InvalidVarint`](crate::ErrorKind::InvalidVarint); the
/// decoder turns those into "need more".
#[inline]
pub(crate) fn read_body<'a>(id: i32, c: &mut Cursor<'a>, start: usize) -> Result<Message<'a>> {
    Ok(match id {
        0.. => Message::PlayerDiff {
            cid: id,
            dx: int(c)?,
            dy: int(c)?,
        },
        ID_FINISH => Message::Finish,
        ID_TICK_SKIP => {
            let at = c.offset();
            let dt = int(c)?;
            if dt < 0 {
                return Err(Error::corrupt("negative TICK_SKIP", at));
            }
            Message::TickSkip { dt }
        }
        ID_PLAYER_NEW => Message::PlayerNew {
            cid: int(c)?,
            x: int(c)?,
            y: int(c)?,
        },
        ID_PLAYER_OLD => Message::PlayerOld { cid: int(c)? },
        ID_INPUT_DIFF => Message::InputDiff {
            cid: int(c)?,
            diff: input(c)?,
        },
        ID_INPUT_NEW => Message::InputNew {
            cid: int(c)?,
            input: input(c)?,
        },
        ID_MESSAGE => {
            let cid = int(c)?;
            let size = len(c, "negative MESSAGE size")?;
            Message::PlayerMessage {
                cid,
                data: c.bytes(size)?,
            }
        }
        ID_JOIN => Message::Join { cid: int(c)? },
        ID_DROP => Message::Drop {
            cid: int(c)?,
            reason: c.cstr_bytes()?,
        },
        ID_CONSOLE_COMMAND => Message::ConsoleCommand {
            cid: int(c)?,
            flags: int(c)?,
            line: read_line(c)?,
        },
        ID_EX => {
            let uuid = Uuid::from_bytes_ref(c.array_ref::<16>()?);
            let size = len(c, "negative EX size")?;
            Message::Ex(Ex {
                uuid,
                data: c.bytes(size)?,
            })
        }
        _ => return Err(Error::corrupt("unknown message id", start)),
    })
}

/// The ten packed ints of an input: kept decoded if they have the usual
/// shape ([`PackedInput`]), else borrowed.
fn input<'a>(c: &mut Cursor<'a>) -> Result<PackedInput<'a>> {
    let (ints, bytes) = c.span(read_ints)?;
    Ok(PackedInput::from_decoded(&ints, bytes))
}

/// A CONSOLE_COMMAND's command name and arguments (see [`CommandLine`]).
fn read_line<'a>(c: &mut Cursor<'a>) -> Result<CommandLine<'a>> {
    let ((), raw) = c.span(|c| {
        c.cstr_bytes()?;
        let count = len(c, "negative CONSOLE_COMMAND argument count")?;
        // Each argument takes at least its NUL, so this is bounded by the
        // input, whatever `count` claims.
        for _ in 0..count {
            c.cstr_bytes()?;
        }
        Ok(())
    })?;
    Ok(CommandLine { raw })
}
