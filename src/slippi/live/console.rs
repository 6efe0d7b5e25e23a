//! The console and relay framing: a big-endian `u32` length, then one
//! UBJSON message (handshake, replay data, keep-alive), as a Wii running
//! Slippi Nintendont or a Slippi relay sends it over TCP; or, for old
//! Nintendont builds and some relays, the raw replay bytes alone (the
//! *legacy* stream).
//!
//! The reference is slippi-js 9.1.2: `ConsoleCommunication` (framing,
//! `genHandshakeOut`) and `ConsoleConnection` (`_getInitialCommState`,
//! `_processMessage`).

use crate::error::{Error, ErrorKind, Result};
use crate::stream::{self, Decoded, End};

use super::super::ubjson::{self, Container, Value};

/// The 9 bytes a framed stream has after its first length: the opening
/// of a handshake message, `{"type": 1` with the type a `U` (uint8).
/// slippi-js tells the framed protocol from the legacy raw stream by them.
pub const HANDSHAKE_OPENING: [u8; 9] = [0x7b, 0x69, 0x04, b't', b'y', b'p', b'e', 0x55, 0x01];

/// The largest console message accepted (1 MiB): the console sends a few
/// kilobytes at a time; a longer length is damage, not a reason to wait.
pub const MAX_MESSAGE: usize = 1 << 20;

/// Length of the handshake a client sends ([`client_handshake`]).
pub const CLIENT_HANDSHAKE_LEN: usize = 83;

/// The console's position in its stream of replay bytes: 8 bytes, compared
/// as a big-endian number.
pub type ConsoleCursor = [u8; 8];

/// Message type numbers (slippi-js `CommunicationType`).
const TYPE_HANDSHAKE: i64 = 1;
const TYPE_REPLAY: i64 = 2;
const TYPE_KEEP_ALIVE: i64 = 3;

/// Which of the two protocols a console connection speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Protocol {
    /// Length-prefixed UBJSON messages.
    Framed,
    /// Raw replay bytes (old Nintendont, some relays).
    Legacy,
}

impl Protocol {
    /// `"framed"` or `"legacy"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Framed => "framed",
            Self::Legacy => "legacy",
        }
    }

    /// slippi-js's rule, applied to the first bytes received: framed when
    /// bytes 4..13 are [`HANDSHAKE_OPENING`]; legacy otherwise, and when
    /// fewer than 13 bytes came (slippi-js decides on its first read,
    /// whatever its length; [`ConsoleDecoder::new`] waits for 13 bytes).
    #[must_use]
    pub fn detect(first: &[u8]) -> Self {
        match first.get(4..13) {
            Some(opening) if opening == HANDSHAKE_OPENING => Self::Framed,
            _ => Self::Legacy,
        }
    }
}

/// The console's handshake: who it is and where its replay bytes start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Handshake<'a> {
    /// The console's nickname (`nick`), when sent.
    pub nick: Option<&'a str>,
    /// The Nintendont version (`nintendontVersion`), when sent.
    pub nintendont_version: Option<&'a str>,
    /// The token to send back in the next handshake (`clientToken`, 4
    /// bytes big-endian), when sent.
    pub client_token: Option<u32>,
    /// Where the console's replay bytes start (`pos`).
    pub pos: ConsoleCursor,
}

/// How a replay message's cursor follows the one expected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", rename_all = "snake_case"))]
pub enum Continuity {
    /// `pos` is the cursor expected: no byte was skipped.
    Continuous,
    /// `forcePos` was set: the console's buffer overflowed and bytes have
    /// likely been skipped (slippi-js warns and goes on).
    Forced {
        /// The cursor expected.
        expected: ConsoleCursor,
    },
    /// `pos` is not the cursor expected and `forcePos` is not set
    /// (slippi-js throws and reconnects).
    Unexpected {
        /// The cursor expected.
        expected: ConsoleCursor,
    },
}

impl Continuity {
    /// `"continuous"`, `"forced"` or `"unexpected"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Continuous => "continuous",
            Self::Forced { .. } => "forced",
            Self::Unexpected { .. } => "unexpected",
        }
    }
}

