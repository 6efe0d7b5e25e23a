//! Action counts (slippi-js `stats/actions.ts`).

use super::common::{CONTROLLED_JUMP_END, CONTROLLED_JUMP_START, Post};

const ROLL_FORWARD: u16 = 0xe9;
const ROLL_BACKWARD: u16 = 0xea;
const SPOT_DODGE: u16 = 0xeb;
const AIR_DODGE: u16 = 0xec;
const KNEE_BEND: u16 = 0x18;
const TECH_MISS_UP: u16 = 0xb7;
const TECH_MISS_DOWN: u16 = 0xbf;
const NEUTRAL_TECH: u16 = 0xc7;
const FORWARD_TECH: u16 = 0xc8;
const BACKWARD_TECH: u16 = 0xc9;
const WALL_TECH: u16 = 0xca;
const MISSED_WALL_TECH: u16 = 0xf7;
const DASH: u16 = 0x14;
const TURN: u16 = 0x12;
const LANDING_FALL_SPECIAL: u16 = 0x2b;
const FALL: u16 = 0x1d;
const GRAB: u16 = 0xd4;
const DASH_GRAB: u16 = 0xd6;
const CLIFF_CATCH: u16 = 0xfc;
const THROW_UP: u16 = 0xdd;
const THROW_FORWARD: u16 = 0xdb;
const THROW_DOWN: u16 = 0xde;
const THROW_BACK: u16 = 0xdc;
const ATTACK_JAB1: u16 = 0x2c;
const ATTACK_JAB2: u16 = 0x2d;
const ATTACK_JAB3: u16 = 0x2e;
const ATTACK_JABM: u16 = 0x2f;
const ATTACK_DASH: u16 = 0x32;
const ATTACK_UTILT: u16 = 0x38;
const ATTACK_DTILT: u16 = 0x39;
const ATTACK_USMASH: u16 = 0x3f;
const ATTACK_DSMASH: u16 = 0x40;
const AERIAL_NAIR: u16 = 0x41;
const AERIAL_FAIR: u16 = 0x42;
const AERIAL_BAIR: u16 = 0x43;
const AERIAL_UAIR: u16 = 0x44;
const AERIAL_DAIR: u16 = 0x45;
const AERIAL_NAIR_LANDING: u16 = 0x46;
const AERIAL_DAIR_LANDING: u16 = 0x4a;
const TEETER: u16 = 0xf5;
const TAUNT_LEFT: u16 = 0x108;
const TAUNT_RIGHT: u16 = 0x109;
const GNW_JAB1: u16 = 0x155;
const GNW_JABM: u16 = 0x156;
const GNW_DTILT: u16 = 0x159;
const GNW_FSMASH: u16 = 0x15a;
const GNW_NAIR: u16 = 0x15b;
const GNW_BAIR: u16 = 0x15c;
const GNW_UAIR: u16 = 0x15d;
const PEACH_FSMASH1: u16 = 0x15d;
const PEACH_FSMASH3: u16 = 0x15f;

/// Animations slippi-js looks back over for a wavedash.
const RECENT: usize = 15;

