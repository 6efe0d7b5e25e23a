//! The one teehistorian decoding state machine: a push decoder over
//! caller-owned bytes, with tick tracking.

use super::header::{Header, TeehistorianHeader};
use super::input::PackedInput;
use super::message::{Message, int, read_body};
use super::uuids;
use crate::bytes::Cursor;
use crate::error::{Error, ErrorKind, Result};
use crate::stream::{self, Decoded, End};
use crate::varint::{decode_one_byte, decode_up_to_two_bytes};

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
    /// The player-record state of the implicit tick rule (teeworlds.md
    /// §2.5) as one number, so that "starts a tick" is one comparison:
    /// the cid of the last player record; [`LAST_START`] at the start of
    /// the file (above any cid: the first player record starts tick 1);
    /// [`LAST_SKIP`] right after a TICK_SKIP (below any cid: the next
    /// player record never starts a tick).
    last: i64,
}

/// [`TickState::last`] at the start of a file.
const LAST_START: i64 = i64::MAX;
/// [`TickState::last`] right after a TICK_SKIP.
const LAST_SKIP: i64 = i64::MIN;

impl TickState {
    pub(crate) const START: Self = Self {
        tick: 0,
        last: LAST_START,
    };

    /// The current tick.
    pub(crate) const fn tick(&self) -> i32 {
        self.tick
    }

    /// Whether a player record with client id `cid` starts a new tick.
    #[inline(always)]
    pub(crate) const fn starts_tick(&self, cid: i32) -> bool {
        self.last >= cid as i64
    }

    /// Applies a player record of client `cid` and returns its tick, or
    /// `None` if the tick would overflow an `i32`.
    #[inline(always)]
    fn player_record(&mut self, cid: i32) -> Option<i32> {
        let tick = self.tick.checked_add(i32::from(self.starts_tick(cid)))?;
        self.tick = tick;
        self.last = i64::from(cid);
        Some(tick)
    }

    /// Applies `msg` and returns the tick it belongs to, or `None` if the
    /// tick would overflow an `i32`.
    #[inline]
    pub(crate) fn apply(&mut self, msg: &Message<'_>) -> Option<i32> {
        if let Message::TickSkip { dt } = *msg {
            self.tick = self.tick.checked_add(dt)?.checked_add(1)?;
            self.last = LAST_SKIP;
        } else if let Some(cid) = msg.player_record_cid() {
            return self.player_record(cid);
        }
        Some(self.tick)
    }
}

/// The length of the magic UUID that starts a file.
pub(crate) const MAGIC_LEN: usize = 16;

/// [`ID_INPUT_DIFF`](super::ID_INPUT_DIFF) as a one-byte packed int.
const INPUT_DIFF_ID_BYTE: u8 = 0x44;
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

