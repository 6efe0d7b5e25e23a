//! [`SliceIter`]: the one slice iterator, the records of any stream format
//! from a whole input in memory, and [`SliceDecoder`], the hook through
//! which a format steps it (and runs its own fast loops).
//!
//! ```
//! use gamefmt::slippi::{Decoder, SlippiEventIter, SAMPLE};
//! use gamefmt::stream::{End, SliceIter};
//!
//! // A format's iterator is this type with its decoder.
//! let mut events: SliceIter<'_, Decoder> = SlippiEventIter::new(SAMPLE);
//! assert_eq!(events.by_ref().count(), 9);
//! assert_eq!(events.end(), End::Complete);
//! ```

use core::iter::FusedIterator;

use super::{Decoder, End};
use crate::error::Result;

/// A push [`Decoder`] that a [`SliceIter`] runs over an input in memory:
/// which of its records the iterator yields, and how it steps. The hook
/// of this crate's stream formats (sealed): each steps the iterator's
/// state itself, on its own measured fast paths.
///
/// A step moves the iterator on past what it took (its `rest`, the input
/// not consumed yet). It answers `None` at the end and one
/// `Some(Err(e))` for damage, as [the truncation
/// rule](super#the-truncation-rule) says, and `None` ever after (the
/// iterator is fused).
pub trait SliceDecoder: Decoder + Sized + Sealed {
    /// What the iterator yields: the decoder's records, or those of them
    /// that a file in memory has after its header.
    type Item<'a>;

    /// The next item: [`Iterator::next`].
    fn next_item<'a>(iter: &mut SliceIter<'a, Self>) -> Option<Result<Self::Item<'a>>>;

    /// The loop behind [`Iterator::fold`] (and so `for_each`, `count`,
    /// `sum`, ...): the same items as [`SliceDecoder::next_item`] called
    /// until `None`, which is what it does unless a format has a measured
    /// faster loop of its own.
    #[inline]
    fn fold_items<'a, B, F>(mut iter: SliceIter<'a, Self>, init: B, mut f: F) -> B
    where
        F: FnMut(B, Result<Self::Item<'a>>) -> B,
    {
        let mut acc = init;
        while let Some(item) = Self::next_item(&mut iter) {
            acc = f(acc, item);
        }
        acc
    }
}

/// Only this crate's formats implement [`SliceDecoder`]: its steps move
/// the iterator's private state.
pub trait Sealed {}

/// The step of a format whose items are its decoder's records: one
/// [`Decoder::decode`], stopped by anything but a record.
#[cfg(feature = "demo")]
#[inline]
pub(crate) fn next_record<'a, D: Decoder>(
    iter: &mut SliceIter<'a, D>,
) -> Option<Result<D::Record<'a>>> {
    if iter.stopped {
        return None;
    }
    match iter.decoder.decode(iter.rest) {
        Ok(super::Decoded::Record { record, consumed }) => {
            iter.rest = iter.rest.get(consumed..).unwrap_or_default();
            Some(Ok(record))
        }
        Ok(super::Decoded::NeedMore { .. } | super::Decoded::Done { .. }) => {
            iter.stopped = true;
            None
        }
        Err(e) => {
            iter.stopped = true;
            Some(Err(e))
        }
    }
}

/// Iterates over the records of a stream held in memory, through the
/// format's decoder `D`: each format names it with its decoder
/// (`TeehistorianIter`, `SlippiEventIter`, `DemoChunkIter`) and has its
/// own `new`.
///
/// Yields `Result<item>`, borrowing from the input; fused after the first
/// error. An input cut inside a record ends quietly after the last whole
/// one; once the iterator returned `None`, [`SliceIter::end`] tells how
/// the stream ended ([the truncation rule](super#the-truncation-rule)).
#[derive(Clone, Debug)]
pub struct SliceIter<'a, D> {
    /// The whole input, as given.
    #[cfg_attr(
        not(feature = "teehistorian"),
        allow(dead_code, reason = "teehistorian's steps read from the whole input")
    )]
    pub(crate) input: &'a [u8],
    /// The input not consumed yet.
    pub(crate) rest: &'a [u8],
    pub(crate) decoder: D,
    /// Iteration is over (the end of the stream, or an error), for the
    /// formats whose decoder does not say so itself (teehistorian's
    /// does).
    #[cfg_attr(
        not(any(feature = "slippi", feature = "demo")),
        allow(dead_code, reason = "teehistorian's decoder tells its end")
    )]
    pub(crate) stopped: bool,
}

impl<'a, D> SliceIter<'a, D> {
    /// Iterates `decoder`'s records from `rest`, the end of `input` that
    /// it has not consumed yet.
    pub(crate) const fn with_decoder(decoder: D, input: &'a [u8], rest: &'a [u8]) -> Self {
        Self {
            input,
            rest,
            decoder,
            stopped: false,
        }
    }

    /// The decoder (its state after the last record yielded).
    #[must_use]
    pub const fn decoder(&self) -> &D {
        &self.decoder
    }
}

impl<D: SliceDecoder> SliceIter<'_, D> {
    /// How the stream ended (meaningful once the iterator returned `None`
    /// or an error; before that, as if the input ended here).
    #[must_use]
    pub fn end(&self) -> End {
        self.decoder.end(self.rest.len())
    }

    /// The offset of the next byte to decode, from the start of the
    /// stream ([`Decoder::offset`]).
    #[must_use]
    pub fn offset(&self) -> usize {
        self.decoder.offset()
    }
}

impl<'a, D: SliceDecoder> Iterator for SliceIter<'a, D> {
    type Item = Result<D::Item<'a>>;

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        D::next_item(self)
    }

    #[inline]
    fn fold<B, F>(self, init: B, f: F) -> B
    where
        F: FnMut(B, Self::Item) -> B,
    {
        D::fold_items(self, init, f)
    }
}

impl<D: SliceDecoder> FusedIterator for SliceIter<'_, D> {}
