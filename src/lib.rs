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
//! # let bytes = gamefmt::datafile::SAMPLE;
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
#[cfg(feature = "datafile")]
pub mod datafile;
#[cfg(feature = "demo")]
pub mod demo;
pub mod error;
mod format;
pub mod huffman;
#[cfg(feature = "map")]
pub mod map;
#[cfg(feature = "slippi")]
pub mod slippi;
#[cfg(feature = "snapshot")]
pub mod snapshot;
#[cfg(feature = "teehistorian")]
pub mod teehistorian;
pub mod varint;

pub use error::{Error, ErrorKind, Result};
pub use format::Format;

/// `heapless`, whose `Vec` holds the per-frame lists of
/// [`slippi::Frame`].
#[cfg(feature = "slippi")]
pub use heapless;
/// `uuid`, whose `Uuid` names extended item types, teehistorian messages and
/// demo extensions.
#[cfg(any(feature = "datafile", feature = "snapshot", feature = "teehistorian"))]
pub use uuid;
/// `zerocopy`, whose endian integers (`little_endian::I32`,
/// `big_endian::U32`, ...) make up the wire structs of datafiles, maps,
/// snapshots and demos (and whose `FromBytes`/`IntoBytes` read and write
/// them).
#[cfg(any(feature = "datafile", feature = "snapshot"))]
pub use zerocopy;
