//! [`TileLayer`]: tile layers (layer type 2) with DDNet's physics kinds,
//! and their tiles as borrowed typed slices, TW0.7 run-length tiles
//! expanded in the caller's buffer.

use zerocopy::little_endian::I32;
use zerocopy::{FromBytes, Immutable, KnownLayout};

use super::field::{index, int, require_len};
use super::old_layouts::{OldLayout, convert};
use super::raw::{SpeedupTile, SwitchTile, TILE_SIZE, TeleTile, Tile, TuneTile};
use super::{
    TILESLAYERFLAG_FRONT, TILESLAYERFLAG_GAME, TILESLAYERFLAG_SPEEDUP, TILESLAYERFLAG_SWITCH,
    TILESLAYERFLAG_TELE, TILESLAYERFLAG_TUNE,
};
use crate::datafile::{DatafileView, Item};
use crate::error::{Error, ErrorKind, Result};
use crate::i32string::I32String;
use crate::warning::{Warning, WarningKind};

/// Ints of a tilemap version 2 item (head included).
const TILEMAP_V2_INTS: usize = 15;
/// Ints of a tilemap version 3/4 item without DDNet's physics indices.
const TILEMAP_V3_INTS: usize = 18;
/// Physics data indices DDNet appends to tilemaps (tele, speedup, front,
/// switch, tune).
const PHYSICS_INTS: usize = 5;

/// The kind of a tile layer, from its flags (at most one is set).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum TileKind {
    /// The game (collision and entities) layer.
    Game,
    /// A design layer.
    Tiles,
    /// DDNet teleporters ([`TeleTile`]).
    Tele,
    /// DDNet speedups ([`SpeedupTile`]).
    Speedup,
    /// DDNet's second game layer ([`Tile`]).
    Front,
    /// DDNet switches ([`SwitchTile`]).
    Switch,
    /// DDNet tune zones ([`TuneTile`]).
    Tune,
}

impl TileKind {
    /// The kind named by tilemap flags (design layer when none is set).
    #[must_use]
    pub const fn from_flags(flags: i32) -> Self {
        if flags & TILESLAYERFLAG_GAME != 0 {
            Self::Game
        } else if flags & TILESLAYERFLAG_TELE != 0 {
            Self::Tele
        } else if flags & TILESLAYERFLAG_SPEEDUP != 0 {
            Self::Speedup
        } else if flags & TILESLAYERFLAG_FRONT != 0 {
            Self::Front
        } else if flags & TILESLAYERFLAG_SWITCH != 0 {
            Self::Switch
        } else if flags & TILESLAYERFLAG_TUNE != 0 {
            Self::Tune
        } else {
            Self::Tiles
        }
    }

    /// Bytes per tile of this kind's data: 4 (game, tiles, front, switch),
    /// 2 (tele, tune) or 6 (speedup).
    #[must_use]
    pub const fn element_size(self) -> usize {
        match self {
            Self::Game | Self::Tiles | Self::Front | Self::Switch => 4,
            Self::Tele | Self::Tune => 2,
            Self::Speedup => 6,
        }
    }

    /// A short lowercase name, e.g. `game` or `speedup`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Game => "game",
            Self::Tiles => "tiles",
            Self::Tele => "tele",
            Self::Speedup => "speedup",
            Self::Front => "front",
            Self::Switch => "switch",
            Self::Tune => "tune",
        }
    }

    /// Position of this kind's data index among DDNet's physics indices.
    const fn physics_slot(self) -> Option<usize> {
        match self {
            Self::Game | Self::Tiles => None,
            Self::Tele => Some(0),
            Self::Speedup => Some(1),
            Self::Front => Some(2),
            Self::Switch => Some(3),
            Self::Tune => Some(4),
        }
    }
}

