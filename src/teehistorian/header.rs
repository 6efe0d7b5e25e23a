//! The teehistorian header: a JSON object after the magic UUID.
//!
//! The JSON text is kept as borrowed `&str`; key lookup goes through
//! `serde-json-core` (no_std, no allocation). String values are exposed as
//! [`JsonStr`], the raw (still escaped) text between the quotes, which
//! unescapes on [`Display`](core::fmt::Display) or into a caller buffer.

use core::fmt;
use core::ops::Range;

use serde_json_core::str::{EscapedStr, EscapedStringFragment};
use uuid::Uuid;

use crate::error::{Error, ErrorKind, Result};

/// The magic UUID before the header text in a file.
const MAGIC_LEN: usize = crate::format::TEEHISTORIAN_MAGIC.len();

/// Deepest nesting of arrays and objects accepted in a header (DDNet writes
/// depth 2); deeper input is rejected before parsing so that the recursive
/// JSON parser cannot exhaust the stack.
const MAX_DEPTH: usize = 16;

/// A JSON string value as written in the header: the text between the
/// quotes, escapes not yet resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct JsonStr<'a>(&'a str);

impl<'a> JsonStr<'a> {
    /// The raw text between the quotes, with JSON escapes left in.
    #[must_use]
    pub const fn raw(&self) -> &'a str {
        self.0
    }

    /// The text if it contains no escapes (true of every value DDNet writes
    /// except names and commands with quotes, backslashes or control
    /// characters).
    #[must_use]
    pub fn as_plain(&self) -> Option<&'a str> {
        (!self.0.contains('\\')).then_some(self.0)
    }

    /// Unescapes the value into `buf` and returns it. Fails with
    /// [`ErrorKind::BufferTooSmall`] (`needed` = the unescaped length) or
    /// [`ErrorKind::InvalidString`] for a bad escape.
    pub fn unescape_into<'b>(&self, buf: &'b mut [u8]) -> Result<&'b str> {
        let mut len = 0usize;
        let mut needed = 0usize;
        for fragment in EscapedStr(self.0).fragments() {
            let mut tmp = [0u8; 4];
            let piece: &str = match fragment {
                Ok(EscapedStringFragment::NotEscaped(s)) => s,
                Ok(EscapedStringFragment::Escaped(c)) => c.encode_utf8(&mut tmp),
                Err(_) => return Err(Error::new(ErrorKind::InvalidString, 0)),
            };
            needed = needed.saturating_add(piece.len());
            let end = len.saturating_add(piece.len());
            if let Some(dst) = buf.get_mut(len..end) {
                dst.copy_from_slice(piece.as_bytes());
                len = end;
            }
        }
        if needed != len {
            return Err(Error::new(ErrorKind::BufferTooSmall { needed }, 0));
        }
        let out = buf.get(..len).unwrap_or_default();
        core::str::from_utf8(out).map_err(|_| Error::new(ErrorKind::InvalidString, 0))
    }
}

impl fmt::Display for JsonStr<'_> {
    /// Writes the unescaped text (a bad escape is written as is).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for fragment in EscapedStr(self.0).fragments() {
            match fragment {
                Ok(EscapedStringFragment::NotEscaped(s)) => f.write_str(s)?,
                Ok(EscapedStringFragment::Escaped(c)) => fmt::Write::write_char(f, c)?,
                Err(_) => return f.write_str(self.0),
            }
        }
        Ok(())
    }
}

/// The scalar header fields DDNet writes (teeworlds.md §2.2), each the raw
/// string value when present.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Fields<'a> {
    comment: Option<JsonStr<'a>>,
    version: Option<JsonStr<'a>>,
    version_minor: Option<JsonStr<'a>>,
    game_uuid: Option<JsonStr<'a>>,
    prev_game_uuid: Option<JsonStr<'a>>,
    server_version: Option<JsonStr<'a>>,
    start_time: Option<JsonStr<'a>>,
    server_name: Option<JsonStr<'a>>,
    server_port: Option<JsonStr<'a>>,
    game_type: Option<JsonStr<'a>>,
    map_name: Option<JsonStr<'a>>,
    map_size: Option<JsonStr<'a>>,
    map_sha256: Option<JsonStr<'a>>,
    map_crc: Option<JsonStr<'a>>,
    prng_description: Option<JsonStr<'a>>,
}

impl<'a> Fields<'a> {
    fn slot(&mut self, key: &[u8]) -> Option<&mut Option<JsonStr<'a>>> {
        Some(match key {
            b"comment" => &mut self.comment,
            b"version" => &mut self.version,
            b"version_minor" => &mut self.version_minor,
            b"game_uuid" => &mut self.game_uuid,
            b"prev_game_uuid" => &mut self.prev_game_uuid,
            b"server_version" => &mut self.server_version,
            b"start_time" => &mut self.start_time,
            b"server_name" => &mut self.server_name,
            b"server_port" => &mut self.server_port,
            b"game_type" => &mut self.game_type,
            b"map_name" => &mut self.map_name,
            b"map_size" => &mut self.map_size,
            b"map_sha256" => &mut self.map_sha256,
            b"map_crc" => &mut self.map_crc,
            b"prng_description" => &mut self.prng_description,
            _ => return None,
        })
    }
}

/// The parsed header of a teehistorian file.
///
/// Holds the JSON text and the version; every other field is looked up in
/// the text when asked for (a parse of the text per call), and `config`
/// and `tuning` are walked on demand with [`Header::for_each_config`] /
/// [`Header::for_each_tuning`]. So the header is small: a reader's records
/// and a file's iterator, which hold it, move cheaply.
///
/// [`Header::parse`] checks the whole text. A header read from a file
/// has had only what its records need checked: its end (the NUL), UTF-8
/// and the `version` (read by a scan from the start of the object up to
/// that key), so that opening a file costs about what finding the NUL
/// does, as in the other teehistorian readers; [`Header::validate`]
/// checks the rest (`gamefmt validate` and `inspect` do). The fields of a
/// text that is not valid JSON past the version read as far as the parse
/// gets (a field after the damage is `None`).
///
/// ```
/// use gamefmt::teehistorian::TeehistorianIter;
/// let mut file = gamefmt::teehistorian::uuids::TEEHISTORIAN.as_bytes().to_vec();
/// file.extend_from_slice(b"{\"version\":\"2\",\"map_name\":oops}\0");
/// let iter = TeehistorianIter::new(&file)?;
/// assert_eq!(iter.header().version(), 2);
/// assert!(iter.header().validate().is_err());
/// # Ok::<(), gamefmt::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Header<'a> {
    /// The JSON text, valid UTF-8 (kept as bytes: a header read from a
    /// file is made `str` only by [`Header::json`], so that reading an
    /// ASCII header, checked in the scan for its NUL, costs no second
    /// pass).
    json: &'a [u8],
    version: u32,
}

