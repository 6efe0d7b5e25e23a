//! Game stats as slippi-js 9.1.2's `getStats()` and `getStadiumStats()`
//! compute them: stocks, conversions with their opening types, combos,
//! action counts, input counts, the overall numbers, Target Test breaks and
//! the Home-Run Contest distance.
//!
//! [`SlippiStats`] takes every event of one game (from
//! [`super::SlippiEventIter`], the push [`super::Decoder`] or a
//! [`super::Reader`]), releases frames through [`FinalizedFrames`] and
//! feeds the finalized ones to one state machine per stat, each a
//! translation of slippi-js's `src/stats/*.ts`: the same definitions, the
//! same order, the same `f64` arithmetic on the same `f32` values, so the
//! numbers are equal to the last bit. No allocation: every list lives in
//! fixed memory with a documented cap ([`MAX_PUNISHES`], [`MAX_MOVES`],
//! [`MAX_STOCKS`], [`MAX_TARGETS`]); a game past a cap keeps what fit and
//! says so ([`SlippiStats::overflowed`]). The whole machine is 117 KiB
//! (53 KiB of it the [`FinalizedFrames`] window): keep it in a `Box` or a
//! `static` where the stack is small.
//!
//! What slippi-js does, done the same way:
//!
//! - Stocks, conversions, combos, actions and inputs exist only for games
//!   with exactly two players (`getSinglesPlayerPermutationsFromSettings`);
//!   the overall numbers exist for every player, with empty inputs.
//! - Stats stop for good at the first finalized frame missing a player's
//!   Post-Frame Update (`isCompletedFrame`), or at a frame never received.
//! - Opening types are decided when the stats are read at the end
//!   ([`SlippiStats::finish`]), including slippi-js's quirks: a conversion
//!   without moves compares with its own end frame (so it is nearly always
//!   a counter-attack), an end frame of 0 never makes a counter-attack.
//! - Counts may go below zero (air dodges used to wavedash, boost grabs and
//!   edge cancels are subtracted).
//! - A player's overall `conversion_count` counts every conversion on
//!   someone else (not only their own), `successful_conversions` those with
//!   more than one move started by the player; a stock's
//!   `current_percent` is not updated on the frame the stock starts.
//! - A frame re-sent by rollback after slippi-js finalized it would change
//!   its stats (slippi-js computes them from the frame objects at the end);
//!   here it is dropped ([`SlippiStats::dropped_events`]). No replay seen
//!   so far does this.
//!
//! Live: [`SlippiStats::push_with`] hands a callback each [`StatsEvent`]
//! (combo and conversion start, extend and end; stock start and loss; game
//! end with its winners) as the frame that causes it is finalized (see
//! [`live`]).
//!
//! Where slippi-js throws instead of returning stats (a frame with a
//! Post- but no Pre-Frame Update for a player; an edge cancel by a
//! character its frame data does not know), this computes on and reports
//! it in [`SlippiStats::slippi_js_would_throw`].
//!
//! `tests/slippi_stats.rs` holds every value equal to slippi-js 9.1.2's
//! output (committed beside the Node script that wrote it) on every corpus
//! replay.
//!
//! ```
//! use gamefmt::slippi::{SlippiEventIter, SlippiStats, SAMPLE};
//!
//! let mut stats = Box::new(SlippiStats::new());
//! for event in SlippiEventIter::new(SAMPLE) {
//!     stats.push(&event?);
//! }
//! stats.finish();
//! assert_eq!(stats.last_frame(), -123);
//! assert_eq!(stats.playable_frame_count(), 0);
//! assert!(stats.game_complete());
//! // Fox vs Falco: two players, so per-player stats exist.
//! assert_eq!(stats.action_counts().len(), 2);
//! let overall = stats.overall();
//! assert_eq!(overall.len(), 2);
//! assert_eq!(overall[0].conversion_count, 0);
//! # Ok::<(), gamefmt::Error>(())
//! ```

mod actions;
mod common;
mod inputs;
pub mod live;
mod punish;
#[cfg(feature = "serde")]
pub mod slippi_js;
mod stadium;
mod stocks;

