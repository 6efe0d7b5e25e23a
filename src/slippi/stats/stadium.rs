//! Stadium stats (slippi-js `stats/targets.ts`, `utils/homeRunDistance.ts`).

use super::MAX_TARGETS;
use super::common::StatsFrame;

/// Sandbag's internal character id.
const SANDBAG: u8 = 32;

/// One target of a Target Test and when it broke.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TargetBreak {
    /// The target item's spawn id.
    pub spawn_id: Option<u32>,
    /// The frame it was gone on; `None` if it was never broken.
    pub frame_destroyed: Option<i32>,
    /// Its X position at frame −123.
    pub position_x: Option<f32>,
    /// Its Y position at frame −123.
    pub position_y: Option<f32>,
}

/// Target Test state.
#[derive(Clone, Debug, Default)]
pub(crate) struct Targets {
    pub(crate) breaks: heapless::Vec<TargetBreak, MAX_TARGETS>,
    prev_ids: heapless::Vec<u32, MAX_TARGETS>,
    pub(crate) overflow: bool,
}

impl Targets {
    /// Empty again, as [`Default`] gives it.
    pub(crate) fn clear(&mut self) {
        self.breaks.clear();
        self.prev_ids.clear();
        self.overflow = false;
    }

    /// One frame of `handleTargetBreak` (the previous frame's targets are
    /// those this kept from it: slippi-js reads the frame before, which is
    /// the frame processed before).
    pub(crate) fn process(&mut self, frame: &StatsFrame, has_prev: bool) {
        let number = frame.number;
        let targets = || frame.targets.iter();
        if frame.targets_overflow {
            self.overflow = true;
        }
        if number == super::FIRST_FRAME {
            for t in targets() {
                let b = TargetBreak {
                    spawn_id: t.spawn_id,
                    frame_destroyed: None,
                    position_x: t.x,
                    position_y: t.y,
                };
                if self.breaks.push(b).is_err() {
                    self.overflow = true;
                }
            }
        }
        let mut current: heapless::Vec<u32, MAX_TARGETS> = heapless::Vec::new();
        for id in targets().filter_map(|t| t.spawn_id) {
            if current.push(id).is_err() {
                self.overflow = true;
            }
        }
        if has_prev {
            for id in &self.prev_ids {
                if !current.contains(id) {
                    if let Some(b) = self.breaks.iter_mut().find(|b| b.spawn_id == Some(*id)) {
                        b.frame_destroyed = Some(number);
                    }
                }
            }
        }
        self.prev_ids = current;
    }
}

/// Home-Run Contest units: feet, or meters in Japanese replays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum DistanceUnits {
    /// Feet.
    Feet,
    /// Meters (Japanese language setting).
    Meters,
}

#[cfg(feature = "serde")]
impl serde::Serialize for DistanceUnits {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl DistanceUnits {
    /// slippi-js's name: `feet` or `meters`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Feet => "feet",
            Self::Meters => "meters",
        }
    }
}

/// A Home-Run Contest's distance.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct HomeRun {
    /// The distance, as the game shows it (one decimal).
    pub distance: f64,
    /// Its units.
    pub units: DistanceUnits,
}

/// `Math.floor` without std.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_precision_loss,
    reason = "exact below 2^52"
)]
fn floor(x: f64) -> f64 {
    if x.is_nan() || x.abs() >= 4_503_599_627_370_496.0 {
        return x;
    }
    let t = x as i64 as f64;
    if t > x { t - 1.0 } else { t }
}

/// JavaScript's `Math.round`: halves go up.
fn js_round(x: f64) -> f64 {
    let f = floor(x);
    if x - f >= 0.5 { f + 1.0 } else { f }
}

/// slippi-js's `positionToHomeRunDistance`.
#[must_use]
pub fn home_run_distance(position_x: f64, units: DistanceUnits) -> f64 {
    let (factor, divisor) = match units {
        DistanceUnits::Feet => (0.952462, 30.4788),
        DistanceUnits::Meters => (1.04167, 100.0),
    };
    let score = 10.0 * floor(position_x - 70.0 * factor);
    #[allow(clippy::cast_possible_truncation, reason = "Math.fround, on purpose")]
    let score = f64::from(score as f32);
    let score = floor((score / divisor) * 10.0) / 10.0;
    let score = js_round(score * 10.0) / 10.0;
    if score > 0.0 { score } else { 0.0 }
}

/// slippi-js's `extractDistanceInfoFromFrame` over the latest frame.
pub(crate) fn home_run(frame: &StatsFrame, language: Option<u8>) -> Option<HomeRun> {
    let (_, x) = frame
        .leaders
        .iter()
        .flatten()
        .find(|(internal, _)| *internal == Some(SANDBAG))?;
    let units = if language == Some(0) {
        DistanceUnits::Meters
    } else {
        DistanceUnits::Feet
    };
    let x = x.map_or(0.0, f64::from);
    Some(HomeRun {
        distance: home_run_distance(x, units),
        units,
    })
}