impl fmt::Debug for Header<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Header")
            .field("json", &self.json())
            .field("version", &self.version)
            .finish()
    }
}

impl<'a> Header<'a> {
    /// Parses the header JSON text (without the magic UUID and the NUL).
    ///
    /// Fails with [`ErrorKind::Corrupt`] if it is not one JSON object with a
    /// string `version`, and with [`ErrorKind::UnsupportedVersion`] unless
    /// that version is 1 or 2. Offsets are relative to `json`.
    pub fn parse(json: &'a str) -> Result<Self> {
        let version = match plain_version(json) {
            Some(version) => version,
            None => {
                let mut fields = Fields::default();
                parse_json(json.as_bytes(), |p| p.top_level(&mut fields))?;
                fields.version.map(|v| v.raw().as_bytes())
            }
        };
        Self::with_version(json.as_bytes(), version)
    }

    /// The header at the start of `bytes`, the text after the magic UUID,
    /// read as cheaply as the file's records need it: the text up to its
    /// NUL (checked as UTF-8, ASCII eight bytes at a time) and the
    /// top-level `version`, found by the plain scan (see [`plain_prefix`])
    /// from the start of the object up to that key. The rest of the text
    /// is not checked here: [`Header::validate`] does that. The header and
    /// the length of its text. `None` for anything else (no NUL yet, not
    /// UTF-8, a `version` not found in the plain form), which the caller
    /// decodes the general way (the NUL, UTF-8, [`Header::parse`]).
    #[inline]
    pub(crate) fn read_prefix(bytes: &'a [u8]) -> Option<(Self, usize)> {
        let (len, ascii) = text_before_nul(bytes)?;
        let json = bytes.get(..len)?;
        if !ascii && core::str::from_utf8(json).is_err() {
            return None;
        }
        let scan = plain_prefix(json, Stop::AtVersion)?;
        let version = version_text(json, scan.version)?;
        Some((Self::with_version(json, version).ok()?, len))
    }

    /// Checks the whole text as [`Header::parse`] does: a header read from
    /// a file (by [`TeehistorianIter`](super::TeehistorianIter), the
    /// [`Decoder`](super::Decoder) or a [`Reader`](super::Reader)) has had
    /// only its `version` read. Offsets are in the file (the text starts
    /// at byte 16, after the magic UUID).
    ///
    /// # Errors
    /// [`ErrorKind::Corrupt`] where the text is not one JSON object (or
    /// nests deeper than 16), and [`ErrorKind::Corrupt`] too if a whole
    /// parse finds a `version` other than the one read (a second
    /// top-level `version` key).
    pub fn validate(&self) -> Result<()> {
        let whole = Self::parse_in_file(self.json)?;
        if whole.version != self.version {
            return Err(Error::corrupt("header has two versions", MAGIC_LEN));
        }
        Ok(())
    }

    /// The header of a file whose text (the bytes between the magic UUID
    /// and the NUL) is `json`, checked whole as [`Header::parse`] does:
    /// the text that a [`Reader`](super::Reader) hands over in
    /// [`Item::HeaderPiece`](super::Item::HeaderPiece)s, joined. Offsets
    /// are in the file (the text starts at byte 16, after the magic UUID).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidString`] where the text is not UTF-8, then
    /// those of [`Header::parse`].
    pub fn parse_in_file(json: &'a [u8]) -> Result<Self> {
        let text = core::str::from_utf8(json).map_err(|e| {
            Error::new(
                ErrorKind::InvalidString,
                MAGIC_LEN.saturating_add(e.valid_up_to()),
            )
        })?;
        Self::parse(text).map_err(|e| e.shifted(MAGIC_LEN))
    }

    /// The header of `json` (valid UTF-8) if its `version` (the raw value)
    /// is 1 or 2.
    fn with_version(json: &'a [u8], version: Option<&[u8]>) -> Result<Self> {
        let version = version.ok_or_else(|| Error::corrupt("header has no version", 0))?;
        let version =
            decimal(version).ok_or_else(|| Error::corrupt("header version is not a number", 0))?;
        if !(1..=2).contains(&version) {
            return Err(Error::new(
                ErrorKind::UnsupportedVersion(i64::from(version)),
                0,
            ));
        }
        Ok(Self { json, version })
    }

