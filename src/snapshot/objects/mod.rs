//! Typed views over snapshot items: every object and event DDNet's datasrc
//! defines for 0.6/DDNet and 0.7 — characters, players, client info (with
//! names decoded from ints), game info and data, flags, projectiles,
//! lasers, pickups, inputs, events, and DDNet's extended objects (named by
//! UUID in the snapshot: DDNet character and player, game info ex,
//! projectiles, lasers, pickups, switch state, entity ex, …). Every view borrows the item's ints in place; items of other
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
mod generated;
#[cfg(feature = "serde")]
mod ser;
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
            Protocol::V07 => Self::V07(Object07::parse(snapshot, item)),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(
        clippy::unwrap_used,
        clippy::indexing_slicing,
        reason = "a test: a missing kind should fail loudly"
    )]

    use core::mem::size_of;

    /// The hand-written layouts hold as many ints as DDNet's datasrc gives
    /// the fields every sender has (the generated `KINDS`).
    #[test]
    fn hand_written_layouts_match_datasrc() {
        let ints06 = |name: &str| super::v06::KINDS.iter().find(|k| k.0 == name).unwrap().3;
        let ints07 = |name: &str| super::v07::KINDS.iter().find(|k| k.0 == name).unwrap().3;
        let n = |bytes: usize| bytes / 4;
        assert_eq!(n(size_of::<super::Projectile>()), ints06("Projectile"));
        assert_eq!(n(size_of::<super::Laser>()), ints06("Laser"));
        assert_eq!(n(size_of::<super::v06::Pickup>()), ints06("Pickup"));
        assert_eq!(n(size_of::<super::Flag>()), ints06("Flag"));
        assert_eq!(n(size_of::<super::v06::GameInfo>()), ints06("GameInfo"));
        assert_eq!(n(size_of::<super::v06::GameData>()), ints06("GameData"));
        assert_eq!(
            n(size_of::<super::CharacterCore>()),
            ints06("CharacterCore")
        );
        assert_eq!(n(size_of::<super::v06::Character>()), ints06("Character"));
        assert_eq!(n(size_of::<super::v06::PlayerInfo>()), ints06("PlayerInfo"));
        assert_eq!(n(size_of::<super::v06::ClientInfo>()), ints06("ClientInfo"));
        assert_eq!(
            n(size_of::<super::v06::SpectatorInfo>()),
            ints06("SpectatorInfo")
        );
        // All of DDNetCharacter's and GameInfoEx's fields have defaults in
        // datasrc; the hand-written bases hold those every DDNet version
        // sent, within the full layout.
        let all06 = |name: &str| super::v06::KINDS.iter().find(|k| k.0 == name).unwrap().4;
        assert_eq!(ints06("DDNetCharacter"), 0);
        assert!(n(size_of::<super::v06::DdnetCharacterBase>()) <= all06("DDNetCharacter"));
        assert_eq!(
            n(size_of::<super::v06::DdnetPlayer>()),
            ints06("DDNetPlayer")
        );
        assert_eq!(ints06("GameInfoEx"), 0);
        assert!(n(size_of::<super::v06::GameInfoExBase>()) <= all06("GameInfoEx"));
        assert_eq!(n(size_of::<super::Projectile>()), ints07("Projectile"));
        assert_eq!(n(size_of::<super::Laser>()), ints07("Laser"));
        assert_eq!(n(size_of::<super::v07::Pickup>()), ints07("Pickup"));
        assert_eq!(n(size_of::<super::Flag>()), ints07("Flag"));
        assert_eq!(n(size_of::<super::v07::GameData>()), ints07("GameData"));
        assert_eq!(
            n(size_of::<super::v07::GameDataTeam>()),
            ints07("GameDataTeam")
        );
        assert_eq!(
            n(size_of::<super::v07::GameDataFlag>()),
            ints07("GameDataFlag")
        );
        assert_eq!(
            n(size_of::<super::CharacterCore>()),
            ints07("CharacterCore")
        );
        assert_eq!(n(size_of::<super::v07::Character>()), ints07("Character"));
        assert_eq!(n(size_of::<super::v07::PlayerInfo>()), ints07("PlayerInfo"));
        assert_eq!(
            n(size_of::<super::v07::SpectatorInfo>()),
            ints07("SpectatorInfo")
        );
        assert_eq!(
            n(size_of::<super::v07::ClientInfo>()),
            ints07("De_ClientInfo")
        );
        assert_eq!(n(size_of::<super::v07::GameInfo>()), ints07("De_GameInfo"));
    }
}
