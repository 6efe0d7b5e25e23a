//! `gamefmt`: zero-copy, allocation-free, streaming decoders for game data
//! formats.
//!
//! | module | format | view | iterator | push decoder | reader (`std`) | writer (`alloc`) |
//! |---|---|---|---|---|---|---|
//! | [`datafile`] | Teeworlds/DDNet datafiles (`.map`), versions 3 and 4 | [`DatafileView`](datafile::DatafileView) | [`datafile::Items`] | | | [`DatafileWriter`](datafile::DatafileWriter) |
//! | [`map`] | map content: info, images, groups, layers, tiles, quads, envelopes, sounds | [`MapView`](map::MapView) | [`MapView::groups`](map::MapView::groups), [`Group::layers`](map::Group::layers), ... | | | |
//! | [`snapshot`] | snapshots and snapshot deltas | [`SnapshotView`](snapshot::SnapshotView), [`DeltaView`](snapshot::DeltaView) | [`snapshot::Items`], [`ItemDeltas`](snapshot::ItemDeltas) | | | [`SnapshotBuilder`](snapshot::SnapshotBuilder), [`create_delta`](snapshot::create_delta) |
//! | [`demo`] | demo files (`.demo`), versions 3 to 6 | [`DemoView`](demo::DemoView) | [`demo::DemoChunkIter`], [`demo::Frames`] | [`demo::Decoder`] | [`demo::Reader`] | |
//! | [`teehistorian`] | DDNet teehistorian server recordings, versions 1 and 2 | [`Header`](teehistorian::Header) | [`TeehistorianIter`](teehistorian::TeehistorianIter) | [`teehistorian::Decoder`] | [`teehistorian::Reader`] | [`TeehistorianWriter`](teehistorian::TeehistorianWriter) |
//! | [`slippi`] | Slippi `.slp` replays (Super Smash Bros. Melee), spec 0.1.0–3.18.0 | [`SlippiView`](slippi::SlippiView) | [`SlippiEventIter`](slippi::SlippiEventIter), [`slippi::Frames`] | [`slippi::Decoder`] | [`slippi::Reader`] | [`SlippiWriter`](slippi::SlippiWriter) |
//!
//! Each module has a `SAMPLE` file to try it on (`datafile::SAMPLE`,
//! `teehistorian::SAMPLE`, `slippi::SAMPLE`), and [`Format::detect`] tells
//! the formats apart by their first bytes.
//!
//! Demos, teehistorian and Slippi replays are streams that follow one
//! contract, [`stream`], and are read three ways that decode alike: a
//! slice iterator over a file in memory, a push decoder fed whatever bytes
//! the caller has (it answers one record and the bytes it consumed, or
//! "need more", which is a status and never an error), and the one generic
//! [`stream::Reader`] over any `io::Read` (`std`). One [`stream::End`] says
//! how a stream ended, under one truncation rule: a stream cut inside a
//! record ends quietly after the last whole record and `end()` says
//! [`stream::End::Truncated`]; damage is an error. Each decoder yields
//! its header first and keeps its facts for `header()` on every reader;
//! the stream types are named by one rule (both in [`stream`]). Frame grouping
//! ([`slippi::FrameGrouper`]) and snapshot reconstruction
//! ([`demo::Reconstructor`]) take records from any of the three.
//!
//! Game knowledge on top: [`netmsg`] decodes every network message DDNet
//! defines, as demos and teehistorian recordings carry them (chat, kills,
//! votes, map changes, rcon lines, tune parameters, race times, …),
//! `snapshot::objects` types every snapshot object and event (characters,
//! players, client info with names, DDNet's extended objects, …), `teehistorian` tells chat commands
//! and tracks player names, `slippi` names characters and stages and tells
//! the winners.
//!
//! Shared primitives: [`error`] (one small `Copy` error with a byte offset),
//! [`warning`] (the quirks read past), [`bytes`] (a bounds-checked
//! cursor), [`varint`] (the Teeworlds packed int), [`huffman`] (the
//! Teeworlds Huffman code), `i32string` (names
//! stored as ints in map and snapshot items), [`Protocol`] (the Teeworlds
//! 0.6/DDNet or 0.7 numbering of messages and snapshot objects).
//!
//! # Compatibility policy
//!
//! By default the decoders read what the engines that play these files
//! read — Teeworlds 0.6/0.7, DDNet and the mods built on them; for Slippi,
//! slippi-js — and report every oddity as a [`Warning`] to a sink the
//! caller passes (`parse_with`; any [`Warn`]: a closure, `()`, a
//! [`Warnings`], a `Vec`), never as a refusal. Warnings are found while
//! validating, not on per-record paths, and the sink is generic: ignoring
//! them costs nothing. `parse_strict` turns them into errors
//! ([`ErrorKind::Refused`]) where current DDNet refuses the file or the
//! data (DDNet 28baa427, 2026-08, `src/engine/shared/datafile.cpp` and
//! `src/engine/shared/map.cpp`); for Slippi, strict refuses every quirk.
//! The CLI's `--strict` is the same switch.
//!
//! | quirk | warning | read by default as | accepted by | refused by (= strict) |
//! |---|---|---|---|---|
//! | v4 data item declared 0 bytes long, its zlib stream inflating to nothing (stock 0.6 editor, empty quad layers) | [`EmptyDataItem`](WarningKind::EmptyDataItem) | an empty item | Teeworlds 0.6/0.7, DDNet (file opens since e3d028bd, 2025-05) | DDNet declines that one item: strict `decompress` fails, the file opens |
//! | two items of one type with the same id (type 0xFFFF excepted) | [`DuplicateItemId`](WarningKind::DuplicateItemId) | both items; lookups by id take the first in file order | Teeworlds 0.6/0.7, DDNet before 2025-03, mods | DDNet since 4de2f4f6 (2025-03): the whole file |
//! | 2010-era DDRace switch layer, 2 bytes a tile | [`OldSwitchLayout`](WarningKind::OldSwitchLayout) | today's switch tiles (number, type; flags and delay 0), as DDNet's converter did | DDNet's 2010 editor (converted), twmap | DDNet ("tile data is truncated"): strict `data_into` fails, the map opens |
//! | 2010-era DDRace speedup layer, 4 bytes a tile | [`OldSpeedupLayout`](WarningKind::OldSpeedupLayout) | today's speedup tiles (force, type, angle; max speed 0; a type of 0, the first layout's padding, reads as 28, the old boost) | twmap | DDNet ("tile data is truncated"): strict `data_into` fails |
//! | a rule only current DDNet's map loader has (a layer in two groups, a tile layer under 2 × 2 or named in invalid UTF-8, a design colour outside 0..=255, no game layer, a tile data item shared or out of range, a physics layer smaller than the game layer) | [`DdnetRule`](WarningKind::DdnetRule) | the map as it is | Teeworlds 0.6/0.7, older DDNet | DDNet's `CMap::Load`: the map |
//! | more than one physics layer of a kind (two sets of front/tele/speedup/switch in a 2010-era DDRace game group) | [`DuplicatePhysicsLayer`](WarningKind::DuplicatePhysicsLayer) | every layer as stored; [`MapView::physics_layer`](map::MapView::physics_layer) gives the last of each kind, as DDNet uses | Teeworlds (ignores them), DDNet's game (`CLayers::Init`: the last of each kind) and editor (the last is its tele/front/... layer) | nobody: strict reads it alike |
//! | an embedded image that says RGBA (a version 1 item always does) holding width × height × 3 bytes | [`RgbDataInRgbaImage`](WarningKind::RgbDataInRgbaImage) | RGB pixels ([`Image::data_format`](map::Image::data_format)) | Teeworlds 0.6 (uploads it as RGBA, reading past the data), DDNet plays the map without that image | DDNet's `CMapImages` leaves the image out ("failed to load data"): strict `pixels_into` fails, the map opens |
//! | tile data with a skip or padding byte set (not TW0.7 run-length), speedup padding set | none (found only when read) | the tiles as stored | Teeworlds | DDNet on load of that data: strict `data_into` fails |
//! | Slippi command with payload size 0 in Event Payloads | [`ZeroSizeEvent`](WarningKind::ZeroSizeEvent) | events of that command are the command byte alone; the stream goes on | slippi-js | strict `SlippiView::parse_strict` |
//!
//! Other tolerances are no quirk and give no warning, as every engine
//! reads them: old v4 writers' `size`/`swaplen` fields, duplicate 0xFFFF
//! items, DDRace-era tilemaps with a prefix of the physics indices.
//!
//! # Features
//!
//! `datafile`, `map` (implies `datafile`), `snapshot`, `demo` (implies
//! `snapshot`; [`DemoView::map`](demo::DemoView::map) also needs
//! `datafile`), `teehistorian`, `slippi`, `netmsg`: one per format, each
//! pulling only the dependencies it needs · `alloc` (owned writers and `Vec`-returning
//! conveniences) · `std` (implies `alloc`; `io::Read` adapters) · `defmt`
//! (`defmt::Format` on errors and small public types) · `serde`
//! (`serde::Serialize` for every record: [`vocabulary`]) · `slpz` (implies
//! `std` and `slippi`; `.slpz` compressed replays read back to `.slp`
//! through ruzstd). The default is `std` and every
//! format. Without `std` and `alloc` the crate is `#![no_std]` and never
//! allocates, whichever formats are enabled.
//!
//! # Dependencies in the API
//!
//! Types of three dependencies appear in public signatures; each is
//! re-exported so callers name the same version: [`zerocopy`] (the endian
//! integers of the wire structs, `datafile`/`map`/`snapshot`/`demo`),
//! [`uuid`] (`Uuid` of extended types and messages, `datafile`/`snapshot`/
//! `demo`/`teehistorian`/`netmsg`) and [`heapless`] (the per-frame lists of
//! `slippi::Frame`).
//!
//! # Adding a format, a stat or a surface
//!
//! The checklist (DESIGN.md's, kept here beside the code it names):
//!
//! - **A format**: its module under `src/` (the raw wire structs, a view
//!   for what fits in memory, a push decoder for streams with its slice
//!   iterator and reader aliases, a writer under `alloc`); a [`Format`]
//!   variant and its magic in `format.rs`; a feature in `Cargo.toml`
//!   pulling only its dependencies; `Serialize` under `serde` following
//!   [`vocabulary`]'s conventions, with `name()` on every record enum; a
//!   fuzz target in `fuzz/`; corpus facts and a module in
//!   `tests/integration.rs`; the clippy, thumbv7em and MSRV steps of
//!   `.ci/run` list it in `FORMATS`.
//! - **A stat or other knowledge**: a state machine in the core (no
//!   allocation, fixed memory with documented caps) with `Serialize`,
//!   compared in a test with its reference implementation's output
//!   (committed beside the script that produced it).
//! - **A surface** (a crate beside the core: `gamefmt-cli`, `gamefmt-ffi`,
//!   `gamefmt-arrow`, `python`): fields come from the core's `Serialize`
//!   (serde_json, pythonize), never named again by hand; a hot path may
//!   build its own columns when a test holds it equal to the `Serialize`
//!   output on the corpus. [`Format`] is `#[non_exhaustive]`, so a
//!   surface cannot match it exhaustively: each has a test that walks
//!   [`Format::ALL`] and fails until the surface handles a new format
//!   (`gamefmt-cli/tests/cli/registry.rs`, `gamefmt-ffi/tests/ffi/registry.rs`,
//!   `gamefmt-arrow/tests/arrow/registry.rs`).
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
#[cfg(any(feature = "map", feature = "snapshot"))]
pub mod i32string;
#[cfg(feature = "map")]
pub mod map;
#[cfg(feature = "netmsg")]
pub mod netmsg;
mod protocol;
#[cfg(feature = "slippi")]
pub mod slippi;
#[cfg(feature = "snapshot")]
pub mod snapshot;
pub mod stream;
#[cfg(feature = "teehistorian")]
pub mod teehistorian;
pub mod varint;
#[cfg(feature = "serde")]
pub mod vocabulary;
pub mod warning;

pub use error::{Error, ErrorKind, Result};
pub use format::Format;
pub use protocol::Protocol;
pub use warning::{Warn, Warning, WarningKind, Warnings};

/// `heapless`, whose `Vec` holds the per-frame lists of
/// [`slippi::Frame`].
#[cfg(feature = "slippi")]
pub use heapless;
/// `uuid`, whose `Uuid` names extended item types, teehistorian messages and
/// demo extensions.
#[cfg(any(
    feature = "datafile",
    feature = "snapshot",
    feature = "teehistorian",
    feature = "netmsg"
))]
pub use uuid;
/// `zerocopy`, whose endian integers (`little_endian::I32`,
/// `big_endian::U32`, ...) make up the wire structs of datafiles, maps,
/// snapshots and demos (and whose `FromBytes`/`IntoBytes` read and write
/// them).
#[cfg(any(feature = "datafile", feature = "snapshot"))]
pub use zerocopy;