    /// The known scalar fields, parsed again from the text (as far as the
    /// parse gets, for a header read from a file and not valid JSON past
    /// its version).
    fn fields(&self) -> Fields<'a> {
        let mut fields = Fields::default();
        let _ = parse_json(self.json, |p| p.top_level(&mut fields));
        fields
    }

    /// The whole JSON text, exactly as in the file.
    #[must_use]
    pub fn json(&self) -> &'a str {
        // Valid UTF-8: checked when the header was read.
        core::str::from_utf8(self.json).unwrap_or_default()
    }

    /// The format version: 1 or 2 (only version 2 has EX messages).
    #[must_use]
    pub const fn version(&self) -> u32 {
        self.version
    }

    /// `version_minor` as a number, if present (absent in files before
    /// 2021-08).
    #[must_use]
    pub fn version_minor(&self) -> Option<u32> {
        self.fields().version_minor?.raw().parse().ok()
    }

    /// `version_minor` as written.
    #[must_use]
    pub fn version_minor_str(&self) -> Option<JsonStr<'a>> {
        self.fields().version_minor
    }

    /// `game_uuid`: the random id of this game.
    #[must_use]
    pub fn game_uuid(&self) -> Option<Uuid> {
        Uuid::try_parse(self.fields().game_uuid?.raw()).ok()
    }

    /// `prev_game_uuid`: the previous game on the same server process;
    /// `None` when absent or `null`.
    #[must_use]
    pub fn prev_game_uuid(&self) -> Option<Uuid> {
        Uuid::try_parse(self.fields().prev_game_uuid?.raw()).ok()
    }

    /// `comment` (always `teehistorian@ddnet.tw` from DDNet).
    #[must_use]
    pub fn comment(&self) -> Option<JsonStr<'a>> {
        self.fields().comment
    }

    /// `server_version`, e.g. `0.6.4, 19.0`.
    #[must_use]
    pub fn server_version(&self) -> Option<JsonStr<'a>> {
        self.fields().server_version
    }

    /// `start_time` as written (`%Y-%m-%dT%H:%M:%S%z` in current files).
    #[must_use]
    pub fn start_time(&self) -> Option<JsonStr<'a>> {
        self.fields().start_time
    }

    /// `server_name`.
    #[must_use]
    pub fn server_name(&self) -> Option<JsonStr<'a>> {
        self.fields().server_name
    }

    /// `server_port` as a number.
    #[must_use]
    pub fn server_port(&self) -> Option<u16> {
        self.fields().server_port?.raw().parse().ok()
    }

    /// `game_type`, e.g. `DDraceNetwork`.
    #[must_use]
    pub fn game_type(&self) -> Option<JsonStr<'a>> {
        self.fields().game_type
    }

    /// `map_name`.
    #[must_use]
    pub fn map_name(&self) -> Option<JsonStr<'a>> {
        self.fields().map_name
    }

    /// `map_size` in bytes.
    #[must_use]
    pub fn map_size(&self) -> Option<u32> {
        self.fields().map_size?.raw().parse().ok()
    }

    /// `map_sha256`, decoded from its 64 hex digits (absent before 2018-06).
    #[must_use]
    pub fn map_sha256(&self) -> Option<[u8; 32]> {
        let hex = self.fields().map_sha256?.raw().as_bytes();
        if hex.len() != 64 {
            return None;
        }
        let mut out = [0u8; 32];
        for (byte, pair) in out.iter_mut().zip(hex.chunks_exact(2)) {
            let s = core::str::from_utf8(pair).ok()?;
            *byte = u8::from_str_radix(s, 16).ok()?;
        }
        Some(out)
    }

    /// `map_crc`, from its 8 hex digits.
    #[must_use]
    pub fn map_crc(&self) -> Option<u32> {
        u32::from_str_radix(self.fields().map_crc?.raw(), 16).ok()
    }

    /// `prng_description`.
    #[must_use]
    pub fn prng_description(&self) -> Option<JsonStr<'a>> {
        self.fields().prng_description
    }

    /// Calls `f(name, value)` for each entry of the `config` object (the
    /// non-default server settings), in file order.
    pub fn for_each_config(&self, f: impl FnMut(JsonStr<'a>, JsonStr<'a>)) -> Result<()> {
        parse_json(self.json, |p| p.section("config", f))
    }

    /// Calls `f(name, value)` for each entry of the `tuning` object (the
    /// non-default tuning parameters, values ×100), in file order.
    pub fn for_each_tuning(&self, f: impl FnMut(JsonStr<'a>, JsonStr<'a>)) -> Result<()> {
        parse_json(self.json, |p| p.section("tuning", f))
    }

    /// The value of config variable `name`, if set in the header.
    #[must_use]
    pub fn config(&self, name: &str) -> Option<JsonStr<'a>> {
        let mut found = None;
        self.for_each_config(|k, v| {
            if k.raw() == name {
                found = Some(v);
            }
        })
        .ok()?;
        found
    }

    /// The value of tuning parameter `name`, if set in the header.
    #[must_use]
    pub fn tuning(&self, name: &str) -> Option<JsonStr<'a>> {
        let mut found = None;
        self.for_each_tuning(|k, v| {
            if k.raw() == name {
                found = Some(v);
            }
        })
        .ok()?;
        found
    }
}

/// The facts of a teehistorian header that the [`Decoder`](super::Decoder)
/// keeps once it has decoded the header ([`stream::Decoder::header`],
/// and `header()` on every reader): owned and of a fixed size, where the
/// header itself, a JSON text often longer than a small reader's buffer,
/// is borrowed. The whole text comes as the stream's first record:
/// [`Item::Header`](super::Item::Header) (a [`Header`], every field
/// there), or [`Item::HeaderPiece`](super::Item::HeaderPiece)s when it is
/// longer than the buffer.
///
/// [`stream::Decoder::header`]: crate::stream::Decoder::header
///
/// ```
/// use gamefmt::teehistorian::{Item, Reader, SAMPLE};
///
/// let mut reader = Reader::new(SAMPLE);
/// let Some(Ok(Item::Header(header))) = reader.next() else { panic!() };
/// let json_len = header.json().len();
/// let facts = reader.header().copied();
/// assert_eq!(facts.and_then(|h| h.version()), Some(2));
/// assert_eq!(facts.map(|h| h.json_len()), Some(json_len));
/// # Ok::<(), gamefmt::stream::ReadError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TeehistorianHeader {
    /// The version, 1 or 2; 0 when not known.
    version: u32,
    json_len: usize,
}

impl TeehistorianHeader {
    /// The facts of a header read whole.
    pub(crate) const fn whole(header: &Header<'_>, json_len: usize) -> Self {
        Self {
            version: header.version,
            json_len,
        }
    }

    /// The header these facts were kept of, borrowed again from the file
    /// it was read from whole: `json` is the file after the magic UUID.
    pub(crate) fn in_json<'a>(&self, json: &'a [u8]) -> Header<'a> {
        Header {
            json: json.get(..self.json_len).unwrap_or_default(),
            version: self.version,
        }
    }

    /// Nothing read yet (the facts of a header delivered in pieces, before
    /// its first piece).
    pub(crate) const EMPTY: Self = Self {
        version: 0,
        json_len: 0,
    };

    /// Counts the next piece of a header delivered in pieces.
    pub(crate) const fn add_piece(&mut self, json: &[u8]) {
        self.json_len = self.json_len.saturating_add(json.len());
    }

    /// Sets the version that the first piece of a header delivered in
    /// pieces shows in DDNet's plain form (the scan of a whole header's
    /// `version`, over the piece), if 1 or 2.
    pub(crate) fn scan_version(&mut self, first_piece: &[u8]) {
        let version = plain_prefix(first_piece, Stop::AtVersion)
            .and_then(|scan| first_piece.get(scan.version?))
            .and_then(decimal)
            .filter(|v| (1..=2).contains(v));
        self.version = version.unwrap_or(0);
    }

    /// The format version, 1 or 2 (only version 2 has EX messages).
    /// `None` only for a header that came in pieces (the pieces are not
    /// checked) whose first piece does not show its `version` in DDNet's
    /// plain form (DDNet's headers show it in their first 100 bytes):
    /// join the pieces and call [`Header::parse_in_file`] to read it.
    #[must_use]
    pub const fn version(&self) -> Option<u32> {
        if self.version == 0 {
            None
        } else {
            Some(self.version)
        }
    }

    /// The length of the JSON text in bytes (between the magic UUID and
    /// the NUL; the header takes 17 bytes more in the file).
    #[must_use]
    pub const fn json_len(&self) -> usize {
        self.json_len
    }
}

