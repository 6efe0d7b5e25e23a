//! [`Layer`]: LAYER items, by layer type — tile layers
//! ([`TileLayer`]), quad layers ([`QuadLayer`]) and sound layers
//! ([`SoundLayer`]).

use super::quads::QuadLayer;
use super::sound_layer::SoundLayer;
use super::tiles::{TileKind, TileLayer};
use super::view::{index, int, require_len};
use super::{
    LAYERFLAG_DETAIL, LAYERTYPE_QUADS, LAYERTYPE_SOUNDS, LAYERTYPE_SOUNDS_DEPRECATED,
    LAYERTYPE_TILES,
};
use crate::datafile::{DatafileView, Item};
use crate::error::{Error, Result};
use crate::i32string::I32String;

/// Ints of the common layer head: version (unused), type, flags.
const HEAD_INTS: usize = 3;
/// Ints of a quads layer version 1 (head included).
pub(super) const QUADS_V1_INTS: usize = 7;
/// Ints of a quads or sounds layer with a name.
pub(super) const NAMED_INTS: usize = 10;
/// Ints of a sounds layer without its name.
pub(super) const SOUNDS_MIN_INTS: usize = 7;

/// What a layer is: the kind of a tile layer, or quads/sounds/unknown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum LayerKind {
    /// A tile layer; see [`TileKind`].
    Tiles(TileKind),
    /// A quads layer.
    Quads,
    /// A sounds layer (type 10).
    Sounds,
    /// A sounds layer of the deprecated type 9.
    DeprecatedSounds,
    /// A layer type this crate does not know (the type number).
    Unknown(i32),
}

impl LayerKind {
    /// A short lowercase name: `game`, `tiles`, `tele`, `speedup`, `front`,
    /// `switch`, `tune`, `quads`, `sounds`, `sounds_deprecated` or `unknown`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Tiles(kind) => kind.name(),
            Self::Quads => "quads",
            Self::Sounds => "sounds",
            Self::DeprecatedSounds => "sounds_deprecated",
            Self::Unknown(_) => "unknown",
        }
    }
}

/// A LAYER item, by layer type.
#[derive(Clone, Copy, Debug)]
pub enum Layer<'a> {
    /// A tile layer (type 2).
    Tiles(TileLayer<'a>),
    /// A quads layer (type 3).
    Quads(QuadLayer<'a>),
    /// A sounds layer (type 10, or the deprecated type 9).
    Sounds(SoundLayer<'a>),
    /// Another layer type, passed through.
    Unknown(Item<'a>),
}

impl<'a> Layer<'a> {
    pub(super) fn new(df: DatafileView<'a>, item: Item<'a>) -> Self {
        match int(item.data(), 1) {
            LAYERTYPE_TILES => Self::Tiles(TileLayer::new(df, item)),
            LAYERTYPE_QUADS => Self::Quads(QuadLayer::new(df, item)),
            LAYERTYPE_SOUNDS | LAYERTYPE_SOUNDS_DEPRECATED => {
                Self::Sounds(SoundLayer::new(df, item))
            }
            _ => Self::Unknown(item),
        }
    }

    /// Checks a layer item as [`MapView::new`](super::MapView::new) does.
    pub(super) fn check(item: &Item<'_>) -> Result<()> {
        require_len(item, HEAD_INTS, "LAYER item shorter than its 3-int head")?;
        match int(item.data(), 1) {
            LAYERTYPE_TILES => TileLayer::check(item),
            LAYERTYPE_QUADS => require_len(item, QUADS_V1_INTS, "quads layer shorter than 7 ints"),
            LAYERTYPE_SOUNDS | LAYERTYPE_SOUNDS_DEPRECATED => {
                require_len(item, SOUNDS_MIN_INTS, "sounds layer shorter than 7 ints")
            }
            _ => Ok(()),
        }
    }

    /// The raw item.
    #[must_use]
    pub const fn item(&self) -> Item<'a> {
        match self {
            Self::Tiles(l) => l.item(),
            Self::Quads(l) => l.item(),
            Self::Sounds(l) => l.item(),
            Self::Unknown(item) => *item,
        }
    }

    /// The layer type number: 2 tiles, 3 quads, 9 deprecated sounds, 10
    /// sounds.
    #[must_use]
    pub fn layer_type(&self) -> i32 {
        int(self.item().data(), 1)
    }

    /// The layer flags (bit 0: detail, only drawn with high detail on).
    #[must_use]
    pub fn flags(&self) -> i32 {
        int(self.item().data(), 2)
    }

    /// Whether the detail flag is set.
    #[must_use]
    pub fn is_detail(&self) -> bool {
        self.flags() & LAYERFLAG_DETAIL != 0
    }

    /// What the layer is.
    #[must_use]
    pub fn kind(&self) -> LayerKind {
        match self {
            Self::Tiles(l) => LayerKind::Tiles(l.kind()),
            Self::Quads(_) => LayerKind::Quads,
            Self::Sounds(l) if l.is_deprecated() => LayerKind::DeprecatedSounds,
            Self::Sounds(_) => LayerKind::Sounds,
            Self::Unknown(_) => LayerKind::Unknown(self.layer_type()),
        }
    }

    /// The layer's name, if its version stores one.
    #[must_use]
    pub fn name(&self) -> Option<I32String<'a>> {
        match self {
            Self::Tiles(l) => l.name(),
            Self::Quads(l) => l.name(),
            Self::Sounds(l) => l.name(),
            Self::Unknown(_) => None,
        }
    }

    /// The tile layer, if this is one.
    #[must_use]
    pub const fn as_tiles(&self) -> Option<TileLayer<'a>> {
        match self {
            Self::Tiles(l) => Some(*l),
            _ => None,
        }
    }
}

/// Inflates `count` records of `size` bytes from data item `data_index`
/// into `buf`; the data item may be longer. No records need no data.
pub(super) fn read_records<'b>(
    df: &DatafileView<'_>,
    item: &Item<'_>,
    data_index: i32,
    count: usize,
    size: usize,
    buf: &'b mut [u8],
) -> Result<&'b [u8]> {
    if count == 0 {
        return Ok(&[]);
    }
    let needed = count
        .checked_mul(size)
        .ok_or(Error::corrupt("layer too large", item.offset()))?;
    let Some(data) = index(data_index).filter(|&i| i < df.data_count()) else {
        return Err(Error::corrupt(
            "layer data index out of range",
            item.offset(),
        ));
    };
    let at = df.data_offset(data).unwrap_or(0);
    if df.data_size(data).unwrap_or(0) < needed {
        return Err(Error::corrupt("layer data shorter than its records", at));
    }
    let out = df.decompress_into(data, buf)?;
    Ok(out.get(..needed).unwrap_or_default())
}
