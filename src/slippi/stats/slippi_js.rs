//! slippi-js's own JSON shape of the stats (feature `serde`): what
//! `JSON.stringify(game.getStats())` and `JSON.stringify(game.getStadiumStats())`
//! print under slippi-js 9.1.2, so tools built on slippi-js switch without
//! remapping a key.
//!
//! This is the one place the crate leaves its vocabulary on purpose (see
//! DESIGN, "One vocabulary"): camelCase keys, 0-based `playerIndex`,
//! slippi-js's opening-type names (`neutral-win`, `counter-attack`), its
//! key order, and its absent values: a member slippi-js leaves `undefined`
//! is left out, as `JSON.stringify` leaves it out; a `NaN` or infinite
//! number is `null`; a number with no fraction is written without one
//! (`7`, not `7.0`). The values are the same [`SlippiStats`] values the
//! vocabulary's `Serialize` writes.
//!
//! `tests/slippi_stats.rs` holds the output equal, as parsed JSON and as
//! text, to slippi-js 9.1.2's on every corpus replay.
//!
//! ```
//! use gamefmt::slippi::{SlippiEventIter, SAMPLE};
//! use gamefmt::slippi::stats::SlippiStats;
//!
//! let stats = SlippiStats::from_slice(SAMPLE)?;
//! let js = serde_json::to_value(stats.slippi_js()).unwrap();
//! assert_eq!(js["lastFrame"], -123);
//! assert_eq!(js["overall"][1]["playerIndex"], 1);
//! // Not a stadium game: getStadiumStats() is undefined.
//! assert!(stats.slippi_js_stadium().is_none());
//! # Ok::<(), gamefmt::Error>(())
//! ```

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

use super::punish::{Move, Punish, Punishes};
use super::{ActionCounts, Overall, Ratio, SlippiStats, Stock, TargetBreak};

/// `getStats()`'s JSON (see the [module docs](self)); made by
/// [`SlippiStats::slippi_js`].
#[derive(Clone, Copy)]
pub struct SlippiJsStats<'a>(&'a SlippiStats);

/// `getStadiumStats()`'s JSON (see the [module docs](self)); made by
/// [`SlippiStats::slippi_js_stadium`].
#[derive(Clone, Copy)]
pub struct SlippiJsStadium<'a>(&'a SlippiStats);

impl SlippiStats {
    /// The stats as slippi-js's `getStats()` gives them, to serialize;
    /// `None` where it gives `undefined` (before the settings are
    /// complete). Call [`finish`](Self::finish) first, as `getStats()`
    /// decides the opening types.
    #[must_use]
    pub fn slippi_js(&self) -> Option<SlippiJsStats<'_>> {
        self.has_stats().then_some(SlippiJsStats(self))
    }

    /// The stats as slippi-js's `getStadiumStats()` gives them, to
    /// serialize; `None` where it gives `undefined` (not a Target Test or
    /// Home-Run Contest game, no frame yet, no distance).
    #[must_use]
    pub fn slippi_js_stadium(&self) -> Option<SlippiJsStadium<'_>> {
        if !self.has_stats() || self.stage.latest_frame().is_none() {
            return None;
        }
        (self.target_breaks().is_some() || self.home_run().is_some())
            .then_some(SlippiJsStadium(self))
    }
}

/// A JavaScript number as `JSON.stringify` writes it: `null` when not
/// finite, an integer when it has no fraction.
#[derive(Clone, Copy)]
struct Js(f64);

impl Serialize for Js {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        /// 2^53: below it every integral `f64` is an exact `i64`.
        const EXACT: f64 = 9_007_199_254_740_992.0;
        let x = self.0;
        if !x.is_finite() {
            return s.serialize_none();
        }
        #[allow(clippy::cast_possible_truncation, reason = "|x| < 2^53")]
        let i = x as i64;
        #[allow(clippy::cast_precision_loss, reason = "|i| < 2^53 is exact")]
        if x.abs() < EXACT && i as f64 == x {
            return s.serialize_i64(i);
        }
        s.serialize_f64(x)
    }
}

/// Writes `key: value` for each present value (an `undefined` member is
/// left out).
macro_rules! js_map {
    ($s:expr, { $($key:literal => $value:expr),* $(,)? }) => {{
        let mut map = $s.serialize_map(None)?;
        $(
            if let Some(v) = $value {
                map.serialize_entry($key, &v)?;
            }
        )*
        map.end()
    }};
}

