//! Slippi stats through C: the overall numbers of every player and the
//! game-level facts of a whole replay in memory, as gamefmt's
//! `SlippiStats` computes them (slippi-js 9.1.2's `getStats()`
//! definitions; the overall numbers exist for every player, input counts
//! only in two-player games).
//!
//! A ratio is a [`GamefmtSlpRatio`]: `count`, `total` and `ratio` with the
//! flags `has_count` and `has_ratio` where slippi-js leaves a value
//! `undefined` or `null` (the vocabulary's JSON `null`); an absent value
//! is 0 in the struct, never NaN.
//!
//! ```
//! use gamefmt_ffi::*;
//! let file = gamefmt::slippi::SAMPLE;
//! let mut players = [GamefmtSlpOverall::default(); 4];
//! let (mut count, mut game) = (0usize, GamefmtSlpGameStats::default());
//! // SAFETY: pointers to live locals and into `file`; `players` has 4 entries.
//! let st = unsafe {
//!     gamefmt_slp_stats(file.as_ptr(), file.len(), players.as_mut_ptr(), players.len(),
//!                       &mut count, &mut game, core::ptr::null_mut())
//! };
//! assert_eq!(st, GamefmtStatus::Ok);
//! assert!(game.has_stats && game.game_complete);
//! assert_eq!(game.last_frame, -123);
//! assert_eq!(count, 2);
//! assert_eq!(players[0].port, 1);
//! assert_eq!(players[0].conversion_count, 0);
//! assert!(!players[0].openings_per_kill.has_ratio);
//! ```

use gamefmt::slippi::stats::{Overall, Ratio, SlippiStats};
use gamefmt::slippi::{SlippiEventIter, StartingCharacters};

use crate::error::{GamefmtError, GamefmtStatus, fail, null};
use crate::opaque::{bytes, out};

/// `count / total` as slippi-js's `getRatio` gives it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GamefmtSlpRatio {
    /// `count` is known (false: slippi-js's `undefined`, the input ratios
    /// of games without input stats).
    pub has_count: bool,
    /// The count (0 when `has_count` is false).
    pub count: f64,
    /// The total.
    pub total: f64,
    /// `ratio` is known (false: the total is 0 or the count unknown;
    /// slippi-js's `null`).
    pub has_ratio: bool,
    /// `count / total` (0 when `has_ratio` is false).
    pub ratio: f64,
}

impl From<Ratio> for GamefmtSlpRatio {
    fn from(r: Ratio) -> Self {
        Self {
            has_count: r.count.is_some(),
            count: r.count.unwrap_or(0.0),
            total: r.total,
            has_ratio: r.ratio.is_some(),
            ratio: r.ratio.unwrap_or(0.0),
        }
    }
}

/// One player's overall numbers (slippi-js `generateOverallStats`; the
/// vocabulary's `overall` entry, with the team and the character beside).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GamefmtSlpOverall {
    /// The port, 1-based (1 to 4).
    pub port: u8,
    /// `team_id` is meaningful (teams games).
    pub has_team: bool,
    /// The team id.
    pub team_id: u8,
    /// `character` is known.
    pub has_character: bool,
    /// The starting external character id (Zelda/Sheik fixed as
    /// `gamefmt_slp_characters_get` does).
    pub character: u8,
    /// The input counts below are meaningful (two-player games only).
    pub has_input_counts: bool,
    /// Button presses.
    pub input_buttons: u32,
    /// Trigger presses.
    pub input_triggers: u32,
    /// C-stick moves.
    pub input_cstick: u32,
    /// Joystick moves.
    pub input_joystick: u32,
    /// All inputs.
    pub input_total: u32,
    /// Conversions on other players (slippi-js counts every conversion
    /// whose punished player is not this one).
    pub conversion_count: u32,
    /// Damage dealt in those conversions' moves.
    pub total_damage: f64,
    /// Those conversions that killed, by this player.
    pub kill_count: u32,
    /// Conversions with more than one move started by this player, over
    /// `conversion_count`.
    pub successful_conversions: GamefmtSlpRatio,
    /// Inputs per minute of playable frames.
    pub inputs_per_minute: GamefmtSlpRatio,
    /// Button presses per minute.
    pub digital_inputs_per_minute: GamefmtSlpRatio,
    /// Conversions per kill.
    pub openings_per_kill: GamefmtSlpRatio,
    /// Damage per conversion.
    pub damage_per_opening: GamefmtSlpRatio,
    /// Neutral wins over all neutral wins of this player and opponents.
    pub neutral_win_ratio: GamefmtSlpRatio,
    /// Counter-attacks over all of this player's and opponents'.
    pub counter_hit_ratio: GamefmtSlpRatio,
    /// Trades that benefited this player over this player's trades.
    pub beneficial_trade_ratio: GamefmtSlpRatio,
}