/// One record of a teehistorian stream, borrowing from the caller's input:
/// what [`Decoder::decode`] and [`Reader`](super::Reader) deliver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item<'a> {
    /// The file header (the first record): the magic UUID, the JSON text
    /// and its NUL, parsed.
    Header(Header<'a>),
    /// A piece of a header too long for the caller's buffer (see
    /// [`Decoder::decode_piece`]): the next bytes of its JSON text, in
    /// order, not validated; `last` for the piece that ends it. Join them
    /// and call [`Header::parse`] to read it.
    HeaderPiece {
        /// The next bytes of the JSON text (neither the magic nor the NUL).
        json: &'a [u8],
        /// This piece ends the header.
        last: bool,
    },
    /// One message and its tick.
    Message(Record<'a>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Header,
    /// Inside a header delivered in pieces.
    HeaderPieces,
    Messages,
    Finished,
    /// Fused after an error: every later call returns it again.
    Failed(Error),
}

/// The push decoder: feed it the bytes you have, get back one [`Item`] (the
/// header, then messages) and how many bytes it took, or
/// [`Decoded::NeedMore`] — the [stream contract](crate::stream).
///
/// The caller owns the buffer: after a record, drop `consumed` bytes from
/// the front and call again; after `NeedMore`, append bytes and call again
/// with everything not yet consumed. The decoder only keeps the tick state
/// and the position, so its memory use is constant. The caller's buffer
/// must hold the largest message (DDNet's largest, EX save payloads, are
/// up to 64 KiB); a header longer than the buffer (DDNet's are about
/// 4 KiB) comes in pieces from [`Decoder::decode_piece`], so a 4 KiB
/// buffer decodes DDNet's recordings. Bytes after FINISH are not read
/// (DDNet writes none).
///
/// ```
/// use gamefmt::stream::{Decoded, End};
/// use gamefmt::teehistorian::{Decoder, Item};
/// # let file: &[u8] = gamefmt::teehistorian::SAMPLE;
/// let mut decoder = Decoder::new();
/// let mut pending: Vec<u8> = Vec::new();
/// let mut messages = 0;
/// for chunk in file.chunks(7) {
///     pending.extend_from_slice(chunk);
///     let mut used = 0;
///     while let Decoded::Record { record, consumed } = decoder.decode(&pending[used..])? {
///         used += consumed;
///         if let Item::Message(_) = record {
///             messages += 1;
///         }
///     }
///     pending.drain(..used);
/// }
/// assert_eq!(decoder.end(pending.len()), End::Complete);
/// assert!(messages > 0);
/// # Ok::<(), gamefmt::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoder {
    state: State,
    offset: usize,
    ticks: TickState,
    /// The header's facts (in the making while its pieces come).
    header: TeehistorianHeader,
    /// The whole header has been decoded.
    header_read: bool,
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
            header: TeehistorianHeader::EMPTY,
            header_read: false,
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

    /// The header's facts, once the whole header has been decoded (the
    /// first record, [`Item::Header`], or the last of its
    /// [`Item::HeaderPiece`]s); `None` before.
    #[must_use]
    pub const fn header(&self) -> Option<&TeehistorianHeader> {
        if self.header_read {
            Some(&self.header)
        } else {
            None
        }
    }

    /// Whether FINISH has been decoded.
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.state == State::Finished
    }

    /// How the stream ended if the input ends now, with `unconsumed` bytes
    /// left over that did not form a whole record.
    #[must_use]
    pub fn end(&self, unconsumed: usize) -> End {
        match self.state {
            State::Finished => End::Complete,
            State::Messages if unconsumed == 0 => End::Eof,
            State::Failed(e) => End::Damaged(e),
            _ => End::Truncated {
                offset: self.offset,
            },
        }
    }

    /// Decodes the next header or message from the start of `input`.
    ///
    /// # Errors
    /// Bad magic, bad header, unknown message id, negative sizes, tick
    /// overflow; offsets count from the start of the stream. The decoder
    /// is fused after an error: every later call returns the same error.
    #[inline(always)]
    pub fn decode<'a>(&mut self, input: &'a [u8]) -> Result<Decoded<Item<'a>>> {
        match self.decode_short(input) {
            Some((record, consumed)) => Ok(Decoded::Record {
                record: Item::Message(record),
                consumed,
            }),
            None => self.decode_general(input),
        }
    }

    /// For a caller whose buffer is full while [`Decoder::decode`] answers
    /// [`Decoded::NeedMore`]: inside the header, the next piece of it
    /// ([`Item::HeaderPiece`], everything `input` holds after the magic)
    /// and the bytes it took; `None` elsewhere (a message longer than the
    /// buffer).
    ///
    /// # Errors
    /// A wrong magic UUID, or the decoder's earlier error.
    pub fn decode_piece<'a>(&mut self, input: &'a [u8]) -> Result<Option<(Item<'a>, usize)>> {
        let skip = match self.state {
            State::Header => {
                self.check_magic(input)?;
                if input.len() <= MAGIC_LEN {
                    return Ok(None);
                }
                MAGIC_LEN
            }
            State::HeaderPieces => 0,
            State::Failed(e) => return Err(e),
            State::Messages | State::Finished => return Ok(None),
        };
        let first = self.state == State::Header;
        self.state = State::HeaderPieces;
        let piece = self.header_piece(input, skip);
        if let (true, Some((Item::HeaderPiece { json, .. }, _))) = (first, piece) {
            self.header.scan_version(json);
        }
        Ok(piece)
    }

    /// The next piece of a header delivered in pieces, after `skip` bytes
    /// of magic: up to the NUL, or all of `input`.
    fn header_piece<'a>(&mut self, input: &'a [u8], skip: usize) -> Option<(Item<'a>, usize)> {
        let rest = input.get(skip..).filter(|r| !r.is_empty())?;
        let (json, consumed, last) = match crate::bytes::find_nul(rest) {
            Some(nul) => (rest.get(..nul)?, nul.saturating_add(1), true),
            None => (rest, rest.len(), false),
        };
        let consumed = consumed.saturating_add(skip);
        self.offset = self.offset.saturating_add(consumed);
        self.header.add_piece(json);
        if last {
            self.state = State::Messages;
            self.header_read = true;
        }
        Some((Item::HeaderPiece { json, last }, consumed))
    }

    /// Fails unless `input` starts with (a prefix of) the magic UUID.
    fn check_magic(&self, input: &[u8]) -> Result<()> {
        if input
            .iter()
            .zip(uuids::TEEHISTORIAN.as_bytes())
            .any(|(a, b)| a != b)
        {
            return Err(Error::new(ErrorKind::BadMagic, self.offset));
        }
        Ok(())
    }

    /// [`Self::decode`] without [`Self::decode_short`] first.
    #[inline]
    pub(crate) fn decode_general<'a>(&mut self, input: &'a [u8]) -> Result<Decoded<Item<'a>>> {
        // The short path of the second most common message (out of
        // `decode_short`: see `TeehistorianIter::next`), first, so that its
        // record is written once, straight into the result.
        if let Some((record, consumed)) = self.decode_short_input(input) {
            return Ok(Decoded::Record {
                record: Item::Message(record),
                consumed,
            });
        }
        let result = match self.state {
            State::Header => self.decode_header(input),
            State::HeaderPieces => Ok(match self.header_piece(input, 0) {
                Some((record, consumed)) => Decoded::Record { record, consumed },
                None => Decoded::NeedMore { needed: None },
            }),
            State::Messages => self.decode_message(input).map(|m| match m {
                Some((record, consumed)) => Decoded::Record {
                    record: Item::Message(record),
                    consumed,
                },
                None => Decoded::NeedMore { needed: None },
            }),
            State::Finished => Ok(Decoded::Done { consumed: 0 }),
            State::Failed(e) => Err(e),
        };
        if let Err(e) = result {
            self.state = State::Failed(e);
        }
        result
    }

    /// The general path of [`TeehistorianIter`](super::TeehistorianIter),
    /// after the short paths: the next message as the iterator yields it,
    /// or `None` after FINISH, after an error and where `input` does not
    /// hold a whole message. (The record alone, not moved through a [`Decoded`]
    /// [`Item`] as from [`Self::decode_general`]: 6% fewer instructions
    /// per file on DDNet's tiny test recordings.)
    #[inline]
    pub(crate) fn decode_record<'a>(&mut self, input: &'a [u8]) -> Option<Result<Record<'a>>> {
        match self.state {
            State::Messages => match self.decode_message(input) {
                Ok(message) => message.map(|(record, _)| Ok(record)),
                Err(e) => {
                    self.state = State::Failed(e);
                    Some(Err(e))
                }
            },
            State::Header | State::HeaderPieces | State::Finished | State::Failed(_) => None,
        }
    }

    /// [`short_input_diff`] at the decoder's state: the record and its
    /// length, or `None`.
    #[inline(always)]
    pub(crate) fn decode_short_input<'a>(
        &mut self,
        input: &'a [u8],
    ) -> Option<(Record<'a>, usize)> {
        if self.state != State::Messages {
            return None;
        }
        let (message, tick, len) = short_input_diff(&self.ticks, input)?;
        Some(self.advance(tick, message, len))
    }

    fn decode_header<'a>(&mut self, input: &'a [u8]) -> Result<Decoded<Item<'a>>> {
        Ok(match self.read_header(input)? {
            Some((header, consumed)) => Decoded::Record {
                record: Item::Header(header),
                consumed,
            },
            None => Decoded::NeedMore {
                needed: (input.len() < MAGIC_LEN).then_some(MAGIC_LEN),
            },
        })
    }

    /// The header at the start of `input` (the decoder at the start of a
    /// file) and the bytes it takes (the magic, the text and its NUL), or
    /// `None` if `input` does not hold it whole. On an error the decoder
    /// is left as it was: the caller records it.
    pub(crate) fn read_header<'a>(
        &mut self,
        input: &'a [u8],
    ) -> Result<Option<(Header<'a>, usize)>> {
        let Some((magic, rest)) = input.split_first_chunk::<MAGIC_LEN>() else {
            // Reject a wrong prefix as early as it is visible.
            self.check_magic(input)?;
            return Ok(None);
        };
        if magic != uuids::TEEHISTORIAN.as_bytes() {
            return Err(Error::new(ErrorKind::BadMagic, self.offset));
        }
        let (header, len) = match Header::read_prefix(rest) {
            Some(plain) => plain,
            None => {
                let json_at = self.offset.saturating_add(MAGIC_LEN);
                let Ok(json) = Cursor::with_base(rest, json_at).cstr_bytes() else {
                    return Ok(None);
                };
                let len = json.len();
                let json = core::str::from_utf8(json).map_err(|e| {
                    Error::new(
                        ErrorKind::InvalidString,
                        json_at.saturating_add(e.valid_up_to()),
                    )
                })?;
                let header = Header::parse(json).map_err(|e| e.shifted(json_at))?;
                (header, len)
            }
        };
        let consumed = len.saturating_add(MAGIC_LEN + 1);
        self.offset = self.offset.saturating_add(consumed);
        self.state = State::Messages;
        self.header = TeehistorianHeader::whole(&header, len);
        self.header_read = true;
        Ok(Some((header, consumed)))
    }

    /// [`short_player_diff_any`] at the decoder's state, for
    /// [`Self::decode`]: the record and its length, or `None` for the
    /// general path, which begins with INPUT_DIFF's short path. (Why the
    /// two apart: see [`TeehistorianIter`](super::TeehistorianIter)'s
    /// `next`, which takes this path in a form of its own that compiled
    /// to fewer instructions in a `for` loop.)
    #[inline(always)]
    pub(crate) fn decode_short<'a>(&mut self, input: &'a [u8]) -> Option<(Record<'a>, usize)> {
        if self.state != State::Messages {
            return None;
        }
        let (message, tick, len) = short_player_diff_any(&mut self.ticks, input)?;
        Some(self.advance(tick, message, len))
    }

    /// The tick state, for a caller that runs [`short_message`] in a loop
    /// of its own, or `None` if the decoder is not between messages.
    #[inline(always)]
    pub(crate) fn short_run_state(&self) -> Option<TickState> {
        (self.state == State::Messages).then_some(self.ticks)
    }

    /// The tick state whatever the decoder's state, for a caller that
    /// knows otherwise that no message is left (`TeehistorianIter::next`
    /// empties its input at FINISH and after an error).
    #[inline(always)]
    pub(crate) const fn ticks(&self) -> TickState {
        self.ticks
    }

    /// Between messages, sets the offset to `offset` (which it is already:
    /// the caller tells it again from its own position); after FINISH or
    /// an error it stays where it is.
    #[inline(always)]
    pub(crate) fn sync_offset(&mut self, offset: usize) {
        if self.state == State::Messages {
            self.offset = offset;
        }
    }

    /// Takes back the state after such a loop, now at file offset `offset`.
    #[inline(always)]
    pub(crate) const fn end_short_run(&mut self, ticks: TickState, offset: usize) {
        self.ticks = ticks;
        self.offset = offset;
    }

    /// The record of `message` at `tick`, which takes the next `len`
    /// bytes: moves past them.
    #[inline(always)]
    fn advance<'a>(&mut self, tick: i32, message: Message<'a>, len: usize) -> (Record<'a>, usize) {
        let offset = self.offset;
        self.offset = offset.saturating_add(len);
        let record = Record {
            tick,
            offset,
            message,
        };
        (record, len)
    }

    /// The message at the start of `input` and its length, or `None` if
    /// `input` does not hold it whole.
    #[inline]
    fn decode_message<'a>(&mut self, input: &'a [u8]) -> Result<Option<(Record<'a>, usize)>> {
        let mut c = Cursor::with_base(input, self.offset);
        let message = match int(&mut c).and_then(|id| read_body(id, &mut c, self.offset)) {
            Ok(m) => m,
            Err(e) if matches!(e.kind, ErrorKind::Truncated | ErrorKind::InvalidVarint) => {
                return Ok(None);
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
        Ok(Some((record, consumed)))
    }
}

/// The largest message a [`Reader`](super::Reader) takes whole: 128 KiB
/// (DDNet's largest payloads are 64 KiB; a longer header comes in
/// pieces).
pub const MAX_RECORD: usize = 1 << 17;

impl stream::Decoder for Decoder {
    type Record<'a> = Item<'a>;

    /// The version and the JSON text's length; the text itself is the
    /// first record.
    type Header = TeehistorianHeader;

    const MAX_RECORD: usize = MAX_RECORD;

    fn decode<'a>(&mut self, input: &'a [u8]) -> Result<Decoded<Item<'a>>> {
        Self::decode(self, input)
    }

    fn decode_piece<'a>(&mut self, input: &'a [u8]) -> Result<Option<(Item<'a>, usize)>> {
        Self::decode_piece(self, input)
    }

    /// A message of the short path (nearly all of them) that `input` holds
    /// whole is told by that path on a copy of the tick state; any other
    /// by reading its packed ints (the message is read, not kept: the
    /// decoder does not change); the header by its NUL.
    fn need_more(&self, input: &[u8]) -> Option<Option<usize>> {
        match self.state {
            State::Messages => {
                let mut ticks = self.ticks;
                if short_message(&mut ticks, input).is_some() {
                    return None;
                }
                let mut c = Cursor::with_base(input, self.offset);
                match int(&mut c).and_then(|id| read_body(id, &mut c, self.offset)) {
                    Err(e) if matches!(e.kind, ErrorKind::Truncated | ErrorKind::InvalidVarint) => {
                        Some(None)
                    }
                    _ => None,
                }
            }
            State::Header => {
                if self.check_magic(input).is_err() {
                    return None;
                }
                match input.get(MAGIC_LEN..) {
                    None => Some(Some(MAGIC_LEN)),
                    Some(rest) => (!rest.contains(&0)).then_some(None),
                }
            }
            State::HeaderPieces => input.is_empty().then_some(None),
            State::Finished | State::Failed(_) => None,
        }
    }

    fn offset(&self) -> usize {
        self.offset
    }

    fn header(&self) -> Option<&TeehistorianHeader> {
        Self::header(self)
    }

    fn end(&self, unconsumed: usize) -> End {
        Self::end(self, unconsumed)
    }
}

