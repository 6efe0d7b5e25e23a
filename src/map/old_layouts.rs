//! The 2010-era DDRace tile layouts of switch and speedup layers, and their
//! conversion into today's [`SwitchTile`](super::raw::SwitchTile) and
//! [`SpeedupTile`](super::raw::SpeedupTile), in the caller's buffer.
//!
//! Facts from DDNet's history (github.com/ddnet/ddnet):
//! - Switch layers (added in 7f0fa6d6b1, 2010-08-28) first stored 2 bytes a
//!   tile, `{number, type}`, the tele tile's layout; the 4-byte
//!   `{number, type, flags, delay}` followed. The editor's converter
//!   (4e8a4340b8, 2010-11-23, `src/game/editor/ed_io.cpp`) copied number and
//!   type, set flags and delay to 0, and cleared the number of tiles whose
//!   type is 0.
//! - Speedup tiles were `{force, angle: i16}` (4 bytes with C padding after
//!   `force`), then `{force, type, angle: i16}` (72e05efc53, 2010-09-11),
//!   then 6 bytes with `max_speed` after `force` (a02bceafed, 2010-09-22).
//!   The old tiles convert with `max_speed` 0; byte 1 becomes the type.
//!   In the very first layout byte 1 was padding (0), and every speedup
//!   then behaved as that era's `TILE_BOOST`, 28, which is today's
//!   `TILE_SPEED_BOOST_OLD`: a type byte of 0 becomes 28, as twmap's
//!   converter does (it sets 28 on every old tile).
//!
//! Current DDNet (28baa427, `src/engine/shared/map.cpp`,
//! `ValidateAndUnpackTilesLayerData`) refuses these layers' data as
//! truncated; a strict view does the same.
//!
//! ```
//! # fn main() -> Result<(), gamefmt::Error> {
//! use gamefmt::datafile::{DatafileWriter, WriteVersion};
//! use gamefmt::map::{MapView, TileData, TILESLAYERFLAG_SWITCH};
//!
//! // A 2x1 switch layer whose data holds 2 bytes a tile: (number 7, type 22), (0, 0).
//! let mut w = DatafileWriter::new();
//! w.add_item(0, 0, &[1])?;
//! let tiles = w.add_data(&[0; 8]);
//! let old = w.add_data(&[7, 22, 0, 0]);
//! w.add_item(5, 0, &[
//!     0, 2, 0, 3, 2, 1, TILESLAYERFLAG_SWITCH, 255, 255, 255, 255, -1, 0, -1,
//!     tiles as i32, 0, 0, 0, -1, -1, -1, old as i32, -1,
//! ])?;
//! let bytes = w.finish(WriteVersion::V4)?;
//!
//! let map = MapView::parse(&bytes)?;
//! let layer = map.layer(0).and_then(|l| l.as_tiles()).expect("a tile layer");
//! assert!(layer.is_old_layout());
//! let mut buf = vec![0u8; layer.buffer_len()?];
//! let TileData::Switch(t) = layer.data_into(&mut buf)? else { unreachable!() };
//! assert_eq!((t[0].number, t[0].kind, t[0].flags, t[0].delay), (7, 22, 0, 0));
//! # Ok(()) }
//! ```

use crate::error::{Error, Result};
use crate::warning::WarningKind;

/// The speedup type of the first layout's tiles (2010's `TILE_BOOST`,
/// today's `TILE_SPEED_BOOST_OLD`).
const TILE_SPEED_BOOST_OLD: u8 = 28;

/// A 2010-era physics tile layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum OldLayout {
    /// Switch tiles of 2 bytes: number, type.
    Switch,
    /// Speedup tiles of 4 bytes: force, type, angle (i16).
    Speedup,
}

impl OldLayout {
    /// Bytes a tile took in the old layout.
    pub(super) const fn old_size(self) -> usize {
        match self {
            Self::Switch => 2,
            Self::Speedup => 4,
        }
    }

    /// Bytes a tile takes today.
    const fn new_size(self) -> usize {
        match self {
            Self::Switch => 4,
            Self::Speedup => 6,
        }
    }

    /// The warning naming the layout.
    pub(super) const fn warning(self) -> WarningKind {
        match self {
            Self::Switch => WarningKind::OldSwitchLayout,
            Self::Speedup => WarningKind::OldSpeedupLayout,
        }
    }
}

/// Converts old-layout tiles in place: `buf[packed_at..]` holds them; on
/// success `buf` holds as many tiles in today's layout.
///
/// Each new tile is longer than the old one and starts no later, so writing
/// tile `i` never reaches old tile `i + 1` (it is read before it is
/// overwritten).
pub(super) fn convert(layout: OldLayout, buf: &mut [u8], packed_at: usize) -> Result<()> {
    let (new, old) = (layout.new_size(), layout.old_size());
    let count = buf.len().checked_div(new).unwrap_or(0);
    let whole = buf.len().checked_rem(new) == Some(0)
        && buf.len().checked_sub(packed_at) == count.checked_mul(old);
    if !whole {
        return Err(Error::corrupt(
            "old tile layout does not fill the layer",
            packed_at,
        ));
    }
    for i in 0..count {
        let src = packed_at.saturating_add(i.saturating_mul(old));
        let dst = i.saturating_mul(new);
        let tile: [u8; 6] = match (layout, buf.get(src..src.saturating_add(old))) {
            // {number, type} -> {number, type, flags, delay}; no type, no number.
            (OldLayout::Switch, Some(&[number, kind])) => {
                [if kind == 0 { 0 } else { number }, kind, 0, 0, 0, 0]
            }
            // {force, type, angle} -> {force, max_speed, type, 0, angle};
            // no type (the first layout's padding) is the old boost.
            (OldLayout::Speedup, Some(&[force, kind, a0, a1])) => {
                let kind = if kind == 0 {
                    TILE_SPEED_BOOST_OLD
                } else {
                    kind
                };
                [force, 0, kind, 0, a0, a1]
            }
            _ => return Err(Error::truncated(src)),
        };
        if let (Some(out), Some(tile)) =
            (buf.get_mut(dst..dst.saturating_add(new)), tile.get(..new))
        {
            out.copy_from_slice(tile);
        }
    }
    Ok(())
}

#[cfg(test)]
#[allow(
    clippy::indexing_slicing,
    reason = "unit tests: a panic is the failure report"
)]
mod tests {
    use super::*;

    #[test]
    fn speedup_tiles_grow_in_place() {
        // Two old tiles at the tail of a 12-byte buffer.
        let mut buf = [0xAA, 0xAA, 0xAA, 0xAA, 5, 0, 0x5A, 0x00, 9, 12, 0x0E, 0x01];
        assert_eq!(convert(OldLayout::Speedup, &mut buf, 4), Ok(()));
        assert_eq!(buf, [5, 0, 28, 0, 0x5A, 0, 9, 0, 12, 0, 0x0E, 0x01]);
    }

    #[test]
    fn switch_tiles_grow_in_place() {
        let mut buf = [0xAA, 0xAA, 0xAA, 0xAA, 3, 22, 4, 0];
        assert_eq!(convert(OldLayout::Switch, &mut buf, 4), Ok(()));
        assert_eq!(buf, [3, 22, 0, 0, 0, 0, 0, 0]);
        // A length that is not a whole number of tiles is an error.
        let mut bad = [0u8; 8];
        assert!(convert(OldLayout::Switch, &mut bad, 3).is_err());
        assert!(convert(OldLayout::Speedup, &mut bad, 4).is_err());
    }
}
