//! The push-decoding contract: [`Decoder`] and its answer, [`Decoded`].

use super::End;
use crate::error::Result;

/// One answer of a push [`Decoder`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Decoded<T> {
    /// One whole record, which took the first `consumed` bytes of the
    /// input: drop them before the next call.
    Record {
        /// The record, borrowing from the input.
        record: T,
        /// Bytes of the input it took.
        consumed: usize,
    },
    /// The input does not hold a whole record yet: call again with the
    /// same bytes plus more. Nothing was consumed and the decoder did not
    /// change. A status, not an error.
    NeedMore {
        /// The least input length (counted from the start of the bytes
        /// given) that can hold the next record, when the bytes seen tell
        /// it; `None` when they do not.
        needed: Option<usize>,
    },
    /// The stream is over: its end marker was decoded, or its closing
    /// bytes, which took the first `consumed` bytes of the input (0 when
    /// nothing was left to close). Bytes after them are not read.
    Done {
        /// Bytes of the input the closing took.
        consumed: usize,
    },
}

/// A push decoder: the caller owns the bytes and feeds whatever it has;
/// each call decodes at most one record.
///
/// The contract, the same for every format:
///
/// - [`Decoder::decode`] is given the bytes not consumed so far (the same
///   unconsumed bytes again after [`Decoded::NeedMore`], plus new ones).
/// - It answers one record and the bytes it took, or "need more", or
///   "done"; it never fails for lack of bytes.
/// - After an error it is fused: every later call returns the same error.
/// - Error offsets count from the start of the stream (the first byte ever
///   fed), not from the start of the current call's input.
/// - When the caller's buffer is full and the answer is still
///   [`Decoded::NeedMore`], [`Decoder::decode_piece`] delivers what a
///   format can deliver of an oversized record (the teehistorian header);
///   otherwise the record does not fit the buffer.
/// - [`Decoder::end`] tells how the stream ended when the input ends.
/// - The stream's header is its first record, and once it is decoded,
///   [`Decoder::header`] keeps its facts (see
///   [the header-first rule](super#the-header-first-rule)).
///
/// The slice iterators and [`Reader`](super::Reader) are loops over it.
pub trait Decoder {
    /// One record, borrowing from the input.
    type Record<'a>;

    /// The facts of the stream's header that the decoder keeps once it
    /// has decoded it: owned, of a fixed size, no allocation (a format's
    /// `<Format>Header`, e.g. [`DemoHeader`](crate::demo::DemoHeader)); `()`
    /// for a stream without a header.
    type Header;

    /// The largest record, in bytes, that this format produces in one
    /// piece in practice; [`Reader::new`](super::Reader) grows its buffer up
    /// to this size and not beyond.
    const MAX_RECORD: usize;

    /// Decodes the next record from the start of `input`.
    ///
    /// # Errors
    /// The format's decoding errors, with offsets from the start of the
    /// stream. The decoder is fused afterwards.
    fn decode<'a>(&mut self, input: &'a [u8]) -> Result<Decoded<Self::Record<'a>>>;

    /// Called when `input` fills the caller's whole buffer and
    /// [`Decoder::decode`] answered [`Decoded::NeedMore`]: the first piece
    /// of a record that the format can deliver in pieces, and the bytes it
    /// took; `None` when the record cannot be split (it does not fit the
    /// buffer).
    ///
    /// # Errors
    /// As [`Decoder::decode`].
    fn decode_piece<'a>(&mut self, input: &'a [u8]) -> Result<Option<(Self::Record<'a>, usize)>> {
        let _ = input;
        Ok(None)
    }

    /// Whether [`Decoder::decode`] would answer [`Decoded::NeedMore`] for
    /// `input`, told without changing the decoder: `Some(needed)`, that
    /// answer's `needed`, if it would; `None` if it would answer anything
    /// else (a record, done, or an error).
    ///
    /// A reader asks this before it decodes a record from its buffer, so
    /// that the decode holds the only borrow of the buffer: the record it
    /// returns. Each format answers from the record's framing (its length
    /// prefix, command byte or packed ints), never by decoding on a copy
    /// of the decoder: the readers' stack then holds one decoder and one
    /// record (on a Cortex-M, a Slippi decoder is about 1 KiB).
    fn need_more(&self, input: &[u8]) -> Option<Option<usize>>;

    /// Bytes consumed since the start of the stream: the offset of the next
    /// input byte.
    fn offset(&self) -> usize;

    /// The header's facts, once the header (the first record) has been
    /// decoded; `None` before, and always for a stream without a header.
    fn header(&self) -> Option<&Self::Header>;

    /// How the stream ended if the input ends now, with `unconsumed` bytes
    /// fed but not consumed.
    fn end(&self, unconsumed: usize) -> End;
}