/// A tile layer's data as typed tiles, by kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileData<'b> {
    /// Game, design and front layers.
    Tiles(&'b [Tile]),
    /// Tele layers.
    Tele(&'b [TeleTile]),
    /// Speedup layers.
    Speedup(&'b [SpeedupTile]),
    /// Switch layers.
    Switch(&'b [SwitchTile]),
    /// Tune layers.
    Tune(&'b [TuneTile]),
}

impl<'b> TileData<'b> {
    /// Reads `bytes` (exactly width × height elements) as tiles of `kind`.
    pub fn from_bytes(kind: TileKind, bytes: &'b [u8]) -> Result<Self> {
        fn cast<T: FromBytes + KnownLayout + Immutable>(b: &[u8]) -> Result<&[T]> {
            <[T]>::ref_from_bytes(b).map_err(|_| Error::new(ErrorKind::Truncated, b.len()))
        }
        Ok(match kind {
            TileKind::Game | TileKind::Tiles | TileKind::Front => Self::Tiles(cast(bytes)?),
            TileKind::Tele => Self::Tele(cast(bytes)?),
            TileKind::Speedup => Self::Speedup(cast(bytes)?),
            TileKind::Switch => Self::Switch(cast(bytes)?),
            TileKind::Tune => Self::Tune(cast(bytes)?),
        })
    }

    /// Number of tiles.
    #[must_use]
    pub const fn len(&self) -> usize {
        match self {
            Self::Tiles(t) => t.len(),
            Self::Tele(t) => t.len(),
            Self::Speedup(t) => t.len(),
            Self::Switch(t) => t.len(),
            Self::Tune(t) => t.len(),
        }
    }

    /// Whether there are no tiles.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A tile layer (layer type 2).
///
/// Item layouts (ints, head included): version 2 has 15; DDRace-era version
/// 2 items append the tele, speedup, front, switch and tune data indices
/// (any prefix of them: 17, 19 or 20 ints); version 3 adds a name (18) and
/// DDNet's five physics indices after it (23); TW0.7's version 4 (18) stores
/// run-length packed tiles.
#[derive(Clone, Copy, Debug)]
pub struct TileLayer<'a> {
    df: DatafileView<'a>,
    item: Item<'a>,
}

impl<'a> TileLayer<'a> {
    pub(super) const fn new(df: DatafileView<'a>, item: Item<'a>) -> Self {
        Self { df, item }
    }

    pub(super) fn check(item: &Item<'_>) -> Result<()> {
        require_len(item, TILEMAP_V2_INTS, "tile layer shorter than 15 ints")?;
        let d = item.data();
        let version = int(d, 3);
        if !(2..=4).contains(&version) {
            return Err(Error::new(
                ErrorKind::UnsupportedVersion(i64::from(version)),
                item.offset().saturating_add(8 + 12),
            ));
        }
        if version >= 3 {
            require_len(item, TILEMAP_V3_INTS, "tile layer v3 shorter than 18 ints")?;
        }
        let flags = int(d, 6);
        if (flags & 0x3F).count_ones() > 1 {
            return Err(Error::corrupt(
                "tile layer has more than one physics flag",
                item.offset(),
            ));
        }
        if int(d, 4) < 1 || int(d, 5) < 1 {
            return Err(Error::corrupt(
                "tile layer width or height below 1",
                item.offset(),
            ));
        }
        let kind = TileKind::from_flags(flags);
        let lacks_index = kind.physics_slot().is_some_and(|slot| {
            physics_base(version)
                .checked_add(slot)
                .is_none_or(|i| i >= d.len())
        });
        if lacks_index {
            return Err(Error::corrupt(
                "physics tile layer lacks its data index",
                item.offset(),
            ));
        }
        Ok(())
    }

    /// The raw item.
    #[must_use]
    pub const fn item(&self) -> Item<'a> {
        self.item
    }

    /// The tilemap version: 2, 3, or 4 (TW0.7, run-length packed tiles).
    #[must_use]
    pub fn version(&self) -> i32 {
        int(self.item.data(), 3)
    }

    /// Width in tiles (at least 1).
    #[must_use]
    pub fn width(&self) -> usize {
        usize::try_from(int(self.item.data(), 4)).unwrap_or(0)
    }

    /// Height in tiles (at least 1).
    #[must_use]
    pub fn height(&self) -> usize {
        usize::try_from(int(self.item.data(), 5)).unwrap_or(0)
    }

    /// The tilemap flags (1 game, 2 tele, 4 speedup, 8 front, 16 switch,
    /// 32 tune).
    #[must_use]
    pub fn tilemap_flags(&self) -> i32 {
        int(self.item.data(), 6)
    }

    /// The layer's kind, from its flags.
    #[must_use]
    pub fn kind(&self) -> TileKind {
        TileKind::from_flags(self.tilemap_flags())
    }

    /// The colour (r, g, b, a).
    #[must_use]
    pub fn color(&self) -> [i32; 4] {
        let d = self.item.data();
        [int(d, 7), int(d, 8), int(d, 9), int(d, 10)]
    }

    /// Colour envelope index (−1: none).
    #[must_use]
    pub fn color_env(&self) -> i32 {
        int(self.item.data(), 11)
    }

    /// Colour envelope time offset (ms).
    #[must_use]
    pub fn color_env_offset(&self) -> i32 {
        int(self.item.data(), 12)
    }

    /// Image index (−1: none).
    #[must_use]
    pub fn image(&self) -> i32 {
        int(self.item.data(), 13)
    }

    /// Data index of the [`Tile`] grid. Physics layers have one too (DDNet
    /// fills it with the layer's tile indices for the editor).
    #[must_use]
    pub fn tiles_data_index(&self) -> i32 {
        int(self.item.data(), 14)
    }

    /// The name (version 3 and later).
    #[must_use]
    pub fn name(&self) -> Option<I32String<'a>> {
        if self.version() < 3 {
            return None;
        }
        self.item
            .data()
            .get(TILEMAP_V2_INTS..TILEMAP_V3_INTS)
            .map(I32String::new)
    }

    /// The data index DDNet stores for a physics kind (tele, speedup,
    /// front, switch, tune); `None` for game and design kinds, and when the
    /// item is too short to hold it (old maps stored only a prefix of these
    /// indices) — DDNet reads such an index as −1.
    #[must_use]
    pub fn physics_data_index(&self, kind: TileKind) -> Option<i32> {
        let slot = kind.physics_slot()?;
        self.item
            .int(physics_base(self.version()).checked_add(slot)?)
    }

    /// Data index of this layer's own tiles: the
    /// [`tiles_data_index`](Self::tiles_data_index) for game and design
    /// layers, the physics index of its kind otherwise (−1 if absent).
    #[must_use]
    pub fn data_index(&self) -> i32 {
        let kind = self.kind();
        match kind.physics_slot() {
            None => self.tiles_data_index(),
            Some(_) => self.physics_data_index(kind).unwrap_or(-1),
        }
    }

    /// Ints after the known layout of the item's version.
    #[must_use]
    pub fn extra(&self) -> &'a [I32] {
        let known = physics_base(self.version()).saturating_add(PHYSICS_INTS);
        self.item.data().get(known..).unwrap_or_default()
    }

    /// Whether this switch or speedup layer stores its tiles in the
    /// 2010-era DDRace layout (2 or 4 bytes a tile: its data item holds
    /// exactly width × height tiles of that size).
    /// [`data_into`](Self::data_into) converts them into today's tiles; see
    /// [`OldSwitchLayout`](crate::WarningKind::OldSwitchLayout) and
    /// [`OldSpeedupLayout`](crate::WarningKind::OldSpeedupLayout).
    #[must_use]
    pub fn is_old_layout(&self) -> bool {
        self.old_layout().is_some()
    }

    /// The warning for an old layout (see [`is_old_layout`](Self::is_old_layout)).
    pub(super) fn old_layout_warning(&self) -> Option<Warning> {
        self.old_layout()
            .map(|layout| Warning::new(layout.warning(), self.item.offset()))
    }

    /// The 2010-era layout this layer's data is stored in, if any.
    fn old_layout(&self) -> Option<OldLayout> {
        let layout = match self.kind() {
            TileKind::Switch => OldLayout::Switch,
            TileKind::Speedup => OldLayout::Speedup,
            _ => return None,
        };
        if self.version() >= 4 {
            return None;
        }
        let data = index(self.data_index()).filter(|&i| i < self.df.data_count())?;
        let declared = self.df.data_size(data)?;
        let old_len = self.tile_count()?.checked_mul(layout.old_size())?;
        (declared == old_len && declared > 0).then_some(layout)
    }

    /// Number of tiles: width × height (`None` on overflow).
    #[must_use]
    pub fn tile_count(&self) -> Option<usize> {
        self.width().checked_mul(self.height())
    }

    /// Bytes a buffer needs for [`data_into`](Self::data_into): width ×
    /// height × element size, or the data item's inflated size if larger.
    pub fn buffer_len(&self) -> Result<usize> {
        self.buffer_len_for(self.data_index(), self.kind().element_size())
    }

    /// Bytes a buffer needs for [`tiles_into`](Self::tiles_into).
    pub fn tiles_buffer_len(&self) -> Result<usize> {
        self.buffer_len_for(self.tiles_data_index(), TILE_SIZE)
    }

    /// Inflates this layer's own tiles into `buf` and returns them typed by
    /// kind, exactly width × height of them, row by row. TW0.7 run-length
    /// packed tiles (version 4) are expanded in `buf`, and 2010-era switch
    /// and speedup tiles ([`is_old_layout`](Self::is_old_layout)) converted
    /// into today's ([`ErrorKind::Refused`] in a strict view, as current
    /// DDNet refuses them).
    ///
    /// `buf` must hold [`buffer_len`](Self::buffer_len) bytes
    /// ([`ErrorKind::BufferTooSmall`] otherwise).
    pub fn data_into<'b>(&self, buf: &'b mut [u8]) -> Result<TileData<'b>> {
        let kind = self.kind();
        if self.version() >= 4 && kind.physics_slot().is_some() {
            return Err(Error::corrupt(
                "run-length tiles in a physics layer",
                self.item.offset(),
            ));
        }
        if let Some(layout) = self.old_layout() {
            if self.df.is_strict() {
                return Err(Error::from(Warning::new(
                    layout.warning(),
                    self.item.offset(),
                )));
            }
            return TileData::from_bytes(kind, self.read_old(layout, buf)?);
        }
        let bytes = self.read(self.data_index(), kind.element_size(), buf)?;
        let data = TileData::from_bytes(kind, bytes)?;
        if self.df.is_strict() && self.version() < 4 {
            self.check_padding(&data)?;
        }
        Ok(data)
    }

    /// DDNet's data rule (`ValidateAndUnpackTilesLayerData`, 28baa427): no
    /// skip or padding byte set in tiles stored unpacked, no padding byte
    /// set in speedup tiles.
    fn check_padding(&self, data: &TileData<'_>) -> Result<()> {
        let rule = match data {
            TileData::Tiles(t) if t.iter().any(|t| t.skip != 0 || t.reserved != 0) => {
                "tile data has a skip or padding byte set"
            }
            TileData::Speedup(t) if t.iter().any(|t| t.reserved != 0) => {
                "speedup tile data has a padding byte set"
            }
            _ => return Ok(()),
        };
        let at = index(self.data_index())
            .and_then(|i| self.df.data_offset(i))
            .unwrap_or(0);
        Err(Error::from(Warning::new(
            WarningKind::DdnetRule { rule },
            at,
        )))
    }

    /// Inflates old-layout tiles into the tail of `buf` and converts them.
    fn read_old<'b>(&self, layout: OldLayout, buf: &'b mut [u8]) -> Result<&'b [u8]> {
        let kind = self.kind();
        let needed = self.needed(kind.element_size())?;
        let data = self.data_item(self.data_index())?;
        let declared = self.df.data_size(data).unwrap_or(0);
        let at = self.df.data_offset(data).unwrap_or(0);
        let Some(out) = buf.get_mut(..needed) else {
            return Err(Error::new(ErrorKind::BufferTooSmall { needed }, at));
        };
        let packed_at = needed.saturating_sub(declared);
        self.df
            .decompress_into(data, out.get_mut(packed_at..).unwrap_or_default())?;
        convert(layout, out, packed_at).map_err(|e| e.shifted(at))?;
        Ok(out)
    }

    /// Inflates the layer's [`Tile`] grid (for physics layers: the grid of
    /// [`tiles_data_index`](Self::tiles_data_index)) into `buf`; see
    /// [`data_into`](Self::data_into).
    pub fn tiles_into<'b>(&self, buf: &'b mut [u8]) -> Result<&'b [Tile]> {
        let bytes = self.read(self.tiles_data_index(), TILE_SIZE, buf)?;
        <[Tile]>::ref_from_bytes(bytes).map_err(|_| Error::truncated(bytes.len()))
    }

    /// This layer's own tiles in a new buffer; see [`data_into`](Self::data_into).
    #[cfg(feature = "alloc")]
    pub fn data_to_vec(&self) -> Result<TileBuffer> {
        let len = self.buffer_len()?;
        // Refuse before allocating what the stored bytes cannot produce:
        // zlib inflates at most 1032:1 (v3 data is stored as is), and a
        // packed tile stands for at most 256 tiles.
        let data = self.data_item(self.data_index())?;
        let stored = self.df.data_raw(data).map_or(0, <[u8]>::len);
        let declared = self.df.data_size(data).unwrap_or(0);
        let expand = if self.version() >= 4 { 256 } else { 1 };
        let at = self.df.data_offset(data).unwrap_or(0);
        if self.df.version() == 4 && declared > stored.saturating_mul(1032).saturating_add(64) {
            return Err(Error::new(ErrorKind::Decompress, at));
        }
        if len > declared.saturating_mul(expand) && !self.is_old_layout() {
            return Err(Error::corrupt("tile data too short for width * height", at));
        }
        let mut bytes = alloc::vec![0u8; len];
        let n = self
            .data_into(&mut bytes)?
            .len()
            .saturating_mul(self.kind().element_size());
        bytes.truncate(n);
        Ok(TileBuffer {
            kind: self.kind(),
            bytes,
        })
    }

    fn buffer_len_for(&self, data_index: i32, elem: usize) -> Result<usize> {
        let needed = self.needed(elem)?;
        if self.version() >= 4 {
            return Ok(needed);
        }
        let declared = self.data_item(data_index).and_then(|i| {
            self.df
                .data_size(i)
                .ok_or(Error::new(ErrorKind::OutOfBounds, self.item.offset()))
        })?;
        Ok(needed.max(declared))
    }

    fn needed(&self, elem: usize) -> Result<usize> {
        self.tile_count()
            .and_then(|n| n.checked_mul(elem))
            .ok_or(Error::corrupt("tile layer too large", self.item.offset()))
    }

    fn data_item(&self, data_index: i32) -> Result<usize> {
        index(data_index)
            .filter(|&i| i < self.df.data_count())
            .ok_or(Error::corrupt(
                "tile data index out of range",
                self.item.offset(),
            ))
    }

    /// Inflates data item `data_index` holding `elem`-byte tiles into `buf`
    /// and returns exactly width × height of them.
    fn read<'b>(&self, data_index: i32, elem: usize, buf: &'b mut [u8]) -> Result<&'b [u8]> {
        let needed = self.needed(elem)?;
        let data = self.data_item(data_index)?;
        let declared = self.df.data_size(data).unwrap_or(0);
        let at = self.df.data_offset(data).unwrap_or(0);
        if self.version() >= 4 {
            if declared % TILE_SIZE != 0 || declared > needed {
                return Err(Error::corrupt(
                    "run-length tile data larger than the layer",
                    at,
                ));
            }
            let Some(out) = buf.get_mut(..needed) else {
                return Err(Error::new(ErrorKind::BufferTooSmall { needed }, at));
            };
            let packed_at = needed.saturating_sub(declared);
            self.df
                .decompress_into(data, out.get_mut(packed_at..).unwrap_or_default())?;
            expand_tiles(out, packed_at).map_err(|e| e.shifted(at))?;
            return Ok(out);
        }
        if declared < needed {
            return Err(Error::corrupt(
                "tile data shorter than width * height tiles",
                at,
            ));
        }
        let out = self.df.decompress_into(data, buf)?;
        Ok(out.get(..needed).unwrap_or_default())
    }
}