pub use actions::{
    ActionCounts, AttackCounts, EdgeCancels, GroundTechCounts, SuccessFail, ThrowCounts,
};
pub use inputs::InputCounts;
pub use live::{GameEndEvent, PunishEvent, StatsEvent, StockEvent};
pub use punish::{MAX_MOVES, MAX_PUNISHES, Move, OpeningType, Punish, Punishes};
#[cfg(feature = "serde")]
pub use slippi_js::{SlippiJsStadium, SlippiJsStats};
pub use stadium::{DistanceUnits, HomeRun, TargetBreak, home_run_distance};
pub use stocks::{MAX_STOCKS, Stock};

use super::events::Event;
use super::finalized::{FIRST_FRAME, FinalizedFrames};
use super::winners::{EndFacts, FinalPost, decide};
use common::{PlayerFrame, StatsFrame};
use punish::{Kind, PunishState};

/// Serializes a player index as its 1-based `port`.
#[cfg(feature = "serde")]
fn serialize_port<S: serde::Serializer>(index: &u8, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_u16(u16::from(*index).saturating_add(1))
}

/// Targets a game has room for (Break the Targets has 10).
pub const MAX_TARGETS: usize = 32;

/// The first frame players can act on (slippi-js `Frames.FIRST_PLAYABLE`).
pub const FIRST_PLAYABLE: i32 = -39;
/// Target Test's major scene.
const TARGET_TEST: u8 = 15;
/// Home-Run Contest's major scene.
const HOME_RUN_CONTEST: u8 = 32;

/// A player of the game's settings (Game Start slots not empty).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct StatsPlayer {
    /// The player's index (port − 1; serialized as `port`, 1-based).
    #[cfg_attr(
        feature = "serde",
        serde(rename = "port", serialize_with = "serialize_port")
    )]
    pub player_index: u8,
    /// The team id (teams games).
    pub team_id: Option<u8>,
}

/// `count / total` as slippi-js's `getRatio` gives it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Ratio {
    /// The count; `None` for input ratios of games without input stats
    /// (slippi-js leaves it `undefined`).
    pub count: Option<f64>,
    /// The total.
    pub total: f64,
    /// `count / total`; `None` when the total is 0 or the count absent.
    pub ratio: Option<f64>,
}

impl Ratio {
    fn new(count: Option<f64>, total: f64) -> Self {
        let ratio = match count {
            Some(c) if total != 0.0 && !total.is_nan() => Some(c / total),
            _ => None,
        };
        Self {
            count,
            total,
            ratio,
        }
    }
}

/// One player's input totals in [`Overall`] (`None` without input stats,
/// i.e. unless two players).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct OverallInputs {
    /// Button presses.
    pub buttons: u32,
    /// Trigger presses.
    pub triggers: u32,
    /// C-stick moves.
    pub cstick: u32,
    /// Joystick moves.
    pub joystick: u32,
    /// All inputs.
    pub total: u32,
}

/// One player's overall numbers (slippi-js `generateOverallStats`).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Overall {
    /// The player's index (port − 1; serialized as `port`, 1-based).
    #[cfg_attr(
        feature = "serde",
        serde(rename = "port", serialize_with = "serialize_port")
    )]
    pub player_index: u8,
    /// Input totals (two-player games only).
    pub input_counts: Option<OverallInputs>,
    /// Conversions on other players (slippi-js counts every conversion
    /// whose punished player is not this one).
    pub conversion_count: u32,
    /// Damage dealt in those conversions' moves.
    pub total_damage: f64,
    /// Those conversions that killed, by this player.
    pub kill_count: u32,
    /// Conversions with more than one move started by this player, over
    /// `conversion_count`.
    pub successful_conversions: Ratio,
    /// Inputs per minute of playable frames.
    pub inputs_per_minute: Ratio,
    /// Button presses per minute.
    pub digital_inputs_per_minute: Ratio,
    /// Conversions per kill.
    pub openings_per_kill: Ratio,
    /// Damage per conversion.
    pub damage_per_opening: Ratio,
    /// Neutral wins over all neutral wins of this player and opponents.
    pub neutral_win_ratio: Ratio,
    /// Counter-attacks over all of this player's and opponents'.
    pub counter_hit_ratio: Ratio,
    /// Trades that benefited this player over this player's trades.
    pub beneficial_trade_ratio: Ratio,
}

