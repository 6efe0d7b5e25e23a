//! Game Start (0x36): the game's settings, players and Slippi version.

use core::fmt;

use super::field::{self, accessors, event_view};

/// Number of player blocks in the game info block (only 4 are used).
pub const PLAYER_BLOCKS: usize = 6;
/// Number of ports Slippi records per-port data for.
pub const PORTS: usize = 4;

/// A Slippi replay spec version, `major.minor.build`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Version {
    /// Major version.
    pub major: u8,
    /// Minor version.
    pub minor: u8,
    /// Build (patch) version.
    pub build: u8,
}

impl Version {
    /// `major.minor.build`.
    #[must_use]
    pub const fn new(major: u8, minor: u8, build: u8) -> Self {
        Self {
            major,
            minor,
            build,
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.build)
    }
}

event_view! {
    /// Game Start (0x36): occurs once, right after Event Payloads. Offsets
    /// below count the command byte as 0; every field is `None` when the
    /// event is too short for it (older recorders wrote shorter events).
    GameStart
}

impl<'a> GameStart<'a> {
    /// The recorder's spec version (bytes 0x1–0x3).
    #[must_use]
    pub fn version(&self) -> Option<Version> {
        let v = field::bytes(self.bytes, 1, 3)?;
        match *v {
            [major, minor, build] => Some(Version::new(major, minor, build)),
            _ => None,
        }
    }

    /// The whole 312-byte game info block (0x5).
    #[must_use]
    pub fn game_info_block(&self) -> Option<&'a [u8]> {
        field::bytes(self.bytes, 5, 312)
    }

    accessors! {
        /// Game bitfield 1 (0x5): timer type, character UI places, mode.
        game_bitfield1: u8 @ 0x5;
        /// Game bitfield 2 (0x6): bit 0x01 friendly fire.
        game_bitfield2: u8 @ 0x6;
        /// Game bitfield 3 (0x7).
        game_bitfield3: u8 @ 0x7;
        /// Game bitfield 4 (0x8): pause-UI flags.
        game_bitfield4: u8 @ 0x8;
        /// Bomb rain (0xB).
        bomb_rain: u8 @ 0xB;
        /// Teams game (0xD).
        is_teams: bool @ 0xD;
        /// Item spawn frequency (0x10): −1 off, 0 very low … 4 very high.
        item_spawn_behavior: i8 @ 0x10;
        /// Self-destruct score value (0x11).
        self_destruct_score: i8 @ 0x11;
        /// Stage id (0x13).
        stage: u16 @ 0x13;
        /// Timer length in seconds (0x15).
        timer_seconds: u32 @ 0x15;
        /// Damage ratio (0x35).
        damage_ratio: f32 @ 0x35;
        /// Random seed before the game starts (0x13D).
        random_seed: u32 @ 0x13D;
        /// PAL (0x1A1, 1.5.0).
        is_pal: bool @ 0x1A1;
        /// Frozen Pokémon Stadium (0x1A2, 2.0.0).
        is_frozen_ps: bool @ 0x1A2;
        /// Minor scene (0x1A3, 3.7.0), normally 2.
        minor_scene: u8 @ 0x1A3;
        /// Major scene (0x1A4, 3.7.0): 2 VS, 8 online.
        major_scene: u8 @ 0x1A4;
        /// Language (0x2BD, 3.12.0): 0 Japanese, 1 English.
        language: u8 @ 0x2BD;
        /// Game number within the session, from 1 (0x2F1, 3.14.0).
        game_number: u32 @ 0x2F1;
        /// Tiebreaker number, 0 = none (0x2F5, 3.14.0).
        tiebreaker_number: u32 @ 0x2F5;
    }

    /// Timer type (bits 0–1 of bitfield 1): 0 none, 2 down, 3 up.
    #[must_use]
    pub fn timer_type(&self) -> Option<u8> {
        self.game_bitfield1().map(|b| b & 0x03)
    }

    /// Game mode (bits 5–7 of bitfield 1): 0 time, 1 stock, 2 coin, 3 bonus.
    #[must_use]
    pub fn game_mode(&self) -> Option<u8> {
        self.game_bitfield1().map(|b| (b & 0xE0) >> 5)
    }

    /// Friendly fire (bit 0x01 of bitfield 2).
    #[must_use]
    pub fn friendly_fire(&self) -> Option<bool> {
        self.game_bitfield2().map(|b| b & 0x01 != 0)
    }

    /// The five item-spawn bitfields (0x28–0x2C).
    #[must_use]
    pub fn item_spawn_bitfields(&self) -> Option<[u8; 5]> {
        field::bytes(self.bytes, 0x28, 5)?.first_chunk().copied()
    }

    /// Player block `index` (0–5) of the game info block.
    #[must_use]
    pub fn player(&self, index: usize) -> Option<PlayerSlot<'a>> {
        let off = field::indexed(0x65, 0x24, index, PLAYER_BLOCKS)?;
        field::bytes(self.bytes, off, 0x24).map(|bytes| PlayerSlot { bytes })
    }

    /// The first four player blocks (ports 1–4) with their index, skipping
    /// empty slots (player type 3).
    pub fn players(&self) -> impl Iterator<Item = (usize, PlayerSlot<'a>)> + 'a {
        let this = *self;
        (0..PORTS).filter_map(move |i| {
            let p = this.player(i)?;
            (p.player_type() != Some(3)).then_some((i, p))
        })
    }

    /// Dashback controller fix of `port` (0–3), 0x141 + 8i (1.0.0):
    /// 0 off, 1 UCF, 2 Dween.
    #[must_use]
    pub fn dashback_fix(&self, port: usize) -> Option<u32> {
        field::u32::<0>(self.bytes, field::indexed(0x141, 8, port, PORTS)?)
    }

    /// Shield-drop controller fix of `port` (0–3), 0x145 + 8i (1.0.0).
    #[must_use]
    pub fn shield_drop_fix(&self, port: usize) -> Option<u32> {
        field::u32::<0>(self.bytes, field::indexed(0x145, 8, port, PORTS)?)
    }

    /// In-game name tag of `port` (0–3), 16 bytes of Shift-JIS at
    /// 0x161 + 16i (1.3.0), NUL padding removed.
    #[must_use]
    pub fn name_tag(&self, port: usize) -> Option<&'a [u8]> {
        self.string(0x161, 16, port)
    }

    /// Slippi display name of `port` (0–3), 31 bytes of Shift-JIS at
    /// 0x1A5 + 31i (3.9.0), NUL padding removed.
    #[must_use]
    pub fn display_name(&self, port: usize) -> Option<&'a [u8]> {
        self.string(0x1A5, 31, port)
    }

    /// Connect code of `port` (0–3), 10 bytes of Shift-JIS at 0x221 + 10i
    /// (3.9.0; the `#` is the full-width 0x81 0x94), NUL padding removed.
    #[must_use]
    pub fn connect_code(&self, port: usize) -> Option<&'a [u8]> {
        self.string(0x221, 10, port)
    }

    /// Slippi user id of `port` (0–3), 29 ASCII bytes at 0x249 + 29i
    /// (3.11.0), NUL padding removed.
    #[must_use]
    pub fn slippi_uid(&self, port: usize) -> Option<&'a [u8]> {
        self.string(0x249, 29, port)
    }

    /// Match id (51 ASCII bytes at 0x2BE, 3.14.0), NUL padding removed.
    #[must_use]
    pub fn match_id(&self) -> Option<&'a [u8]> {
        field::bytes(self.bytes, 0x2BE, 51).map(field::trim_nul)
    }

    fn string(&self, base: usize, len: usize, port: usize) -> Option<&'a [u8]> {
        let off = field::indexed(base, len, port, PORTS)?;
        field::bytes(self.bytes, off, len).map(field::trim_nul)
    }
}