/// First int of DDNet's physics data indices for a tilemap version: right
/// after the data index in version 2, after the name from version 3 on.
const fn physics_base(version: i32) -> usize {
    if version <= 2 {
        TILEMAP_V2_INTS
    } else {
        TILEMAP_V3_INTS
    }
}

/// Expands run-length packed tiles in place: `buf[packed_at..]` holds packed
/// [`Tile`]s (each followed by `skip` repeats of itself); on success `buf`
/// holds exactly `buf.len() / 4` tiles with `skip` and `reserved` zeroed.
///
/// Writing never overtakes reading: every packed tile still to come needs
/// at least one slot, so a run that would write past the current read
/// position cannot fit and is an error (except for the last run, which is
/// cut to fit, as DDNet does).
fn expand_tiles(buf: &mut [u8], packed_at: usize) -> Result<()> {
    let total = buf.len() / TILE_SIZE;
    let mut src = packed_at / TILE_SIZE;
    let mut dst = 0usize;
    while src < total {
        let at = src.saturating_mul(TILE_SIZE);
        let Some(&[index, flags, skip, _]) = buf.get(at..at.saturating_add(TILE_SIZE)) else {
            return Err(Error::truncated(at));
        };
        let later = total.saturating_sub(src).saturating_sub(1);
        let room = total.saturating_sub(later).saturating_sub(dst);
        let mut run = usize::from(skip).saturating_add(1);
        if run > room {
            if later != 0 {
                return Err(Error::corrupt("run-length tiles overflow the layer", at));
            }
            run = room;
        }
        let start = dst.saturating_mul(TILE_SIZE);
        let end = dst.saturating_add(run).saturating_mul(TILE_SIZE);
        for tile in buf
            .get_mut(start..end)
            .unwrap_or_default()
            .chunks_exact_mut(TILE_SIZE)
        {
            tile.copy_from_slice(&[index, flags, 0, 0]);
        }
        dst = dst.saturating_add(run);
        src = src.saturating_add(1);
    }
    if dst != total {
        return Err(Error::corrupt(
            "run-length tiles do not fill the layer",
            buf.len(),
        ));
    }
    Ok(())
}