/// The per-frame state machines (slippi-js's `Stats` and its computers).
#[derive(Clone, Debug)]
struct Computers {
    set_up: bool,
    players: heapless::Vec<StatsPlayer, 4>,
    is_teams: Option<bool>,
    major_scene: Option<u8>,
    language: Option<u8>,
    /// The two (player, opponent) permutations of a two-player game.
    pairs: Option<[(u8, u8); 2]>,
    next_frame: i32,
    stopped: bool,
    /// The frame processed before (slippi-js's `frames[frame - 1]`).
    prev: [PlayerFrame; 4],
    has_prev: bool,
    stocks: heapless::Vec<Stock, MAX_STOCKS>,
    stock_state: [stocks::StockState; 2],
    conversions: Punishes,
    conversion_state: [PunishState; 2],
    combos: Punishes,
    combo_state: [PunishState; 2],
    actions: heapless::Vec<ActionCounts, 2>,
    action_state: [actions::ActionState; 2],
    inputs: heapless::Vec<InputCounts, 2>,
    targets: stadium::Targets,
    overflow: bool,
    would_throw: bool,
}

impl Computers {
    fn new() -> Self {
        Self {
            set_up: false,
            players: heapless::Vec::new(),
            is_teams: None,
            major_scene: None,
            language: None,
            pairs: None,
            next_frame: FIRST_FRAME,
            stopped: false,
            prev: [PlayerFrame::default(); 4],
            has_prev: false,
            stocks: heapless::Vec::new(),
            stock_state: [stocks::StockState::default(); 2],
            conversions: Punishes::new(true),
            conversion_state: [PunishState::default(); 2],
            combos: Punishes::new(false),
            combo_state: [PunishState::default(); 2],
            actions: heapless::Vec::new(),
            action_state: [actions::ActionState::default(); 2],
            inputs: heapless::Vec::new(),
            targets: stadium::Targets::default(),
            overflow: false,
            would_throw: false,
        }
    }

    /// Back to [`new`](Self::new), in place (the lists are large: moving
    /// a new machine in costs more than clearing this one). Every field is
    /// named, so that a new one cannot be forgotten here.
    fn reset(&mut self) {
        let Self {
            set_up,
            players,
            is_teams,
            major_scene,
            language,
            pairs,
            next_frame,
            stopped,
            prev,
            has_prev,
            stocks,
            stock_state,
            conversions,
            conversion_state,
            combos,
            combo_state,
            actions,
            action_state,
            inputs,
            targets,
            overflow,
            would_throw,
        } = self;
        *set_up = false;
        players.clear();
        *is_teams = None;
        *major_scene = None;
        *language = None;
        *pairs = None;
        *next_frame = FIRST_FRAME;
        *stopped = false;
        *prev = [PlayerFrame::default(); 4];
        *has_prev = false;
        stocks.clear();
        *stock_state = [stocks::StockState::default(); 2];
        conversions.clear();
        *conversion_state = [PunishState::default(); 2];
        combos.clear();
        *combo_state = [PunishState::default(); 2];
        actions.clear();
        *action_state = [actions::ActionState::default(); 2];
        inputs.clear();
        targets.clear();
        *overflow = false;
        *would_throw = false;
    }

    fn settings(&mut self, start: &super::GameStart<'_>) {
        self.players.clear();
        for i in 0..4u8 {
            let Some(slot) = start.player(usize::from(i)) else {
                continue;
            };
            if slot.player_type() == Some(3) {
                continue;
            }
            let _ = self.players.push(StatsPlayer {
                player_index: i,
                team_id: slot.team_id(),
            });
        }
        self.is_teams = start.is_teams();
        self.major_scene = start.major_scene();
        self.language = start.language();
    }

    /// slippi-js's `setup`, when the settings are complete.
    fn setup(&mut self) {
        self.set_up = true;
        self.pairs = match self.players.as_slice() {
            [a, b] => Some([
                (a.player_index, b.player_index),
                (b.player_index, a.player_index),
            ]),
            _ => None,
        };
        if let Some(pairs) = self.pairs {
            for (p, o) in pairs {
                let _ = self.actions.push(ActionCounts {
                    player_index: p,
                    ..ActionCounts::default()
                });
                let _ = self.inputs.push(InputCounts {
                    player_index: p,
                    opponent_index: o,
                    ..InputCounts::default()
                });
            }
        }
    }

