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

/// slippi-js `JoystickRegion` of each combination of the four tests
/// (bit 0: x ≥ 0.2875, 1: x ≤ −0.2875, 2: y ≥ 0.2875, 3: y ≤ −0.2875),
/// following its if-chain: 0 dead zone, then NE, SE, SW, NW, N, E, S, W.
// NE 1, SE 2, SW 3, NW 4 before N 5, E 6, S 7, W 8, as the chain tests.
const REGIONS: [u8; 16] = [0, 6, 8, 6, 5, 1, 4, 1, 7, 2, 3, 2, 5, 1, 3, 1];

/// The stick's region (slippi-js `getJoystickRegion`; an absent value
/// passes no test, as `undefined` compares in JavaScript).
#[inline]
pub(crate) fn region(x: Option<f32>, y: Option<f32>) -> u8 {
    const T: f64 = 0.2875;
    let (x, y) = (x.map_or(f64::NAN, f64::from), y.map_or(f64::NAN, f64::from));
    let bits = usize::from(x >= T)
        | usize::from(x <= -T) << 1
        | usize::from(y >= T) << 2
        | usize::from(y <= -T) << 3;
    REGIONS.get(bits).copied().unwrap_or(0)
}

fn crossed(prev: Option<f32>, cur: Option<f32>) -> bool {
    match (prev, cur) {
        (Some(p), Some(c)) => f64::from(p) < 0.3 && f64::from(c) >= 0.3,
        _ => false,
    }
}

/// One frame of `handleInputCompute`.
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
