//! [`AutomapperConfig`]: DDNet's `mapitemtype-automapper-config` items.

use zerocopy::little_endian::I32;

use super::field::int;
use crate::datafile::Item;

/// Ints of the layout: version, group, layer, config, seed, flags.
const INTS: usize = 6;

/// Which automapper rule set a tile layer uses (one item per automapped
/// layer; the editor re-runs it when the layer changes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AutomapperConfig<'a> {
    item: Item<'a>,
}

impl<'a> AutomapperConfig<'a> {
    /// Wraps an item of the automapper-config type; `None` when it is
    /// shorter than the 6 ints of the layout.
    #[must_use]
    pub fn new(item: Item<'a>) -> Option<Self> {
        (item.data().len() >= INTS).then_some(Self { item })
    }

    /// The raw item.
    #[must_use]
    pub const fn item(&self) -> Item<'a> {
        self.item
    }

    /// The item version.
    #[must_use]
    pub fn version(&self) -> i32 {
        int(self.item.data(), 0)
    }

    /// Index of the group holding the layer.
    #[must_use]
    pub fn group(&self) -> i32 {
        int(self.item.data(), 1)
    }

    /// Index of the layer within its group.
    #[must_use]
    pub fn layer(&self) -> i32 {
        int(self.item.data(), 2)
    }

    /// Index of the automapper configuration in the image's rules file.
    #[must_use]
    pub fn config(&self) -> i32 {
        int(self.item.data(), 3)
    }

    /// Random seed (0: a new one each run).
    #[must_use]
    pub fn seed(&self) -> i32 {
        int(self.item.data(), 4)
    }

    /// Flags (bit 0: run automatically).
    #[must_use]
    pub fn flags(&self) -> i32 {
        int(self.item.data(), 5)
    }

    /// Whether the editor runs the automapper automatically.
    #[must_use]
    pub fn is_automatic(&self) -> bool {
        self.flags() & 1 != 0
    }

    /// Ints after the known layout.
    #[must_use]
    pub fn extra(&self) -> &'a [I32] {
        self.item.data().get(INTS..).unwrap_or_default()
    }
}
