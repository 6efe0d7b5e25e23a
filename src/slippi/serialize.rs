//! `Serialize` for Slippi events (feature `serde`): the names every
//! surface uses for them (see [`crate::vocabulary`]).
//!
//! Each event is a map with `kind` ([`Event::name`]), `code` (the command
//! byte) and its fields; ports are 1-based (`port`), characters are
//! `character` (the external id, as in Game Start and the character
//! select screen) or `internal_character` (the in-game id of Post-Frame
//! Update), each with its name beside it.
//!
//! ```
//! # #[cfg(feature = "std")] {
//! use gamefmt::slippi::{SlippiEventIter, SAMPLE};
//! let event = SlippiEventIter::new(SAMPLE)
//!     .find(|e| matches!(e, Ok(gamefmt::slippi::Event::PreFrame(_))))
//!     .unwrap()?;
//! let json = serde_json::to_value(&event).unwrap();
//! assert_eq!(json["kind"], "pre_frame");
//! assert!(json["port"].as_u64().is_some_and(|p| (1..=4).contains(&p)));
//! # }
//! # Ok::<(), gamefmt::Error>(())
//! ```

use serde::{Serialize, Serializer};

use super::live::name_chars;
use super::{
    Event, GameStart, PlayerSlot, PostFrame, PreFrame, character_name, internal_character_name,
    stage_name,
};
use crate::vocabulary::{Bytes, LossyStr, map};

/// A player index as its 1-based port.
fn port(index: Option<u8>) -> Option<u16> {
    index.map(|i| u16::from(i).saturating_add(1))
}

/// A signed player index (−1 for none) as its 1-based port, or `None`.
fn signed_port(index: Option<i8>) -> Option<u16> {
    port(index.and_then(|i| u8::try_from(i).ok()))
}

impl Event<'_> {
    /// The event's name, the `kind` of its serialized form: `game_start`,
    /// `pre_frame`, `post_frame`, …, `unknown`.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self {
            Self::EventPayloads(_) => "event_payloads",
            Self::GameStart(_) => "game_start",
            Self::PreFrame(_) => "pre_frame",
            Self::PostFrame(_) => "post_frame",
            Self::GameEnd(_) => "game_end",
            Self::FrameStart(_) => "frame_start",
            Self::ItemUpdate(_) => "item_update",
            Self::FrameBookend(_) => "frame_bookend",
            Self::MessageSplitter(_) => "message_splitter",
            Self::GeckoList(_) => "gecko_list",
            Self::FodPlatform(_) => "fod_platform",
            Self::Whispy(_) => "whispy",
            Self::StadiumTransformation(_) => "stadium_transformation",
            Self::Unknown(_) => "unknown",
        }
    }
}

/// One player slot of Game Start, with its port and the names of the
/// Game Start it belongs to.
struct Player<'a> {
    index: usize,
    slot: PlayerSlot<'a>,
    game: GameStart<'a>,
}

impl Serialize for Player<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (g, p, i) = (&self.game, &self.slot, self.index);
        let c = p.character();
        map!(s, {
            "port" => i.saturating_add(1),
            "character" => c,
            "character_name" => c.and_then(character_name),
            "type" => p.player_type(),
            "stocks" => p.stocks(),
            "costume" => p.costume(),
            "team_id" => p.team_id(),
            "cpu_level" => p.cpu_level(),
            "team_shade" => p.team_shade(),
            "handicap" => p.handicap(),
            "offense_ratio" => p.offense_ratio(),
            "defense_ratio" => p.defense_ratio(),
            "model_scale" => p.model_scale(),
            "dashback_fix" => g.dashback_fix(i),
            "shield_drop_fix" => g.shield_drop_fix(i),
            "name_tag" => g.name_tag(i).map(SjisName),
            "display_name" => g.display_name(i).map(SjisName),
            "connect_code" => g.connect_code(i).map(SjisName),
            "user_id" => g.slippi_uid(i).map(LossyStr),
        })
    }
}

