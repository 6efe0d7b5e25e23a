//! Snapshot objects of Teeworlds 0.7 (DDNet's `datasrc/seven/network.py`;
//! type ids from 1 in list order). The layouts below are written by hand;
//! every other object and event, [`Object07`] and its parse are generated
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
    /// Health, armor, a weapon or ninja.
    pub kind: I32,
}

/// Game state (type 6).
#[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct GameData {
    /// Tick the game started.
    pub game_start_tick: I32,
    /// Warmup, sudden death, round over, game over, paused, start countdown.
    pub game_state_flags: I32,
    /// Tick the current state ends.
    pub game_state_end_tick: I32,
}

/// Team scores (type 7).
#[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct GameDataTeam {
    /// Red score.
    pub teamscore_red: I32,
    /// Blue score.
    pub teamscore_blue: I32,
}

/// Flag carriers (type 8).
#[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct GameDataFlag {
    /// Red flag carrier: a client id, −1 taken, −2 at its stand, −3 missing.
    pub flag_carrier_red: I32,
    /// Blue flag carrier.
    pub flag_carrier_blue: I32,
    /// Tick the red flag was dropped.
    pub flag_drop_tick_red: I32,
    /// Tick the blue flag was dropped.
    pub flag_drop_tick_blue: I32,
}

/// A character (type 10).
#[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Character {
    /// Position, velocity, hook.
    pub core: CharacterCore,
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
    /// Sounds and effects triggered this tick (bits).
    pub triggered_events: I32,
}

/// A player's flags, score and latency (type 11); the item id is the
/// client id.
#[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct PlayerInfo {
    /// Player flags (admin, ready, dead, watching, bot).
    pub player_flags: I32,
    /// Score.
    pub score: I32,
    /// Latency (ms).
    pub latency: I32,
}

/// Whom a spectator watches (type 12).
#[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct SpectatorInfo {
    /// Free view, player, red flag or blue flag.
    pub spec_mode: I32,
    /// Watched client id, −1 none.
    pub spectator_id: I32,
    /// View x.
    pub x: I32,
    /// View y.
    pub y: I32,
}

/// A client's identity as demos record it (type 13, `De_ClientInfo`); the
/// item id is the client id.
#[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct ClientInfo {
    /// 1 for the recording client.
    pub local: I32,
    /// −1 spectators, 0 red, 1 blue.
    pub team: I32,
    /// Name, 4 ints.
    pub name: [I32; 4],
    /// Clan, 3 ints.
    pub clan: [I32; 3],
    /// Country (ISO 3166-1 numeric).
    pub country: I32,
    /// Six skin part names, 6 ints each.
    pub skin_part_names: [[I32; 6]; 6],
    /// Whether each part uses its custom colour.
    pub use_custom_colors: [I32; 6],
    /// Each part's colour.
    pub skin_part_colors: [I32; 6],
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

    /// The decoded name of skin part `part` (0 body … 5 eyes).
    #[must_use]
    pub fn skin_part(&self, part: usize) -> Option<Name> {
        self.skin_part_names
            .get(part)
            .map(|p| I32String::new(p).decode())
    }
}

/// Game settings as demos record them (type 14, `De_GameInfo`).
#[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct GameInfo {
    /// 1 teams, 2 flags, 4 survival, 8 race.
    pub game_flags: I32,
    /// Score limit.
    pub score_limit: I32,
    /// Time limit (minutes).
    pub time_limit: I32,
    /// Matches per map.
    pub match_num: I32,
    /// Current match.
    pub match_current: I32,
}

pub use super::generated::v07::*;