/// A replay data message: a piece of the game's raw event bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Replay<'a> {
    /// The cursor of these bytes (`pos`).
    pub pos: ConsoleCursor,
    /// The cursor of the next message (`nextPos`).
    pub next_pos: ConsoleCursor,
    /// `forcePos`: the console jumped ahead after an overflow.
    pub force_pos: bool,
    /// The replay bytes (`data`).
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::vocabulary::serialize_bytes")
    )]
    pub data: &'a [u8],
    /// How `pos` follows the cursor expected.
    pub continuity: Continuity,
}

impl Replay<'_> {
    /// How many bytes were skipped before this message: `pos` minus the
    /// cursor expected, read as big-endian numbers; `None` when the
    /// message is continuous or `pos` is not ahead.
    #[must_use]
    pub fn skipped(&self) -> Option<u64> {
        let expected = match self.continuity {
            Continuity::Continuous => return None,
            Continuity::Forced { expected } | Continuity::Unexpected { expected } => expected,
        };
        u64::from_be_bytes(self.pos)
            .checked_sub(u64::from_be_bytes(expected))
            .filter(|&n| n > 0)
    }
}

/// One message of a console connection, borrowing from the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", rename_all = "snake_case"))]
#[non_exhaustive]
pub enum ConsoleMessage<'a> {
    /// Type 1: the console's handshake.
    Handshake(Handshake<'a>),
    /// Type 2: replay bytes.
    Replay(Replay<'a>),
    /// Type 3: keep-alive.
    KeepAlive,
    /// Another type: the whole UBJSON message.
    Unknown {
        /// Its `type`, when an integer.
        message_type: Option<i64>,
        /// The message (UBJSON).
        #[cfg_attr(
            feature = "serde",
            serde(serialize_with = "crate::vocabulary::serialize_bytes")
        )]
        message: &'a [u8],
    },
    /// Replay bytes of a legacy (unframed) stream: all the input given.
    Legacy {
        /// The bytes.
        #[cfg_attr(
            feature = "serde",
            serde(serialize_with = "crate::vocabulary::serialize_bytes")
        )]
        data: &'a [u8],
    },
}

impl ConsoleMessage<'_> {
    /// `"handshake"`, `"replay"`, `"keep_alive"`, `"unknown"` or `"legacy"`.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self {
            Self::Handshake(_) => "handshake",
            Self::Replay(_) => "replay",
            Self::KeepAlive => "keep_alive",
            Self::Unknown { .. } => "unknown",
            Self::Legacy { .. } => "legacy",
        }
    }

    /// The replay bytes this message carries (replay data, legacy bytes).
    #[must_use]
    pub const fn replay_bytes(&self) -> Option<&[u8]> {
        match self {
            Self::Replay(r) => Some(r.data),
            Self::Legacy { data } => Some(data),
            _ => None,
        }
    }
}

/// A push decoder for what a console or relay sends: the caller feeds the
/// bytes it has not had consumed yet (the [stream contract](crate::stream)),
/// and gets one [`ConsoleMessage`] at a time. It tells the framed protocol
/// from the legacy stream on the first 13 bytes, and checks every replay
/// message's cursor against the one expected (from the handshake, then each
/// message's `nextPos`), reporting each jump in [`Replay::continuity`].
/// Nothing is allocated. Fused after an error; error offsets count from
/// the first byte fed.
#[derive(Clone, Debug)]
pub struct ConsoleDecoder {
    protocol: Option<Protocol>,
    expected: ConsoleCursor,
    offset: usize,
    failed: Option<Error>,
}

impl Default for ConsoleDecoder {
    fn default() -> Self {
        Self::new()
    }
}

