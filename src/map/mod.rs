//! Map content: typed, zero-copy views of what a Teeworlds/DDNet map holds.
//!
//! A `.map` file is a [datafile](crate::datafile) whose items are the map's
//! info, images, envelopes and their points, groups, layers and sounds.
//! [`MapView`] validates those items once, by their version *and* their
//! actual size (every layout real maps use, from 0.5-era envelopes to
//! DDNet's physics layers and TW0.7's run-length tiles), and then lends
//! typed views of them. Ints that a newer writer appended past the known
//! layout stay reachable through each view's `extra()`.
//!
//! Tiles, quads, sound sources, image pixels and strings live in
//! compressed data items: each is inflated into a buffer the caller owns
//! and returned as a borrowed slice of [`raw`] structs (with the `alloc`
//! feature, `TileLayer::data_to_vec` fills a `Vec` instead). Nothing here
//! allocates.
//!
//! Maps from 2007 (before Teeworlds 0.4) are valid datafiles with their own
//! item scheme and no VERSION item; [`MapView::parse`] reports them as
//! [`ErrorKind::LegacyLayout`](crate::ErrorKind::LegacyLayout) rather than
//! misreading them.
//!
//! ```
//! # fn main() -> Result<(), gamefmt::Error> {
//! use gamefmt::map::{Layer, MapView, TileData};
//! # let bytes = gamefmt::datafile::SAMPLE;
//!
//! let map = MapView::parse(bytes)?;
//! let mut buf = [0u8; 64];
//! let author = map.info().map(|info| info.author(&mut buf)).transpose()?.flatten();
//! assert_eq!(author, Some("gamefmt"));
//!
//! let mut tiles = [0u8; 1 << 16];
//! for group in map.groups() {
//!     for layer in group.layers() {
//!         if let Layer::Tiles(layer) = layer {
//!             // Inflate the layer's tiles into the caller's buffer.
//!             if let Ok(TileData::Tiles(t)) = layer.data_into(&mut tiles) {
//!                 assert_eq!(t.len(), layer.width() * layer.height());
//!             }
//!         }
//!     }
//! }
//! # Ok(()) }
//! ```

mod automapper;
mod ddnet_rules;
mod envelope;
mod field;
mod group;
mod image;
mod info;
mod layer;
mod old_layouts;
mod quads;
pub mod raw;
mod sound;
mod sound_layer;
mod tiles;
mod view;

pub use crate::i32string::{I32String, Name};
pub use automapper::AutomapperConfig;
pub use envelope::{EnvPointRef, EnvPoints, Envelope};
pub use group::{Clip, Group};
pub use image::{Image, ImageFormat};
pub use info::{Info, Settings};
pub use layer::{Layer, LayerKind};
pub use quads::QuadLayer;
pub use sound::Sound;
pub use sound_layer::{SoundLayer, SoundSources};
#[cfg(feature = "alloc")]
pub use tiles::TileBuffer;
pub use tiles::{TileData, TileKind, TileLayer};
pub use view::MapView;

/// Item type of the map version (one item, data `[1]`).
pub const ITEM_VERSION: u16 = 0;
/// Item type of the map info.
pub const ITEM_INFO: u16 = 1;
/// Item type of images.
pub const ITEM_IMAGE: u16 = 2;
/// Item type of envelopes.
pub const ITEM_ENVELOPE: u16 = 3;
/// Item type of groups.
pub const ITEM_GROUP: u16 = 4;
/// Item type of layers.
pub const ITEM_LAYER: u16 = 5;
/// Item type of the envelope points (one item holding all points).
pub const ITEM_ENVPOINTS: u16 = 6;
/// Item type of sounds (DDNet).
pub const ITEM_SOUND: u16 = 7;

/// Layer type of tile layers.
pub const LAYERTYPE_TILES: i32 = 2;
/// Layer type of quad layers.
pub const LAYERTYPE_QUADS: i32 = 3;
/// Layer type of DDNet's first, deprecated sound layers.
pub const LAYERTYPE_SOUNDS_DEPRECATED: i32 = 9;
/// Layer type of sound layers.
pub const LAYERTYPE_SOUNDS: i32 = 10;

/// Layer flag: only drawn with high detail enabled.
pub const LAYERFLAG_DETAIL: i32 = 1;

/// Tilemap flag: the game layer.
pub const TILESLAYERFLAG_GAME: i32 = 1;
/// Tilemap flag: DDNet tele layer.
pub const TILESLAYERFLAG_TELE: i32 = 2;
/// Tilemap flag: DDNet speedup layer.
pub const TILESLAYERFLAG_SPEEDUP: i32 = 4;
/// Tilemap flag: DDNet front layer.
pub const TILESLAYERFLAG_FRONT: i32 = 8;
/// Tilemap flag: DDNet switch layer.
pub const TILESLAYERFLAG_SWITCH: i32 = 16;
/// Tilemap flag: DDNet tune layer.
pub const TILESLAYERFLAG_TUNE: i32 = 32;

/// Game layer tile: empty.
pub const TILE_AIR: u8 = 0;
/// Game layer tile: solid.
pub const TILE_SOLID: u8 = 1;
/// Game layer tile: kills.
pub const TILE_DEATH: u8 = 2;
/// Game layer tile: solid and cannot be hooked.
pub const TILE_NOHOOK: u8 = 3;
