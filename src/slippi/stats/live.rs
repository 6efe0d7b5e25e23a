//! Live stats events: what the stats machines learn, as they learn it.
//!
//! [`SlippiStats::push_with`](super::SlippiStats::push_with) takes the next
//! event of the game, as [`push`](super::SlippiStats::push) does, and hands
//! every [`StatsEvent`] that event caused to a callback, in order, before it
//! returns. No allocation and no queue: one event can finalize several
//! frames at once (a Frame Bookend, a Game End), and the callback sees the
//! events of each frame as that frame is processed. A callback that needs
//! the events later clones them (a `StatsEvent` owns no heap memory)
//! into a buffer of its own; [`SlippiStats`](super::SlippiStats) itself is
//! unchanged by the callback.
//!
//! The events and their order within a frame (per (player, opponent)
//! permutation, in settings order — slippi-js's computer order):
//!
//! | event | when | carries |
//! |---|---|---|
//! | [`ComboStart`](StatsEvent::ComboStart), [`ConversionStart`](StatsEvent::ConversionStart) | the frame the opponent is first punished | the punish so far |
//! | [`ComboExtend`](StatsEvent::ComboExtend), [`ConversionExtend`](StatsEvent::ConversionExtend) | a new move lands (a start frame's first hit too) | the punish and its new move |
//! | [`ComboEnd`](StatsEvent::ComboEnd), [`ConversionEnd`](StatsEvent::ConversionEnd) | the punish ends (the victim got away or lost a stock) | the finished punish |
//! | [`StockStart`](StatsEvent::StockStart), [`StockLost`](StatsEvent::StockLost) | a player spawns / loses a stock | the stock |
//! | [`GameEnd`](StatsEvent::GameEnd) | Game End, after the frames it finalized | method, LRAS initiator, winners |
//!
//! Each punish and stock of the finished stats appears once as a start
//! and, if it ended, once as an end, with the same frames and percents
//! ([`PunishEvent::index`] is its index in
//! [`SlippiStats::conversions`](super::SlippiStats::conversions) or
//! [`combos`](super::SlippiStats::combos)). What is still going on when the
//! game ends gets no end event (its `end_frame` stays `None`, as in
//! slippi-js). Conversions' opening types are decided at
//! [`finish`](super::SlippiStats::finish), so the events carry
//! [`OpeningType::Unknown`](super::OpeningType::Unknown).
//!
//! Frames are released as slippi-js releases them (see
//! [`FinalizedFrames`](crate::slippi::FinalizedFrames)): up to 7 frames
//! behind the newest in files without a Frame Bookend's finalized frame,
//! never undone by a rollback.
//!
//! ```
//! use gamefmt::slippi::{SlippiEventIter, SAMPLE};
//! use gamefmt::slippi::stats::{SlippiStats, StatsEvent};
//!
//! let mut stats = Box::new(SlippiStats::new());
//! let mut game_end = None;
//! for event in SlippiEventIter::new(SAMPLE) {
//!     stats.push_with(&event?, |e| {
//!         if let StatsEvent::GameEnd(end) = e {
//!             game_end = Some(end.clone());
//!         }
//!     });
//! }
//! let end = game_end.unwrap();
//! assert_eq!(end.method, Some(2));
//! assert_eq!(end.winners.len(), 1);
//! assert_eq!(StatsEvent::GameEnd(end).name(), "game_end");
//! # Ok::<(), gamefmt::Error>(())
//! ```

use super::punish::{Move, Punish};
use super::stocks::Stock;
use crate::slippi::Winners;

/// One combo's or conversion's event: the punish as it stands after the
/// frame that caused the event.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PunishEvent {
    /// The frame the event happened on.
    pub frame: i32,
    /// The punish's index in the finished list
    /// ([`SlippiStats::combos`](super::SlippiStats::combos) or
    /// [`conversions`](super::SlippiStats::conversions)).
    pub index: u32,
    /// The punish so far (its moves are in the list, not here; the newest
    /// is [`last_move`](Self::last_move)).
    pub punish: Punish,
    /// Its newest move, if any.
    pub last_move: Option<Move>,
}

/// One stock's event.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StockEvent {
    /// The frame the event happened on.
    pub frame: i32,
    /// The stock's index in [`SlippiStats::stocks`](super::SlippiStats::stocks).
    pub index: u32,
    /// The stock as it stands.
    pub stock: Stock,
}

/// The game's end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEndEvent {
    /// The last frame of the game (slippi-js `lastFrame`).
    pub frame: i32,
    /// Game End's method ([`GameEnd::method`](crate::slippi::GameEnd::method)).
    pub method: Option<u8>,
    /// The player index that LRAS'd (−1 none; serialized as a 1-based
    /// `lras_initiator` port, `null` for none).
    pub lras_initiator: Option<i8>,
    /// The winners ([`winners`](crate::slippi::winners)'s rules, read
    /// from the settings, this Game End and the Post-Frame Updates directly
    /// before it, as slippi-js's `getWinners()` reads a file that ends
    /// here).
    pub winners: Winners,
}