/// One 0x24-byte player block of the Game Start game info block. Offsets
/// below are relative to the block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerSlot<'a> {
    bytes: &'a [u8],
}

impl<'a> PlayerSlot<'a> {
    /// The block's 0x24 bytes.
    #[must_use]
    pub const fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    accessors! {
        /// External character id (0x0).
        character: u8 @ 0x0;
        /// Player type (0x1): 0 human, 1 CPU, 2 demo, 3 empty.
        player_type: u8 @ 0x1;
        /// Starting stocks (0x2).
        stocks: u8 @ 0x2;
        /// Costume index (0x3).
        costume: u8 @ 0x3;
        /// Team shade (0x7): 0 normal, 1 light, 2 dark.
        team_shade: u8 @ 0x7;
        /// Handicap (0x8).
        handicap: u8 @ 0x8;
        /// Team id (0x9): 0 red, 1 blue, 2 green.
        team_id: u8 @ 0x9;
        /// Player bitfield (0xC): 0x80 rumble.
        player_bitfield: u8 @ 0xC;
        /// CPU level (0xF).
        cpu_level: u8 @ 0xF;
        /// Starting damage (0x10).
        damage_start: u16 @ 0x10;
        /// Damage on respawn (0x12).
        damage_spawn: u16 @ 0x12;
        /// Offense (knockback dealt) ratio (0x18).
        offense_ratio: f32 @ 0x18;
        /// Defense (knockback taken) ratio (0x1C).
        defense_ratio: f32 @ 0x1C;
        /// Model scale (0x20).
        model_scale: f32 @ 0x20;
    }
}
