//! [`SlippiView`]: the UBJSON wrapper of a `.slp` file held in memory.

use crate::error::{Error, Result};
use crate::warning::Warn;

use crate::stream::{Decoded, End};

use super::decoder::{Decoder, Item};
use super::events::Event;
use super::game_end::GameEnd;
use super::game_start::GameStart;
use super::iter::SlippiEventIter;
use super::metadata::Metadata;
use super::payloads::{EventPayloads, PayloadSizes};
use super::{CMD_EVENT_PAYLOADS, CMD_GAME_END, HEADER_LEN};

/// A `.slp` file in memory: its `raw` event array and `metadata` element,
/// located once by [`SlippiView::parse`].
///
/// When the raw length is set, `parse` reads no event and the metadata is
/// found right after the raw array. When it is 0 (a game still being
/// written, or a finished file whose length was never patched), `parse`
/// walks the event sizes (not their contents) to the Game End, after which
/// the metadata follows, or to the end of the input.
#[derive(Clone, Copy, Debug)]
pub struct SlippiView<'a> {
    file: &'a [u8],
    raw: &'a [u8],
    declared_raw_len: u32,
    metadata: Option<&'a [u8]>,
    /// Whether `metadata` is one whole UBJSON value (`value_len` measured
    /// it), not a damaged one.
    metadata_whole: bool,
    game_end: Option<&'a [u8]>,
}

impl<'a> SlippiView<'a> {
    /// Locates the raw array and the metadata.
    ///
    /// # Errors
    /// [`crate::ErrorKind::BadMagic`] when `file` does not start with the
    /// 15-byte `.slp` header, `Truncated` when it is shorter than that.
    /// Damage after the header is reported by the event iterator and by
    /// [`SlippiView::metadata`], not here. Warnings are dropped; see
    /// [`parse_with`](Self::parse_with).
    pub fn parse(file: &'a [u8]) -> Result<Self> {
        Self::parse_with(file, &mut ())
    }

    /// [`parse`](Self::parse), reporting to `warn` a
    /// [`ZeroSizeEvent`](crate::WarningKind::ZeroSizeEvent) for each command
    /// the Event Payloads event declares with payload size 0 (slippi-js
    /// reads such an event as its command byte alone, and so do the
    /// iterators here).
    pub fn parse_with<W: Warn + ?Sized>(file: &'a [u8], warn: &mut W) -> Result<Self> {
        let view = Self::locate(file)?;
        view.report_quirks(false, warn)?;
        Ok(view)
    }

    /// [`parse`](Self::parse), refusing a command declared with payload
    /// size 0 ([`ErrorKind::Refused`](crate::ErrorKind::Refused)).
    pub fn parse_strict(file: &'a [u8]) -> Result<Self> {
        let view = Self::locate(file)?;
        view.report_quirks(true, &mut ())?;
        Ok(view)
    }

    fn report_quirks<W: Warn + ?Sized>(&self, strict: bool, warn: &mut W) -> Result<()> {
        let Some(&[CMD_EVENT_PAYLOADS, size]) = self.raw.get(..2) else {
            return Ok(());
        };
        let event = self
            .raw
            .get(..usize::from(size).saturating_add(1))
            .unwrap_or(self.raw);
        EventPayloads::new(event).report_quirks(HEADER_LEN, strict, warn)
    }

    fn locate(file: &'a [u8]) -> Result<Self> {
        let mut decoder = Decoder::new();
        let raw_len = match decoder.decode(file)? {
            Decoded::Record {
                record: Item::Header { raw_len },
                ..
            } => raw_len,
            _ => return Err(Error::truncated(file.len())),
        };
        let body = file.get(HEADER_LEN..).unwrap_or_default();
        if raw_len != 0 {
            let len = usize::try_from(raw_len)
                .unwrap_or(usize::MAX)
                .min(body.len());
            let (raw, after) = body.split_at_checked(len).unwrap_or((body, &[]));
            let (metadata, metadata_whole) = metadata_after(after);
            return Ok(Self {
                file,
                raw,
                declared_raw_len: raw_len,
                metadata,
                metadata_whole,
                game_end: None,
            });
        }
        // Length never patched: walk the event sizes to the raw end.
        let mut rest = body;
        let mut game_end = None;
        while decoder.in_raw() {
            // Ordinary events through the fast path; the rest (Game End
            // among them) through the full decode.
            rest = decoder.skip_fast(rest);
            match decoder.decode(rest) {
                Ok(Decoded::Record {
                    record: Item::Event(event),
                    consumed,
                }) => {
                    if let Event::GameEnd(e) = event {
                        game_end = Some(e.bytes());
                    }
                    rest = rest.get(consumed..).unwrap_or_default();
                }
                _ => break,
            }
        }
        let (raw, (metadata, metadata_whole)) = if decoder.in_raw() {
            (body, (None, false))
        } else {
            let used = body.len().saturating_sub(rest.len());
            (body.get(..used).unwrap_or_default(), metadata_after(rest))
        };
        Ok(Self {
            file,
            raw,
            declared_raw_len: 0,
            metadata,
            metadata_whole,
            game_end,
        })
    }

