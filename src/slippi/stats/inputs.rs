//! Input counts (slippi-js `stats/inputs.ts`).

use super::common::Pre;

/// The first frame slippi-js counts inputs on.
const FIRST_PLAYABLE: i32 = -39;

/// One player's input counts (two-player games only, as in slippi-js).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct InputCounts {
    /// The player's index (port − 1; serialized as `port`, 1-based).
    #[cfg_attr(
        feature = "serde",
        serde(rename = "port", serialize_with = "super::serialize_port")
    )]
    pub player_index: u8,
    /// The opponent's index (serialized as `opponent_port`, 1-based).
    #[cfg_attr(
        feature = "serde",
        serde(rename = "opponent_port", serialize_with = "super::serialize_port")
    )]
    pub opponent_index: u8,
    /// All inputs: the four kinds below.
    pub input_count: u32,
    /// Joystick moves into a new region (not the dead zone).
    pub joystick_input_count: u32,
    /// C-stick moves into a new region (not the dead zone).
    pub cstick_input_count: u32,
    /// Physical buttons (the low 12 bits) going from up to down.
    pub button_input_count: u32,
    /// Physical L or R crossing 0.3 upwards.
    pub trigger_input_count: u32,
}

fn crossed(prev: Option<f32>, cur: Option<f32>) -> bool {
    match (prev, cur) {
        (Some(p), Some(c)) => f64::from(p) < 0.3 && f64::from(c) >= 0.3,
        _ => false,
    }
}

/// One frame of `handleInputCompute`.
#[inline(always)]
pub(crate) fn compute(counts: &mut InputCounts, player: &Pre, prev: Option<&Pre>) {
    let Some(prev) = prev else { return };
    if player.frame < FIRST_PLAYABLE {
        return;
    }
    let pressed = (!prev.buttons & player.buttons & 0xfff).count_ones();
    counts.input_count = counts.input_count.saturating_add(pressed);
    counts.button_input_count = counts.button_input_count.saturating_add(pressed);
    let (was, now) = (prev.joystick_region, player.joystick_region);
    if was != now && now != 0 {
        counts.input_count = counts.input_count.saturating_add(1);
        counts.joystick_input_count = counts.joystick_input_count.saturating_add(1);
    }
    let (was, now) = (prev.cstick_region, player.cstick_region);
    if was != now && now != 0 {
        counts.input_count = counts.input_count.saturating_add(1);
        counts.cstick_input_count = counts.cstick_input_count.saturating_add(1);
    }
    for (p, c) in [(prev.l, player.l), (prev.r, player.r)] {
        if crossed(p, c) {
            counts.input_count = counts.input_count.saturating_add(1);
            counts.trigger_input_count = counts.trigger_input_count.saturating_add(1);
        }
    }
}