/// The fast path for the two messages that make up nearly all of a
/// real recording (on the corpus, PLAYER_DIFF is 90% of messages and
/// INPUT_DIFF 9%, 95% of the bytes between them; on a 128-client
/// server's, 92% and 7%) in their usual shape: every packed int in one
/// byte, but for a cid of 64 or more and an input's aim, in one or two, as
/// a tee's movement and input changes almost always are. One check of the
/// extend flags per shape, then fixed-offset reads. `None` for anything else, which
/// [`Decoder::decode_message`] decodes (it gives the same result for these
/// messages too: the tests compare the two paths on generated messages and
/// every corpus file).
///
/// Returns the message, its tick and its length, having applied it to
/// `ticks`.
#[inline(always)]
pub(crate) fn short_message<'a>(
    ticks: &mut TickState,
    input: &'a [u8],
) -> Option<(Message<'a>, i32, usize)> {
    if let Some(short) = short_player_diff_any(ticks, input) {
        return Some(short);
    }
    short_input_diff(ticks, input)
}

/// The PLAYER_DIFF part of [`short_message`]: [`short_player_diff`], then
/// [`short_player_diff_wide`], on one load of the message's first four
/// bytes. (With a load in each, the first loaded only the three bytes it
/// tests, as a byte and a half-word joined again, and the second loaded
/// them again: a `for` loop per pass took 34.25 M instructions on the
/// corpus and 384.08 M on the 21 MB recording, against 32.39 M and
/// 353.86 M; `for_each` 26.79 M and 275.75 M, against 26.28 M and
/// 259.58 M.)
#[inline(always)]
pub(crate) fn short_player_diff_any<'a>(
    ticks: &mut TickState,
    input: &'a [u8],
) -> Option<(Message<'a>, i32, usize)> {
    let word = first_word(input)?;
    // Not `Option::or_else`: it was not inlined, and its record went
    // through memory.
    if let Some(short) = player_diff_narrow(ticks, word) {
        return Some(short);
    }
    player_diff_wide(ticks, word)
}