    /// The whole file.
    #[must_use]
    pub const fn file(&self) -> &'a [u8] {
        self.file
    }

    /// The raw event bytes. For an unpatched (length 0) file: the events up
    /// to the Game End, or everything after the header when the file ends
    /// first. For a file shorter than its declared length: what is there.
    #[must_use]
    pub const fn raw(&self) -> &'a [u8] {
        self.raw
    }

    /// The raw length written in the header (0 = never patched).
    #[must_use]
    pub const fn declared_raw_len(&self) -> u32 {
        self.declared_raw_len
    }

    /// The metadata element's UBJSON value bytes, when present.
    #[must_use]
    pub const fn metadata_bytes(&self) -> Option<&'a [u8]> {
        self.metadata
    }

    /// The parsed metadata; `Ok(None)` when the file has none.
    ///
    /// # Errors
    /// Damaged UBJSON in the metadata element.
    pub fn metadata(&self) -> Result<Option<Metadata<'a>>> {
        let Some(value) = self.metadata else {
            return Ok(None);
        };
        if self.metadata_whole {
            return Metadata::parse_whole(value).map(Some);
        }
        Metadata::parse(value).map(Some)
    }

    /// Every event, from the Event Payloads event on (see
    /// [`SlippiEventIter`]).
    #[must_use]
    pub fn events(&self) -> SlippiEventIter<'a> {
        SlippiEventIter::new(self.file)
    }

    /// The payload size table (fast: reads only the first event).
    ///
    /// # Errors
    /// A damaged Event Payloads event.
    pub fn payload_sizes(&self) -> Result<PayloadSizes> {
        PayloadSizes::parse(self.raw, HEADER_LEN)
    }

    /// Game Start without walking the frames: the second event.
    ///
    /// # Errors
    /// A damaged Event Payloads event, or a second event that is not Game
    /// Start.
    pub fn game_start(&self) -> Result<GameStart<'a>> {
        let mut events = self.events();
        let _payloads = events.next().transpose()?;
        match events.next().transpose()? {
            Some(Event::GameStart(g)) => Ok(g),
            Some(_) => Err(Error::corrupt("second event is not Game Start", HEADER_LEN)),
            None => Err(Error::truncated(self.file.len())),
        }
    }

    /// Game End without walking the frames, where the file allows it.
    ///
    /// For an unpatched file it is the one `parse` found. Otherwise it is
    /// the last event of the raw array, recognised by its command byte at
    /// the position its declared size gives *and* by the command byte of
    /// the event before it: some listed command whose declared size puts
    /// its first byte exactly there. `None` when that check fails:
    /// the file may still contain a Game End elsewhere, which only a full
    /// walk ([`SlippiView::events`]) finds.
    #[must_use]
    pub fn game_end(&self) -> Option<GameEnd<'a>> {
        if let Some(bytes) = self.game_end {
            return Some(GameEnd::new(bytes));
        }
        let sizes = self.payload_sizes().ok()?;
        let len = usize::from(sizes.get(CMD_GAME_END)?).checked_add(1)?;
        let start = self.raw.len().checked_sub(len)?;
        let event = self.raw.get(start..)?;
        if event.first() != Some(&CMD_GAME_END) {
            return None;
        }
        let preceded = sizes.iter().any(|(c, s)| {
            start
                .checked_sub(usize::from(s).saturating_add(1))
                .and_then(|p| self.raw.get(p))
                == Some(&c)
        });
        preceded.then(|| GameEnd::new(event))
    }

    /// How the raw events end, by a full walk of the event sizes.
    #[must_use]
    pub fn end(&self) -> End {
        let mut events = self.events();
        while let Some(Ok(_)) = events.next() {}
        events.end()
    }
}

/// The metadata value after the raw array: `U\x08metadata` then a UBJSON
/// value; `None` when absent. A damaged value is returned whole, so that
/// [`SlippiView::metadata`] reports the damage; the flag tells a whole
/// value (`true`) from a damaged one.
fn metadata_after(after: &[u8]) -> (Option<&[u8]>, bool) {
    let Some(value) = after.strip_prefix(super::METADATA_KEY) else {
        return (None, false);
    };
    match super::ubjson::value_len(value) {
        Ok(n) => (value.get(..n), true),
        Err(_) => (Some(value), false),
    }
}
