//! Teeworlds/DDNet network messages, decoded in place.
//!
//! A message is a packed int `id << 1 | system` and the message's fields
//! (packed ints and NUL-terminated strings). Demos record the server's
//! messages to the recording client in message chunks; teehistorian
//! MESSAGE records carry the messages a client sent to the server. Both
//! decode here, without allocation: strings are borrowed as [`NetStr`]
//! (sanitised only on request), unknown ids pass through with their raw
//! fields, and DDNet's extended messages (id 0, then a UUID) pass through
//! with their UUID ([`uuids::name`] names the known ones).
//!
//! Message ids differ between Teeworlds 0.6 (which DDNet extends) and 0.7:
//! say which with [`Protocol`] ([`Protocol::of_net_version`] reads a demo's
//! net version string; a teehistorian client is 0.7 when an EX
//! `joinver7` record preceded its JOIN).
//!
//! ```
//! use gamefmt::netmsg::{Game06, NetMsg, Protocol, decode};
//!
//! // Cl_Say (17, game): team false, "hi" — as a teehistorian MESSAGE
//! // record carries it.
//! let bytes = [17 << 1, 0, b'h', b'i', 0];
//! let Ok(NetMsg::Game06(Game06::ClSay { team, message })) = decode(Protocol::V06, &bytes) else {
//!     panic!("a chat line");
//! };
//! assert!(!team);
//! assert_eq!(message.to_str(), Some("hi"));
//! // A control character stays in the bytes; `sanitized` shows a space.
//! let bytes = [17 << 1, 1, b'a', 0x07, b'b', 0];
//! if let Ok(NetMsg::Game06(Game06::ClSay { message, .. })) = decode(Protocol::V06, &bytes) {
//!     assert_eq!(message.bytes(), b"a\x07b");
//!     assert_eq!(message.sanitized().collect::<String>(), "a b");
//! }
//! ```

mod fields;
mod game06;
mod game07;
mod string;
pub mod uuids;

pub use game06::{ClientInfo06, Game06};
pub use game07::{ClientInfo07, Game07, SKIN_PARTS};
pub use string::NetStr;

pub use crate::protocol::Protocol;

use uuid::Uuid;

use crate::bytes::Cursor;
use crate::error::Result;

/// The id of DDNet's extended messages (`NETMSG_EX`): a UUID follows.
pub const ID_EX: i32 = 0;

/// One decoded message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NetMsg<'a> {
    /// A system (engine) message, passed through.
    System {
        /// Message id.
        id: i32,
        /// Its fields, undecoded.
        payload: &'a [u8],
    },
    /// A 0.6/DDNet game message.
    Game06(Game06<'a>),
    /// A 0.7 game message.
    Game07(Game07<'a>),
    /// A DDNet extended message (id 0): named by a UUID, passed through.
    Ex {
        /// Whether it is a system message.
        system: bool,
        /// Its UUID (the v3 UUID of a name like `"…@ddnet.tw"`).
        uuid: Uuid,
        /// Its fields, undecoded.
        payload: &'a [u8],
    },
}

/// Decodes one message from its bytes (trailing bytes, such as a demo
/// chunk's padding, are ignored).
///
/// # Errors
/// [`crate::ErrorKind::InvalidVarint`] or `Truncated` (at the offset in
/// `bytes`) when the id, a UUID or a known message's fields end early.
pub fn decode(protocol: Protocol, bytes: &[u8]) -> Result<NetMsg<'_>> {
    let mut c = Cursor::new(bytes);
    let packed = c.packed_int()?;
    let (id, system) = (packed >> 1, packed & 1 != 0);
    if id == ID_EX {
        let uuid = Uuid::from_bytes(c.array()?);
        return Ok(NetMsg::Ex {
            system,
            uuid,
            payload: c.rest(),
        });
    }
    let (payload, base) = (c.rest(), c.offset());
    Ok(match (system, protocol) {
        (true, _) => NetMsg::System { id, payload },
        (false, Protocol::V06) => NetMsg::Game06(Game06::decode(id, payload, base)?),
        (false, Protocol::V07) => NetMsg::Game07(Game07::decode(id, payload, base)?),
    })
}