impl ConsoleDecoder {
    /// A decoder that detects the protocol on the first 13 bytes, expecting
    /// the cursor 0 as slippi-js does before the handshake.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            protocol: None,
            expected: [0; 8],
            offset: 0,
            failed: None,
        }
    }

    /// A decoder for a known protocol (no detection).
    #[must_use]
    pub const fn with_protocol(protocol: Protocol) -> Self {
        let mut d = Self::new();
        d.protocol = Some(protocol);
        d
    }

    /// The protocol, once detected.
    #[must_use]
    pub const fn protocol(&self) -> Option<Protocol> {
        self.protocol
    }

    /// The cursor the next replay message should carry: what to send in
    /// the handshake of a reconnection ([`client_handshake`]).
    #[must_use]
    pub const fn expected_cursor(&self) -> ConsoleCursor {
        self.expected
    }

    /// A decoder for a new connection to the same console after the last
    /// one dropped: the framing starts afresh (the protocol detected
    /// again, offsets from the new connection's first byte, an error
    /// forgotten) and the cursor expected carries over, to be sent in the
    /// new connection's [`client_handshake`] as slippi-js's
    /// `ConsoleConnection` does when it reconnects.
    ///
    /// ```
    /// use gamefmt::slippi::live::{ConsoleDecoder, ConsoleMessage, Continuity, Handshake, Replay, encode_message};
    /// use gamefmt::stream::Decoded;
    ///
    /// // What a console sends on a connection: its handshake, then replay data.
    /// let send = |messages: &[ConsoleMessage<'_>]| -> gamefmt::Result<Vec<u8>> {
    ///     let (mut wire, mut buf) = (Vec::new(), [0u8; 256]);
    ///     for m in messages {
    ///         let n = encode_message(m, &mut buf)?;
    ///         wire.extend_from_slice(&buf[..n]);
    ///     }
    ///     Ok(wire)
    /// };
    /// let handshake = |pos: u64| ConsoleMessage::Handshake(Handshake {
    ///     nick: None, nintendont_version: None, client_token: Some(7), pos: pos.to_be_bytes(),
    /// });
    /// let replay = |pos: u64, next: u64, data| ConsoleMessage::Replay(Replay {
    ///     pos: pos.to_be_bytes(), next_pos: next.to_be_bytes(), force_pos: false,
    ///     data, continuity: Continuity::Continuous,
    /// });
    /// let wire = send(&[handshake(0), replay(0, 3, b"abc")])?;
    /// let mut first = ConsoleDecoder::new();
    /// let mut at = 0;
    /// while let Decoded::Record { consumed, .. } = first.decode(&wire[at..])? {
    ///     at += consumed;
    /// }
    /// // The connection drops; the next one asks to resume at byte 3.
    /// let mut next = first.reconnected();
    /// assert_eq!((next.expected_cursor(), next.offset()), (3u64.to_be_bytes(), 0));
    /// let wire = send(&[handshake(3), replay(3, 5, b"de")])?;
    /// let Decoded::Record { consumed, .. } = next.decode(&wire)? else { panic!("a handshake") };
    /// let Decoded::Record { record: ConsoleMessage::Replay(r), .. } = next.decode(&wire[consumed..])? else {
    ///     panic!("a replay message");
    /// };
    /// assert_eq!((r.continuity, r.data), (Continuity::Continuous, &b"de"[..]));
    /// # Ok::<(), gamefmt::Error>(())
    /// ```
    #[must_use]
    pub const fn reconnected(&self) -> Self {
        let mut d = Self::new();
        d.expected = self.expected;
        d
    }

    /// Bytes consumed since the first byte fed.
    #[must_use]
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// Decodes the next message from `input` (the bytes not consumed so
    /// far): a message and the bytes it took, or [`Decoded::NeedMore`].
    /// A legacy stream's message is all of `input` (and `NeedMore` when it
    /// is empty).
    ///
    /// # Errors
    /// [`ErrorKind::Corrupt`] for a message longer than [`MAX_MESSAGE`],
    /// a message that is not one whole UBJSON object, or a handshake or
    /// replay message without its cursors or data; offsets from the first
    /// byte fed. Fused afterwards.
    pub fn decode<'a>(&mut self, input: &'a [u8]) -> Result<Decoded<ConsoleMessage<'a>>> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        let out = self.decode_unfused(input);
        match out {
            Err(e) => self.failed = Some(e),
            Ok(Decoded::Record { consumed, .. }) => {
                self.offset = self.offset.saturating_add(consumed);
            }
            Ok(_) => {}
        }
        out
    }

    fn decode_unfused<'a>(&mut self, input: &'a [u8]) -> Result<Decoded<ConsoleMessage<'a>>> {
        let protocol = match self.protocol {
            Some(p) => p,
            None if input.len() < 13 => return Ok(Decoded::NeedMore { needed: Some(13) }),
            None => *self.protocol.insert(Protocol::detect(input)),
        };
        if protocol == Protocol::Legacy {
            if input.is_empty() {
                return Ok(Decoded::NeedMore { needed: Some(1) });
            }
            return Ok(Decoded::Record {
                record: ConsoleMessage::Legacy { data: input },
                consumed: input.len(),
            });
        }
        let Some(len) = input.first_chunk::<4>() else {
            return Ok(Decoded::NeedMore { needed: Some(4) });
        };
        let len = usize::try_from(u32::from_be_bytes(*len)).unwrap_or(usize::MAX);
        if len > MAX_MESSAGE {
            return Err(Error::corrupt(
                "console message longer than MAX_MESSAGE",
                self.offset,
            ));
        }
        let whole = len.saturating_add(4);
        let Some(body) = input.get(4..whole) else {
            return Ok(Decoded::NeedMore {
                needed: Some(whole),
            });
        };
        let base = self.offset.saturating_add(4);
        let record = self.message(body).map_err(|e| e.shifted(base))?;
        Ok(Decoded::Record {
            record,
            consumed: whole,
        })
    }

    /// Reads one message body; error offsets relative to it.
    fn message<'a>(&mut self, body: &'a [u8]) -> Result<ConsoleMessage<'a>> {
        let (value, used) = ubjson::parse_value(body).map_err(|e| match e.kind {
            ErrorKind::Truncated => {
                Error::corrupt("console message ends inside its UBJSON", e.offset)
            }
            _ => e,
        })?;
        if used != body.len() {
            return Err(Error::corrupt(
                "bytes after the console message's UBJSON",
                used,
            ));
        }
        let Some(object) = value.as_object() else {
            return Err(Error::corrupt("console message is not a UBJSON object", 0));
        };
        let [kind, payload] = object.get_many(["type", "payload"]);
        let kind = kind.and_then(|k| k.as_int());
        let payload = payload.and_then(|p| p.as_object());
        Ok(match (kind, payload) {
            (Some(TYPE_HANDSHAKE), Some(p)) => ConsoleMessage::Handshake(self.handshake(p)?),
            (Some(TYPE_REPLAY), Some(p)) => ConsoleMessage::Replay(self.replay(p)?),
            (Some(TYPE_KEEP_ALIVE), _) => ConsoleMessage::KeepAlive,
            (Some(TYPE_HANDSHAKE | TYPE_REPLAY), None) => {
                return Err(Error::corrupt("console message without its payload", 0));
            }
            _ => ConsoleMessage::Unknown {
                message_type: kind,
                message: body,
            },
        })
    }

    fn handshake<'a>(&mut self, p: Container<'a>) -> Result<Handshake<'a>> {
        let [nick, version, token, pos] =
            p.get_many(["nick", "nintendontVersion", "clientToken", "pos"]);
        let pos = pos
            .and_then(fixed::<8>)
            .ok_or(Error::corrupt("handshake without an 8-byte pos", 0))?;
        self.expected = pos;
        Ok(Handshake {
            nick: nick.and_then(|v| v.as_str()),
            nintendont_version: version.and_then(|v| v.as_str()),
            client_token: token.and_then(fixed::<4>).map(u32::from_be_bytes),
            pos,
        })
    }

    fn replay<'a>(&mut self, p: Container<'a>) -> Result<Replay<'a>> {
        let [pos, next, force, data] = p.get_many(["pos", "nextPos", "forcePos", "data"]);
        let (Some(pos), Some(next_pos)) = (pos.and_then(fixed::<8>), next.and_then(fixed::<8>))
        else {
            return Err(Error::corrupt(
                "replay message without 8-byte pos and nextPos",
                0,
            ));
        };
        let data = match data {
            Some(Value::Array(a)) => a.bytes(),
            _ => None,
        }
        .ok_or(Error::corrupt(
            "replay message data is not an optimized byte array",
            0,
        ))?;
        let force_pos = matches!(force, Some(Value::Bool(true)));
        let expected = self.expected;
        let continuity = if force_pos {
            Continuity::Forced { expected }
        } else if pos != expected {
            Continuity::Unexpected { expected }
        } else {
            Continuity::Continuous
        };
        self.expected = next_pos;
        Ok(Replay {
            pos,
            next_pos,
            force_pos,
            data,
            continuity,
        })
    }
}