impl Serialize for SlippiJsStats<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let st = self.0;
        let overall = st.overall();
        js_map!(s, {
            "lastFrame" => Some(st.last_frame()),
            "playableFrameCount" => Some(st.playable_frame_count()),
            "stocks" => Some(Seq(st.stocks(), JsStock)),
            "conversions" => Some(JsPunishes(st.conversions())),
            "combos" => Some(JsPunishes(st.combos())),
            "actionCounts" => Some(Seq(st.action_counts(), JsActions)),
            "overall" => Some(Seq(overall.as_slice(), JsOverall)),
            "gameComplete" => Some(st.game_complete()),
        })
    }
}

impl Serialize for SlippiJsStadium<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let st = self.0;
        if let Some(breaks) = st.target_breaks() {
            return js_map!(s, {
                "type" => Some("target-test"),
                "targetBreaks" => Some(Seq(breaks, JsTarget)),
            });
        }
        let home = st.home_run();
        js_map!(s, {
            "type" => Some("home-run-contest"),
            "distance" => home.map(|h| Js(h.distance)),
            "units" => home.map(|h| h.units.name()),
        })
    }
}

/// A slice serialized item by item through a wrapper.
struct Seq<'a, T, W>(&'a [T], fn(&'a T) -> W);

impl<'a, T, W: Serialize> Serialize for Seq<'a, T, W> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for item in self.0 {
            seq.serialize_element(&(self.1)(item))?;
        }
        seq.end()
    }
}

struct JsStock<'a>(&'a Stock);

impl Serialize for JsStock<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let k = self.0;
        js_map!(s, {
            "playerIndex" => Some(k.player_index),
            "startFrame" => Some(k.start_frame),
            "endFrame" => k.end_frame,
            "startPercent" => Some(Js(k.start_percent)),
            "endPercent" => k.end_percent.map(Js),
            "currentPercent" => Some(Js(k.current_percent)),
            "count" => Some(k.count),
            "deathAnimation" => k.death_animation,
        })
    }
}

struct JsPunishes<'a>(&'a Punishes);

impl Serialize for JsPunishes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let list = self.0;
        s.collect_seq(list.iter().map(|p| JsPunish(list, p)))
    }
}

struct JsPunish<'a>(&'a Punishes, &'a Punish);

struct JsMoves<'a>(&'a Punishes, &'a Punish);

impl Serialize for JsMoves<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.moves(self.1).map(JsMove))
    }
}

struct JsMove<'a>(&'a Move);

impl Serialize for JsMove<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let m = self.0;
        js_map!(s, {
            "playerIndex" => Some(m.player_index),
            "frame" => Some(m.frame),
            "moveId" => m.move_id,
            "hitCount" => Some(m.hit_count),
            "damage" => Some(Js(m.damage)),
        })
    }
}

impl Serialize for JsPunish<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (list, p) = (self.0, self.1);
        let conversion = list.are_conversions();
        // Conversions name the attacker second, combos last (slippi-js's
        // object literals).
        let early = conversion.then_some(p.last_hit_by);
        let late = (!conversion).then_some(p.last_hit_by);
        js_map!(s, {
            "playerIndex" => Some(p.player_index),
            "lastHitBy" => early,
            "startFrame" => Some(p.start_frame),
            "endFrame" => p.end_frame,
            "startPercent" => Some(Js(p.start_percent)),
            "currentPercent" => Some(Js(p.current_percent)),
            "endPercent" => p.end_percent.map(Js),
            "moves" => Some(JsMoves(list, p)),
            "didKill" => Some(p.did_kill),
            "openingType" => conversion.then_some(p.opening_type.slippi_js_name()),
            "lastHitBy" => late,
        })
    }
}

struct JsActions<'a>(&'a ActionCounts);

