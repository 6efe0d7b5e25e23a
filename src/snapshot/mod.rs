//! Teeworlds/DDNet snapshots and snapshot deltas.
//!
//! A *snapshot* is the game state of one tick: items, each a key
//! (`type << 16 | id`) and an array of ints. A *delta* turns one snapshot
//! into the next: the keys removed, then item deltas that are either
//! absolute new items or element-wise wrapping differences against the base
//! item with the same key. Whether an item delta carries its size depends on
//! a per-protocol table of static item sizes: [`ITEM_SIZES_06`] (Teeworlds
//! 0.6 and DDNet) or [`ITEM_SIZES_07`] (Teeworlds 0.7).
//!
//! Both are arrays of little-endian ints ("int form"). On the wire and in
//! demos the arrays are packed ints ([`unpack_ints`] turns those into the
//! int form in a buffer the caller owns).
//!
//! [`SnapshotView`] and [`DeltaView`] validate once and then lend items in
//! place; [`objects`] types them (characters, players, client info, …);
//! [`apply`] writes the next snapshot into a caller buffer. None of these
//! allocate. With the `alloc` feature, [`SnapshotBuilder`] builds
//! snapshots, [`DeltaCreator`] (or the one-shot [`create_delta`]) computes
//! deltas and [`apply_to_vec`] applies into a `Vec`; a reused builder and
//! creator allocate nothing per snapshot once their buffers have grown.
//!
//! Building, delta creation and application give byte for byte what
//! DDNet's `CSnapshotBuilder`, `CSnapshotDelta::CreateDelta` and
//! `UnpackDelta` give on the same input (checked on DDNet's own output in
//! `tests/snapshot_vectors.rs` and against its C++ in `benches/peers`),
//! with every key found through a hash index instead of a search. Where
//! DDNet would assert, crash or write a delta it cannot apply (a duplicate
//! key in the builder, a full snapshot, an item that changed size), these
//! return an error.
//!
//! ```
//! # fn main() -> Result<(), gamefmt::Error> {
//! use gamefmt::snapshot::{apply, DeltaView, SnapshotView, ITEM_SIZES_06};
//! use zerocopy::little_endian::I32;
//!
//! let ints = |v: &[i32]| v.iter().map(|&x| I32::new(x)).collect::<Vec<_>>();
//! // One item: type 5 (flag, 3 ints), id 1, data [10, 20, 0].
//! let base = ints(&[16, 1, 0, 5 << 16 | 1, 10, 20, 0]);
//! let base = SnapshotView::from_ints(&base)?;
//! assert_eq!(base.checksum(), 30);
//!
//! // Delta: nothing removed, one item delta (type 5 has a static size: no
//! // size field) adding [1, -1, 0].
//! let delta = ints(&[0, 1, 0, 5, 1, 1, -1, 0]);
//! let delta = DeltaView::from_ints(&delta, ITEM_SIZES_06)?;
//!
//! let mut buf = [I32::ZERO; 64];
//! let next = apply(&base, &delta, &mut buf)?;
//! assert_eq!(next.find(5, 1).map(|i| i.int(0)), Some(Some(11)));
//! assert_eq!(next.checksum(), 30);
//! # Ok(()) }
//! ```

#[cfg(feature = "alloc")]
mod builder;
#[cfg(feature = "alloc")]
mod create;
mod delta;
mod index;
pub mod objects;
#[cfg(feature = "alloc")]
mod players;
mod view;

#[cfg(feature = "alloc")]
pub use builder::SnapshotBuilder;
#[cfg(feature = "alloc")]
pub use create::{DeltaCreator, create_delta};
#[cfg(feature = "alloc")]
pub use delta::apply_to_vec;
pub use delta::{DeltaView, ItemDelta, ItemDeltas, apply};
#[cfg(feature = "alloc")]
pub use players::{Player, player_name, players};
pub use view::{Item, Items, SnapshotView};

use uuid::{Uuid, uuid};
use zerocopy::little_endian::I32;

use crate::error::{Error, ErrorKind, Result};

/// Most items a snapshot may hold (DDNet `CSnapshot::MAX_ITEMS`).
pub const MAX_ITEMS: usize = 1024;
/// Most bytes of item data (keys included) a snapshot may hold (DDNet
/// `CSnapshot::MAX_SIZE`).
pub const MAX_SIZE: usize = 64 * 1024;
/// Largest item type.
pub const MAX_TYPE: u16 = 0x7FFF;
/// Ints that any snapshot within [`MAX_ITEMS`] and [`MAX_SIZE`] fits in:
/// header, offsets and data.
pub const MAX_SNAPSHOT_INTS: usize = 2 + MAX_ITEMS + MAX_SIZE / 4;

/// Item type 0: items of this type with an id in `0x4000..=0x7FFF` declare
/// the UUID of the extended type with that number.
pub const TYPE_EX: u16 = 0;
/// The range of extended (UUID) type numbers. DDNet hands them out from
/// 0x7FFF downward.
pub const EX_TYPES: core::ops::RangeInclusive<u16> = 0x4000..=0x7FFF;

