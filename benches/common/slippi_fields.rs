//! Reads every field of every Slippi event through the typed views, folding
//! the values into a checksum so the optimiser cannot skip any: the work
//! shared by `benches/slippi.rs` (full decode) and the peer comparison in
//! `benches/peers` (against peppi's full parse).
//!
//! Two folds, so that what the consumer costs shows beside what the reads
//! cost: [`AsF64`] converts each value to an `f64` and adds its bits (the
//! fold of the first rounds), [`Bits`] adds each value's own bits (an
//! `f32`'s bit pattern, an integer zero-extended): the same reads, without
//! the three conversion instructions per field.

use gamefmt::slippi::Event;

/// A field's value: its `f64` form and its own bits.
pub trait Value: Copy + Into<f64> {
    /// The value's bit pattern, zero-extended.
    fn bits(self) -> u64;
}

macro_rules! unsigned {
    ($($t:ty),*) => {$(
        impl Value for $t {
            fn bits(self) -> u64 {
                u64::from(self)
            }
        }
    )*};
}
unsigned!(u8, u16, u32);

impl Value for i8 {
    fn bits(self) -> u64 {
        u64::from(self.to_ne_bytes()[0])
    }
}

impl Value for i32 {
    fn bits(self) -> u64 {
        u64::from(u32::from_ne_bytes(self.to_ne_bytes()))
    }
}

impl Value for f32 {
    fn bits(self) -> u64 {
        u64::from(self.to_bits())
    }
}

impl Value for f64 {
    fn bits(self) -> u64 {
        self.to_bits()
    }
}

/// A checksum that values are folded into.
pub trait Fold {
    /// Folds an optional value (nothing when `None`).
    fn f<T: Value>(&mut self, v: Option<T>);
}

/// Each value as an `f64`, bits added with wrapping. An integer add, not
/// an `f64` sum: a float sum is one chain of 3-4-cycle additions through
/// every field of the file, which measured the adder's latency rather than
/// the reads (read_all was bound by it).
#[derive(Clone, Copy, Default)]
pub struct AsF64(pub u64);

impl Fold for AsF64 {
    #[inline(always)]
    fn f<T: Value>(&mut self, v: Option<T>) {
        if let Some(v) = v {
            self.0 = self.0.wrapping_add(v.into().to_bits());
        }
    }
}

/// Each value's own bits added with wrapping.
#[derive(Clone, Copy, Default)]
pub struct Bits(pub u64);

impl Fold for Bits {
    #[inline(always)]
    fn f<T: Value>(&mut self, v: Option<T>) {
        if let Some(v) = v {
            self.0 = self.0.wrapping_add(v.bits());
        }
    }
}

/// [`read_all`] in a call of its own per event, as the first rounds'
/// consumer had it (the compiler did not inline it there); kept for the
/// comparison with them.
#[inline(never)]
pub fn read_all_call<A: Fold + Copy>(e: &Event<'_>, out: &mut A) {
    read_all(e, out);
}

