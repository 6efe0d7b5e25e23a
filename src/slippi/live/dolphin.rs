//! Dolphin's spectator messages: one JSON object per ENet packet, replay
//! bytes in base64 (the slippi-wiki's `SPECTATOR_PROTOCOL.md`, slippi-js
//! 9.1.2's `DolphinConnection`). The ENet transport stays outside the
//! core: give [`DolphinSession::receive`] each packet's bytes.

use crate::error::{Error, Result};

/// One spectator message, borrowing from the packet. Strings are the raw
/// text between the JSON quotes (escape sequences left as sent; Dolphin's
/// nicknames and versions have none in practice).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", rename_all = "snake_case"))]
#[non_exhaustive]
pub enum DolphinMessage<'a> {
    /// The client's first message: where to start.
    ConnectRequest {
        /// The cursor asked for (0: from the start).
        cursor: i64,
    },
    /// Dolphin's answer.
    ConnectReply {
        /// The console's nickname.
        nick: Option<&'a str>,
        /// Slippi's version, e.g. `"3.4.0"`.
        version: Option<&'a str>,
        /// The cursor the events will start from (may differ from the one
        /// asked for).
        cursor: i64,
    },
    /// A batch of replay events (in practice one frame's).
    GameEvent {
        /// This message's cursor.
        cursor: i64,
        /// The next message's.
        next_cursor: i64,
        /// The events, base64 ([`super::base64::decode`]).
        payload: &'a str,
    },
    /// A game starts.
    StartGame {
        /// This message's cursor.
        cursor: i64,
        /// The next message's.
        next_cursor: i64,
    },
    /// A game ends.
    EndGame {
        /// This message's cursor.
        cursor: i64,
        /// The next message's.
        next_cursor: i64,
    },
    /// A snapshot of the menus (no cursor: use it or lose it), base64.
    MenuEvent {
        /// The menu state, base64.
        payload: &'a str,
    },
    /// `dolphin_closed`: Dolphin is going away.
    Closed,
    /// An empty packet (slippi-js ignores it).
    Empty,
    /// Another `type`.
    Unknown {
        /// Its `type`, when a string.
        message_type: Option<&'a str>,
    },
}

impl<'a> DolphinMessage<'a> {
    /// The message's `type` (`"connect_request"`, `"connect_reply"`,
    /// `"game_event"`, `"start_game"`, `"end_game"`, `"menu_event"`), or
    /// `"closed"`, `"empty"`, `"unknown"`.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self {
            Self::ConnectRequest { .. } => "connect_request",
            Self::ConnectReply { .. } => "connect_reply",
            Self::GameEvent { .. } => "game_event",
            Self::StartGame { .. } => "start_game",
            Self::EndGame { .. } => "end_game",
            Self::MenuEvent { .. } => "menu_event",
            Self::Closed => "closed",
            Self::Empty => "empty",
            Self::Unknown { .. } => "unknown",
        }
    }

    /// Parses one packet.
    ///
    /// # Errors
    /// [`crate::ErrorKind::Corrupt`] when the packet is not one JSON
    /// object, or a message of a known type lacks its cursors or payload;
    /// offsets in the packet.
    pub fn parse(packet: &'a [u8]) -> Result<Self> {
        if packet.iter().all(u8::is_ascii_whitespace) {
            return Ok(Self::Empty);
        }
        let mut fields = Fields::default();
        json_object(packet, &mut fields)?;
        if fields.closed {
            return Ok(Self::Closed);
        }
        let missing = |what| Error::corrupt(what, 0);
        let cursors = || match (fields.cursor, fields.next_cursor) {
            (Some(c), Some(n)) => Ok((c, n)),
            _ => Err(missing("spectator message without cursor and next_cursor")),
        };
        Ok(match fields.kind {
            Some("connect_request") => Self::ConnectRequest {
                cursor: fields.cursor.unwrap_or(0),
            },
            Some("connect_reply") => Self::ConnectReply {
                nick: fields.nick,
                version: fields.version,
                cursor: fields
                    .cursor
                    .ok_or(missing("connect_reply without cursor"))?,
            },
            Some("game_event") => {
                let (cursor, next_cursor) = cursors()?;
                Self::GameEvent {
                    cursor,
                    next_cursor,
                    payload: fields
                        .payload
                        .ok_or(missing("game_event without payload"))?,
                }
            }
            Some("start_game") => {
                let (cursor, next_cursor) = cursors()?;
                Self::StartGame {
                    cursor,
                    next_cursor,
                }
            }
            Some("end_game") => {
                let (cursor, next_cursor) = cursors()?;
                Self::EndGame {
                    cursor,
                    next_cursor,
                }
            }
            Some("menu_event") => Self::MenuEvent {
                payload: fields
                    .payload
                    .ok_or(missing("menu_event without payload"))?,
            },
            other => Self::Unknown {
                message_type: other,
            },
        })
    }

    /// This message's cursor and the next one's, for the messages that
    /// carry them.
    #[must_use]
    pub const fn cursors(&self) -> Option<(i64, i64)> {
        match *self {
            Self::GameEvent {
                cursor,
                next_cursor,
                ..
            }
            | Self::StartGame {
                cursor,
                next_cursor,
            }
            | Self::EndGame {
                cursor,
                next_cursor,
            } => Some((cursor, next_cursor)),
            _ => None,
        }
    }
}