/// A Shift-JIS name (name tag, display name, connect code) as the
/// console shows it and slippi-js reads it ([`name_chars`]: full-width
/// forms half-width, so a connect code's `＃` is `#`).
struct SjisName<'a>(&'a [u8]);

impl Serialize for SjisName<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&NameDisplay(self.0))
    }
}

/// [`SjisName`]'s characters, written one by one.
struct NameDisplay<'a>(&'a [u8]);

impl core::fmt::Display for NameDisplay<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        name_chars(self.0).try_for_each(|c| core::fmt::Write::write_char(f, c))
    }
}

/// The players of a Game Start, as a sequence.
struct Players<'a>(GameStart<'a>);

impl Serialize for Players<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let game = self.0;
        s.collect_seq(
            game.players()
                .map(|(index, slot)| Player { index, slot, game }),
        )
    }
}

fn game_start<S: Serializer>(s: S, code: u8, g: &GameStart<'_>) -> Result<S::Ok, S::Error> {
    map!(s, {
        "kind" => "game_start",
        "code" => code,
        "version" => g.version(),
        "stage" => g.stage(),
        "stage_name" => g.stage().and_then(stage_name),
        "is_pal" => g.is_pal(),
        "is_teams" => g.is_teams(),
        "game_mode" => g.game_mode(),
        "random_seed" => g.random_seed(),
        "timer_type" => g.timer_type(),
        "timer_seconds" => g.timer_seconds(),
        "friendly_fire" => g.friendly_fire(),
        "item_spawn_behavior" => g.item_spawn_behavior(),
        "item_spawn_bitfields" => g.item_spawn_bitfields().as_ref().map(<[u8; 5]>::as_slice),
        "game_bitfield1" => g.game_bitfield1(),
        "game_bitfield2" => g.game_bitfield2(),
        "game_bitfield3" => g.game_bitfield3(),
        "game_bitfield4" => g.game_bitfield4(),
        "bomb_rain" => g.bomb_rain(),
        "self_destruct_score" => g.self_destruct_score(),
        "damage_ratio" => g.damage_ratio(),
        "is_frozen_ps" => g.is_frozen_ps(),
        "minor_scene" => g.minor_scene(),
        "major_scene" => g.major_scene(),
        "language" => g.language(),
        "match_id" => g.match_id().map(LossyStr),
        "game_number" => g.game_number(),
        "tiebreaker_number" => g.tiebreaker_number(),
        "players" => Players(*g),
    })
}