/// `[landing lag, L-cancelled landing lag]` of nair, fair, bair, uair and
/// dair by internal character id, from slippi-js 9.1.2's
/// `melee/framedata.json` (its `getAerialFrameData`).
const LANDING_LAG: [[(u8, u8); 5]; 27] = [
    [(16, 8), (21, 10), (15, 7), (15, 7), (23, 11)], // Mario
    [(15, 7), (22, 11), (20, 10), (18, 9), (18, 9)], // Fox
    [(15, 7), (19, 9), (18, 9), (15, 7), (24, 12)],  // Captain Falcon
    [(20, 10), (30, 15), (15, 7), (25, 12), (31, 15)], // Donkey Kong
    [(15, 7), (20, 10), (15, 7), (15, 7), (20, 10)], // Kirby
    [(30, 15), (30, 15), (35, 17), (30, 15), (40, 20)], // Bowser
    [(15, 7), (15, 7), (15, 7), (30, 15), (50, 25)], // Link
    [(16, 8), (16, 8), (16, 8), (24, 12), (20, 10)], // Sheik
    [(22, 11), (18, 9), (18, 9), (18, 9), (28, 14)], // Ness
    [(17, 8), (25, 12), (15, 7), (15, 7), (15, 7)],  // Peach
    [(20, 10), (20, 10), (20, 10), (32, 16), (25, 12)], // Popo
    [(20, 10), (20, 10), (20, 10), (32, 16), (25, 12)], // Nana
    [(15, 7), (20, 10), (30, 15), (26, 13), (40, 20)], // Pikachu
    [(15, 7), (15, 7), (15, 7), (15, 7), (15, 7)],   // Samus
    [(15, 7), (21, 10), (15, 7), (19, 9), (26, 13)], // Yoshi
    [(20, 10), (20, 10), (20, 10), (20, 10), (30, 15)], // Jigglypuff
    [(26, 13), (25, 12), (28, 14), (20, 10), (28, 14)], // Mewtwo
    [(15, 7), (25, 12), (15, 7), (15, 7), (18, 9)],  // Luigi
    [(15, 7), (15, 7), (24, 12), (15, 7), (32, 16)], // Marth
    [(18, 9), (18, 9), (18, 9), (25, 12), (24, 12)], // Zelda
    [(15, 7), (15, 7), (15, 7), (30, 15), (50, 25)], // Young Link
    [(18, 9), (25, 12), (18, 9), (18, 9), (24, 12)], // Dr. Mario
    [(15, 7), (22, 11), (20, 10), (18, 9), (18, 9)], // Falco
    [(12, 6), (15, 7), (18, 9), (18, 9), (26, 13)],  // Pichu
    [(15, 7), (25, 12), (18, 9), (15, 7), (20, 10)], // Mr. Game & Watch
    [(25, 12), (25, 12), (25, 12), (25, 12), (35, 17)], // Ganondorf
    [(20, 10), (20, 10), (24, 12), (18, 9), (32, 16)], // Roy
];

/// Successes and failures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SuccessFail {
    /// Successes.
    pub success: i32,
    /// Failures.
    pub fail: i32,
}

/// Edge cancels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct EdgeCancels {
    /// Faster than an L-cancel would have been.
    pub success: i32,
    /// Not faster than an L-cancel, faster than the full landing lag.
    pub slow: i32,
}

/// Attacks started, by kind.
#[allow(missing_docs, reason = "slippi-js's attack names")]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct AttackCounts {
    pub jab1: i32,
    pub jab2: i32,
    pub jab3: i32,
    pub jabm: i32,
    pub dash: i32,
    pub ftilt: i32,
    pub utilt: i32,
    pub dtilt: i32,
    pub fsmash: i32,
    pub usmash: i32,
    pub dsmash: i32,
    pub nair: i32,
    pub fair: i32,
    pub bair: i32,
    pub uair: i32,
    pub dair: i32,
}

/// Throws, by direction.
#[allow(missing_docs, reason = "throw directions")]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ThrowCounts {
    pub up: i32,
    pub forward: i32,
    pub back: i32,
    pub down: i32,
}

/// Ground techs; in and away are relative to the opponent.
#[allow(missing_docs, reason = "tech kinds")]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct GroundTechCounts {
    pub away: i32,
    #[doc = "Towards the opponent."]
    pub r#in: i32,
    pub neutral: i32,
    pub fail: i32,
}