/// The [stream contract](crate::stream), so that
/// [`stream::Reader`] reads a console straight from a socket
/// (`stream::Reader::with_decoder(tcp, ConsoleDecoder::new())`).
impl stream::Decoder for ConsoleDecoder {
    type Record<'a> = ConsoleMessage<'a>;

    /// A console stream has no header (its handshake is a message).
    type Header = ();

    /// A message and its length.
    const MAX_RECORD: usize = MAX_MESSAGE + 4;

    fn decode<'a>(&mut self, input: &'a [u8]) -> Result<Decoded<ConsoleMessage<'a>>> {
        Self::decode(self, input)
    }

    /// Told from the length prefix alone, without parsing the message.
    fn need_more(&self, input: &[u8]) -> Option<Option<usize>> {
        if self.failed.is_some() {
            return None;
        }
        match self.protocol {
            None => (input.len() < 13).then_some(Some(13)),
            Some(Protocol::Legacy) => input.is_empty().then_some(Some(1)),
            Some(Protocol::Framed) => {
                let Some(len) = input.first_chunk::<4>() else {
                    return Some(Some(4));
                };
                let len = usize::try_from(u32::from_be_bytes(*len)).unwrap_or(usize::MAX);
                let whole = len.saturating_add(4);
                (len <= MAX_MESSAGE && input.len() < whole).then_some(Some(whole))
            }
        }
    }

    fn offset(&self) -> usize {
        self.offset
    }

    fn header(&self) -> Option<&()> {
        None
    }

    /// [`End::Damaged`] after an error, [`End::Eof`] between messages,
    /// [`End::Truncated`] inside one. (A console stream has no end
    /// marker: it is never [`End::Complete`].)
    fn end(&self, unconsumed: usize) -> End {
        match self.failed {
            Some(e) => End::Damaged(e),
            None if unconsumed > 0 => End::Truncated {
                offset: self.offset,
            },
            None => End::Eof,
        }
    }
}

