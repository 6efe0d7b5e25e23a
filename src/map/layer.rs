//! [`Layer`]: LAYER items, by layer type — tile layers
//! ([`TileLayer`]), quad layers ([`QuadLayer`]) and sound layers
//! ([`SoundLayer`]).

use super::field::{ItemRange, int, require_len};
use super::quads::QuadLayer;
use super::raw::{QUADS_V1_INTS, SOUNDS_MIN_INTS};
use super::sound_layer::SoundLayer;
use super::tiles::{TileKind, TileLayer};
use super::{
    LAYERFLAG_DETAIL, LAYERTYPE_QUADS, LAYERTYPE_SOUNDS, LAYERTYPE_SOUNDS_DEPRECATED,
    LAYERTYPE_TILES,
};
use crate::datafile::{DatafileView, Item};
use crate::error::Result;
use crate::i32string::I32String;

/// Ints of the common layer head: version (unused), type, flags.
const HEAD_INTS: usize = 3;

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

    /// Layer item `index` of `layers` (the map's LAYER items).
    pub(super) fn nth(df: DatafileView<'a>, layers: ItemRange, index: usize) -> Option<Self> {
        layers.nth(&df, index).map(|item| Self::new(df, item))
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