impl Serialize for JsActions<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let a = self.0;
        let t = &a.attack_count;
        let e = &a.edge_cancel_count;
        let l = &a.l_cancel_count;
        let g = &a.grab_count;
        let th = &a.throw_count;
        let gt = &a.ground_tech_count;
        let wt = &a.wall_tech_count;
        js_map!(s, {
            "playerIndex" => Some(a.player_index),
            "wavedashCount" => Some(a.wavedash_count),
            "wavelandCount" => Some(a.waveland_count),
            "airDodgeCount" => Some(a.air_dodge_count),
            "dashDanceCount" => Some(a.dash_dance_count),
            "spotDodgeCount" => Some(a.spot_dodge_count),
            "ledgegrabCount" => Some(a.ledgegrab_count),
            "rollCount" => Some(a.roll_count),
            "tauntCount" => Some(a.taunt_count),
            "edgeCancelCount" => Some(Fields(&[("success", e.success), ("slow", e.slow)])),
            "lCancelCount" => Some(Fields(&[("success", l.success), ("fail", l.fail)])),
            "attackCount" => Some(Fields(&[
                ("jab1", t.jab1), ("jab2", t.jab2), ("jab3", t.jab3), ("jabm", t.jabm),
                ("dash", t.dash), ("ftilt", t.ftilt), ("utilt", t.utilt), ("dtilt", t.dtilt),
                ("fsmash", t.fsmash), ("usmash", t.usmash), ("dsmash", t.dsmash),
                ("nair", t.nair), ("fair", t.fair), ("bair", t.bair), ("uair", t.uair),
                ("dair", t.dair),
            ])),
            "grabCount" => Some(Fields(&[("success", g.success), ("fail", g.fail)])),
            "throwCount" => Some(Fields(&[
                ("up", th.up), ("forward", th.forward), ("back", th.back), ("down", th.down),
            ])),
            "groundTechCount" => Some(Fields(&[
                ("away", gt.away), ("in", gt.r#in), ("neutral", gt.neutral), ("fail", gt.fail),
            ])),
            "wallTechCount" => Some(Fields(&[("success", wt.success), ("fail", wt.fail)])),
        })
    }
}

/// An object of integer members.
struct Fields<'a>(&'a [(&'static str, i32)]);

impl Serialize for Fields<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// slippi-js's `getRatio(count, total)`: `ratio` is `undefined` when the
/// total is 0 (falsy), `NaN` (`null`) when the count is `undefined`.
struct JsRatio<'a>(&'a Ratio);

impl Serialize for JsRatio<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let r = self.0;
        let truthy = r.total != 0.0 && !r.total.is_nan();
        let ratio = truthy.then(|| Js(r.count.map_or(f64::NAN, |c| c / r.total)));
        js_map!(s, {
            "count" => r.count.map(Js),
            "total" => Some(Js(r.total)),
            "ratio" => ratio,
        })
    }
}

struct JsOverall<'a>(&'a Overall);

impl Serialize for JsOverall<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let o = self.0;
        let i = o.input_counts;
        let inputs = InputsJs(i.map(|i| [i.buttons, i.triggers, i.cstick, i.joystick, i.total]));
        js_map!(s, {
            "playerIndex" => Some(o.player_index),
            "inputCounts" => Some(inputs),
            "conversionCount" => Some(o.conversion_count),
            "totalDamage" => Some(Js(o.total_damage)),
            "killCount" => Some(o.kill_count),
            "successfulConversions" => Some(JsRatio(&o.successful_conversions)),
            "inputsPerMinute" => Some(JsRatio(&o.inputs_per_minute)),
            "digitalInputsPerMinute" => Some(JsRatio(&o.digital_inputs_per_minute)),
            "openingsPerKill" => Some(JsRatio(&o.openings_per_kill)),
            "damagePerOpening" => Some(JsRatio(&o.damage_per_opening)),
            "neutralWinRatio" => Some(JsRatio(&o.neutral_win_ratio)),
            "counterHitRatio" => Some(JsRatio(&o.counter_hit_ratio)),
            "beneficialTradeRatio" => Some(JsRatio(&o.beneficial_trade_ratio)),
        })
    }
}

/// `inputCounts`: five members, or none (`{}`) without input stats.
struct InputsJs(Option<[u32; 5]>);

impl Serialize for InputsJs {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        const KEYS: [&str; 5] = ["buttons", "triggers", "cstick", "joystick", "total"];
        let mut map = s.serialize_map(None)?;
        if let Some(values) = self.0 {
            for (k, v) in KEYS.iter().zip(values) {
                map.serialize_entry(k, &v)?;
            }
        }
        map.end()
    }
}

struct JsTarget<'a>(&'a TargetBreak);

impl Serialize for JsTarget<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let b = self.0;
        js_map!(s, {
            "spawnId" => b.spawn_id,
            "frameDestroyed" => b.frame_destroyed,
            "positionX" => b.position_x.map(|x| Js(f64::from(x))),
            "positionY" => b.position_y.map(|y| Js(f64::from(y))),
        })
    }
}