/// The unsigned decimal number `text`, as `str::parse::<u32>` reads it (an
/// optional `+`, then digits), without making it a `str` first.
fn decimal(text: &[u8]) -> Option<u32> {
    let digits = match text {
        [b'+', rest @ ..] => rest,
        _ => text,
    };
    if digits.is_empty() {
        return None;
    }
    let mut n = 0u32;
    for &d in digits {
        let digit = d.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        n = n.checked_mul(10)?.checked_add(u32::from(digit))?;
    }
    Some(n)
}

/// Rejects nesting deeper than [`MAX_DEPTH`], counting brackets outside
/// strings.
fn check_depth(json: &[u8]) -> Result<()> {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (pos, &b) in json.iter().enumerate() {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth = depth.saturating_add(1);
                if depth > MAX_DEPTH {
                    return Err(Error::corrupt("header JSON nested too deeply", pos));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

/// The header's `version` when `json` is in the plain form DDNet writes:
/// one object of strings, objects and arrays, no whitespace, no control
/// character in a string (escapes but `\u`; other text as is, such as
/// a server's name in any script), nested at most [`MAX_DEPTH`] deep,
/// and every known field ([`Fields`]) a string. Such a text is valid JSON
/// that the general parse accepts with the same `version` (the last one at
/// the top level, or none); `None` for anything else, which the general
/// parse decides. One pass, no per-key work but for the top level: a tiny
/// file's header costs a fraction of the general parse.
fn plain_version(json: &str) -> Option<Option<&[u8]>> {
    let scan = plain_prefix(json.as_bytes(), Stop::AtEnd)?;
    if scan.len != json.len() {
        return None;
    }
    version_text(json.as_bytes(), scan.version)
}

/// The `version` the plain scan found at `range` in `json` (`Some(None)`
/// when it found none; `None` if the range is not in `json`).
fn version_text(json: &[u8], range: Option<Range<usize>>) -> Option<Option<&[u8]>> {
    match range {
        Some(range) => json.get(range).map(Some),
        None => Some(None),
    }
}

/// What [`plain_prefix`] found.
struct PlainScan {
    /// Where the (last) top-level `version` value is, if there is one.
    version: Option<Range<usize>>,
    /// The length of the object's text.
    len: usize,
}

/// The scan of [`plain_version`] over the object at the start of `bytes`
/// (bytes after it are not read). One loop over the tokens, the open
/// containers kept as bits: a short header costs a few instructions a
/// token.
#[inline]
fn plain_prefix(bytes: &[u8], stop: Stop) -> Option<PlainScan> {
    let mut p = Plain { bytes, at: 0 };
    if p.byte()? != b'{' {
        return None;
    }
    let mut version = None;
    // The containers open: `depth` of them (1: the top-level object), bit
    // `d` of `arrays` set when the one at depth `d + 1` is an array.
    let (mut depth, mut arrays) = (1usize, 0u32);
    if p.peek() == Some(b'}') {
        p.at = 2;
        depth = 0;
    }
    // One entry (a key and a value in an object, a value in an array) a
    // turn, then what closes after it.
    while depth > 0 {
        let in_array = arrays >> depth.wrapping_sub(1) & 1 != 0;
        let key = if in_array {
            None
        } else {
            if p.byte()? != b'"' {
                return None;
            }
            let key = p.string()?;
            if p.byte()? != b':' {
                return None;
            }
            bytes.get(key)
        };
        match p.byte()? {
            b'"' => {
                let value = p.string()?;
                if depth == 1 && key == Some(b"version") {
                    if stop == Stop::AtVersion {
                        return Some(PlainScan {
                            version: Some(value),
                            len: p.at,
                        });
                    }
                    version = Some(value);
                }
            }
            open @ (b'{' | b'[') if depth < MAX_DEPTH => {
                // A known field must be a string (or null: the general
                // parse).
                if depth == 1 && key.is_some_and(is_field) {
                    return None;
                }
                let (close, array) = if open == b'[' { (b']', 1) } else { (b'}', 0) };
                if p.peek() == Some(close) {
                    // Below `bytes.len()`: no overflow.
                    p.at = p.at.wrapping_add(1);
                } else {
                    arrays = arrays & !(1 << depth) | array << depth;
                    depth = depth.wrapping_add(1);
                    continue;
                }
            }
            _ => return None,
        }
        // After a value: a comma, or the containers it closes.
        loop {
            let close = if arrays >> depth.wrapping_sub(1) & 1 != 0 {
                b']'
            } else {
                b'}'
            };
            match p.byte()? {
                b',' => break,
                b if b == close => depth = depth.wrapping_sub(1),
                _ => return None,
            }
            if depth == 0 {
                break;
            }
        }
    }
    Some(PlainScan { version, len: p.at })
}

/// Where [`plain_prefix`] stops.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// At the end of the object.
    AtEnd,
    /// At the first top-level `version`, or the end of the object.
    AtVersion,
}

/// The length of the text at the start of `bytes` before its first NUL,
/// and whether that text is ASCII; `None` if `bytes` has no NUL. Sixteen
/// bytes a step: a header of a real server is 2 to 4 KB.
#[inline]
fn text_before_nul(bytes: &[u8]) -> Option<(usize, bool)> {
    // The top bits of the bytes seen, OR-ed together.
    let mut high = 0u64;
    let mut pairs = bytes.chunks_exact(16);
    for (i, pair) in pairs.by_ref().enumerate() {
        let (Some(a), Some(b)) = (pair.first_chunk::<8>(), pair.last_chunk::<8>()) else {
            break;
        };
        let (a, b) = (u64::from_le_bytes(*a), u64::from_le_bytes(*b));
        // Nonzero if a byte is zero: a borrow out of a byte sets its top
        // bit (bytes above a zero one may show one too; below, none). One
        // operation fewer a word than `zero_bytes`: a 3 KB header took 35%
        // more instructions with `zero_bytes` here.
        let any_zero = |x: u64| x.wrapping_sub(LOW_BITS) & !x & TOP;
        if any_zero(a) | any_zero(b) != 0 {
            // The word with the first zero byte, exactly.
            let (word, zeros, skip) = match zero_bytes(a) {
                0 => {
                    high |= a;
                    (b, zero_bytes(b), 8)
                }
                zeros => (a, zeros, 0),
            };
            // The bytes before the first zero one.
            high |= word & zeros.wrapping_sub(1);
            // Below 8, and `skip` 0 or 8.
            let tail = (zeros.trailing_zeros() / 8) as usize | skip;
            // `i * 16` is below `bytes.len()`: no overflow.
            return Some((i.wrapping_mul(16).wrapping_add(tail), high & TOP == 0));
        }
        high |= a | b;
    }
    let rest = pairs.remainder();
    let tail = rest.iter().position(|&c| c == 0)?;
    let head = rest.get(..tail).unwrap_or_default();
    let before = bytes.len().wrapping_sub(rest.len());
    Some((
        before.wrapping_add(tail),
        high & TOP == 0 && head.is_ascii(),
    ))
}

/// Whether `key` is one of the known scalar fields ([`Fields`]).
fn is_field(key: &[u8]) -> bool {
    Fields::default().slot(key).is_some()
}

/// Every bit of a `u64` but the top bit of each byte.
const LOW: u64 = 0x7F7F_7F7F_7F7F_7F7F;
/// The top bit of each byte of a `u64`.
const TOP: u64 = !LOW;
/// The low bit of each byte of a `u64`.
const LOW_BITS: u64 = 0x0101_0101_0101_0101;

/// The top bit of each zero byte of `x`, exactly (no carry from one byte
/// into the next: `(x & LOW) + LOW` sets a byte's top bit unless its low
/// seven bits are all clear).
#[inline(always)]
const fn zero_bytes(x: u64) -> u64 {
    !((x & LOW).wrapping_add(LOW) | x | LOW)
}

/// The top bit of each byte of `word` that is not plain string text:
/// any byte but a control character (below 0x20), `"` and `\` (bytes of
/// 0x80 and above are checked as UTF-8 with the whole text). Per byte,
/// without carries from one into the next: the top bit of `low + 0x60` is
/// set for 0x20 and above (`low`: the byte without its top bit, which must
/// be clear for a control character), and a byte equal to `c` is zero in
/// `word ^ c` (found the same way).
#[inline(always)]
const fn not_plain(word: u64) -> u64 {
    let low = word & LOW;
    let control = !(word | low.wrapping_add(0x6060_6060_6060_6060));
    let quote = zero_bytes(word ^ 0x2222_2222_2222_2222);
    let backslash = zero_bytes(word ^ 0x5C5C_5C5C_5C5C_5C5C);
    (control | quote | backslash) & TOP
}

/// The scanner of [`plain_prefix`]: `None` as soon as the text leaves the
/// plain form. Strings are told by their place in `bytes`.
struct Plain<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Plain<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn byte(&mut self) -> Option<u8> {
        let b = self.peek()?;
        // Below `bytes.len()`, so no overflow.
        self.at = self.at.wrapping_add(1);
        Some(b)
    }

    /// After an opening quote: the place of the text up to the closing one
    /// (escapes left in).
    #[inline(always)]
    fn string(&mut self) -> Option<Range<usize>> {
        let start = self.at;
        // A one-character value (a version, a flag) ends before a word's
        // test pays.
        if let Some(&[c, b'"']) = self.bytes.get(start..).and_then(<[u8]>::first_chunk::<2>) {
            if (0x20..0x80).contains(&c) && c != b'"' && c != b'\\' {
                self.at = start.wrapping_add(2);
                return Some(start..start.wrapping_add(1));
            }
        }
        loop {
            self.skip_plain_text();
            match self.byte()? {
                b'"' => return Some(start..self.at.saturating_sub(1)),
                b'\\' => self.escape()?,
                0..0x20 => return None,
                _ => {}
            }
        }
    }

    /// After a backslash: one of the escapes but `\u`.
    fn escape(&mut self) -> Option<()> {
        matches!(
            self.byte()?,
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't'
        )
        .then_some(())
    }

    /// Skips the plain string text ahead (no control character, quote or
    /// backslash), eight bytes at a time: most of a header's bytes. Stops
    /// at the first other byte, or short of the end of the text.
    #[inline(always)]
    fn skip_plain_text(&mut self) {
        while let Some(word) = self.bytes.get(self.at..).and_then(<[u8]>::first_chunk::<8>) {
            let word = u64::from_le_bytes(*word);
            let other = not_plain(word);
            // The plain bytes before the first other one (all, if none):
            // the little-endian word's first byte is its lowest.
            let plain = other.trailing_zeros() / 8;
            // Still within `bytes`.
            self.at = self.at.wrapping_add(plain as usize);
            if other != 0 {
                return;
            }
        }
    }
}

/// Runs `parse` over the JSON text as one whole value, then checks that
/// only whitespace follows.
///
/// The parser is [`Json`]: it accepts and rejects what serde-json-core 0.6
/// (the crate's earlier parser, kept by the tests as the oracle) does, in
/// a fifth of the flash (on a Cortex-M, serde-json-core and the panic
/// paths it links took about 5 KB).
fn parse_json<'a>(json: &'a [u8], parse: impl FnOnce(&mut Json<'a>) -> Step) -> Result<()> {
    // The parser recurses: a header read from a file has not been checked
    // whole, so its depth is checked before every parse.
    check_depth(json)?;
    let mut p = Json { json, at: 0 };
    let parsed = parse(&mut p).and_then(|()| p.end());
    // Where the parse stopped: the first byte it could not take.
    parsed.map_err(|Invalid| Error::corrupt("header is not a valid JSON object", p.at))
}

/// The text is not the JSON [`Json`] reads.
struct Invalid;

/// One step of [`Json`].
type Step<T = ()> = core::result::Result<T, Invalid>;

/// A JSON reader over the header text, the values it does not keep
/// skipped as serde-json-core skips them (strings to their closing quote,
/// escapes not checked; scalars up to the next `,`, `}` or `]`).
struct Json<'a> {
    json: &'a [u8],
    at: usize,
}