/// Static item sizes (in ints) of Teeworlds 0.6 and DDNet, indexed by type;
/// 0 means the size is sent in the delta. Types beyond the table always
/// send their size. (spec `teeworlds.md` §4.4)
pub const ITEM_SIZES_06: &[u16] = &[
    0, 10, 6, 5, 4, 3, 8, 4, 15, 22, 5, 17, 3, 2, 2, 2, 2, 3, 3, 3, 3,
];

/// Static item sizes (in ints) of Teeworlds 0.7, indexed by type.
///
/// `event_damage` (type 22) is 7 ints, as in Teeworlds 0.7's object
/// definitions and libtw2, not 5 as in the base spec's appendix (see the
/// correction in spec `teeworlds.md` §4.4); real 0.7 demos only apply with 7.
pub const ITEM_SIZES_07: &[u16] = &[
    0, 10, 6, 5, 3, 3, 3, 2, 4, 15, 22, 3, 4, 58, 5, 32, 2, 2, 2, 2, 3, 3, 7,
];

/// The static size of items of `type_id` in `sizes`, or `None` if the delta
/// carries it.
#[must_use]
pub fn static_size(sizes: &[u16], type_id: u16) -> Option<usize> {
    match sizes.get(usize::from(type_id)) {
        Some(&n) if n != 0 => Some(usize::from(n)),
        _ => None,
    }
}

/// `character@netobj.ddnet.tw`: DDNetCharacter (11 ints, may grow).
pub const UUID_DDNET_CHARACTER: Uuid = uuid!("76ce455b-f9eb-3a48-add7-e04b941d045c");
/// `player@netobj.ddnet.tw`: DDNetPlayer (4 ints).
pub const UUID_DDNET_PLAYER: Uuid = uuid!("22ca938d-1380-3e2b-9e7b-d2558ea6be11");
/// `gameinfo@netobj.ddnet.tw`: GameInfoEx (5 ints, may grow).
pub const UUID_GAME_INFO_EX: Uuid = uuid!("933dea6a-da79-30ea-a98f-8af03689a945");
/// `projectile@netobj.ddnet.tw`: DDRaceProjectile (6 ints).
pub const UUID_DDRACE_PROJECTILE: Uuid = uuid!("0e6db85c-2b61-386f-bbf2-d0d0471b9272");
/// `laser@netobj.ddnet.tw`: DDNetLaser (10 ints).
pub const UUID_DDNET_LASER: Uuid = uuid!("29de68a2-6928-31b8-8360-a2307e0d844f");
/// `ddnet-projectile@netobj.ddnet.tw`: DDNetProjectile (10 ints).
pub const UUID_DDNET_PROJECTILE: Uuid = uuid!("6550fbce-f317-3b31-8ffe-d2b37f3ab40e");
/// `pickup@netobj.ddnet.tw`: DDNetPickup (6 ints).
pub const UUID_DDNET_PICKUP: Uuid = uuid!("ea5e4a51-58fb-3684-96e4-e0d267f4ca65");
/// `spectator-info@netobj.ddnet.org`: DDNetSpectatorInfo (5 ints).
pub const UUID_DDNET_SPECTATOR_INFO: Uuid = uuid!("d13307b2-9a19-37cb-8f8c-07c718521883");
/// `spectator-count@netobj.ddnet.org`: SpectatorCount (1 int).
pub const UUID_SPECTATOR_COUNT: Uuid = uuid!("5e5ca96f-c728-30fd-bfb3-155b07692556");
/// `birthday@netevent.ddnet.org`: Birthday event (2 ints).
pub const UUID_EVENT_BIRTHDAY: Uuid = uuid!("1fd35746-6263-358c-b4d6-6ef60e0efaaa");
/// `finish@netevent.ddnet.org`: Finish event (2 ints).
pub const UUID_EVENT_FINISH: Uuid = uuid!("68bf8939-ef55-3878-9082-13527eb0a597");
/// `spec-char@netobj.ddnet.tw`: SpecChar (2 ints).
pub const UUID_SPEC_CHAR: Uuid = uuid!("4b801c74-e24c-3ce0-b92c-b754d02cfc8a");
/// `switch-state@netobj.ddnet.tw`: SwitchState (17 ints, may grow).
pub const UUID_SWITCH_STATE: Uuid = uuid!("ec15e669-ce11-3367-ae8e-b90e5b27b9d5");
/// `entity-ex@netobj.ddnet.tw`: EntityEx (3 ints).
pub const UUID_ENTITY_EX: Uuid = uuid!("2de9aec3-32e4-3986-8f7e-e7459da7f535");
/// `map-best-time@netobj.ddnet.org`: MapBestTime (2 ints).
pub const UUID_MAP_BEST_TIME: Uuid = uuid!("9ebfc6ed-bf50-30ca-988a-0ce8921ad85f");
/// `map-sound-world@netevent.ddnet.org`: MapSoundWorld event (3 ints).
pub const UUID_EVENT_MAP_SOUND_WORLD: Uuid = uuid!("54ecad2e-bfad-3be5-8903-621ba052458e");
/// `my-own-object@heinrich5991.de`: DDNet's test object (1 int).
pub const UUID_MY_OWN_OBJECT: Uuid = uuid!("0dc77a02-bfee-3a53-ac8e-0bb0241bd722");
/// `my-own-event@heinrich5991.de`: DDNet's test event (1 int).
pub const UUID_MY_OWN_EVENT: Uuid = uuid!("0c4fd27d-47e3-3871-a226-9f417486a311");

