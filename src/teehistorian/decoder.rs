//! The one teehistorian decoding state machine: a push decoder over
//! caller-owned bytes, with tick tracking.

use uuid::Uuid;

use super::header::Header;
use super::message::{Message, int, read_body};
use super::uuids;
use crate::bytes::Cursor;
use crate::error::{Error, ErrorKind, Result};

/// The player-record state of the implicit tick rule (teeworlds.md §2.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LastCid {
    /// Start of file: larger than any cid, so the first player record
    /// starts tick 1.
    Infinite,
    /// Right after a TICK_SKIP: never starts a tick.
    None,
    /// The cid of the last player record.
    Cid(i32),
}

/// Tick tracking: which tick each message belongs to.
///
/// `tick` starts at 0. TICK_SKIP(dt) adds `dt + 1`; a player record
/// (PLAYER_DIFF/NEW/OLD) whose cid is not above the previous player
/// record's cid (or that is the first player record of the file) adds 1.
/// Nothing else changes the tick. This is DDNet's rule, under which the
/// first player record of a file is at tick 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TickState {
    tick: i32,
    last: LastCid,
}

impl TickState {
    pub(crate) const START: Self = Self {
        tick: 0,
        last: LastCid::Infinite,
    };

    /// The current tick.
    pub(crate) const fn tick(&self) -> i32 {
        self.tick
    }

    /// Whether a player record with client id `cid` starts a new tick.
    pub(crate) const fn starts_tick(&self, cid: i32) -> bool {
        match self.last {
            LastCid::Infinite => true,
            LastCid::None => false,
            LastCid::Cid(last) => last >= cid,
        }
    }

    /// Applies `msg` and returns the tick it belongs to, or `None` if the
    /// tick would overflow an `i32`.
    #[inline]
    pub(crate) fn apply(&mut self, msg: &Message<'_>) -> Option<i32> {
        if let Message::TickSkip { dt } = *msg {
            self.tick = self.tick.checked_add(dt)?.checked_add(1)?;
            self.last = LastCid::None;
        } else if let Some(cid) = msg.player_record_cid() {
            if self.starts_tick(cid) {
                self.tick = self.tick.checked_add(1)?;
            }
            self.last = LastCid::Cid(cid);
        }
        Some(self.tick)
    }
}

/// One decoded message with its place in the stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record<'a> {
    /// The tick the message belongs to (a TICK_SKIP belongs to the tick it
    /// starts; records before the first tick are at tick 0).
    pub tick: i32,
    /// Byte offset of the message in the file.
    pub offset: usize,
    /// The message.
    pub message: Message<'a>,
}

/// What one call to [`Decoder::decode`] produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decoded<'a> {
    /// The file header (always the first output), which took `consumed`
    /// bytes: the magic UUID, the JSON text and its NUL.
    Header {
        /// The header.
        header: Header<'a>,
        /// Bytes of input it took; drop them before the next call.
        consumed: usize,
    },
    /// One message, which took `consumed` bytes.
    Record {
        /// The message and its tick.
        record: Record<'a>,
        /// Bytes of input it took; drop them before the next call.
        consumed: usize,
    },
    /// The input does not hold a whole header or message yet: call again
    /// with the same bytes plus more. Nothing was consumed.
    NeedMore,
    /// FINISH was decoded earlier; the stream is over.
    Finished,
}

/// How a teehistorian stream ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum End {
    /// A FINISH message ended the stream: a complete recording.
    Finish,
    /// The input ended between two messages without FINISH (a crashed or
    /// still-running server).
    Eof,
    /// The input ended inside the header or a message.
    Truncated,
}

impl End {
    /// `"finish"`, `"eof"` or `"truncated"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Finish => "finish",
            Self::Eof => "eof",
            Self::Truncated => "truncated",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Header,
    Messages,
    Finished,
    /// Fused after an error: every later call returns it again.
    Failed(Error),
}

/// The push decoder: feed it the bytes you have, get back one header or
/// message and how many bytes it took, or [`Decoded::NeedMore`].
///
/// The caller owns the buffer: after a header or record, drop `consumed`
/// bytes from the front and call again; after `NeedMore`, append bytes and
/// call again with everything not yet consumed. The decoder only keeps
/// the tick state and the position, so its memory use is constant; the
/// caller's buffer must hold the largest single item, which for DDNet's
/// files is the header (magic, JSON and NUL: about 4 KiB) or a big EX save
/// payload (up to 64 KiB). Bytes after FINISH are not read (DDNet writes
/// none).
///
/// ```
/// use gamefmt::teehistorian::{Decoded, Decoder, End, Message};
/// # let file: &[u8] = gamefmt::teehistorian::SAMPLE;
/// let mut decoder = Decoder::new();
/// let mut pending: Vec<u8> = Vec::new();
/// let mut messages = 0;
/// for chunk in file.chunks(7) {
///     pending.extend_from_slice(chunk);
///     let mut used = 0;
///     loop {
///         match decoder.decode(&pending[used..])? {
///             Decoded::Header { consumed, .. } => used += consumed,
///             Decoded::Record { consumed, .. } => { messages += 1; used += consumed }
///             Decoded::NeedMore | Decoded::Finished => break,
///         }
///     }
///     pending.drain(..used);
/// }
/// assert_eq!(decoder.end(pending.len()), End::Finish);
/// assert!(messages > 0);
/// # Ok::<(), gamefmt::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoder {
    state: State,
    offset: usize,
    ticks: TickState,
}