    /// One finalized frame. Kept out of line: it runs once per frame, the
    /// caller once per event, which stays lean without it.
    #[inline(never)]
    fn process(&mut self, frame: &StatsFrame, on_event: &mut impl FnMut(&StatsEvent)) {
        fn at(frames: &[PlayerFrame; 4], i: u8) -> Option<&PlayerFrame> {
            frames.get(usize::from(i))
        }
        if !self.set_up || self.players.is_empty() || self.stopped {
            return;
        }
        if frame.number != self.next_frame {
            self.stopped = true;
            return;
        }
        let cur = &frame.players;
        let complete = self
            .players
            .iter()
            .all(|p| at(cur, p.player_index).is_some_and(|f| f.post.is_some()));
        if !complete {
            self.stopped = true;
            return;
        }
        if let Some(pairs) = self.pairs {
            for (k, (p, o)) in pairs.into_iter().enumerate() {
                let (Some(pf), Some(of)) = (at(cur, p), at(cur, o)) else {
                    continue;
                };
                let (Some(player), Some(opponent)) = (pf.post.as_ref(), of.post.as_ref()) else {
                    continue;
                };
                let prev = if self.has_prev {
                    Some(&self.prev)
                } else {
                    None
                };
                let prev_p = prev.and_then(|f| at(f, p));
                let prev_o = prev.and_then(|f| at(f, o));
                let prev_pair = match (
                    prev_p.and_then(|f| f.post.as_ref()),
                    prev_o.and_then(|f| f.post.as_ref()),
                ) {
                    (Some(a), Some(b)) => Some((a, b)),
                    _ => None,
                };
                if let (Some(counts), Some(state)) =
                    (self.actions.get_mut(k), self.action_state.get_mut(k))
                {
                    actions::compute(counts, state, player, opponent);
                    self.would_throw |= state.would_throw;
                }
                if let Some(state) = self.combo_state.get_mut(k) {
                    let step = punish::compute(
                        Kind::Combo,
                        &mut self.combos,
                        state,
                        (p, o),
                        frame.number,
                        player,
                        opponent,
                        prev_pair,
                    );
                    emit_punish(Kind::Combo, &self.combos, step, frame.number, on_event);
                }
                if let Some(state) = self.conversion_state.get_mut(k) {
                    let step = punish::compute(
                        Kind::Conversion,
                        &mut self.conversions,
                        state,
                        (p, o),
                        frame.number,
                        player,
                        opponent,
                        prev_pair,
                    );
                    emit_punish(
                        Kind::Conversion,
                        &self.conversions,
                        step,
                        frame.number,
                        on_event,
                    );
                }
                if let Some(counts) = self.inputs.get_mut(k) {
                    match pf.pre.as_ref() {
                        Some(pre) => {
                            inputs::compute(counts, pre, prev_p.and_then(|f| f.pre.as_ref()));
                        }
                        None => self.would_throw = true,
                    }
                }
                if let Some(state) = self.stock_state.get_mut(k) {
                    let step = stocks::compute(
                        &mut self.stocks,
                        &mut self.overflow,
                        state,
                        p,
                        player,
                        prev_p.and_then(|f| f.post.as_ref()),
                    );
                    let (started, index) = match step {
                        Some(stocks::StockStep::Started(i)) => (true, i),
                        Some(stocks::StockStep::Lost(i)) => (false, i),
                        None => (false, usize::MAX),
                    };
                    if let (Some(stock), Ok(index)) = (self.stocks.get(index), u32::try_from(index))
                    {
                        let e = StockEvent {
                            frame: frame.number,
                            index,
                            stock: *stock,
                        };
                        on_event(&if started {
                            StatsEvent::StockStart(e)
                        } else {
                            StatsEvent::StockLost(e)
                        });
                    }
                }
            }
        }
        if self.major_scene == Some(TARGET_TEST) {
            self.targets.process(frame, self.has_prev);
        }
        // Only the pairs' players' previous frames are ever read.
        if let Some(pairs) = self.pairs {
            for (p, _) in pairs {
                if let (Some(prev), Some(cur)) =
                    (self.prev.get_mut(usize::from(p)), cur.get(usize::from(p)))
                {
                    *prev = *cur;
                }
            }
        }
        self.has_prev = true;
        self.next_frame = self.next_frame.saturating_add(1);
    }
}