impl<'a> Json<'a> {
    fn peek(&self) -> Option<u8> {
        self.json.get(self.at).copied()
    }

    fn eat(&mut self) {
        self.at = self.at.saturating_add(1);
    }

    /// Skips whitespace; the next byte.
    fn ws(&mut self) -> Option<u8> {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.peek() {
            self.eat();
        }
        self.peek()
    }

    /// Nothing but whitespace left.
    fn end(&mut self) -> Step {
        match self.ws() {
            Some(_) => Err(Invalid),
            None => Ok(()),
        }
    }

    /// A string: the raw text between its quotes.
    fn string(&mut self) -> Step<JsonStr<'a>> {
        if self.ws() != Some(b'"') {
            return Err(Invalid);
        }
        self.eat();
        let start = self.at;
        let mut escaped = false;
        loop {
            match self.peek() {
                None => return Err(Invalid),
                Some(b'"') if !escaped => break,
                Some(b'\\') => escaped = !escaped,
                Some(_) => escaped = false,
            }
            self.eat();
        }
        let text = self.json.get(start..self.at).ok_or(Invalid)?;
        self.eat();
        core::str::from_utf8(text).map(JsonStr).map_err(|_| Invalid)
    }

    /// A string, or `null` for `None`.
    fn opt_string(&mut self) -> Step<Option<JsonStr<'a>>> {
        if self.ws() != Some(b'n') {
            return self.string().map(Some);
        }
        for &want in b"null" {
            if self.peek() != Some(want) {
                return Err(Invalid);
            }
            self.eat();
        }
        Ok(None)
    }

    /// An object: `entry(self, key)` reads each value.
    fn object(&mut self, mut entry: impl FnMut(&mut Self, JsonStr<'a>) -> Step) -> Step {
        if self.ws() != Some(b'{') {
            return Err(Invalid);
        }
        self.eat();
        let mut first = true;
        loop {
            let next = match self.ws().ok_or(Invalid)? {
                b'}' => break,
                b',' if !first => {
                    self.eat();
                    self.ws()
                }
                b if first => {
                    first = false;
                    Some(b)
                }
                _ => return Err(Invalid),
            };
            if next != Some(b'"') {
                return Err(Invalid);
            }
            let key = self.string()?;
            if self.ws() != Some(b':') {
                return Err(Invalid);
            }
            self.eat();
            entry(self, key)?;
        }
        self.eat();
        Ok(())
    }

    /// An array, every element skipped.
    fn skip_array(&mut self) -> Step {
        self.eat(); // `[`, seen by the caller.
        let mut first = true;
        loop {
            let next = match self.ws().ok_or(Invalid)? {
                b']' => break,
                b',' => {
                    self.eat();
                    self.ws().ok_or(Invalid)?
                }
                b if first => {
                    first = false;
                    b
                }
                _ => return Err(Invalid),
            };
            if next == b']' {
                return Err(Invalid);
            }
            self.skip_value()?;
        }
        self.eat();
        Ok(())
    }

    /// Any value, skipped.
    fn skip_value(&mut self) -> Step {
        match self.ws().ok_or(Invalid)? {
            b'"' => self.string().map(|_| ()),
            b'[' => self.skip_array(),
            b'{' => self.object(|p, _| p.skip_value()),
            b',' | b'}' | b']' => Err(Invalid),
            _ => loop {
                match self.peek() {
                    Some(b',' | b'}' | b']') => return Ok(()),
                    Some(_) => self.eat(),
                    None => return Err(Invalid),
                }
            },
        }
    }

    /// The top-level object: the known scalar fields into `fields`, the
    /// rest skipped.
    fn top_level(&mut self, fields: &mut Fields<'a>) -> Step {
        self.object(|p, key| match fields.slot(key.raw().as_bytes()) {
            Some(slot) => {
                *slot = p.opt_string()?;
                Ok(())
            }
            None => p.skip_value(),
        })
    }

    /// The top-level object again, each entry of the object under `name`
    /// (an object of strings) handed to `f`.
    fn section(&mut self, name: &str, mut f: impl FnMut(JsonStr<'a>, JsonStr<'a>)) -> Step {
        self.object(|p, key| {
            if key.raw() != name {
                return p.skip_value();
            }
            p.object(|p, key| {
                f(key, p.string()?);
                Ok(())
            })
        })
    }
}

