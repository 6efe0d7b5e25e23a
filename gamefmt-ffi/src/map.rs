//! Map content read from an open datafile: counts, layers, images.
//!
//! ```
//! use gamefmt_ffi::*;
//! let file = gamefmt::datafile::SAMPLE; // a datafile with no layers
//! let (mut df, mut map) = (GamefmtDatafile::default(), GamefmtMap::default());
//! let mut info = GamefmtMapInfo::default();
//! let mut warnings = [GamefmtWarning { offset: 0, kind: [0; 32], message: [0; 128] }; 4];
//! let mut count = 0;
//! // SAFETY: pointers to live locals and into `file`.
//! unsafe {
//!     let (w, n, e) = (core::ptr::null_mut(), core::ptr::null_mut(), core::ptr::null_mut());
//!     gamefmt_datafile_open(file.as_ptr(), file.len(), false, &mut df, w, 0, n, e);
//!     let st = gamefmt_map_open(&df, &mut map, warnings.as_mut_ptr(), 4, &mut count, e);
//!     assert_eq!(st, GamefmtStatus::Ok);
//!     gamefmt_map_info(&map, &mut info, e);
//! }
//! assert_eq!((info.layers, info.has_game_layer, count), (0, false, 1));
//! let kind = unsafe { core::ffi::CStr::from_ptr(warnings[0].kind.as_ptr()) };
//! assert_eq!(kind.to_str(), Ok("ddnet_rule")); // current DDNet wants a game layer
//! ```

use core::ffi::c_char;

use gamefmt::map::{Layer, MapView};
use gamefmt::warning::Warning;

use crate::datafile::GamefmtDatafile;
use crate::error::{GamefmtError, GamefmtStatus, null};
use crate::opaque::{get, opaque, out_status, put_result};
use crate::text::display_out;
use crate::warning::{GamefmtWarning, WarningSink};

/// Words of [`GamefmtMap`].
pub const GAMEFMT_MAP_WORDS: usize = 64;

/// A map: the view of a datafile's map items (borrowing the same file
/// bytes). Fill it with [`gamefmt_map_open`].
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GamefmtMap {
    /// Opaque state (a tag word and gamefmt's `MapView`).
    pub opaque: [u64; GAMEFMT_MAP_WORDS],
}

opaque!(GamefmtMap, MapView<'static>, 0x6d61_0001);

/// A map's counts.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct GamefmtMapInfo {
    /// Groups.
    pub groups: usize,
    /// Layers.
    pub layers: usize,
    /// Images (embedded and external).
    pub images: usize,
    /// Envelopes.
    pub envelopes: usize,
    /// Envelope points.
    pub envelope_points: usize,
    /// Sounds.
    pub sounds: usize,
    /// The map has a game layer (DDNet's pick: the last one).
    pub has_game_layer: bool,
    /// The game layer's width in tiles (0 without one).
    pub game_width: usize,
    /// The game layer's height in tiles (0 without one).
    pub game_height: usize,
}

/// One layer's kind and size.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct GamefmtMapLayer {
    /// The layer's type number as stored (2 tiles, 3 quads, 9/10 sounds).
    pub layer_type: i32,
    /// Quads in a quads layer, else 0.
    pub quads: usize,
    /// Width in tiles of a tile layer, else 0.
    pub width: usize,
    /// Height in tiles of a tile layer, else 0.
    pub height: usize,
}

/// One image's header.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct GamefmtMapImage {
    /// The pixels are not in the map (a file the client loads by name).
    pub external: bool,
    /// Width in pixels.
    pub width: i32,
    /// Height in pixels.
    pub height: i32,
}

/// Reads the map items of the open datafile `df` into `*out`. A 2007-era
/// map is `GAMEFMT_STATUS_LEGACY_LAYOUT`. Warnings as in
/// `gamefmt_datafile_open` (refused instead when `df` was opened strict).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_map_open(
    df: *const GamefmtDatafile,
    out: *mut GamefmtMap,
    warnings: *mut GamefmtWarning,
    warnings_cap: usize,
    warnings_count: *mut usize,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let (Some(df), false) = (get(df), out.is_null()) else {
        return null(err);
    };
    let mut sink = WarningSink::new(warnings, warnings_cap, warnings_count);
    put_result(
        out,
        MapView::new_with(*df, &mut |w: Warning| sink.push(w)),
        err,
    )
}

/// The map's counts.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_map_info(
    map: *const GamefmtMap,
    info: *mut GamefmtMapInfo,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let Some(map) = get(map) else {
        return null(err);
    };
    let game = map.game_layer();
    let value = GamefmtMapInfo {
        groups: map.group_count(),
        layers: map.layer_count(),
        images: map.image_count(),
        envelopes: map.envelope_count(),
        envelope_points: map.env_point_count(),
        sounds: map.sound_count(),
        has_game_layer: game.is_some(),
        game_width: game.map_or(0, |g| g.width()),
        game_height: game.map_or(0, |g| g.height()),
    };
    out_status(info, value, err)
}

/// Layer `index` (`GAMEFMT_STATUS_ABSENT` past the end).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_map_layer(
    map: *const GamefmtMap,
    index: usize,
    layer: *mut GamefmtMapLayer,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let Some(map) = get(map) else {
        return null(err);
    };
    let Some(found) = map.layer(index) else {
        return GamefmtStatus::Absent;
    };
    let tiles = found.as_tiles();
    let value = GamefmtMapLayer {
        layer_type: found.layer_type(),
        quads: match found {
            Layer::Quads(q) => q.quad_count(),
            _ => 0,
        },
        width: tiles.map_or(0, |t| t.width()),
        height: tiles.map_or(0, |t| t.height()),
    };
    out_status(layer, value, err)
}

/// The kind name of layer `index` (`game`, `tiles`, `tele`, `speedup`,
/// `front`, `switch`, `tune`, `quads`, `sounds`, `sounds_deprecated`,
/// `unknown`) into `buf` (`snprintf` rules); returns its length, or -1
/// when there is no such layer or `map` is not open.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_map_layer_kind(
    map: *const GamefmtMap,
    index: usize,
    buf: *mut c_char,
    cap: usize,
) -> isize {
    match get(map).and_then(|m| m.layer(index)) {
        Some(layer) => display_out(&layer.kind().name(), buf, cap),
        None => -1,
    }
}

/// Image `index` (`GAMEFMT_STATUS_ABSENT` past the end).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gamefmt_map_image(
    map: *const GamefmtMap,
    index: usize,
    image: *mut GamefmtMapImage,
    err: *mut GamefmtError,
) -> GamefmtStatus {
    let Some(map) = get(map) else {
        return null(err);
    };
    let Some(found) = map.image(index) else {
        return GamefmtStatus::Absent;
    };
    let value = GamefmtMapImage {
        external: found.is_external(),
        width: found.width(),
        height: found.height(),
    };
    out_status(image, value, err)
}