/// Hands `on_event` the events of one frame's step of one punish.
fn emit_punish(
    kind: Kind,
    list: &Punishes,
    step: punish::Step,
    frame: i32,
    on_event: &mut impl FnMut(&StatsEvent),
) {
    let Some(index) = step.index else { return };
    let (Some(punish), Ok(index32)) = (list.get(index), u32::try_from(index)) else {
        return;
    };
    let e = PunishEvent {
        frame,
        index: index32,
        punish: *punish,
        last_move: list.last_move(punish).copied(),
    };
    let combo = kind == Kind::Combo;
    if step.started {
        // As it stood when it started: no end yet, whatever this frame did.
        let mut start = e;
        start.punish.end_frame = None;
        start.punish.end_percent = None;
        start.punish.did_kill = false;
        on_event(&if combo {
            StatsEvent::ComboStart(start)
        } else {
            StatsEvent::ConversionStart(start)
        });
    }
    if step.extended {
        on_event(&if combo {
            StatsEvent::ComboExtend(e)
        } else {
            StatsEvent::ConversionExtend(e)
        });
    }
    if step.terminated {
        on_event(&if combo {
            StatsEvent::ComboEnd(e)
        } else {
            StatsEvent::ConversionEnd(e)
        });
    }
}

/// Stats of one game, computed as events arrive (see the
/// [module docs](self)).
#[derive(Clone, Debug)]
pub struct SlippiStats {
    stage: FinalizedFrames<StatsFrame>,
    computers: Computers,
    has_start: bool,
    tail: Tail,
}

/// What directly precedes the next event, as slippi-js finds the final
/// frame's Post-Frame Updates reading backwards from the Game End
/// ([`FinalPosts`](crate::slippi::FinalPosts) does the same on a stream).
#[derive(Clone, Copy, Debug, Default)]
struct Tail {
    /// The frame of the Post-Frame Updates just seen, if any.
    posts: Option<i32>,
    /// A Frame Bookend followed them.
    bookend: bool,
    /// The Event Payloads declare Frame Bookend.
    bookends: bool,
}

impl Tail {
    /// Follows `event`; at a Game End, the frame whose updates precede it.
    #[inline]
    fn observe(&mut self, event: &Event<'_>) -> Option<i32> {
        let mut at_end = None;
        match event {
            Event::PostFrame(p) => {
                self.bookend = false;
                self.posts = p.frame();
                return None;
            }
            Event::FrameBookend(_) if !self.bookend => {
                self.bookend = true;
                return None;
            }
            Event::GameEnd(_) if self.bookend == self.bookends => at_end = self.posts,
            Event::EventPayloads(p) => {
                self.bookends = p.entries().any(|(c, _)| c == super::CMD_FRAME_BOOKEND);
            }
            _ => {}
        }
        self.posts = None;
        self.bookend = false;
        at_end
    }
}

impl Default for SlippiStats {
    fn default() -> Self {
        Self::new()
    }
}

impl SlippiStats {
    /// Stats before the first event of a game.
    #[must_use]
    pub fn new() -> Self {
        Self {
            stage: FinalizedFrames::with_records(),
            computers: Computers::new(),
            has_start: false,
            tail: Tail::default(),
        }
    }

    /// Starts over before the first event of a new game: the same as
    /// [`new`](Self::new), done in place, which is cheaper than moving a
    /// new machine in (reuse one machine for many files).
    ///
    /// ```
    /// use gamefmt::slippi::{SlippiEventIter, SlippiStats, SAMPLE};
    ///
    /// let mut stats = Box::new(SlippiStats::new());
    /// for _ in 0..2 {
    ///     stats.reset();
    ///     for event in SlippiEventIter::new(SAMPLE) {
    ///         stats.push(&event?);
    ///     }
    ///     stats.finish();
    ///     assert_eq!(stats.last_frame(), -123);
    ///     assert_eq!(stats.overall().len(), 2);
    /// }
    /// # Ok::<(), gamefmt::Error>(())
    /// ```
    pub fn reset(&mut self) {
        let Self {
            stage,
            computers,
            has_start,
            tail,
        } = self;
        stage.reset();
        computers.reset();
        *has_start = false;
        *tail = Tail::default();
    }

