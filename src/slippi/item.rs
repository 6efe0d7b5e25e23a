//! Item Update (0x3B): items and projectiles, up to 15 per frame.

use super::field::{self, accessors, event_view};

event_view! {
    /// Item Update (0x3B, 3.0.0; seen in a 2.2.0-labelled build).
    ItemUpdate
}

impl ItemUpdate<'_> {
    accessors! {
        base = 0x22;
        /// Frame number (0x1).
        frame: i32 @ 0x1;
        /// Item type id (0x5).
        type_id: u16 @ 0x5;
        /// Item state (0x7).
        state: u8 @ 0x7;
        /// Facing direction (0x8); 0 occurs.
        facing_direction: f32 @ 0x8;
        /// X velocity (0xC).
        velocity_x: f32 @ 0xC;
        /// Y velocity (0x10).
        velocity_y: f32 @ 0x10;
        /// X position (0x14).
        position_x: f32 @ 0x14;
        /// Y position (0x18).
        position_y: f32 @ 0x18;
        /// Damage taken (0x1C).
        damage_taken: u16 @ 0x1C;
        /// Expiration timer (0x1E).
        expiration_timer: f32 @ 0x1E;
        /// Spawn id, counting up from 0 (0x22).
        spawn_id: u32 @ 0x22;
        /// Misc byte 1, missile type (0x26, 3.2.0).
        missile_type: u8 @ 0x26;
        /// Misc byte 2, turnip face (0x27, 3.2.0).
        turnip_face: u8 @ 0x27;
        /// Misc byte 3, charge shot launched (0x28, 3.2.0).
        charge_shot_launched: u8 @ 0x28;
        /// Misc byte 4, charge power (0x29, 3.2.0).
        charge_power: u8 @ 0x29;
        /// Owner player index, −1 none (0x2A, 3.6.0).
        owner: i8 @ 0x2A;
        /// Instance id inherited from the owner (0x2B, 3.16.0).
        instance_id: u16 @ 0x2B;
    }

    /// The four misc bytes (0x26–0x29, 3.2.0).
    #[must_use]
    #[inline]
    pub fn misc(&self) -> Option<[u8; 4]> {
        field::bytes(self.bytes, 0x26, 4)?.first_chunk().copied()
    }
}
