//! What the stats read of a frame, and slippi-js's action-state classes
//! (`stats/common.ts`).

use crate::slippi::events::Event;
use crate::slippi::finalized::FrameRecord;
use crate::slippi::frame_events::{PostFrame, PreFrame};

use super::MAX_TARGETS;

/// The fields of one character's Post-Frame Update the stats read. Fields
/// slippi-js reads as `undefined` are `None`; the action state and stocks
/// read as 0 when the event is too short for them (slippi-js would read
/// `undefined` and compute nonsense).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Post {
    /// The frame number: that of the frame record it is filed in, which
    /// [`FinalizedFrames`](crate::slippi::FinalizedFrames) picks by the
    /// update's own frame number (so it is not read again).
    pub frame: i32,
    pub action: u16,
    pub counter: Option<f32>,
    /// `percent ?? 0`, widened exactly as JavaScript does.
    pub percent: f64,
    pub stocks: u8,
    pub last_attack: Option<u8>,
    pub x: Option<f32>,
    pub y: Option<f32>,
    pub facing: Option<f32>,
    pub internal: Option<u8>,
    pub l_cancel: Option<u8>,
}

/// The fields of one character's Pre-Frame Update the stats read, the
/// sticks already reduced to their regions (slippi-js `getJoystickRegion`,
/// a pure function of the two values: computed once per update here
/// rather than once per frame it is compared in).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Pre {
    /// The frame number (as [`Post::frame`]).
    pub frame: i32,
    pub buttons: u16,
    pub joystick_region: u8,
    pub cstick_region: u8,
    pub l: Option<f32>,
    pub r: Option<f32>,
}

/// One player's (leader's) frame as the stats read it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct PlayerFrame {
    pub post: Option<Post>,
    pub pre: Option<Pre>,
}

impl Post {
    #[inline]
    fn read(p: &PostFrame<'_>, number: i32) -> Self {
        Self {
            frame: number,
            action: p.action_state().unwrap_or(0),
            counter: p.action_state_frame_counter(),
            percent: p.percent().map_or(0.0, f64::from),
            stocks: p.stocks_remaining().unwrap_or(0),
            last_attack: p.last_attack_landed(),
            x: p.position_x(),
            y: p.position_y(),
            facing: p.facing_direction(),
            internal: p.internal_character(),
            l_cancel: p.l_cancel_status(),
        }
    }
}

impl Pre {
    #[inline]
    fn read(p: &PreFrame<'_>, number: i32) -> Self {
        Self {
            frame: number,
            buttons: p.physical_buttons().unwrap_or(0),
            joystick_region: region(p.joystick_x(), p.joystick_y()),
            cstick_region: region(p.cstick_x(), p.cstick_y()),
            l: p.physical_l(),
            r: p.physical_r(),
        }
    }
}

/// A Target item of a frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct TargetItem {
    pub spawn_id: Option<u32>,
    pub x: Option<f32>,
    pub y: Option<f32>,
}

/// The Target item's type id.
const TARGET_ITEM: u16 = 209;

/// What the stats keep of a frame while it waits to be finalized: the
/// fields they read of the four ports' leaders, the internal character and
/// X position of every leader (for Home-Run Contest's Sandbag), and the
/// Target items. Filled as events arrive; a re-send replaces an update.
#[derive(Clone, Debug, Default)]
pub(crate) struct StatsFrame {
    pub number: i32,
    pub players: [PlayerFrame; 4],
    /// Leaders 0–5 with a Post-Frame Update: (internal character, X).
    pub leaders: [Option<(Option<u8>, Option<f32>)>; 6],
    pub targets: heapless::Vec<TargetItem, MAX_TARGETS>,
    pub targets_overflow: bool,
}

impl FrameRecord for StatsFrame {
    #[inline]
    fn begin(&mut self, number: i32) {
        self.number = number;
        self.players = [PlayerFrame::default(); 4];
        self.leaders = [None; 6];
        self.targets.clear();
        self.targets_overflow = false;
    }

    #[inline]
    fn add(&mut self, event: &Event<'_>) {
        match event {
            Event::PreFrame(e) if e.is_follower() != Some(true) => {
                let i = usize::from(e.player_index().unwrap_or(u8::MAX));
                if let Some(p) = self.players.get_mut(i) {
                    p.pre = Some(Pre::read(e, self.number));
                }
            }
            Event::PostFrame(e) if e.is_follower() != Some(true) => {
                let i = usize::from(e.player_index().unwrap_or(u8::MAX));
                let post = Post::read(e, self.number);
                if let Some(p) = self.players.get_mut(i) {
                    p.post = Some(post);
                }
                if let Some(l) = self.leaders.get_mut(i) {
                    *l = Some((post.internal, post.x));
                }
            }
            Event::ItemUpdate(e) if e.type_id() == Some(TARGET_ITEM) => {
                let t = TargetItem {
                    spawn_id: e.spawn_id(),
                    x: e.position_x(),
                    y: e.position_y(),
                };
                if self.targets.push(t).is_err() {
                    self.targets_overflow = true;
                }
            }
            _ => {}
        }
    }
}

