//! [`SlippiEventIter`], the slice iterator over the raw event stream.

use core::iter::FusedIterator;

use crate::error::Result;
use crate::stream::{Decoded, End};

use super::decoder::{Decoder, Item};
use super::events::Event;

/// Iterator over every event of a `.slp` file held in memory.
///
/// Built on [`Decoder`]: it yields the Event Payloads event first, then
/// every event by its declared size, and stops after the raw array (for a
/// file whose raw length was never patched: after Game End, or at the end
/// of the input). Yields `Result<Event>`; fused after the first error.
/// A file cut inside an event ends quietly after the last whole event
/// ([the truncation rule](crate::stream#the-truncation-rule)); after
/// `None`, [`SlippiEventIter::end`] tells how the stream ended.
#[derive(Clone, Debug)]
pub struct SlippiEventIter<'a> {
    rest: &'a [u8],
    decoder: Decoder,
    failed: bool,
}

impl<'a> SlippiEventIter<'a> {
    /// Iterates the events of a whole `.slp` file (header included).
    #[must_use]
    pub fn new(file: &'a [u8]) -> Self {
        Self {
            rest: file,
            decoder: Decoder::new(),
            failed: false,
        }
    }

    /// Everything but the ordinary event: header, payload table, Game End,
    /// the end of raw, truncation and errors. Kept out of line so that
    /// `next` stays small enough to inline into the caller's loop, where
    /// the event then stays in registers.
    #[cold]
    #[inline(never)]
    fn next_slow(&mut self) -> Result<Option<Event<'a>>> {
        loop {
            // The event stream ends with raw; what follows (metadata) is
            // SlippiView's and the Decoder's business, not an event error.
            if self.failed || !self.decoder.in_raw() {
                return Ok(None);
            }
            match self.decoder.decode(self.rest) {
                Ok(Decoded::Record { record, consumed }) => {
                    self.rest = self.rest.get(consumed..).unwrap_or_default();
                    match record {
                        Item::Event(e) => return Ok(Some(e)),
                        Item::Header { .. } => {}
                        Item::Metadata(_) => return Ok(None),
                    }
                }
                Ok(Decoded::NeedMore { .. } | Decoded::Done { .. }) => return Ok(None),
                // Damage in the metadata is not an event error.
                Err(_) if !self.decoder.in_raw() => return Ok(None),
                Err(e) => {
                    self.failed = true;
                    return Err(e);
                }
            }
        }
    }

    /// How the stream ended (meaningful once the iterator returned `None`
    /// or an error; before that, as if the input ended here).
    #[must_use]
    pub fn end(&self) -> End {
        self.decoder.end(self.rest.len())
    }

    /// The decoder state (payload table, raw length, Game End seen).
    #[must_use]
    pub const fn decoder(&self) -> &Decoder {
        &self.decoder
    }
}

impl<'a> Iterator for SlippiEventIter<'a> {
    type Item = Result<Event<'a>>;

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        let fast = if self.failed {
            None
        } else {
            self.decoder.fast_event(self.rest)
        };
        if let Some((event, rest)) = fast.and_then(|n| self.rest.split_at_checked(n)) {
            self.rest = rest;
            return Some(Ok(Event::parse(event)));
        }
        self.next_slow().transpose()
    }
}

impl FusedIterator for SlippiEventIter<'_> {}