impl Default for Decoder {
    fn default() -> Self {
        Self::new()
    }
}

impl Decoder {
    /// A decoder at the start of a file.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            state: State::Header,
            offset: 0,
            ticks: TickState::START,
        }
    }

    /// Total bytes consumed so far: the file offset of the next input byte.
    #[must_use]
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// The current tick (of the last message decoded).
    #[must_use]
    pub const fn tick(&self) -> i32 {
        self.ticks.tick()
    }

    /// Whether FINISH has been decoded.
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.state == State::Finished
    }

    /// How the stream ended, if the input ends now with `unconsumed` bytes
    /// left over that did not form a whole message. (After a decoding
    /// error the answer is [`End::Truncated`]: the stream is unusable.)
    #[must_use]
    pub fn end(&self, unconsumed: usize) -> End {
        match self.state {
            State::Finished => End::Finish,
            State::Messages if unconsumed == 0 => End::Eof,
            _ => End::Truncated,
        }
    }

    /// Decodes the next header or message from the start of `input`.
    ///
    /// Errors (bad magic, bad header, unknown message id, negative sizes,
    /// tick overflow) carry file offsets. The decoder is fused after an
    /// error: every later call returns the same error.
    #[inline(always)]
    pub fn decode<'a>(&mut self, input: &'a [u8]) -> Result<Decoded<'a>> {
        let result = match self.state {
            State::Header => self.decode_header(input),
            State::Messages => self.decode_message(input),
            State::Finished => Ok(Decoded::Finished),
            State::Failed(e) => Err(e),
        };
        if let Err(e) = result {
            self.state = State::Failed(e);
        }
        result
    }

    fn decode_header<'a>(&mut self, input: &'a [u8]) -> Result<Decoded<'a>> {
        let mut c = Cursor::with_base(input, self.offset);
        let Ok(magic) = c.array::<16>() else {
            // Reject a wrong prefix as early as it is visible.
            if input
                .iter()
                .zip(uuids::TEEHISTORIAN.as_bytes())
                .any(|(a, b)| a != b)
            {
                return Err(Error::new(ErrorKind::BadMagic, self.offset));
            }
            return Ok(Decoded::NeedMore);
        };
        if Uuid::from_bytes(magic) != uuids::TEEHISTORIAN {
            return Err(Error::new(ErrorKind::BadMagic, self.offset));
        }
        let json_at = c.offset();
        let Ok(json) = c.cstr_bytes() else {
            return Ok(Decoded::NeedMore);
        };
        let json = core::str::from_utf8(json).map_err(|e| {
            Error::new(
                ErrorKind::InvalidString,
                json_at.saturating_add(e.valid_up_to()),
            )
        })?;
        let header = Header::parse(json).map_err(|e| e.shifted(json_at))?;
        let consumed = c.position();
        self.offset = c.offset();
        self.state = State::Messages;
        Ok(Decoded::Header { header, consumed })
    }

    #[inline]
    fn decode_message<'a>(&mut self, input: &'a [u8]) -> Result<Decoded<'a>> {
        let mut c = Cursor::with_base(input, self.offset);
        let message = match int(&mut c).and_then(|id| read_body(id, &mut c, self.offset)) {
            Ok(m) => m,
            Err(e) if matches!(e.kind, ErrorKind::Truncated | ErrorKind::InvalidVarint) => {
                return Ok(Decoded::NeedMore);
            }
            Err(e) => return Err(e),
        };
        let mut ticks = self.ticks;
        let tick = ticks
            .apply(&message)
            .ok_or(Error::corrupt("tick overflows", self.offset))?;
        self.ticks = ticks;
        if matches!(message, Message::Finish) {
            self.state = State::Finished;
        }
        let record = Record {
            tick,
            offset: self.offset,
            message,
        };
        let consumed = c.position();
        self.offset = c.offset();
        Ok(Decoded::Record { record, consumed })
    }
}
