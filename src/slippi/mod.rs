//! Slippi `.slp` replays of Super Smash Bros. Melee, read in place.
//!
//! A `.slp` file is a UBJSON object with two keys: `raw`, a byte array of
//! *events*, and `metadata`, a small UBJSON object. Each event is a command
//! byte and a payload whose size the first event (Event Payloads, 0x35)
//! declares; every multi-byte number is big-endian. Sizes, not the version
//! number, decide which fields an event has: new fields are only appended,
//! so every typed accessor returns `Option` and is `None` when the event is
//! too short for it.
//!
//! Three ways in, one state machine ([`Decoder`]), following the
//! [stream contract](crate::stream):
//!
//! - [`SlippiView::parse`] locates `raw` and `metadata` in a file held in
//!   memory; [`SlippiView::game_start`], [`SlippiView::game_end`] and
//!   [`SlippiView::metadata`] answer bulk-indexing questions without walking
//!   the frames; [`SlippiEventIter`] walks every [`Event`].
//! - [`Decoder`] is fed chunks by the caller (a growing file, a spectator
//!   stream) and lends one [`Item`] at a time; [`Decoder::end`] tells a
//!   complete game (Game End seen) from one ending at an event boundary or
//!   inside an event.
//! - `Reader` (feature `std`) does the same over any `io::Read`.
//!
//! [`FrameGrouper`] groups events into frames and flags rollback re-sends,
//! fed from any of the three; [`Frames`] is it over a file in memory.
//! [`FinalizedFrames`] releases frames once rollback can no longer change
//! them, and [`SlippiStats`] (module [`stats`]) computes slippi-js's
//! `getStats()` from them.
//!
//! Game knowledge sits on top: [`character_name`], [`internal_character_name`]
//! and [`stage_name`] name the ids; [`StartingCharacters`] applies the
//! pre-1.6.0 Zelda/Sheik fix; [`winners`] (and [`SlippiView::winners`]) tell
//! who won by slippi-js's `getWinners()` rules.
//!
//! The Gecko code list arrives in Message Splitter chunks;
//! [`Reassembler`] joins them into a caller buffer and [`GeckoList`] walks
//! the codes. Nothing in this module allocates except `Reader`,
//! `VecReassembler` and `SlippiWriter`.
//!
//! ```
//! # fn main() -> Result<(), gamefmt::Error> {
//! use gamefmt::slippi::{Event, SlippiView, SAMPLE};
//!
//! let slp = SlippiView::parse(SAMPLE)?;
//! let start = slp.game_start()?;
//! assert_eq!(start.version().map(|v| v.to_string()).as_deref(), Some("3.18.0"));
//! assert_eq!(start.stage(), Some(31));
//! let meta = slp.metadata()?.expect("the sample has metadata");
//! assert_eq!(meta.last_frame(), Some(-123));
//! assert_eq!(slp.game_end().and_then(|e| e.method()), Some(2));
//!
//! let mut posts = 0;
//! for event in slp.events() {
//!     if let Event::PostFrame(post) = event? {
//!         assert_eq!(post.frame(), Some(-123));
//!         posts += 1;
//!     }
//! }
//! assert_eq!(posts, 2);
//! # Ok(()) }
//! ```

mod characters;
mod decoder;
mod events;
mod field;
#[cfg(feature = "alloc")]
mod final_posts;
mod finalized;
mod frame_events;
mod frames;
mod game_end;
mod game_start;
mod grouper;
mod item;
mod iter;
pub mod live;
mod metadata;
mod names;
mod payloads;
#[cfg(feature = "std")]
mod reader;
#[cfg(feature = "serde")]
mod serialize;
#[cfg(feature = "slpz")]
mod slpz;
mod splitter;
mod stage;
pub mod stats;
pub mod ubjson;
mod view;
mod winners;
#[cfg(feature = "alloc")]
mod writer;