/// An array of exactly `N` bytes: an optimized byte array, or a plain
/// array of integers 0..=255.
fn fixed<const N: usize>(value: Value<'_>) -> Option<[u8; N]> {
    let Value::Array(a) = value else {
        return None;
    };
    if let Some(b) = a.bytes() {
        return b.try_into().ok();
    }
    let mut out = [0u8; N];
    let mut n = 0usize;
    for entry in a.entries() {
        let v = u8::try_from(entry.ok()?.1.as_int()?).ok()?;
        *out.get_mut(n)? = v;
        n = n.checked_add(1)?;
    }
    (n == N).then_some(out)
}

/// The handshake a client sends first, byte for byte as slippi-js's
/// `genHandshakeOut(cursor, clientToken, isRealtime)`: the length, then
/// `{"type": 1, "payload": {"cursor": [8 bytes], "clientToken": [4
/// bytes], "isRealtime": bool}}`. `cursor` is where to resume (0 for a
/// new connection, [`ConsoleDecoder::expected_cursor`] after a drop);
/// `client_token` is the one the console's last handshake gave (0 at
/// first).
#[must_use]
pub fn client_handshake(
    cursor: ConsoleCursor,
    client_token: u32,
    realtime: bool,
) -> [u8; CLIENT_HANDSHAKE_LEN] {
    let mut out = [0u8; CLIENT_HANDSHAKE_LEN];
    let mut w = Writer::new(&mut out);
    // The body's length: CLIENT_HANDSHAKE_LEN less the 4 bytes of itself.
    w.put(&79u32.to_be_bytes());
    w.put(b"{i\x04typei\x01i\x07payload{");
    w.put(b"i\x06cursor[$U#i\x08");
    w.put(&cursor);
    w.put(b"i\x0bclientToken[$U#i\x04");
    w.put(&client_token.to_be_bytes());
    w.put(b"i\x0aisRealtime");
    w.put(if realtime { b"T" } else { b"F" });
    w.put(b"}}");
    out
}