    /// Computes the stats of a whole `.slp` file in memory.
    ///
    /// # Errors
    ///
    /// The first error of the event stream; the stats of the events before
    /// it are lost with it (use [`push`](Self::push) to keep them).
    pub fn from_slice(file: &[u8]) -> crate::Result<Self> {
        let mut stats = Self::new();
        for event in super::SlippiEventIter::new(file) {
            stats.push(&event?);
        }
        stats.finish();
        Ok(stats)
    }

    /// Takes the next event of the game.
    #[inline]
    pub fn push(&mut self, event: &Event<'_>) {
        self.push_with(event, |_| {});
    }

    /// Takes the next event of the game and hands `on_event` every live
    /// [`StatsEvent`] it caused, in order (see [`live`]).
    #[inline]
    pub fn push_with(&mut self, event: &Event<'_>, mut on_event: impl FnMut(&StatsEvent)) {
        let final_frame = self.tail.observe(event);
        if let Event::GameStart(start) = event {
            self.has_start = true;
            self.computers.settings(start);
        }
        self.stage.push(event);
        if self.stage.settings_complete() && self.has_start && !self.computers.set_up {
            self.computers.setup();
        }
        while let Some(frame) = self.stage.next_finalized() {
            self.computers.process(frame, &mut on_event);
        }
        if let Event::GameEnd(end) = event {
            let end = GameEndEvent {
                frame: self.last_frame(),
                method: end.method(),
                lras_initiator: end.lras_initiator(),
                winners: self.winners_at_end(&EndFacts::read(end), final_frame),
            };
            on_event(&StatsEvent::GameEnd(end));
        }
    }

