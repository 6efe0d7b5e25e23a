//! The rules current DDNet's map loader adds to what Teeworlds checks
//! (`CMap::Load` in `src/engine/shared/map.cpp`, DDNet 28baa427): a default
//! parse reports each broken rule as a
//! [`DdnetRule`](crate::WarningKind::DdnetRule) warning, a strict parse
//! refuses the map, as DDNet does.
//!
//! Like DDNet, only layers that a group refers to are checked, groups in
//! order, then layers in group order:
//! 1. no layer belongs to two groups;
//! 2. tile layers are at least 2 × 2 tiles, their names (version 3 on)
//!    valid UTF-8, and design layers' colours in 0..=255;
//! 3. there is a game layer (the last one in group order counts);
//! 4. each tile layer's own data index is in range and used by no other
//!    tile layer;
//! 5. physics layers have at least as many tiles as the game layer.
//!
//! Tile *data* rules (no skip or padding byte set outside TW0.7 run-length
//! layers) are checked when the tiles are read, as DDNet checks them when
//! it loads that data: [`TileLayer::data_into`](super::TileLayer::data_into)
//! in a strict view.
//!
//! ```
//! # fn main() -> Result<(), gamefmt::Error> {
//! use gamefmt::map::MapView;
//! use gamefmt::{ErrorKind, WarningKind};
//!
//! // The sample map has no groups, so no game layer: Teeworlds-style
//! // readers take it, current DDNet does not.
//! let mut warnings = gamefmt::warning::Warnings::<4>::new();
//! MapView::parse_with(gamefmt::datafile::SAMPLE, &mut warnings)?;
//! let first = warnings.as_slice()[0];
//! assert_eq!(first.kind, WarningKind::DdnetRule { rule: "no game layer" });
//! let refused = MapView::parse_strict(gamefmt::datafile::SAMPLE).unwrap_err();
//! assert_eq!(refused.kind, ErrorKind::Refused(first.kind));
//! # Ok(()) }
//! ```

use super::group::Group;
use super::layer::Layer;
use super::tiles::{TileKind, TileLayer};
use crate::datafile::IdSet;
use crate::error::Result;
use crate::warning::{Warn, Warning, WarningKind, report};

/// Checks a map against DDNet's loader rules (see the module docs), given
/// its groups, its layers by index and its number of data items.
pub(super) fn check<'a, G, W>(
    groups: impl Fn() -> G,
    layer: impl Fn(usize) -> Option<Layer<'a>>,
    data_count: usize,
    strict: bool,
    warn: &mut W,
) -> Result<()>
where
    G: Iterator<Item = Group<'a>>,
    W: Warn + ?Sized,
{
    let mut broken = |rule: &'static str, offset: usize| {
        report(
            warn,
            strict,
            Warning::new(WarningKind::DdnetRule { rule }, offset),
        )
    };
    // Layer indices past 65535 exist only in hostile files; the set covers
    // the rest (8 KiB on the stack).
    let mut layers_used = IdSet::new();
    let mut game: Option<TileLayer<'_>> = None;
    for group in groups() {
        for index in group_layers(&group) {
            let Some(layer) = layer(index) else {
                continue; // MapView::new checked the ranges
            };
            let offset = layer.item().offset();
            if u16::try_from(index).is_ok_and(|i| !layers_used.insert(i)) {
                broken("a layer belongs to two groups", offset)?;
            }
            let Layer::Tiles(t) = layer else { continue };
            if t.width() < 2 || t.height() < 2 {
                broken("tile layer narrower or lower than 2 tiles", offset)?;
            }
            if t.name().is_some_and(|n| n.decode().to_str().is_err()) {
                broken("tile layer name not valid UTF-8", offset)?;
            }
            if t.kind() == TileKind::Tiles && t.color().iter().any(|c| !(0..=255).contains(c)) {
                broken("tile layer colour outside 0..=255", offset)?;
            }
            if t.kind() == TileKind::Game {
                game = Some(t);
            }
        }
    }
    let Some(game) = game else {
        broken("no game layer", 0)?;
        return Ok(());
    };
    let game_tiles = game.tile_count().unwrap_or(usize::MAX);
    let mut data_used = IdSet::new();
    for group in groups() {
        for index in group_layers(&group) {
            let Some(Layer::Tiles(t)) = layer(index) else {
                continue;
            };
            let offset = t.item().offset();
            let data = usize::try_from(t.data_index())
                .ok()
                .filter(|&d| d < data_count);
            match data {
                None => broken("tile data index out of range", offset)?,
                Some(d) => {
                    if u16::try_from(d).is_ok_and(|d| !data_used.insert(d)) {
                        broken("two tile layers share a data item", offset)?;
                    }
                }
            }
            let physics = !matches!(t.kind(), TileKind::Game | TileKind::Tiles);
            if physics && t.tile_count().is_some_and(|n| n < game_tiles) {
                broken("physics layer smaller than the game layer", offset)?;
            }
        }
    }
    Ok(())
}

/// The layer indices a group refers to (checked against the layer count
/// by `MapView::new`).
fn group_layers(group: &Group<'_>) -> core::ops::Range<usize> {
    let start = group.start_layer();
    start..start.saturating_add(group.layer_count())
}