/// A tile layer's tiles in an owned buffer (feature `alloc`); see
/// [`TileLayer::data_to_vec`].
#[cfg(feature = "alloc")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileBuffer {
    kind: TileKind,
    bytes: alloc::vec::Vec<u8>,
}

#[cfg(feature = "alloc")]
impl TileBuffer {
    /// The layer kind the tiles belong to.
    #[must_use]
    pub const fn kind(&self) -> TileKind {
        self.kind
    }

    /// The raw tile bytes (width × height × element size).
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The tiles, typed by kind.
    #[must_use]
    pub fn data(&self) -> TileData<'_> {
        // The length is a whole number of elements by construction.
        TileData::from_bytes(self.kind, &self.bytes).unwrap_or(TileData::Tiles(&[]))
    }
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    reason = "unit tests: a panic is the failure report"
)]
mod tests {
    use super::*;

    fn expand(packed: &[[u8; 4]], total: usize) -> Result<std::vec::Vec<u8>> {
        let mut buf = std::vec![0xAAu8; total * 4];
        let at = (total - packed.len()) * 4;
        for (i, t) in packed.iter().enumerate() {
            buf[at + i * 4..at + i * 4 + 4].copy_from_slice(t);
        }
        expand_tiles(&mut buf, at).map(|()| buf)
    }