/// What a console sends, encoded as Nintendont does (type as `U`, byte
/// arrays optimized), into `out` with its length prefix: for tests, fake
/// consoles and relays. Returns the bytes written.
///
/// # Errors
/// [`ErrorKind::BufferTooSmall`] when `out` is too small (with the length
/// needed).
pub fn encode_message(message: &ConsoleMessage<'_>, out: &mut [u8]) -> Result<usize> {
    let mut w = Writer::new(out);
    w.put(&[0; 4]);
    match message {
        ConsoleMessage::Handshake(h) => {
            w.put(b"{i\x04typeU\x01i\x07payload{");
            if let Some(nick) = h.nick {
                w.key_str(b"nick", nick);
            }
            if let Some(v) = h.nintendont_version {
                w.key_str(b"nintendontVersion", v);
            }
            if let Some(t) = h.client_token {
                w.key_bytes(b"clientToken", &t.to_be_bytes());
            }
            w.key_bytes(b"pos", &h.pos);
            w.put(b"}}");
        }
        ConsoleMessage::Replay(r) => {
            w.put(b"{i\x04typeU\x02i\x07payload{");
            w.key_bytes(b"pos", &r.pos);
            w.key_bytes(b"nextPos", &r.next_pos);
            if r.force_pos {
                w.put(b"i\x08forcePosT");
            }
            w.key_bytes(b"data", r.data);
            w.put(b"}}");
        }
        ConsoleMessage::KeepAlive => w.put(b"{i\x04typeU\x03}"),
        ConsoleMessage::Unknown { message, .. } => w.put(message),
        ConsoleMessage::Legacy { data } => {
            // No framing: the bytes alone.
            let mut raw = Writer::new(w.out);
            raw.put(data);
            return raw.finish();
        }
    }
    let body = w.len.saturating_sub(4);
    let len = u32::try_from(body).map_err(|_| Error::new(ErrorKind::OutOfBounds, 0))?;
    if let Some(prefix) = w.out.get_mut(..4) {
        prefix.copy_from_slice(&len.to_be_bytes());
    }
    w.finish()
}

/// A writer into a caller buffer that counts what did not fit.
struct Writer<'o> {
    out: &'o mut [u8],
    len: usize,
}

impl<'o> Writer<'o> {
    fn new(out: &'o mut [u8]) -> Self {
        Self { out, len: 0 }
    }

    fn put(&mut self, bytes: &[u8]) {
        let end = self.len.saturating_add(bytes.len());
        if let Some(dst) = self.out.get_mut(self.len..end) {
            dst.copy_from_slice(bytes);
        }
        self.len = end;
    }

    /// A key shorter than 128 bytes, as `i` and its length.
    fn key(&mut self, key: &[u8]) {
        self.put(b"i");
        self.put(&[u8::try_from(key.len()).unwrap_or(0)]);
        self.put(key);
    }

    /// A length as UBJSON's smallest integer marker that holds it.
    fn length(&mut self, n: usize) {
        match (u8::try_from(n), u32::try_from(n)) {
            (Ok(n), _) => self.put(&[b'U', n]),
            (_, Ok(n)) if i32::try_from(n).is_ok() => {
                self.put(b"l");
                self.put(&n.to_be_bytes());
            }
            _ => {
                self.put(b"L");
                self.put(&(n as u64).to_be_bytes());
            }
        }
    }

    fn key_str(&mut self, key: &[u8], value: &str) {
        self.key(key);
        self.put(b"S");
        self.length(value.len());
        self.put(value.as_bytes());
    }

    fn key_bytes(&mut self, key: &[u8], value: &[u8]) {
        self.key(key);
        self.put(b"[$U#");
        self.length(value.len());
        self.put(value);
    }

    fn finish(self) -> Result<usize> {
        if self.len > self.out.len() {
            return Err(Error::new(
                ErrorKind::BufferTooSmall { needed: self.len },
                0,
            ));
        }
        Ok(self.len)
    }
}
