//! Reads every field of every Slippi event through the typed views, folding
//! the values into a checksum so the optimiser cannot skip any: the work
//! shared by `benches/slippi.rs` (full decode) and the peer comparison in
//! `benches/peers` (against peppi's full parse).

use gamefmt::slippi::Event;

/// Folds an optional number into a checksum: its value as an `f64`, bits
/// added with wrapping. An integer add, not an `f64` sum: a float sum is one
/// chain of 3-4-cycle additions through every field of the file, which
/// measured the adder's latency rather than the reads (read_all was bound
/// by it).
pub fn f<T: Into<f64>>(acc: &mut u64, v: Option<T>) {
    if let Some(v) = v {
        *acc = acc.wrapping_add(v.into().to_bits());
    }
}

/// Reads every field of every event through the typed views.
pub fn read_all(e: &Event<'_>, out: &mut u64) {
    // The sum lives in a local (a register) and is stored once: summed
    // through `out` directly, every field was a load, an add and a store
    // of `*out`, a chain through memory that cost more than the reads.
    let mut sum = *out;
    let acc = &mut sum;
    match e {
        Event::GameStart(g) => {
            f(acc, g.stage());
            f(acc, g.random_seed());
            f(acc, g.timer_seconds());
            f(acc, g.damage_ratio());
            f(acc, g.is_pal().map(u8::from));
            f(acc, g.major_scene());
            f(acc, g.game_number());
            for i in 0..6 {
                if let Some(p) = g.player(i) {
                    f(acc, p.character());
                    f(acc, p.player_type());
                    f(acc, p.stocks());
                    f(acc, p.offense_ratio());
                    f(acc, p.model_scale());
                }
            }
            for i in 0..4 {
                f(acc, g.dashback_fix(i));
                f(acc, g.display_name(i).map(|s| s.len() as u32));
            }
        }
        Event::PreFrame(p) => {
            f(acc, p.frame());
            f(acc, p.player_index());
            f(acc, p.is_follower().map(u8::from));
            f(acc, p.random_seed());
            f(acc, p.action_state());
            f(acc, p.position_x());
            f(acc, p.position_y());
            f(acc, p.facing_direction());
            f(acc, p.joystick_x());
            f(acc, p.joystick_y());
            f(acc, p.cstick_x());
            f(acc, p.cstick_y());
            f(acc, p.trigger());
            f(acc, p.buttons());
            f(acc, p.physical_buttons());
            f(acc, p.physical_l());
            f(acc, p.physical_r());
            f(acc, p.raw_joystick_x());
            f(acc, p.percent());
            f(acc, p.raw_joystick_y());
            f(acc, p.raw_cstick_x());
            f(acc, p.raw_cstick_y());
        }
        Event::PostFrame(p) => {
            f(acc, p.frame());
            f(acc, p.player_index());
            f(acc, p.is_follower().map(u8::from));
            f(acc, p.internal_character());
            f(acc, p.action_state());
            f(acc, p.position_x());
            f(acc, p.position_y());
            f(acc, p.facing_direction());
            f(acc, p.percent());
            f(acc, p.shield_size());
            f(acc, p.last_attack_landed());
            f(acc, p.combo_count());
            f(acc, p.last_hit_by());
            f(acc, p.stocks_remaining());
            f(acc, p.action_state_frame_counter());
            if let Some(s) = p.state_flags() {
                for x in s {
                    f(acc, Some(x));
                }
            }
            f(acc, p.misc_action_state());
            f(acc, p.is_airborne().map(u8::from));
            f(acc, p.last_ground_id());
            f(acc, p.jumps_remaining());
            f(acc, p.l_cancel_status());
            f(acc, p.hurtbox_state());
            f(acc, p.self_induced_air_x_speed());
            f(acc, p.self_induced_y_speed());
            f(acc, p.attack_based_x_speed());
            f(acc, p.attack_based_y_speed());
            f(acc, p.self_induced_ground_x_speed());
            f(acc, p.hitlag_remaining());
            f(acc, p.animation_index());
            f(acc, p.instance_hit_by());
            f(acc, p.instance_id());
        }
        Event::ItemUpdate(i) => {
            f(acc, i.frame());
            f(acc, i.type_id());
            f(acc, i.state());
            f(acc, i.facing_direction());
            f(acc, i.velocity_x());
            f(acc, i.velocity_y());
            f(acc, i.position_x());
            f(acc, i.position_y());
            f(acc, i.damage_taken());
            f(acc, i.expiration_timer());
            f(acc, i.spawn_id());
            if let Some(m) = i.misc() {
                for x in m {
                    f(acc, Some(x));
                }
            }
            f(acc, i.owner());
            f(acc, i.instance_id());
        }
        Event::FrameStart(s) => {
            f(acc, s.frame());
            f(acc, s.random_seed());
            f(acc, s.scene_frame_counter());
        }
        Event::FrameBookend(b) => {
            f(acc, b.frame());
            f(acc, b.latest_finalized_frame());
        }
        Event::GameEnd(e) => {
            f(acc, e.method());
            f(acc, e.lras_initiator());
            if let Some(p) = e.placements() {
                for x in p {
                    f(acc, Some(x));
                }
            }
        }
        Event::FodPlatform(e) => {
            f(acc, e.frame());
            f(acc, e.platform());
            f(acc, e.height());
        }
        Event::Whispy(e) => {
            f(acc, e.frame());
            f(acc, e.direction());
        }
        Event::StadiumTransformation(e) => {
            f(acc, e.frame());
            f(acc, e.event());
            f(acc, e.transformation());
        }
        _ => {}
    }
    *out = sum;
}