pub use characters::{SHEIK_FIX_VERSION, StartingCharacters, zelda_sheik_external};
pub use decoder::{Decoder, Item, MAX_RECORD, SlippiHeader};
pub use events::{Event, UnknownEvent};
pub use field::trim_nul;
#[cfg(feature = "alloc")]
pub use final_posts::FinalPosts;
pub use finalized::{
    FINALIZE_WINDOW, FinalFrame, FinalizedFrames, FrameRecord, MAX_ROLLBACK_FRAMES,
    OWNED_FRAME_EVENT, OWNED_ITEM_EVENT,
};
pub use frame_events::{FrameBookend, FrameStart, PostFrame, PreFrame};
pub use frames::{CharacterFrame, FRAME_ITEMS, FRAME_PLAYERS, FRAME_STAGE_EVENTS, Frame, Frames};
pub use game_end::GameEnd;
pub use game_start::{GameStart, PLAYER_BLOCKS, PORTS, PlayerSlot, Version};
pub use grouper::{ClosedFrame, FrameGrouper, FramePlacement};
pub use item::ItemUpdate;
pub use iter::SlippiEventIter;
pub use metadata::{MetaPlayer, Metadata};
pub use names::{character_name, internal_character_name, stage_name};
pub use payloads::{EventPayloads, PayloadSizes};
#[cfg(feature = "std")]
pub use reader::Reader;
#[cfg(feature = "slpz")]
pub use slpz::{SLPZ_VERSION, compress_slpz, decompress_slpz, is_slpz};
#[cfg(feature = "alloc")]
pub use splitter::VecReassembler;
pub use splitter::{
    GeckoCode, GeckoCodes, GeckoList, MessageSplitter, Reassembler, SPLITTER_BLOCK,
};
pub use stage::{FodPlatform, StadiumTransformation, Whispy};
pub use stats::SlippiStats;
pub use view::SlippiView;
pub use winners::{Placement, Winners, winners};
#[cfg(feature = "alloc")]
pub use writer::SlippiWriter;

/// The first 11 bytes of every `.slp` file: `{`, the key `raw`, and the
/// start of an optimized uint8 array with an int32 count.
pub const SIGNATURE: &[u8; 11] = crate::format::SLIPPI_SIGNATURE;
/// Length of the header: [`SIGNATURE`] and the big-endian u32 raw length.
pub const HEADER_LEN: usize = 15;
/// The metadata key as it follows the raw array.
pub const METADATA_KEY: &[u8; 10] = b"U\x08metadata";

/// Message Splitter.
pub const CMD_MESSAGE_SPLITTER: u8 = 0x10;
/// Event Payloads.
pub const CMD_EVENT_PAYLOADS: u8 = 0x35;
/// Game Start.
pub const CMD_GAME_START: u8 = 0x36;
/// Pre-Frame Update.
pub const CMD_PRE_FRAME: u8 = 0x37;
/// Post-Frame Update.
pub const CMD_POST_FRAME: u8 = 0x38;
/// Game End.
pub const CMD_GAME_END: u8 = 0x39;
/// Frame Start.
pub const CMD_FRAME_START: u8 = 0x3A;
/// Item Update.
pub const CMD_ITEM_UPDATE: u8 = 0x3B;
/// Frame Bookend.
pub const CMD_FRAME_BOOKEND: u8 = 0x3C;
/// Gecko List.
pub const CMD_GECKO_LIST: u8 = 0x3D;
/// FOD Platforms.
pub const CMD_FOD_PLATFORM: u8 = 0x3F;
/// Whispy Blow Direction.
pub const CMD_WHISPY: u8 = 0x40;
/// Stadium Transformations.
pub const CMD_STADIUM_TRANSFORMATION: u8 = 0x41;

/// A tiny complete replay embedded for examples and doctests: version
/// 3.18.0, stage 31, Fox (port 1, human) vs Falco (port 2, CPU), one frame
/// (−123: Frame Start, two Pre/Post pairs, Bookend), Game End (method 2,
/// LRAS −1), and metadata `startAt`, `lastFrame` −123, `playedOn`
/// "dolphin". It was written by [`SlippiWriter`] (see `tests/slippi.rs`).
pub const SAMPLE: &[u8] = include_bytes!("sample.slp");