/// Reads every field of every event through the typed views; inlined
/// into the caller's loop (out of line, the call and its register saves
/// were about a tenth of a full decode's instructions).
#[inline(always)]
pub fn read_all<A: Fold + Copy>(e: &Event<'_>, out: &mut A) {
    // The sum lives in a local (a register) and is stored once: summed
    // through `out` directly, every field was a load, an add and a store
    // of `*out`, a chain through memory that cost more than the reads.
    let mut sum = *out;
    let acc = &mut sum;
    match e {
        Event::GameStart(g) => {
            acc.f(g.stage());
            acc.f(g.random_seed());
            acc.f(g.timer_seconds());
            acc.f(g.damage_ratio());
            acc.f(g.is_pal().map(u8::from));
            acc.f(g.major_scene());
            acc.f(g.game_number());
            for i in 0..6 {
                if let Some(p) = g.player(i) {
                    acc.f(p.character());
                    acc.f(p.player_type());
                    acc.f(p.stocks());
                    acc.f(p.offense_ratio());
                    acc.f(p.model_scale());
                }
            }
            for i in 0..4 {
                acc.f(g.dashback_fix(i));
                acc.f(g.display_name(i).map(|s| s.len() as u32));
            }
        }
        Event::PreFrame(p) => {
            acc.f(p.frame());
            acc.f(p.player_index());
            acc.f(p.is_follower().map(u8::from));
            acc.f(p.random_seed());
            acc.f(p.action_state());
            acc.f(p.position_x());
            acc.f(p.position_y());
            acc.f(p.facing_direction());
            acc.f(p.joystick_x());
            acc.f(p.joystick_y());
            acc.f(p.cstick_x());
            acc.f(p.cstick_y());
            acc.f(p.trigger());
            acc.f(p.buttons());
            acc.f(p.physical_buttons());
            acc.f(p.physical_l());
            acc.f(p.physical_r());
            acc.f(p.raw_joystick_x());
            acc.f(p.percent());
            acc.f(p.raw_joystick_y());
            acc.f(p.raw_cstick_x());
            acc.f(p.raw_cstick_y());
        }
        Event::PostFrame(p) => {
            acc.f(p.frame());
            acc.f(p.player_index());
            acc.f(p.is_follower().map(u8::from));
            acc.f(p.internal_character());
            acc.f(p.action_state());
            acc.f(p.position_x());
            acc.f(p.position_y());
            acc.f(p.facing_direction());
            acc.f(p.percent());
            acc.f(p.shield_size());
            acc.f(p.last_attack_landed());
            acc.f(p.combo_count());
            acc.f(p.last_hit_by());
            acc.f(p.stocks_remaining());
            acc.f(p.action_state_frame_counter());
            if let Some(s) = p.state_flags() {
                for x in s {
                    acc.f(Some(x));
                }
            }
            acc.f(p.misc_action_state());
            acc.f(p.is_airborne().map(u8::from));
            acc.f(p.last_ground_id());
            acc.f(p.jumps_remaining());
            acc.f(p.l_cancel_status());
            acc.f(p.hurtbox_state());
            acc.f(p.self_induced_air_x_speed());
            acc.f(p.self_induced_y_speed());
            acc.f(p.attack_based_x_speed());
            acc.f(p.attack_based_y_speed());
            acc.f(p.self_induced_ground_x_speed());
            acc.f(p.hitlag_remaining());
            acc.f(p.animation_index());
            acc.f(p.instance_hit_by());
            acc.f(p.instance_id());
        }
        Event::ItemUpdate(i) => {
            acc.f(i.frame());
            acc.f(i.type_id());
            acc.f(i.state());
            acc.f(i.facing_direction());
            acc.f(i.velocity_x());
            acc.f(i.velocity_y());
            acc.f(i.position_x());
            acc.f(i.position_y());
            acc.f(i.damage_taken());
            acc.f(i.expiration_timer());
            acc.f(i.spawn_id());
            if let Some(m) = i.misc() {
                for x in m {
                    acc.f(Some(x));
                }
            }
            acc.f(i.owner());
            acc.f(i.instance_id());
        }
        Event::FrameStart(s) => {
            acc.f(s.frame());
            acc.f(s.random_seed());
            acc.f(s.scene_frame_counter());
        }
        Event::FrameBookend(b) => {
            acc.f(b.frame());
            acc.f(b.latest_finalized_frame());
        }
        Event::GameEnd(e) => {
            acc.f(e.method());
            acc.f(e.lras_initiator());
            if let Some(p) = e.placements() {
                for x in p {
                    acc.f(Some(x));
                }
            }
        }
        Event::FodPlatform(e) => {
            acc.f(e.frame());
            acc.f(e.platform());
            acc.f(e.height());
        }
        Event::Whispy(e) => {
            acc.f(e.frame());
            acc.f(e.direction());
        }
        Event::StadiumTransformation(e) => {
            acc.f(e.frame());
            acc.f(e.event());
            acc.f(e.transformation());
        }
        _ => {}
    }
    *out = sum;
}
