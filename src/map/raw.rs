//! Wire layouts of map content read in place: tile elements, quads, sound
//! sources and envelope points.
//!
//! Every struct is `#[repr(C)]`, unaligned and made of bytes or
//! little-endian integers, so a slice of them is borrowed straight from an
//! inflated data item (or an item's ints) on any host.

use zerocopy::little_endian::{I16, I32};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// One tile of a tiles, game or front layer (4 bytes).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct Tile {
    /// Tile index (game layer: 0 air, 1 solid, 2 death, 3 unhookable, ...).
    pub index: u8,
    /// Flags: 1 vertical flip, 2 horizontal flip, 4 opaque, 8 rotate.
    pub flags: u8,
    /// TW0.7 tilemap v4 run length: this tile repeats `skip` more times.
    /// Always 0 once a layer's tiles are expanded.
    pub skip: u8,
    /// Unused; DDNet requires 0.
    pub reserved: u8,
}

/// One tile of a DDNet tele layer (2 bytes).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct TeleTile {
    /// Teleporter number.
    pub number: u8,
    /// Tele tile type (a game tile index such as `TILE_TELEIN`).
    pub kind: u8,
}

/// One tile of a DDNet speedup layer (6 bytes).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct SpeedupTile {
    /// Force.
    pub force: u8,
    /// Maximum speed (0 = unlimited).
    pub max_speed: u8,
    /// Speedup tile type.
    pub kind: u8,
    /// Padding byte of DDNet's struct.
    pub reserved: u8,
    /// Angle in degrees.
    pub angle: I16,
}

/// One tile of a DDNet switch layer (4 bytes).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct SwitchTile {
    /// Switch number.
    pub number: u8,
    /// Switch tile type.
    pub kind: u8,
    /// Tile flags, as in [`Tile::flags`].
    pub flags: u8,
    /// Delay in seconds.
    pub delay: u8,
}

/// One tile of a DDNet tune layer (2 bytes).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct TuneTile {
    /// Tune zone number.
    pub number: u8,
    /// Tune tile type.
    pub kind: u8,
}

/// A point in 22.10 fixed point (two ints).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct Point {
    /// X.
    pub x: I32,
    /// Y.
    pub y: I32,
}

/// An RGBA colour, each channel an int (0..=255 in practice).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct Color {
    /// Red.
    pub r: I32,
    /// Green.
    pub g: I32,
    /// Blue.
    pub b: I32,
    /// Alpha.
    pub a: I32,
}

/// One quad of a quads layer (38 ints, 152 bytes).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct Quad {
    /// The four corners, then the pivot.
    pub points: [Point; 5],
    /// Corner colours.
    pub colors: [Color; 4],
    /// Corner texture coordinates.
    pub texcoords: [Point; 4],
    /// Position envelope index, or −1.
    pub pos_env: I32,
    /// Position envelope time offset (ms).
    pub pos_env_offset: I32,
    /// Colour envelope index, or −1.
    pub color_env: I32,
    /// Colour envelope time offset (ms).
    pub color_env_offset: I32,
}

/// One sound source of a sounds layer (layer type 10; 13 ints).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct SoundSource {
    /// Position (22.10 fixed point).
    pub position: Point,
    /// Non-zero: loops.
    pub looped: I32,
    /// Non-zero: panning.
    pub pan: I32,
    /// Delay in seconds.
    pub time_delay: I32,
    /// Falloff, 0..=255.
    pub falloff: I32,
    /// Position envelope index, or −1.
    pub pos_env: I32,
    /// Position envelope time offset (ms).
    pub pos_env_offset: I32,
    /// Sound (volume) envelope index, or −1.
    pub sound_env: I32,
    /// Sound envelope time offset (ms).
    pub sound_env_offset: I32,
    /// Shape: 0 rectangle, 1 circle.
    pub shape: I32,
    /// Rectangle width, or circle radius (22.10 fixed point).
    pub width_or_radius: I32,
    /// Rectangle height (unused for circles).
    pub height: I32,
}

/// One sound source of a deprecated sounds layer (layer type 9; 9 ints).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct DeprecatedSoundSource {
    /// Position (22.10 fixed point).
    pub position: Point,
    /// Non-zero: loops.
    pub looped: I32,
    /// Delay in seconds.
    pub time_delay: I32,
    /// Falloff distance.
    pub falloff_distance: I32,
    /// Position envelope index, or −1.
    pub pos_env: I32,
    /// Position envelope time offset (ms).
    pub pos_env_offset: I32,
    /// Sound envelope index, or −1.
    pub sound_env: I32,
    /// Sound envelope time offset (ms).
    pub sound_env_offset: I32,
}

/// An envelope point as stored in the ENVPOINTS item (6 ints).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct EnvPoint {
    /// Time in ms.
    pub time: I32,
    /// Curve type: 0 step, 1 linear, 2 slow, 3 fast, 4 smooth, 5 bezier.
    pub curve_type: I32,
    /// Channel values (22.10 fixed point; colours 0..=1024).
    pub values: [I32; 4],
}

/// Bezier tangents of one envelope point (16 ints): stored inline after
/// each point by TW0.7 (envelope version 3), or in DDNet's
/// `mapitemtype-envpoints-bezier` item.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct EnvPointBezier {
    /// In-tangent time deltas (ms), per channel.
    pub in_dx: [I32; 4],
    /// In-tangent value deltas, per channel.
    pub in_dy: [I32; 4],
    /// Out-tangent time deltas (ms), per channel.
    pub out_dx: [I32; 4],
    /// Out-tangent value deltas, per channel.
    pub out_dy: [I32; 4],
}

/// Bytes per [`Tile`].
pub const TILE_SIZE: usize = 4;
/// Bytes per [`Quad`].
pub const QUAD_SIZE: usize = 152;
/// Bytes per [`SoundSource`].
pub const SOUND_SOURCE_SIZE: usize = 52;
/// Bytes per [`DeprecatedSoundSource`].
pub const DEPRECATED_SOUND_SOURCE_SIZE: usize = 36;
/// Ints per envelope point without tangents.
pub const ENV_POINT_INTS: usize = 6;
/// Ints per TW0.7 envelope point with inline tangents.
pub const ENV_POINT_BEZIER_INTS: usize = 22;
/// Ints of a quads layer item version 1 (the 3-int layer head included).
pub(super) const QUADS_V1_INTS: usize = 7;
/// Ints of a quads or sounds layer item with a name.
pub(super) const NAMED_INTS: usize = 10;
/// Ints of a sounds layer item without its name.
pub(super) const SOUNDS_MIN_INTS: usize = 7;

const _: () = {
    assert!(size_of::<Tile>() == TILE_SIZE);
    assert!(size_of::<TeleTile>() == 2);
    assert!(size_of::<SpeedupTile>() == 6);
    assert!(size_of::<SwitchTile>() == 4);
    assert!(size_of::<TuneTile>() == 2);
    assert!(size_of::<Quad>() == QUAD_SIZE);
    assert!(size_of::<SoundSource>() == SOUND_SOURCE_SIZE);
    assert!(size_of::<DeprecatedSoundSource>() == DEPRECATED_SOUND_SOURCE_SIZE);
    assert!(size_of::<EnvPoint>() == ENV_POINT_INTS * 4);
    assert!(size_of::<EnvPointBezier>() == 16 * 4);
};
