//! [`Decoder`]: the one push state machine behind every way of reading a
//! `.slp` stream.

use crate::error::{Error, ErrorKind, Result};
use crate::stream::{self, Decoded, End};

use super::events::Event;
use super::payloads::{FAST_COMMANDS, PayloadSizes};
use super::{CMD_EVENT_PAYLOADS, CMD_GAME_END, HEADER_LEN, METADATA_KEY, SIGNATURE, ubjson};

/// One record of a `.slp` stream, borrowing from the caller's input: what
/// [`Decoder::decode`] and [`Reader`](super::Reader) deliver.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Item<'a> {
    /// The 15-byte file header: the raw array's declared length (0 = the
    /// file was written live and the length never patched).
    Header {
        /// Declared raw length.
        raw_len: u32,
    },
    /// One whole event.
    Event(Event<'a>),
    /// The metadata element's UBJSON value (starting at `{`); parse it with
    /// [`super::Metadata::parse`].
    Metadata(&'a [u8]),
}

/// The facts of a `.slp` file's 15-byte header that the [`Decoder`] keeps
/// once it has decoded it ([`stream::Decoder::header`], and `header()` on
/// every reader): the declared length of the raw events. The header
/// itself comes as the first record, [`Item::Header`].
///
/// ```
/// use gamefmt::slippi::{Reader, SAMPLE};
///
/// let mut reader = Reader::new(SAMPLE);
/// assert_eq!(reader.header(), None); // nothing decoded yet
/// reader.next().transpose()?; // the header, the first record
/// let raw_len = reader.header().map(|h| h.raw_len());
/// assert!(raw_len.is_some_and(|n| n > 0));
/// # Ok::<(), gamefmt::stream::ReadError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SlippiHeader {
    raw_len: u32,
}

impl SlippiHeader {
    /// The raw array's declared length: the bytes of the raw events (0 =
    /// the file was written live and the length never patched).
    #[must_use]
    pub const fn raw_len(&self) -> u32 {
        self.raw_len
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Header,
    Payloads,
    Events,
    AfterRaw,
    Closing,
    Done,
}

/// What a step of the state machine decoded, without borrowing the input
/// (the record is `input[..used]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Header(u32),
    Event,
    /// The metadata value starts this many bytes into the record.
    Metadata(usize),
    /// The least input length that holds the next record, when known.
    NeedMore(Option<usize>),
    Done,
}

/// A push decoder for `.slp` streams: the caller owns the bytes and feeds
/// whatever it has; each call decodes at most one record and says how many
/// bytes it consumed. Nothing is allocated; the decoder itself holds the
/// payload size table and a few counters.
///
/// It follows the [stream contract](crate::stream): error offsets count
/// from the start of the stream, it is fused after an error, and
/// [`Decoder::end`] tells how the stream ended.
///
/// ```
/// use gamefmt::slippi::{Decoder, Item};
/// use gamefmt::stream::{Decoded, End};
/// # let file = gamefmt::slippi::SAMPLE;
/// let mut decoder = Decoder::new();
/// let mut pending: Vec<u8> = Vec::new();
/// let mut events = 0;
/// for chunk in file.chunks(7) {           // bytes arriving a few at a time
///     pending.extend_from_slice(chunk);
///     let mut used = 0;
///     while let Decoded::Record { record, consumed } = decoder.decode(&pending[used..])? {
///         used += consumed;
///         if let Item::Event(_) = record {
///             events += 1;
///         }
///     }
///     pending.drain(..used);
/// }
/// assert_eq!(events, 9);
/// assert_eq!(decoder.end(pending.len()), End::Complete);
/// # Ok::<(), gamefmt::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Decoder {
    state: State,
    sizes: PayloadSizes,
    /// The header's facts (the raw length 0 before the header).
    header: SlippiHeader,
    /// Where raw ends, counted like `offset` (`usize::MAX` when `raw_len`
    /// is 0).
    raw_end: usize,
    offset: usize,
    game_end: bool,
    failed: Option<Error>,
    /// The fast path's table: the whole length (command byte included) of
    /// every command an event of which [`Self::fast_event`] may take; 0 for
    /// the others, and for all while the decoder is not among the raw
    /// events (or after Game End, or fused), so that one load and one
    /// compare decide. Commands from [`FAST_COMMANDS`] up (none known)
    /// take the full path: the table stays small enough for the C ABI's
    /// fixed-size decoder.
    fast: [u16; FAST_COMMANDS],
    fast_on: bool,
    /// Raw events only, without the file's header and metadata: what a
    /// console, relay or Dolphin feed carries (see [`Decoder::events_only`]).
    events_only: bool,
}

