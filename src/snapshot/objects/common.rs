//! Object layouts 0.6/DDNet and 0.7 share.

use zerocopy::little_endian::I32;
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// A projectile (0.6 type 2, 0.7 type 2).
#[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Projectile {
    /// Start x.
    pub x: I32,
    /// Start y.
    pub y: I32,
    /// Velocity x (×100).
    pub vel_x: I32,
    /// Velocity y (×100).
    pub vel_y: I32,
    /// Weapon.
    pub kind: I32,
    /// Tick it was fired.
    pub start_tick: I32,
}

/// A laser beam (0.6 type 3, 0.7 type 3).
#[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Laser {
    /// End x.
    pub x: I32,
    /// End y.
    pub y: I32,
    /// Start x.
    pub from_x: I32,
    /// Start y.
    pub from_y: I32,
    /// Tick it was fired.
    pub start_tick: I32,
}

/// A flag (0.6 type 5, 0.7 type 5).
#[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Flag {
    /// x.
    pub x: I32,
    /// y.
    pub y: I32,
    /// 0 red, 1 blue.
    pub team: I32,
}

/// A character's physics state (0.6 type 8, 0.7 type 9; the first part
/// of every character).
#[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct CharacterCore {
    /// Tick of this state.
    pub tick: I32,
    /// x (32 units per tile).
    pub x: I32,
    /// y.
    pub y: I32,
    /// Velocity x (×256).
    pub vel_x: I32,
    /// Velocity y (×256).
    pub vel_y: I32,
    /// Aim angle (×256, radians).
    pub angle: I32,
    /// Walking direction: −1, 0, 1.
    pub direction: I32,
    /// Jump state bits.
    pub jumped: I32,
    /// Hooked client id, −1 none.
    pub hooked_player: I32,
    /// Hook state.
    pub hook_state: I32,
    /// Tick the hook started.
    pub hook_tick: I32,
    /// Hook x.
    pub hook_x: I32,
    /// Hook y.
    pub hook_y: I32,
    /// Hook direction x (×256).
    pub hook_dx: I32,
    /// Hook direction y (×256).
    pub hook_dy: I32,
}

/// `T` at the start of `data`, when it is long enough.
pub(crate) fn view<T: FromBytes + KnownLayout + Immutable>(data: &[I32]) -> Option<&T> {
    use zerocopy::IntoBytes;
    T::ref_from_prefix(data.as_bytes()).ok().map(|(t, _)| t)
}