/// The PLAYER_DIFF of [`short_message`] whose three ints take a byte each
/// (a cid of 0..=63).
#[inline(always)]
pub(crate) fn short_player_diff<'a>(
    ticks: &mut TickState,
    input: &'a [u8],
) -> Option<(Message<'a>, i32, usize)> {
    player_diff_narrow(ticks, first_word(input)?)
}

/// Whether `input` starts with a message [`short_player_diff`] decodes
/// (unless the tick overflows): a test before calling a loop of them.
#[inline(always)]
pub(crate) fn starts_short_player_diff(input: &[u8]) -> bool {
    first_word(input).is_some_and(|word| word & NARROW_MASK == 0)
}

/// The PLAYER_DIFF part of [`short_message`] for a cid of two bytes
/// (64..=8191: DDNet's servers of more than 64 clients) and moves of a
/// byte each. Separate from [`short_player_diff`], so that each has its
/// own loop: the cids of a tick come in ascending order, those below 64
/// first.
#[inline(always)]
pub(crate) fn short_player_diff_wide<'a>(
    ticks: &mut TickState,
    input: &'a [u8],
) -> Option<(Message<'a>, i32, usize)> {
    player_diff_wide(ticks, first_word(input)?)
}

/// The first four bytes of `input` as a little-endian word, which the
/// PLAYER_DIFF paths test at once (a PLAYER_DIFF that ends the input takes
/// the general path).
#[inline(always)]
fn first_word(input: &[u8]) -> Option<u32> {
    Some(u32::from_le_bytes(*input.first_chunk::<4>()?))
}

