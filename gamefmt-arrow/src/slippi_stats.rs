//! The Slippi stats tables (`stocks`, `conversions`, `combos`, `moves`,
//! `action_counts`, `overall`): [`gamefmt::slippi::stats::SlippiStats`]
//! fed every event of the replay, its lists as rows once the replay ends.
//! Column names are the stats' `Serialize` names (nested ones joined with
//! `_`); players are 1-based `port`s. Stocks, conversions, combos, moves
//! and action counts exist for two-player games only (as in slippi-js);
//! `overall` has a row per player of every game.

use gamefmt::slippi::stats::{Punishes, Ratio, SlippiStats};

use crate::columns::{
    Bool, FileColumn, Float64Column, Int32Column, StringColumn, UInt8Column, UInt16Column,
    UInt32Column, table,
};

table! {
    /// `format=slippi/table=stocks`: one row per stock (two-player games).
    Stocks {
        file: FileColumn = "the input's path (as in `games`)",
        port: UInt8Column = "the player, 1–4",
        start_frame: Int32Column = "the first frame the player was no longer spawning",
        end_frame: Int32Column = "the frame the stock was lost (null: not lost)",
        start_percent: Float64Column = "always 0, as in slippi-js",
        end_percent: Float64Column = "the percent the frame before it was lost",
        current_percent: Float64Column = "the percent at the last frame before it was lost",
        count: UInt8Column = "stocks remaining when it started",
        death_animation: UInt16Column = "the action state on the frame it was lost",
    }
}

table! {
    /// `format=slippi/table=conversions`: one row per conversion (two-player games).
    Conversions {
        file: FileColumn = "the input's path (as in `games`)",
        index: UInt32Column = "its index in the game's list (`moves.punish_index`)",
        port: UInt8Column = "the punished player, 1–4",
        last_hit_by_port: UInt8Column = "the attacker, 1–4",
        start_frame: Int32Column = "the frame it started",
        end_frame: Int32Column = "the frame it ended (null: still going at the end)",
        start_percent: Float64Column = "the punished player's percent before it",
        current_percent: Float64Column = "the punished player's percent at its end (or the game's)",
        end_percent: Float64Column = "the punished player's percent the frame before it ended",
        did_kill: Bool = "it ended with the punished player losing a stock",
        move_count: UInt16Column = "its moves (rows of `moves`)",
        opening_type: StringColumn = "`neutral_win`, `counter_attack` or `trade` (slippi-js's rules, decided at the end)",
    }
}

table! {
    /// `format=slippi/table=combos`: one row per combo (two-player games).
    Combos {
        file: FileColumn = "the input's path (as in `games`)",
        index: UInt32Column = "its index in the game's list (`moves.punish_index`)",
        port: UInt8Column = "the punished player, 1–4",
        last_hit_by_port: UInt8Column = "the attacker, 1–4",
        start_frame: Int32Column = "the frame it started",
        end_frame: Int32Column = "the frame it ended (null: still going at the end)",
        start_percent: Float64Column = "the punished player's percent before it",
        current_percent: Float64Column = "the punished player's percent at its end (or the game's)",
        end_percent: Float64Column = "the punished player's percent the frame before it ended",
        did_kill: Bool = "it ended with the punished player losing a stock",
        move_count: UInt16Column = "its moves (rows of `moves`)",
    }
}

table! {
    /// `format=slippi/table=moves`: one row per move of a conversion or combo.
    Moves {
        file: FileColumn = "the input's path (as in `games`)",
        kind: StringColumn = "`conversion` or `combo`: the table of its punish",
        punish_index: UInt32Column = "its punish's `index` in that table",
        port: UInt8Column = "the attacker, 1–4",
        frame: Int32Column = "the frame of its first hit",
        move_id: UInt8Column = "the attack landed (slippi-js `moveId`)",
        hit_count: UInt32Column = "hits counted",
        damage: Float64Column = "damage dealt",
    }
}