impl Default for Decoder {
    fn default() -> Self {
        Self::new()
    }
}

impl Decoder {
    /// A decoder expecting the start of a file.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            state: State::Header,
            sizes: PayloadSizes::new(),
            header: SlippiHeader { raw_len: 0 },
            raw_end: usize::MAX,
            offset: 0,
            game_end: false,
            failed: None,
            fast: [0; FAST_COMMANDS],
            fast_on: false,
            events_only: false,
        }
    }

    /// A decoder for one game's raw events alone, without the file's
    /// 15-byte header, metadata and closing `}`: what a console, a relay
    /// or a Dolphin spectator feed sends (see [`super::live`]). The first
    /// event must be Event Payloads; there is no declared raw length, so
    /// the events end where the input does ([`Decoder::end`] answers
    /// [`End::Complete`] once Game End was decoded, [`End::Eof`] at an
    /// event boundary before it). Error offsets count from the first
    /// event.
    #[must_use]
    pub const fn events_only() -> Self {
        let mut d = Self::new();
        d.state = State::Payloads;
        d.events_only = true;
        d
    }

    /// Decodes the next record from `input` (the bytes not consumed so
    /// far): the record and how many bytes of `input` it used, or
    /// [`Decoded::NeedMore`], or [`Decoded::Done`] after the file's closing
    /// `}` (bytes after it are not read).
    ///
    /// # Errors
    /// [`ErrorKind::BadMagic`] for a file that does not start with the
    /// `.slp` header; [`ErrorKind::Corrupt`] for a bad payload table, a
    /// command missing from it, an event crossing
    /// the declared raw length, or a damaged metadata element. Error
    /// offsets count from the start of the stream. Fused afterwards.
    pub fn decode<'a>(&mut self, input: &'a [u8]) -> Result<Decoded<Item<'a>>> {
        let (step, used) = self.step(input)?;
        let bytes = input.get(..used).unwrap_or_default();
        let record = match step {
            Step::Header(raw_len) => Item::Header { raw_len },
            Step::Event => Item::Event(Event::parse(bytes)),
            Step::Metadata(start) => Item::Metadata(bytes.get(start..).unwrap_or_default()),
            Step::NeedMore(needed) => return Ok(Decoded::NeedMore { needed }),
            Step::Done => return Ok(Decoded::Done { consumed: used }),
        };
        Ok(Decoded::Record {
            record,
            consumed: used,
        })
    }

    /// How the stream ended if the input ends now, with `unconsumed` bytes
    /// fed but not consumed: [`End::Complete`] once Game End was decoded;
    /// [`End::Eof`] at an event boundary or after the raw events;
    /// [`End::Truncated`] inside the header or an event;
    /// [`End::Damaged`] after an error in the raw events (damage in the
    /// metadata, after them, does not change how the events ended).
    #[must_use]
    pub fn end(&self, unconsumed: usize) -> End {
        if let Some(e) = self.failed.filter(|_| self.in_raw()) {
            return End::Damaged(e);
        }
        if self.game_end {
            return End::Complete;
        }
        let truncated = End::Truncated {
            offset: self.offset,
        };
        match self.state {
            State::Header => truncated,
            State::Payloads | State::Events if unconsumed > 0 => truncated,
            _ => End::Eof,
        }
    }

    /// The declared raw length; `None` before the header was decoded, and
    /// `Some(0)` for a file whose length was never patched.
    #[must_use]
    pub fn raw_len(&self) -> Option<u32> {
        (self.state != State::Header).then_some(self.header.raw_len)
    }

    /// The file header's facts, once the header was decoded (the first
    /// record, [`Item::Header`]); `None` before, and always for
    /// [`Decoder::events_only`].
    #[must_use]
    pub fn header(&self) -> Option<&SlippiHeader> {
        (self.state != State::Header && !self.events_only).then_some(&self.header)
    }

    /// The payload size table (empty before the Event Payloads event).
    #[must_use]
    pub const fn payload_sizes(&self) -> &PayloadSizes {
        &self.sizes
    }

    /// Whether a Game End event was decoded.
    #[must_use]
    pub const fn game_end_seen(&self) -> bool {
        self.game_end
    }

    /// Bytes consumed since the start of the stream.
    #[must_use]
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// Whether the decoder is still before the end of the raw events.
    #[must_use]
    pub fn in_raw(&self) -> bool {
        matches!(self.state, State::Header | State::Payloads | State::Events)
    }

    fn consume(&mut self, step: Step, used: usize) -> Result<(Step, usize)> {
        self.offset = self.offset.saturating_add(used);
        if matches!(self.state, State::Payloads | State::Events) && self.at_raw_end() {
            self.state = State::AfterRaw;
        }
        Ok((step, used))
    }

    /// The next event and the input after it when it is an ordinary one that the
    /// full [`Decoder::step`] would accept and that leaves the decoder in
    /// the same state (a known, non-empty command, wholly in `input`, not
    /// Game End, not reaching the declared end of raw); the decoder is then
    /// advanced past it. `None` otherwise, and nothing changes: the caller
    /// takes the full path. The hot loop of [`super::SlippiEventIter`].
    #[inline(always)]
    pub(crate) fn fast_event<'a>(&mut self, input: &'a [u8]) -> Option<(&'a [u8], &'a [u8])> {
        let (n, pos) = self.fast_event_end(input)?;
        // A read a few cache lines ahead, kept by `black_box` though unused:
        // the line is then in L1 when the walk gets there. Each event's
        // position waits on its command byte's load; from L2 that load
        // took longer than the rest of the event (a bare walk over files
        // in L2: 10.1-10.3 -> 12.4-13.4 GB/s, memcpy 16.3 GB/s).
        core::hint::black_box(input.get(READ_AHEAD).copied());
        let split = input.split_at_checked(n)?;
        self.offset = pos;
        Some(split)
    }

    /// Skips the ordinary events at the start of `input` (each one
    /// [`Self::fast_event`] would take) and returns the input after them:
    /// a walk of the event sizes alone, without splitting each event off
    /// or reading ahead. [`super::SlippiView`]'s walk to the end of raw.
    pub(crate) fn skip_fast<'a>(&mut self, mut input: &'a [u8]) -> &'a [u8] {
        while let Some((n, pos)) = self.fast_event_end(input) {
            self.offset = pos;
            input = input.get(n..).unwrap_or_default();
        }
        input
    }

    /// [`Self::fast_event`] without moving: the event's length and the raw
    /// position after it.
    #[inline(always)]
    fn fast_event_end(&self, input: &[u8]) -> Option<(usize, usize)> {
        let &code = input.first()?;
        let n = usize::from(*self.fast.get(usize::from(code))?);
        if n == 0 || n > input.len() {
            return None;
        }
        let pos = self.offset.saturating_add(n);
        if pos >= self.raw_end {
            return None;
        }
        Some((n, pos))
    }

    /// Whether the raw events end at `offset` (never when `raw_len` is 0:
    /// `raw_end` is then `usize::MAX`).
    fn at_raw_end(&self) -> bool {
        self.offset >= self.raw_end
    }

    /// Turns the fast path's table on when the decoder is among the raw
    /// events (before Game End, not fused), off otherwise.
    fn update_fast(&mut self) {
        let on = self.state == State::Events && !self.game_end && self.failed.is_none();
        if on != self.fast_on {
            self.fast_on = on;
            if on {
                self.sizes.fast_lens_into(&mut self.fast);
            } else {
                self.fast = [0; FAST_COMMANDS];
            }
        }
    }

    fn corrupt(&self, what: &'static str) -> Error {
        Error::corrupt(what, self.offset)
    }

    /// The state machine proper; see [`Decoder::decode`]. Fused after an
    /// error.
    fn step(&mut self, input: &[u8]) -> Result<(Step, usize)> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        let result = self.step_unfused(input);
        if let Err(e) = result {
            self.failed = Some(e);
        }
        self.update_fast();
        result
    }

    fn step_unfused(&mut self, input: &[u8]) -> Result<(Step, usize)> {
        loop {
            match self.state {
                State::Header => {
                    let sig_len = SIGNATURE.len().min(input.len());
                    if input.get(..sig_len) != SIGNATURE.get(..sig_len) {
                        return Err(Error::new(ErrorKind::BadMagic, self.offset));
                    }
                    let Some(len) = input.get(SIGNATURE.len()..HEADER_LEN) else {
                        return Ok((Step::NeedMore(Some(HEADER_LEN)), 0));
                    };
                    let mut be = [0u8; 4];
                    be.copy_from_slice(len);
                    self.header.raw_len = u32::from_be_bytes(be);
                    self.raw_end = match usize::try_from(self.header.raw_len) {
                        Ok(len) if len != 0 => len.saturating_add(HEADER_LEN),
                        _ => usize::MAX,
                    };
                    self.offset = self.offset.saturating_add(HEADER_LEN);
                    self.state = State::Payloads;
                    return Ok((Step::Header(self.header.raw_len), HEADER_LEN));
                }
                State::Payloads => {
                    let Some(&code) = input.first() else {
                        return Ok((Step::NeedMore(Some(2)), 0));
                    };
                    if code != CMD_EVENT_PAYLOADS {
                        return Err(
                            self.corrupt("stream does not start with Event Payloads (0x35)")
                        );
                    }
                    let Some(&size) = input.get(1) else {
                        return Ok((Step::NeedMore(Some(2)), 0));
                    };
                    if size % 3 != 1 {
                        return Err(Error::corrupt(
                            "Event Payloads size is not 3n+1",
                            self.offset.saturating_add(1),
                        ));
                    }
                    let n = usize::from(size).saturating_add(1);
                    self.check_fits_raw(n)?;
                    let Some(event) = input.get(..n) else {
                        return Ok((Step::NeedMore(Some(n)), 0));
                    };
                    self.sizes.parse_checked(event);
                    self.state = State::Events;
                    return self.consume(Step::Event, n);
                }
                State::Events => {
                    if self.at_raw_end() {
                        self.state = State::AfterRaw;
                        continue;
                    }
                    let Some(&code) = input.first() else {
                        return Ok((Step::NeedMore(Some(1)), 0));
                    };
                    let size = self.sizes.get(code);
                    if self.header.raw_len == 0
                        && !self.events_only
                        && (self.game_end || size.is_none())
                    {
                        match raw_end_follows(input) {
                            Some(true) => {
                                self.state = State::AfterRaw;
                                continue;
                            }
                            None => return Ok((Step::NeedMore(None), 0)),
                            Some(false) => {}
                        }
                    }
                    let Some(size) = size else {
                        return Err(self.corrupt("command not in the Event Payloads table"));
                    };
                    // Size 0: the command byte alone, as slippi-js reads it.
                    let n = usize::from(size).saturating_add(1);
                    self.check_fits_raw(n)?;
                    if input.len() < n {
                        return Ok((Step::NeedMore(Some(n)), 0));
                    }
                    if code == CMD_GAME_END {
                        self.game_end = true;
                    }
                    return self.consume(Step::Event, n);
                }
                State::AfterRaw => {
                    let Some(&first) = input.first() else {
                        return Ok((Step::NeedMore(Some(1)), 0));
                    };
                    if first == b'}' {
                        self.state = State::Done;
                        return self.consume(Step::Done, 1);
                    }
                    let key_len = METADATA_KEY.len().min(input.len());
                    if input.get(..key_len) != METADATA_KEY.get(..key_len) {
                        return Err(self.corrupt("expected the metadata element after raw"));
                    }
                    let Some(value) = input.get(METADATA_KEY.len()..) else {
                        return Ok((Step::NeedMore(Some(METADATA_KEY.len())), 0));
                    };
                    match ubjson::value_len(value) {
                        Ok(n) => {
                            self.state = State::Closing;
                            let used = n.saturating_add(METADATA_KEY.len());
                            return self.consume(Step::Metadata(METADATA_KEY.len()), used);
                        }
                        Err(e) if e.kind == ErrorKind::Truncated => {
                            return Ok((Step::NeedMore(None), 0));
                        }
                        Err(e) => {
                            return Err(e.shifted(self.offset.saturating_add(METADATA_KEY.len())));
                        }
                    }
                }
                State::Closing => {
                    return match input.first() {
                        None => Ok((Step::NeedMore(Some(1)), 0)),
                        Some(b'}') => {
                            self.state = State::Done;
                            self.consume(Step::Done, 1)
                        }
                        Some(_) => Err(self.corrupt("expected the end of the file object")),
                    };
                }
                State::Done => return Ok((Step::Done, 0)),
            }
        }
    }

    /// [`stream::Decoder::need_more`]: the framing checks of
    /// [`Decoder::step_unfused`] alone, on `&self`: `Some(needed)` where it
    /// would answer [`Step::NeedMore`], `None` where it would answer
    /// anything else. (A test holds the two equal on every prefix of real
    /// files.)
    fn framing(&self, input: &[u8]) -> Option<Option<usize>> {
        let mut state = self.state;
        loop {
            match state {
                State::Header => {
                    let sig_len = SIGNATURE.len().min(input.len());
                    if input.get(..sig_len) != SIGNATURE.get(..sig_len) {
                        return None;
                    }
                    return (input.len() < HEADER_LEN).then_some(Some(HEADER_LEN));
                }
                State::Payloads => {
                    let Some(&code) = input.first() else {
                        return Some(Some(2));
                    };
                    if code != CMD_EVENT_PAYLOADS {
                        return None;
                    }
                    let Some(&size) = input.get(1) else {
                        return Some(Some(2));
                    };
                    if size % 3 != 1 {
                        return None;
                    }
                    let n = usize::from(size).saturating_add(1);
                    return self.event_needs(input, n);
                }
                State::Events => {
                    if self.at_raw_end() {
                        state = State::AfterRaw;
                        continue;
                    }
                    let Some(&code) = input.first() else {
                        return Some(Some(1));
                    };
                    let size = self.sizes.get(code);
                    if self.header.raw_len == 0
                        && !self.events_only
                        && (self.game_end || size.is_none())
                    {
                        match raw_end_follows(input) {
                            Some(true) => {
                                state = State::AfterRaw;
                                continue;
                            }
                            None => return Some(None),
                            Some(false) => {}
                        }
                    }
                    let n = usize::from(size?).saturating_add(1);
                    return self.event_needs(input, n);
                }
                State::AfterRaw => {
                    let Some(&first) = input.first() else {
                        return Some(Some(1));
                    };
                    if first == b'}' {
                        return None;
                    }
                    let key_len = METADATA_KEY.len().min(input.len());
                    if input.get(..key_len) != METADATA_KEY.get(..key_len) {
                        return None;
                    }
                    let Some(value) = input.get(METADATA_KEY.len()..) else {
                        return Some(Some(METADATA_KEY.len()));
                    };
                    return match ubjson::value_len(value) {
                        Err(e) if e.kind == ErrorKind::Truncated => Some(None),
                        _ => None,
                    };
                }
                State::Closing => return input.is_empty().then_some(Some(1)),
                State::Done => return None,
            }
        }
    }

    /// [`Decoder::framing`] of an event of `n` bytes: more needed unless it
    /// crosses the raw end (an error) or `input` holds it.
    fn event_needs(&self, input: &[u8], n: usize) -> Option<Option<usize>> {
        if self.check_fits_raw(n).is_err() {
            return None;
        }
        (input.len() < n).then_some(Some(n))
    }

    /// Fails when an event of `n` bytes would cross the declared raw end.
    fn check_fits_raw(&self, n: usize) -> Result<()> {
        if self.offset.saturating_add(n) > self.raw_end {
            return Err(self.corrupt("event crosses the declared end of raw"));
        }
        Ok(())
    }
}

