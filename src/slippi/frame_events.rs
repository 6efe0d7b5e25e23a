//! Per-frame events: Frame Start (0x3A), Pre-Frame Update (0x37),
//! Post-Frame Update (0x38) and Frame Bookend (0x3C).

use super::field::{self, accessors, event_view};

event_view! {
    /// Frame Start (0x3A, 2.2.0): the first event of a frame.
    FrameStart
}

impl FrameStart<'_> {
    accessors! {
        /// Frame number (0x1); the game starts at −123.
        frame: i32 @ 0x1;
        /// Random seed at the start of the frame (0x5).
        random_seed: u32 @ 0x5;
        /// Scene frame counter, which keeps counting during pause (0x9, 3.10.0).
        scene_frame_counter: u32 @ 0x9;
    }
}

event_view! {
    /// Frame Bookend (0x3C, 3.0.0): the last event of a frame.
    FrameBookend
}

impl FrameBookend<'_> {
    accessors! {
        /// Frame number (0x1).
        frame: i32 @ 0x1;
        /// Latest finalized frame (0x5, 3.7.0): frames up to it will not be
        /// re-sent by rollback.
        latest_finalized_frame: i32 @ 0x5;
    }
}

event_view! {
    /// Pre-Frame Update (0x37): one per character per frame, with the
    /// inputs. Player index 4 and 5 occur (multi-man modes).
    PreFrame
}

impl PreFrame<'_> {
    accessors! {
        base = 0x3B;
        /// Frame number (0x1).
        frame: i32 @ 0x1;
        /// Player index (0x5); port = index + 1; 4 and 5 occur.
        player_index: u8 @ 0x5;
        /// Follower, i.e. Nana (0x6).
        is_follower: bool @ 0x6;
        /// Random seed (0x7).
        random_seed: u32 @ 0x7;
        /// Action state id (0xB).
        action_state: u16 @ 0xB;
        /// X position (0xD).
        position_x: f32 @ 0xD;
        /// Y position (0x11).
        position_y: f32 @ 0x11;
        /// Facing direction (0x15): −1 left, +1 right.
        facing_direction: f32 @ 0x15;
        /// Processed joystick X (0x19).
        joystick_x: f32 @ 0x19;
        /// Processed joystick Y (0x1D).
        joystick_y: f32 @ 0x1D;
        /// Processed c-stick X (0x21).
        cstick_x: f32 @ 0x21;
        /// Processed c-stick Y (0x25).
        cstick_y: f32 @ 0x25;
        /// Processed analog trigger (0x29).
        trigger: f32 @ 0x29;
        /// Processed buttons (0x2D).
        buttons: u32 @ 0x2D;
        /// Physical buttons (0x31).
        physical_buttons: u16 @ 0x31;
        /// Physical L trigger (0x33).
        physical_l: f32 @ 0x33;
        /// Physical R trigger (0x37).
        physical_r: f32 @ 0x37;
        /// Raw joystick X for UCF (0x3B, 1.2.0).
        raw_joystick_x: i8 @ 0x3B;
        /// Damage percent (0x3C, 1.4.0).
        percent: f32 @ 0x3C;
        /// Raw joystick Y (0x40, 3.15.0).
        raw_joystick_y: i8 @ 0x40;
        /// Raw c-stick X (0x41, 3.17.0/3.18.0).
        raw_cstick_x: i8 @ 0x41;
        /// Raw c-stick Y (0x42, 3.17.0/3.18.0).
        raw_cstick_y: i8 @ 0x42;
    }
}

event_view! {
    /// Post-Frame Update (0x38): one per character per frame, with the
    /// resulting state. May occur without a Pre-Frame Update.
    PostFrame
}

impl PostFrame<'_> {
    accessors! {
        base = 0x22;
        /// Frame number (0x1).
        frame: i32 @ 0x1;
        /// Player index (0x5); 4 and 5 occur.
        player_index: u8 @ 0x5;
        /// Follower, i.e. Nana (0x6).
        is_follower: bool @ 0x6;
        /// Internal character id (0x7).
        internal_character: u8 @ 0x7;
        /// Action state id (0x8).
        action_state: u16 @ 0x8;
        /// X position (0xA).
        position_x: f32 @ 0xA;
        /// Y position (0xE).
        position_y: f32 @ 0xE;
        /// Facing direction (0x12).
        facing_direction: f32 @ 0x12;
        /// Damage percent (0x16).
        percent: f32 @ 0x16;
        /// Shield size (0x1A).
        shield_size: f32 @ 0x1A;
        /// Last attack landed (0x1E).
        last_attack_landed: u8 @ 0x1E;
        /// Current combo count (0x1F).
        combo_count: u8 @ 0x1F;
        /// Player that last hit this one (0x20).
        last_hit_by: u8 @ 0x20;
        /// Stocks remaining (0x21).
        stocks_remaining: u8 @ 0x21;
        /// Action-state frame counter (0x22, 0.2.0).
        action_state_frame_counter: f32 @ 0x22;
        /// Misc action-state value, hitstun left (0x2B, 2.0.0).
        misc_action_state: f32 @ 0x2B;
        /// Airborne (0x2F, 2.0.0).
        is_airborne: bool @ 0x2F;
        /// Last ground id (0x30, 2.0.0).
        last_ground_id: u16 @ 0x30;
        /// Jumps remaining (0x32, 2.0.0).
        jumps_remaining: u8 @ 0x32;
        /// L-cancel status (0x33, 2.0.0): 0 none, 1 ok, 2 missed.
        l_cancel_status: u8 @ 0x33;
        /// Hurtbox state (0x34, 2.1.0): 0 vulnerable, 1 invulnerable, 2 intangible.
        hurtbox_state: u8 @ 0x34;
        /// Self-induced air X speed (0x35, 3.5.0).
        self_induced_air_x_speed: f32 @ 0x35;
        /// Self-induced Y speed (0x39, 3.5.0).
        self_induced_y_speed: f32 @ 0x39;
        /// Attack-based X speed (0x3D, 3.5.0).
        attack_based_x_speed: f32 @ 0x3D;
        /// Attack-based Y speed (0x41, 3.5.0).
        attack_based_y_speed: f32 @ 0x41;
        /// Self-induced ground X speed (0x45, 3.5.0).
        self_induced_ground_x_speed: f32 @ 0x45;
        /// Hitlag frames remaining (0x49, 3.8.0).
        hitlag_remaining: f32 @ 0x49;
        /// Animation index (0x4D, 3.11.0).
        animation_index: u32 @ 0x4D;
        /// Instance id of whoever last hit this player (0x51, 3.16.0).
        instance_hit_by: u16 @ 0x51;
        /// Own instance id (0x53, 3.16.0).
        instance_id: u16 @ 0x53;
    }

    /// The five state bit-flag bytes (0x26–0x2A, 2.0.0).
    #[must_use]
    #[inline]
    pub fn state_flags(&self) -> Option<[u8; 5]> {
        field::bytes(self.bytes, 0x26, 5)?.first_chunk().copied()
    }
}