/// The bits of a message's first four bytes that are clear in a narrow
/// PLAYER_DIFF: one test for the three bytes (the fourth is ignored); a
/// one-byte non-negative id is a PLAYER_DIFF's cid (0..=63), and its two
/// moves take a byte each.
const NARROW_MASK: u32 = 0x0080_80C0;

/// [`short_player_diff`] on the message's first four bytes, `word`.
#[inline(always)]
fn player_diff_narrow<'a>(ticks: &mut TickState, word: u32) -> Option<(Message<'a>, i32, usize)> {
    if word & NARROW_MASK != 0 {
        return None;
    }
    let [id, dx, dy, _] = word.to_le_bytes();
    player_diff(ticks, i32::from(id), dx, dy, 3)
}

/// [`short_player_diff_wide`] on the message's first four bytes, `word`.
#[inline(always)]
fn player_diff_wide<'a>(ticks: &mut TickState, word: u32) -> Option<(Message<'a>, i32, usize)> {
    // A non-negative id whose first byte goes on into the second, and
    // one-byte moves.
    if word & 0x8080_80C0 != 0x80 {
        return None;
    }
    let [low, high, dx, dy] = word.to_le_bytes();
    // The cid's six low bits, then seven more.
    let cid = i32::from(low & 0x3F) | i32::from(high) << 6;
    player_diff(ticks, cid, dx, dy, 4)
}

