//! Push decoding: a `Decoder` fed the pieces of a stream as they arrive (a
//! `ReadableStream`, a growing file, a WebSocket) gives the same records
//! as the whole-file methods, as soon as each is whole.

use gamefmt::Format;
use gamefmt::stream::{Decoded, End};
use wasm_bindgen::prelude::*;

use crate::js::{self, decode_error};

/// The format's decoder and the state above it.
enum Inner {
    /// Waiting for enough bytes to tell the format.
    Unknown,
    #[cfg(feature = "slippi")]
    Slippi(Box<gamefmt::slippi::Decoder>),
    #[cfg(feature = "teeworlds")]
    Teehistorian(
        gamefmt::teehistorian::Decoder,
        Box<crate::teehistorian::Clients>,
        Option<JsValue>,
    ),
}

/// A push decoder for Slippi replays and teehistorian recordings: `push`
/// each piece, get the records it completed (Slippi: the events of
/// `SlippiFile.events()`; teehistorian: the records of
/// `TeehistorianFile.records()`, the header in `header`).
#[wasm_bindgen]
pub struct Decoder {
    buf: Vec<u8>,
    inner: Inner,
    failed: bool,
}

impl Default for Decoder {
    fn default() -> Self {
        Self::new()
    }
}

#[wasm_bindgen]
impl Decoder {
    /// A decoder that tells the format from the first bytes it is fed.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Self {
        Self {
            buf: Vec::new(),
            inner: Inner::Unknown,
            failed: false,
        }
    }

    /// The format once told (`"slippi"`, `"teehistorian"`), else
    /// `undefined`.
    #[wasm_bindgen(getter)]
    pub fn format(&self) -> Option<String> {
        match self.inner {
            Inner::Unknown => None,
            #[cfg(feature = "slippi")]
            Inner::Slippi(_) => Some("slippi".into()),
            #[cfg(feature = "teeworlds")]
            Inner::Teehistorian(..) => Some("teehistorian".into()),
        }
    }

    /// The teehistorian header (its JSON parsed) once decoded, else
    /// `null`.
    #[wasm_bindgen(getter)]
    pub fn header(&self) -> JsValue {
        match &self.inner {
            #[cfg(feature = "teeworlds")]
            Inner::Teehistorian(_, _, Some(h)) => h.clone(),
            _ => JsValue::NULL,
        }
    }

    /// Feeds the next piece; returns the records it completed, in order.
    /// Throws the stream's first error (and every call after it).
    pub fn push(&mut self, piece: &[u8]) -> Result<JsValue, JsValue> {
        if self.failed {
            return Err(js::error("damaged", "the stream failed earlier", 0));
        }
        self.buf
            .try_reserve(piece.len())
            .map_err(|_| js::error("out_of_memory", "stream too large", 0))?;
        self.buf.extend_from_slice(piece);
        let out = js_sys::Array::new();
        let result = self.decode_all(&out);
        if result.is_err() {
            self.failed = true;
        }
        result?;
        Ok(out.into())
    }

    /// How the stream ended if no more bytes come: `{kind, offset,
    /// error}`.
    pub fn end(&self) -> Result<JsValue, JsValue> {
        let end = match &self.inner {
            Inner::Unknown => End::Truncated { offset: 0 },
            #[cfg(feature = "slippi")]
            Inner::Slippi(d) => gamefmt::stream::Decoder::end(&**d, self.buf.len()),
            #[cfg(feature = "teeworlds")]
            Inner::Teehistorian(d, ..) => gamefmt::stream::Decoder::end(d, self.buf.len()),
        };
        js::ser(&end)
    }
}

impl Decoder {
    fn decode_all(&mut self, out: &js_sys::Array) -> Result<(), JsValue> {
        if let Inner::Unknown = self.inner {
            // The longest magic is 16 bytes.
            if self.buf.len() < 16 {
                return Ok(());
            }
            self.inner = match Format::detect(&self.buf) {
                #[cfg(feature = "slippi")]
                Some(Format::Slippi) => Inner::Slippi(Box::new(gamefmt::slippi::Decoder::new())),
                #[cfg(feature = "teeworlds")]
                Some(Format::Teehistorian) => Inner::Teehistorian(
                    gamefmt::teehistorian::Decoder::new(),
                    Box::new(crate::teehistorian::Clients::new()),
                    None,
                ),
                _ => {
                    return Err(js::error(
                        "unknown_format",
                        "push decoding takes Slippi replays and teehistorian recordings",
                        0,
                    ));
                }
            };
        }
        let mut pos = 0usize;
        loop {
            let rest = self.buf.get(pos..).unwrap_or_default();
            let consumed = match &mut self.inner {
                Inner::Unknown => 0,
                #[cfg(feature = "slippi")]
                Inner::Slippi(d) => {
                    if !d.in_raw() {
                        0
                    } else {
                        let at = d.offset();
                        match d.decode(rest).map_err(decode_error)? {
                            Decoded::Record { record, consumed } => {
                                if let gamefmt::slippi::Item::Event(e) = record {
                                    out.push(&crate::slippi::event(at, &e)?);
                                }
                                consumed
                            }
                            Decoded::NeedMore { .. } | Decoded::Done { .. } => 0,
                        }
                    }
                }
                #[cfg(feature = "teeworlds")]
                Inner::Teehistorian(d, clients, header) => {
                    use gamefmt::teehistorian::Item;
                    match d.decode(rest).map_err(decode_error)? {
                        Decoded::Record { record, consumed } => {
                            match record {
                                Item::Header(h) => {
                                    let text = h.json();
                                    *header = Some(
                                        js_sys::JSON::parse(text)
                                            .unwrap_or_else(|_| JsValue::from(text)),
                                    );
                                }
                                Item::Message(r) => {
                                    clients.apply(&r.message);
                                    out.push(&crate::teehistorian::record(&r, clients)?);
                                }
                                _ => {}
                            }
                            consumed
                        }
                        Decoded::NeedMore { .. } | Decoded::Done { .. } => 0,
                    }
                }
            };
            if consumed == 0 {
                break;
            }
            pos = pos.saturating_add(consumed);
        }
        self.buf.drain(..pos.min(self.buf.len()));
        Ok(())
    }
}