table! {
    /// `format=slippi/table=action_counts`: one row per player (two-player games).
    ActionCounts {
        file: FileColumn = "the input's path (as in `games`)",
        port: UInt8Column = "the player, 1–4",
        wavedash_count: Int32Column = "wavedash count (slippi-js `wavedash_count`; may go below 0, as there)",
        waveland_count: Int32Column = "waveland count (slippi-js `waveland_count`; may go below 0, as there)",
        air_dodge_count: Int32Column = "air dodge count (slippi-js `air_dodge_count`; may go below 0, as there)",
        dash_dance_count: Int32Column = "dash dance count (slippi-js `dash_dance_count`; may go below 0, as there)",
        spot_dodge_count: Int32Column = "spot dodge count (slippi-js `spot_dodge_count`; may go below 0, as there)",
        ledgegrab_count: Int32Column = "ledgegrab count (slippi-js `ledgegrab_count`; may go below 0, as there)",
        roll_count: Int32Column = "roll count (slippi-js `roll_count`; may go below 0, as there)",
        taunt_count: Int32Column = "taunt count (slippi-js `taunt_count`; may go below 0, as there)",
        edge_cancel_count_success: Int32Column = "edge cancel count: success",
        edge_cancel_count_slow: Int32Column = "edge cancel count: slow",
        l_cancel_count_success: Int32Column = "l cancel count: success",
        l_cancel_count_fail: Int32Column = "l cancel count: fail",
        attack_count_jab1: Int32Column = "attack count: jab1",
        attack_count_jab2: Int32Column = "attack count: jab2",
        attack_count_jab3: Int32Column = "attack count: jab3",
        attack_count_jabm: Int32Column = "attack count: jabm",
        attack_count_dash: Int32Column = "attack count: dash",
        attack_count_ftilt: Int32Column = "attack count: ftilt",
        attack_count_utilt: Int32Column = "attack count: utilt",
        attack_count_dtilt: Int32Column = "attack count: dtilt",
        attack_count_fsmash: Int32Column = "attack count: fsmash",
        attack_count_usmash: Int32Column = "attack count: usmash",
        attack_count_dsmash: Int32Column = "attack count: dsmash",
        attack_count_nair: Int32Column = "attack count: nair",
        attack_count_fair: Int32Column = "attack count: fair",
        attack_count_bair: Int32Column = "attack count: bair",
        attack_count_uair: Int32Column = "attack count: uair",
        attack_count_dair: Int32Column = "attack count: dair",
        grab_count_success: Int32Column = "grab count: success",
        grab_count_fail: Int32Column = "grab count: fail",
        throw_count_up: Int32Column = "throw count: up",
        throw_count_forward: Int32Column = "throw count: forward",
        throw_count_back: Int32Column = "throw count: back",
        throw_count_down: Int32Column = "throw count: down",
        ground_tech_count_away: Int32Column = "ground tech count: away",
        ground_tech_count_in: Int32Column = "ground tech count: in",
        ground_tech_count_neutral: Int32Column = "ground tech count: neutral",
        ground_tech_count_fail: Int32Column = "ground tech count: fail",
        wall_tech_count_success: Int32Column = "wall tech count: success",
        wall_tech_count_fail: Int32Column = "wall tech count: fail",
    }
}

table! {
    /// `format=slippi/table=overall`: one row per player of every game.
    Overall {
        file: FileColumn = "the input's path (as in `games`)",
        port: UInt8Column = "the player, 1–4",
        input_buttons: UInt32Column = "button presses (two-player games)",
        input_triggers: UInt32Column = "trigger presses (two-player games)",
        input_cstick: UInt32Column = "c-stick moves (two-player games)",
        input_joystick: UInt32Column = "joystick moves (two-player games)",
        input_total: UInt32Column = "all inputs (two-player games)",
        conversion_count: UInt32Column = "conversions on other players",
        total_damage: Float64Column = "damage dealt in them",
        kill_count: UInt32Column = "those that killed",
        successful_conversions_count: Float64Column = "successful conversions: count (slippi-js `getRatio`)",
        successful_conversions_total: Float64Column = "successful conversions: total",
        successful_conversions: Float64Column = "successful conversions: count / total (null: no total)",
        inputs_per_minute_count: Float64Column = "inputs per minute: count (slippi-js `getRatio`)",
        inputs_per_minute_total: Float64Column = "inputs per minute: total",
        inputs_per_minute: Float64Column = "inputs per minute: count / total (null: no total)",
        digital_inputs_per_minute_count: Float64Column = "digital inputs per minute: count (slippi-js `getRatio`)",
        digital_inputs_per_minute_total: Float64Column = "digital inputs per minute: total",
        digital_inputs_per_minute: Float64Column = "digital inputs per minute: count / total (null: no total)",
        openings_per_kill_count: Float64Column = "openings per kill: count (slippi-js `getRatio`)",
        openings_per_kill_total: Float64Column = "openings per kill: total",
        openings_per_kill: Float64Column = "openings per kill: count / total (null: no total)",
        damage_per_opening_count: Float64Column = "damage per opening: count (slippi-js `getRatio`)",
        damage_per_opening_total: Float64Column = "damage per opening: total",
        damage_per_opening: Float64Column = "damage per opening: count / total (null: no total)",
        neutral_win_ratio_count: Float64Column = "neutral win ratio: count (slippi-js `getRatio`)",
        neutral_win_ratio_total: Float64Column = "neutral win ratio: total",
        neutral_win_ratio: Float64Column = "neutral win ratio: count / total (null: no total)",
        counter_hit_ratio_count: Float64Column = "counter hit ratio: count (slippi-js `getRatio`)",
        counter_hit_ratio_total: Float64Column = "counter hit ratio: total",
        counter_hit_ratio: Float64Column = "counter hit ratio: count / total (null: no total)",
        beneficial_trade_ratio_count: Float64Column = "beneficial trade ratio: count (slippi-js `getRatio`)",
        beneficial_trade_ratio_total: Float64Column = "beneficial trade ratio: total",
        beneficial_trade_ratio: Float64Column = "beneficial trade ratio: count / total (null: no total)",
    }
}

