//! `gamefmt`: zero-copy, allocation-free, streaming decoders for game data
//! formats.
//!
//! | module | format |
//! |---|---|
//! | [`datafile`] | Teeworlds/DDNet datafiles (`.map`), versions 3 and 4 |
//! | [`map`] | Teeworlds/DDNet map content: info, images, groups, layers, tiles, quads, envelopes, sounds |
//! | [`snapshot`] | Teeworlds/DDNet snapshots and snapshot deltas |
//! | [`demo`] | Teeworlds/DDNet demo files (`.demo`), versions 3 to 6 |
//! | [`slippi`] | Slippi `.slp` replays (Super Smash Bros. Melee), spec 0.1.0–3.18.0 |
//! | [`teehistorian`] | DDNet teehistorian server recordings, versions 1 and 2 |
//!
//! Stream formats (teehistorian, Slippi, demo chunks) share one contract,
//! [`stream`]: a slice iterator, a push decoder and a `Reader` per format,
//! one [`stream::End`] for how a stream ended, and one truncation rule —
//! a stream cut inside a record ends quietly after the last whole record
//! and `end()` says [`stream::End::Truncated`]; damage is an error.
//!
//! Shared primitives: [`error`] (one small `Copy` error with a byte offset),
//! [`bytes`] (a bounds-checked cursor), [`varint`] (the Teeworlds packed
//! int), [`huffman`] (the Teeworlds Huffman code).
//!
//! # Features
//!
//! `alloc` (owned writers and `Vec`-returning conveniences) · `std` (implies
//! `alloc`; `io::Read` adapters) · `defmt` (`defmt::Format` on errors and
//! small public types) · `cli` (implies `std`; the `gamefmt` binary). With no
//! features the crate is `#![no_std]` and never allocates.
//!
//! # Example
//!
//! ```
//! # fn main() -> Result<(), gamefmt::Error> {
//! # let bytes = gamefmt::datafile::SAMPLE_MAP;
//! use gamefmt::datafile::DatafileView;
//! let map = DatafileView::parse(bytes)?;
//! for item in map.items() {
//!     let _ = (item.type_id(), item.id(), item.data());
//! }
//! # Ok(()) }
//! ```
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
// Every lint exception in the library says why (see SECURITY.md).
#![deny(clippy::allow_attributes_without_reason)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(any(test, feature = "std"))]
extern crate std;

pub mod bytes;
pub mod datafile;
pub mod demo;
pub mod error;
mod format;
pub mod huffman;
pub mod map;
pub mod slippi;
pub mod snapshot;
pub mod stream;
pub mod teehistorian;
pub mod varint;

pub use error::{Error, ErrorKind, Result};
pub use format::Format;