impl Serialize for super::Version {
    /// `"major.minor.build"`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

fn pre_frame<S: Serializer>(s: S, code: u8, e: &PreFrame<'_>) -> Result<S::Ok, S::Error> {
    map!(s, {
        "kind" => "pre_frame", "code" => code, "frame" => e.frame(),
        "port" => port(e.player_index()), "follower" => e.is_follower(),
        "random_seed" => e.random_seed(), "action_state" => e.action_state(),
        "x" => e.position_x(), "y" => e.position_y(),
        "facing_direction" => e.facing_direction(), "joystick_x" => e.joystick_x(),
        "joystick_y" => e.joystick_y(), "cstick_x" => e.cstick_x(), "cstick_y" => e.cstick_y(),
        "trigger" => e.trigger(), "buttons" => e.buttons(),
        "physical_buttons" => e.physical_buttons(), "physical_l" => e.physical_l(),
        "physical_r" => e.physical_r(), "raw_joystick_x" => e.raw_joystick_x(),
        "percent" => e.percent(),
    })
}

fn post_frame<S: Serializer>(s: S, code: u8, e: &PostFrame<'_>) -> Result<S::Ok, S::Error> {
    let c = e.internal_character();
    map!(s, {
        "kind" => "post_frame", "code" => code, "frame" => e.frame(),
        "port" => port(e.player_index()), "follower" => e.is_follower(),
        "internal_character" => c, "character_name" => c.and_then(internal_character_name),
        "action_state" => e.action_state(), "x" => e.position_x(), "y" => e.position_y(),
        "facing_direction" => e.facing_direction(), "percent" => e.percent(),
        "shield_size" => e.shield_size(), "last_attack_landed" => e.last_attack_landed(),
        "combo_count" => e.combo_count(), "last_hit_by" => e.last_hit_by(),
        "stocks" => e.stocks_remaining(),
        "action_state_frame_counter" => e.action_state_frame_counter(),
        "is_airborne" => e.is_airborne(), "jumps_remaining" => e.jumps_remaining(),
        "l_cancel_status" => e.l_cancel_status(), "hurtbox_state" => e.hurtbox_state(),
        "misc_action_state" => e.misc_action_state(), "last_ground_id" => e.last_ground_id(),
        "self_induced_air_x_speed" => e.self_induced_air_x_speed(),
        "self_induced_y_speed" => e.self_induced_y_speed(),
        "attack_based_x_speed" => e.attack_based_x_speed(),
        "attack_based_y_speed" => e.attack_based_y_speed(),
        "self_induced_ground_x_speed" => e.self_induced_ground_x_speed(),
        "hitlag_remaining" => e.hitlag_remaining(), "animation_index" => e.animation_index(),
        "instance_hit_by" => e.instance_hit_by(), "instance_id" => e.instance_id(),
    })
}

impl Serialize for Event<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let code = self.code();
        match self {
            Self::EventPayloads(p) => map!(s, {
                "kind" => "event_payloads", "code" => code, "commands" => p.entries().count(),
            }),
            Self::GameStart(g) => game_start(s, code, g),
            Self::PreFrame(e) => pre_frame(s, code, e),
            Self::PostFrame(e) => post_frame(s, code, e),
            Self::GameEnd(e) => map!(s, {
                "kind" => "game_end", "code" => code, "method" => e.method(),
                "lras_initiator" => signed_port(e.lras_initiator()),
                "placements" => e.placements(),
            }),
            Self::FrameStart(e) => map!(s, {
                "kind" => "frame_start", "code" => code, "frame" => e.frame(),
                "random_seed" => e.random_seed(), "scene_frame_counter" => e.scene_frame_counter(),
            }),
            Self::ItemUpdate(e) => map!(s, {
                "kind" => "item_update", "code" => code, "frame" => e.frame(),
                "type" => e.type_id(), "state" => e.state(), "spawn_id" => e.spawn_id(),
                "x" => e.position_x(), "y" => e.position_y(),
                "facing_direction" => e.facing_direction(),
                "velocity_x" => e.velocity_x(), "velocity_y" => e.velocity_y(),
                "damage_taken" => e.damage_taken(), "expiration_timer" => e.expiration_timer(),
                "owner" => signed_port(e.owner()),
                "missile_type" => e.missile_type(), "turnip_face" => e.turnip_face(),
                "charge_shot_launched" => e.charge_shot_launched(),
                "charge_power" => e.charge_power(), "instance_id" => e.instance_id(),
            }),
            Self::FrameBookend(e) => map!(s, {
                "kind" => "frame_bookend", "code" => code, "frame" => e.frame(),
                "latest_finalized_frame" => e.latest_finalized_frame(),
            }),
            Self::MessageSplitter(e) => map!(s, {
                "kind" => "message_splitter", "code" => code, "command" => e.internal_command(),
                "size" => e.actual_size(), "last" => e.is_last(),
            }),
            Self::GeckoList(l) => map!(s, {
                "kind" => "gecko_list", "code" => code, "codes" => l.codes().count(),
            }),
            Self::FodPlatform(e) => map!(s, {
                "kind" => "fod_platform", "code" => code, "frame" => e.frame(),
                "platform" => e.platform(), "height" => e.height(),
            }),
            Self::Whispy(e) => map!(s, {
                "kind" => "whispy", "code" => code, "frame" => e.frame(), "direction" => e.direction(),
            }),
            Self::StadiumTransformation(e) => map!(s, {
                "kind" => "stadium_transformation", "code" => code, "frame" => e.frame(),
                "event" => e.event(), "type" => e.transformation(),
            }),
            Self::Unknown(u) => map!(s, {
                "kind" => "unknown", "code" => code, "payload" => Bytes(u.payload()),
            }),
        }
    }
}