/// One player's action counts (two-player games only, as in slippi-js).
/// Counts are signed: slippi-js subtracts air dodges used to wavedash,
/// boost grabs from dash attacks and edge cancels from failed L-cancels,
/// which can take a count below zero.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ActionCounts {
    /// The player's index (port − 1; serialized as `port`, 1-based).
    #[cfg_attr(
        feature = "serde",
        serde(rename = "port", serialize_with = "super::serialize_port")
    )]
    pub player_index: u8,
    /// Wavedashes.
    pub wavedash_count: i32,
    /// Wavelands.
    pub waveland_count: i32,
    /// Air dodges (not those used to wavedash or waveland).
    pub air_dodge_count: i32,
    /// Dash dances (dash, turn, dash).
    pub dash_dance_count: i32,
    /// Spot dodges.
    pub spot_dodge_count: i32,
    /// Ledge grabs.
    pub ledgegrab_count: i32,
    /// Rolls.
    pub roll_count: i32,
    /// Taunts.
    pub taunt_count: i32,
    /// Edge-cancelled aerials.
    pub edge_cancel_count: EdgeCancels,
    /// L-cancels.
    pub l_cancel_count: SuccessFail,
    /// Attacks.
    pub attack_count: AttackCounts,
    /// Grabs: success when a grab action follows, fail otherwise.
    pub grab_count: SuccessFail,
    /// Throws.
    pub throw_count: ThrowCounts,
    /// Ground techs.
    pub ground_tech_count: GroundTechCounts,
    /// Wall techs.
    pub wall_tech_count: SuccessFail,
}

/// One player's action state.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct ActionState {
    /// The last [`RECENT`] animations and Y positions, a ring: the next
    /// goes at `head`.
    recent: [(u16, f64); RECENT],
    head: usize,
    filled: usize,
    /// The previous frame's action-state frame counter (`None`: absent
    /// or no frame yet).
    prev_counter: Option<f32>,
    /// The length of the run of equal animations ending now, and of the
    /// run before it.
    run: u32,
    prev_run: u32,
    last_l_cancel_status: u8,
    /// slippi-js would have thrown (an edge cancel by a character without
    /// frame data).
    pub(crate) would_throw: bool,
}

fn inc(field: &mut i32, condition: bool) {
    if condition {
        *field = field.saturating_add(1);
    }
}

impl ActionState {
    /// The `back`-th latest animation and Y position (0: the latest).
    fn nth_back(&self, back: usize) -> Option<(u16, f64)> {
        if back >= self.filled {
            return None;
        }
        let at = self
            .head
            .wrapping_add(RECENT)
            .wrapping_sub(1)
            .wrapping_sub(back)
            % RECENT;
        self.recent.get(at).copied()
    }

    /// The recent animations, oldest first.
    fn recent(&self) -> impl DoubleEndedIterator<Item = (u16, f64)> + Clone + '_ {
        (0..self.filled)
            .rev()
            .filter_map(|back| self.nth_back(back))
    }

    fn push(&mut self, animation: u16, y: f64) {
        let prev = self.nth_back(0).map(|(a, _)| a);
        if prev == Some(animation) {
            self.run = self.run.saturating_add(1);
        } else {
            self.prev_run = self.run;
            self.run = 1;
        }
        if let Some(slot) = self.recent.get_mut(self.head) {
            *slot = (animation, y);
        }
        self.head = self.head.wrapping_add(1) % RECENT;
        self.filled = self.filled.saturating_add(1).min(RECENT);
    }
}

