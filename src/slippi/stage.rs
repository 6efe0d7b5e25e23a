//! Stage events (3.18.0; already in some 3.17.0-labelled files):
//! FOD Platforms (0x3F), Whispy Blow Direction (0x40) and Stadium
//! Transformations (0x41).

use super::field::{accessors, event_view};

event_view! {
    /// Fountain of Dreams platform height change (0x3F).
    FodPlatform
}

impl FodPlatform<'_> {
    accessors! {
        /// Frame number (0x1).
        frame: i32 @ 0x1;
        /// Platform (0x5): 0 right, 1 left.
        platform: u8 @ 0x5;
        /// New platform height (0x6).
        height: f32 @ 0x6;
    }
}

event_view! {
    /// Dream Land 64 Whispy blow direction change (0x40).
    Whispy
}

impl Whispy<'_> {
    accessors! {
        /// Frame number (0x1).
        frame: i32 @ 0x1;
        /// Direction (0x5): 0 none, 1 left, 2 right.
        direction: u8 @ 0x5;
    }
}

event_view! {
    /// Pokémon Stadium transformation event (0x41).
    StadiumTransformation
}

impl StadiumTransformation<'_> {
    accessors! {
        /// Frame number (0x1).
        frame: i32 @ 0x1;
        /// Transformation event (0x5): 2 init, 3 on monitor, 4 old receding,
        /// 5 new rising, 6 finalize, 0 finished.
        event: u16 @ 0x5;
        /// Transformation type (0x7): 3 fire, 4 grass, 5 normal, 6 rock, 9 water.
        transformation: u16 @ 0x7;
    }
}