/// The earlier parse through serde-json-core 0.6: the oracle the tests
/// hold [`Json`] to.
#[cfg(test)]
mod serde_oracle {
    use super::*;
    use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, Visitor};

    /// Runs `seed` over the JSON text as one whole value.
    pub(super) fn parse_json_serde<'a, S: DeserializeSeed<'a, Value = ()>>(
        json: &'a [u8],
        seed: S,
    ) -> Result<()> {
        // The parser recurses: a header read from a file has not been checked
        // whole, so its depth is checked before every parse.
        check_depth(json)?;
        let mut de = serde_json_core::de::Deserializer::new(json, None);
        seed.deserialize(&mut de)
            .and_then(|()| de.end().map(|_| ()))
            .map_err(|_| Error::corrupt("header is not a valid JSON object", 0))
    }

    /// A string (or `null`, giving `None`) borrowed from the input.
    struct OptStr;

    impl<'de> Visitor<'de> for OptStr {
        type Value = Option<JsonStr<'de>>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a string or null")
        }
        fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
            Ok(Some(JsonStr(v)))
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_str(self)
        }
    }

    impl<'de> DeserializeSeed<'de> for OptStr {
        type Value = Option<JsonStr<'de>>;
        fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_option(self)
        }
    }

    /// A key: always a borrowed string.
    struct Key;

    impl<'de> Visitor<'de> for Key {
        type Value = JsonStr<'de>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a string")
        }
        fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
            Ok(JsonStr(v))
        }
    }

    impl<'de> DeserializeSeed<'de> for Key {
        type Value = JsonStr<'de>;
        fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_str(self)
        }
    }

    /// The top-level object: records the known scalar fields, skips the rest.
    pub(super) struct TopLevel<'f, 'a>(pub(super) &'f mut Fields<'a>);

    impl<'de> Visitor<'de> for TopLevel<'_, 'de> {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<(), M::Error> {
            while let Some(key) = map.next_key_seed(Key)? {
                match self.0.slot(key.raw().as_bytes()) {
                    Some(slot) => *slot = map.next_value_seed(OptStr)?,
                    None => {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
            }
            Ok(())
        }
    }

    impl<'de> DeserializeSeed<'de> for TopLevel<'_, 'de> {
        type Value = ();
        fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_map(self)
        }
    }

    /// The top-level object again, this time handing each entry of the object
    /// under `key` to `f`.
    pub(super) struct Section<F> {
        pub(super) key: &'static str,
        pub(super) f: F,
    }

    /// The entries of one string-to-string object.
    struct Entries<'f, F>(&'f mut F);

    impl<'de, F: FnMut(JsonStr<'de>, JsonStr<'de>)> Visitor<'de> for Entries<'_, F> {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an object of strings")
        }
        fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<(), M::Error> {
            while let Some(key) = map.next_key_seed(Key)? {
                let value = map.next_value_seed(Key)?;
                (self.0)(key, value);
            }
            Ok(())
        }
    }

    impl<'de, F: FnMut(JsonStr<'de>, JsonStr<'de>)> DeserializeSeed<'de> for Entries<'_, F> {
        type Value = ();
        fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_map(self)
        }
    }

    impl<'de, F: FnMut(JsonStr<'de>, JsonStr<'de>)> Visitor<'de> for Section<F> {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<M: MapAccess<'de>>(mut self, mut map: M) -> Result<(), M::Error> {
            while let Some(key) = map.next_key_seed(Key)? {
                if key.raw() == self.key {
                    map.next_value_seed(Entries(&mut self.f))?;
                } else {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            Ok(())
        }
    }

    impl<'de, F: FnMut(JsonStr<'de>, JsonStr<'de>)> DeserializeSeed<'de> for Section<F> {
        type Value = ();
        fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_map(self)
        }
    }
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    reason = "unit tests: a panic is the failure report"
)]
mod tests {
    use super::*;
    use std::string::ToString;
    use std::vec::Vec;

