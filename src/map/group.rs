//! [`Group`]: a GROUP item, a run of layers sharing offset, parallax and
//! clipping.

use zerocopy::little_endian::I32;

use super::field::{ItemRange, int};
use super::layer::Layer;
use crate::datafile::{DatafileView, Item};
use crate::error::{Error, Result};
use crate::i32string::I32String;

/// Ints of group version 1: version, offset x/y, parallax x/y, start layer,
/// layer count.
const V1_INTS: usize = 7;
/// Version 2: + use_clipping, clip x/y/w/h.
const V2_INTS: usize = 12;
/// Version 3: + name (3 ints).
const V3_INTS: usize = 15;

/// A group's clip rectangle (version 2 and later, when enabled).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Clip {
    /// Left edge (world units).
    pub x: i32,
    /// Top edge.
    pub y: i32,
    /// Width.
    pub w: i32,
    /// Height.
    pub h: i32,
}

/// A GROUP item.
#[derive(Clone, Copy, Debug)]
pub struct Group<'a> {
    df: DatafileView<'a>,
    /// The map's LAYER items, which the group indexes.
    layers: ItemRange,
    item: Item<'a>,
}

impl<'a> Group<'a> {
    pub(super) const fn new(df: DatafileView<'a>, layers: ItemRange, item: Item<'a>) -> Self {
        Self { df, layers, item }
    }

    /// The raw item.
    #[must_use]
    pub const fn item(&self) -> Item<'a> {
        self.item
    }

    /// The item version: 1, 2 (clipping) or 3 (name).
    #[must_use]
    pub fn version(&self) -> i32 {
        int(self.item.data(), 0)
    }

    /// Offset (x, y) in world units.
    #[must_use]
    pub fn offset(&self) -> (i32, i32) {
        (int(self.item.data(), 1), int(self.item.data(), 2))
    }

    /// Parallax (x, y) in percent.
    #[must_use]
    pub fn parallax(&self) -> (i32, i32) {
        (int(self.item.data(), 3), int(self.item.data(), 4))
    }

    /// Index of the group's first layer among all layer items.
    #[must_use]
    pub fn start_layer(&self) -> usize {
        usize::try_from(int(self.item.data(), 5)).unwrap_or(0)
    }

    /// Number of layers in the group.
    #[must_use]
    pub fn layer_count(&self) -> usize {
        usize::try_from(int(self.item.data(), 6)).unwrap_or(0)
    }

    /// The clip rectangle, when the item has one and enables it.
    #[must_use]
    pub fn clipping(&self) -> Option<Clip> {
        let d = self.item.data();
        if self.version() < 2 || d.len() < V2_INTS || int(d, 7) == 0 {
            return None;
        }
        Some(Clip {
            x: int(d, 8),
            y: int(d, 9),
            w: int(d, 10),
            h: int(d, 11),
        })
    }

    /// The name (version 3 and later).
    #[must_use]
    pub fn name(&self) -> Option<I32String<'a>> {
        if self.version() < 3 {
            return None;
        }
        self.item.data().get(V2_INTS..V3_INTS).map(I32String::new)
    }

    /// Ints after the known layout of the item's version.
    #[must_use]
    pub fn extra(&self) -> &'a [I32] {
        let known = match self.version() {
            ..=1 => V1_INTS,
            2 => V2_INTS,
            _ => V3_INTS,
        };
        self.item.data().get(known..).unwrap_or_default()
    }

    /// The group's layers, in drawing order.
    /// (Their indices were checked against the layer items when the map
    /// was parsed, so this yields [`layer_count`](Self::layer_count) layers.)
    pub fn layers(&self) -> impl Iterator<Item = Layer<'a>> + 'a {
        let (df, layers) = (self.df, self.layers);
        let start = self.start_layer();
        (0..self.layer_count()).filter_map(move |i| Layer::nth(df, layers, start.saturating_add(i)))
    }

    /// Checks the item's size and that its layers exist.
    pub(super) fn check(item: &Item<'_>, layer_items: usize) -> Result<()> {
        super::field::require_len(item, V1_INTS, "GROUP item shorter than 7 ints")?;
        let d = item.data();
        let (start, count) = (int(d, 5), int(d, 6));
        let end = usize::try_from(start)
            .ok()
            .zip(usize::try_from(count).ok())
            .and_then(|(s, c)| s.checked_add(c));
        if end.is_none_or(|e| e > layer_items) {
            return Err(Error::corrupt(
                "group refers to layers that do not exist",
                item.offset(),
            ));
        }
        Ok(())
    }
}
