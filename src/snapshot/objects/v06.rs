//! Snapshot objects of Teeworlds 0.6 and DDNet (DDNet's
//! `datasrc/network.py`; type ids from 1 in list order, DDNet's extended
//! objects by UUID). The layouts below are written by hand; every other
//! object and event, [`Object06`] and its parse are generated
//! (`generated.rs`, by `tools/netmsg-gen/generate.py`).

use zerocopy::little_endian::I32;
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

use super::common::CharacterCore;
use crate::i32string::{I32String, Name};

/// A pickup (type 4).
#[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Pickup {
    /// x.
    pub x: I32,
    /// y.
    pub y: I32,
    /// 0 health, 1 armor, 2 weapon, 3 ninja.
    pub kind: I32,
    /// The weapon of a weapon pickup.
    pub subtype: I32,
}

/// Game settings and state (type 6).
#[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct GameInfo {
    /// 1 teams, 2 flags.
    pub game_flags: I32,
    /// 1 game over, 2 sudden death, 4 paused.
    pub game_state_flags: I32,
    /// Tick the round started.
    pub round_start_tick: I32,
    /// Warmup ticks left.
    pub warmup_timer: I32,
    /// Score limit.
    pub score_limit: I32,
    /// Time limit (minutes).
    pub time_limit: I32,
    /// Rounds per map.
    pub round_num: I32,
    /// Current round.
    pub round_current: I32,
}

/// Team scores and flag carriers (type 7).
#[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct GameData {
    /// Red score.
    pub teamscore_red: I32,
    /// Blue score.
    pub teamscore_blue: I32,
    /// Red flag carrier: a client id, −1 taken, −2 at its stand, −3 missing.
    pub flag_carrier_red: I32,
    /// Blue flag carrier.
    pub flag_carrier_blue: I32,
}

/// A character (type 9).
#[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Character {
    /// Position, velocity, hook.
    pub core: CharacterCore,
    /// Player flags (playing, in menu, chatting, scoreboard, aim).
    pub player_flags: I32,
    /// Health (0–10).
    pub health: I32,
    /// Armor (0–10).
    pub armor: I32,
    /// Ammo of the active weapon.
    pub ammo_count: I32,
    /// Active weapon.
    pub weapon: I32,
    /// Eye emote.
    pub emote: I32,
    /// Tick of the last attack.
    pub attack_tick: I32,
}

/// A player's team, score and latency (type 10); the item id is the
/// client id.
#[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct PlayerInfo {
    /// 1 for the recording client.
    pub local: I32,
    /// Client id.
    pub client_id: I32,
    /// −1 spectators, 0 red/game, 1 blue.
    pub team: I32,
    /// Score.
    pub score: I32,
    /// Latency (ms).
    pub latency: I32,
}

/// A client's name, clan, country and skin (type 11); the item id is the
/// client id. Strings are stored as ints ([`I32String`]).
#[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct ClientInfo {
    /// Name, 4 ints.
    pub name: [I32; 4],
    /// Clan, 3 ints.
    pub clan: [I32; 3],
    /// Country (ISO 3166-1 numeric).
    pub country: I32,
    /// Skin name, 6 ints.
    pub skin: [I32; 6],
    /// Whether the custom colours are used.
    pub use_custom_color: I32,
    /// Body colour.
    pub color_body: I32,
    /// Feet colour.
    pub color_feet: I32,
}

impl ClientInfo {
    /// The decoded name.
    #[must_use]
    pub fn name(&self) -> Name {
        I32String::new(&self.name).decode()
    }

    /// The decoded clan.
    #[must_use]
    pub fn clan(&self) -> Name {
        I32String::new(&self.clan).decode()
    }

    /// The decoded skin name.
    #[must_use]
    pub fn skin(&self) -> Name {
        I32String::new(&self.skin).decode()
    }
}

/// Whom a spectator watches (type 12).
#[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct SpectatorInfo {
    /// Watched client id, −1 free view.
    pub spectator_id: I32,
    /// View x.
    pub x: I32,
    /// View y.
    pub y: I32,
}

/// DDNet's extended character: the fields every DDNet version has
/// (flags, freeze end, jumps, teleport checkpoint, strong/weak id); later
/// versions append more ([`DdnetCharacter::extra`]).
#[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct DdnetCharacterBase {
    /// `CHARACTERFLAG_*` bits (solo, jetpack, weapons, freeze, …).
    pub flags: I32,
    /// Tick the freeze ends, 0 not frozen, −1 deep frozen.
    pub freeze_end: I32,
    /// Jumps the character has.
    pub jumps: I32,
    /// Last teleport checkpoint.
    pub tele_checkpoint: I32,
    /// Strong/weak order for hooking.
    pub strong_weak_id: I32,
}

/// DDNet's extended character (`character@netobj.ddnet.tw`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DdnetCharacter<'a> {
    /// The fields every version has.
    pub base: &'a DdnetCharacterBase,
    /// Fields newer versions appended, in order: jumped total, ninja
    /// activation tick, freeze start, target x, target y, tune zone
    /// override.
    pub extra: &'a [I32],
}

impl DdnetCharacter<'_> {
    /// Total jumps used (appended field 0), when present.
    #[must_use]
    pub fn jumped_total(&self) -> Option<i32> {
        self.extra.first().map(|v| v.get())
    }

    /// Aim target (appended fields 3 and 4), when present.
    #[must_use]
    pub fn target(&self) -> Option<(i32, i32)> {
        Some((self.extra.get(3)?.get(), self.extra.get(4)?.get()))
    }
}

/// DDNet's extended player (`player@netobj.ddnet.tw`).
#[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct DdnetPlayer {
    /// 1 afk, 2 paused, 4 spectating.
    pub flags: I32,
    /// Auth level (0 none … 3 admin).
    pub auth_level: I32,
}

/// The fields every DDNet extended game info has.
#[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct GameInfoExBase {
    /// `GAMEINFOFLAG_*` bits.
    pub flags: I32,
    /// The server's DDNet version, e.g. 16050.
    pub version: I32,
}

/// DDNet's extended game info (`gameinfo@netobj.ddnet.tw`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameInfoEx<'a> {
    /// The fields every version has.
    pub base: &'a GameInfoExBase,
    /// Fields newer versions appended (flags2, …).
    pub extra: &'a [I32],
}

impl GameInfoEx<'_> {
    /// `GAMEINFOFLAG2_*` bits (appended field 0), when present.
    #[must_use]
    pub fn flags2(&self) -> Option<i32> {
        self.extra.first().map(|v| v.get())
    }
}

pub use super::generated::v06::*;
