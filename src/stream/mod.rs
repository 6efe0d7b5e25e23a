//! The one streaming contract that every stream format follows
//! (teehistorian, Slippi, demos).
//!
//! Each stream format has one push decoder, which implements [`Decoder`],
//! and three ways in built on it:
//!
//! 1. the slice iterator [`SliceIter`] over a file in memory (each
//!    format's `TeehistorianIter`, `SlippiEventIter`, `DemoChunkIter`):
//!    an `Iterator` of `Result<record>`, fused after the first error,
//!    stepped through the format's [`SliceDecoder`] hook;
//! 2. the push decoder itself, fed whatever bytes the caller has: it
//!    answers one record and the bytes it consumed, or
//!    [`Decoded::NeedMore`] (a status, never an error), or
//!    [`Decoded::Done`];
//! 3. [`Reader`] (feature `std`): the one refill loop over any `io::Read`;
//!    [`EmbeddedReader`] and [`AsyncReader`] (features `embedded-io`,
//!    `embedded-io-async`) the same over a caller's buffer.
//!
//! Stages above records take records from any of the three: Slippi frame
//! grouping (`slippi::FrameGrouper`) and demo snapshot reconstruction
//! (`demo::Reconstructor`).
//!
//! Error offsets always count from the start of the input the caller gave
//! (file offsets for a [`Reader`]).
//!
//! # The truncation rule
//!
//! How a stream ends is one [`End`], the same in every format:
//! [`End::Complete`] (the end marker), [`End::Eof`] (the input ended
//! between two records without it), [`End::Truncated`] (the input ended
//! inside a record, at its offset) or [`End::Damaged`] (an error).
//!
//! - **A cut is not an error.** A stream that ends inside a record ends
//!   quietly after the last whole record: the iterator returns `None`
//!   (the `Reader` too), and `end()` answers [`End::Truncated`] with the
//!   offset of the cut record. A live or crashed writer produces exactly
//!   such files, and every record before the cut is good.
//! - **Damage is an error,** returned once (`Some(Err(e))`), after which
//!   the iterator, decoder or reader is fused; `end()` answers
//!   [`End::Damaged`]`(e)`.
//!
//! So a caller that needs a whole stream checks `end()` after the loop.
//!
//! # The header-first rule
//!
//! A stream's header is its first record: [`crate::slippi::Item::Header`],
//! [`crate::teehistorian::Item::Header`] (or, when the JSON text is longer than
//! a fixed buffer, its [`crate::teehistorian::Item::HeaderPiece`]s),
//! [`crate::demo::Item::Header`]. Once the
//! decoder has decoded it, it keeps the header's facts, owned and of a
//! fixed size ([`Decoder::Header`]), and [`Decoder::header`] answers them;
//! so does `header()` on [`Reader`], [`EmbeddedReader`] and
//! [`AsyncReader`], `None` before the first record. What does not fit a
//! fixed size (the teehistorian JSON text, long and borrowed; a demo's
//! embedded map, which follows in [`crate::demo::Item::MapPiece`]s) is in
//! the records only.
//!
//! # The naming rule
//!
//! In each stream format's module:
//!
//! - `Decoder`: the push decoder of the format's stream ([`Decoder`]),
//!   from the file's first byte; a decoder of a part of the stream is
//!   named for it ([`crate::demo::ChunkDecoder`]: the chunks after a
//!   demo's map);
//! - `Item<'a>`: its record, the header first, then the format's records;
//! - `Reader<R>`: an alias of [`Reader`] with that decoder, with `new` and
//!   `with_capacity`; the embedded readers are [`EmbeddedReader`] and
//!   [`AsyncReader`] with the decoder (`with_decoder`);
//! - `<Format>Header`: the owned, fixed-size header facts the decoder keeps
//!   ([`Decoder::Header`]: [`crate::slippi::SlippiHeader`],
//!   [`crate::teehistorian::TeehistorianHeader`], [`crate::demo::DemoHeader`]); a header
//!   borrowed from the input is `Header<'a>` ([`crate::teehistorian::Header`]);
//! - `<Format>View`: a whole file in memory, borrowed; `<Format><Records>Iter`:
//!   its slice iterator, an alias of [`SliceIter`] with that decoder, with
//!   its own `new` ([`crate::teehistorian::TeehistorianIter`],
//!   [`crate::slippi::SlippiEventIter`], [`crate::demo::DemoChunkIter`]).
//!
//! ```
//! use gamefmt::slippi::{Item, Reader, SAMPLE};
//!
//! let mut reader = Reader::new(SAMPLE); // any io::Read
//! assert_eq!(reader.header(), None);
//! let Some(Ok(Item::Header { raw_len })) = reader.next() else { panic!("the header first") };
//! assert_eq!(reader.header().map(|h| h.raw_len()), Some(raw_len));
//! # Ok::<(), gamefmt::stream::ReadError>(())
//! ```
//!
//! ```
//! use gamefmt::stream::End;
//! use gamefmt::teehistorian::{TeehistorianIter, SAMPLE};
//!
//! let cut = &SAMPLE[..SAMPLE.len() - 2]; // inside the last message
//! let mut iter = TeehistorianIter::new(cut)?;
//! let records = iter.by_ref().collect::<Result<Vec<_>, _>>()?;
//! assert!(!records.is_empty());
//! assert!(matches!(iter.end(), End::Truncated { .. }));
//! assert!(records.len() < TeehistorianIter::new(SAMPLE)?.count());
//! # Ok::<(), gamefmt::Error>(())
//! ```

mod decoder;
#[cfg(any(feature = "embedded-io", feature = "embedded-io-async"))]
mod embedded;
mod end;
mod error;
#[cfg(feature = "std")]
mod reader;
#[cfg_attr(
    not(any(
        feature = "std",
        feature = "embedded-io",
        feature = "embedded-io-async"
    )),
    allow(dead_code, reason = "the refill loop serves the readers only")
)]
mod refill;
#[cfg_attr(
    not(any(feature = "demo", feature = "slippi", feature = "teehistorian")),
    allow(dead_code, reason = "the steps serve the formats' iterators only")
)]
mod slice;

pub use decoder::{Decoded, Decoder};
#[cfg(feature = "embedded-io-async")]
pub use embedded::AsyncReader;
#[cfg(feature = "embedded-io")]
pub use embedded::EmbeddedReader;
pub use end::End;
pub use error::{DefaultSourceError, ReadError};
#[cfg(feature = "std")]
pub use reader::{DEFAULT_CAPACITY, Reader};
#[cfg_attr(
    not(any(feature = "demo", feature = "slippi", feature = "teehistorian")),
    allow(unused_imports, reason = "the seal serves the formats' iterators only")
)]
pub(crate) use slice::Sealed;
#[cfg(feature = "demo")]
pub(crate) use slice::next_record;
pub use slice::{SliceDecoder, SliceIter};