/// A live stats event (see the [module docs](self)).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum StatsEvent {
    /// A combo started.
    ComboStart(PunishEvent),
    /// A combo got a new move.
    ComboExtend(PunishEvent),
    /// A combo ended.
    ComboEnd(PunishEvent),
    /// A conversion started.
    ConversionStart(PunishEvent),
    /// A conversion got a new move.
    ConversionExtend(PunishEvent),
    /// A conversion ended.
    ConversionEnd(PunishEvent),
    /// A player's stock started (they spawned).
    StockStart(StockEvent),
    /// A player lost a stock.
    StockLost(StockEvent),
    /// The game ended.
    GameEnd(GameEndEvent),
}

impl StatsEvent {
    /// The name: `combo_start`, `combo_extend`, `combo_end`,
    /// `conversion_start`, `conversion_extend`, `conversion_end`,
    /// `stock_start`, `stock_lost`, `game_end` (its serialized `kind`).
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self {
            Self::ComboStart(_) => "combo_start",
            Self::ComboExtend(_) => "combo_extend",
            Self::ComboEnd(_) => "combo_end",
            Self::ConversionStart(_) => "conversion_start",
            Self::ConversionExtend(_) => "conversion_extend",
            Self::ConversionEnd(_) => "conversion_end",
            Self::StockStart(_) => "stock_start",
            Self::StockLost(_) => "stock_lost",
            Self::GameEnd(_) => "game_end",
        }
    }

    /// The frame it happened on.
    #[must_use]
    pub const fn frame(&self) -> i32 {
        match self {
            Self::ComboStart(e)
            | Self::ComboExtend(e)
            | Self::ComboEnd(e)
            | Self::ConversionStart(e)
            | Self::ConversionExtend(e)
            | Self::ConversionEnd(e) => e.frame,
            Self::StockStart(e) | Self::StockLost(e) => e.frame,
            Self::GameEnd(e) => e.frame,
        }
    }
}

#[cfg(feature = "serde")]
mod ser {
    use serde::{Serialize, Serializer};

    use super::{GameEndEvent, PunishEvent, StatsEvent, StockEvent};
    use crate::vocabulary::entries;

    fn port(index: u8) -> u16 {
        u16::from(index).saturating_add(1)
    }

    fn punish<M: serde::ser::SerializeMap>(map: &mut M, e: &PunishEvent) -> Result<(), M::Error> {
        let p = &e.punish;
        entries!(map, {
            "frame" => e.frame, "index" => e.index,
            "port" => port(p.player_index), "last_hit_by_port" => port(p.last_hit_by),
            "start_frame" => p.start_frame, "end_frame" => p.end_frame,
            "start_percent" => p.start_percent, "current_percent" => p.current_percent,
            "end_percent" => p.end_percent, "did_kill" => p.did_kill,
            "move_count" => p.move_count(), "last_move" => e.last_move,
        });
        Ok(())
    }

    fn stock<M: serde::ser::SerializeMap>(map: &mut M, e: &StockEvent) -> Result<(), M::Error> {
        let k = &e.stock;
        entries!(map, {
            "frame" => e.frame, "index" => e.index, "port" => port(k.player_index),
            "start_frame" => k.start_frame, "end_frame" => k.end_frame,
            "start_percent" => k.start_percent, "end_percent" => k.end_percent,
            "current_percent" => k.current_percent, "count" => k.count,
            "death_animation" => k.death_animation,
        });
        Ok(())
    }

    fn game_end<M: serde::ser::SerializeMap>(
        map: &mut M,
        e: &GameEndEvent,
    ) -> Result<(), M::Error> {
        let lras = e
            .lras_initiator
            .and_then(|i| u8::try_from(i).ok())
            .map(port);
        entries!(map, {
            "frame" => e.frame, "method" => e.method, "lras_initiator" => lras,
            "winners" => e.winners.as_slice(),
        });
        Ok(())
    }

    /// `{"kind": name(), "frame": …, …}`: punishes with `index`, `port`
    /// (the punished player), `last_hit_by_port`, `start_frame`,
    /// `end_frame`, `start_percent`, `current_percent`, `end_percent`,
    /// `did_kill`, `move_count`, `last_move`; stocks with `index`, `port`
    /// and the [`Stock`](crate::slippi::stats::Stock) fields; game end with
    /// `method`, `lras_initiator` (a port or `null`) and `winners`
    /// (`[{"port", "position"}]`).
    impl Serialize for StatsEvent {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            let mut map = s.serialize_map(None)?;
            map.serialize_entry("kind", self.name())?;
            match self {
                Self::ComboStart(e)
                | Self::ComboExtend(e)
                | Self::ComboEnd(e)
                | Self::ConversionStart(e)
                | Self::ConversionExtend(e)
                | Self::ConversionEnd(e) => punish(&mut map, e)?,
                Self::StockStart(e) | Self::StockLost(e) => stock(&mut map, e)?,
                Self::GameEnd(e) => game_end(&mut map, e)?,
            }
            map.end()
        }
    }
}