    const JSON: &str = r#"{"comment":"teehistorian@ddnet.tw","version":"2","version_minor":"22","game_uuid":"0f3bd1ac-0d44-4a0a-9e46-8a1a2dc0c4ba","prev_game_uuid":null,"server_version":"0.6, 20.1","start_time":"2026-11-22T05:00:00+0000","server_name":"a \"quoted\" name","server_port":"8303","game_type":"DDraceNetwork","map_name":"dm1","map_size":"5805","map_sha256":"0e9b29f5000000000000000000000000000000000000000000000000000000ff","map_crc":"a1b2c3d4","prng_description":"pcg-xsh-rr:0x1:0x2","config":{"sv_map":"dm1","sv_team":"1"},"tuning":{"gravity":"25"},"uuids":["a","b"]}"#;

    #[test]
    fn typed_fields() {
        let h = Header::parse(JSON).unwrap();
        assert_eq!(h.version(), 2);
        assert_eq!(h.version_minor(), Some(22));
        assert_eq!(
            h.game_uuid().unwrap().to_string(),
            "0f3bd1ac-0d44-4a0a-9e46-8a1a2dc0c4ba"
        );
        assert_eq!(h.prev_game_uuid(), None);
        assert_eq!(h.server_name().unwrap().to_string(), "a \"quoted\" name");
        assert_eq!(h.server_name().unwrap().as_plain(), None);
        let mut buf = [0u8; 32];
        assert_eq!(
            h.server_name().unwrap().unescape_into(&mut buf),
            Ok("a \"quoted\" name")
        );
        assert_eq!(
            h.server_name().unwrap().unescape_into(&mut buf[..3]),
            Err(Error::new(ErrorKind::BufferTooSmall { needed: 15 }, 0))
        );
        assert_eq!(h.server_port(), Some(8303));
        assert_eq!(h.map_name().unwrap().raw(), "dm1");
        assert_eq!(h.map_size(), Some(5805));
        assert_eq!(h.map_crc(), Some(0xa1b2_c3d4));
        let sha = h.map_sha256().unwrap();
        assert_eq!((sha[0], sha[31]), (0x0e, 0xff));
        assert_eq!(h.game_type().unwrap().raw(), "DDraceNetwork");
        let mut config = Vec::new();
        h.for_each_config(|k, v| config.push((k.raw(), v.raw())))
            .unwrap();
        assert_eq!(config, [("sv_map", "dm1"), ("sv_team", "1")]);
        assert_eq!(h.tuning("gravity").unwrap().raw(), "25");
        assert_eq!(h.config("sv_nope"), None);
    }