    /// The winners by [`winners`](crate::slippi::winners)'s rules, read
    /// from the settings, `end` and the frame whose Post-Frame Updates
    /// directly precede it (none: no updates, as slippi-js finds none).
    fn winners_at_end(&self, end: &EndFacts, final_frame: Option<i32>) -> crate::slippi::Winners {
        let c = &self.computers;
        let mut players: heapless::Vec<(u8, Option<u8>), 4> = heapless::Vec::new();
        for p in &c.players {
            let _ = players.push((p.player_index, p.team_id));
        }
        let mut finals: heapless::Vec<FinalPost, 4> = heapless::Vec::new();
        if let Some(frame) = final_frame.and_then(|n| self.stage.frame(n)) {
            for (i, f) in (0u8..).zip(&frame.players) {
                if let Some(post) = &f.post {
                    #[allow(
                        clippy::cast_possible_truncation,
                        reason = "the percent was an f32, widened"
                    )]
                    let percent = post.percent as f32;
                    let _ = finals.push(FinalPost {
                        player_index: Some(i),
                        follower: false,
                        stocks: Some(post.stocks),
                        percent: Some(percent),
                    });
                }
            }
        }
        decide(&players, c.is_teams, end, &finals)
    }

    /// Decides what is decided when slippi-js's `getStats()` is called:
    /// the opening types of conversions (run it once the game is over;
    /// running it earlier decides those known so far, as a `getStats()`
    /// call during the game does).
    pub fn finish(&mut self) {
        self.computers.conversions.populate_opening_types();
    }

    /// Whether slippi-js would give stats at all (`getStats()` is
    /// `undefined` until the settings are complete).
    #[must_use]
    pub const fn has_stats(&self) -> bool {
        self.has_start && self.stage.settings_complete()
    }

    /// The settings' players.
    #[must_use]
    pub fn players(&self) -> &[StatsPlayer] {
        &self.computers.players
    }

    /// The frame of the last Pre/Post-Frame Update, −124 before any
    /// (slippi-js `lastFrame`).
    #[must_use]
    pub fn last_frame(&self) -> i32 {
        self.stage
            .latest_frame()
            .unwrap_or(FIRST_FRAME.wrapping_sub(1))
    }

    /// Frames from −39 to [`last_frame`](Self::last_frame) (slippi-js
    /// `playableFrameCount`).
    #[must_use]
    pub fn playable_frame_count(&self) -> i32 {
        match self.stage.latest_frame() {
            Some(l) if l >= FIRST_PLAYABLE => l.saturating_sub(FIRST_PLAYABLE),
            _ => 0,
        }
    }

    /// A Game End arrived (slippi-js `gameComplete`).
    #[must_use]
    pub const fn game_complete(&self) -> bool {
        self.stage.game_ended()
    }

    /// Stocks, in the order they started (two-player games only).
    #[must_use]
    pub fn stocks(&self) -> &[Stock] {
        &self.computers.stocks
    }

    /// Conversions, in the order they started (two-player games only).
    #[must_use]
    pub const fn conversions(&self) -> &Punishes {
        &self.computers.conversions
    }

    /// Combos, in the order they started (two-player games only).
    #[must_use]
    pub const fn combos(&self) -> &Punishes {
        &self.computers.combos
    }

    /// Action counts per player (two-player games only).
    #[must_use]
    pub fn action_counts(&self) -> &[ActionCounts] {
        &self.computers.actions
    }

    /// Input counts per player (two-player games only).
    #[must_use]
    pub fn input_counts(&self) -> &[InputCounts] {
        &self.computers.inputs
    }

    /// Target Test breaks (Target Test games only).
    #[must_use]
    pub fn target_breaks(&self) -> Option<&[TargetBreak]> {
        (self.computers.major_scene == Some(TARGET_TEST)).then_some(&self.computers.targets.breaks)
    }

    /// The Home-Run Contest distance (Home-Run Contest games only), read
    /// from the latest frame as slippi-js reads it (the last frame after a
    /// Game End, the one before it otherwise).
    #[must_use]
    pub fn home_run(&self) -> Option<HomeRun> {
        if self.computers.major_scene != Some(HOME_RUN_CONTEST) {
            return None;
        }
        let latest = self.stage.latest_frame().unwrap_or(FIRST_FRAME);
        let number = if self.stage.game_ended() {
            latest
        } else {
            latest.saturating_sub(1)
        };
        stadium::home_run(self.stage.frame(number)?, self.computers.language)
    }

    /// A list went past its cap: the stats are short of what came after.
    #[must_use]
    pub const fn overflowed(&self) -> bool {
        self.computers.overflow
            || self.computers.conversions.overflowed()
            || self.computers.combos.overflowed()
            || self.computers.targets.overflow
    }

    /// slippi-js would have thrown an error instead of giving stats (see
    /// the [module docs](self)).
    #[must_use]
    pub const fn slippi_js_would_throw(&self) -> bool {
        self.computers.would_throw
    }

    /// Events the [`FinalizedFrames`] stage feeding the stats had no room
    /// for (see there); 0 on every replay seen so far.
    #[must_use]
    pub const fn dropped_events(&self) -> u32 {
        self.stage.dropped()
    }

    /// Every player's overall numbers, in settings order (slippi-js
    /// `generateOverallStats`; call [`finish`](Self::finish) first for the
    /// opening-type ratios).
    #[must_use]
    pub fn overall(&self) -> heapless::Vec<Overall, 4> {
        let mut out = heapless::Vec::new();
        let c = &self.computers;
        let conversions = &c.conversions;
        let minutes = f64::from(self.playable_frame_count()) / 3600.0;
        let attacker = |p: &Punish| conversions.first_move(p).map(|m| m.player_index);
        let opened = |who: u8, kind: OpeningType| {
            conversions
                .iter()
                .filter(move |p| attacker(p) == Some(who) && p.opening_type == kind)
        };
        for player in &c.players {
            let me = player.player_index;
            let inputs = c
                .inputs
                .iter()
                .rev()
                .find(|i| i.player_index == me)
                .map(|i| OverallInputs {
                    buttons: i.button_input_count,
                    triggers: i.trigger_input_count,
                    cstick: i.cstick_input_count,
                    joystick: i.joystick_input_count,
                    total: i.input_count,
                });
            let opponents = || {
                c.players
                    .iter()
                    .filter(move |o| {
                        o.player_index != me
                            && (c.is_teams != Some(true) || o.team_id != player.team_id)
                    })
                    .map(|o| o.player_index)
            };
            let (mut count, mut successful, mut kills, mut damage) = (0u32, 0u32, 0u32, 0.0f64);
            for conv in conversions.iter().filter(|p| p.player_index != me) {
                count = count.saturating_add(1);
                if conv.did_kill && conv.last_hit_by == me {
                    kills = kills.saturating_add(1);
                }
                if conv.move_count() > 1 && attacker(conv) == Some(me) {
                    successful = successful.saturating_add(1);
                }
                for m in conversions.moves(conv) {
                    if m.player_index == me {
                        damage += m.damage;
                    }
                }
            }
            let opening_ratio = |kind: OpeningType| {
                let mine = opened(me, kind).count();
                let theirs: usize = opponents().map(|o| opened(o, kind).count()).sum();
                Ratio::new(Some(mine as f64), mine.saturating_add(theirs) as f64)
            };
            let trades = || opponents().flat_map(|o| opened(o, OpeningType::Trade));
            let mut benefits = 0usize;
            let mut mine_trades = 0usize;
            for (k, mine) in opened(me, OpeningType::Trade).enumerate() {
                mine_trades = mine_trades.saturating_add(1);
                let Some(theirs) = trades().nth(k) else {
                    continue;
                };
                let my_damage = mine.current_percent - mine.start_percent;
                let their_damage = theirs.current_percent - theirs.start_percent;
                if (mine.did_kill && !theirs.did_kill) || my_damage > their_damage {
                    benefits = benefits.saturating_add(1);
                }
            }
            let total_inputs = inputs.map(|i| f64::from(i.total));
            let buttons = inputs.map(|i| f64::from(i.buttons));
            let _ = out.push(Overall {
                player_index: me,
                input_counts: inputs,
                conversion_count: count,
                total_damage: damage,
                kill_count: kills,
                successful_conversions: Ratio::new(Some(f64::from(successful)), f64::from(count)),
                inputs_per_minute: Ratio::new(total_inputs, minutes),
                digital_inputs_per_minute: Ratio::new(buttons, minutes),
                openings_per_kill: Ratio::new(Some(f64::from(count)), f64::from(kills)),
                damage_per_opening: Ratio::new(Some(damage), f64::from(count)),
                neutral_win_ratio: opening_ratio(OpeningType::NeutralWin),
                counter_hit_ratio: opening_ratio(OpeningType::CounterAttack),
                beneficial_trade_ratio: Ratio::new(Some(benefits as f64), mine_trades as f64),
            });
        }
        out
    }
}