/// One frame of `handleActionCompute`.
#[inline(always)]
pub(crate) fn compute(
    counts: &mut ActionCounts,
    state: &mut ActionState,
    player: &Post,
    opponent: &Post,
) {
    let current = player.action;
    let prev = state.nth_back(0).map(|(a, _)| a);
    let prev2 = state.nth_back(1).map(|(a, _)| a);
    state.push(current, player.y.map_or(0.0, f64::from));
    let prev_counter = state.prev_counter;
    state.prev_counter = player.counter;
    let counter_back = match (prev_counter, player.counter) {
        (Some(p), Some(c)) => p > c,
        _ => false,
    };
    let is_new_action = Some(current) != prev || counter_back;
    if !is_new_action {
        return;
    }
    let prev_is = |f: fn(u16) -> bool| prev.is_some_and(f);

    inc(
        &mut counts.dash_dance_count,
        prev2 == Some(DASH) && prev == Some(TURN) && current == DASH,
    );
    inc(
        &mut counts.roll_count,
        current == ROLL_FORWARD || current == ROLL_BACKWARD,
    );
    inc(&mut counts.spot_dodge_count, current == SPOT_DODGE);
    inc(&mut counts.air_dodge_count, current == AIR_DODGE);
    inc(&mut counts.ledgegrab_count, current == CLIFF_CATCH);
    inc(
        &mut counts.taunt_count,
        current == TAUNT_LEFT || current == TAUNT_RIGHT,
    );

    let is_grabbing = |a: u16| a == GRAB || a == DASH_GRAB;
    let is_grab_action = current > GRAB && current <= THROW_DOWN && current != DASH_GRAB;
    inc(
        &mut counts.grab_count.success,
        prev_is(is_grabbing) && is_grab_action,
    );
    inc(
        &mut counts.grab_count.fail,
        prev_is(is_grabbing) && !is_grab_action,
    );
    if current == DASH_GRAB && prev == Some(ATTACK_DASH) {
        counts.attack_count.dash = counts.attack_count.dash.saturating_sub(1);
    }

    let a = &mut counts.attack_count;
    inc(&mut a.jab1, current == ATTACK_JAB1);
    inc(&mut a.jab2, current == ATTACK_JAB2);
    inc(&mut a.jab3, current == ATTACK_JAB3);
    inc(&mut a.jabm, current == ATTACK_JABM);
    inc(&mut a.dash, current == ATTACK_DASH);
    inc(&mut a.ftilt, (0x33..=0x37).contains(&current));
    inc(&mut a.utilt, current == ATTACK_UTILT);
    inc(&mut a.dtilt, current == ATTACK_DTILT);
    inc(&mut a.fsmash, (0x3a..=0x3e).contains(&current));
    inc(&mut a.usmash, current == ATTACK_USMASH);
    inc(&mut a.dsmash, current == ATTACK_DSMASH);
    inc(&mut a.nair, current == AERIAL_NAIR);
    inc(&mut a.fair, current == AERIAL_FAIR);
    inc(&mut a.bair, current == AERIAL_BAIR);
    inc(&mut a.uair, current == AERIAL_UAIR);
    inc(&mut a.dair, current == AERIAL_DAIR);
    if player.internal == Some(0x18) {
        inc(&mut a.jab1, current == GNW_JAB1);
        inc(&mut a.jabm, current == GNW_JABM);
        inc(&mut a.dtilt, current == GNW_DTILT);
        inc(&mut a.fsmash, current == GNW_FSMASH);
        inc(&mut a.nair, current == GNW_NAIR);
        inc(&mut a.bair, current == GNW_BAIR);
        inc(&mut a.uair, current == GNW_UAIR);
    }
    if player.internal == Some(0x09) {
        inc(
            &mut a.fsmash,
            (PEACH_FSMASH1..=PEACH_FSMASH3).contains(&current),
        );
    }

    let t = &mut counts.throw_count;
    inc(&mut t.up, current == THROW_UP);
    inc(&mut t.forward, current == THROW_FORWARD);
    inc(&mut t.down, current == THROW_DOWN);
    inc(&mut t.back, current == THROW_BACK);

    let opponent_dir: f64 = match (player.x, opponent.x) {
        (Some(p), Some(o)) if p > o => -1.0,
        _ => 1.0,
    };
    let facing = player.facing.is_some_and(|f| f64::from(f) == opponent_dir);
    let g = &mut counts.ground_tech_count;
    inc(
        &mut g.fail,
        current == TECH_MISS_DOWN || current == TECH_MISS_UP,
    );
    inc(&mut g.r#in, current == FORWARD_TECH && facing);
    inc(&mut g.r#in, current == BACKWARD_TECH && !facing);
    inc(&mut g.neutral, current == NEUTRAL_TECH);
    inc(&mut g.away, current == BACKWARD_TECH && facing);
    inc(&mut g.away, current == FORWARD_TECH && !facing);
    inc(&mut counts.wall_tech_count.success, current == WALL_TECH);
    inc(
        &mut counts.wall_tech_count.fail,
        current == MISSED_WALL_TECH,
    );

    let is_aerial_landing = |a: u16| (AERIAL_NAIR_LANDING..=AERIAL_DAIR_LANDING).contains(&a);
    if is_aerial_landing(current) {
        inc(
            &mut counts.l_cancel_count.success,
            player.l_cancel == Some(1),
        );
        inc(&mut counts.l_cancel_count.fail, player.l_cancel == Some(2));
    }

    if prev_is(is_aerial_landing) && (current == FALL || current == TEETER) {
        if let Some(internal) = player.internal {
            let landing_frames = state.prev_run;
            let aerial = prev.map_or(0, |p| usize::from(p.wrapping_sub(AERIAL_NAIR_LANDING)));
            let lag = LANDING_LAG
                .get(usize::from(internal))
                .and_then(|row| row.get(aerial));
            match lag {
                Some(&(landing_lag, l_cancelled)) => {
                    let (landing_lag, l_cancelled) =
                        (u32::from(landing_lag), u32::from(l_cancelled));
                    inc(
                        &mut counts.edge_cancel_count.success,
                        landing_frames < l_cancelled,
                    );
                    inc(
                        &mut counts.edge_cancel_count.slow,
                        landing_frames >= l_cancelled && landing_frames < landing_lag,
                    );
                    if landing_frames <= l_cancelled && state.last_l_cancel_status == 2 {
                        counts.l_cancel_count.fail = counts.l_cancel_count.fail.saturating_sub(1);
                    }
                }
                None => state.would_throw = true,
            }
        }
    }

    wavedash(counts, state);

    if let Some(status) = player.l_cancel {
        if status > 0 {
            state.last_l_cancel_status = status;
        }
    }
}

/// `handleActionWavedash`, over the last 15 animations (current last).
fn wavedash(counts: &mut ActionCounts, state: &ActionState) {
    let (Some((current, y_now)), Some((prev, _))) = (state.nth_back(0), state.nth_back(1)) else {
        return;
    };
    let initiation =
        prev == AIR_DODGE || (CONTROLLED_JUMP_START..=CONTROLLED_JUMP_END).contains(&prev);
    if current != LANDING_FALL_SPECIAL || !initiation {
        return;
    }
    let recent = state.recent();
    let has = |a: u16| recent.clone().any(|(r, _)| r == a);
    let mut distinct = 0usize;
    for (i, (a, _)) in recent.clone().enumerate() {
        if !recent.clone().take(i).any(|(b, _)| b == a) {
            distinct = distinct.saturating_add(1);
        }
    }
    if distinct == 2 && has(AIR_DODGE) {
        return;
    }
    if has(AIR_DODGE) {
        counts.air_dodge_count = counts.air_dodge_count.saturating_sub(1);
    }
    if has(KNEE_BEND) {
        let airborne_start = CONTROLLED_JUMP_START.saturating_add(1);
        let jump_frames = recent
            .clone()
            .filter(|&(a, _)| a >= airborne_start && a <= CONTROLLED_JUMP_END)
            .count();
        let knee_y = recent
            .clone()
            .rev()
            .find(|&(a, _)| a == KNEE_BEND)
            .map_or(0.0, |(_, y)| y);
        let changed_y = (y_now - knee_y).abs() > 0.1;
        if jump_frames >= 5 && changed_y {
            counts.waveland_count = counts.waveland_count.saturating_add(1);
        } else {
            counts.wavedash_count = counts.wavedash_count.saturating_add(1);
        }
    } else {
        counts.waveland_count = counts.waveland_count.saturating_add(1);
    }
}