/// A PLAYER_DIFF of client `cid` whose moves are the one-byte ints `dx`
/// and `dy`, `len` bytes long: applied to `ticks`, with its tick.
#[inline(always)]
fn player_diff<'a>(
    ticks: &mut TickState,
    cid: i32,
    dx: u8,
    dy: u8,
    len: usize,
) -> Option<(Message<'a>, i32, usize)> {
    let tick = ticks.player_record(cid)?;
    let message = Message::PlayerDiff {
        cid,
        dx: decode_one_byte(dx),
        dy: decode_one_byte(dy),
    };
    Some((message, tick, len))
}

/// The INPUT_DIFF half of [`short_message`]: one whose cid and aim
/// (target x and y) take one or two bytes per int and every other int one
/// byte, as a player's input changes almost always do (two-byte ints
/// elsewhere go to the general path). No branch depends on which of these
/// ints are long, which varies from input to input. The input is kept in
/// its short form ([`PackedInput`]: the aim and eight bytes), so that the
/// record stays 48 bytes.
///
/// Tried against this, on the corpus's 1.5 MB tutorial recording (a `for`
/// loop, callgrind per pass, wall min of 300 passes alternating): a path
/// of its own first for the shape with every int in one byte (54% of its
/// INPUT_DIFFs; 33% have a two-byte aim): 22.10 M → 21.48 M instructions,
/// but 1.35-1.39 ms against 1.24-1.27 (the branch on the shape is
/// mispredicted), and `for_each` over the corpus 24.99 M → 25.49 M; the
/// length told from the bit 7s of bytes 1..=7 (one multiply) instead of
/// from `rest_at`, to shorten the chain of loads to the next message:
/// 22.28 M, 1.27-1.29 ms against 1.22-1.23; the test of the seven bytes
/// in two 32-bit halves (masks in the instructions): 22.21 M, no faster.
#[inline(always)]
pub(crate) fn short_input_diff<'a>(
    ticks: &TickState,
    input: &'a [u8],
) -> Option<(Message<'a>, i32, usize)> {
    // Id, cid and direction; the aim ints after them; the seven other ints
    // after those (at most 1 + 2 + 1 + 4 + 7 = 15 bytes in all). Reading
    // 32 lets a masked offset stand in for a bounds check.
    let bytes = input.first_chunk::<32>()?;
    let &[id, cid0, cid1, ..] = bytes;
    if id != INPUT_DIFF_ID_BYTE {
        return None;
    }
    let byte = |at: usize| bytes.get(at & 31).copied().unwrap_or(0);
    let (cid, cid_len, cid_ends) = decode_up_to_two_bytes(cid0, cid1);
    let direction_at = 1usize.wrapping_add(cid_len);
    let direction = byte(direction_at);
    let x_at = direction_at.wrapping_add(1);
    let (x, x_len, x_ends) = decode_up_to_two_bytes(byte(x_at), byte(x_at.wrapping_add(1)));
    let y_at = x_at.wrapping_add(x_len);
    let (y, y_len, y_ends) = decode_up_to_two_bytes(byte(y_at), byte(y_at.wrapping_add(1)));
    let rest_at = y_at.wrapping_add(y_len);
    let rest = bytes.get(rest_at..rest_at.wrapping_add(8))?;
    let rest = u64::from_le_bytes(rest.try_into().ok()?);
    // The seven other ints, one byte each.
    if !(cid_ends && x_ends && y_ends)
        || (direction & 0x80 != 0)
        || rest & 0x0080_8080_8080_8080 != 0
    {
        return None;
    }
    // The eight one-byte ints at once: six magnitude bits each, flipped
    // where the sign bit 0x40 is set.
    let ones = (rest << 8) | u64::from(direction);
    let signs = (ones >> 6) & 0x0101_0101_0101_0101;
    let ones = (ones & 0x3F3F_3F3F_3F3F_3F3F) ^ signs.wrapping_mul(0xFF);
    let message = Message::InputDiff {
        cid,
        diff: PackedInput::short(ones, x, y),
    };
    Some((message, ticks.tick(), rest_at.wrapping_add(7)))
}