/// Everything at once, as the one vocabulary names it: `last_frame`,
/// `playable_frame_count`, `game_complete`, `players`, `stocks`,
/// `conversions`, `combos`, `action_counts`, `input_counts`, `overall`,
/// `target_breaks` and `home_run` (`null` outside their modes),
/// `overflowed`, `slippi_js_would_throw`. Players are `port`s, 1-based.
/// Call [`SlippiStats::finish`] first for the opening types.
#[cfg(feature = "serde")]
impl serde::Serialize for SlippiStats {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(14))?;
        map.serialize_entry("last_frame", &self.last_frame())?;
        map.serialize_entry("playable_frame_count", &self.playable_frame_count())?;
        map.serialize_entry("game_complete", &self.game_complete())?;
        map.serialize_entry("players", self.players())?;
        map.serialize_entry("stocks", self.stocks())?;
        map.serialize_entry("conversions", self.conversions())?;
        map.serialize_entry("combos", self.combos())?;
        map.serialize_entry("action_counts", self.action_counts())?;
        map.serialize_entry("input_counts", self.input_counts())?;
        map.serialize_entry("overall", self.overall().as_slice())?;
        map.serialize_entry("target_breaks", &self.target_breaks())?;
        map.serialize_entry("home_run", &self.home_run())?;
        map.serialize_entry("overflowed", &self.overflowed())?;
        map.serialize_entry("slippi_js_would_throw", &self.slippi_js_would_throw())?;
        map.end()
    }
}
