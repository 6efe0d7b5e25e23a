//! Game End (0x39).

use super::field::{self, accessors, event_view};

event_view! {
    /// Game End (0x39). Usually last; sometimes missing, sometimes twice.
    GameEnd
}

impl GameEnd<'_> {
    /// End method 0: unresolved (before 2.0.0).
    pub const UNRESOLVED: u8 = 0;
    /// End method 1: the timer ran out (2.0.0).
    pub const TIME: u8 = 1;
    /// End method 2: stocks ran out (2.0.0).
    pub const GAME: u8 = 2;
    /// End method 3: resolved (before 2.0.0).
    pub const RESOLVED: u8 = 3;
    /// End method 7: no contest, e.g. LRAS (2.0.0).
    pub const NO_CONTEST: u8 = 7;

    accessors! {
        /// End method (0x1). Before 2.0.0: 0 unresolved, 3 resolved; from
        /// 2.0.0: 1 TIME, 2 GAME, 7 No Contest. Real files also carry 3, 6
        /// and 9; the byte is passed through unchanged.
        method: u8 @ 0x1;
        /// Player index that LRAS'd, −1 none (0x2, 2.0.0).
        lras_initiator: i8 @ 0x2;
    }

    /// Placement per port, 0-based, −1 not in game (0x3–0x6, 3.13.0).
    /// Values outside that range occur (a pre-release build) and are
    /// passed through.
    #[must_use]
    #[inline]
    pub fn placements(&self) -> Option<[i8; 4]> {
        let b: [u8; 4] = *field::bytes(self.bytes, 3, 4)?.first_chunk()?;
        Some(b.map(|v| i8::from_be_bytes([v])))
    }
}
