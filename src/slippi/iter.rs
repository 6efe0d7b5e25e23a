//! [`SlippiEventIter`], the slice iterator over the raw event stream: the
//! [`SliceIter`] of [`Decoder`], whose step takes the ordinary events on a
//! fast path.

use crate::error::Result;
use crate::stream::{Decoded, Sealed, SliceDecoder, SliceIter};

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
/// `None`, [`SliceIter::end`] tells how the stream ended, and
/// [`SliceIter::decoder`] has the decoder's state (payload table, raw
/// length, Game End seen).
pub type SlippiEventIter<'a> = SliceIter<'a, Decoder>;

impl<'a> SliceIter<'a, Decoder> {
    /// Iterates the events of a whole `.slp` file (header included).
    #[must_use]
    pub const fn new(file: &'a [u8]) -> Self {
        Self::with_decoder(Decoder::new(), file, file)
    }
}

impl Sealed for Decoder {}

impl SliceDecoder for Decoder {
    type Item<'a> = Event<'a>;

    #[inline(always)]
    fn next_item<'a>(iter: &mut SliceIter<'a, Self>) -> Option<Result<Event<'a>>> {
        // After an error `rest` is empty, so the fast path declines.
        if let Some((event, rest)) = iter.decoder.fast_event(iter.rest) {
            iter.rest = rest;
            return Some(Ok(Event::parse(event)));
        }
        let (next, rest) = next_slow(&mut iter.decoder, iter.rest, iter.stopped);
        iter.rest = rest;
        if next.is_err() {
            iter.stopped = true;
        }
        next.transpose()
    }
}

/// Everything but the ordinary event: header, payload table, Game End, the
/// end of raw, truncation and errors; returns the rest of the input (empty
/// after an error). Kept out of line so that `next` stays small enough to
/// inline into the caller's loop, and a free function taking the input by
/// value so that the iterator's `rest` never escapes: the caller's loop
/// then keeps it in registers.
#[cold]
#[inline(never)]
fn next_slow<'a>(
    decoder: &mut Decoder,
    mut rest: &'a [u8],
    failed: bool,
) -> (Result<Option<Event<'a>>>, &'a [u8]) {
    loop {
        // The event stream ends with raw; what follows (metadata) is
        // SlippiView's and the Decoder's business, not an event error.
        if failed || !decoder.in_raw() {
            return (Ok(None), rest);
        }
        match decoder.decode(rest) {
            Ok(Decoded::Record { record, consumed }) => {
                rest = rest.get(consumed..).unwrap_or_default();
                match record {
                    Item::Event(e) => return (Ok(Some(e)), rest),
                    Item::Header { .. } => {}
                    Item::Metadata(_) => return (Ok(None), rest),
                }
            }
            Ok(Decoded::NeedMore { .. } | Decoded::Done { .. }) => return (Ok(None), rest),
            // Damage in the metadata is not an event error.
            Err(_) if !decoder.in_raw() => return (Ok(None), rest),
            Err(e) => return (Err(e), &[]),
        }
    }
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::panic,
    reason = "unit tests: a panic is the failure report"
)]
mod tests {
    extern crate alloc;
    use alloc::vec::Vec;

    use super::*;
    use crate::slippi::SIGNATURE;
    use crate::stream::End;

    /// A stream with a command of size 0 (the command byte alone), one of
    /// size 65 535 (whose length does not fit the fast path's table), Game
    /// End and the closing `}`; `patched`: the raw length declared, else 0.
    fn stream(patched: bool) -> Vec<u8> {
        let mut raw = alloc::vec![0x35, 13];
        for (code, size) in [(0x37u8, 2u16), (0x40, 0), (0x41, 0xFFFF), (0x39, 1)] {
            raw.push(code);
            raw.extend_from_slice(&size.to_be_bytes());
        }
        raw.extend_from_slice(&[0x37, 1, 2, 0x40, 0x41]);
        raw.resize(raw.len() + 0xFFFF, 7);
        raw.extend_from_slice(&[0x37, 3, 4, 0x39, 2]);
        let mut file = SIGNATURE.to_vec();
        let len = if patched { raw.len() as u32 } else { 0 };
        file.extend_from_slice(&len.to_be_bytes());
        file.extend_from_slice(&raw);
        file.push(b'}');
        file
    }

    #[test]
    fn fast_path_agrees_with_the_full_decode() {
        let expected = [
            (0x35, 14),
            (0x37, 3),
            (0x40, 1),
            (0x41, 0x10000),
            (0x37, 3),
            (0x39, 2),
        ];
        for patched in [false, true] {
            let file = stream(patched);
            // The iterator (fast path for the ordinary events) ...
            let mut it = SlippiEventIter::new(&file);
            let mut fast = Vec::new();
            while let Some(e) = it.next() {
                let e = e.unwrap();
                fast.push((e.code(), e.payload().len() + 1, it.decoder().offset()));
            }
            assert_eq!(it.end(), End::Complete);
            // ... and the full decode, one record at a time.
            let mut decoder = Decoder::new();
            let (mut full, mut used) = (Vec::new(), 0);
            while let Ok(Decoded::Record { record, consumed }) = decoder.decode(&file[used..]) {
                used += consumed;
                if let Item::Event(e) = record {
                    full.push((e.code(), e.payload().len() + 1, decoder.offset()));
                }
            }
            assert_eq!(fast, full, "patched: {patched}");
            let codes: Vec<_> = fast.iter().map(|&(c, n, _)| (c, n)).collect();
            assert_eq!(codes, expected, "patched: {patched}");
            assert_eq!(fast.last().unwrap().2, file.len() - 1);
        }
    }
}