/// A message received in a session: the message, and the cursor expected
/// when its own differs (slippi-js emits an error and goes on).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Received<'a> {
    /// The message.
    pub message: DolphinMessage<'a>,
    /// `Some(expected)` when the message's cursor is not the one expected:
    /// messages were skipped (or repeated).
    pub unexpected_cursor: Option<i64>,
}

/// A spectator connection's state as slippi-js keeps it: the cursor
/// expected next (0, then the connect reply's, then each message's
/// `next_cursor`), checked on every game, start and end message.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DolphinSession {
    expected: i64,
}

impl DolphinSession {
    /// A session at cursor 0.
    #[must_use]
    pub const fn new() -> Self {
        Self { expected: 0 }
    }

    /// The cursor expected next: what to ask for when reconnecting.
    #[must_use]
    pub const fn cursor(&self) -> i64 {
        self.expected
    }

    /// Parses one packet and checks its cursor.
    ///
    /// # Errors
    /// As [`DolphinMessage::parse`]; the session does not change.
    pub fn receive<'a>(&mut self, packet: &'a [u8]) -> Result<Received<'a>> {
        let message = DolphinMessage::parse(packet)?;
        let mut unexpected_cursor = None;
        if let DolphinMessage::ConnectReply { cursor, .. } = message {
            self.expected = cursor;
        } else if let Some((cursor, next)) = message.cursors() {
            if cursor != self.expected {
                unexpected_cursor = Some(self.expected);
            }
            self.expected = next;
        }
        Ok(Received {
            message,
            unexpected_cursor,
        })
    }
}

/// The client's first message, as slippi-js sends it
/// (`JSON.stringify({type: "connect_request", cursor})`), into `out`;
/// returns its length.
///
/// # Errors
/// [`crate::ErrorKind::BufferTooSmall`] when `out` holds fewer than 60
/// bytes.
pub fn connect_request(cursor: i64, out: &mut [u8]) -> Result<usize> {
    const HEAD: &[u8] = b"{\"type\":\"connect_request\",\"cursor\":";
    let mut digits = [0u8; 20];
    let mut n = 0usize;
    let mut v = cursor.unsigned_abs();
    loop {
        if let Some(d) = digits.get_mut(n) {
            *d = b'0'.wrapping_add((v % 10) as u8);
        }
        n = n.saturating_add(1);
        v /= 10;
        if v == 0 {
            break;
        }
    }
    let sign = usize::from(cursor < 0);
    let len = HEAD
        .len()
        .saturating_add(sign)
        .saturating_add(n)
        .saturating_add(1);
    let Some(out) = out.get_mut(..len) else {
        return Err(Error::new(
            crate::ErrorKind::BufferTooSmall { needed: 60 },
            0,
        ));
    };
    let (head, rest) = out.split_at_mut(HEAD.len());
    head.copy_from_slice(HEAD);
    let mut at = 0usize;
    if sign == 1 {
        if let Some(c) = rest.get_mut(0) {
            *c = b'-';
        }
        at = 1;
    }
    for d in digits.iter().take(n).rev() {
        if let Some(c) = rest.get_mut(at) {
            *c = *d;
        }
        at = at.saturating_add(1);
    }
    if let Some(c) = rest.get_mut(at) {
        *c = b'}';
    }
    Ok(len)
}

