//! The players of a snapshot: each client's name, team, score and
//! position, gathered from its objects (client info, player info,
//! character) for 0.6/DDNet and 0.7 alike — the `players` that `gamefmt
//! dump` prints beside each snapshot, and the names that chat and kill
//! lines of demos take.
//!
//! 0.6 keeps the team in the player info object, 0.7 in the client info;
//! a 0.6 player info names its client, every other object is keyed by
//! its item id.
//!
//! ```
//! # fn main() -> Result<(), gamefmt::Error> {
//! use gamefmt::Protocol;
//! use gamefmt::snapshot::{SnapshotView, player_name, players};
//! use zerocopy::little_endian::I32;
//!
//! // One 0.6 player info item (type 10, id 3): local 0, client 3, team 1,
//! // score 7, latency 20.
//! let ints: Vec<I32> = [24, 1, 0, 10 << 16 | 3, 0, 3, 1, 7, 20].map(I32::new).to_vec();
//! let snap = SnapshotView::from_ints(&ints)?;
//! let found = players(Protocol::V06, &snap);
//! assert_eq!((found[0].client_id, found[0].team, found[0].score), (3, Some(1), Some(7)));
//! assert_eq!(player_name(&found, 3), None); // no client info: no name
//! # Ok(()) }
//! ```

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::SnapshotView;
use super::objects::{Object, Object06, Object07};
use crate::Protocol;

/// One player of a snapshot.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Player {
    /// The client id.
    pub client_id: u16,
    /// The name, from the client info object (sanitised as lossy UTF-8).
    pub name: Option<String>,
    /// The team: the player info object's (0.6) or the client info's (0.7).
    pub team: Option<i32>,
    /// The score, from the player info object.
    pub score: Option<i32>,
    /// The character's position `(x, y)`, while it is alive.
    pub pos: Option<(i32, i32)>,
}

/// The players of `snap`, by client id.
#[must_use]
pub fn players(protocol: Protocol, snap: &SnapshotView<'_>) -> Vec<Player> {
    let mut out: BTreeMap<u16, Player> = BTreeMap::new();
    for item in snap.items() {
        let object = Object::parse(protocol, snap, &item);
        let id = match object {
            Object::V06(Object06::PlayerInfo(p)) => {
                p.client_id.get().try_into().unwrap_or(item.id())
            }
            _ => item.id(),
        };
        let player = || Player {
            client_id: id,
            ..Player::default()
        };
        let name = |bytes: &[u8]| Some(String::from_utf8_lossy(bytes).into_owned());
        match object {
            Object::V06(Object06::ClientInfo(c)) => {
                out.entry(id).or_insert_with(player).name = name(c.name().as_bytes());
            }
            Object::V06(Object06::PlayerInfo(p)) => {
                let e = out.entry(id).or_insert_with(player);
                (e.team, e.score) = (Some(p.team.get()), Some(p.score.get()));
            }
            Object::V07(Object07::ClientInfo(c)) => {
                let e = out.entry(id).or_insert_with(player);
                e.name = name(c.name().as_bytes());
                e.team = Some(c.team.get());
            }
            Object::V07(Object07::PlayerInfo(p)) => {
                out.entry(id).or_insert_with(player).score = Some(p.score.get());
            }
            Object::V06(Object06::Character(c)) => {
                out.entry(id).or_insert_with(player).pos = Some((c.core.x.get(), c.core.y.get()));
            }
            Object::V07(Object07::Character(c)) => {
                out.entry(id).or_insert_with(player).pos = Some((c.core.x.get(), c.core.y.get()));
            }
            _ => {}
        }
    }
    out.into_values().collect()
}

/// The name of client `id` among `players`, if known.
#[must_use]
pub fn player_name(players: &[Player], id: i32) -> Option<String> {
    players
        .iter()
        .find(|p| i32::from(p.client_id) == id)?
        .name
        .clone()
}