/// How far ahead of an event the fast path touches the input (bytes).
const READ_AHEAD: usize = 320;

/// Whether `input` starts with what follows the raw array (the metadata
/// key or the closing `}`); `None` when too few bytes to tell.
fn raw_end_follows(input: &[u8]) -> Option<bool> {
    if input.first() == Some(&b'}') {
        return Some(true);
    }
    let n = METADATA_KEY.len().min(input.len());
    if input.get(..n) != METADATA_KEY.get(..n) {
        return Some(false);
    }
    (n == METADATA_KEY.len()).then_some(true)
}

impl stream::Decoder for Decoder {
    type Record<'a> = Item<'a>;

    type Header = SlippiHeader;

    /// An event is at most 1 + 65 535 bytes; the metadata of real files is
    /// a few hundred bytes, and this leaves it room.
    const MAX_RECORD: usize = MAX_RECORD;

    fn decode<'a>(&mut self, input: &'a [u8]) -> Result<Decoded<Item<'a>>> {
        Self::decode(self, input)
    }

    /// Told from the framing alone, without copying the decoder (its
    /// tables take about 700 bytes): an ordinary event from its command
    /// byte and the payload sizes (the fast path's table), anything else
    /// by the same checks as the decode, on `&self`.
    fn need_more(&self, input: &[u8]) -> Option<Option<usize>> {
        if self.fast_event_end(input).is_some() || self.failed.is_some() {
            return None;
        }
        self.framing(input)
    }

    fn offset(&self) -> usize {
        self.offset
    }

    /// Once the file's header was decoded; never for
    /// [`Decoder::events_only`] (a feed without the file's header).
    fn header(&self) -> Option<&SlippiHeader> {
        Self::header(self)
    }

    fn end(&self, unconsumed: usize) -> End {
        Self::end(self, unconsumed)
    }
}

/// The largest record of a `.slp` stream a [`Reader`](super::Reader)
/// accepts: 128 KiB (an event is at most 1 + 65 535 bytes; the rest is
/// room for the metadata element).
pub const MAX_RECORD: usize = 1 << 17;