impl GamefmtSlpOverall {
    fn new(o: &Overall, team_id: Option<u8>, character: Option<u8>) -> Self {
        let inputs = o.input_counts.unwrap_or_default();
        Self {
            port: o.player_index.saturating_add(1),
            has_team: team_id.is_some(),
            team_id: team_id.unwrap_or(0),
            has_character: character.is_some(),
            character: character.unwrap_or(0),
            has_input_counts: o.input_counts.is_some(),
            input_buttons: inputs.buttons,
            input_triggers: inputs.triggers,
            input_cstick: inputs.cstick,
            input_joystick: inputs.joystick,
            input_total: inputs.total,
            conversion_count: o.conversion_count,
            total_damage: o.total_damage,
            kill_count: o.kill_count,
            successful_conversions: o.successful_conversions.into(),
            inputs_per_minute: o.inputs_per_minute.into(),
            digital_inputs_per_minute: o.digital_inputs_per_minute.into(),
            openings_per_kill: o.openings_per_kill.into(),
            damage_per_opening: o.damage_per_opening.into(),
            neutral_win_ratio: o.neutral_win_ratio.into(),
            counter_hit_ratio: o.counter_hit_ratio.into(),
            beneficial_trade_ratio: o.beneficial_trade_ratio.into(),
        }
    }
}

/// The game-level facts of the stats.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GamefmtSlpGameStats {
    /// The game's settings arrived: slippi-js's `getStats()` would give
    /// stats (false: every other field is 0 and no player is written).
    pub has_stats: bool,
    /// The frame of the last Pre/Post-Frame Update, −124 before any
    /// (slippi-js `lastFrame`).
    pub last_frame: i32,
    /// Frames from −39 to `last_frame` (slippi-js `playableFrameCount`).
    pub playable_frame_count: i32,
    /// A Game End arrived (slippi-js `gameComplete`).
    pub game_complete: bool,
    /// A stats list went past its cap: the stats are short.
    pub overflowed: bool,
    /// slippi-js would have thrown instead of giving stats.
    pub slippi_js_would_throw: bool,
    /// Events dropped by the finalized-frames stage (rollback re-sends
    /// after finalization; 0 on every replay seen so far).
    pub dropped_events: u32,
}

/// The stats of the whole Slippi replay `data[0..len]` (the `.slp` file
/// in memory): each player's overall numbers, in settings order, into
/// `players` (room for `cap`; 4 is always enough; `NULL` allowed with
/// `cap` 0), the number of players into `*count` (may exceed `cap`: only
/// `cap` are written) and the game-level facts into `*game`.
///
/// When the events end in an error (a truncated or damaged file), the
/// stats of the events before it are still written (as `gamefmt stats`
/// prints them) and the error is returned, with its byte offset in
/// `data`, through `err`; `game->has_stats` tells whether there are any.
/// Allocates one block (the 117 KiB stats machine) and frees it before
/// returning. `GAMEFMT_STATUS_NULL_POINTER` when `data` (with `len` > 0),
/// `count` or `game` is `NULL`, or `players` with `cap` > 0.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_slp_stats(
    data: *const u8,
    len: usize,
    players: *mut GamefmtSlpOverall,
    cap: usize,
    count: *mut usize,
    game: *mut GamefmtSlpGameStats,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let (Some(file), false, false) = (bytes(data, len), count.is_null(), game.is_null()) else {
        return null(err);
    };
    let dst: &mut [GamefmtSlpOverall] = if cap == 0 {
        &mut []
    } else if players.is_null() {
        return null(err);
    } else {
        // SAFETY: `players` is not NULL and points to `cap` writable
        // entries (the crate's contract); every entry is written below
        // before it is read (`iter_mut` only assigns).
        unsafe { core::slice::from_raw_parts_mut(players, cap) }
    };
    if file.is_empty() {
        // An iterator ends quietly on no bytes; a file of none is
        // truncated before its header.
        out(count, 0);
        out(game, GamefmtSlpGameStats::default());
        return fail(err, &gamefmt::Error::truncated(0));
    }
    let mut stats = Box::new(SlippiStats::new());
    let mut characters: Option<StartingCharacters> = None;
    let mut failed = None;
    for event in SlippiEventIter::new(file) {
        let event = match event {
            Ok(e) => e,
            Err(e) => {
                failed = Some(e);
                break;
            }
        };
        StartingCharacters::track(&mut characters, &event);
        stats.push(&event);
    }
    stats.finish();
    let mut facts = GamefmtSlpGameStats::default();
    let mut n = 0usize;
    if stats.has_stats() {
        facts = GamefmtSlpGameStats {
            has_stats: true,
            last_frame: stats.last_frame(),
            playable_frame_count: stats.playable_frame_count(),
            game_complete: stats.game_complete(),
            overflowed: stats.overflowed(),
            slippi_js_would_throw: stats.slippi_js_would_throw(),
            dropped_events: stats.dropped_events(),
        };
        let overall = stats.overall();
        n = overall.len();
        for (d, o) in dst.iter_mut().zip(&overall) {
            let team = stats
                .players()
                .iter()
                .find(|p| p.player_index == o.player_index)
                .and_then(|p| p.team_id);
            let character = characters
                .as_ref()
                .and_then(|c| c.get(usize::from(o.player_index)));
            *d = GamefmtSlpOverall::new(o, team, character);
        }
    }
    out(count, n);
    out(game, facts);
    match failed {
        Some(e) => fail(err, &e),
        None => GamefmtStatus::Ok,
    }
}