/// The fields of a spectator message that matter.
#[derive(Default)]
struct Fields<'a> {
    kind: Option<&'a str>,
    cursor: Option<i64>,
    next_cursor: Option<i64>,
    payload: Option<&'a str>,
    nick: Option<&'a str>,
    version: Option<&'a str>,
    closed: bool,
}

/// A JSON value as far as the fields need it.
enum Json<'a> {
    Str(&'a str),
    Int(i64),
    Bool(bool),
    Other,
}

/// Reads one flat JSON object (nested values are skipped) into `fields`.
fn json_object<'a>(text: &'a [u8], fields: &mut Fields<'a>) -> Result<()> {
    let mut p = Parser { text, at: 0 };
    p.ws();
    p.expect(b'{')?;
    p.ws();
    if p.peek() == Some(b'}') {
        p.at = p.at.saturating_add(1);
    } else {
        loop {
            p.ws();
            let key = p.string()?;
            p.ws();
            p.expect(b':')?;
            p.ws();
            let value = p.value()?;
            match (key, value) {
                ("type", Json::Str(s)) => fields.kind = Some(s),
                ("cursor", Json::Int(v)) => fields.cursor = Some(v),
                ("next_cursor", Json::Int(v)) => fields.next_cursor = Some(v),
                ("payload", Json::Str(s)) => fields.payload = Some(s),
                ("nick", Json::Str(s)) => fields.nick = Some(s),
                ("version", Json::Str(s)) => fields.version = Some(s),
                ("dolphin_closed", Json::Bool(b)) => fields.closed = b,
                _ => {}
            }
            p.ws();
            match p.next() {
                Some(b',') => {}
                Some(b'}') => break,
                _ => return Err(p.error("expected , or } in a JSON object")),
            }
        }
    }
    p.ws();
    if p.at < text.len() {
        return Err(p.error("bytes after the JSON object"));
    }
    Ok(())
}

struct Parser<'a> {
    text: &'a [u8],
    at: usize,
}

impl<'a> Parser<'a> {
    fn error(&self, what: &'static str) -> Error {
        Error::corrupt(what, self.at)
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.at = self.at.saturating_add(1);
        Some(c)
    }

