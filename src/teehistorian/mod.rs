//! DDNet teehistorian recordings (format versions 1 and 2).
//!
//! A teehistorian file is the magic UUID `teehistorian@ddnet.tw`, a JSON
//! header ending in a NUL, then a stream of messages — every player
//! position change, input, game message, join, drop, console command and
//! extension (EX) record a DDNet server saw — ending with FINISH. Ticks are
//! mostly implicit; this module assigns each message its tick with DDNet's
//! exact rule (the first player record of a file is at tick 1).
//!
//! One state machine, [`Decoder`], is reached three ways, following the
//! [stream contract](crate::stream):
//!
//! - [`TeehistorianIter`] over a slice (a file in memory or mapped);
//! - [`Decoder`] itself, fed chunks of any size by the caller (a growing
//!   file, a socket, a 4 KiB buffer on a small target: a header longer
//!   than the buffer comes in pieces);
//! - `Reader` (`std`) over any `io::Read`.
//!
//! Each tells apart the ways a stream ends ([`End`](crate::stream::End)):
//! FINISH, the end of input between messages (a crashed or still-running
//! server), the end of input inside a message — after delivering every
//! message before it — and damage. Nothing in the core allocates. [`PlayerState`] rebuilds absolute
//! positions and inputs from the diffs; [`PlayerNames`] keeps each client's
//! name so any record can be attributed ([`Message::client_id`]);
//! [`Message::command`] tells chat commands from rcon and server commands; [`TeehistorianWriter`] (`alloc`)
//! writes files byte-for-byte as DDNet does.
//!
//! ```
//! # fn main() -> Result<(), gamefmt::Error> {
//! use gamefmt::stream::End;
//! use gamefmt::teehistorian::{ExMessage, Message, PlayerState, TeehistorianIter, SAMPLE};
//!
//! let mut iter = TeehistorianIter::new(SAMPLE)?;
//! assert_eq!(iter.header().version(), 2);
//! let mut players = PlayerState::<64>::new();
//! for record in iter.by_ref() {
//!     let record = record?;
//!     players.apply(&record.message)?;
//!     if let Message::Ex(ex) = record.message {
//!         if let Ok(ExMessage::PlayerName { cid, name }) = ex.parse() {
//!             assert_eq!((cid, name), (0, &b"nameless tee"[..]));
//!         }
//!     }
//! }
//! assert_eq!(iter.end(), End::Complete);
//! assert_eq!(players.get(0).and_then(|p| p.pos), Some((96, 64)));
//! # Ok(()) }
//! ```

mod command;
mod decoder;
mod header;
mod input;
mod iter;
mod message;
mod names;
mod player_state;
mod protocols;
#[cfg(feature = "std")]
mod reader;
#[cfg(feature = "serde")]
mod serialize;
pub mod uuids;
#[cfg(feature = "alloc")]
mod writer;

pub use command::{CFGFLAG_CHAT, CFGFLAG_SERVER, Command, CommandSource};
pub use decoder::{Decoder, Item, MAX_RECORD, Record};
pub use header::{Header, JsonStr, TeehistorianHeader};
pub use input::{INPUT_INTS, Input, PackedInput};
pub use iter::TeehistorianIter;
pub use message::{
    Args, CommandLine, Ex, ExMessage, ID_CONSOLE_COMMAND, ID_DROP, ID_EX, ID_FINISH, ID_INPUT_DIFF,
    ID_INPUT_NEW, ID_JOIN, ID_MESSAGE, ID_PLAYER_NEW, ID_PLAYER_OLD, ID_TICK_SKIP, Kind, Message,
};
pub use names::{NAME_CAPACITY, PlayerNames};
pub use player_state::{MAX_CLIENTS, Player, PlayerState};
pub use protocols::ClientProtocols;
#[cfg(feature = "std")]
pub use reader::Reader;
#[cfg(feature = "alloc")]
pub use writer::TeehistorianWriter;

/// A small teehistorian file embedded for examples and doctests, written by
/// [`TeehistorianWriter`]: a player joins (EX joinver6, JOIN, EX
/// player-name "nameless tee"), its tee appears at (64, 32) on tick 1,
/// moves to (96, 64) on tick 3, then FINISH.
pub const SAMPLE: &[u8] = include_bytes!("sample.teehistorian");