/// The stats tables wanted of one replay.
#[derive(Default)]
pub struct StatsTables {
    /// `stocks`, when wanted.
    pub stocks: Option<Stocks>,
    /// `conversions`, when wanted.
    pub conversions: Option<Conversions>,
    /// `combos`, when wanted.
    pub combos: Option<Combos>,
    /// `moves`, when wanted.
    pub moves: Option<Moves>,
    /// `action_counts`, when wanted.
    pub action_counts: Option<ActionCounts>,
    /// `overall`, when wanted.
    pub overall: Option<Overall>,
}

impl StatsTables {
    /// Whether any is wanted.
    pub const fn any(&self) -> bool {
        self.stocks.is_some()
            || self.conversions.is_some()
            || self.combos.is_some()
            || self.moves.is_some()
            || self.action_counts.is_some()
            || self.overall.is_some()
    }

    /// Appends the rows of `stats` (finished).
    pub fn append(&mut self, stats: &SlippiStats, file: Option<&str>) {
        let port = |i: u8| i.saturating_add(1);
        if let Some(t) = self.stocks.as_mut() {
            for k in stats.stocks() {
                t.file.append_option(file);
                t.port.append_value(port(k.player_index));
                t.start_frame.append_value(k.start_frame);
                t.end_frame.append_option(k.end_frame);
                t.start_percent.append_value(k.start_percent);
                t.end_percent.append_option(k.end_percent);
                t.current_percent.append_value(k.current_percent);
                t.count.append_value(k.count);
                t.death_animation.append_option(k.death_animation);
            }
        }
        macro_rules! punishes {
            ($t:expr, $list:expr $(, $opening:ident)?) => {
                for (i, p) in (0u32..).zip($list.iter()) {
                    let t = $t;
                    t.file.append_option(file);
                    t.index.append_value(i);
                    t.port.append_value(port(p.player_index));
                    t.last_hit_by_port.append_value(port(p.last_hit_by));
                    t.start_frame.append_value(p.start_frame);
                    t.end_frame.append_option(p.end_frame);
                    t.start_percent.append_value(p.start_percent);
                    t.current_percent.append_value(p.current_percent);
                    t.end_percent.append_option(p.end_percent);
                    t.did_kill.append_option(Some(p.did_kill));
                    t.move_count.append_value(p.move_count());
                    $(t.$opening.append_value(p.opening_type.name());)?
                }
            };
        }
        if let Some(t) = self.conversions.as_mut() {
            punishes!(&mut *t, stats.conversions(), opening_type);
        }
        if let Some(t) = self.combos.as_mut() {
            punishes!(&mut *t, stats.combos());
        }
        if let Some(t) = self.moves.as_mut() {
            for (kind, list) in [
                ("conversion", stats.conversions()),
                ("combo", stats.combos()),
            ] {
                moves(t, kind, list, file);
            }
        }
        if let Some(t) = self.action_counts.as_mut() {
            for a in stats.action_counts() {
                t.file.append_option(file);
                t.port.append_value(port(a.player_index));
                t.wavedash_count.append_value(a.wavedash_count);
                t.waveland_count.append_value(a.waveland_count);
                t.air_dodge_count.append_value(a.air_dodge_count);
                t.dash_dance_count.append_value(a.dash_dance_count);
                t.spot_dodge_count.append_value(a.spot_dodge_count);
                t.ledgegrab_count.append_value(a.ledgegrab_count);
                t.roll_count.append_value(a.roll_count);
                t.taunt_count.append_value(a.taunt_count);
                t.edge_cancel_count_success
                    .append_value(a.edge_cancel_count.success);
                t.edge_cancel_count_slow
                    .append_value(a.edge_cancel_count.slow);
                t.l_cancel_count_success
                    .append_value(a.l_cancel_count.success);
                t.l_cancel_count_fail.append_value(a.l_cancel_count.fail);
                t.attack_count_jab1.append_value(a.attack_count.jab1);
                t.attack_count_jab2.append_value(a.attack_count.jab2);
                t.attack_count_jab3.append_value(a.attack_count.jab3);
                t.attack_count_jabm.append_value(a.attack_count.jabm);
                t.attack_count_dash.append_value(a.attack_count.dash);
                t.attack_count_ftilt.append_value(a.attack_count.ftilt);
                t.attack_count_utilt.append_value(a.attack_count.utilt);
                t.attack_count_dtilt.append_value(a.attack_count.dtilt);
                t.attack_count_fsmash.append_value(a.attack_count.fsmash);
                t.attack_count_usmash.append_value(a.attack_count.usmash);
                t.attack_count_dsmash.append_value(a.attack_count.dsmash);
                t.attack_count_nair.append_value(a.attack_count.nair);
                t.attack_count_fair.append_value(a.attack_count.fair);
                t.attack_count_bair.append_value(a.attack_count.bair);
                t.attack_count_uair.append_value(a.attack_count.uair);
                t.attack_count_dair.append_value(a.attack_count.dair);
                t.grab_count_success.append_value(a.grab_count.success);
                t.grab_count_fail.append_value(a.grab_count.fail);
                t.throw_count_up.append_value(a.throw_count.up);
                t.throw_count_forward.append_value(a.throw_count.forward);
                t.throw_count_back.append_value(a.throw_count.back);
                t.throw_count_down.append_value(a.throw_count.down);
                t.ground_tech_count_away
                    .append_value(a.ground_tech_count.away);
                t.ground_tech_count_in
                    .append_value(a.ground_tech_count.r#in);
                t.ground_tech_count_neutral
                    .append_value(a.ground_tech_count.neutral);
                t.ground_tech_count_fail
                    .append_value(a.ground_tech_count.fail);
                t.wall_tech_count_success
                    .append_value(a.wall_tech_count.success);
                t.wall_tech_count_fail.append_value(a.wall_tech_count.fail);
            }
        }
        if let Some(t) = self.overall.as_mut() {
            for o in &stats.overall() {
                t.file.append_option(file);
                t.port.append_value(port(o.player_index));
                let i = o.input_counts;
                t.input_buttons.append_option(i.map(|i| i.buttons));
                t.input_triggers.append_option(i.map(|i| i.triggers));
                t.input_cstick.append_option(i.map(|i| i.cstick));
                t.input_joystick.append_option(i.map(|i| i.joystick));
                t.input_total.append_option(i.map(|i| i.total));
                t.conversion_count.append_value(o.conversion_count);
                t.total_damage.append_value(o.total_damage);
                t.kill_count.append_value(o.kill_count);
                ratio(
                    &mut t.successful_conversions_count,
                    &mut t.successful_conversions_total,
                    &mut t.successful_conversions,
                    &o.successful_conversions,
                );
                ratio(
                    &mut t.inputs_per_minute_count,
                    &mut t.inputs_per_minute_total,
                    &mut t.inputs_per_minute,
                    &o.inputs_per_minute,
                );
                ratio(
                    &mut t.digital_inputs_per_minute_count,
                    &mut t.digital_inputs_per_minute_total,
                    &mut t.digital_inputs_per_minute,
                    &o.digital_inputs_per_minute,
                );
                ratio(
                    &mut t.openings_per_kill_count,
                    &mut t.openings_per_kill_total,
                    &mut t.openings_per_kill,
                    &o.openings_per_kill,
                );
                ratio(
                    &mut t.damage_per_opening_count,
                    &mut t.damage_per_opening_total,
                    &mut t.damage_per_opening,
                    &o.damage_per_opening,
                );
                ratio(
                    &mut t.neutral_win_ratio_count,
                    &mut t.neutral_win_ratio_total,
                    &mut t.neutral_win_ratio,
                    &o.neutral_win_ratio,
                );
                ratio(
                    &mut t.counter_hit_ratio_count,
                    &mut t.counter_hit_ratio_total,
                    &mut t.counter_hit_ratio,
                    &o.counter_hit_ratio,
                );
                ratio(
                    &mut t.beneficial_trade_ratio_count,
                    &mut t.beneficial_trade_ratio_total,
                    &mut t.beneficial_trade_ratio,
                    &o.beneficial_trade_ratio,
                );
            }
        }
    }
}

/// A ratio's three columns.
fn ratio(
    count: &mut Float64Column,
    total: &mut Float64Column,
    value: &mut Float64Column,
    r: &Ratio,
) {
    count.append_option(r.count);
    total.append_value(r.total);
    value.append_option(r.ratio);
}

/// The moves of every punish of `list`.
fn moves(t: &mut Moves, kind: &str, list: &Punishes, file: Option<&str>) {
    for (i, p) in (0u32..).zip(list.iter()) {
        for m in list.moves(p) {
            t.file.append_option(file);
            t.kind.append_value(kind);
            t.punish_index.append_value(i);
            t.port.append_value(m.player_index.saturating_add(1));
            t.frame.append_value(m.frame);
            t.move_id.append_option(m.move_id);
            t.hit_count.append_value(m.hit_count);
            t.damage.append_value(m.damage);
        }
    }
}
