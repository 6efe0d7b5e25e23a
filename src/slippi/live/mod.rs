//! Slippi games as they are played: what a Wii (Slippi Nintendont), a
//! Slippi relay or a Dolphin spectator server sends, decoded push style
//! into the same events as a `.slp` file, and (feature `std`) recorded as
//! `.slp` files while they arrive.
//!
//! - [`ConsoleDecoder`]: the console/relay TCP stream, a big-endian `u32`
//!   length and one UBJSON message (handshake, replay data, keep-alive),
//!   or the legacy raw stream, told apart as slippi-js does; every replay
//!   message's cursor checked ([`Continuity`]). [`client_handshake`] is
//!   what the client sends first.
//! - [`DolphinSession`]: Dolphin's spectator messages (JSON, one per ENet
//!   packet, payloads in base64: [`base64::decode`]); the ENet transport is
//!   the caller's.
//! - [`GameFeed`]: the replay bytes of either (or a legacy stream) split
//!   into games at each game's first event, as slippi-js's `SlpStream`
//!   does, and decoded by [`Decoder::events_only`](super::Decoder::events_only).
//! - `Recorder` (feature `std`): one game's events written as a `.slp`
//!   into any `io::Write + io::Seek`, raw length and metadata written at
//!   the end as slippi-js's `SlpFile` does.
//!
//! Nothing here allocates but the recorder. The reference is slippi-js
//! 9.1.2 (`src/console/`, `src/utils/slpStream.ts`, `slpFile.ts`).
//!
//! ```
//! use gamefmt::slippi::live::{
//!     encode_message, ConsoleDecoder, ConsoleMessage, Continuity, FeedItem, GameFeed,
//!     Handshake, Replay,
//! };
//! use gamefmt::slippi::SlippiView;
//! use gamefmt::stream::{Decoded, End};
//!
//! // What a console would send for the sample replay: a handshake, then its
//! // raw events in replay messages of 64 bytes.
//! let raw = SlippiView::parse(gamefmt::slippi::SAMPLE)?.raw();
//! let mut wire = vec![0u8; 4096];
//! let mut len = encode_message(
//!     &ConsoleMessage::Handshake(Handshake {
//!         nick: Some("Wii"), nintendont_version: Some("1.9.0"), client_token: Some(7), pos: [0; 8],
//!     }),
//!     &mut wire,
//! )?;
//! let mut pos = 0u64;
//! for data in raw.chunks(64) {
//!     let next = pos + data.len() as u64;
//!     let replay = Replay {
//!         pos: pos.to_be_bytes(), next_pos: next.to_be_bytes(), force_pos: false, data,
//!         continuity: Continuity::Continuous,
//!     };
//!     len += encode_message(&ConsoleMessage::Replay(replay), &mut wire[len..])?;
//!     pos = next;
//! }
//!
//! // The client: frames in, replay bytes out, games and events out of those.
//! let (mut console, mut feed) = (ConsoleDecoder::new(), GameFeed::new());
//! let (mut replay_bytes, mut events, mut nick) = (Vec::new(), 0, None);
//! let mut input = &wire[..len];
//! while let Decoded::Record { record, consumed } = console.decode(input)? {
//!     match record {
//!         ConsoleMessage::Handshake(h) => nick = h.nick,
//!         ConsoleMessage::Replay(r) => {
//!             assert_eq!(r.continuity, Continuity::Continuous);
//!             replay_bytes.extend_from_slice(r.data);
//!         }
//!         _ => {}
//!     }
//!     input = &input[consumed..];
//! }
//! let mut used = 0;
//! while let Decoded::Record { record, consumed } = feed.decode(&replay_bytes[used..])? {
//!     used += consumed;
//!     match record {
//!         FeedItem::Event(_) => events += 1,
//!         FeedItem::GameOver { end, .. } => assert_eq!(end, End::Complete),
//!         _ => {}
//!     }
//! }
//! assert_eq!((nick, events), (Some("Wii"), 9));
//! # Ok::<(), gamefmt::Error>(())
//! ```

pub mod base64;
mod console;
mod dolphin;
mod feed;
#[cfg(feature = "std")]
mod recorder;
mod sjis;
mod sjis_table;

pub use console::{
    CLIENT_HANDSHAKE_LEN, ConsoleCursor, ConsoleDecoder, ConsoleMessage, Continuity,
    HANDSHAKE_OPENING, Handshake, MAX_MESSAGE, Protocol, Replay, client_handshake, encode_message,
};
pub use dolphin::{DolphinMessage, DolphinSession, Received, connect_request};
pub use feed::{FeedItem, GameFeed, NETWORK_MESSAGE, is_game_end};
#[cfg(feature = "std")]
pub use recorder::{RecordMetadata, Recorder};
pub use sjis::name_chars;