#[cfg(test)]
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    reason = "unit tests: a panic is the failure report"
)]
mod tests {
    use super::super::{ID_INPUT_DIFF, INPUT_INTS};
    use super::*;
    use crate::varint;

    /// Random PLAYER_DIFF and INPUT_DIFF messages (ints of one to five
    /// bytes, most short) and random bytes: wherever the short path
    /// decodes, the general path decodes the same message, length and
    /// tick state.
    #[test]
    fn short_path_equals_general_path() {
        let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        // Short decodes of PLAYER_DIFF and of INPUT_DIFF.
        let mut short = [0; 2];
        for round in 0..200_000 {
            let mut bytes = [0u8; 64];
            let mut len = 0;
            let mut put = |v: i32, bytes: &mut [u8; 64]| {
                let mut buf = [0u8; varint::MAX_LEN];
                let n = varint::encode(v, &mut buf);
                bytes[len..len + n].copy_from_slice(&buf[..n]);
                len += n;
            };
            let r = next();
            // Values: mostly one byte, some two, a few of any size; in
            // every other INPUT_DIFF, the cid (0..128) and the aim (ints 3
            // and 4 of the message) up to two bytes and the rest one, as
            // real inputs.
            let realistic = round % 6 == 1;
            let mut at = 0;
            let mut value = || {
                let r = next();
                at += 1;
                match r % 8 {
                    _ if realistic && at == 1 => ((r >> 8) % 128) as i32,
                    _ if realistic && (at == 3 || at == 4) => ((r >> 8) % 16_384) as i32 - 8192,
                    _ if realistic => ((r >> 8) % 128) as i32 - 64,
                    0 => (r >> 8) as i32,
                    1 | 2 => ((r >> 8) % 16_384) as i32 - 8192,
                    _ => ((r >> 8) % 128) as i32 - 64,
                }
            };
            match round % 3 {
                0 => {
                    for v in [(r % 140) as i32, value(), value()] {
                        put(v, &mut bytes);
                    }
                }
                1 => {
                    put(ID_INPUT_DIFF, &mut bytes);
                    for _ in 0..=INPUT_INTS {
                        put(value(), &mut bytes);
                    }
                }
                _ => {
                    for b in &mut bytes {
                        *b = next() as u8;
                    }
                    len = 64;
                }
            }
            // Random bytes after the message, cut at a random length.
            for b in &mut bytes[len..] {
                *b = next() as u8;
            }
            let input = &bytes[..(len + (next() % 24) as usize).min(64)];
            let mut ticks = TickState {
                tick: (next() % 1000) as i32,
                last: [LAST_START, LAST_SKIP, (next() % 70) as i64][(next() % 3) as usize],
            };
            let before = ticks;
            let Some((message, tick, used)) = short_message(&mut ticks, input) else {
                assert_eq!(ticks, before);
                continue;
            };
            short[usize::from(matches!(message, Message::InputDiff { .. }))] += 1;
            let mut c = Cursor::new(input);
            let general = int(&mut c).and_then(|id| read_body(id, &mut c, 0)).unwrap();
            assert_eq!(message, general, "{input:02x?}");
            assert_eq!(used, c.position(), "{input:02x?}");
            let mut expected = before;
            assert_eq!(expected.apply(&general), Some(tick));
            assert_eq!(ticks, expected);
        }
        assert!(short[0] > 20_000 && short[1] > 5_000, "{short:?}");
    }

    #[test]
    fn input_diff_id_byte() {
        let mut buf = [0u8; varint::MAX_LEN];
        assert_eq!(varint::encode(ID_INPUT_DIFF, &mut buf), 1);
        assert_eq!(buf[0], INPUT_DIFF_ID_BYTE);
    }
}