    #[test]
    fn run_length_tiles_expand_in_place() {
        // 1 then 2 repeats = 3 tiles of index 1, then one tile of index 5.
        let out = expand(&[[1, 8, 2, 0], [5, 0, 0, 0]], 4).unwrap();
        assert_eq!(out, [1, 8, 0, 0, 1, 8, 0, 0, 1, 8, 0, 0, 5, 0, 0, 0]);
        // Unpacked data (all skips 0) is unchanged.
        let out = expand(&[[1, 0, 0, 0], [2, 0, 0, 0]], 2).unwrap();
        assert_eq!(out, [1, 0, 0, 0, 2, 0, 0, 0]);
        // The last run is cut to fit.
        let out = expand(&[[3, 0, 9, 0]], 2).unwrap();
        assert_eq!(out, [3, 0, 0, 0, 3, 0, 0, 0]);
    }

    #[test]
    fn run_length_errors() {
        // Too few tiles.
        assert!(expand(&[[1, 0, 0, 0]], 1).is_ok());
        let mut buf = [1u8, 0, 0, 0, 0, 0, 0, 0];
        assert!(expand_tiles(&mut buf, 4).is_err());
        // A run that overflows before the last packed tile.
        assert!(expand(&[[1, 0, 3, 0], [2, 0, 0, 0]], 3).is_err());
    }
}