    /// The plain scan against the general parse: wherever the scan answers
    /// (on DDNet-like headers, their prefixes and single-byte mutations),
    /// the general parse accepts the text with the same `version`; and the
    /// scan of a file's header finds the same header and its end.
    #[test]
    fn plain_scan_agrees_with_general_parse() {
        fn general(json: &str) -> Option<Option<&[u8]>> {
            let mut fields = Fields::default();
            parse_json(json.as_bytes(), |p| p.top_level(&mut fields)).ok()?;
            Some(fields.version.map(|v| v.raw().as_bytes()))
        }
        let plain = r#"{"comment":"teehistorian@ddnet.tw","version":"2","version_minor":"22","game_uuid":"0f3bd1ac-0d44-4a0a-9e46-8a1a2dc0c4ba","map_name":"dm1","config":{"sv_map":"dm1","sv_team":"1"},"tuning":{},"uuids":["a","b"],"x":[[],{"version":"7"}],"version":"1"}"#;
        assert_eq!(plain_version(plain), Some(Some(&b"1"[..])));
        assert_eq!(plain_version(r#"{"version":"2"}"#), Some(Some(&b"2"[..])));
        assert_eq!(plain_version("{}"), Some(None));
        // `\u` escapes, null and whitespace take the general parse.
        assert_eq!(plain_version(JSON), None);
        let motd = r#"{"version":"2","config":{"sv_motd":"a\nb \"c\" \\ \/"}}"#;
        assert_eq!(plain_version(motd), Some(Some(&b"2"[..])));
        assert_eq!(plain_version(r#"{"version":"2","a":"\u0041"}"#), None);
        assert_eq!(plain_version(r#"{ "version":"2"}"#), None);
        let (mut answered, mut prefixed, mut seed) = (0, 0, 0x9E37_79B9_7F4A_7C15_u64);
        // Text in other scripts and DEL, as is.
        let unicode = "{\"version\":\"2\",\"server_name\":\"Caf\u{e9} \u{2665} \u{421}\u{435}\u{440}\u{432}\u{435}\u{440}\",\"x\":[\"\u{65e5}\u{672c}\u{7f}\"]}";
        assert_eq!(plain_version(unicode), Some(Some(&b"2"[..])));
        let bases = [
            plain,
            JSON,
            motd,
            unicode,
            r#"{"version":"2","a":[{"b":["c"]}]}"#,
        ];
        for base in bases {
            let bytes = base.as_bytes();
            let mut texts: Vec<Vec<u8>> = (0..=bytes.len()).map(|n| bytes[..n].to_vec()).collect();
            for at in 0..bytes.len() {
                for b in [
                    b'"', b'{', b'}', b'[', b']', b',', b':', b' ', b'\\', b'n', b'0',
                ] {
                    let mut t = bytes.to_vec();
                    t[at] = b;
                    texts.push(t);
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let mut t = bytes.to_vec();
                t.insert(at, seed as u8);
                texts.push(t);
            }
            for t in &texts {
                // In a file: the text, its NUL, then messages.
                let mut file = t.clone();
                file.extend_from_slice(b"\0\x01\x02");
                let prefix = Header::read_prefix(&file);
                // The text is what comes before the first NUL.
                let text = t.split(|&b| b == 0).next().unwrap_or_default();
                let Ok(json) = core::str::from_utf8(text) else {
                    assert_eq!(prefix, None);
                    continue;
                };
                if let Some((header, len)) = prefix {
                    prefixed += 1;
                    assert_eq!((header.json(), len), (json, text.len()));
                    // Checked whole, it is the header a whole parse gives,
                    // or the text is not a header with one version.
                    match (header.validate(), Header::parse(json)) {
                        (Ok(()), whole) => assert_eq!(whole, Ok(header), "{json}"),
                        (Err(_), Ok(whole)) => assert_ne!(whole.version, header.version, "{json}"),
                        (Err(_), Err(_)) => {}
                    }
                }
                let Ok(json) = core::str::from_utf8(t) else {
                    continue;
                };
                if let Some(version) = plain_version(json) {
                    answered += 1;
                    assert_eq!(general(json), Some(version), "{json}");
                }
            }
        }
        assert!(answered > 1000 && prefixed > 500, "{answered} {prefixed}");
        let deep = "{\"a\":".to_string() + &"[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH) + "}";
        assert_eq!(plain_version(&deep), None);
        assert!(Header::parse(&deep).is_err());
    }

    /// The word test against the byte test, on every byte in each of the
    /// eight places (the others plain, or each other byte).
    #[test]
    fn not_plain_equals_byte_test() {
        let plain = |b: u8| b >= 0x20 && b != b'"' && b != b'\\';
        for place in 0..8 {
            for b in 0..=255u8 {
                for other in [b'a', b'~', b' ', b] {
                    let mut bytes = [other; 8];
                    bytes[place] = b;
                    let expected = bytes
                        .iter()
                        .enumerate()
                        .filter(|&(_, &b)| !plain(b))
                        .fold(0u64, |m, (i, _)| m | 0x80 << (8 * i));
                    assert_eq!(
                        not_plain(u64::from_le_bytes(bytes)),
                        expected,
                        "{bytes:02x?}"
                    );
                }
            }
        }
    }

    #[test]
    fn rejects_bad_headers() {
        assert!(Header::parse("{}").is_err());
        assert!(Header::parse(r#"{"version":"2""#).is_err());
        assert!(Header::parse("[]").is_err());
        assert_eq!(
            Header::parse(r#"{"version":"3"}"#).unwrap_err().kind,
            ErrorKind::UnsupportedVersion(3)
        );
        let deep = "[".repeat(100_000);
        assert!(Header::parse(&deep).is_err());
        assert_eq!(Header::parse(r#"{"version":"1"}"#).unwrap().version(), 1);
    }

    /// A text that is not JSON fails where the parse stopped: in the
    /// text, or in the file (16 bytes on, after the magic UUID).
    #[test]
    fn bad_header_offsets_say_where() {
        // The colon after "a" is missing: the parse stops at the `1` (byte
        // 19), the first byte it cannot take.
        let text = r#"{"version":"2","a" 1}"#;
        let e = Header::parse(text).unwrap_err();
        assert_eq!(
            (e.kind, e.offset),
            (ErrorKind::Corrupt("header is not a valid JSON object"), 19)
        );
        assert_eq!(
            Header::parse_in_file(text.as_bytes()).unwrap_err().offset,
            16 + 19
        );
        // Not UTF-8 at byte 3 of the text.
        let e = Header::parse_in_file(b"{\"v\xff").unwrap_err();
        assert_eq!((e.kind, e.offset), (ErrorKind::InvalidString, 16 + 3));
    }

    /// [`Json`] against serde-json-core 0.6 (the parse it replaced): the
    /// same texts accepted, the same fields and `config`/`tuning` entries
    /// found, on headers, all their prefixes and every single-byte change
    /// to one of the bytes JSON gives a meaning.
    #[test]
    fn json_reader_equals_serde_json_core() {
        use serde_oracle::{Section, TopLevel, parse_json_serde};
        type Entries = Vec<(std::string::String, std::string::String)>;
        fn ours(json: &[u8]) -> (bool, Fields<'_>, Option<Entries>, Option<Entries>) {
            let mut fields = Fields::default();
            let ok = parse_json(json, |p| p.top_level(&mut fields)).is_ok();
            let section = |name: &str| {
                let mut out = Vec::new();
                let f = |k: JsonStr<'_>, v: JsonStr<'_>| out.push((k.raw().into(), v.raw().into()));
                parse_json(json, |p| p.section(name, f)).ok()?;
                Some(out)
            };
            (ok, fields, section("config"), section("tuning"))
        }
        fn theirs(json: &[u8]) -> (bool, Fields<'_>, Option<Entries>, Option<Entries>) {
            let mut fields = Fields::default();
            let ok = parse_json_serde(json, TopLevel(&mut fields)).is_ok();
            let section = |key: &'static str| {
                let mut out = Vec::new();
                let f = |k: JsonStr<'_>, v: JsonStr<'_>| out.push((k.raw().into(), v.raw().into()));
                parse_json_serde(json, Section { key, f }).ok()?;
                Some(out)
            };
            (ok, fields, section("config"), section("tuning"))
        }
        let bases: [&[u8]; 6] = [
            JSON.as_bytes(),
            br#"{"version":"2","config":{"sv_motd":"a\nb \"c\" \\ \/"},"tuning":{}}"#,
            br#" { "version" : "1" , "x" : [ 1 , -2.5e3 , true , null , [ ] , { } ] , "prev_game_uuid" : null } "#,
            br#"{"a":[,1],"b":[1,],"c":{,},"d":tru,"version":"2"}"#,
            br#"{"version":"2","config":{"a":"b","c":1},"tuning":{"x":"\u0041"}}"#,
            br#"[{"version":"2"}]"#,
        ];
        let special = b"\"\\{}[],: nt0a\x01";
        let (mut checked, mut accepted) = (0, 0);
        for base in bases {
            let mut texts: Vec<Vec<u8>> = (0..=base.len()).map(|n| base[..n].to_vec()).collect();
            for at in 0..base.len() {
                for &b in special {
                    let mut t = base.to_vec();
                    t[at] = b;
                    texts.push(t);
                }
            }
            for t in &texts {
                let (a, b) = (ours(t), theirs(t));
                assert_eq!(a, b, "{}", std::string::String::from_utf8_lossy(t));
                checked += 1;
                accepted += usize::from(a.0);
            }
        }
        assert!(checked > 10_000 && accepted > 1_000, "{checked} {accepted}");
    }
}