    fn ws(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_whitespace()) {
            self.at = self.at.saturating_add(1);
        }
    }

    fn expect(&mut self, c: u8) -> Result<()> {
        if self.next() == Some(c) {
            Ok(())
        } else {
            Err(self.error("unexpected character in JSON"))
        }
    }

    /// A string's raw text (escapes kept), the opening quote next.
    fn string(&mut self) -> Result<&'a str> {
        self.expect(b'"')?;
        let start = self.at;
        loop {
            match self.next() {
                None => return Err(self.error("JSON string not closed")),
                Some(b'"') => break,
                Some(b'\\') => {
                    self.next();
                }
                Some(_) => {}
            }
        }
        let raw = self
            .text
            .get(start..self.at.saturating_sub(1))
            .unwrap_or_default();
        core::str::from_utf8(raw).map_err(|_| Error::new(crate::ErrorKind::InvalidString, start))
    }

    fn value(&mut self) -> Result<Json<'a>> {
        match self.peek() {
            Some(b'"') => Ok(Json::Str(self.string()?)),
            Some(b'{' | b'[') => {
                self.skip_container()?;
                Ok(Json::Other)
            }
            Some(b'-' | b'0'..=b'9') => Ok(self.number()),
            Some(b't' | b'f' | b'n') => {
                let rest = self.text.get(self.at..).unwrap_or_default();
                for (word, value) in [
                    (&b"true"[..], Json::Bool(true)),
                    (b"false", Json::Bool(false)),
                    (b"null", Json::Other),
                ] {
                    if rest.starts_with(word) {
                        self.at = self.at.saturating_add(word.len());
                        return Ok(value);
                    }
                }
                Err(self.error("unknown JSON word"))
            }
            _ => Err(self.error("expected a JSON value")),
        }
    }

    /// A number: an `i64` when it is an integer that fits, else skipped.
    fn number(&mut self) -> Json<'a> {
        let start = self.at;
        while self
            .peek()
            .is_some_and(|c| matches!(c, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
        {
            self.at = self.at.saturating_add(1);
        }
        let text = self.text.get(start..self.at).unwrap_or_default();
        core::str::from_utf8(text)
            .ok()
            .and_then(|t| t.parse::<i64>().ok())
            .map_or(Json::Other, Json::Int)
    }

    /// Skips an object or array (strings inside respected), iteratively.
    fn skip_container(&mut self) -> Result<()> {
        let mut depth = 0usize;
        loop {
            match self.peek() {
                None => return Err(self.error("JSON container not closed")),
                Some(b'"') => {
                    self.string()?;
                    continue;
                }
                Some(b'{' | b'[') => depth = depth.saturating_add(1),
                Some(b'}' | b']') => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        self.at = self.at.saturating_add(1);
                        return Ok(());
                    }
                }
                Some(_) => {}
            }
            self.at = self.at.saturating_add(1);
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing, reason = "unit tests")]
mod tests {
    use super::*;

    #[test]
    fn messages() {
        let reply = br#"{"type":"connect_reply","nick":"Station 1","version":"3.4.0","cursor":12}"#;
        let mut s = DolphinSession::new();
        let r = s.receive(reply).unwrap();
        assert_eq!(
            r.message,
            DolphinMessage::ConnectReply {
                nick: Some("Station 1"),
                version: Some("3.4.0"),
                cursor: 12
            }
        );
        assert_eq!(s.cursor(), 12);
        let ev = br#" {"type": "game_event", "cursor": 12, "next_cursor": 13, "payload": "NQ8=", "x": [1, {"y": "}"}]} "#;
        let r = s.receive(ev).unwrap();
        assert_eq!(r.unexpected_cursor, None);
        assert_eq!(
            r.message,
            DolphinMessage::GameEvent {
                cursor: 12,
                next_cursor: 13,
                payload: "NQ8="
            }
        );
        let skip = br#"{"type":"end_game","cursor":15,"next_cursor":16}"#;
        assert_eq!(s.receive(skip).unwrap().unexpected_cursor, Some(13));
        assert_eq!(s.cursor(), 16);
        assert_eq!(
            DolphinMessage::parse(br#"{"type":"menu_event","payload":""}"#).unwrap(),
            DolphinMessage::MenuEvent { payload: "" }
        );
        assert_eq!(
            DolphinMessage::parse(br#"{"dolphin_closed":true}"#).unwrap(),
            DolphinMessage::Closed
        );
        assert_eq!(DolphinMessage::parse(b"").unwrap(), DolphinMessage::Empty);
        assert!(DolphinMessage::parse(br#"{"type":"game_event","cursor":1}"#).is_err());
        assert!(DolphinMessage::parse(br#"{"type":"#).is_err());
        assert!(DolphinMessage::parse(br#"{"a":1}x"#).is_err());
        let mut out = [0u8; 64];
        let n = connect_request(0, &mut out).unwrap();
        assert_eq!(&out[..n], br#"{"type":"connect_request","cursor":0}"#);
        let n = connect_request(-1234, &mut out).unwrap();
        assert_eq!(&out[..n], br#"{"type":"connect_request","cursor":-1234}"#);
        assert_eq!(
            DolphinMessage::parse(&out[..n]).unwrap(),
            DolphinMessage::ConnectRequest { cursor: -1234 }
        );
    }
}
