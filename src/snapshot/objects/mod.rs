//! Typed views over snapshot items: characters, players, client info (with
//! names decoded from ints), game info and data, flags, projectiles,
//! lasers, pickups, and DDNet's extended objects (named by UUID in the
//! snapshot). Every view borrows the item's ints in place; items of other
//! types, and items too short for their type, pass through as `Unknown`.
//!
//! The type numbers differ between Teeworlds 0.6 (with DDNet) and 0.7:
//! [`Object06`] and [`Object07`], or [`Object::parse`] with a
//! [`crate::Protocol`].
//!
//! ```
//! # fn main() -> Result<(), gamefmt::Error> {
//! use gamefmt::Protocol;
//! use gamefmt::snapshot::SnapshotView;
//! use gamefmt::snapshot::objects::{Object, Object06};
//! use zerocopy::little_endian::I32;
//!
//! // One 0.6 player info item (type 10, id 3): local 0, client 3, team 0,
//! // score 7, latency 20.
//! let ints: Vec<I32> = [24, 1, 0, 10 << 16 | 3, 0, 3, 0, 7, 20].map(I32::new).to_vec();
//! let snap = SnapshotView::from_ints(&ints)?;
//! let item = snap.items().next().expect("one item");
//! let Object::V06(Object06::PlayerInfo(info)) = Object::parse(Protocol::V06, &snap, &item) else {
//!     panic!("a player info");
//! };
//! assert_eq!((info.client_id.get(), info.score.get()), (3, 7));
//! # Ok(()) }
//! ```

mod common;
pub mod v06;
pub mod v07;

pub use common::{CharacterCore, Flag, Laser, Projectile};
pub use v06::Object06;
pub use v07::Object07;

use super::{Item, SnapshotView};
use crate::Protocol;

/// A snapshot item typed by its protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Object<'a> {
    /// A 0.6/DDNet object.
    V06(Object06<'a>),
    /// A 0.7 object.
    V07(Object07<'a>),
}

impl<'a> Object<'a> {
    /// Types `item` of `snapshot` by `protocol`'s numbering.
    #[must_use]
    pub fn parse(protocol: Protocol, snapshot: &SnapshotView<'a>, item: &Item<'a>) -> Self {
        match protocol {
            Protocol::V06 => Self::V06(Object06::parse(snapshot, item)),
            Protocol::V07 => Self::V07(Object07::parse(item)),
        }
    }
}