/// Every DDNet net object UUID above, with its name.
pub const DDNET_NET_OBJECTS: &[(&str, Uuid)] = &[
    ("DDNetCharacter", UUID_DDNET_CHARACTER),
    ("DDNetPlayer", UUID_DDNET_PLAYER),
    ("GameInfoEx", UUID_GAME_INFO_EX),
    ("DDRaceProjectile", UUID_DDRACE_PROJECTILE),
    ("DDNetLaser", UUID_DDNET_LASER),
    ("DDNetProjectile", UUID_DDNET_PROJECTILE),
    ("DDNetPickup", UUID_DDNET_PICKUP),
    ("DDNetSpectatorInfo", UUID_DDNET_SPECTATOR_INFO),
    ("SpectatorCount", UUID_SPECTATOR_COUNT),
    ("Birthday", UUID_EVENT_BIRTHDAY),
    ("Finish", UUID_EVENT_FINISH),
    ("SpecChar", UUID_SPEC_CHAR),
    ("SwitchState", UUID_SWITCH_STATE),
    ("EntityEx", UUID_ENTITY_EX),
    ("MapBestTime", UUID_MAP_BEST_TIME),
    ("MapSoundWorld", UUID_EVENT_MAP_SOUND_WORLD),
    ("MyOwnObject", UUID_MY_OWN_OBJECT),
    ("MyOwnEvent", UUID_MY_OWN_EVENT),
];

/// Unpacks a packed-int byte stream into `out` (the int form); returns the
/// ints written.
///
/// Fails with [`ErrorKind::InvalidVarint`] at the offset of an int cut
/// short, or [`ErrorKind::BufferTooSmall`] (`needed` = ints in `packed`).
pub fn unpack_ints<'o>(packed: &[u8], out: &'o mut [I32]) -> Result<&'o [I32]> {
    let mut pos = 0usize;
    let mut count = 0usize;
    // While eight bytes are left (an int takes at most five) and `out`
    // has room: one load for the int's bytes.
    for slot in out.iter_mut() {
        let Some(word) = packed.get(pos..).and_then(<[u8]>::first_chunk::<8>) else {
            break;
        };
        let (value, len) = crate::varint::decode_word(u64::from_le_bytes(*word));
        *slot = I32::new(value);
        pos = pos.wrapping_add(len);
        count = count.wrapping_add(1);
    }
    while let Some(rest) = packed.get(pos..).filter(|r| !r.is_empty()) {
        let (value, len) = crate::varint::decode(rest).map_err(|e| e.shifted(pos))?;
        let Some(slot) = out.get_mut(count) else {
            let needed = count.saturating_add(crate::varint::count_ints(rest)?);
            return Err(Error::new(ErrorKind::BufferTooSmall { needed }, pos));
        };
        *slot = I32::new(value);
        pos = pos.saturating_add(len);
        count = count.saturating_add(1);
    }
    Ok(out.get(..count).unwrap_or_default())
}

/// Byte offset of int `index` in an int array, for error offsets.
const fn at(index: usize) -> usize {
    index.saturating_mul(4)
}

#[cfg(test)]
#[allow(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    reason = "unit tests: a panic is the failure report"
)]
mod tests {
    use super::*;

    #[test]
    fn static_sizes() {
        assert_eq!(static_size(ITEM_SIZES_06, 0), None);
        assert_eq!(static_size(ITEM_SIZES_06, 9), Some(22));
        assert_eq!(static_size(ITEM_SIZES_06, 20), Some(3));
        assert_eq!(static_size(ITEM_SIZES_06, 21), None);
        assert_eq!(static_size(ITEM_SIZES_07, 13), Some(58));
        assert_eq!(static_size(ITEM_SIZES_07, 22), Some(7));
        assert_eq!(static_size(ITEM_SIZES_07, 23), None);
        assert_eq!(static_size(ITEM_SIZES_06, 0x7FFF), None);
    }

    #[test]
    fn unpack() {
        let mut out = [I32::ZERO; 4];
        let ints = unpack_ints(&[0x01, 0x40, 0x80, 0x01], &mut out).unwrap();
        assert_eq!(
            ints.iter().map(|v| v.get()).collect::<std::vec::Vec<_>>(),
            [1, -1, 64]
        );
        let mut small = [I32::ZERO; 1];
        assert_eq!(
            unpack_ints(&[0x01, 0x40, 0x80, 0x01], &mut small),
            Err(Error::new(ErrorKind::BufferTooSmall { needed: 3 }, 1))
        );
        assert_eq!(
            unpack_ints(&[0x01, 0x80], &mut out),
            Err(Error::new(ErrorKind::InvalidVarint, 1))
        );
    }
}