// Action state ids (slippi-js `State`).
pub(crate) const DAMAGE_START: u16 = 0x4b;
pub(crate) const DAMAGE_END: u16 = 0x5b;
pub(crate) const CAPTURE_START: u16 = 0xdf;
pub(crate) const CAPTURE_END: u16 = 0xe8;
pub(crate) const GROUNDED_CONTROL_START: u16 = 0xe;
pub(crate) const GROUNDED_CONTROL_END: u16 = 0x18;
pub(crate) const SQUAT_START: u16 = 0x27;
pub(crate) const SQUAT_END: u16 = 0x29;
pub(crate) const DOWN_START: u16 = 0xb7;
pub(crate) const DOWN_END: u16 = 0xc6;
pub(crate) const TECH_START: u16 = 0xc7;
pub(crate) const TECH_END: u16 = 0xcc;
pub(crate) const DYING_END: u16 = 0xa;
pub(crate) const CONTROLLED_JUMP_START: u16 = 0x18;
pub(crate) const CONTROLLED_JUMP_END: u16 = 0x22;
pub(crate) const GROUND_ATTACK_START: u16 = 0x2c;
pub(crate) const GROUND_ATTACK_END: u16 = 0x40;
pub(crate) const GRAB: u16 = 0xd4;
pub(crate) const DAMAGE_FALL: u16 = 0x26;
pub(crate) const JAB_RESET_UP: u16 = 0xb9;
pub(crate) const JAB_RESET_DOWN: u16 = 0xc1;
pub(crate) const BARREL_WAIT: u16 = 0x125;
pub(crate) const COMMAND_GRAB_RANGE1_START: u16 = 0x10a;
pub(crate) const COMMAND_GRAB_RANGE1_END: u16 = 0x130;
pub(crate) const COMMAND_GRAB_RANGE2_START: u16 = 0x147;
pub(crate) const COMMAND_GRAB_RANGE2_END: u16 = 0x152;

/// Frames without a hit after which a punish ends (`Timers`).
pub(crate) const RESET_FRAMES: u32 = 45;

pub(crate) const fn is_in_control(s: u16) -> bool {
    let ground = s >= GROUNDED_CONTROL_START && s <= GROUNDED_CONTROL_END;
    let squat = s >= SQUAT_START && s <= SQUAT_END;
    let ground_attack = s > GROUND_ATTACK_START && s <= GROUND_ATTACK_END;
    ground || squat || ground_attack || s == GRAB
}

pub(crate) const fn is_teching(s: u16) -> bool {
    s >= TECH_START && s <= TECH_END
}

pub(crate) const fn is_down(s: u16) -> bool {
    s >= DOWN_START && s <= DOWN_END
}

pub(crate) const fn is_damaged(s: u16) -> bool {
    (s >= DAMAGE_START && s <= DAMAGE_END)
        || s == DAMAGE_FALL
        || s == JAB_RESET_UP
        || s == JAB_RESET_DOWN
}

pub(crate) const fn is_grabbed(s: u16) -> bool {
    s >= CAPTURE_START && s <= CAPTURE_END
}

pub(crate) const fn is_command_grabbed(s: u16) -> bool {
    ((s >= COMMAND_GRAB_RANGE1_START && s <= COMMAND_GRAB_RANGE1_END)
        || (s >= COMMAND_GRAB_RANGE2_START && s <= COMMAND_GRAB_RANGE2_END))
        && s != BARREL_WAIT
}

pub(crate) const fn is_dead(s: u16) -> bool {
    s <= DYING_END
}

/// Damaged, grabbed or command-grabbed: what starts or extends a punish.
pub(crate) const fn is_punished(s: u16) -> bool {
    is_damaged(s) || is_grabbed(s) || is_command_grabbed(s)
}

/// `prevFrame.stocksRemaining - frame.stocksRemaining > 0`.
pub(crate) fn did_lose_stock(frame: &Post, prev: &Post) -> bool {
    prev.stocks > frame.stocks
}

/// JavaScript truthiness of a number: neither 0 nor NaN.
pub(crate) fn truthy(x: f64) -> bool {
    x != 0.0 && !x.is_nan()
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
